"""How far a bot's choices fall short of the best by `flat`'s own judge, and what they cost: a quick
screen of bot settings before strength runs.

    python benchmarks/decision_regret.py flat flat:race=1.5,rollouts=12,budget=64 --games la-famiglia

Positions: every FIFTH decision with a choice of `--games` played by two (or the ruleset's default
number of) `flat` bots, seeds 1.. (`--positions` per game).  Each position's actions are valued once
by `flat`'s one-round judge over `--worlds` dealt worlds (common random numbers, as `flat` judges);
each spec then chooses in every position `--repeats` times (bot seeds 0..), and is printed with its
mean *regret* (the best action's value minus the chosen one's: 0 is a perfect choice by that judge,
in shares of a win), how often it chose an action of the top value, its CPU ms per decision and its
dealt worlds and playouts per decision.  Same seeds, same figures (the CPU times aside).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.mcts_speed import GAMES  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402
from interpreter.bots.base import Bot  # noqa: E402

EVERY = 5


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=["flat"])
    parser.add_argument("--games", nargs="+", help="only these rulesets")
    parser.add_argument("--positions", type=int, default=60, help="positions per game (default 60)")
    parser.add_argument("--worlds", type=int, default=200, help="worlds that value each position (default 200)")
    parser.add_argument("--judge", default="flat",
                        help="the bot whose judge values the positions (default flat; say lookahead:margin=1)")
    parser.add_argument("--repeats", type=int, default=4, help="choices per spec and position (default 4)")
    args = parser.parse_args(argv)
    counted = count_work()
    for name, players in GAMES:
        if args.games and name not in args.games:
            continue
        game = load_game(name, players=players)
        states = flat_positions(game, args.positions)
        truths = [true_values(state, args.worlds, args.judge) for state in states]
        actions = sum(len(values) for values in truths) / len(truths)
        print(f"{name} {players}p: {len(states)} positions, {actions:.1f} actions each", flush=True)
        for spec in args.specs:
            make_bot(spec, 0, 0).choose(states[0])  # the kernel built before the clock starts
            counted[:] = [0, 0]
            regret = top = 0.0
            start = time.thread_time()
            for repeat in range(args.repeats):
                for i, (state, values) in enumerate(zip(states, truths)):
                    chosen = make_bot(spec, state.current_player(), i + 1000 * repeat).choose(state)
                    value = values[state.legal_actions().index(chosen)]
                    regret += max(values) - value
                    top += value == max(values)
            seconds = time.thread_time() - start
            n = args.repeats * len(states)
            print(f"  {spec:<48} regret {regret / n:.4f}, top {100 * top / n:.1f}%, "
                  f"{1000 * seconds / n:.2f} ms, {counted[0] / n:.2f} worlds, {counted[1] / n:.1f} playouts",
                  flush=True)
    return 0


def flat_positions(game, count: int) -> list:
    """``count`` positions with a choice, every EVERY-th of games between `flat` bots, seeds 1..."""
    found: list = []
    seed = 0
    while len(found) < count:
        seed += 1
        seen = 0
        state = game.new_initial_state(seed)
        bots = [make_bot("flat", seat, seed * 10 + seat) for seat in range(game.num_players)]
        while not state.is_terminal() and len(found) < count:
            if len(state.legal_actions()) > 1:
                seen += 1
                if seen % EVERY == 0:
                    found.append(state.clone())
            seat = state.current_player()
            state.apply_action(bots[seat].choose(state))
    return found


def true_values(state, worlds: int, judge: str) -> list:
    """Each legal action's mean value by the judge of the bot ``judge`` over ``worlds`` dealt worlds."""
    bot = make_bot(judge, state.current_player(), 987654321)
    actions = state.legal_actions()
    totals = [0.0] * len(actions)
    for _ in range(worlds):
        bot.judge_world(state, actions, range(len(actions)), totals,
                        lambda: bot.round_judge(state, bot.rng.getrandbits(64)))
    return [t / worlds for t in totals]


def count_work() -> list:
    """``[worlds, playouts]`` the bots deal and judge, counted from here on."""
    counter = [0, 0]
    judge_world = Bot.judge_world

    def counted(self, state, actions, indices, *args):
        counter[0] += 1
        counter[1] += len(indices)
        return judge_world(self, state, actions, indices, *args)
    Bot.judge_world = counted
    return counter


if __name__ == "__main__":
    sys.exit(main())
