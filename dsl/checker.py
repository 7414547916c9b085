"""Stage 4a: resolve the names of an expression and infer its type.

The checker records, for every node, its static type (``types``) and what a name or attribute refers
to (``symbols``).  Symbols are tuples:

    ("local", name)   a loop variable, action parameter or ``let`` name
    ("const", value)  a parameter of the ruleset or a built-in constant
    ("var", name)     a global variable                ("zone", family) a zone shared by all players
    ("pvar", name)    a variable of each player         ("pzone", family) a zone of each player
    ("attr", name)    a printed attribute of a component ("mark", name) a changeable attribute
    ("cprop", name)   a property every component has: owner, zone, name, kind
    ("pprop", name)   a property every player has: name
"""
from __future__ import annotations

import difflib

from . import ast
from .errors import CheckError
from .registry import BUILTIN_NAMES, REQUIRED
from .shadowing import CONTEXT_NAMES_FIRST, Shadowing, ambiguous_call
from .types import (ANY, BOOL, CELL, COMPONENT, INT, NONE, PLAYER, STR, ZONE, Type, compatible,
                    element_type, is_collection, join, list_of, type_of_value, zone_of)

COMPONENT_PROPERTIES = {"owner": PLAYER, "zone": ZONE, "name": STR, "kind": STR, "cell": CELL}
PLAYER_PROPERTIES = {"name": STR}  # a player's name: game.player_names, or P1, P2 ...
AGGREGATES = ("list", "sum", "count", "any", "all", "min", "max")
SPEC_TYPES = {"int": INT, "bool": BOOL, "str": STR, "player": PLAYER, "component": COMPONENT,
              "zone": ZONE, "cell": CELL, "any": ANY}


def reads_only_printed(node, var, symbols) -> bool:
    """Whether a checked expression reads nothing but constants, parameters and the printed
    attributes of the local ``var``: its value for a component never changes during play."""
    if isinstance(node, ast.Literal):
        return True
    if isinstance(node, ast.Name):
        return symbols.get(node, ("",))[0] == "const"
    if isinstance(node, ast.Attr):
        kind = symbols.get(node, ("",))[0]
        return (kind == "attr" and isinstance(node.obj, ast.Name) and node.obj.id == var
                and symbols.get(node.obj, ("",))[0] == "local")
    if isinstance(node, ast.Compare) and node.op in ("in", "not in"):
        return False
    if isinstance(node, (ast.Compare, ast.BoolOp, ast.Not, ast.Neg, ast.BinOp, ast.Cond)):
        return all(reads_only_printed(child, var, symbols) for child in ast.children(node))
    return False


class Scope:
    """Local names and their types; a child scope sees its parents."""

    def __init__(self, parent: "Scope | None" = None, names: dict | None = None, builtin: bool = False):
        self.parent = parent
        self.names = dict(names or {})
        self.builtin = builtin  # names the context gives (player in scoring, component in a trigger)

    def builtin_lookup(self, name: str) -> Type | None:
        """The type of a name the context gives (``builtin.player``), past the ruleset's own locals."""
        scope = self
        while scope is not None:
            if scope.builtin and name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def lookup(self, name: str) -> Type | None:
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def owner_of(self, name: str) -> "Scope | None":
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope
            scope = scope.parent
        return None

    def declare(self, name: str, type_: Type) -> None:
        self.names[name] = type_

    def refine(self, name: str, type_: Type) -> None:
        owner = self.owner_of(name)
        if owner is not None:
            owner.names[name] = join(owner.names[name], type_)

    def all_names(self) -> set:
        names = set()
        scope = self
        while scope is not None:
            names |= set(scope.names)
            scope = scope.parent
        return names


