"""The stumbles a new author met (issue 15), each shown fixed: dice, prompts that show values, seats as
initial values, player names, and hints for the common mistakes."""
from __future__ import annotations

import textwrap

import pytest

from dsl.errors import ErrorList
from interpreter import load_game


DICE = """\
game:
  name: Dice
  players: 2
vars:
  leader: {type: player, initial: 1}
  last: 0
player_vars:
  score: 0
flow:
  - repeat: 20
    do:
      - choose:
          prompt: "{active.name} has {active.score}; {leader.name} leads; last roll {last}"
          options:
            roll:
              effects:
                - let d = roll(6)
                - last = d
                - active.score += d
            stop:
      - if: active.score > leader.score
        then: [leader = active]
      - active = next_player(active)
scoring:
  score: player.score
"""


def write(tmp_path, text, name="game.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def errors(path, **kwargs):
    with pytest.raises(ErrorList) as info:
        load_game(path, **kwargs)
    return info.value.errors


def play(game, seed, pick=0):
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[pick % len(actions)])
    return state


# ---- dice ------------------------------------------------------------------------------------------
def test_roll_gives_every_face_and_only_faces(tmp_path):
    game = load_game(write(tmp_path, DICE))
    rolls = set()
    for seed in range(30):
        state = game.new_initial_state(seed)
        state.apply_action(state.legal_actions()[0])
        rolls.add(state.vars["last"])
    assert rolls == {1, 2, 3, 4, 5, 6}


def test_roll_is_reproduced_by_seed_and_by_a_saved_state(tmp_path):
    game = load_game(write(tmp_path, DICE))
    first, second = play(game, 5), play(game, 5)
    assert first.to_json() == second.to_json()
    state = game.new_initial_state(9)
    state.apply_action(state.legal_actions()[0])
    copy = game.state_from_json(state.to_json())
    for s in (state, copy):
        s.apply_action(s.legal_actions()[0])
    assert state.to_json() == copy.to_json()


@pytest.mark.parametrize("where, line", [
    ("      - if: roll(6) > 3\n        then: [last = 1]\n", "if"),
    ("define:\n  lucky: roll(6) == 6\n", "define"),
])
def test_roll_only_in_statements(tmp_path, where, line):
    text = DICE.replace("scoring:", where + "scoring:").replace("active.score > leader.score", "lucky") \
        if line == "define" else \
        DICE.replace("      - active = next_player(active)\n", where + "      - active = next_player(active)\n")
    (error,) = errors(write(tmp_path, text))
    assert "roll() draws a random number, which only a statement may do" in error.message
    assert "let r = roll(...)" in error.hint


def test_a_die_of_no_sides_is_a_located_runtime_error(tmp_path):
    game = load_game(write(tmp_path, DICE.replace("roll(6)", "roll(last)")))
    state = game.new_initial_state(0)
    from dsl.errors import RulebookError
    with pytest.raises(RulebookError) as info:
        state.apply_action(state.legal_actions()[0])
    assert "a die has 1 to" in str(info.value)


# ---- prompts, seats, names -----------------------------------------------------------------------
def test_prompt_shows_values_and_player_names(tmp_path):
    game = load_game(write(tmp_path, DICE))
    state = game.new_initial_state(3)
    assert state.view(0)["decision"]["prompt"] == "P1 has 0; P2 leads; last roll 0"
    state.apply_action(state.legal_actions()[0])
    roll = state.vars["last"]
    assert state.view(None)["decision"]["prompt"] == f"P2 has 0; P1 leads; last roll {roll}"


def test_prompt_fields_are_checked_like_texts(tmp_path):
    (error,) = errors(write(tmp_path, DICE.replace("last roll {last}", "last roll {lats}")))
    assert error.message == "unknown name 'lats'"
    assert "did you mean 'last'" in error.hint
    assert (error.position.line, error.position.column) == (13, 86)


