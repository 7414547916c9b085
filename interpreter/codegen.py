"""Stage 5b: generate Python code for expressions and for the enumeration of legal actions.

The compiler (:mod:`interpreter.compiler`) asks this module first for every expression.  It builds
Python ``ast`` nodes from the checked expression tree — never from ruleset text: names of the
ruleset appear only as ``ast.Constant`` keys (``e['card']``, ``s.vars['round']``), Python names are
made by a fixed scheme (``_v3`` for a comprehension variable, ``_k7`` for a value handed to the
generated code), parameters and built-in constants are folded in as constants, and the generated
functions see only the state ``s``, the locals ``e`` and the values in their namespace (built-ins
of the language, tables of the game, and a few Python functions such as ``len``).

An expression the generator does not handle (or whose parts must read locals the old way) is
compiled by the closure compiler instead and called from the generated code, so both paths mean
exactly the same; ``Compiler(codegen=False)`` keeps the closure path alone (the tests compare the
two).  Errors raised by generated code are the same Python exceptions the closures raise; the
virtual machine names the rule's position as before.
"""
from __future__ import annotations

import ast as py
import functools
import types

from dsl import ast
from dsl.errors import RulesRuntimeError
from dsl.registry import EFFECTS, FUNCTIONS

from .comprehensions import _nests_comprehension, printed_mask
from .limits import (INT_MAX, INT_MIN, MAX_ITEMS, MAX_ITERATIONS, checked_int, checked_list, checked_value,
                     int_out_of_range, iterations_exceeded, list_too_long)
from dsl.types import INT, ZONE, element_type

_PYOPS = {"+": py.Add, "-": py.Sub, "*": py.Mult, "//": py.FloorDiv, "%": py.Mod}
_CMPOPS = {"==": py.Eq, "!=": py.NotEq, "<": py.Lt, "<=": py.LtE, ">": py.Gt, ">=": py.GtE,
           "in": py.In, "not in": py.NotIn}
_SCALARS = (int, str, bool, float, type(None))
_PY_BUILTINS = {"len": len, "sum": sum, "any": any, "all": all, "min": min, "max": max, "set": set,
                "isinstance": isinstance, "list": list, "dict": dict}


class _Located:
    """The ``ast`` node classes, made with a location (line 1 unless a block numbers its lines),
    so that nothing has to walk the trees to fill locations in before compiling."""

    _where = {"lineno": 1, "col_offset": 0, "end_lineno": 1, "end_col_offset": 0}

    def __getattr__(self, name):
        cls = getattr(py, name)
        made = functools.partial(cls, **self._where) if "lineno" in cls._attributes else cls
        self.__dict__[name] = made
        return made


N = _Located()


class Unsupported(Exception):
    """This node cannot be generated here; the caller falls back to the closure compiler."""


def _load(name):
    return N.Name(id=name, ctx=N.Load())


def _store(name):
    return N.Name(id=name, ctx=N.Store())


def _sub(value, key):
    return N.Subscript(value=value, slice=key, ctx=N.Load())


def _attr(value, name):
    return N.Attribute(value=value, attr=name, ctx=N.Load())


def _sub_store(value, key):
    return N.Subscript(value=value, slice=key, ctx=N.Store())


def _call(func, args):
    return N.Call(func=func, args=list(args), keywords=[])


def _const(value):
    return N.Constant(value=value)


S, E = _load("s"), _load("e")


class Scope:
    """Names visible in generated code: comprehension variables and option parameters (Python
    locals), and the parameters of an expanded definition (their argument's code).  A definition's
    scope is opaque: its body sees only its own parameters and what it binds itself."""

    def __init__(self, names, opaque=False, e_backed=False):
        self.names = names  # ruleset name -> a function making the ast that reads it
        self.opaque = opaque
        self.e_backed = e_backed  # the names are also kept in e (an option's parameters)


