"""What `flat:follow` costs: microseconds per playout with and without it, and per action looked at.

    python benchmarks/follow_cost.py                 # the four seed games
    python benchmarks/follow_cost.py gangster --players 2

From the positions of one seeded game between `flat` bots (every decision with a choice, up to 400
decisions), each position's first dealt world judges all its legal actions twice with the same
playout seed: by `flat`'s judge, and by `flat:follow=100`'s (its own seat's further decisions in the
playout by the evaluation one step ahead).  Printed: the thread's CPU microseconds per playout of
each, the actions looked at per playout, and the CPU cost of a look in microseconds and in playouts
(what the race's `look` option charges for one: its default is the largest of the four games,
rounded).  Load on the machine changes the figures a little; the thread's CPU clock keeps other
work out of them.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_game  # noqa: E402
from interpreter.bots import make_bot  # noqa: E402
from interpreter.bots.base import mute  # noqa: E402

GAMES = [("la-famiglia", 2), ("gangster", 2), ("mafiadollar", 2), ("pferderennen-mafia", 4)]


def measure(name: str, players: int, seed: int = 3, most: int = 400) -> str:
    game = load_game(name, players=players)
    bots = [make_bot("flat", s, 7 + s) for s in range(players)]
    uniform, following = make_bot("flat", 0, 1), make_bot("flat:follow=100", 0, 1)
    state, rng = game.new_initial_state(seed=seed), random.Random(1)
    plain = followed = 0.0
    looks = playouts = steps = 0
    while not state.is_terminal() and steps < most:
        steps += 1
        seat = state.current_player()
        if len(state.legal_actions()) > 1:
            world = state.determinize(seat, rng)
            mute(world)
            uniform.seat = following.seat = seat
            playout_seed = rng.getrandbits(64)
            judges = uniform.round_judge(state, playout_seed), following.round_judge(state, playout_seed)
            actions = world.legal_actions()
            for judge in judges:  # loads the world into the kernel before the clock starts
                judge.of_world(world, actions[0])
            before = judges[1].looks[0]
            start = time.thread_time()
            for action in actions:
                judges[0].of_world(world, action)
            middle = time.thread_time()
            for action in actions:
                judges[1].of_world(world, action)
            plain += middle - start
            followed += time.thread_time() - middle
            looks += judges[1].looks[0] - before
            playouts += len(actions)
        state.apply_action(bots[seat].choose(state))
    per_playout = plain / playouts
    line = (f"{name:20} {players}p  playout {1e6 * per_playout:5.1f} us, with follow {1e6 * followed / playouts:6.1f} us; "
            f"{looks / playouts:4.1f} looks a playout")
    if looks < playouts / 2:  # too few to time apart from the playouts' own spread
        return line + ", too few to time one"
    per_look = (followed - plain) / looks
    return line + f", {1e6 * per_look:5.2f} us a look = {per_look / per_playout:.3f} playouts"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    for name, players in [(args.game, args.players)] if args.game else GAMES:
        print(measure(name, players), flush=True)


if __name__ == "__main__":
    main()
