"""Narration: what happens in a game, told to each seat as far as that seat may know it.

``log(message, player=…, component=…, number=…, other=…, count=…, to=…)`` adds an entry: the
message's ``{player}``, ``{component}``… fields are filled in when a seat reads it.  A message goes to
everyone, or only to the seat ``to`` (``to=owner_of(zone)`` for the owner of a zone).  A component
is named only to the seats that could see it (or knew where it was) when the message was logged;
the others read "a card" (or its kind, when the game has components of one kind only).  So one statement tells the drawer "P2 drew Queen 3" and the
others "P2 drew a card", and no seat's narration names what it may not see.

An entry is plain JSON data kept in the state (``state.narrative``), in the order logged::

    {"move": 12, "to": null, "text": "{player} drew {component}",
     "values": {"player": 1, "component": [14]}, "seen": [2]}

``seen`` holds, per component named, a bit per seat that could see it.  ``narration(state, seat)``
renders the entries a seat may read as ``{"text": str, "parts": [...], "move": int}``; each part is
``{"text": …}`` plus ``"player": seat``, ``"component": id`` (with ``"kind"``; a hidden one has
``"component": None``) or ``"number": n``, so a terminal or a web page can draw it.

A search bot's throw-away copies are muted (:func:`mute`): nobody reads their narration, so ``log()``
records nothing there (play is the same; it only saves the work).
"""
from __future__ import annotations

import functools
import string

from dsl.errors import RulesRuntimeError

from . import texts
from .views import component_visible

FIELDS = ("player", "other", "component", "number", "count")
_FORMATTER = string.Formatter()


def mute(state) -> None:
    """Let ``state`` and its clones record no narration (a search copy; see the module's text)."""
    state.narrative = ()


def add(state, message: str, values: dict, to=None) -> None:
    """Log ``message`` with its field values (None: unused) for everyone, or for seat ``to``: what
    the teller of that message does (made once for a ruleset's own short texts)."""
    if type(state.narrative) is tuple:  # muted
        return
    tell = _teller_of(message)
    if tell is None:
        _fields(message)  # a faulty message: its error
    tell(state, values.get("player"), values.get("component"), values.get("number"), values.get("other"),
         values.get("count"), to)


def add_with_fields(state, message: str, given: dict, to, fields) -> None:
    """Log ``message`` whose expression fields (dsl/messages.py) have the values ``fields``, as
    ``(field text, value, static type as text)``; ``given`` holds log()'s own arguments.  Each such
    field is kept as it reads: a seat, components with the seats that see each now, or text."""
    if type(state.narrative) is tuple:  # muted
        return
    own = {name: given.get(name) for name in FIELDS}
    tell = _teller_of(_without_fields(message, fields))
    if tell is None:
        _fields(message, fields)  # a faulty message: its error
    tell(state, own["player"], own["component"], own["number"], own["other"], own["count"], to)
    entry = state.narrative[-1]
    entry["text"] = message
    for text, value, type_ in fields:
        entry["values"][text] = _field_record(state, value, type_)


def _without_fields(message: str, fields) -> str:
    """``message`` without its expression fields (what log()'s own teller checks and fills in)."""
    named = {text for text, _, _ in fields}
    return "".join(literal.replace("{", "{{").replace("}", "}}") +
                   ("{" + name + "}" if name is not None and name not in named else "")
                   for literal, name, _, _ in _parse(message))


def _field_record(state, value, type_: str) -> list:
    """An expression field's value as the narration keeps it, plain data: ``["player", seat]``,
    ``["component", ids, seen]`` (per component, a bit per seat that sees it now) or ``["text", text]``."""
    if type_ == "player" and value is not None:
        return ["player", value]
    if value is not None and type_ in ("component", "list component"):
        items = value if isinstance(value, list) else [value]
        if None in items:
            raise RulesRuntimeError("log(): a component of the message is none")
        return ["component", list(items), [_seen_by(state, c) for c in items]]
    return ["text", texts.text_of(state, value, type_, None)]


