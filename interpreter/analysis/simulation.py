"""Playing many bot games and summarizing them honestly.

Game i of a run uses seed ``seed + i`` and bot seeds derived from (seed, i, seat), so a run is the
same on one process, on many (``jobs``) or on a cluster (see :mod:`.executor`): results come back in
game order.  The summary carries win rates with 95% Wilson intervals, each seat's win share tested
against the fair share (:mod:`.seats`), score and length distributions, speed, and a sanity report
(:mod:`.sanity`) on how the games ended.
"""
from __future__ import annotations

import time

from . import sanity, seats as seat_stats, sides, stats
from .executor import LocalExecutor
from .playing import SIM_BOT, GameResult, RunSpec, keep_loaded, play_one  # noqa: F401  (the run's parts, used with run())


def run(game, spec: RunSpec, games: int, jobs: int = 1, on_game=None, executor=None, start: int = 0) -> list:
    """Play games ``start``..``start + games - 1``; the results in game order, the same on every
    executor (default: a local one with ``jobs`` processes, closed afterwards)."""
    keep_loaded(spec, game)
    own = executor is None
    executor = executor or LocalExecutor(jobs)
    results: list = []
    try:
        for part in executor.run(spec, games, start):
            results.extend(part)
            if on_game:
                on_game(len(part))
    finally:
        if own:
            executor.close()
    return results


def summarize(results: list, players: int, seconds: float, seats=None, best=None) -> dict:
    """Wins, win rates with 95% intervals, scores, game lengths, speed and the sanity report.

    Win rates, win shares and scores count finished games only; unfinished ones (cut off by the cap
    on decisions) are counted and reported apart.  A shared win counts as a win for each sharer in
    ``wins`` and as 1/k in ``win_shares`` (the one definition of win share everywhere).  ``seats``,
    the bot specs, let the sanity report advise stronger settings of the bots that were used.  A game
    played in teams or cooperatively adds ``sides`` (see :mod:`.sides`; ``best``: the ruleset's
    best possible result)."""
    done = [r for r in results if r.finished]
    games = len(done)
    wins = [sum(1 for r in done if seat in r.winners) for seat in range(players)]
    shares = [sum(1 / len(r.winners) for r in done if seat in r.winners) for seat in range(players)]
    scores = [[r.returns[seat] for r in done] for seat in range(players)]
    lengths = [r.decisions for r in results]
    spreads = [max(r.returns) - min(r.returns) for r in done]
    return {
        "games": len(results),
        "finished": games,
        "unfinished": len(results) - games,
        "wins": wins,
        "win_rates": [round(w / games, 4) if games else 0 for w in wins],
        "win_rate_ci95": [[round(x, 4) for x in stats.wilson_interval(w, games)] for w in wins],
        "win_shares": [round(s, 3) for s in shares],
        "win_share_rates": [round(s / games, 4) if games else 0 for s in shares],
        "seat_advantage": seat_stats.advantage_rows(results, players),
        "shared_wins": sum(1 for r in done if len(r.winners) > 1),
        "mean_scores": [round(stats.mean(s), 3) for s in scores],
        "score_stdev": [round(stats.stdev(s), 3) for s in scores],
        "mean_decisions": round(stats.mean(lengths), 2),
        "decisions_stdev": round(stats.stdev(lengths), 2),
        "min_decisions": min(lengths, default=0),
        "max_decisions": max(lengths, default=0),
        "mean_score_spread": round(stats.mean(spreads), 3),
        "lengths": lengths,
        "scores": scores,
        "sides": sides.summary(results, best),
        "sanity": sanity.report(results, players, seats),
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 2) if seconds else None,
    }


def simulate(game, spec: RunSpec, games: int, executor=None, on_game=None) -> tuple:
    """Run and summarize; returns (summary, results)."""
    start = time.perf_counter()
    results = run(game, spec, games, on_game=on_game, executor=executor)
    return summarize(results, game.num_players, time.perf_counter() - start, spec.seats,
                     game.ruleset.best), results
