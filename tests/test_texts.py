"""Text and seats: ``text``, ``join``, ``seat``, ``player``, and seat walks ``among``/``where``."""
from __future__ import annotations

import textwrap

import pytest

from dsl.errors import RulesRuntimeError
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS
from interpreter import load_game
from interpreter.game import Game

SEATS = """\
game: {name: Seats, players: 4}
components:
  card: {attributes: {v: int}, in: pile, table: [{v: 1, count: 2}, {v: 2, count: 2}]}
zones:
  pile: {visibility: count}
  hand: {per: player, visibility: owner}
vars:
  said: {type: str, initial: ""}
  order: {type: str, initial: ""}
  cards: {type: str, initial: ""}
player_vars:
  out: false
  score: 0
  note: {type: str, initial: "", visibility: owner}
setup: [shuffle(pile)]
flow:
  - players[1].out = true
  - let p = next_player(active, where=not player.out)
  - let q = previous_player(active, 2, where=not player.out)
  - said = text(p) + " then " + text(q) + ", seat " + text(seat(q)) + " of " + text(num_players) + " " + text(true)
  - order = join([player(seat(active) + i) for i in range(1, 6)], " > ")
  - move(top(pile), active.hand)
  - cards = join(active.hand) + "/" + text(top(pile))
  - active.note = join(active.hand, to=active) + "; " + text(list(pile), to=active)
  - choose:
      options:
        done:
scoring:
  score: player.score
"""


@pytest.fixture(params=[True, False], ids=["generated", "closures"])
def game(request, tmp_path):
    path = tmp_path / "seats.yaml"
    path.write_text(SEATS, encoding="utf-8")
    return Game(load_ruleset(path, FUNCTIONS, EFFECTS), path, codegen=request.param)


def test_texts_of_numbers_seats_and_truth(game):
    state = game.new_initial_state(0)
    assert state.vars["said"] == "P3 then P3, seat 2 of 4 yes"
    assert state.vars["order"] == "P2 > P3 > P4 > P1 > P2"


def test_a_component_is_named_only_as_the_seat_may_see_it(game):
    state = game.new_initial_state(0)
    (held,) = state.zones[game.family_base["hand"]]
    assert state.vars["cards"] == "a card/a card"  # as everyone sees them
    pile = ", ".join(["a card"] * 3)
    assert state.pvars["note"][0] == f"{game.names[held]}; {pile}"  # its own hand, the face-down pile


def test_a_walk_among_no_seat_is_a_runtime_error(tmp_path):
    text = SEATS.replace("  - players[1].out = true\n", "  - for: x in players\n    do: [x.out = true]\n")
    path = tmp_path / "g.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesRuntimeError) as info:
        load_game(path).new_initial_state(0)
    assert "no seat meets the condition" in str(info.value)


def test_seat_walks_without_a_condition_are_unchanged(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(textwrap.dedent(SEATS).replace("where=not player.out", "1").replace(
        "active, 2, 1", "active, 2"), encoding="utf-8")
    state = load_game(path).new_initial_state(0)
    assert state.vars["said"].startswith("P2 then P3")


ITEMS = """\
game: {name: Items, players: 2}
vars:
  xs: [1, 2, 3]
player_vars:
  hints: {type: list, initial: []}
  score: 0
flow:
  - xs[0] = 7
  - xs[-1] += 5
  - let ys = ["a", "b"]
  - ys[1] = "c"
  - active.hints = ["?", "?"]
  - active.hints[1] = ys[1]
  - choose:
      options:
        done:
scoring:
  score: player.score
"""


@pytest.mark.parametrize("codegen", [True, False], ids=["generated", "closures"])
def test_one_element_of_a_list_is_set_without_touching_a_clone(tmp_path, codegen):
    path = tmp_path / "items.yaml"
    path.write_text(ITEMS, encoding="utf-8")
    game = Game(load_ruleset(path, FUNCTIONS, EFFECTS), path, codegen=codegen)
    state = game.new_initial_state(0)
    assert state.vars["xs"] == [7, 2, 8] and state.pvars["hints"] == [["?", "c"], []]


def test_setting_an_element_that_is_not_there_is_a_runtime_error(tmp_path):
    path = tmp_path / "items.yaml"
    path.write_text(ITEMS.replace("xs[0] = 7", "xs[3] = 7"), encoding="utf-8")
    with pytest.raises(RulesRuntimeError) as info:
        load_game(path).new_initial_state(0)
    assert "there is no element 3 in a list of 3" in str(info.value)
