"""Stage 4b, second half: walk a schema-valid document, parse every expression, resolve names and check types.

The result is a :class:`dsl.ir.Ruleset`.  All errors found are collected; none stops the walk early
except a broken declaration that later parts depend on.
"""
from __future__ import annotations

from . import ast, ir
from .checker import ExprChecker, Scope, reads_only_printed, suggest
from .decisions import Decisions
from .display import DisplayChecks
from .declarations import Declarations, typed_signature
from .errors import COMMA_HINT, CheckError, ExpressionSyntaxError, ParameterError, RulebookError
from .parser import parse_expression, parse_statement
from .statements import RETURNED, Statements, _Context
from .types import ANY, BOOL, COMPONENT, INT, NAMED_TYPES, PLAYER, ZONE, Type
from .yaml_loader import Document

EVENTS = ("enter", "leave", "empty")
_TOO_LARGE = "a ruleset this large is beyond what rulebook loads: call procedures and definitions instead of " \
             "repeating rules"
MAX_EXPRESSIONS = 5_000  # expressions and statements in one ruleset (the largest shipped: about 350)
MAX_EXPRESSION_TEXT = 250_000  # characters of all of them together (the largest shipped: about 9,200)


class Resolver(Declarations, Statements, Decisions, DisplayChecks):
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
        self.parsed = 0  # expressions and statements parsed so far (at most MAX_EXPRESSIONS)
        self.parsed_text = 0  # their characters (at most MAX_EXPRESSION_TEXT)

    # ---- helpers -----------------------------------------------------------------------------
    def error(self, exc: RulebookError, path=()) -> None:
        exc.located(self.doc.position(path))
        self.errors.append(exc)

    def parse(self, path, statement=False):
        value = self._get(path)
        self.parsed += 1
        self.parsed_text += len(value) if isinstance(value, str) else 0
        if self.parsed > MAX_EXPRESSIONS:  # loading stays within seconds: a located error, and no more work
            raise CheckError(f"the rules hold more than {MAX_EXPRESSIONS:,} expressions and statements",
                             self.doc.position(path), _TOO_LARGE)
        if self.parsed_text > MAX_EXPRESSION_TEXT:  # parsing costs about 15 µs a character
            raise CheckError(f"the rules' expressions and statements are longer than {MAX_EXPRESSION_TEXT:,} "
                             "characters together", self.doc.position(path), _TOO_LARGE)
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
        self._display()
        self._bots()
        self._remaining_procedures()
        self._check_quiet_calls()
        self._check_chance_calls()
        self.checker.shadowing.declarations(self, self.checker.constants)
        return rs

    # ---- declarations ------------------------------------------------------------------------
    def _procedure_headers(self):
        for key in (self.data.get("procedures") or {}):
            name, typed = typed_signature(key)
            if name is None:
                self.error(CheckError(f"'{key}' is no procedure name",
                                      hint="name a procedure with letters, digits and _, e.g. 'refill' or "
                                           "'score_line(line)'"), ("procedures", key))
                continue
            declared = [self._param_type(written, key) for _, written in typed]
            params = [p for p, _ in typed]
            self.rs.procedures[name] = ir.Procedure(name, params, [], self.doc.key_position(("procedures", key)))
            self.proc_state[name] = {"key": key, "types": None, "declared": declared}

    def _param_type(self, written, key):
        """The type written after a parameter (``p: player``, ``c: card``: a kind of component), or None."""
        if written is None:
            return None
        if written in self.rs.kinds:
            return Type("component", written)
        if written in NAMED_TYPES or written == "zone":
            return NAMED_TYPES.get(written, ZONE)
        known = sorted(set(NAMED_TYPES) | {"zone"} | set(self.rs.kinds))
        self.error(CheckError(f"'{written}' is no type", hint=suggest(written, known) or
                              f"a parameter's type is one of {', '.join(known)}"), ("procedures", key))
        return None

    def _procedure_body(self, name, arg_types):
        state = self.proc_state[name]
        if state["types"] is not None:
            return state["types"]
        proc = self.rs.procedures[name]
        arg_types = [d if d is not None else a for d, a in zip(state["declared"], arg_types)]
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
            scope = Scope(None, {"owner": PLAYER}, builtin=True)
            if node.func != "empty":
                scope.declare("component", COMPONENT)
            when = self.expr(path + ("when",), scope, BOOL, "a trigger's condition") if "when" in spec else None
            body = self.block(path + ("effects",), scope, _Context(trigger=name))
            self.rs.triggers.append(ir.Trigger(name, node.func, zone, when, body, self.doc.position(path)))

    def _zone_conditions(self):
        for name, family in self.rs.zones.items():
            path = ("zones", name, "holds")
            if "holds" not in (self.data["zones"][name] or {}) or name in self.unknown_held_kinds:
                continue
            scope = Scope(None, {"component": COMPONENT}, builtin=True)
            if family.kind is not None:  # holds: card stands for component.kind == 'card'
                where = self.doc.text_position(path)
                family.holds = ast.Compare(where, "==", ast.Attr(where, ast.Name(where, "component"), "kind"),
                                           ast.Literal(where, family.kind))
                self.checker.check(family.holds, scope)
                continue
            node = self.expr(path, scope, BOOL, "a zone's condition")
            if node is None:
                continue
            if not reads_only_printed(node, "component", self.checker.symbols):
                self.error(CheckError("a zone's 'holds' condition may read only the printed attributes "
                                      "of 'component', parameters and constants",
                                      hint="marks, variables and zones change during play; check those "
                                           "in the options instead"), path)
                continue
            family.holds = node
        for name, family in self.rs.zones.items():
            if "knowledge" in (self.data["zones"][name] or {}):
                family.knowledge = self._knowledge(name, family)

    def _knowledge(self, name, family):
        """A zone's ``knowledge:``: a condition on ``component`` at ``position`` (from 0, bottom first)
        of the zone whose ``owner`` it is, reading only what every seat sees."""
        path = ("zones", name, "knowledge")
        if family.grid is not None:
            self.error(CheckError("a grid zone cannot declare 'knowledge' (its places are cells)"), path)
            return None
        scope = Scope(None, {"component": COMPONENT, "position": INT, "owner": PLAYER}, builtin=True)
        node = self.expr(path, scope, BOOL, "a zone's knowledge")
        if node is not None and not reads_only_public(node, self.checker.symbols, self.rs):
            self.error(CheckError("a zone's 'knowledge' may read only what every seat sees: the printed "
                                  "attributes of 'component', 'position', 'owner', parameters, constants and "
                                  "variables and player variables everyone sees",
                                  hint="record what the seats were told in variables everyone sees "
                                       "(e.g. a player variable with an entry per place)"), path)
            return None
        return node

    def _sides(self, spec, scope):
        """``cooperative: true`` (one shared result) or ``team:`` (seats that win together), and ``best``."""
        if spec.get("cooperative") and "team" in spec:
            self.error(CheckError("a game is either cooperative (everyone wins together) or played in teams"),
                       ("scoring", "team"))
        elif spec.get("cooperative"):
            self.rs.cooperative = True
            if self.rs.score is not None and _reads_player(self.rs.score):
                self.error(CheckError("in a cooperative game the score is one shared result, so it cannot "
                                      "depend on 'player'", hint="score what the table achieved together, "
                                      "e.g. sum(p.points for p in players)"), ("scoring", "score"))
        elif "team" in spec:
            self.rs.team = self.expr(("scoring", "team"), scope, INT, "a team")
        if "best" in spec:
            best = self.static_value(("scoring", "best"), "the best result")
            if isinstance(best, int) and not isinstance(best, bool):
                self.rs.best = best
            elif best is not None:
                self.error(CheckError("'best' is a whole number"), ("scoring", "best"))

    def _bots(self):
        """``bots: default:``, kept as written: the bot names and options are the bots' own, so the
        commands that use it check it (the schema has checked that it is text)."""
        spec = (self.data.get("bots") or {}).get("default")
        if spec is not None:
            self.rs.default_bot = (spec.strip(), self.doc.position(("bots", "default")))

    def _scoring(self):
        spec = self.data.get("scoring")
        if not spec:
            return
        scope = Scope(None, {"player": PLAYER}, builtin=True)
        self.rs.score = self.expr(("scoring", "score"), scope, INT, "a score")
        self.rs.tiebreaks = [self.expr(("scoring", "tiebreak", i), scope, INT, "a tie-break")
                             for i in range(len(spec.get("tiebreak") or []))]
        if "evaluation" in spec:
            self.rs.evaluation = self.expr(("scoring", "evaluation"), scope, INT, "an evaluation")
        self.rs.score_sum = spec.get("sum")
        self._sides(spec, scope)
        reveal = spec.get("reveal") or []
        if reveal == "all":
            reveal = list(self.rs.zones)
        for i, zone in enumerate(reveal):
            if zone not in self.rs.zones:
                self.error(CheckError(f"'reveal' names unknown zone '{zone}'", hint=suggest(zone, self.rs.zones)),
                           ("scoring", "reveal", i))
        self.rs.reveal = tuple(z for z in reveal if z in self.rs.zones)


