"""Generated code for expressions: names, attributes, operators, conditionals and calls.

:class:`ExpressionGen` is the part of :class:`interpreter.codegen.generator.CodeGen` that turns one checked
expression into a Python ``ast`` expression (comprehensions are made by the mixin of
:mod:`interpreter.codegen.comprehensions`).  An expression it cannot generate raises
:class:`~interpreter.codegen.nodes.Unsupported` or is handed to the closure compiler (``fallback``).
"""
from __future__ import annotations

import ast as py

from dsl import ast
from dsl.unparse import unparse
from dsl.errors import RulesRuntimeError
from dsl.registry import FUNCTIONS
from dsl.types import INT, ZONE, element_type, type_text

from .nodes import (E, N, S, Scope, Unsupported, _CMPOPS, _PYOPS, _call, _cheap, _checked, _const,
                          _copy, _load, _store, _sub)
from .comparisons import difference_compared, folded
from .comprehensions import ComprehensionGen
from .ranges import unchecked_range
from ..runtime.limits import INT_MAX, INT_MIN, checked_value


_SHAREABLE = (ast.Call, ast.Attr, ast.BinOp, ast.Index)  # parts worth computing once


class ExpressionGen(ComprehensionGen):
    """Expression generation, mixed into ``CodeGen`` (which provides ``value``, ``state_table``,
    ``checked_int``, ``checked_list``, ``scopes``, ``count`` and ``in_iterable``)."""

    invariant = None  # while an enumerator is generated: its Invariants (interpreter/codegen/invariants.py)

    # ---- names -------------------------------------------------------------------------------------
    def lookup(self, name):
        """The ast reading the local ``name`` in the current scopes, or None if it is read from
        ``e`` (the procedure's locals)."""
        for scope in reversed(self.scopes):
            if name in scope.names:
                return scope.names[name]()
            if scope.opaque:
                raise Unsupported(name)
        return None

    def in_python_scope(self) -> bool:
        """Whether some name in scope lives only in a Python local (not also in ``e``)."""
        return any(not scope.e_backed for scope in self.scopes)

    def fallback(self, node, as_list=False):
        """Call the closure compiled the old way for ``node``; only allowed where that closure
        reads nothing the generated code keeps in Python locals."""
        if self.in_python_scope():
            raise Unsupported(type(node).__name__)
        compiler = self.compiler
        closure = compiler.closure_as_list(node) if as_list else compiler.closure(node)
        self.fallbacks += 1
        return _call(self.value(closure), [S, E])

    # ---- expressions ---------------------------------------------------------------------------
    def expr(self, node):
        if self.memo is not None and isinstance(node, _SHAREABLE):
            found = self.memo.get(unparse(node))
            if found is not None:  # computed already by the test of the conditional around
                return _load(found)
        method = getattr(self, "_x_" + type(node).__name__.lower(), None)
        made = self.fallback(node) if method is None else method(node)
        invariant = self.invariant
        if invariant is not None and invariant.active(self):  # computed once per binding of what it reads
            made = invariant.note(self, made)
        if self.binding is not None:
            name = self.binding.get(id(node))
            if name is not None:  # kept for the branches of the conditional around
                self.bound.add(name)
                return N.NamedExpr(target=_store(name), value=made)
        return made

    def list_expr(self, node):
        if self.compiler.types.get(node) != ZONE:
            return self.expr(node)
        return _sub(self.state_table("zones"), self.expr(node))

    def _x_literal(self, node):
        return self.value(node.value)

    def _x_name(self, node):
        compiler = self.compiler
        kind, arg = compiler.symbols[node]
        if kind == "local":
            found = self.lookup(arg)
            if found is not None:
                compiler.reads.add(arg)
                return found
            if compiler.inline and arg in compiler.inline[-1]:
                closure, _, reads = compiler.inline[-1][arg]
                compiler.reads |= reads
                return _call(self.value(closure), [S, E])
            compiler.reads.add(arg)
            return _sub(E, _const(arg))
        if kind == "const":
            return self.value(arg)
        if kind == "var":
            return self.state_table("vars", arg)
        if kind == "zone":
            return _const(self.game.family_base[arg])
        if kind == "define":
            return self._expand(node)
        raise Unsupported(kind)

    def _x_attr(self, node):
        kind, name = self.compiler.symbols[node]
        game = self.game
        if kind == "attr":
            obj = self.expr(node.obj)
            table = self.value(game.attr_tables[name])
            if name in game.partial_attributes:
                missing = self.value(game.missing_attribute)
                if _cheap(obj):  # table[c] if table[c] is not None else error: no call on the way
                    return _checked(_sub(table, obj), _call(self.value(_raise_missing), [missing, obj, _const(name)]))
                if not self.in_iterable:  # _a if (_a := table[(_o := c)]) is not None else error
                    kept, found = self.fresh("o"), self.fresh("a")
                    read = _sub(table, N.NamedExpr(target=_store(kept), value=obj))
                    test = N.Compare(left=N.NamedExpr(target=_store(found), value=read), ops=[N.IsNot()],
                                     comparators=[_const(None)])
                    error = _call(self.value(_raise_missing), [missing, _load(kept), _const(name)])
                    return N.IfExp(test=test, body=_load(found), orelse=error)
                return _call(self.value(_partial_attribute), [table, obj, missing, _const(name)])
            return _sub(table, obj)
        if kind in ("mark", "pvar"):
            return _sub(self.state_table("marks" if kind == "mark" else "pvars", name), self.expr(node.obj))
        if kind == "pprop":
            return _sub(self.value(game.player_names), self.expr(node.obj))
        if kind == "pzone":
            return N.BinOp(left=_const(game.family_base[name]), op=N.Add(), right=self.expr(node.obj))
        if kind == "kzone":
            zone_of = self.compiler.attached_zones(name)
            holder = self.compiler.rs.zones[name].per_kind
            obj = self.expr(node.obj)
            args = [self.value(zone_of), obj, self.value(game), _const(holder), _const(name)]
            if _cheap(obj):
                return _checked(_sub(self.value(zone_of), obj), _call(self.value(_attached_zone), args))
            return _call(self.value(_attached_zone), args)
        if kind == "cprop":
            obj = self.expr(node.obj)
            if name == "owner":
                zone = _sub(self.state_table("loc"), obj)
                later = _call(self.value(game.zone_owner_now), [S, zone])
                if not _cheap(zone):
                    return later
                # a zone that no component holds has a fixed owner: read it from the table
                hosted = N.Compare(left=_sub(self.value(game.zone_host), _copy(zone)), ops=[N.Is()],
                                   comparators=[_const(None)])
                return N.IfExp(test=hosted, body=_sub(self.value(game.zone_owner), _copy(zone)), orelse=later)
            if name == "zone":
                return _sub(self.state_table("loc"), obj)
            if name == "cell":
                return _sub(self.state_table("cell_of"), obj)
            return _sub(self.value(game.names if name == "name" else game.kinds), obj)
        return self.fallback(node)

    def _x_index(self, node):
        return _sub(self.read_only_list(node.obj), self.expr(node.index))

    def _x_slice(self, node):
        bounds = [self.expr(b) if b is not None else None for b in (node.start, node.stop)]
        return _sub(self.list_expr(node.obj), N.Slice(lower=bounds[0], upper=bounds[1], step=None))

    def iterated(self, node, comprehension=None):
        """A list a comprehension only iterates: ``neighbors(cell)`` is read from the game's table
        of neighbours (a tuple per cell) instead of a new list each time, ``cells(zone)`` of a
        named grid zone is a tuple constant, and ``lines_through(cell)`` is read from the game's
        table of lines (tuples) when ``comprehension`` only iterates each line."""
        compiler = self.compiler
        if isinstance(node, ast.Call) and not node.kwargs and compiler.symbols.get(node, ("",))[0] == "func":
            if (node.func == "neighbors" and len(node.args) in (1, 2)
                    and (len(node.args) == 1 or isinstance(node.args[1], ast.Literal))):
                diagonal = len(node.args) == 2 and node.args[1].value
                table = self.game.cell_all_neighbors if diagonal else self.game.cell_neighbors
                return _sub(self.value(table), self.expr(node.args[0]))
            cells = self.grid_cells(node)
            if cells is not None:
                return _const(cells)
            if (node.func == "lines_through" and len(node.args) == 1 and comprehension is not None
                    and all(_only_iterated(compiler, part, comprehension.var)
                            for part in (comprehension.elem, comprehension.cond) if part is not None)):
                return _sub(self.value(self.game.cell_lines), self.expr(node.args[0]))
        return self.list_expr(node)

    def grid_cells(self, node):
        """The cells of ``cells(zone)`` for a zone named in the rules that is a grid, as a tuple;
        else None."""
        if not (isinstance(node, ast.Call) and node.func == "cells" and len(node.args) == 1 and not node.kwargs
                and self.compiler.symbols.get(node, ("",))[0] == "func"):
            return None
        zone = node.args[0]
        if not (isinstance(zone, ast.Name) and self.compiler.symbols.get(zone, ("",))[0] == "zone"):
            return None
        grid = self.game.zone_grid[self.game.family_base[self.compiler.symbols[zone][1]]]
        if grid is None:
            return None
        first, rows, columns = grid
        return tuple(range(first, first + rows * columns))

    def read_only_list(self, node):
        """A list that is only read (indexed, searched): a list of constants becomes one tuple
        constant instead of a new list each time."""
        items = self.list_expr(node)
        if isinstance(items, py.List) and all(isinstance(i, py.Constant) for i in items.elts):
            return _const(tuple(i.value for i in items.elts))
        return items

    def _x_listlit(self, node):
        return N.List(elts=[self.expr(i) for i in node.items], ctx=N.Load())

    def _x_binop(self, node):
        # the budget of interpreter/runtime/limits.py, as the closure compiler checks it
        type_ = self.compiler.types[node]
        if type_.name == "list":
            return self.checked_list(N.BinOp(left=self.list_expr(node.left), op=N.Add(),
                                             right=self.list_expr(node.right)))
        computed = N.BinOp(left=self.expr(node.left), op=_PYOPS[node.op](), right=self.expr(node.right))
        if type_ == INT:  # a side of ±2^63 the operands cannot cross is not tested (codegen/ranges.py)
            found = unchecked_range(self.compiler, self.game, node)  # None: not known, both sides tested
            return self.checked_int(computed, low=found is None or found[0] < INT_MIN,
                                    high=found is None or found[1] > INT_MAX)
        return _call(self.value(checked_value), [computed])

    def _x_compare(self, node):
        left = self.expr(node.left)
        if node.op in ("in", "not in"):
            if self.compiler.types.get(node.right) == ZONE:
                op = N.NotEq() if node.op == "not in" else N.Eq()
                return N.Compare(left=_sub(self.state_table("loc"), left), ops=[op],
                                  comparators=[self.expr(node.right)])
            right = self.read_only_list(node.right)
            return folded(N.Compare(left=left, ops=[_CMPOPS[node.op]()], comparators=[right]))
        return folded(difference_compared(N.Compare(left=left, ops=[_CMPOPS[node.op]()],
                                                      comparators=[self.expr(node.right)])))

    def _x_boolop(self, node):
        """``and``/``or`` chains; a leading constant is folded (``true and x`` is ``x``, ``false and
        x`` is ``false``), which gives the same value."""
        parts = _flattened(node, node.op)
        outer_memo = self.memo
        values = []
        try:  # a part every operand computes is computed once for the operands after it (see _x_cond)
            for i, part in enumerate(parts):
                values.append(self._keeping(part, parts[i + 1:]))
        finally:
            self.memo = outer_memo
        stop = node.op == "or"  # the truth value that ends the chain
        while len(values) > 1 and isinstance(values[0], py.Constant):
            if bool(values[0].value) == stop:
                return values[0]
            values.pop(0)
        if len(values) == 1:
            return values[0]
        return N.BoolOp(op=N.Or() if stop else N.And(), values=values)

    def _x_not(self, node):
        operand = self.expr(node.operand)
        if isinstance(operand, py.Constant):
            return _const(not operand.value)
        return N.UnaryOp(op=N.Not(), operand=operand)

    def _x_neg(self, node):
        return self.checked_int(N.UnaryOp(op=N.USub(), operand=self.expr(node.operand)))

    def _x_cond(self, node):
        """``then if test else otherwise``.  A part the test always computes and a branch computes
        again (``[fill(h)] if fill(h) != '' else ...``) is computed once: the test keeps it in a
        local (``:=``) that the branch reads.  Expressions have no side effects, so the value is
        the same; inside a comprehension or a definition's body, where names may mean other
        things, the branch computes it itself."""
        outer_memo = self.memo
        try:
            test = self._keeping(node.test, [node.then, node.otherwise])
            if isinstance(test, py.Constant):  # a parameter or a constant decides (folded)
                return self.expr(node.then if test.value else node.otherwise)
            return N.IfExp(test=test, body=self.expr(node.then), orelse=self.expr(node.otherwise))
        finally:
            self.memo = outer_memo

    def _keeping(self, node, later) -> py.expr:
        """The code of ``node``, keeping in locals (``:=``) the parts it always computes that the
        nodes ``later`` compute again; ``self.memo`` then maps those parts to the locals (the
        caller restores it when the later nodes are made)."""
        shared = {} if self.in_iterable else self._shared_parts(node, later)
        if not shared:
            return self.expr(node)
        names = {key: self.fresh("x") for key in shared}
        outer_binding = self.binding
        self.binding = dict(outer_binding or {})
        self.binding.update({id(part): names[key] for key, part in shared.items()})
        try:
            made = self.expr(node)
        finally:
            self.binding = outer_binding
        self.memo = dict(self.memo or {})
        self.memo.update({key: name for key, name in names.items() if name in self.bound})
        return made

    def _shared_parts(self, node, later) -> dict:
        """The parts ``node`` always computes that the nodes ``later`` hold too, by text."""
        candidates = {}
        for part in self._always_computed(node):
            if isinstance(part, _SHAREABLE):
                candidates.setdefault(unparse(part), part)
        if not candidates:
            return {}
        found = set()
        stack = list(later)
        while stack:
            part = stack.pop()
            if isinstance(part, _SHAREABLE):
                key = unparse(part)
                if key in candidates:
                    found.add(key)
                    continue
            stack.extend(ast.children(part))
        return {key: candidates[key] for key in found}

    def _always_computed(self, node):
        """``node`` and the parts of it that computing it always computes."""
        yield node
        if isinstance(node, (ast.Compare, ast.BinOp)):
            parts = (node.left, node.right)
        elif isinstance(node, (ast.Not, ast.Neg)):
            parts = (node.operand,)
        elif isinstance(node, ast.BoolOp):
            parts = (node.left,)
        elif isinstance(node, ast.Attr):
            parts = (node.obj,)
        elif isinstance(node, ast.Index):
            parts = (node.obj, node.index)
        elif isinstance(node, ast.Call) and self.compiler.symbols.get(node, ("",))[0] != "define":
            parts = tuple(node.args) + tuple(value for _, value in node.kwargs)
        else:
            parts = ()
        for part in parts:
            yield from self._always_computed(part)

    def _x_call(self, node):
        compiler = self.compiler
        kind, name = compiler.symbols[node]
        if kind == "define":
            return self._expand(node)
        builtin = FUNCTIONS.get(name)
        if builtin is None or builtin.raw:
            return self.fallback(node)
        if name == "size" and len(node.args) == 1 and not node.kwargs:
            cells = self.grid_cells(node.args[0])
            if cells is not None:
                return _const(len(cells))
        args = self.arguments(builtin, node)
        if len(args) == 1 and name == "at":
            return _sub(self.state_table("cells"), args[0])
        if len(args) == 1 and name == "size":
            return _call(_load("len"), args)
        if name in ("next_player", "previous_player") and isinstance(args[2], py.Constant) and args[2].value is None:
            # without 'among': (player ± steps) % players
            step = N.BinOp(left=args[0], op=N.Add() if name == "next_player" else N.Sub(), right=args[1])
            return N.BinOp(left=step, op=N.Mod(), right=_const(self.game.num_players))
        if len(args) == 1 and name == "empty":
            return N.UnaryOp(op=N.Not(), operand=args[0])
        if len(args) == 1 and name == "top" and not self.in_iterable:  # _z[-1] if (_z := zones[_o := zone]) else error
            kept, cards = self.fresh("o"), self.fresh("z")
            test = N.NamedExpr(target=_store(cards),
                               value=_sub(self.state_table("zones"), N.NamedExpr(target=_store(kept), value=args[0])))
            return N.IfExp(test=test, body=_sub(_load(cards), _const(-1)),
                           orelse=_call(self.value(builtin.impl), [S, _load(kept)]))
        return _call(self.value(builtin.impl), [S] + args)

    def arguments(self, builtin, call) -> list:
        """A call's arguments in signature order, defaults filled in (as the closure compiler)."""
        return [self.value(node) if how == "default" else self.list_expr(node) if how == "list" else self.expr(node)
                for how, node in argument_plan(builtin, call, self.compiler.types)]

    def _expand(self, node):
        """A definition's body with its parameters reading the call's argument code."""
        compiler = self.compiler
        define = compiler.rs.defines[compiler.symbols[node][1]]
        args = [self.expr(a) for a in getattr(node, "args", ())]
        names = {p: N.shared(a) for p, a in zip(define.params, args)}
        self.scopes.append(Scope(names, opaque=True))
        memo, self.memo = self.memo, None
        try:
            return self.expr(define.body)
        finally:
            self.scopes.pop()
            self.memo = memo

