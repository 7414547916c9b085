"""Variant files: the merge rules of docs/variants.md, errors located in the right file, and every
shipped variant validating and playing."""
import random
from pathlib import Path

import pytest

from interpreter import ErrorList, load_game
from interpreter.cli.info import variants_of

VARIANTS = sorted(Path("rulesets/variants").glob("*.yaml"))


def write(tmp_path, text, name="variant.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def errors(path):
    with pytest.raises(ErrorList) as info:
        load_game(path)
    return info.value.errors


def test_parameters_merge_key_by_key(tmp_path):
    game = load_game(write(tmp_path, "extends: la-famiglia\nparams:\n  street_size: {default: 7}\n"))
    assert game.params["street_size"] == 7
    assert game.ruleset.param_specs["street_size"]["max"] == 12  # kept from the base


def test_a_table_row_is_edited_by_its_values(tmp_path):
    game = load_game(write(tmp_path, """extends: la-famiglia
components:
  card:
    table:
      - edit: {family: Famiglia, rank: 4}
        merge: {vp: 20}
"""))
    four = [c for c in range(game.num_components) if game.names[c] == "Famiglia 4"]
    assert [game.attr_tables["vp"][c] for c in four] == [20]


def test_insert_after_a_statement_and_edit_a_trigger(tmp_path):
    game = load_game(write(tmp_path, """extends: la-famiglia
procedures:
  turn:
    - after: "recruit_or_pass()"
      insert: ['log("turn over")']
triggers:
  - edit: the draw pile runs out
    merge: {when: "true"}
"""))
    state = game.new_initial_state(3)
    rng = random.Random(0)
    while "turn over" not in state.notes and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.notes[-1] == "turn over"
    assert game.ruleset.triggers[0].when is not None


def test_remove_prepend_append_and_null(tmp_path):
    game = load_game(write(tmp_path, """extends: la-famiglia
params:
  open_hands: ~
zones:
  hand: {per: player, visibility: owner}
triggers:
  - remove: a card leaving the street has its printed rank again
  - append:
      - name: noted
        on: empty(street)
        effects: ['log("street empty")']
setup:
  - prepend: ['log("setting up")']
"""))
    assert "open_hands" not in game.params
    assert [t.name for t in game.ruleset.triggers] == [
        "the draw pile runs out", "the points in a display are on the table", "a card taken back from a display",
        "noted"]
    assert game.ruleset.setup[0].node.call.func == "log"


def test_errors_in_the_variant_point_into_the_variant(tmp_path):
    path = write(tmp_path, """extends: la-famiglia
procedures:
  turn:
    - after: "recruit_or_pass()"
      insert:
        - "passes_in_a_row += strret_size"
""")
    (error,) = errors(path)
    assert error.position.file == str(path)
    assert (error.position.line, error.position.column) == (6, 31)
    assert "street_size" in error.hint


def test_a_selector_must_pick_exactly_one_item(tmp_path):
    path = write(tmp_path, """extends: la-famiglia
components:
  card:
    table:
      - edit: {family: Famiglia}
        merge: {vp: 2}
""")
    (error,) = errors(path)
    assert "matches 6 items" in error.message and error.position.line == 5


def test_unknown_base(tmp_path):
    (error,) = errors(write(tmp_path, "extends: no-such-game\n"))
    assert "names no ruleset" in error.message and error.position.line == 1


def test_variants_extending_each_other_in_a_cycle_stop(tmp_path):
    write(tmp_path, "extends: b.yaml\n", "a.yaml")
    write(tmp_path, "extends: a.yaml\n", "b.yaml")
    (error,) = errors(tmp_path / "a.yaml")
    assert "more than 8 deep" in error.message


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_every_shipped_variant_validates_and_plays(path):
    """Each variant loads and plays random decisions without error (up to 1500 decisions: a match
    variant may go on for many games; rulebook simulate plays them to the end)."""
    game = load_game(path)
    state = game.new_initial_state(1)
    rng = random.Random(1)
    while not state.is_terminal() and state.moves < 1500:
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal() or state.legal_actions()


@pytest.mark.parametrize("name", ["la-famiglia", "gangster"])
def test_variants_are_listed_for_their_game(name):
    listed = {p.name for p in variants_of(name)}
    assert listed and all(f.startswith(name) for f in listed)
