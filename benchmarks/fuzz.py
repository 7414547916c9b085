"""Fuzz the engine with hostile input: mutated rulesets, tampered saved states and play logs.

A seeded, structure-aware mutator changes YAML nodes (values, keys, list items), expressions (deep
nesting, huge numbers, stray brackets, operators) and texts (format specs, braces, control
characters, length) of the shipped rulesets and of the small test rulesets, and tampers with saved
states and logs at random JSON paths.  Every case must end in a ``RulebookError`` or load: never
another exception, never more than 5 s or 500 MB.  A ruleset that loads is played by random bots
to its end (or a decision cap) with the invariants checked: every component in exactly one zone,
and the state's JSON round trip exact.

    python benchmarks/fuzz.py --rulesets 10000 --states 1000 --seed 1
    python benchmarks/fuzz.py --rulesets 100 --states 0 --native   # also the native kernel against Python

prints the cases, clean errors, loads, tracebacks and time-outs of each kind, and the first
tracebacks in full.  tests/test_hostile.py runs a short fuzz of the same kind.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import RulebookError, load_game  # noqa: E402
from interpreter.analysis.match_log import MatchRecorder, log_header, replay  # noqa: E402

BASES = [ROOT / "tests" / "broken" / "_minimal.yaml", ROOT / "tests" / "conformance" / "_context.yaml",
         ROOT / "rulesets" / "la-famiglia.yaml", ROOT / "rulesets" / "gangster.yaml",
         ROOT / "rulesets" / "mafiadollar.yaml", ROOT / "rulesets" / "pferderennen-mafia.yaml"]
WEIGHTS = [6, 2, 1, 1, 1, 1]  # the small rulesets load fast: most cases mutate them
TIME_LIMIT = 5
MEMORY_MB = 500
DECISION_CAP = 300

HOSTILE_VALUES = [
    None, True, 0, -1, 2 ** 63, -(2 ** 63) - 1, 10 ** 30, 3000000000, 1.5, "", "x" * 200_000, [], {}, [[[]]],
    "card {}", "card {value", "card }", "{value:>300000000}", "{0}", "{value!r}", "{card.__class__}",
    "x\x1b[2J", "[red]x[/bogus]", "\u202e", "\x00", "a" * 5000, "-" * 1000 + "1", "1" + " + 1" * 1000,
    "(" * 500 + "1" + ")" * 500, "9" * 4301, "not " * 1000 + "true", "sum([a for a in range(0, 10000)])",
    "sum([sum([a * b for a in range(0, 10000)]) for b in range(0, 10000)])", "x *= x", "while", "!!python/object",
]
EXPRESSION_EDITS = [" + 1" * 300, " * 99999999999", "(", ")", "[", "]", " and ", " or not ", "-", ".", ",",
                    " for x in ", "9" * 30, "'", "{", "}", " if true else ", "size(", "range(0, 10000)"]


class TimeLimit(Exception):
    pass


def _expire(signum, frame):
    raise TimeLimit()


def guarded(run):
    """Run ``run()`` within the time and memory limits: 'clean', 'ok', 'timeout' or a traceback."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    size = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (size + MEMORY_MB * 2 ** 20, hard))
    signal.signal(signal.SIGALRM, _expire)
    signal.alarm(TIME_LIMIT)
    try:
        run()
        return "ok"
    except RulebookError:
        return "clean"
    except TimeLimit:
        return "timeout"
    except MemoryError:
        return "memory:\n" + traceback.format_exc()
    except Exception:  # noqa: BLE001 - what the fuzzer is looking for
        return "traceback:\n" + traceback.format_exc()
    finally:
        signal.alarm(0)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# ---- mutating rulesets --------------------------------------------------------------------------
def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, path + (i,))


def _get(node, path):
    for key in path:
        node = node[key]
    return node