def argument_plan(builtin, call, types) -> list:
    """How to compile a call's arguments, in signature order: ``("default", value)`` for a
    parameter left out, ``("list", node)`` for one wanted as a list, else ``("value", node)``."""
    params = builtin.params
    variadic = bool(params) and params[-1].variadic
    fixed = params[:-1] if variadic else params
    kwargs = dict(call.kwargs)
    plan = []
    for i, param in enumerate(fixed):
        node = call.args[i] if i < len(call.args) else kwargs.get(param.name)
        if node is None:
            plan.append(("default", param.default))
        else:
            wants_list = param.base_spec == "collection" or (param.base_spec == "items" and types.get(node) == ZONE)
            plan.append(("list" if wants_list else "value", node))
    if variadic:
        for node in call.args[len(fixed):]:
            wants_list = len(call.args) == 1 and element_type(types[node]) is not None
            plan.append(("list" if wants_list else "value", node))
    if builtin.typed:
        plan.append(("default", type_text(types.get(call.args[0]) if call.args else None)))
    return plan


def _raise_missing(missing, c, name):
    raise missing(c, name)


def _partial_attribute(table, c, missing, name):
    value = table[c]
    if value is None:
        raise missing(c, name)
    return value


def _attached_zone(zone_of, c, game, holder, name):
    zone = zone_of[c]
    if zone is None:
        raise RulesRuntimeError(f"{game.names[c]} is a {game.kinds[c]}; only a {holder} has a zone '{name}'")
    return zone


