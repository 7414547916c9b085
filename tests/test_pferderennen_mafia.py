"""Pferderennen Mafia: the rules that need Python rather than a scenario file.

- six players (the scenario files play with the default four): the deal and the six-player payouts;
- the secrecy of the simultaneous exacta bet in every other player's view, in random games;
- the settlement of the last race of random games, recomputed here from the rulebook's table;
- the reload's limits, the exacta pairs and the lot for the first start player, in random games.

The rules and rulings are in docs/games/pferderennen-mafia.md; the data-driven scenarios in
tests/scenarios/pferderennen-mafia/.
"""
from __future__ import annotations

import json
import random

import pytest
from conftest import view_component_ids

from interpreter import load_game
from interpreter.runtime.positions import arrange

GAME = "pferderennen-mafia"
COLOURS = ["white", "black", "red", "blue", "yellow", "green"]   # horses 1-6

_GAMES: dict = {}


def game(players=4, **params):
    key = (players, tuple(sorted(params.items())))
    if key not in _GAMES:
        _GAMES[key] = load_game(GAME, players=players, params=params or None)
    return _GAMES[key]


def zone(state, label):
    g = state.game
    return [g.names[c] for c in state.zones[g.zone_names.index(label)]]


def zone_ids(state, label):
    return list(state.zones[state.game.zone_names.index(label)])


def slot_label(family, number):
    return f"{family}[horse {number} {COLOURS[number - 1]} #{number - 1}]"


def pvar(state, name, seat):
    return state.pvars[name][seat]


def horse_id(state, number):
    return state.game.components_by_kind["horse"][number - 1]


def mark(state, name, c):
    return state.marks[name][c]


# ---- six players ------------------------------------------------------------------------------------

def test_six_players_get_twelve_cards_and_the_stack_keeps_eighteen():
    """»Die Spieler erhalten 13 Bewegungskarten (bei 6 Spielern nur 12 Karten).«"""
    state = game(6).new_initial_state(3)
    for seat in range(6):
        assert len(zone(state, f"hand[P{seat + 1}]")) == 12
        assert len(zone(state, f"mission[P{seat + 1}]")) == 1
    assert len(zone(state, "stack")) == 18
    assert zone(state, "syndicate_pile") == []


def _six_player_finish(g, seed=0):
    """Red 1st, blue 2nd, white 3rd, black 4th, yellow 5th, green 6th; P1..P6 hold horses 3, 4, 1, 2, 5, 6."""
    missions = [3, 4, 1, 2, 5, 6]
    position = {
        "vars": {"start_player": "P1"},
        "overflow": "syndicate_pile",
        "marks": {"position": {"horse 3 red": 55, "horse 4 blue": 55, "horse 1 white": 50,
                               "horse 2 black": 40, "horse 5 yellow": 30, "horse 6 green": 20}},
        "zones": {"stack": [], slot_label("slot_a", 3): ["colourless 7"], slot_label("slot_a", 4): ["colourless 5"],
                  **{f"hand[P{i + 1}]": [] for i in range(6)},
                  **{f"mission[P{i + 1}]": [f"syndicate horse {m}"] for i, m in enumerate(missions)}},
    }
    return g.new_initial_state(seed, arrange=lambda s: arrange(s, position))


def test_six_players_the_last_horse_pays_an_extra_penalty():
    """»Bei 6 Spielern muß der Spieler, der das Pferd auf Platz 6 beeinflussen sollte, 100.000 Dollar
    Strafe zahlen.« Default ruling: on top of the 100,000 $ of every horse outside the first three;
    no extra for unassigned horses, as there are none."""
    state = _six_player_finish(game(6))
    assert state.vars["race"] == 2
    assert [pvar(state, "syndicate_payout", p) for p in range(6)] == \
        [500000, 300000, 100000, -100000, -100000, -200000]
    assert [pvar(state, "money", p) for p in range(6)] == [1000000, 800000, 600000, 400000, 400000, 300000]


def test_six_players_the_last_place_sentence_read_as_restating_the_penalty():
    state = _six_player_finish(game(6, six_player_last_penalty=0))
    assert [pvar(state, "syndicate_payout", p) for p in range(6)] == \
        [500000, 300000, 100000, -100000, -100000, -100000]


def test_five_players_have_one_unassigned_horse():
    """With fewer than six players the undealt syndicate cards name unassigned horses."""
    state = game(5).new_initial_state(11)
    assert len(zone(state, "syndicate_pile")) == 1
    assert all(len(zone(state, f"hand[P{p + 1}]")) == 13 for p in range(5))
    assert len(zone(state, "stack")) == 90 - 65