def test_prompt_shows_a_hidden_component_by_its_kind_only(tmp_path):
    text = """\
    game: {name: Hidden, players: 2}
    components:
      card: {name: "card {v}", attributes: {v: int}, in: deck, table: [{v: 1, count: 3}]}
    zones:
      deck: {visibility: count}
      hand: {per: player, visibility: owner}
    flow:
      - draw(deck, active.hand)
      - choose:
          prompt: "you hold {top(active.hand)}"
          options: {done: }
    """
    game = load_game(write(tmp_path, text))
    state = game.new_initial_state(0)
    assert state.view(0)["decision"]["prompt"] == "you hold card 1"
    assert state.view(1)["decision"]["prompt"] == "you hold a hidden card"


def test_a_player_variable_starts_at_a_seat_number(tmp_path):
    game = load_game(write(tmp_path, DICE))
    assert game.new_initial_state(0).vars["leader"] == 1
    (error,) = errors(write(tmp_path, DICE.replace("initial: 1", "initial: 2")))
    assert "no seat 2 in a game of 2 players" in error.message and "0 to 1" in error.hint


def test_string_concatenation_and_player_names(tmp_path):
    text = DICE.replace("      - active = next_player(active)\n",
                        "      - log(active.name + \" rolled \" + \"again\")\n      - active = next_player(active)\n")
    load_game(write(tmp_path, text))


# ---- hints ---------------------------------------------------------------------------------------
def test_equals_for_double_equals_gets_a_hint(tmp_path):
    (error,) = errors(write(tmp_path, DICE.replace("active.score > leader.score", "active.score = 3")))
    assert "write '=='" in error.hint


def test_an_unknown_name_lists_the_closest_zones_variables_and_definitions(tmp_path):
    text = DICE.replace("scoring:", "zones:\n  discard: {visibility: all}\n  market: {visibility: all}\n"
                                    "define:\n  best: max(p.score for p in players)\nscoring:")
    text = text.replace("active.score > leader.score", "size(used_pile) > 0")
    (error,) = errors(write(tmp_path, text))
    assert error.message == "unknown name 'used_pile'"
    assert "zones: discard, market" in error.hint
    assert "variables: " in error.hint and "definitions: best" in error.hint


# ---- variants select any statement ---------------------------------------------------------------
@pytest.mark.parametrize("selector", ["{choose: ~}", "0", "-1", '{choose: {prompt: "Play a Brutale?"}}'])
def test_a_variant_selects_an_unnamed_choose(tmp_path, selector):
    path = write(tmp_path, f"""\
    extends: la-famiglia
    procedures:
      intimidate:
        - edit: {selector}
          merge:
            choose: {{prompt: "Brutale?"}}
    """)
    game = load_game(path)
    assert game.ruleset.procedures["intimidate"].body[0].prompt == "Brutale?"


def test_a_mistyped_selector_gets_a_did_you_mean(tmp_path):
    path = write(tmp_path, """\
    extends: la-famiglia
    procedures:
      turn:
        - after: "recruit_or_pas()"
          insert: ['log("x")']
    """)
    (error,) = errors(path)
    assert "matches no item" in error.message and "did you mean 'recruit_or_pass()'?" in error.hint


def test_a_selector_that_matches_nothing_lists_the_items(tmp_path):
    path = write(tmp_path, """\
    extends: la-famiglia
    procedures:
      intimidate:
        - remove: {choose: {prompt: "nothing like this"}}
    """)
    (error,) = errors(path)
    assert "the list holds: 0: {choose: ...}" in error.hint and "position" in error.hint


def test_a_position_outside_the_list_is_an_error(tmp_path):
    (error,) = errors(write(tmp_path, "extends: la-famiglia\nprocedures:\n  intimidate:\n    - remove: 5\n"))
    assert "position 5 is outside the list" in error.message and error.position.line == 4


def test_roll_is_a_chance_node_of_its_faces_in_explicit_chance_mode(tmp_path):
    game = load_game(write(tmp_path, DICE))
    state = game.new_initial_state(0, explicit_chance=True)
    state.apply_action(next(a for a in state.legal_actions() if str(a) == "roll"))
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6 and all(abs(p - 1 / 6) < 1e-12 for _, p in outcomes)
    state.apply_action(outcomes[3][0])
    assert state.vars["last"] == 4


