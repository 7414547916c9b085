"""MafiaDollar (rulesets/mafiadollar.yaml) against its rulebook: what needs Python.

The rules written as data are under tests/scenarios/mafiadollar/ (each card type, each gangster
action, success checks, trades, police, the end, scoring, the optional rules).  Here: the card list,
setup for 2 to 6 players, what players see (a Lager's contents, police passing, trade offers) over
whole random games, the end card turned up in the middle of a check, long sequences (a match of
optional rule 6.2) and whole games for every player count.  Each test quotes the German sentence of
/work/shared/rulebooks/mafiadollar.txt (or the ruling of docs/games/mafiadollar.md) it checks.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import view_component_ids

from interpreter import load_game
from interpreter.runtime.positions import arrange

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "games" / "mafiadollar.md"
SYMBOLS = ("Schlüssel", "Zeitung", "Verbandskasten", "Hut")

_GAMES: dict = {}


def game_for(players=4, **params):
    key = (players, tuple(sorted(params.items())))
    if key not in _GAMES:
        _GAMES[key] = load_game("mafiadollar", players=players, params=params or None)
    return _GAMES[key]


def zone(game, name):
    return game.zone_names.index(name)


def names_in(state, name):
    game = state.game
    return [game.names[c] for c in state.zones[zone(game, name)]]


def kind_count(game, kind):
    return len(game.components_by_kind[kind])


def loot_zones(game):
    return [z for z, family in enumerate(game.zone_family) if family == "loot"]


component_ids = view_component_ids


def play_random(state, rng, on_decision=None, limit=20_000, prefer=()):
    """Play random legal actions to the end; ``on_decision(state)`` is called before each one.
    Options named in ``prefer`` are taken whenever one is legal (to reach rare situations often)."""
    steps = 0
    while not state.is_terminal():
        if on_decision is not None:
            on_decision(state)
        actions = state.legal_actions()
        preferred = [a for a in actions if a.name in prefer]
        pool = preferred if preferred and rng.random() < 0.8 else actions
        state.apply_action(pool[rng.randrange(len(pool))])
        steps += 1
        assert steps < limit, "a random game did not end"
    return state


# ---- the card list (FACTS.md default) --------------------------------------------------------------

def test_the_card_list_has_173_cards_of_the_rulebook_kinds():
    """»173 Spielkarten: 30 Gangster, 26 Gegenstände, 32 Blockkarten, 44 Anteilskarten, 18 Lager,
    6 Wachhunde, 3 Der Don hat Geburtstag Karten, 13 Polizeikarten, 1 Aufhebung der Prohibition«"""
    game = game_for()
    assert game.num_components == 173
    assert {k: kind_count(game, k) for k in game.components_by_kind} == {
        "gangster": 30, "item": 26, "block": 32, "share": 44, "lager": 18, "watchdog": 6,
        "birthday": 3, "police": 13, "end": 1}


def test_the_default_values_are_those_of_facts_md():
    """FACTS.md default card list: gangster bonuses, items, blocks, shares, police, Wachhund -1."""
    game = game_for()
    attrs = [game.attributes_of(c) for c in range(game.num_components)]
    kinds = game.kinds
    gangsters = Counter((a["attack"], a["burglary"]) for a, k in zip(attrs, kinds) if k == "gangster")
    assert gangsters == Counter({(0, 0): 2, (1, 0): 4, (0, 1): 4, (1, 1): 6, (2, 0): 3, (0, 2): 3,
                                 (2, 1): 3, (1, 2): 3, (2, 2): 2})
    items = Counter((a["type"], a["bonus"]) for a, k in zip(attrs, kinds) if k == "item")
    assert items == Counter({("Waffe", 1): 4, ("Waffe", 2): 3, ("Waffe", 3): 2,
                             ("Einbruchswerkzeug", 1): 4, ("Einbruchswerkzeug", 2): 3,
                             ("Einbruchswerkzeug", 3): 2, ("Fahrzeug", 1): 4, ("Fahrzeug", 2): 3,
                             ("Fahrzeug", 3): 1})
    blocks = Counter((a["type"], a["freed_by"]) for a, k in zip(attrs, kinds) if k == "block")
    assert blocks == Counter({("Gefängnis", "Schlüssel"): 8, ("Zu Hause", "Zeitung"): 8,
                              ("Verprügelt", "Verbandskasten"): 8, ("Freundin", "Hut"): 8})
    shares = Counter((a["type"], a["value"]) for a, k in zip(attrs, kinds) if k == "share")
    for kind in ("Alkohol", "Tabak", "Glücksspiel", "Rotlichtmilieu"):
        assert [shares[(kind, v)] for v in (10000, 20000, 30000, 50000, 100000)] == [4, 3, 2, 1, 1]
    police = Counter((a["rank"], a["stars"], a["fine"]) for a, k in zip(attrs, kinds) if k == "police")
    assert police == Counter({("Wachmann", 1, 25000): 8, ("Streife", 2, 50000): 4, ("Razzia", 3, 100000): 1})
    assert {a["protection"] for a, k in zip(attrs, kinds) if k == "watchdog"} == {1}


def test_symbols_and_die_values_are_spread_evenly():
    """»Außerdem besitzen die meisten Karten oben links ein Symbol und oben rechts einen Würfelwert.
    [...] Die Würfelwerte (1-8) benutzt man für die Erfolgsproben.« FACTS.md: 128 cards, 32 of each
    symbol, 16 of each die value, spread evenly over every card type."""
    game = game_for()
    marked = [c for c in range(game.num_components) if game.kinds[c] not in ("share", "end")]
    assert len(marked) == 128
    attrs = {c: game.attributes_of(c) for c in marked}
    assert Counter(a["symbol"] for a in attrs.values()) == Counter({s: 32 for s in SYMBOLS})
    assert Counter(a["die"] for a in attrs.values()) == Counter({d: 16 for d in range(1, 9)})
    assert Counter((a["symbol"], a["die"]) for a in attrs.values()) == Counter(
        {(s, d): 4 for s in SYMBOLS for d in range(1, 9)})
    for kind in ("gangster", "item", "block", "lager", "police"):
        per_kind = [attrs[c] for c in marked if game.kinds[c] == kind]
        symbols = Counter(a["symbol"] for a in per_kind)
        dice = Counter(a["die"] for a in per_kind)
        assert max(symbols.values()) - min(symbols.values()) <= 1 or len(per_kind) < 8, (kind, symbols)
        assert len(symbols) == 4 and max(dice.values()) - min(dice.values()) <= 1, (kind, dice)
    for c in range(game.num_components):
        if game.kinds[c] in ("share", "end"):
            assert "symbol" not in game.attributes_of(c) and "die" not in game.attributes_of(c)


def test_component_names_are_unique_except_share_cards():
    """Every card with a symbol is named with its symbol and die value, so a position or an action
    names exactly one card; share cards of one kind and value are alike."""
    game = game_for()
    names = Counter(game.names[c] for c in range(game.num_components) if game.kinds[c] != "share")
    assert max(names.values()) == 1


# ---- setup --------------------------------------------------------------------------------------

def state_after_setup(game, seed):
    captured = {}

    def keep(state):
        captured["zones"] = [list(z) for z in state.zones]
    game.new_initial_state(seed, arrange=keep)
    return captured["zones"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup(players):
    """»Jeder Spieler erhält eine beliebige Lagerkarte, die er offen vor sich auslegt. Die restlichen
    Karten werden gemischt und jeder Spieler erhält verdeckt fünf Karten (seine Starthandkarten). Vom
    verbliebenen Kartenstapel werden 30 Karten separiert. In diesen Stapel wird die Karte „Aufhebung der
    Prohibition“ eingemischt und unter den anderen Stapel gelegt [...] Befindlich unter den
    Starthandkarten Anteilskarten, werden diese nun offen in die Tischmitte gelegt. [...] Es werden
    solange neue Karten gezogen, bis alle Spieler fünf Karten, die keine Anteilskarten sind, auf der
    Hand halten.«"""
    game = game_for(players)
    end_positions = set()
    for seed in range(12):
        zones = state_after_setup(game, seed)
        kinds = game.kinds
        for p, pname in enumerate(game.player_names):
            lagers = zones[zone(game, f"lagers[{pname}]")]
            assert len(lagers) == 1 and kinds[lagers[0]] == "lager"
            hand = zones[zone(game, f"hand[{pname}]")]
            assert len(hand) == 5 and all(kinds[c] not in ("share", "end") for c in hand)
        for stack in ("stack_alkohol", "stack_tabak", "stack_gluecksspiel", "stack_rotlicht"):
            cards = zones[zone(game, stack)]
            assert all(kinds[c] == "share" for c in cards)
            assert len({game.attributes_of(c)["type"] for c in cards}) <= 1
        deck = zones[zone(game, "deck")]
        end = game.components_by_kind["end"][0]
        assert end in deck
        position_from_bottom = deck.index(end)
        assert position_from_bottom < 31          # among the 30 + 1 cards under the deck
        end_positions.add(position_from_bottom)
        in_play = sum(len(zones[zone(game, n)]) for n in
                      ["deck", "stack_alkohol", "stack_tabak", "stack_gluecksspiel", "stack_rotlicht"])
        assert in_play + 6 * players == 173
    assert len(end_positions) > 3                 # shuffled into the 30, not always at one place


def test_the_first_turn_begins_with_a_draw_by_the_start_player():
    """»Danach wird ein Startspieler ermittelt (sucht Euch aus wie!)« (ruling: seat 1) and
    »Man zieht die oberste Karte vom Nachzugstapel und nimmt sie auf die Hand.«"""
    game = game_for(3, trading=False)
    state = game.new_initial_state(5)
    assert state.current_player() == 0
    assert len(state.zones[zone(game, "hand[P1]")]) == 6
    assert len(state.zones[zone(game, "hand[P2]")]) == 5


# ---- what players see ---------------------------------------------------------------------------

def lager_owner(state, z):
    return state.game.zone_owner_now(state, z)


def check_loot_privacy(state, seen_steals):
    """A Lager's share cards appear in nobody else's view; the legal actions that name them are shown
    only to a successful burglar choosing what to steal (or to the owner's own decisions)."""
    game = state.game
    decider = state.current_player()
    loot_of = {}
    for z in loot_zones(game):
        owner = lager_owner(state, z)
        for c in state.zones[z]:
            loot_of[c] = owner
    for viewer in list(range(game.num_players)) + [None]:
        view = state.view(viewer)
        shown = component_ids(view)
        leaked = [c for c in shown if c in loot_of and loot_of[c] != viewer]
        assert not leaked, f"view({viewer}) shows another player's loot {leaked}"
        if viewer != decider:
            assert "actions" not in view.get("decision", {}), "another player's actions are shown"
    for action in state.legal_actions():
        foreign = [c for c in action.components() if c in loot_of and loot_of[c] != decider]
        if foreign:
            assert action.name == "steal_share", f"'{action}' names another player's loot"
            seen_steals.append(str(action))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_lagers_contents_are_seen_only_by_its_owner_and_a_successful_burglar(players):
    """»Dort werden sie, nur einsehbar für den Besitzer, gehortet.« »Ist das Gesamtergebnis größer als
    acht, darf er sich alle Anteilskarten des Lagers ansehen und eine beliebige Anteilskarte nehmen.
    Diese legt er verdeckt unter eines seiner eigenen Lager.«"""
    game = game_for(players)
    steals: list = []
    seed = 0
    while seed < 2 or (not steals and seed < 8):    # play on until some burglary succeeded
        state = game.new_initial_state(seed)
        # gangsters prefer to go out and break in, so that burglaries succeed in every game or two
        play_random(state, random.Random(seed), lambda s: check_loot_privacy(s, steals),
                    prefer=("burgle", "go_out", "take_shares", "equip", "hire", "steal_share"))
        seed += 1
    assert steals, "no successful burglary happened in these games"


def test_the_burglar_sees_the_loot_only_while_choosing():
    """»... darf er sich alle Anteilskarten des Lagers ansehen ...«: the texts of the steal decision
    name the cards; before the check and after the steal the burglar sees only their number."""
    game = game_for(4, trading=False)
    position = {
        "zones": {
            "lagers[P1]": ["Lager (Hut 1)"], "lagers[P2]": ["Lager (Schlüssel 2)"],
            "lagers[P3]": ["Lager (Zeitung 3)"], "lagers[P4]": ["Lager (Verbandskasten 4)"],
            "hand[P1]": [], "street[P1]": ["Gangster A1 B2 (Zeitung 3)"],
            "items[Gangster A1 B2 (Zeitung 3) #26]": ["Einbruchswerkzeug +3 (Hut 7)"],
            "loot[Lager (Schlüssel 2) #133]": ["Tabak 10000 $", "Alkohol 100000 $"],
            "deck": ["Gangster A0 B0 (Schlüssel 1)", "Gefängnis (Hut 5)", "Zu Hause (Schlüssel 1)"],
        },
        "overflow": "discard",
    }
    state = game.new_initial_state(0, arrange=lambda s: arrange(s, position))
    loot = zone(game, "loot[Lager (Schlüssel 2) #133]")
    hidden = set(state.zones[loot])
    state.apply_action("discard Zu Hause (Schlüssel 1)")
    assert not hidden & component_ids(state.view(0))
    assert state.view(0)["zones"]["loot"]["Lager (Schlüssel 2) #133"] == {"count": 2}
    state.apply_action("Gangster A1 B2 (Zeitung 3) breaks into Lager (Schlüssel 2) of P2")
    assert state.vars["check_result"] == 10
    decision = state.view(0)["decision"]
    assert sorted(decision["actions"]) == ["steal Alkohol 100000 $", "steal Tabak 10000 $"]
    for other in (1, 2, 3, None):
        assert "actions" not in state.view(other)["decision"]
        assert not hidden & component_ids(state.view(other)) or other == 1
    state.apply_action("steal Alkohol 100000 $")
    assert names_in(state, "loot[Lager (Hut 1) #132]") == ["Alkohol 100000 $"]
    view = state.view(0)
    assert view["zones"]["loot"]["Lager (Schlüssel 2) #133"] == {"count": 1}
    assert [c["name"] for c in view["zones"]["loot"]["Lager (Hut 1) #132"]] == ["Alkohol 100000 $"]
    assert state.view(1)["zones"]["loot"]["Lager (Hut 1) #132"] == {"count": 1}


def test_police_passing_is_secret_until_everyone_has_passed():
    """»Außerdem gibt jeder Spieler eine seiner Handkarten verdeckt an den linken Nachbarn weiter.
    Die erhaltene Karte darf erst angesehen werden, nachdem man selbst eine Karte weiter gegeben
    hat!«"""
    game = game_for(3, trading=False)
    position = {
        "zones": {
            "lagers[P1]": ["Lager (Hut 1)"], "lagers[P2]": ["Lager (Schlüssel 2)"],
            "lagers[P3]": ["Lager (Zeitung 3)"],
            "hand[P1]": ["Wachmann (Zeitung 4)", "Lager (Hut 5)"],
            "hand[P2]": ["Gangster A2 B2 (Hut 5)"], "hand[P3]": ["Waffe +3 (Zeitung 6)"],
            "deck": ["Gangster A0 B0 (Schlüssel 1)", "Zu Hause (Schlüssel 1)"],
        },
        "overflow": "discard",
    }
    state = game.new_initial_state(0, arrange=lambda s: arrange(s, position))
    state.apply_action("play Wachmann (Zeitung 4)")
    passed = {}
    for seat, card in ((0, "Lager (Hut 5)"), (1, "Gangster A2 B2 (Hut 5)"), (2, "Waffe +3 (Zeitung 6)")):
        assert state.current_player() == seat
        state.apply_action(f"pass {card}")
        passed[seat] = next(c for c in range(game.num_components) if game.names[c] == card)
        if len(passed) < 3:
            # the passed cards lie face down: only their givers see them, nobody has received one
            for viewer in range(3):
                ids = component_ids(state.view(viewer))
                for giver, c in passed.items():
                    assert (c in ids) == (giver == viewer)
                    assert state.game.zone_names[state.loc[c]] == f"passing[{game.player_names[giver]}]"
    # now each card lies in the left neighbour's hand, seen by the receiver only
    for giver, c in passed.items():
        receiver = (giver + 1) % 3
        for viewer in range(3):
            assert (c in component_ids(state.view(viewer))) == (viewer == receiver)
    # P2's turn has begun with a draw
    assert names_in(state, "hand[P2]") == ["Lager (Hut 5)", "Gangster A0 B0 (Schlüssel 1)"]
    assert names_in(state, "hand[P3]") == ["Gangster A2 B2 (Hut 5)"]
    assert sorted(names_in(state, "hand[P1]")) == ["Waffe +3 (Zeitung 6)", "Zu Hause (Schlüssel 1)"]
    assert state.current_player() == 1      # the police card costs P1 the gangster actions


def test_trade_offers_are_seen_only_by_the_two_players_trading():
    """»Es darf jederzeit mit dem aktiven Spieler gehandelt werden.« Hidden hands stay hidden: an
    offered card is named only in the texts of the partner's decision, the answer only in the
    offerer's."""
    game = game_for(4, trade_proposals="every_turn")
    trade_options = {"offer", "answer", "decline", "accept", "reject", "make_offer", "consider_offer",
                     "no_offer_taken", "offer_to_active", "no_offer"}
    negotiations = 0
    for seed in range(1):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            decider = state.current_player()
            actions = state.legal_actions()
            if trade_options & {a.name for a in actions}:
                for viewer in range(4):
                    view = state.view(viewer)
                    if viewer != decider:
                        assert "actions" not in view["decision"]
                    # a hand card of another player is never described in a view
                    shown = component_ids(view)
                    for p in range(4):
                        if p != viewer:
                            assert not set(state.zones[zone(game, f"hand[{game.player_names[p]}]")]) & shown
                if actions[0].name in ("answer", "accept"):
                    negotiations += 1
            state.apply_action(actions[rng.randrange(len(actions))])
    assert negotiations > 0


def test_a_trade_moves_exactly_two_hand_cards():
    """»Handeln heißt: Handkarten im Verhältnis 1:1 zu tauschen.«"""
    game = game_for(3, trade_proposals="every_turn")
    trades = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            action = actions[rng.randrange(len(actions))]
            before = [list(state.zones[zone(game, f"hand[{n}]")]) for n in game.player_names]
            state.apply_action(action)
            if action.name == "accept":
                trades += 1
                after = [list(state.zones[zone(game, f"hand[{n}]")]) for n in game.player_names]
                changed = [p for p in range(3) if sorted(before[p]) != sorted(after[p])]
                assert len(changed) == 2
                for p in changed:
                    assert len(after[p]) == len(before[p])
                    assert len(set(after[p]) - set(before[p])) == 1
    assert trades > 0


# ---- the end ------------------------------------------------------------------------------------

def test_the_end_card_in_the_middle_of_a_check_ends_the_game_at_once():
    """»Wenn ein Spieler die Karte „Aufhebung der Prohibition“ zieht (ob in der Kartenzugphase oder bei
    einer Erfolgsprobe), muss er diese offen vorlegen. Das Spiel endet sofort ohne Beendigung der
    aktuellen Aktion und es folgt die Abrechnung.«"""
    game = game_for(2, trading=False)
    position = {
        "zones": {
            "lagers[P1]": ["Lager (Hut 1)", "Lager (Hut 5)"], "lagers[P2]": ["Lager (Schlüssel 2)"],
            "hand[P1]": [], "hand[P2]": ["Zu Hause (Zeitung 2)"],
            "stack_alkohol": [], "stack_tabak": [], "stack_gluecksspiel": [], "stack_rotlicht": [],
            "street[P1]": ["Gangster A2 B1 (Schlüssel 7)", "Gangster A1 B2 (Zeitung 3)"],
            "street[P2]": ["Gangster A1 B1 (Hut 3)"],
            "loot[Lager (Schlüssel 2) #133]": ["Tabak 50000 $"],
            # the first check turns up a 5 (fails), the second a share card and then the end card
            "deck": ["Gangster A0 B0 (Schlüssel 1)", "Aufhebung der Prohibition", "Tabak 10000 $",
                     "Gefängnis (Zeitung 3)", "Zu Hause (Schlüssel 1)"],
        },
        "overflow": "discard",
    }
    state = game.new_initial_state(0, arrange=lambda s: arrange(s, position))
    state.apply_action("discard Zu Hause (Schlüssel 1)")
    state.apply_action("Gangster A2 B1 (Schlüssel 7) attacks Gangster A1 B1 (Hut 3) of P2")
    assert not state.is_terminal() and state.vars["check_result"] == 3 + 2
    state.apply_action("Gangster A1 B2 (Zeitung 3) breaks into Lager (Schlüssel 2) of P2")
    assert state.is_terminal() and state.current_player() is None and state.legal_actions() == []
    assert names_in(state, "revealed") == ["Aufhebung der Prohibition"]
    assert names_in(state, "stack_tabak") == ["Tabak 10000 $"]
    assert names_in(state, "street[P1]") == ["Gangster A1 B2 (Zeitung 3)"]
    assert names_in(state, "loot[Lager (Schlüssel 2) #133]") == ["Tabak 50000 $"]
    assert state.returns() == [-2 * 5000 - 2 * 10000, 50000 - 5000 - 10000]
    assert state.winners() == [1]
    for viewer in (0, 1, None):
        view = state.view(viewer)
        assert view["over"] and view["winners"] == ["P2"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end_with_the_end_card(players):
    """»Aufhebung der Prohibition: Diese Karte beendet das Spiel.« Every game ends when it turns up,
    in a draw or in a check; nothing is left half-done that scoring would miss."""
    game = game_for(players)
    for seed in range(3):
        state = play_random(game.new_initial_state(seed), random.Random(seed))
        assert names_in(state, "revealed") == ["Aufhebung der Prohibition"]
        assert state.vars["lifted"] is True
        assert len(state.returns()) == players and state.winners()
        assert all(len(state.zones[zone(game, f"lagers[{n}]")]) >= 1 for n in game.player_names)


def test_scores_follow_the_abrechnung_in_random_games():
    """»Bei der Abrechnung zählt jeder Spieler die Werte seiner Anteilskarten aus den eigenen Lagern
    zusammen und zieht die folgenden Werte davon ab ...« recomputed from the final position."""
    game = game_for(4)
    for seed in range(3):
        state = play_random(game.new_initial_state(seed), random.Random(seed))
        for p, pname in enumerate(game.player_names):
            lagers = state.zones[zone(game, f"lagers[{pname}]")]
            shares = 0
            for lager in lagers:
                loot = zone(game, f"loot[{game.names[lager]} #{lager}]")
                shares += sum(game.attributes_of(c)["value"] for c in state.zones[loot])
            gangsters = len(state.zones[zone(game, f"hideout[{pname}]")]) + \
                len(state.zones[zone(game, f"street[{pname}]")])
            fines = sum(game.attributes_of(c)["fine"] for c in state.zones[zone(game, f"hand[{pname}]")]
                        if game.kinds[c] == "police")
            assert state.returns()[p] == shares - 5000 * gangsters - 10000 * len(lagers) - fines


# ---- optional rule 6.2: a match ---------------------------------------------------------------

def test_a_match_plays_games_until_a_total_reaches_the_target():
    """»6.2. Um das Spiel interessanter zu machen, spielt man so viele Partien, bis ein Spieler die
    vorher vereinbarte Gesamtsumme an Dollar errungen hat.«"""
    game = game_for(3, trading=False, match_target=60000, match_max_games=6)
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        games_seen = [0]
        starts = []

        def watch(s):
            if s.vars["games_played"] != games_seen[0]:
                games_seen[0] = s.vars["games_played"]
                starts.append(s.vars["start_player"])
                # a new game was dealt: one Lager each, nothing laid out, the end card in the deck
                for n in game.player_names:
                    assert len(s.zones[zone(game, f"lagers[{n}]")]) == 1
                assert names_in(s, "revealed") == []
        play_random(state, rng, watch)
        totals = state.pvars["total"]
        played = state.vars["games_played"]
        assert 1 <= played <= 6
        assert max(totals) >= 60000 or played == 6
        assert state.returns() == totals
        assert starts == [(g + 1) % 3 for g in range(len(starts))]


def test_without_a_match_one_game_is_played():
    """6.2 is optional: by default the first end card ends everything."""
    game = game_for(2)
    state = play_random(game.new_initial_state(1), random.Random(1))
    assert state.vars["games_played"] == 0
    assert state.pvars["total"] == [0, 0]


# ---- whole games and the documentation ----------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("params", [{}, {"trading": False}, {"handover": True, "trade_proposals": "every_turn",
                                                              "watchdog_counts_as_lager": True,
                                                              "free_any_gangster": True,
                                                              "police_must_play": True}])
def test_whole_games_replay_exactly(players, params):
    """Seeded random games end, and the same seed and actions give the same game."""
    game = game_for(players, **params)
    state = game.new_initial_state(7)
    rng = random.Random(7)
    texts = []
    while not state.is_terminal():
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        texts.append(str(action))
        state.apply_action(action)
    again = game.new_initial_state(7)
    for text in texts:
        again.apply_action(text)
    assert again.to_json() == state.to_json()


def test_the_doc_names_every_parameter_and_the_card_list_default():
    """docs/games/mafiadollar.md: rules in English, every ruling, the card list marked as default."""
    text = DOC.read_text(encoding="utf-8")
    game = game_for()
    for name in game.params:
        assert f"`{name}`" in text, f"parameter {name} is not documented"
    assert re.search(r"default", text, re.I) and "project's default" in text
    for ruling in ("Wachhund", "police", "trade", "share card turned up"):
        assert ruling.lower() in text.lower()
