"""Calls compiled in place (interpreter/compile/inlining.py) against calls the VM runs.

Every ruleset plays the same either way: the same legal actions, notes, views and state after every
action (its stack apart, which has fewer frames), and a saved state plays on.  Then the cases where
a call must stay a call, and the error of a state saved in the format before inlining.
"""
from __future__ import annotations

import json
import random

import pytest

from conftest import RULESETS, VARIANTS, player_counts
from dsl.errors import RulebookError
from dsl.loader import load_ruleset
from dsl.registry import EFFECTS, FUNCTIONS
from interpreter.game import Game, find_base
from interpreter.runtime.instructions import CALL
from interpreter.store.saved_state import SavedStateError


def _game(path, players=None, inline=True) -> Game:
    return Game(load_ruleset(path, FUNCTIONS, EFFECTS, None, players, find=find_base), path, inline=inline)


def _without_stack(state) -> dict:
    data = state.to_dict()
    del data["stack"]
    return data


def _cases():
    for path in RULESETS + VARIANTS:
        counts = player_counts(path)
        for players in sorted({counts[0], counts[-1]}):
            yield pytest.param(path, players, id=f"{path.stem}-{players}p")


@pytest.mark.parametrize("path, players", list(_cases()))
def test_inlined_calls_play_like_calls(path, players):
    inlined, called = _game(path, players), _game(path, players, inline=False)
    for seed in range(2):
        a, b, rng = inlined.new_initial_state(seed), called.new_initial_state(seed), random.Random(seed)
        decisions = 0
        while not a.is_terminal() and decisions < 300:  # long matches: their first 300 decisions
            assert not b.is_terminal()
            left, right = a.legal_actions(), b.legal_actions()
            assert [str(x) for x in left] == [str(y) for y in right], f"seed {seed}, decision {decisions}"
            assert a.current_player() == b.current_player()
            if decisions % 7 == 0:
                assert all(a.view(p) == b.view(p) for p in range(players))
                again = inlined.state_from_json(a.to_json())
                assert [str(x) for x in again.legal_actions()] == [str(x) for x in left]
            k = rng.randrange(len(left))
            a.apply_action(left[k])
            b.apply_action(right[k])
            assert a.notes == b.notes
            assert _without_stack(a) == _without_stack(b), f"seed {seed}, after decision {decisions}"
            decisions += 1
        assert a.is_terminal() == b.is_terminal() and a.returns() == b.returns()


@pytest.mark.parametrize("path", RULESETS + VARIANTS, ids=lambda p: p.stem)
def test_action_ids_do_not_depend_on_inlining(path):
    """The numbering of actions (interpreter/runtime/action_ids.py) lists options in the order the rules
    are written and called, not in compiled order, so adapters see the same ids either way."""
    inlined, called = _game(path), _game(path, inline=False)
    left, right = inlined.action_space(), called.action_space()
    assert [o[:2] for o in left.options] == [o[:2] for o in right.options] and left.size == right.size
    a, b = inlined.new_initial_state(3), called.new_initial_state(3)
    for _ in range(20):
        if a.is_terminal():
            break
        assert a.legal_action_ids() == b.legal_action_ids()
        a.apply_action(a.legal_actions()[0])
        b.apply_action(b.legal_actions()[0])


def test_the_shipped_games_run_with_fewer_calls():
    """La Famiglia's turn and its four actions, Gangster's turn and its scoring run in the flow's frame."""
    for name, players in (("la-famiglia", 2), ("gangster", 2)):
        game = _game(f"rulesets/{name}.yaml", players)
        assert not {"turn", "recruit_or_pass", "score_line"} & {p.name for p in game.procs}
        assert not any(ins[0] == CALL for code in game.codes for ins in code)


GAME = """\
game:
  name: Calls
  players: 2
components:
  chip:
    name: "chip {value}"
    attributes: {value: int}
    in: pot
    table:
      - {value: 1, count: 4}
      - {value: 2, count: 4}
zones:
  pot: {visibility: all}
  kept: {per: player, visibility: all}
vars:
  turns: 0
flow:
  - while: true
    do:
      - if: turns >= 6
        then: [end_game("done")]
      - turns += 1
CALLS
      - active = next_player(active)
procedures:
  take(wanted):
    - choose:
        options:
          take:
            params: {chip: "[c for c in pot if c.value == wanted]"}
            effects: ["move(chip, active.kept)"]
          pass: {effects: []}
  count_down(n):
    - if: n > 0
      then: [count_down(n - 1)]
  numbered:
    - let chip = turns
    - turns += chip - turns
"""


