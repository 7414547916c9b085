"""Shared paths and helpers of the test suite.

``RULESETS`` are the shipped rulesets (``rulesets/*.yaml``, the classic games in ``rulesets/classic/``
and the tutorial's games in ``rulesets/examples/``), ``VARIANTS`` the shipped variants
(``rulesets/variants/*.yaml``, each ``extends:`` a ruleset); ``TEST_GAMES`` are small valid rulesets
that live with the tests (the base of the broken rulesets, the context of the conformance cases) and
are played by the generic invariant test as well.
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
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
TEST_GAMES = [MINIMAL, CONTEXT]


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
