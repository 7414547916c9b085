"""A ruleset's own names come before the built-ins of the same spelling.

The language grows: a name a ruleset chose (a procedure ``roll``, a definition ``text``, a variable
``players``) may later become the name of a built-in.  The ruleset keeps working: wherever its own
name is visible, a use means the ruleset's name, and the built-in stays reachable as ``builtin.NAME``.
What the checker does for each kind of use:

- a call in an expression, ``f(...)``: the ruleset's definition ``f``, else the built-in function;
- a call as a statement, ``f(...)``: the ruleset's procedure ``f``, else the built-in effect;
- a name, ``x``: the ruleset's local, parameter, variable, zone or definition ``x``, else the built-in
  name; a name a context gives (``player`` in scoring) yields to the ruleset's parameter, variable,
  zone or definition of that spelling too, except the context names older than this rule
  (:data:`CONTEXT_NAMES_FIRST`), which rulesets already rely on coming first;
- ``builtin.f(...)`` and ``builtin.x``: the built-in only.

Each name that hides a built-in earns a :class:`dsl.errors.Note` (collected in ``Ruleset.notes``), so
the author learns how to reach the built-in; a use that cannot mean the ruleset's name (a procedure
called inside an expression) is an error naming both meanings.
"""
from __future__ import annotations

from .errors import CheckError, Note

# the names a context gave before a ruleset's own names came first: there they keep coming before a
# ruleset's variable of the same spelling, as rulesets written then expect; every later one yields
CONTEXT_NAMES_FIRST = frozenset({"player", "component", "owner"})
VALUE_SECTIONS = (("params", "parameter"), ("vars", "variable"), ("zones", "zone"))


def ambiguous_call(name: str, pos) -> CheckError:
    """The error for ``name(...)`` in an expression where ``name`` is both a procedure of the ruleset
    (which only a statement may call) and a built-in function."""
    return CheckError(f"'{name}' is both a procedure of this ruleset and a built-in function, and a "
                      "procedure cannot be part of an expression", pos,
                      f"for the built-in function write 'builtin.{name}(...)'; for the procedure, call it "
                      f"as a statement, '{name}(...)', or store what it returns, 'let x = {name}(...)'")


class Shadowing:
    """The notes on the names of one ruleset that hide built-ins."""

    def __init__(self, ruleset):
        self.notes = ruleset.notes
        self.noted_uses: set = set()

    def note(self, what: str, name: str, builtin: str, qualified: str, position) -> None:
        self.notes.append(Note(f"the {what} '{name}' hides the built-in {builtin}", position,
                               f"here '{name}' means the ruleset's own; where you mean the built-in, "
                               f"write {qualified}"))

    def at_use(self, what: str, name: str, position) -> None:
        """A name that hides a built-in name only in some places (a local, or a variable where a context
        gives a name of that spelling): noted at its first such use."""
        if name not in self.noted_uses:
            self.noted_uses.add(name)
            self.note(what, name, f"name {name}", f"builtin.{name}", position)

    def declarations(self, resolver, constants) -> None:
        """Note every definition, procedure, parameter, variable and zone that hides a built-in."""
        rs, doc = resolver.rs, resolver.doc
        functions, effects = resolver.functions, resolver.effects
        for section, what in VALUE_SECTIONS:
            for name in resolver.data.get(section) or {}:
                if name in constants:
                    self.note(what, name, f"name {name}", f"builtin.{name}", doc.key_position((section, name)))
        for name, define in rs.defines.items():
            hidden = functions.get(name)
            if hidden is not None:
                self.note("definition", name, f"function {hidden.signature()}", f"builtin.{name}(...)",
                          define.position)
            elif name in constants and not define.params:
                self.note("definition", name, f"name {name}", f"builtin.{name}", define.position)
        for name, proc in rs.procedures.items():
            hidden = effects.get(name) or functions.get(name)
            if hidden is not None:
                self.note("procedure", name, f"{hidden.kind} {hidden.signature()}", f"builtin.{name}(...)",
                          proc.position)
