"""The seeded generator (interpreter/runtime/splitmix.py): the outputs made at once, lane-parallel, are those
of splitmix64 one step at a time, and a shuffle orders a zone as Fisher–Yates with them does."""
from __future__ import annotations

import random

import pytest

from interpreter.runtime.splitmix import GOLDEN_GAMMA, MASK64, mixed, outputs


def _one_by_one(z, count):
    made = []
    for _ in range(count):
        z = (z + GOLDEN_GAMMA) & MASK64
        made.append(mixed(z))
    return made, z


@pytest.mark.parametrize("count", [0, 1, 2, 3, 45, 59, 130])
def test_outputs_made_at_once_are_those_of_single_steps(count):
    rng = random.Random(count)
    for z in [0, MASK64, GOLDEN_GAMMA, MASK64 - GOLDEN_GAMMA + 1] + [rng.getrandbits(64) for _ in range(200)]:
        made, after = outputs(z, count)
        assert (list(made), after) == _one_by_one(z, count)


def test_known_values_of_splitmix64():
    """The first outputs from state 0 (the reference implementation's published sequence)."""
    made, _ = outputs(0, 3)
    assert list(made) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_a_shuffle_is_fisher_yates_from_the_top_with_the_generators_numbers():
    from interpreter import load_game
    game = load_game("la-famiglia", players=2)
    state = game.new_initial_state(7)
    zone = 0
    before, z = list(state.zones[zone]), state.rng
    state.shuffle_zone(zone)
    expected = before[:]
    for i in range(len(expected) - 1, 0, -1):
        z = (z + GOLDEN_GAMMA) & MASK64
        j = mixed(z) % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert state.zones[zone] == expected and state.rng == z
