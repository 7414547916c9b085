"""Bot strength: one bot against others (random by default), in every seat in turn.

    python benchmarks/strength.py la-famiglia --bot mcts:iterations=200 -n 40
    python benchmarks/strength.py gangster --players 4 --bot greedy -n 100
    python benchmarks/strength.py la-famiglia --bot flat --against greedy -n 100 --jobs 2

Game i puts the bot in seat i mod players (the others play the `--against` bot): the games of seat s
use seeds SEED + s * 100000, SEED + s * 100000 + 1, ..., so every seat order is played equally often
(with -n a multiple of the player count).  A game's outcome for the bot is a sole win, a win shared
by k seats or a loss.  Printed: the win share (a sole win counts 1, a shared win 1/k) with its 95%
Wilson interval (conservative for outcomes between 0 and 1), the sole wins, shared wins and losses
with the exact 95% Clopper–Pearson interval of the sole-win rate, the share in each seat, what an
equal player would get on average (1/players), the mean game length and the CPU seconds this
process spent (with --jobs 1 all games run in it).  One line, or JSON with --json; --progress
prints a line per game to stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_game  # noqa: E402
from interpreter.analysis.simulation import RunSpec, run  # noqa: E402
from interpreter.analysis import playing  # noqa: E402
from interpreter.analysis.stats import clopper_pearson_interval, wilson_interval  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402

SEAT_SEED_STEP = 100_000


class ThinkingClock:
    """CPU seconds each bot spec spent choosing, and its decisions (the games of this process: with
    --jobs 1, all of them), so equal time per decision can be checked, not only asked for."""

    def __init__(self):
        self.seconds: dict = {}
        self.decisions: dict = {}

    def make_bot(self, spec: str, seat: int, seed: int):
        bot = make_bot(spec, seat, seed)
        choose = bot.choose

        def timed(state):
            if len(state.legal_actions()) == 1:  # no choice: no bot thinks here
                return choose(state)
            start = time.thread_time()
            action = choose(state)
            self.seconds[spec] = self.seconds.get(spec, 0.0) + time.thread_time() - start
            self.decisions[spec] = self.decisions.get(spec, 0) + 1
            return action
        bot.choose = timed
        return bot

    def per_decision(self) -> dict:
        """Mean CPU milliseconds per decision with a choice, by spec."""
        return {spec: round(1000 * self.seconds[spec] / self.decisions[spec], 2) for spec in self.seconds}


def measure(game, bot: str, games: int, seed: int, jobs: int, against: str = "random", progress=None) -> dict:
    players = game.num_players
    share = decisions = 0.0
    sole = shared = losses = 0
    by_seat = []
    wall, cpu = time.perf_counter(), time.process_time()
    done = 0
    clock = ThinkingClock()
    playing.make_bot = clock.make_bot  # the games of this process are timed per spec
    for seat in range(players):
        count = len(range(seat, games, players))
        if not count:
            continue
        seats = [against] * players
        seats[seat] = bot
        spec = RunSpec(game.path, dict(game.params), players, seats, seed + seat * SEAT_SEED_STEP)
        seat_share = 0.0

        def tick(n, seat=seat):
            nonlocal done
            done += n
            if progress:
                progress(f"{done}/{games} games, {time.perf_counter() - wall:.0f} s (bot in seat {seat + 1})")
        for result in run(game, spec, count, jobs, on_game=tick):
            decisions += result.decisions
            if seat in result.winners:
                seat_share += 1 / len(result.winners)
                if len(result.winners) == 1:
                    sole += 1
                else:
                    shared += 1
            else:
                losses += 1
        share += seat_share
        by_seat.append({"seat": seat + 1, "games": count, "win_share": round(seat_share / count, 3)})
    lo, hi = wilson_interval(share, games)
    sole_lo, sole_hi = clopper_pearson_interval(sole, games)
    return {"game": game.name, "players": players, "bot": bot, "against": against, "games": games,
            "seed": seed, "mean_decisions": round(decisions / games, 1),
            "win_share": round(share / games, 3), "ci95": [round(lo, 3), round(hi, 3)],
            "sole_wins": sole, "shared_wins": shared, "losses": losses,
            "sole_win_rate": round(sole / games, 3), "sole_ci95": [round(sole_lo, 3), round(sole_hi, 3)],
            "by_seat": by_seat, "random_baseline": round(1 / players, 3),
            "seconds": round(time.perf_counter() - wall, 1), "cpu_seconds": round(time.process_time() - cpu, 1),
            "ms_per_decision": clock.per_decision() if jobs <= 1 else None}


def describe(result: dict) -> str:
    def pct(x):
        return f"{100 * x:.1f}%"
    seats = ", ".join(f"seat {s['seat']} {pct(s['win_share'])} of {s['games']}" for s in result["by_seat"])
    return (f"{result['game']} ({result['players']} players): {result['bot']} against {result['against']}: "
            f"win share {pct(result['win_share'])} (95% CI {pct(result['ci95'][0])}–{pct(result['ci95'][1])}); "
            f"{result['sole_wins']} sole wins (95% CI {pct(result['sole_ci95'][0])}–{pct(result['sole_ci95'][1])}), "
            f"{result['shared_wins']} shared, {result['losses']} losses in {result['games']} games ({seats}) "
            f"of {result['mean_decisions']} decisions; an equal player would get "
            f"{100 * result['random_baseline']:.0f}%; {result['seconds']} s, {result['cpu_seconds']} CPU s here"
            + ("; CPU ms per decision with a choice: " + ", ".join(
                f"{spec} {ms}" for spec, ms in result["ms_per_decision"].items()) if result["ms_per_decision"] else ""))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--bot", required=True)
    parser.add_argument("--against", default="random", help="the bot in every other seat (default random)")
    parser.add_argument("-n", "--games", type=int, default=40)
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--progress", action="store_true", help="a line per game on stderr")
    args = parser.parse_args(argv)
    game = load_game(args.game, players=args.players)

    def progress(line):
        print(line, file=sys.stderr, flush=True)
    result = measure(game, args.bot, args.games, args.seed, args.jobs, args.against,
                     progress if args.progress else None)
    print(json.dumps(result, ensure_ascii=False) if args.json else describe(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
