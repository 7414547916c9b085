"""Speed of the mcts and flat bots: iterations (playouts) per CPU second from fixed positions of every game.

    python benchmarks/mcts_speed.py                      # default settings, 100 iterations a move
    python benchmarks/mcts_speed.py --iterations 200 --depth 20
    python benchmarks/mcts_speed.py --root ../other-checkout   # the same positions, another version
    python benchmarks/mcts_speed.py --engine native      # playouts in the native kernel (same moves)
    python benchmarks/mcts_speed.py --bot flat           # flat's playouts (4 a legal action, 32 at most)

For each game it plays three seeded random games (seeds 0, 1, 2), takes 12 positions spread over
them where the seat to move has a choice, and lets `mcts` (bot seed = the position's number) choose
a move in each.  Printed per game: iterations, CPU seconds of this process, iterations per CPU
second, and a digest of the chosen moves: two versions that search alike print the same digest.
With ``--bot flat`` an iteration is one of flat's playouts (one round of the table).
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

GAMES = [("la-famiglia", 2), ("gangster", 2), ("mafiadollar", 2), ("pferderennen-mafia", 4)]


def positions(game, seeds=(0, 1, 2), count: int = 12) -> list:
    found = []
    for seed in seeds:
        rng, state = random.Random(seed), game.new_initial_state(seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            if len(actions) > 1:
                found.append(state.clone())
            state.apply_action(actions[rng.randrange(len(actions))])
    return found[::max(1, len(found) // count)][:count]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--depth", type=int, default=200, help="mcts rollout depth (default 200)")
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent),
                        help="the checkout whose interpreter to measure (default: this one)")
    parser.add_argument("--games", nargs="+", help="only these rulesets")
    parser.add_argument("--engine", choices=("python", "native"), default="python",
                        help="where the playouts run (native: the kernel, where available)")
    parser.add_argument("--bot", choices=("mcts", "flat"), default="mcts")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(args.root).resolve()))
    from interpreter import load_game
    from interpreter.bots import make_bot
    from interpreter.bots.mcts import Search
    for name, players in GAMES:
        if args.games and name not in args.games:
            continue
        game = load_game(name, players=players)
        digest, done, chosen = hashlib.sha256(), 0, positions(game)
        if args.engine == "native":
            from interpreter.native import kernel_for
            kernel_for(game)  # built (or read from the cache) before the clock starts
        start = time.process_time()
        for i, state in enumerate(chosen):
            if args.bot == "flat":  # a decision takes few playouts: 20 decisions (bot seeds) a position
                for repeat in range(20):
                    bot = make_bot(f"flat:engine={args.engine}", state.current_player(), i + 1000 * repeat)
                    digest.update(str(bot.choose(state)).encode())
                    actions = len(state.legal_actions())
                    done += actions * max(1, min(bot.settings["rollouts"], bot.settings["budget"] // actions))
                continue
            search = Search(state.current_player(), random.Random(i), iterations=args.iterations,
                            rollout_depth=args.depth, engine=args.engine)
            digest.update(str(search.best_action(state)).encode())
            done += search.iterations_done
        spent = time.process_time() - start
        print(f"{name:<20} {players} players  {done:>6} iterations  {spent:6.1f} CPU s  "
              f"{done / spent:7.1f} it/s  moves {digest.hexdigest()[:10]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
