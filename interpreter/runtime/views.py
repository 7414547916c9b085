"""What one player may see of a state, as JSON-ready data.

Zones follow their visibility: ``all`` shows the contents, ``owner`` shows them to the owning player
and a count to the others, ``others`` to every seat but the owner (who sees a count), ``top`` shows the count and the top component, ``count`` and ``none`` show
only how many components lie there.  A hidden component never appears with its id or attributes.
``view(None)`` is what a spectator sees: only what is open to everyone.
"""
from __future__ import annotations

from dsl.errors import RulesRuntimeError


def zone_visible(state, zone: int, viewer) -> bool:
    """Whether ``viewer`` sees the whole contents of a zone (and the zone's host, if any)."""
    game = state.game
    host = game.zone_host[zone]
    if host is not None and not component_visible(state, host, viewer):
        return False
    visibility = game.zone_visibility[zone]
    if visibility == "all" or (state.over and game.zone_family[zone] in game.ruleset.reveal):
        return True
    if visibility == "owner":
        return viewer is not None and game.zone_owner_now(state, zone) == viewer
    if visibility == "others":
        owner = game.zone_owner_now(state, zone)
        return viewer is not None and owner is not None and owner != viewer
    return False


def component_visible(state, c: int, viewer) -> bool:
    zone = state.loc[c]
    if zone_visible(state, zone, viewer):
        return True
    game = state.game
    cards = state.zones[zone]
    if game.zone_visibility[zone] != "top" or not cards or cards[-1] != c:
        return False
    host = game.zone_host[zone]
    return host is None or component_visible(state, host, viewer)


def known_hidden(state, viewer) -> list:
    """The components ``viewer`` knows (it was shown them, or saw them go where it cannot see) but
    does not see now, in table order."""
    if viewer is None:
        return []
    bit = 1 << viewer
    return [c for c, seats in enumerate(state.known) if seats & bit and not component_visible(state, c, viewer)]


def seen_components(state, viewer) -> set:
    """The components ``viewer`` sees now (the ones its view describes)."""
    return {c for c in range(state.game.num_components) if component_visible(state, c, viewer)}


def told_in_full(action, seen: set) -> bool:
    """Whether a viewer who saw ``seen`` (before or after the action) is told the action in full: it
    is declared public, or every component it names is in ``seen`` (a secret bet, a card passed
    face down are not)."""
    return action.public or set(action.components()) <= seen


def readable_action(action, named: bool = True) -> str:
    """An action as people read it: its text, or its option's name with spaces for underscores
    (only the name with ``named=False``)."""
    text = str(action) if named else action.name
    return text.replace("_", " ") if text == action.name else text


def told_action(action, told: bool) -> str:
    """An action as a viewer is told it: in full, or its option's name and "(details hidden)"."""
    return readable_action(action) if told else f"{readable_action(action, named=False)} (details hidden)"


def zone_mask(state, zone: int) -> int:
    """A bit per seat for which ``zone_visible(state, zone, seat)`` holds, worked out at once."""
    game = state.game
    visibility = game.zone_visibility[zone]
    if visibility == "all" or (state.over and game.zone_family[zone] in game.ruleset.reveal):
        mask = game.all_seats
    elif visibility == "owner":
        owner = game.zone_owner_now(state, zone)
        mask = 0 if owner is None else 1 << owner
    elif visibility == "others":
        owner = game.zone_owner_now(state, zone)
        mask = 0 if owner is None else game.all_seats & ~(1 << owner)
    else:
        return 0
    host = game.zone_host[zone]
    return mask if host is None or not mask else mask & component_mask(state, host)


def component_mask(state, c: int) -> int:
    """A bit per seat for which ``component_visible(state, c, seat)`` holds."""
    zone = state.loc[c]
    mask = zone_mask(state, zone)
    game = state.game
    cards = state.zones[zone]
    if game.zone_visibility[zone] == "top" and cards and cards[-1] == c:
        host = game.zone_host[zone]
        mask |= game.all_seats if host is None else component_mask(state, host)
    return mask


def describe(state, c: int) -> dict:
    game = state.game
    out = game.attributes_of(c)
    for mark, values in state.marks.items():
        if values[c] is not None:
            out[mark] = values[c]
    out.update(id=c, name=game.names[c], kind=game.kinds[c])  # an attribute of one of these names gives way
    return out


