"""Comprehensions: ``[elem for var in source if cond]`` and the aggregates ``sum``, ``count``,
``any``, ``all``, ``min`` and ``max`` over the same form.

The plain way runs the condition and the element, as closures, once per element.  Two faster ways
give the same results where they apply:

- a filter that reads only printed attributes of its element (and constants) is decided for every
  component once, when the ruleset loads: a *mask*;
- a *selection*: run element by element, ``[h for h in hand if h.family == card.family and
  h.rank == card.rank - 1]`` calls several closures per element.  Instead, each leading condition
  that compares a key of the element (the element itself, a printed attribute, a mark, or an
  attribute minus a mark) with a value that does not depend on the element is evaluated once: the
  value is computed, and one Python list comprehension keeps the elements whose key compares true.
  The remaining conditions run element by element as before.  Definitions are seen through.
  Expressions have no side effects, and a selection's value is computed only when elements are
  left to compare, as it would have been; a component lacking a compared attribute is the same
  error it would be element by element.
"""
from __future__ import annotations

import operator

from dsl import ast

from ..codegen.comprehensions import nests_comprehension, printed_mask
from ..runtime.limits import INT_MAX, INT_MIN, MAX_ITERATIONS, checked_int, int_out_of_range, too_many_iterations

COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge}
_FLIPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_MISSING = object()


def _reduce_list(s, e, var, items, cond, elem):
    out = []
    for x in items:
        e[var] = x
        if cond(s, e):
            out.append(elem(s, e))
    return out


def _filter_list(s, e, var, items, cond, elem):
    out = []
    for x in items:
        e[var] = x
        if cond(s, e):
            out.append(x)
    return out


def _reduce_sum(s, e, var, items, cond, elem):
    total = 0
    for x in items:
        e[var] = x
        if cond(s, e):
            total += elem(s, e)
    return checked_int(total)


def _reduce_count(s, e, var, items, cond, elem):
    total = 0
    for x in items:
        e[var] = x
        if cond(s, e) and elem(s, e) is not None:
            total += 1
    return total


def _reduce_any(s, e, var, items, cond, elem):
    for x in items:
        e[var] = x
        if cond(s, e) and elem(s, e):
            return True
    return False


def _reduce_all(s, e, var, items, cond, elem):
    for x in items:
        e[var] = x
        if cond(s, e) and not elem(s, e):
            return False
    return True


def _reduce_min(s, e, var, items, cond, elem):
    values = _reduce_list(s, e, var, items, cond, elem)
    return min(values) if values else 0


def _reduce_max(s, e, var, items, cond, elem):
    values = _reduce_list(s, e, var, items, cond, elem)
    return max(values) if values else 0


_REDUCERS = {"list": _reduce_list, "sum": _reduce_sum, "count": _reduce_count, "any": _reduce_any,
             "all": _reduce_all, "min": _reduce_min, "max": _reduce_max}

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
    first, rest = all_of(parts[:3]), all_of(parts[3:])
    return lambda s, e: first(s, e) and rest(s, e)


def compile_comprehension(compiler, node):
    """A closure ``f(state, env)`` for a comprehension node.  A comprehension and those nested in
    it share one count of iterations, capped at MAX_ITERATIONS (see interpreter/runtime/limits.py); one
    with none nested in it iterates over at most one list and counts nothing."""
    outer = compiler.iterations
    source = compiler.as_list(node.source)
    if outer is not None:
        return _compile(compiler, node, source, outer)
    if not any(nests_comprehension(compiler, part) for part in (node.elem, node.cond)):
        return _compile(compiler, node, source, None)
    counter = compiler.iterations = [0]
    try:
        return _compile(compiler, node, _counting(source, counter), None)
    finally:
        compiler.iterations = None


def _counting(source, counter):
    """``source`` of the outermost comprehension of a nest: it starts the count."""
    def counting(s, e):
        items = source(s, e)
        counter[0] = len(items)
        return items
    return counting


def _compile(compiler, node, source, counter):
    """The closure of a comprehension; a nested one (``counter``: the count of its nest) adds the
    number of its items to the count, in line where it reads its source (a call would cost more)."""
    var = node.var
    filtering = node.func == "list" and isinstance(node.elem, ast.Name) and node.elem.id == var
    mask = printed_mask(compiler, node.cond, var) if filtering and node.cond is not None else None
    if mask is not None:
        if counter is not None:
            return lambda s, e: [x for x in _counted(source(s, e), counter) if mask[x]]
        return lambda s, e: [x for x in source(s, e) if mask[x]]
    reduce = _filter_list if filtering else _REDUCERS[node.func]
    elem = compiler.expr(node.elem)
    cond = compiler.expr(node.cond) if node.cond is not None else _true

    def plain(s, e):
        items = source(s, e)
        if counter is not None:
            done = counter[0] = counter[0] + len(items)
            if done > MAX_ITERATIONS:
                raise too_many_iterations()
        return _scoped(reduce, s, e, var, items, cond, elem)
    return _selecting(compiler, node, source, plain, counter) or plain


def _counted(items, counter):
    """``items``, added to the count of a nest of comprehensions."""
    done = counter[0] = counter[0] + len(items)
    if done > MAX_ITERATIONS:
        raise too_many_iterations()
    return items


def _true(s, e):
    return True


def _scoped(reduce, s, e, var, items, cond, elem):
    """``reduce(...)``, which binds ``var`` in ``e``; then ``var`` is what it was before."""
    saved = e.get(var, _MISSING)
    try:
        return reduce(s, e, var, items, cond, elem)
    finally:
        if saved is _MISSING:
            e.pop(var, None)
        else:
            e[var] = saved


