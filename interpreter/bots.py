"""Bots: players that choose an action by themselves.

A bot sees a state only through the public API (``legal_actions()``, ``view(seat)``, ``clone()``,
...); it never reads hidden parts of the state directly.  Bots are named by a spec string such as
``random`` or ``name:key=value,key=value``; :func:`make_bot` turns a spec into a bot for one seat.
"""
from __future__ import annotations

import hashlib
import random

from dsl.errors import ParameterError, RulebookError

from .mcts import Search, action_key


class Bot:
    """Base class of every bot.

    Subclasses set ``name``, a one-line ``description``, and ``options``: option name -> default
    value (the default's type is the type the option's text is converted to; a default of None
    stands for an optional number)."""

    name = "bot"
    description = ""
    options: dict = {}

    def __init__(self, seat: int, seed: int, **options):
        self.seat = seat
        self.rng = random.Random(seed)
        self.settings = {**self.options, **options}

    def choose(self, state):
        """The action this bot takes in ``state``, where it is this bot's turn."""
        raise NotImplementedError


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"
    description = "chooses uniformly at random among the legal actions"

    def choose(self, state):
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]


def lead(state, seat: int) -> float:
    """How far ``seat`` is ahead of the best other seat: by the result once the game is over, else by
    the ruleset's evaluation."""
    if state.is_terminal():
        winners = state.winners()
        return 0.0 if seat in winners and len(winners) > 1 else (1e9 if seat in winners else -1e9)
    values = [state.evaluate(p) for p in range(state.game.num_players)]
    others = [v for p, v in enumerate(values) if p != seat]
    return values[seat] - (max(others) if others else 0)


class GreedyBot(Bot):
    """Looks one action ahead on determinized copies and keeps the best lead."""

    name = "greedy"
    description = ("takes the action after which its lead by the ruleset's evaluation (or score) is "
                   "largest, judged on copies with the hidden cards dealt anew; random among equals")
    options = {"samples": 1}

    def choose(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        totals = [0.0] * len(actions)
        for _ in range(max(1, self.settings["samples"])):
            world = state.determinize(self.seat, self.rng)
            by_key = {action_key(a): a for a in world.legal_actions()}
            for i, action in enumerate(actions):
                mirrored = by_key.get(action_key(action))
                if mirrored is None:
                    continue
                after = world.clone()
                try:
                    after.apply_action(mirrored)
                except RulebookError:
                    continue  # a dealing the rules cannot go on from (see State.determinize)
                totals[i] += lead(after, self.seat)
        best = max(totals)
        return self.rng.choice([a for a, t in zip(actions, totals) if t == best])


class MctsBot(Bot):
    """Information-set Monte Carlo tree search (see interpreter/mcts.py)."""

    name = "mcts"
    description = ("information-set Monte Carlo tree search over determinized states; strength by "
                   "iterations per move or seconds per move; a shared win is worth `shared` split "
                   "among the sharers, a sole win 1")
    options = {"iterations": 200, "seconds": 0.0, "c": 0.7, "depth": 200, "shared": 0.5}

    def __init__(self, seat: int, seed: int, **options):
        super().__init__(seat, seed, **options)
        settings = self.settings
        self.search = Search(seat, self.rng, iterations=settings["iterations"],
                             seconds=settings["seconds"] or None, exploration=settings["c"],
                             rollout_depth=settings["depth"], shared=settings["shared"])

    def choose(self, state):
        return self.search.best_action(state)


BOTS: dict = {cls.name: cls for cls in (RandomBot, GreedyBot, MctsBot)}


def register_bot(cls) -> type:
    """Add a bot class to :data:`BOTS` under its ``name`` (usable as a class decorator)."""
    BOTS[cls.name] = cls
    return cls


def play_game(state, agents: list, on_step=None):
    """Let ``agents`` (one per seat, each with ``choose(state)``) play ``state`` to its end.

    ``on_step(seat, legal, action, state)``, if given, is called after every action with the legal
    actions it was chosen from.  Returns the finished state."""
    while not state.is_terminal():
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


def _convert(bot: str, key: str, text: str, default):
    """An option's text converted to the type of its default value (None: an optional number)."""
    if isinstance(default, str):
        return text
    if isinstance(default, bool):
        kind, convert = "true or false", _parse_bool
    elif isinstance(default, int):
        kind, convert = "a whole number", int
    else:
        kind, convert = "a number", float
    try:
        return convert(text)
    except ValueError:
        raise ParameterError(f"option '{key}' of bot '{bot}' is {kind}, not '{text}'") from None


def make_bot(spec: str, seat: int, seed: int) -> Bot:
    """A bot for ``seat`` from a spec such as ``random`` or ``name:key=value,key=value``."""
    name, texts = parse_spec(spec)
    cls = BOTS.get(name)
    if cls is None:
        raise ParameterError(f"unknown bot '{name}'", hint=f"known bots: {', '.join(sorted(BOTS))}")
    options = {}
    for key, text in texts.items():
        if key not in cls.options:
            known = ", ".join(sorted(cls.options)) or "none"
            raise ParameterError(f"bot '{name}' has no option '{key}'", hint=f"its options: {known}")
        options[key] = _convert(name, key, text, cls.options[key])
    return cls(seat, seed, **options)
