#!/usr/bin/env python3
"""Does every shipped ruleset play with a bot as it does with ``flat``?  A few seeded games of each
ruleset and variant at its default player count, every seat one bot (``flat``, then ``lookahead``:
the bots' own defaults, not the ruleset's ``bots: default:``), in this one process, one run at a
time.  One row per ruleset: CPU seconds per game for each bot, and what went wrong only with the
second: errors, games cut off by the decision cap, sanity warnings (see interpreter/analysis/sanity.py)
that the first bot's games did not give.

    nice -n 10 python benchmarks/lookahead_sweep.py                 # every ruleset, 6 games per bot
    nice -n 10 python benchmarks/lookahead_sweep.py -n 10 --rulesets la-famiglia gangster
    nice -n 10 python benchmarks/lookahead_sweep.py --bots flat,mcts:iterations=200 --json

Times are CPU seconds of this process (``time.process_time``), so a loaded machine slows them less
than a wall clock would; a handful of games gives a rough figure, not a measurement to quote as exact.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dsl.errors import RulebookError  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.analysis.simulation import RunSpec, run, summarize  # noqa: E402
from interpreter.bots import MAX_DECISIONS, split_specs  # noqa: E402

FOLDERS = ("rulesets", "rulesets/classic", "rulesets/variants", "rulesets/examples")


def ruleset_files(names) -> list:
    """Every shipped ruleset (the top folder, classic, variants, examples), or those named."""
    files = [path for folder in FOLDERS for path in sorted((ROOT / folder).glob("*.yaml"))]
    if not names:
        return files
    return [path for path in files if path.stem in names or str(path.relative_to(ROOT)) in names]


def play(game, bot: str, games: int, seed: int, max_decisions: int) -> dict:
    """``games`` games with ``bot`` at every seat: CPU seconds per game, games cut off, warnings."""
    spec = RunSpec(game.path, dict(game.params), game.num_players, [bot] * game.num_players, seed,
                   max_decisions=max_decisions)
    warm_up = RunSpec(spec.ruleset, spec.params, spec.players, spec.seats, seed, max_decisions=2)
    try:
        run(game, warm_up, 1)  # untimed: whatever is built on first use (the native kernel) is built here
        started = time.process_time()
        results = run(game, spec, games)
    except RulebookError as exc:
        return {"error": f"{exc.stage}: {exc.message}"}
    except Exception as exc:  # a fault of a bot or of the engine: the sweep goes on and names it
        return {"error": f"{type(exc).__name__}: {exc}"}
    seconds = time.process_time() - started
    summary = summarize(results, game.num_players, seconds, spec.seats, game.ruleset.best)
    return {"seconds_per_game": round(seconds / games, 3), "unfinished": summary["unfinished"],
            "mean_decisions": summary["mean_decisions"], "warnings": summary["sanity"]["warnings"]}


def row(path: Path, bots: list, games: int, seed: int, max_decisions: int) -> dict:
    name = str(path.relative_to(ROOT / "rulesets").with_suffix(""))
    try:
        game = load_game(path)
    except RulebookError as exc:
        return {"ruleset": name, "error": str(exc)}
    declared = game.ruleset.default_bot[0] if game.ruleset.default_bot else None
    runs = {bot: play(game, bot, games, seed, max_decisions) for bot in bots}
    return {"ruleset": name, "players": game.num_players, "games": games, "declared": declared, "runs": runs,
            "only_second": _only_second(runs[bots[0]], runs[bots[-1]])}


def _only_second(first: dict, second: dict) -> list:
    """What the second bot's run gave that the first's did not: its error, cut-off games, warnings
    (compared by their first words, since the figures in a warning differ from run to run)."""
    if "error" in second:
        return [second["error"]]
    found = [f"{second['unfinished']} cut off"] if second["unfinished"] > first.get("unfinished", 0) else []
    seen = {_gist(w) for w in first.get("warnings", [])}
    return found + [w for w in second["warnings"] if _gist(w) not in seen]


def _gist(warning: str) -> str:
    return " ".join(word for word in warning.split()[:12] if not any(c.isdigit() for c in word))


def _seconds(run_: dict) -> str:
    return "error" if "error" in run_ else f"{run_['seconds_per_game']:.2f}"


def print_table(rows: list, bots: list) -> None:
    head = ["ruleset", "players", "games"] + [f"s/game {bot}" for bot in bots] + [f"only with {bots[-1]}"]
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for r in rows:
        if "runs" not in r:
            print(f"{r['ruleset']} | | | " + " | " * (len(bots) - 1) + r["error"])
            continue
        extra = "; ".join(w[:160] for w in r["only_second"]) or "none"
        if r["declared"]:
            extra += f" (declares {r['declared']})"
        cells = [r["ruleset"], str(r["players"]), str(r["games"])] + [_seconds(r["runs"][b]) for b in bots]
        print(" | ".join(cells + [extra]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--games", type=int, default=6, help="games per ruleset and bot (default 6)")
    parser.add_argument("--bots", default="flat,lookahead", help="the bots compared, the last against the first")
    parser.add_argument("--rulesets", nargs="*", help="names (la-famiglia) or paths (rulesets/classic/...)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-decisions", type=int, default=MAX_DECISIONS)
    parser.add_argument("--json", action="store_true", help="one JSON object per ruleset, one a line")
    args = parser.parse_args(argv)
    bots = split_specs(args.bots)
    rows = []
    for path in ruleset_files(args.rulesets):
        rows.append(row(path, bots, args.games, args.seed, args.max_decisions))
        if args.json:
            print(json.dumps(rows[-1]), flush=True)
        else:
            print(f"  {rows[-1]['ruleset']} done", file=sys.stderr, flush=True)
    if not args.json:
        print_table(rows, bots)
    return 0


if __name__ == "__main__":
    sys.exit(main())
