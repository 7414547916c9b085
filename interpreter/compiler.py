"""Stage 5: compile a checked ruleset into closures and a small bytecode.

Expressions become Python closures ``f(state, env)``.  Statements become instructions of the VM in
:mod:`interpreter.vm`; control flow is jumps, so a running game is only a stack of
``[procedure, pc, locals]`` frames: plain data that serializes to JSON.
"""
from __future__ import annotations

import contextlib
import operator

from dsl import ast, ir
from dsl.resolver import RETURNED
from dsl.errors import RulesRuntimeError
from dsl.registry import EFFECTS, FUNCTIONS, REQUIRED
from dsl.types import ANY, BOOL, INT, ZONE, element_type

from .codegen import CodeGen, argument_plan
from .codegen_actions import enumerator
from .codegen_blocks import Sources, fuse
from .comprehensions import COMPARE, all_of, compile_comprehension
from .limits import INT_MAX, INT_MIN, checked_list, checked_repeat, checked_value, number_too_large

# Opcodes: the first element of every instruction tuple; the last element is its Position.
EXEC, JUMP, JUMPF, FORINIT, FORNEXT, CHOOSE, CALL, RET = range(8)
OPCODE_NAMES = ["EXEC", "JUMP", "JUMPF", "FORINIT", "FORNEXT", "CHOOSE", "CALL", "RET"]

_BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
           "%": operator.mod}

def _conjuncts(node) -> list:
    if node is None:
        return []
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _names_in(node) -> set:
    names = {node.id} if isinstance(node, ast.Name) else set()
    for child in ast.children(node):
        names |= _names_in(child)
    return names


def _out_of_range(value):
    raise number_too_large(value)


def _applied(impl, args):
    """A closure calling the built-in ``impl`` on the values of the closures ``args``."""
    if len(args) == 1:
        a = args[0]
        return lambda s, e: impl(s, a(s, e))
    if len(args) == 2:
        a, b = args
        return lambda s, e: impl(s, a(s, e), b(s, e))
    if len(args) == 3:
        a, b, c = args
        return lambda s, e: impl(s, a(s, e), b(s, e), c(s, e))
    return lambda s, e: impl(s, *[f(s, e) for f in args])


# Hot built-ins compiled to one closure instead of a call through the registry (same behaviour).
_INLINE = {
    "at": lambda a: (lambda s, e: s.cells[a(s, e)]),
    "size": lambda a: (lambda s, e: len(a(s, e))),
    "empty": lambda a: (lambda s, e: not a(s, e)),
}


class OptionSpec:
    """One option of a decision, compiled: its parameters' domains, its condition, its branch."""

    __slots__ = ("index", "name", "text", "param_names", "domains", "param_kinds", "component_params",
                 "checks", "levels", "start", "position", "decline", "public", "context")

    def __init__(self, index, name, text, param_names, domains, param_kinds, checks, position):
        self.index = index
        self.name = name
        self.text = text
        self.param_names = param_names
        self.domains = domains
        self.param_kinds = param_kinds
        self.component_params = tuple(kind == "component" for kind in param_kinds)
        self.checks = checks  # checks[0] before any parameter is bound, checks[i + 1] after parameter i
        last = len(param_names) - 1
        self.levels = tuple((name, self.component_params[i], checks[i + 1], domains[i], i == last)
                            for i, name in enumerate(param_names))  # what binding parameter i needs
        self.start = None
        self.position = position
        self.decline = False
        self.public = False
        self.context = ()  # (field, compiled expression, type) of the text's fields that are no parameters


class ChoiceSpec:
    __slots__ = ("player", "prompt", "options", "if_none", "end", "position", "prompt_parts", "enumerate")

    def __init__(self, player, prompt, options, if_none, position, prompt_parts=()):
        self.player = player
        self.prompt = prompt
        self.options = options
        self.if_none = if_none
        self.end = None
        self.position = position
        self.prompt_parts = prompt_parts  # (literal, compiled field or None, the field's type name)
        self.enumerate = None  # generated enumeration of the legal actions (interpreter.codegen_actions)


