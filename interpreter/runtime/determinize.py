"""Determinization: a copy of a state in which what one seat cannot see is dealt anew.

Search bots for games of hidden information sample such copies (``State.determinize``): the result
depends only on what the seat can know and on the random generator given, so a bot that searches it
never reads hidden state.
"""
from __future__ import annotations

from dsl.errors import RulesRuntimeError

from . import lazy_pile, views
from .lazy_pile import raw


def determinize(state, player: int, rng):
    """A copy in which everything ``player`` cannot see is dealt anew, consistent with what the
    player knows: components they saw go somewhere hidden stay there; the others are shuffled
    among the hidden places that held components of the same kind.  What belonged to a place
    stays with the place: the running rules' locals and the variables that held the component
    dealt away now hold the one dealt there, and its marks and who else knows it go with it.
    The result depends only on what ``player`` can know (and on ``rng``, a
    ``random.Random``), so a bot that searches it never reads hidden state."""
    new = state.clone()
    if new.chance is not None:
        lazy_pile.forget_order(new, rng)
    game = state.game
    bit = 1 << player
    fixed = _fixed_for(state, player)
    slots: dict = {}  # per component kind: the hidden places and the components in them
    for zone, cards in enumerate(new.zones):
        if game.zone_grid[zone] is not None or _sees(game, new, zone, player, bit):
            continue
        hidden = len(cards) - 1 if game.top_mask[zone] and cards else len(cards)
        for i in range(hidden):
            if not new.known[cards[i]] & bit and cards[i] not in fixed:
                places, pool = slots.setdefault(game.kinds[cards[i]], ([], []))
                places.append((zone, i))
                pool.append(cards[i])
    dealt: dict = {}  # component dealt away -> the component dealt to its place
    for kind in sorted(slots):
        places, pool = slots[kind]
        pool.sort()
        rng.shuffle(pool)
        masks = [game.zone_holds[zone] for zone, _ in places]
        if any(game.zone_knowledge[zone] is not None for zone, _ in places):
            masks = _known_masks(state, places, pool, masks)
        if any(mask is not None for mask in masks):
            pool = _deal_within(masks, pool, rng)
        for (zone, i), c in zip(places, pool):
            dealt[new.zones[zone][i]] = c
            new.zones[zone][i] = c
            new.loc[c] = zone
    if dealt:
        _follow_places(new, state, dealt)
    new.blind_to = [0] * len(new.blind_to)  # dealt anew: nothing promised about who knows what
    new.rng = rng.getrandbits(64)
    new.legal_cache = None
    return new


def _sees(game, state, zone, player, bit) -> bool:
    """Whether ``player`` sees the whole of ``zone`` now (``game.visible_mask`` for one seat)."""
    mask = game.zone_mask[zone]
    return bool(mask & bit) if mask is not None else views.zone_visible(state, zone, player)


def _fixed_for(state, player) -> set:
    """Components a determinization for ``player`` leaves where they are: those the player's own
    legal actions name (the player sees them) and those interchangeable with them (an action
    names one of several identical components, so that its text stands for all of them), those
    that hold components in a zone of their own, and those the running rules hold in locals
    whose type is not known."""
    game = state.game
    fixed = set()
    if state.decider == player and not state.over:
        for action in state.legal_actions():
            fixed.update(action.components())
        fixed |= _interchangeable_with(state, fixed)
    for zone, host in enumerate(game.zone_host):
        if host is not None and state.zones[zone]:
            fixed.add(host)
    for frame in state.stack:
        for key in game.procs[frame[0]].untyped:
            if key in frame[2]:
                _collect_ints(frame[2][key][0] if key[0] == "$" else frame[2][key], fixed)
    for name in game.untyped_vars:
        _collect_ints(state.vars[name], fixed)
    for name in game.untyped_player_vars:
        _collect_ints(state.pvars[name], fixed)
    return {c for c in fixed if 0 <= c < game.num_components}


