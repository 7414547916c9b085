"""Known game values through the OpenSpiel adapter with explicit chance: OpenSpiel's CFR+ on the Kuhn
poker ruleset reaches (nearly) the equilibrium, worth -1/18 to the first player (Kuhn, 1950).
OpenSpiel is an extra (``rulebook[openspiel]``); under CI the test fails rather than skips without it.
"""
from __future__ import annotations

import os

import pytest

if os.environ.get("CI") == "true":
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is an extra: pip install -e '.[openspiel]'")

ITERATIONS = 200


def test_cfr_plus_on_the_kuhn_poker_ruleset_finds_its_value():
    import interpreter.adapters.openspiel  # noqa: F401  (registers the game "rulebook")
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    game = pyspiel.load_game("rulebook", {"ruleset": "classic/kuhn-poker", "players": 2,
                                          "explicit_chance": True})
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    solver = cfr.CFRPlusSolver(game)
    for _ in range(ITERATIONS):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert exploitability.exploitability(game, policy) < 0.001
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
    assert value == pytest.approx(-1 / 18, abs=0.001)
