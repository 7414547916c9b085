"""Playing many bot games and summarizing them honestly.

Game i of a run uses seed ``seed + i`` and bot seeds derived from (seed, i, seat), so a run is the
same on one process or on many (``jobs``): games are dealt out in chunks and their results put back
in game order.  The summary carries win rates with 95% Wilson intervals, score and length
distributions, and speed.
"""
from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass

from dsl.errors import RulebookError

from . import stats
from ..bots import bot_seed, make_bot, play_game
from ..game import load_game
from .match_log import MatchRecorder, log_header


@dataclass
class GameResult:
    seed: int
    winners: list
    returns: list
    decisions: int
    log: dict | None = None


@dataclass
class RunSpec:
    """Everything a worker process needs to play its share of a run."""

    ruleset: str
    params: dict
    players: int
    seats: list
    seed: int
    logs: bool = False


def play_one(game, spec: RunSpec, index: int) -> GameResult:
    agents = [make_bot(bot, seat, bot_seed(spec.seed, index, seat)) for seat, bot in enumerate(spec.seats)]
    state = game.new_initial_state(spec.seed + index)
    recorder = MatchRecorder(log_header(game, spec.seats), spec.seed + index) if spec.logs else None
    try:
        play_game(state, agents, recorder.record if recorder else None)
    except RulebookError as exc:
        exc.message = f"game {index + 1} (seed {spec.seed + index}): {exc.message}"
        raise
    return GameResult(spec.seed + index, state.winners(), state.returns(), state.moves,
                      recorder.log(state) if recorder else None)


_WORKER: dict = {}


def _init_worker(spec: RunSpec) -> None:
    _WORKER["spec"] = spec
    _WORKER["game"] = load_game(spec.ruleset, spec.params, spec.players)


def _play_chunk(indexes) -> list:
    return [play_one(_WORKER["game"], _WORKER["spec"], i) for i in indexes]


def run(game, spec: RunSpec, games: int, jobs: int = 1, on_game=None) -> list:
    """Play ``games`` games; the results in game order, identical for any number of jobs."""
    if jobs <= 1 or games < 2:
        results = []
        for index in range(games):
            results.append(play_one(game, spec, index))
            if on_game:
                on_game(1)
        return results
    chunk = max(1, min(50, games // (jobs * 4) or 1))
    chunks = [range(i, min(i + chunk, games)) for i in range(0, games, chunk)]
    context = multiprocessing.get_context("fork")
    results: list = []
    with context.Pool(jobs, initializer=_init_worker, initargs=(spec,)) as pool:
        for part in pool.imap(_play_chunk, chunks):
            results.extend(part)
            if on_game:
                on_game(len(part))
    return results


def summarize(results: list, players: int, seconds: float) -> dict:
    """Wins, win rates with 95% intervals, scores, game lengths and speed of a list of results."""
    games = len(results)
    wins = [sum(1 for r in results if seat in r.winners) for seat in range(players)]
    shares = [sum(1 / len(r.winners) for r in results if seat in r.winners) for seat in range(players)]
    scores = [[r.returns[seat] for r in results] for seat in range(players)]
    lengths = [r.decisions for r in results]
    spreads = [max(r.returns) - min(r.returns) for r in results]
    return {
        "games": games,
        "wins": wins,
        "win_rates": [round(w / games, 4) if games else 0 for w in wins],
        "win_rate_ci95": [[round(x, 4) for x in stats.wilson_interval(w, games)] for w in wins],
        "win_shares": [round(s, 3) for s in shares],
        "shared_wins": sum(1 for r in results if len(r.winners) > 1),
        "mean_scores": [round(stats.mean(s), 3) for s in scores],
        "score_stdev": [round(stats.stdev(s), 3) for s in scores],
        "mean_decisions": round(stats.mean(lengths), 2),
        "decisions_stdev": round(stats.stdev(lengths), 2),
        "min_decisions": min(lengths, default=0),
        "max_decisions": max(lengths, default=0),
        "mean_score_spread": round(stats.mean(spreads), 3),
        "lengths": lengths,
        "scores": scores,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds else None,
    }


def simulate(game, spec: RunSpec, games: int, jobs: int = 1, on_game=None) -> tuple:
    """Run and summarize; returns (summary, results)."""
    start = time.perf_counter()
    results = run(game, spec, games, jobs, on_game)
    return summarize(results, game.num_players, time.perf_counter() - start), results


def compare(base: dict, variant: dict) -> dict:
    """Which differences between two summaries are significant (p < 0.05), and by which test."""
    rows = []
    games_a, games_b = base["games"], variant["games"]
    for seat, (wa, wb) in enumerate(zip(base["wins"], variant["wins"])):
        p = stats.two_proportion_test(wa, games_a, wb, games_b)
        rows.append({"measure": f"win rate of seat {seat + 1}", "base": base["win_rates"][seat],
                     "variant": variant["win_rates"][seat], "p": p, "test": "z-test (2 proportions)"})
    for name, key in (("decisions per game", "lengths"),):
        rows.append({"measure": name, "base": base["mean_decisions"], "variant": variant["mean_decisions"],
                     "p": stats.welch_test(base[key], variant[key]), "test": "Welch t-test"})
    spread_a = [max(s) - min(s) for s in zip(*base["scores"])]
    spread_b = [max(s) - min(s) for s in zip(*variant["scores"])]
    rows.append({"measure": "score spread", "base": base["mean_score_spread"],
                 "variant": variant["mean_score_spread"], "p": stats.welch_test(spread_a, spread_b),
                 "test": "Welch t-test"})
    for seat in range(len(base["scores"])):
        rows.append({"measure": f"score of seat {seat + 1}", "base": base["mean_scores"][seat],
                     "variant": variant["mean_scores"][seat],
                     "p": stats.welch_test(base["scores"][seat], variant["scores"][seat]),
                     "test": "Welch t-test"})
    for row in rows:
        row["p"] = round(row["p"], 5)
        row["significant"] = row["p"] < 0.05
    return {"rows": rows, "alpha": 0.05}
