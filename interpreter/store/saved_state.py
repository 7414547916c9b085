"""Saved states from strangers: check a ``State.to_json()`` text before it becomes a State.

Two steps: the structure, against ``schemas/state.schema.json`` (JSON Schema, like rulesets), then
the content against the game: every component in exactly one zone, ids in range, cells consistent
with zones, marks and variables of their declared types, the rules' stack a chain of calls of the
compiled game that waits at a decision of the seat named ``decider``.  A state that passes plays on
like any other; one that does not is a :class:`SavedStateError` that names the field at fault.
"""
from __future__ import annotations

import json
from functools import lru_cache

from dsl.errors import ParameterError, RulebookError
from dsl.schema import SCHEMAS_DIR

from ..runtime import chance, lazy_pile, narration
from ..runtime.instructions import CALL, CHOOSE
from ..runtime.limits import INT_MAX, INT_MIN, MAX_ITEMS, MAX_TEXT
from ..runtime.state import State
from ..runtime.state_data import FORMAT

SCHEMA = SCHEMAS_DIR / "state.schema.json"
MAX_BYTES = 50_000_000
MAX_DEPTH = 64


class SavedStateError(ParameterError):
    """A saved state (or play log) that is damaged, tampered with, or of another game."""

    stage = "saved state error"


def strict_validator(schema: dict):
    """A JSON Schema validator for which 1.0 is no integer (JSON Schema says it is; a float where the
    engine indexes a list is a TypeError)."""
    from jsonschema import Draft202012Validator, validators  # imported when first needed
    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: type(value) is int)
    return validators.extend(Draft202012Validator, type_checker=checker)(schema)