def _only_iterated(compiler, node, var) -> bool:
    """Whether ``node`` reads the local ``var`` only as what a comprehension iterates (directly or
    through a definition's parameter), so that a tuple may stand for the list ``var`` holds."""
    if isinstance(node, ast.Name):
        return not names_local(compiler, node, var)
    if isinstance(node, ast.Comprehension):
        if not (names_local(compiler, node.source, var) or _only_iterated(compiler, node.source, var)):
            return False
        return node.var == var or all(_only_iterated(compiler, part, var)
                                      for part in (node.elem, node.cond) if part is not None)
    if isinstance(node, ast.Call) and compiler.symbols.get(node, ("",))[0] == "define":
        define = compiler.rs.defines[compiler.symbols[node][1]]
        if node.kwargs or len(node.args) != len(define.params):
            return False
        return all(_only_iterated(compiler, define.body, param) if names_local(compiler, arg, var)
                   else _only_iterated(compiler, arg, var) for param, arg in zip(define.params, node.args))
    return all(_only_iterated(compiler, part, var) for part in ast.children(node))


def names_local(compiler, node, var) -> bool:
    """Whether ``node`` is the name of the local ``var``."""
    return isinstance(node, ast.Name) and node.id == var and compiler.symbols.get(node, ("",))[0] == "local"


def _flattened(node, op) -> list:
    if isinstance(node, ast.BoolOp) and node.op == op:
        return _flattened(node.left, op) + _flattened(node.right, op)
    return [node]
