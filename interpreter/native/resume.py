"""Resuming a game in the kernel from a state the Python engine reached, at a decision.

The kernel's flow is one C function with the procedures it calls compiled in place (one that calls
itself is a C function of its own, :mod:`.calls`, and holds no decision), so where a game
stands is a *site* (a ``choose`` reached through a chain of calls) and the values of the
function's C variables: the ruleset's locals of each call level and the state of the loops around
the site.  The Python engine keeps the same facts as a stack of ``[procedure, pc, locals]`` frames,
with some calls compiled in place (:mod:`interpreter.compile.inlining`) and the rounds of a loop in
a local slot (``$pc``: a ``for``'s list and position, ``#pc``: a ``repeat``'s rounds left, or the rounds a
``while ... limit`` began).

At emission, :class:`Sites` numbers each decision of the flow (a C label ``S<n>`` before it), keeps
its chain of calls, the C variable of each local at every level, and the loops around it (their
C variables hoisted to the top of the function).  :func:`resume_plan` maps a Python stack onto a
site: it matches the CHOOSE and CALL instructions of each compiled procedure, in order, with the
decisions and calls of the procedure's statements (a call is compiled in place where no CALL
instruction stands for it), then reads the locals and the loops' slots.  The kernel's flow starts
with a prologue that puts those values back and jumps to the site's label.  A trigger never
reaches a decision (the Python engine forbids it), so a state at a decision is never inside one.
Under the greedy policy each label also saves the site's live variables, so the kernel can resume
a copy of itself one step ahead (``GREEDY``).

A state does not resume (:class:`Unresumable`, and the caller plays on in Python) when a procedure
whose value is used stands on its stack, when its loops around the decision differ from the
kernel's (one compiled into a generated block), when a local holds a text
the kernel never saw or lists of more than ``RCAP`` items in all, or when the kernel compiled the
decision in two places; explicit chance mode and a state broken by an error do not load at all.
Saved states are untrusted: a local is restored only where its value is of the kind its procedure
declares it with (a list, a text, a number: see :func:`_kinds`), a loop's place must lie in its
list, so the kernel never reads a number as a list's handle.
"""
from __future__ import annotations

import contextlib

from dsl import ast, ir
from dsl.types import element_type

from ..runtime.instructions import CALL, CHOOSE, FORNEXT, JUMPF
from .expressions import Unsupported
from .judge import value_count, values_source

RCAP = 4096  # the items of the lists a resumed state brings into the kernel (more: it runs in Python)


class Unresumable(Exception):
    """Why a state cannot be resumed in the kernel (it is played on in Python)."""


def resume_fields(game, nflow: int) -> str:
    """The fields of the kernel's state that say where the flow resumes (``site`` -1: from the
    start), the policy's settings, and what a playout's end is worth (see :mod:`.judge`).  The lists
    of the resumed locals (``rarena``, ``rlen`` items) are the struct's last field: a copy of a
    state (``k_play_many``, a look ahead of ``GREEDY``) stops before them, and ``Runner.run`` copies
    only the items used."""
    n = max(nflow, 1)
    return (f"int64_t site; int64_t fvals[{n}]; int64_t rlen; "
            "int64_t force; int64_t stop_seat; int64_t stop_partners; int64_t others_moved; int64_t stop_rounds; "
            "int64_t want_values; "
            "int64_t greedy_ppm; int64_t greedy_own; int64_t greedy_left; int64_t forced_option; "
            f"int64_t keyed; uint64_t keyed_seed; int64_t seat_picks[{game.num_players}];"
            f"int64_t values[{game.num_players}][{value_count(game.ruleset)}]; ")


class Site:
    __slots__ = ("number", "chain", "choose", "levels", "loops")

    def __init__(self, number, chain, choose, levels, loops):
        self.number = number
        self.chain = chain  # the call statements from the flow to the decision
        self.choose = choose
        self.levels = levels  # per call level (0: the flow), the ruleset's locals -> C variables
        self.loops = loops  # (level, kind, C variables) of each loop around it, outermost first


