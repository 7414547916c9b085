"""OpenSpiel's Python ISMCTS through the adapter (interpreter/adapters/openspiel.py) against a
uniformly random player, two players, the ISMCTS seat alternating between games.

    python benchmarks/interop.py la-famiglia -n 50
    python benchmarks/interop.py gangster -n 50 --simulations 100 --evaluator rollout

ISMCTS samples worlds with ``State.determinize`` (adapter's ``resampler``), so it never reads what
its seat cannot see. ``--evaluator evaluate`` (default) scores a leaf with the ruleset's
``evaluate`` on the sampled world; ``rollout`` plays one random game to the end from it. Prints the
ISMCTS seat's wins, shared wins and losses, and the time per game.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def play_ismcts_vs_random(ruleset, games=50, simulations=100, seed=0, evaluator="evaluate", uct_c=2.0,
                          report=None, utility="margin") -> tuple:
    """(games won outright by ISMCTS, games played); ``report`` gets a line per game."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from interpreter.adapters import openspiel as adapter

    game = pyspiel.load_game("rulebook", {"ruleset": ruleset, "players": 2, "seed": seed, "utility": utility})
    rng = np.random.RandomState(seed)
    if evaluator == "rollout":
        leaf = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    else:
        leaf = adapter.EvaluationEvaluator()
    wins = 0
    for g in range(games):
        bot = ismcts.ISMCTSBot(game, leaf, uct_c, simulations, random_state=rng,
                               final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        bot.set_resampler(adapter.resampler(seed * 1000 + g))
        seat = g % 2
        state = game.new_initial_state()
        started = time.perf_counter()
        while not state.is_terminal():
            if state.current_player() == seat:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        winners = state.match.state.winners()
        won = winners == [seat]
        wins += won
        if report:
            outcome = "win" if won else ("shared" if seat in winners else "loss")
            report(f"game {g + 1}: ISMCTS seat {seat} {outcome}, scores {state.match.returns()}, "
                   f"{state.match.state.moves} decisions, {time.perf_counter() - started:.1f} s")
    return wins, games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("-n", "--games", type=int, default=50)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--evaluator", choices=["evaluate", "rollout"], default="evaluate")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--utility", choices=["score", "margin", "win"], default="margin",
                        help="what the search maximizes (the adapter's 'utility' parameter)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    wins, games = play_ismcts_vs_random(args.ruleset, args.games, args.simulations, args.seed, args.evaluator,
                                        args.uct_c, report=lambda line: print(line, flush=True),
                                        utility=args.utility)
    elapsed = time.perf_counter() - started
    print(f"{args.ruleset}: ISMCTS ({args.simulations} simulations, {args.evaluator}, {args.utility}) won {wins} of {games} "
          f"games against random ({100 * wins / games:.0f}%), {elapsed / games:.1f} s per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
