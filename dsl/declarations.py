"""Stage 4b, first half: the declarations of a ruleset — parameters, zones, components, variables
and definitions — checked and turned into :mod:`dsl.ir` records.  :class:`dsl.resolver.Resolver`
builds on this to check the statements."""
from __future__ import annotations

import operator

import re

from . import ast, ir
from .checker import suggest
from .errors import CheckError, ParameterError
from .templates import template_fields
from .types import BOOL, INT, NAMED_TYPES, NONE, PLAYER, STR, ANY, compatible, type_of_value

VISIBILITIES = ("all", "owner", "others", "none", "count", "top")
MAX_COUNT = 10_000  # components of one row of a table
MAX_COMPONENTS = 100_000  # components of a game in all (what a saved state holds; the largest shipped: 209)
MAX_ZONES = 100_000  # zones of a game in all, each zone of each player and of each component counted
STATIC_LIMIT = 2 ** 63  # the whole numbers computed when a ruleset loads lie in [-2^63, 2^63)
_SIGNATURE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*$")
_BARE_NAME = re.compile(r"[A-Za-z_]\w*\Z")


def split_signature(key: str):
    """``(name, parameter names)`` of ``name(a, b: player)``; (None, []) if it is none."""
    name, params = typed_signature(key)
    return name, [p for p, _ in params]


def typed_signature(key: str):
    """``(name, [(parameter, written type or None)])`` of ``name(a, b: player)``."""
    match = _SIGNATURE.match(key)
    if not match:
        return None, []
    params = [p.strip() for p in (match.group(2) or "").split(",") if p.strip()]
    return match.group(1), [(p.split(":", 1)[0].strip(), p.split(":", 1)[1].strip() if ":" in p else None)
                            for p in params]


