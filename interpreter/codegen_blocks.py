"""Generated straight-line blocks: one Python function for a run of simple statements and ``if``s.

A procedure stays a list of VM instructions (so a running game is a stack of ``[procedure, pc,
locals]`` frames, as before).  Where a run of instructions holds only simple statements and
``if``/``else`` over such statements, the first instruction of the run is replaced by one
``EXECN`` instruction: a generated function doing the whole run, and the pc after it.  The other
instructions stay where they are, so a jump or a resumption into the middle of a run still works.

Errors name the rule as before: each statement of a block gets its own line number in the
generated code, and ``where(ins, exc)`` reads the failing line from the traceback and gives that
statement's position (a table from generated lines to rule positions).
"""
from __future__ import annotations


from .codegen_ast import E, N, S, Unsupported, _call

EXECN = 8  # (EXECN, function, positions by generated line, pc after the block, position)


class Sources:
    """What the compiler noted about a procedure's instructions: the statement of each generated
    EXEC, and for each ``if`` its condition and where its branches end."""

    def __init__(self):
        self.statements: dict = {}  # pc -> ast statement node
        self.ifs: dict = {}  # pc of the JUMPF -> (condition node, pc of the JUMP over 'else' or None)


def fuse(gen, code, sources, opcodes) -> None:
    """Replace the first instruction of every run that can be generated as one block."""
    exec_op, jump, jumpf = opcodes
    leaders = {0}
    for pc, ins in enumerate(code):
        if ins[0] in (jump, jumpf):
            leaders.add(ins[1] if ins[0] == jump else ins[2])
        if ins[0] != exec_op:
            leaders.add(pc + 1)
    blocks = {}
    for start in sorted(leaders):
        if start < len(code) and (start in sources.statements or start in sources.ifs):
            builder = _Builder(gen, code, sources)
            block = builder.block(start, len(code))
            if block is not None and (block[1] - start > 1 or start in sources.ifs):
                blocks[start] = (block, builder.positions)
    for start, ((body, end), positions) in blocks.items():
        code[start] = (EXECN, gen.function(["s", "e"], body), positions, end, code[start][-1])


class _Builder:
    """Builds the statements of one block; ``positions[line]`` is the rule position of the
    statement generated at that line."""

    def __init__(self, gen, code, sources):
        self.gen = gen
        self.code = code
        self.sources = sources
        self.positions = [None]

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
                self.next_line()
                try:
                    statements = gen.statement(sources.statements[pc])
                except Unsupported:
                    gen.abandon(outer)
                    N.line = 1
                    break
                body += self.numbered(gen.end(outer, statements), code[pc][-1])
                pc += 1
            elif pc in sources.ifs:
                made = self.if_block(pc, limit)
                if made is None:
                    break
                body += made[0]
                pc = made[1]
            else:
                break
        return (body, pc) if body else None

    def whole(self, lo, hi):
        """The statements of exactly ``code[lo:hi]``, or None."""
        if lo == hi:
            return []
        block = self.block(lo, hi)
        return block[0] if block is not None and block[1] == hi else None

    def if_block(self, pc, limit):
        gen, code = self.gen, self.code
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
        outer = gen.begin()
        self.next_line()
        try:
            test = gen.expr(cond)
        except Unsupported:
            gen.abandon(outer)
            test, prelude = _call(gen.value(ins[1]), [S, E]), []
        else:
            prelude = gen.end(outer, [])
        self.numbered(prelude + [test], ins[-1])
        node = N.If(test=test, body=then or [N.Pass()], orelse=otherwise)
        node.lineno = node.end_lineno = test.lineno
        node.col_offset = node.end_col_offset = 0
        return prelude + [node], end


def where(ins, exc):
    """The position of the statement that failed inside the block ``ins``."""
    code = ins[1].__code__
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code is code:
            line = tb.tb_lineno
        tb = tb.tb_next
    positions = ins[2]
    if line is None or not 0 < line < len(positions):
        return ins[-1]
    return positions[line]
