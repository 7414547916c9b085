"""Every shipped file validates against the schemas an editor uses: a ruleset against
``schemas/ruleset.schema.json``, a variant (``extends:``) against ``schemas/variant.schema.json`` and,
through its branch on ``extends``, against the ruleset schema too; each file names its schema in the
``# yaml-language-server: $schema=…`` comment on its first line."""
from __future__ import annotations

import re

import pytest

from conftest import ROOT
from dsl.schema import SCHEMA_PATH, VARIANT_SCHEMA_PATH, validator
from dsl.yaml_loader import load_yaml_file

SHIPPED = sorted(p for p in (ROOT / "rulesets").rglob("*.yaml"))
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def _ids(paths):
    return [str(p.relative_to(ROOT / "rulesets")) for p in paths]


@pytest.mark.parametrize("path", SHIPPED, ids=_ids(SHIPPED))
def test_shipped_file_validates_against_the_schema_it_names(path):
    text = path.read_text(encoding="utf-8")
    match = MODELINE.match(text.splitlines()[0])
    assert match, f"{path.name}: the first line should be '# yaml-language-server: $schema=…'"
    named = (path.parent / match.group(1)).resolve()
    data = load_yaml_file(path).data  # YAML 1.2 like the editors: 'on' is a text
    expected = VARIANT_SCHEMA_PATH if "extends" in data else SCHEMA_PATH
    assert named == expected
    for schema in {SCHEMA_PATH, named}:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator(schema).iter_errors(data)]
        assert errors == [], f"{path.name} fails {schema.name}: {errors[:3]}"


def test_variant_schema_rejects_what_no_variant_may_say():
    check = validator(VARIANT_SCHEMA_PATH)
    assert not check.is_valid({"game": {"name": "x"}})                      # no extends
    assert not check.is_valid({"extends": "g", "flw": []})                  # unknown section
    assert not check.is_valid({"extends": "g", "params": {"n": {"defualt": 3}}})
    assert not check.is_valid({"extends": "g", "game": {"players": 0}})     # the ruleset's own rule
    assert check.is_valid({"extends": "g", "params": {"n": {"default": 3}, "m": None}})


def test_ruleset_schema_still_requires_the_game_and_flow_of_a_ruleset():
    check = validator(SCHEMA_PATH)
    assert not check.is_valid({"game": {"name": "x", "players": 2}})
    assert not check.is_valid({"game": {"name": "x"}, "flow": []})
    assert check.is_valid({"extends": "g", "game": {"name": "x"}})
