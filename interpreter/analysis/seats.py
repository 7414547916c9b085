"""Seat advantage: each seat's win share against the fair share, with Holm's correction.

A seat's win share is its wins over the finished games, a win shared by k seats counting 1/k; the
fair share is 1/players.  Each seat is tested by the score test of a proportion against the fair
share, and its 95% interval is the Wilson interval, which inverts that same test: the interval
leaves out the fair share exactly when p < 0.05.  With shared wins a game's share is a fraction, whose
variance is below that of a win or a loss with the same mean, so the test is then conservative.
"""
from __future__ import annotations

from . import paired, stats


def per_game_shares(results: list, seat: int) -> list:
    """The seat's share of each finished game: 1/k of a win shared by k, else 0."""
    return [(1 / len(r.winners) if seat in r.winners else 0.0) for r in results if r.finished]


def advantage_rows(results: list, players: int, alpha: float = stats.ALPHA) -> list:
    """One row per seat: win share, its Wilson interval, the advantage over the fair share with its
    interval, the score test's p, Holm's p across the seats, and the detectable advantage."""
    fair = 1 / players
    rows = []
    for seat in range(players):
        shares = per_game_shares(results, seat)
        n = len(shares)
        share = sum(shares)
        lo, hi = stats.wilson_interval(share, n)
        rate = share / n if n else 0.0
        se = stats.score_se(n, fair) if n else None
        rows.append({"measure": f"win:{seat + 1}", "label": f"seat {seat + 1} win share", "seat": seat + 1,
                     "games": n, "share": rate, "ci95_share": [lo, hi], "change": rate - fair,
                     "ci95": [lo - fair, hi - fair], "p": stats.score_test(share, n, fair), "se": se,
                     "detectable": None if se is None else stats.detectable(se), "test": "score test (Wilson)"})
    return paired.adjust(rows, alpha)
