"""Stage 5, calls: which calls of procedures are compiled in place of the call (inlined).

A call the VM runs costs a frame, a locals dict and two instructions (``CALL`` and ``RET``); in a
game whose turn is a procedure calling one procedure per action they were half of all instructions.
A call compiled in place runs the callee's statements
in the caller's frame: its parameters become locals of the caller (set from the arguments, in
order) and its locals live beside the caller's.  That is the same game only where nothing can tell
the two apart, so a call is inlined only if

* the callee is not recursive (no chain of calls leads back to it), has no ``return`` and the call
  stores no returned value;
* none of the callee's locals (its parameters, ``let``, loop variables and option parameters, and
  those of everything it calls, transitively) has the name of a local that a procedure it is
  compiled into can see at the call and may still read after it (in the rest of the local's scope,
  or in a later round of a loop inside that scope): the callee cannot change what the caller reads.
  The checker scopes locals to their block, so a callee never reads the caller's locals, and a
  local left behind by one inlined callee is always set again before anything of that name is read.
* every such local has a known type, and a name shared with an earlier inlined callee holds the
  same kind of value (components or not): :mod:`interpreter.runtime.determinize` treats a local by its
  declared kind, in every frame it may be in;
* it is at most ``MAX_DEPTH`` calls deep in inlined calls, the callee is called from one place
  only or is small (at most ``MAX_COPIED`` statements, with what it inlines itself), and all
  inlining together copies no more statements than the ruleset has (plus ``5 * MAX_COPIED``): the
  compiled code stays within about twice the ruleset's, whatever a stranger writes.

Everything else is a call, as before.  The stack of a saved state lists frames of procedures that
are called, not inlined: hence the state format 2 (see :mod:`interpreter.runtime.state`).
"""
from __future__ import annotations

import dataclasses

from dsl import ast, ir
from dsl.errors import Position
from dsl.types import ANY, element_type

from ..runtime.instructions import component_content

MAX_DEPTH = 8
MAX_COPIED = 40
MAX_AFTER = 200


def _summary(kinds) -> str | None:
    """The kind of a local declared with ``kinds`` (see :func:`interpreter.runtime.instructions.component_content`),
    as :class:`interpreter.runtime.instructions.Proc` sums it up: 'component' if any declaration holds
    components, 'any' if none has a known type, else None."""
    return "component" if "component" in kinds else "any" if all(k == "any" for k in kinds) else None


