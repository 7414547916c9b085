"""Expression fields in log messages (issue 38): ``log("{player} rolls {d1} and {d2}")`` shows any value
the language computes, as ``text()`` writes it, with the visibility rules of ``{component}``: a
component is named only to the seats that could see it when the message was logged."""
from __future__ import annotations

import json

import pytest

from interpreter import ErrorList, load_game
from interpreter.store.saved_state import SavedStateError

RULESET = """\
game:
  name: Messages
  players: 2
components:
  card:
    name: "card {value}"
    attributes: {value: int}
    in: pile
    table:
      - {value: 1, count: 4}
      - {value: 2, count: 4}
zones:
  pile: {visibility: count}
  hand: {per: player, visibility: owner}
player_vars:
  score: 0
setup:
  - draw(pile, players[0].hand, 2)
  - draw(pile, players[1].hand, 2)
flow:
  - while: not empty(pile)
    do:
      - let d1 = roll(6)
      - let d2 = roll(6)
      - log("MESSAGE", player=active)
      - draw(pile, active.hand)
      - active = next_player(active)
scoring:
  score: player.score
"""


def game_with(tmp_path, message, codegen=True):
    path = tmp_path / "messages.yaml"
    path.write_text(RULESET.replace("MESSAGE", message), encoding="utf-8")
    game = load_game(path, cache=False)
    return game if codegen else type(game)(game.ruleset, path, codegen=False)


def first_message(game, seat):
    return game.new_initial_state(3).narration(seat)[0]


def test_fields_show_numbers_seats_texts_and_lists(tmp_path):
    game = game_with(tmp_path, "{player} rolls {d1} and {d2} ({d1 + d2} in all); next is {next_player(active)}; "
                               "{active.name} holds {size(active.hand)} cards; sixes {d1 == 6}; {[d1, d2]} {{x}}")
    state = game.new_initial_state(3)
    d1, d2 = (int(p["text"]) for p in state.narration(0)[0]["parts"][2:5:2])
    message = state.narration(0)[0]
    assert message["text"] == (f"P1 rolls {d1} and {d2} ({d1 + d2} in all); next is P2; P1 holds 2 cards; "
                               f"sixes {'yes' if d1 == 6 else 'no'}; {d1}, {d2} {{x}}")
    assert {"text": "P2", "player": 1} in message["parts"]


@pytest.mark.parametrize("codegen", [True, False])
def test_a_hidden_component_is_named_only_to_the_seat_that_sees_it(tmp_path, codegen):
    game = game_with(tmp_path, "{player} holds {top(active.hand)} and {list(active.hand)}; the pile {top(pile)}",
                     codegen)
    state = game.new_initial_state(3)
    hand = json.loads(state.to_json())["zones"]
    mine = first_message(game, 0)
    theirs = first_message(game, 1)
    spectator = first_message(game, None)
    assert mine["text"].startswith("P1 holds card ") and "the pile a card" in mine["text"]
    assert theirs["text"] == "P1 holds a card and a card and a card; the pile a card"
    assert spectator["text"] == theirs["text"]
    assert all(part.get("component") is None for part in theirs["parts"] + spectator["parts"])
    assert hand  # the state names the components; only the narration hides them


def test_a_component_stays_hidden_after_it_moves_into_view(tmp_path):
    """What a seat could see when the message was logged counts, not what it sees later."""
    text = RULESET.replace("MESSAGE", "{player} draws {top(pile)}").replace(
        "      - draw(pile, active.hand)\n", "      - draw(pile, active.hand)\n      - log(\"{player} drew {top(active.hand)}\", player=active)\n")
    path = tmp_path / "later.yaml"
    path.write_text(text, encoding="utf-8")
    state = load_game(path, cache=False).new_initial_state(3)
    texts = [m["text"] for m in state.narration(0)]
    assert texts[0] == "P1 draws a card" and texts[1].startswith("P1 drew card ")


def test_the_fields_survive_a_saved_state_and_damage_is_refused(tmp_path):
    game = game_with(tmp_path, "{player} holds {top(active.hand)} after {d1}")
    state = game.new_initial_state(3)
    again = game.state_from_json(state.to_json())
    assert [m["text"] for m in again.narration(1)] == [m["text"] for m in state.narration(1)]
    data = json.loads(state.to_json())
    data["narrative"][0]["values"]["top(active.hand)"] = ["component", [999], [1]]
    with pytest.raises(SavedStateError, match="does not render"):
        game.state_from_json(json.dumps(data))


@pytest.mark.parametrize("message, error, column", [
    ("{player} rolls {d3}", "unknown name 'd3'", 30),
    ("{player} rolls {d1:>9}", "should be a name or an expression, without a format", 30),
    ("{player} rolls {0}", "is a position", 30),
    ("{player} rolls {d1 +}", "ends too early", 34),
    ("{player} rolls {d1 + 'x'}", "'+' needs", None),
    ("{player} rolls {d1", "the message's braces do not parse", 13),
])
def test_a_faulty_field_is_a_located_error_at_load(tmp_path, message, error, column):
    with pytest.raises(ErrorList) as caught:
        game_with(tmp_path, message)
    first = caught.value.errors[0]
    assert error in first.message
    assert first.position.line == 25
    assert column is None or first.position.column == column


def test_the_arguments_of_log_keep_their_meaning(tmp_path):
    text = RULESET.replace('log("MESSAGE", player=active)',
                           'log("{player} and {other} - {number}, {count} ({d1 + d2})", player=active, '
                           'other=next_player(active), number=d1, count=d2)')
    path = tmp_path / "own.yaml"
    path.write_text(text, encoding="utf-8")
    message = load_game(path, cache=False).new_initial_state(3).narration(0)[0]
    numbers = [p["number"] for p in message["parts"] if "number" in p]
    assert message["text"] == f"P1 and P2 - {numbers[0]}, {numbers[1]} ({numbers[0] + numbers[1]})"



@pytest.mark.parametrize("inline", [True, False])
def test_a_local_read_only_by_a_message_keeps_its_value_across_an_inlined_call(tmp_path, inline):
    """The inliner asks which locals the statements after a call read: a message's fields count."""
    text = RULESET.replace("player_vars:", "procedures:\n  bump(p):\n    - let d1 = p + 1\n"
                                           "    - active.score += d1\nplayer_vars:").replace(
        '      - log("MESSAGE", player=active)\n',
        '      - bump(40)\n      - log("{player} keeps {d1}, scores {active.score}", player=active)\n')
    path = tmp_path / "inlined.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_game(path, cache=False)
    if not inline:
        game = type(game)(game.ruleset, path, inline=False)
    state = game.new_initial_state(3)
    rolls = [m["text"] for m in state.narration(0)]
    assert all(" scores " in t and not t.split(" keeps ")[1].startswith("41,") for t in rolls), rolls
    assert rolls[0].endswith("scores 41")