class Sites:
    """The decisions of the flow as the emitter meets them (see the module's text)."""

    def __init__(self, emitter):
        self.emitter = emitter
        self.calls: list = []  # (call statement, the caller's locals) being compiled in place
        self.loops: list = []  # (level, kind, C variables) of the loops being compiled: a for's list
        # and index, a repeat's count and index, then (but for a for) the arena's mark of its rounds
        self.found: list = []
        self.by_key: dict = {}
        self.flow_names: list = []  # the C variables of the flow function, in the order of fvals
        self.values = ""  # the C text of value_of (made with the flow: it may add constants and texts)
        self.kinds: dict = {}  # the kinds of value of each body's locals (see _kinds), by procedure
        self.limited: set = set()  # the positions of the 'while ... limit' loops (their count: a '#' slot)

    @contextlib.contextmanager
    def around(self, stmt):
        """Note the call a statement is, while it is compiled."""
        if isinstance(stmt, ir.CallProc):
            self.calls.append((stmt, self.emitter.locals))
            try:
                yield
            finally:
                self.calls.pop()
        else:
            yield

    @contextlib.contextmanager
    def loop(self, kind, variables):
        self.loops.append((len(self.calls), kind, variables))
        try:
            yield
        finally:
            self.loops.pop()

    def hoist(self, stem) -> str:
        """A C variable of a loop, declared at the top of the function (a resumed game sets it)."""
        name = self.emitter.x.fresh(stem)
        self.emitter.declared.append(name)
        return name

    def site(self, stmt) -> str:
        """The label of a decision of the flow (none elsewhere)."""
        e = self.emitter
        if not e.deciding or e.frame != "flow":
            return ""
        if e.function is not None:  # its label would lie outside the flow function, where no resume can jump
            raise Unsupported("a decision inside a procedure the kernel compiles as a C function of its own "
                              "(one that calls itself, or calls nested more than 16 deep)", stmt.position)
        number = len(self.found)
        chain = tuple(call for call, _ in self.calls)
        levels = [caller for _, caller in self.calls] + [e.locals]
        self.found.append(Site(number, chain, stmt, levels, list(self.loops)))
        key = tuple(id(s) for s in chain) + (id(stmt),)
        self.by_key[key] = None if key in self.by_key else number  # compiled twice: not resumed
        live = sorted({v for names in levels for v in names.values()} | {v for _, _, vs in self.loops for v in vs})
        index = {name: i for i, name in enumerate(e.declared)}  # the flow's variables so far: fvals' order
        save = "".join(f"C->s->fvals[{index[v]}] = {v}; " for v in live if v in index)
        return f"S{number}: if (C->s->greedy_ppm >= 0) {{ {save}C->s->site = {number}; }}\n"

    def prologue(self) -> str:
        """The start of the flow function: a resumed game's variables, lists and loops put back,
        then a jump to its decision."""
        self.values = values_source(self.emitter)
        self.values_ok = "#define VALUES_OK 1" in self.values  # the bots and the greedy policy need them
        if not self.found:
            return ""
        names = self.flow_names
        marks = [variables[-1] for site in self.found for _, kind, variables in site.loops if kind != "for"]
        restore = "".join(f"{name} = C->s->fvals[{i}];\n" for i, name in enumerate(names))
        tops = "".join(f"{m} = C->top; " for m in sorted(set(marks)))
        cases = "".join(f"case {site.number}: goto S{site.number};\n" for site in self.found)
        return (f"if (C->s->site >= 0) {{\n{restore}{tops}\nint64_t site_ = C->s->site; C->s->site = -1;\n"
                f"switch (site_) {{\n{cases}default: fail(C, E_index, site_, 0);\n}}\n}}\n")

    def entry(self) -> str:
        rs = self.emitter.rs
        evaluation = 1 + len(rs.tiebreaks) if rs.evaluation is not None else 0  # Game.evaluate: else the score
        return (f"#define RCAP {RCAP}\n#define NVALUES {value_count(rs)}\n#define EVALUATION {evaluation}\n"
                + self.values + RESUME_ENTRY + GREEDY_POLICY)