class Inlining:
    """The call graph of a ruleset and the facts the decision to inline a call needs."""

    def __init__(self, rs: ir.Ruleset):
        self.rs = rs
        self.procedures = rs.procedures
        bodies = [([], rs.setup), ([], rs.flow), *(([], t.body) for t in rs.triggers),
                  *((p.params, p.body) for p in rs.procedures.values())]
        self.sites: dict = {}
        self.around: dict = {}  # id of a call statement -> the statement lists around it (see _scan)
        self._read: dict = {}  # id of a statement -> the names in it (see _reads)
        for params, body in bodies:
            self._scan(body, params, False, ())
        self.calls = {name: {s.proc for s in ir.walk(p.body) if isinstance(s, ir.CallProc)}
                      for name, p in self.procedures.items()}
        self.recursive = self._recursive()
        self._locals: dict = {}
        self._copied: dict = {}
        # the statements all inlining together may copy: the compiled code stays within about twice
        # the ruleset's own
        self.budget = sum(1 for _, body in bodies for _ in ir.walk(body)) + MAX_COPIED * 5

    def _scan(self, stmts, bound, loop: bool, outer: tuple) -> None:
        """Count the calls in ``stmts`` and note, at each, the statement lists around it (``outer``:
        ``[names declared so far, a loop's body?, statements, index]`` per list, outermost first).
        The checker scopes a local to the rest of its block (a loop variable or an option's
        parameter to its body)."""
        level = [set(bound), loop, stmts, 0]
        levels = outer + (level,)
        for i, stmt in enumerate(stmts):
            level[3] = i
            if isinstance(stmt, ir.CallProc):
                self.sites[stmt.proc] = self.sites.get(stmt.proc, 0) + 1
                self.around[id(stmt)] = tuple((frozenset(names), looped, body, at) for names, looped, body, at in levels)
            if isinstance(stmt, ir.Choose):
                for option in stmt.options:
                    self._scan(option.body, [name for name, _ in option.params], False, levels)
            else:
                bound = [stmt.var] if isinstance(stmt, (ir.For, ir.Simultaneous)) else []
                looped = isinstance(stmt, (ir.For, ir.Simultaneous, ir.While, ir.Repeat))
                for body in ir.nested(stmt):
                    self._scan(body, bound, looped, levels)
            level[0].update(name for name, _ in self._declared_here(stmt, nested=False))

    def visible(self, stmt) -> set:
        """The locals visible at the call ``stmt`` whose values the code after it may still read
        (a local the rest of its scope never reads may be set by an inlined callee)."""
        around = self.around[id(stmt)]
        return {name for names, _, _, _ in around for name in names if self._read_after(around, name)}

    def _read_after(self, around, name) -> bool:
        """Whether the statements after the call, in the scope of local ``name``, may read it: a
        loop inside its scope around the call counts as a read (the next round); so does more
        than ``MAX_AFTER`` statements to look at."""
        first = min(i for i, (names, _, _, _) in enumerate(around) if name in names)
        if any(looped for _, looped, _, _ in around[first + 1:]):
            return True
        budget = MAX_AFTER
        for _, _, stmts, at in around[first:]:
            for stmt in stmts[at + 1:]:
                budget -= 1
                if budget < 0 or name in self._reads(stmt):
                    return True
        return False

    def _reads(self, stmt) -> set:
        """Every name in the statement and what it holds (its expressions, nested statements)."""
        found = self._read.get(id(stmt))
        if found is None:
            found, todo, seen = set(), [stmt], set()
            while todo:
                item = todo.pop()
                if id(item) in seen:
                    continue
                seen.add(id(item))
                if isinstance(item, ast.Name):
                    found.add(item.id)
                if isinstance(item, ast.Call) and item in self.rs.message_fields:  # a log()'s {expressions}
                    todo.extend(node for _, node, _ in self.rs.message_fields[item])
                if isinstance(item, (list, tuple)):
                    todo.extend(item)
                elif dataclasses.is_dataclass(item) and not isinstance(item, (type, Position)):
                    todo.extend(getattr(item, f.name) for f in dataclasses.fields(item))
            self._read[id(stmt)] = found
        return found

    def _recursive(self) -> set:
        """The procedures from which a chain of calls leads back to themselves: those of a strongly
        connected part of the call graph with a cycle (Tarjan's algorithm, without recursion, in
        time linear in the number of calls)."""
        calls = {name: sorted(callees & self.calls.keys()) for name, callees in self.calls.items()}
        index, low, on_stack, stack, found = {}, {}, set(), [], set()
        for root in calls:
            if root in index:
                continue
            work = [(root, 0)]
            while work:
                name, i = work.pop()
                if i == 0:
                    index[name] = low[name] = len(index)
                    stack.append(name)
                    on_stack.add(name)
                if i < len(calls[name]):
                    work.append((name, i + 1))
                    callee = calls[name][i]
                    if callee not in index:
                        work.append((callee, 0))
                    elif callee in on_stack:
                        low[name] = min(low[name], index[callee])
                    continue
                if work:  # back in the caller: its low link takes this one's
                    caller = work[-1][0]
                    low[caller] = min(low[caller], low[name])
                if low[name] == index[name]:
                    part = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == name:
                            break
                    if len(part) > 1 or name in calls[name]:
                        found.update(part)
        return found

    def kinds(self, params, param_kinds, body) -> dict:
        """The locals a body declares itself (not those of the procedures it calls), each with its
        kind of value as the compiled procedure will sum it up."""
        found: dict = {}
        for name, kind in zip(params, param_kinds):
            found.setdefault(name, []).append(kind)
        for stmt in ir.walk(body):
            for name, kind in self._declared_here(stmt):
                found.setdefault(name, []).append(kind)
        return {name: _summary(kinds) for name, kinds in found.items()}

    def _declared_here(self, stmt, nested: bool = True):
        """``(name, kind of value)`` of each local the statement itself declares for what follows it
        and (``nested``) for its nested bodies only, as the compiler declares them."""
        types, symbols = self.rs.types, self.rs.symbols
        nodes = [stmt.node] if isinstance(stmt, ir.Exec) else \
            [stmt.then.node] if isinstance(stmt, ir.CallProc) and stmt.then is not None else []
        for node in nodes:
            if isinstance(node, ast.Let):
                yield node.name, component_content(types.get(node.value))
            elif isinstance(node, ast.Assign) and isinstance(node.target, ast.Name) \
                    and symbols.get(node.target, ("",))[0] != "var":
                yield symbols[node.target][1], component_content(types.get(node.value))
        if not nested:
            return
        if isinstance(stmt, (ir.For, ir.Simultaneous)):
            yield stmt.var, component_content(element_type(types.get(stmt.source, ANY)))
        elif isinstance(stmt, ir.Choose):
            for option in stmt.options:
                for name, domain in option.params:
                    yield name, component_content(element_type(types.get(domain, ANY)))

    def locals_of(self, name: str):
        """The locals of procedure ``name``'s body and of all it calls (their parameters included):
        name -> kind of value; None where a local's type is not known or a name holds different
        kinds in two of them (then it is not inlined)."""
        if name not in self._locals:
            self._locals[name] = None  # while being worked out
            kinds = self.kinds((), (), self.procedures[name].body)
            for callee in self.calls[name] - self.recursive:
                inner = self.locals_of(callee)
                if inner is None:
                    return None
                proc = self.procedures[callee]
                types = proc.param_types or [ANY] * len(proc.params)
                params = self.kinds(proc.params, [component_content(t) for t in types], [])
                if any(kinds.setdefault(k, v) != v for k, v in [*inner.items(), *params.items()]):
                    return None
            if "any" in kinds.values():
                return None
            self._locals[name] = kinds
        return self._locals[name]

    def copied(self, name: str) -> int:
        """How many statements inlining procedure ``name`` copies (with the calls it may inline)."""
        if name not in self._copied:
            body = self.procedures[name].body
            self._copied[name] = sum(1 for _ in ir.walk(body)) + sum(
                self.copied(s.proc) for s in ir.walk(body)
                if isinstance(s, ir.CallProc) and s.proc not in self.recursive)
        return self._copied[name]

    def inlined(self, stmt: ir.CallProc, sites: list, bodies: list, proc):
        """``(procedure, [(parameter, argument) to set])`` to compile in place of the call ``stmt``
        (a parameter the caller passes on under its own name needs no setting), or None for a call.

        ``sites``: per inlined call the code is being compiled into, the locals visible there that
        may be read after it (see :meth:`visible`); ``bodies``: the kinds of the locals of each
        procedure body it is being compiled into, outermost first (``bodies[-1]``: the body
        ``stmt`` is in); ``proc``: the compiled procedure of the frame."""
        name = stmt.proc
        if stmt.then is not None or name in self.recursive or len(sites) >= MAX_DEPTH:
            return None
        callee = self.procedures[name]
        if any(isinstance(s, ir.Return) for s in ir.walk(callee.body)):
            return None
        if self.sites.get(name, 0) > 1 and self.copied(name) > MAX_COPIED:
            return None
        kinds = self.locals_of(name)
        if kinds is None:
            return None
        kinds = dict(kinds)
        bindings = [(param, arg) for param, arg in zip(callee.params, stmt.args)
                    if not self._passed_on(param, arg, kinds)]
        params = self.kinds([p for p, _ in bindings], [component_content(self.rs.types.get(a)) for _, a in bindings], [])
        if "any" in params.values() or any(kinds.setdefault(k, v) != v for k, v in params.items()):
            return None
        visible = self.visible(stmt).union(*sites)
        if any(local in visible for local in kinds):
            return None
        for local, kind in kinds.items():
            if any(body.get(local, kind) != kind for body in bodies) or proc.kind(local) not in (kind, "absent"):
                return None
        copies = sum(1 for _ in ir.walk(callee.body))  # its own statements (an inlined callee's count at its call)
        if copies > self.budget:
            return None
        self.budget -= copies
        return callee, bindings

    def _passed_on(self, param: str, arg, kinds: dict) -> bool:
        """Whether the argument is the caller's local of the parameter's name, which the callee (and
        all it calls) never sets: then the callee may read the caller's local itself."""
        return (isinstance(arg, ast.Name) and arg.id == param and param not in kinds
                and self.rs.symbols.get(arg, ("",))[0] == "local")
