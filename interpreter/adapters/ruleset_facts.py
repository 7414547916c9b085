"""What the checked ruleset tells the adapters about a game as a whole: whether it draws random
numbers, whether every seat sees everything, and what its scores add up to (``scoring.sum``)."""
from __future__ import annotations

from dsl import ir
from dsl.registry import EFFECTS, FUNCTIONS


def draws_chance(rs) -> bool:
    """Whether the rules ever call a built-in that draws from the random generator (``roll``,
    ``shuffle``)."""
    registries = {"func": FUNCTIONS, "effect": EFFECTS}
    for symbol in rs.symbols.values():
        registry = registries.get(symbol[0]) if isinstance(symbol, tuple) and len(symbol) == 2 else None
        builtin = registry.get(symbol[1]) if registry is not None else None
        if builtin is not None and builtin.chance:
            return True
    return False


def _bodies(rs):
    yield rs.setup
    yield rs.flow
    for trigger in rs.triggers:
        yield trigger.body
    for procedure in rs.procedures.values():
        yield procedure.body


def perfect_information(rs, explicit_chance: bool) -> bool:
    """Whether every seat sees everything: no zone or variable is hidden from anyone, no
    simultaneous block exists, and no random number is drawn from a generator the seats cannot see
    (explicit chance shows every random event as a chance node)."""
    if any(zone.visibility != "all" for zone in rs.zones.values()):
        return False
    if any(var.visibility != "all" for var in list(rs.vars.values()) + list(rs.player_vars.values())):
        return False
    if any(isinstance(stmt, ir.Simultaneous) for body in _bodies(rs) for stmt in ir.walk(body)):
        return False
    return explicit_chance or not draws_chance(rs)


def score_sum(rs):
    """What the scores of every finished game add up to (``scoring.sum``), or None."""
    return rs.score_sum
