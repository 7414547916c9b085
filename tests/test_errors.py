"""Broken rulesets get clean errors that point at the right place.

Every ``tests/broken/*.yaml`` (except ``_minimal.yaml``, the small valid ruleset they are all made
from) is one mistake, and says in its comment header which errors it must give::

    # A misspelt parameter name in an expression.                   <- first line: what is wrong
    # expect: 28:33 check error: unknown name 'hand_sise'           <- one line per expected error
    # hint: did you mean 'hand_size'?                               <- (optional) the error's hint
    # not: recursion                                                <- (optional) not in the message
    # params: {"hand_size": 9}                                      <- (optional) load_game(params=)
    # players: 7                                                    <- (optional) load_game(players=)
    # when: start                                                   <- (optional) load, start or play
    # memory: 400                                                   <- (optional) MB the case may take

``expect: LINE[:COLUMN] STAGE: MESSAGE`` — the error is at that line (and column, when one is given;
``*`` instead of a line when no single line is meaningful), its ``stage`` is STAGE (``yaml error``,
``schema error``, ``syntax error``, ``check error``, ``parameter error``, ``runtime error``) and its
message contains MESSAGE.  ``hint:`` and ``not:`` lines belong to the ``expect:`` line above them.
Lines and columns count from 1, header included.  With several ``expect:`` lines the errors must be
exactly those, in that order.

``when:`` says where the error comes from: ``load`` (default) — ``load_game`` raises an
``ErrorList``; ``start`` — the ruleset loads and ``game.new_initial_state(0)`` raises; ``play`` — it
starts, and taking the first legal action at every decision raises within a few hundred decisions.
``memory:`` runs the case with at most that many more megabytes of address space (POSIX), for
rulesets that would otherwise exhaust the machine's memory.

Whatever happens, the only exception that may escape is a ``RulebookError``: never a Python
traceback of another type, never a hang (each case runs under a time limit).
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import BROKEN, MINIMAL
from interpreter import ErrorList, RulebookError, load_game

MAX_PLAY = 500  # decisions taken by 'when: play' before giving up
TIME_LIMIT = 20  # seconds per case: a hang is a failure, not a stuck test run
PYTHON_TAG_MARKER = Path("/tmp/rulebook-python-tag-executed")  # what python-tag.yaml would write


@dataclass
class Expected:
    line: int | None  # None: any line
    column: int | None
    stage: str
    message: str
    hint: str | None = None
    not_in_message: list = field(default_factory=list)


@dataclass
class Case:
    path: Path
    title: str
    expected: list
    params: dict | None = None
    players: int | None = None
    when: str = "load"
    memory_mb: int | None = None


_EXPECT = re.compile(r"^(\*|\d+)(?::(\d+))?\s+([a-z]+ error):\s?(.*)$")


def read_case(path: Path) -> Case:
    """The expectations in the comment header of a broken ruleset."""
    lines = path.read_text(encoding="utf-8").splitlines()
    case = Case(path, lines[0].lstrip("# ").strip(), [])
    for raw in lines[1:]:
        if not raw.startswith("#"):
            break
        key, _, value = raw.lstrip("# ").partition(":")
        value = value.strip()
        if key == "expect":
            match = _EXPECT.match(value)
            assert match, f"{path.name}: cannot read '{raw}'"
            line, column, stage, message = match.groups()
            case.expected.append(Expected(None if line == "*" else int(line),
                                          int(column) if column else None, stage, message))
        elif key == "hint":
            case.expected[-1].hint = value
        elif key == "not":
            case.expected[-1].not_in_message.append(value)
        elif key == "params":
            case.params = json.loads(value)
        elif key == "players":
            case.players = int(value)
        elif key == "memory":
            case.memory_mb = int(value)
        elif key == "when":
            assert value in ("load", "start", "play"), f"{path.name}: when is load, start or play"
            case.when = value
        else:
            raise AssertionError(f"{path.name}: unknown header key '{key}'")
    assert case.expected, f"{path.name}: no 'expect:' line in the header"
    return case


CASES = sorted(p for p in BROKEN.glob("*.yaml") if not p.name.startswith("_"))


@contextmanager
def time_limit(seconds: int):
    """Fail instead of hanging (POSIX main thread only; elsewhere the limit is not enforced)."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"no error within {seconds} s: the engine hangs")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def memory_limit(megabytes):
    """Let the process take at most ``megabytes`` more address space (POSIX; elsewhere no limit)."""
    try:
        import resource

        size = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        yield
        return
    limit = size + megabytes * 2**20
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_case(case: Case) -> list:
    """Load (and start, and play) a broken ruleset; the errors it gives, best first."""
    limits = memory_limit(case.memory_mb) if case.memory_mb else contextlib.nullcontext()
    try:
        with time_limit(TIME_LIMIT), limits:
            game = load_game(case.path, params=case.params, players=case.players)
            if case.when == "load":
                pytest.fail(f"{case.path.name} loads without an error")
            state = game.new_initial_state(0)
            if case.when == "start":
                pytest.fail(f"{case.path.name} starts without an error")
            for _ in range(MAX_PLAY):
                if state.is_terminal():
                    break
                state.apply_action(state.legal_actions()[0])
            pytest.fail(f"{case.path.name} plays {MAX_PLAY} decisions without an error")
    except ErrorList as exc:
        assert case.when == "load", f"load_game failed, but the error was expected at {case.when}: {exc}"
        return exc.errors
    except RulebookError as exc:
        assert case.when != "load", f"not an ErrorList from load_game: {type(exc).__name__}: {exc}"
        return [exc]
    # any other exception type escapes here and fails the test with its traceback