# play on from a state at a decision (s->site, fvals, rarena: see Sites.prologue): as k_play, without
# the setup; 2 when the policy stopped at a decision (s->cap decisions, or s->stop_seat's turn)
RESUME_ENTRY = r"""
int64_t k_resume(KS *s) {
    Ctx ctx;
    Ctx *C = &ctx;
    if (ctx_start(C, s)) return 1;
    int r = setjmp(C->jb);
    if (r == 0) {
        /* the lists of the resumed locals first, where their handles point (see resume.Plan; a
           look ahead of GREEDY: the outer game's arena) */
        if (NEST_SRC) {
            memcpy(C->arena, NEST_SRC, NEST_LEN * sizeof(int64_t));
            C->top = NEST_LEN;
        } else {
            if (s->rlen < 0 || s->rlen > RCAP) fail(C, E_memory, 0, 0);
            memcpy(C->arena, s->rarena, s->rlen * sizeof(int64_t));
            C->top = s->rlen;
        }
        constants(C);
        if (USES_LINES) LINES_INIT(C);
        C->base = C->top;
        flow(C);
    }
    if (r == 1) return 1;
    int64_t code = r == 3 ? 2 : 0;
    if (!code) { s->over = 1; s->decider = -1; }
    r = setjmp(C->jb);
    if (r != 0) return 1;
    if (!code) for (int64_t p = 0; p < NP; p++) { C->top = C->base; C->iters = 0; s->returns[p] = score_of(C, p); }
    if (s->want_values >= 2) {  /* a look ahead of GREEDY: only the evaluation of seat want_values - 2 */
        int64_t p = s->want_values - 2;
        C->top = C->base; C->iters = 0;
        s->values[p][EVALUATION] = value_of(C, p, EVALUATION);
    } else if (s->want_values)  /* the bots' reading of the end (judge.py) */
        for (int64_t p = 0; p < NP; p++)
            for (int64_t w = 0; w < NVALUES; w++) {
                C->top = C->base; C->iters = 0;
                s->values[p][w] = value_of(C, p, w);
            }
    return code;
}
"""


# the greedy policy (s->greedy_ppm >= 0): with probability greedy_ppm / 10^6 a uniform pick, else the
# candidate after which the evaluation of the seat deciding is highest (uniform among equals), each
# candidate played one step ahead in a copy of the game resumed at this decision (its site and live
# variables saved by the site's label, the outer arena copied), up to the next decision or the end;
# the reference in Python: reference.play_on
GREEDY_POLICY = r"""
static __thread KS *AHEAD = NULL;
/* a copy of the game in s for a look ahead: each zone's items only up to its length (nothing reads
   past it), then the rest of the state */
static void COPY_GAME(KS *to, const KS *s) {
    memcpy(to->zlen, s->zlen, sizeof(s->zlen));
    for (int64_t z = 0; z < NZ; z++) memcpy(to->zitems[z], s->zitems[z], s->zlen[z] * sizeof(int64_t));
    memcpy((char *)to + offsetof(KS, loc), (const char *)s + offsetof(KS, loc), offsetof(KS, n_log) - offsetof(KS, loc));
}
void k_copy_game(KS *to, const KS *from) { COPY_GAME(to, from); }  /* Runner.run's copy of its start */
static int64_t GREEDY(Ctx *C) {
    KS *s = C->s;
    s->policy_rng += GAMMA;
    if ((int64_t)(mix64(s->policy_rng) % 1000000ULL) < s->greedy_ppm) {
        s->policy_rng += GAMMA;
        return (int64_t)(mix64(s->policy_rng) % (uint64_t)s->cand_n);
    }
    s->looks += s->cand_n;  /* what the look ahead costs, for a bot that counts it */
    if (!AHEAD) AHEAD = (KS *)malloc(sizeof(KS));
    if (!AHEAD || NEST) fail(C, E_memory, 0, 0);
    int64_t best = 0, ties = 0;
    int64_t *tied = &C->arena[C->top];  /* scratch above the live lists */
    if (C->top + s->cand_n > ARENA) fail(C, E_memory, 0, 0);
    for (int64_t k = 0; k < s->cand_n; k++) {
        COPY_GAME(AHEAD, s);
        AHEAD->force = k; AHEAD->cap = 1; AHEAD->stop_seat = -1; AHEAD->want_values = 2 + s->decider; AHEAD->greedy_ppm = -1; AHEAD->greedy_own = 0;
        NEST = 1; NEST_SRC = C->arena; NEST_LEN = C->top;
        int64_t r = k_resume(AHEAD);
        NEST = 0; NEST_SRC = NULL;
        if (r == 1) {
            s->err = AHEAD->err; s->err_pos = AHEAD->err_pos; s->err_a = AHEAD->err_a; s->err_b = AHEAD->err_b;
            longjmp(C->jb, 1);
        }
        int64_t v = AHEAD->values[s->decider][EVALUATION];
        if (ties == 0 || v > best) { best = v; ties = 0; }
        if (v == best) tied[ties++] = k;
    }
    s->policy_rng += GAMMA;
    return tied[mix64(s->policy_rng) % (uint64_t)ties];
}
"""


