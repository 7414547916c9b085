"""Results of games played by sides: teams (``scoring: team:``) and cooperative tables
(``scoring: cooperative: true``).  A team wins or loses as one, so its win share counts each game
once however many of its seats share the win; a cooperative table has one result per game, so its
summary is the distribution of the shared score, its mean with a 95% interval, and the share of
games that reached the best possible result (``scoring: best:``) with a Wilson interval.
"""
from __future__ import annotations

from . import stats


def summary(results: list, best=None) -> dict:
    """The ``sides`` part of a simulation's summary (empty for a game of seats alone)."""
    done = [r for r in results if r.finished and r.sides]
    if not done:
        return {}
    if all(side == "all" for side in done[0].sides):
        return {"cooperative": cooperative(done, best)}
    return {"teams": teams(done)}


def cooperative(done: list, best=None) -> dict:
    scores = [r.returns[0] for r in done]
    n = len(scores)
    mean = stats.mean(scores)
    half = stats.Z95 * stats.stdev(scores) / n ** 0.5 if n > 1 else 0.0
    distribution: dict = {}
    for score in sorted(scores):
        distribution[str(score)] = distribution.get(str(score), 0) + 1
    out = {"games": n, "mean": round(mean, 3), "mean_ci95": [round(mean - half, 3), round(mean + half, 3)],
           "distribution": distribution, "best": best}
    if best is not None:
        reached = sum(1 for s in scores if s >= best)
        out.update(best_reached=reached, best_rate=round(reached / n, 4),
                   best_rate_ci95=[round(x, 4) for x in stats.wilson_interval(reached, n)])
    return out


def teams(done: list) -> dict:
    """Per team: its seats (in the last game), wins, win share (a tie of k teams counts 1/k) and a
    95% interval of its win rate."""
    n = len(done)
    rows: dict = {}
    for r in done:
        won = {r.sides[p] for p in r.winners}
        for seat, side in enumerate(r.sides):
            rows.setdefault(side, {"seats": [], "wins": 0, "share": 0.0})
        for side in won:
            rows[side]["wins"] += 1
            rows[side]["share"] += 1 / len(won)
    for seat, side in enumerate(done[-1].sides):
        rows[side]["seats"].append(seat)
    return {side: {"seats": row["seats"], "wins": row["wins"], "win_share_rate": round(row["share"] / n, 4),
                   "win_rate_ci95": [round(x, 4) for x in stats.wilson_interval(row["wins"], n)]}
            for side, row in sorted(rows.items())}


def lines(sides: dict) -> list:
    """The results of a cooperative table or of teams (``summary``'s result), in words."""
    out = []
    coop = sides.get("cooperative")
    if coop:
        lo, hi = coop["mean_ci95"]
        out.append(f"cooperative: shared score mean {coop['mean']:.2f} (95% CI {lo:.2f}–{hi:.2f}) over "
                   f"{coop['games']} games")
        if coop.get("best") is not None:
            blo, bhi = coop["best_rate_ci95"]
            out.append(f"  best possible result ({coop['best']}) reached in {coop['best_reached']} games: "
                       f"{100 * coop['best_rate']:.1f}% (95% CI {100 * blo:.1f}–{100 * bhi:.1f}%)")
        out.append("  distribution: " + ", ".join(f"{score}: {n}" for score, n in coop["distribution"].items()))
    for team, row in (sides.get("teams") or {}).items():
        lo, hi = row["win_rate_ci95"]
        seats = ", ".join(str(s + 1) for s in row["seats"])
        out.append(f"{team} (seats {seats}): {row['wins']} wins, win share {100 * row['win_share_rate']:.1f}% "
                   f"(95% CI of the win rate {100 * lo:.1f}–{100 * hi:.1f}%)")
    return out
