"""Stage 6: run compiled rules until a player must decide or the game ends.

Execution is bounded (the limits live in :mod:`interpreter.runtime.limits`): one call of :func:`run` may
take at most ``MAX_STEPS`` steps (an instruction, or a round of a loop inside a generated block),
triggers may nest at most ``MAX_TRIGGER_DEPTH`` deep and calls ``MAX_CALL_DEPTH`` deep.  Going past
one is a :class:`RulesRuntimeError` that names the rule at fault, never a hang.
"""
from __future__ import annotations

from dsl.errors import RulebookError, RulesRuntimeError

from dsl.resolver import RETURNED

from .actions import legal_actions_at
from .instructions import BLOCKS, BRANCHN, CALL, CHOOSE, EXEC, EXECN, FORINIT, FORNEXT, JUMP, JUMPF, RET, where
from .effects import GameOver
from .limits import MAX_CALL_DEPTH, MAX_STEPS, MAX_TRIGGER_DEPTH


def _runaway(procs, stack) -> RulesRuntimeError:
    """The error of running out of steps: at the innermost loop running (a callee without a loop
    stands inside its caller's loop), else where the rules stopped."""
    frame = stack[-1]
    where = procs[frame[0]].code[frame[1]][-1]
    for running in reversed(stack):
        code = procs[running[0]].code
        pc = running[1]
        loops = [(j - ins[1], ins) for j, ins in enumerate(code) if ins[0] == JUMP and ins[1] <= pc <= j]
        if loops:
            frame, where = running, min(loops, key=lambda pair: pair[0])[1][-1]
            break
    return RulesRuntimeError(
        f"the rules ran {MAX_STEPS} steps without asking anyone for a decision "
        f"(in '{procs[frame[0]].name}')", where,
        "a loop here never ends: check that its condition becomes false, or add a 'break'")


def fault(exc: Exception, ins) -> RulebookError:
    """The error of instruction ``ins`` failing with ``exc``, at the rule that failed."""
    return _located(exc, (where(ins, exc),) if ins[0] in BLOCKS else ins)


def _located(exc: Exception, ins) -> RulebookError:
    if isinstance(exc, RulebookError):
        return exc.located(ins[-1])
    message = {ZeroDivisionError: "division by zero", IndexError: "an index is out of range",
               KeyError: "a value was used before it was set"}.get(type(exc), str(exc) or type(exc).__name__)
    return RulesRuntimeError(message, ins[-1], "check the values this statement uses")


def execute(s, stack, allow_choose: bool) -> bool:
    """Run ``stack`` until it is empty (True) or reaches a decision (False).  The running frame's
    pc, code and locals are kept in Python locals; the pc goes back into the frame where someone
    may read it: at a decision, a call, a return and an error."""
    game = s.game
    feeder = s.chance  # explicit chance: a feeder taking resume points runs the marked instructions
    codes = game.codes if feeder is None or feeder.codes is None else feeder.codes
    steps = 0
    if not stack:
        return True
    frame = stack[-1]
    code = codes[frame[0]]
    env = frame[2]
    pc = frame[1]
    while True:
        ins = code[pc]
        op = ins[0]
        steps += 1
        if steps > MAX_STEPS:
            frame[1] = pc
            raise _runaway(game.procs, stack)
        try:
            if op == BRANCHN:  # a generated block that takes jumps: it returns where to go on
                pc = ins[1](s, env)
                if pc < 0:  # it stopped at the decision ~pc, its actions and who decides set (codegen/blocks.py)
                    frame[1] = ~pc
                    return False
            elif op == CHOOSE:
                if not allow_choose:
                    raise RulesRuntimeError("a trigger reached a decision", ins[-1])
                spec = ins[1]  # stop here if someone can decide: the legal actions, and who decides
                direct = spec.direct
                if direct is not None:  # generated; who decides is a variable, read if someone can
                    actions = []
                    direct(s, env, actions)
                    if actions:
                        frame[1] = pc
                        s.decider = s.vars[spec.player_var]
                        s.legal_cache = actions
                        return False
                else:
                    player = s.vars[spec.player_var] if spec.player_var is not None else spec.player(s, env)
                    actions = legal_actions_at(s, env, spec, player)
                    if actions:
                        frame[1] = pc
                        s.decider = player
                        s.legal_cache = actions
                        return False
                if not spec.skips:
                    frame[1] = pc
                    raise _no_option(s, spec, env)
                pc = spec.end  # no one could choose: past the decision
            elif op == JUMPF:
                pc = pc + 1 if ins[1](s, env) else ins[2]
            elif op == EXECN:  # a generated block of statements (returning the rounds of its loops)
                pc = ins[3]
                rounds = ins[1](s, env)
                if rounds:
                    steps += rounds
            elif op == RET:  # the caller's frame goes on, in this loop
                done = stack.pop()
                if not stack:
                    return True
                frame = stack[-1]
                code = codes[frame[0]]
                env = frame[2]
                pc = frame[1]
                call = code[pc - 1]
                if call[0] == CALL and call[3] is not None:  # let x = proc(): the value returned
                    _store_returned(s, frame, done, call)
            elif op == CALL:  # the callee's frame runs next, in this loop
                frame[1] = pc + 1
                if len(stack) >= MAX_CALL_DEPTH:
                    raise RulesRuntimeError(f"procedures call each other more than {MAX_CALL_DEPTH} deep",
                                            ins[-1], "a procedure calls itself without end")
                callee = ins[1]
                local = {} if ins[2] is None else ins[2](s, env)
                spec = game.openings[callee]
                if spec is None or ins[3] is not None or not allow_choose:
                    env = local
                    frame = [callee, 0, env]
                    stack.append(frame)
                    code = codes[callee]
                    pc = 0
                    continue
                ins = codes[callee][0]  # it opens with a decision, asked here (an error names it)
                player = spec.player(s, local)
                actions = legal_actions_at(s, local, spec, player)
                if actions:
                    stack.append([callee, 0, local])
                    s.decider = player
                    s.legal_cache = actions
                    return False
                if not spec.skips:
                    raise _no_option(s, spec, local)
                steps += 2  # the decision and the return, as if the callee had run them
                pc += 1
            elif op == EXEC:
                pc += 1
                ins[1](s, env)
            elif op == JUMP:
                pc = ins[1]
            elif op == FORNEXT:
                it = env[ins[1]]
                if it[1] < len(it[0]):
                    if ins[2] is not None:
                        env[ins[2]] = it[0][it[1]]
                    it[1] += 1
                    pc += 1
                else:
                    del env[ins[1]]
                    pc = ins[3]
            elif op == FORINIT:
                env[ins[2]] = [list(ins[1](s, env)), 0]
                pc += 1
        except GameOver:
            raise
        except Exception as exc:  # a ruleset's expression failed: report it at its statement
            raise fault(exc, ins) from None


