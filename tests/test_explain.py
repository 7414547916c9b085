"""`rulebook explain` covers every construct of the language, for every shipped ruleset."""
from pathlib import Path

import pytest

from dsl import ir
from dsl.explain import Explainer, explain
from interpreter import load_game

RULESETS = sorted(Path("rulesets").rglob("*.yaml"))


def statements(stmts):
    for stmt in stmts:
        yield stmt
        for attr in ("then", "otherwise", "body"):
            inner = getattr(stmt, attr, None) or []
            # a call for a value (let x = proc()) keeps the statement storing the value as its 'then'
            yield from statements(inner if isinstance(inner, list) else [inner])
        for option in getattr(stmt, "options", []):
            yield from statements(option.body)


def test_every_statement_kind_has_a_sentence():
    kinds = [cls for cls in vars(ir).values() if isinstance(cls, type) and issubclass(cls, ir.Stmt)
             and cls is not ir.Stmt]
    missing = [cls.__name__ for cls in kinds if not hasattr(Explainer, "_" + cls.__name__.lower())]
    assert not missing


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_explain_names_every_part_of_the_ruleset(path):
    game = load_game(path)
    rs = game.ruleset
    text = explain(rs)
    for name in list(rs.params) + list(rs.zones) + list(rs.procedures) + list(rs.defines) + list(rs.kinds):
        assert name in text, name
    for trigger in rs.triggers:
        assert trigger.name in text
    bodies = rs.setup + rs.flow + [s for p in rs.procedures.values() for s in p.body] + \
        [s for t in rs.triggers for s in t.body]
    for stmt in statements(bodies):
        for option in getattr(stmt, "options", []):
            assert f"- {option.name}" in text, option.name
    assert "Scoring and winning" in text


def test_explain_shows_a_variant_merged_with_its_base():
    text = explain(load_game("rulesets/variants/la-famiglia-no-early-end.yaml").ruleset)
    assert "passes_in_a_row >= 10 * num_players" in text
    assert "passes_in_a_row >= num_players:" not in text