def _selecting(compiler, node, source, plain, counter):
    """A closure for ``list`` and ``count`` (of the elements themselves), ``any`` and ``all``
    (without a filter) comprehensions whose conditions start with a selection; None when there is
    none.  Should a selection fail (an element without the attribute compared, say), ``plain``
    evaluates the comprehension instead: it fails the same way, or, where ``any`` and ``all``
    stop early, not at all."""
    var, func = node.var, node.func
    elem_is_var = isinstance(node.elem, ast.Name) and node.elem.id == var
    if func in ("list", "count") and elem_is_var and node.cond is not None:
        conditions = [node.cond]
    elif func == "any":
        conditions = [c for c in (node.cond, node.elem) if c is not None]
    elif func == "all" and node.cond is None:
        conditions = [node.elem]
    else:
        return None
    selects, rest = [], []
    for condition in conditions:
        _split(compiler, condition, var, selects, rest)
    if not selects:
        return None
    rest = all_of(rest)
    select = _chain(selects)

    if func == "list" and rest is None:
        def selected(s, e):
            try:
                items = source(s, e)
                if counter is not None:
                    _counted(items, counter)
                return select(s, e, items) if items else []
            except Exception:
                return plain(s, e)
        return selected

    def run(s, e):
        try:
            items = source(s, e)
            if counter is not None:
                done = counter[0] = counter[0] + len(items)
                if done > MAX_ITERATIONS:
                    raise too_many_iterations()
            kept = select(s, e, items) if items else items
            if func == "any":
                if rest is None or not kept:
                    return bool(kept)
                return _scoped(_reduce_any, s, e, var, kept, rest, _true)
            if func == "all":
                if len(kept) < len(items):
                    return False
                return rest is None or _scoped(_reduce_all, s, e, var, kept, _true, rest)
            if rest is not None and kept:
                kept = _scoped(_filter_list, s, e, var, kept, rest, None)
            if func == "count":
                return sum(1 for x in kept if x is not None)
            return kept if kept else []
        except Exception:
            return plain(s, e)

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
    if isinstance(node, ast.Not) or not isinstance(node, ast.Compare):
        negated = isinstance(node, ast.Not)
        key = _element_key(compiler, node.operand if negated else node, var)
        if key is None or key[0] not in ("mark", "attr"):
            return None
        return _select(key, "falsy" if negated else "truthy", None, compiler.game)
    if node.op not in COMPARE:
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
    """What ``node`` reads of the element ``var``: ('self',); ('state', list) for what the state
    keeps per component or cell (``c.zone``: 'loc', ``c.cell``: 'cell_of', ``at(cell)``: 'cells');
    ('attr', table, name) for a printed attribute (or the component's name or kind: name None);
    ('mark', name); ('attr-mark', table, name, mark name); None if it is anything else."""
    if compiler.is_define(node):
        with compiler.expanding(node) as body:
            return _element_key(compiler, body, var)
    if compiler.local_key(node) == var:
        return ("self",)
    if (isinstance(node, ast.Call) and node.func == "at" and len(node.args) == 1 and not node.kwargs
            and compiler.local_key(node.args[0]) == var):
        return ("state", "cells")
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
        if kind == "cprop" and name in ("zone", "cell"):
            return ("state", "loc" if name == "zone" else "cell_of")
        if kind == "cprop" and name in ("name", "kind"):
            return ("attr", compiler.game.names if name == "name" else compiler.game.kinds, None)
    return None


def _select(key, op, value, game):
    """``select(s, e, items)``: the ``items`` whose key compares true with the value (or, for the
    ops 'truthy' and 'falsy', whose key is true or false)."""
    kind, cmp = key[0], COMPARE.get(op)
    if op in ("truthy", "falsy"):
        select = _truth_select(key, op == "truthy")
    elif kind == "self" and op == "!=":
        def select(s, e, items):
            v = value(s, e)
            return [x for x in items if x != v]
    elif kind == "self":
        def select(s, e, items):
            v = value(s, e)
            return [x for x in items if cmp(x, v)]
    elif kind == "state":
        slot = key[1]

        def select(s, e, items):
            v, per_item = value(s, e), getattr(s, slot)
            return [x for x in items if cmp(per_item[x], v)]
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

        def select(s, e, items):  # the difference refused beyond ±2^63, as everywhere
            v, mark = value(s, e), s.marks[name]
            return [x for x in items
                    if cmp(d if INT_MIN <= (d := table[x] - mark[x]) <= INT_MAX else int_out_of_range(d), v)]
    if kind in ("attr", "attr-mark") and key[2] in game.partial_attributes:
        return _checking_attribute(select, key[1], key[2], game)
    return select


def _checking_attribute(select, table, name, game):
    """``select`` for an attribute some components lack: one of those among the items makes the
    selection fail (and the comprehension is evaluated element by element)."""
    def checked(s, e, items):
        lacking = [x for x in items if table[x] is None]
        if lacking:
            raise game.missing_attribute(lacking[0], name)
        return select(s, e, items)
    return checked


def _truth_select(key, wanted):
    """The selection of the items whose mark or attribute is true (``wanted``) or false."""
    if key[0] == "mark":
        name = key[1]

        def select(s, e, items):
            mark = s.marks[name]
            return [x for x in items if mark[x]] if wanted else [x for x in items if not mark[x]]
        return select
    table = key[1]
    if wanted:
        return lambda s, e, items: [x for x in items if table[x]]
    return lambda s, e, items: [x for x in items if not table[x]]