def opening_decisions(codes) -> list:
    """Per procedure, the decision its first instruction asks for, or None.  A call of such a
    procedure asks for it before pushing the callee's frame, which is pushed only if someone
    decides: the stack at every decision is the same, and a decision no one can take (``if_none:
    skip``) costs no frame.  Not where skipping the decision leads elsewhere than to a return."""
    found = []
    for code in codes:
        spec = code[0][1] if code and code[0][0] == CHOOSE else None
        if spec is not None and spec.if_none == "skip" and code[spec.end][0] != RET:
            spec = None
        found.append(spec)
    return found


def straight_bodies(codes) -> list:
    """Per procedure, the one instruction that is its whole body before a return (a generated block
    or a statement), or None.  A trigger with such a body runs as one call, without the VM's loop.
    A block that takes jumps (``BRANCHN``, no loop inside) followed by nothing but the return can
    only go on to that return."""
    found = []
    for code in codes:
        first = code[0] if code else None
        after = None if first is None else first[3] if first[0] == EXECN else 1 if first[0] == EXEC else \
            1 if first[0] == BRANCHN and len(code) == 2 else None
        found.append(first if after is not None and code[after][0] == RET else None)
    return found


def _store_returned(s, caller, done, call) -> None:
    """After a procedure called as ``let x = proc()`` (the instruction ``call``) returns: store its
    value in the caller."""
    if RETURNED not in done[2]:
        raise RulesRuntimeError(f"procedure {s.game.procs[done[0]].name} ended without returning a value",
                                call[-1], "end every way through it with 'return VALUE'")
    env = caller[2]
    env[RETURNED] = done[2][RETURNED]
    try:
        call[3](s, env)
    finally:
        del env[RETURNED]


def _no_option(s, spec, env) -> RulesRuntimeError:
    player = s.vars[spec.player_var] if spec.player_var is not None else spec.player(s, env)
    name = s.game.player_names[player] if isinstance(player, int) else player
    return RulesRuntimeError(f"{name} must decide here but has no legal option", spec.position,
                             "add an option that is always possible (such as a pass), or 'if_none: skip'")


def run(s) -> None:
    """Advance the game until the next decision, or to its end."""
    try:
        if execute(s, s.stack, True):
            s.finish()
    except GameOver:
        s.stack.clear()
        s.finish()


def fire(s, triggers, bindings) -> None:
    """Run triggers at once, inside the current effect.  ``bindings`` (a new dict, given away)
    becomes the locals of a lone trigger; several get a copy each.  A condition reads, never
    writes, the locals; a lone trigger's is tested first (the usual case: nothing to run)."""
    if len(triggers) == 1 and s.trigger_depth < MAX_TRIGGER_DEPTH:
        proc, when = triggers[0]
        if when is not None and not when(s, bindings):
            return
        s.trigger_depth += 1
        try:
            _run_trigger(s, proc, bindings)
        finally:
            s.trigger_depth -= 1
        return
    if s.trigger_depth >= MAX_TRIGGER_DEPTH:
        raise RulesRuntimeError(f"{s.game.procs[triggers[0][0]].name} set off more than "
                                f"{MAX_TRIGGER_DEPTH} triggers in a row", s.game.procs[triggers[0][0]].position,
                                "a trigger moves components that set it off again; add a 'when' condition")
    s.trigger_depth += 1
    try:
        for proc, when in triggers:
            if when is None or when(s, bindings):
                _run_trigger(s, proc, dict(bindings))  # each trigger its own locals
    finally:
        s.trigger_depth -= 1


def _run_trigger(s, proc, env) -> None:
    body = s.game.straight[proc]
    if body is None:
        execute(s, [[proc, 0, env]], False)
        return
    try:
        body[1](s, env)  # a block's loops check their own rounds against the budget
    except GameOver:
        raise
    except Exception as exc:
        raise fault(exc, body) from None
