"""The architecture holds: imports only go down, and no module imports itself in a circle.

The graph comes from the code's own ``import`` statements (at the top of a module or inside a
function alike), read with Python's ``ast``; see docs/architecture.md for the rooms and floors.
"""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

# The rooms from the bottom up: a room may import its own modules and those of the rooms below it.
# Rooms on one floor (a tuple) do not import each other.
FLOORS = [
    ("rulebook_data",),
    ("dsl",),
    ("interpreter.runtime",),
    ("interpreter.codegen",),
    ("interpreter.compile",),
    ("interpreter.store",),
    ("interpreter.native",),
    ("interpreter",),  # the package face and game.py
    ("interpreter.bots",),
    ("interpreter.analysis",),
    ("interpreter.web", "interpreter.lsp", "interpreter.adapters"),
    ("interpreter.cli",),
]
PACKAGES = ("rulebook_data", "dsl", "interpreter")


def _modules() -> dict:
    """Every module of the packages: dotted name -> file."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict) -> set:
    """The modules of the packages that the module ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem
                       for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t in modules and t != name)
    return found


def _room(module: str) -> str:
    rooms = [room for floor in FLOORS for room in floor]
    return max((r for r in rooms if module == r or module.startswith(r + ".")), key=len)


def _floor(room: str) -> int:
    return next(i for i, floor in enumerate(FLOORS) if room in floor)


GRAPH = {name: _imports(name, path, modules) for modules in [_modules()] for name, path in modules.items()}


def test_every_module_has_a_room():
    for module in GRAPH:
        assert _room(module), module


def test_imports_only_go_down():
    upward = []
    for module, targets in GRAPH.items():
        room = _room(module)
        for target in targets:
            other = _room(target)
            if other == room:
                continue
            if _floor(other) >= _floor(room):
                upward.append(f"{module} -> {target} ({room} may not import {other})")
    assert not upward, "\n".join(sorted(upward))


def test_no_import_cycles():
    """Tarjan's strongly connected components over the module graph: each must be one module."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(GRAPH[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(GRAPH[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert not cycles, cycles


def test_the_top_of_the_engine_holds_only_its_face():
    top = sorted(p.name for p in (ROOT / "interpreter").glob("*.py"))
    assert top == ["__init__.py", "game.py"], top


def test_every_package_says_what_belongs_in_it():
    for package in [p for p in (ROOT / "interpreter").rglob("__init__.py")] + [ROOT / "dsl" / "__init__.py"]:
        tree = ast.parse(package.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree)
        assert doc and len(doc.split()) >= 8, f"{package.relative_to(ROOT)} needs a docstring saying what belongs in it"