def _interchangeable_with(state, named) -> set:
    """The components of the zones of ``named`` that have the name, cell and marks of one of them."""
    game = state.game
    marks = list(state.marks.values())

    def key(c):
        return (game.name_index[c], state.loc[c], state.cell_of[c], tuple(m[c] for m in marks))
    wanted = {key(c) for c in named if 0 <= c < game.num_components}
    zones = {state.loc[c] for c in named if 0 <= c < game.num_components}
    return {c for zone in zones for c in raw(state.zones[zone]) if key(c) in wanted}


def _follow_places(state, old, dealt) -> None:
    """After dealing (``dealt``: the component that was at a place -> the one now there), make
    what referred to the place refer to the new component."""
    game = state.game
    for frame in state.stack:
        env = frame[2]
        for key in game.procs[frame[0]].holding:
            if key in env:
                value = env[key]
                env[key] = [_renamed(value[0], dealt), value[1]] if key[0] == "$" else _renamed(value, dealt)
    for name in game.component_vars:
        state.vars[name] = _renamed(state.vars[name], dealt)
    for name in game.component_player_vars:
        state.pvars[name] = [_renamed(v, dealt) for v in state.pvars[name]]
    for name, values in state.marks.items():
        before = old.marks[name]
        for c, d in dealt.items():
            values[d] = before[c]
    for c, d in dealt.items():
        state.known[d] = old.known[c]


def _collect_ints(value, found) -> None:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        found.add(value)
    elif isinstance(value, list):
        for item in value:
            _collect_ints(item, found)


def _known_masks(state, places, pool, masks) -> list:
    """``masks`` narrowed by the zones' ``knowledge``: each place of such a zone takes only the
    components of ``pool`` that meet the condition there (``position``: its place in the zone,
    ``owner``: the zone's owner).  The condition reads only printed attributes and what every seat
    sees, so it is worked out once per sort of component (components with the same printed
    attributes)."""
    game = state.game
    tables = list(game.attr_tables.values())
    keys = {c: tuple(table[c] for table in tables) for c in pool}
    sorts: dict = {}  # printed attributes -> one component with them
    for c, key in keys.items():
        sorts.setdefault(key, c)
    narrowed = []
    for (zone, i), mask in zip(places, masks):
        test = game.zone_knowledge[zone]
        if test is None:
            narrowed.append(mask)
            continue
        env = {"position": i, "owner": game.zone_owner_now(state, zone)}
        meets = {key: _meets(test, state, dict(env, component=c)) for key, c in sorts.items()}
        narrowed.append({c: meets[keys[c]] and (mask is None or mask[c]) for c in pool})
    return narrowed


def _meets(test, state, env) -> bool:
    """Whether a zone's knowledge holds; one that cannot be worked out (a list too short) says nothing."""
    try:
        return bool(test(state, env))
    except RulesRuntimeError:
        return True


def _deal_within(masks, pool, rng, attempts=20) -> list:
    """A dealing of ``pool`` (shuffled) to places that accept only some components (``masks[i]``,
    None for any): the most particular places choose first, each taking the first component of the
    pool it accepts.  The true dealing is one solution, so one is found almost always."""
    order = sorted(range(len(masks)),
                   key=lambda i: sum(masks[i][c] for c in pool) if masks[i] is not None else len(pool) + 1)
    for _ in range(attempts):
        left, dealt = pool[:], [None] * len(masks)
        for i in order:
            mask = masks[i]
            j = next((j for j, c in enumerate(left) if mask is None or mask[c]), None)
            if j is None:
                break
            dealt[i] = left.pop(j)
        else:
            return dealt
        rng.shuffle(pool)
    raise RulesRuntimeError("no dealing of the hidden components meets the zones' 'holds' and 'knowledge' "
                            "conditions",
                            hint="search bots skip such a sample")


def _renamed(value, dealt):
    """A value (a component, a list, or none) with each dealt component replaced."""
    if isinstance(value, list):
        return [_renamed(v, dealt) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return dealt.get(value, value)
    return value
