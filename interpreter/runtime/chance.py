"""Explicit chance: every random event of a game as a decision of the chance player.

In the default, *seeded* mode a state draws its random numbers from its own generator, so the seed and
the players' actions decide a game.  In *explicit* mode (``game.new_initial_state(seed,
explicit_chance=True)``) every call the rules make for a random number — each card read from a
shuffled pile, each ``roll`` — stops the game at a chance node instead: ``state.is_chance_node()`` is true,
``state.current_player()`` is :data:`CHANCE`, and ``state.chance_outcomes()`` lists the outcomes
with their probabilities (uniform).  Applying an outcome like an action continues the game.

How: a step (the setup, or one action) runs fed the outcomes chosen so far; when it asks for one more,
the state goes back to the state before the step, now a chance node that remembers the step (and a copy
of the state before it) and its outcomes.  When the last outcome is known the step runs to its end on a
copy of that state.  So the rules run exactly as in seeded mode, with outcomes in place of the generator.
A player's action runs on the state itself, as in seeded mode, where it needs no copy to go back to:
it cannot meet a chance node (the rules call ``roll``/``shuffle`` only in the setup,
:func:`chance_in_play`, and no zone has an undetermined block), or it can stop at a *resume point*
(:mod:`interpreter.runtime.chance_points`): the state is copied just before the first instruction of
the step that may need chance, and a chance node there is that copy — the rules stand at that
instruction — with the outcomes asked since; an outcome runs the rest of the step from a copy of it.
So in a poker game a bet copies nothing, and the action that ends a betting round copies the state
once, where the next card is turned up.  Elsewhere (a decision that needs chance to list its actions,
an option whose own block may need it) the action runs with a copy of the state before it kept to go
back to, and a chance node is that copy and the action, run again with the outcomes.
:func:`outcome_child` gives the state after an outcome without changing (or first copying) the chance
node, :func:`action_child` the state after a player's action with one copy (the state it leaves
unchanged is the one to go back to).  A chance node's record is never changed once made, and a node
at a resume point shares the point's parts (nothing changes either: a step runs on a copy).

A shuffle is lazy (:mod:`interpreter.runtime.lazy_pile`): it fixes no order, and each read of a position
whose component is not decided yet is a chance node over the components left undetermined there (n,
then n - 1, ...), so the chance tree of a deal has the shape of dealing one card at a time, and the
cards of a pile nobody draws are never ordered.  At the end of each step every position a seat may see
is fixed (a zone visible to a seat, the top of a zone whose top is shown), and the legal actions are
worked out, so that nothing between steps needs chance.
"""
from __future__ import annotations

import dataclasses
import weakref
from itertools import repeat
from operator import is_

from dsl import ast
from dsl.errors import IllegalActionError, RulebookError, RulesRuntimeError
from dsl.registry import EFFECTS, FUNCTIONS

from .actions import Action
from .instructions import CHOOSE
from .lazy_pile import LazyPile, copy_piles

CHANCE = -1  # the chance player's seat number, as in OpenSpiel


class ChanceNeeded(BaseException):
    """Raised by the generator of a state in explicit mode when a step needs one more outcome.
    (A BaseException, so that no handler of the rules' errors mistakes it for one.)"""

    def __init__(self, count: int):
        super().__init__(count)
        self.count = count


class ChanceOutcome:
    """One outcome of a chance node: the ``index``-th of ``count`` equally likely ones."""

    __slots__ = ("index", "count")

    def __init__(self, index: int, count: int):
        self.index = index
        self.count = count

    @property
    def public(self) -> bool:
        return False

    def components(self) -> list:
        return []

    def __str__(self) -> str:
        return f"chance outcome {self.index + 1} of {self.count}"

    __repr__ = __str__

    def __eq__(self, other) -> bool:
        return isinstance(other, ChanceOutcome) and (self.index, self.count) == (other.index, other.count)

    def __hash__(self) -> int:
        return hash((self.index, self.count))


class Feeder:
    """The generator of a step being run in explicit mode: it hands out the outcomes chosen so far, in
    order, and asks for the next one when they run out."""

    __slots__ = ("outcomes", "used")
    explicit = False
    count = None  # no chance node is pending while a step runs
    codes = None  # the virtual machine runs the plain instructions

    def __init__(self, outcomes):
        self.outcomes = outcomes
        self.used = 0

    def next(self, count: int) -> int:
        if self.used == len(self.outcomes):
            raise ChanceNeeded(count)
        value = self.outcomes[self.used]
        if not 0 <= value < count:
            raise RulesRuntimeError(f"chance outcome {value} is out of range for {count} outcomes")
        self.used += 1
        return value

    def copy(self) -> "Feeder":
        new = Feeder(self.outcomes)
        new.used = self.used
        return new

    def at_rest(self, s) -> None:
        """The step is through and about to fix what a seat may see (see :class:`Resumable`)."""


