"""Sushi Draft (rulesets/sushi-go.yaml) against the published rules of Sushi Go! (Gamewright 2013).

Each test quotes the rule it checks (docs/games/sushi-go.md gives the rulings).  Two players; the deck
is arranged so that P1's hand (drawn first) and P2's hand are known; in a game of two the hands swap
every turn.  Round points are read after round 1 (games of two rounds), before puddings count.
"""
from __future__ import annotations

from interpreter import load_game
from interpreter.runtime.positions import arrange

_GAMES: dict = {}
# the hands of a second round, never played in these tests
SECOND_ROUND = ["Tempura"] * 10 + ["Dumpling"] * 10
# a hand whose cards score nothing in a round (wasabi without nigiri, chopsticks, puddings)
ZERO = ["Wasabi"] * 3 + ["Chopsticks"] * 2 + ["Pudding"] * 5


def game_for(rounds):
    if rounds not in _GAMES:
        _GAMES[rounds] = load_game("sushi-go", players=2, params={"rounds": rounds})
    return _GAMES[rounds]


def start(p1_hand, p2_hand, rounds=2, **zones):
    """Round 1 deals ``p1_hand`` to P1 and ``p2_hand`` to P2; a second round deals SECOND_ROUND."""
    deck = (SECOND_ROUND if rounds == 2 else []) + list(p2_hand) + list(p1_hand)
    position = {"zones": {"deck": deck, **zones}, "overflow": "discard"}
    return game_for(rounds).new_initial_state(0, arrange=lambda s: arrange(s, position))


def names(state, zone):
    g = state.game
    return sorted(g.names[c] for c in state.zones[g.zone_names.index(zone)])


def turn(state, p1_text, p2_text):
    assert state.current_player() == 0
    state.apply_action(p1_text)
    assert state.current_player() == 1
    state.apply_action(p2_text)


def keep_preferring(state, preferred):
    """Keep the first card of ``preferred`` that the hand holds (else the first card offered)."""
    texts = [str(a) for a in state.legal_actions() if str(a).startswith("keep ")]
    for name in preferred:
        if f"keep {name}" in texts:
            return state.apply_action(f"keep {name}")
    state.apply_action(texts[0])


HAND_A = ["Wasabi", "Squid Nigiri", "Tempura", "Tempura", "Sashimi", "Sashimi", "Sashimi", "Dumpling",
          "Dumpling", "Maki 3"]
HAND_B = ["Egg Nigiri", "Salmon Nigiri", "Maki 2", "Maki 1", "Pudding", "Pudding", "Chopsticks", "Dumpling",
          "Tempura", "Wasabi"]


def test_picks_are_secret_until_everyone_has_picked_and_then_hands_pass():
    """»Each player chooses one card from their hand and places it face down in front of them. When
    everyone has chosen, all players reveal their cards at the same time.« »Then pass your remaining
    hand to the player to your left.«"""
    s = start(HAND_A, HAND_B)
    assert names(s, "hand[P1]") == sorted(HAND_A) and names(s, "hand[P2]") == sorted(HAND_B)
    s.apply_action("keep Squid Nigiri")
    assert s.current_player() == 1
    assert s.view(1)["zones"]["picked"]["P1"] == {"count": 1}   # P2 sees that P1 picked, not what
    s.apply_action("keep Maki 2")
    assert names(s, "tableau[P1]") == ["Squid Nigiri"] and names(s, "tableau[P2]") == ["Maki 2"]
    assert "Maki 2" not in names(s, "hand[P1]") and "Egg Nigiri" in names(s, "hand[P1]")
    assert len(names(s, "hand[P1]")) == 9 and "Wasabi" in names(s, "hand[P2]")


def test_a_round_scores_sets_nigiri_on_wasabi_dumplings_and_maki():
    """»Tempura: 5 points per pair« »Sashimi: 10 points per set of 3« »Dumplings: 1 3 6 10 15«
    »Wasabi: triples the value of the next Nigiri you play« »Maki rolls: the player with the most maki
    rolls scores 6 points, second most 3 points«."""
    s = start(HAND_A, HAND_B)
    picks = [("Wasabi", "Pudding"), ("Salmon Nigiri", "Sashimi"), ("Squid Nigiri", "Pudding"),
             ("Maki 2", "Sashimi"), ("Tempura", "Maki 1"), ("Egg Nigiri", "Sashimi"),
             ("Tempura", "Chopsticks"), ("Dumpling", "Dumpling"), ("Maki 3", "Tempura"),
             ("Wasabi", "Dumpling")]
    for mine, theirs in picks:
        turn(s, f"keep {mine}", f"keep {theirs}")
    # P1: tempura pair 5, salmon on wasabi 6 + squid 3 + egg 1, one dumpling 1, most maki (5) 6
    # P2: sashimi set 10, two dumplings 3, second most maki (1) 3; puddings wait for the end
    assert s.pvars["score"] == [22, 16]
    assert names(s, "desserts[P2]") == ["Pudding", "Pudding"]
    assert names(s, "tableau[P1]") == [] and names(s, "tableau[P2]") == []


def test_chopsticks_take_two_cards_and_go_back_into_the_hand():
    """»Chopsticks: on a later turn, you may take two cards from the hand. Then place the chopsticks
    card into the hand you are about to pass.«"""
    s = start(HAND_A, HAND_B, **{"tableau[P1]": ["Chopsticks"]})
    assert "use chopsticks: keep Tempura and Sashimi" in [str(a) for a in s.legal_actions()]
    turn(s, "use chopsticks: keep Tempura and Sashimi", "keep Maki 1")
    assert names(s, "tableau[P1]") == ["Sashimi", "Tempura"]
    assert "Chopsticks" in names(s, "hand[P2]")           # in the hand P1 passed on
    assert len(names(s, "hand[P1]")) == len(names(s, "hand[P2]")) == 9


def test_players_tied_for_most_maki_split_six_and_nobody_scores_second():
    """»If multiple players tie for the most maki rolls, they split the 6 points evenly (ignoring any
    remainder) and no second place points are awarded.«"""
    s = start(ZERO, ZERO, **{"tableau[P1]": ["Maki 3"], "tableau[P2]": ["Maki 2", "Maki 1"]})
    for _ in range(10):
        keep_preferring(s, ["Wasabi", "Chopsticks"])
        keep_preferring(s, ["Wasabi", "Chopsticks"])
    assert s.pvars["score"] == [3, 3]


def test_puddings_count_at_the_end_and_two_players_lose_nothing_for_fewest():
    """»The player with the most pudding cards scores 6. The player with the fewest pudding cards
    loses 6 points. In a 2-player game, nobody loses points for pudding cards.«"""
    s = start(ZERO, ZERO, rounds=1)
    for _ in range(10):
        keep_preferring(s, ["Pudding"])
        keep_preferring(s, ["Wasabi", "Chopsticks"])
    assert s.is_terminal()
    assert len(names(s, "desserts[P1]")) == 10 and names(s, "desserts[P2]") == []
    assert s.returns() == [6, 0] and s.winners() == [0]
