"""Speed of the kernel's policies from states the Python engine reached: playouts per CPU second.

    python benchmarks/native_policies.py                 # every seed game
    python benchmarks/native_policies.py --games gangster --decisions 20

From the positions of benchmarks/mcts_speed.py (12 per game), each policy plays on: ``uniform`` to
the end of the game, ``greedy`` (epsilon 0.1, the evaluation one step ahead) for ``--decisions``
decisions.  In the kernel (``interpreter.native.playout``: the state loaded, resumed at its decision)
and in the Python engine with the same policy (``interpreter.native.reference.play_on``); the two
take the same actions (tests/test_native_resume.py), so the ratio compares equal work.  Needs the
``[native]`` extra and a C compiler.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.mcts_speed import GAMES, positions  # noqa: E402


def rate(play, states, seconds: float) -> float:
    """Playouts per CPU second, over the states in turn until ``seconds`` have passed."""
    done, start = 0, time.process_time()
    while True:
        for i, state in enumerate(states):
            play(state, i)
            done += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return done / spent


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", help="only these rulesets")
    parser.add_argument("--decisions", type=int, default=30, help="greedy playouts: decisions (default 30)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per cell (default 1)")
    args = parser.parse_args(argv)
    from interpreter import load_game
    from interpreter.native import kernel_for
    from interpreter.native.playout import playout
    from interpreter.native.reference import play_on
    print(f"{'ruleset':<20} {'uniform kernel/s':>16} {'python/s':>9} {'ratio':>6} "
          f"{'greedy kernel/s':>16} {'python/s':>9} {'ratio':>6}")
    for name, players in GAMES:
        if args.games and name not in args.games:
            continue
        game = load_game(name, players=players)
        kernel = kernel_for(game)
        states = positions(game)
        n = args.decisions
        cells = [rate(lambda s, i: playout(kernel, s, i), states, args.seconds),
                 rate(lambda s, i: play_on(s.clone(), i), states, args.seconds),
                 rate(lambda s, i: playout(kernel, s, i, n, greedy=0.1), states, args.seconds),
                 rate(lambda s, i: play_on(s.clone(), i, n, greedy=0.1), states, args.seconds)]
        print(f"{name:<20} {cells[0]:16.1f} {cells[1]:9.1f} {cells[0] / cells[1]:6.1f} "
              f"{cells[2]:16.1f} {cells[3]:9.1f} {cells[2] / cells[3]:6.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
