#!/usr/bin/env python3
"""Decisions per second of each classic ruleset next to OpenSpiel's C++ implementation of the same game,
both driven from Python in this one process (uniformly random play, chance sampled).

    python benchmarks/classic.py                 # every pair, 3 CPU-seconds each side
    python benchmarks/classic.py --seconds 10 --json

Needs the openspiel extra (pip install -e '.[openspiel]').  A "decision" is a move of a player;
chance events are not counted on either side.  Ours runs in seeded mode (the default) and, in the
column "explicit/s", in explicit chance mode (every chance node's outcome drawn with Python's random,
the mode CFR uses); OpenSpiel samples its chance nodes with Python's random.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402

from interpreter import load_game  # noqa: E402

PAIRS = [  # (ruleset, its parameters, OpenSpiel game, its parameters, turn-based conversion)
    ("tic-tac-toe", {}, "tic_tac_toe", {}, False),
    ("connect-four", {}, "connect_four", {}, False),
    ("kuhn-poker", {}, "kuhn_poker", {"players": 2}, False),
    ("leduc-poker", {}, "leduc_poker", {"players": 2}, False),
    ("liars-dice", {}, "liars_dice", {"players": 2, "numdice": 1, "dice_sides": 6}, False),
    ("goofspiel", {"num_cards": 4}, "goofspiel",
     {"num_cards": 4, "points_order": "descending", "returns_type": "win_loss"}, True),
]


def ours(ruleset: str, params: dict, seconds: float, explicit: bool = False) -> float:
    game = load_game(ROOT / "rulesets" / "classic" / f"{ruleset}.yaml", params=params)
    decisions, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        state, rng = game.new_initial_state(seed, explicit_chance=explicit), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        seed += 1
    return decisions / (time.process_time() - start)


def theirs(name: str, params: dict, turn_based: bool, seconds: float) -> float:
    game = pyspiel.load_game(name, params)
    if turn_based:
        game = pyspiel.convert_to_turn_based(game)
    decisions, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        seed += 1
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per side and game")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for ruleset, params, name, spiel_params, turn_based in PAIRS:
        mine = ours(ruleset, params, args.seconds)
        explicit = ours(ruleset, params, args.seconds, explicit=True)
        native = theirs(name, spiel_params, turn_based, args.seconds)
        rows.append({"ruleset": ruleset, "rulebook": round(mine), "explicit": round(explicit),
                     "openspiel": round(native), "ratio": round(mine / native, 3)})
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'ruleset':14} {'rulebook/s':>11} {'explicit/s':>11} {'openspiel/s':>12} {'ratio':>7}")
    for row in rows:
        print(f"{row['ruleset']:14} {row['rulebook']:>11,} {row['explicit']:>11,} {row['openspiel']:>12,} "
              f"{row['ratio']:>7.3f}")


if __name__ == "__main__":
    main()
