"""Static types of the expression language."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    """A static type: int, bool, str, player, none, any, component (of a kind), zone, list (of a type)."""

    name: str
    arg: object = None

    def __str__(self) -> str:
        if self.name == "component":
            return f"component of kind '{self.arg}'" if self.arg else "component"
        if self.name == "list":
            return f"list of {self.arg}" if self.arg and self.arg != ANY else "list"
        if self.name == "zone" and self.arg:
            return f"zone holding '{self.arg}'"
        return self.name


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
PLAYER = Type("player")
NONE = Type("none")
ANY = Type("any")
ZONE = Type("zone")
CELL = Type("cell")
COMPONENT = Type("component")


def component(kind: str | None = None) -> Type:
    return Type("component", kind)


def list_of(elem: Type = ANY) -> Type:
    return Type("list", elem)


def zone_of(kind: str | None = None) -> Type:
    """A zone; with ``kind``, one that holds components of that kind only (``holds: card``)."""
    return Type("zone", kind)


def kind_of_items(t: Type) -> str | None:
    """The one kind of component a component, list or zone of type ``t`` holds, if the type tells."""
    if t.name == "component":
        return t.arg
    if t.name in ("list", "zone"):
        elem = element_type(t)
        return elem.arg if elem is not None and elem.name == "component" else None
    return None


def element_type(t: Type) -> Type | None:
    """The element type of a collection (a list, or a zone holding components); None if not one."""
    if t.name == "list":
        return t.arg or ANY
    if t.name == "zone":
        return component(t.arg)
    if t.name == "any":
        return ANY
    return None


def is_collection(t: Type) -> bool:
    return element_type(t) is not None


def compatible(expected: Type, actual: Type) -> bool:
    """Whether a value of type ``actual`` may stand where ``expected`` is wanted."""
    if expected == ANY or actual == ANY:
        return True
    if expected.name != actual.name:
        if actual == NONE and expected.name in ("player", "component", "cell"):
            return True
        if expected == NONE and actual.name in ("player", "component", "cell"):
            return True
        return False
    if expected.name in ("component", "zone"):  # of a kind (a zone: the kind it holds)
        return expected.arg is None or actual.arg is None or expected.arg == actual.arg
    if expected.name == "list":
        return compatible(expected.arg or ANY, actual.arg or ANY)
    return True


def join(a: Type, b: Type) -> Type:
    """The more specific of two compatible types (used to refine 'list of any' and 'none')."""
    if a == ANY or a == NONE:
        return b
    if b == ANY or b == NONE:
        return a
    if a.name == "list" and b.name == "list":
        return list_of(join(a.arg or ANY, b.arg or ANY))
    if a.name == b.name and a.name in ("component", "zone") and a.arg != b.arg:
        return Type(a.name)
    return a


def type_of_value(value) -> Type:
    """The type of a literal YAML value (initial values of variables, parameter values)."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if value is None:
        return NONE
    if isinstance(value, list):
        elem = ANY
        for item in value:
            elem = join(elem, type_of_value(item))
        return list_of(elem)
    return ANY


NAMED_TYPES = {"int": INT, "bool": BOOL, "str": STR, "player": PLAYER, "component": COMPONENT,
               "cell": CELL, "list": list_of(ANY)}


def type_text(type_) -> str:
    """A static type as the text a typed built-in gets (``dsl.registry.Builtin.typed``): its name,
    and a list's element type (``"list component"``)."""
    if type_ is None:
        return "any"
    if type_.name == "list":
        return f"list {type_.arg.name if isinstance(type_.arg, Type) else 'any'}"
    return type_.name
