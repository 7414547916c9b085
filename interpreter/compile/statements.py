"""Stage 5, statements: procedure bodies become instructions of the VM (:mod:`interpreter.runtime.vm`).

Simple statements become ``EXEC`` instructions running a closure or a generated function; ``if``,
``while``, ``for`` and ``repeat`` become jumps; a decision becomes a ``CHOOSE`` instruction with
its :class:`~interpreter.runtime.instructions.ChoiceSpec`.  Runs of simple statements are then fused into
generated blocks (:mod:`interpreter.codegen.blocks`).
"""
from __future__ import annotations

import operator

from dsl import ast, ir
from dsl.registry import EFFECTS
from dsl.resolver import RETURNED
from dsl.types import ANY, INT, ZONE, element_type

from ..codegen.actions import enumerator
from ..codegen.blocks import EXECN, fuse
from ..codegen.nodes import N
from .comprehensions import all_of
from ..runtime.instructions import (CALL, CHOOSE, EXEC, FORINIT, FORNEXT, JUMP, JUMPF, RET, ChoiceSpec, OptionSpec,
                           Proc)
from ..runtime import narration
from ..runtime.limits import MAX_STEPS, checked_repeat, checked_value


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


def _thread_jumps(code, always=frozenset()) -> None:
    """Make every jump go straight to where a chain of jumps ends (the ends of nested options jump
    to the end of each enclosing decision in turn), and a jump to a return return at once.  A
    chain also passes over the test of a loop that always goes on (``while: true``: the pcs in
    ``always``), and a generated block goes on where the chain after it ends.  A jump made so
    keeps the position of the last jump of its chain (a loop's jump back names the loop in the
    error of a runaway loop).  No instruction moves, so the pcs of saved states keep their meaning."""
    def final(pc, position):
        seen = set()
        while pc not in seen and (code[pc][0] == JUMP or pc in always):
            seen.add(pc)
            if code[pc][0] == JUMP:
                pc, position = code[pc][1], code[pc][-1]
            else:
                pc += 1
        return pc, position

    for pc, ins in enumerate(code):
        if ins[0] == JUMP:
            target, position = final(ins[1], ins[-1])
            code[pc] = code[target] if code[target][0] == RET else (JUMP, target, position)
        elif ins[0] == JUMPF:
            code[pc] = (JUMPF, ins[1], final(ins[2], None)[0], ins[-1])
        elif ins[0] == EXECN:
            code[pc] = ins[:3] + (final(ins[3], None)[0],) + ins[4:]


class StatementCompiler:
    """The statement half of :class:`interpreter.compile.compiler.Compiler` (mixed into it)."""

    # ---- statements ---------------------------------------------------------------------------
    def procedure(self, name, params, body, position, decides=False) -> int:
        """Compile a procedure; one that ``decides`` (the flow) never runs inside a trigger or the
        setup, so its generated blocks may ask decisions (interpreter/codegen/blocks.py)."""
        index = len(self.procs)
        proc = Proc(name, params, position)
        self.procs.append(proc)
        self.proc_index[name] = index
        self._body(proc, body, decides)
        return index

    def _body(self, proc, body, decides=False):
        outer, self.proc = self.proc, proc
        scope = self.sites, self.bodies
        self.sites = []
        self.bodies = [self.inlining.kinds(proc.params, [None] * len(proc.params), body)] if self.inlining else []
        try:
            self.block(proc.code, body, [])
            proc.code.append((RET, proc.position))
            if self.codegen is not None:
                fuse(self.codegen, proc.code, proc.sources, (EXEC, JUMP, JUMPF, RET, CHOOSE), MAX_STEPS,
                     decides)
            _thread_jumps(proc.code, proc.sources.always)
        finally:
            self.proc = outer
            self.sites, self.bodies = scope

    def block(self, code, stmts, loops):
        for stmt in stmts:
            N.where = stmt.position  # the rule that too much generated code would be blamed on
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
        if call in self.rs.message_fields:
            return self._logged(effect, args, self.rs.message_fields[call])
        return _applied(effect.impl, args)

    def _logged(self, effect, args, fields):
        """``log()`` of a message with expression fields (dsl/messages.py): their values are taken
        when it runs and kept with the entry (interpreter/runtime/narration.py)."""
        names = [param.name for param in effect.params]
        values = [(text, self.as_list(node) if type_.startswith("list") else self.expr(node), type_)
                  for text, node, type_ in fields]

        def log_with_fields(s, e):
            given = {name: f(s, e) for name, f in zip(names, args)}
            narration.add_with_fields(s, given["message"], given, given["to"],
                                      [(text, f(s, e), type_) for text, f, type_ in values])
        return log_with_fields

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
        inlined = self.inlining.inlined(stmt, self.sites, self.bodies, self.proc) if self.inlining else None
        if inlined is not None:
            self._inline(code, stmt, *inlined)
            return
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

    def _inline(self, code, stmt, callee, bindings):
        """The callee's statements in place of the call (see :mod:`interpreter.compile.inlining`): its
        parameters set from the arguments, then its body, whose loops a 'break' cannot leave."""
        for param, arg in bindings:
            self._s_exec(code, ir.Exec(stmt.position, ast.Let(stmt.position, param, arg)), loops=[])
        self.sites.append(self.inlining.visible(stmt))
        self.bodies.append(self.inlining.kinds(callee.params, [None] * len(callee.params), callee.body))
        try:
            self.block(code, callee.body, [])
        finally:
            self.sites.pop()
            self.bodies.pop()

    def call_locals(self, params, args):
        """``f(s, e)`` making the locals a procedure starts with: its parameters' values (None for a
        procedure without parameters: it starts with no locals)."""
        if not params:
            return None
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
        else:
            if isinstance(stmt.cond, ast.Literal) and stmt.cond.value is True:
                self.proc.sources.always.add(len(code))  # the test of 'while: true' (see _thread_jumps)
            self.proc.sources.whiles[len(code)] = stmt.cond
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
        self.proc.sources.loops[len(code)] = var
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
        if isinstance(stmt.player, ast.Name) and self.symbols.get(stmt.player) == ("var", stmt.player.id):
            spec.player_var = stmt.player.id  # the usual 'active': the VM reads it without a call
        if self.codegen is not None:
            spec.enumerate = enumerator(self.codegen, stmt.options, options, self.stages)
        spec.finish()
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
