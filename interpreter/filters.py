"""Comprehension filters compiled to Python list comprehensions.

Run element by element, ``[h for h in hand if h.family == card.family and h.rank == card.rank - 1]``
calls several closures per element.  Instead, each leading condition that compares a *key* of the
element (the element itself, a printed attribute, a mark, or an attribute minus a mark) with a value
that does not depend on the element is evaluated as one selection: the value is computed once, and
one Python list comprehension keeps the elements whose key compares true.  The remaining conditions
run element by element as before.  Definitions are seen through.

The result is the same as element-by-element evaluation: expressions have no side effects, and a
selection's value is computed only when elements are left to compare, as it would have been.
"""
from __future__ import annotations

import operator

from dsl import ast

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}
_FLIPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_MISSING = object()


def all_of(parts):
    """One closure that is true when every closure of ``parts`` is (None for no parts)."""
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        a, b = parts
        return lambda s, e: a(s, e) and b(s, e)
    if len(parts) == 3:
        a, b, c = parts
        return lambda s, e: a(s, e) and b(s, e) and c(s, e)
    return lambda s, e: all(p(s, e) for p in parts)


def compile_comprehension(compiler, node, source):
    """A closure for ``list``, ``count`` (of the elements themselves) and ``any`` comprehensions whose
    conditions start with a selection; None when there is none (compile the usual way)."""
    var = node.var
    elem_is_var = isinstance(node.elem, ast.Name) and node.elem.id == var
    if node.func in ("list", "count") and elem_is_var and node.cond is not None:
        conditions = [node.cond]
    elif node.func == "any":
        conditions = [c for c in (node.cond, node.elem) if c is not None]
    else:
        return None
    selects, rest = [], []
    for condition in conditions:
        _split(compiler, condition, var, selects, rest)
    if not selects:
        return None
    rest = all_of(rest)
    select = _chain(selects)
    func = node.func
    if rest is None:
        if func == "list":
            return lambda s, e: select(s, e, items) if (items := source(s, e)) else []
        if func == "any":
            return lambda s, e: bool(select(s, e, items)) if (items := source(s, e)) else False

    def run(s, e):
        items = source(s, e)
        if items:
            items = select(s, e, items)
        if rest is not None and items:
            saved = e.get(var, _MISSING)
            items = _each(s, e, var, items, rest, func == "any")
            if saved is _MISSING:
                e.pop(var, None)
            else:
                e[var] = saved
        if func == "any":
            return bool(items)
        if func == "count":
            return sum(1 for x in items if x is not None)
        return items if items else []

    return run


def _chain(selects):
    """One selection that applies ``selects`` in turn, stopping when no items are left."""
    if len(selects) == 1:
        return selects[0]
    if len(selects) == 2:
        first, second = selects
        return lambda s, e, items: second(s, e, kept) if (kept := first(s, e, items)) else kept

    def select(s, e, items):
        for one in selects:
            items = one(s, e, items)
            if not items:
                break
        return items
    return select


def _each(s, e, var, items, test, first_only):
    out = []
    for x in items:
        e[var] = x
        if test(s, e):
            out.append(x)
            if first_only:
                break
    return out


def _split(compiler, node, var, selects, rest) -> None:
    """Sort the conjuncts of ``node`` into leading selections and the closures of the rest."""
    if isinstance(node, ast.BoolOp) and node.op == "and":
        _split(compiler, node.left, var, selects, rest)
        _split(compiler, node.right, var, selects, rest)
        return
    if compiler.is_define(node):
        with compiler.expanding(node) as body:
            _split(compiler, body, var, selects, rest)
        return
    select = None if rest else _selection(compiler, node, var)
    if select is None:
        rest.append(compiler.expr(node))
    else:
        selects.append(select)


def _selection(compiler, node, var):
    if not isinstance(node, ast.Compare) or node.op not in _COMPARE:
        return None
    for key_node, value_node, op in ((node.left, node.right, node.op),
                                     (node.right, node.left, _FLIPPED[node.op])):
        key = _element_key(compiler, key_node, var)
        if key is None:
            continue
        value, reads = compiler.reads_during(lambda: compiler.expr(value_node))
        if var in reads:
            return None
        return _select(key, op, value, compiler.game)
    return None


def _element_key(compiler, node, var):
    """What ``node`` reads of the element ``var``: ('self',), ('attr', table, name), ('mark', name)
    or ('attr-mark', table, name, mark name); None if it is anything else."""
    if compiler.is_define(node):
        with compiler.expanding(node) as body:
            return _element_key(compiler, body, var)
    if compiler.local_key(node) == var:
        return ("self",)
    if isinstance(node, ast.BinOp) and node.op == "-":
        left, right = _element_key(compiler, node.left, var), _element_key(compiler, node.right, var)
        if left is not None and right is not None and left[0] == "attr" and right[0] == "mark":
            return ("attr-mark", left[1], left[2], right[1])
        return None
    if isinstance(node, ast.Attr) and compiler.local_key(node.obj) == var:
        kind, name = compiler.symbols[node]
        if kind == "attr":
            return ("attr", compiler.game.attr_tables[name], name)
        if kind == "mark":
            return ("mark", name)
    return None


def _select(key, op, value, game):
    """``select(s, e, items)``: the ``items`` whose key compares true with the value."""
    kind, cmp = key[0], _COMPARE[op]
    if kind == "self" and op == "!=":
        def select(s, e, items):
            v = value(s, e)
            return [x for x in items if x != v]
    elif kind == "self":
        def select(s, e, items):
            v = value(s, e)
            return [x for x in items if cmp(x, v)]
    elif kind == "mark":
        name = key[1]

        def select(s, e, items):
            v, mark = value(s, e), s.marks[name]
            return [x for x in items if cmp(mark[x], v)]
    elif kind == "attr" and op == "==":
        table = key[1]

        def select(s, e, items):
            v = value(s, e)
            return [x for x in items if table[x] == v]
    elif kind == "attr":
        table = key[1]

        def select(s, e, items):
            v = value(s, e)
            return [x for x in items if cmp(table[x], v)]
    else:
        table, name = key[1], key[3]

        def select(s, e, items):
            v, mark = value(s, e), s.marks[name]
            return [x for x in items if cmp(table[x] - mark[x], v)]
    if kind in ("attr", "attr-mark") and key[2] in game.partial_attributes:
        return _checking_attribute(select, key[1], key[2], game)
    return select


def _checking_attribute(select, table, name, game):
    """``select`` for an attribute some components lack: one of those among the items is the
    error it would be element by element."""
    def checked(s, e, items):
        lacking = [x for x in items if table[x] is None]
        if lacking:
            raise game.missing_attribute(lacking[0], name)
        return select(s, e, items)
    return checked
