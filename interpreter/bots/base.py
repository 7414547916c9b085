"""The base of every bot, the registry of bots by name, and bot specs such as ``mcts:iterations=400``.

A bot sees a state only through the public API (``legal_actions()``, ``view(seat)``, ``clone()``,
...); it never reads hidden parts of the state directly.  Bots are named by a spec string such as
``random`` or ``name:key=value,key=value``; :func:`make_bot` turns a spec into a bot for one seat.
"""
from __future__ import annotations

import hashlib
import math
import random
import time

from dsl.errors import ParameterError, RulebookError

from ..runtime.actions import frozen
from ..runtime.narration import mute


def cpu_clock() -> float:
    """The clock of a bot's ``seconds``: CPU seconds of the calling thread, so a budget buys the same
    search on a loaded machine as on an idle one, and bots compared at equal time get equal CPU."""
    return time.thread_time()


class Bot:
    """Base class of every bot.

    Subclasses set ``name``, a one-line ``description``, ``options``: option name -> default
    value (the default's type is the type the option's text is converted to), ``limits``: option
    name -> (lowest, highest) allowed value, None for no bound, and ``strength``: the options that
    buy strength with time (more of them plays better), which :func:`stronger_spec` scales."""

    name = "bot"
    description = ""
    options: dict = {}
    limits: dict = {}
    strength: tuple = ()

    @classmethod
    def stronger(cls, options: dict, factor: int) -> dict:
        """The options of a setting ``factor`` times as strong in time: every ``strength`` option
        multiplied (within its limit), or ``seconds`` when the bot thinks by the clock; empty when
        the bot has no such option."""
        scaled = {}
        by_clock = options.get("seconds", cls.options.get("seconds", 0))
        for key in ("seconds",) if by_clock else cls.strength:
            value = options.get(key, cls.options[key]) * factor
            high = cls.limits.get(key, (None, None))[1]
            scaled[key] = value if high is None else min(value, high)
        return scaled

    def __init__(self, seat: int, seed: int, **options):
        self.seat = seat
        self.rng = random.Random(seed)
        self.settings = {**self.options, **options}

    def choose(self, state):
        """The action this bot takes in ``state``, where it is this bot's turn."""
        raise NotImplementedError

    def best_by_samples(self, state, samples: int, make_judge, seconds: float = 0.0):
        """The legal action with the highest total value over ``samples`` determinized worlds (random
        among equals), or over as many worlds as ``seconds`` allow (at least one) when it is above 0.
        For each world, ``make_judge()`` gives ``judge(after)``, the value of the world after one
        action (it may play on); every action is judged on a copy of the same world (or, where the
        judge has ``of_world(world, action)``, by that, which makes the copy itself: see
        ``bots/rollouts.py``).  A dealing the rules cannot go on from (see ``State.determinize``) is
        skipped."""
        actions = state.legal_actions()
        totals = [0.0] * len(actions)
        deadline = cpu_clock() + seconds if seconds else None
        done = 0
        every = range(len(actions))
        while done < samples if deadline is None else (done == 0 or cpu_clock() < deadline):
            done += 1
            self.judge_world(state, actions, every, totals, make_judge)
        best = max(totals)
        return self.rng.choice([a for a, t in zip(actions, totals) if t == best])

    def judge_world(self, state, actions, indices, totals, make_judge) -> bool:
        """Deal one world for this bot's seat and add to ``totals[i]``, for each ``i`` in ``indices``,
        the value of ``actions[i]`` played in it, judged by ``make_judge()`` as
        :meth:`best_by_samples` describes; False (and nothing added) when the dealing fails."""
        try:
            world = state.determinize(self.seat, self.rng)
        except RulebookError:
            return False
        mute(world)  # a search copy: nobody reads its narration
        judge = make_judge()
        of_world = getattr(judge, "of_world", None)
        mirror = Mirror(world.legal_actions())
        for i in indices:
            mirrored = mirror.of(i, actions[i])
            if mirrored is None:
                continue
            try:
                if of_world is not None:
                    totals[i] += of_world(world, mirrored)
                    continue
                after = world.clone()
                after.apply_action(mirrored)
                totals[i] += judge(after)
            except RulebookError:
                continue
        return True


class Mirror:
    """The actions of a dealt world that mirror this state's: the world's action at the same place when
    it is the same tree edge (the usual case, found without keying every action of the world, so a
    world that judges a few actions costs a few), else the one with the same key."""

    def __init__(self, world_actions: list):
        self.world_actions = world_actions
        self.by_key = None

    def of(self, index: int, action):
        if index < len(self.world_actions):
            same_place = self.world_actions[index]  # equal values of one option: the same key, unfrozen
            if same_place.option is action.option and same_place.values == action.values:
                return same_place
        if self.by_key is None:
            self.by_key = {action_key(a): a for a in self.world_actions}
        return self.by_key.get(action_key(action))


def action_key(action):
    """Actions of different determinizations are the same tree edge when option and values match."""
    return (id(action.option), frozen(action.values))


BOTS: dict = {}


def register_bot(cls) -> type:
    """Add a bot class to :data:`BOTS` under its ``name`` (usable as a class decorator)."""
    BOTS[cls.name] = cls
    return cls


MAX_DECISIONS = 10_000  # the default cap on decisions per bot game


