"""Parameter sweeps: the same seeds and bots under every value of one parameter (or every pair of
values of two), and how win shares, first-seat advantage, length and scores move with them.

A sweep setting is ``name=v1,v2,...`` or ``name=a..b`` (whole numbers a to b); a setting with one
value is fixed for every run.  Every point of the sweep plays games ``seed``..``seed + n - 1``, so
neighbouring points differ only by the parameter.  Seat 1's advantage over the fair share is tested at
every point (the score test with the Wilson interval it inverts), with Holm's correction across the
points; means carry their t intervals.
"""
from __future__ import annotations

import itertools

from dsl.errors import ParameterError

from . import paired, stats

MAX_POINTS = 400


def parse_values(name: str, text: str) -> list:
    """The values of a setting's text: ``a..b`` (whole numbers), or values separated by commas."""
    if ".." in text:
        low, _, high = text.partition("..")
        try:
            a, b = int(low), int(high)
        except ValueError:
            raise ParameterError(f"--set {name}={text}: a range is two whole numbers, as in {name}=3..8") from None
        if b < a:
            raise ParameterError(f"--set {name}={text}: the range runs backwards", hint=f"write {name}={b}..{a}")
        if b - a >= MAX_POINTS:
            raise ParameterError(f"--set {name}={text}: more than {MAX_POINTS} values")
        return [str(v) for v in range(a, b + 1)]
    values = [v.strip() for v in text.split(",")]
    if "" in values:
        raise ParameterError(f"--set {name}={text} has an empty value", hint="separate values by single commas")
    return values


def plan(settings: list) -> tuple:
    """(fixed parameters, swept parameter names, the points: one dict of swept values each)."""
    fixed, swept = {}, {}
    for name, text in settings:
        values = parse_values(name, text)
        if name in fixed or name in swept:
            raise ParameterError(f"--set {name} is given twice")
        if len(values) == 1:
            fixed[name] = values[0]
        else:
            swept[name] = values
    if not swept:
        raise ParameterError("nothing to sweep", hint="give a parameter several values: --set NAME=4..8 "
                                                      "or --set NAME=4,6,8")
    if len(swept) > 2:
        raise ParameterError(f"a sweep varies one or two parameters, not {len(swept)}",
                             hint="fix the others with --set NAME=VALUE")
    names = list(swept)
    points = [dict(zip(names, combo)) for combo in itertools.product(*(swept[n] for n in names))]
    if len(points) > MAX_POINTS:
        raise ParameterError(f"the sweep has {len(points)} points, more than {MAX_POINTS}")
    return fixed, names, points


def point_summary(params: dict, summary: dict, players: int) -> dict:
    """One row of a sweep: the parameters in force and what the games showed, with intervals."""
    finished = summary["finished"]
    advantage = summary["seat_advantage"]
    mean_decisions, *decisions_ci = stats.t_interval(summary["lengths"])
    scores = [stats.t_interval(s) for s in summary["scores"]]
    first = {key: advantage[0][key] for key in ("measure", "label", "change", "ci95", "p", "se", "detectable")}
    return {
        "params": params,
        "games": summary["games"], "finished": finished, "unfinished": summary["unfinished"],
        "win_share": summary["win_share_rates"],
        "win_share_ci95": [[round(lo, 4), round(hi, 4)] for lo, hi in (row["ci95_share"] for row in advantage)],
        "first_seat_advantage": round(summary["win_share_rates"][0] - 1 / players, 4) if finished else 0.0,
        "first_seat": first,
        "mean_decisions": summary["mean_decisions"],
        "decisions_ci95": [round(v, 2) for v in decisions_ci],
        "mean_scores": [round(m, 3) for m, _, _ in scores],
        "score_ci95": [[round(lo, 3), round(hi, 3)] for _, lo, hi in scores],
        "short_rate": summary["sanity"]["short_rate"],
        "shared_rate": summary["sanity"]["shared_rate"],
        "warnings": summary["sanity"]["warnings"],
        "sides": summary["sides"],
    }


def adjust(points: list) -> list:
    """Holm's correction of seat 1's test across the points of a sweep."""
    paired.adjust([point["first_seat"] for point in points])
    return points