def teller(message: str):
    """``log`` for one message, as a generated call that writes the message as a constant uses it:
    ``tell(state, player, component, number, other, count, to)``, the message's fields found once.
    None for a faulty message (``add`` reports it when the call runs, as before)."""
    try:
        names = _fields(message)
    except RulesRuntimeError:
        return None
    return _teller_maker(tuple(dict.fromkeys(names)))(message)


def plain_teller_maker(fields: tuple):
    """``make(message)``, making the teller of a message that uses ``fields``: the reference in plain
    Python, until the code generator hands in its own (:func:`use_teller_maker`)."""
    def make(message):
        def tell(state, player, component, number, other, count, to):
            narrative = state.narrative
            if type(narrative) is tuple:  # muted
                return
            given = {"player": player, "component": component, "number": number, "other": other,
                     "count": count}
            for field in fields:
                if given[field] is None:
                    _missing(field)
            used = {field: given[field] for field in fields}
            entry = {"move": state.moves, "to": to, "text": message, "values": used,
                     "seen": _components_seen(state, used) if "component" in fields else []}
            if to is not None and not 0 <= to < state.game.num_players:
                _no_seat()
            narrative.append(entry)
            if to is None:
                state.note_entries.append(entry)
        return tell
    return make


_teller_maker = plain_teller_maker


def use_teller_maker(maker) -> None:
    """Make tellers with ``maker(fields)`` (the generated ones of interpreter/codegen/tellers.py)."""
    global _teller_maker
    _teller_maker = maker
    _teller_of.cache_clear()


def _no_seat():
    raise RulesRuntimeError("log(): 'to' is no seat")


_LOG_ARGUMENTS = ("player", "component", "number", "other", "count")  # log()'s, in its order


def _missing(name: str):
    raise RulesRuntimeError(f"log(): the message uses '{{{name}}}' but no {name}= is given",
                            hint=f"add {name}=… to the call")


def _components_seen(state, used: dict) -> list:
    """Make the field ``component`` of ``used`` a list (a copy), and return per component the seats
    that see it now (see :func:`_seen_by`)."""
    items = used["component"]
    if isinstance(items, list):
        if None in items:
            raise RulesRuntimeError("log(): the component is none")
        items = used["component"] = items[:]
    else:
        items = used["component"] = [items]
    if state.over:
        return [_seen_by(state, c) for c in items]
    game = state.game
    known = state.known
    loc = state.loc
    zone_mask = game.zone_mask
    top_mask = game.top_mask
    seen = []
    for c in items:  # _seen_by in line for the zones whose seers do not depend on the state
        zone = loc[c]
        fixed = zone_mask[zone]
        if fixed is None:
            seen.append(_seen_by(state, c))
            continue
        top = top_mask[zone]
        seen.append(known[c] | fixed | (top if top and state.zones[zone][-1] == c else 0))
    return seen


def _kept_when_short(function):
    """``function`` of a message, its result kept for short messages (a ruleset's own texts)."""
    kept = functools.lru_cache(maxsize=512)(function)

    def wrapper(message: str):
        return kept(message) if len(message) <= 400 else function(message)
    wrapper.cache_clear = kept.cache_clear
    return wrapper


def _fields(message: str, expressions=()) -> tuple:
    """The names of the fields a message uses, each checked (``expressions``: the message's
    expression fields, as :func:`add_with_fields` has them)."""
    names = []
    named = {text for text, _, _ in expressions}
    for _, name, spec, conversion in _parse(message):
        if name is None or name in named:
            continue
        if name not in FIELDS:
            raise RulesRuntimeError(f"log(): the message uses '{{{name}}}', which is no field of log()",
                                    hint=f"the fields are {', '.join('{' + f + '}' for f in FIELDS)}")
        if spec or conversion:
            raise RulesRuntimeError(f"log(): the field '{{{name}}}' takes no format", hint="write {" + name + "}")
        names.append(name)
    return tuple(names)


_teller_of = _kept_when_short(teller)  # add()'s tellers, by message


