"""Stage 4b, decisions: the checks of ``choose`` statements — their options, parameters, ``require``
conditions, texts with ``{fields}`` and the order of their stages."""
from __future__ import annotations

import string

from . import ast, ir
from .checker import Scope, suggest
from .errors import CheckError, RulebookError
from .parser import parse_expression
from .types import BOOL, PLAYER


class Decisions:
    """Mixin of :class:`dsl.resolver.Resolver`: needs ``checker``, ``rs``, ``doc``, ``data``,
    ``error``, ``parse``, ``expr``, ``_get`` and ``block``."""

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
                if field.strip().isdigit():
                    self.error(CheckError(f"the text's field '{{{field}}}' is a position: fields name what they show",
                                          where, "e.g. {card} for a parameter, {active.name} for a value"))
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
