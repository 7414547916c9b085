"""The core stays Python 3.9 code (Debian's PyPy), checked on any interpreter.

The core — dsl/ and interpreter/ except the packages of extras (web/, lsp/, adapters/) — must not use
3.10+ features: ``match``, ``except*`` and other new syntax (what ``ast.parse`` with ``feature_version=(3, 9)``
refuses; it lets parenthesized context managers through, which PyPy's run of .ci/run catches), ``zip(strict=...)``, ``dataclass(slots=..., kw_only=...)``, and
``X | Y`` annotations that Python 3.9 would evaluate (a module without ``from __future__ import
annotations``).  ``.ci/run`` also runs the core tests under PyPy; this test gives the same answer
sooner, on the machine where the code is written.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = {"web", "lsp", "adapters"}
CORE_FILES = sorted(p for folder in ("dsl", "interpreter", "rulebook_data") for p in (ROOT / folder).rglob("*.py")
                    if not EXTRAS & set(p.relative_to(ROOT / folder).parts[:-1]))
NEW_KEYWORDS = {"zip": {"strict"}, "dataclass": {"slots", "kw_only"}}


def _name(node) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _annotations(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if arg is not None and arg.annotation is not None:
                    yield arg.annotation
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


def problems(source: str) -> list:
    """What in ``source`` Python 3.9 cannot run, as 'line: what' texts."""
    try:
        tree = ast.parse(source, feature_version=(3, 9))
    except SyntaxError as exc:
        return [f"{exc.lineno}: syntax newer than Python 3.9: {exc.msg}"]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in NEW_KEYWORDS.get(_name(node.func), ()):
                    found.append(f"{node.lineno}: {_name(node.func)}({keyword.arg}=...) is Python 3.10+")
    future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and
                 any(a.name == "annotations" for a in n.names) for n in tree.body)
    if not future:
        for annotation in _annotations(tree):
            if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr) for n in ast.walk(annotation)):
                found.append(f"{annotation.lineno}: 'X | Y' in an annotation needs "
                             "'from __future__ import annotations' on Python 3.9")
    return found


def test_the_core_has_files_to_check():
    names = {p.relative_to(ROOT).as_posix() for p in CORE_FILES}
    assert {"dsl/parser.py", "interpreter/game.py", "interpreter/cli/main.py"} <= names


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_core_module_is_python_39(path):
    assert problems(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source, expected", [
    ("match x:\n    case 1:\n        pass\n", "syntax newer than Python 3.9"),
    ("try:\n    pass\nexcept* ValueError:\n    pass\n", "syntax newer than Python 3.9"),
    ("pairs = list(zip(a, b, strict=True))\n", "zip(strict=...) is Python 3.10+"),
    ("@dataclass(slots=True)\nclass A:\n    x: int\n", "dataclass(slots=...) is Python 3.10+"),
    ("def f(x: int | None) -> None:\n    pass\n", "'X | Y' in an annotation"),
])
def test_the_check_finds_what_python_39_cannot_run(source, expected):
    assert any(expected in p for p in problems(source))
    assert problems("from __future__ import annotations\n" + source if "|" in source else "x = 1\n") == []