def _reads_player(node) -> bool:
    """Whether an expression names the context's ``player`` (a shared result may not)."""
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, ast.Name) and item.id == "player" and not item.builtin:
            return True
        todo.extend(ast.children(item))
    return False


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
        for part in ("then", "otherwise", "body"):  # a CallProc's ``then`` is one statement, not a block
            block = getattr(stmt, part, None)
            if isinstance(block, list):
                pending += block
    return None


def reads_only_public(node, symbols, rs) -> bool:
    """Whether a checked expression reads nothing a seat may not see: constants, the printed
    attributes of the local ``component``, other locals, the sizes of zones, and the variables,
    player variables and zone contents every seat sees."""
    kind, name = symbols.get(node, ("", None))[:2]
    if isinstance(node, ast.Literal):
        return True
    if isinstance(node, ast.Name):
        return (kind in ("const", "local") or (kind == "var" and rs.vars[name].visibility == "all")
                or (kind == "zone" and rs.zones[name].visibility == "all"))
    if isinstance(node, ast.Attr):
        if kind == "attr":
            obj = node.obj
            return isinstance(obj, ast.Name) and obj.id == "component" and symbols.get(obj, ("",))[0] == "local"
        public = ((kind == "pvar" and rs.player_vars[name].visibility == "all") or kind == "pprop"
                  or (kind == "pzone" and rs.zones[name].visibility == "all"))
        return public and reads_only_public(node.obj, symbols, rs)
    if isinstance(node, ast.Call) and node.func in ("size", "empty"):
        return all(symbols.get(arg, ("",))[0] in ("zone", "pzone") or reads_only_public(arg, symbols, rs)
                   for arg in ast.children(node))
    if isinstance(node, (ast.Call, ast.Index, ast.Slice, ast.Compare, ast.BoolOp, ast.Not, ast.Neg, ast.BinOp,
                         ast.Cond, ast.ListLit)):
        return all(reads_only_public(child, symbols, rs) for child in ast.children(node))
    return False


def resolve(doc: Document, functions, effects, params=None, players=None) -> tuple:
    """Check a schema-valid document; returns (Ruleset, errors)."""
    resolver = Resolver(doc, functions, effects, params, players)
    ruleset = resolver.run()
    return ruleset, resolver.errors


__all__ = ["resolve", "Resolver", "ANY", "RETURNED"]
