"""The range of whole numbers an expression can give, for the checks of generated arithmetic.

Generated code checks each sum, difference, product and negation against ±2^63 in line
(interpreter/limits.py), as the closure compiler does.  Where the operands' ranges show that one
side cannot be crossed, that side is not tested; where neither can, nothing is: the check could
never fail, so the values and the errors stay the same.  ``c.rank - c.reduction``, an attribute
of 0 to 4 less a mark (any whole number within ±2^63) cannot go below -2^63: only the upper side
is tested.

What is known: a literal; an attribute of components (its table, the same in every state); a
mark, variable or player variable holding a whole number (a state only ever holds numbers within
±2^63: every arithmetic result is checked, saved states are checked when loaded); a checked result
(a sum or difference of known ranges, else within ±2^63), also as the body of a definition.
"""
from __future__ import annotations

from dsl import ast
from dsl.types import INT

from .limits import INT_MAX, INT_MIN

WHOLE = (INT_MIN, INT_MAX)  # every number a state holds, every checked result


def int_range(compiler, game, node):
    """``(low, high)``: the least and greatest whole number ``node`` can give; None if not known."""
    if isinstance(node, ast.Literal):
        value = node.value
        return (value, value) if type(value) is int else None
    if compiler.types.get(node) != INT:
        return None
    kind, name = compiler.symbols.get(node, ("", None))
    if isinstance(node, ast.Attr) and kind == "attr":
        table = game.attr_tables.get(name, ())
        if table and all(type(value) is int for value in table):
            return min(table), max(table)
        return None
    if (isinstance(node, ast.Attr) and kind in ("mark", "pvar")) or (isinstance(node, ast.Name) and kind == "var"):
        return WHOLE
    if isinstance(node, ast.BinOp):
        return _clipped(unchecked_range(compiler, game, node))
    if isinstance(node, ast.Neg):
        return WHOLE
    if isinstance(node, ast.Call) and kind == "define":
        body = compiler.rs.defines[name].body
        return WHOLE if isinstance(body, (ast.BinOp, ast.Neg)) and compiler.types.get(body) == INT else None
    return None


def unchecked_range(compiler, game, node):
    """The range of the sum or difference ``node`` before its check; None if not known."""
    if node.op not in ("+", "-"):
        return None
    left, right = int_range(compiler, game, node.left), int_range(compiler, game, node.right)
    if left is None or right is None:
        return None
    if node.op == "+":
        return left[0] + right[0], left[1] + right[1]
    return left[0] - right[1], left[1] - right[0]


def _clipped(found):
    if found is None:
        return WHOLE
    return max(found[0], INT_MIN), min(found[1], INT_MAX)