# ---- random games -----------------------------------------------------------------------------------

def _random_steps(g, seed, on_step):
    """Play a random game; call on_step(before, action, after) around every action."""
    rng = random.Random(seed)
    state = g.new_initial_state(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        before = state.clone()
        state.apply_action(action)
        on_step(before, action, state)
    return state


_view_ids = view_component_ids


@pytest.mark.parametrize("players", [4, 5, 6])
def test_a_pending_exacta_bet_is_never_seen_by_another_player(players):
    """»Die Spieler wählen ... Paare ... und legen diese Paare verdeckt vor sich ab.« »Nachdem alle
    Spieler die Kombinationen für die Einlaufwette ausgewählt haben, werden die Kartenpaare
    herumgedreht«: while the simultaneous bet runs, no one else sees a pair, a choice or the legal
    actions of the deciding player; the owner sees their own pairs."""
    g = game(players)
    checked = 0
    for seed in range(3):
        def on_step(before, action, after):
            nonlocal checked
            for state in (before, after):
                if state.is_terminal():
                    continue
                decider = state.current_player()
                pending = {p: zone_ids(state, f"exacta_hidden[P{p + 1}]") for p in range(players)}
                betting = any(a.name in ("bet", "stop_betting") for a in state.legal_actions())
                if not betting and not any(pending.values()):
                    continue  # outside the bet (the generic invariant test checks every view)
                for viewer in list(range(players)) + [None]:
                    view = state.view(viewer)
                    ids = _view_ids(view)
                    for owner, cards in pending.items():
                        shown = view["zones"]["exacta_hidden"][g.player_names[owner]]
                        if owner == viewer:
                            assert [d["id"] for d in shown] == cards
                        else:
                            assert shown == {"count": len(cards)}, (viewer, owner, shown)
                            assert not ids & set(cards), f"view({viewer}) shows {owner}'s pending pair"
                            text = json.dumps(view)
                            for c in cards:
                                assert f'"id": {c},' not in text
                    if viewer != decider:
                        assert "actions" not in view.get("decision", {})
                if action.name == "bet" and state is before:
                    checked += 1
        _random_steps(g, 100 * players + seed, on_step)
    assert checked > 0, "no exacta bet was made in these games"


def _visible_pair(state, number):
    """The values of the top cards of horse ``number``'s two slots (0 for an empty slot)."""
    value = state.game.attr_tables["value"]
    tops = [zone_ids(state, slot_label(family, number)) for family in ("slot_a", "slot_b")]
    return tuple(value[ids[-1]] if ids else 0 for ids in tops)


def _expected_settlement(final, before, factor, settlement="in_order"):
    """The last race's payouts recomputed from the finished state with the rulebook's table."""
    g = final.game
    n = g.num_players
    horses = g.components_by_kind["horse"]
    value = g.attr_tables["value"]
    colour = g.attr_tables["colour"]
    keys = {}
    for number in range(1, 7):
        a, b = _visible_pair(final, number)
        position = mark(final, "position", horses[number - 1])
        # the last round moved every horse by its visible cards: a horse already past the line before
        # it crossed in an earlier round (at most one can have) and stays ahead by order of arrival
        earlier = g.params["finish_order"] == "arrival" and position - (a + b) >= g.params["finish_line"]
        keys[number] = (earlier, position, a + b, max(a, b))
    place = {h: 1 + sum(1 for o in keys if keys[o] > keys[h]) for h in keys}
    for number in range(1, 7):
        assert mark(final, "place", horses[number - 1]) == place[number], f"horse {number}"
    place_of_colour = {COLOURS[h - 1]: place[h] for h in place}
    missions = {p: g.attr_tables["horse"][zone_ids(final, f"mission_open[P{p + 1}]")[-1]] for p in range(n)}
    assigned = set(missions.values())
    out = {}
    for p in range(n):
        horse = missions[p]
        if place[horse] <= 3:
            syndicate = {1: 500000, 2: 300000, 3: 100000}[place[horse]]
        else:
            better_unassigned = sum(1 for h in place if h not in assigned and place[h] < place[horse])
            syndicate = -100000 - 100000 * better_unassigned
            if n == 6 and place[horse] == 6:
                syndicate -= g.params["six_player_last_penalty"]
        single = 0
        for c in zone_ids(final, f"hand[P{p + 1}]"):
            if colour[c] == "colourless":
                continue
            rate = {1: 40000, 2: 20000}.get(place_of_colour[colour[c]], -10000)
            single += value[c] * rate
        exacta = 0
        bets = zone_ids(final, f"exacta[P{p + 1}]")
        assert len(bets) % 2 == 0
        for a, b in zip(bets[0::2], bets[1::2]):
            assert colour[a] != colour[b] and "colourless" not in (colour[a], colour[b])
            points = value[a] + value[b]
            win = place_of_colour[colour[a]] <= 2 and place_of_colour[colour[b]] <= 2
            exacta += points * 100000 if win else -points * 10000
        amounts = [syndicate * factor, single * factor, exacta * factor]
        money = pvar(before, "money", p)
        if settlement == "net":
            money = max(0, money + sum(amounts))
        else:
            for amount in amounts:
                money = max(0, money + amount)
        out[p] = amounts + [money]
    return out


@pytest.mark.parametrize("players, params", [(4, {}), (5, {}), (6, {}), (4, {"races": 1}),
                                             (5, {"settlement": "net", "stack_card_exception": "only_when_stuck"}),
                                             (4, {"finish_order": "position"})])
def test_the_last_race_of_random_games_settles_by_the_table(players, params):
    """Syndicate, single and exacta bets as the rulebook's table, doubled in the last race; no debts;
    the richest player wins."""
    g = game(players, **params)
    for seed in range(4):
        last = {}

        def on_step(before, action, after):
            last["before"] = before
        final = _random_steps(g, 7 * seed + players, on_step)
        expected = _expected_settlement(final, last["before"], 2, g.params["settlement"])
        for p, (syndicate, single, exacta, money) in expected.items():
            assert pvar(final, "syndicate_payout", p) == syndicate
            assert pvar(final, "single_payout", p) == single
            assert pvar(final, "exacta_payout", p) == exacta
            assert pvar(final, "money", p) == money
        richest = max(final.pvars["money"])
        assert final.winners() == [p for p in range(players) if final.pvars["money"][p] == richest]
        assert final.returns() == final.pvars["money"]
        assert final.vars["race"] == g.params["races"]


@pytest.mark.parametrize("players", [4, 6])
def test_random_games_keep_the_reload_and_bet_rules(players):
    """At most one reload per race, at 10,000 $ a card, at most 13 cards in hand, no debts; covered
    cards back in the stack; exacta pairs of two horses; a player passes only after the reload."""
    g = game(players)
    for seed in range(3):
        reloads: dict = {}

        def on_step(before, action, after):
            race = before.vars["race"]
            seat = before.current_player()
            if action.name == "buy":
                assert before.vars["reloaded"]
                key = (race, seat)
                assert key not in reloads, "a second reload in one race"
                reloads[key] = True
                n = action.values[0]
                assert after.pvars["money"][seat] == before.pvars["money"][seat] - 10000 * n
                assert after.pvars["money"][seat] >= 0
                assert len(zone(after, f"hand[P{seat + 1}]")) <= 13
                for number in range(1, 7):
                    assert len(zone(before, slot_label("slot_a", number))) == 1
                    assert len(zone(before, slot_label("slot_b", number))) == 1
            if action.name == "pass":
                assert before.vars["reloaded"]
            if action.name == "bet":
                one, other = action.values
                colour = g.attr_tables["colour"]
                assert colour[one] != colour[other] and "colourless" not in (colour[one], colour[other])
            for p in range(players):
                assert len(after.zones[g.zone_names.index(f"hand[P{p + 1}]")]) <= 13
                assert after.pvars["money"][p] >= 0
        _random_steps(g, 31 * seed + players, on_step)


def test_the_first_start_player_is_drawn_by_lot():
    """»Der Startspieler wird per Los bestimmt«: every seat starts some game."""
    for players in (4, 5, 6):
        g = game(players)
        starts = {g.new_initial_state(seed).vars["start_player"] for seed in range(60)}
        assert starts == set(range(players))
        state = g.new_initial_state(1)
        assert state.current_player() == state.vars["start_player"]


def _expected_evaluation(state, seat):
    """The bots' evaluation recomputed here: money plus what the single bets, the syndicate card and
    the exacta pairs (pending or open) would bring if the race ended in the order after the next
    move (each horse moved once more by the cards it shows), doubled in the last race."""
    g = state.game
    horses = g.components_by_kind["horse"]
    value, colour = g.attr_tables["value"], g.attr_tables["colour"]
    keys = {}
    for number in range(1, 7):
        a, b = _visible_pair(state, number)
        arrived = mark(state, "arrived", horses[number - 1])
        ahead = mark(state, "position", horses[number - 1]) + a + b
        keys[number] = (1000 - arrived if arrived else 0, ahead, a + b, max(a, b))
    standing = {COLOURS[h - 1]: 1 + sum(1 for o in keys if keys[o] > keys[h]) for h in keys}
    single = sum(value[c] * {1: 40000, 2: 20000}.get(standing[colour[c]], -10000)
                 for c in zone_ids(state, f"hand[P{seat + 1}]") if colour[c] != "colourless")
    syndicate = 0
    for c in zone_ids(state, f"mission[P{seat + 1}]") + zone_ids(state, f"mission_open[P{seat + 1}]"):
        place = standing[COLOURS[g.attr_tables["horse"][c] - 1]]
        syndicate += {1: 500000, 2: 300000, 3: 100000}.get(place, -100000)
    exacta = 0
    for label in (f"exacta_hidden[P{seat + 1}]", f"exacta[P{seat + 1}]"):
        bets = zone_ids(state, label)
        for a, b in zip(bets[0::2], bets[1::2]):
            win = standing[colour[a]] <= 2 and standing[colour[b]] <= 2
            exacta += (value[a] + value[b]) * (100000 if win else -10000)
    factor = 2 if state.vars["race"] == g.params["races"] else 1
    return pvar(state, "money", seat) + factor * (single + syndicate + exacta)


def test_the_bots_evaluation_counts_exacta_bets_by_the_order_after_the_next_move():
    """The ruleset's `evaluation` (bot guidance, not the settlement) counts a pending or open exacta
    pair as the settlement would if the race ended after the next move: its points × 100,000 $ when
    both horses are among the first two, else × −10,000 $; without it an exacta bet looked to the
    bots like cards given away.  The order is the one after the next move (each horse moved once
    more by the cards it shows), not the current one: a fast horse just behind counts as ahead."""
    g = game(4)
    with_pairs = 0

    def on_step(before, action, after):
        nonlocal with_pairs
        if after.is_terminal():
            return
        for seat in range(4):
            assert after.evaluate(seat) == _expected_evaluation(after, seat), (seat, after.moves)
            with_pairs += bool(zone_ids(after, f"exacta_hidden[P{seat + 1}]") + zone_ids(after, f"exacta[P{seat + 1}]"))
    for seed in range(2):
        _random_steps(g, 40 + seed, on_step)
    assert with_pairs > 50


@pytest.mark.parametrize("earlier", ["pferderennen-mafia-old-evaluation.yaml",
                                     "pferderennen-mafia-current-order-evaluation.yaml"])
def test_todays_bots_can_still_play_on_an_earlier_evaluation(earlier):
    """benchmarks/pferderennen-mafia-old-evaluation.yaml is the ruleset before its evaluation counted
    exacta bets, benchmarks/pferderennen-mafia-current-order-evaluation.yaml before it looked one
    move ahead, the same rules otherwise: benchmarks/strength.py --against-ruleset has the --against
    bots decide on the state rebuilt in it, their choices mapped back to the game played."""
    import sys
    from conftest import ROOT
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from strength import on_twin
    old = load_game(ROOT / "benchmarks" / earlier, players=4)
    state = game(4).new_initial_state(5)
    seen = []

    def choose(twin):
        seen.append((twin.game, twin.to_dict() == state.to_dict()))
        return twin.legal_actions()[3]
    assert str(on_twin(choose, old)(state)) == str(state.legal_actions()[3])
    assert seen == [(old, True)]
    for _ in range(30):  # the same rules: the same play, another evaluation
        state.apply_action(state.legal_actions()[0])
    twin = old.state_from_json(state.to_json())
    assert [str(a) for a in twin.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert twin.pvars["money"] == state.pvars["money"]


def test_strength_reports_the_bots_score_lead_from_the_records():
    """benchmarks/strength.py prints the bot's final score minus the other seats' mean per game, with
    the half-width of its 95% interval; records written before it kept the scores give none."""
    import sys
    from conftest import ROOT
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from strength import score_lead
    records = [{"seat": 0, "returns": [10, 4, 6]}, {"seat": 1, "returns": [0, 3, 1]}]   # leads 5 and 2.5
    mean, half = score_lead(records)
    assert mean == 3.75 and half == pytest.approx(1.96 * (2.5 / 2 ** 0.5) / 2 ** 0.5, abs=1e-3)
    assert score_lead(records + [{"seat": 0}]) is None