def test_component_counts_may_depend_on_the_number_of_players(tmp_path):
    text = """\
    game: {name: Chips, players: {min: 2, max: 4}}
    components:
      chip: {name: chip, in: bank, table: [{count: "3 * num_players + 1"}]}
    zones:
      bank: {visibility: all}
    flow: []
    """
    path = write(tmp_path, text)
    assert load_game(path, players=2).num_components == 7
    assert load_game(path, players=4).num_components == 13


@pytest.mark.parametrize("statement", ["{if: last == max(1, 2), then: [last = 1]}",
                                       "{step: s, do: [last = max(last, 2)]}"])
def test_a_comma_yaml_took_inside_a_mapping_gets_the_hint_of_a_list(tmp_path, statement):
    text = DICE.replace("      - active = next_player(active)\n", f"      - {statement}\n      - active = next_player(active)\n")
    found = errors(write(tmp_path, text))
    assert found and all("cut at a comma by YAML" in e.hint for e in found)


def test_a_slice_in_a_ruleset(tmp_path):
    text = DICE.replace("      - active = next_player(active)\n",
                        "      - last = size(players[1:]) + [5, 6, 7][-1:][0]\n      - active = next_player(active)\n")
    game = load_game(write(tmp_path, text))
    state = game.new_initial_state(0)
    state.apply_action("stop")
    assert state.vars["last"] == 1 + 7


def test_zones_show_by_name_in_option_texts_and_prompts(tmp_path):
    text = """\
    game: {name: Piles, players: 2}
    components:
      card: {name: "card {v}", attributes: {v: int}, in: left, table: [{v: 1, count: 2}]}
    zones:
      left: {visibility: all}
      right: {visibility: all}
    flow:
      - choose:
          prompt: "piles: {[left, right]}"
          options:
            take:
              text: "take from {pile}"
              params: {pile: "[z for z in [left, right] if not empty(z)]"}
              effects: ["move(top(pile), right)"]
    """
    game = load_game(write(tmp_path, text))
    state = game.new_initial_state(0)
    assert [str(a) for a in state.legal_actions()] == ["take from left"]
    assert state.view(0)["decision"]["prompt"] == "piles: left, right"


RETURNS = """\
game: {name: Returns, players: 2}
vars: {best: 0}
player_vars: {score: 0}
procedures:
  double(x):
    - if: x > 10
      then: [return 10]
    - return x * 2
  pick:
    - choose:
        options:
          one: {effects: [return 1]}
          two: {effects: [return 2]}
flow:
  - let a = double(3)
  - best = double(a)
  - best += double(20)
  - active.score = pick()
"""


def test_procedures_return_values_also_across_a_decision(tmp_path):
    game = load_game(write(tmp_path, RETURNS))
    state = game.new_initial_state(0)
    assert state.vars["best"] == 22 and [str(a) for a in state.legal_actions()] == ["one", "two"]
    resumed = game.state_from_json(state.to_json())
    resumed.apply_action("two")
    assert resumed.is_terminal() and resumed.pvars["score"] == [2, 0]


@pytest.mark.parametrize("old, new, message", [
    ("  - let a = double(3)\n", "  - let a = double(3)\n  - return 1\n", "'return' outside a procedure"),
    ("    - return x * 2\n", "    - return x > 2\n", "procedure double returns a int elsewhere, here a bool"),
])
def test_return_mistakes_are_located_errors(tmp_path, old, new, message):
    (error,) = errors(write(tmp_path, RETURNS.replace(old, new)))
    assert message in error.message


def test_falling_off_the_end_of_a_procedure_called_for_a_value_is_a_located_error(tmp_path):
    from dsl.errors import RulebookError
    game = load_game(write(tmp_path, RETURNS.replace("    - return x * 2\n", "    - best = x\n")))
    with pytest.raises(RulebookError) as info:
        game.new_initial_state(0)
    assert "procedure double ended without returning a value" in str(info.value)
    assert info.value.position.line == 15  # the call


