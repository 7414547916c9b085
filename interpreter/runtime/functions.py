"""Built-in expression functions.  Each takes the state first, then its arguments' values.

Signatures are declared here and read by the checker (``dsl/checker.py``) and by the generated
language reference.  Collections arrive as Python lists; zones as zone ids.
"""
from __future__ import annotations

from dsl.errors import RulesRuntimeError
from dsl.registry import FUNCTIONS, Param
from dsl.types import ANY, BOOL, CELL, COMPONENT, INT, PLAYER, Type, element_type, list_of
from dsl.types import join as join_types

from . import texts
from .limits import checked_int

fn = FUNCTIONS.register


def _elem_of_first(types) -> Type:
    """an element of items"""
    return element_type(types[0]) or ANY


def _component_of_zone(types) -> Type:
    """component (of the kind the zone holds)"""
    return element_type(types[0]) if types[0].name == "zone" else COMPONENT


def _list_like_first(types) -> Type:
    """list of the elements of items"""
    return list_of(element_type(types[0]) or ANY)


@fn("size", [Param("items", "collection")], INT, "How many things a list or zone holds.")
def size(state, items):
    return len(items)


@fn("empty", [Param("items", "collection")], BOOL, "Whether a list or zone holds nothing.")
def empty(state, items):
    return not items


@fn("top", [Param("zone", "zone")], _component_of_zone,
    "The top component of a zone (the one drawn next). Error if the zone is empty.")
def top(state, zone):
    cards = state.zones[zone]
    if not cards:
        raise RulesRuntimeError(f"top(): zone '{state.game.zone_names[zone]}' is empty",
                                hint="check size(zone) > 0 first")
    return cards[-1]


@fn("bottom", [Param("zone", "zone")], _component_of_zone, "The bottom component of a zone. Error if empty.")
def bottom(state, zone):
    cards = state.zones[zone]
    if not cards:
        raise RulesRuntimeError(f"bottom(): zone '{state.game.zone_names[zone]}' is empty",
                                hint="check size(zone) > 0 first")
    return cards[0]


@fn("first", [Param("items", "collection")], _elem_of_first,
    "The first element of a list (the bottom of a zone). Error if empty.")
def first(state, items):
    if not items:
        raise RulesRuntimeError("first(): the list is empty")
    return items[0]


@fn("last", [Param("items", "collection")], _elem_of_first,
    "The last element of a list (the top of a zone). Error if empty.")
def last(state, items):
    if not items:
        raise RulesRuntimeError("last(): the list is empty")
    return items[-1]


@fn("list", [Param("items", "collection")], _list_like_first,
    "A list holding the contents of a zone (a snapshot that later moves do not change).")
def as_list(state, items):
    return list(items)


MAX_DIE = 1_000_000


@fn("roll", [Param("sides", "int")], INT,
    "A whole number from 1 to `sides`, each equally likely, drawn from the game's seeded random generator "
    "(a chance event like a shuffle: the same seed and actions give the same rolls, so replays "
    "reproduce them). Only in statements (`let d = roll(6)`), never in a condition or a text.",
    chance=True)
def roll(state, sides):
    if not 1 <= sides <= MAX_DIE:
        raise RulesRuntimeError(f"roll({sides}): a die has 1 to {MAX_DIE} sides")
    return state.random_below(sides) + 1


@fn("range", [Param("start", "int"), Param("stop", "int")], list_of(INT),
    "The whole numbers from start up to, not including, stop.")
def int_range(state, start, stop):
    if stop - start > 10_000:
        raise RulesRuntimeError("range(): more than 10000 numbers")
    return list(range(start, stop))


def _numbers(types) -> Type:
    """int"""
    return INT


@fn("min", [Param("values", "*any")], _numbers,
    "The smallest of several numbers, or of one list of numbers (0 for an empty list).")
def minimum(state, *values):
    if len(values) == 1 and isinstance(values[0], list):
        return min(values[0], default=0)
    return min(values)


@fn("max", [Param("values", "*any")], _numbers,
    "The largest of several numbers, or of one list of numbers (0 for an empty list).")
def maximum(state, *values):
    if len(values) == 1 and isinstance(values[0], list):
        return max(values[0], default=0)
    return max(values)


@fn("abs", [Param("value", "int")], INT, "The absolute value of a number.")
def absolute(state, value):
    return checked_int(abs(value))


@fn("sum", [Param("items", "collection")], INT, "The sum of a list of numbers.")
def total(state, items):
    return checked_int(sum(items))


@fn("any", [Param("items", "collection")], BOOL, "Whether any element of a list is true.")
def any_true(state, items):
    return any(items)


@fn("all", [Param("items", "collection")], BOOL, "Whether every element of a list is true.")
def all_true(state, items):
    return all(items)


