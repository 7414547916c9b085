"""Whether the native kernel covers a ruleset (``rulebook native-check``): the first construct it
does not translate, with its place, or, with games, whether seeded games in the kernel and in the
Python engine are the same games."""
from __future__ import annotations

from dsl.errors import RulesRuntimeError

from .emit import Emitter
from .expressions import Unsupported
from .reference import comparable, play_python

CUT = 3000  # decisions of one compared game (a random game of a long match may not end)


def missing(game):
    """``None`` if the kernel translates every construct of the game, else ``(construct, position)``
    of the first it does not.  Needs no compiler: only the C source is made."""
    try:
        Emitter(game).source()
    except Unsupported as exc:
        return exc.what, exc.where
    return None


def first_difference(kernel, seeds, cut: int = CUT):
    """The first seed whose game differs between the kernel and the Python engine (actions, final
    state, returns, or the error raised), with what differs; ``None`` if every game is the same."""
    for seed in seeds:
        policy = seed * 7919 + 3
        native = _outcome(lambda: kernel.play(seed, policy, max_decisions=cut))
        python = _outcome(lambda: play_python(kernel.game, seed, policy, max_moves=cut))
        if native[0] != python[0]:
            return seed, "the actions" if native[0] != "error" != python[0] else "the error raised"
        if native[1] != python[1]:
            return seed, "the final state"
    return None


def _outcome(play) -> tuple:
    """What a game gave: its actions and final state (None if cut off), or the error it raised."""
    try:
        actions, state = play()
    except RulesRuntimeError as exc:
        return "error", str(exc)
    if state is None or not state.is_terminal():
        return actions, None
    return actions, (comparable(state), state.returns())