class Resumable(Feeder):
    """The feeder of a step that takes a resume point (:mod:`interpreter.runtime.chance_points`): the
    virtual machine runs the game's marked instructions (``codes``), each of which first calls
    :meth:`mark`; at the first where chance may come next, the state is copied (``point``, its top
    frame at the marked instruction).  When the step needs an outcome the chance node is the point
    with the outcomes handed out since.  One point a step: a later one would spare running again
    what lies between, which costs less than a copy.  A step that goes on from a point has that
    point from the start."""

    __slots__ = ("codes", "point")

    def __init__(self, outcomes, codes, point=None):
        self.outcomes = outcomes
        self.used = 0
        self.codes = codes
        self.point = point

    def mark(self, s, proc: int, pc: int) -> None:
        """The rules of the main stack are about to run instruction ``pc`` of procedure ``proc``."""
        if self.point is None and not s.trigger_depth and s.stack and s.stack[-1][0] == proc and not _chance_free(s):
            self._take(s, pc)

    def at_rest(self, s) -> None:
        if self.point is None:
            self._take(s, None)

    def _take(self, s, pc) -> None:
        point = s.clone()
        point.chance = SETTLED
        if pc is not None:
            point.stack[-1][1] = pc
        self.point = point
        self.outcomes = self.outcomes[self.used:]
        self.used = 0


class ChanceRecord:
    """The explicit-chance part of a state between steps: nothing pending (a decision or the end), or a
    chance node: the state before the step (``before``), the step (``action``: the index of the action
    among the legal actions of ``before``, or None for the setup) and the outcomes chosen so far.
    ``begin`` is the setup step as the game was started (with its ``arrange``), run again with each
    outcome; it is not saved: a state loaded at a chance node of its setup runs the plain setup.
    ``resume``: ``before`` is a resume point (:class:`Resumable`), and the step goes on from it."""

    __slots__ = ("before", "action", "outcomes", "count", "begin", "resume")
    explicit = True
    codes = None

    def __init__(self, before=None, action=None, outcomes=(), count=None, begin=None, resume=False):
        self.before = before
        self.action = action
        self.outcomes = list(outcomes)
        self.count = count  # how many outcomes the pending node has; None: no node pending
        self.begin = begin
        self.resume = resume

    def next(self, count: int) -> int:
        raise RulesRuntimeError("a random number was asked for outside a step of the game")

    def copy(self) -> "ChanceRecord":
        return self  # a record is never changed once made: copies of a state share it

    def to_dict(self) -> dict:
        if self.count is None:
            return {"pending": None}
        return {"pending": self.count, "outcomes": list(self.outcomes), "action": self.action,
                "before": self.before.to_dict(), **({"resume": True} if self.resume else {})}


SETTLED = ChanceRecord()  # no chance node pending (records are never changed: one serves every state)


def to_dict(s) -> dict:
    """``State.to_dict()['chance']``: the record, and the undetermined block of each zone that has one
    (``{"zone number": [lo, hi]}``)."""
    out = s.chance.to_dict()
    blocks = {str(zone): [pile.lo, pile.hi] for zone, pile in enumerate(s.zones)
              if type(pile) is LazyPile and pile.hi}
    if blocks:
        out["undetermined"] = blocks
    return out


def settle(s) -> None:
    """At the end of a step: fix what a seat may see, and work out the legal actions (each may need
    chance, which only a step can ask)."""
    game = s.game
    zones = s.zones
    for zone in game.seen_zones:
        pile = zones[zone]
        if type(pile) is LazyPile and pile.hi:
            seen = game.zone_mask[zone]
            if seen is None:
                seen = game.visible_mask(s, zone)
            if seen:
                s.chance.at_rest(s)
                pile.fix_all()
            elif game.top_mask[zone] and pile.hi == len(pile):
                s.chance.at_rest(s)
                pile.fix(len(pile) - 1)
    if not s.over and s.decider is not None and s.legal_cache is None:
        try:
            s.legal_actions()
        except RulebookError:
            pass  # the same error comes again when the legal actions are asked for


def outcomes(s) -> list:
    """``(outcome, probability)`` of every outcome of the pending chance node."""
    count = s.chance.count
    listed = _LISTED.get(count)
    if listed is None:  # outcomes are never changed: one list per number of outcomes serves every node
        listed = tuple((ChanceOutcome(i, count), 1.0 / count) for i in range(count))
        if count <= _LISTED_UP_TO:
            _LISTED[count] = listed
    return list(listed)