def test_a_procedure_that_never_returns_a_value_cannot_give_one(tmp_path):
    text = RETURNS.replace("  - active.score = pick()\n", "  - active.score = nothing()\n").replace(
        "flow:", "  nothing:\n    - best = 1\nflow:")
    (error,) = errors(write(tmp_path, text))
    assert "procedure nothing returns no value" in error.message


def test_option_texts_show_procedure_parameters_and_locals(tmp_path):
    text = """\
    game: {name: Offers, players: 2}
    vars: {price: 3}
    procedures:
      offer(amount):
        - let bonus = amount + 1
        - choose:
            options:
              take:
                text: "pay {amount} to {active.name} for {item} (bonus {bonus}, list price {price})"
                params: {item: "[1, 2]"}
              refuse:
                text: "refuse {amount}"
    flow:
      - offer(5)
      - price = 4
      - offer(7)
    """
    game = load_game(write(tmp_path, text))
    state = game.new_initial_state(0)
    assert [str(a) for a in state.legal_actions()] == [
        "pay 5 to P1 for 1 (bonus 6, list price 3)", "pay 5 to P1 for 2 (bonus 6, list price 3)", "refuse 5"]
    state.apply_action("refuse 5")
    assert [str(a) for a in state.legal_actions()][-1] == "refuse 7"
    assert str(state.legal_actions()[0]) == "pay 7 to P1 for 1 (bonus 8, list price 4)"


def test_a_misspelt_parameter_in_an_option_text_gets_a_did_you_mean(tmp_path):
    text = DICE.replace("            roll:\n", "            roll:\n              text: \"roll {sidez}\"\n"
                                              "              params: {sides: \"[6]\"}\n")
    (error,) = errors(write(tmp_path, text))
    assert error.message == "unknown name 'sidez'" and "did you mean 'sides'?" in error.hint


def test_setup_and_triggers_may_call_a_procedure_that_keeps_another_ones_value(tmp_path):
    text = RETURNS.replace("flow:", "  init(y):\n    - let z = double(y)\n    - best = z\n"
                                    "  asks:\n    - let v = pick()\n    - best = v\n"
                                    "setup:\n  - init(4)\nflow:")
    game = load_game(write(tmp_path, text))
    assert game.new_initial_state(0).vars["best"] == 22
    (error,) = errors(write(tmp_path, text.replace("  - init(4)\n", "  - asks()\n")))
    assert "procedure asks asks for a decision" in error.message and "setup cannot do" in error.message


TYPED = """\
game: {name: Typed, players: 2}
components:
  card: {attributes: {col: str}, in: pile, table: [{col: red, count: 2}]}
  chip: {attributes: {v: int}, marks: {col: "none"}, in: pile, table: [{v: 1, count: 2}]}
zones:
  pile: {visibility: all}
player_vars:
  score: 0
procedures:
  "paint(c: chip, p: player)":
    - c.col = "blue"
    - p.score += c.v
flow:
  - paint(last(pile), active)
  - choose:
      options:
        done:
scoring:
  score: player.score
"""


def test_a_typed_parameter_says_the_kind_a_procedure_takes(tmp_path):
    state = load_game(write(tmp_path, TYPED)).new_initial_state(0)
    assert state.marks["col"][3] == "blue" and state.pvars["score"] == [1, 0]


UNCALLED = TYPED.replace("paint(c: chip, p: player)", "paint(c, p: player)").replace(
    "  - paint(last(pile), active)\n", "")


@pytest.mark.parametrize("text, message, hint", [
    (TYPED.replace("paint(c: chip", "paint(c"),
     "'col' is printed on card but a mark of chip, and this component may be of any of these kinds",
     "a procedure's parameter 'c: chip'"),
    (TYPED.replace("c: chip", "c: chp"), "'chp' is no type", "did you mean 'chip'?"),
    (UNCALLED,  # never called: the advice must be one a designer can follow
     "cannot tell what '.col' belongs to", "a procedure's parameter 'name(c: card, p: player)'"),
])
def test_typed_parameter_mistakes_name_the_kinds_and_advise_what_can_be_done(tmp_path, text, message, hint):
    found = errors(write(tmp_path, text))
    assert any(message in e.message and hint in (e.hint or "") for e in found), [(e.message, e.hint) for e in found]
