#!/usr/bin/env python3
"""Time and peak memory of loading rulesets of about 1 MB, of many shapes (issue 35).

Issue 35 asks that *any* 1 MB ruleset load in under 10 s and 500 MB, where loading ends either with
a loaded game or with a located error.  Each shape below grows the minimal test ruleset
(tests/broken/_minimal.yaml) by repeating one unit (a component kind, a zone, a statement, an option
...) until the file reaches the size asked for; each file is loaded uncached
(``load_game(path, cache=False)``) in a child forked from a process that has imported the engine
and nothing else, with a wall-clock guard and an address-space limit so a shape gone wrong cannot
take the machine down.  The peak resident memory includes the imported engine (the parent's, shown
in the first line).

    nice -n 10 python benchmarks/big_rulesets.py [--kb 1000] [--shapes kinds zones ...] [--slowest 8]

prints every shape's size, wall and CPU time, memory and outcome (``loaded`` or the error's class and message),
then the slowest and the largest, and the number over 10 s or 500 MB (exit 1 if any).  The bound is
on CPU seconds, which a quiet machine's wall clock equals (the load is one thread, reading one
file); on a shared machine the wall clock also counts the time other programs held the cores.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import RulebookError, load_game  # noqa: E402

MINIMAL = (ROOT / "tests" / "broken" / "_minimal.yaml").read_text(encoding="utf-8")
SECONDS = 10.0
MEGABYTES = 500
GUARD_SECONDS = 120  # a child still loading after this is stopped and reported
GUARD_BYTES = 3 * 1024 ** 3  # the child's address space: a runaway shape fails with MemoryError


def grown(anchor: str, unit, size: int, after: bool = True, text: str = MINIMAL) -> str:
    """``text`` with ``unit(i)`` for i = 0, 1, ... inserted at ``anchor`` (after it, or before it)
    until the whole is about ``size`` bytes."""
    parts, total, i = [], len(text), 0
    while total < size:
        part = unit(i)
        parts.append(part)
        total += len(part.encode("utf-8"))
        i += 1
    block = "".join(parts)
    assert anchor in text, anchor
    return text.replace(anchor, anchor + block if after else block + anchor, 1)


def with_procedure(body: str, calls: str = "  - shuffle(pile)\n  - big(1)\n") -> str:
    """The minimal ruleset with a procedure ``big(p)`` holding ``body`` (statement lines indented by 4),
    called from the setup."""
    text = MINIMAL.replace("player_vars:", "procedures:\n  big(p):\n    - let x = 0\n" + body + "player_vars:")
    return text.replace("  - shuffle(pile)\n", calls, 1)


def nested_blocks(depth: int) -> str:
    lines = []
    for level in range(depth):
        pad = "    " + "  " * (2 * level)
        lines.append(f"{pad}- if: p > {level}\n{pad}  then:\n")
    lines.append("    " + "  " * (2 * depth) + "- x = 1\n")
    return "".join(lines)


def _big_enumeration(size: int) -> str:
    values = []
    total = len(MINIMAL)
    while total < size:
        values.append(f"v{len(values)}")
        total += len(values[-1]) + 2
    return MINIMAL.replace("attributes: {value: int}", "attributes: {value: int, colour: [" + ", ".join(values) + "]}")\
        .replace("{value: 1, count: 4}", "{value: 1, count: 4, colour: v0}").replace("{value: 2, count: 4}",
                                                                                      "{value: 2, count: 4, colour: v1}")


def _many_components() -> str:
    """Nine rows of 10,000 cards: 90,008 components, under the bound of 100,000."""
    rows = "".join(f"      - {{value: {i}, count: 10000}}\n" for i in range(9))
    return MINIMAL.replace("      - {value: 2, count: 4}\n", "      - {value: 2, count: 4}\n" + rows)


def _aliases(size: int) -> str:
    anchor = "  s0: &b {initial: [1, 2, 3, 4, 5, 6, 7, 8], type: list}\n"
    text = MINIMAL.replace("  score: 0\n", "  score: 0\n" + anchor)
    return grown(anchor, lambda i: f"  s{i + 1}: *b\n", size, text=text)


def _deep_expression(i: int) -> str:
    depth = 60
    return f"    - x = {'(' * depth}x + {i}{')' * depth}\n"


def _wide_expression(i: int) -> str:
    return f"    - x = x + size([{', '.join(str(j) for j in range(i, i + 2000))}]) + max({', '.join(['x'] * 500)})\n"


def _comprehension(i: int) -> str:
    nest = "a0 + a7"
    for j in range(8):
        nest = f"sum({nest} for a{j} in range(0, {i % 5 + 2}) if a{j} != {j})"
    return f"    - x = x + {nest}\n"


def _option(i: int) -> str:
    return (f"            o{i}:\n              text: \"option {i} plays {{card}}\"\n"
            f"              params: {{card: active.hand}}\n              effects:\n"
            f"                - move(card, table)\n                - active.score += {i}\n")


SHAPES = {
    # declarations
    "kinds": lambda size: grown("components:\n", lambda i: f"  k{i}:\n    attributes: {{v: int}}\n    in: pile\n"
                                f"    table: [{{v: {i}, count: 1}}]\n", size),
    "table-rows": lambda size: grown("      - {value: 2, count: 4}\n",
                                     lambda i: f"      - {{value: {i}, count: 1}}\n", size),
    "counted-rows": lambda size: grown("      - {value: 2, count: 4}\n",
                                       lambda i: f"      - {{value: {i}, count: 10000}}\n", size),
    # few bytes, much game: the most components a game may have, and a zone for each of them
    "most-components": lambda size: _many_components(),
    "zones-per-component": lambda size: _many_components().replace("zones:\n", "zones:\n  under: {per: card}\n"),
    "zones-of-16-seats": lambda size: grown("zones:\n", lambda i: f"  z{i}: {{per: player}}\n", size,
                                            text=MINIMAL.replace("players: {min: 2, max: 3}", "players: {min: 16, max: 16}")),
    "zones": lambda size: grown("zones:\n", lambda i: f"  z{i}: {{visibility: all}}\n", size),
    "player-zones": lambda size: grown("zones:\n", lambda i: f"  z{i}: {{per: player, visibility: owner}}\n", size),
    "vars": lambda size: grown("player_vars:", lambda i: f"vars:\n" if i == 0 else f"  v{i}: {i}\n", size,
                               after=False),
    "player-vars": lambda size: grown("  score: 0\n", lambda i: f"  pv{i}: {i}\n", size),
    "params": lambda size: grown("params:\n", lambda i: f"  p{i}: {{default: 1, min: 0, max: 5}}\n", size),
    "enumeration": _big_enumeration,
    "aliases": _aliases,
    "long-list-initial": lambda size: MINIMAL.replace("  score: 0\n", "  score: 0\n  xs: {type: list, initial: ["
                                                      + ", ".join(str(i) for i in range(size // 7)) + "]}\n"),
    "player-names": lambda size: MINIMAL.replace("players: {min: 2, max: 3}", "players: {min: 2, max: 3}\n"
                                                 "  player_names: [" + ", ".join(f"name{i}" for i in range(size // 10))
                                                 + "]"),
    "long-strings": lambda size: grown("  score: 0\n", lambda i: f"  t{i}: \"{'x' * 90_000}\"\n", size),
    "long-names": lambda size: grown("  score: 0\n", lambda i: f"  {'n' * 1000}{i}: 0\n", size),
    # rules
    "procedures": lambda size: grown("procedures:\n", lambda i: f"  pr{i}(p):\n    - active.score += p + {i}\n",
                                     size, text=with_procedure("")),
    "called-procedures": lambda size: grown("  - big(1)\n", lambda i: f"  - pr{i}(1)\n", size,
                                            text=grown("procedures:\n", lambda i: f"  pr{i}(p):\n    - active.score"
                                                       f" += p + {i}\n", size // 2, text=with_procedure(""))),
    "defines": lambda size: grown("player_vars:", lambda i: "define:\n" if i == 0 else f"  d{i}(y): \"y + {i}\"\n",
                                  size, after=False),
    # expansion: files within the bounds on expressions, so that they reach the code generator
    "used-define": lambda size: grown("  - big(1)\n", lambda i: f"  - active.score += d(active.score + {i})\n",
                                      min(size, 200_000), text=with_procedure("").replace("player_vars:", "define:\n  d(y): \"size(["
                                                                           + ", ".join(["y"] * 5000) + "])\"\n"
                                                                           "player_vars:")),
    "called-procedure": lambda size: grown("  - big(1)\n", lambda i: f"  - big({i})\n", min(size, 200_000),
                                           text=with_procedure("".join(f"    - x = x + p * {i}\n"
                                                                       for i in range(2000)))),
    "triggers": lambda size: grown("scoring:", lambda i: "triggers:\n" if i == 0 else
                                   f"  - name: t{i}\n    on: enter(table)\n    when: active.score > {i}\n"
                                   "    effects:\n      - active.score += 1\n", size, after=False),
    "long-flow": lambda size: grown("flow:\n", lambda i: f"  - active.score += {i}\n", size),
    "long-setup": lambda size: grown("setup:\n", lambda i: f"  - active.score += {i}\n", size),
    "long-else": lambda size: grown("      else:\n", lambda i: f"        - if: p > {i}\n          then:\n"
                                    "            - active.score += 1\n", size,
                                    text=with_procedure("    - if: p > 0\n      then:\n        - x = 1\n"
                                                        "      else:\n")),
    "let-chain": lambda size: grown("    - let x = 0\n", lambda i: f"    - let y{i} = x + {i}\n", size,
                                    text=with_procedure("")),
    "deep-blocks": lambda size: grown("    - let x = 0\n", lambda i: nested_blocks(30), size, text=with_procedure("")),
    "deep-expressions": lambda size: grown("    - let x = 0\n", _deep_expression, size, text=with_procedure("")),
    "wide-expressions": lambda size: grown("    - let x = 0\n", _wide_expression, size, text=with_procedure("")),
    "comprehensions": lambda size: grown("    - let x = 0\n", _comprehension, size, text=with_procedure("")),
    "long-condition": lambda size: MINIMAL.replace("  - while: not empty(pile)", "  - while: not empty(pile) and "
                                                   "active.score not in [" + ", ".join(str(i) for i in range(size // 7))
                                                   + "]"),
    "options": lambda size: grown("          options:\n", _option, size),
    "chooses": lambda size: grown("      - active = next_player(active)\nscoring", lambda i: f"      - choose:\n          options:\n            a{i}:\n"
                                  f"              effects: [\"active.score += {i}\"]\n            b{i}:\n", size, after=False),
    "long-texts": lambda size: grown("          options:\n", lambda i: f"            o{i}:\n              text: \""
                                     + "{card} " * 5000 + "\"\n              params: {card: active.hand}\n", size),
    "logs": lambda size: grown("                - card.played = true\n", lambda i: "                - log(\"{player}"
                               f" plays {{component}} {i}\", player=active, component=card)\n", size),
}


def measure(text: str) -> tuple:
    """(wall seconds, CPU seconds, megabytes of peak resident memory, outcome) of loading ``text`` in a child."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.yaml"
        path.write_text(text, encoding="utf-8")
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            resource.setrlimit(resource.RLIMIT_AS, (GUARD_BYTES, GUARD_BYTES))
            start, cpu = time.perf_counter(), time.process_time()
            try:
                load_game(path, cache=False)
                outcome = "loaded"
            except RulebookError as exc:
                first = exc.errors[0] if getattr(exc, "errors", None) else exc
                where = f" at line {first.position.line}" if getattr(first, "position", None) else ""
                outcome = f"{type(first).__name__}{where}: {first.message}"[:160]
            except BaseException as exc:  # noqa: BLE001 - reported, not hidden
                outcome = f"TRACEBACK {type(exc).__name__}: {exc}"[:160]
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            os.write(write, json.dumps([seconds, cpu, peak / 1024, outcome]).encode())
            os._exit(0)
        os.close(write)
        deadline = time.monotonic() + GUARD_SECONDS
        while os.waitpid(pid, os.WNOHANG) == (0, 0):
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
            time.sleep(0.05)
        data = os.read(read, 65536)
        os.close(read)
    return tuple(json.loads(data)) if data else (float("nan"), float("nan"), float("nan"), "child died or stopped")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=1000, help="the size of each ruleset in kB (default 1000)")
    parser.add_argument("--shapes", nargs="*", choices=sorted(SHAPES), default=sorted(SHAPES))
    parser.add_argument("--slowest", type=int, default=8, help="how many of the slowest and largest to list")
    args = parser.parse_args(argv)
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{len(args.shapes)} shapes of about {args.kb} kB, each loaded uncached in a child of a process that "
          f"holds {parent:.0f} MB", flush=True)
    results = []
    for name in args.shapes:
        text = SHAPES[name](args.kb * 1000)
        seconds, cpu, megabytes, outcome = measure(text)
        results.append((name, len(text.encode("utf-8")), seconds, cpu, megabytes, outcome))
        print(f"  {name:18} {results[-1][1] / 1000:6.0f} kB {seconds:6.2f} s {cpu:6.2f} s cpu {megabytes:5.0f} MB  "
              f"{outcome}", flush=True)
    for title, key in (("slowest", 2), ("largest", 4)):
        print(f"{title}:")
        for name, size, seconds, cpu, megabytes, outcome in sorted(results, key=lambda r: -r[key])[:args.slowest]:
            print(f"  {seconds:6.2f} s {cpu:6.2f} s cpu {megabytes:5.0f} MB  {name}")
    over = [r for r in results if not (r[3] < SECONDS and r[4] < MEGABYTES)]
    broken = [r for r in results if r[5].startswith(("TRACEBACK", "child"))]
    print(f"over {SECONDS:g} CPU seconds or {MEGABYTES} MB: {len(over)} ({', '.join(r[0] for r in over) or 'none'}); "
          f"without a clean ending: {len(broken)} ({', '.join(r[0] for r in broken) or 'none'})")
    return 1 if over or broken else 0


if __name__ == "__main__":
    sys.exit(main())