@lru_cache(maxsize=1)
def _validator():
    return strict_validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def parse_json(data, what: str = "saved state", limit: int = MAX_BYTES):
    """JSON text (str or bytes) as data; a SavedStateError for anything that is not JSON."""
    if isinstance(data, (bytes, bytearray)):
        if len(data) > limit:
            raise SavedStateError(f"the {what} is larger than {limit // 1_000_000} MB")
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SavedStateError(f"the {what} is not UTF-8 text (byte {exc.start})") from None
    if not isinstance(data, str):
        return data
    if len(data) > limit:
        raise SavedStateError(f"the {what} is larger than {limit // 1_000_000} MB")
    try:
        return json.loads(data, parse_int=_whole_number, parse_constant=_no_fraction)
    except _Refused as exc:
        raise SavedStateError(f"the {what} holds {exc}", hint="rulebook writes whole numbers within ±2^64 only") from None
    except json.JSONDecodeError as exc:
        raise SavedStateError(f"the {what} is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise SavedStateError(f"the {what} is nested too deeply") from None


class _Refused(ValueError):
    """A number no saved state or log holds, found while parsing (the message says which)."""


def _whole_number(text: str) -> int:
    """A JSON integer of at most 20 digits (saved generators are below 2^64): longer ones are refused
    before Python converts them (a conversion of thousands of digits is slow, or refused)."""
    if len(text.lstrip("-")) > 20:
        raise _Refused(f"a number of {len(text.lstrip('-')):,} digits")
    return int(text)


def _no_fraction(text: str):
    """NaN and Infinity (fractions are refused where they stand, by the schema, which names the field)."""
    raise _Refused(f"{text}, which is not a whole number")


def check_plain(value, field: str, depth: int = 0) -> None:
    """A JSON value within the language's limits: whole numbers within ±2^63, lists of at most
    MAX_ITEMS items, texts of at most MAX_TEXT characters, at most MAX_DEPTH levels."""
    if depth > MAX_DEPTH:
        raise SavedStateError(f"{field} is nested too deeply (more than {MAX_DEPTH} levels)")
    kind = type(value)
    if kind is int and not INT_MIN <= value <= INT_MAX:
        raise SavedStateError(f"{field} holds a number beyond ±2^63")
    if kind is str and len(value) > MAX_TEXT:
        raise SavedStateError(f"{field} holds a text longer than {MAX_TEXT:,} characters")
    if kind is float:
        raise SavedStateError(f"{field} holds a fraction; rulebook values are whole numbers")
    if kind is list:
        if len(value) > MAX_ITEMS:
            raise SavedStateError(f"{field} holds a list longer than {MAX_ITEMS:,} items")
        for i, item in enumerate(value):
            check_plain(item, f"{field}[{i}]", depth + 1)
    elif kind is dict:
        raise SavedStateError(f"{field} holds a mapping; rulebook values are numbers, texts, yes/no and lists")


_KEYS = {"format", "game", "players", "params", "zones", "cells", "known", "marks", "vars", "pvars", "rng",
         "stack", "decider", "over", "moves"}
_OPTIONAL = {"narrative", "end_reason", "chance"}


def _ints(values, low=None) -> bool:
    """Whether ``values`` are whole numbers (at least ``low``)."""
    if not values:
        return True
    return set(map(type, values)) == {int} and (low is None or min(values) >= low)


def _plain_entry(entry) -> bool:
    """A narration entry as the schema describes it."""
    return (type(entry) is dict and set(entry) == {"move", "to", "text", "values", "seen"}
            and type(entry["move"]) is int and entry["move"] >= 0
            and (entry["to"] is None or type(entry["to"]) is int and entry["to"] >= 0)
            and type(entry["text"]) is str and len(entry["text"]) <= 100000 and type(entry["values"]) is dict
            and (entry["seen"] is None or type(entry["seen"]) is list and _ints(entry["seen"], 0)))


def _plainly_valid(data) -> bool:
    """The common case of the schema, checked quickly (jsonschema takes milliseconds per state):
    True only if ``schemas/state.schema.json`` accepts ``data``; False sends it to the full
    validation, which explains what is wrong (tests hold the two to the same answer)."""
    if type(data) is not dict or not _KEYS <= set(data) <= _KEYS | _OPTIONAL or "chance" in data:
        return False
    reason, narrative = data.get("end_reason"), data.get("narrative", [])
    if reason is not None and (type(reason) is not str or len(reason) > 100000):
        return False
    if type(narrative) is not list or len(narrative) > 100000 or not all(_plain_entry(e) for e in narrative):
        return False
    zones, known, stack, cells = data["zones"], data["known"], data["stack"], data["cells"]
    return (data["format"] == FORMAT and type(data["format"]) is int and type(data["game"]) is str
            and len(data["game"]) <= 1000 and type(data["players"]) is int and 1 <= data["players"] <= 64
            and type(data["params"]) is dict and type(zones) is list and len(zones) <= 100000
            and all(type(z) is list and len(z) <= 100000 and _ints(z) for z in zones)
            and type(cells) is dict and all(type(v) is int for v in cells.values())
            and all(type(k) is str and k.isdigit() and k.isascii() and len(k) <= 9 and (k == "0" or k[0] != "0")
                    for k in cells)
            and type(known) is list and len(known) <= 100000 and _ints(known, 0)
            and type(data["marks"]) is dict
            and all(type(v) is list and len(v) <= 100000 for v in data["marks"].values())
            and type(data["vars"]) is dict and type(data["pvars"]) is dict
            and all(type(v) is list and len(v) <= 64 for v in data["pvars"].values())
            and type(data["rng"]) is int and 0 <= data["rng"] < 2 ** 64
            and type(stack) is list and len(stack) <= 200
            and all(type(f) is list and len(f) == 3 and _ints(f[:2], 0) and type(f[2]) is dict for f in stack)
            and (data["decider"] is None or type(data["decider"]) is int and data["decider"] >= 0)
            and type(data["over"]) is bool and type(data["moves"]) is int and 0 <= data["moves"] <= INT_MAX)


def _check_format(data) -> None:
    """A state of an earlier format cannot go on: its stack names the rules as compiled then."""
    found = data.get("format") if isinstance(data, dict) else None
    if type(found) is int and 1 <= found < FORMAT:
        raise SavedStateError(f"this state was saved by an earlier version of rulebook (state format {found}, "
                              f"now {FORMAT}), whose rules' stack this version cannot continue",
                              hint="replay the game's play log instead (rulebook replay LOG), which "
                                   "rebuilds the state from the seed and the actions")


def state_from_data(game, data, depth: int = 0, resume: bool = False) -> State:
    """A State of ``game`` from saved data (the dict or JSON text of ``State.to_json()``); ``depth``
    counts the states nested in a pending chance node; ``resume``: the state is a resume point of
    explicit chance (its rules stand at an instruction that may need chance, or at a decision)."""
    data = parse_json(data)
    _check_format(data)
    error = None
    if not _plainly_valid(data):  # the schema, for the message of what is wrong
        from jsonschema.exceptions import best_match
        error = best_match(_validator().iter_errors(data))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise SavedStateError(f"the saved state's field {where.lstrip('.') or '(top level)'} is wrong: "
                              f"{error.message[:200]}", hint="a saved state is what State.to_json() wrote")
    if data["game"] != game.name:
        raise SavedStateError(f"field game: this is a state of '{data['game'][:80]}', not of {game.name}")
    if data["players"] != game.num_players or data["params"] != game.params:
        raise SavedStateError("fields players/params: this state was saved with other players or parameters",
                              hint="load the game with the players and parameters the state was saved with")
    s = State(game)
    _zones(game, s, data)
    _cells(game, s, data["cells"])
    s.known = list(data["known"])
    if len(s.known) != game.num_components or any(k > game.all_seats for k in s.known):
        raise SavedStateError(f"field known: one number per component ({game.num_components}), each at most "
                              f"{game.all_seats}")
    _marks(game, s, data["marks"])
    _variables(game, s, data)
    s.rng = data["rng"]
    s.moves = data["moves"]
    s.over = data["over"]
    s.decider = data["decider"]
    s.stack = [[f[0], f[1], dict(f[2])] for f in data["stack"]]
    s.end_reason = data.get("end_reason")
    s.narrative = list(data.get("narrative", []))
    pending = data.get("chance", {}).get("pending")
    if "chance" in data:
        s.chance = _chance(game, data["chance"], depth)
        wrong = lazy_pile.restore_piles(s, data["chance"].get("undetermined"))
        if wrong:
            raise SavedStateError(f"field chance.undetermined: {wrong}",
                                  hint="a saved state is what State.to_json() wrote")
    if s.stack or (pending is None and depth == 0):  # before the setup, no rules run yet
        _stack(game, s, decision=pending is None and not resume)
    if resume and not chance.resume_point(s):
        raise SavedStateError("field chance.before: the rules of a resume point stand where chance may come "
                              "or at a decision", hint="a saved state is what State.to_json() wrote")
    _narrative(game, s)
    return s


def _chance(game, record: dict, depth: int):
    if record.get("pending") is None:
        return chance.ChanceRecord()
    if "before" not in record or "outcomes" not in record or depth > 0:
        raise SavedStateError("field chance: a pending chance node keeps the state before its step and "
                              "its outcomes")
    resume = record.get("resume", False)
    before = state_from_data(game, record["before"], depth + 1, resume)
    return chance.ChanceRecord(before, None if resume else record.get("action"), record["outcomes"], record["pending"],
                               resume=resume)


def _narrative(game, s) -> None:
    """Each entry of the narration names seats and components that exist, and renders."""
    for i, entry in enumerate(s.narrative):
        values, field = entry["values"], f"narrative[{i}]"
        check_plain(list(values.values()), field)
        components = values.get("component", [])
        if not isinstance(components, list) or not isinstance(entry["seen"] or [], list) or any(
                type(c) is not int or not 0 <= c < game.num_components for c in components):
            raise SavedStateError(f"field {field}.values.component: component ids expected")
        for key in ("player", "other", "to"):
            seat = entry["to"] if key == "to" else values.get(key)
            if seat is not None and (type(seat) is not int or not 0 <= seat < game.num_players):
                raise SavedStateError(f"field {field}: '{key}' is no seat")
        try:  # a spectator's reading and seat 0's take every path a reading can take
            for seat in (None, 0):
                narration.render(s, entry, seat)
        except (RulebookError, LookupError, TypeError, ValueError):
            raise SavedStateError(f"field {field}: the entry does not render") from None


def _zones(game, s, data) -> None:
    zones = data["zones"]
    if len(zones) != len(game.zone_names):
        raise SavedStateError(f"field zones: {len(zones)} zones; {game.name} has {len(game.zone_names)}")
    s.zones = [list(z) for z in zones]
    s.loc = [None] * game.num_components
    for zone, cards in enumerate(s.zones):
        for c in cards:
            if not 0 <= c < game.num_components:
                raise SavedStateError(f"field zones[{zone}]: {c} is no component (ids 0 to {game.num_components - 1})")
            if s.loc[c] is not None:
                raise SavedStateError(f"field zones[{zone}]: component {c} lies in two zones")
            s.loc[c] = zone
            holds = game.zone_holds[zone]
            if holds is not None and not holds[c]:
                raise SavedStateError(f"field zones[{zone}]: {game.names[c]} does not meet the 'holds' condition "
                                      f"of zone '{game.zone_names[zone]}'")
    if None in s.loc:
        raise SavedStateError(f"field zones: component {s.loc.index(None)} lies in no zone",
                              hint="every component lies in exactly one zone")


def _cells(game, s, cells) -> None:
    s.cell_of = [None] * game.num_components
    s.cells = [None] * len(game.cell_zone)
    for key, cell in cells.items():
        c = int(key)
        if not 0 <= c < game.num_components or not 0 <= cell < len(game.cell_zone):
            raise SavedStateError(f"field cells.{key}: no such component or cell")
        if game.cell_zone[cell] != s.loc[c] or s.cells[cell] is not None:
            raise SavedStateError(f"field cells.{key}: cell {cell} is not free on the grid component {c} lies in")
        s.cell_of[c] = cell
        s.cells[cell] = c
    for c, zone in enumerate(s.loc):
        if game.zone_grid[zone] is not None and s.cell_of[c] is None:
            raise SavedStateError(f"field cells: component {c} lies on grid '{game.zone_names[zone]}' without a cell")


def _marks(game, s, marks) -> None:
    if set(marks) != set(game.mark_names):
        raise SavedStateError(f"field marks: the marks are {', '.join(game.mark_names) or 'none'}")
    s.marks = {}
    for name in game.mark_names:
        values = list(marks[name])
        if len(values) != game.num_components:
            raise SavedStateError(f"field marks.{name}: one value per component ({game.num_components})")
        for c, (value, initial) in enumerate(zip(values, game.initial_marks[name])):
            if initial is not None and value is not None and type(value) is not type(initial):
                raise SavedStateError(f"field marks.{name}[{c}]: {type(initial).__name__} expected")
            check_plain(value, f"marks.{name}[{c}]")
            bounds = game.mark_ranges.get(name) if type(value) is int else None
            if bounds is not None and not bounds[0] <= value <= bounds[1]:
                raise SavedStateError(f"field marks.{name}[{c}]: {value} is a value the rules never give this "
                                      f"mark (it stays within {bounds[0]}..{bounds[1]})")
        s.marks[name] = values


def _variables(game, s, data) -> None:
    if set(data["vars"]) != set(game.var_info):
        raise SavedStateError(f"field vars: the variables are {', '.join(game.var_info) or 'none'}")
    if set(data["pvars"]) != set(game.player_var_info):
        raise SavedStateError(f"field pvars: the player variables are {', '.join(game.player_var_info) or 'none'}")
    for name, (type_, _) in game.var_info.items():
        _check_typed(game, data["vars"][name], type_, f"vars.{name}")
    for name, (type_, _) in game.player_var_info.items():
        values = data["pvars"][name]
        if len(values) != game.num_players:
            raise SavedStateError(f"field pvars.{name}: one value per player ({game.num_players})")
        for p, value in enumerate(values):
            _check_typed(game, value, type_, f"pvars.{name}[{p}]")
    s.vars = dict(data["vars"])
    s.pvars = {k: list(v) for k, v in data["pvars"].items()}


def _check_typed(game, value, type_, field: str) -> None:
    """A value of a declared type: ids in range, lists of such values."""
    check_plain(value, field)
    name = type_.name if type_ is not None else "any"
    if value is None or name in ("any", "none"):
        return
    bounds = {"component": game.num_components, "player": game.num_players, "cell": len(game.cell_zone),
              "zone": len(game.zone_names)}
    if name == "list":
        if not isinstance(value, list):
            raise SavedStateError(f"field {field}: a list expected")
        for i, item in enumerate(value):
            _check_typed(game, item, type_.arg, f"{field}[{i}]")
    elif name in bounds:
        if type(value) is not int or not 0 <= value < bounds[name]:
            raise SavedStateError(f"field {field}: a {name} id from 0 to {bounds[name] - 1} expected")
    elif name in ("int", "bool", "str") and type(value).__name__ != name:
        raise SavedStateError(f"field {field}: {name} expected, not {type(value).__name__}")


def _stack(game, s, decision: bool = True) -> None:
    """The rules' stack: from the flow, each frame called by the frame below it, the top one
    waiting at a decision of ``decider`` (unless a chance node is pending); or empty, when the
    game is over."""
    if s.over:
        if s.stack or s.decider is not None:
            raise SavedStateError("field over: a finished game has no running rules and no decider")
        return
    if not s.stack:
        raise SavedStateError("field stack: a running game waits at a decision", hint="or it is over")
    procs = game.procs
    for i, (proc, pc, env) in enumerate(s.stack):
        if proc >= len(procs) or pc >= len(procs[proc].code):
            raise SavedStateError(f"field stack[{i}]: no such procedure or instruction")
        if i == 0 and proc != game.flow_proc:
            raise SavedStateError("field stack[0]: the bottom of the stack runs the flow")
        if i > 0:
            caller_proc, caller_pc = s.stack[i - 1][0], s.stack[i - 1][1]
            call = procs[caller_proc].code[caller_pc - 1] if caller_pc > 0 else None
            if call is None or call[0] != CALL or call[1] != proc:
                raise SavedStateError(f"field stack[{i}]: frame {i - 1} does not call this procedure")
        _locals(game, procs[proc], env, f"stack[{i}]")
    if not decision:
        return
    top = s.stack[-1]
    if procs[top[0]].code[top[1]][0] != CHOOSE:
        raise SavedStateError("field stack: the top frame does not wait at a decision")
    spec = procs[top[0]].code[top[1]][1]
    try:
        expected = spec.player(s, top[2])
        actions = s.legal_actions()
    except RulebookError as exc:
        raise SavedStateError(f"field stack: the decision cannot be made in this state: {exc.message}") from None
    except Exception as exc:  # a local of the wrong type, seen by an expression of the rules
        raise SavedStateError(f"field stack: the locals of the waiting rules do not fit them ({type(exc).__name__})") from None
    if s.decider != expected:
        raise SavedStateError(f"field decider: the decision waiting is {game.player_names[expected]}'s"
                              if isinstance(expected, int) and 0 <= expected < game.num_players
                              else "field decider: the waiting decision names no seat")
    if not actions:
        raise SavedStateError("field stack: the waiting decision has no legal option")


def _locals(game, proc, env, field: str) -> None:
    for key, value in env.items():
        where = f"{field}.{key}"
        if key.startswith("$"):  # a for loop: [its list, the next position]
            if (not isinstance(value, list) or len(value) != 2 or not isinstance(value[0], list)
                    or type(value[1]) is not int or not 0 <= value[1] <= len(value[0])):
                raise SavedStateError(f"field {where}: a loop's [list, position] expected")
            check_plain(value[0], where)
            items = value[0]
        elif key.startswith("#"):  # a counted loop's rounds left, or a limited while's rounds
            if type(value) is not int or not INT_MIN <= value <= INT_MAX:
                raise SavedStateError(f"field {where}: a count of rounds expected")
            continue
        else:
            check_plain(value, where)
            items = value if isinstance(value, list) else [value]
        if key in proc.holding:
            for c in items:
                if c is not None and (type(c) is not int or not 0 <= c < game.num_components):
                    raise SavedStateError(f"field {where}: a component id from 0 to {game.num_components - 1} expected")
