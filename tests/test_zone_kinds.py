"""A zone that declares the kind it holds (``holds: card``, issue 38): the checker gives ``top(zone)``,
the zone's elements and an option's parameter drawn from it that kind, refuses a move of another kind
where the static types tell, and the engine refuses the others when they happen."""
from __future__ import annotations

import json

import pytest

from dsl.errors import RulesRuntimeError
from interpreter import ErrorList, load_game

# two kinds share the name 'col': printed on cards, a mark of tokens
RULESET = """\
game:
  name: Kinds
  players: 2
components:
  card:
    attributes: {col: str, v: int}
    in: deck
    table:
      - {col: red, v: 1, count: 3}
  token:
    attributes: {w: int}
    marks: {col: plain}
    in: bag
    table:
      - {w: 2, count: 3}
zones:
  deck: {visibility: count, holds: card}
  bag: {visibility: count, holds: token}
  pool: {visibility: all}
  hand: {per: player, visibility: owner, holds: token}
player_vars:
  score: 0
setup:
  - top(bag).col = "gold"
  - draw(bag, active.hand)
flow:
  - while: not empty(deck)
    do:
      - choose:
          options:
            paint:
              params: {t: active.hand}
              effects:
                - t.col = "blue"
                - active.score += sum(c.w for c in active.hand)
            pass:
      - move(top(deck), pool)
      - active = next_player(active)
scoring:
  score: player.score
"""


def load(tmp_path, text=RULESET):
    path = tmp_path / "kinds.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(path, cache=False)


def errors_of(tmp_path, text):
    with pytest.raises(ErrorList) as caught:
        load(tmp_path, text)
    return caught.value.errors


def test_a_mark_changes_through_top_of_a_zone_that_holds_its_kind(tmp_path):
    state = load(tmp_path).new_initial_state(0)
    marks = json.loads(state.to_json())
    assert "gold" in json.dumps(marks)
    state.apply_action(state.legal_actions()[0])  # paint: the option's parameter is a token
    assert "blue" in json.dumps(json.loads(state.to_json()))


def test_without_the_kind_the_same_rules_are_refused(tmp_path):
    errors = errors_of(tmp_path, RULESET.replace(", holds: token}", "}"))
    assert any("'col' is printed on card but a mark of token" in e.message and "holds: token" in e.hint
               for e in errors)


def test_a_move_of_another_kind_is_a_located_error(tmp_path):
    errors = errors_of(tmp_path, RULESET.replace("  - move(top(deck), pool)\n", "  - move(top(deck), active.hand)\n"))
    assert [e.message for e in errors] == ["move() puts a 'card' into a zone that holds only 'token'"]
    assert (errors[0].position.line, errors[0].position.column) == (37, 9)
    errors = errors_of(tmp_path, RULESET.replace("draw(bag, active.hand)", "draw(deck, active.hand)"))
    assert "draw() puts a 'card' into a zone that holds only 'token'" in errors[0].message


def test_a_kind_that_does_not_exist_is_refused_at_load(tmp_path):
    errors = errors_of(tmp_path, RULESET.replace("bag: {visibility: count, holds: token}", "bag: {visibility: count, holds: tokn}"))
    assert errors[0].message == "'holds: tokn' names no component kind"
    assert errors[0].hint == "did you mean 'token'?"
    assert errors[0].position.line == 18


def test_a_move_the_types_cannot_tell_is_refused_when_it_happens(tmp_path):
    text = RULESET.replace("  - move(top(deck), pool)\n", "  - move(top(deck), pool)\n      - move_all(pool, bag)\n")
    state = load(tmp_path, text).new_initial_state(0)
    with pytest.raises(RulesRuntimeError, match="bag"):
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[-1])


def test_components_that_start_in_a_zone_of_another_kind_are_refused(tmp_path):
    errors = errors_of(tmp_path, RULESET.replace("    in: bag\n", "    in: deck\n"))
    assert any("deck" in e.message for e in errors)


def test_a_bare_parameter_stays_a_condition(tmp_path):
    text = RULESET.replace("game:\n", "params:\n  open: {default: true}\ngame:\n", 1).replace(
        "pool: {visibility: all}", "pool: {visibility: all, holds: open}")
    assert load(tmp_path, text).new_initial_state(0) is not None



def test_a_procedure_takes_the_kind_of_the_zones_it_is_given(tmp_path):
    """As with a component's kind: every call passes a zone of the same kind."""
    text = RULESET.replace("player_vars:", "procedures:\n  recolour(z):\n    - top(z).col = \"green\"\nplayer_vars:")
    state = load(tmp_path, text.replace('  - top(bag).col = "gold"\n', "  - recolour(bag)\n")).new_initial_state(0)
    assert "green" in state.to_json()
    errors = errors_of(tmp_path, text.replace('  - top(bag).col = "gold"\n', "  - recolour(bag)\n  - recolour(deck)\n"))
    assert errors[0].message == ("procedure recolour is called with a zone holding 'token' elsewhere, here a zone "
                                 "holding 'card'")