class Declarations:
    """Mixin of :class:`dsl.resolver.Resolver`: needs ``data``, ``doc``, ``rs``, ``functions``,
    ``param_overrides``, ``error`` and ``parse``."""

    def _params(self):
        specs = self.rs.param_specs
        for name in self.param_overrides:
            if name not in specs:
                hint = suggest(name, specs) or (f"known parameters: {', '.join(sorted(specs))}" if specs
                                                else "this ruleset declares no parameters")
                raise ParameterError(f"unknown parameter '{name}'", self.doc.position(("params",)), hint)
        for name, spec in specs.items():
            kind = spec.get("type") or {bool: "bool", int: "int", str: "choice"}[type(spec["default"])]
            value = self.param_overrides.get(name, spec["default"])
            self.rs.params[name] = self._param_value(name, spec, kind, value)

    def _param_value(self, name, spec, kind, value):
        where = self.doc.position(("params", name))
        if kind == "bool":
            if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
                value = value.lower() in ("true", "yes", "1")
            if not isinstance(value, bool):
                raise ParameterError(f"parameter '{name}' is true or false, not {value!r}", where)
            return value
        if kind == "int":
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise ParameterError(f"parameter '{name}' is a whole number, not {value!r}", where) from None
            if isinstance(value, bool) or not isinstance(value, int):
                raise ParameterError(f"parameter '{name}' is a whole number, not {value!r}", where)
            lo, hi = spec.get("min"), spec.get("max")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ParameterError(f"parameter '{name}' must lie in {lo}..{hi}, not {value}", where)
            return value
        choices = spec.get("choices") or [spec["default"]]
        if value not in choices:
            raise ParameterError(f"parameter '{name}' is one of {', '.join(choices)}, not {value!r}", where)
        return value

    def static_value(self, path, what):
        """Evaluate an expression that may use only parameters, ``num_players`` and constants (at load
        time): component counts, grid sizes, visibilities."""
        node = self.parse(path)
        if node is None:
            return None
        try:
            return _static_eval(node, {**self.rs.params, "num_players": self.rs.players})
        except CheckError as exc:
            self.error(CheckError(f"{what}: {exc.message}", exc.position, exc.hint), path)
            return None

    def _zones(self):
        for name, spec in (self.data.get("zones") or {}).items():
            path = ("zones", name)
            visibility = "all"
            if "visibility" in spec:
                errors_before = len(self.errors)
                visibility = self.static_value(path + ("visibility",), "a zone's visibility")
                if visibility is None and len(self.errors) == errors_before:
                    visibility = "none"  # the word none reads as the value none
                if visibility is not None and visibility not in VISIBILITIES:
                    self.error(CheckError(f"visibility '{visibility}' is not one of "
                                          f"{', '.join(VISIBILITIES)}"), path + ("visibility",))
                    visibility = "all"
            if visibility in ("owner", "others") and not spec.get("per"):
                self.error(CheckError(f"a shared zone has no owner, so visibility '{visibility}' means nothing",
                                      hint="keep one zone per player (per: player) or per component, "
                                           "or use all, none, count or top"), path + ("visibility",))
            grid = None
            if "grid" in spec:
                dims = [self.static_value(path + ("grid", k), f"the grid's {k}") for k in ("rows", "columns")]
                if all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 64 for n in dims):
                    grid = tuple(dims)
                else:
                    self.error(CheckError("a grid has 1 to 64 rows and columns"), path + ("grid",))
            self.rs.zones[name] = ir.ZoneFamily(name, spec.get("per"), visibility or "all",
                                                self.doc.key_position(path), grid)

    def _components(self):
        for kind_name, spec in (self.data.get("components") or {}).items():
            path = ("components", kind_name)
            attributes, enums = {}, {}
            for attr, attr_spec in (spec.get("attributes") or {}).items():
                if isinstance(attr_spec, list):
                    attributes[attr], enums[attr] = STR, list(attr_spec)
                else:
                    attributes[attr] = {"int": INT, "bool": BOOL, "str": STR}[attr_spec]
            marks = dict(spec.get("marks") or {})
            for clash in set(marks) & set(attributes):
                self.error(CheckError(f"'{clash}' is both a printed attribute and a mark"),
                           path + ("marks", clash))
            template = spec.get("name") or kind_name + " " + " ".join("{%s}" % a for a in attributes)
            try:
                for field in template_fields(template, self.doc.text_position(path + ("name",))):
                    if field not in attributes:
                        self.error(CheckError(f"the name template uses '{{{field}}}', which is no attribute",
                                              hint=suggest(field, attributes)), path + ("name",))
            except CheckError as exc:
                self.error(exc)
                template = kind_name
            kind = ir.ComponentKind(kind_name, template, attributes, enums, marks, [],
                                    self.doc.key_position(path))
            for i, row in enumerate(spec["table"]):
                self._component_row(kind, spec, row, path + ("table", i))
            self.rs.kinds[kind_name] = kind

    def _zone_owners(self):
        """Check that zones kept per component name a kind that exists, and note the kind a zone
        declares it holds (``holds: card``)."""
        self.unknown_held_kinds = set()  # zones whose 'holds:' names no kind (reported once, here)
        for name, family in self.rs.zones.items():
            kind = family.per_kind
            if kind is not None and kind not in self.rs.kinds:
                self.error(CheckError(f"'per: {kind}' names no component kind",
                                      hint=suggest(kind, list(self.rs.kinds) + ["player"])), ("zones", name, "per"))
                family.per = None
            family.kind = self._held_kind(name)
        self._count_zones()

    def _count_zones(self) -> None:
        """A located error where the zones of the game pass MAX_ZONES (a zone per player, per
        component of a kind)."""
        components = {kind.name: sum(row["count"] * (self.rs.players if row["each_player"] else 1)
                                     for row in kind.rows) for kind in self.rs.kinds.values()}
        total = 0
        for name, family in self.rs.zones.items():
            total += self.rs.players if family.per_player else components.get(family.per_kind, 0) \
                if family.per_kind else 1
            if total > MAX_ZONES:
                self.error(CheckError(f"the zones number more than {MAX_ZONES:,} in all (each zone of each "
                                      "player and of each component counted)",
                                      hint="a game's state holds at most so many zones: keep fewer zones per "
                                           "player or per component"), ("zones", name))
                return

    def _held_kind(self, zone: str) -> str | None:
        """The kind ``holds:`` names, if it is a bare name that is no parameter; a located error if
        that name is no kind (a bare parameter name stays a condition)."""
        written = (self.data["zones"][zone] or {}).get("holds")
        if not isinstance(written, str) or not _BARE_NAME.match(written.strip()):
            return None
        written = written.strip()
        if written in self.rs.kinds:
            return written
        if written not in self.rs.params and written not in ("true", "false"):
            self.unknown_held_kinds.add(zone)
            self.error(CheckError(f"'holds: {written}' names no component kind",
                                  hint=suggest(written, self.rs.kinds) or "name a kind of the components "
                                  f"section ({', '.join(sorted(self.rs.kinds)) or 'none declared'}), or write "
                                  "a condition on 'component'"), ("zones", zone, "holds"))
        return None

    def _component_row(self, kind, spec, row, path):
        values = {}
        for key, value in row.items():
            if key in ("count", "in", "each_player"):
                continue
            if key not in kind.attributes:
                self.error(CheckError(f"'{key}' is not an attribute of '{kind.name}'",
                                      hint=suggest(key, kind.attributes) or "declare it under attributes"),
                           path + (key,))
                continue
            expected = kind.attributes[key]
            if not compatible(expected, type_of_value(value)) or value is None:
                self.error(CheckError(f"attribute '{key}' should be {expected}, not {value!r}"), path + (key,))
            elif key in kind.enums and value not in kind.enums[key]:
                self.error(CheckError(f"'{value}' is not one of the values of '{key}': "
                                      f"{', '.join(kind.enums[key])}", hint=suggest(str(value), kind.enums[key])),
                           path + (key,))
            values[key] = value
        for attr in kind.attributes:
            if attr not in row:
                self.error(CheckError(f"this row of '{kind.name}' gives no value for '{attr}'"), path)
        count = 1
        if "count" in row:
            count = self.static_value(path + ("count",), "a count")
            if count is not None and (isinstance(count, bool) or not isinstance(count, int) or
                                      not 0 <= count <= MAX_COUNT):
                self.error(CheckError(f"a count is a whole number from 0 to {MAX_COUNT}, not {count!r}"),
                           path + ("count",))
                count = 0
        zone = row.get("in", spec.get("in"))
        each = bool(row.get("each_player", False))
        if zone is None:
            self.error(CheckError(f"components of '{kind.name}' have no starting zone",
                                  hint="add 'in: <zone>' to the kind or the row"), path)
        elif zone not in self.rs.zones:
            where = path + ("in",) if "in" in row else path[:-2] + ("in",)
            if not any(e.position == self.doc.position(where) for e in self.errors):
                self.error(CheckError(f"unknown zone '{zone}'", hint=suggest(zone, self.rs.zones)), where)
        elif self.rs.zones[zone].per_kind or self.rs.zones[zone].grid:
            self.error(CheckError(f"components cannot start in zone '{zone}'",
                                  hint="start them in a shared or per-player zone and move or place them in setup"),
                       path)
        elif self.rs.zones[zone].per_player != each:
            need = "needs 'each_player: true'" if self.rs.zones[zone].per_player else \
                "is one shared zone; remove 'each_player'"
            self.error(CheckError(f"zone '{zone}' {need}"), path)
        self.components_total = getattr(self, "components_total", 0) + (count or 0) * (self.rs.players if each else 1)
        if self.components_total > MAX_COMPONENTS and count:
            self.error(CheckError(f"the components number more than {MAX_COMPONENTS:,} in all",
                                  hint="a game's state holds at most so many components: lower the counts"),
                       path + ("count",) if "count" in row else path)
            count = self.components_total = 0
        kind.rows.append({"values": values, "count": count or 0, "zone": zone, "each_player": each})

    def _variables(self):
        self.rs.vars["active"] = ir.Variable("active", PLAYER, 0, "all", self.doc.position(()))
        for section, target in (("vars", self.rs.vars), ("player_vars", self.rs.player_vars)):
            for name, spec in (self.data.get(section) or {}).items():
                path = (section, name)
                if name in self.rs.params or name in self.rs.zones or name == "active":
                    self.error(CheckError(f"'{name}' is already the name of a parameter, zone or built-in"),
                               path)
                    continue
                if isinstance(spec, dict):
                    initial = spec.get("initial")
                    initial = None if initial == "none" else initial
                    declared = NAMED_TYPES.get(spec.get("type")) if spec.get("type") else None
                    visibility = spec.get("visibility", "all")
                else:
                    initial, declared, visibility = spec, None, "all"
                if section == "vars" and visibility == "owner":
                    self.error(CheckError("a shared variable has no owner", hint="use all or none"), path)
                t = type_of_value(initial)
                if declared == PLAYER and t == INT:  # a seat number: seats count from 0
                    if not 0 <= initial < self.rs.players:
                        self.error(CheckError(f"there is no seat {initial} in a game of {self.rs.players} players",
                                              hint=f"seats are numbered 0 to {self.rs.players - 1}"),
                                   path + ("initial",))
                    t = PLAYER
                if declared is not None:
                    if not compatible(declared, t):
                        self.error(CheckError(f"the initial value {initial!r} is not a {declared}"), path)
                    t = declared if t in (NONE, ANY) or declared != ANY else t
                elif t == NONE:
                    self.error(CheckError(f"'{name}' starts as none, so its type is unknown",
                                          hint="add 'type: player' or 'type: component'"), path)
                low, high = self._declared_range(spec, t, initial, path) if isinstance(spec, dict) else (None, None)
                target[name] = ir.Variable(name, t, initial, visibility, self.doc.key_position(path), low, high)

    def _declared_range(self, spec, t, initial, path) -> tuple:
        """A variable's declared ``min``/``max`` (int variables only; the initial value lies within)."""
        low, high = spec.get("min"), spec.get("max")
        if low is None and high is None:
            return None, None
        if t != INT:
            self.error(CheckError("only an int variable takes 'min' and 'max'", hint="remove them"), path)
            return None, None
        if low is not None and high is not None and low > high:
            self.error(CheckError(f"'min' ({low}) is larger than 'max' ({high})"), path)
            return None, None
        if isinstance(initial, int) and ((low is not None and initial < low) or (high is not None and initial > high)):
            self.error(CheckError(f"the initial value {initial} lies outside min {low} .. max {high}"), path)
        return low, high

    def _defines(self):
        for key, body in (self.data.get("define") or {}).items():
            path = ("define", key)
            name, params = split_signature(key)
            node = self.parse(path)
            if node is not None:
                self.rs.defines[name] = ir.Define(name, params, node, self.doc.key_position(path))