def check_error(error, expected: Expected, case: Case):
    where = f"{case.path.name}: {error}"
    assert isinstance(error, RulebookError), f"{case.path.name}: {type(error).__name__} is no RulebookError"
    assert error.position is not None, f"{where}: the error has no position"
    assert Path(error.position.file).name == case.path.name, f"{where}: points into another file"
    assert error.stage == expected.stage, f"{where}: expected a {expected.stage}"
    assert expected.message in error.message, f"{where}: expected the message to contain {expected.message!r}"
    for fragment in expected.not_in_message:
        assert fragment not in error.message, f"{where}: the message should not say {fragment!r}"
    if expected.line is not None:
        assert error.position.line == expected.line, f"{where}: expected line {expected.line}"
    if expected.column is not None:
        assert error.position.column == expected.column, f"{where}: expected column {expected.column}"
    if expected.hint is not None:
        assert error.hint and expected.hint in error.hint, f"{where}: expected the hint {expected.hint!r}"
    assert "Traceback" not in str(error), f"{where}: a Python traceback in the message"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_broken_ruleset_gives_located_error(path):
    case = read_case(path)
    if path.stem == "python-tag" and PYTHON_TAG_MARKER.exists():
        PYTHON_TAG_MARKER.unlink()
    errors = run_case(case)
    summary = "\n".join(str(e) for e in errors)
    assert len(errors) == len(case.expected), (
        f"{path.name}: expected {len(case.expected)} error(s), got {len(errors)}:\n{summary}")
    for error, expected in zip(errors, case.expected):
        check_error(error, expected, case)


def test_python_tags_are_never_executed():
    """Loading a file with ``!!python/object/apply:os.system`` runs nothing."""
    if PYTHON_TAG_MARKER.exists():
        PYTHON_TAG_MARKER.unlink()
    with pytest.raises(ErrorList):
        load_game(BROKEN / "python-tag.yaml")
    assert not PYTHON_TAG_MARKER.exists(), "the YAML loader ran os.system"


def test_every_broken_file_is_one_mistake_away_from_a_valid_ruleset():
    """The base of the broken files loads, starts and plays to the end with every player count."""
    for players in (2, 3):
        game = load_game(MINIMAL, players=players)
        state = game.new_initial_state(0)
        for _ in range(MAX_PLAY):
            if state.is_terminal():
                break
            state.apply_action(state.legal_actions()[0])
        assert state.is_terminal() and state.winners()


def test_state_refuses_use_after_a_runtime_error():
    """A state that hit an error during play refuses further use (docs: bounded execution)."""
    game = load_game(BROKEN / "endless-trigger.yaml")
    state = game.new_initial_state(0)
    with pytest.raises(RulebookError):
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(RulebookError, match="broken by an earlier error"):
        state.legal_actions()


def test_end_game_in_setup_ends_the_game_or_fails_cleanly(tmp_path):
    """``end_game()`` ends the game 'at once, in the middle of whatever is running' (docs).  Run by the
    setup, new_initial_state must give a finished game (or a clean RulebookError), never let the
    engine's internal GameOver exception escape."""
    text = MINIMAL.read_text(encoding="utf-8").replace("  - shuffle(pile)\n", "  - shuffle(pile)\n  - end_game()\n", 1)
    path = tmp_path / "end-game-in-setup.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_game(path)
    try:
        state = game.new_initial_state(0)
    except RulebookError:
        return
    assert state.is_terminal() and state.winners()


def test_while_limit_caps_a_loop(tmp_path):
    """docs/language.md: 'while: cond / do: ... (limit: N caps it)'.  A loop that would never end stops
    after N rounds instead of running into the 200,000-step guard."""
    text = MINIMAL.read_text(encoding="utf-8").replace(
        "flow:\n", "flow:\n  - while: true\n    limit: 3\n    do:\n      - active.score += 1\n", 1)
    path = tmp_path / "while-limit.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_game(path)
    state = game.new_initial_state(0)
    assert state.game.ruleset.flow[0].limit == 3
    assert state.view(0)["players"][0]["score"] == 3


def test_case_headers_are_readable():
    """Every broken file has a header this module understands (a typo in a header is not a pass)."""
    names = set()
    for path in CASES:
        case = read_case(path)
        assert case.title and not case.title.startswith("expect"), f"{path.name}: first line says what is wrong"
        names.add(path.stem)
    assert {"misspelt-name", "python-tag", "runaway-loop", "endless-trigger"} <= names
    assert os.path.basename(MINIMAL) == "_minimal.yaml"
