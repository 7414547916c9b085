#!/usr/bin/env python3
"""Time to load rulesets: in fresh processes that have imported the package (cold), and again in
the same process (warm).

    python benchmarks/load_time.py                 # the four rulesets of rulesets/, 5 processes
    python benchmarks/load_time.py --runs 9 la-famiglia

Each run starts a new interpreter, imports ``interpreter``, then times loading every ruleset once
(cold: YAML, schema, parse, check, compile) and once more (warm: the same work again in a process
whose modules and caches are warm).  Prints the median of the runs, in seconds, wall clock.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["la-famiglia", "gangster", "mafiadollar", "pferderennen-mafia"]
CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
from interpreter import load_game
names = {names!r}
t = time.perf_counter()
for name in names:
    load_game(name)
cold = time.perf_counter() - t
t = time.perf_counter()
for name in names:
    load_game(name)
print(json.dumps({{"cold": cold, "warm": time.perf_counter() - t}}))
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=DEFAULT)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    code = CHILD.format(root=str(ROOT), names=args.rulesets)
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                      check=True).stdout) for _ in range(args.runs)]
    cold = statistics.median(r["cold"] for r in runs)
    warm = statistics.median(r["warm"] for r in runs)
    print(json.dumps({"rulesets": args.rulesets, "runs": args.runs, "python": sys.version.split()[0],
                      "implementation": sys.implementation.name, "cold_s": round(cold, 3),
                      "warm_s": round(warm, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
