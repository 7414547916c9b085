"""Generated straight-line blocks: one Python function for a run of simple statements and ``if``s.

A procedure stays a list of VM instructions (so a running game is a stack of ``[procedure, pc,
locals]`` frames, as before).  Where a run of instructions holds only simple statements and
``if``/``else`` over such statements, the first instruction of the run is replaced by one
``EXECN`` instruction: a generated function doing the whole run, and the pc after it.  A run that
also takes the jumps leaving it (a ``while``'s test, ``break``, ``continue``, the end of an option)
and holds no loop becomes a ``BRANCHN`` instruction instead, whose function returns the pc to go
on at.  The other instructions stay where they are, so a jump or a resumption into the middle of a
run still works, and the pcs a saved state holds keep their meaning.

Two things spare the VM a dispatch where a ``BRANCHN`` block leaves: a jump forward goes on with a
copy of the run it lands on (the end of an option, on to what follows the decision), and in the
flow a decision the block reaches is asked in place, the block returning ``~pc`` when someone can
decide (the VM then stops there, as at the decision itself).

Errors name the rule as before: each statement of a block gets its own line number in the
generated code, and ``where(ins, exc)`` reads the failing line from the traceback and gives that
statement's position (a table from generated lines to rule positions).
"""
from __future__ import annotations


from dsl.errors import RulesRuntimeError

from ..runtime.instructions import BRANCHN, EXECN
from .nodes import E, N, S, Unsupported, _attr, _call, _const, _load, _store, _sub, _sub_store

_COPIES = 8  # at most so many runs copied into one block from where its jumps go
WORK = "_work"  # a block's count of loop rounds; the block returns it (the VM counts it as steps)



def fuse(gen, code, sources, opcodes, max_steps, decides=False) -> None:
    """Replace the first instruction of every run that can be generated as one block.  A ``for``
    loop whose body can be generated becomes a Python loop inside the block; its rounds count as
    steps of the VM (at most ``max_steps`` in one block, then the error of a runaway loop).

    A run without such a loop may also take the jumps that leave it (``break``, ``continue``, the
    test of a ``while``, the end of an option) and stop before a return: a ``BRANCHN`` block,
    whose function returns the pc the VM goes on at (one step, as one instruction).

    In a procedure that ``decides`` (the flow: it never runs inside a trigger or the setup), a
    ``BRANCHN`` block going on at a decision whose enumerator is generated asks it in place (see
    ``_Builder.decision``)."""
    exec_op, jump, jumpf, ret, choose = opcodes
    leaders = {0}
    entered: set = {0}  # the leaders reached otherwise than by a jump (after a call or a decision)
    sources_of: dict = {}  # a leader reached by jumps -> the pcs of those jumps
    for pc, ins in enumerate(code):
        if ins[0] in (jump, jumpf):
            target = ins[1] if ins[0] == jump else ins[2]
            leaders.add(target)
            sources_of.setdefault(target, []).append(pc)
        if ins[0] == jumpf:
            leaders.add(pc + 1)
            sources_of.setdefault(pc + 1, []).append(pc)
        elif ins[0] != exec_op:
            leaders.add(pc + 1)
            entered.add(pc + 1)
    made: list = []  # (start, end) of the blocks made so far
    callers: set = set()  # the starts of BRANCHN blocks that call another (see _Builder.go_to)
    refused: set = set()  # the runs that cannot be copied into a block (see _Builder.joined)
    for start in sorted(leaders):  # a block replaces its first instruction once made: those after read on
        if start >= len(code) or not (start in sources.statements or start in sources.ifs
                                      or start in sources.loops or start in sources.whiles):
            continue
        if start not in entered and _inside(made, start, sources_of.get(start, ())):
            continue  # only the block around it jumps here, and it never does: no block of its own (linear code)
        builder = _Builder(gen, code, sources, max_steps, (jump, jumpf, ret), choose if decides else None, callers,
                           refused)
        block = builder.block(start, len(code))
        if block is not None and builder.branched and builder.counts:  # loop rounds and jumps: not in one block
            builder = _Builder(gen, code, sources, max_steps)
            block = builder.block(start, len(code))
        if block is None:
            continue
        body, end = block
        if builder.branched:
            if end - start <= 1:
                continue
            if not builder.left:
                body = body + builder.leave(builder.target(end))
            op = BRANCHN
            if builder.calls:
                callers.add(start)
        elif end - start > 1 or start in sources.ifs:
            if builder.counts:
                body = [N.Assign(targets=[_store(WORK)], value=_const(0))] + body + [N.Return(value=_load(WORK))]
            op = EXECN
        else:
            continue
        code[start] = (op, gen.function(["s", "e"], body), builder.positions, end, code[start][-1])
        made.append((start, end))
    for ins in code:  # an option whose effects begin with such a block runs it when taken (State.apply_action)
        if ins[0] == choose:
            for option in ins[1].options:
                first = code[option.start]
                option.block = first if first[0] == BRANCHN else None


