"""Bot strength: one bot against others (random by default), in every seat in turn.

    python benchmarks/strength.py la-famiglia --bot mcts:iterations=200 -n 40 --jobs 2
    python benchmarks/strength.py gangster --players 4 --bot greedy -n 100
    python benchmarks/strength.py la-famiglia --bot flat --against greedy -n 100 --jobs 2

Game i puts the bot in seat i mod players (the others play the `--against` bot), with seed SEED+i;
the result is the bot's win share (a win shared by k counts 1/k), sole wins, losses, its 95% Wilson
interval, what an equal player would get on average (1/players), and the mean game length.  Prints
one line, or JSON with --json.
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
from interpreter.analysis.stats import wilson_interval  # noqa: E402


def measure(game, bot: str, games: int, seed: int, jobs: int, against: str = "random") -> dict:
    players = game.num_players
    share = sole = losses = decisions = 0.0
    start = time.perf_counter()
    for seat in range(players):
        count = len(range(seat, games, players))
        if not count:
            continue
        seats = [against] * players
        seats[seat] = bot
        spec = RunSpec(game.path, dict(game.params), players, seats, seed + seat * 100_000)
        for result in run(game, spec, count, jobs):
            decisions += result.decisions
            if seat in result.winners:
                share += 1 / len(result.winners)
                sole += len(result.winners) == 1
            else:
                losses += 1
    lo, hi = wilson_interval(share, games)
    return {"game": game.name, "players": players, "bot": bot, "against": against, "games": games,
            "mean_decisions": round(decisions / games, 1),
            "win_share": round(share / games, 3), "ci95": [round(lo, 3), round(hi, 3)],
            "sole_wins": int(sole), "losses": int(losses), "random_baseline": round(1 / players, 3),
            "seconds": round(time.perf_counter() - start, 1)}


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
    args = parser.parse_args(argv)
    game = load_game(args.game, players=args.players)
    result = measure(game, args.bot, args.games, args.seed, args.jobs, args.against)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"{result['game']} ({result['players']} players): {result['bot']} against {result['against']}: "
              f"win share {100 * result['win_share']:.1f}% (95% CI {100 * result['ci95'][0]:.1f}–"
              f"{100 * result['ci95'][1]:.1f}%), {result['sole_wins']} sole wins, {result['losses']} losses "
              f"in {result['games']} games of {result['mean_decisions']} decisions; an equal player would get "
              f"{100 * result['random_baseline']:.0f}%; "
              f"{result['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
