"""Stage 5: compile a checked ruleset into closures and a small bytecode.

Expressions become generated code (:mod:`interpreter.codegen.generator`) or, where it does not apply, Python
closures ``f(state, env)`` made here.  Statements become instructions of the VM in
:mod:`interpreter.runtime.vm` (:mod:`interpreter.compile.statements`, :mod:`interpreter.runtime.instructions`);
control flow is jumps, so a running game is only a stack of ``[procedure, pc, locals]`` frames:
plain data that serializes to JSON.
"""
from __future__ import annotations

import contextlib
import operator

from dsl import ast, ir
from dsl.errors import RulesRuntimeError
from dsl.registry import FUNCTIONS, REQUIRED
from dsl.types import INT, ZONE

from ..codegen.generator import CodeGen, argument_plan
from .statements import StatementCompiler, _applied, _conjuncts
from .comprehensions import COMPARE, all_of, compile_comprehension
from .inlining import Inlining
from ..runtime.instructions import CALL, CHOOSE, component_content

__all__ = ["Compiler", "CALL", "CHOOSE", "component_content"]  # the opcodes live in interpreter.runtime.instructions
from ..runtime.limits import INT_MAX, INT_MIN, checked_list, checked_value, int_out_of_range


_BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
           "%": operator.mod}

# Hot built-ins compiled to one closure instead of a call through the registry (same behaviour).
_INLINE = {
    "at": lambda a: (lambda s, e: s.cells[a(s, e)]),
    "size": lambda a: (lambda s, e: len(a(s, e))),
    "empty": lambda a: (lambda s, e: not a(s, e)),
}


