"""Procedure calls in the kernel's C: compiled in place, or, for a procedure that calls itself
(directly or through others), as a C function of its own.

A call compiled in place binds the arguments' values to the callee's locals, then runs its body; a
``return`` jumps to the end of that body, storing its value first in the caller's ``$ret`` local
(``let x = proc()`` then stores it, as :mod:`dsl.statements` resolves it).  A recursive procedure is
a C function ``P<n>`` taking its arguments' values and giving back its value; it counts the calls
standing as the Python engine counts its frames (at most ``MAX_CALL_DEPTH``, from the flow or from a
trigger, which starts a stack of its own), and every native frame in the run counts against a bound
of its own so that no ruleset can overflow the C stack."""
from __future__ import annotations

from dsl import ir
from dsl.statements import RETURNED

from ..runtime.limits import MAX_CALL_DEPTH
from .expressions import Scope, Unsupported

MAX_INLINED = 16  # calls compiled in place inside one another; deeper ones are C functions
MAX_FRAMES = 4000  # native frames of recursive procedures in one run, triggers included


def recursive_procedures(rs) -> set:
    """The procedures that can call themselves, directly or through others."""
    calls = {name: {s.proc for s in ir.walk(p.body) if isinstance(s, ir.CallProc)} for name, p in rs.procedures.items()}
    found = set()
    for name in calls:
        seen, todo = set(), list(calls[name])
        while todo:
            callee = todo.pop()
            if callee == name:
                found.add(name)
                break
            if callee not in seen:
                seen.add(callee)
                todo.extend(calls.get(callee, ()))
    return found


class Calls:
    """The part of :class:`~.emit.Emitter` that compiles procedure calls and returns."""

    def _s_callproc(self, stmt, scope) -> str:
        proc = self.rs.procedures[stmt.proc]
        sc = self._scope(scope)
        temps = [self.x.fresh("a") for _ in stmt.args]
        values = "".join(f"int64_t {t} = {self._argument(a, sc)};\n" for t, a in zip(temps, stmt.args))
        returned = self.local(RETURNED) if stmt.then is not None else None
        if proc.name in self.recursive or len(self.calls) >= MAX_INLINED:
            function = self._function(proc)
            call = f"{function}(C, {', '.join(['0'] + temps)})"
            body = f"{returned} = {call};\n" if returned else f"{call};\n"
        else:
            body = self._inlined(proc, temps, returned)
        stored = self.statement(stmt.then, scope) if stmt.then is not None else ""
        return f"{{ {values}{body}}}\n{stored}"

    def _argument(self, node, scope) -> str:
        if self.x.type_of(node) == "list":
            return self.x.as_list(node, scope)
        return self.x.expr(node, scope)

    def _inlined(self, proc, temps, returned) -> str:
        """The callee's body in place, in a frame of its own."""
        saved, self.locals = self.locals, {}
        label = self.x.fresh("ret")
        self.calls.append((proc, label, returned))
        loops, self.loops = self.loops, []
        try:
            binds = "".join(f"{self.local(name)} = {t};\n" for name, t in zip(proc.params, temps))
            body = self.block(proc.body, Scope())
        finally:
            self.calls.pop()
            self.locals, self.loops = saved, loops
        return f"{binds}{body}{label}: ;\n"

    def _function(self, proc) -> str:
        """The C function of a procedure (compiled on its first call; one per context, as a
        decision compiles only in the flow)."""
        key = (proc.name, self.deciding)
        if key in self.functions:
            return self.functions[key]
        name = f"P{len(self.functions)}"
        self.functions[key] = name
        params = ", ".join(["int64_t unused_"] + [f"int64_t a{i}_" for i in range(len(proc.params))])
        self.prototypes.append(f"static int64_t {name}(Ctx *C, {params});\n")
        saved = self.locals, self.declared, self.calls, self.loops, self.function
        self.locals, self.declared, self.loops, self.function = {}, [], [], name
        returned, label = "r_", self.x.fresh("ret")
        self.calls = [(proc, label, returned)]
        try:
            binds = "".join(f"{self.local(p)} = a{i}_;\n" for i, p in enumerate(proc.params))
            body = self.block(proc.body, Scope())
            declared = self._decls()
        finally:
            self.locals, self.declared, self.calls, self.loops, self.function = saved
        self.function_code.append(
            f"static int64_t {name}(Ctx *C, {params}) {{\n(void)unused_; int64_t r_ = -1;\n"
            f"if (C->calls >= {MAX_CALL_DEPTH}) fail(C, E_call_depth, 0, 0);\n"
            f"if (++C->frames > {MAX_FRAMES}) fail(C, E_memory, 0, 0);\n"
            f"C->calls++;\n{declared}{binds}{body}{label}: C->calls--; C->frames--; return r_; }}\n")
        return name

    def _s_return(self, stmt, scope) -> str:
        if not self.calls:
            raise Unsupported("a return outside a procedure", stmt.position)
        _, label, returned = self.calls[-1]
        if stmt.value is None:
            return f"goto {label};\n"
        sc = self._scope(scope)
        value = self._argument(stmt.value, sc)
        if returned is None:  # a value no one stores: computed all the same (it may fail)
            return f"(void)({value}); goto {label};\n"
        return f"{returned} = {value}; goto {label};\n"
