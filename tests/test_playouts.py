"""Generic invariants of the engine, checked after every decision of seeded random games.

One test, parametrized over every ruleset in ``rulesets/`` and every variant in ``rulesets/variants/``
(and the small test games ``tests/broken/_minimal.yaml`` and ``tests/conformance/_context.yaml``),
and over every player count each allows.  Nothing in it knows a particular game.  After every
decision it checks that

* every component lies in exactly one zone (``zones`` and ``loc`` agree; so do grid cells);
* someone in range decides; the legal actions exist, have unique texts that parse back to them, and
  an illegal action raises IllegalActionError and changes nothing;
* every seat's ``view(p)`` (and the spectator's) is plain JSON and shows no component p may not see;
* a state read back from ``to_json()`` is identical and plays on identically; ``clone()`` is equal,
  plays on identically, and playing on either one leaves the other alone;

and at the end that ``returns()`` has a score per seat and ``winners()`` is not empty, and that the
same seed and actions replay to the same state at every step.

Size: each ruleset gets a budget of decisions to check (``DECISIONS_PER_RULESET``, shared by its
player counts) and plays seeded games until the budget is spent (at least ``MIN_GAMES``, at most
``MAX_GAMES`` per player count).  A variant changes rules, not seats: it is played at its smallest
player count only, with a small budget; the tiny test games get a small budget too.  A checked
decision costs 2-10 ms, so a ruleset takes 4-25 s (MafiaDollar: long games, five player counts).
Set ``RULEBOOK_PLAYOUTS=4`` (a factor) for a longer run.
"""
from __future__ import annotations

import json
import os
import random
import re

import pytest

from conftest import RULESETS, TEST_GAMES, VARIANTS, player_counts
from interpreter import IllegalActionError, RulebookError, load_game
from interpreter.runtime import views

SCALE = float(os.environ.get("RULEBOOK_PLAYOUTS", "1"))
DECISIONS_PER_RULESET = int(600 * SCALE)
DECISIONS_PER_VARIANT = int(100 * SCALE)
DECISIONS_PER_TEST_GAME = int(300 * SCALE)
MIN_GAMES = 1
MAX_GAMES = int(200 * SCALE)
PARSE_SAMPLE = 12
MAX_DECISIONS_PER_GAME = 20_000  # a random game longer than this is taken for one that never ends
EVERY_DECISION_UNTIL = 300  # past this many decisions of one game, views and JSON are checked at every 10th


def _cases():
    for path in RULESETS + TEST_GAMES:
        counts = player_counts(path)
        budget = DECISIONS_PER_RULESET if path in RULESETS else DECISIONS_PER_TEST_GAME
        prefix = "" if path in RULESETS else "test-game-"
        for players in counts:
            yield pytest.param(path, players, budget // len(counts), MIN_GAMES,
                               id=f"{prefix}{path.stem.lstrip('_')}-{players}p")
    for path in VARIANTS:
        players = player_counts(path)[0]
        yield pytest.param(path, players, DECISIONS_PER_VARIANT, 1, id=f"variant-{path.stem}-{players}p")


# ---- checks: each takes a state (and what it needs) and asserts one family of invariants -------------

