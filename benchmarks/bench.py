#!/usr/bin/env python3
"""Speed of the engine: random playouts of every ruleset, clone() and JSON round trips.

    python benchmarks/bench.py                       # every ruleset in rulesets/, every player count
    python benchmarks/bench.py --rulesets la-famiglia --seconds 10
    python benchmarks/bench.py --json > bench.json   # machine-readable

For each ruleset and player count it plays seeded random games (seeds 0, 1, 2, ...; each decision a
uniformly random legal action) in this one process and thread, until the CPU-time budget is spent (at
least one game, at most --max-games), then times clone() and a JSON round trip
(game.state_from_json(state.to_json())) on states sampled from games of the same seeds.  See
benchmarks/README.md for what the figures mean.
"""
from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import RulebookError, load_game  # noqa: E402
from interpreter.bots.mcts import Search  # noqa: E402

TARGETS = {"la-famiglia": 10_000}  # decisions per second this engine aims at, per ruleset
SAMPLE_STATES = 200  # states on which clone() and the JSON round trip are timed


def ruleset_paths(names, variants: bool) -> list:
    folder = ROOT / "rulesets"
    paths = sorted(folder.glob("*.yaml")) + (sorted((folder / "variants").glob("*.yaml")) if variants else [])
    if not names:
        return paths
    chosen = []
    for name in names:
        matches = [p for p in paths + sorted((folder / "variants").glob("*.yaml")) if p.stem == name]
        if not matches and Path(name).is_file():
            matches = [Path(name)]
        if not matches:
            known = ", ".join(p.stem for p in paths)
            raise SystemExit(f"bench: no ruleset '{name}' (known: {known})")
        chosen.append(matches[0])
    return chosen


def player_counts(path: Path, only) -> list:
    game = load_game(path)
    counts = range(game.ruleset.min_players, game.ruleset.max_players + 1)
    return [n for n in counts if only is None or n in only] or ([] if only else [game.num_players])


def play(game, seed: int, on_state=None) -> int:
    """One random game; returns the number of decisions.  ``on_state(state, i)`` sees each decision."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    decisions = 0
    while not state.is_terminal():
        if on_state is not None:
            on_state(state, decisions)
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        decisions += 1
    return decisions


def measure_playouts(game, seconds: float, max_games: int, first_seed: int) -> dict:
    """Random playouts for ``seconds`` of CPU time.  Rates are per CPU second of this process (one
    thread), so other load on the machine does not lower them; wall-clock time is reported too."""
    games = decisions = 0
    lengths = []
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    while games < max_games and (games == 0 or time.process_time() - cpu < seconds):
        n = play(game, first_seed + games)
        lengths.append(n)
        decisions += n
        games += 1
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return {"games": games, "decisions": decisions, "cpu_seconds": round(cpu, 3), "wall_seconds": round(wall, 3),
            "playouts_per_s": round(games / cpu, 2), "decisions_per_s": round(decisions / cpu),
            "decisions_per_game": round(statistics.mean(lengths), 1),
            "seeds": [first_seed, first_seed + games - 1]}


def sample_states(game, mean_length: float, first_seed: int) -> list:
    """About SAMPLE_STATES states spread over the games of the first seeds (mid-game states)."""
    every = max(1, int(mean_length * 5 / SAMPLE_STATES))
    states: list = []
    seed = first_seed
    while len(states) < SAMPLE_STATES and seed < first_seed + 50:
        play(game, seed, lambda s, i: states.append(s.clone()) if i % every == 0 else None)
        seed += 1
    return states[:SAMPLE_STATES]


def time_per_state(states: list, operation, min_seconds: float = 0.2) -> float:
    """Mean CPU microseconds of ``operation(state)`` over the sample (repeated for ``min_seconds``)."""
    rounds = 0
    start = time.process_time()
    while True:
        for s in states:
            operation(s)
        rounds += 1
        elapsed = time.process_time() - start
        if elapsed >= min_seconds:
            return elapsed / (rounds * len(states)) * 1e6


def bench_one(path: Path, players: int, args) -> dict:
    row = {"ruleset": path.stem, "players": players}
    try:
        start = time.perf_counter()
        game = load_game(path, players=players)
        row["load_ms"] = round((time.perf_counter() - start) * 1000, 1)
        row.update(measure_playouts(game, args.seconds, args.max_games, args.first_seed))
        states = sample_states(game, row["decisions_per_game"], args.first_seed)
        row["states_sampled"] = len(states)
        if states:
            row["clone_us"] = round(time_per_state(states, lambda s: s.clone()), 1)
            row["to_json_us"] = round(time_per_state(states, lambda s: s.to_json()), 1)
            texts = {id(s): s.to_json() for s in states}
            row["from_json_us"] = round(time_per_state(states, lambda s: game.state_from_json(texts[id(s)])), 1)
            row["json_round_trip_us"] = round(row["to_json_us"] + row["from_json_us"], 1)
            row["json_bytes"] = round(statistics.mean(len(t) for t in texts.values()))
            row["mcts_iterations_per_s"] = measure_mcts(states, args.mcts_seconds)
        target = TARGETS.get(path.stem)
        if target is not None:
            row["target_decisions_per_s"] = target
            row["meets_target"] = row["decisions_per_s"] >= target
    except RulebookError as exc:
        row["error"] = str(exc)
    return row


def measure_mcts(states: list, seconds: float) -> float:
    """Iterations per CPU second of the mcts bot's search (default settings) from sampled states."""
    done, start = 0, time.process_time()
    for i, state in enumerate(states):
        if state.is_terminal() or time.process_time() - start > seconds:
            continue
        search = Search(state.current_player(), random.Random(i), iterations=20)
        search.best_action(state)
        done += search.iterations_done
    spent = time.process_time() - start
    return round(done / spent, 1) if spent else 0.0