_STATIC_COMPARISONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                       ">": operator.gt, ">=": operator.ge}


def _static_eval(node, params):
    """Evaluate a load-time expression: literals, parameters, constants, and/or/not, comparisons, + - *, if-else."""
    if isinstance(node, ast.Literal):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in params:
            return params[node.id]
        if node.id in VISIBILITIES:
            return node.id
        raise CheckError(f"only parameters and num_players can be used here, not '{node.id}'", node.pos,
                         suggest(node.id, list(params) + list(VISIBILITIES)))
    if isinstance(node, ast.Cond):
        return _static_eval(node.then if _static_eval(node.test, params) else node.otherwise, params)
    if isinstance(node, ast.Not):
        return not _static_eval(node.operand, params)
    if isinstance(node, ast.BoolOp):
        left = _static_eval(node.left, params)
        if node.op == "and":
            return left and _static_eval(node.right, params)
        return left or _static_eval(node.right, params)
    if isinstance(node, ast.Compare) and node.op in _STATIC_COMPARISONS:
        left, right = _static_eval(node.left, params), _static_eval(node.right, params)
        if node.op not in ("==", "!=") and not (isinstance(left, int) and isinstance(right, int)):
            raise CheckError(f"'{node.op}' compares numbers", node.pos)
        return _STATIC_COMPARISONS[node.op](left, right)
    if isinstance(node, ast.BinOp) and node.op in ("+", "-", "*"):
        a, b = _static_eval(node.left, params), _static_eval(node.right, params)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)):
            raise CheckError(f"'{node.op}' computes with whole numbers here", node.pos,
                             "a visibility or a name is written as it is, e.g. 'owner'")
        value = a + b if node.op == "+" else a - b if node.op == "-" else a * b
        if not -STATIC_LIMIT <= value < STATIC_LIMIT:
            raise CheckError("the value of this expression lies beyond ±2^63", node.pos,
                             "a count or size of a ruleset is a much smaller number")
        return value
    raise CheckError("this expression must be computable when the ruleset loads", node.pos)
