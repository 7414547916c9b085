#!/usr/bin/env python3
"""Whole random games per second in the native kernel (interpreter/native/), in the Python engine, in
OpenSpiel's C++ games driven from Python (the classics) and in the hand-written Python games of
../shared/baselines (La Famiglia, Gangster; 2 players), and the time to build each kernel, cold and cached.

    nice -n 10 python benchmarks/native.py                    # the classics and the seed games, 1 s each
    nice -n 10 python benchmarks/native.py --seconds 3 tic-tac-toe

Needs the native extra (pip install -e '.[native]') and a C compiler; the OpenSpiel column needs the
openspiel extra.  Every side plays uniformly random moves in one process on one core: the kernel
whole games in C (``Kernel.play_many``: the states stay in C, only the sums of returns come back),
the Python engine the kernel's own policy (``interpreter.native.reference.play_python``), OpenSpiel
``state.apply_action(random.choice(state.legal_actions()))`` with chance sampled.  "cold" builds in
an empty cache folder (generate C, compile, import); "cached" is ``kernel_for`` in a new process
whose cache holds the kernel; "cold s" is wall time, "cpu s" the CPU time of the build (this process and
the compiler), which is what a build costs on an idle machine.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="rulebook-native-bench-")  # cold builds

from interpreter import load_game  # noqa: E402
from interpreter.native import NativeUnavailable, kernel_for  # noqa: E402
from interpreter.native.reference import play_python  # noqa: E402

SEED_GAMES = ["la-famiglia", "gangster", "pferderennen-mafia", "mafiadollar"]
BASELINES = {"la-famiglia": "la_famiglia", "gangster": "gangster"}  # hand-written games in ../shared/baselines
OPENSPIEL = {"tic-tac-toe": ("tic_tac_toe", {}), "connect-four": ("connect_four", {}),
             "kuhn-poker": ("kuhn_poker", {"players": 2}), "leduc-poker": ("leduc_poker", {"players": 2}),
             "liars-dice": ("liars_dice", {"players": 2, "numdice": 1, "dice_sides": 6}),
             "goofspiel": ("goofspiel", {"num_cards": 4, "points_order": "descending", "returns_type": "win_loss"})}
TURN_BASED = {"goofspiel"}  # simultaneous in OpenSpiel: played through pyspiel.convert_to_turn_based
CACHED = ("import sys, time; sys.path.insert(0, {root!r}); from interpreter import load_game; "
          "from interpreter.native import kernel_for; g = load_game({name!r}); t = time.perf_counter(); "
          "k = kernel_for(g); print(time.perf_counter() - t, k.cached)")


def _cpu() -> float:
    """CPU seconds of this process and its children (the C compiler)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def kernel_rate(kernel, seconds: float) -> float:
    games, batch, start = 0, 1000, time.process_time()
    while time.process_time() - start < seconds:
        kernel.play_many(batch, seed=games, policy_seed=games * 31 + 7)
        games += batch
    return games / (time.process_time() - start)


def python_rate(game, seconds: float) -> float:
    games, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        play_python(game, games, games * 31 + 7)
        games += 1
    return games / (time.process_time() - start)


def openspiel_rate(name: str, seconds: float):
    try:
        import pyspiel
    except ImportError:
        return None
    game, params = OPENSPIEL[name]
    game = pyspiel.load_game(game, params)
    if name in TURN_BASED:
        game = pyspiel.convert_to_turn_based(game)
    games, rng, start = 0, random.Random(0), time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
    return games / (time.process_time() - start)


def baseline_rate(name: str, folder, seconds: float):
    """Whole random games per second of the hand-written game (see the baselines' README), if found."""
    if name not in BASELINES or folder is None:
        return None
    sys.path.insert(0, str(folder))
    hand = __import__(BASELINES[name])
    games, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        s, rng = hand.new_game(games, 2), random.Random(games)
        while not hand.is_over(s):
            hand.apply(s, rng.choice(hand.legal_actions(s)))
        games += 1
    return games / (time.process_time() - start)


def baselines_folder():
    for folder in (ROOT.parent / "shared" / "baselines", ROOT.parent.parent / "shared" / "baselines"):
        if (folder / "ratio.py").is_file():
            return folder
    return None


def cached_build(name: str) -> float:
    out = subprocess.run([sys.executable, "-c", CACHED.format(root=str(ROOT), name=name)], check=True,
                         capture_output=True, text=True, env=os.environ).stdout.split()
    assert out[1] == "True", out
    return float(out[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", default=list(OPENSPIEL) + SEED_GAMES)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement (default 1)")
    args = parser.parse_args()
    folder = baselines_folder()
    print(f"{'ruleset':19} {'kernel g/s':>11} {'python g/s':>11} {'ratio':>6} {'other g/s':>10} "
          f"{'kernel/other':>12} {'cold s':>7} {'cpu s':>7} {'cached s':>9}   "
          "(other: OpenSpiel C++ or hand-written Python)")
    for name in args.rulesets:
        game = load_game(name)
        start, cpu = time.perf_counter(), _cpu()
        try:
            kernel = kernel_for(game)
        except NativeUnavailable as exc:
            print(f"{name:19} {exc}")
            continue
        cold, cold_cpu = time.perf_counter() - start, _cpu() - cpu
        native, python = kernel_rate(kernel, args.seconds), python_rate(game, args.seconds)
        theirs = openspiel_rate(name, args.seconds) if name in OPENSPIEL else baseline_rate(name, folder, args.seconds)
        versus = f"{native / theirs:12.1f}" if theirs else f"{'-':>12}"
        print(f"{name:19} {native:11.0f} {python:11.1f} {native / python:6.0f} "
              f"{(f'{theirs:.1f}' if theirs else '-'):>10} {versus} {cold:7.1f} {cold_cpu:7.1f} {cached_build(name):9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