def play_game(state, agents: list, on_step=None, max_decisions=None):
    """Let ``agents`` (one per seat, each with ``choose(state)``) play ``state`` to its end, or until
    ``max_decisions`` decisions were taken in all (None: no cap); the caller tells an unfinished game
    by ``state.is_terminal()``.

    ``on_step(seat, legal, action, state)``, if given, is called after every action with the legal
    actions it was chosen from.  Returns the state."""
    while not state.is_terminal():
        if max_decisions is not None and state.moves >= max_decisions:
            break
        seat = state.current_player()
        legal = state.legal_actions()
        action = agents[seat].choose(state)
        state.apply_action(action)
        if on_step is not None:
            on_step(seat, legal, action, state)
    return state


def bot_seed(seed: int, game_index: int, seat: int) -> int:
    """A bot's seed, derived deterministically from the run's seed, the game and the seat."""
    digest = hashlib.sha256(f"bot/{seed}/{game_index}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def split_specs(text: str) -> list:
    """Split a comma-separated list of bot specs, keeping a spec's own ``key=value`` options together:
    ``mcts:iterations=400,c=1.4,random`` gives ``["mcts:iterations=400,c=1.4", "random"]``."""
    specs: list = []
    for piece in (p.strip() for p in text.split(",")):
        key, is_option, _ = piece.partition("=")
        if specs and ":" in specs[-1] and is_option and ":" not in key:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def parse_spec(spec: str) -> tuple[str, dict]:
    """Split ``name:key=value,key=value`` into the name and a dict of option texts."""
    name, _, rest = spec.strip().partition(":")
    options = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ParameterError(f"bot option '{item}' in '{spec}' is not key=value",
                                 hint="write a bot as name or name:key=value,key=value")
        options[key.strip()] = value.strip()
    return name.strip(), options


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered not in ("true", "yes", "1", "false", "no", "0"):
        raise ValueError(text)
    return lowered in ("true", "yes", "1")


def _convert(bot: str, key: str, text: str, default, limits=None):
    """An option's text converted to the type of its default value and checked against its limits
    (lowest, highest; None for no bound); a number must be finite."""
    if isinstance(default, str):
        return text
    if isinstance(default, bool):
        kind, convert = "true or false", _parse_bool
    elif isinstance(default, int):
        kind, convert = "a whole number", int
    else:
        kind, convert = "a number", float
    try:
        value = convert(text)
    except ValueError:
        raise ParameterError(f"option '{key}' of bot '{bot}' is {kind}, not '{text}'") from None
    if isinstance(value, bool):
        return value
    lo, hi = limits or (None, None)
    if not math.isfinite(value) or (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = (f"from {_number(lo)} to {_number(hi)}" if hi is not None else f"at least {_number(lo)}") \
            if lo is not None else "a finite number"
        raise ParameterError(f"option '{key}' of bot '{bot}' must be {bounds}, not '{text}'",
                             hint=f"default: {bot}:{key}={default}")
    return value


def _number(value) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


STRENGTH_FACTOR = 4  # the default strength check: four times the time per decision


def stronger_spec(spec: str, factor: int = STRENGTH_FACTOR):
    """The spec of a stronger setting of the same bot (``flat`` -> ``flat:rollouts=16,budget=128``),
    or None when the bot has no option that buys strength (``random``)."""
    name, texts = parse_spec(spec)
    cls = _bot_class(name)
    options = {key: _convert(name, key, text, cls.options[key], cls.limits.get(key))
               for key, text in texts.items() if key in cls.options}
    scaled = cls.stronger(options, factor)
    if not scaled:
        return None
    merged = {**options, **scaled}
    return f"{name}:" + ",".join(f"{key}={_option_text(value)}" for key, value in merged.items())


def _option_text(value) -> str:
    """An option's value as a spec writes it: a number without a needless ``.0``, text (a policy, an
    engine) and true/false as they are."""
    return str(value) if isinstance(value, (bool, str)) else _number(value)


def _bot_class(name: str):
    cls = BOTS.get(name)
    if cls is None:
        raise ParameterError(f"unknown bot '{name}'", hint=f"known bots: {', '.join(sorted(BOTS))}")
    return cls


def make_bot(spec: str, seat: int, seed: int) -> Bot:
    """A bot for ``seat`` from a spec such as ``random`` or ``name:key=value,key=value``."""
    name, texts = parse_spec(spec)
    cls = _bot_class(name)
    options = {}
    for key, text in texts.items():
        if key not in cls.options:
            known = ", ".join(sorted(cls.options)) or "none"
            raise ParameterError(f"bot '{name}' has no option '{key}'", hint=f"its options: {known}")
        options[key] = _convert(name, key, text, cls.options[key], cls.limits.get(key))
    return cls(seat, seed, **options)


def declared_bot(ruleset, fallback):
    """The bot a ruleset declares for the seats a command is given no bot for (``bots: default:``),
    else ``fallback``.  The spec is checked here, for every tool that offers it (the command line,
    the language server, the web lobby): an unknown bot, an unknown option or a value out of its
    limits is a :class:`ParameterError` at the declaration's line."""
    if not ruleset.default_bot:
        return fallback
    spec, position = ruleset.default_bot
    try:
        make_bot(spec, 0, 0)
    except RulebookError as exc:
        raise ParameterError(f"bots: default: {exc.message}", position, exc.hint) from None
    return spec
