"""Decisions asked inside generated blocks, and runs copied into the blocks that jump to them
(interpreter/codegen/blocks.py, ``_Builder.decision`` and ``_Builder.joined``): the flow's blocks
call a decision's enumerator where they reach it and stop there only if someone can decide, and a
block jumping forward goes on with a copy of the run it jumps to.  The games, the stacks at every
decision and the errors are the closure compiler's, whose VM runs every decision and jump itself."""
from __future__ import annotations

import random

import pytest

from conftest import CHIPS
from dsl.errors import Position, RulebookError
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS
from interpreter.runtime import vm
from interpreter.game import Game, find_base

DECISIONS = """\
game:
  name: Decisions in blocks
  players: 2
""" + CHIPS + """\
player_vars:
  points: 0
flow:
  - while: turns < 14
    do:
      - turns += 1
      - choose:
          prompt: "Bonus"
          if_none: skip
          options:
            bonus:
              params: {chip: "[c for c in pot if c.value == 2 and 6 // (FAILS) > 0]"}
              effects: ["move(chip, active.kept)"]
      - choose:
          prompt: "Return"
          if_none: skip
          options:
            back:
              params: {chip: "[c for c in active.kept if c.value == 0]"}
              effects: ["move(chip, pot)"]
      - choose:
          prompt: "Take"
          options:
            take:
              params: {chip: "list(pot)"}
              effects: ["move(chip, active.kept)"]
            keep:
              params: {chip: "[c for c in active.kept if c.value == 1]"}
              effects: [active.points += 1]
      - if: turns % 2 == 0
        then: [active.points += 1]
        else: [active.points += 2]
      - active = next_player(active)
"""


def _pair(tmp_path, text):
    path = tmp_path / "decisions.yaml"
    path.write_text(text, encoding="utf-8")
    return [Game(load_ruleset(path, FUNCTIONS, EFFECTS, None, 2, find=find_base), path, codegen=codegen)
            for codegen in (True, False)]


def _play(game, seed) -> list:
    """The stack, legal actions and state at every decision of a random game, and its end."""
    state, rng, seen = game.new_initial_state(seed), random.Random(seed), []
    while not state.is_terminal():
        actions = state.legal_actions()
        seen.append((state.to_dict(), [str(a) for a in actions], state.decider))
        state.apply_action(rng.choice(actions))
    return seen + [state.to_dict()]


def _failures(tmp_path, text, seed) -> list:
    """For the generated game and the closures' of ``text``: (line, message, state) of the error
    that stops a random game."""
    failures = []
    for game in _pair(tmp_path, text):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        with pytest.raises(RulebookError) as info:
            while True:
                state.apply_action(rng.choice(state.legal_actions()))
        failures.append((info.value.position.line, info.value.message, state.to_dict()))
    return failures


def _asked_by_the_vm(game, seed) -> int:
    """How many times the VM calls a decision's generated enumerator (``ChoiceSpec.direct``, read
    when it runs a decision) in a random game; a block calls the enumerator itself."""
    asked = [0]
    specs = [ins[1] for code in game.codes for ins in code if ins[0] == vm.CHOOSE and ins[1].direct is not None]
    originals = [spec.direct for spec in specs]
    for spec, function in zip(specs, originals):
        def direct(s, e, out, function=function):
            asked[0] += 1
            return function(s, e, out)
        spec.direct = direct
    try:
        _play(game, seed)
    finally:
        for spec, function in zip(specs, originals):
            spec.direct = function
    return asked[0]


def test_decisions_asked_inside_blocks_play_like_the_vm_and_save_its_steps(tmp_path):
    generated, reference = _pair(tmp_path, DECISIONS.replace("FAILS", "1"))
    for seed in range(25):
        assert _play(generated, seed) == _play(reference, seed)
    assert len(_play(generated, 3)) > 14 and _asked_by_the_vm(generated, 3) == 0


def test_an_error_of_a_decision_asked_inside_a_block_names_the_decision(tmp_path):
    """A domain failing in an enumerator a block calls fails as in the VM: the same message, at the
    decision, with the same state."""
    text = DECISIONS.replace("FAILS", "turns - 3")
    line = text.splitlines().index('          prompt: "Bonus"')  # the line of its 'choose:', 1-based
    failures = _failures(tmp_path, text, 0)
    assert failures[0] == failures[1] and failures[0][0] == line and "division by zero" in failures[0][1]


def test_a_decision_no_one_can_take_inside_a_block_is_the_vms_error(tmp_path):
    """A decision that may not be skipped and offers nothing, reached inside a block, stops the
    game with the VM's error at the decision."""
    text = DECISIONS.replace('take:\n              params: {chip: "list(pot)"}',
                             'take:\n              params: {chip: "[c for c in pot if turns < 4]"}')
    line = text.splitlines().index('          prompt: "Take"')
    failures = _failures(tmp_path, text.replace("FAILS", "1"), 1)
    assert failures[0] == failures[1] and failures[0][0] == line and "no legal option" in failures[0][1]


def test_a_block_goes_on_with_a_copy_of_the_run_it_jumps_forward_to(tmp_path):
    """The end of an option jumps past the other options to the statements after the decision:
    the option's block runs a copy of them (the ``if``/``else`` and the next player) and only then
    goes back to the VM; a failing copied statement names its own line."""
    generated, _ = _pair(tmp_path, DECISIONS.replace("FAILS", "1"))
    flow = generated.codes[generated.flow_proc]
    take = next(ins[1] for ins in flow if ins[0] == vm.CHOOSE and ins[1].prompt == "Take")
    option_block = flow[take.options[0].start]
    after = DECISIONS.splitlines().index("      - if: turns % 2 == 0") + 1
    assert option_block[0] == vm.BRANCHN and after in {p.line for p in option_block[2] if isinstance(p, Position)}
    text = DECISIONS.replace("FAILS", "1").replace("else: [active.points += 2]", "else: [active.points += 2 // (turns - 3)]")
    line = text.splitlines().index("        else: [active.points += 2 // (turns - 3)]") + 1
    failures = _failures(tmp_path, text, 0)
    assert failures[0] == failures[1] and failures[0][0] == line and "division by zero" in failures[0][1]


def test_a_taken_option_runs_its_block_and_the_loop_s_head_without_the_vm(tmp_path, monkeypatch):
    """Taking an option calls its block at once (State.apply_action); the block goes back to the loop's head
    by calling the head's block, which asks the next decision: the VM's loop never runs during
    play.  A statement failing in the head's block, reached through that call, names its line."""
    generated, _ = _pair(tmp_path, DECISIONS.replace("FAILS", "1"))
    state, rng = generated.new_initial_state(4), random.Random(4)
    runs, execute = [], vm.execute
    monkeypatch.setattr(vm, "execute", lambda *args: runs.append(args) or execute(*args))
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.moves > 14 and len(runs) == 1  # only where the game ends: past the loop to the return
    monkeypatch.undo()
    text = DECISIONS.replace("FAILS", "1").replace("      - turns += 1\n", "      - turns += 1 + 0 // (6 - turns)\n")
    line = text.splitlines().index("      - turns += 1 + 0 // (6 - turns)") + 1
    failures = _failures(tmp_path, text, 0)
    assert failures[0] == failures[1] and failures[0][0] == line and "division by zero" in failures[0][1]
