"""What a way of spending a decision's playouts is worth, offline: its regret against many worlds.

    python benchmarks/decision_regret.py pferderennen-mafia --players 4
    python benchmarks/decision_regret.py la-famiglia --games 20 --worlds 32

Strength runs need thousands of games to show a point; this screens a way of choosing in a minute.
Positions: every other decision with a choice (a fixed random half) in ``--games`` games of `flat`
against itself.  At each, every legal action is judged on ``--worlds`` dealt worlds by the default
simulation bot's judge (one round of the table, its own seat's next stage by the evaluation, keyed
replies: ``flat:follow=1,keyed=1``), in the kernel where available.  The second half of the worlds is
the reference: an action's mean there is taken as its value.  Each way of choosing reads only the
first half and pays for what it reads, in playouts with a dealt world counted as ``--deal``; its
*regret* at a position is the best reference value minus the value of the action it picks (the mean
over the actions it cannot tell apart, as a random pick among them gets).  The ways:

- ``flat``: `flat`'s worlds (``min(rollouts, budget // actions)``, at least one), every action on
  each, at `flat`'s price; ``flat 2x`` and ``flat 4x`` with twice and four times its worlds;
- ``race z=…, tie=…``: :func:`interpreter.bots.racing.contenders` after each world, at `flat`'s price
  plus what earlier decisions left unspent (as `flat:race` spends; ``--deal`` the price of a world);
- ``look, then race top k``: the actions ordered by the evaluation one step ahead (the seat's lead
  over the best other seat, on one dealt world; charged 0.1 playout each), the best ``k`` raced;
- ``look as tie-break``: `flat`, its equal totals ordered by that look.

The reference shares the judge, so this measures how well a way of choosing spends samples, not
whether the judge is right; a better judge shows only in games (benchmarks/strength.py).  Mean
regrets are printed for two halves of the positions (every other one), to show what is noise, and
by decisions of at most 8, 9 to 32 and more than 32 actions.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_game  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402
from interpreter.bots.base import Mirror  # noqa: E402
from interpreter.bots.outcomes import evaluations  # noqa: E402
from interpreter.bots.racing import contenders  # noqa: E402
from interpreter.runtime.narration import mute  # noqa: E402

JUDGE = "flat:follow=1,keyed=1"
LOOK = 0.1  # what a look one step ahead is charged, in playouts (flat's `look`)
MOST = 16  # the most worlds a race deals (flat's `most`)
SIZES = (("<=8", 8), ("9-32", 32), (">32", None))


def positions(game, games: int) -> list:
    found = []
    for g in range(games):
        state = game.new_initial_state(100 + g)
        bots = [make_bot("flat", seat, 1000 * g + seat) for seat in range(game.num_players)]
        pick = random.Random(g)
        while not state.is_terminal():
            actions = state.legal_actions()
            if len(actions) > 1 and pick.random() < 0.5:
                found.append(state.clone())
            state.apply_action(bots[state.current_player()].choose(state) if len(actions) > 1 else actions[0])
    return found


def judged(state, worlds: int, seed: int) -> tuple:
    """``(values, looks)``: per world, every legal action's value by the judge; and every action's
    look one step ahead on the first world."""
    seat = state.current_player()
    bot = make_bot(JUDGE, seat, seed)
    actions = state.legal_actions()
    values, looks = [], None
    for _ in range(worlds):
        world = state.determinize(seat, bot.rng)
        mute(world)
        judge = bot.round_judge(world, bot.rng.getrandbits(64))
        mirror = Mirror(world.legal_actions())
        mirrored = [mirror.of(i, a) for i, a in enumerate(actions)]
        if any(m is None for m in mirrored):
            continue
        values.append([judge.of_world(world, m) for m in mirrored])
        if looks is None:
            looks = []
            for m in mirrored:
                after = world.clone()
                after.apply_action(m)
                mine = evaluations(after)
                looks.append(mine[seat] - max(v for p, v in enumerate(mine) if p != seat))
    return values, looks


def flat_worlds(n: int, rollouts: int = 4, budget: int = 32) -> int:
    """The worlds `flat` deals for a decision of ``n`` actions at its default options."""
    return max(1, min(rollouts, budget // n))


def race(seen, alive, z, tie, allowance, deal) -> tuple:
    """The actions a race over the worlds ``seen`` leaves tied at the top, and its cost."""
    listed, sums = [[] for _ in range(len(seen[0]))], [0.0] * len(seen[0])
    cost, worlds = 0.0, 0
    while True:
        row = seen[worlds]
        worlds += 1
        cost += deal + len(alive)
        for i in alive:
            listed[i].append(row[i])
            sums[i] += row[i]
        alive = contenders(listed, sums, alive, z, tie)
        if len(alive) == 1 or worlds >= min(len(seen), MOST) or cost + deal + len(alive) > allowance:
            break
    best = max(sums[i] for i in alive)
    return [i for i in alive if sums[i] == best], cost


def top(scores: dict) -> list:
    best = max(scores.values())
    return [i for i, s in scores.items() if s == best]


def ways(deal: float) -> dict:
    """Each way of choosing: ``choose(seen, looks, n, saved) -> (tied actions, cost, price)``."""
    def flat(mult):
        def choose(seen, looks, n, saved):
            k = min(len(seen), flat_worlds(n) * mult)
            return top({i: sum(w[i] for w in seen[:k]) for i in range(n)}), k * (deal + n), flat_worlds(n) * (deal + n)
        return choose

    def raced(z, tie, cut=None):
        def choose(seen, looks, n, saved):
            price = flat_worlds(n) * (deal + n)
            alive = list(range(n))
            spent = 0.0
            if cut is not None and n > cut:
                alive = sorted(alive, key=lambda i: -looks[i])[:cut]
                spent = LOOK * n
            tied, cost = race(seen, alive, z, tie, price + saved - spent, deal)
            return tied, cost + spent, price
        return choose

    def tie_break(seen, looks, n, saved):
        tied, cost, price = flat(1)(seen, looks, n, saved)
        return top({i: looks[i] for i in tied}), cost + LOOK * n, price
    chosen = {"flat": flat(1), "flat 2x": flat(2), "flat 4x": flat(4)}
    for z, tie in ((1.0, 0.1), (0.5, 0.1), (1.0, 0.0)):
        chosen[f"race z={z}, tie={tie}"] = raced(z, tie)
    for k in (4, 8):
        chosen[f"look, then race top {k}"] = raced(1.0, 0.1, k)
    chosen["look as tie-break"] = tie_break
    return chosen


def regrets(rows, choose, savings: float) -> tuple:
    """Mean regret overall and by size, and the cost relative to `flat`'s price."""
    by_size = {label: [] for label, _ in SIZES}
    spent = price_total = saved = 0.0
    for values, looks in rows:
        half = len(values) // 2
        seen, reference = values[:half], values[half:]
        n = len(values[0])
        truth = [sum(w[i] for w in reference) / len(reference) for i in range(n)]
        tied, cost, price = choose(seen, looks, n, saved)
        saved = min(savings, price + saved - cost)
        spent += cost
        price_total += price
        label = next(label for label, most in SIZES if most is None or n <= most)
        by_size[label].append(max(truth) - sum(truth[i] for i in tied) / len(tied))
    every = [r for part in by_size.values() for r in part]
    return (sum(every) / len(every), {k: sum(v) / len(v) if v else float("nan") for k, v in by_size.items()},
            spent / price_total)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=10, help="games of flat against itself (default 10)")
    parser.add_argument("--worlds", type=int, default=64, help="worlds per position, half of them the reference")
    parser.add_argument("--deal", type=float, default=10.0, help="a dealt world's price in playouts (flat's: 10)")
    args = parser.parse_args(argv)
    game = load_game(args.game, players=args.players)
    rows = []
    for k, state in enumerate(positions(game, args.games)):
        values, looks = judged(state, args.worlds, k)
        if len(values) >= 4:
            rows.append((values, looks))
    halves = (rows[0::2], rows[1::2])
    print(f"{game.ruleset.name} ({game.num_players} players): {len(rows)} positions, {args.worlds} worlds each; "
          f"mean regret (halves A | B), by actions {', '.join(label for label, _ in SIZES)}; CPU against flat's price")
    for name, choose in ways(args.deal).items():
        parts = [regrets(half, choose, 4 * 32) for half in halves]
        sizes = " ".join(f"{label} {parts[0][1][label]:.4f}|{parts[1][1][label]:.4f}" for label, _ in SIZES)
        print(f"  {name:24} {parts[0][0]:.4f} | {parts[1][0]:.4f}   {sizes}   CPU {parts[0][2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
