"""Generated code for comprehensions (``[e for x in xs if c]``, ``sum``, ``count``, ``any``, ``all``,
``min``, ``max`` over them), with the work budget's count of iterations kept in line.

:class:`ComprehensionGen` is mixed into :class:`interpreter.codegen.expressions.ExpressionGen`.
"""
from __future__ import annotations

import ast as py
import sys
from operator import itemgetter

from dsl import ast
from dsl.checker import reads_only_printed
from dsl.types import BOOL, ZONE

from .nodes import N, Scope, Unsupported, _call, _cheap, _const, _copy, _load, _store, _sub
from .indexes import indexed_items
from ..runtime.limits import MAX_ITERATIONS, iterations_exceeded


UNCOUNTED = object()  # the count of a nest that cannot reach the budget: nothing is counted
# searches among a table's indices by itemgetter pay on CPython only: PyPy's JIT makes the map
# search a loop, faster there than a call of an itemgetter (measured: 73 against 193 ns per search)
_GETTERS = sys.implementation.name == "cpython"


class ComprehensionGen:
    """Comprehension generation; needs ``compiler``, ``count``, ``in_iterable``, ``memo``, ``scopes``,
    ``fresh``, ``expr``, ``iterated``, ``value`` and ``checked_int`` of the code generator."""

    def _x_comprehension(self, node):
        """A Python comprehension.  A comprehension and those nested in it share one count of
        iterations (interpreter/runtime/limits.py), as in interpreter/compile/comprehensions.py: the outermost sets
        a local of the generated function to the number of its items, each nested one adds its
        own and is refused past MAX_ITERATIONS, all in line::

            [... _s2 ... for _v in _s1] if (_c := len(_s1 := SOURCE)) >= 0 else None
            [... for _v in _s2] if (_c := _c + len(_s2 := SOURCE)) <= MAX else iterations_exceeded()

        A lone comprehension counts nothing and iterates its source directly.  ``:=`` may not stand
        in what a comprehension iterates, so a source that holds comprehensions is computed first."""
        compiler = self.compiler
        if compiler.iterations is not None:
            raise Unsupported("inside a comprehension of the closure compiler")
        outer_count = self.count
        nests = any(nests_comprehension(compiler, part) for part in (node.elem, node.cond))
        unrolled = node.func in ("any", "all") and not self.in_iterable and self.fixed_length(node.source)
        if outer_count is None and (nests or nests_comprehension(compiler, node.source)) and self.bounded(node):
            self.count = UNCOUNTED
            try:
                return self._x_comprehension(node)
            finally:
                self.count = None
        uncounted = outer_count is UNCOUNTED  # in a nest that cannot reach the budget
        if not unrolled and (uncounted or (outer_count is None and not nests
                                           and not nests_comprehension(compiler, node.source))):
            self.in_iterable += 1
            try:
                source = self.iterated(node.source, node)
            finally:
                self.in_iterable -= 1
            return self._comprehension(node, source)
        if self.in_iterable:  # cannot happen: sources holding comprehensions are computed first
            raise Unsupported("comprehension in what a comprehension iterates")
        source = self.iterated(node.source, node)
        items = self.fresh("s")
        if unrolled and _cheap(source):
            self.aliases[items] = source
        bound = _call(_load("len"), [N.NamedExpr(target=_store(items), value=source)])
        make = self._unrolled if unrolled else self._comprehension
        if uncounted or (outer_count is None and not nests):  # a lone one whose source holds comprehensions
            body = make(node, _load(items))
            if unrolled and not _reads_name(body, items):  # each item read from its cheap source (getters)
                return body
            counting = N.Compare(left=bound, ops=[N.GtE()], comparators=[_const(0)])
            return N.IfExp(test=counting, body=body, orelse=_const(None))
        count = outer_count or self.fresh("c")
        self.count = count
        try:
            comprehension = make(node, _load(items))
        finally:
            self.count = outer_count
        if outer_count is None:
            counting = N.Compare(left=N.NamedExpr(target=_store(count), value=bound), ops=[N.GtE()],
                                 comparators=[_const(0)])
            return N.IfExp(test=counting, body=comprehension, orelse=_const(None))
        added = N.NamedExpr(target=_store(count), value=N.BinOp(left=_load(count), op=N.Add(), right=bound))
        counting = N.Compare(left=added, ops=[N.LtE()], comparators=[_const(MAX_ITERATIONS)])
        return N.IfExp(test=counting, body=comprehension, orelse=_call(self.value(iterations_exceeded), []))

    def bounded(self, node) -> bool:
        """Whether the nest of comprehensions ``node`` provably runs fewer than MAX_ITERATIONS
        iterations: then it counts none."""
        total = _Bounds(self).nest(node, {})
        return total is not None and total <= MAX_ITERATIONS

    def size_bound(self, node):
        """At most how many items the list ``node`` holds; None if no bound is known."""
        return _Bounds(self).size(node, {})

    def fixed_length(self, node):
        """The number of items of a list that always has the same number (the two lines of
        ``lines_through``), else None."""
        if (isinstance(node, ast.Call) and node.func == "lines_through" and len(node.args) == 1
                and self.compiler.symbols.get(node, ("",))[0] == "func"):
            return 2
        return None

    def _unrolled(self, node, items):
        """``any``/``all`` over a list of fixed length, one test per item joined with ``or`` (``and``):
        the same items tested in the same order, without a generator."""
        tests = []
        memo, self.memo = self.memo, None
        try:
            for i in range(self.fixed_length(node.source)):
                self.scopes.append(Scope({node.var: lambda i=i: _sub(_copy(items), _const(i))}))
                try:
                    cond = self.expr(node.cond) if node.cond is not None else None
                    elem = self.expr(node.elem)
                finally:
                    self.scopes.pop()
                if node.func == "any":
                    tests.append(elem if cond is None else N.BoolOp(op=N.And(), values=[cond, elem]))
                else:
                    tests.append(elem if cond is None else N.BoolOp(op=N.Or(), values=[
                        N.UnaryOp(op=N.Not(), operand=cond), elem]))
        finally:
            self.memo = memo
        joined = N.BoolOp(op=N.Or() if node.func == "any" else N.And(), values=tests)
        return N.IfExp(test=joined, body=_const(True), orelse=_const(False))

    def _comprehension(self, node, source):
        memo, self.memo = self.memo, None
        try:
            return self._comprehension_in_scope(node, source)
        finally:
            self.memo = memo

    def _parts(self, node):
        """``(variable, condition or None, element)`` of a comprehension: the Python local its
        variable lives in and the code of its condition and element (computed once per item: one
        loop deeper, for the parts of an enumerator kept once per binding)."""
        var = self.fresh("v")
        self.scopes.append(Scope({node.var: lambda: _load(var)}))
        invariant = self.invariant
        if invariant is not None:
            invariant.depth += 1
        try:
            filtering = (node.func == "list" and isinstance(node.elem, ast.Name) and node.elem.id == node.var
                         and self.compiler.symbols.get(node.elem, ("",))[0] == "local")
            mask = None
            if filtering and node.cond is not None and not self.compiler.inline:
                mask = printed_mask(self.compiler, node.cond, node.var)
            if mask is not None:
                cond = _sub(self.value(mask), _load(var))
            else:
                cond = self.expr(node.cond) if node.cond is not None else None
            elem = self.expr(node.elem)
        finally:
            self.scopes.pop()
            if invariant is not None:
                invariant.depth -= 1
        return var, cond, elem

    def comprehension_loop(self, node):
        """A list comprehension as the parts of a ``for`` statement (in a generated function, outside
        any comprehension): ``(statements, source, variable, condition or None, element)``; the
        statements (if any) run first and set the count of iterations, as ``_x_comprehension``
        does for a comprehension nesting others."""
        if self.count is not None or self.in_iterable or self.compiler.iterations is not None:
            raise Unsupported("a comprehension loop inside a comprehension")
        compiler = self.compiler
        nests = any(nests_comprehension(compiler, part) for part in (node.elem, node.cond))
        source = self.iterated(node.source, node)
        prelude = []
        if nests and self.bounded(node):
            self.count = UNCOUNTED
        elif nests:
            items, count = self.fresh("s"), self.fresh("c")
            prelude = [N.Assign(targets=[_store(items)], value=source),
                       N.Assign(targets=[_store(count)], value=_call(_load("len"), [_load(items)]))]
            source = _load(items)
            self.count = count
        memo, self.memo = self.memo, None
        try:
            var, cond, elem = self._parts(node)
        finally:
            self.memo = memo
            self.count = None
        return prelude, source, var, cond, elem

    def _comprehension_in_scope(self, node, source):
        var, cond, elem = self._parts(node)
        invariant = self.invariant
        if invariant is not None and self.count is None and invariant.active(self):
            # in an enumerator: the items passing the condition's first test, from an index (a new
            # one only inside the loops of the parameters, where the comprehension is made again)
            found = indexed_items(self, invariant.indexes, source, var, cond, new=invariant.depth > 0)
            if found is not None:
                items, cond = found
                group = self.fresh("s")
                made = self._comprehension_of(node, _load(group), var, cond, elem)
                given = N.Compare(left=N.NamedExpr(target=_store(group), value=items), ops=[N.IsNot()],
                                  comparators=[_const(None)])
                return N.IfExp(test=given, body=made, orelse=_const(None))
        return self._comprehension_of(node, source, var, cond, elem)

    def _comprehension_of(self, node, source, var, cond, elem):
        """The comprehension ``node`` over ``source`` (its source or the part of it an index gives)
        by ``var``, with its condition and element made."""
        func = node.func

        def comp(element, condition, kind=N.ListComp):
            gen = py.comprehension(target=_store(var), iter=source, ifs=[condition] if condition is not None else [],
                                   is_async=0)
            return kind(elt=element, generators=[gen])

        if func == "list":
            return comp(elem, cond)
        if func == "sum":
            return self.checked_int(_call(_load("sum"), [comp(elem, cond)]))
        if func == "count":
            test = N.Compare(left=elem, ops=[N.IsNot()], comparators=[_const(None)])
            if self._zone_items(node):  # the components of a zone are never none
                test = cond
            elif cond is not None:
                test = N.BoolOp(op=N.And(), values=[cond, test])
            return _call(_load("len"), [comp(_const(0), test)])
        searched = _searched(elem, var, (N.Eq, N.Is) if func == "any" else (N.NotEq, N.IsNot)) if cond is None else None
        if searched is not None:  # any(t[x] == k for x in xs) is k in map(t.__getitem__, xs), in C
            table, key = searched
            getter = self.getter_of(source)
            if getter is not None:  # xs is a tuple of indices the game fixed: k in G(t), G its itemgetter
                lookups = _call(getter, [table])
            else:
                lookups = _call(_load("map"), [N.Attribute(value=table, attr="__getitem__", ctx=N.Load()),
                                               source])
            return N.Compare(left=key, ops=[N.In() if func == "any" else N.NotIn()], comparators=[lookups])
        if func == "any":
            item = elem if cond is None else N.BoolOp(op=N.And(), values=[cond, elem])
            return _call(_load("any"), [comp(item, None, N.GeneratorExp)])
        if func == "all":
            item = elem if cond is None else N.BoolOp(op=N.Or(), values=[N.UnaryOp(op=N.Not(), operand=cond),
                                                                           elem])
            return _call(_load("all"), [comp(item, None, N.GeneratorExp)])
        if func in ("min", "max"):
            return N.Call(func=_load(func), args=[comp(elem, cond)],
                           keywords=[N.keyword(arg="default", value=_const(0))])
        raise Unsupported(func)

    def _zone_items(self, node) -> bool:
        """Whether the comprehension ``node`` takes the items of a zone themselves (``c for c in ZONE``)."""
        compiler = self.compiler
        return (isinstance(node.elem, ast.Name) and node.elem.id == node.var
                and compiler.symbols.get(node.elem, ("",))[0] == "local" and compiler.types.get(node.source) == ZONE)

    def getter_of(self, node):
        """For ``node`` a tuple of indices read from a table of the game (a constant, a value given
        to the generated code, an item of such, or the local an unrolled ``any``/``all`` keeps one in),
        the code of the ``itemgetter`` of those indices, from a twin of the table built once; else
        None.  ``k in G(t)`` finds ``k`` among the ``t[x]`` as ``map`` does, the lookups done in C
        (the indices are cells or components, in range by their types)."""
        if not _GETTERS:
            return None
        found = self._twin_of(node)
        return found[0] if found is not None and found[1] == 1 else None

    def _twin_of(self, node):
        """``(code, level)``: code reading the twin of what ``node`` reads, ``level`` tuples deep
        above the getters; None if there is none."""
        if isinstance(node, py.Subscript) and not isinstance(node.slice, py.Slice):
            found = self._twin_of(node.value)
            if found is None or found[1] < 2:
                return None
            return _sub(found[0], _copy(node.slice)), found[1] - 1
        if isinstance(node, py.Name) and node.id in self.aliases:
            return self._twin_of(_copy(self.aliases[node.id]))
        if isinstance(node, py.Name) and node.id.startswith("_k") and node.id in self.namespace:
            value = self.namespace[node.id]
        elif isinstance(node, py.Constant):
            value = node.value
        else:
            return None
        if id(value) not in self.twins:
            level = _level(value)
            self.twins[id(value)] = (value, None if level is None else (self.value(_twin(value)), level))
        twin = self.twins[id(value)][1]
        return None if twin is None else (_copy(twin[0]), twin[1])


