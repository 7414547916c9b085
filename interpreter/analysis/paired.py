"""Comparing a ruleset with a variant on the same seeds and bots, game by game.

Game i of both runs has the same seed and the same bots, so the two results of game i form a pair.
Testing pairs removes what the two games share (the dealing, the bots' luck) from the noise: win
rates by the exact McNemar test on the games one ruleset won and the other did not, means (length,
score spread, scores) by the paired t-test on the per-game differences.  Every row gives the change
with its 95% interval from the same method as its test (the exact interval that inverts McNemar's
test, the t interval), an effect size, the paired p-value, the p-value after Holm's correction for
the number of rows (which decides the star), the smallest change the run could have detected (80%
power at alpha 0.05), and for reference the p-value of the unpaired test (two-proportion z-test,
Welch) on the same games.

Sequential testing (``--until-significant``): games are played in batches, and after each batch the
chosen measure is tested; the test may stop at look k only if its p-value lies below the share of
alpha spent at that look (linear alpha spending over the planned looks: alpha/K per look, which by
Bonferroni's inequality keeps the chance of any false alarm over all looks below alpha).
"""
from __future__ import annotations

from dsl.errors import ParameterError

from . import stats

ALPHA = stats.ALPHA


def measures(players: int) -> list:
    """The names of the measures a comparison tests, in table order."""
    return ([f"win:{s + 1}" for s in range(players)] + ["length", "spread"]
            + [f"score:{s + 1}" for s in range(players)])


def check_measure(name: str, players: int) -> str:
    if name not in measures(players):
        raise ParameterError(f"unknown measure '{name}'", hint=f"one of: {', '.join(measures(players))}")
    return name


def values(results: list, measure: str) -> list:
    kind, _, seat = measure.partition(":")
    if kind == "win":
        return [int(seat) - 1 in r.winners for r in results]
    if kind == "score":
        return [r.returns[int(seat) - 1] for r in results]
    if kind == "length":
        return [r.decisions for r in results]
    return [max(r.returns) - min(r.returns) for r in results]


LABELS = {"win": "seat {} wins", "score": "seat {} score", "length": "decisions",
          "spread": "score spread"}


def label(measure: str) -> str:
    kind, _, seat = measure.partition(":")
    return LABELS[kind].format(seat)


def pairs(base: list, variant: list) -> tuple:
    """The results of games finished under both rulesets, as two aligned lists."""
    kept = [(a, b) for a, b in zip(base, variant) if a.finished and b.finished]
    return [a for a, _ in kept], [b for _, b in kept]


def test(base: list, variant: list, measure: str) -> dict:
    """One row: the measure under both rulesets, the paired test and the unpaired one."""
    xs, ys = values(base, measure), values(variant, measure)
    n = len(xs)
    if measure.startswith("win"):
        paired = stats.mcnemar_exact(xs, ys)
        unpaired = stats.two_proportion_test(sum(xs), n, sum(ys), n)
        test_name, effect_name = "exact McNemar", "odds ratio (discordant pairs)"
    else:
        paired = stats.paired_t(xs, ys)
        unpaired = stats.welch_test(xs, ys)
        test_name, effect_name = "paired t", "d_z (mean change / sd of changes)"
    detectable = stats.detectable(paired["se"])
    return {"measure": measure, "label": label(measure), "games": n,
            "base": round(stats.mean(xs), 4), "variant": round(stats.mean(ys), 4),
            "change": round(paired["difference"], 4), "ci95": paired["ci95"],
            "effect_size": round(paired["effect_size"], 4), "effect": effect_name,
            "p": paired["p"], "test": test_name, "p_unpaired": round(unpaired, 6), "se": paired["se"],
            "detectable": None if detectable is None else round(detectable, 4)}


def adjust(rows: list, alpha: float = ALPHA) -> list:
    """Holm's correction across ``rows`` (each with a ``p``): ``p_holm`` and ``significant`` from it."""
    for row, adjusted in zip(rows, stats.holm([row["p"] for row in rows])):
        row["p_holm"] = adjusted
        row["significant"] = adjusted < alpha
    return rows


def compare(base: list, variant: list, players: int, alpha: float = ALPHA) -> dict:
    """Every measure, tested as pairs over the games finished under both rulesets, with Holm's
    correction across the rows."""
    base, variant = pairs(base, variant)
    rows = adjust([test(base, variant, m) for m in measures(players)], alpha)
    return {"games": len(base), "alpha": alpha, "rows": rows}


def spending_threshold(looks: int, alpha: float = ALPHA) -> float:
    """The p-value below which a sequential test may stop at any one of ``looks`` planned looks."""
    return alpha / looks


def planned_looks(batch: int, max_games: int) -> int:
    return max(1, -(-max_games // batch))
