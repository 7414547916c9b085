"""Staged decisions (docs/api.md): a decision asked one stage at a time, the option first, then one
parameter per stage.  The complete prefixes reached through the stages are exactly the legal actions,
at every decision of random games of every ruleset."""
from __future__ import annotations

import json
import random

import pytest

from conftest import MINIMAL, RULESETS, TEST_GAMES
from interpreter import IllegalActionError, RulebookError, load_game
from interpreter.runtime.staging import staged_key


def _complete_prefixes(state, prefix=()):
    """Every complete prefix under ``prefix``, walking the stages depth first."""
    for choice in state.staged_choices(prefix):
        json.dumps(choice.value)  # the values are JSON-ready
        assert isinstance(choice.label, str) and choice.label
        extended = prefix + (choice.value,)
        if choice.complete:
            yield extended
        else:
            yield from _complete_prefixes(state, extended)


@pytest.mark.parametrize("path", RULESETS + TEST_GAMES, ids=lambda p: p.stem)
def test_stages_reach_exactly_the_legal_actions(path):
    game = load_game(path)
    decisions = 0
    for seed in range(2):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            reached = [state.staged_action(p) for p in _complete_prefixes(state)]
            assert len(reached) == len(legal) and set(reached) == set(legal)
            decisions += 1
            state.apply_action(rng.choice(legal))
    assert decisions > 0


def test_stage_values_are_the_option_then_the_parameters():
    game = load_game(MINIMAL)
    state = game.new_initial_state(0)
    first = state.staged_choices()
    assert [c.value for c in first] == ["play", "pass"]
    assert [c.complete for c in first] == [False, True] and first[0].stage is None
    cards = state.staged_choices(("play",))
    hand = state.zones[game.family_base["hand"] + state.decider]
    assert {c.value for c in cards} <= set(hand) and all(c.complete and c.stage == "card" for c in cards)
    assert all(c.label.startswith("card ") for c in cards)
    action = state.staged_action(("play", cards[0].value))
    assert action in state.legal_actions() and action.values == (cards[0].value,)
    assert state.staged_choices(("play", cards[0].value)) == []
    assert state.staged_choices(("nonsense",)) == []
    with pytest.raises(IllegalActionError):
        state.staged_action(("play",))
    with pytest.raises(IllegalActionError):
        state.staged_action(("play", -5))


STAGED = MINIMAL.read_text(encoding="utf-8").replace(
    """            pass:
""", """            pass:
            swap:
              text: "swap {mine} for {theirs}"
              params: {mine: active.hand, theirs: "[c for c in pile]"}
              stages: STAGES
              effects: []
""", 1)


def _game(tmp_path, stages):
    path = tmp_path / "staged.yaml"
    path.write_text(STAGED.replace("STAGES", stages), encoding="utf-8")
    return load_game(path)


def test_a_ruleset_names_the_order_of_the_stages(tmp_path):
    declared = _game(tmp_path, "[mine, theirs]").new_initial_state(0)
    reordered = _game(tmp_path, "[theirs]").new_initial_state(0)
    assert reordered.legal_actions() and len(declared.legal_actions()) == len(reordered.legal_actions())
    assert {c.stage for c in declared.staged_choices(("swap",))} == {"mine"}
    assert {c.stage for c in reordered.staged_choices(("swap",))} == {"theirs"}
    for action in reordered.legal_actions():
        key = staged_key(reordered.game, action)
        values = tuple(reversed(action.values)) if action.name == "swap" else action.values
        assert key == (action.name,) + values
        assert reordered.staged_action(key) == action


def test_stages_naming_no_parameter_is_a_located_error(tmp_path):
    with pytest.raises(RulebookError, match="'stages' names 'their', which is no parameter"):
        _game(tmp_path, "[their]")
