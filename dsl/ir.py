"""The checked ruleset: what the static checks hand to the compiler.

Expressions are syntax trees from :mod:`dsl.ast`; ``Ruleset.types`` and ``Ruleset.symbols`` map each
expression node to its static type and to what its name or attribute resolved to.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .ast import Node
from .errors import Position
from .types import Type


# ---- declarations -------------------------------------------------------------------------------
@dataclass
class ComponentKind:
    name: str
    template: str
    attributes: dict  # name -> Type
    enums: dict  # name -> list of allowed strings
    marks: dict  # name -> default value
    rows: list  # list of dicts: attributes, count, zone, each_player
    position: Position


@dataclass
class ZoneFamily:
    name: str
    per: str | None  # None (one shared zone), "player", or a component kind (one zone per component)
    visibility: str  # all / owner / none / count / top
    position: Position
    grid: tuple | None = None  # (rows, columns) for a zone whose places are cells
    holds: object = None  # a condition on 'component' every component in the zone meets (a Node)
    knowledge: object = None  # what every seat knows of the component at each place (a Node)
    kind: str | None = None  # 'holds: <kind>': the one kind of component the zone holds (known statically)

    @property
    def per_player(self) -> bool:
        return self.per == "player"

    @property
    def per_kind(self) -> str | None:
        return self.per if self.per not in (None, "player") else None


@dataclass
class Variable:
    name: str
    type: Type
    initial: object
    visibility: str
    position: Position
    low: int | None = None  # a declared 'min' (int variables), for tools that scale or number values
    high: int | None = None  # a declared 'max'


@dataclass
class Define:
    name: str
    params: list
    body: Node
    position: Position


# ---- statements -----------------------------------------------------------------------------------
@dataclass
class Stmt:
    position: Position


@dataclass
class Exec(Stmt):
    """A simple statement: assignment, let, or a call of an effect."""

    node: Node


@dataclass
class CallProc(Stmt):
    proc: str
    args: list
    then: "Exec | None" = None  # for ``let x = proc()``: the statement that stores the returned value


@dataclass
class Return(Stmt):
    value: "Node | None"


@dataclass
class If(Stmt):
    cond: Node
    then: list
    otherwise: list


@dataclass
class While(Stmt):
    cond: Node
    body: list
    limit: int | None


@dataclass
class For(Stmt):
    var: str
    source: Node
    body: list


@dataclass
class Repeat(Stmt):
    count: Node
    body: list


@dataclass
class Simultaneous(Stmt):
    var: str
    source: Node
    body: list


@dataclass
class Block(Stmt):
    """A named group of statements (``step: name`` with ``do:``)."""

    name: str
    body: list


@dataclass
class Break(Stmt):
    pass


@dataclass
class Continue(Stmt):
    pass


@dataclass
class Option:
    name: str
    text: str | None
    params: list  # list of (name, Node domain expression)
    require: Node | None
    body: list
    position: Position
    decline: bool = False
    public: bool = False
    stages: tuple = ()  # the parameters in the order a staged decision asks them (empty: declared order)
    text_fields: tuple = ()  # (field, expression) of the text's {fields} that are no parameters


@dataclass
class Choose(Stmt):
    player: Node
    prompt: str | None
    options: list
    if_none: str
    prompt_parts: tuple = ()  # (literal text, expression or None) of the prompt's {fields}


def nested(stmt) -> list:
    """The statement lists nested in ``stmt``, in the order written (an option's body, a branch, a
    loop's body)."""
    if isinstance(stmt, Choose):
        return [option.body for option in stmt.options]
    return [getattr(stmt, key) for key in ("then", "otherwise", "body") if isinstance(getattr(stmt, key, None), list)]


def walk(stmts):
    """The statements of a list and every statement nested in them, in the order written (each
    before what it holds); without recursion, so any depth of nesting is fine."""
    todo = list(reversed(stmts))
    while todo:
        stmt = todo.pop()
        yield stmt
        for inner in reversed(nested(stmt)):
            todo.extend(reversed(inner))


@dataclass
class Procedure:
    name: str
    params: list
    body: list
    position: Position
    param_types: tuple = ()  # the types the checker gave the parameters (from the first call)


@dataclass
class Trigger:
    name: str
    event: str  # enter / leave / empty
    zone: str  # zone family
    when: Node | None
    body: list
    position: Position


@dataclass
class Ruleset:
    name: str
    file: str
    description: str
    min_players: int
    max_players: int
    players: int
    player_names: list
    params: dict  # name -> value in force
    param_specs: dict  # name -> dict from the ruleset
    kinds: dict  # name -> ComponentKind
    zones: dict  # name -> ZoneFamily
    vars: dict  # name -> Variable
    player_vars: dict  # name -> Variable
    defines: dict  # name -> Define
    procedures: dict  # name -> Procedure
    setup: list
    flow: list
    triggers: list
    score: Node | None
    tiebreaks: list
    evaluation: Node | None
    types: dict = field(default_factory=dict)  # Node -> Type
    symbols: dict = field(default_factory=dict)  # Node -> tuple
    data: object = None  # the raw document data, for tools such as `explain`
    reveal: tuple = ()  # the zone families every seat sees once the game is over
    score_sum: int | None = None  # scoring.sum: what the scores of every finished game add up to
    stage_orders: dict = field(default_factory=dict)  # option Position -> parameter names in asking order
    message_fields: dict = field(default_factory=dict)  # a log() Call -> its expression fields (dsl/messages.py)
    display: dict = field(default_factory=dict)  # the checked 'display:' section (dsl/display.py)
    notes: list = field(default_factory=list)  # dsl.errors.Note: names of the ruleset that hide built-ins
    cooperative: bool = False  # scoring: cooperative: all seats share one result (the score of any seat)
    team: Node | None = None  # scoring: team: the team of 'player' (seats of one team win together)
    best: int | None = None  # scoring: best: the best result possible (cooperative games)
    default_bot: tuple = ()  # bots: default: (the bot spec text, its Position) for seats given no bot