def mutate_data(data, rng: random.Random):
    """Change one to three nodes of a ruleset's data."""
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(data) if p]
        path = rng.choice(paths)
        parent, key = _get(data, path[:-1]), path[-1]
        value = parent[key]
        roll = rng.random()
        if isinstance(value, str) and roll < 0.5:
            cut = rng.randint(0, len(value))
            parent[key] = value[:cut] + rng.choice(EXPRESSION_EDITS) + value[cut:]
        elif roll < 0.75:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE_VALUES))  # never the shared object itself
        elif roll < 0.85 and isinstance(parent, dict):
            del parent[key]
        elif roll < 0.92 and isinstance(parent, list):
            parent.insert(rng.randint(0, len(parent)), json.loads(json.dumps(value)))
        else:
            other = _get(data, rng.choice(paths))
            parent[key] = json.loads(json.dumps(other, default=str))
    return data


def mutate_text(text: str, rng: random.Random) -> bytes:
    """A raw change of the file: bytes that are no UTF-8, control characters, deep nesting, cuts."""
    data = text.encode("utf-8")
    at = rng.randint(0, len(data))
    choice = rng.randrange(6)
    if choice == 0:
        insert = bytes([rng.randrange(256)])
    elif choice == 1:
        insert = b"\n x: " + b"[" * rng.choice([70, 1000, 100000])
    elif choice == 2:
        insert = b"\n&a x: " + b"*a " * 3
    elif choice == 3:
        insert = b"\t"
    elif choice == 4:
        return data[:at]
    else:
        insert = rng.choice([b"\x00", b"\x1b[2J", b"\xef\xbb\xbf", b": :", b"- - -", b"{{", b"'", b'"'])
    return data[:at] + insert + data[at:]


