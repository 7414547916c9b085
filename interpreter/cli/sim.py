"""The simulation commands: ``simulate``, ``compare`` and ``tournament`` (``sweep`` is in sweep.py)."""
from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dsl.errors import ParameterError

from ..analysis import display, paired, report, sanity, sides, stats, strength
from ..analysis.match_log import write_logs
from ..analysis.native_runs import native_kernel, rollout_engine, simulate_native
from ..analysis.simulation import run, simulate, summarize
from ..analysis.tournament import seat_orders, standings
from . import strength as cli_strength
from .progress import progress
from .runs import check_specs, executor_for, output_console, public_summary, row_texts, run_spec


# ---- simulate -------------------------------------------------------------------------------------
def add_engine_argument(parser, whole_games: bool = False) -> None:
    games = ("native: games of random seats in the compiled kernel (the [native] extra and a C compiler) "
             "where it covers the game; ") if whole_games else "native: "
    parser.add_argument("--engine", choices=("auto", "native", "python"), default="auto",
                        help=f"{games}the rollouts of flat and mcts in the kernel where available, with the "
                             "same decisions; python: everything in Python; auto (default): native rollouts "
                             "where available, random seats in Python. native and python say which ran and why")


def engine_fields(args, game, spec, kernel=None, why="") -> dict:
    """Which engine ran (``engine``: the games; ``rollouts``: the search bots' playouts) and why not
    the kernel (``engine_fallback``); said on stderr when --engine was given."""
    bots, rollouts, reason = rollout_engine(game, spec)
    fields = {"engine": "native" if kernel is not None else "python"}
    if rollouts is not None:
        fields["rollouts"] = rollouts
    if why or reason:
        fields["engine_fallback"] = "; ".join(filter(None, (why, reason)))
    if getattr(args, "engine", "auto") != "auto" and not args.json:
        if kernel is not None:
            built = "from the cache" if kernel.cached else f"built in {kernel.build_seconds:.1f} s"
            said = f"native (kernel {built}; one process)"
        else:
            where = "the native kernel" if rollouts == "native" else "Python"
            said = "python" + (f" (games), rollouts of {', '.join(bots)} in {where}" if rollouts else "")
        print(f"engine: {said}" + (f" ({fields['engine_fallback']})" if "engine_fallback" in fields else ""),
              file=sys.stderr)
    return fields


def cmd_simulate(args, game, specs) -> int:
    check_specs(specs)
    strong = cli_strength.strong_seats(args, specs)
    if args.report:
        report.check(args.report)  # before the run: a wrong path or a missing extra fails now
    spec = run_spec(game, specs, args, bool(args.log))
    native = getattr(args, "engine", "auto") == "native"
    kernel, why = native_kernel(game, spec) if native else (None, "")
    engine = engine_fields(args, game, spec, kernel, why)
    with executor_for(args) as executor, progress(args) as bar:
        if kernel is not None:
            summary, results = simulate_native(kernel, spec, args.games, bar.task(game.name, args.games))
        else:
            summary, results = simulate(game, spec, args.games, executor, bar.task(game.name, args.games))
        summary.update(engine)
        if strong:
            stronger = cli_strength.play_strong(game, strong, args, args.games, executor, bar)
    if args.log:
        write_logs(args.log, [r.log for r in results])
    result = public_summary(game, specs, args, summary)
    if strong:
        result["strength_check"] = cli_strength.report(
            specs, strong, strength.seat_check(results, stronger, game.num_players),
            strength.length_check(results, stronger), strength.short_check(results, stronger, game.num_players))
    if args.report:
        report.write(args.report, game, result)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print_simulation(output_console(), game, result)
        if strong:
            cli_strength.print_check(output_console(), result["strength_check"], "simulate")
        if args.report:
            print(f"report written to {args.report}")
    return 0


