"""Built-in functions of text and seats: ``text``, ``join``, ``seat``, ``player``.

``text`` and ``join`` are *typed* built-ins (``dsl.registry.Builtin.typed``): at run time a seat, a
component and a number are all whole numbers, so they get the static type of their first argument
as text ("player", "list component", ...).  A component is named only as the seat ``to`` may see it
(or knows it: ``show``); without ``to``, as everyone sees it — otherwise it reads "a card" (its kind).
"""
from __future__ import annotations

from dsl.errors import RulesRuntimeError
from dsl.registry import FUNCTIONS, Param
from dsl.types import INT, PLAYER, STR

from .views import component_visible

fn = FUNCTIONS.register


def text_of(state, value, type_: str, to) -> str:
    """``value`` of the static type ``type_`` (see :func:`interpreter.codegen.expressions.type_text`)
    as the seat ``to`` (None: everyone) may read it."""
    game = state.game
    if value is None:
        return "none"
    if isinstance(value, list):
        element = type_.split(" ", 1)[1] if type_.startswith("list ") else "any"
        return ", ".join(text_of(state, v, element, to) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if type_ == "player":
        return game.player_names[value]
    if type_ == "component":
        seen = component_visible(state, value, to) or (to is not None and state.known[value] >> to & 1)
        return game.names[value] if seen else f"a {game.kinds[value]}"
    if type_ == "zone":
        return game.zone_names[value]
    if type_ == "cell":
        return game.cell_text(value)
    return str(value)


@fn("text", [Param("value", "any"), Param("to", "player", None)], STR,
    "A value as text: a number in digits, yes/no, a seat by its name, a zone or a cell by its label, a "
    "list joined with commas, a component by its name if the seat `to` may see it (without `to`: if "
    "everyone may), else by its kind ('a card'). Join texts with `+`.", typed=True)
def text(state, value, to=None, type_="any"):
    return text_of(state, value, type_, to)


@fn("join", [Param("items", "collection"), Param("sep", "str", ", "), Param("to", "player", None)], STR,
    "The elements of a list as text (each as `text` gives it, for the seat `to`), separated by `sep`.",
    typed=True)
def join(state, items, sep=", ", to=None, type_="any"):
    element = type_.split(" ", 1)[1] if type_.startswith("list ") else "any"
    if type_ == "zone":
        element = "component"
    return sep.join(text_of(state, v, element, to) for v in items)


@fn("seat", [Param("player", "player")], INT,
    "The number of a seat: 0 for the first player, up to num_players - 1.")
def seat(state, player):
    if player is None:
        raise RulesRuntimeError("seat(): the player is none")
    return player


@fn("player", [Param("number", "int")], PLAYER,
    "The seat with a number, counted round the table: player(seat(p) + 2) is two seats to the left "
    "of p, player(-1) the last seat.")
def player(state, number):
    return number % state.game.num_players


def next_among(state, player, steps, among, direction) -> int:
    """The ``steps``-th seat from ``player`` in ``direction`` (1 or -1) that is in ``among``."""
    n = state.game.num_players
    wanted = set(among)
    if not wanted:
        raise RulesRuntimeError("no seat meets the condition", hint="check that some player is still in")
    seat_now = player
    for _ in range(steps):
        for _ in range(n):
            seat_now = (seat_now + direction) % n
            if seat_now in wanted:
                break
    return seat_now