@_kept_when_short
def _parse(message: str) -> tuple:
    try:
        return tuple(_FORMATTER.parse(message))
    except ValueError:
        raise RulesRuntimeError(f"log(): the message {message!r} has an unbalanced brace",
                                hint="write {{ and }} for braces in the text") from None


def _seen_by(state, c) -> int:
    """A bit per seat that sees component ``c`` now or knows where it is."""
    mask = state.known[c]
    game = state.game
    zone = state.loc[c]
    fixed = game.zone_mask[zone]
    if fixed is not None and not state.over:  # who sees the zone does not depend on the state
        top = game.top_mask[zone]  # the top card is read only where it shows (a lazy pile fixes it)
        return mask | fixed | (top if top and state.zones[zone][-1] == c else 0)
    for seat in range(game.num_players):
        if not mask >> seat & 1 and component_visible(state, c, seat):
            mask |= 1 << seat
    return mask


def render(state, entry: dict, seat) -> dict:
    """One entry as ``seat`` reads it (None: a spectator, who is told the components every seat saw)."""
    game = state.game
    parts = []
    values = entry["values"]
    everyone = (1 << game.num_players) - 1
    for literal, name, _, _ in _parse(entry["text"]):
        if literal:
            parts.append({"text": literal})
        if name is None:
            continue
        value = values[name]
        if name not in FIELDS:
            parts += _field_parts(game, value, seat, everyone)
        elif name in ("player", "other"):
            parts.append({"text": game.player_names[value], "player": value})
        elif name == "component":
            parts += _component_parts(game, value, entry["seen"], seat, everyone)
        else:
            parts.append({"text": str(value), "number": value})
    return {"text": "".join(p["text"] for p in parts), "parts": parts, "move": entry["move"]}


def _field_parts(game, record: list, seat, everyone: int) -> list:
    """The parts of an expression field's record (see :func:`_field_record`) as ``seat`` reads it;
    a ValueError for a record a saved state damaged."""
    tag = record[0] if type(record) is list and record else None
    if tag == "text" and len(record) == 2 and type(record[1]) is str:
        return [{"text": record[1]}]
    if tag == "player" and len(record) == 2 and type(record[1]) is int and 0 <= record[1] < game.num_players:
        return [{"text": game.player_names[record[1]], "player": record[1]}]
    if tag == "component" and len(record) == 3 and type(record[1]) is list and type(record[2]) is list and \
            len(record[1]) == len(record[2]) and all(type(c) is int and 0 <= c < game.num_components
                                                     for c in record[1]) and \
            all(type(m) is int and m >= 0 for m in record[2]):
        return _component_parts(game, record[1], record[2], seat, everyone)
    raise ValueError("a field of the message is damaged")


def _component_parts(game, items, seen, seat, everyone: int) -> list:
    """Components named to ``seat`` where their ``seen`` masks say it saw them, else "a card"."""
    parts = []
    for i, (c, mask) in enumerate(zip(items, seen)):
        if i:
            parts.append({"text": " and " if i == len(items) - 1 else ", "})
        if (mask >> seat & 1) if seat is not None else mask & everyone == everyone:
            parts.append({"text": game.names[c], "component": c, "kind": game.kinds[c]})
        else:
            parts.append(_hidden(game, c))
    return parts


def _hidden(game, c) -> dict:
    """A component the reader may not know: "a card", or "a tile" when every component of the game
    is a tile (the kind tells nothing then; in a game of several kinds it would)."""
    if len(game.components_by_kind) != 1:
        return {"text": "a card", "component": None}
    kind = game.kinds[c]
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    return {"text": f"{article} {kind}", "component": None, "kind": kind}


def narration(state, seat=None, start: int = 0) -> list:
    """The messages ``seat`` may read (None: only the public ones), from its ``start``-th on."""
    mine = [e for e in state.narrative if e["to"] is None or (seat is not None and e["to"] == seat)]
    return [render(state, e, seat) for e in mine[start:]]
