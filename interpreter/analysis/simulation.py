"""Playing many bot games and summarizing them honestly.

Game i of a run uses seed ``seed + i`` and bot seeds derived from (seed, i, seat), so a run is the
same on one process, on many (``jobs``) or on a cluster (see :mod:`.executor`): results come back in
game order.  The summary carries win rates with 95% Wilson intervals, score and length
distributions, speed, and a sanity report (:mod:`.sanity`) on how the games ended.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from dsl.errors import RulebookError

from . import sanity, stats
from ..bots import MAX_DECISIONS, bot_seed, make_bot, play_game
from ..game import load_game
from .executor import LocalExecutor
from .match_log import MatchRecorder, log_header


@dataclass
class GameResult:
    seed: int
    winners: list
    returns: list
    decisions: int
    finished: bool = True
    end_reason: str | None = None
    plain_choices: dict = field(default_factory=dict)  # option -> [offered with others, chosen]
    log: dict | None = None


@dataclass
class RunSpec:
    """Everything a worker needs to play its share of a run."""

    ruleset: str
    params: dict
    players: int
    seats: list
    seed: int
    logs: bool = False
    max_decisions: int = MAX_DECISIONS


class ChoiceCounter:
    """The ``on_step`` of a simulated game: how often each option without parameters (a pass, a
    'keep', a 'stop') was offered next to other actions, and how often it was taken."""

    def __init__(self, then=None):
        self.counts: dict = {}
        self.then = then

    def __call__(self, seat, legal, action, state) -> None:
        if len(legal) > 1:
            for offered in legal:
                if not offered.option.param_names:
                    count = self.counts.setdefault(offered.name, [0, 0])
                    count[0] += 1
                    count[1] += offered is action
        if self.then is not None:
            self.then(seat, legal, action, state)


def play_one(game, spec: RunSpec, index: int) -> GameResult:
    agents = [make_bot(bot, seat, bot_seed(spec.seed, index, seat)) for seat, bot in enumerate(spec.seats)]
    state = game.new_initial_state(spec.seed + index)
    recorder = MatchRecorder(log_header(game, spec.seats), spec.seed + index) if spec.logs else None
    counter = ChoiceCounter(recorder.record if recorder else None)
    try:
        play_game(state, agents, counter, spec.max_decisions)
    except RulebookError as exc:
        exc.message = f"game {index + 1} (seed {spec.seed + index}): {exc.message}"
        raise
    finished = state.is_terminal()
    return GameResult(spec.seed + index, state.winners() if finished else [], state.returns(), state.moves,
                      finished, getattr(state, "end_reason", None), counter.counts,
                      recorder.log(state) if recorder else None)


_GAMES: dict = {}


def loaded_game(spec: RunSpec):
    """The game of a spec, loaded once per process."""
    key = (spec.ruleset, tuple(sorted(spec.params.items())), spec.players)
    if key not in _GAMES:
        _GAMES[key] = load_game(spec.ruleset, spec.params, spec.players)
    return _GAMES[key]


def run(game, spec: RunSpec, games: int, jobs: int = 1, on_game=None, executor=None, start: int = 0) -> list:
    """Play games ``start``..``start + games - 1``; the results in game order, the same on every
    executor (default: a local one with ``jobs`` processes, closed afterwards)."""
    _GAMES.setdefault((spec.ruleset, tuple(sorted(spec.params.items())), spec.players), game)
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


def summarize(results: list, players: int, seconds: float) -> dict:
    """Wins, win rates with 95% intervals, scores, game lengths, speed and the sanity report.

    Win rates, win shares and scores count finished games only; unfinished ones (cut off by the cap
    on decisions) are counted and reported apart.  A shared win counts as a win for each sharer in
    ``wins`` and as 1/k in ``win_shares`` (the one definition of win share everywhere)."""
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
        "sanity": sanity.report(results, players),
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 2) if seconds else None,
    }


def simulate(game, spec: RunSpec, games: int, executor=None, on_game=None) -> tuple:
    """Run and summarize; returns (summary, results)."""
    start = time.perf_counter()
    results = run(game, spec, games, on_game=on_game, executor=executor)
    return summarize(results, game.num_players, time.perf_counter() - start), results