def play_checked(game, seed: int) -> None:
    """Random play to the end or the decision cap, with the invariants checked."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for decision in range(DECISION_CAP):
        if state.is_terminal():
            break
        placed = sorted(c for zone in state.zones for c in zone)
        assert placed == list(range(game.num_components)), "a component is missing or twice"
        if decision % 25 == 0:
            assert game.state_from_json(state.to_json()) == state, "the JSON round trip changed the state"
        state.apply_action(rng.choice(state.legal_actions()))


def native_checked(game, seed: int) -> None:
    """The same seeded game in the native kernel and in Python (interpreter/native/): the same actions
    and final state, or the same error.  A ruleset the kernel does not cover is skipped."""
    from interpreter.native import NativeUnavailable, kernel_for
    from interpreter.native.reference import comparable, play_python
    try:
        kernel = kernel_for(game)
    except NativeUnavailable:
        return
    outcomes = []
    for play in (lambda: kernel.play(seed, seed + 1, DECISION_CAP), lambda: play_python(game, seed, seed + 1, DECISION_CAP)):
        try:
            actions, state = play()
            outcomes.append((actions[:DECISION_CAP], comparable(state) if state is not None and state.over else None))
        except RulebookError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1], f"the kernel and Python differ: {str(outcomes)[:300]}"


def ruleset_case(rng: random.Random, folder: Path, texts: dict, keep: Path | None = None, native=False) -> str:
    base = rng.choices(BASES, WEIGHTS)[0]
    if rng.random() < 0.8:
        data = mutate_data(yaml.safe_load(texts[base]), rng)
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100000).encode("utf-8")
    else:
        text = mutate_text(texts[base], rng)
    path = folder / f"case-{base.stem}.yaml"
    path.write_bytes(text)
    seed = rng.randrange(1000)
    outcome = guarded(lambda: play_checked(load_game(path), seed))
    if native and outcome == "ok":  # no time limit here: a kernel takes a C compiler a second or two
        try:
            native_checked(load_game(path), seed)
        except AssertionError:
            outcome = "native difference:\n" + traceback.format_exc()
    if keep is not None and outcome.split(":")[0] not in ("ok", "clean"):
        keep.mkdir(parents=True, exist_ok=True)
        kept = keep / f"case-{len(list(keep.iterdir()))}-{base.stem}-seed{seed}.yaml"
        kept.write_bytes(text)
        outcome += f"\n(kept as {kept})"
    return outcome


# ---- tampering with saved states and logs ---------------------------------------------------------
def tamper(data, rng: random.Random):
    paths = [p for p in _paths(data) if p]
    path = rng.choice(paths)
    parent, key = _get(data, path[:-1]), path[-1]
    roll = rng.random()
    if roll < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif roll < 0.4 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
        parent[key] = parent[key] + rng.choice([-1, 1, -1000, 10 ** 6, 2 ** 64])
    else:
        parent[key] = copy.deepcopy(rng.choice(HOSTILE_VALUES[:16] + ["x", [1], {"a": 1}, -5, 99]))
    return data


def state_case(rng: random.Random, games: list) -> str:
    game = rng.choice(games)
    seed = rng.randrange(1000)
    state = game.new_initial_state(seed)
    moves = random.Random(seed)
    for _ in range(rng.randrange(40)):
        if state.is_terminal():
            break
        state.apply_action(moves.choice(state.legal_actions()))
    data = tamper(json.loads(state.to_json()), rng)
    text = json.dumps(data) if rng.random() < 0.9 else mutate_text(json.dumps(data), rng)
    return guarded(lambda: play_from(game, game.state_from_json(text), seed))


def play_from(game, state, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(DECISION_CAP):
        if state.is_terminal():
            return
        assert sorted(c for zone in state.zones for c in zone) == list(range(game.num_components))
        state.view(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))


def log_case(rng: random.Random, game, folder: Path) -> str:
    seed = rng.randrange(1000)
    state = game.new_initial_state(seed)
    recorder = MatchRecorder(log_header(game, ["random"] * game.num_players), seed)
    moves = random.Random(seed)
    for _ in range(rng.randrange(1, 15)):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        seat, action = state.current_player(), moves.choice(legal)
        state.apply_action(action)
        recorder.record(seat, legal, action, state)
    data = tamper(recorder.log(state), rng)
    path = folder / "case.log.json"
    path.write_bytes(json.dumps(data).encode() if rng.random() < 0.9 else mutate_text(json.dumps(data), rng))
    return guarded(lambda: replay(path))


def fuzz(rulesets: int, states: int, seed: int, report=print, first_failures: int = 3, progress: int = 0,
         keep: Path | None = None, native: bool = False) -> Counter:
    """Run the cases; a Counter of outcomes per kind ('ruleset clean', 'state traceback', ...)."""
    rng = random.Random(seed)
    outcomes, failures = Counter(), []
    texts = {base: base.read_text(encoding="utf-8") for base in BASES}
    games = [load_game(name) for name in ("gangster", "la-famiglia", "mafiadollar", "pferderennen-mafia")]
    with tempfile.TemporaryDirectory() as folder:
        for i in range(rulesets + states):
            if i < rulesets:
                kind, outcome = "ruleset", ruleset_case(rng, Path(folder), texts, keep, native)
            elif (i - rulesets) % 2 == 0:
                kind, outcome = "state", state_case(rng, games)
            else:
                kind, outcome = "log", log_case(rng, games[0], Path(folder))
            head = outcome.split(":")[0]
            outcomes[f"{kind} {head}"] += 1
            if progress and (i + 1) % progress == 0:
                report(f"after {i + 1} cases: {dict(sorted(outcomes.items()))}")
            if head not in ("ok", "clean") and len(failures) < first_failures:
                failures.append(f"case {i} ({kind}): {outcome}")
    for failure in failures:
        report(failure)
    return outcomes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", type=int, default=10_000)
    parser.add_argument("--states", type=int, default=1_000, help="tampered saved states and logs (half each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0, metavar="N", help="report the counts every N cases")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write each failing ruleset case to DIR")
    parser.add_argument("--native", action="store_true",
                        help="also play each ruleset that loads in the native kernel and compare (needs [native])")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    outcomes = fuzz(args.rulesets, args.states, args.seed, report=lambda text: print(text, file=sys.stderr, flush=True),
                    progress=args.progress, keep=args.keep, native=args.native)
    for key in sorted(outcomes):
        print(f"{key}: {outcomes[key]}")
    bad = sum(n for key, n in outcomes.items() if not key.endswith((" ok", " clean")))
    print(f"{args.rulesets + args.states} cases in {time.perf_counter() - start:.0f} s; "
          f"tracebacks and time-outs: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
