"""How triggers run (interpreter/runtime/vm.py, ``fire``): a lone trigger's condition is tested before
anything else is done for it; a body that is one generated block (with jumps, ``BRANCHN``, or
without, ``EXECN``) before its return runs as one call, without the VM's loop; a longer one in the VM.  The games, and the
errors of a trigger's statement, are those of the closure compiler, which runs every body in the VM."""
from __future__ import annotations

import random

import pytest

from conftest import CHIPS
from dsl.errors import RulebookError
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS
from interpreter.runtime.instructions import BRANCHN
from interpreter.game import Game, find_base

TRIGGERS = """\
game:
  name: Triggers
  players: 2
""" + CHIPS + """\
player_vars:
  points: 0
  zeros: 0
flow:
  - while: turns < 12
    do:
      - turns += 1
      - choose:
          options:
            take:
              params: {chip: "list(pot)"}
              effects: ["move(chip, active.kept)"]
            back:
              params: {chip: "list(active.kept)"}
              effects: ["move(chip, pot)"]
      - active = next_player(active)
triggers:
  - name: points for a chip of value
    on: enter(kept)
    when: component.value > 0
    effects:
      - if: component.value == 2
        then: [owner.points += 2]
        else: [owner.points += 1]
  - name: zeros counted
    on: enter(kept)
    effects: [owner.zeros += 1 - component.value // DIVISOR]
  - name: points back
    on: leave(kept)
    when: component.value > 0
    effects: [owner.points -= component.value]
"""


def _pair(tmp_path, text):
    path = tmp_path / "triggers.yaml"
    path.write_text(text, encoding="utf-8")
    made = [Game(load_ruleset(path, FUNCTIONS, EFFECTS, None, 2, find=find_base), path, codegen=codegen)
            for codegen in (True, False)]
    return made, text


def _play(game, seed):
    state, rng = game.new_initial_state(seed), random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.to_dict()


def test_triggers_with_one_block_run_in_one_call_and_play_like_the_closures(tmp_path):
    (generated, reference), _ = _pair(tmp_path, TRIGGERS.replace("DIVISOR", "3"))
    bodies = {proc.name: generated.straight[i] for i, proc in enumerate(generated.procs) if "trigger" in proc.name}
    assert bodies["trigger 'zeros counted'"][0] == bodies["trigger 'points back'"][0] == BRANCHN
    assert bodies["trigger 'points for a chip of value'"] is None  # an if with two branches: the VM runs it
    for seed in range(30):
        assert _play(generated, seed) == _play(reference, seed)


def test_an_error_in_a_trigger_run_in_one_call_names_its_statement(tmp_path):
    (generated, reference), text = _pair(tmp_path, TRIGGERS.replace("DIVISOR", "(turns // 100)"))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "// (turns // 100)" in row)
    errors = []
    for game in (generated, reference):
        with pytest.raises(RulebookError) as info:
            for seed in range(30):
                _play(game, seed)
        errors.append((info.value.position.line, info.value.message))
    assert errors[0] == errors[1] and errors[0][0] == line and "division by zero" in errors[0][1]
