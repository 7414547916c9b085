"""Stage 4b, statements: the checks of a ruleset's statements (blocks, loops, assignments, calls of
effects and procedures) that :class:`dsl.resolver.Resolver` walks through."""
from __future__ import annotations

import dataclasses

from . import ast, ir
from .checker import Scope, suggest
from .errors import CheckError
from .messages import message_fields
from .types import ANY, BOOL, INT, PLAYER, Type, compatible, element_type, join, kind_of_items

RETURNED = "$ret"  # the local that holds a procedure's returned value while it is stored

class _Context:
    """Where a statement stands: inside a loop, a trigger, a simultaneous block."""

    def __init__(self, loop=False, trigger=None, simultaneous=None):
        self.loop = loop
        self.trigger = trigger  # the name of the trigger (or "setup") the statement runs in
        self.simultaneous = simultaneous

    def inside_loop(self):
        return _Context(True, self.trigger, self.simultaneous)


class Statements:
    """Mixin of :class:`dsl.resolver.Resolver`: needs ``checker``, ``rs``, ``doc``, ``error``,
    ``parse``, ``expr``, ``_get``, ``_choose`` and the procedure bookkeeping."""

    def block(self, path, scope: Scope, ctx: _Context) -> list:
        items = self._get(path) or []
        inner = Scope(scope)
        out = []
        for i in range(len(items)):
            stmt = self.statement(path + (i,), inner, ctx)
            if stmt is not None:
                out.append(stmt)
        return out

    def statement(self, path, scope, ctx):
        value = self._get(path)
        pos = self.doc.position(path)
        if isinstance(value, str):
            return self._simple(path, scope, ctx, pos)
        if "if" in value:
            cond = self.expr(path + ("if",), scope, BOOL, "an 'if' condition")
            then = self.block(path + ("then",), scope, ctx)
            otherwise = self.block(path + ("else",), scope, ctx) if "else" in value else []
            return ir.If(pos, cond, then, otherwise)
        if "while" in value:
            cond = self.expr(path + ("while",), scope, BOOL, "a 'while' condition")
            return ir.While(pos, cond, self.block(path + ("do",), scope, ctx.inside_loop()), value.get("limit"))
        if "repeat" in value:
            count = self.expr(path + ("repeat",), scope, INT, "a repeat count")
            return ir.Repeat(pos, count, self.block(path + ("do",), scope, ctx.inside_loop()))
        if "for" in value or "simultaneous" in value:
            return self._loop(path, value, scope, ctx, pos)
        if "choose" in value:
            return self._choose(path, scope, ctx, pos)
        if "do" in value:
            return ir.Block(pos, value["step"], self.block(path + ("do",), scope, ctx))
        self.error(CheckError("unknown kind of statement"), path)
        return None

    def _loop(self, path, value, scope, ctx, pos):
        key = "for" if "for" in value else "simultaneous"
        node = self.parse(path + (key,))
        if node is None:
            return None
        if not (isinstance(node, ast.Compare) and node.op == "in" and isinstance(node.left, ast.Name)):
            self.error(CheckError(f"'{key}' takes 'name in collection'", hint="e.g. 'c in hand'"), path + (key,))
            return None
        try:
            elem = self.checker.collection(node.right, scope, f"what '{key}' walks through")
        except CheckError as exc:
            self.error(exc, path + (key,))
            return None
        if key == "simultaneous":
            if ctx.trigger:
                self.error(CheckError("a trigger cannot ask for decisions"), path)
            if elem not in (PLAYER, ANY):
                self.error(CheckError("'simultaneous' walks through players"), path + (key,))
            inner = Scope(scope, {node.left.id: PLAYER})
            body = self.block(path + ("do",), inner, _Context(False, ctx.trigger, node.left.id))
            return ir.Simultaneous(pos, node.left.id, node.right, body)
        inner = Scope(scope, {node.left.id: elem})
        return ir.For(pos, node.left.id, node.right, self.block(path + ("do",), inner, ctx.inside_loop()))

    def _simple(self, path, scope, ctx, pos):
        node = self.parse(path, statement=True)
        if node is None:
            return None
        self.statement_calls.update(id(n) for n in _walk(node) if isinstance(n, ast.Call))
        try:
            if isinstance(node, (ast.Break, ast.Continue)):
                if not ctx.loop:
                    raise CheckError(f"'{'break' if isinstance(node, ast.Break) else 'continue'}' "
                                     "outside a loop", node.pos, "use it inside while, for or repeat")
                return ir.Break(pos) if isinstance(node, ast.Break) else ir.Continue(pos)
            if isinstance(node, ast.Return):
                return self._return(node, scope, pos)
            if isinstance(node, (ast.Let, ast.Assign)) and isinstance(node.value, ast.Call) \
                    and node.value.func in self.rs.procedures and not node.value.builtin:
                return self._call_for_value(node, path, scope, ctx, pos)
            if isinstance(node, ast.Let):
                self._let(node, scope)
                return ir.Exec(pos, node)
            if isinstance(node, ast.Assign):
                self._assignment(node, scope, ctx)
                return ir.Exec(pos, node)
            return self._call_statement(node.call, path, scope, ctx, pos)
        except CheckError as exc:
            self.error(exc, path)
            return None

    def _return(self, node, scope, pos):
        if not self.procedure_stack:
            raise CheckError("'return' outside a procedure", node.pos,
                             "the flow, setup and triggers end by themselves; use end_game() to end the game")
        name = self.procedure_stack[-1]
        if node.value is not None:
            t = self.checker.check(node.value, scope)
            known = self.return_types.get(name)
            if known is not None and not (compatible(known, t) or compatible(t, known)):
                raise CheckError(f"procedure {name} returns a {known} elsewhere, here a {t}", node.pos)
            self.return_types[name] = t if known is None else join(known, t)
        return ir.Return(pos, node.value)

    def _call_for_value(self, node, path, scope, ctx, pos):
        """``let x = proc(args)`` or ``x = proc(args)``: call the procedure, then store what it returns
        (the statement is checked and run with the returned value as the local ``$ret``)."""
        call = node.value
        proc_call = self._call_statement(call, path, scope, ctx, pos)
        name = call.func
        returned = self.return_types.get(name)
        if returned is None and self.proc_state[name].get("checked"):
            raise CheckError(f"procedure {name} returns no value", call.pos,
                             f"end it with 'return VALUE', or call it as a statement: '{name}(...)'")
        scope.declare(RETURNED, returned or ANY)
        stored = dataclasses.replace(node, value=ast.Name(call.pos, RETURNED))
        if isinstance(stored, ast.Let):
            self._let(stored, scope)
        else:
            self._assignment(stored, scope, ctx)
        proc_call.then = ir.Exec(pos, stored)
        return proc_call

    def _let(self, node, scope):
        if scope.lookup(node.name) is not None and node.name in scope.names:
            raise CheckError(f"'{node.name}' is already defined here", node.pos, "assign it with '='")
        if node.name in self.rs.vars or node.name in self.rs.params:
            raise CheckError(f"'{node.name}' is a variable or parameter of the ruleset", node.pos,
                             "choose another name for the local")
        scope.declare(node.name, self.checker.check(node.value, scope))

    def _assignment(self, node, scope, ctx):
        target = node.target
        value_t = self.checker.check(node.value, scope)
        if isinstance(target, ast.Name):
            local = scope.lookup(target.id)
            if local is not None:
                self.checker.record(target, local)
                self.checker.symbols[target] = ("local", target.id)
                target_t = local
            elif target.id in self.rs.vars:
                if ctx.simultaneous:
                    raise CheckError("a simultaneous block may not change shared variables", node.pos,
                                     "use a variable of each player with visibility: owner")
                self.checker.types[target] = target_t = self.rs.vars[target.id].type
                self.checker.symbols[target] = ("var", target.id)
            elif target.id in self.rs.params:
                raise CheckError(f"'{target.id}' is a parameter and cannot change during a game", node.pos)
            else:
                known = scope.all_names() | set(self.rs.vars)
                raise CheckError(f"unknown variable '{target.id}'", node.pos,
                                 suggest(target.id, known) or f"declare it first: 'let {target.id} = ...'")
        elif isinstance(target, ast.Attr):
            target_t = self.checker.check(target, scope)
            kind = self.checker.symbols.get(target, ("?",))[0]
            if kind == "attr":
                raise self._printed(target, node.pos)
            if kind not in ("mark", "pvar"):
                raise CheckError(f"'.{target.name}' cannot be assigned", node.pos)
            if ctx.simultaneous and kind == "pvar":
                var = self.rs.player_vars[target.name]
                if var.visibility == "all":
                    raise CheckError("a simultaneous block may only change variables its player alone sees",
                                     node.pos, f"give '{target.name}' visibility: owner")
            if ctx.simultaneous and kind == "mark":
                raise CheckError("a simultaneous block may not change marks everyone sees", node.pos)
        else:
            raise CheckError("only variables, marks and player variables can be assigned", node.pos)
        if node.op == "=":
            if not compatible(target_t, value_t):
                raise CheckError(f"cannot assign a {value_t} to something of type {target_t}", node.pos)
            if isinstance(target, ast.Name) and scope.lookup(target.id) is not None:
                scope.refine(target.id, value_t)
            else:
                self._refine_variable(target, value_t)
        elif target_t.name == "list" and node.op == "+=":
            if element_type(value_t) is None:
                raise CheckError(f"'+=' on a list needs a list, not a {value_t}", node.pos)
            if isinstance(target, ast.Name) and scope.lookup(target.id) is not None:
                scope.refine(target.id, Type("list", element_type(value_t)))
            else:
                self._refine_variable(target, Type("list", element_type(value_t)))
        elif not (compatible(INT, target_t) and compatible(INT, value_t)):
            raise CheckError(f"'{node.op}' needs numbers", node.pos)

    def _printed(self, target, pos) -> CheckError:
        """The error of changing a printed attribute, naming the kinds considered."""
        name, kind_name = target.name, getattr(self.checker.types.get(target.obj), "arg", None)
        kinds = [kind_name] if kind_name in self.rs.kinds else list(self.rs.kinds)
        printed = [k for k in kinds if name in self.rs.kinds[k].attributes]
        marked = [k for k in kinds if name in self.rs.kinds[k].marks]
        if marked:
            return CheckError(f"'{name}' is printed on {', '.join(printed)} but a mark of {', '.join(marked)}, "
                              "and this component may be of any of these kinds", pos,
                              f"say which kind it is where it is declared: a procedure's parameter "
                              f"'c: {marked[0]}', or the zone it comes from with 'holds: {marked[0]}'")
        return CheckError(f"'{name}' is printed on {', '.join(printed) or 'the component'} and cannot change",
                          pos, "declare it under marks to make it changeable")

    def _refine_variable(self, target, value_t) -> None:
        """A variable declared 'list' learns what its lists hold from what is assigned to it (so a
        view can hide the components it holds)."""
        kind = self.checker.symbols.get(target, ("?", None))
        table = {"var": self.rs.vars, "pvar": self.rs.player_vars}.get(kind[0])
        if table is not None:
            var = table[kind[1]]
            var.type = join(var.type, value_t)

    def _call_statement(self, call, path, scope, ctx, pos):
        name = call.func
        if name in self.rs.procedures and not call.builtin:  # the ruleset's own name first
            proc = self.rs.procedures[name]
            if call.kwargs or len(call.args) != len(proc.params):
                hidden = self.effects.get(name) or self.functions.get(name)
                raise CheckError(f"procedure {name} takes {len(proc.params)} argument(s)", call.pos,
                                 f"the procedure of this ruleset hides the built-in {hidden.kind} "
                                 f"{hidden.signature()}: for that, write builtin.{name}(...)" if hidden else None)
            arg_types = [self.checker.check(a, scope) for a in call.args]
            if ctx.simultaneous:
                raise CheckError("procedure calls are not allowed in a simultaneous block", call.pos,
                                 "write the statements inline")
            if ctx.trigger:
                self.quiet_calls.append((name, path, "setup" if ctx.trigger == "setup" else "a trigger"))
            known = self._procedure_body(name, arg_types)
            for want, got, arg in zip(known, arg_types, call.args):
                if not (compatible(want, got) or compatible(got, want)):
                    raise CheckError(f"procedure {name} is called with a {want} elsewhere, here a {got}",
                                     arg.pos)
            return ir.CallProc(pos, name, list(call.args))
        effect = self.effects.get(name)
        if effect is None:
            if self.functions.get(name) or (name in self.rs.defines and not call.builtin):
                raise CheckError(f"'{name}' computes a value but changes nothing", call.pos,
                                 "use it inside an expression, or call an effect")
            if call.builtin:
                raise CheckError(f"there is no built-in effect '{name}'", call.pos,
                                 suggest(name, self.effects.names()) or "see docs/language.md for the effects")
            known = set(self.effects.names()) | set(self.rs.procedures)
            raise CheckError(f"unknown effect or procedure '{name}'", call.pos,
                             suggest(name, known) or "see docs/language.md for the effects")
        self.checker.symbols[call] = ("effect", name)
        self._check_destination_kind(effect, call, self.checker.check_arguments(effect, call, scope))
        if name == "log":
            fields = message_fields(self.checker, call, scope)
            if fields:
                self.rs.message_fields[call] = fields
        if ctx.simultaneous and name not in ("move", "draw", "log", "show"):
            raise CheckError(f"'{name}' is not allowed in a simultaneous block", call.pos)
        if ctx.simultaneous and name == "show":
            to = call.args[1] if len(call.args) > 1 else dict(call.kwargs).get("to")
            if not (isinstance(to, ast.Name) and to.id == ctx.simultaneous):
                raise CheckError("a simultaneous block may show components only to its own player", call.pos,
                                 f"write show(..., to={ctx.simultaneous}), and show the others after the block")
            return ir.Exec(pos, ast.CallStmt(call.pos, call))
        if ctx.simultaneous and call.args[1:2]:
            self._check_private_destination(call, scope)
        return ir.Exec(pos, ast.CallStmt(call.pos, call))

    def _check_destination_kind(self, effect, call, types) -> None:
        """A move into a zone that holds one kind (``holds: card``) of what the static types tell is
        another kind: a located error."""
        names = [param.name for param in effect.params]
        if "to" not in names or types[names.index("to")] is None:
            return
        wanted = types[names.index("to")].arg if types[names.index("to")].name == "zone" else None
        if wanted is None:
            return
        for param, type_ in zip(effect.params, types):
            moved = kind_of_items(type_) if type_ is not None and param.name != "to" else None
            if moved is not None and moved != wanted:
                raise CheckError(f"{call.func}() puts a '{moved}' into a zone that holds only '{wanted}'",
                                 call.pos, f"move components of kind '{wanted}' there, or change the zone's "
                                 "'holds:'")

    def _check_private_destination(self, call, scope):
        dest = call.args[1]
        symbol = self.checker.symbols.get(dest)
        if symbol and symbol[0] in ("zone", "pzone"):
            family = self.rs.zones[symbol[1]]
            if family.visibility not in ("owner", "none"):
                raise CheckError(f"a simultaneous block may only move components into zones the other "
                                 f"players cannot see; '{family.name}' is visible to them", dest.pos,
                                 "move into a zone with visibility: owner, and reveal after the block")

    def _check_chance_calls(self):
        """A call that draws from the random generator (``roll``) stands only in a simple statement:
        never in a condition, a choice's domain, a definition or a text, which are evaluated while
        legal actions are listed."""
        for call in {id(c): c for c in self.checker.chance_calls}.values():
            if id(call) not in self.statement_calls:
                written = f"builtin.{call.func}" if call.builtin else call.func
                self.errors.append(CheckError(
                    f"{written}() draws a random number, which only a statement may do", call.pos,
                    f"store it first with a statement, e.g. 'let r = {written}(...)', and use the local"))


def _walk(node):
    """A node and every node below it."""
    yield node
    for child in ast.children(node):
        yield from _walk(child)
