#!/usr/bin/env python3
"""Time and peak memory of loading a ruleset whose procedure has a long ``else`` branch (issue 35).

    python benchmarks/long_procedure.py 1000 4000

For each N: the minimal test ruleset (tests/broken/_minimal.yaml) with a procedure ``big(p)`` whose
``else`` branch holds N statements ``if: p > i then: active.score += 1`` (or ``--kind assign``: N
statements ``x = x + i``), called from the setup and from the flow, loaded uncached in a fresh process
(``rulebook validate``).  Prints the file's size, the wall time and the peak RSS of that process.
Once the code generator made a block from every ``if`` to the end of the run: quadratic (100 ifs:
41,257 generated assignments; 1,000 ifs: over 15 GB before it was stopped).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATEMENTS = {"if": "if: p > {i}\n          then:\n            - active.score += 1", "assign": "x = x + {i}"}


def ruleset(n: int, kind: str) -> str:
    body = "".join("        - " + STATEMENTS[kind].format(i=i) + "\n" for i in range(n))
    text = (ROOT / "tests" / "broken" / "_minimal.yaml").read_text(encoding="utf-8")
    text = text.replace("player_vars:", "procedures:\n  big(p):\n    - let x = 0\n    - if: p > 0\n      then:\n"
                        "        - x = 1\n      else:\n" + body + "player_vars:")
    text = text.replace("  - shuffle(pile)\n", "  - shuffle(pile)\n  - big(1)\n")
    return text.replace("      - active = next_player(active)\nscoring",
                        "      - big(2)\n      - active = next_player(active)\nscoring")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 4000])
    parser.add_argument("--kind", choices=sorted(STATEMENTS), default="if")
    args = parser.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RULEBOOK_NO_CACHE": "1"}
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            path = Path(folder) / f"long{n}.yaml"
            path.write_text(ruleset(n, args.kind), encoding="utf-8")
            start = time.perf_counter()
            # each size in a process of its own, so ru_maxrss of the children is that load's peak
            out = subprocess.run([sys.executable, "-c", "import resource, subprocess, sys; "
                                  "r = subprocess.run([sys.executable, '-m', 'interpreter.cli', 'validate', sys.argv[1]],"
                                  " capture_output=True, text=True); "
                                  "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
                                  "r.stdout.strip()[-80:] or r.stderr.strip()[-200:])", str(path)],
                                 env=env, capture_output=True, text=True)
            seconds = time.perf_counter() - start
            code, peak_kb, said = out.stdout.split(" ", 2)
            print(f"{n} {args.kind} statements ({path.stat().st_size / 1000:.0f} kB): {seconds:.1f} s, "
                  f"peak {int(peak_kb) / 1024:.0f} MB, exit {code}: {said.strip()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