def check_components(state):
    """Every component lies in exactly one zone, and ``loc`` says which; on grids, every component of a
    grid zone stands on exactly one cell of that zone, and ``cells`` and ``cell_of`` agree."""
    game = state.game
    assert len(state.zones) == len(game.zone_names), "the number of zones changed"
    assert len(state.loc) == game.num_components, "loc does not cover every component"
    seen = [0] * game.num_components
    for zone, cards in enumerate(state.zones):
        for c in cards:
            assert isinstance(c, int) and 0 <= c < game.num_components, f"zone {zone} holds {c!r}"
            seen[c] += 1
            assert state.loc[c] == zone, (f"component {c} lies in {game.zone_names[zone]} but loc says "
                                          f"{state.loc[c]}")
    lost = [c for c, n in enumerate(seen) if n == 0]
    doubled = [c for c, n in enumerate(seen) if n > 1]
    assert not lost, f"components in no zone: {lost}"
    assert not doubled, f"components in several zones: {doubled}"
    grids = getattr(game, "zone_grid", None)
    if not grids or not any(grids):
        return
    for cell, c in enumerate(state.cells):
        if c is not None:
            assert state.cell_of[c] == cell, f"cell {cell} holds {c}, but {c} stands on {state.cell_of[c]}"
            assert state.loc[c] == game.cell_zone[cell], f"component {c} stands on a cell of another zone"
    for c, cell in enumerate(state.cell_of):
        on_grid = grids[state.loc[c]] is not None
        assert (cell is not None) == on_grid, f"component {c}: cell {cell} in zone {game.zone_names[state.loc[c]]}"
        if cell is not None:
            assert state.cells[cell] == c, f"component {c} stands on cell {cell}, which holds {state.cells[cell]}"


def check_decider(state):
    """While the game runs, someone in range decides."""
    player = state.current_player()
    assert isinstance(player, int) and not isinstance(player, bool), f"decider {player!r}"
    assert 0 <= player < state.game.num_players, f"decider {player} out of range"


def action_texts(state) -> list:
    return [str(a) for a in state.legal_actions()]


def check_legal_actions(state, rng) -> list:
    """Legal actions exist and have unique texts; each text parses back to its action (checked for a
    sample of at most ``PARSE_SAMPLE`` actions: parse_action is linear, checking all is quadratic)."""
    actions = state.legal_actions()
    assert actions, "a decision without legal actions"
    texts = [str(a) for a in actions]
    assert all(isinstance(t, str) and t.strip() for t in texts), f"empty action text in {texts}"
    normalized = [" ".join(t.split()).lower() for t in texts]
    assert len(set(normalized)) == len(normalized), f"two actions share a text: {texts}"
    sample = actions if len(actions) <= PARSE_SAMPLE else [actions[0], actions[-1]] + rng.sample(
        actions, PARSE_SAMPLE - 2)
    for action in sample:
        assert state.parse_action(str(action)) is action, f"'{action}' does not parse back to itself"
    for action in actions:
        assert action == action and hash(action) == hash(action), f"'{action}' is not hashable"
    return actions


def check_json_round_trip(state, text):
    """A state saved to JSON (``text``) and read back is the same state with the same legal actions."""
    restored = state.game.state_from_json(text)
    assert restored.to_json() == text, "state_from_json(to_json()) changed the state"
    assert json.dumps(state.to_dict(), separators=(",", ":"), sort_keys=True) == text, "to_json() is not to_dict()"
    assert restored.current_player() == state.current_player()
    if not state.is_terminal():
        assert action_texts(restored) == action_texts(state), "the restored state offers other actions"
    return restored


def check_clone(state, text):
    """A clone equals its original (whose JSON is ``text``)."""
    copy = state.clone()
    assert copy is not state and copy.to_json() == text, "clone() is not equal to the original"
    return copy


def check_clone_independent(state, before, actions, rng):
    """Playing on a clone (a different action from the one the game takes) leaves the original as it was."""
    texts = [str(a) for a in actions]
    copy = state.clone()
    copy.apply_action(actions[rng.randrange(len(actions))])
    if not copy.is_terminal():
        copy.legal_actions()
    assert state.to_json() == before, "playing on a clone changed the original"
    assert action_texts(state) == texts, "playing on a clone changed the original's legal actions"


def check_illegal_actions(state, before, stale_actions, unknown_text=True):
    """Illegal actions (an unknown text, an action of an earlier decision) raise IllegalActionError and
    leave the state (whose JSON was ``before``) unchanged and usable."""
    texts = action_texts(state)
    legal = state.legal_actions()
    bad = [a for a in stale_actions if a not in legal][:2]
    if unknown_text:  # costly: the error's hint searches for close texts
        bad.append("no such action in any game")
    for action in bad:
        with pytest.raises(IllegalActionError):
            state.apply_action(action)
    assert state.to_json() == before, f"the illegal actions {bad} changed the state"
    assert action_texts(state) == texts, f"the illegal actions {bad} changed the legal actions"


