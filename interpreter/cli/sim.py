"""The simulation commands: ``simulate``, ``compare`` and ``tournament``."""
from __future__ import annotations

import argparse
import itertools
import json
import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from dsl.errors import ParameterError

from ..analysis import report, stats
from ..bots import make_bot
from ..analysis.match_log import write_logs
from ..analysis.simulation import RunSpec, compare, simulate


def add_run_arguments(parser) -> None:
    parser.add_argument("-n", "--games", type=positive_int, required=True, help="number of games")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help="processes to play on; the results are the same for any number")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")


def positive_int(text: str) -> int:
    """A whole number of at least 1, for options such as ``-n`` and ``--players``."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def progress_bar(visible: bool) -> Progress:
    columns = (TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    return Progress(*columns, console=Console(stderr=True), transient=True, disable=not visible)


def run_games(game, specs, args, label=None, logs=False):
    """Simulate with a progress bar; returns (summary, results)."""
    for seat, spec in enumerate(specs):
        make_bot(spec, seat, 0)  # a wrong spec fails here, before any game starts
    spec = RunSpec(game.path, dict(game.params), game.num_players, list(specs), args.seed, logs)
    with progress_bar(not args.json and sys.stderr.isatty()) as progress:
        task = progress.add_task(label or game.name, total=args.games)
        return simulate(game, spec, args.games, args.jobs, lambda n: progress.advance(task, n))


def public_summary(game, specs, args, summary) -> dict:
    head = {"game": game.name, "ruleset": game.path, "seed": args.seed, "seats": list(specs),
            "players": game.num_players, "params": game.params, "jobs": args.jobs}
    return {**head, **summary}


# ---- simulate -------------------------------------------------------------------------------------
def cmd_simulate(args, game, specs) -> int:
    summary, results = run_games(game, specs, args, logs=bool(args.log))
    if args.log:
        write_logs(args.log, [r.log for r in results])
    result = public_summary(game, specs, args, summary)
    if args.report:
        report.write(args.report, game, result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print_simulation(Console(highlight=False), game, result)
        if args.report:
            print(f"report written to {args.report}")
    return 0


def print_simulation(console: Console, game, result: dict) -> None:
    first, last = result["seed"], result["seed"] + result["games"] - 1
    console.print(Text(f"{game.name}: {result['games']} games, seeds {first}..{last}", style="bold"))
    table = Table(box=None, padding=(0, 1))
    for name, justify in (("seat", "right"), ("player", "left"), ("bot", "left"), ("wins", "right"),
                          ("win rate", "right"), ("95% CI", "right"), ("mean score", "right"),
                          ("sd", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for seat, spec in enumerate(result["seats"]):
        lo, hi = result["win_rate_ci95"][seat]
        table.add_row(str(seat + 1), Text(game.player_names[seat]), Text(spec), str(result["wins"][seat]),
                      f"{100 * result['win_rates'][seat]:.1f}%", f"{100 * lo:.1f}–{100 * hi:.1f}%",
                      f"{result['mean_scores'][seat]:.2f}", f"{result['score_stdev'][seat]:.2f}")
    console.print(table)
    console.print(f"shared wins: {result['shared_wins']} (a shared win counts for each sharer)")
    console.print(f"decisions per game: mean {result['mean_decisions']:.1f}, sd {result['decisions_stdev']:.1f}, "
                  f"{result['min_decisions']}..{result['max_decisions']} · "
                  f"{result['games_per_second'] or 0:.1f} games/s on {result['jobs']} process(es)")
    console.print(Text("\ngame length (decisions)", style="bold"))
    for line in stats.histogram(result["lengths"], bins=8):
        console.print(Text(line))
    for seat in range(len(result["seats"])):
        console.print(Text(f"\nscores of seat {seat + 1} ({game.player_names[seat]})", style="bold"))
        for line in stats.histogram(result["scores"][seat], bins=8):
            console.print(Text(line))


# ---- compare --------------------------------------------------------------------------------------
def cmd_compare(args, base_game, variant_game, specs) -> int:
    if base_game.num_players != variant_game.num_players:
        raise ParameterError("the two rulesets are played with different numbers of players",
                             hint="give --players")
    base, _ = run_games(base_game, specs, args, f"base: {base_game.name}")
    variant, _ = run_games(variant_game, specs, args, f"variant: {variant_game.name}")
    verdict = compare(base, variant)
    result = {"base": public_summary(base_game, specs, args, base),
              "variant": public_summary(variant_game, specs, args, variant), "comparison": verdict}
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    console = Console(highlight=False)
    console.print(Text(f"{args.games} games each, same seeds ({args.seed}..{args.seed + args.games - 1}) "
                       f"and bots ({', '.join(specs)})", style="bold"))
    console.print(Text(f"base:    {base_game.name} ({base_game.path})"))
    console.print(Text(f"variant: {variant_game.name} ({variant_game.path})"))
    table = Table(box=None, padding=(0, 1))
    for name, justify in (("measure", "left"), ("base", "right"), ("variant", "right"), ("p", "right"),
                          ("sig.", "left"), ("test", "left")):
        table.add_column(name, justify=justify, no_wrap=True)
    for row in verdict["rows"]:
        as_rate = row["measure"].startswith("win rate")
        fmt = (lambda v: f"{100 * v:.1f}%") if as_rate else (lambda v: f"{v:.2f}")
        mark = Text("*", style="bold red") if row["significant"] else Text("")
        table.add_row(row["measure"], fmt(row["base"]), fmt(row["variant"]), f"{row['p']:.4f}", mark, row["test"])
    console.print(table)
    console.print("significant: p < 0.05, two-sided (z-test for win rates, Welch's t-test for means); "
                  "score spread is best minus worst score of a game.  With many rows, expect one false "
                  "alarm in twenty by chance.")
    return 0


# ---- tournament -----------------------------------------------------------------------------------
def seat_orders(bots: list, players: int) -> list:
    """Every seat order of the bots: each arrangement of distinct bots, or, with fewer bots than
    seats, every assignment that uses at least two of them."""
    if len(bots) >= players:
        return [list(order) for order in itertools.permutations(bots, players)]
    return [list(order) for order in itertools.product(bots, repeat=players) if len(set(order)) > 1]


def cmd_tournament(args, game, bots: list) -> int:
    if len(set(bots)) < 2:
        raise ParameterError("a tournament needs at least two different bots", hint="e.g. --bots mcts,random")
    totals = {bot: {"games": 0, "wins": 0.0, "score": 0.0} for bot in bots}
    orders = seat_orders(bots, game.num_players)
    rows = []
    for order in orders:
        summary, results = run_games(game, order, args, " vs ".join(order))
        rows.append({"seats": order, "win_rates": summary["win_rates"], "mean_scores": summary["mean_scores"]})
        for seat, bot in enumerate(order):
            totals[bot]["games"] += summary["games"]
            totals[bot]["wins"] += summary["win_shares"][seat]
            totals[bot]["score"] += sum(summary["scores"][seat])
    standings = []
    for bot, t in totals.items():
        lo, hi = stats.wilson_interval(t["wins"], t["games"])
        standings.append({"bot": bot, "games": t["games"], "win_share": round(t["wins"] / t["games"], 4),
                          "ci95": [round(lo, 4), round(hi, 4)], "mean_score": round(t["score"] / t["games"], 3)})
    standings.sort(key=lambda s: -s["win_share"])
    if args.json:
        print(json.dumps({"game": game.name, "players": game.num_players, "games_per_order": args.games,
                          "orders": rows, "standings": standings}, ensure_ascii=False))
        return 0
    console = Console(highlight=False)
    console.print(Text(f"{game.name}: {len(orders)} seat orders × {args.games} games", style="bold"))
    table = Table(box=None, padding=(0, 2))
    for name, justify in (("bot", "left"), ("seat-games", "right"), ("win share", "right"),
                          ("95% interval", "right"), ("mean score", "right")):
        table.add_column(name, justify=justify)
    for s in standings:
        table.add_row(Text(s["bot"]), str(s["games"]), f"{100 * s['win_share']:.1f}%",
                      f"{100 * s['ci95'][0]:.1f}–{100 * s['ci95'][1]:.1f}%", f"{s['mean_score']:.2f}")
    console.print(table)
    detail = Table(box=None, padding=(0, 2), title="by seat order (win rate per seat)")
    detail.add_column("seats")
    detail.add_column("win rates")
    for row in rows:
        detail.add_row(Text(", ".join(row["seats"])), " / ".join(f"{100 * w:.0f}%" for w in row["win_rates"]))
    console.print(detail)
    console.print("A shared win counts as a share (1/number of winners).")
    return 0
