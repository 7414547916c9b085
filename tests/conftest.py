"""Shared paths and helpers of the test suite.

``RULESETS`` are the shipped rulesets (``rulesets/*.yaml``, the classic games in ``rulesets/classic/``
and the tutorial's games in ``rulesets/examples/``), ``VARIANTS`` the shipped variants
(``rulesets/variants/*.yaml``, each ``extends:`` a ruleset); ``TEST_GAMES`` are small valid rulesets
that live with the tests (the base of the broken rulesets, the context of the conformance cases) and
are played by the generic invariant test as well.

Extras and PyPy.  A test of an extra (``[web]``, ``[lsp]``, ``[rl]``, ``[openspiel]``, ``[ray]``,
``[report]``) gets the module it needs from ``require_extra("starlette", "web")`` (at module level or
in a fixture): when the module is missing it skips with the reason and the install command — on PyPy
and wherever the extra is not installed — except under ``CI=true`` on CPython, where a missing extra
is a failure.  ``require_program("chromium")`` does the same for a program such as the browser.

Core tests.  ``CORE_TESTS`` lists the test files of the core (dsl/, the engine, cli, analysis, bots)
that need nothing beyond the core's dependencies and pytest; they carry the marker ``core``, and
``.ci/run`` runs them under Debian's PyPy (Python 3.9) with ``pytest --core-only``, which does not
even collect the other test files (they may import extras).  The list holds the
tests that prove the language, the errors, the rules of every shipped game and the command line
(which plays bots and simulates), and leaves out the long runs (playouts, bots, determinization,
variants played through), which the CPython run covers; keep that run to about a minute.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import platform
import random
import shutil
import sys
from pathlib import Path

import pytest
import yaml

TESTS = Path(__file__).resolve().parent
# The suite never writes to the user's cache of compiled games (tests/test_load_cache.py turns it on
# in folders of its own); RULEBOOK_NO_CACHE=0 runs the whole suite through the cache.
os.environ.setdefault("RULEBOOK_NO_CACHE", "1")
ROOT = TESTS.parent
# Ruleset names mean the shipped rulesets, whatever the user keeps in their own rulesets folder
# (interpreter/store/search_path.py): the user folder is one that does not exist.
os.environ["RULEBOOK_PATH"] = str(TESTS / "no-user-rulesets")
if str(ROOT) not in sys.path:  # run from a checkout without installing the package
    sys.path.insert(0, str(ROOT))

CLASSIC = sorted((ROOT / "rulesets" / "classic").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "rulesets" / "examples").glob("*.yaml"))  # the games of docs/tutorial.md
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml")) + CLASSIC + EXAMPLES
VARIANTS = sorted((ROOT / "rulesets" / "variants").glob("*.yaml"))
BROKEN = TESTS / "broken"
CONFORMANCE = TESTS / "conformance"
MINIMAL = BROKEN / "_minimal.yaml"
CONTEXT = CONFORMANCE / "_context.yaml"

# a small two-player game's components and zones: eight chips of values 0-2 in a pot, a pile kept
# by each player (tests/test_vm_openings.py, tests/test_trigger_runs.py)
CHIPS = """\
components:
  chip:
    name: "chip {value}"
    attributes: {value: int}
    in: pot
    table:
      - {value: 0, count: 3}
      - {value: 1, count: 3}
      - {value: 2, count: 2}
zones:
  pot: {visibility: all}
  kept: {per: player, visibility: all}
vars:
  turns: 0
"""
FOREHEADS = TESTS / "games" / "foreheads.yaml"  # hands held facing out (visibility: others)
TEST_GAMES = [MINIMAL, CONTEXT, FOREHEADS]


def player_counts(path: Path, depth: int = 0) -> list:
    """The player counts a ruleset allows, read from its ``game.players`` (or, for a variant that does
    not change them, from the ruleset it extends) without loading it.

    A file that cannot be read this way gives ``[None]``: the test then loads it and reports the
    loader's error instead of failing at collection."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        spec = (data.get("game") or {}).get("players")
        if spec is None and data.get("extends") and depth < 8:
            base = str(data["extends"])
            candidates = [path.parent / base, ROOT / "rulesets" / base, ROOT / "rulesets" / f"{base}.yaml"]
            return player_counts(next(c for c in candidates if c.is_file()), depth + 1)
        if isinstance(spec, int):
            return [spec]
        return list(range(int(spec["min"]), int(spec["max"]) + 1))
    except Exception:  # noqa: BLE001 - reported by the test itself
        return [None]


def view_component_ids(view) -> set:
    """The ids of every component described in a view (JSON data)."""
    found, todo = set(), [view]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            if "id" in item and "kind" in item:
                found.add(item["id"])
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return found


def random_playout(game, seed: int, decisions: int, each=None):
    """Play a seeded game of random moves (``random.Random(seed)`` picks each), at most ``decisions``
    moves; ``each(seat, actions, index, state)`` is told of every move once it is made.  Returns the
    last state."""
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        seat, actions = state.current_player(), state.legal_actions()
        index = rng.randrange(len(actions))
        state.apply_action(actions[index])
        if each is not None:
            each(seat, actions, index, state)
    return state


def digest(game, seeds=(1, 2), decisions=80) -> str:
    """A SHA-256 of seeded random playouts: the legal action texts and the state after each action."""
    h = hashlib.sha256()

    def record(seat, actions, index, state):
        h.update(json.dumps([str(a) for a in actions]).encode())
        h.update(json.dumps(state.to_json(), sort_keys=True).encode())

    for seed in seeds:
        random_playout(game, seed, decisions, record)
    return h.hexdigest()


IN_CI = os.environ.get("CI", "").lower() == "true"
ON_PYPY = platform.python_implementation() == "PyPy"

CORE_TESTS = {
    "test_language.py", "test_errors.py", "test_scenarios.py", "test_cli.py", "test_explain.py",
    "test_stats.py", "test_replay_changed_rules.py", "test_python39.py", "test_load_cache.py",
    "test_codegen_indexes.py", "test_vm_openings.py", "test_graph_codec.py", "test_action_lists.py",
    "test_architecture.py", "test_search_path.py",
}


def _missing(what: str, advice: str):
    if IN_CI and not ON_PYPY:
        pytest.fail(f"{what} (CI=true: tests of extras and of the browser must run here; {advice})",
                    pytrace=False)
    pytest.skip(f"{what}{' on PyPy' if ON_PYPY else ''}: {advice}", allow_module_level=True)


def require_extra(module: str, extra: str):
    """The module ``module`` of the extra ``extra``; skip (or, under CI=true on CPython, fail) when it
    cannot be imported."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        _missing(f"needs the [{extra}] extra ({exc})", f"pip install -e '.[{extra}]'")


def require_program(name: str, path=None) -> str:
    """The path of a program (``chromium``); skip (or, under CI=true on CPython, fail) when missing."""
    found = path if path and Path(path).exists() else shutil.which(name)
    if not found:
        _missing(f"needs the program {name}", f"install Debian's {name}")
    return found


def pytest_addoption(parser):
    parser.addoption("--core-only", action="store_true",
                     help="collect and run only the core tests (tests/conftest.py: CORE_TESTS), as under PyPy")


def pytest_ignore_collect(collection_path, config):
    if not config.getoption("core_only"):
        return None
    path = Path(collection_path)
    if path.is_dir():
        return (TESTS in path.parents) or None  # subfolders of tests/ (such as tests/web)
    return (path.suffix == ".py" and path.name.startswith("test_") and path.name not in CORE_TESTS) or None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if Path(str(item.fspath)).name in CORE_TESTS:
            item.add_marker(pytest.mark.core)
