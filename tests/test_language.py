"""Conformance of the expression language, as data (in the manner of jmespath's compliance tests).

Each ``tests/conformance/*.yaml`` (files starting with ``_`` are contexts, not cases) holds::

    description: what the file covers
    context: _context.yaml      # optional: a ruleset in tests/conformance/ (the default), or an inline
                                # ruleset mapping; the cases are evaluated against the position the
                                # ruleset reaches after its setup (game.new_initial_state(0))
    players: 3                  # optional: load_game(players=...)
    params: {rounds: 2}         # optional: load_game(params=...)
    cases:
      - expression: "1 + 2 * 3"
        result: 7               # the value (see below)
        type: int               # optional: the static type the checker gives it
      - expression: "siz(market)"
        error:                  # instead of result: the error
          stage: check error    # syntax error, check error or runtime error
          message: "unknown function 'siz'"      # a fragment of the message
          hint: "did you mean 'size'?"           # optional: a fragment of the hint
          column: 1             # optional: where in the expression (columns count from 1)
        comment: why this case is here           # optional

An expression goes through the real pipeline: ``dsl.parser.parse_expression``, the checker
(``dsl.checker.ExprChecker``) against the context's checked ruleset, the compiler, and the VM, as the
statement ``let result = <expression>`` run in the context's state after setup.  Values compare as
plain data: numbers, booleans, text, ``null`` for none, lists; players are seat numbers, components
their ids (table order), zones their labels (``hand[P1]``), cells their labels (``r1c1``).
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import CONFORMANCE, CONTEXT
from dsl import ast, ir
from dsl.checker import ExprChecker, Scope
from dsl.errors import Position, RulebookError
from dsl.loader import check_document
from dsl.parser import parse_expression
from dsl.registry import EFFECTS, FUNCTIONS
from dsl.yaml_loader import Document, load_yaml_file
from interpreter.compile import comprehensions
from interpreter.runtime import vm
from interpreter.compile.compiler import Compiler
from interpreter.game import Game

EXPRESSION_FILE = "<expression>"
RESULT = "result"


@dataclass
class Context:
    ruleset: object
    game: object
    state: object


@dataclass
class ConformanceCase:
    file: Path
    line: int
    expression: object
    spec: dict
    context_key: tuple

    @property
    def id(self) -> str:
        return f"{self.file.stem}:{self.line}:{self.expression}"


def _sub_document(doc: Document, path: tuple) -> Document:
    """The part of a document at ``path`` as a document of its own, keeping its positions."""
    value = doc.data
    for key in path:
        value = value[key]
    n = len(path)
    positions = {p[n:]: pos for p, pos in doc.positions.items() if p[:n] == path}
    keys = {p[n:]: pos for p, pos in doc.key_positions.items() if p[:n] == path}
    quoted = {p[n:]: q for p, q in doc.quoted.items() if p[:n] == path}
    return Document(doc.file, value, positions, keys, quoted)


_DOCUMENTS: dict = {}


def _document(path: Path) -> Document:
    if path not in _DOCUMENTS:
        _DOCUMENTS[path] = load_yaml_file(path)
    return _DOCUMENTS[path]


@lru_cache(maxsize=None)
def context(key: tuple) -> Context:
    """Load, check, compile and start a context: (file, inline?, players, params as JSON)."""
    file, inline, players, params = key
    doc = _sub_document(_document(file), ("context",)) if inline else _document(file)
    ruleset = check_document(doc, FUNCTIONS, EFFECTS, json.loads(params), players)
    game = Game(ruleset, file)
    return Context(ruleset, game, game.new_initial_state(0))


def read_cases() -> list:
    cases = []
    for file in sorted(CONFORMANCE.glob("*.yaml")):
        if file.name.startswith("_"):
            continue
        doc = _document(file)
        data = doc.data
        ctx = data.get("context", CONTEXT.name)
        inline = isinstance(ctx, dict)
        ctx_file = file if inline else CONFORMANCE / ctx
        key = (ctx_file, inline, data.get("players"), json.dumps(data.get("params") or {}, sort_keys=True))
        for i, spec in enumerate(data["cases"]):
            line = doc.position(("cases", i)).line
            cases.append(ConformanceCase(file, line, spec.get("expression"), spec, key))
    return cases


CASES = read_cases()


def evaluate(ctx: Context, text, codegen=True):
    """Check, compile and run ``let result = <text>`` in a copy of the context's state; returns
    (value, static type).  Errors of any stage propagate as RulebookErrors.  ``codegen=False``
    compiles with the closure compiler alone (the reference the generated code is compared with)."""
    base = Position(EXPRESSION_FILE, 1, 1)
    node = parse_expression(text, base)
    type_ = ExprChecker(ctx.ruleset, FUNCTIONS, EFFECTS).check(node, Scope())
    compiler = Compiler(ctx.ruleset, ctx.game, codegen=codegen)
    index = compiler.procedure("conformance case", [], [ir.Exec(base, ast.Let(base, RESULT, node))], base)
    compiler.finish()
    game = copy.copy(ctx.game)  # the context's game plus one procedure: the case
    game.procs = list(ctx.game.procs) + [compiler.procs[index]]
    game.codes = list(ctx.game.codes) + [compiler.procs[index].code]
    state = ctx.state.clone()
    state.game = game
    env: dict = {}
    vm.execute(state, [[len(game.procs) - 1, 0, env]], False)
    return env[RESULT], type_


def plain(value, type_, game):
    """A value as plain data: zones and cells by their labels, tuples as lists."""
    if value is None or type_ is None:
        return value
    if type_.name == "zone" and isinstance(value, int):
        return game.zone_names[value]
    if type_.name == "cell" and isinstance(value, int):
        return game.cell_text(value)
    if isinstance(value, (list, tuple)):
        elem = type_.arg if type_.name == "list" else None
        return [plain(v, elem, game) for v in value]
    return value


@pytest.mark.parametrize("codegen", [True, False], ids=["generated", "closures"])
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conformance(case: ConformanceCase, codegen):
    """Every case, with the generated code and with the closure compiler alone."""
    spec = case.spec
    assert ("result" in spec) != ("error" in spec), f"{case.id}: give either result or error"
    ctx = context(case.context_key)
    if "error" in spec:
        want = spec["error"]
        with pytest.raises(RulebookError) as info:
            evaluate(ctx, case.expression, codegen)
        error = info.value
        assert error.stage == want["stage"], f"{case.id}: {error}"
        assert want["message"] in error.message, f"{case.id}: {error}"
        if "hint" in want:
            assert error.hint and want["hint"] in error.hint, f"{case.id}: hint of {error}"
        if "column" in want:
            assert error.position is not None and error.position.file == EXPRESSION_FILE, f"{case.id}: {error}"
            assert (error.position.line, error.position.column) == (1, want["column"]), f"{case.id}: {error}"
        return
    value, type_ = evaluate(ctx, case.expression, codegen)
    assert plain(value, type_, ctx.game) == spec["result"], f"{case.id}: got {value!r} of type {type_}"
    if "type" in spec:
        assert str(type_) == spec["type"], f"{case.id}: static type {type_}"


COMPREHENSION_CASES = [c for c in CASES if " for " in str(c.expression) and "result" in c.spec]


@pytest.mark.parametrize("case", COMPREHENSION_CASES, ids=[c.id for c in COMPREHENSION_CASES])
def test_comprehension_without_selections(case: ConformanceCase, monkeypatch):
    """Every comprehension case gives the same result evaluated element by element, without the
    compiler's selections (interpreter/compile/comprehensions.py)."""
    monkeypatch.setattr(comprehensions, "_selecting", lambda *args: None)
    value, type_ = evaluate(context(case.context_key), case.expression, codegen=False)
    assert plain(value, type_, context(case.context_key).game) == case.spec["result"], case.id


