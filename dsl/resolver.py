"""Stage 4b, second half: walk a schema-valid document, parse every expression, resolve names and check types.

The result is a :class:`dsl.ir.Ruleset`.  All errors found are collected; none stops the walk early
except a broken declaration that later parts depend on.
"""
from __future__ import annotations

import dataclasses
import string

from . import ast, ir
from .checker import ExprChecker, Scope, reads_only_printed, suggest
from .declarations import Declarations, split_signature
from .errors import COMMA_HINT, CheckError, ExpressionSyntaxError, ParameterError, RulebookError
from .parser import parse_expression, parse_statement
from .types import ANY, BOOL, COMPONENT, INT, PLAYER, Type, compatible, element_type, join
from .yaml_loader import Document

RETURNED = "$ret"  # the local that holds a procedure's returned value while it is stored

EVENTS = ("enter", "leave", "empty")


class _Context:
    """Where a statement stands: inside a loop, a trigger, a simultaneous block."""

    def __init__(self, loop=False, trigger=None, simultaneous=None):
        self.loop = loop
        self.trigger = trigger  # the name of the trigger (or "setup") the statement runs in
        self.simultaneous = simultaneous

    def inside_loop(self):
        return _Context(True, self.trigger, self.simultaneous)


class Resolver(Declarations):
    def __init__(self, doc: Document, functions, effects, params=None, players=None):
        self.doc = doc
        self.data = doc.data
        self.functions = functions
        self.effects = effects
        self.param_overrides = dict(params or {})
        self.players_override = players
        self.errors: list[RulebookError] = []
        self.proc_state: dict = {}
        self.quiet_calls: list = []  # procedure calls from setup and triggers
        self.statement_calls: set = set()  # ids of the calls that stand in simple statements
        self.procedure_stack: list = []  # the procedures whose bodies are being checked
        self.return_types: dict = {}  # procedure name -> the type of the values it returns

    # ---- helpers -----------------------------------------------------------------------------
    def error(self, exc: RulebookError, path=()) -> None:
        exc.located(self.doc.position(path))
        self.errors.append(exc)

    def parse(self, path, statement=False):
        value = self._get(path)
        try:
            if statement:
                return parse_statement(value, self.doc.text_position(path))
            return parse_expression(value, self.doc.text_position(path))
        except ExpressionSyntaxError as exc:
            if isinstance(value, str) and value.count("(") != value.count(")"):
                exc.hint = COMMA_HINT
            self.error(exc, path)
            return None

    def expr(self, path, scope: Scope, expected: Type | None = None, what="this expression"):
        node = self.parse(path)
        if node is None:
            return None
        try:
            if expected is None:
                self.checker.check(node, scope)
            else:
                self.checker.expect(node, scope, expected, what)
        except CheckError as exc:
            self.error(exc, path)
            return None
        return node

    def _get(self, path):
        value = self.data
        for key in path:
            value = value[key]
        return value

    # ---- the walk ----------------------------------------------------------------------------
    def run(self) -> ir.Ruleset:
        game = self.data["game"]
        players_spec = game["players"]
        if isinstance(players_spec, int):
            lo = hi = default = players_spec
        else:
            lo, hi = players_spec["min"], players_spec["max"]
            default = players_spec.get("default", lo)
        players = self.players_override if self.players_override is not None else default
        if not lo <= players <= hi:
            allowed = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
            raise ParameterError(f"{game['name']} is for {allowed}, not {players}",
                                 self.doc.position(("game", "players")),
                                 f"use --players {lo}" if lo == hi else f"use --players {lo}..{hi}")
        rs = ir.Ruleset(
            name=game["name"], file=self.doc.file, description=game.get("description", ""),
            min_players=lo, max_players=hi, players=players,
            player_names=list(game.get("player_names") or [f"P{i + 1}" for i in range(players)])[:players],
            params={}, param_specs=self.data.get("params", {}), kinds={}, zones={}, vars={},
            player_vars={}, defines={}, procedures={}, setup=[], flow=[], triggers=[], score=None,
            tiebreaks=[], evaluation=None, data=self.data)
        if len(rs.player_names) < players:
            rs.player_names += [f"P{i + 1}" for i in range(len(rs.player_names), players)]
        self.rs = rs
        self.checker = ExprChecker(rs, self.functions, self.effects)
        self._params()
        self._zones()
        self._components()
        self._zone_owners()
        self._variables()
        self._defines()
        self._procedure_headers()
        root = Scope()
        rs.setup = self.block(("setup",), root, _Context(trigger="setup")) if "setup" in self.data else []
        rs.flow = self.block(("flow",), root, _Context())
        self._triggers()
        self._zone_conditions()
        self._scoring()
        self._remaining_procedures()
        self._check_quiet_calls()
        self._check_chance_calls()
        return rs

    # ---- declarations ------------------------------------------------------------------------
    def _procedure_headers(self):
        for key in (self.data.get("procedures") or {}):
            name, params = split_signature(key)
            if self.effects.get(name) or self.functions.get(name):
                self.error(CheckError(f"'{name}' is a built-in; choose another name for the procedure"),
                           ("procedures", key))
                continue
            self.rs.procedures[name] = ir.Procedure(name, params, [], self.doc.key_position(("procedures", key)))
            self.proc_state[name] = {"key": key, "types": None}

    def _procedure_body(self, name, arg_types):
        state = self.proc_state[name]
        if state["types"] is not None:
            return state["types"]
        proc = self.rs.procedures[name]
        state["types"] = proc.param_types = tuple(arg_types)
        scope = Scope(None, dict(zip(proc.params, arg_types)))
        self.procedure_stack.append(name)
        try:
            proc.body = self.block(("procedures", state["key"]), scope, _Context())
        finally:
            self.procedure_stack.pop()
        state["checked"] = True
        return state["types"]

    def _remaining_procedures(self):
        for name, proc in self.rs.procedures.items():
            if self.proc_state[name]["types"] is None:
                self._procedure_body(name, [ANY] * len(proc.params))

    def _check_quiet_calls(self):
        """Setup and triggers run in the middle of things: what they call may not ask for decisions."""
        for name, path, where in self.quiet_calls:
            asking = _first_decision(self.rs, name, set())
            if asking is not None:
                self.error(CheckError(f"procedure {name} asks for a decision (at {asking}), which {where} "
                                      "cannot do", hint="move the decision into the flow"), path)

    def _triggers(self):
        for i, spec in enumerate(self.data.get("triggers") or []):
            path = ("triggers", i)
            name = spec.get("name", f"trigger {i + 1}")
            node = self.parse(path + ("on",))
            if node is None:
                continue
            if not (isinstance(node, ast.Call) and node.func in EVENTS and len(node.args) == 1
                    and isinstance(node.args[0], ast.Name)):
                self.error(CheckError("'on' names an event: enter(zone), leave(zone) or empty(zone)"),
                           path + ("on",))
                continue
            zone = node.args[0].id
            if zone not in self.rs.zones:
                self.error(CheckError(f"unknown zone '{zone}'", hint=suggest(zone, self.rs.zones)), path + ("on",))
                continue
            scope = Scope(None, {"owner": PLAYER})
            if node.func != "empty":
                scope.declare("component", COMPONENT)
            when = self.expr(path + ("when",), scope, BOOL, "a trigger's condition") if "when" in spec else None
            body = self.block(path + ("effects",), scope, _Context(trigger=name))
            self.rs.triggers.append(ir.Trigger(name, node.func, zone, when, body, self.doc.position(path)))

    def _zone_conditions(self):
        for name, family in self.rs.zones.items():
            path = ("zones", name, "holds")
            if "holds" not in (self.data["zones"][name] or {}):
                continue
            node = self.expr(path, Scope(None, {"component": COMPONENT}), BOOL, "a zone's condition")
            if node is None:
                continue
            if not reads_only_printed(node, "component", self.checker.symbols):
                self.error(CheckError("a zone's 'holds' condition may read only the printed attributes "
                                      "of 'component', parameters and constants",
                                      hint="marks, variables and zones change during play; check those "
                                           "in the options instead"), path)
                continue
            family.holds = node

    def _scoring(self):
        spec = self.data.get("scoring")
        if not spec:
            return
        scope = Scope(None, {"player": PLAYER})
        self.rs.score = self.expr(("scoring", "score"), scope, INT, "a score")
        self.rs.tiebreaks = [self.expr(("scoring", "tiebreak", i), scope, INT, "a tie-break")
                             for i in range(len(spec.get("tiebreak") or []))]
        if "evaluation" in spec:
            self.rs.evaluation = self.expr(("scoring", "evaluation"), scope, INT, "an evaluation")
        reveal = spec.get("reveal") or []
        if reveal == "all":
            reveal = list(self.rs.zones)
        for i, zone in enumerate(reveal):
            if zone not in self.rs.zones:
                self.error(CheckError(f"'reveal' names unknown zone '{zone}'", hint=suggest(zone, self.rs.zones)),
                           ("scoring", "reveal", i))
        self.rs.reveal = tuple(z for z in reveal if z in self.rs.zones)

    # ---- statements --------------------------------------------------------------------------
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
            self.error(CheckError(f"'{key}' takes 'name in collection'", hint="e.g. 'c in street'"), path + (key,))
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
                    and node.value.func in self.rs.procedures:
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

    def _check_chance_calls(self):
        """A call that draws from the random generator (``roll``) stands only in a simple statement:
        never in a condition, a choice's domain, a definition or a text, which are evaluated while
        legal actions are listed."""
        for call in {id(c): c for c in self.checker.chance_calls}.values():
            if id(call) not in self.statement_calls:
                self.errors.append(CheckError(
                    f"{call.func}() draws a random number, which only a statement may do", call.pos,
                    f"store it first with a statement, e.g. 'let r = {call.func}(...)', and use the local"))

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
                self.checker.types[target] = local
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
                raise CheckError(f"'{target.name}' is printed on the component and cannot change", node.pos,
                                 "declare it under marks to make it changeable")
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
        if name in self.rs.procedures:
            proc = self.rs.procedures[name]
            if call.kwargs or len(call.args) != len(proc.params):
                raise CheckError(f"procedure {name} takes {len(proc.params)} argument(s)", call.pos)
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
            if self.functions.get(name) or name in self.rs.defines:
                raise CheckError(f"'{name}' computes a value but changes nothing", call.pos,
                                 "use it inside an expression, or call an effect")
            known = set(self.effects.names()) | set(self.rs.procedures)
            raise CheckError(f"unknown effect or procedure '{name}'", call.pos,
                             suggest(name, known) or "see docs/language.md for the effects")
        self.checker.symbols[call] = ("effect", name)
        self.checker.check_arguments(effect, call, scope)
        if ctx.simultaneous and name not in ("move", "draw", "log"):
            raise CheckError(f"'{name}' is not allowed in a simultaneous block", call.pos)
        if ctx.simultaneous and call.args[1:2]:
            self._check_private_destination(call, scope)
        return ir.Exec(pos, ast.CallStmt(call.pos, call))

    def _check_private_destination(self, call, scope):
        dest = call.args[1]
        symbol = self.checker.symbols.get(dest)
        if symbol and symbol[0] in ("zone", "pzone"):
            family = self.rs.zones[symbol[1]]
            if family.visibility not in ("owner", "none"):
                raise CheckError(f"a simultaneous block may only move components into zones the other "
                                 f"players cannot see; '{family.name}' is visible to them", dest.pos,
                                 "move into a zone with visibility: owner, and reveal after the block")

    def _choose(self, path, scope, ctx, pos):
        if ctx.trigger:
            where = "setup" if ctx.trigger == "setup" else "a trigger"
            self.error(CheckError(f"{where} cannot ask for decisions",
                                  hint="move the decision into the flow"), path)
            return None
        spec = self._get(path)["choose"]
        cpath = path + ("choose",)
        if "player" in spec:
            player = self.expr(cpath + ("player",), scope, PLAYER, "the deciding player")
        else:
            player = ast.Name(self.doc.position(cpath), "active")
            self.checker.check(player, scope)
        if ctx.simultaneous and (not isinstance(player, ast.Name) or player.id != ctx.simultaneous):
            self.error(CheckError(f"inside a simultaneous block the player '{ctx.simultaneous}' decides",
                                  hint=f"write 'player: {ctx.simultaneous}'"), cpath)
        options = []
        for name, option in spec["options"].items():
            opath = cpath + ("options", name)
            if isinstance(option, str):
                if option not in (self.data.get("actions") or {}):
                    self.error(CheckError(f"unknown action '{option}'",
                                          hint=suggest(option, self.data.get("actions") or {})), opath)
                    continue
                opath = ("actions", option)
                option = self.data["actions"][option]
            options.append(self._option(name, option or {}, opath, scope, ctx))
        if_none = spec.get("if_none", "error")
        if "optional" in spec:
            if spec["optional"] in spec["options"]:
                self.error(CheckError(f"'{spec['optional']}' is already an option",
                                      hint="the optional option is added for you"), cpath + ("optional",))
            options.append(ir.Option(spec["optional"], None, [], None, [],
                                     self.doc.position(cpath + ("optional",)), decline=True))
            if_none = "skip"
        prompt = tuple((literal, node) for literal, _, node in self._interpolated(cpath + ("prompt",), scope)) \
            if spec.get("prompt") else ()
        return ir.Choose(pos, player, spec.get("prompt"), options, if_none, prompt)

    def _interpolated(self, path, scope, params=()) -> tuple:
        """A text that shows values, ``"{name} has {active.coins} coins"``: its literal parts and the
        checked expression of each ``{...}`` field, in order (a field naming one of ``params`` is
        left to the option: its part has no expression)."""
        text = self._get(path)
        base = self.doc.text_position(path)
        parts, offset = [], 0
        try:
            fields = list(string.Formatter().parse(text))
        except ValueError as exc:
            self.error(CheckError(f"the text has a stray brace: {exc}",
                                  hint="write {{ and }} for braces that show as such"), path)
            return ()
        for literal, field, spec, conversion in fields:
            offset += len(literal)
            node = None
            if field is not None:
                where = base.at_offset(offset + 1)
                offset += len(field) + 2 + (len(spec) + 1 if spec else 0) + (2 if conversion else 0)
                if spec or conversion or not field.strip():  # a format spec could make a huge text
                    self.error(CheckError(f"the text's field '{{{field}}}' should be a name or an expression, "
                                          "without a format", where, "e.g. {active.name} or {size(hand)}"))
                    continue
                if field in params:
                    parts.append((literal, field, None))
                    continue
                try:
                    node = parse_expression(field, where)
                    self.checker.check(node, scope)
                except RulebookError as exc:
                    if params and suggest(field, params):
                        exc.hint = f"{suggest(field, params)} (a parameter of this option)"
                    self.error(exc)
                    continue
            parts.append((literal, field, node))
        return tuple(parts)

    def _option(self, name, spec, path, scope, ctx):
        outer = scope
        inner = Scope(scope)
        params = []
        for pname in (spec.get("params") or {}):
            ppath = path + ("params", pname)
            node = self.parse(ppath)
            if node is None:
                continue
            try:
                elem = self.checker.collection(node, inner, f"the choices for '{pname}'")
            except CheckError as exc:
                self.error(exc, ppath)
                continue
            inner.declare(pname, elem)
            params.append((pname, node))
        require = self.expr(path + ("require",), inner, BOOL, "a 'require' condition") if "require" in spec else None
        text = spec.get("text")
        text_fields = self._option_text_fields(text, dict(params), path + ("text",), outer) if text else ()
        body = self.block(path + ("effects",), inner, ctx) if "effects" in spec else []
        stages = self._stages(spec, params, path)
        position = self.doc.key_position(path)
        if stages:
            self.rs.stage_orders[position] = stages
        return ir.Option(name, text, params, require, body, position,
                         public=bool(spec.get("public", False)), stages=stages, text_fields=text_fields)

    def _option_text_fields(self, text, params, path, scope) -> tuple:
        """The ``{fields}`` of an option's text that are no parameters: expressions over the names
        around the decision (procedure parameters, locals, variables), shown as they are when the
        decision is asked."""
        return tuple((field, node) for _, field, node in self._interpolated(path, scope, params)
                     if node is not None)

    def _stages(self, spec, params, path) -> tuple:
        """The order in which a staged decision asks an option's parameters (``stages:``): named
        parameters first, in the order given, then the others in their declared order."""
        named = spec.get("stages") or []
        declared = [pname for pname, _ in params]
        for pname in named:
            if pname not in declared:
                self.error(CheckError(f"'stages' names '{pname}', which is no parameter of this option",
                                      hint=suggest(pname, dict(params))), path + ("stages",))
                return ()
        if len(set(named)) != len(named):
            self.error(CheckError("'stages' names a parameter twice", hint="name each parameter once"),
                       path + ("stages",))
            return ()
        order = tuple(named) + tuple(p for p in declared if p not in named)
        return order if order != tuple(declared) else ()


def _first_decision(rs, name, seen):
    """The position of the first decision a procedure (or what it calls) asks for, or None."""
    if name in seen:
        return None
    seen.add(name)
    pending = list(rs.procedures[name].body)
    while pending:
        stmt = pending.pop(0)
        if isinstance(stmt, (ir.Choose, ir.Simultaneous)):
            return stmt.position
        if isinstance(stmt, ir.CallProc):
            found = _first_decision(rs, stmt.proc, seen)
            if found is not None:
                return found
        pending += getattr(stmt, "then", []) + getattr(stmt, "otherwise", []) + getattr(stmt, "body", [])
    return None


def resolve(doc: Document, functions, effects, params=None, players=None) -> tuple:
    """Check a schema-valid document; returns (Ruleset, errors)."""
    resolver = Resolver(doc, functions, effects, params, players)
    ruleset = resolver.run()
    return ruleset, resolver.errors


__all__ = ["resolve", "Resolver", "ANY"]


def _walk(node):
    """A node and every node below it."""
    yield node
    for child in ast.children(node):
        yield from _walk(child)