def environment() -> dict:
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "machine": platform.machine(), "system": platform.system(), "cpus": os.cpu_count(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}


def print_table(rows: list, env: dict, args) -> None:
    print(f"rulebook benchmark: Python {env['python']} on {env['machine']} ({env['cpus']} CPUs), one "
          f"process; {args.seconds:g} CPU s of random playouts per row, seeds from {args.first_seed}; "
          f"rates per CPU second")
    head = (f"{'ruleset':<34} {'pl':>2} {'games':>6} {'decisions':>9} {'playouts/s':>10} {'decisions/s':>11} "
            f"{'dec/game':>8} {'clone µs':>9} {'json µs':>8} {'mcts it/s':>9}")
    print(head)
    print("-" * len(head))
    for r in rows:
        if "error" in r:
            print(f"{r['ruleset']:<34} {r['players']:>2}  error: {r['error']}")
            continue
        mark = ""
        if "meets_target" in r:
            mark = f"  (target {r['target_decisions_per_s']:,}: {'met' if r['meets_target'] else 'NOT met'})"
        print(f"{r['ruleset']:<34} {r['players']:>2} {r['games']:>6} {r['decisions']:>9} "
              f"{r['playouts_per_s']:>10.1f} {r['decisions_per_s']:>11,} {r['decisions_per_game']:>8.1f} "
              f"{r.get('clone_us', float('nan')):>9.1f} {r.get('json_round_trip_us', float('nan')):>8.1f} "
              f"{r.get('mcts_iterations_per_s', float('nan')):>9.1f}{mark}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rulesets", nargs="+", metavar="NAME",
                        help="rulesets to measure (names under rulesets/ or rulesets/variants/, or paths); "
                             "default: every rulesets/*.yaml")
    parser.add_argument("--variants", action="store_true", help="also every rulesets/variants/*.yaml")
    parser.add_argument("--players", type=int, nargs="+", metavar="N", help="only these player counts")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time budget of random playouts per ruleset and player count (default 3)")
    parser.add_argument("--max-games", type=int, default=100_000, help="stop after this many games")
    parser.add_argument("--mcts-seconds", type=float, default=2.0,
                        help="CPU seconds of mcts search per row (iterations per second)")
    parser.add_argument("--first-seed", type=int, default=0, help="games use seeds from this one up")
    parser.add_argument("--pin-cpu", type=int, metavar="CPU", help="run on this CPU only (Linux)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.pin_cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.pin_cpu})
    rows = []
    for path in ruleset_paths(args.rulesets, args.variants):
        try:
            counts = player_counts(path, set(args.players) if args.players else None)
        except RulebookError as exc:
            rows.append({"ruleset": path.stem, "players": None, "error": str(exc)})
            continue
        for players in counts:
            rows.append(bench_one(path, players, args))
            if not args.json:
                print(f"  measured {path.stem} with {players} players", file=sys.stderr)
    env = environment()
    if args.json:
        json.dump({"environment": env, "settings": {"seconds": args.seconds, "first_seed": args.first_seed,
                                                    "max_games": args.max_games}, "results": rows},
                  sys.stdout, indent=1, ensure_ascii=False)
        print()
    else:
        print_table(rows, env, args)
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