def print_simulation(console: Console, game, result: dict) -> None:
    first, last = result["seed"], result["seed"] + result["games"] - 1
    console.print(Text(f"{game.name}: {result['games']} games, seeds {first}..{last}", style="bold"))
    table = Table(box=None, padding=(0, 1))
    for name, justify in (("seat", "right"), ("player", "left"), ("bot", "left"), ("wins", "right"),
                          ("win rate", "right"), ("win share", "right"), ("95% CI", "right"),
                          ("vs fair", "right"), ("p", "right"), ("Holm p", "right"), ("", "left"),
                          ("detectable", "right"), ("mean score", "right"), ("sd", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for seat, spec in enumerate(result["seats"]):
        row = result["seat_advantage"][seat]
        texts = row_texts(row)
        lo, hi = row["ci95_share"]
        table.add_row(str(seat + 1), Text(game.player_names[seat]), Text(spec), str(result["wins"][seat]),
                      f"{100 * result['win_rates'][seat]:.1f}%", f"{100 * row['share']:.1f}%",
                      f"{100 * lo:.1f}–{100 * hi:.1f}%", f"{texts['change']} ({texts['ci95']})", texts["p"],
                      texts["p_holm"], Text(texts["star"], style="bold red"), texts["detectable"],
                      f"{result['mean_scores'][seat]:.2f}", f"{result['score_stdev'][seat]:.2f}")
    console.print(table)
    console.print(f"win rate: games won, a shared win counting for each sharer; win share: a shared win "
                  f"counts 1/k, with its 95% Wilson interval; vs fair: the share minus the fair share "
                  f"{100 / len(result['seats']):.1f}% in points, tested by the score test the Wilson "
                  "interval inverts; Holm p: corrected for the seats tested together; *: Holm p < 0.05; "
                  "detectable: the smallest advantage these games find with 80% power, shown where "
                  "nothing was found.")
    console.print(f"decisions per game: mean {result['mean_decisions']:.1f}, sd {result['decisions_stdev']:.1f}, "
                  f"{result['min_decisions']}..{result['max_decisions']} · "
                  f"{result['games_per_second'] or 0:.1f} games/s ({result['backend']}, {result['jobs']} job(s))")
    for line in sides.lines(result.get("sides") or {}):
        console.print(Text(line))
    print_sanity(console, result["sanity"], result["games"])
    console.print(Text("\ngame length (decisions)", style="bold"))
    for line in stats.histogram(result["lengths"], bins=8):
        console.print(Text(line))
    for seat in range(len(result["seats"])):
        console.print(Text(f"\nscores of seat {seat + 1} ({game.player_names[seat]})", style="bold"))
        for line in stats.histogram(result["scores"][seat], bins=8):
            console.print(Text(line))


def print_sanity(console: Console, report_: dict, games: int) -> None:
    console.print(Text("\nsanity", style="bold"))
    for line in sanity.lines(report_, games):
        console.print(Text(f"  {line}"))
    for warning in report_["warnings"]:
        console.print(Text(f"  warning: {warning}", style="yellow"))


# ---- compare --------------------------------------------------------------------------------------
def cmd_compare(args, base_game, variant_game, specs) -> int:
    if base_game.num_players != variant_game.num_players:
        raise ParameterError("the two rulesets are played with different numbers of players",
                             hint="give --players")
    check_specs(specs)
    strong = cli_strength.strong_seats(args, specs)
    players = base_game.num_players
    measure = paired.check_measure(args.measure, players)
    batch = args.games or 200
    max_games = args.max_games if args.until_significant else batch
    if max_games < batch:
        raise ParameterError(f"--max-games {max_games} is below the batch of {batch} games",
                             hint="raise --max-games or lower -n")
    looks = paired.planned_looks(batch, max_games)
    threshold = paired.spending_threshold(looks) if args.until_significant else paired.ALPHA
    base_spec, variant_spec = run_spec(base_game, specs, args), run_spec(variant_game, specs, args)
    engine = engine_fields(args, base_game, base_spec)
    base, variant, stopped = [], [], None
    with executor_for(args) as executor, progress(args) as bar:
        tick = bar.task(f"{base_game.name} vs {variant_game.name}", 2 * max_games)
        for look in range(1, looks + 1):
            count = min(batch, max_games - len(base))
            base += run(base_game, base_spec, count, on_game=tick, executor=executor, start=len(base))
            variant += run(variant_game, variant_spec, count, on_game=tick, executor=executor, start=len(variant))
            if args.until_significant:
                row = paired.test(*paired.pairs(base, variant), measure)
                if row["p"] < threshold:
                    stopped = look
                    break
        if strong:
            base_strong = cli_strength.play_strong(base_game, strong, args, len(base), executor, bar)
            variant_strong = cli_strength.play_strong(variant_game, strong, args, len(base), executor, bar)
    verdict = paired.compare(base, variant, players)
    verdict.update({"measure": measure, "batch": batch, "looks_planned": looks, "threshold": threshold,
                    "sequential": bool(args.until_significant), "stopped_at_look": stopped})
    if args.until_significant:
        for row in verdict["rows"]:
            row["significant"] = row["measure"] == measure and stopped is not None
    result = {"base": public_summary(base_game, specs, args,
                                     summarize(base, players, 0, specs, base_game.ruleset.best)),
              "variant": public_summary(variant_game, specs, args,
                                        summarize(variant, players, 0, specs, variant_game.ruleset.best)),
              "comparison": verdict, **engine}
    if strong:
        runs = (base, variant, base_strong, variant_strong)
        short = strength.short_across([({"label": "base"}, strength.short_check(base, base_strong, players)),
                                       ({"label": "variant"}, strength.short_check(variant, variant_strong, players))])
        result["strength_check"] = cli_strength.report(specs, strong, strength.effect_check(*runs, players),
                                                       short=short, short_change=strength.short_effect(*runs, players))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print_comparison(output_console(), args, base_game, variant_game, specs, result)
        if strong:
            cli_strength.print_check(output_console(), result["strength_check"], "compare")
    return 0


def print_comparison(console, args, base_game, variant_game, specs, result) -> None:
    verdict = result["comparison"]
    games = len(result["base"]["lengths"])
    console.print(Text(f"{games} games each, the same seeds ({args.seed}..{args.seed + games - 1}) and bots "
                       f"({display.bots(specs)}), tested as pairs", style="bold"))
    console.print(Text(f"base:    {base_game.name} ({base_game.path})"))
    console.print(Text(f"variant: {variant_game.name} ({variant_game.path})"))
    console.print(comparison_table(verdict["rows"]))
    for side in ("base", "variant"):
        for line in sides.lines(result[side].get("sides") or {}):
            console.print(Text(f"{side}: {line}"))
    if verdict["sequential"]:
        what = paired.label(verdict["measure"])
        if verdict["stopped_at_look"]:
            console.print(f"--until-significant: {what} differs (p < {verdict['threshold']:.4g}, the alpha "
                          f"spent per look over {verdict['looks_planned']} planned looks of {verdict['batch']} "
                          f"games) after {games} games; the other rows are for information only.")
        else:
            console.print(f"--until-significant: no significant change in {what} after {games} games "
                          f"({verdict['looks_planned']} looks, each at p < {verdict['threshold']:.4g}); the "
                          "change, if any, is smaller than these games can show.")
    else:
        console.print(f"change: variant minus base (percentage points for win rates), with its 95% interval "
                      "from the same test as p (two-sided, tested as pairs: exact McNemar on the games one "
                      "ruleset won and the other did not, with the exact interval that inverts it; paired t "
                      "on the per-game changes, with the t interval). Holm p: p corrected for the "
                      f"{len(verdict['rows'])} rows tested together; *: Holm p < 0.05. detectable: the "
                      "smallest change these games find with 80% power (alpha 0.05), shown where nothing "
                      "was found. Effect: odds ratio of the discordant pairs for win rates, d_z for means; "
                      "unpaired: the p-value the unpaired test (z-test, Welch) would give.")
    for side in ("base", "variant"):
        for warning in result[side]["sanity"]["warnings"]:
            console.print(Text(f"warning ({side}): {warning}", style="yellow"))


def comparison_table(rows: list) -> Table:
    table = Table(box=None, padding=(0, 1))
    for name, justify in (("measure", "left"), ("base", "right"), ("variant", "right"), ("change", "right"),
                          ("95% CI", "right"), ("p", "right"), ("Holm p", "right"), ("", "left"),
                          ("detectable", "right"), ("effect", "right"), ("unpaired", "right")):
        table.add_column(name, justify=justify, no_wrap=True)
    for row in rows:
        texts = row_texts(row)
        table.add_row(row["label"], texts["value"](row["base"]), texts["value"](row["variant"]), texts["change"],
                      texts["ci95"], texts["p"], texts["p_holm"], Text(texts["star"], style="bold red"),
                      texts["detectable"], f"{row['effect_size']:.2f}", display.p_value(row["p_unpaired"]))
    return table


# ---- tournament -----------------------------------------------------------------------------------
def cmd_tournament(args, game, bots: list) -> int:
    if len(set(bots)) < 2:
        raise ParameterError("a tournament needs at least two different bots", hint="e.g. --bots mcts,greedy")
    check_specs(bots)
    engine = engine_fields(args, game, run_spec(game, bots, args))
    orders = seat_orders(bots, game.num_players)
    rows, per_order = [], []
    with executor_for(args) as executor, progress(args) as bar:
        tick = bar.task(f"{game.name}: {len(orders)} seat orders", len(orders) * args.games)
        for order in orders:
            results = run(game, run_spec(game, order, args), args.games, on_game=tick, executor=executor)
            summary = summarize(results, game.num_players, 0)
            per_order.append((order, results))
            rows.append({"seats": order, "win_rates": summary["win_rates"],
                         "win_share_rates": summary["win_share_rates"], "mean_scores": summary["mean_scores"],
                         "unfinished": summary["unfinished"]})
    table_rows = standings(bots, per_order)
    if args.json:
        print(json.dumps({"game": game.name, "players": game.num_players, "games_per_order": args.games,
                          "orders": rows, "standings": table_rows, **engine}, ensure_ascii=False))
        return 0
    console = output_console()
    console.print(Text(f"{game.name}: {len(orders)} seat orders × {args.games} games", style="bold"))
    table = Table(box=None, padding=(0, 1))
    for name, justify in (("bot", "left"), ("games", "right"), ("win share", "right"),
                          ("95% interval", "right"), ("rating", "right"), ("95% interval", "right"),
                          ("mean score", "right")):
        table.add_column(name, justify=justify, no_wrap=name != "bot")
    for s in table_rows:
        table.add_row(Text(s["bot"]), str(s["games"]), f"{100 * s['win_share']:.1f}%",
                      f"{100 * s['ci95'][0]:.1f}–{100 * s['ci95'][1]:.1f}%", f"{s['rating']:.0f}",
                      f"{s['rating_ci95'][0]:.0f}–{s['rating_ci95'][1]:.0f}", f"{s['mean_score']:.2f}")
    console.print(table)
    detail = Table(box=None, padding=(0, 2), title="win share per seat, by seat order", title_justify="left")
    detail.add_column("seats")
    detail.add_column("win shares")
    for row in rows:
        detail.add_row(Text(", ".join(row["seats"])), " / ".join(f"{100 * w:.0f}%" for w in row["win_share_rates"]))
    console.print(detail)
    console.print("games: seat-games played; win share: a win shared by k seats counts 1/k (fair share: "
                  "1/players). Rating: Bradley–Terry on the Elo scale (mean 1500) over every pair of seats "
                  "with different bots; interval: 95% bootstrap over games.")
    return 0
