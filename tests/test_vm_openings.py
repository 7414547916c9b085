"""Calls of procedures that open with a decision (interpreter/runtime/vm.py, ``opening_decisions``): the
decision is asked before the callee's frame is pushed, and the frame is pushed only if someone
decides.  The same games, stacks, errors and runaway loops as with every call pushing its frame."""
from __future__ import annotations

import random

import pytest

from conftest import CHIPS
from dsl.errors import RulebookError
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS
from interpreter.game import Game, find_base

OPENINGS = """\
game:
  name: Openings
  players: 2
""" + CHIPS + """\
flow:
  - while: true
    do:
      - if: turns >= LIMIT
        then: [end_game("done")]
      - turns += 1
      - maybe_take(turns % 3)
      - maybe_take(2)
      - pass_or_return()
      - active = next_player(active)
procedures:
  maybe_take(wanted):
    - choose:
        prompt: "Take a chip of {wanted}?"
        if_none: skip
        options:
          take:
            params: {chip: "[c for c in pot if c.value == wanted and 6 // (FAILS) > 0]"}
            effects: ["move(chip, active.kept)"]
  pass_or_return:
    - choose:
        prompt: "Pass, or put a chip back"
        options:
          back:
            params: {chip: "list(active.kept)"}
            effects: ["move(chip, pot)"]
          pass: {effects: []}
"""


def _load(path):
    """The game with every call a call (not compiled in place: see interpreter/compile/inlining.py)."""
    return Game(load_ruleset(path, FUNCTIONS, EFFECTS, None, None, find=find_base), path, inline=False)


def _game(tmp_path, name, limit=8, fails="1", fast=True):
    path = tmp_path / f"{name}.yaml"
    path.write_text(OPENINGS.replace("LIMIT", str(limit)).replace("FAILS", fails), encoding="utf-8")
    game = _load(path)
    if not fast:
        game.openings = [None] * len(game.procs)  # every call pushes its frame, as before
    return game


def _play(game, seed):
    """Per decision: the action texts and the whole state, until the end or an error."""
    state, rng, seen = game.new_initial_state(seed), random.Random(seed), []
    try:
        while not state.is_terminal():
            actions = state.legal_actions()
            seen.append(([str(a) for a in actions], state.to_dict()))
            state.apply_action(rng.choice(actions))
    except RulebookError as error:
        return seen, (error.position.line, error.message)
    return seen, state.to_dict()


def test_a_call_asks_an_opening_decision_in_place(tmp_path):
    """Skipped and taken opening decisions: the same actions and states (stacks included) at every
    decision, and a saved state at an opening decision plays on the same."""
    fast, slow = _game(tmp_path, "fast"), _game(tmp_path, "slow", fast=False)
    assert any(spec is not None for spec in fast.openings)
    for seed in range(20):
        assert _play(fast, seed) == _play(slow, seed)
    state = fast.new_initial_state(1)
    while state.stack[-1][1] != 0:  # waiting in a procedure that opens with the decision
        state.apply_action(state.legal_actions()[0])
    again = fast.state_from_json(state.to_json())
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]


def test_an_error_in_an_opening_decision_names_the_decision(tmp_path):
    """A division by zero in the domain of an opening decision fails at the decision, as when the
    callee's frame was pushed first."""
    fast = _game(tmp_path, "fast", fails="turns - 3")
    slow = _game(tmp_path, "slow", fails="turns - 3", fast=False)
    ends = [_play(game, 0)[1] for game in (fast, slow)]
    line = OPENINGS.splitlines().index("    - choose:") + 1
    assert ends[0] == ends[1] and ends[0][0] == line and "division by zero" in ends[0][1]


@pytest.mark.parametrize("fast", [True, False])
def test_a_loop_of_skipped_opening_decisions_is_a_runaway_loop(tmp_path, fast):
    """A loop that only calls procedures whose decisions are skipped never reaches a decision: the
    error of a runaway loop, at the loop."""
    text = OPENINGS.replace("      - pass_or_return()\n", "").replace("6 // (FAILS) > 0", "c.value > 5")
    path = tmp_path / "runaway.yaml"
    path.write_text(text.replace("LIMIT", "1000000000"), encoding="utf-8")
    game = _load(path)
    if not fast:
        game.openings = [None] * len(game.procs)
    with pytest.raises(RulebookError) as info:
        game.new_initial_state(0)
    assert "without asking anyone for a decision" in info.value.message
    assert info.value.position.line == text.splitlines().index("  - while: true") + 1