def _zone_view(state, zone: int, viewer):
    game = state.game
    cards = state.zones[zone]
    if zone_visible(state, zone, viewer):
        if game.zone_grid[zone] is not None:
            return {"grid": _grid_view(state, zone)}
        return [describe(state, c) for c in cards]
    if game.zone_visibility[zone] == "top":
        return {"count": len(cards), "top": describe(state, cards[-1]) if cards else None}
    return {"count": len(cards)}


def _grid_view(state, zone):
    first, rows, columns = state.game.zone_grid[zone]
    return [[describe(state, c) if (c := state.cells[first + r * columns + col]) is not None else None
             for col in range(columns)] for r in range(rows)]


def _value_view(state, value, type_, viewer):
    type_name = type_.name
    if type_name == "list" and isinstance(value, list):
        return [_value_view(state, v, type_.arg, viewer) for v in value] if type_.arg else value
    if type_name == "component" and isinstance(value, int):
        return describe(state, value) if component_visible(state, value, viewer) else "hidden"
    if type_name == "player" and isinstance(value, int):
        return state.game.player_names[value]
    if type_name == "cell" and isinstance(value, int):
        return state.game.cell_text(value)
    return value


def view_of(state, viewer) -> dict:
    game = state.game
    zones: dict = {}
    for zone, name in enumerate(game.zone_family):
        owner, host = game.zone_owner[zone], game.zone_host[zone]
        if host is not None:
            if component_visible(state, host, viewer):
                zones.setdefault(name, {})[f"{game.names[host]} #{host}"] = _zone_view(state, zone, viewer)
        elif owner is None:
            zones[name] = _zone_view(state, zone, viewer)
        else:
            zones.setdefault(name, {})[game.player_names[owner]] = _zone_view(state, zone, viewer)
    shared = {name: _value_view(state, state.vars[name], t, viewer)
              for name, (t, visibility) in game.var_info.items() if visibility == "all"}
    players = []
    for p, pname in enumerate(game.player_names):
        own = {"name": pname}
        for name, (t, visibility) in game.player_var_info.items():
            if visibility == "all" or (visibility == "owner" and viewer == p):
                own[name] = _value_view(state, state.pvars[name][p], t, viewer)
        players.append(own)
    view = {"game": game.name, "viewer": game.player_names[viewer] if viewer is not None else None,
            "moves": state.moves, "over": state.over, "zones": zones, "vars": shared, "players": players}
    known = known_hidden(state, viewer) if game.lists_known else []
    if known:
        view["known"] = [dict(describe(state, c), zone=game.zone_names[state.loc[c]]) for c in known]
    if state.over:
        view["scores"] = state.returns()
        view["winners"] = [game.player_names[p] for p in state.winners()]
        view["end_reason"] = state.end_reason
    elif state.decider is not None:
        frame = state.stack[-1]
        spec = game.procs[frame[0]].code[frame[1]][1]
        decision = {"player": game.player_names[state.decider], "prompt": prompt_text(state, spec, frame[2], viewer)}
        if viewer == state.decider:
            decision["actions"] = [str(a) for a in state.legal_actions()]
        view["decision"] = decision
    view["narration"] = state.narration(viewer)
    return view


def prompt_text(state, spec, env, viewer):
    """A choice's prompt with its ``{fields}`` filled in as ``viewer`` may see them: a component
    that is hidden from the viewer shows as its kind, never by name."""
    if not spec.prompt_parts:
        return spec.prompt
    out = []
    for literal, field, type_ in spec.prompt_parts:
        out.append(literal)
        if field is not None:
            out.append(field_text(state, field, env, type_, viewer))
    return "".join(out)


def field_text(state, field, env, type_, viewer) -> str:
    """The value of a text's compiled ``{field}`` as ``viewer`` may see it; ``?`` if it cannot be
    computed now (the top of a zone that is empty, say)."""
    try:
        return shown_value(state, field(state, env), type_, viewer)
    except RulesRuntimeError:
        return "?"


def shown_value(state, value, type_, viewer) -> str:
    """A value as text for one viewer: players and zones by name, components by name if visible."""
    game = state.game
    if isinstance(value, list):
        element = type_.arg if type_ is not None and type_.name == "list" else None
        return ", ".join(shown_value(state, v, element, viewer) for v in value)
    name = type_.name if type_ is not None else None
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name == "component":
        return game.names[value] if component_visible(state, value, viewer) else f"a hidden {game.kinds[value]}"
    if name == "player":
        return game.player_names[value]
    if name == "zone":
        return game.zone_names[value]
    if name == "cell":
        return game.cell_text(value)
    return str(value)
