"""What a dealt world costs a `flat` decision, part by part, at the positions of every seed game.

    python benchmarks/world_cost.py                          # the four seed games
    python benchmarks/world_cost.py --games pferderennen-mafia

For each game, at the positions of benchmarks/mcts_speed.py where the seat to move has more than
``--min-actions`` legal actions: the CPU microseconds (this thread's clock) of dealing a world
(``State.determinize``), of loading it into the native kernel (``Runner``), and of judging one action
on it (a playout of one round of the table in the kernel and its worth, as `flat`'s judge reads it),
each averaged over many repeats; then what one world with every action judged costs, and the share
dealing and loading take of it.  A bot that would deal more worlds at `flat`'s CPU needs those two
parts cheap: see docs/bots.md, "The same replies to every judged action".
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.mcts_speed import GAMES, positions  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402
from interpreter.bots.rollouts import rollout_kernel  # noqa: E402
from interpreter.native.playout import Runner  # noqa: E402


def timed(repeats: int, work) -> float:
    """CPU microseconds per call of ``work``."""
    start = time.thread_time()
    for _ in range(repeats):
        work()
    return (time.thread_time() - start) / repeats * 1e6


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", help="only these rulesets")
    parser.add_argument("--repeats", type=int, default=100, help="deals and loads per position (default 100)")
    parser.add_argument("--min-actions", type=int, default=10, help="positions with more legal actions (default 10)")
    args = parser.parse_args(argv)
    for name, players in GAMES:
        if args.games and name not in args.games:
            continue
        game = load_game(name, players=players)
        states = [s for s in positions(game) if len(s.legal_actions()) > args.min_actions]
        kernel = rollout_kernel(game, "auto")
        if not states or kernel is None:
            print(f"{name:20} no position with more than {args.min_actions} actions, or no kernel")
            continue
        rng = random.Random(1)
        deal = load = judge = actions = 0.0
        for state in states:
            seat = state.current_player()
            world = state.determinize(seat, rng)
            deal += timed(args.repeats, lambda: state.determinize(seat, rng))
            load += timed(args.repeats, lambda: Runner(kernel, world))
            legal = world.legal_actions()
            judged = make_bot("flat", seat, 0).round_judge(world, 5)
            judge += timed(max(1, args.repeats // 10), lambda: [judged.of_world(world, a) for a in legal]) / len(legal)
            actions += len(legal)
        n = len(states)
        deal, load, judge, actions = deal / n, load / n, judge / n, actions / n
        world = deal + load + judge * actions
        print(f"{name:20} {players}p {n} positions, {actions:.1f} actions: deal {deal:.0f} µs, load {load:.0f} µs, "
              f"judge an action {judge:.1f} µs; a world judging all {world:.0f} µs, dealing and loading "
              f"{100 * (deal + load) / world:.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
