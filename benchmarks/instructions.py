"""Machine instructions per decision of random playouts, counted by valgrind (cachegrind).

Timings on a shared or virtual machine vary by 20% from run to run; the number of instructions the
CPU executes does not.  Use this to tell whether a change to the engine made it faster:

    python benchmarks/instructions.py la-famiglia              # 300 games
    python benchmarks/instructions.py gangster --players 2 -n 50

It runs the same random playouts as bench.py (seeds 0, 1, ...) twice under valgrind, once with
the games and once without, and divides the difference by the number of decisions, so loading the
ruleset does not count (both load it without the cache of compiled games, so both do the same work).  It needs ``valgrind`` on the PATH and takes about 150 times as long as
the games themselves.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

PLAY = """
import sys
sys.path.insert(0, {bench!r})
from bench import play
from interpreter import load_game
game = load_game({ruleset!r}, players={players!r}, cache=False)
print(sum(play(game, seed) for seed in range({games})))
"""


def count(ruleset: str, players, games: int) -> tuple[int, int]:
    """(instructions, decisions) of ``games`` random playouts, loading included."""
    code = PLAY.format(bench=str(Path(__file__).parent), ruleset=ruleset, players=players, games=games)
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    return int(refs.group(1).replace(",", "")), int(out.stdout.split()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--players", type=int)
    parser.add_argument("-n", "--games", type=int, default=300)
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("instructions.py needs valgrind (apt install valgrind)", file=sys.stderr)
        return 1
    total, decisions = count(args.ruleset, args.players, args.games)
    loading, _ = count(args.ruleset, args.players, 0)
    print(f"{args.ruleset}: {args.games} games, {decisions} decisions, "
          f"{(total - loading) // max(decisions, 1):,} instructions per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
