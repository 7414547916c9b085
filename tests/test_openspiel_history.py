"""The OpenSpiel adapter's actions taken in Python (interpreter/adapters/openspiel_history.py): the C++
history that OpenSpiel's tools read stays what the C++ path would make, whichever way the actions
come; and explicit chance's one-copy child (interpreter/runtime/chance.py: action_child).

OpenSpiel is an extra (``rulebook[openspiel]``); under CI the test fails rather than skips without it.
"""
from __future__ import annotations

import gc
import pickle
import random
import weakref

import pytest

from conftest import require_extra
from interpreter import load_game
from interpreter.runtime import chance


def _spiel():
    pyspiel = require_extra("pyspiel", "openspiel")
    import interpreter.adapters.openspiel  # noqa: F401  (registers the game)
    return pyspiel


def _choices(state):
    return [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()


@pytest.mark.parametrize("explicit", [False, True])
@pytest.mark.parametrize("ruleset", ["classic/leduc-poker", "classic/tic-tac-toe"])
def test_python_actions_leave_the_history_the_cpp_path_makes(ruleset, explicit):
    pyspiel = _spiel()
    params = {"ruleset": ruleset, "seed": 5, "explicit_chance": explicit}
    for game_seed in range(6):
        python, cpp = (pyspiel.load_game("rulebook", params).new_initial_state() for _ in range(2))
        rng, taken = random.Random(game_seed), []
        while not python.is_terminal():
            action = rng.choice(_choices(python))
            taken.append(action)
            if len(taken) % 3 == 0:
                python = python.child(action)
            else:
                python.apply_action(action)
            cpp.apply_action_with_legality_check(action)  # C++ ApplyAction, calling back into Python
            if len(taken) == 2 and not python.is_terminal():
                copy = python.clone()  # a clone before the history caught up, then a C++ action on it
                extra = _choices(copy)[0]
                copy.apply_action_with_legality_check(extra)
                assert copy.history() == taken + [extra] and copy.move_number() == len(taken) + 1
        assert python.history() == cpp.history() == taken
        assert python.history_str() == cpp.history_str() and python.move_number() == len(taken)
        assert [(h.player, h.action) for h in python.full_history()] == \
            [(h.player, h.action) for h in cpp.full_history()]
        assert not python.is_initial_state() and python.serialize() == cpp.serialize()
        assert python.returns() == cpp.returns()


def test_saved_states_carry_the_actions_the_cpp_history_lacks():
    pyspiel = _spiel()
    from interpreter.adapters.openspiel_history import pairs_of
    game = pyspiel.load_game("rulebook", {"ruleset": "classic/leduc-poker", "seed": 2, "explicit_chance": True})
    state, rng = game.new_initial_state(), random.Random(4)
    for _ in range(4):
        state.apply_action(rng.choice(_choices(state)))
    taken = [action for _, action in pairs_of(state._handle.past, 4)]
    assert state._handle.synced == 0  # nothing read the history yet: the C++ history lacks them all
    loaded = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert loaded.history() == taken and str(loaded) == str(state)
    assert pickle.loads(pickle.dumps(state)).history() == taken
    assert game.deserialize_state(state.serialize()).history() == taken == state.history()
    assert state.is_initial_state() is False and game.new_initial_state().is_initial_state()


def test_an_illegal_action_from_python_changes_nothing():
    pyspiel = _spiel()
    state = pyspiel.load_game("rulebook", {"ruleset": "classic/tic-tac-toe"}).new_initial_state()
    state.apply_action(4)
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(4)
    with pytest.raises(TypeError):
        state.apply_action(1.5)
    assert state.history() == [4] and state.move_number() == 1


def test_action_child_is_the_state_an_action_makes_with_the_parent_unchanged():
    """Every player's action in explicit Leduc poker, among them those that end the first round and
    so reach the board card's chance node."""
    game = load_game("rulesets/classic/leduc-poker.yaml")
    reached_chance = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_initial_state(seed, explicit_chance=True)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            before = state.to_json()
            for action in state.legal_actions():
                child = chance.action_child(state, action)
                applied = state.clone()
                applied.apply_action(action)
                assert child.to_json() == applied.to_json() and state.to_json() == before
                reached_chance += child.is_chance_node()
                if child.is_chance_node():  # the node's outcomes continue as the applied copy's do
                    outcome = child.chance_outcomes()[0][0]
                    assert chance.outcome_child(child, outcome).to_json() == \
                        chance.outcome_child(applied, outcome).to_json()
            state.apply_action(rng.choice(state.legal_actions()))
    assert reached_chance > 0


def test_a_game_is_freed_with_its_states():
    """A state's C++ part holds its game, which the garbage collector cannot see: the game must hold
    no state (a pool of states to use again would keep the game, and every tree below them, forever)."""
    pyspiel = _spiel()
    for explicit in (False, True):
        game = pyspiel.load_game("rulebook", {"ruleset": "classic/kuhn-poker", "explicit_chance": explicit})
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(_choices(state)[0])
        child = state.clone()
        alive = weakref.ref(game._seeds)
        del game, state, child
        gc.collect()
        assert alive() is None