def _calls(tmp_path, calls: str, inline=True):
    path = tmp_path / "calls.yaml"
    path.write_text(GAME.replace("CALLS", calls), encoding="utf-8")
    game = _game(path, inline=inline)
    return game, sorted(p.name for p in game.procs if p.name not in ("setup", "flow"))


@pytest.mark.parametrize("calls, framed", [
    ("      - take(1)\n      - take(2)", []),  # small, no name in the way: in place
    ("      - count_down(2)", ["count_down"]),  # recursive
    ("      - for: chip in list(pot)\n        do: [take(chip.value), turns += chip.value - chip.value]",
     ["take"]),  # the loop's 'chip' is read after the call: take's own 'chip' would change it
    ("      - for: chip in list(pot)\n        do: [take(chip.value)]", []),  # not read after the call
    ("      - let chip = top(pot)\n      - repeat: 2\n        do: [take(1)]",
     ["take"]),  # a loop in the scope of the caller's 'chip' repeats the call: its next round may read it
    ("      - take(1)\n      - numbered()", ["numbered"]),  # 'chip' holds a component in take, a number here
    ("      - let wanted = 2\n      - take(wanted)", []),  # passed on under its own name
])
def test_when_a_call_stays_a_call(tmp_path, calls, framed):
    game, procs = _calls(tmp_path, calls)
    assert procs == framed
    reference, _ = _calls(tmp_path, calls, inline=False)
    for seed in range(5):
        a, b, rng = game.new_initial_state(seed), reference.new_initial_state(seed), random.Random(seed)
        while not a.is_terminal():
            k = rng.randrange(len(a.legal_actions()))
            assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]
            a.apply_action(a.legal_actions()[k])
            b.apply_action(b.legal_actions()[k])
        assert _without_stack(a) == _without_stack(b)


def test_inlining_copies_at_most_as_many_statements_as_the_ruleset_has(tmp_path):
    """A small procedure called from a hundred places: inlined until the copies reach the ruleset's
    own count of statements (plus a little), then called (interpreter/compile/inlining.py's budget)."""
    from interpreter.compile.inlining import MAX_COPIED, Inlining
    body = "".join("    - turns += 0\n" for _ in range(MAX_COPIED - 1))
    text = GAME.replace("CALLS", "      - small()\n" * 100).replace("procedures:\n", "procedures:\n  small:\n" + body)
    path = tmp_path / "many.yaml"
    path.write_text(text, encoding="utf-8")
    game = _game(path)
    calls = sum(1 for code in game.codes for ins in code if ins[0] == CALL)
    inlined = 100 - calls
    assert 0 < inlined < 20 and inlined * (MAX_COPIED - 1) <= Inlining(game.ruleset).budget


def test_an_error_in_an_inlined_procedure_names_its_line(tmp_path):
    text = GAME.replace("CALLS", "      - take(1)").replace("c.value == wanted", "c.value == wanted // (turns - 1)")
    path = tmp_path / "fails.yaml"
    path.write_text(text, encoding="utf-8")
    game = _game(path)
    assert "take" not in [p.name for p in game.procs]
    with pytest.raises(RulebookError) as info:
        game.new_initial_state(0)
    assert info.value.position.line == text.splitlines().index("    - choose:") + 1
    assert "division by zero" in info.value.message


def test_a_state_saved_before_inlining_says_what_to_do():
    game = _game("rulesets/la-famiglia.yaml", 2)
    data = json.loads(game.new_initial_state(0).to_json())
    assert data["format"] == 2
    data["format"] = 1
    with pytest.raises(SavedStateError) as info:
        game.state_from_json(json.dumps(data))
    assert "earlier version" in info.value.message and "replay" in info.value.hint


def test_a_block_that_cannot_hold_a_branch_still_returns_where_to_go_on(tmp_path):
    """An ``if`` whose 'then' ends in a loop (a jump back) and whose 'else' cannot be generated (a
    call): the block before it must still return the pc to go on at (codegen/blocks.py: the failed
    attempt's jump back is not the block's last statement)."""
    calls = ("      - if: turns > 1\n        then:\n          - while: turns < 0\n"
             "            do: [turns += 1]\n        else: [take(1)]")
    game, _ = _calls(tmp_path, calls, inline=False)
    state, rng = game.new_initial_state(0), random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
