"""The ``sweep`` command: simulate every value of one or two parameters with the same seeds and bots."""
from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..analysis import display, report, sides, strength, sweep
from ..analysis.simulation import simulate
from ..game import load_game
from . import strength as cli_strength
from .progress import progress
from .runs import check_specs, executor_for, output_console, row_texts, run_spec
from .sim import engine_fields


def cmd_sweep(args, seat_specs) -> int:
    fixed, names, points = sweep.plan(args.settings)
    games = [load_game(args.game, params={**fixed, **point}, players=args.players) for point in points]
    first = games[0]
    specs = seat_specs(args.seats, first)
    check_specs(specs)
    strong = cli_strength.strong_seats(args, specs)
    if args.report:
        report.check(args.report, formats=(".html", ".htm", ".png"))
    rows, checks, shorts = [], [], []
    engine = engine_fields(args, first, run_spec(first, specs, args))
    with executor_for(args) as executor, progress(args) as bar:
        tick = bar.task(f"{first.name}: {len(points)} settings", len(points) * args.games)
        for point, game in zip(points, games):
            summary, results = simulate(game, run_spec(game, specs, args), args.games, executor, tick)
            rows.append(sweep.point_summary({n: game.params[n] for n in names}, summary, game.num_players))
            if strong:
                stronger = cli_strength.play_strong(game, strong, args, args.games, executor, bar)
                params = rows[-1]["params"]
                checks.append((params, strength.seat_check(results, stronger, game.num_players, [1])[0]))
                shorts.append(({"label": strength.setting_label(params), "params": params},
                               strength.short_check(results, stronger, game.num_players)))
    sweep.adjust(rows)
    result = {"game": first.name, "ruleset": first.path, "players": first.num_players, "seats": specs,
              "seed": args.seed, "games_per_point": args.games, "swept": names,
              "fixed": {k: v for k, v in first.params.items() if k not in names}, "points": rows, **engine}
    if strong:
        result["strength_check"] = cli_strength.report(specs, strong, strength.across_points(checks),
                                                       short=strength.short_across(shorts))
    if args.report:
        report.write_sweep(args.report, first, result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print_sweep(output_console(), first, result)
    if strong:
        cli_strength.print_check(output_console(), result["strength_check"], "sweep")
    if args.report:
        print(f"report written to {args.report}")
    return 0


def print_sweep(console: Console, game, result: dict) -> None:
    names, players = result["swept"], result["players"]
    console.print(Text(f"{game.name}: {len(result['points'])} settings × {result['games_per_point']} games, "
                       f"seeds {result['seed']}..{result['seed'] + result['games_per_point'] - 1}, "
                       f"bots {display.bots(result['seats'])}", style="bold"))
    table = Table(box=None, padding=(0, 1))
    for name in names:
        table.add_column(Text(name), justify="right")
    for seat in range(players):
        table.add_column(f"{game.player_names[seat]} win %", justify="right")
    for header in ("seat 1 vs fair", "p", "Holm p", "", "detectable", "decisions", "mean score", "short", "shared"):
        table.add_column(header, justify="left" if header == "" else "right", no_wrap=True)
    for row in result["points"]:
        cells = [json.dumps(row["params"][n]) for n in names]
        for share, (lo, hi) in zip(row["win_share"], row["win_share_ci95"]):
            cells.append(f"{100 * share:.0f} ({100 * lo:.0f}–{100 * hi:.0f})")
        lo, hi = row["decisions_ci95"]
        mean_score = sum(row["mean_scores"]) / players
        texts = row_texts(row["first_seat"])
        cells += [f"{texts['change']} ({texts['ci95']})", texts["p"], texts["p_holm"], Text(texts["star"], style="bold red"),
                  texts["detectable"], f"{row['mean_decisions']:.1f} ({lo:.0f}–{hi:.0f})",
                  f"{mean_score:.1f}", f"{100 * row['short_rate']:.0f}%", f"{100 * row['shared_rate']:.0f}%"]
        table.add_row(*cells)
    console.print(table)
    console.print(f"win %: win share with its 95% Wilson interval, a win shared by k counting 1/k (fair share "
                  f"{100 / players:.0f}%); seat 1 vs fair: the first seat's share minus the fair share in "
                  "percentage points, with the interval of the score test whose p follows; Holm p: corrected "
                  f"for the {len(result['points'])} settings tested; *: Holm p < 0.05; detectable: the smallest "
                  "advantage these games find with 80% power, where nothing was found; decisions: mean with "
                  "its 95% t interval; short: games that ended within a few decisions; fixed: " +
                  (", ".join(f"{k}={json.dumps(v)}" for k, v in result["fixed"].items()) or "nothing"))
    for row in result["points"]:
        where = ", ".join(f"{k}={json.dumps(v)}" for k, v in row["params"].items())
        for line in sides.lines(row.get("sides") or {}):
            console.print(Text(f"{where}: {line}"))
    warned = [(row, w) for row in result["points"] for w in row["warnings"]]
    for row, warning in warned[:3]:
        where = ", ".join(f"{k}={json.dumps(v)}" for k, v in row["params"].items())
        console.print(Text(f"warning ({where}): {warning}", style="yellow"))
    if len(warned) > 3:
        console.print(Text(f"... and {len(warned) - 3} more warnings (see --json)", style="yellow"))
