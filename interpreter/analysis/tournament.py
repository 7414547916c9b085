"""Tournaments: every seat order of the bots, win shares, and Bradley–Terry ratings with intervals.

Win share is the one definition used everywhere: a win shared by k seats counts 1/k for each sharer
(fair share: 1/players).  Ratings come from the Bradley–Terry model fitted to every pair of seats
with different bots in every finished game (the better-placed seat beats the other; equal places
count half a win each), by the minorization–maximization algorithm (Hunter 2004), on the Elo scale
(400·log10 of the strength, mean 1500).  Their 95% intervals are bootstrap percentiles over games.
"""
from __future__ import annotations

import itertools
import math
import random

from . import stats

BOOTSTRAP = 200
PRIOR = 0.5  # half a win and half a loss against an average opponent keep every strength finite


def seat_orders(bots: list, players: int) -> list:
    """Every seat order of the bots: each arrangement of distinct bots, or, with fewer bots than
    seats, every assignment that uses at least two of them."""
    if len(bots) >= players:
        return [list(order) for order in itertools.permutations(bots, players)]
    return [list(order) for order in itertools.product(bots, repeat=players) if len(set(order)) > 1]


def pairwise(order: list, result) -> list:
    """(bot a, bot b, a's points) for every pair of seats with different bots in one finished game."""
    won = set(result.winners)
    out = []
    for i, j in itertools.combinations(range(len(order)), 2):
        if order[i] == order[j]:
            continue
        if (i in won) == (j in won):
            points = 0.5 if (i in won) or result.returns[i] == result.returns[j] else \
                float(result.returns[i] > result.returns[j])
        else:
            points = 1.0 if i in won else 0.0
        out.append((order[i], order[j], points))
    return out


def bradley_terry(bots: list, games: list, iterations: int = 200) -> dict:
    """Elo-scale ratings of the bots from ``games`` (each a list of (a, b, a's points))."""
    index = {bot: i for i, bot in enumerate(bots)}
    k = len(bots)
    wins = [PRIOR] * k
    meetings = [[0.0] * k for _ in range(k)]
    for game in games:
        for a, b, points in game:
            i, j = index[a], index[b]
            wins[i] += points
            wins[j] += 1 - points
            meetings[i][j] += 1
            meetings[j][i] += 1
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denominator = sum(meetings[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i)
            denominator += 2 * PRIOR / (strength[i] + 1.0)  # the prior's games against strength 1
            new.append(wins[i] / denominator)
        scale = math.exp(sum(math.log(s) for s in new) / k)
        strength = [s / scale for s in new]
    return {bot: 1500 + 400 * math.log10(strength[index[bot]]) for bot in bots}


def standings(bots: list, per_order: list, seed: int = 0) -> list:
    """One row per bot: seat-games, win share with its Wilson interval, mean score, rating and its
    bootstrap interval.  ``per_order`` is a list of (seat order, results)."""
    totals = {bot: {"games": 0, "share": 0.0, "score": 0.0} for bot in bots}
    games = []
    for order, results in per_order:
        for result in results:
            if not result.finished:
                continue
            for seat, bot in enumerate(order):
                totals[bot]["games"] += 1
                totals[bot]["share"] += 1 / len(result.winners) if seat in result.winners else 0.0
                totals[bot]["score"] += result.returns[seat]
            games.append(pairwise(order, result))
    ratings = bradley_terry(bots, games)
    rng = random.Random(seed)
    samples = {bot: [] for bot in bots}
    for _ in range(BOOTSTRAP if games else 0):
        fitted = bradley_terry(bots, [games[rng.randrange(len(games))] for _ in games], iterations=60)
        for bot in bots:
            samples[bot].append(fitted[bot])
    rows = []
    for bot in bots:
        t = totals[bot]
        lo, hi = stats.wilson_interval(t["share"], t["games"])
        ordered = sorted(samples[bot]) or [ratings[bot]]
        interval = [ordered[int(0.025 * (len(ordered) - 1))], ordered[int(math.ceil(0.975 * (len(ordered) - 1)))]]
        rows.append({"bot": bot, "games": t["games"],
                     "win_share": round(t["share"] / t["games"], 4) if t["games"] else 0.0,
                     "ci95": [round(lo, 4), round(hi, 4)],
                     "mean_score": round(t["score"] / t["games"], 3) if t["games"] else 0.0,
                     "rating": round(ratings[bot], 1), "rating_ci95": [round(v, 1) for v in interval]})
    rows.sort(key=lambda row: -row["rating"])
    return rows
