"""CPU time per decision of bot specs at their own settings, from fixed positions of every seed game.

    python benchmarks/decision_cost.py flat lookahead          # the two defaults
    python benchmarks/decision_cost.py flat:seconds=0.01 lookahead:seconds=0.01
    python benchmarks/decision_cost.py flat:seconds=0.01 --games mafiadollar --profile   # where it goes
    python benchmarks/decision_cost.py flat lookahead:margin=1 --default-players   # at each ruleset's table size

The positions are those of benchmarks/mcts_speed.py (12 per game, where the seat to move has a
choice); each spec chooses a move in each of them three times (bot seeds 0.., 100.., 200..), after
one choice that builds the game's native kernel.  Printed per game: the CPU milliseconds of this
thread per decision for each spec, so a new default can be checked to cost about what the old one
did (budget settings are counts of playouts, not time).  ``--profile``: the functions that took
the most CPU time (cProfile timed by the thread's CPU clock, which slows everything down), to see
where a decision's time goes.  ``--default-players``: each game at its ruleset's number of players
(what ``rulebook simulate GAME`` plays) instead of benchmarks/mcts_speed.py's, since a bot whose
playouts run rounds of the table costs more per decision at a bigger table.  Also printed: the legal
actions per position, and for each spec the dealt worlds per decision (``Bot.judge_world`` calls;
the bots that judge every action on each world: flat, lookahead, focus, greedy).
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.mcts_speed import GAMES, positions  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402
from interpreter.bots.base import Bot  # noqa: E402

REPEATS = 3


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=["flat"])
    parser.add_argument("--games", nargs="+", help="only these rulesets")
    parser.add_argument("--profile", action="store_true", help="print the functions that took longest")
    parser.add_argument("--lines", type=int, default=12, help="how many of them (default 12)")
    parser.add_argument("--default-players", action="store_true",
                        help="each game at its ruleset's number of players, as rulebook simulate plays it")
    args = parser.parse_args(argv)
    worlds = count_worlds()
    for name, players in GAMES:
        if args.games and name not in args.games:
            continue
        game = load_game(name) if args.default_players else load_game(name, players=players)
        states = positions(game)
        actions = sum(len(state.legal_actions()) for state in states) / len(states)
        cells = [f"{actions:.1f} actions"]
        for spec in args.specs:
            make_bot(spec, 0, 0).choose(states[0])  # the kernel built before the clock starts
            worlds[0] = 0
            profile = cProfile.Profile(time.thread_time) if args.profile else None  # CPU, not wall time
            start = time.thread_time()
            if profile:
                profile.enable()
            for repeat in range(REPEATS):
                for i, state in enumerate(states):
                    make_bot(spec, state.current_player(), i + 100 * repeat).choose(state)
            if profile:
                profile.disable()
            decisions = REPEATS * len(states)
            cells.append(f"{spec} {1000 * (time.thread_time() - start) / decisions:.2f} ms, "
                         f"{worlds[0] / decisions:.1f} worlds")
            if profile:
                pstats.Stats(profile).sort_stats("cumulative").print_stats(args.lines)
        print(f"{name:<20} {game.num_players}p " + "; ".join(cells), flush=True)
    return 0


def count_worlds() -> list:
    """A counter (``[n]``) of the worlds the bots deal and judge, from here on."""
    counter = [0]
    judge_world = Bot.judge_world

    def counted(self, *args, **kwargs):
        counter[0] += 1
        return judge_world(self, *args, **kwargs)
    Bot.judge_world = counted
    return counter


if __name__ == "__main__":
    sys.exit(main())