class Sight:
    """What one viewer (a seat, or None for a spectator) may see, worked out from the visibility rules
    independently of ``interpreter/runtime/views.py``:

    * a zone kept per component is seen at all only if its component (its host) is seen;
    * ``all`` zones show everything, ``owner`` zones show everything to their owner now (the owner of a
      zone kept per component is the owner of the zone its host lies in), ``others`` zones to every
      seat but that owner, ``top`` zones show their top
      component, ``count`` and ``none`` zones nothing."""

    def __init__(self, state, viewer):
        self.state = state
        self.game = state.game
        self.viewer = viewer
        self.hosts = getattr(self.game, "zone_host", None) or [None] * len(self.game.zone_names)
        self._seen: dict = {}
        self._contents: dict = {}

    def owner_now(self, zone):
        for _ in range(64):
            host = self.hosts[zone]
            if host is None:
                return self.game.zone_owner[zone]
            zone = self.state.loc[host]
        return None

    def zone_shown(self, zone) -> bool:
        host = self.hosts[zone]
        return host is None or self.sees(host)

    def sees_contents(self, zone) -> bool:
        if zone not in self._contents:
            visibility = self.game.zone_visibility[zone]
            if visibility == "owner":
                sees = self.viewer is not None and self.owner_now(zone) == self.viewer
            elif visibility == "others":
                sees = self.viewer is not None and self.owner_now(zone) not in (None, self.viewer)
            else:
                sees = visibility == "all"
            # scoring: reveal: turns the named zones face up once the game is over
            sees = sees or (self.state.over and self.game.zone_family[zone] in self.game.ruleset.reveal)
            self._contents[zone] = sees and self.zone_shown(zone)
        return self._contents[zone]

    def sees(self, c) -> bool:
        if c not in self._seen:
            self._seen[c] = False  # a component under itself (a cycle of hosts) is hidden
            zone = self.state.loc[c]
            cards = self.state.zones[zone]
            self._seen[c] = self.sees_contents(zone) or (
                self.game.zone_visibility[zone] == "top" and cards[-1] == c and self.zone_shown(zone))
        return self._seen[c]

    def hidden(self) -> set:
        return {c for c in range(self.game.num_components) if not self.sees(c)}


def component_dicts(value) -> list:
    """Every dict in a view that describes a component."""
    found, todo = [], [value]
    while todo:
        item = todo.pop()
        if type(item) is dict:
            if "id" in item and "kind" in item:
                found.append(item)
            todo.extend(v for v in item.values() if type(v) in (dict, list))
        elif type(item) is list:
            todo.extend(v for v in item if type(v) in (dict, list))
    return found


# A component described in a view's JSON text: {"id": 12, "name": "Söldner 2", "kind": "card", ...}
_DESCRIBED = re.compile(r'\{"id": (\d+), "name": ("(?:[^"\\]|\\.)*"), "kind": ')


def shown_components(view, text) -> list:
    """(id, name as JSON text) of every component a view describes.  Scans the JSON text (fast); falls
    back to walking the data when the text has descriptions the pattern does not recognize."""
    found = [(int(m.group(1)), m.group(2)) for m in _DESCRIBED.finditer(text)]
    if len(found) != text.count('"id": '):
        found = [(d["id"], json.dumps(d.get("name"))) for d in component_dicts(view)]
    return found


_JSON_NAMES: dict = {}


def json_names(game) -> list:
    """The name of every component as JSON text, as views encode it."""
    if id(game) not in _JSON_NAMES:
        _JSON_NAMES[id(game)] = (game, [json.dumps(n) for n in game.names])
    return _JSON_NAMES[id(game)][1]


