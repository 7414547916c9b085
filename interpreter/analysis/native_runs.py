"""Runs of bot games in the native kernel (interpreter/native/), where it covers the game and the
seats: the same summary as :func:`.simulation.simulate`, or the reason the run stays in Python; and
where the search bots of a run play their rollouts (:func:`rollout_engine`).

Game i uses seed ``seed + i`` as in Python; the kernel's random seats draw from their own splitmix
stream (:func:`policy_seed`), so a native run plays the same kind of games as a Python run of
``random`` seats, not the very same ones (Python's random bot draws from ``random.Random``)."""
from __future__ import annotations

import time

from dsl.errors import RulebookError

from ..bots.rollouts import rollout_kernel, searching
from ..native import NativeUnavailable, kernel_for
from ..runtime.splitmix import mixed
from .playing import GameResult, RunSpec
from .simulation import summarize

NATIVE_SEATS = ("random",)  # the policies the kernel has so far


def policy_seed(seed: int, index: int) -> int:
    """The seed of the random seats' stream in game ``index`` of a run from ``seed``."""
    return mixed((seed + index) & ((1 << 64) - 1) ^ 0x6E61746976650000)


def native_kernel(game, spec: RunSpec):
    """``(kernel, why)``: the game's kernel if it can play this run, else None and the reason."""
    others = sorted({s for s in spec.seats if s not in NATIVE_SEATS})
    if others:
        return None, (f"native: only {', '.join(NATIVE_SEATS)} seats play whole games in the kernel, not "
                      f"{', '.join(others)}: the games run in Python")
    if spec.logs:
        return None, "native: the kernel keeps no game logs; using Python"
    try:
        return kernel_for(game), ""
    except NativeUnavailable as exc:
        return None, str(exc)


def rollout_engine(game, spec: RunSpec) -> tuple:
    """``(bots, engine, why)``: the search bots of the run's seats (flat, mcts), where their
    rollouts run (native or python; None without such bots) and why not in the kernel."""
    bots = searching(spec.seats)
    if not bots:
        return bots, None, ""
    if spec.engine == "python":
        return bots, "python", ""
    if rollout_kernel(game, spec.engine) is None:
        return bots, "python", getattr(game, "native_reason", "") or "native: no kernel"
    return bots, "native", ""


def simulate_native(kernel, spec: RunSpec, games: int, on_game=None) -> tuple:
    """Play ``games`` games in the kernel; ``(summary, results)`` as ``simulate`` gives them."""
    started = time.perf_counter()
    results = []
    players = kernel.game.num_players
    for index in range(games):
        seed = spec.seed + index
        try:
            decisions, state = kernel.outcome(seed, policy_seed(spec.seed, index), spec.max_decisions)
        except RulebookError as exc:
            exc.message = f"game {index + 1} (seed {seed}): {exc.message}"
            raise
        if state is None:
            results.append(GameResult(seed, [], [0] * players, decisions, False))
        else:
            results.append(GameResult(seed, state.winners(), state.returns(), decisions, True, state.end_reason))
        if on_game:
            on_game(1)
    return summarize(results, players, time.perf_counter() - started), results
