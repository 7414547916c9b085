"""CPU time per decision of bot specs at their own settings, from fixed positions of every seed game.

    python benchmarks/decision_cost.py flat lookahead          # the two defaults
    python benchmarks/decision_cost.py flat:seconds=0.01 lookahead:seconds=0.01

The positions are those of benchmarks/mcts_speed.py (12 per game, where the seat to move has a
choice); each spec chooses a move in each of them three times (bot seeds 0.., 100.., 200..), after
one choice that builds the game's native kernel.  Printed per game: the CPU milliseconds of this
thread per decision for each spec, so a new default can be checked to cost about what the old one
did (budget settings are counts of playouts, not time).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.mcts_speed import GAMES, positions  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402

REPEATS = 3


def main(argv=None) -> int:
    specs = (sys.argv[1:] if argv is None else argv) or ["flat"]
    for name, players in GAMES:
        game = load_game(name, players=players)
        states = positions(game)
        cells = []
        for spec in specs:
            make_bot(spec, 0, 0).choose(states[0])  # the kernel built before the clock starts
            start = time.thread_time()
            for repeat in range(REPEATS):
                for i, state in enumerate(states):
                    make_bot(spec, state.current_player(), i + 100 * repeat).choose(state)
            cells.append(f"{spec} {1000 * (time.thread_time() - start) / (REPEATS * len(states)):.2f} ms")
        print(f"{name:<20} " + "; ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
