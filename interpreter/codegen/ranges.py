"""The range of whole numbers an expression can give, for the checks of generated arithmetic.

Generated code checks each sum, difference, product and negation against ±2^63 in line
(interpreter/runtime/limits.py), as the closure compiler does.  Where the operands' ranges show that one
side cannot be crossed, that side is not tested; where neither can, nothing is: the check could
never fail, so the values and the errors stay the same.  ``c.rank - c.reduction``, an attribute
of 0 to 4 less a mark (any whole number within ±2^63) cannot go below -2^63: only the upper side
is tested.

What is known: a literal, a parameter or ``num_players``; an attribute of components (its table,
the same in every state); a variable or player variable holding a whole number (a state only ever
holds numbers within ±2^63: every arithmetic result is checked, saved states are checked when
loaded); a mark, within the range its rules can give it (:func:`mark_ranges`); a checked result (a
sum or difference of known ranges, else within ±2^63), also as the body of a definition, where
its range is that of the body for any argument.
"""
from __future__ import annotations

from dsl import ast, ir
from dsl.types import INT

from ..runtime.limits import INT_MAX, INT_MIN

WHOLE = (INT_MIN, INT_MAX)  # every number a state holds, every checked result


_DEPTH = 16  # definitions expanded inside one another, at most, to find a range


def int_range(compiler, game, node, depth=0, known=None):
    """``(low, high)``: the least and greatest whole number ``node`` can give; None if not known.
    ``known``: ranges of locals, by name (see :func:`mark_ranges`)."""
    if isinstance(node, ast.Literal):
        value = node.value
        return (value, value) if type(value) is int else None
    if compiler.types.get(node) != INT:
        return None
    kind, name = compiler.symbols.get(node, ("", None))
    if isinstance(node, ast.Name) and kind == "const":
        return (name, name) if type(name) is int else None
    if isinstance(node, ast.Name) and kind == "local":
        return (known or {}).get(node.id)
    if isinstance(node, ast.Attr) and kind == "attr":
        table = game.attr_tables.get(name, ())
        if table and all(type(value) is int for value in table):
            return min(table), max(table)
        return None
    if isinstance(node, ast.Attr) and kind == "mark":
        return game.mark_ranges.get(name, WHOLE)
    if (isinstance(node, ast.Attr) and kind == "pvar") or (isinstance(node, ast.Name) and kind == "var"):
        return WHOLE
    if isinstance(node, ast.BinOp):
        return _clipped(unchecked_range(compiler, game, node, depth, known))
    if isinstance(node, ast.Neg):
        return WHOLE
    if isinstance(node, ast.Call) and kind == "define":
        body = compiler.rs.defines[name].body
        if not isinstance(body, (ast.BinOp, ast.Neg)) or compiler.types.get(body) != INT:
            return None
        return int_range(compiler, game, body, depth + 1) if depth < _DEPTH else WHOLE
    return None


def unchecked_range(compiler, game, node, depth=0, known=None):
    """The range of the sum or difference ``node`` before its check; None if not known."""
    if node.op not in ("+", "-"):
        return None
    left = int_range(compiler, game, node.left, depth, known)
    right = int_range(compiler, game, node.right, depth, known)
    if left is None or right is None:
        return None
    if node.op == "+":
        return left[0] + right[0], left[1] + right[1]
    return left[0] - right[1], left[1] - right[0]


def _clipped(found):
    if found is None:
        return WHOLE
    return max(found[0], INT_MIN), min(found[1], INT_MAX)


def mark_ranges(compiler, game) -> dict:
    """Per mark holding whole numbers, ``(low, high)``: every value its rules can give it.  A mark
    starts at its components' initial values; ``=`` gives it the range of the value; ``+=`` of a
    value never below 0 cannot lower it, nor ``-=`` of one never below 0 raise it (a side such an
    update can move goes to ±2^63, where every update is checked).  Inside an option, a parameter
    whose domain is ``range(a, b)`` is at least ``a`` (unless the option's statements bind its name
    again).  So ``reduction``, set to 0 and raised by ``+= by`` with ``by`` from ``range(1, …)``, is
    never below 0, and ``c.rank - c.reduction`` needs no test at all.  A saved state holding a mark
    outside its range is refused (interpreter/store/saved_state.py).  Worked out before any code is
    generated: every mark counts as within ±2^63 meanwhile."""
    game.mark_ranges = {}
    found = {}
    for name, values in game.initial_marks.items():
        if values and all(type(v) is int for v in values):
            found[name] = [min(values), max(values)]
    rs = compiler.rs
    bodies = [rs.setup, rs.flow] + [p.body for p in rs.procedures.values()] + [t.body for t in rs.triggers]
    todo = [(body, {}) for body in bodies]  # statements, with the ranges of the parameters they see
    while todo:
        stmts, known = todo.pop()
        for stmt in stmts:
            if isinstance(stmt, ir.Exec):
                _update(compiler, game, found, stmt.node, known)
            elif isinstance(stmt, ir.Choose):
                todo += [(option.body, _parameter_ranges(compiler, game, option)) for option in stmt.options]
            else:
                todo += [(inner, known) for inner in ir.nested(stmt)]
    ranges = {name: (max(low, INT_MIN), min(high, INT_MAX)) for name, (low, high) in found.items()}
    game.mark_ranges = ranges
    return ranges


def _update(compiler, game, found, node, known) -> None:
    """Widen the range of the mark ``node`` assigns to (if it does) by what it can store."""
    if not isinstance(node, ast.Assign) or not isinstance(node.target, ast.Attr):
        return
    kind, name = compiler.symbols.get(node.target, ("", None))
    if kind != "mark" or name not in found:
        return
    bounds = found[name]
    low, high = int_range(compiler, game, node.value, known=known) or WHOLE
    if node.op == "=":
        bounds[0], bounds[1] = min(bounds[0], low), max(bounds[1], high)
        return
    if node.op not in ("+=", "-="):
        bounds[:] = WHOLE
        return
    if node.op == "-=":
        low, high = -high, -low
    if low < 0:
        bounds[0] = INT_MIN
    if high > 0:
        bounds[1] = INT_MAX


def _parameter_ranges(compiler, game, option) -> dict:
    """The ranges of an option's parameters ranging over ``range(a, b)``, by name, where nothing in
    the option's statements binds the name again (a ``let``, an assignment, a loop, a nested
    option's parameter)."""
    rebound = set()
    for stmt in ir.walk(option.body):
        node = getattr(stmt, "node", None) if isinstance(stmt, ir.Exec) else None
        if isinstance(node, ast.Let):
            rebound.add(node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.target, ast.Name):
            rebound.add(node.target.id)
        elif isinstance(stmt, (ir.For, ir.Simultaneous)):
            rebound.add(stmt.var)
        elif isinstance(stmt, ir.Choose):
            rebound.update(name for inner in stmt.options for name, _ in inner.params)
    known = {}
    for name, domain in option.params:
        if (name not in rebound and isinstance(domain, ast.Call) and len(domain.args) == 2 and not domain.kwargs
                and compiler.symbols.get(domain) == ("func", "range")):
            start = int_range(compiler, game, domain.args[0])
            if start is not None:
                known[name] = (start[0], INT_MAX)
    return known
