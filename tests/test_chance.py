"""Explicit chance (interpreter/chance.py): every random event as a chance node.

The central check: resolving every chance node with the number the seeded generator would have drawn
gives exactly the seeded game, for every ruleset, so explicit mode runs the same rules with outcomes in
place of the generator.  Chance nodes list uniform outcomes, are the chance player's (-1), and
round-trip through JSON.
"""
from __future__ import annotations

import random

import pytest

from conftest import RULESETS, player_counts
from interpreter import load_game
from interpreter.chance import CHANCE
from interpreter.state import GOLDEN_GAMMA, MASK64, _mixed

SEEDS = 3
DECISIONS = 120


class SeededOutcomes:
    """Chance outcomes drawn exactly as the state's own splitmix64 generator draws its numbers."""

    def __init__(self, seed: int):
        self.z = seed & MASK64

    def outcome(self, count: int) -> int:
        self.z = (self.z + GOLDEN_GAMMA) & MASK64
        return _mixed(self.z) % count


def resolve(state, outcomes: SeededOutcomes) -> int:
    nodes = 0
    while state.is_chance_node():
        listed = state.chance_outcomes()
        assert state.current_player() == CHANCE
        assert sum(p for _, p in listed) == pytest.approx(1.0)
        assert [o for o, _ in listed] == state.legal_actions()
        state.apply_action(listed[outcomes.outcome(len(listed))][0])
        nodes += 1
    return nodes


def comparable(state) -> dict:
    data = state.to_dict()
    data.pop("rng")
    data.pop("chance", None)
    return data


CASES = [(path, players) for path in RULESETS for players in player_counts(path)[:1]]


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}" for p, n in CASES])
def test_explicit_chance_with_the_generator_s_numbers_is_the_seeded_game(path, players):
    game = load_game(path, players=players)
    for seed in range(SEEDS):
        seeded = game.new_initial_state(seed)
        outcomes = SeededOutcomes(seed)
        explicit = game.new_initial_state(seed, explicit_chance=True)
        resolve(explicit, outcomes)
        rng = random.Random(seed)
        for _ in range(DECISIONS):
            assert comparable(explicit) == comparable(seeded)
            if seeded.is_terminal():
                break
            action = rng.choice(seeded.legal_actions())
            seeded.apply_action(action)
            explicit.apply_action(str(action))
            resolve(explicit, outcomes)
        assert comparable(explicit) == comparable(seeded)
        assert explicit.is_terminal() == seeded.is_terminal()


def test_a_chance_node_round_trips_through_json():
    game = load_game("rulesets/classic/leduc-poker.yaml")
    state = game.new_initial_state(0, explicit_chance=True)
    state.apply_action(state.chance_outcomes()[4][0])
    copy = game.state_from_json(state.to_json())
    assert copy == state and copy.is_chance_node()
    assert [p for _, p in copy.chance_outcomes()] == [0.2] * 5
    copy.apply_action(0)
    state.apply_action(0)
    assert copy == state


def test_an_outcome_of_another_node_is_illegal():
    from interpreter import IllegalActionError
    game = load_game("rulesets/classic/kuhn-poker.yaml")
    state = game.new_initial_state(0, explicit_chance=True)
    with pytest.raises(IllegalActionError):
        state.apply_action(7)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 3
