#!/usr/bin/env python3
"""Time to load rulesets in fresh processes that have imported the package: cold, warm and uncached.

    python benchmarks/load_time.py                 # the four rulesets of rulesets/, 5 processes each
    python benchmarks/load_time.py --runs 9 la-famiglia

Each run starts new interpreters that import ``interpreter`` and then time loading every ruleset
once (the import is not counted):

- cold: with an empty cache folder (``XDG_CACHE_HOME`` a new temporary folder): the whole pipeline
  (YAML, schema, parse, check, compile) plus writing the cache entries;
- warm: another fresh process with the folder the cold one filled (interpreter/store/load_cache.py);
- uncached: ``RULEBOOK_NO_CACHE=1``, the pipeline alone.

Prints the median of the runs of each, wall clock and CPU time (``time.process_time``, which a busy
machine disturbs less), in seconds, and the commands that measured them.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["la-famiglia", "gangster", "mafiadollar", "pferderennen-mafia"]
CHILD = """
import json, sys, time
sys.path.insert(0, {root!r})
from interpreter import load_game
names = {names!r}
wall, cpu = time.perf_counter(), time.process_time()
for name in names:
    load_game(name)
print(json.dumps({{"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}}))
"""
MODES = ("cold", "warm", "uncached")


def measure(code: str, cache_home: str, mode: str) -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=cache_home)
    env.pop("RULEBOOK_NO_CACHE", None)
    if mode == "uncached":
        env["RULEBOOK_NO_CACHE"] = "1"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulesets", nargs="*", default=DEFAULT)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    code = CHILD.format(root=str(ROOT), names=args.rulesets)
    results = {mode: [] for mode in MODES}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="rulebook-load-time-") as home:
            for mode in MODES:
                results[mode].append(measure(code, home, mode))
    python = shlex.quote(sys.executable)
    print(f"# each run, in a new empty folder HOME: cold, then warm, then uncached\n"
          f"#   cold, warm: XDG_CACHE_HOME=HOME {python} -c \"$CODE\"\n"
          f"#   uncached:   RULEBOOK_NO_CACHE=1 {python} -c \"$CODE\"\n"
          "# CODE:")
    print("\n".join("#   " + line for line in code.strip().splitlines()))
    summary = {"rulesets": args.rulesets, "runs": args.runs, "python": sys.version.split()[0],
               "implementation": sys.implementation.name}
    for mode in MODES:
        summary[f"{mode}_wall_s"] = round(statistics.median(r["wall"] for r in results[mode]), 3)
        summary[f"{mode}_cpu_s"] = round(statistics.median(r["cpu"] for r in results[mode]), 3)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
