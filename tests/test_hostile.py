"""Hostile input gets a clean, located error: never a Python traceback, a hang, or a silent change.

Every case of ``tests/hostile/*.json`` is one input a stranger could send, as data: a ruleset made
from a base by replacing a text, a variant file, a saved state or play log tampered with at one
path, or a call of the public API with wrong arguments.  Each names the error class it must give,
and optionally the line and a fragment of the message::

    {"name": "deep-yaml-nesting",
     "ruleset": {"base": "minimal", "replace": ["attributes: {value: int}",
                                                ["attributes: {value: int}\\n    x: ", {"repeat": "[", "times": 1000}]]},
     "expect": {"error": "YamlError", "line": 11, "message": "nested too deeply"}}

A text is a string or a list of parts: strings, ``{"repeat": TEXT, "times": N}`` and
``{"bytes": HEX}`` (bytes that need not be UTF-8).  Input kinds:

- ``ruleset``: ``base`` (``minimal``, the base of tests/broken, or a shipped ruleset's name),
  ``replace`` (old text, new text: the old text must occur; ``replace2`` a second one), and ``when`` (``load``, the default,
  ``start`` or ``play``: where the error is expected, as in tests/broken);
- ``variant``: the text of a variant file, written next to a copy of ``_minimal.yaml``
  (``extends: _minimal.yaml`` reaches it);
- ``api``: ``call`` (``load_game``, ``new_initial_state``, ``view``, ``apply_action``), ``args``,
  ``kwargs`` (against gangster, seed 1);
- ``state``: ``ruleset``, ``seed``, ``moves`` (random moves taken first), then ``set`` (a path
  into the JSON and the value to put there), ``delete`` (a path), or ``text`` (the whole file);
- ``log``: the log of ``moves`` random moves of gangster, replayed after ``set``, ``delete`` or
  ``text`` as for a state.

Each case runs within 5 s and 500 MB (POSIX).
"""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from conftest import MINIMAL, TESTS
from interpreter import ErrorList, RulebookError, load_game
from interpreter.analysis.match_log import MatchRecorder, log_header, replay
from test_errors import memory_limit, time_limit

HOSTILE = TESTS / "hostile"
CASES = [case for path in sorted(HOSTILE.glob("*.json"))
         for case in json.loads(path.read_text(encoding="utf-8"))]
TIME_LIMIT = 5
MEMORY_MB = 500


def text_of(parts) -> bytes:
    """The bytes a case's text stands for (see the module's docstring)."""
    if isinstance(parts, str):
        return parts.encode("utf-8")
    out = b""
    for part in parts:
        if isinstance(part, str):
            out += part.encode("utf-8")
        elif "repeat" in part:
            out += part["repeat"].encode("utf-8") * part["times"]
        else:
            out += bytes.fromhex(part["bytes"])
    return out


def base_text(name: str) -> bytes:
    if name == "minimal":
        return MINIMAL.read_bytes()
    return (TESTS.parent / "rulesets" / f"{name}.yaml").read_bytes()


