"""Syntax tree of expressions and simple statements.  Every node is frozen and knows its position."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Position

MAX_DEPTH = 64  # levels of operators, calls and brackets inside one another
INT_LIMIT = 2 ** 63


@dataclass(frozen=True, eq=False)
class Node:
    pos: Position = field(repr=False)


# ---- expressions -----------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Literal(Node):
    value: Any


@dataclass(frozen=True, eq=False)
class Name(Node):
    id: str
    builtin: bool = False  # written builtin.NAME: the built-in, even where a name of the ruleset hides it


@dataclass(frozen=True, eq=False)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True, eq=False)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, eq=False)
class Slice(Node):
    """``obj[start:stop]``: a part of a list (either bound may be None)."""
    obj: Node
    start: "Node | None"
    stop: "Node | None"


@dataclass(frozen=True, eq=False)
class Call(Node):
    func: str
    args: tuple
    kwargs: tuple  # of (name, Node)
    builtin: bool = False  # written builtin.NAME(...): the built-in, even where the ruleset's own name hides it


@dataclass(frozen=True, eq=False)
class Comprehension(Node):
    """``func(elem for var in source if cond)``; func is 'list' for ``[elem for ...]``."""

    func: str
    elem: Node
    var: str
    source: Node
    cond: Node | None


@dataclass(frozen=True, eq=False)
class ListLit(Node):
    items: tuple


@dataclass(frozen=True, eq=False)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, eq=False)
class Compare(Node):
    op: str  # == != < <= > >= in notin
    left: Node
    right: Node


@dataclass(frozen=True, eq=False)
class BoolOp(Node):
    op: str  # and / or
    left: Node
    right: Node


@dataclass(frozen=True, eq=False)
class Not(Node):
    operand: Node


@dataclass(frozen=True, eq=False)
class Neg(Node):
    operand: Node


@dataclass(frozen=True, eq=False)
class Cond(Node):
    test: Node
    then: Node
    otherwise: Node


# ---- simple statements -------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True, eq=False)
class Assign(Node):
    target: Node
    op: str
    value: Node


@dataclass(frozen=True, eq=False)
class CallStmt(Node):
    call: Call


@dataclass(frozen=True, eq=False)
class Break(Node):
    pass


@dataclass(frozen=True, eq=False)
class Continue(Node):
    pass


@dataclass(frozen=True, eq=False)
class Return(Node):
    """``return`` or ``return value``: leave the procedure (giving the value to ``let x = proc()``)."""
    value: "Node | None"


def children(node: Node):
    """The direct sub-expressions of a node, for generic walks."""
    if isinstance(node, (Attr, Not, Neg)):
        yield node.obj if isinstance(node, Attr) else node.operand
    elif isinstance(node, Index):
        yield node.obj
        yield node.index
    elif isinstance(node, Slice):
        yield node.obj
        yield from (bound for bound in (node.start, node.stop) if bound is not None)
    elif isinstance(node, Call):
        yield from node.args
        for _, value in node.kwargs:
            yield value
    elif isinstance(node, Comprehension):
        yield node.source
        yield node.elem
        if node.cond is not None:
            yield node.cond
    elif isinstance(node, ListLit):
        yield from node.items
    elif isinstance(node, (BinOp, Compare, BoolOp)):
        yield node.left
        yield node.right
    elif isinstance(node, Cond):
        yield node.test
        yield node.then
        yield node.otherwise
    elif isinstance(node, (Let, Assign)):
        if isinstance(node, Assign):
            yield node.target
        yield node.value
    elif isinstance(node, CallStmt):
        yield node.call
    elif isinstance(node, Return) and node.value is not None:
        yield node.value
