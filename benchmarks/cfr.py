#!/usr/bin/env python3
"""OpenSpiel's CFR+ on a classic ruleset through the adapter with explicit chance: exploitability of the
average policy as the iterations go, and the first player's value.

    python benchmarks/cfr.py                                  # Leduc poker, 100 iterations
    python benchmarks/cfr.py --ruleset classic/kuhn-poker --iterations 200 --every 50
    python benchmarks/cfr.py --openspiel leduc_poker          # the same on OpenSpiel's own C++ game

The CPU seconds count the solver's setup, the iterations and, at each report, the exploitability
and the value, computed through the same game.

Needs the openspiel extra (pip install -e '.[openspiel]').
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability  # noqa: E402

import interpreter.adapters.openspiel  # noqa: E402,F401  (registers the game "rulebook")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="classic/leduc-poker")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--every", type=int, default=10, help="report every N iterations")
    parser.add_argument("--openspiel", metavar="GAME", help="an OpenSpiel game instead (e.g. leduc_poker)")
    args = parser.parse_args()
    if args.openspiel:
        game = pyspiel.load_game(args.openspiel)
        print(f"{args.openspiel}: OpenSpiel CFR+ on OpenSpiel's own game")
    else:
        game = pyspiel.load_game("rulebook", {"ruleset": args.ruleset, "players": 2, "explicit_chance": True})
        print(f"{args.ruleset}: OpenSpiel CFR+ through the rulebook adapter (explicit chance)")
    start = time.process_time()
    solver = cfr.CFRPlusSolver(game)
    setup = time.process_time() - start
    spent = {"iterations": 0.0, "exploitability": 0.0, "value": 0.0}
    print(f"{'iterations':>10} {'exploitability':>15} {'value of P1':>12} {'CPU s':>8}")
    for i in range(1, args.iterations + 1):
        mark = time.process_time()
        solver.evaluate_and_update_policy()
        spent["iterations"] += time.process_time() - mark
        if i % args.every == 0 or i == args.iterations:
            policy = solver.average_policy()
            mark = time.process_time()
            value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
            spent["value"] += time.process_time() - mark
            mark = time.process_time()
            distance = exploitability.exploitability(game, policy)
            spent["exploitability"] += time.process_time() - mark
            print(f"{i:>10} {distance:>15.5f} {value:>12.5f} {time.process_time() - start:>8.1f}", flush=True)
    reports = -(-args.iterations // args.every)
    print(f"CPU s: setup {setup:.2f}, {spent['iterations'] / args.iterations:.3f} an iteration, "
          f"{spent['exploitability'] / reports:.2f} an exploitability, {spent['value'] / reports:.2f} a value")


if __name__ == "__main__":
    main()