def played(game, seed: int, moves: int):
    """A state after ``moves`` random moves of a game started with ``seed``."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def tampered(data, case):
    """The JSON ``data`` changed as ``case`` says."""
    if "set" in case or "delete" in case:
        path, value = (case["set"][0], case["set"][1]) if "set" in case else (case["delete"], None)
        target = data
        for key in path[:-1]:
            target = target[key]
        if "set" in case:
            target[path[-1]] = value
        else:
            del target[path[-1]]
    return data


def run_case(case: dict, tmp_path: Path):
    """Do what the case says; return the error it gives (None if none)."""
    if "ruleset" in case:
        spec = case["ruleset"]
        text = base_text(spec.get("base", "minimal"))
        for key in ("replace", "replace2"):
            if key in spec:
                old, new = text_of(spec[key][0]), text_of(spec[key][1])
                assert old in text, f"{case['name']}: the text to replace does not occur"
                text = text.replace(old, new, 1)
        path = tmp_path / f"{case['name']}.yaml"
        path.write_bytes(text)
        game = load_game(path)
        when = spec.get("when", "load")
        if when != "load":
            state = game.new_initial_state(0)
            for _ in range(500 if when == "play" else 0):
                if state.is_terminal():
                    break
                state.apply_action(state.legal_actions()[0])
        return None
    if "variant" in case:
        shutil.copy(MINIMAL, tmp_path / "_minimal.yaml")
        path = tmp_path / f"{case['name']}.yaml"
        path.write_bytes(text_of(case["variant"]))
        load_game(path)
        return None
    if "api" in case:
        spec = case["api"]
        game = load_game("gangster")
        state = game.new_initial_state(1)
        target = {"load_game": load_game, "new_initial_state": game.new_initial_state,
                  "view": state.view, "apply_action": state.apply_action}[spec["call"]]
        target(*spec.get("args", []), **spec.get("kwargs", {}))
        return None
    if "state" in case:
        spec = case["state"]
        game = load_game(spec.get("ruleset", "gangster"))
        if "text" in spec:
            data = text_of(spec["text"])
        else:
            state = played(game, spec.get("seed", 1), spec.get("moves", 5))
            data = json.dumps(tampered(json.loads(state.to_json()), spec))
        game.state_from_json(data)
        return None
    if "log" in case:
        spec = case["log"]
        path = tmp_path / "game.log.json"
        if "text" in spec:
            path.write_bytes(text_of(spec["text"]))
        else:
            path.write_text(json.dumps(tampered(recorded_log(spec.get("moves", 5)), spec)), encoding="utf-8")
        replay(path)
        return None
    raise AssertionError(f"{case['name']}: no input kind")


def recorded_log(moves: int) -> dict:
    """The log of ``moves`` random moves of gangster (seed 1), as ``play --log`` writes it."""
    game = load_game("gangster")
    state = game.new_initial_state(1)
    recorder = MatchRecorder(log_header(game, ["random"] * game.num_players), 1)
    rng = random.Random(1)
    for _ in range(moves):
        legal = state.legal_actions()
        seat, action = state.current_player(), rng.choice(legal)
        state.apply_action(action)
        recorder.record(seat, legal, action, state)
    return recorder.log(state)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_hostile_input_gives_a_clean_error(case, tmp_path):
    expect = case["expect"]
    try:
        with time_limit(TIME_LIMIT), memory_limit(MEMORY_MB):
            run_case(case, tmp_path)
    except RulebookError as exc:
        errors = exc.errors if isinstance(exc, ErrorList) else [exc]
    else:
        pytest.fail(f"{case['name']}: no error")
    error = errors[0]
    assert type(error).__name__ == expect["error"], f"{case['name']}: {type(error).__name__}: {error}"
    if "message" in expect:
        assert expect["message"] in error.message, f"{case['name']}: {error}"
    if "line" in expect:
        assert error.position is not None and error.position.line == expect["line"], f"{case['name']}: {error}"
    if "column" in expect:
        assert error.position.column == expect["column"], f"{case['name']}: {error}"
    if "hint" in expect:
        assert error.hint and expect["hint"] in error.hint, f"{case['name']}: {error}"


def test_cases_are_readable():
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names)), "two cases share a name"
    for case in CASES:
        assert {"name", "expect"} <= set(case) and "error" in case["expect"], case.get("name")


MARKUP_NAME = "[red]x[/red][/bogus] [link=file:///etc/passwd]y[/link]"


@pytest.mark.parametrize("command", ["validate", "params", "explain", "variants"])
def test_ruleset_names_are_printed_as_text_not_markup(command, tmp_path, capsys):
    """A game name full of rich markup is printed as it is: no crash, no hyperlink, no colour."""
    from interpreter.cli.main import main

    path = tmp_path / "markup.yaml"
    path.write_text(MINIMAL.read_text(encoding="utf-8").replace("name: Minimal", f"name: '{MARKUP_NAME}'")
                    .replace("hand_size: {default: 2,", f"hand_size: {{description: '{MARKUP_NAME}', default: 2,"),
                    encoding="utf-8")
    assert main([command, str(path)]) == 0
    out = capsys.readouterr().out
    assert MARKUP_NAME in out.replace("\n", "") or command == "validate" and "[red]x[/red]" in out
    assert "\x1b]8;" not in out and "\x1b[31m" not in out


def test_safe_text_escapes_control_characters():
    from interpreter.cli.safe import safe_text

    assert safe_text("x\x1b[2J\x1b]0;title\x07 \u202e") == "x\\x1b[2J\\x1b]0;title\\x07 \\u202e"
    assert safe_text("Bäcker\tund\nSöhne") == "Bäcker\tund\nSöhne"


def test_a_short_fuzz_finds_no_traceback():
    """A short run of benchmarks/fuzz.py (mutated rulesets, tampered states and logs): every case
    loads and plays with its invariants holding, or ends in a RulebookError, in time."""
    import sys

    sys.path.insert(0, str(TESTS.parent / "benchmarks"))
    from fuzz import fuzz

    failures = []
    outcomes = fuzz(rulesets=80, states=30, seed=11, report=failures.append)
    assert not failures, failures[0]
    assert sum(n for key, n in outcomes.items() if key.endswith(" clean")) > 50, outcomes


def test_the_quick_state_check_agrees_with_the_schema():
    """saved_state checks the common case of schemas/state.schema.json by hand, for speed: it may
    send a valid state to the full validation, but must never pass one the schema refuses."""
    import sys

    from interpreter.store.saved_state import _plainly_valid, _validator

    sys.path.insert(0, str(TESTS.parent / "benchmarks"))
    from fuzz import tamper

    rng = random.Random(5)
    for name in ("gangster", "mafiadollar", "pferderennen-mafia", "la-famiglia"):
        game = load_game(name)
        for seed in range(3):
            data = json.loads(played(game, seed, rng.randrange(60)).to_json())
            assert _plainly_valid(data) and _validator().is_valid(data)
            for _ in range(40):
                changed = tamper(json.loads(json.dumps(data)), rng)
                assert not _plainly_valid(changed) or _validator().is_valid(changed), changed
