"""The random playouts of the search bots (``flat``, ``lookahead``, ``mcts``), in the native kernel
or in Python (:func:`interpreter.native.reference.play_on`, the kernel's reference).

Both engines play the same playout: a uniform choice among the legal actions from a splitmix64
stream seeded by the bot (``legal[mixed(z) % len(legal)]``, ``z`` stepping by the golden gamma, as
the kernel's ``PICK``), so a bot makes the same decisions whichever engine rolls out.  A bot's
``engine`` option: ``python``; ``native`` or ``auto`` (the default), the kernel where it is
available (the ``[native]`` extra, a C compiler, the ruleset's constructs, a state it can resume
from), else Python, with the same decisions.
"""
from __future__ import annotations

from dsl.errors import ParameterError

from .base import BOTS, parse_spec
from ..native import NativeUnavailable, kernel_for
from ..native.playout import Runner
from ..native.reference import play_on
from ..runtime.splitmix import GOLDEN_GAMMA, MASK64, mixed

ENGINES = ("auto", "native", "python")


def checked_engine(bot: str, engine: str) -> str:
    if engine not in ENGINES:
        raise ParameterError(f"option 'engine' of bot '{bot}' is one of {', '.join(ENGINES)}, not '{engine}'")
    return engine


def searching(specs) -> list:
    """The names of the bots among ``specs`` that roll out (those with an ``engine`` option)."""
    names = {parse_spec(spec)[0] for spec in specs}
    return sorted(name for name in names if "engine" in getattr(BOTS.get(name), "options", {}))


def with_engine(spec: str, engine: str) -> str:
    """A bot spec told to roll out in Python when ``engine`` is python and it names no engine of its
    own; any other spec as it is (the bots use the kernel where they can)."""
    name, options = parse_spec(spec)
    if engine != "python" or name not in searching([spec]) or "engine" in options:
        return spec
    return f"{spec}{',' if ':' in spec else ':'}engine=python"


def rollout_kernel(game, engine: str):
    """The game's native kernel for rollouts, or None (Python): ``engine`` python, or no kernel
    (the reason is kept on the game as ``native_reason``)."""
    if engine == "python":
        return None
    if getattr(game, "native_reason", None) is not None:  # refused before, for this game
        return None
    kernel = getattr(game, "_native_kernel", None)
    if kernel is not None and kernel.sites.values_ok:
        return kernel
    try:
        kernel = kernel_for(game)
    except NativeUnavailable as exc:
        game.native_reason = str(exc)
        return None
    if not kernel.sites.values_ok:
        game.native_reason = ("native: the kernel does not translate the score, tie-breaks, evaluation or team; "
                              "using Python")
        return None
    return kernel


def runner(kernel, state):
    """A :class:`interpreter.native.playout.Runner` of ``state``, or None where it cannot resume
    (then the bot plays on in Python)."""
    try:
        return Runner(kernel, state)
    except NativeUnavailable:
        return None


def rollout(kernel, state, seed: int, depth: int):
    """``state`` played on ``depth`` decisions at most (mcts): in the kernel, what it ended as
    (a :class:`interpreter.native.judge.Judged`: enough to score it), else ``state`` itself, played
    on in Python."""
    if kernel is not None and not state.is_terminal():
        found = runner(kernel, state)
        if found is not None:
            return found.judged(found.run(seed, depth, values=True))
    play_on(state, seed, depth)
    return state


def round_judge(kernel, seed: int, depth: int, seat: int, worth, partners: bool = False, greedy=None,
                playouts: int = 1, rounds: int = 1, own: int = 0, keyed: bool = False):
    """``judge(after)`` for ``flat``: ``worth`` of ``after`` played on until ``seat``'s next turn
    after another seat's (``partners``, a cooperative game: until another seat's turn; at most
    ``depth`` decisions); and ``judge.of_world(world, action)``, the
    same for the world after ``action``, which ``Bot.best_by_samples`` calls: in the kernel the world
    is loaded once and every action played from a copy of it.  ``rounds`` above 1: that many rounds
    of the table; ``playouts`` above 1: the mean worth of that many playouts, with the seeds of
    :func:`playout_seeds` (the same for every action); ``greedy`` (an epsilon): every seat plays the
    kernel's greedy policy by the evaluation (:func:`interpreter.native.reference.greedy_pick`)
    instead of uniformly, or with ``own`` above 0 only the next ``own`` decisions of ``seat`` (its own
    further decisions: the second stage of a staged decision, the rest of its turn), the others
    uniformly; ``keyed``: the uniform picks keyed (:mod:`interpreter.native.keyed`: each seat takes
    the same reply to every judged action where that reply is legal).  ``judge.looks[0]`` counts the
    actions the greedy policy looked ahead at, what it costs beyond the playouts.  In Python the playouts are those of
    :func:`interpreter.native.reference.play_on`, the kernel's reference, so both make the same
    decisions."""
    held = [None, None, None]  # the world, its runner, the index of each of its legal actions
    seeds = playout_seeds(seed, playouts)
    looks = [0]
    stop = dict(stop_seat=seat, greedy=greedy, partners=partners, rounds=rounds, own=own, keyed=keyed)

    def judge(after, judged=None):  # judged: the option of the action just taken, as the kernel's forced one
        if len(seeds) == 1:
            return worth(play_on(after, seeds[0], depth, looks=looks, judged=judged, **stop)[1])
        return sum(worth(play_on(after.clone(), one, depth, looks=looks, judged=judged, **stop)[1])
                   for one in seeds) / len(seeds)

    def of_world(world, action):
        if held[0] is not world:
            held[0], held[1] = world, runner(kernel, world) if kernel is not None else None
            held[2] = {id(a): i for i, a in enumerate(world.legal_actions())}
        if held[1] is not None and id(action) in held[2]:
            found, index, total = held[1], held[2][id(action)], 0.0
            for one in seeds:
                ks = found.run(one, depth, force=index, values=True, **stop)
                looks[0] += ks.looks
                total += worth(found.judged(ks))
            return total / len(seeds)
        after = world.clone()
        after.apply_action(action)
        return judge(after, action.option)
    judge.of_world = of_world
    judge.looks = looks
    return judge


def playout_seeds(seed: int, count: int) -> list:
    """``count`` playout seeds from one: ``seed`` itself first, then the splitmix stream of it."""
    seeds, z = [seed & MASK64], seed & MASK64
    for _ in range(count - 1):
        z = (z + GOLDEN_GAMMA) & MASK64
        seeds.append(mixed(z))
    return seeds