_LISTED: dict = {}
_LISTED_UP_TO = 1024  # a die of a million sides is listed anew each time, not kept


def start(s, begin) -> None:
    """Run the start of a game (``begin(state)``: setup and the flow to its first stop) in explicit
    mode on ``s``, a state before setup."""
    s.zones = copy_piles(s.zones, s)
    _run_step(s, None, [], begin)


def apply(s, action) -> None:
    """Apply a player's action or a chance outcome to ``s`` in explicit mode."""
    record = s.chance
    if record.count is not None:
        work, node = _stepped(record, record.outcomes + [_outcome_index(record, action)])
        if work is not None:
            _become(s, work)
            return
        base, new = node
        if base is not record.before:  # a resume point: the node shares its parts
            _become(s, base)
        s.chance = new
        return
    if isinstance(action, ChanceOutcome):
        raise IllegalActionError("this is not a chance node", hint="choose one of state.legal_actions()")
    legal = s.legal_actions()
    if (type(action) is not Action or action.batch.actions is not legal) and not any(map(is_, legal, repeat(action))):
        action = legal[_index_of(s, action)]  # not an action of this very decision: its text, or an equal one
    if not _run_on_itself(s, action):
        index = _index_of(s, action)
        _run_step(s, index, [], _step(index))


# what a walk of the ruleset leaves out: the setup, and tables about the rules rather than rules
_NOT_RULES = frozenset({"setup", "types", "symbols", "data", "message_fields", "display", "notes",
                        "stage_orders", "param_specs"})


def chance_in_play(game) -> bool:
    """Whether anything of the rules but the setup calls a built-in that draws chance (``roll``,
    ``shuffle``; by name, so a ruleset's own function of that name counts too)."""
    try:
        return game._chance_in_play
    except AttributeError:
        game._chance_in_play = _calls_chance(game.ruleset)
        return game._chance_in_play


def _calls_chance(rs) -> bool:
    drawing = {name for registry in (FUNCTIONS, EFFECTS) for name, builtin in registry.entries.items()
               if builtin.chance}
    todo = [getattr(rs, f.name) for f in dataclasses.fields(rs) if f.name not in _NOT_RULES]
    while todo:
        item = todo.pop()
        if isinstance(item, ast.Call) and item.func in drawing:
            return True
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.values())
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            todo.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return False


def _chance_free(s) -> bool:
    """Whether a player's action from ``s`` surely asks no chance: the rules draw chance only in the
    setup, and no zone has an undetermined block to read."""
    if chance_in_play(s.game):
        return False
    for pile in s.zones:
        if type(pile) is LazyPile and pile.hi:
            return False
    return True


def _index_of(s, action) -> int:
    legal = s.legal_actions()
    if isinstance(action, str):
        action = s.parse_action(action)
    for i, candidate in enumerate(legal):  # the action itself, usually: by identity first
        if candidate is action:
            return i
    for i, candidate in enumerate(legal):
        if candidate == action:
            return i
    raise IllegalActionError(f"'{action}' is not a legal action now", hint="choose one of state.legal_actions()")


def _step(index):
    if index is None:
        return lambda work: work.game.start_state(work)
    return lambda work: work.apply_action(work.legal_actions()[index])


def outcome_child(s, outcome):
    """The state after a chance outcome (its index, or a ``ChanceOutcome``) at the chance node ``s``,
    ``s`` unchanged: what applying it to a copy of ``s`` gives, without copying ``s`` first (the
    step runs on a copy of the state before it anyway)."""
    record = s.chance
    work, node = _stepped(record, record.outcomes + [_outcome_index(record, outcome)])
    if work is None:
        base, new = node
        work = s.clone() if base is record.before else _sharing(base)
        work.chance = new
    return work


def action_child(s, action):
    """The state after a player's action (an Action of ``s``, or its text) at ``s``, a decision in
    explicit mode, ``s`` unchanged: what applying it to a copy of ``s`` gives, with one copy (the step
    runs on it, and ``s`` itself is there to go back to when the step needs chance)."""
    index = _index_of(s, action)
    work = s.clone()
    if _run_on_itself(work, s.legal_cache[index]):  # the copy's too: a copy shares the legal actions
        return work
    count = _fed(work, Feeder([]), _step(index))
    if count is None:
        return work
    node = s.clone()
    node.chance = ChanceRecord(s.clone(), index, [], count)
    return node


