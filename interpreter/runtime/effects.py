"""Built-in effects: the statements that change a game.  Each takes the state first.

Moves fire the triggers of the zones involved (``enter``, ``leave``, ``empty``) at once, one
component at a time, so a trigger can refill a pile in the middle of a draw.
"""
from __future__ import annotations

from dsl.errors import RulesRuntimeError
from dsl.registry import EFFECTS, Param

from . import lazy_pile, narration
from .limits import MAX_ITEMS


class GameOver(Exception):
    """Raised by end_game(): unwinds every running rule at once."""


effect = EFFECTS.register


def _where(at) -> bool:
    if at not in ("top", "bottom"):
        raise RulesRuntimeError(f"'at' is top or bottom, not {at!r}")
    return at == "bottom"


@effect("move", [Param("items", "items"), Param("to", "zone"), Param("at", "str", "top")], None,
        "Move a component, every component of a list, or all of a zone's contents (top first) to a "
        "zone, onto its top or under its bottom.")
def move(state, items, to, at="top"):
    bottom = False if at == "top" else _where(at)
    if isinstance(items, list):
        for c in list(items):
            state.move_component(c, to, bottom)
    else:
        if items is None:
            nothing_to_move()
        state.move_component(items, to, bottom)


def nothing_to_move():
    raise RulesRuntimeError("move(): there is nothing to move (the value is none)")


@effect("place", [Param("item", "component"), Param("cell", "cell")], None,
        "Put a component onto a free cell of a grid zone (from wherever it is, or from another cell).")
def place(state, item, cell):
    if item is None or cell is None:
        raise RulesRuntimeError("place(): the component or the cell is none")
    state.move_component(item, state.game.cell_zone[cell], False, cell)


@effect("move_all", [Param("source", "zone"), Param("to", "zone"), Param("at", "str", "top")], None,
        "Move everything in one zone to another, top card first.")
def move_all(state, source, to, at="top"):
    bottom = False if at == "top" else _where(at)
    if state.chance is not None and lazy_pile.move_pile(state, source, to, bottom):
        return  # explicit chance: an undetermined pile moved as it is
    cards = state.zones[source]
    while cards:
        state.move_component(cards[-1], to, bottom)


@effect("draw", [Param("source", "zone"), Param("to", "zone"), Param("count", "int", 1),
                 Param("at", "str", "top")], None,
        "Move up to `count` components one by one from the top of `source` to `to`. Stops early "
        "when the source is empty (after its triggers had their chance to refill it).")
def draw(state, source, to, count=1, at="top"):
    bottom = False if at == "top" else _where(at)
    cards = state.zones[source]
    if count > MAX_ITEMS:
        raise RulesRuntimeError(f"draw(): a count of {count} is more than {MAX_ITEMS:,} components",
                                hint="docs/language.md, Bounded execution")
    for _ in range(count):
        if not cards:
            return
        state.move_component(cards[-1], to, bottom)


@effect("shuffle", [Param("zone", "zone")], None,
        "Shuffle a zone with the game's seeded random generator.", chance=True)
def shuffle(state, zone):
    state.shuffle_zone(zone)


@effect("end_game", [Param("reason", "str", "")], None,
        "End the game at once, in the middle of whatever is running; scoring follows. The reason, if "
        "given, is told to everyone and kept as `state.end_reason` (simulations count games by it).")
def end_game(state, reason=""):
    if reason:
        state.end_reason = reason
        narration.add(state, reason, {})
    raise GameOver()


@effect("log", [Param("message", "str"), Param("player", "player", None), Param("component", "items", None),
                Param("number", "int", None), Param("other", "player", None), Param("count", "int", None),
                Param("to", "player", None)], None,
        "Narrate what happens: the message, with `{player}`, `{other}`, `{component}` (a component or "
        "a list), `{number}` and `{count}` filled in from the arguments of those names, and any other "
        "field an expression (`{d1 + d2}`, `{top(active.hand)}`), written as `text` writes it. It goes to "
        "everyone, or only to the seat `to` (`to=owner_of(zone)`: the zone's owner). A component is "
        "named only to seats that could see it then; the others read 'a card'.",
        specialized=narration.teller)
def log(state, message, player=None, component=None, number=None, other=None, count=None, to=None):
    narration.add(state, message, {"player": player, "component": component, "number": number,
                                   "other": other, "count": count}, to)


@effect("show", [Param("items", "items"), Param("to", "player")], None,
        "Let one seat look at a component (or every component of a list or zone) it may not see: it "
        "learns what the component is and where it lies, as if it had seen it, until the component "
        "moves where that seat cannot see it. Its view lists it under `known`, and messages name it "
        "to that seat.")
def show(state, items, to):
    if to is None:
        raise RulesRuntimeError("show(): 'to' is none (no seat to show to)")
    cards = list(items) if isinstance(items, list) else [items]
    if any(c is None for c in cards):
        raise RulesRuntimeError("show(): there is nothing to show (the value is none)")
    bit = 1 << to
    for c in cards:
        state.known[c] |= bit
        state.blind_to[state.loc[c]] &= ~bit  # the seat knows the place of a component there now
