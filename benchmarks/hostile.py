"""Time and memory of every hostile input of ``tests/hostile/*.json``, each in a fresh child process.

Issue 11 asks that each example give a located error in under a second and under 200 MB.  The test
suite checks the errors within generous limits (5 s, 500 MB, safe on a loaded machine); this script
measures them.  Each case runs in a process forked from one that has imported the engine and loaded
nothing else; its wall time and its peak resident memory (which includes the imported engine,
shown as the parent's) are reported.

    python benchmarks/hostile.py [--slowest 10]

prints the slowest and the largest cases and the number over one second or 200 MB (exit 1 if any).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from interpreter import RulebookError  # noqa: E402
from test_hostile import CASES, run_case  # noqa: E402

SECONDS = 1.0
MEGABYTES = 200


def measure(case: dict) -> tuple:
    """(seconds, megabytes of peak resident memory, outcome) of one case in a child."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        start = time.perf_counter()
        try:
            with tempfile.TemporaryDirectory() as folder:
                run_case(case, Path(folder))
            outcome = "no error"
        except RulebookError as exc:
            outcome = type(exc).__name__
        except BaseException as exc:  # noqa: BLE001 - reported, not hidden
            outcome = f"{type(exc).__name__}: {exc}"[:200]
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        os.write(write, json.dumps([seconds, peak / 1024, outcome]).encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return tuple(json.loads(data)) if data else (float("nan"), float("nan"), "child died")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slowest", type=int, default=10, help="how many of the slowest and largest to list")
    args = parser.parse_args(argv)
    results = [(case["name"], *measure(case)) for case in CASES]
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{len(results)} hostile cases, each in a fresh child process of one that holds {parent:.0f} MB")
    print("slowest:")
    for name, seconds, megabytes, outcome in sorted(results, key=lambda r: -r[1])[:args.slowest]:
        print(f"  {seconds:6.3f} s  {megabytes:7.1f} MB  {name} ({outcome})")
    print("largest:")
    for name, seconds, megabytes, outcome in sorted(results, key=lambda r: -r[2])[:args.slowest]:
        print(f"  {seconds:6.3f} s  {megabytes:7.1f} MB  {name} ({outcome})")
    over = [r for r in results if not (r[1] < SECONDS and r[2] < MEGABYTES)]
    wrong = [r for r in results if r[3] == "no error" or ":" in r[3]]
    print(f"over {SECONDS:g} s or {MEGABYTES} MB: {len(over)}; without a clean error: {len(wrong)}")
    for name, seconds, megabytes, outcome in over + wrong:
        print(f"  {name}: {seconds:.3f} s, {megabytes:.1f} MB, {outcome}")
    return 1 if over or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
