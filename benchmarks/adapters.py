"""The cost of the OpenSpiel adapter against the engine's own API, and of explicit chance against
seeded mode, on random playouts of the six classic rulesets.

    python benchmarks/adapters.py                 # 2 CPU seconds a row
    python benchmarks/adapters.py --seconds 5 --rulesets classic/kuhn-poker

Rows, each uniformly random play from seeds 0, 1, 2, … until the time is spent (decisions per CPU
second; chance outcomes are not counted as decisions):

* ``engine``: ``state.legal_actions()`` and ``state.apply_action(action)`` on the engine's state;
* ``adapter``: ``state.legal_actions()`` and ``state.apply_action(id)`` on the pyspiel state of
  ``pyspiel.load_game("rulebook", ...)``, seeded mode;
* ``engine explicit`` / ``adapter explicit``: the same in explicit-chance mode, each chance node
  resolved by a uniformly random outcome of ``chance_outcomes()``.

Prints the rates and the ratios adapter/engine and explicit/seeded (of the slower to the faster:
1.0 is no overhead).  ``--layers`` prints instead, seeded, the µs a decision takes as each layer of the
adapter is added: the engine's loop, + action ids (``ActionSpace.legal_numbering``), +
``Match`` (``legal_ids``/``apply_id``), + the pyspiel state.  ``--split`` replays 2,000 recorded
random games through the engine, ``Match`` and the pyspiel state with the same calls at each decision
and prints the µs that ``Match`` adds to the engine and the pyspiel state to ``Match``, per new game
and per decision.  ``--copies`` prints, for the adapter in
explicit chance, the copies of an engine state (``State.clone``) and the steps run (a player's action
or a chance outcome run by :mod:`interpreter.runtime.chance`: an action on the state itself or on a
copy, an outcome from the chance node's state) per game, against the decisions and chance nodes of a
game.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CLASSICS = ["classic/tic-tac-toe", "classic/connect-four", "classic/kuhn-poker", "classic/leduc-poker",
            "classic/goofspiel", "classic/liars-dice"]


def _rate(play, seconds: float) -> float:
    """Decisions per CPU second of ``play(seed, rng)`` (which returns the decisions of one game)."""
    decisions, seed = 0, 0
    start = time.process_time()
    while True:
        decisions += play(seed, random.Random(seed))
        seed += 1
        if time.process_time() - start >= seconds:
            return decisions / (time.process_time() - start)


def engine_play(game, explicit: bool):
    def play(seed, rng) -> int:
        state = game.new_initial_state(seed, explicit_chance=explicit)
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0].index)
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        return decisions
    return play


def adapter_play(game):
    def play(seed, rng) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        return decisions
    return play


def ids_play(game):
    space = game.action_space()

    def play(seed, rng) -> int:
        state = game.new_initial_state(seed)
        decisions = 0
        while not state.is_terminal():
            ids, where, legal = space.legal_numbering(state)
            state.apply_action(legal[where[rng.choice(list(ids))]])
            decisions += 1
        return decisions
    return play


def match_play(game):
    from interpreter.adapters.match import Match

    def play(seed, rng) -> int:
        match = Match(game.new_initial_state(seed), limit=10_000)
        decisions = 0
        while not match.is_terminal():
            match.apply_id(rng.choice(match.legal_ids()))
            decisions += 1
        return decisions
    return play


def layers(ruleset: str, seconds: float) -> list:
    """µs a decision, seeded: the engine, + ids, + Match, + pyspiel."""
    import pyspiel

    import interpreter.adapters.openspiel  # noqa: F401  (registers the game)
    from interpreter.adapters.match import cached_game

    engine = cached_game(ruleset)
    spiel = pyspiel.load_game("rulebook", {"ruleset": ruleset, "seed": 0})
    plays = [engine_play(engine, False), ids_play(engine), match_play(engine), adapter_play(spiel)]
    return [1e6 / _rate(play, seconds) for play in plays]


def split(ruleset: str, games: int = 2000, rounds: int = 5) -> dict:
    """µs a new game and µs a decision that ``Match`` adds to the engine and the pyspiel state adds to
    ``Match``, seeded: ``games`` random games recorded, then replayed with the same calls at each
    decision (is it over, is it chance, the legal actions, the action) through each; CPU time, the
    best of ``rounds``."""
    import pyspiel

    import interpreter.adapters.openspiel  # noqa: F401  (registers the game)
    from interpreter.adapters.match import Match, cached_game

    engine = cached_game(ruleset)
    spiel = pyspiel.load_game("rulebook", {"ruleset": ruleset, "seed": 0})
    recorded = []  # (seed, [(id, position among the legal actions)])
    for seed in range(games):
        match, rng, steps = Match(engine.new_initial_state(seed), limit=10_000), random.Random(seed), []
        while not match.is_terminal():
            i = rng.choice(match.legal_ids())
            steps.append((i, match.numbering[1][i]))
            match.apply_id(i)
        recorded.append((seed, steps))
    decisions = sum(len(steps) for _, steps in recorded)

    def engine_games(play):
        for seed, steps in recorded:
            state = engine.new_initial_state(seed)
            for _, position in steps[:len(steps) if play else 0]:
                state.is_terminal(), state.is_chance_node()
                state.apply_action(state.legal_actions()[position])
            state.is_terminal()

    def match_games(play):
        for seed, steps in recorded:
            match = Match(engine.new_initial_state(seed), limit=10_000)
            for i, _ in steps[:len(steps) if play else 0]:
                match.is_terminal(), match.current_player(), match.legal_ids()
                match.apply_id(i)
            match.is_terminal()

    def spiel_games(play):
        for seed, steps in recorded:
            state = spiel.new_initial_state()
            state._handle.seed = seed  # the recorded game
            for i, _ in steps[:len(steps) if play else 0]:
                state.is_terminal(), state.is_chance_node(), state.legal_actions()
                state.apply_action(i)
            state.is_terminal()

    def best(run, play) -> float:
        times = []
        for _ in range(rounds):
            start = time.process_time()
            run(play)
            times.append(time.process_time() - start)
        return min(times) * 1e6

    t = {name: (best(run, False), best(run, True)) for name, run in
         (("engine", engine_games), ("Match", match_games), ("pyspiel", spiel_games))}
    row = {"decisions a game": decisions / games}
    for name, below in (("Match", "engine"), ("pyspiel", "Match")):
        row[f"{name}: a game"] = (t[name][0] - t[below][0]) / games
        row[f"{name}: a decision"] = ((t[name][1] - t[name][0]) - (t[below][1] - t[below][0])) / decisions
    return row


def copies(ruleset: str, games: int = 2000) -> dict:
    """Per game of random play through the adapter in explicit chance: state copies, steps run,
    decisions and chance nodes (``State.clone``, ``chance._fed`` and ``chance._run_on_itself`` counted
    while the games run)."""
    import pyspiel

    import interpreter.adapters.openspiel  # noqa: F401  (registers the game)
    from interpreter.runtime import chance, state

    spiel = pyspiel.load_game("rulebook", {"ruleset": ruleset, "seed": 0, "explicit_chance": True})
    counts = {"copies": 0, "steps": 0, "decisions": 0, "chance nodes": 0}
    clone, fed, in_place = state.State.clone, chance._fed, chance._run_on_itself

    def counted_clone(s):
        counts["copies"] += 1
        return clone(s)

    def counted_fed(work, feeder, step):
        counts["steps"] += 1
        return fed(work, feeder, step)

    def counted_in_place(s, action):
        ran = in_place(s, action)
        counts["steps"] += ran
        return ran

    state.State.clone, chance._fed, chance._run_on_itself = counted_clone, counted_fed, counted_in_place
    try:
        for seed in range(games):
            rng, s = random.Random(seed), spiel.new_initial_state()
            while not s.is_terminal():
                node = s.is_chance_node()
                counts["chance nodes" if node else "decisions"] += 1
                s.apply_action(rng.choice([o for o, _ in s.chance_outcomes()] if node else s.legal_actions()))
    finally:
        state.State.clone, chance._fed, chance._run_on_itself = clone, fed, in_place
    return {name: count / games for name, count in counts.items()}


def measure(ruleset: str, seconds: float) -> dict:
    import pyspiel

    import interpreter.adapters.openspiel  # noqa: F401  (registers the game)
    from interpreter.adapters.match import cached_game

    engine = cached_game(ruleset)
    rates = {}
    for explicit in (False, True):
        spiel = pyspiel.load_game("rulebook", {"ruleset": ruleset, "seed": 0, "explicit_chance": explicit})
        suffix = " explicit" if explicit else ""
        rates["engine" + suffix] = _rate(engine_play(engine, explicit), seconds)
        rates["adapter" + suffix] = _rate(adapter_play(spiel), seconds)
    return rates


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rulesets", nargs="+", default=CLASSICS)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per row (default 2)")
    parser.add_argument("--layers", action="store_true", help="µs a decision as each layer is added (seeded)")
    parser.add_argument("--copies", action="store_true",
                        help="explicit chance: state copies and steps run per game (2,000 games)")
    parser.add_argument("--split", action="store_true",
                        help="µs a new game and a decision that Match and the pyspiel state add (seeded)")
    args = parser.parse_args(argv)
    if args.split:
        print(f"{'ruleset':<22}{'decisions':>10}{'Match/game':>12}{'Match/dec':>11}{'pyspiel/game':>14}"
              f"{'pyspiel/dec':>13}   (µs)")
        for ruleset in args.rulesets:
            row = list(split(ruleset).values())
            print(f"{ruleset.split('/')[-1]:<22}{row[0]:>10.2f}{row[1]:>12.2f}{row[2]:>11.2f}{row[3]:>14.2f}"
                  f"{row[4]:>13.2f}", flush=True)
        return 0
    if args.copies:
        print(f"{'ruleset':<22}{'copies':>9}{'steps':>9}{'decisions':>11}{'chance':>9}   (per game)")
        for ruleset in args.rulesets:
            row = copies(ruleset)
            print(f"{ruleset.split('/')[-1]:<22}" + "".join(f"{row[k]:>{w}.2f}" for k, w in
                  (("copies", 9), ("steps", 9), ("decisions", 11), ("chance nodes", 9))), flush=True)
        return 0
    if args.layers:
        print(f"{'ruleset':<22}{'engine':>9}{'+ ids':>9}{'+ Match':>9}{'+ pyspiel':>10}   (µs a decision)")
        for ruleset in args.rulesets:
            row = layers(ruleset, args.seconds)
            print(f"{ruleset.split('/')[-1]:<22}" + "".join(f"{v:>9.2f}" for v in row[:3]) + f"{row[3]:>10.2f}",
                  flush=True)
        return 0
    print(f"{'ruleset':<22}{'engine':>10}{'adapter':>10}{'ratio':>7}{'eng expl':>10}{'ad expl':>10}"
          f"{'expl/seed':>10}")
    for ruleset in args.rulesets:
        r = measure(ruleset, args.seconds)
        print(f"{ruleset.split('/')[-1]:<22}{r['engine']:>10,.0f}{r['adapter']:>10,.0f}"
              f"{r['engine'] / r['adapter']:>7.2f}{r['engine explicit']:>10,.0f}{r['adapter explicit']:>10,.0f}"
              f"{r['adapter'] / r['adapter explicit']:>10.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