class Compiler(StatementCompiler):
    def __init__(self, ruleset: ir.Ruleset, game, codegen: bool = True, inline: bool = True):
        self.rs = ruleset
        self.game = game
        self.types = ruleset.types
        self.symbols = ruleset.symbols
        self.inline: list = []  # parameter bindings of the definitions being expanded
        self.proc = None  # the procedure being compiled
        self.reads: set = set()  # the locals read by the expressions compiled so far (see reads_during)
        self.procs: list = []
        self.proc_index: dict = {}
        self.iterations = None  # the iteration count of the comprehension being compiled (see comprehensions)
        self.codegen = CodeGen(self) if codegen else None
        self.inlining = Inlining(ruleset) if inline else None  # which calls compile in place
        self.sites: list = []  # the locals visible at each inlined call the current code is inside
        self.bodies: list = []  # the kinds of the locals of each body the current code is inside

    def finish(self) -> None:
        """Compile the generated code still pending."""
        if self.codegen is not None:
            self.codegen.flush()

    # ---- expressions ---------------------------------------------------------------------------
    def expr(self, node):
        """``f(state, env)`` computing the expression: generated code where the generator handles
        it, else a closure."""
        if self.codegen is not None:
            generated = self.codegen.expression_function(node)
            if generated is not None:
                return generated
        return self.closure(node)

    def closure(self, node):
        return getattr(self, "_x_" + type(node).__name__.lower())(node)

    def as_list(self, node):
        """Compile a collection-valued expression so that it yields a Python list."""
        if self.codegen is not None:
            generated = self.codegen.expression_function(node, as_list=True)
            if generated is not None:
                return generated
        return self.closure_as_list(node)

    def closure_as_list(self, node):
        if self.types.get(node) != ZONE:
            return self.expr(node)
        if isinstance(node, ast.Attr) and self.symbols[node][0] == "pzone":
            base = self.game.family_base[self.symbols[node][1]]
            key = self.local_key(node.obj)
            if key is not None:
                return lambda s, e: s.zones[base + e[key]]
            if self.symbols.get(node.obj, ("",))[0] == "var":
                var = self.symbols[node.obj][1]
                return lambda s, e: s.zones[base + s.vars[var]]
        f = self.expr(node)
        return lambda s, e: s.zones[f(s, e)]

    def _x_literal(self, node):
        value = node.value
        return lambda s, e: value

    def local_key(self, node):
        """The locals key a plain local name reads (seeing through expanded definitions), or None."""
        if isinstance(node, ast.Name) and self.symbols.get(node, ("",))[0] == "local":
            if self.inline and node.id in self.inline[-1]:
                _, key, reads = self.inline[-1][node.id]
                self.reads |= reads
                return key
            self.reads.add(node.id)
            return node.id
        return None

    def reads_during(self, compile_step):
        """Run ``compile_step()``; return its result and the locals the compiled code reads."""
        outer, self.reads = self.reads, set()
        try:
            result = compile_step()
        finally:
            inner = self.reads
            self.reads = outer | inner
        return result, inner

    @contextlib.contextmanager
    def expanding(self, node):
        """Compile inside the body of the definition that ``node`` (a call or name) expands."""
        args = getattr(node, "args", ())
        bound = []
        for a in args:
            (closure, key), reads = self.reads_during(lambda a=a: (self.expr(a), self.local_key(a)))
            bound.append((closure, key, reads))
        define = self.rs.defines[self.symbols[node][1]]
        self.inline.append(dict(zip(define.params, bound)))
        try:
            yield define.body
        finally:
            self.inline.pop()

    def is_define(self, node) -> bool:
        return isinstance(node, (ast.Name, ast.Call)) and self.symbols.get(node, ("",))[0] == "define"

    def getter(self, node):
        """A fused reader for the commonest leaves: ('attr', table, key), ('mark', name, key),
        ('local', key), ('const', value); None for anything else."""
        if isinstance(node, ast.Literal):
            return ("const", node.value)
        key = self.local_key(node)
        if key is not None:
            return ("local", key)
        if isinstance(node, ast.Attr):
            obj_key = self.local_key(node.obj)
            kind, name = self.symbols[node]
            if obj_key is not None and kind == "attr" and name not in self.game.partial_attributes:
                return ("attr", self.game.attr_tables[name], obj_key)
            if obj_key is not None and kind == "mark":
                return ("mark", name, obj_key)
        return None

    def _fused_compare(self, op, left, right):
        """Comparisons of two attribute reads or an attribute and a constant, in one closure."""
        if left[0] == "attr" and right[0] == "attr":
            _, t1, k1 = left
            _, t2, k2 = right
            if op == "==":
                return lambda s, e: t1[e[k1]] == t2[e[k2]]
            return lambda s, e: t1[e[k1]] != t2[e[k2]] if op == "!=" else COMPARE[op](t1[e[k1]], t2[e[k2]])
        if left[0] == "attr" and right[0] == "const":
            _, t1, k1 = left
            value = right[1]
            cmp = COMPARE[op]
            if op == "==":
                return lambda s, e: t1[e[k1]] == value
            if op == ">=":
                return lambda s, e: t1[e[k1]] >= value
            return lambda s, e: cmp(t1[e[k1]], value)
        if left[0] == "local" and right[0] == "local":
            k1, k2 = left[1], right[1]
            if op == "==":
                return lambda s, e: e[k1] == e[k2]
            if op == "!=":
                return lambda s, e: e[k1] != e[k2]
        return None

    def _x_name(self, node):
        kind, arg = self.symbols[node]
        if kind == "local":
            if self.inline and arg in self.inline[-1]:
                closure, _, reads = self.inline[-1][arg]
                self.reads |= reads
                return closure
            self.reads.add(arg)
            return lambda s, e: e[arg]
        if kind == "const":
            return lambda s, e: arg
        if kind == "var":
            return lambda s, e: s.vars[arg]
        if kind == "zone":
            zone = self.game.family_base[arg]
            return lambda s, e: zone
        if kind == "define":
            return self._call_define(node)
        raise AssertionError(kind)

    def _x_attr(self, node):
        obj = self.expr(node.obj)
        kind, name = self.symbols[node]
        game = self.game
        key = self.local_key(node.obj)
        if kind == "attr":
            table = game.attr_tables[name]
            if name in game.partial_attributes:
                def attribute(s, e):
                    c = obj(s, e)
                    value = table[c]
                    if value is None:
                        raise game.missing_attribute(c, name)
                    return value
                return attribute
            if key is not None:
                return lambda s, e: table[e[key]]
            return lambda s, e: table[obj(s, e)]
        if kind == "mark":
            if key is not None:
                return lambda s, e: s.marks[name][e[key]]
            return lambda s, e: s.marks[name][obj(s, e)]
        if kind == "pvar":
            return lambda s, e: s.pvars[name][obj(s, e)]
        if kind == "pprop":
            names = game.player_names
            return lambda s, e: names[obj(s, e)]
        if kind == "pzone":
            base = game.family_base[name]
            return lambda s, e: base + obj(s, e)
        if kind == "kzone":
            zone_of = self.attached_zones(name)
            key = self.local_key(node.obj)

            def attached(s, e):
                c = e[key] if key is not None else obj(s, e)
                zone = zone_of[c]
                if zone is None:
                    holder = self.rs.zones[name].per_kind
                    raise RulesRuntimeError(f"{game.names[c]} is a {game.kinds[c]}; only a {holder} has a "
                                            f"zone '{name}'")
                return zone
            return attached
        if kind == "cprop":
            if name == "owner":
                owner_now = game.zone_owner_now
                return lambda s, e: owner_now(s, s.loc[obj(s, e)])
            if name == "zone":
                return lambda s, e: s.loc[obj(s, e)]
            if name == "cell":
                return lambda s, e: s.cell_of[obj(s, e)]
            table = game.names if name == "name" else game.kinds
            return lambda s, e: table[obj(s, e)]
        raise AssertionError(kind)

    def attached_zones(self, name) -> list:
        """Per component, its zone of the per-component family ``name`` (None if it has none)."""
        game = self.game
        base, holder = game.family_base[name], self.rs.zones[name].per_kind
        return [base + game.kind_index[c] if game.kinds[c] == holder else None
                for c in range(game.num_components)]

    def _x_index(self, node):
        obj, index = self.as_list(node.obj), self.expr(node.index)
        return lambda s, e: obj(s, e)[index(s, e)]

    def _x_slice(self, node):
        obj = self.as_list(node.obj)
        start = self.expr(node.start) if node.start is not None else (lambda s, e: None)
        stop = self.expr(node.stop) if node.stop is not None else (lambda s, e: None)
        return lambda s, e: obj(s, e)[start(s, e):stop(s, e)]

    def _x_listlit(self, node):
        items = [self.expr(i) for i in node.items]
        return lambda s, e: [f(s, e) for f in items]

    def _x_binop(self, node):
        if self.types[node].name == "list":
            left, right = self.as_list(node.left), self.as_list(node.right)
            return lambda s, e: checked_list(left(s, e) + right(s, e))
        if self.types[node] != INT:  # text concatenation, or a type not known
            left, right, op = self.expr(node.left), self.expr(node.right), _BINOPS[node.op]
            return lambda s, e: checked_value(op(left(s, e), right(s, e)))
        return self._int_binop(node)

    def _int_binop(self, node):
        """Whole-number arithmetic; each closure refuses a result beyond ±2^63 in line (a call of a
        checking function would cost more than the arithmetic)."""
        left, right, op = self.expr(node.left), self.expr(node.right), _BINOPS[node.op]
        left_get, right_get = self.getter(node.left), self.getter(node.right)
        if node.op == "-" and left_get and right_get and left_get[0] == "attr" and right_get[0] == "mark":
            _, table, k1 = left_get
            _, mark, k2 = right_get
            return lambda s, e: (v if INT_MIN <= (v := table[e[k1]] - s.marks[mark][e[k2]]) <= INT_MAX
                                 else int_out_of_range(v))
        if isinstance(node.right, ast.Literal) and node.op in ("+", "-"):
            value = node.right.value if node.op == "+" else -node.right.value
            return lambda s, e: v if INT_MIN <= (v := left(s, e) + value) <= INT_MAX else int_out_of_range(v)
        if node.op == "+":
            return lambda s, e: v if INT_MIN <= (v := left(s, e) + right(s, e)) <= INT_MAX else int_out_of_range(v)
        if node.op == "-":
            return lambda s, e: v if INT_MIN <= (v := left(s, e) - right(s, e)) <= INT_MAX else int_out_of_range(v)
        return lambda s, e: v if INT_MIN <= (v := op(left(s, e), right(s, e))) <= INT_MAX else int_out_of_range(v)

    def _x_compare(self, node):
        left = self.expr(node.left)
        if node.op in ("in", "not in"):
            negate = node.op == "not in"
            if self.types.get(node.right) == ZONE:
                zone = self.expr(node.right)
                if negate:
                    return lambda s, e: s.loc[left(s, e)] != zone(s, e)
                return lambda s, e: s.loc[left(s, e)] == zone(s, e)
            right = self.as_list(node.right)
            if negate:
                return lambda s, e: left(s, e) not in right(s, e)
            return lambda s, e: left(s, e) in right(s, e)
        left_get, right_get = self.getter(node.left), self.getter(node.right)
        if left_get and right_get:
            fused = self._fused_compare(node.op, left_get, right_get)
            if fused is not None:
                return fused
        right, op = self.expr(node.right), COMPARE[node.op]
        if isinstance(node.right, ast.Literal):
            value = node.right.value
            if node.op == "==":
                return lambda s, e: left(s, e) == value
            if node.op == "!=":
                return lambda s, e: left(s, e) != value
            return lambda s, e: op(left(s, e), value)
        if node.op == "==":
            return lambda s, e: left(s, e) == right(s, e)
        if node.op == "!=":
            return lambda s, e: left(s, e) != right(s, e)
        return lambda s, e: op(left(s, e), right(s, e))

    def _x_boolop(self, node):
        if node.op == "and":
            return all_of([self.expr(part) for part in _conjuncts(node)])
        left, right = self.expr(node.left), self.expr(node.right)
        return lambda s, e: left(s, e) or right(s, e)

    def _x_not(self, node):
        operand = self.expr(node.operand)
        return lambda s, e: not operand(s, e)

    def _x_neg(self, node):
        operand = self.expr(node.operand)
        return lambda s, e: v if INT_MIN <= (v := -operand(s, e)) <= INT_MAX else int_out_of_range(v)

    def _x_cond(self, node):
        test, then, otherwise = self.expr(node.test), self.expr(node.then), self.expr(node.otherwise)
        return lambda s, e: then(s, e) if test(s, e) else otherwise(s, e)

    def _x_comprehension(self, node):
        return compile_comprehension(self, node)

    def _x_call(self, node):
        kind, name = self.symbols[node]
        if kind == "define":
            return self._call_define(node)
        args = self.arguments(FUNCTIONS.get(name), node)
        impl = FUNCTIONS.get(name).impl
        if name in _INLINE and len(args) == 1:
            return _INLINE[name](args[0])
        return _applied(impl, args)

    def arguments(self, builtin, call) -> list:
        """Compile a call's arguments in signature order, filling in defaults."""
        out = []
        for how, node in argument_plan(builtin, call, self.types):
            if how == "default":
                assert node is not REQUIRED
                out.append(lambda s, e, d=node: d)
            else:
                out.append(self.as_list(node) if how == "list" else self.expr(node))
        return out

    def _call_define(self, node):
        """Expand a definition in place: its parameters read the call's argument closures."""
        with self.expanding(node) as body:
            return self.expr(body)
