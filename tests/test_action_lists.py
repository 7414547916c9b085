"""The legal actions of a decision once the game has moved on: an action kept from an earlier list
still reads as it did, and a list no one holds is freed at once, without the garbage collector
(see ``ActionBatch.release``).  Run for every ruleset."""
from __future__ import annotations

import gc
import random

import pytest

from conftest import RULESETS
from interpreter import load_game
from interpreter.runtime.state import REFCOUNTED


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_an_action_kept_from_an_earlier_decision_reads_as_it_did(path):
    """Nobody asks for texts before acting (as in a simulation); afterwards the action taken, two
    others of its list and those whose text tells them apart from a twin read as the same
    decision's actions read in a separately restored state."""
    game = load_game(path)
    for seed in range(3):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        for _ in range(60):
            if state.is_terminal():
                break
            restored = game.state_from_json(state.to_json())  # a list of its own, named as usual
            expected = [str(a) for a in restored.legal_actions()]
            actions = state.legal_actions()
            told_apart = [i for i, text in enumerate(expected) if text.endswith("]")]  # "... [#12]"
            picked = sorted(set(rng.sample(range(len(actions)), min(3, len(actions))) + told_apart))
            kept = [actions[i] for i in picked]
            state.apply_action(kept[0])
            del actions
            assert [str(a) for a in kept] == [expected[i] for i in picked]


@pytest.mark.skipif(not REFCOUNTED, reason="actions are released only where memory is reference-counted "
                                           "(CPython): PyPy's collector frees cycles as cheaply")
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_game_played_leaves_nothing_for_the_garbage_collector(path):
    game = load_game(path)
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            state, rng = game.new_initial_state(seed), random.Random(seed)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            del state
        assert gc.collect() == 0, "playing left reference cycles behind"
    finally:
        if enabled:
            gc.enable()


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_generated_enumerators_batch_is_the_one_new_batch_makes(path):
    """Generated enumerators make a decision's ``ActionBatch`` with its first action; its fields
    are those ``interpreter.runtime.actions.new_batch`` gives (the same game, list, cells and context, not
    named)."""
    from interpreter.runtime.actions import ActionBatch, new_batch
    game = load_game(path)
    state, rng = game.new_initial_state(0), random.Random(0)
    for _ in range(30):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        made, expected = actions[0].batch, new_batch(state, actions)
        assert [getattr(made, f) for f in ActionBatch.__slots__ if hasattr(expected, f)] == \
            [getattr(expected, f) for f in ActionBatch.__slots__ if hasattr(expected, f)]
        assert not any(hasattr(made, f) for f in ActionBatch.__slots__ if not hasattr(expected, f))
        state.apply_action(rng.choice(actions))


@pytest.mark.parametrize("path", RULESETS[:3], ids=lambda p: p.stem)
def test_an_action_of_a_copys_list_leaves_the_copy_playing_alike(path):
    """A state taking an action of its copy's list (a copy shares the list of the decision it was
    made at) lets the list go; the copy still offers the same actions and takes them alike."""
    game = load_game(path)
    state = game.new_initial_state(5)
    copy = state.clone()
    state.apply_action(copy.legal_actions()[-1])
    kept = copy.legal_actions()
    assert [str(a) for a in kept] == [str(a) for a in game.state_from_json(copy.to_json()).legal_actions()]
    copy.apply_action(kept[-1])
    assert copy.to_dict() == state.to_dict()