@pytest.mark.parametrize("text, selects", [
    ("[c for c in market if c.value == 2]", True),
    ("[c for c in market if c.value - c.bonus == 0]", True),
    ("[c for c in market if worth(c) >= 4]", False),
    ("any(c.value - c.bonus == 0 for c in market)", True),
    ("all(c.value >= 2 for c in market)", True),
    ("[c for c in market if not c.face and c.tapped]", True),
    ("all(c.value >= 2 for c in market if c.face)", False),
    ("[c for c in market if c.value == max(c.value for c in market)]", False),
    ("[c for c in market if rich(active) and c.value == 2]", False),
])
def test_selections_are_compiled_where_they_apply(text, selects, monkeypatch):
    made = []
    real = comprehensions._selecting

    def recording(*args):
        made.append(real(*args))
        return made[-1]
    monkeypatch.setattr(comprehensions, "_selecting", recording)
    evaluate(context((CONTEXT, False, None, "{}")), text, codegen=False)
    assert (made[0] is not None) == selects


def test_evaluation_leaves_the_context_unchanged():
    """Evaluating cases does not change the context's state (the harness works on copies)."""
    ctx = context((CONTEXT, False, None, "{}"))
    before = ctx.state.to_json()
    evaluate(ctx, "[c.value for c in market] + [size(p.hand) for p in players]")
    assert ctx.state.to_json() == before


REQUIRED_BUILTINS = ["size", "empty", "top", "bottom", "first", "last", "range", "min", "max", "abs",
                     "next_player", "previous_player", "components", "owner_of"]
REQUIRED_AGGREGATES = ["sum(", "count(", "any(", "all(", "min(", "max("]


def test_conformance_covers_the_language():
    """The cases use every built-in function named in the brief, every aggregate with and without a
    filter, and test every error stage."""
    texts = [str(c.expression) for c in CASES]
    for name in REQUIRED_BUILTINS:
        assert any(f"{name}(" in t for t in texts), f"no conformance case calls {name}()"
    for aggregate in REQUIRED_AGGREGATES + ["["]:
        comprehensions = [t for t in texts if aggregate in t and " for " in t]
        assert any(" if " in t.split(" for ", 1)[1] for t in comprehensions), f"no filtered {aggregate}...)"
        assert any(" if " not in t.split(" for ", 1)[1] for t in comprehensions), f"no unfiltered {aggregate}...)"
    stages = {c.spec["error"]["stage"] for c in CASES if "error" in c.spec}
    assert {"syntax error", "check error", "runtime error"} <= stages
