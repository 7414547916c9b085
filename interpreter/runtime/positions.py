"""Setting up a position by hand, for scenario tests and for designers trying a situation.

A position is data::

    zones:                       # each zone listed holds exactly these components, bottom to top
      market: [Blue 4, Red 0]
      hand[P1]: [Blue 1, Blue 1, Green 2]
    vars: {active: P2, reshuffled: true}
    player_vars: {money: {P1: 300000}}
    marks: {}                    # e.g. {reduction: {"Blue 4": 2}}

Components are named as in the game (their name template); each name takes a component of that
name from a zone that is not listed (so the unlisted zones give up what the listed ones need).
"""
from __future__ import annotations

from dsl.errors import ParameterError


def _zone_index(game, label: str) -> int:
    if label in game.zone_names:
        return game.zone_names.index(label)
    raise ParameterError(f"no zone '{label}'", hint=f"zones: {', '.join(game.zone_names)}")


def _player_index(game, value) -> int:
    if isinstance(value, int):
        return value
    if value in game.player_names:
        return game.player_names.index(value)
    raise ParameterError(f"no player '{value}'", hint=f"players: {', '.join(game.player_names)}")


def arrange(state, position: dict) -> None:
    """Rearrange ``state`` (right after setup) into ``position``."""
    game = state.game
    listed = {_zone_index(game, label): names for label, names in (position.get("zones") or {}).items()}
    pool: dict = {}
    for zone, cards in enumerate(state.zones):
        if zone not in listed:
            for c in reversed(cards):
                pool.setdefault(game.names[c], []).append(c)
    for zone in listed:
        for c in state.zones[zone]:
            pool.setdefault(game.names[c], []).append(c)
    placed = {}
    for zone, names in listed.items():
        placed[zone] = []
        for name in names:
            if not pool.get(name):
                raise ParameterError(f"no component '{name}' left for zone '{game.zone_names[zone]}'")
            placed[zone].append(pool[name].pop(0))
    taken = {c for cards in placed.values() for c in cards}
    for zone in range(len(state.zones)):
        if zone in placed:
            state.zones[zone] = placed[zone]
        else:
            state.zones[zone] = [c for c in state.zones[zone] if c not in taken]
    leftovers = [c for zone in listed for c in _previous(state, zone) if c not in taken]
    if leftovers:
        overflow = _zone_index(game, position.get("overflow", game.zone_names[0]))
        state.zones[overflow] = leftovers + state.zones[overflow]
    for zone, cards in enumerate(state.zones):
        mask = game.visible_mask(state, zone)
        for c in cards:
            state.loc[c] = zone
            state.known[c] = mask | (game.top_mask[zone] if c == cards[-1] else 0)
    state.blind_to = [0] * len(state.zones)  # placed anew: nothing promised about who knows what
    _set_values(state, position)


def _previous(state, zone):
    return [c for c, z in enumerate(state.loc) if z == zone]


def _set_values(state, position) -> None:
    game = state.game
    for name, value in (position.get("vars") or {}).items():
        if name not in state.vars:
            raise ParameterError(f"no variable '{name}'")
        kind = game.var_info[name][0].name
        state.vars[name] = _value(game, kind, value)
    for name, per_player in (position.get("player_vars") or {}).items():
        if name not in state.pvars:
            raise ParameterError(f"no player variable '{name}'")
        for player, value in per_player.items():
            kind = game.player_var_info[name][0].name
            state.pvars[name][_player_index(game, player)] = _value(game, kind, value)
    for mark, values in (position.get("marks") or {}).items():
        if mark not in state.marks:
            raise ParameterError(f"no mark '{mark}'")
        for name, value in values.items():
            matches = [c for c in range(game.num_components) if game.names[c] == name]
            if not matches:
                raise ParameterError(f"no component '{name}'")
            state.marks[mark][matches[0]] = value


def _value(game, kind, value):
    if kind == "player" and value is not None:
        return _player_index(game, value)
    if kind == "component" and isinstance(value, str):
        return game.names.index(value)
    return value
