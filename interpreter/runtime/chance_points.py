"""Where a step of explicit chance may stop: the instructions that may read a zone's order or draw
a random number, found in the compiled rules.

In explicit chance mode (:mod:`interpreter.runtime.chance`) a chance node is a state the rules can go
on from, and the outcomes chosen there.  Such a state is the state before the step, copied before
every player's action in case the action meets chance, or a *resume point*: the state copied while
the step runs, just before an instruction that may need chance, with the top frame's pc at that
instruction.  Going on from it runs the virtual machine from there, fed the outcomes.  Copying only
where chance may come spares the copy of every action that never gets there (in a poker game, every
bet of a betting round; only the action that ends the round turns up a card).

Which instructions may need chance is read off the generated code of each instruction, without
trusting anything it cannot tell: an instruction whose code reads the zones (``s.zones``), moves
components, or calls anything but a short list of helpers known to read neither zones nor the
generator (range checks, ``end_game``, arithmetic on players) *may need chance*; so does every
instruction run by closures rather than generated code.  The checked game is *safe* for resume
points when no decision's legal actions may need chance (they are worked out when the rules stop at
the decision, where no point is taken): else every action is copied first, as before.

``Game.chance_points()`` gives, per game (made once): the set of ``(procedure, pc)`` that may need chance,
the instructions with those wrapped so that each first tells the state's feeder where it stands
(the feeder copies the state there when it matters; the virtual machine runs these instructions
instead of the plain ones while such a feeder is in charge), and whether the game is safe.
"""
from __future__ import annotations

from . import actions, effects, functions, limits
from .instructions import BRANCHN, CALL, CHOOSE, EXEC, EXECN, FORINIT, JUMPF, ChoiceSpec, OptionSpec

GENERATED = "<rulebook generated>"  # the file name of the code interpreter.codegen compiles
# what the generated code may read of the state and of Python without reading a zone's order
_SAFE_NAMES = frozenset({"vars", "pvars", "marks", "decider", "legal_cache", "get", "append", "add", "__getitem__",
                         "option", "values", "batch",  # an Action's, made by a generated enumeration
                         "len", "sum", "any", "all", "min", "max", "set", "isinstance", "list", "dict", "map"})
_SAFE_CALLS = frozenset({
    limits.int_out_of_range, limits.iterations_exceeded, limits.list_too_long, limits.checked_value,
    limits.checked_int, limits.checked_list, effects.end_game, functions.absolute, functions.int_range,
    actions.Action, actions.new_batch, object.__new__,
    len, sum, any, all, min, max, set, isinstance, list, dict, map})
_HOOKED = (EXEC, EXECN, BRANCHN, JUMPF, FORINIT)  # the instruction's code is ins[1](s, env)


class ChancePoints:
    """The instructions of a game that may need chance (see the module's text)."""

    __slots__ = ("points", "codes", "safe", "risky")

    def __init__(self, game):
        self.points = set()
        seen: dict = {}
        for proc, code in enumerate(game.codes):
            for pc, ins in enumerate(code):
                op = ins[0]
                if (op in _HOOKED and _may_need_chance(ins[1], seen)) or \
                        (op == CALL and ins[2] is not None and _may_need_chance(ins[2], seen)):
                    self.points.add((proc, pc))
        self.codes = [[_hooked(ins, proc, pc) if (proc, pc) in self.points else ins for pc, ins in enumerate(code)]
                      for proc, code in enumerate(game.codes)]
        self.safe = not any(ins[0] == CHOOSE and _spec_may_need_chance(ins[1], seen)
                            for code in game.codes for ins in code)
        # the options whose own block (run by State.apply_action before the virtual machine takes
        # over, so with no point before it) may need chance
        self.risky = {option for proc, code in enumerate(game.codes) for ins in code if ins[0] == CHOOSE
                      for option in ins[1].options if option.block is not None and (proc, option.start) in self.points}


def _hooked(ins, proc: int, pc: int) -> tuple:
    """``ins`` with its code first telling the state's feeder that the rules stand at ``pc``."""
    at = 2 if ins[0] == CALL else 1
    run = ins[at]

    def marked(s, env):
        s.chance.mark(s, proc, pc)
        return run(s, env)
    return ins[:at] + (marked,) + ins[at + 1:]


def _may_need_chance(fn, seen: dict) -> bool:
    """Whether calling ``fn`` (compiled rules) may read a zone's order or draw a random number; True
    wherever that cannot be told from its generated code."""
    key = id(fn)
    if key in seen:
        return seen[key]
    seen[key] = True  # a function that calls itself: decided by the rest of it
    code = getattr(fn, "__code__", None)
    found = code is None or code.co_filename != GENERATED or _reads(fn, code, seen)
    seen[key] = found
    return found


def _reads(fn, code, seen: dict) -> bool:
    namespace = fn.__globals__
    todo = [code]
    while todo:
        code = todo.pop()
        todo.extend(c for c in code.co_consts if hasattr(c, "co_names"))
        for name in code.co_names:
            if name not in namespace:
                if name not in _SAFE_NAMES:
                    return True
                continue
            value = namespace[name]
            if not callable(value) or _safe_call(value):
                continue
            if getattr(getattr(value, "__code__", None), "co_filename", None) == GENERATED:
                if _may_need_chance(value, seen):
                    return True
                continue
            return True
    return False


def _safe_call(value) -> bool:
    try:
        return value in _SAFE_CALLS
    except TypeError:  # unhashable
        return False


def _spec_may_need_chance(spec, seen: dict) -> bool:
    """Whether working out the legal actions of a decision may need chance: any code its spec holds
    (who decides, the options' domains and conditions, the generated enumeration, texts)."""
    todo, visited = [spec], set()
    while todo:
        item = todo.pop()
        if id(item) in visited:
            continue
        visited.add(id(item))
        if isinstance(item, (ChoiceSpec, OptionSpec)):
            todo.extend(getattr(item, slot, None) for slot in type(item).__slots__ if slot != "block")
        elif isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.values())
        elif callable(item) and not isinstance(item, type) and _may_need_chance(item, seen):
            return True
    return False