# ---- the Python side: a stack as a site and the values of the flow's variables ------------------------
def _matched(game, proc_index) -> dict:
    """pc -> (chain of calls compiled in place, statement) of each CHOOSE and CALL instruction of
    a compiled procedure, matched in order with its statements' decisions and calls."""
    rs, proc = game.ruleset, game.procs[proc_index]
    body = rs.flow if proc.name == "flow" else rs.procedures[proc.name].body if proc.name in rs.procedures else None
    if body is None:
        raise Unresumable(f"a decision in {proc.name}")
    code = proc.code
    stops = [pc for pc, ins in enumerate(code) if ins[0] in (CHOOSE, CALL)]
    found: dict = {}
    cursor = [0]

    def match(stmts, chain, depth):
        if depth > 64:
            raise Unresumable("calls compiled in place more than 64 deep")
        for stmt in stmts:
            pc = stops[cursor[0]] if cursor[0] < len(stops) else None
            ins = code[pc] if pc is not None else None
            if isinstance(stmt, ir.Choose):
                if ins is None or ins[0] != CHOOSE or ins[1].position != stmt.position:
                    raise Unresumable(f"the decisions of {proc.name} do not match its statements")
                found[pc] = (chain, stmt)
                cursor[0] += 1
            elif isinstance(stmt, ir.CallProc):
                if ins is not None and ins[0] == CALL and ins[-1] == stmt.position \
                        and game.procs[ins[1]].name == stmt.proc:
                    found[pc] = (chain, stmt)
                    cursor[0] += 1
                else:
                    match(rs.procedures[stmt.proc].body, chain + (stmt,), depth + 1)
                continue
            for inner in ir.nested(stmt):
                match(inner, chain, depth)

    match(body, (), 0)
    if cursor[0] != len(stops):
        raise Unresumable(f"the decisions of {proc.name} do not match its statements")
    return found


def _matches(game) -> dict:
    cached = getattr(game, "_native_matches", None)
    if cached is None:
        cached = game._native_matches = {}
    return cached


def _where(game, proc_index, pc):
    table = _matches(game)
    if proc_index not in table:
        try:
            table[proc_index] = _matched(game, proc_index)
        except Unresumable as exc:
            table[proc_index] = exc
    found = table[proc_index]
    if isinstance(found, Unresumable):
        raise found
    if pc not in found:
        raise Unresumable(f"a frame of {game.procs[proc_index].name} stands at no decision or call")
    return found[pc]