_ABSENT = object()


def _zone_in_view(view, game, zone):
    """The part of a view showing one zone (``_ABSENT`` if the view leaves the zone out)."""
    content = view["zones"].get(game.zone_family[zone], _ABSENT)
    host = (getattr(game, "zone_host", None) or [None] * len(game.zone_names))[zone]
    if host is not None:
        return _ABSENT if content is _ABSENT else content.get(f"{game.names[host]} #{host}", _ABSENT)
    owner = game.zone_owner[zone]
    return content if owner is None else content[game.player_names[owner]]


def _check_zone_view(state, sight, zone, content, label):
    game = state.game
    cards = state.zones[zone]
    if not sight.zone_shown(zone):
        assert content is _ABSENT, f"{label} is shown, but the component it belongs to is hidden"
        return
    assert content is not _ABSENT, f"{label} is missing"
    grid = getattr(game, "zone_grid", [None] * len(game.zone_names))[zone]
    if sight.sees_contents(zone) and grid is not None:
        first, rows, columns = grid
        shown = [[(d or {}).get("id") for d in row] for row in content["grid"]]
        expected = [[state.cells[first + r * columns + col] for col in range(columns)] for r in range(rows)]
        assert shown == expected, f"{label} shows another grid"
    elif sight.sees_contents(zone):
        assert [d["id"] for d in content] == cards, f"{label} lists other components"
    elif game.zone_visibility[zone] == "top":
        assert content["count"] == len(cards), f"{label} miscounts"
        assert (content["top"] or {}).get("id") == (cards[-1] if cards else None), f"{label}: wrong top"
    else:
        assert content == {"count": len(cards)}, f"{label} shows more than a count: {content}"


def _check_typed_value(shown, type_, sight, where):
    """A component-valued variable shows a hidden component only as 'hidden', never its id."""
    if type_.name == "component" and shown is not None and not isinstance(shown, dict):
        assert shown == "hidden", f"{where} shows a component as {shown!r}"
    if type_.name == "list" and type_.arg is not None and type_.arg.name == "component":
        for item in shown:
            assert isinstance(item, dict) or item == "hidden", f"{where} shows a component as {item!r}"
            assert not (isinstance(item, int) and not sight.sees(item)), f"{where} leaks component {item}"


def check_view(state, viewer, zones_too=True):
    """``view(viewer)`` is JSON-serializable and mentions no component the viewer may not see; with
    ``zones_too``, also that it is plain JSON data that reads back unchanged, and that it shows every
    zone exactly as its visibility says."""
    game = state.game
    rs = game.ruleset
    view = dict(state.view(viewer))
    text = json.dumps(view, allow_nan=False)
    if zones_too:
        assert json.loads(text) == view, "the view is not plain JSON data (tuples, non-text keys, ...)"
    sight = Sight(state, viewer)
    names = json_names(game)
    known = view.pop("known", [])  # what the viewer was shown, or saw go where it cannot see now
    for card in known:
        c = card["id"]
        assert viewer is not None and state.known[c] >> viewer & 1 and not sight.sees(c), card
        assert card["zone"] == game.zone_names[state.loc[c]], card
    if known:
        text = json.dumps(view, allow_nan=False)
    for c, name in shown_components(view, text):
        assert sight.sees(c), f"view({viewer}) shows hidden component {c} ({game.names[c]})"
        assert name == names[c], f"view({viewer}) names component {c} {name}"
    if zones_too:
        for zone in range(len(state.zones)):
            _check_zone_view(state, sight, zone, _zone_in_view(view, game, zone),
                             f"view({viewer}) of {game.zone_names[zone]}")
    for name, var in rs.vars.items():
        if var.visibility != "all":
            assert name not in view["vars"], f"view({viewer}) shows the hidden variable '{name}'"
        else:
            _check_typed_value(view["vars"][name], var.type, sight, f"variable '{name}'")
    for p, shown in enumerate(view["players"]):
        for name, var in rs.player_vars.items():
            may_see = var.visibility == "all" or (var.visibility == "owner" and viewer == p)
            if not may_see:
                assert name not in shown, f"view({viewer}) shows {game.player_names[p]}'s hidden '{name}'"
            else:
                _check_typed_value(shown[name], var.type, sight, f"{game.player_names[p]}.{name}")
    decision = view.get("decision")
    if decision is not None and viewer != state.current_player():
        assert "actions" not in decision, f"view({viewer}) shows another player's legal actions"


