"""Comparisons simplified as they are generated: constants folded, ``none`` compared by identity,
a difference compared with a small constant as a comparison of its two sides."""
from __future__ import annotations

import ast as py

from .nodes import N, _const


_FOLDED = {py.Eq: lambda a, b: a == b, py.NotEq: lambda a, b: a != b, py.In: lambda a, b: a in b,
           py.NotIn: lambda a, b: a not in b}


def folded(compare):
    """A comparison of two constants (a parameter folded in, compared with a literal:
    ``'fixed' == 'fixed'``) as its value; a comparison with ``none`` as ``is``/``is not`` (the
    language's values are equal to None only when they are None); else the comparison."""
    left, right, op = compare.left, compare.comparators[0], type(compare.ops[0])
    if isinstance(left, py.Constant) and isinstance(right, py.Constant) and op in _FOLDED:
        if type(left.value) in (int, str, bool, type(None)) and (
                op in (py.Eq, py.NotEq) and type(right.value) in (int, str, bool, type(None))
                or op in (py.In, py.NotIn) and isinstance(right.value, tuple)):
            return _const(_FOLDED[op](left.value, right.value))
    if op in (py.Eq, py.NotEq) and any(isinstance(side, py.Constant) and side.value is None
                                       for side in (left, right)):
        compare.ops = [N.Is() if op is py.Eq else N.IsNot()]
    return compare


_SHIFTED = {(py.GtE, 1): py.Gt, (py.Lt, 1): py.LtE, (py.Gt, -1): py.GtE, (py.LtE, -1): py.Lt}


def difference_compared(compare):
    """``a - b`` compared with 0 as ``a`` compared with ``b`` (``rank - reduction == 0`` is ``rank ==
    reduction``; ``>= 1`` is ``>``, ``< 1`` is ``<=``, ``> -1`` is ``>=``, ``<= -1`` is ``<``): the same
    truth for whole numbers, one subtraction less.  Only a subtraction generated bare, which is one of
    whole numbers that cannot leave ±2^63 (a checked one is a conditional or a call)."""
    left, right, op = compare.left, compare.comparators[0], type(compare.ops[0])
    if not (isinstance(left, py.BinOp) and isinstance(left.op, py.Sub) and isinstance(right, py.Constant)
            and type(right.value) is int):
        return compare
    if right.value == 0 and op in (py.Eq, py.NotEq, py.Lt, py.LtE, py.Gt, py.GtE):
        return N.Compare(left=left.left, ops=[op()], comparators=[left.right])
    shifted = _SHIFTED.get((op, right.value))
    if shifted is not None:
        return N.Compare(left=left.left, ops=[shifted()], comparators=[left.right])
    return compare
