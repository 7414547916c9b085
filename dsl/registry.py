"""Registries of built-ins: expression functions and effects, each with a declared signature.

The interpreter fills the registries (``interpreter/runtime/functions.py``, ``interpreter/runtime/effects.py``); the
checker reads the signatures; ``docs/language.md`` is checked against them by a test.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .types import Type

REQUIRED = object()


@dataclass(frozen=True)
class Param:
    """One parameter of a built-in.  ``spec`` is a type name: int, bool, str, player, component,
    zone, collection (a list or a zone), any; a leading '*' makes it take any number of values."""

    name: str
    spec: str
    default: object = REQUIRED

    @property
    def variadic(self) -> bool:
        return self.spec.startswith("*")

    @property
    def base_spec(self) -> str:
        return self.spec.lstrip("*")


@dataclass
class Builtin:
    name: str
    params: tuple
    returns: object  # a Type, or a function of the argument types giving a Type
    doc: str
    impl: Callable
    kind: str  # "function" or "effect"
    raw: bool = False  # the implementation gets compiled argument closures instead of values
    chance: bool = False  # draws from the game's random generator: only in statements, never in a test
    # given the value of the first argument where the rules write it as a constant: the same
    # implementation for that value, taking the other arguments (its work on the value done once),
    # or None; generated code calls it instead of ``impl``
    specialized: Callable | None = None
    # the implementation gets, after its arguments, the static type of the first one as text ("int",
    # "player", "list component", ...): what a value is where values of several types look alike
    typed: bool = False

    def signature(self) -> str:
        parts = []
        for p in self.params:
            text = f"{p.name}: {p.spec}"
            if p.default is not REQUIRED:
                text += f" = {p.default}"
            parts.append(text)
        returns = self.returns if isinstance(self.returns, Type) else (self.returns.__doc__ or "a value")
        tail = "" if self.kind == "effect" else f" -> {returns}"
        return f"{self.name}({', '.join(parts)}){tail}"

    def result_type(self, arg_types: list) -> Type:
        return self.returns(arg_types) if callable(self.returns) else self.returns


@dataclass
class Registry:
    kind: str
    entries: dict = field(default_factory=dict)

    def register(self, name: str, params: tuple, returns, doc: str, raw: bool = False, chance: bool = False,
                 specialized: Callable | None = None, typed: bool = False):
        """Decorator: add the decorated implementation under ``name``."""

        def decorate(impl: Callable) -> Callable:
            if name in self.entries:
                raise ValueError(f"{self.kind} {name!r} registered twice")
            self.entries[name] = Builtin(name, tuple(params), returns, doc, impl, self.kind, raw, chance,
                                         specialized, typed)
            return impl

        return decorate

    def get(self, name: str) -> Builtin | None:
        return self.entries.get(name)

    def names(self) -> list[str]:
        return sorted(self.entries)


FUNCTIONS = Registry("function")
EFFECTS = Registry("effect")


@dataclass(frozen=True)
class BuiltinName:
    """A name the language gives every ruleset (documented with the built-ins)."""

    name: str
    type: str
    where: str
    doc: str


BUILTIN_NAMES = {n.name: n for n in (
    BuiltinName("players", "list of player", "everywhere",
                "Every seat in seat order, numbered from 0: `for p in players`, `size(players)`."),
    BuiltinName("num_players", "int", "everywhere",
                "How many players this game has (set when the game is loaded, `--players`); "
                "usable in component counts and parameters' uses."),
    BuiltinName("active", "player", "everywhere",
                "A variable every ruleset has: the player whose turn it is (seat 0 at the start), the "
                "default decider of a `choose`; pass the turn with `active = next_player(active)`."),
    BuiltinName("player", "player", "scoring",
                "In `score`, `tiebreak` and `evaluation`: the player being scored."),
    BuiltinName("component", "component", "zone conditions and enter/leave triggers",
                "The component in question: the one a zone's `holds` or `knowledge` condition tests, or "
                "the one that entered or left the zone of a trigger."),
    BuiltinName("position", "int", "a zone's `knowledge`",
                "The position in the zone (from 0, bottom first) of the component the condition tests."),
    BuiltinName("owner", "player", "enter/leave triggers, a zone's `knowledge`; also `c.owner`",
                "In a trigger or a zone's `knowledge`: the player whose zone it is. As `c.owner`: the "
                "player a component belongs to now (the owner of the zone it lies in, or none)."),
    BuiltinName("top", "str", "the `at` argument of move and draw", "Put components on top (the default)."),
    BuiltinName("bottom", "str", "the `at` argument of move and draw", "Put components under the bottom."),
)}