def _slots(code, env, pc, limited) -> list:
    """The slots of the loops around ``pc`` in a frame's locals, outermost first: ('for', [list,
    next index]), ('repeat', rounds left) or ('while_limit', rounds begun: a ``while`` at one of the
    positions ``limited``)."""
    found = []
    for key in env:
        if key[:1] not in ("$", "#") or not key[1:].isdigit():
            continue
        start = int(key[1:])
        test = code[start + 1] if start + 1 < len(code) else None
        if key[0] == "$" and test is not None and test[0] == FORNEXT:
            end = test[3]
        elif key[0] == "#" and test is not None and test[0] == JUMPF:
            end = test[2]
        else:
            raise Unresumable("a loop compiled into a generated block stands around the decision")
        if start < pc < end:
            kind = "for" if key[0] == "$" else "while_limit" if code[start][-1] in limited else "repeat"
            found.append((start, kind, env[key]))
    return [(kind, value) for _, kind, value in sorted(found, key=lambda item: item[0])]


class Plan:
    """The values a resumed kernel starts from: ``site``, ``fvals`` (the flow's C variables) and
    ``lists``, the start of the arena (``k_resume`` copies it there before anything else, so a
    list's handle is its place in ``lists``)."""

    def __init__(self, site, size):
        self.site = site
        self.fvals = [0] * size
        self.lists: list = [0]  # handle 0: an empty list, what a variable left at 0 reads as a list

    def value(self, tables, value) -> int:
        """A Python value as the kernel's number (a list: its handle, its items laid out first)."""
        if isinstance(value, (list, tuple)):
            items = [self.value(tables, item) for item in value]
            handle = len(self.lists)
            self.lists.append(len(items))
            self.lists.extend(items)
            if len(self.lists) > RCAP:
                raise Unresumable(f"its locals hold lists of more than {RCAP} items in all")
            return handle
        if value is None:
            return -1
        if isinstance(value, str):
            if value not in tables.texts:
                raise Unresumable(f"a local holds the text '{value[:40]}', which the kernel does not know")
            return tables.texts.index(value)
        if isinstance(value, (bool, int)) and -2 ** 63 <= value < 2 ** 63:
            return int(value)
        raise Unresumable(f"a local holds {type(value).__name__} {str(value)[:40]}")

    def put(self, tables, index, value) -> None:
        self.fvals[index] = self.value(tables, value)