def suggest(name: str, candidates) -> str | None:
    close = difflib.get_close_matches(name, sorted(c for c in candidates if isinstance(c, str)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


class ExprChecker:
    """Type inference and name resolution for the expressions of one ruleset."""

    def __init__(self, ruleset, functions, effects):
        self.rs = ruleset
        self.functions = functions
        self.effects = effects
        self.types = ruleset.types
        self.symbols = ruleset.symbols
        self.define_types: dict = {}
        self.chance_calls: list = []  # calls of built-ins that roll dice (the resolver checks where they stand)
        self.shadowing = Shadowing(ruleset)  # the notes on names of the ruleset that hide built-ins
        self.constants = {"top": "top", "bottom": "bottom",
                          "players": list(range(ruleset.players)), "num_players": ruleset.players}

    # ---- entry points --------------------------------------------------------------------------
    def check(self, node: ast.Node, scope: Scope) -> Type:
        method = getattr(self, "_" + type(node).__name__.lower())
        result = method(node, scope)
        self.record(node, result)
        return result

    def record(self, node: ast.Node, type_: Type) -> None:
        """Note the type of ``node`` for the compiler, which knows zones without their kinds."""
        self.types[node] = ZONE if type_.name == "zone" else type_

    def expect(self, node: ast.Node, scope: Scope, expected: Type, what: str) -> Type:
        actual = self.check(node, scope)
        if not compatible(expected, actual):
            raise CheckError(f"{what} should be {expected}, but this is {actual}", node.pos)
        return actual

    def collection(self, node: ast.Node, scope: Scope, what: str) -> Type:
        t = self.check(node, scope)
        elem = element_type(t)
        if elem is None:
            raise CheckError(f"{what} should be a list or a zone, but this is {t}", node.pos)
        return elem

    # ---- leaves ------------------------------------------------------------------------------
    def _literal(self, node, scope):
        v = node.value
        if isinstance(v, bool):
            return BOOL
        if isinstance(v, int):
            return INT
        if isinstance(v, str):
            return STR
        return NONE

    def _name(self, node, scope):
        if node.builtin:
            return self._builtin_name(node, scope)
        name = node.id
        local = scope.lookup(name)
        if local is not None and scope.owner_of(name).builtin:
            hiding = self._global_kind(name)
            if hiding is not None and name not in CONTEXT_NAMES_FIRST:  # the ruleset's own name first
                self.shadowing.at_use(hiding, name, node.pos)
                local = None
        elif local is not None and name in self.constants:
            self.shadowing.at_use("local", name, node.pos)
        if local is not None:
            self.symbols[node] = ("local", name)
            return local
        rs = self.rs
        if name in rs.params:
            self.symbols[node] = ("const", rs.params[name])
            return type_of_value(rs.params[name])
        if name in rs.vars:
            self.symbols[node] = ("var", name)
            return rs.vars[name].type
        if name in rs.zones:
            if rs.zones[name].per_player:
                raise CheckError(f"'{name}' is a zone of each player", node.pos,
                                 f"name whose: 'active.{name}' or 'p.{name}'")
            if rs.zones[name].per_kind:
                raise CheckError(f"'{name}' is a zone of each '{rs.zones[name].per_kind}'", node.pos,
                                 f"name which one: 'c.{name}'")
            self.symbols[node] = ("zone", name)
            return zone_of(rs.zones[name].kind)
        if name in rs.defines and not rs.defines[name].params:
            result = self._call_define(ast.Call(node.pos, name, (), ()), scope)
            self.symbols[node] = ("define", name)
            return result
        if name in self.constants:
            self.symbols[node] = ("const", self.constants[name])
            return list_of(PLAYER) if name == "players" else type_of_value(self.constants[name])
        if name in rs.player_vars:
            raise CheckError(f"'{name}' is a variable of each player", node.pos,
                             f"name whose: 'active.{name}' or 'p.{name}'")
        known = scope.all_names() | set(rs.params) | set(rs.vars) | set(rs.zones) | set(self.constants)
        raise CheckError(f"unknown name '{name}'", node.pos, suggest(name, known) or self._closest_names(name))

    def _global_kind(self, name: str) -> str | None:
        """What the ruleset declares under ``name`` for the whole ruleset, or None."""
        rs = self.rs
        for table, what in ((rs.params, "parameter"), (rs.vars, "variable"), (rs.zones, "zone"),
                            (rs.defines, "definition")):
            if name in table:
                return what
        return None

    def _builtin_name(self, node, scope):
        """``builtin.NAME``: the built-in name, whatever the ruleset calls by the same name."""
        name = node.id
        given = scope.builtin_lookup(name)
        if given is not None:
            if not scope.owner_of(name).builtin:
                raise CheckError(f"builtin.{name} cannot reach past the local '{name}' bound here", node.pos,
                                 f"give the local another name, then write {name} or builtin.{name}")
            self.symbols[node] = ("local", name)
            return given
        if name in self.constants:
            self.symbols[node] = ("const", self.constants[name])
            return list_of(PLAYER) if name == "players" else type_of_value(self.constants[name])
        if name == "active":
            self.symbols[node] = ("var", name)
            return PLAYER
        if name in BUILTIN_NAMES:
            raise CheckError(f"builtin.{name} is given only in {BUILTIN_NAMES[name].where}", node.pos)
        hint = suggest(name, BUILTIN_NAMES)
        if self.functions.get(name) or self.effects.get(name):
            hint = f"builtin.{name} is a function or effect: call it, 'builtin.{name}(...)'"
        elif scope.lookup("builtin") is not None or self._global_kind("builtin") is not None:
            hint = "'builtin.' always names a built-in: give your 'builtin' another name to read its attributes"
        raise CheckError(f"there is no built-in name '{name}'", node.pos,
                         hint or f"the built-in names: {', '.join(BUILTIN_NAMES)}")

    def _closest_names(self, name: str) -> str:
        """The zones, variables and definitions whose names are closest to ``name``."""
        rs = self.rs
        groups = (("zones", rs.zones), ("variables", list(rs.vars) + list(rs.player_vars)),
                  ("definitions", rs.defines), ("parameters", rs.params))
        listed = []
        for label, names in groups:
            if names:
                ranked = sorted(names, key=lambda n: (-difflib.SequenceMatcher(None, name, n).ratio(), n))
                listed.append(f"{label}: {', '.join(ranked[:3])}")
        return "; ".join(listed + ["or declare it under vars, or bind it with let or for"])

    def _attr(self, node, scope):
        obj_t = self.check(node.obj, scope)
        name = node.name
        rs = self.rs
        if obj_t.name == "component":
            kinds = [rs.kinds[obj_t.arg]] if obj_t.arg in rs.kinds else list(rs.kinds.values())
            for kind in kinds:
                if name in kind.attributes:
                    self.symbols[node] = ("attr", name)
                    return kind.attributes[name]
                if name in kind.marks:
                    self.symbols[node] = ("mark", name)
                    return type_of_value(kind.marks[name])
            if name in rs.zones and rs.zones[name].per_kind and (
                    obj_t.arg in (None, rs.zones[name].per_kind)):
                self.symbols[node] = ("kzone", name)
                return zone_of(rs.zones[name].kind)
            if name in COMPONENT_PROPERTIES:
                self.symbols[node] = ("cprop", name)
                return COMPONENT_PROPERTIES[name]
            known = set(COMPONENT_PROPERTIES) | {z for z, f in rs.zones.items() if f.per_kind}
            for kind in kinds:
                known |= set(kind.attributes) | set(kind.marks)
            raise CheckError(f"components have no attribute '{name}'", node.pos,
                             suggest(name, known) or f"known attributes: {', '.join(sorted(known))}")
        if obj_t.name == "player":
            if name in rs.player_vars:
                self.symbols[node] = ("pvar", name)
                return rs.player_vars[name].type
            if name in rs.zones and rs.zones[name].per_player:
                self.symbols[node] = ("pzone", name)
                return zone_of(rs.zones[name].kind)
            if name in PLAYER_PROPERTIES:
                self.symbols[node] = ("pprop", name)
                return PLAYER_PROPERTIES[name]
            known = set(rs.player_vars) | {z for z, f in rs.zones.items() if f.per_player} | set(PLAYER_PROPERTIES)
            raise CheckError(f"players have no variable or zone '{name}'", node.pos,
                             suggest(name, known) or "declare it under player_vars or as a zone with per: player")
        if obj_t == ANY:
            raise CheckError(f"cannot tell what '.{name}' belongs to: the value's type is unknown here",
                             node.pos, "give it a type where it is declared: a variable 'type: component', a "
                             "procedure's parameter 'name(c: card, p: player)' (a kind or a type)")
        raise CheckError(f"a {obj_t} has no attribute '{name}'", node.pos)

    def _index(self, node, scope):
        obj_t = self.check(node.obj, scope)
        if self.check(node.index, scope) != PLAYER:  # seats index lists kept per seat
            self.expect(node.index, scope, INT, "an index")
        if obj_t.name != "list" and obj_t != ANY:
            raise CheckError(f"only lists can be indexed, not a {obj_t}", node.pos,
                             "use top(zone) or list(zone)[i]")
        return element_type(obj_t) or ANY

    def _slice(self, node, scope):
        obj_t = self.check(node.obj, scope)
        for bound in (node.start, node.stop):
            if bound is not None:
                self.expect(bound, scope, INT, "a slice bound")
        if obj_t.name != "list" and obj_t != ANY:
            raise CheckError(f"only lists can be sliced, not a {obj_t}", node.pos, "use list(zone)[a:b]")
        return obj_t

    def _listlit(self, node, scope):
        elem = ANY
        for item in node.items:
            t = self.check(item, scope)
            if not compatible(elem, t):
                raise CheckError(f"a list mixes {elem} and {t}", item.pos)
            elem = join(elem, t)
        return list_of(elem)

    # ---- operators ---------------------------------------------------------------------------
    def _binop(self, node, scope):
        left = self.check(node.left, scope)
        right = self.check(node.right, scope)
        if node.op == "+" and is_collection(left) and is_collection(right) and ANY not in (left, right):
            return list_of(join(element_type(left), element_type(right)))
        if node.op == "+" and left == STR and right == STR:
            return STR
        for side, t in ((node.left, left), (node.right, right)):
            if not compatible(INT, t):
                raise CheckError(f"'{node.op}' needs numbers, but this is {t}", side.pos)
        return INT

    def _compare(self, node, scope):
        left = self.check(node.left, scope)
        if node.op in ("in", "not in"):
            elem = self.collection(node.right, scope, f"the right side of '{node.op}'")
            if not compatible(elem, left):
                raise CheckError(f"a {left} is never in a collection of {elem}", node.pos)
            return BOOL
        right = self.check(node.right, scope)
        if {left, right} == {PLAYER, INT}:
            return BOOL  # seats compare with their numbers
        if not (compatible(left, right) or compatible(right, left)):
            raise CheckError(f"cannot compare a {left} with a {right}", node.pos)
        if node.op not in ("==", "!=") and not (compatible(INT, left) or left == STR):
            raise CheckError(f"'{node.op}' compares numbers or strings, not a {left}", node.pos)
        return BOOL

    def _boolop(self, node, scope):
        self.expect(node.left, scope, BOOL, f"the left side of '{node.op}'")
        self.expect(node.right, scope, BOOL, f"the right side of '{node.op}'")
        return BOOL

    def _not(self, node, scope):
        self.expect(node.operand, scope, BOOL, "the operand of 'not'")
        return BOOL

    def _neg(self, node, scope):
        self.expect(node.operand, scope, INT, "the operand of '-'")
        return INT

    def _cond(self, node, scope):
        self.expect(node.test, scope, BOOL, "the condition")
        a = self.check(node.then, scope)
        b = self.check(node.otherwise, scope)
        if not (compatible(a, b) or compatible(b, a)):
            raise CheckError(f"the two branches give a {a} and a {b}", node.pos)
        return join(a, b)

    def _comprehension(self, node, scope):
        if node.func not in AGGREGATES:
            raise CheckError(f"'{node.func}(... for ...)' is not an aggregate", node.pos,
                             f"use one of: {', '.join(AGGREGATES)}")
        elem = self.collection(node.source, scope, "what 'for ... in' walks through")
        inner = Scope(scope, {node.var: elem})
        if node.cond is not None:
            self.expect(node.cond, inner, BOOL, "the 'if' filter")
        value = self.check(node.elem, inner)
        if node.func in ("sum", "min", "max"):
            if not compatible(INT, value):
                raise CheckError(f"{node.func}() adds up numbers, but this is {value}", node.elem.pos)
            return INT
        if node.func == "count":
            return INT
        if node.func in ("any", "all"):
            if not compatible(BOOL, value):
                raise CheckError(f"{node.func}() needs a condition, but this is {value}", node.elem.pos)
            return BOOL
        return list_of(value)

    # ---- calls -------------------------------------------------------------------------------
    def _call(self, node, scope):
        name = node.func
        if not node.builtin and name in self.rs.defines:  # the ruleset's own name first
            return self._call_define(node, scope)
        builtin = self.functions.get(name)
        if not node.builtin and name in self.rs.procedures:
            if builtin is not None:
                raise ambiguous_call(name, node.pos)
            raise CheckError(f"'{name}' is a procedure; call it as a statement of its own", node.pos)
        if builtin is None:
            if self.effects.get(name) is not None:
                raise CheckError(f"'{name}' is an effect and changes the game; it cannot be part of an "
                                 "expression", node.pos, "write it as a statement of its own")
            if node.builtin:
                raise CheckError(f"there is no built-in function '{name}'", node.pos,
                                 suggest(name, self.functions.names()) or "see docs/language.md for the built-ins")
            known = set(self.functions.names()) | set(self.rs.defines)
            raise CheckError(f"unknown function '{name}'", node.pos,
                             suggest(name, known) or "see docs/language.md for the built-in functions")
        if builtin.chance:
            self.chance_calls.append(node)
        self.symbols[node] = ("func", name)
        arg_types = self.check_arguments(builtin, node, scope)
        return builtin.result_type(arg_types)

    def check_arguments(self, builtin, node, scope) -> list:
        """Check a call against a built-in's signature; returns the argument types in order."""
        params = builtin.params
        args = list(node.args)
        kwargs = dict(node.kwargs)
        types = []
        variadic = params and params[-1].variadic
        fixed = params[:-1] if variadic else params
        if len(args) > len(fixed) and not variadic:
            raise CheckError(f"{builtin.name}() takes at most {len(fixed)} argument(s), got {len(args)}",
                             node.pos, f"signature: {builtin.signature()}")
        for i, param in enumerate(fixed):
            if i < len(args):
                arg = args[i]
            elif param.name in kwargs:
                arg = kwargs.pop(param.name)
            elif param.default is not REQUIRED:
                types.append(None)
                continue
            else:
                raise CheckError(f"{builtin.name}() misses the argument '{param.name}'", node.pos,
                                 f"signature: {builtin.signature()}")
            types.append(self._check_spec(arg, scope, param, builtin))
        if variadic:
            rest = args[len(fixed):]
            if not rest and not fixed:
                raise CheckError(f"{builtin.name}() needs at least one argument", node.pos,
                                 f"signature: {builtin.signature()}")
            types.extend(self._check_spec(a, scope, params[-1], builtin) for a in rest)
        if kwargs:
            bad = next(iter(kwargs))
            raise CheckError(f"{builtin.name}() has no argument '{bad}'", kwargs[bad].pos,
                             f"signature: {builtin.signature()}")
        return types

    def _check_spec(self, arg, scope, param, builtin) -> Type:
        spec = param.base_spec
        t = self.check(arg, scope)
        if spec == "collection":
            if element_type(t) is None:
                raise CheckError(f"argument '{param.name}' of {builtin.name}() should be a list or a zone, "
                                 f"but this is {t}", arg.pos)
        elif spec == "zone":
            if t.name not in ("zone", "any"):
                raise CheckError(f"argument '{param.name}' of {builtin.name}() should be a zone, "
                                 f"but this is {t}", arg.pos)
        elif spec == "items":
            if t.name not in ("component", "list", "zone", "any"):
                raise CheckError(f"argument '{param.name}' of {builtin.name}() should be a component, "
                                 f"a list or a zone, but this is {t}", arg.pos)
        elif not compatible(SPEC_TYPES[spec], t):
            raise CheckError(f"argument '{param.name}' of {builtin.name}() should be {SPEC_TYPES[spec]}, "
                             f"but this is {t}", arg.pos)
        return t

    def _call_define(self, node, scope):
        define = self.rs.defines[node.func]
        if node.kwargs or len(node.args) != len(define.params):
            raise CheckError(f"{define.name}() takes {len(define.params)} argument(s)", node.pos,
                             f"defined as {define.name}({', '.join(define.params)})")
        arg_types = tuple(self.check(a, scope) for a in node.args)
        self.symbols[node] = ("define", define.name)
        known = self.define_types.get(define.name)
        if known is not None:
            if known[0] == "checking":
                raise CheckError(f"{define.name}() calls itself", node.pos, "definitions cannot recurse")
            for want, got, arg in zip(known[0], arg_types, node.args):
                if not (compatible(want, got) or compatible(got, want)):
                    raise CheckError(f"{define.name}() is used with a {want} elsewhere, here with a {got}",
                                     arg.pos)
            return known[1]
        self.define_types[define.name] = ("checking", None)
        try:
            result = self.check(define.body, Scope(None, dict(zip(define.params, arg_types))))
        except CheckError:
            del self.define_types[define.name]
            raise
        self.define_types[define.name] = (arg_types, result)
        return result
