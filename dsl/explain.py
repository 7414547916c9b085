"""The effective rules of a checked ruleset as readable text (``rulebook explain``).

Generated from the data, so a designer can read what a file — or a variant merged with its base —
really says.  Every construct of the language has a sentence here; ``tests/test_explain.py`` checks
that no statement of any shipped ruleset falls through.
"""
from __future__ import annotations

from pathlib import Path

from . import ast, ir
from .unparse import literal, unparse

EVENTS = {"enter": "something enters", "leave": "something leaves", "empty": "the last component leaves"}
VISIBILITY = {"all": "open to everyone", "owner": "seen by its owner only",
              "others": "seen by everyone but its owner", "none": "seen by no one",
              "count": "face down (only the count is known)", "top": "only the top component is seen"}


class Explainer:
    def __init__(self, ruleset: ir.Ruleset):
        self.rs = ruleset
        self.lines: list = []

    def say(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)

    def text(self) -> str:
        rs = self.rs
        players = str(rs.min_players) if rs.min_players == rs.max_players else f"{rs.min_players}–{rs.max_players}"
        self.say(0, f"{rs.name} — {players} players (this explanation: {rs.players})")
        if rs.description:
            self.say(0, rs.description.strip())
        self._params()
        self._components()
        self._zones()
        self._variables()
        self._defines()
        self._section("Setup", rs.setup)
        self._section("Flow of play", rs.flow)
        for proc in rs.procedures.values():
            params = f" with {', '.join(proc.params)}" if proc.params else ""
            self._section(f"Procedure {proc.name}{params}", proc.body)
        self._triggers()
        self._scoring()
        self._hidden_builtins()
        return "\n".join(self.lines) + "\n"

    def _hidden_builtins(self):
        """The ruleset's names that hide built-ins: in the text above they mean the ruleset's own;
        ``builtin.NAME`` is the built-in."""
        if self.rs.notes:
            self.say(0, "\nNames of this ruleset that hide built-ins (builtin.NAME is the built-in)")
            for note in self.rs.notes:
                self.say(1, f"- {note.message}")

    # ---- declarations ------------------------------------------------------------------------
    def _params(self):
        if not self.rs.params:
            return
        self.say(0, "\nParameters")
        for name, value in self.rs.params.items():
            spec = self.rs.param_specs.get(name, {})
            bounds = ""
            if "min" in spec or "max" in spec:
                bounds = f", from {spec.get('min', '…')} to {spec.get('max', '…')}"
            desc = f": {' '.join(str(spec['description']).split())}" if spec.get("description") else ""
            self.say(1, f"- {name} = {literal(value)} (default {literal(spec.get('default'))}{bounds}){desc}")

    def _components(self):
        self.say(0, "\nComponents")
        for kind in self.rs.kinds.values():
            total = sum(row["count"] * (self.rs.players if row["each_player"] else 1) for row in kind.rows)
            attrs = ", ".join(f"{a} ({'one of ' + '/'.join(kind.enums[a]) if a in kind.enums else t})"
                              for a, t in kind.attributes.items())
            self.say(1, f"- {total} × {kind.name}, named \"{kind.template}\"; printed: {attrs or 'nothing'}")
            if kind.marks:
                marks = ", ".join(f"{m} (starts {literal(v)})" for m, v in kind.marks.items())
                self.say(2, f"changeable marks: {marks}")
            for row in kind.rows:
                values = ", ".join(f"{k} {v}" for k, v in row["values"].items())
                each = " for each player" if row["each_player"] else ""
                self.say(2, f"{row['count']} × [{values}]{each}, starting in {row['zone']}")

    def _zones(self):
        self.say(0, "\nZones")
        for zone in self.rs.zones.values():
            per = {None: "one, shared", "player": "one per player"}.get(zone.per, f"one per {zone.per}")
            grid = f", a grid of {zone.grid[0]}×{zone.grid[1]} cells" if zone.grid else ""
            self.say(1, f"- {zone.name}: {per}{grid}, {VISIBILITY[zone.visibility]}")

    def _variables(self):
        for title, variables in (("Variables", self.rs.vars), ("Variables of each player", self.rs.player_vars)):
            if variables:
                self.say(0, f"\n{title}")
                for var in variables.values():
                    hidden = "" if var.visibility == "all" else f" (seen by: {var.visibility})"
                    self.say(1, f"- {var.name}: {var.type}, starts as {literal(var.initial)}{hidden}")

    def _defines(self):
        if self.rs.defines:
            self.say(0, "\nDefinitions")
            for define in self.rs.defines.values():
                self.say(1, f"- {define.name}({', '.join(define.params)}) means {unparse(define.body)}")

    def _triggers(self):
        if not self.rs.triggers:
            return
        self.say(0, "\nTriggers (they run at once, in the middle of whatever moves the components)")
        for trigger in self.rs.triggers:
            when = f", if {unparse(trigger.when)}" if trigger.when is not None else ""
            self.say(1, f"- {trigger.name}: whenever {EVENTS[trigger.event]} zone {trigger.zone}{when}:")
            self.block(trigger.body, 2)

    def _scoring(self):
        self.say(0, "\nScoring and winning")
        if self.rs.score is None:
            self.say(1, "No score is defined: every player scores 0.")
            return
        if self.rs.cooperative:
            best = f" (the best possible: {self.rs.best})" if self.rs.best is not None else ""
            self.say(1, f"Cooperative: the table shares one score, {unparse(self.rs.score)}{best}; "
                        "everyone wins or loses together.")
        else:
            self.say(1, f"A player's score is {unparse(self.rs.score)}.")
        for i, tiebreak in enumerate(self.rs.tiebreaks, 1):
            self.say(1, f"Tie-break {i}: the higher {unparse(tiebreak)}.")
        if self.rs.team is not None:
            self.say(1, f"Teams: a player's team is {unparse(self.rs.team)}; a team adds up its members' "
                        "scores (and tie-breaks), and the best team wins together.")
        elif not self.rs.cooperative:
            self.say(1, "The highest score wins; players equal in everything share the win.")
        if self.rs.evaluation is not None:
            self.say(1, f"Bots judge a position by {unparse(self.rs.evaluation)}.")

    # ---- statements --------------------------------------------------------------------------
    def _section(self, title, stmts):
        self.say(0, f"\n{title}")
        self.block(stmts, 1)

    def block(self, stmts, depth):
        if not stmts:
            self.say(depth, "(nothing)")
        for stmt in stmts:
            getattr(self, "_" + type(stmt).__name__.lower())(stmt, depth)

    def _exec(self, stmt, depth):
        node = stmt.node
        if isinstance(node, ast.Let):
            self.say(depth, f"Let {node.name} be {unparse(node.value)}.")
        elif isinstance(node, ast.Assign):
            verb = {"=": "Set", "+=": "Add to", "-=": "Subtract from", "*=": "Multiply"}[node.op]
            joiner = {"=": " to ", "+=": ": ", "-=": ": ", "*=": " by "}[node.op]
            self.say(depth, f"{verb} {unparse(node.target)}{joiner}{unparse(node.value)}.")
        else:
            self.say(depth, f"{unparse(node)}.")

    def _callproc(self, stmt, depth):
        args = ", ".join(unparse(a) for a in stmt.args)
        if stmt.then is None:
            self.say(depth, f"Do {stmt.proc}({args}).")
            return
        node = stmt.then.node
        target = f"let {node.name}" if isinstance(node, ast.Let) else f"{unparse(node.target)} {node.op}"
        self.say(depth, f"Do {stmt.proc}({args}); {target} what it returns.")

    def _return(self, stmt, depth):
        self.say(depth, "Return." if stmt.value is None else f"Return {unparse(stmt.value)}.")

    def _if(self, stmt, depth):
        self.say(depth, f"If {unparse(stmt.cond)}:")
        self.block(stmt.then, depth + 1)
        if stmt.otherwise:
            self.say(depth, "Otherwise:")
            self.block(stmt.otherwise, depth + 1)

    def _while(self, stmt, depth):
        limit = f" (at most {stmt.limit} times)" if stmt.limit else ""
        self.say(depth, f"As long as {unparse(stmt.cond)}{limit}, repeat:")
        self.block(stmt.body, depth + 1)

    def _for(self, stmt, depth):
        self.say(depth, f"For each {stmt.var} in {unparse(stmt.source)}:")
        self.block(stmt.body, depth + 1)

    def _repeat(self, stmt, depth):
        self.say(depth, f"Repeat {unparse(stmt.count)} times:")
        self.block(stmt.body, depth + 1)

    def _simultaneous(self, stmt, depth):
        self.say(depth, f"Each {stmt.var} in {unparse(stmt.source)} decides in secret "
                        "(no one sees the others' choices until they are revealed):")
        self.block(stmt.body, depth + 1)

    def _block(self, stmt, depth):
        self.say(depth, f"Step '{stmt.name}':")
        self.block(stmt.body, depth + 1)

    def _break(self, stmt, depth):
        self.say(depth, "Leave the loop.")

    def _continue(self, stmt, depth):
        self.say(depth, "Go on with the next pass of the loop.")

    def _choose(self, stmt, depth):
        prompt = f" — \"{stmt.prompt}\"" if stmt.prompt else ""
        self.say(depth, f"{unparse(stmt.player)} chooses one of{prompt}:")
        for option in stmt.options:
            self._option(option, depth + 1)
        if stmt.if_none == "skip":
            self.say(depth + 1, "(if none of these is possible, the decision is skipped)")

    def _option(self, option, depth):
        if option.decline:
            self.say(depth, f"- {option.name}: do nothing (offered only when something else is possible)")
            return
        label = f" \"{option.text}\"" if option.text else ""
        params = "; ".join(f"{name} from {unparse(domain)}" for name, domain in option.params)
        where = f", choosing {params}" if params else ""
        require = f", only if {unparse(option.require)}" if option.require is not None else ""
        self.say(depth, f"- {option.name}{label}{where}{require}:")
        self.block(option.body, depth + 1)


def explain(ruleset: ir.Ruleset) -> str:
    return Explainer(ruleset).text()


def parameter_rows(ruleset) -> list:
    """The parameters of a ruleset: name, type, default, the value it has, what is allowed, what it does."""
    rows = []
    for name, spec in ruleset.param_specs.items():
        kind = spec.get("type") or {bool: "bool", int: "int", str: "choice"}[type(spec["default"])]
        allowed = ""
        if kind == "int":
            allowed = f"{spec.get('min', '…')}..{spec.get('max', '…')}"
        elif kind == "choice":
            allowed = ", ".join(spec.get("choices", []))
        elif kind == "bool":
            allowed = "true, false"
        rows.append({"name": name, "type": kind, "default": spec["default"], "value": ruleset.params[name],
                     "allowed": allowed, "description": " ".join(str(spec.get("description", "")).split())})
    return rows


def first_comment(path: Path) -> str:
    """The comment a file starts with, without the editors' schema line."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        if not line.startswith("# yaml-language-server:"):
            lines.append(line.lstrip("# ").strip())
    return " ".join(lines)