def _inside(made, pc, jumps) -> bool:
    """Whether ``pc`` lies strictly inside a block made, and every jump to it comes from that block,
    before it: the block does those jumps itself, so the VM never goes on at ``pc``."""
    return any(start < pc < end and all(start <= source < pc for source in jumps) for start, end in made)


class _Builder:
    """Builds the statements of one block; ``positions[line]`` is the rule position of the
    statement generated at that line."""

    def __init__(self, gen, code, sources, max_steps, jumps=None, choose=None, callers=None, refused=None):
        self.gen = gen
        self.choose = choose  # the opcode of a decision, where they may be asked inside the block (``decision``)
        self.callers = callers  # the blocks made so far that call another (``go_to``), where it may call
        self.calls = False  # whether it calls another block
        self.refused = refused if refused is not None else set()  # runs found not to be copied (``joined``)
        self.code = code
        self.sources = sources
        self.max_steps = max_steps
        self.jumps = jumps  # (JUMP, JUMPF, RET) where the block may take jumps (BRANCHN), else None
        self.positions = [None]
        self.counts = False  # whether the block has a loop (and so counts its rounds)
        self.branched = False  # whether it takes a jump
        self.left = False  # whether its last statement returns
        self.copied = 0  # runs copied into it from further on (see ``joined``)

    def next_line(self) -> None:
        """Make the nodes generated from now on carry the line of the next statement."""
        N.line = len(self.positions)

    def numbered(self, nodes, position) -> list:
        """``nodes``, made since ``next_line``: their line stands for ``position``."""
        self.positions.append(position)
        N.line = 1
        return nodes

    def block(self, pc, limit):
        """``(python statements, pc after)`` for the longest run from ``pc`` below ``limit`` that
        can be generated; None if not even one instruction can."""
        gen, code, sources = self.gen, self.code, self.sources
        body = []
        while pc < limit:
            if pc in sources.statements:
                outer = gen.begin()
                N.where = code[pc][-1]  # the rule that too much code would be blamed on
                self.next_line()
                try:
                    statements = gen.statement(sources.statements[pc])
                except Unsupported:
                    gen.abandon(outer)
                    N.line = 1
                    break
                body += self.numbered(gen.end(outer, statements), code[pc][-1])
                pc += 1
            elif pc in sources.ifs or pc in sources.loops:
                before = self.left, self.branched, self.counts
                made = self.if_block(pc, limit) if pc in sources.ifs else self.loop_block(pc, limit)
                if made is None:  # not generated: what the attempt noted of its branches does not hold
                    self.left, self.branched, self.counts = before
                    break
                body += made[0]
                pc = made[1]
            elif self.jumps is not None and code[pc][0] in self.jumps:
                made = self.jump(pc)
                if made is None:
                    break
                body += made
                pc += 1
                if self.left:
                    break
            else:
                break
        return (body, pc) if body else None

    def jump(self, pc):
        """A jump as statements: a loop's test ``if not TEST: return EXIT`` (none for ``while:
        true``), a jump ``return TARGET``, a return ``return PC`` (the VM returns); the pcs are
        where a chain of jumps ends.  None for a loop's test that is not a ``while``'s own."""
        ins = self.code[pc]
        jump, jumpf, _ = self.jumps
        if ins[0] == jumpf and pc not in self.sources.always and pc not in self.sources.whiles:
            return None
        self.branched = True
        if ins[0] == jumpf:
            if pc in self.sources.always:
                return []
            prelude, test = self.test(pc, self.sources.whiles[pc])
            leave = self.decision(ins[2])  # the loop's exit: a decision asked there, else the VM goes on there
            if leave is None:
                leave = [N.Return(value=_const(self.target(ins[2])))]
                leave[0].lineno = leave[0].end_lineno = test.lineno
                leave[0].col_offset = leave[0].end_col_offset = 0
            node = N.If(test=N.UnaryOp(op=N.Not(), operand=test), body=leave, orelse=[])
            node.lineno = node.end_lineno = test.lineno
            node.col_offset = node.end_col_offset = 0
            return prelude + [node]
        self.left = True
        if ins[0] == jump:
            made = self.decision(ins[1]) or self.joined(pc, ins[1])
            if made is not None:
                return made
        return self.go_to(self.target(ins[1] if ins[0] == jump else pc), ins[-1])

    def go_to(self, pc, position) -> list:
        """``return PC``, numbered at ``position``; or, where the block at ``pc`` (made already:
        further back, a loop's head mostly) takes jumps and calls no other block, ``return
        BLOCK(s, e)``: the VM counts one step for both, and the call's line stands for the callee's
        instruction (``where`` reads on in its lines)."""
        callee = self.code[pc] if self.callers is not None and pc < len(self.code) else None
        self.next_line()
        if callee is not None and callee[0] == BRANCHN and pc not in self.callers:
            self.calls = True
            return self.numbered([N.Return(value=_call(self.gen.value(callee[1]), [S, E]))], callee)
        return self.numbered([N.Return(value=_const(pc))], position)

    def joined(self, pc, target):
        """Where the jump at ``pc`` goes forward to a run that can be generated without a loop,
        that run's statements (a copy: the run stays where it is for the other ways into it), so
        the block goes on there rather than the VM; else None.  At most ``_COPIES`` runs are
        copied into one block (each at most the procedure's length), every one from further on."""
        target = self.target(target)
        if target <= pc or target >= len(self.code) or self.copied >= _COPIES or target in self.refused \
                or self.counts:  # a block with a loop is made again without jumps (see fuse)
            return None
        before = self.left, self.branched, self.counts, self.copied
        self.left = False
        self.copied += 1
        made = self.block(target, len(self.code))
        if made is None or self.counts:  # a loop: the block would count rounds
            self.left, self.branched, self.counts, self.copied = before
            self.refused.add(target)  # not tried again for the next jump there
            return None
        body, end = made
        if not self.left:
            body = body + self.leave(self.target(end))
        self.left = True
        return body

    def leave(self, pc) -> list:
        """The statements going on at ``pc``: the decision there asked in place, or ``go_to``."""
        return self.decision(pc) or self.go_to(pc, self.code[pc][-1] if pc < len(self.code) else None)

    def decision(self, pc):
        """Where the jump to ``pc`` ends at a decision that can be asked in place (in a procedure
        that ``decides``, the decision's enumerator generated, ``direct``): the statements asking
        it, else None::

            _a1 = []
            ENUMERATE(s, e, _a1)
            if _a1:                     # someone can decide: the VM stops at the decision
                s.legal_cache = _a1
                s.decider = s.vars[PLAYER]
                return ~PC
            # no one can: past the decision, where that is forward (skip), else
            return PC                   # the VM asks again (an error where it may not be skipped)

        It saves the VM a step and a dispatch per decision.  The enumerator's errors name the
        decision, as the VM's do."""
        pc = self.target(pc)
        ins = self.code[pc] if pc < len(self.code) else None
        if self.choose is None or ins is None or ins[0] != self.choose or ins[1].direct is None:
            return None
        spec = ins[1]
        actions = self.gen.fresh("a")
        self.next_line()
        decider = _sub(_attr(S, "vars"), _const(spec.player_var))
        stop = [N.Assign(targets=[N.Attribute(value=S, attr="legal_cache", ctx=N.Store())], value=_load(actions)),
                N.Assign(targets=[N.Attribute(value=S, attr="decider", ctx=N.Store())], value=decider),
                N.Return(value=_const(~pc))]
        asked = [N.Assign(targets=[_store(actions)], value=N.List(elts=[], ctx=N.Load())),
                 N.Expr(value=_call(self.gen.value(spec.direct), [S, E, _load(actions)])),
                 N.If(test=_load(actions), body=stop, orelse=[])]
        self.numbered(asked, ins[-1])
        if not spec.skips:
            return asked + [N.Return(value=_const(pc))]
        after = self.target(spec.end)
        return asked + (self.leave(after) if after > pc else self.go_to(after, ins[-1]))

    def target(self, pc) -> int:
        """Where a chain of jumps from ``pc`` ends (over the tests of ``while: true``)."""
        jump = self.jumps[0]
        seen = set()
        while pc < len(self.code) and pc not in seen and (self.code[pc][0] == jump or pc in self.sources.always):
            seen.add(pc)
            pc = self.code[pc][1] if self.code[pc][0] == jump else pc + 1
        return pc

    def test(self, pc, cond):
        """``(prelude, test)``: the statements and the expression of the condition ``cond`` of the
        instruction at ``pc`` (a call of its compiled condition where it cannot be generated)."""
        gen, ins = self.gen, self.code[pc]
        outer = gen.begin()
        self.next_line()
        try:
            test = gen.expr(cond)
        except Unsupported:
            gen.abandon(outer)
            test, prelude = _call(gen.value(ins[1]), [S, E]), []
        else:
            loops, test = gen.searches_as_loops(test)
            prelude = gen.end(outer, loops)
        self.numbered(prelude + [test], ins[-1])
        return prelude, test

    def whole(self, lo, hi):
        """The statements of exactly ``code[lo:hi]``, or None."""
        if lo == hi:
            return []
        block = self.block(lo, hi)
        return block[0] if block is not None and block[1] == hi else None

    def if_block(self, pc, limit):
        code = self.code
        cond, skip = self.sources.ifs[pc]
        ins = code[pc]
        then_end = skip if skip is not None else ins[2]
        end = code[skip][1] if skip is not None else ins[2]
        if end > limit:
            return None
        then = self.whole(pc + 1, then_end)
        otherwise = self.whole(skip + 1, end) if skip is not None else []
        if then is None or otherwise is None:
            return None
        self.left = False  # a branch's return leaves that branch only
        prelude, test = self.test(pc, cond)
        node = N.If(test=test, body=then or [N.Pass()], orelse=otherwise)
        node.lineno = node.end_lineno = test.lineno
        node.col_offset = node.end_col_offset = 0
        return prelude + [node], end


    def loop_block(self, pc, limit):
        """``for x in xs`` (FORINIT at ``pc``, FORNEXT, the body, a JUMP back) as a Python loop over
        a copy of the list, as the VM's loop: ``_work += len(items)``, past the budget the error
        of a runaway loop, then ``for _v in items: e['x'] = _v; body``."""
        gen, code = self.gen, self.code
        init = code[pc]
        end = code[pc + 1][3]
        if end > limit:
            return None
        body = self.whole(pc + 2, end - 1)
        if body is None:
            return None
        self.counts = True
        self.next_line()
        items = _load(gen.fresh("i"))
        work = N.BinOp(left=_load(WORK), op=N.Add(), right=_call(_load("len"), [items]))
        runaway = N.If(test=N.Compare(left=_load(WORK), ops=[N.Gt()], comparators=[_const(self.max_steps)]),
                       body=[N.Expr(value=_call(gen.value(runaway_loop), [_const(self.max_steps)]))], orelse=[])
        header = [N.Assign(targets=[_store(items.id)], value=_call(_load("list"), [_call(gen.value(init[1]), [S, E])])),
                  N.Assign(targets=[_store(WORK)], value=work), runaway]
        self.numbered(header, init[-1])
        variable = _load(gen.fresh("v"))
        var = self.sources.loops[pc]
        bind = [] if var is None else [N.Assign(targets=[_sub_store(E, _const(var))], value=variable)]
        loop = N.For(target=_store(variable.id), iter=items, body=bind + body or [N.Pass()], orelse=[],
                     type_comment=None)
        loop.lineno = loop.end_lineno = header[0].lineno
        loop.col_offset = loop.end_col_offset = 0
        return header + [loop], end


def runaway_loop(max_steps):
    """Raise the error of a loop in a generated block going past the VM's budget of steps."""
    raise RulesRuntimeError(f"the rules ran {max_steps} steps without asking anyone for a decision",
                            hint="a loop here runs over too many items: iterate over fewer, or nest fewer loops")