def _level(value):
    """How many tuples deep ``value`` nests whole numbers (a tuple of numbers: 1); None if it is
    not such a nest (a level holding mixed things, or anything but sequences and numbers ≥ 0).
    The game's tables given to generated code never change, lists among them included."""
    if type(value) not in (tuple, list):
        return None
    if all(type(v) is int and v >= 0 for v in value):
        return 1
    levels = {_level(v) for v in value}
    return levels.pop() + 1 if len(levels) == 1 and None not in levels else None


def _twin(value):
    """A nest of tuples of indices with each tuple of indices replaced by its getter: ``t`` ->
    the tuple of ``t[i]`` for those indices (one index is asked twice, to get a tuple; none gives ())."""
    if all(type(v) is int for v in value):
        if len(value) >= 2:
            return itemgetter(*value)
        return itemgetter(value[0], value[0]) if value else _no_items
    return tuple(_twin(v) for v in value)


def _no_items(table):
    return ()


def _searched(elem, var, op):
    """``(t, k)`` if ``elem`` is ``t[var] OP k`` for a table ``t`` (a local or a value given to the
    generated code) and a constant ``k``: then ``any`` (for ``==``) and ``all`` (for ``!=``) are a
    search of ``k`` among the ``t[x]``, which stops at the same element and fails the same way."""
    if not (isinstance(elem, py.Compare) and len(elem.ops) == 1 and isinstance(elem.ops[0], op)
            and isinstance(elem.comparators[0], py.Constant)):
        return None
    left = elem.left
    if (isinstance(left, py.Subscript) and isinstance(left.value, py.Name) and left.value.id != var
            and isinstance(left.slice, py.Name) and left.slice.id == var):
        return left.value, elem.comparators[0]
    return None


