"""Realm Builder (rulesets/deck-builder.yaml): the points and treasure a player's variables keep
are what the player's cards are worth.

The ruleset keeps ``points`` and ``treasure`` up to date as cards are bought, gained and trashed,
instead of summing over the cards (a sum would read the shuffled deck, whose order explicit chance
leaves undecided).  The rules themselves are checked by tests/scenarios/deck-builder/rules.yaml;
this test checks the bookkeeping against a count of every card, after every turn of random games.
"""
from __future__ import annotations

import random

import pytest

from interpreter import load_game

ZONES = ("deck", "hand", "in_play", "discard")


def _worth(state, seat):
    """The victory points and the coins of the treasures among every card the seat owns."""
    game = state.game
    name = game.player_names[seat]
    cards = [c for zone in ZONES for c in state.zones[game.zone_names.index(f"{zone}[{name}]")]]
    vp = {"Estate": 1, "Duchy": 3, "Province": 6, "Curse": -1}
    coins = {"Copper": 1, "Silver": 2, "Gold": 3}
    names = [game.names[c] for c in cards]
    return sum(vp.get(n, 0) for n in names), sum(coins.get(n, 0) for n in names)


@pytest.mark.parametrize("players, seed", [(2, 5), (3, 6)])
def test_kept_points_and_treasure_match_the_cards_owned(players, seed):
    """»At the end of the game, each player counts the Victory points of all the cards they own.«"""
    state = load_game("deck-builder", players=players).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        for seat in range(players):
            assert (state.pvars["points"][seat], state.pvars["treasure"][seat]) == _worth(state, seat)
    assert state.returns() == [state.pvars["points"][seat] for seat in range(players)]
