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
process spent, and (with --jobs 1) the CPU milliseconds each bot spec spent per decision with a
choice, so a comparison at equal time per decision (`--bot focus:seconds=0.01 --against
flat:seconds=0.01`) shows the time each side really took, and the bot's final score minus the
other seats' mean per game (with its 95% half-width).  One line, or JSON with --json;
--progress prints a line per game to stderr.

A long row can be split over processes and survive being stopped: `--seat S` plays only the games
with the bot in seat S, `--part I/N` only the I-th of N blocks of each seat's games, `--records FILE` appends one JSON line per finished game, and `--combine
FILE...` prints the row from the records (same game, bots and -n).  `--against-ruleset FILE` has the
--against bots decide on the state rebuilt in another ruleset with the same rules (an evaluation
before it changed: today's bots against a bot on the new one).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_game  # noqa: E402
from interpreter.analysis.executor import LocalExecutor  # noqa: E402
from interpreter.analysis.simulation import RunSpec, keep_loaded  # noqa: E402
from interpreter.analysis import playing  # noqa: E402
from interpreter.analysis.stats import clopper_pearson_interval, wilson_interval  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402

SEAT_SEED_STEP = 100_000


class ThinkingClock:
    """CPU seconds each bot spec spent choosing, and its decisions (the games of this process: with
    --jobs 1, all of them), so equal time per decision can be checked, not only asked for."""

    def __init__(self, against_game=None):
        self.seconds: dict = {}
        self.decisions: dict = {}
        self.against_game = against_game  # --against-ruleset: the game the --against bots judge by
        self.bot_seat = None  # the seat of the bot under test in the games being played

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
        if self.against_game is not None and seat != self.bot_seat:  # rebuilding the state is not thinking
            bot.choose = on_twin(timed, self.against_game)
        return bot


def on_twin(choose, twin_game):
    """``choose`` made to decide on the same state rebuilt in ``twin_game`` (the same rules with
    another evaluation, say the ruleset before its evaluation changed), its choice mapped back."""
    def chosen(state):
        twin = twin_game.state_from_json(state.to_json())
        picked = choose(twin)
        index = next(i for i, action in enumerate(twin.legal_actions()) if action is picked)
        return state.legal_actions()[index]
    return chosen


def play_records(game, bot: str, games: int, seed: int, jobs: int, against: str = "random", progress=None,
                 seat_list=None, on_record=None, part=(0, 1), against_game=None) -> list:
    """One record per game: the bot's seat, the game's seed, the winners, the decisions and (with
    --jobs 1) the CPU seconds and decisions each spec spent choosing.  ``seat_list``: play only the
    games of these seats (counted from 0), and ``part`` (i, n): only the i-th of n equal blocks of
    each seat's games, to split a row over processes."""
    players = game.num_players
    records: list = []
    wall = time.perf_counter()
    if against_game is not None and jobs > 1:
        raise SystemExit("--against-ruleset plays in this process: use --jobs 1")
    clock = ThinkingClock(against_game)
    playing.make_bot = clock.make_bot  # the games of this process are timed per spec
    for seat in range(players) if seat_list is None else seat_list:
        count = len(range(seat, games, players))
        first, last = count * part[0] // part[1], count * (part[0] + 1) // part[1]
        if last <= first:
            continue
        seats = [against] * players
        seats[seat] = bot
        clock.bot_seat = seat
        spec = RunSpec(game.path, dict(game.params), players, seats, seed + seat * SEAT_SEED_STEP)
        keep_loaded(spec, game)
        with LocalExecutor(jobs) as executor:  # each game's result as it comes, for --records
            for result in (result for chunk in executor.run(spec, last - first, first) for result in chunk):
                think = {name: [round(clock.seconds.get(name, 0.0), 4), clock.decisions.get(name, 0)]
                         for name in (bot, against)} if jobs <= 1 else None
                clock.seconds, clock.decisions = {}, {}
                record = {"seat": seat, "seed": result.seed, "winners": result.winners,
                          "returns": result.returns, "decisions": result.decisions, "think": think}
                records.append(record)
                if on_record:
                    on_record(record)
                if progress:
                    progress(f"{len(records)} games, {time.perf_counter() - wall:.0f} s (bot in seat {seat + 1})")
    return records


def summarize(records: list, game_name: str, players: int, bot: str, against: str, seed: int) -> dict:
    """The row of a strength table from per-game records (of one process or several)."""
    games = len(records)
    share = sum(1 / len(r["winners"]) for r in records if r["seat"] in r["winners"])
    sole = sum(1 for r in records if r["winners"] == [r["seat"]])
    shared = sum(1 for r in records if r["seat"] in r["winners"] and len(r["winners"]) > 1)
    by_seat = []
    for seat in sorted({r["seat"] for r in records}):
        mine = [r for r in records if r["seat"] == seat]
        seat_share = sum(1 / len(r["winners"]) for r in mine if seat in r["winners"])
        by_seat.append({"seat": seat + 1, "games": len(mine), "win_share": round(seat_share / len(mine), 3)})
    lo, hi = wilson_interval(share, games)
    sole_lo, sole_hi = clopper_pearson_interval(sole, games)
    timed = [r["think"] for r in records if r.get("think")]
    ms = {}
    for name in (bot, against):
        seconds = sum(t[name][0] for t in timed if name in t)
        count = sum(t[name][1] for t in timed if name in t)
        if count:
            ms[name] = round(1000 * seconds / count, 2)
    return {"game": game_name, "players": players, "bot": bot, "against": against, "games": games,
            "seed": seed, "mean_decisions": round(sum(r["decisions"] for r in records) / games, 1),
            "win_share": round(share / games, 3), "ci95": [round(lo, 3), round(hi, 3)],
            "sole_wins": sole, "shared_wins": shared, "losses": games - sole - shared,
            "sole_win_rate": round(sole / games, 3), "sole_ci95": [round(sole_lo, 3), round(sole_hi, 3)],
            "by_seat": by_seat, "random_baseline": round(1 / players, 3), "ms_per_decision": ms or None,
            "score_lead": score_lead(records)}


def score_lead(records: list):
    """The bot's final score minus the mean of the other seats', per game: ``[mean, half-width of
    its 95% interval]`` (normal), or None when a record has no returns (records of before)."""
    leads = []
    for r in records:
        if r.get("returns"):
            others = [x for seat, x in enumerate(r["returns"]) if seat != r["seat"]]
            leads.append(r["returns"][r["seat"]] - sum(others) / len(others))
    if len(leads) < 2 or len(leads) < len(records):
        return None
    mean = sum(leads) / len(leads)
    spread = (sum((x - mean) ** 2 for x in leads) / (len(leads) - 1)) ** 0.5
    return [round(mean, 3), round(1.96 * spread / len(leads) ** 0.5, 3)]


def describe(result: dict) -> str:
    def pct(x):
        return f"{100 * x:.1f}%"
    seats = ", ".join(f"seat {s['seat']} {pct(s['win_share'])} of {s['games']}" for s in result["by_seat"])
    return (f"{result['game']} ({result['players']} players): {result['bot']} against {result['against']}: "
            f"win share {pct(result['win_share'])} (95% CI {pct(result['ci95'][0])}–{pct(result['ci95'][1])}); "
            f"{result['sole_wins']} sole wins (95% CI {pct(result['sole_ci95'][0])}–{pct(result['sole_ci95'][1])}), "
            f"{result['shared_wins']} shared, {result['losses']} losses in {result['games']} games ({seats}) "
            f"of {result['mean_decisions']} decisions; an equal player would get "
            f"{100 * result['random_baseline']:.0f}%"
            + (f"; its score minus the others' mean {result['score_lead'][0]:g} (±{result['score_lead'][1]:g})"
               if result.get("score_lead") else "")
            + (f"; {result['seconds']} s, {result['cpu_seconds']} CPU s here" if "seconds" in result else "")
            + ("; CPU ms per decision with a choice: " + ", ".join(
                f"{spec} {ms}" for spec, ms in result["ms_per_decision"].items()) if result["ms_per_decision"] else ""))


def _part(text: str) -> tuple:
    index, _, count = text.partition("/")
    if not (index.isdigit() and count.isdigit() and 1 <= int(index) <= int(count)):
        raise SystemExit(f"--part is I/N with 1 <= I <= N, not {text!r}")
    return int(index) - 1, int(count)


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
    parser.add_argument("--seat", type=int, action="append",
                        help="play only the games with the bot in this seat (from 1; repeatable), to "
                             "split a row over processes; combine their --records with --combine")
    parser.add_argument("--part", default="1/1", metavar="I/N",
                        help="play only the I-th of N equal blocks of each seat's games (to split a row)")
    parser.add_argument("--records", help="append one JSON line per finished game to this file")
    parser.add_argument("--against-ruleset", metavar="FILE",
                        help="the --against bots decide on the game of this ruleset (the same rules, "
                             "another evaluation: today's bots after the ruleset's evaluation changed)")
    parser.add_argument("--combine", nargs="+", metavar="FILE",
                        help="print the row from the --records files of earlier runs (same game, bots "
                             "and -n) instead of playing")
    args = parser.parse_args(argv)
    game = load_game(args.game, players=args.players)
    if args.combine:
        records = [json.loads(line) for name in args.combine
                   for line in Path(name).read_text(encoding="utf-8").splitlines() if line.strip()]
        result = summarize(records, game.name, game.num_players, args.bot, args.against, args.seed)
        print(json.dumps(result, ensure_ascii=False) if args.json else describe(result))
        return 0

    def progress(line):
        print(line, file=sys.stderr, flush=True)
    sink = open(args.records, "a", encoding="utf-8") if args.records else None

    def keep(record):
        sink.write(json.dumps(record) + "\n")
        sink.flush()
    wall, cpu = time.perf_counter(), time.process_time()
    records = play_records(game, args.bot, args.games, args.seed, args.jobs, args.against,
                           progress if args.progress else None,
                           [s - 1 for s in args.seat] if args.seat else None, keep if sink else None,
                           _part(args.part),
                           load_game(args.against_ruleset, players=args.players) if args.against_ruleset else None)
    result = {**summarize(records, game.name, game.num_players, args.bot, args.against, args.seed),
              "seconds": round(time.perf_counter() - wall, 1), "cpu_seconds": round(time.process_time() - cpu, 1)}
    print(json.dumps(result, ensure_ascii=False) if args.json else describe(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