class Proc:
    """A compiled procedure: its name, its parameters, its instructions, and which of its locals
    may hold components: ``holding`` by their static type, ``untyped`` where the type is not known."""

    def __init__(self, name, params, position):
        self.name = name
        self.params = params
        self.code: list = []
        self.position = position
        self.holding: set = set()
        self.untyped: set = set()
        self.sources = Sources()  # the statements behind the instructions, for generated blocks
        self._typed: set = set()

    def declare(self, name, type_) -> None:
        """Note a type a local (or a loop's list, under its slot) is given; a name is untyped until
        some declaration or assignment gives it a known type."""
        found = component_content(type_)
        if found == "any":
            if name not in self._typed:
                self.untyped.add(name)
            return
        self._typed.add(name)
        self.untyped.discard(name)
        if found == "component":
            self.holding.add(name)


def component_content(type_) -> str | None:
    """'component' if values of the type hold components, 'any' if they may, else None."""
    if type_ is None or type_ == ANY:
        return "any"
    if type_.name == "component":
        return "component"
    if type_.name == "list":
        return component_content(type_.arg or ANY)
    return None


class Compiler:
    def __init__(self, ruleset: ir.Ruleset, game, codegen: bool = True):
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
                                 else _out_of_range(v))
        if isinstance(node.right, ast.Literal) and node.op in ("+", "-"):
            value = node.right.value if node.op == "+" else -node.right.value
            return lambda s, e: v if INT_MIN <= (v := left(s, e) + value) <= INT_MAX else _out_of_range(v)
        if node.op == "+":
            return lambda s, e: v if INT_MIN <= (v := left(s, e) + right(s, e)) <= INT_MAX else _out_of_range(v)
        if node.op == "-":
            return lambda s, e: v if INT_MIN <= (v := left(s, e) - right(s, e)) <= INT_MAX else _out_of_range(v)
        return lambda s, e: v if INT_MIN <= (v := op(left(s, e), right(s, e))) <= INT_MAX else _out_of_range(v)

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
        return lambda s, e: v if INT_MIN <= (v := -operand(s, e)) <= INT_MAX else _out_of_range(v)

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

    # ---- statements ---------------------------------------------------------------------------
    def procedure(self, name, params, body, position) -> int:
        index = len(self.procs)
        proc = Proc(name, params, position)
        self.procs.append(proc)
        self.proc_index[name] = index
        self._body(proc, body)
        return index

    def _body(self, proc, body):
        outer, self.proc = self.proc, proc
        try:
            self.block(proc.code, body, [])
            proc.code.append((RET, proc.position))
            if self.codegen is not None:
                fuse(self.codegen, proc.code, proc.sources, (EXEC, JUMP, JUMPF))
        finally:
            self.proc = outer

    def block(self, code, stmts, loops):
        for stmt in stmts:
            getattr(self, "_s_" + type(stmt).__name__.lower())(code, stmt, loops)

    def _s_exec(self, code, stmt, loops):
        self.proc.sources.statements[len(code)] = stmt.node
        code.append((EXEC, self.simple(stmt.node), stmt.position))

    def simple(self, node):
        if self.codegen is not None:
            if isinstance(node, ast.Let):
                self.proc.declare(node.name, self.types.get(node.value))
            elif isinstance(node, ast.Assign) and self.symbols[node.target][0] == "local":
                self.proc.declare(self.symbols[node.target][1], self.types.get(node.value))
            generated = self.codegen.statement_function(node)
            if generated is not None:
                return generated
        if isinstance(node, ast.Let):
            name, value = node.name, self.expr(node.value)
            self.proc.declare(name, self.types.get(node.value))

            def let(s, e):
                e[name] = value(s, e)
            return let
        if isinstance(node, ast.Assign):
            return self.assignment(node)
        call = node.call
        effect = EFFECTS.get(call.func)
        args = self.arguments(effect, call)
        return _applied(effect.impl, args)

    def assignment(self, node):
        target = node.target
        value = self.as_list(node.value) if self.types[target].name == "list" else self.expr(node.value)
        op = {"=": None, "+=": operator.add, "-=": operator.sub, "*=": operator.mul}[node.op]
        if op is not None:
            arithmetic = op
            op = lambda old, change: checked_value(arithmetic(old, change))  # noqa: E731
        if isinstance(target, ast.Name):
            kind, name = self.symbols[target]
            if kind != "var":
                self.proc.declare(name, self.types.get(node.value))
                if op is None:
                    def set_local(s, e):
                        e[name] = value(s, e)
                    return set_local

                def update_local(s, e):
                    e[name] = op(e[name], value(s, e))
                return update_local
            if op is None:
                def set_var(s, e):
                    s.vars[name] = value(s, e)
                return set_var

            def update_var(s, e):
                s.vars[name] = op(s.vars[name], value(s, e))
            return update_var
        kind, name = self.symbols[target]
        obj = self.expr(target.obj)
        table = "marks" if kind == "mark" else "pvars"

        def set_attr(s, e):
            values = getattr(s, table)[name]
            key = obj(s, e)
            values[key] = value(s, e) if op is None else op(values[key], value(s, e))
        return set_attr

    def _s_callproc(self, code, stmt, loops):
        index = self.proc_index.get(stmt.proc)
        if index is None:
            proc = self.rs.procedures[stmt.proc]
            index = len(self.procs)
            self.proc_index[stmt.proc] = index
            self.procs.append(None)
            compiled = Proc(proc.name, proc.params, proc.position)
            for name, type_ in zip(proc.params, proc.param_types or [ANY] * len(proc.params)):
                compiled.declare(name, type_)
            self.procs[index] = compiled
            self._body(compiled, proc.body)
        store = self.simple(stmt.then.node) if stmt.then is not None else None
        code.append((CALL, index, self.call_locals(self.procs[index].params, stmt.args), store, stmt.position))

    def call_locals(self, params, args):
        """``f(s, e)`` making the locals a procedure starts with: its parameters' values."""
        if self.codegen is not None:
            generated = self.codegen.dict_function(params, args)
            if generated is not None:
                return generated
        pairs = list(zip(params, [self.expr(a) for a in args]))
        return lambda s, e: {p: f(s, e) for p, f in pairs}

    def _s_return(self, code, stmt, loops):
        if stmt.value is not None:
            value = self.expr(stmt.value)

            def give(s, e):
                e[RETURNED] = value(s, e)
            code.append((EXEC, give, stmt.position))
        code.append((RET, stmt.position))

    def _s_if(self, code, stmt, loops):
        jump = len(code)
        code.append(None)
        self.block(code, stmt.then, loops)
        if stmt.otherwise:
            skip = len(code)
            code.append(None)
            code[jump] = (JUMPF, self.expr(stmt.cond), len(code), stmt.position)
            self.block(code, stmt.otherwise, loops)
            code[skip] = (JUMP, len(code), stmt.position)
            self.proc.sources.ifs[jump] = (stmt.cond, skip)
        else:
            code[jump] = (JUMPF, self.expr(stmt.cond), len(code), stmt.position)
            self.proc.sources.ifs[jump] = (stmt.cond, None)

    def _s_while(self, code, stmt, loops):
        cond = self.expr(stmt.cond)
        if stmt.limit:
            slot, limit, test = f"#{len(code)}", stmt.limit, cond
            code.append((EXEC, lambda s, e: e.__setitem__(slot, 0), stmt.position))

            def cond(s, e):
                if not test(s, e):
                    return False
                e[slot] += 1
                return e[slot] <= limit
        self._loop_while(code, stmt, cond, loops)

    def _loop_while(self, code, stmt, cond, loops):
        """``stmt.body`` run while ``cond(s, e)`` is true."""
        top = len(code)
        code.append(None)
        breaks = []
        self.block(code, stmt.body, loops + [(breaks, top)])
        code.append((JUMP, top, stmt.position))
        code[top] = (JUMPF, cond, len(code), stmt.position)
        self._patch(code, breaks)

    def _loop(self, code, stmt, var, source, loops, elem=INT):
        slot = f"${len(code)}"
        self.proc.declare(slot, elem)
        if var is not None:
            self.proc.declare(var, elem)
        code.append((FORINIT, source, slot, stmt.position))
        top = len(code)
        code.append(None)
        breaks = []
        self.block(code, stmt.body, loops + [(breaks, top)])
        code.append((JUMP, top, stmt.position))
        code[top] = (FORNEXT, slot, var, len(code), stmt.position)
        self._patch(code, breaks)

    def _s_for(self, code, stmt, loops):
        self._loop(code, stmt, stmt.var, self.as_list(stmt.source), loops,
                   element_type(self.types.get(stmt.source, ANY)))

    _s_simultaneous = _s_for

    def _s_repeat(self, code, stmt, loops):
        """A counted loop: the rounds left live in a local (``#pc``), so no list of rounds is made."""
        count, slot = self.expr(stmt.count), f"#{len(code)}"
        self.proc.declare(slot, INT)
        code.append((EXEC, lambda s, e: e.__setitem__(slot, checked_repeat(count(s, e))), stmt.position))

        def another_round(s, e):
            left = e[slot]
            if left > 0:
                e[slot] = left - 1
                return True
            del e[slot]
            return False
        self._loop_while(code, stmt, another_round, loops)

    def _s_block(self, code, stmt, loops):
        self.block(code, stmt.body, loops)

    def _s_break(self, code, stmt, loops):
        loops[-1][0].append((len(code), stmt.position))
        code.append(None)

    def _s_continue(self, code, stmt, loops):
        code.append((JUMP, loops[-1][1], stmt.position))

    @staticmethod
    def _patch(code, breaks):
        for pc, position in breaks:
            code[pc] = (JUMP, len(code), position)

    @staticmethod
    def stages(option) -> list:
        """Split an option's ``require`` at its 'and's: the parts to check as soon as the
        parameters they use are bound (a failing part prunes the enumeration early); stage 0
        before any parameter is bound, stage i + 1 after parameter i."""
        names = [name for name, _ in option.params]
        stages = [[] for _ in range(len(names) + 1)]
        for part in _conjuncts(option.require):
            used = _names_in(part)
            level = max((i + 1 for i, name in enumerate(names) if name in used), default=0)
            stages[level].append(part)
        return stages

    def _staged_checks(self, option) -> tuple:
        return tuple(all_of([self.expr(part) for part in parts]) for parts in self.stages(option))

    def _s_choose(self, code, stmt, loops):
        options = []
        for i, option in enumerate(stmt.options):
            names = [name for name, _ in option.params]
            domains = [self.as_list(domain) for _, domain in option.params]
            for name, domain in option.params:
                self.proc.declare(name, element_type(self.types.get(domain, ANY)))
            param_kinds = tuple((element_type(self.types[d]) or ZONE).name for _, d in option.params)
            compiled = OptionSpec(i, option.name, option.text, names, domains, param_kinds,
                                  self._staged_checks(option), option.position)
            compiled.decline = option.decline
            compiled.public = option.public
            compiled.context = tuple((field, self.expr(node), self.types.get(node, ANY))
                                     for field, node in option.text_fields)
            options.append(compiled)
        prompt_parts = tuple((literal, None, None) if node is None else
                             (literal, self.expr(node), self.types.get(node, ANY))
                             for literal, node in stmt.prompt_parts)
        spec = ChoiceSpec(self.expr(stmt.player), stmt.prompt, options, stmt.if_none, stmt.position,
                          prompt_parts)
        if self.codegen is not None:
            spec.enumerate = enumerator(self.codegen, stmt.options, options, self.stages)
        code.append((CHOOSE, spec, stmt.position))
        exits = []
        for option, compiled in zip(stmt.options, options):
            compiled.start = len(code)
            self.block(code, option.body, loops)
            exits.append(len(code))
            code.append(None)
        spec.end = len(code)
        for pc in exits:
            code[pc] = (JUMP, spec.end, stmt.position)
