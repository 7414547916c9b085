"""``visibility: others``: a zone every seat sees but its owner (cards held facing out).  Views,
narration, observations and determinization follow it; the generic leak tests play
tests/games/foreheads.yaml as well."""
from __future__ import annotations

import random

import pytest

from conftest import FOREHEADS
from dsl.errors import ErrorList
from interpreter import load_game
from interpreter.runtime.observations import Observer


@pytest.fixture(scope="module")
def game():
    return load_game(FOREHEADS, players=3)


def _hand_ids(view, seat_name):
    hand = view["zones"]["hand"][seat_name]
    return None if isinstance(hand, dict) else [card["id"] for card in hand]


def test_every_seat_sees_the_others_hands_but_not_its_own(game):
    state = game.new_initial_state(4)
    for seat, name in enumerate(game.player_names):
        view = state.view(seat)
        assert view["zones"]["hand"][name] == {"count": 2}
        for other, other_name in enumerate(game.player_names):
            if other != seat:
                assert _hand_ids(view, other_name) == list(state.zones[game.family_base["hand"] + other])
    assert all(hand == {"count": 2} for hand in state.view(None)["zones"]["hand"].values())


def test_a_seat_is_told_the_card_it_draws_only_as_a_card(game):
    state = game.new_initial_state(4)
    state.apply_action("play card 1")
    drawn = state.zones[game.family_base["hand"] + 0][-1]
    assert state.known[drawn] == 0b110  # the two other seats saw it arrive; its holder did not


def test_determinizing_for_a_seat_deals_its_own_hand_anew_and_keeps_the_others(game):
    state = game.new_initial_state(4)
    own, other = game.family_base["hand"] + 0, game.family_base["hand"] + 1
    own_hands = set()
    for seed in range(30):
        dealt = state.determinize(0, random.Random(seed))
        assert dealt.zones[other] == state.zones[other]
        own_hands.add(tuple(sorted(game.names[c] for c in dealt.zones[own])))
    assert len(own_hands) > 1


def test_the_observation_of_a_seat_does_not_depend_on_its_own_hand(game):
    state = game.new_initial_state(4)
    observer = Observer(game)
    vectors = {tuple(observer.encode(state.determinize(0, random.Random(seed)), 0)) for seed in range(10)}
    assert len(vectors) == 1


def test_others_needs_an_owner(tmp_path):
    text = FOREHEADS.read_text(encoding="utf-8").replace("table: {visibility: all}", "table: {visibility: others}")
    path = tmp_path / "g.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ErrorList) as info:
        load_game(path)
    (error,) = info.value.errors
    assert "a shared zone has no owner" in error.message and "per: player" in error.hint
