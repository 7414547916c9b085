"""Stage 5b: generate Python code for expressions and for the enumeration of legal actions.

The compiler (:mod:`interpreter.compile.compiler`) asks this module first for every expression.  It builds
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
import types

from dsl import ast
from dsl.registry import EFFECTS

from .nodes import (E, N, S, Scope, Unsupported, _attr, _call, _const, _load, _store, _stub_code, _sub,
                          _sub_store)
from .expressions import ExpressionGen, argument_plan
from ..runtime.effects import move, nothing_to_move
from ..runtime.limits import (INT_MAX, INT_MIN, MAX_ITEMS, checked_int, checked_list, checked_value, int_out_of_range,
                     list_too_long)
from dsl.types import INT

_SCALARS = (int, str, bool, float, type(None))
_PY_BUILTINS = {"len": len, "sum": sum, "any": any, "all": all, "min": min, "max": max, "set": set,
                "isinstance": isinstance, "list": list, "dict": dict, "map": map}

__all__ = ["CodeGen", "Scope", "Unsupported", "argument_plan"]


class CodeGen(ExpressionGen):
    """Builds and compiles the generated functions of one game."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.game = compiler.game
        N.start(compiler.rs.file)  # the nodes made for this game are bounded (codegen/nodes.py)
        self.namespace: dict = {"__builtins__": {}}
        self.namespace.update(_PY_BUILTINS)
        self._values: dict = {}  # id(value) -> name in the namespace
        self._counter = 0
        self.scopes: list = []
        self.hoisted: dict = {}  # what the function being generated reads once at its start
        self.count = None  # the local counting the iterations of the nest of comprehensions being generated
        self.in_iterable = 0  # > 0 while generating what a comprehension iterates (no ':=' allowed there)
        self.binding = None  # id of a part of a conditional's test -> the local keeping its value
        self.memo = None  # text of such a part -> that local, while generating the branches
        self.bound: set = set()  # the locals some test did keep a value in
        self.fallbacks = 0  # closures called from generated code so far
        self.env_writes: list = []  # the statements writing an option's parameter to e
        self.aliases: dict = {}  # local an unrolled any/all keeps its list in -> the (cheap) code of that list
        self.twins: dict = {}  # id of a table -> (the table, (code reading its twin of getters, level) or None)
        self._pending: list = []  # FunctionDefs not compiled yet
        self._stubs: list = []  # the functions handed out, by number
        self.namespace["_flush"] = self.flush

    def __getstate__(self):
        """Kept on disk (interpreter/store/load_cache.py) without the ids of the values handed out: an id
        means nothing in another process."""
        state = dict(self.__dict__)
        state["_values"] = {}
        state["twins"] = {}
        return state

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
        outer = (self.scopes, self.hoisted, self.count, self.in_iterable, self.binding, self.memo)
        self.scopes, self.hoisted, self.count, self.in_iterable, self.binding, self.memo = [], {}, None, 0, None, None
        return outer

    def end(self, outer, body) -> list:
        """The body of the function begun, after the reads it hoisted; back to the outer one."""
        prelude = [N.Assign(targets=[_store(name)], value=read) for name, read in self.hoisted.values()]
        self.abandon(outer)
        return prelude + body

    def abandon(self, outer) -> None:
        """Back to the function being generated before ``begin``."""
        self.scopes, self.hoisted, self.count, self.in_iterable, self.binding, self.memo = outer

    def hoist(self, key, read):
        """A local holding ``read``, an ast that cannot fail and that nothing changes while the
        function runs (a table of the state: ``s.marks['tapped']``, ``s.zones``), read once at the
        function's start."""
        found = self.hoisted.get(key)
        if found is None:
            found = self.hoisted[key] = (self.fresh("h"), read)
        return _load(found[0])

    def hoisted_read(self, local):
        """The key of what the local ``local`` holds, read at the function's start (``("zones",)``,
        ``("marks", "tapped")``), or None if it holds no such read."""
        return next((key for key, (name, _) in self.hoisted.items() if name == local), None)

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
        if isinstance(result, py.Constant) and not as_list:
            self.abandon(outer)
            value = result.value
            return lambda s, e: value
        loops, result = self.searches_as_loops(result)
        return self.function(["s", "e"], self.end(outer, loops + [N.Return(value=result)]))

    def searches_as_loops(self, node):
        """``(statements, node')``: the ``any``/``all`` over a generator that ``node`` always computes
        first (itself, under ``not``, or the first operand of ``and``/``or``) as a ``for`` loop run
        before it, its result in a local that ``node'`` reads: the same items tested in the same
        order, stopping at the same one, without resuming a generator for each."""
        if isinstance(node, py.UnaryOp) and isinstance(node.op, py.Not):
            loops, operand = self.searches_as_loops(node.operand)
            return loops, N.UnaryOp(op=node.op, operand=operand)
        if isinstance(node, py.BoolOp):
            loops, first = self.searches_as_loops(node.values[0])
            return loops, N.BoolOp(op=node.op, values=[first] + node.values[1:])
        if not (isinstance(node, py.Call) and isinstance(node.func, py.Name) and node.func.id in ("any", "all")
                and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], py.GeneratorExp)
                and len(node.args[0].generators) == 1 and not node.args[0].generators[0].is_async):
            return [], node
        search, found = node.args[0], self.fresh("a")
        loop = search.generators[0]
        is_any = node.func.id == "any"
        test = search.elt if is_any else N.UnaryOp(op=N.Not(), operand=search.elt)
        if loop.ifs:
            test = N.BoolOp(op=N.And(), values=list(loop.ifs) + [test])
        hit = N.If(test=test, body=[N.Assign(targets=[_store(found)], value=_const(is_any)), N.Break()], orelse=[])
        return [N.Assign(targets=[_store(found)], value=_const(not is_any)),
                N.For(target=loop.target, iter=loop.iter, body=[hit], orelse=[], type_comment=None)], _load(found)

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
        if isinstance(node, ast.Let):
            return [N.Assign(targets=[_sub_store(E, _const(node.name))], value=self.expr(node.value))]
        if isinstance(node, ast.Assign):
            return self.assignment(node)
        call = node.call
        effect = EFFECTS.get(call.func)
        if effect is None or effect.raw or call in self.compiler.rs.message_fields:  # log() with {expressions}:
            raise Unsupported(call.func)  # the closure compiler's (interpreter/compile/statements.py)
        args = self.arguments(effect, call)
        if effect.impl is move and getattr(self.compiler.types.get(call.args[0]), "name", None) == "component" and \
                isinstance(args[2], py.Constant) and args[2].value in ("top", "bottom"):
            return self._move_one(args)
        if effect.specialized is not None and args and isinstance(args[0], py.Constant):
            special = effect.specialized(args[0].value)
            if special is not None:
                return [N.Expr(value=_call(self.value(special), [S] + args[1:]))]
        return [N.Expr(value=_call(self.value(effect.impl), [S] + args))]

    def _move_one(self, args) -> list:
        """``move(c, zone)`` of one component, as ``move()`` does it, without the call::

            _z = c; _d = zone
            if _z is None: nothing_to_move()
            s.move_component(_z, _d, bottom)
        """
        item, zone = self.fresh("z"), self.fresh("z")
        missing = N.Compare(left=_load(item), ops=[N.Is()], comparators=[_const(None)])
        return [N.Assign(targets=[_store(item)], value=args[0]), N.Assign(targets=[_store(zone)], value=args[1]),
                N.If(test=missing, body=[N.Expr(value=_call(self.value(nothing_to_move), []))], orelse=[]),
                N.Expr(value=_call(_attr(S, "move_component"),
                                   [_load(item), _load(zone), _const(args[2].value == "bottom")]))]

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

    # ---- the work budget (interpreter/runtime/limits.py), checked in line ---------------------------------
    def _within(self, value, measure, high, low, fail):
        """``_n if low <= measure(_n := value) <= high else fail(_n)`` (either bound may be None:
        not tested); a call of ``fail`` where ``:=`` is not allowed (in what a comprehension iterates)."""
        if self.in_iterable:
            return None
        name = self.fresh("n")
        bound = N.NamedExpr(target=_store(name), value=value)
        measured = bound if measure is None else _call(_load(measure), [bound])
        terms = ([_const(low)] if low is not None else []) + [measured] + ([_const(high)] if high is not None else [])
        test = N.Compare(left=terms[0], ops=[N.LtE() for _ in terms[1:]], comparators=terms[1:])
        return N.IfExp(test=test, body=_load(name), orelse=_call(self.value(fail), [_load(name)]))

    def checked_int(self, value, low=True, high=True):
        """``value`` (an ast computing a whole number), refused beyond ±2^63; ``low``/``high``
        false: that side cannot be crossed (see interpreter/codegen/ranges.py) and is not tested."""
        if not (low or high):
            return value
        return (self._within(value, None, INT_MAX if high else None, INT_MIN if low else None, int_out_of_range)
                or _call(self.value(checked_int), [value]))

    def checked_list(self, value):
        """``value`` (an ast computing a new list), refused past MAX_ITEMS items."""
        return (self._within(value, "len", MAX_ITEMS, None, list_too_long)
                or _call(self.value(checked_list), [value]))