def resume_plan(kernel, state) -> Plan:
    """Where ``state`` (at a decision) resumes in ``kernel``, or :class:`Unresumable` with why."""
    game, sites = kernel.game, kernel.sites
    stack = state.stack
    if not stack or state.decider is None:
        raise Unresumable("the state is at no decision")
    chain: list = []
    frame_of_level = [0]  # the Python frame of each call level of the kernel
    for f, frame in enumerate(stack):
        last = f == len(stack) - 1
        inlined, stmt = _where(game, frame[0], frame[1] if last else frame[1] - 1)
        if isinstance(stmt, ir.Choose) != last:
            raise Unresumable("the stack does not end at a decision")
        chain.extend(inlined)
        frame_of_level.extend([f] * len(inlined))
        if not last:
            if stmt.then is not None:
                raise Unresumable("a procedure whose value is used stands on the stack")
            chain.append(stmt)
            frame_of_level.append(f + 1)
    number = sites.by_key.get(tuple(id(s) for s in chain) + (id(stmt),))
    if number is None:
        raise Unresumable("the kernel compiled this decision in more than one place" if
                          tuple(id(s) for s in chain) + (id(stmt),) in sites.by_key else
                          "the kernel has no such decision")
    site = sites.found[number]
    index = {name: i for i, name in enumerate(sites.flow_names)}
    plan = Plan(number, len(sites.flow_names))
    tables = kernel.tables
    for level, names in enumerate(site.levels):
        env = stack[frame_of_level[level]][2]
        kinds = _kinds(game.ruleset, site.chain[level - 1] if level else None, sites.kinds)
        for name, variable in names.items():
            if name in env and variable in index:
                value, kind = env[name], kinds.get(name, _ANY)
                if kind == {_kind_of(value)}:
                    plan.put(tables, index[variable], value)
                elif len(kind) > 1:  # what the kernel reads there depends on the path: no guess
                    raise Unresumable(f"the local '{name}' holds values of several kinds")
                # else another kind: the local of another procedure compiled in place, of the same
                # name (this one is set again before it is read); left at 0
    for f, frame in enumerate(stack):
        pc = frame[1] if f == len(stack) - 1 else frame[1] - 1
        slots = _slots(game.procs[frame[0]].code, frame[2], pc, sites.limited)
        loops = [(kind, variables) for level, kind, variables in site.loops
                 if frame_of_level[level] == f and kind != "while"]
        if [kind for kind, _ in slots] != [kind for kind, _ in loops]:
            raise Unresumable("the loops around the decision differ in the kernel")
        for (kind, value), (_, variables) in zip(slots, loops):
            if kind == "for":
                if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], list)
                        and type(value[1]) is int and 1 <= value[1] <= len(value[0])):
                    raise Unresumable("a loop's place in its list is out of range")
                plan.put(tables, index[variables[0]], value[0])
                plan.put(tables, index[variables[1]], value[1] - 1)
            elif kind == "while_limit":
                if type(value) is not int or not 0 <= value < 2 ** 62:
                    raise Unresumable("a while loop's rounds are out of range")
                plan.put(tables, index[variables[0]], value)
            else:
                if type(value) is not int or not 0 <= value < 2 ** 62:
                    raise Unresumable("a repeat's rounds left are out of range")
                plan.put(tables, index[variables[0]], value + 1)
                plan.put(tables, index[variables[1]], 0)
    return plan


_ANY = {"list", "str", "other"}


def _kind_of(value) -> str:
    """How the kernel holds a value: a list's handle, a text's number, or a number as it is."""
    return "list" if isinstance(value, (list, tuple)) else "str" if isinstance(value, str) else "other"


def _type_kind(type_) -> set:
    if type_ is None or type_.name == "any":
        return _ANY
    return {"list" if type_.name == "list" else "str" if type_.name == "str" else "other"}


def _kinds(rs, call, cache: dict) -> dict:
    """The kinds of value (see :func:`_kind_of`) each local of the flow (``call`` None) or of the
    procedure a call compiles in place is declared with, by its statements (not those of what it
    calls): the kernel holds a local of one name in one C variable per level.  ``cache``: the
    kernel's, by procedure."""
    key = None if call is None else call.proc
    if key in cache:
        return cache[key]
    found: dict = {}

    def note(name, type_):
        found.setdefault(name, set()).update(_type_kind(type_))

    body = rs.flow if call is None else rs.procedures[call.proc].body
    if call is not None:
        proc = rs.procedures[call.proc]
        for i, name in enumerate(proc.params):
            note(name, proc.param_types[i] if i < len(proc.param_types) else None)
    types, symbols = rs.types, rs.symbols
    for stmt in ir.walk(body):
        node = stmt.node if isinstance(stmt, ir.Exec) else None
        if isinstance(node, ast.Let):
            note(node.name, types.get(node.value))
        elif isinstance(node, ast.Assign) and symbols.get(node.target, ("",))[0] == "local":
            note(symbols[node.target][1], types.get(node.value))
        elif isinstance(stmt, (ir.For, ir.Simultaneous)):
            note(stmt.var, element_type(types.get(stmt.source)) if types.get(stmt.source) else None)
        elif isinstance(stmt, ir.Choose):
            for option in stmt.options:
                for name, domain in option.params:
                    kind = types.get(domain)
                    note(name, None if kind is None else element_type(kind) if kind.name == "list" else kind)
    cache[key] = found
    return found
