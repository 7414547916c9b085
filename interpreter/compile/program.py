"""The compiled program of a ruleset: its procedures, triggers, scoring and zone conditions,
compiled against the ruleset's :class:`~interpreter.runtime.layout.Layout`.

``compile_program(ruleset, layout)`` is the compile stage of the pipeline: it takes the checked
ruleset and returns a :class:`Program`; the :class:`~interpreter.game.Game` is built from the two.
"""
from __future__ import annotations

from dsl.errors import CheckError, RulesRuntimeError

from ..codegen.nodes import N
from ..codegen.ranges import mark_ranges
from ..runtime import vm
from .compiler import Compiler


class Program:
    """What the compiler makes of a ruleset (every field is read by the running game)."""

    FIELDS = ("setup_proc", "flow_proc", "zone_triggers", "procs", "codes", "openings", "straight",
              "score", "tiebreaks", "evaluation", "team", "zone_holds", "zone_knowledge",
              "arrivals", "departures")
    __slots__ = FIELDS


def compile_program(ruleset, layout, codegen: bool = True, inline: bool = True) -> Program:
    """Compile ``ruleset`` against ``layout``: generated Python functions where the code generator
    handles a construct (``codegen=False``: closures alone, the reference), calls inlined unless
    ``inline=False``.  The marks' ranges are worked out first and kept in ``layout.mark_ranges``
    (the generated arithmetic checks and saved states read them)."""
    try:
        return _compiled(ruleset, layout, codegen, inline)
    finally:
        N.stop()  # the bound on generated code is the compile's: code made in play is not counted


def _compiled(ruleset, layout, codegen, inline) -> Program:
    rs = ruleset
    program = Program()
    compiler = Compiler(rs, layout, codegen=codegen, inline=inline)
    mark_ranges(compiler, layout)  # before any code is generated: its arithmetic checks read them
    program.setup_proc = compiler.procedure("setup", [], rs.setup, None)
    program.flow_proc = compiler.procedure("flow", [], rs.flow, None, decides=True)
    per_zone = [None] * len(layout.zone_names)
    events = ("enter", "leave", "empty")
    for trigger in rs.triggers:
        proc = compiler.procedure(f"trigger '{trigger.name}'", [], trigger.body, trigger.position)
        when = compiler.expr(trigger.when) if trigger.when is not None else None
        for zone in (z for z, family in enumerate(layout.zone_family) if family == trigger.zone):
            if per_zone[zone] is None:
                per_zone[zone] = ([], [], [])
            per_zone[zone][events.index(trigger.event)].append((proc, when))
    program.zone_triggers = per_zone
    program.procs = compiler.procs
    program.codes = [proc.code for proc in compiler.procs]
    program.openings = vm.opening_decisions(program.codes)
    program.straight = vm.straight_bodies(program.codes)
    program.score = compiler.expr(rs.score) if rs.score is not None else None
    program.tiebreaks = [compiler.expr(t) for t in rs.tiebreaks]
    program.evaluation = compiler.expr(rs.evaluation) if rs.evaluation is not None else None
    program.team = compiler.expr(rs.team) if rs.team is not None else None
    program.zone_holds = _zone_conditions(compiler, rs, layout)
    knowledge = {name: compiler.expr(family.knowledge) for name, family in rs.zones.items()
                 if family.knowledge is not None}
    program.zone_knowledge = [knowledge.get(family) for family in layout.zone_family]
    # per zone, what State.move_component reads of a move into it: whether the move checks more
    # than the common case (State._enter), who sees its whole contents always (None: it depends
    # on the state), who sees its top, the triggers entering it sets off (None: none); and of a
    # move out of it: who sees it always, its top, the triggers of leaving it, of its emptying
    checked = [host is not None or holds is not None or layout.has_grids
               for host, holds in zip(layout.zone_host, program.zone_holds)]
    fired = [[(z and z[event]) or None for z in per_zone] for event in range(3)]  # enter, leave, empty
    zones = range(len(layout.zone_names))
    program.arrivals = [(checked[z], layout.zone_mask[z], layout.top_mask[z], fired[0][z]) for z in zones]
    program.departures = [(layout.zone_mask[z], layout.top_mask[z], fired[1][z], fired[2][z]) for z in zones]
    compiler.finish()
    return program


def _zone_conditions(compiler, rs, layout) -> list:
    """Per zone, which components it may hold (``mask[c]``), or None if it holds any."""
    masks = {}
    for name, family in rs.zones.items():
        if family.holds is None:
            continue
        test = compiler.expr(family.holds)
        masks[name] = [_meets(test, c) for c in range(layout.num_components)]
    per_zone = [masks.get(family) for family in layout.zone_family]
    for zone, cards in enumerate(layout.initial_zones):
        for c in cards:
            if per_zone[zone] is not None and not per_zone[zone][c]:
                raise CheckError(f"{layout.names[c]} starts in zone '{layout.zone_names[zone]}', whose "
                                 "'holds' condition it does not meet",
                                 rs.zones[layout.zone_family[zone]].holds.pos,
                                 "start it in another zone ('in:'), or widen the condition")
    return per_zone


def _meets(test, c) -> bool:
    """Whether component ``c`` meets a condition on its printed attributes (one it lacks: no)."""
    try:
        return bool(test(None, {"component": c}))
    except RulesRuntimeError:
        return False