def _outcome_index(record, outcome) -> int:
    if type(outcome) is int and 0 <= outcome < record.count:
        return outcome
    if isinstance(outcome, int) and not isinstance(outcome, bool):
        outcome = ChanceOutcome(outcome, record.count)
    if not isinstance(outcome, ChanceOutcome) or outcome.count != record.count or not 0 <= outcome.index < outcome.count:
        raise IllegalActionError(f"'{outcome}' is not an outcome of this chance node",
                                 hint="choose one of state.chance_outcomes()")
    return outcome.index


def _pending_step(record):
    if record.resume:
        return _resume
    return record.begin if record.action is None and record.begin is not None else _step(record.action)


def _resume(work) -> None:
    """The step of a chance node at a resume point: the rules go on from there."""
    work.resume()


def resume_point(s) -> bool:
    """Whether a state loaded as a resume point is one: its rules stand at an instruction that may
    need chance or at a decision (or the game is over), in a game whose actions take resume points."""
    if not s.game.chance_points().safe:
        return False
    if not s.stack:
        return s.over
    proc, pc = s.stack[-1][0], s.stack[-1][1]
    return (proc, pc) in s.game.chance_points().points or s.game.codes[proc][pc][0] == CHOOSE


def _run_on_itself(s, action) -> bool:
    """Apply a legal action to ``s`` itself, as in seeded mode, where no copy to go back to is
    needed: no chance can come (:func:`_chance_free`), or the step can take a resume point (see
    :mod:`interpreter.runtime.chance_points`: no decision of the game needs chance to list its
    actions, and the option's own block does not).  ``s`` becomes the state after the action, or the
    chance node at the point; False (``s`` unchanged) where a copy is needed.  As in seeded mode an
    error leaves ``s`` broken."""
    game = s.game
    try:
        points = game._chance_points
    except AttributeError:
        points = game.chance_points()
    if points.safe and action.option not in points.risky:
        feeder = Resumable([], points.codes)  # it copies the state only where chance may come
    elif _chance_free(s):
        feeder = Feeder(())
    else:
        return False
    s.chance = feeder
    try:
        s.apply_action(action)
        settle(s)
    except ChanceNeeded as need:
        point = feeder.point
        if point is None:
            s.chance = SETTLED
            raise RulesRuntimeError(
                "explicit chance: the rules asked for chance where no resume point was taken",
                hint="report this ruleset: interpreter/runtime/chance_points.py missed a reading") from None
        _become(s, point)
        s.chance = ChanceRecord(point, None, feeder.outcomes, need.count, resume=True)
        return True
    except BaseException:
        s.chance = SETTLED
        raise
    s.chance = SETTLED
    return True


def _fed(work, feeder, step):
    """Run ``step`` on ``work`` fed by ``feeder``: None when it ran to its end (``work`` then has no
    node pending), else how many outcomes the chance node it stopped at has (``work`` is then
    half-way)."""
    work.chance = feeder
    try:
        step(work)
        settle(work)
    except ChanceNeeded as need:
        return need.count
    work.chance = SETTLED
    return None


def _stepped(record, chosen) -> tuple:
    """Run the step of the chance node ``record`` from a copy of its state before, fed ``chosen``:
    ``(the copy after it, None)``, or ``(None, (state, record))``: the chance node it stops at (the
    record's state before, or a resume point taken on the way)."""
    work = record.before.clone()
    points = work.game.chance_points()
    if record.resume or (record.action is not None and points.safe):
        feeder = Resumable(chosen, points.codes, record.before if record.resume else None)
    else:
        feeder = Feeder(chosen)
    count = _fed(work, feeder, _pending_step(record))
    if count is None:
        return work, None
    point = getattr(feeder, "point", None)
    if point is None or point is record.before:
        return None, (record.before, ChanceRecord(record.before, record.action, chosen, count, record.begin,
                                                  record.resume))
    return None, (point, ChanceRecord(point, None, feeder.outcomes, count, resume=True))


def _run_step(s, index, chosen, step) -> None:
    """Run ``step`` fed ``chosen`` on ``s`` itself, with a copy kept to go back to: ``s`` becomes its
    result, or that copy as a chance node when one more outcome is needed."""
    kept = s.clone()
    try:
        count = _fed(s, Feeder(chosen), step)
    except BaseException:
        _become(s, kept)  # an error leaves the state as it was before the step
        raise
    if count is not None:
        _become(s, kept)
        s.chance = ChanceRecord(kept.clone(), index, chosen, count, step if index is None else None)


def _sharing(point):
    """A state made of the very parts of ``point``, a resume point, which nothing changes: a chance
    node there (a step goes on from a copy of the point, and its result replaces the node's parts)."""
    node = type(point).__new__(type(point))
    node.take_over(point)
    return node


def _become(s, other) -> None:
    s.take_over(other)
    for pile in s.zones:
        if type(pile) is LazyPile:
            pile.owner = weakref.ref(s)