@fn("next_player", [Param("player", "player"), Param("steps", "int", 1), Param("among", "collection", None)],
    PLAYER, "The player `steps` seats to the left (clockwise) of `player`; with `among`, counting only "
    "the seats in that list; `where=` a condition on `player` counts only the seats meeting it "
    "(`next_player(active, where=not player.out)`).")
def next_player(state, player, steps=1, among=None):
    if among is None:
        return (player + steps) % state.game.num_players
    return texts.next_among(state, player, steps, among, 1)


@fn("previous_player", [Param("player", "player"), Param("steps", "int", 1), Param("among", "collection", None)],
    PLAYER, "The player `steps` seats to the right (counter-clockwise) of `player`; `among` and `where=` "
    "as for next_player.")
def previous_player(state, player, steps=1, among=None):
    if among is None:
        return (player - steps) % state.game.num_players
    return texts.next_among(state, player, steps, among, -1)


@fn("components", [Param("kind", "str")], list_of(COMPONENT),
    "Every component of a kind, wherever it is, in table order.")
def components_of(state, kind):
    ids = state.game.components_by_kind.get(kind)
    if ids is None:
        raise RulesRuntimeError(f"components(): no component kind '{kind}'")
    return list(ids)


@fn("owner_of", [Param("zone", "zone")], PLAYER,
    "The player a zone belongs to now, or none for a shared zone. A zone kept per component belongs "
    "to whoever owns the zone that component lies in.")
def owner_of(state, zone):
    return state.game.zone_owner_now(state, zone)


# ---- grids -------------------------------------------------------------------------------------
def _grid(state, zone):
    grid = state.game.zone_grid[zone]
    if grid is None:
        raise RulesRuntimeError(f"zone '{state.game.zone_names[zone]}' is not a grid")
    return grid


@fn("cells", [Param("zone", "zone")], list_of(CELL), "Every cell of a grid zone, row by row.")
def cells(state, zone):
    first, rows, columns = _grid(state, zone)
    return list(range(first, first + rows * columns))


@fn("at", [Param("cell", "cell")], COMPONENT, "The component on a cell, or none.")
def at(state, cell):
    return state.cells[cell]


@fn("row", [Param("cell", "cell")], INT, "The row of a cell, counted from 1.")
def row(state, cell):
    return state.game.cell_row[cell] + 1


@fn("column", [Param("cell", "cell")], INT, "The column of a cell, counted from 1.")
def column(state, cell):
    return state.game.cell_column[cell] + 1


@fn("cell_at", [Param("zone", "zone"), Param("row", "int"), Param("column", "int")], CELL,
    "The cell of a grid zone at a row and column (counted from 1), or none outside the grid.")
def cell_at(state, zone, row_number, column_number):
    first, rows, columns = _grid(state, zone)
    if 1 <= row_number <= rows and 1 <= column_number <= columns:
        return first + (row_number - 1) * columns + column_number - 1
    return None


@fn("neighbors", [Param("cell", "cell"), Param("diagonal", "bool", False)], list_of(CELL),
    "The cells next to a cell: orthogonally, or also diagonally.")
def neighbors(state, cell, diagonal=False):
    game = state.game
    return list(game.cell_all_neighbors[cell] if diagonal else game.cell_neighbors[cell])


@fn("rows", [Param("zone", "zone")], list_of(list_of(CELL)), "The rows of a grid zone, each a list of cells.")
def grid_rows(state, zone):
    first, rows, columns = _grid(state, zone)
    return [list(range(first + r * columns, first + (r + 1) * columns)) for r in range(rows)]


@fn("columns", [Param("zone", "zone")], list_of(list_of(CELL)),
    "The columns of a grid zone, each a list of cells.")
def grid_columns(state, zone):
    first, rows, columns = _grid(state, zone)
    return [[first + r * columns + c for r in range(rows)] for c in range(columns)]


@fn("lines_through", [Param("cell", "cell")], list_of(list_of(CELL)),
    "The row and the column a cell lies in (in that order).")
def lines_through(state, cell):
    row, column = state.game.cell_lines[cell]
    return [list(row), list(column)]


def _list_with_value(types) -> Type:
    """list of the elements of the list and of the value"""
    return list_of(join_types(element_type(types[0]) or ANY, types[2]))


@fn("with_item", [Param("items", "collection"), Param("index", "int"), Param("value", "any")], _list_with_value,
    "A copy of a list with the element at `index` (from 0; -1 is the last) replaced by `value`. "
    "`xs[i] = v` stands for `xs = with_item(xs, i, v)`. Error if there is no such element.")
def with_item(state, items, index, value):
    if not -len(items) <= index < len(items):
        raise RulesRuntimeError(f"there is no element {index} in a list of {len(items)}",
                                hint="elements are numbered from 0 to size(list) - 1")
    changed = list(items)
    changed[index] = value
    return changed
