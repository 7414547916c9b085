"""docs/tutorial.md: its steps validate as they are built up, the finished game (rulesets/examples/pig.yaml,
also played by the generic invariant playouts) plays by its rules, and the how-to for dice kept as
components works."""
from __future__ import annotations

import re

import yaml

from conftest import EXAMPLES, ROOT
from interpreter import load_game
from interpreter.cli import main

DOC = ROOT / "docs" / "tutorial.md"
PIG = ROOT / "rulesets" / "examples" / "pig.yaml"


def yaml_blocks() -> list:
    return re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_tutorial_steps_validate_as_they_are_built_up(tmp_path):
    blocks = yaml_blocks()
    ruleset: dict = {}
    for number, block in enumerate(blocks[:3], 1):
        ruleset.update(yaml.safe_load(block))
        path = tmp_path / f"step{number}.yaml"
        path.write_text(yaml.safe_dump(ruleset, sort_keys=False), encoding="utf-8")
        load_game(path)


def test_the_finished_game_is_shipped_tested_and_of_tutorial_size(capsys):
    assert PIG in EXAMPLES
    lines = PIG.read_text(encoding="utf-8").splitlines()
    assert 40 <= len(lines) <= 60
    assert main(["validate", "pig"]) == 0
    assert main(["simulate", "pig", "-n", "20", "--players", "3", "--json"]) == 0
    assert '"games": 20' in capsys.readouterr().out


def test_pig_follows_its_rules():
    game = load_game(PIG)
    for seed in range(20):
        state = game.new_initial_state(seed)
        steps = 0
        while not state.is_terminal():
            names = [str(a) for a in state.legal_actions()]
            if state.vars["rolls_this_turn"] == 0:
                assert names == ["roll"], "a turn starts with a roll"
            before = (state.current_player(), state.pvars["score"][:], state.vars["turn_total"])
            choice = "roll" if steps % 3 else names[-1]
            state.apply_action(choice)
            steps += 1
            seat, scores, total = before
            if choice == "roll" and state.vars["last_roll"] == 1:
                assert state.pvars["score"] == scores and state.current_player() != seat
            elif choice == "roll":
                assert state.vars["turn_total"] == total + state.vars["last_roll"]
            else:
                assert state.pvars["score"][seat] == scores[seat] + total
        assert max(state.pvars["score"]) >= game.params["target"]


def test_dice_as_components_take_a_face_from_roll(tmp_path):
    path = tmp_path / "dice.yaml"
    path.write_text("""\
game: {name: Dice pool, players: 2}
components:
  die: {name: die, marks: {face: 0}, in: pool, table: [{count: 5}]}
zones:
  pool: {visibility: all}
flow:
  - for: d in pool
    do: [d.face = roll(6)]
scoring:
  score: "sum(d.face for d in pool)"
""", encoding="utf-8")
    state = load_game(path).new_initial_state(4)
    assert state.is_terminal()
    faces = state.marks["face"]
    assert len(faces) == 5 and all(1 <= f <= 6 for f in faces)