def check_views(state, turn=0):
    """Every seat's view and the spectator's are leak-free; one of them (in turn) is also checked zone
    by zone against the state (checking all of them each time costs more than it finds)."""
    viewers = list(range(state.game.num_players)) + [None]
    for i, viewer in enumerate(viewers):
        check_view(state, viewer, zones_too=i == turn % len(viewers))
    check_masks(state)


def check_masks(state):
    """The seat masks that moves and shuffles use (``views.zone_mask``, ``component_mask``) say for
    every seat what ``zone_visible`` and ``component_visible`` say; no seat a zone's ``blind_to``
    names knows the place of a component there."""
    seats = range(state.game.num_players)
    for zone in range(len(state.zones)):
        mask = views.zone_mask(state, zone)
        assert [mask >> p & 1 == 1 for p in seats] == [views.zone_visible(state, zone, p) for p in seats], zone
    for c in range(state.game.num_components):
        mask = views.component_mask(state, c)
        assert [mask >> p & 1 == 1 for p in seats] == [views.component_visible(state, c, p) for p in seats], c
    for zone, cards in enumerate(state.zones):  # what moves promise about who knows nothing there
        for c in cards:
            assert not state.known[c] & state.blind_to[zone], (state.game.zone_names[zone], c)


def check_final(state):
    """A finished game: no decider, no actions, one score per seat, at least one winner."""
    game = state.game
    assert state.is_terminal()
    assert state.current_player() is None
    assert state.legal_actions() == []
    returns = state.returns()
    assert len(returns) == game.num_players, f"returns() {returns} for {game.num_players} seats"
    assert all(isinstance(r, (int, float)) and not isinstance(r, bool) for r in returns), returns
    winners = state.winners()
    assert winners, "a finished game without a winner"
    assert winners == sorted(set(winners)) and all(0 <= w < game.num_players for w in winners), winners
    with pytest.raises(IllegalActionError):
        state.apply_action("pass")


def check_replay(game, seed, texts, snapshots):
    """The same seed and the same actions give the same states, at every step."""
    state = game.new_initial_state(seed)
    assert state.to_json() == snapshots[0], f"seed {seed}: two starts differ"
    for i, text in enumerate(texts):
        state.apply_action(state.parse_action(text))
        assert state.to_json() == snapshots[i + 1], f"seed {seed}: replay differs after {i + 1} actions"


# ---- the test ------------------------------------------------------------------------------------