class CodeGen:
    """Builds and compiles the generated functions of one game."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.game = compiler.game
        self.namespace: dict = {"__builtins__": {}}
        self.namespace.update(_PY_BUILTINS)
        self._values: dict = {}  # id(value) -> name in the namespace
        self._counter = 0
        self.scopes: list = []
        self.hoisted: dict = {}  # what the function being generated reads once at its start
        self.count = None  # the local counting the iterations of the nest of comprehensions being generated
        self.in_iterable = 0  # > 0 while generating what a comprehension iterates (no ':=' allowed there)
        self.fallbacks = 0  # closures called from generated code so far
        self.env_writes: list = []  # (statements, statement) writing an option's parameter to e
        self._pending: list = []  # FunctionDefs not compiled yet
        self._stubs: list = []  # the functions handed out, by number
        self.namespace["_flush"] = self.flush

    # ---- plumbing --------------------------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self._counter += 1
        return f"_{prefix}{self._counter}"

    def value(self, obj):
        """An ast reading ``obj``: a constant for a scalar, else a name in the namespace."""
        if isinstance(obj, _SCALARS):
            return _const(obj)
        name = self._values.get(id(obj))
        if name is None:
            name = self.fresh("k")
            self._values[id(obj)] = name
            self.namespace[name] = obj
        return _load(name)

    def function(self, args, body):
        """A function of ``args`` running the statements ``body``.  Functions are compiled together,
        in one module, when the game is compiled (``flush``) or when one is first called; until
        then each is a stub whose code is replaced by its own."""
        name = f"_g{len(self._stubs)}"
        arguments = py.arguments(posonlyargs=[], args=[N.arg(arg=a) for a in args], vararg=None,
                                 kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        self._pending.append(N.FunctionDef(name=name, args=arguments, body=body, decorator_list=[],
                                            returns=None, type_comment=None))
        stub = types.FunctionType(_stub_code(len(args), len(self._stubs)), self.namespace, name)
        self._stubs.append(stub)
        return stub

    def flush(self, index=None):
        """Compile the pending functions in one module and give each stub its code; return the
        function ``index``."""
        if self._pending:
            module = N.Module(body=self._pending, type_ignores=[])
            self._pending = []
            scope: dict = {}
            exec(compile(module, "<rulebook generated>", "exec"), self.namespace, scope)  # our own ast
            for name, function in scope.items():
                self._stubs[int(name[2:])].__code__ = function.__code__
        return None if index is None else self._stubs[index]

    def begin(self):
        """Start a new generated function (generation nests: a fallback compiles its parts)."""
        outer = (self.scopes, self.hoisted, self.count, self.in_iterable)
        self.scopes, self.hoisted, self.count, self.in_iterable = [], {}, None, 0
        return outer

    def end(self, outer, body) -> list:
        """The body of the function begun, after the reads it hoisted; back to the outer one."""
        prelude = [N.Assign(targets=[_store(name)], value=read) for name, read in self.hoisted.values()]
        self.abandon(outer)
        return prelude + body

    def abandon(self, outer) -> None:
        """Back to the function being generated before ``begin``."""
        self.scopes, self.hoisted, self.count, self.in_iterable = outer

    def hoist(self, key, read):
        """A local holding ``read``, an ast that cannot fail and that nothing changes while the
        function runs (a table of the state: ``s.marks['tapped']``, ``s.zones``), read once at the
        function's start."""
        found = self.hoisted.get(key)
        if found is None:
            found = self.hoisted[key] = (self.fresh("h"), read)
        return _load(found[0])

    def state_table(self, attribute, name=None):
        """``s.zones`` or ``s.marks['tapped']`` (hoisted)."""
        if name is None:
            return self.hoist((attribute,), _attr(S, attribute))
        return self.hoist((attribute, name), _sub(_attr(S, attribute), _const(name)))

    def expression_function(self, node, as_list=False):
        """A generated ``f(s, e)`` computing ``node``; None if the node is not handled."""
        outer = self.begin()
        try:
            result = self.list_expr(node) if as_list else self.expr(node)
        except Unsupported:
            self.abandon(outer)
            return None
        body = self.end(outer, [N.Return(value=result)])
        if isinstance(result, py.Constant) and not as_list:
            value = result.value
            return lambda s, e: value
        return self.function(["s", "e"], body)

    def dict_function(self, keys, nodes):
        """A generated ``f(s, e)`` returning ``{key: value of node}`` for the pairs given, the values
        computed in order; None if a node is not handled."""
        outer = self.begin()
        try:
            values = [self.expr(node) for node in nodes]
        except Unsupported:
            self.abandon(outer)
            return None
        result = N.Dict(keys=[_const(k) for k in keys], values=values)
        return self.function(["s", "e"], self.end(outer, [N.Return(value=result)]))

    def statement_function(self, node):
        """A generated ``f(s, e)`` running a simple statement (let, assignment, effect); None if
        the statement is not handled."""
        outer = self.begin()
        try:
            body = self.statement(node)
        except Unsupported:
            self.abandon(outer)
            return None
        return self.function(["s", "e"], self.end(outer, body))

    def statement(self, node) -> list:
        compiler = self.compiler
        if isinstance(node, ast.Let):
            return [N.Assign(targets=[_sub_store(E, _const(node.name))], value=self.expr(node.value))]
        if isinstance(node, ast.Assign):
            return self.assignment(node)
        call = node.call
        effect = EFFECTS.get(call.func)
        if effect is None or effect.raw:
            raise Unsupported(call.func)
        return [N.Expr(value=_call(self.value(effect.impl), [S] + self.arguments(effect, call)))]

    def assignment(self, node) -> list:
        """``=``, ``+=``, ``-=``, ``*=``, evaluated in the closure compiler's order: the target's
        table and key, its old value (for an update), then the value."""
        compiler = self.compiler
        target = node.target
        is_list = compiler.types[target].name == "list"
        value = self.list_expr(node.value) if is_list else self.expr(node.value)
        kind, name = compiler.symbols[target]
        if isinstance(target, ast.Name):
            table = E if kind != "var" else _attr(S, "vars")
            key = _const(name)
            prelude = []
        else:
            table_name, key_name = self.fresh("m"), self.fresh("j")
            prelude = [N.Assign(targets=[_store(table_name)],
                                 value=_sub(_attr(S, "marks" if kind == "mark" else "pvars"), _const(name))),
                       N.Assign(targets=[_store(key_name)], value=self.expr(target.obj))]
            table, key = _load(table_name), _load(key_name)
        if node.op == "=":
            if prelude:
                return prelude + [N.Assign(targets=[_sub_store(table, key)], value=value)]
            return [N.Assign(targets=[_sub_store(table, key)], value=value)]
        op = {"+=": py.Add, "-=": py.Sub, "*=": py.Mult}[node.op]()
        updated = N.BinOp(left=_sub(table, key), op=op, right=value)  # a new list, as operator.add
        type_ = compiler.types[target]
        if type_ == INT:  # within the budget
            updated = self.checked_int(updated)
        elif is_list:
            updated = self.checked_list(updated)
        else:
            updated = _call(self.value(checked_value), [updated])
        return prelude + [N.Assign(targets=[_sub_store(table, key)], value=updated)]

    # ---- the work budget (interpreter/limits.py), checked in line ---------------------------------
    def _within(self, value, measure, high, low, fail):
        """``_n if low <= measure(_n := value) <= high else fail(_n)``; a call of ``fail`` where
        ``:=`` is not allowed (in what a comprehension iterates)."""
        if self.in_iterable:
            return None
        name = self.fresh("n")
        bound = N.NamedExpr(target=_store(name), value=value)
        measured = bound if measure is None else _call(_load(measure), [bound])
        comparators = [measured, _const(high)] if low is not None else [_const(high)]
        test = N.Compare(left=_const(low) if low is not None else measured,
                         ops=[N.LtE(), N.LtE()] if low is not None else [N.LtE()], comparators=comparators)
        return N.IfExp(test=test, body=_load(name), orelse=_call(self.value(fail), [_load(name)]))

    def checked_int(self, value):
        """``value`` (an ast computing a whole number), refused beyond ±2^63."""
        return (self._within(value, None, INT_MAX, INT_MIN, int_out_of_range)
                or _call(self.value(checked_int), [value]))

    def checked_list(self, value):
        """``value`` (an ast computing a new list), refused past MAX_ITEMS items."""
        return (self._within(value, "len", MAX_ITEMS, None, list_too_long)
                or _call(self.value(checked_list), [value]))

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
        method = getattr(self, "_x_" + type(node).__name__.lower(), None)
        if method is None:
            return self.fallback(node)
        return method(node)

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

    def iterated(self, node):
        """A list a comprehension only iterates: ``neighbors(cell)`` is read from the game's table
        of neighbours (a tuple per cell) instead of a new list each time."""
        compiler = self.compiler
        if (isinstance(node, ast.Call) and node.func == "neighbors" and not node.kwargs
                and compiler.symbols.get(node, ("",))[0] == "func" and len(node.args) in (1, 2)
                and (len(node.args) == 1 or isinstance(node.args[1], ast.Literal))):
            diagonal = len(node.args) == 2 and node.args[1].value
            table = self.game.cell_all_neighbors if diagonal else self.game.cell_neighbors
            return _sub(self.value(table), self.expr(node.args[0]))
        return self.list_expr(node)

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
        # the budget of interpreter/limits.py, as the closure compiler checks it
        type_ = self.compiler.types[node]
        if type_.name == "list":
            return self.checked_list(N.BinOp(left=self.list_expr(node.left), op=N.Add(),
                                             right=self.list_expr(node.right)))
        computed = N.BinOp(left=self.expr(node.left), op=_PYOPS[node.op](), right=self.expr(node.right))
        if type_ == INT:
            return self.checked_int(computed)
        return _call(self.value(checked_value), [computed])

    def _x_compare(self, node):
        left = self.expr(node.left)
        if node.op in ("in", "not in"):
            if self.compiler.types.get(node.right) == ZONE:
                op = N.NotEq() if node.op == "not in" else N.Eq()
                return N.Compare(left=_sub(self.state_table("loc"), left), ops=[op],
                                  comparators=[self.expr(node.right)])
            right = self.read_only_list(node.right)
            return N.Compare(left=left, ops=[_CMPOPS[node.op]()], comparators=[right])
        return N.Compare(left=left, ops=[_CMPOPS[node.op]()], comparators=[self.expr(node.right)])

    def _x_boolop(self, node):
        """``and``/``or`` chains; a leading constant is folded (``true and x`` is ``x``, ``false and
        x`` is ``false``), which gives the same value."""
        values = [self.expr(p) for p in _flattened(node, node.op)]
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
        return N.IfExp(test=self.expr(node.test), body=self.expr(node.then), orelse=self.expr(node.otherwise))

    def _x_call(self, node):
        compiler = self.compiler
        kind, name = compiler.symbols[node]
        if kind == "define":
            return self._expand(node)
        builtin = FUNCTIONS.get(name)
        if builtin is None or builtin.raw:
            return self.fallback(node)
        args = self.arguments(builtin, node)
        if len(args) == 1 and name == "at":
            return _sub(self.state_table("cells"), args[0])
        if len(args) == 1 and name == "size":
            return _call(_load("len"), args)
        if len(args) == 1 and name == "empty":
            return N.UnaryOp(op=N.Not(), operand=args[0])
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
        names = {p: (lambda a=a: a) for p, a in zip(define.params, args)}
        self.scopes.append(Scope(names, opaque=True))
        try:
            return self.expr(define.body)
        finally:
            self.scopes.pop()

    def _x_comprehension(self, node):
        """A Python comprehension.  A comprehension and those nested in it share one count of
        iterations (interpreter/limits.py), as in interpreter/comprehensions.py: the outermost sets
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
        nests = any(_nests_comprehension(compiler, part) for part in (node.elem, node.cond))
        if outer_count is None and not nests and not _nests_comprehension(compiler, node.source):
            self.in_iterable += 1
            try:
                source = self.iterated(node.source)
            finally:
                self.in_iterable -= 1
            return self._comprehension(node, source)
        if self.in_iterable:  # cannot happen: sources holding comprehensions are computed first
            raise Unsupported("comprehension in what a comprehension iterates")
        source = self.iterated(node.source)
        items = self.fresh("s")
        bound = _call(_load("len"), [N.NamedExpr(target=_store(items), value=source)])
        if outer_count is None and not nests:  # a lone one whose source holds comprehensions
            counting = N.Compare(left=bound, ops=[N.GtE()], comparators=[_const(0)])
            return N.IfExp(test=counting, body=self._comprehension(node, _load(items)), orelse=_const(None))
        count = outer_count or self.fresh("c")
        self.count = count
        try:
            comprehension = self._comprehension(node, _load(items))
        finally:
            self.count = outer_count
        if outer_count is None:
            counting = N.Compare(left=N.NamedExpr(target=_store(count), value=bound), ops=[N.GtE()],
                                 comparators=[_const(0)])
            return N.IfExp(test=counting, body=comprehension, orelse=_const(None))
        added = N.NamedExpr(target=_store(count), value=N.BinOp(left=_load(count), op=N.Add(), right=bound))
        counting = N.Compare(left=added, ops=[N.LtE()], comparators=[_const(MAX_ITERATIONS)])
        return N.IfExp(test=counting, body=comprehension, orelse=_call(self.value(iterations_exceeded), []))

    def _comprehension(self, node, source):
        var = self.fresh("v")
        self.scopes.append(Scope({node.var: lambda: _load(var)}))
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
            if cond is not None:
                test = N.BoolOp(op=N.And(), values=[cond, test])
            return _call(_load("len"), [comp(_const(0), test)])
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
    return plan


def _flattened(node, op) -> list:
    if isinstance(node, ast.BoolOp) and node.op == op:
        return _flattened(node.left, op) + _flattened(node.right, op)
    return [node]


def _cheap(node) -> bool:
    """Whether an ast is cheap to evaluate twice: a name, a constant, or a name subscripted with
    such (``e['x']``, ``_h3[_v4]``)."""
    return isinstance(node, (py.Name, py.Constant)) or (
        isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and _cheap(node.slice))


def _checked(read, otherwise):
    """``read if read is not None else otherwise`` (``read`` is evaluated twice: it must be cheap)."""
    return N.IfExp(test=N.Compare(left=read, ops=[N.IsNot()], comparators=[_const(None)]),
                    body=_copy(read), orelse=otherwise)


def _copy(node):
    return N.Subscript(value=_copy(node.value), slice=_copy(node.slice), ctx=N.Load()) \
        if isinstance(node, py.Subscript) else (N.Name(id=node.id, ctx=N.Load()) if isinstance(node, py.Name)
                                                 else N.Constant(value=node.value))


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


_STUB_TEMPLATES: dict = {}
_MARK = "rulebook stub number"


def _stub_code(arity: int, index: int):
    """The code of ``def _g(a0, ...): return _flush(index)(a0, ...)``: the first call compiles
    every pending function (and so replaces this code) and then runs the real one."""
    template = _STUB_TEMPLATES.get(arity)
    if template is None:
        names = [f"a{i}" for i in range(arity)]
        call = _call(_call(_load("_flush"), [_const(_MARK)]), [_load(n) for n in names])
        arguments = py.arguments(posonlyargs=[], args=[N.arg(arg=n) for n in names], vararg=None,
                                 kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fdef = N.FunctionDef(name="_g", args=arguments, body=[N.Return(value=call)], decorator_list=[],
                              returns=None, type_comment=None)
        module = N.Module(body=[fdef], type_ignores=[])
        py.fix_missing_locations(module)
        code = compile(module, "<rulebook stub>", "exec")
        template = _STUB_TEMPLATES[arity] = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    return template.replace(co_consts=tuple(index if c == _MARK else c for c in template.co_consts))