class _Bounds:
    """Upper bounds of the number of items of lists and of the iterations of nests of
    comprehensions, from what the lists are: a zone holds at most every component, a grid's tables
    (neighbours, cells, lines) have known lengths; None where no bound is known."""

    def __init__(self, gen):
        self.compiler = gen.compiler
        game = self.game = gen.game
        self.gen = gen
        grids = [grid for grid in game.zone_grid if grid is not None]
        self.line = max([max(rows, columns) for _, rows, columns in grids], default=0)
        self.neighbours = max([len(n) for n in game.cell_all_neighbors], default=0)

    def nest(self, node, sizes):
        """At most how many iterations the comprehension ``node`` and those inside it count."""
        size = self.size(node.source, sizes)
        inside = self.inside(node.source, sizes)
        if size is None or inside is None:
            return None
        element = self.element_size(node.source, sizes)
        inner = dict(sizes)
        inner[node.var] = element
        per_item = 0
        for part in (node.elem, node.cond):
            found = self.inside(part, inner) if part is not None else 0
            if found is None:
                return None
            per_item += found
        return inside + size * (1 + per_item)

    def inside(self, node, sizes):
        """At most how many iterations the comprehensions within ``node`` count."""
        if isinstance(node, ast.Comprehension):
            return self.nest(node, sizes)
        compiler = self.compiler
        total = 0
        if isinstance(node, ast.Call) and compiler.symbols.get(node, ("",))[0] == "define":
            define = compiler.rs.defines[compiler.symbols[node][1]]
            if node.kwargs or len(node.args) != len(define.params):
                return None
            body = self.inside(define.body, {p: self.size(a, sizes) for p, a in zip(define.params, node.args)})
            if body is None:
                return None
            total += body
        for child in ast.children(node):
            found = self.inside(child, sizes)
            if found is None:
                return None
            total += found
        return total

    def size(self, node, sizes):
        """At most how many items the list ``node`` holds."""
        compiler = self.compiler
        if compiler.types.get(node) == ZONE:
            return self.game.num_components
        kind = compiler.symbols.get(node, ("",))[0]
        if isinstance(node, ast.Name) and kind == "local":
            return sizes.get(node.id)
        if isinstance(node, ast.ListLit):
            return len(node.items)
        if isinstance(node, ast.Comprehension) and node.func == "list":
            return self.size(node.source, sizes)
        if isinstance(node, (ast.BinOp, ast.Cond)):  # a concatenation of lists, a choice between two
            parts = [self.size(part, sizes) for part in ((node.left, node.right) if isinstance(node, ast.BinOp)
                                                         else (node.then, node.otherwise))]
            if None in parts:
                return None
            return sum(parts) if isinstance(node, ast.BinOp) else max(parts)
        if isinstance(node, ast.Call) and kind == "define" and not node.args:
            return self.size(compiler.rs.defines[compiler.symbols[node][1]].body, {})
        if isinstance(node, ast.Call) and kind == "func" and not node.kwargs:
            if node.func == "neighbors":
                return self.neighbours
            fixed = self.gen.fixed_length(node)
            if fixed is not None:
                return fixed
            if node.func == "cells":
                found = self.gen.grid_cells(node)
                return len(found) if found is not None else None
        return None

    def element_size(self, node, sizes):
        """At most how many items each element of the list ``node`` holds (a list of lists)."""
        compiler = self.compiler
        if (isinstance(node, ast.Call) and node.func == "lines_through" and not node.kwargs
                and compiler.symbols.get(node, ("",))[0] == "func"):
            return self.line
        return None


def _reads_name(tree, name) -> bool:
    """Whether the generated ``tree`` reads the local ``name``."""
    return any(isinstance(n, py.Name) and n.id == name for n in py.walk(tree))

def nests_comprehension(compiler, node) -> bool:
    """Whether evaluating ``node`` may run a comprehension (definitions are seen through)."""
    if node is None:
        return False
    if isinstance(node, ast.Comprehension):
        return True
    if compiler.is_define(node):
        define = compiler.rs.defines[compiler.symbols[node][1]]
        if nests_comprehension(compiler, define.body):
            return True
    return any(nests_comprehension(compiler, child) for child in ast.children(node))


def printed_mask(compiler, cond, var):
    """For a filter that reads only printed attributes of its element (and constants), the
    answer for every component, computed once: ``mask[c]``.  None if it reads anything else."""
    if compiler.types.get(cond) != BOOL or not reads_only_printed(cond, var, compiler.symbols):
        return None
    test = compiler.expr(cond)
    try:
        return [bool(test(None, {var: c})) for c in range(compiler.game.num_components)]
    except Exception:  # an attribute some kinds lack: decide at run time instead
        return None