def play_checked_game(game, seed) -> int:
    """Play one random game, checking every invariant after every decision; returns its length."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    texts, snapshots, stale = [], [state.to_json()], []
    while not state.is_terminal():
        assert len(texts) < MAX_DECISIONS_PER_GAME, f"seed {seed}: no end after {len(texts)} decisions"
        check_components(state)
        check_decider(state)
        actions = check_legal_actions(state, rng)
        # a view and a saved state carry the narration, which grows with the game: checking them at
        # every decision of a match of thousands would cost its length squared
        full = len(texts) < EVERY_DECISION_UNTIL or len(texts) % 10 == 0
        if full:
            check_views(state, turn=len(texts))
        before = snapshots[-1]
        check_illegal_actions(state, before, stale, unknown_text=len(texts) % 8 == 0)
        restored = check_json_round_trip(state, before) if full else None
        twin = check_clone(state, before)
        check_clone_independent(state, before, actions, rng)

        action = actions[rng.randrange(len(actions))]
        state.apply_action(action)
        assert twin.to_json() == before, "playing on the original changed its clone"
        twin.apply_action(action)
        after = state.to_json()
        assert twin.to_json() == after, f"a clone continues differently after '{action}'"
        if restored is not None:
            restored.apply_action(str(action))
            assert restored.to_json() == after, f"a state read from JSON continues differently after '{action}'"
        texts.append(str(action))
        snapshots.append(after)
        stale = actions
    check_components(state)
    for viewer in list(range(state.game.num_players)) + [None]:
        check_view(state, viewer)
    final = state.to_json()
    check_json_round_trip(state, final)
    assert state.game.state_from_json(json.loads(final)).to_json() == final, "state_from_json(dict) differs"
    assert check_clone(state, final) == state, "a clone does not compare equal"
    check_final(state)
    check_replay(game, seed, texts, snapshots)
    return len(texts)


@pytest.mark.parametrize("path, players, budget, min_games", list(_cases()))
def test_random_playouts_keep_invariants(path, players, budget, min_games):
    game = load_game(path, players=players)
    assert players is None or game.num_players == players
    assert game.ruleset.min_players <= game.num_players <= game.ruleset.max_players
    decisions = games = 0
    while games < MAX_GAMES and (games < min_games or decisions < budget):
        seed = 1000 * games + game.num_players
        try:
            decisions += play_checked_game(game, seed)
        except RulebookError as exc:  # a clean error of the rules is still a failure of the ruleset
            pytest.fail(f"seed {seed}: {type(exc).__name__}: {exc}")
        games += 1


# ---- a specific view check the generic test cannot make -------------------------------------------

def test_view_hides_components_held_in_list_variables():
    """docs/language.md, views: 'a component held in a variable shows only if p can see it'.  That
    holds for a variable of type component ('hidden'); a variable holding a *list* of components must
    not give away the ids of hidden ones either (the generic test cannot tell that a 'type: list'
    variable holds components, so this checks it on the conformance context game)."""
    from conftest import CONTEXT

    game = load_game(CONTEXT)
    state = game.new_initial_state(0)
    state.apply_action("hide blue 2")  # P1 hides card 4 in the vault (visibility none): history += [card]
    assert state.vars["history"] == [1, 4] and state.loc[4] == game.zone_names.index("vault")
    for viewer in (1, 2, None):
        shown = state.view(viewer)["vars"]["history"]
        assert 4 not in shown, f"view({viewer}) shows the id of the card hidden in the vault: {shown}"


TOP_UNDER_HIDDEN_CARD = """
game: {name: Top under a hidden card, players: 2}
components:
  card:
    attributes: {value: int}
    in: pile
    table:
      - {value: 1, count: 4}
zones:
  pile: {}
  hand: {per: player, visibility: owner}
  under: {per: card, visibility: top}
vars:
  marked: {type: component, initial: none}
setup:
  - let host = top(pile)
  - move(host, active.hand)
  - move(top(pile), host.under)
  - marked = top(host.under)
flow:
  - choose:
      options:
        wait:
"""


def test_view_hides_the_top_of_a_zone_kept_by_a_hidden_component(tmp_path):
    """A 'top' zone kept per card shows its top card only where the card keeping it is seen: P2 does
    not see P1's hand, so not what lies under a card in it, neither as a zone (it is left out of the
    view) nor through a variable holding that component."""
    path = tmp_path / "top-under-hidden-card.yaml"
    path.write_text(TOP_UNDER_HIDDEN_CARD, encoding="utf-8")
    state = load_game(path).new_initial_state(0)
    game = state.game
    marked = state.vars["marked"]
    host = game.zone_host[state.loc[marked]]  # the card the marked one lies under ...
    assert host is not None and game.zone_names[state.loc[host]] == "hand[P1]"  # ... is in P1's hand
    assert not Sight(state, 1).sees(marked)
    check_view(state, 1)
