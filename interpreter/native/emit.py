"""A checked ruleset as the C source of a native playout kernel.

The source is made from the typed IR (``dsl.ir.Ruleset``) and the game's layout, never from the
ruleset's text: identifiers are generated (``L3``, ``t12``), texts become numbers (the table stays in
Python), numbers are written by ``int``.  The flow becomes structured C: loops, branches, and each
``choose`` enumerating its legal actions in the order the Python engine lists them, the seat's policy
picking one (:func:`PICK` in the prelude).  What is not translated yet raises ``Unsupported``."""
from __future__ import annotations

from dsl import ast, ir

from .calls import Calls, recursive_procedures
from .expressions import SCALARS, Expressions, Scope, Unsupported
from . import keyed
from .prelude import ENTRY, ERRORS, PRELUDE
from .resume import RCAP, Sites, resume_fields
from .tables import Tables

VISIBILITIES = ("all", "owner", "top")  # the kernel's numbers of the visibilities it tells apart
MAXLOG = 16384  # the actions of one game the kernel records (a longer game goes on, unrecorded)
MAXCAND = 4096  # the legal actions of one decision
LCAP = 64  # the items a list variable holds in the kernel (more: a located error that says to use Python)


class Emitter(Calls):
    def __init__(self, game):
        self.game = game
        self.rs = game.ruleset
        self.tables = Tables(game)
        self.x = Expressions(self.rs, game, self.tables)
        self.locals: dict = {}  # ruleset local -> C variable, in the frame being compiled
        self.declared: list = []  # every C variable of locals, declared at the top of its function
        self.calls: list = []  # (procedure, label of its end) being inlined
        self.loops: list = []  # (label of continue, label of break)
        self.recursive = recursive_procedures(self.rs)  # compiled as C functions (calls.py)
        self.functions: dict = {}  # (procedure, in the flow?) -> its C function
        self.prototypes: list = []
        self.function = None  # the C function of a procedure being compiled (calls.py), else None
        self.function_code: list = []
        bodies = [self.rs.setup, self.rs.flow] + [p.body for p in self.rs.procedures.values()]
        self.max_params = max([len(o.params) for body in bodies for s in ir.walk(body) if isinstance(s, ir.Choose)
                               for o in s.options] + [1])
        self.deciding = True
        self.frame = "flow"
        self.sites = Sites(self)  # the decisions a game can resume at (interpreter/native/resume.py)

    # ---- the whole source --------------------------------------------------------------------
    def source(self) -> str:
        game, rs = self.game, self.rs
        for mark, values in game.initial_marks.items():
            kinds = {type(v) for v in values if v is not None}
            if not (kinds <= {int} or kinds <= {bool}):
                raise Unsupported(f"the mark '{mark}' of mixed types", None)
        self.deciding = False
        triggers = self.triggers()
        self.frame = "setup"
        setup = self.block(rs.setup, Scope())
        setup_locals = self._decls()
        self.deciding, self.frame = True, "flow"
        flow = self.block(rs.flow, Scope())
        self.sites.flow_names = list(self.declared)
        flow_locals = self._decls()
        score = "0"  # Game.score without a 'score'
        if rs.score is not None:
            self.x.check_scalar(rs.score)
            score = self.x.expr(rs.score, Scope({"player": "player"}))
        body = ("".join(self.prototypes) + triggers + "".join(self.function_code)
                + f"static void setup(Ctx *C) {{\n{setup_locals}{setup}}}\n"
                f"static void flow(Ctx *C) {{\n{flow_locals}{self.sites.prologue()}{flow}}}\n"
                f"static int64_t score_of(Ctx *C, int64_t player) {{ return {score}; }}\n")
        made = "".join(f"C->consts[{i}] = {code};\n" for i, code in enumerate(self.x.constants))
        body += f"static void constants(Ctx *C) {{\n{made}}}\n"
        return (self.header() + f"#define NCONST {len(self.x.constants)}\n#define USES_LINES {int(self.x.uses_lines)}\n"
                + PRELUDE + body + ENTRY + self.sites.entry())

    def triggers(self) -> str:
        """A C function per trigger (its condition and body, bound to 'component' and 'owner'), and
        FIRE, which a move calls: the triggers of leaving the source, entering the target, and the
        source's emptying if it is still empty after those (``State._fire_move``)."""
        game, out = self.game, []
        events: dict = {}
        for number, trigger in enumerate(self.rs.triggers):
            bound = {"component": "component", "owner": "owner"}
            when = self.x.expr(trigger.when, Scope(bound)) if trigger.when is not None else "1"
            self.locals = dict(bound)  # the body's frame: its parameters, then its own locals
            self.frame = f"trigger '{trigger.name}'"
            body = self.block(trigger.body, Scope())
            declared = self._decls()
            where = self.tables.position(trigger.position)
            out.append(f"static void trigger{number}(Ctx *C, int64_t component, int64_t owner) {{\n"
                       f"if (!({when})) return;\n{declared}{body}}}\n")
            for zone, family in enumerate(game.zone_family):
                if family == trigger.zone:
                    events.setdefault((trigger.event, zone), []).append((number, where))
        fire = ["static void FIRE(Ctx *C, int64_t c, int64_t src, int64_t dest) {"]
        for event, zone_var, test in (("leave", "src", ""), ("enter", "dest", ""), ("empty", "src", "C->s->zlen[src] == 0 && ")):
            for (kind, zone), found in sorted(events.items()):
                if kind == event:
                    calls = "".join(f"RUN_TRIGGER(C, trigger{n}, {'c' if event != 'empty' else '-1'}, "
                                    f"OWNER_NOW(C, {zone}), {where}, {n});\n" for n, where in found)
                    fire.append(f"if ({test}{zone_var} == {zone}) {{\n{calls}}}")
        fire.append("}")
        return "".join(out) + "\n".join(fire) + "\n"

    def _decls(self) -> str:
        """The declarations of the C variables of the function just compiled."""
        found = "".join(f"int64_t {c} = 0; (void){c};\n" for c in self.declared)
        self.locals, self.declared = {}, []
        return found

    def header(self) -> str:
        game, t = self.game, self.tables
        nc, nz, ncell = max(game.num_components, 1), len(game.zone_names), max(len(game.cell_zone), 1)
        lines = [f"#define NC {nc}", f"#define NZ {nz}", f"#define NCELL {ncell}", f"#define NP {game.num_players}",
                 f"#define NMARK {len(game.mark_names)}", f"#define HAS_GRIDS {int(game.has_grids)}",
                 f"#define ALL_SEATS {game.all_seats}LL", f"#define MAXLOG {MAXLOG}", f"#define MAXCAND {MAXCAND}",
                 f"#define MAXP {self.max_params}", f"#define LCAP {LCAP}", f"#define NSTAMP {max(nc, ncell, 64)}",
                 f"#define HAS_TRIGGERS {int(bool(self.rs.triggers))}",
                 "enum { " + ", ".join(f"E_{name} = {i + 1}" for i, name in enumerate(ERRORS)) + " };",
                 struct_text(game, len(t.vars), len(t.player_vars), self.max_params, len(self.sites.flow_names))]
        lines.append(_table("ZONE_MASK", [-1 if m is None else m for m in game.zone_mask]))  # -1: it depends
        lines.append(_table("ZONE_HOST", [-1 if h is None else h for h in game.zone_host]))
        lines.append(_table("ZONE_VIS", [VISIBILITIES.index(v) if v in VISIBILITIES else len(VISIBILITIES)
                                         for v in game.zone_visibility]))
        lines.append(_table("TOP_MASK", game.top_mask))
        lines.append(_table("ZONE_GRID", [int(g is not None) for g in game.zone_grid]))
        lines.append(_table("ZONE_OWNER", [-1 if o is None else o for o in game.zone_owner]))
        lines.append(_table("NAME_INDEX", game.name_index or [0]))
        lines.append(_table("CELL_ZONE", game.cell_zone or [0]))
        lines.append(_table("CELL_ROW", game.cell_row or [0]))
        lines.append(_table("CELL_COLUMN", game.cell_column or [0]))
        grids = [game.zone_grid[z] for z in game.cell_zone] or [(0, 1, 1)]
        lines.append(_table("CELL_FIRST", [g[0] for g in grids]))
        lines.append(_table("CELL_ROWS", [g[1] for g in grids]))
        lines.append(_table("CELL_COLUMNS", [g[2] for g in grids]))
        for stem, table in (("ORTH", game.cell_neighbors), ("ALL", game.cell_all_neighbors)):
            starts = [0]
            for near in table:
                starts.append(starts[-1] + len(near))
            lines.append(_table(f"{stem}_START", starts))
            lines.append(_table(f"{stem}_CELLS", [c for near in table for c in near] or [0]))
        holds = [[int(h is None or h[c]) for c in range(game.num_components)] or [1] for h in game.zone_holds]
        lines.append(f"static const int64_t ZONE_HOLDS[{nz}][{nc}] = {{{', '.join('{' + ', '.join(map(str, row)) + '}' for row in holds)}}};")
        lines.append(_table("KIND_TEXT", [t.text(k) for k in game.kinds] or [0]))
        lines.append(_table("NAME_TEXT", [t.text(n) for n in game.names] or [0]))
        for family in t.attached_families:
            base, holder = game.family_base[family], self.rs.zones[family].per_kind
            lines.append(_table(t.attached(family), [base + game.kind_index[c] if game.kinds[c] == holder else -1
                                                     for c in range(game.num_components)] or [0]))
        for name in t.attributes:
            values = [-1 if v is None else t.text(v) if isinstance(v, str) else int(v) for v in game.attr_tables[name]]
            lines.append(_table(t.attribute(name), values or [0]))
            lines.append(_table(t.attribute(name) + "_HAS", [int(v is not None) for v in game.attr_tables[name]] or [0]))
        starts, ids = [0], []
        for text in t.texts:  # the components of the kind each text names (components(kind))
            ids += game.components_by_kind.get(text, []) if t.kinds_by_text else []
            starts.append(len(ids))
        lines.append(_table("KIND_START", starts))
        lines.append(_table("KIND_IDS", ids or [0]))
        lines.append(_table("KIND_NAMED", [int(text in game.components_by_kind) for text in t.texts] or [0]))
        for value in _texts_in([v.initial for v in [*self.rs.vars.values(), *self.rs.player_vars.values()]]
                               + list(getattr(game, "params", {}).values())):
            t.text(value)  # what a state holds from the start: numbered before the tables of texts
        t.compiled_texts = len(t.texts)  # a text numbered later (a saved state's) has no row in these tables
        lines.append(f"#define NTEXTS {len(t.texts)}")
        ranks = sorted(range(len(t.texts)), key=lambda i: t.texts[i])
        lines.append(_table("TEXT_RANK", [ranks.index(i) for i in range(len(t.texts))] or [0]))
        lines.append(keyed.tables_source(t))
        return "\n".join(lines) + "\n"

    # ---- statements ----------------------------------------------------------------------------
    def local(self, name) -> str:
        if name not in self.locals:
            self.locals[name] = f"L{len(self.declared)}"
            self.declared.append(self.locals[name])
        return self.locals[name]

    def block(self, stmts, scope) -> str:
        return "".join(self.statement(stmt, scope) for stmt in stmts)

    def statement(self, stmt, scope) -> str:
        pos = f"C->pos = {self.tables.position(stmt.position)}; C->iters = 0;\n"
        method = getattr(self, "_s_" + type(stmt).__name__.lower(), None)
        if method is None:
            raise Unsupported(f"the statement {type(stmt).__name__}", stmt.position)
        try:
            with self.sites.around(stmt):
                return pos + method(stmt, scope)
        except Unsupported as exc:
            if exc.where is None:
                exc.where = stmt.position
            raise

    def _s_exec(self, stmt, scope) -> str:
        node = stmt.node
        if isinstance(node, ast.Let):
            self.x.check_scalar(node.value) if self.x.type_of(node.value) != "list" else None
            target = self.local(node.name)
            value = self.x.expr(node.value, self._scope(scope))
            return f"{target} = {value};\n"
        if isinstance(node, ast.Assign):
            return self._assign(node, scope)
        if isinstance(node, ast.CallStmt):
            return self._effect(node.call, scope, stmt.position)
        raise Unsupported(f"the statement {type(node).__name__}", stmt.position)

    def _scope(self, scope) -> Scope:
        return scope.child(self.locals)

    def _assign(self, node, scope) -> str:
        target = node.target
        sc = self._scope(scope)
        kind, name = self.rs.symbols.get(target, ("", ""))
        if kind in ("var", "pvar"):
            place, is_list = (self.tables.var(name, node.pos) if kind == "var" else
                              self.tables.player_var(name, self.x.expr(target.obj, sc), node.pos))
            if is_list:
                value = self.x.as_list(node.value, sc)
                if node.op == "+=":
                    value = f"CONCAT(C, VLIST(C, {place}), {value})"
                elif node.op != "=":
                    raise Unsupported(f"the assignment {node.op} to a list", node.pos)
                return f"STORELIST(C, {place}, {value});\n"
        if kind == "local" and self.x.type_of(node.value) == "list" and node.op in ("=", "+="):
            value, place = self.x.as_list(node.value, sc), self.local(name)
            return f"{place} = {value if node.op == '=' else f'CONCAT(C, {place}, {value})'};\n"
        self.x.check_scalar(node.value)
        value = self.x.expr(node.value, sc)
        if kind == "local":
            place = self.local(name)
        elif kind in ("var", "pvar"):
            place = self.x.expr(target, sc)
        elif kind == "mark":
            place = self.x.mark(name, self.x.expr(target.obj, sc), write=True)
        else:
            raise Unsupported("assigning to this target", node.pos)
        if node.op == "=":
            return f"{place} = {value};\n"
        helper = {"+=": "ADD", "-=": "SUB", "*=": "MUL"}.get(node.op)
        if helper is None:
            raise Unsupported(f"the assignment {node.op}", node.pos)
        read = self.x.expr(target, sc) if kind == "mark" else place
        return f"{{ int64_t v_ = {value}; int64_t o_ = {read}; {place} = {helper}(C, o_, v_); }}\n"

    def _effect(self, call, scope, where) -> str:
        kind, name = self.rs.symbols[call]
        if kind != "effect":
            raise Unsupported(f"the call of {name} as a statement", where)
        if name == "log":
            return ""  # narration is muted in the kernel: its message is not even computed
        kw = dict(call.kwargs)
        sc = self._scope(scope)
        args = [self.x.expr(a, sc) if self.x.type_of(a) != "list" else self.x.as_list(a, sc) for a in call.args]
        bottom = "0"
        if "at" in kw or (name in ("move", "move_all") and len(args) == 3) or (name == "draw" and len(args) == 4):
            at = kw.get("at", call.args[-1])
            value = self.x.static_text(at)
            if value not in ("top", "bottom"):
                raise Unsupported("an 'at' that is not top or bottom written out", where)
            bottom = "1" if value == "bottom" else "0"
            args = args[:-1] if "at" not in kw else args
        if name == "end_game":
            if args or kw:
                reason = args[0] if args else self.x.expr(kw["reason"], sc)
                return f"C->s->end_reason = {reason}; game_over(C);\n"
            return "game_over(C);\n"
        if name == "show" and len(call.args) + len(kw) == 2:
            items = call.args[0]
            listed = self.x.as_list(items, sc) if self.x.type_of(items) in ("list", "zone") else \
                f"({{ int64_t h_ = NEWLIST(C, 1); ITEM(h_, 0) = {args[0]}; h_; }})"
            to = args[1] if len(args) == 2 else self.x.expr(kw["to"], sc)
            return f"SHOW(C, {listed}, {to});\n"
        if name == "place" and len(args) == 2:
            return f"PLACE(C, {args[0]}, {args[1]});\n"
        if name == "shuffle" and len(args) == 1:
            return f"SHUFFLE(C, {args[0]});\n"
        if name == "move_all" and len(args) == 2:
            return f"MOVE_ALL(C, {args[0]}, {args[1]}, {bottom});\n"
        if name == "draw" and len(args) in (2, 3) and set(kw) <= {"count", "at"}:
            count = args[2] if len(args) == 3 else self.x.expr(kw["count"], sc) if "count" in kw else "1"
            return f"DRAW(C, {args[0]}, {args[1]}, {count}, {bottom});\n"
        if name == "move" and len(args) == 2:
            helper = "MOVE_LIST" if self.x.type_of(call.args[0]) == "list" else "MOVE_ONE"
            return f"{helper}(C, {args[0]}, {args[1]}, {bottom});\n"
        raise Unsupported(f"the effect {name} written this way", where)

    def _s_if(self, stmt, scope) -> str:
        cond = self.x.expr(stmt.cond, self._scope(scope))
        return f"if ({cond}) {{\n{self.block(stmt.then, scope)}}} else {{\n{self.block(stmt.otherwise, scope)}}}\n"

    def _loop(self, head, body_stmts, scope, where, kind="while", hoisted=()) -> str:
        """A loop: each round counts a step (runtime/limits.py), at the loop's place; ``kind`` and
        the C variables of its rounds (``hoisted``) tell a resumed game where it stands in it."""
        label, mark = self.x.fresh("loop"), self.sites.hoist("m")
        reset = "" if self._carries_lists(body_stmts) else f"C->top = {mark}; "
        self.loops.append(label)
        try:
            with self.sites.loop(kind, hoisted + (mark,)):
                body = self.block(body_stmts, scope)
        finally:
            self.loops.pop()
        step = f"C->pos = {self.tables.position(where)}; C->frame = {self._frame()}; STEP(C);"
        return (f"{{ {mark} = C->top; {head} {{ {reset}{step}\n{body}{label}_next: ; }}\n"
                f"{label}_end: ; }}\n")

    def _frame(self) -> int:
        """The number of the name of the procedure being compiled (as the Python engine names its
        frames: 'setup', 'flow', "trigger '...'", or the procedure's name) in ``tables.frames``."""
        name = self.calls[-1][0].name if self.calls else self.frame
        if name not in self.tables.frames:
            self.tables.frames.append(name)
        return self.tables.frames.index(name)

    def _carries_lists(self, stmts) -> bool:
        """Whether a loop's body gives a list to a local bound before the loop: then the lists one
        round makes must outlive it, and the arena is not reset at each round."""
        for stmt in ir.walk(stmts):
            node = stmt.then.node if isinstance(stmt, ir.CallProc) and stmt.then is not None else getattr(stmt, "node", None)
            name = node.name if isinstance(node, ast.Let) else \
                node.target.id if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name) else None
            if name in self.locals and self.x.type_of(node.value) == "list":
                return True
        return False

    def _s_while(self, stmt, scope) -> str:
        cond = self.x.expr(stmt.cond, self._scope(scope))
        if stmt.limit:  # at most 'limit' rounds, the test first (compile/statements.py); a resumed game sets the count
            rounds = self.sites.hoist("w")
            self.sites.limited.add(stmt.position)
            return self._loop(f"{rounds} = 0; while (({cond}) && ++{rounds} <= {int(stmt.limit)}LL)",
                              stmt.body, scope, stmt.position, "while_limit", (rounds,))
        return self._loop(f"while ({cond})", stmt.body, scope, stmt.position)  # no state of its rounds

    def _s_repeat(self, stmt, scope) -> str:
        count, i = self.sites.hoist("n"), self.sites.hoist("i")
        value = self.x.expr(stmt.count, self._scope(scope))
        head = (f"{count} = {value}; if ({count} > 1000000) fail(C, E_repeat, {count}, 0); "
                f"for ({i} = 0; {i} < {count}; {i}++)")
        return self._loop(head, stmt.body, scope, stmt.position, "repeat", (count, i))

    def _s_for(self, stmt, scope) -> str:
        source = self.x.as_list(stmt.source, self._scope(scope))
        h, i = self.sites.hoist("h"), self.sites.hoist("i")
        var = self.local(stmt.var)
        head = f"{h} = {source}; for ({i} = 0; {i} < LEN({h}); {i}++)"
        label = self.x.fresh("loop")
        self.loops.append(label)
        try:
            with self.sites.loop("for", (h, i)):
                body = self.block(stmt.body, scope)
        finally:
            self.loops.pop()
        step = f"C->pos = {self.tables.position(stmt.position)}; C->frame = {self._frame()}; STEP(C);"
        return (f"{{ {head} {{ {step} {var} = ITEM({h}, {i});\n{body}{label}_next: ; }}\n{label}_end: ; }}\n")

    _s_simultaneous = _s_for  # each player decides in turn, as the Python engine runs it

    def _s_break(self, stmt, scope) -> str:
        return f"goto {self.loops[-1]}_end;\n"

    def _s_continue(self, stmt, scope) -> str:
        return f"goto {self.loops[-1]}_next;\n"

    def _s_block(self, stmt, scope) -> str:
        return self.block(stmt.body, scope)

    def _s_choose(self, stmt, scope) -> str:
        if not self.deciding:
            raise Unsupported("a decision outside the flow", stmt.position)
        sc = self._scope(scope)
        player = self.x.expr(stmt.player, sc)
        seat, mark = self.x.fresh("p"), self.x.fresh("m")
        where = self.tables.position(stmt.position)
        parts = [f"{self.sites.site(stmt)}{{ int64_t {mark} = C->top; C->s->cand_n = 0; int64_t {seat} = {player};\n"]
        numbers = []
        for option in stmt.options:
            numbers.append(len(self.tables.options))
            self.tables.options.append(option)
            self.tables.param_kinds.append([self._element(d) for _, d in option.params])
            parts.append(self._enumerate(numbers[-1], option, sc))
        skip = "1" if stmt.if_none == "skip" else "0"
        lists = any(self._element(d) not in SCALARS for o in stmt.options for _, d in o.params)
        keep = "" if lists else f" C->top = {mark};"  # values that are lists live in the arena
        cases = "".join(f"case {i}: {{\n{self._bind(o)}{self.block(o.body, scope)}break; }}\n"
                        for i, o in zip(numbers, stmt.options))
        parts.append(f"if (C->s->cand_n == 0) {{ if (!{skip}) {{ C->pos = {where}; fail(C, E_no_option, {seat}, 0); }} }}\n"
                     f"else {{ C->s->decider = {seat}; int64_t k_ = PICK(C); C->steps = 0;{keep}\n"
                     f"int64_t chosen_[MAXP + 1]; memcpy(chosen_, C->s->cand[k_], sizeof(chosen_));\n"
                     f"C->s->decider = -1;\nswitch (chosen_[0]) {{\n{cases}}} }} }}\n")
        return "".join(parts)

    def _element(self, domain) -> str:
        """The type of the values a parameter's domain offers."""
        if self.x.type_of(domain) == "zone":
            return "component"
        arg = self.x.types[domain].arg
        return arg.name if arg is not None else "any"

    def _bind(self, option) -> str:
        return "".join(f"{self.local(name)} = chosen_[{i + 1}];\n" for i, (name, _) in enumerate(option.params))

    def _enumerate(self, index, option, scope) -> str:
        if option.decline:
            return f"if (C->s->cand_n > 0) CANDIDATE(C, {index}, 0, NULL);\n"
        values = self.x.fresh("vals")
        require = option.require
        bound: dict = {}
        levels, distinct = [], []
        for i, (name, domain) in enumerate(option.params):
            kind = self.x.type_of(domain)
            arg = self.x.types[domain].arg if kind == "list" else None
            flat = arg is not None and arg.name == "list" and arg.arg is not None and arg.arg.name in SCALARS
            if kind not in ("list", "zone") or (kind == "list" and not flat and (arg is None or arg.name not in SCALARS)):
                raise Unsupported(f"the parameter '{name}' over a {kind}", option.position)
            element = "component" if kind == "zone" else arg.name
            if isinstance(domain, ast.ListLit) and len(domain.items) == 1 and element in SCALARS:
                levels.append((name, self.x.expr(domain.items[0], scope.child(bound)), "one"))  # [x]: x alone
            else:
                levels.append((name, self.x.items(domain, scope.child(bound)), element))
            distinct.append(self.x.distinct(domain))
            bound[name] = f"{values}[{i}]"
            if self.x.item_kind(domain, scope.child(bound)) is not None:
                self.x.valid[bound[name]] = self.x.item_kind(domain, scope.child(bound))
        test = self.x.expr(require, scope.child(bound)) if require is not None else "1"
        inner = f"if ({test}) CANDIDATE(C, {index}, {len(option.params)}, {values});\n"
        for i in reversed(range(len(levels))):
            name, domain, element = levels[i]
            if element == "one":
                inner = f"{{ {values}[{i}] = {domain};\n{inner}}}\n"
                continue
            setup, items, length = domain
            n, j, tried, nt, gen = (self.x.fresh(s) for s in ("n", "j", "tr", "nt", "g"))
            seen = {"component": "SEEN_COMPONENT", "list": "SEEN_LIST"}.get(element, "SEEN_VALUE")
            skip = "" if distinct[i] else (  # a value offered before is skipped (none repeats in a distinct domain)
                f"int64_t {tried} = -1; int64_t {nt} = 0; int64_t {gen} = ++C->gen;\n",
                f"if ({n} > 1 && {seen}(C, {i}, {gen}, &{tried}, {n}, &{nt}, {values}[{i}])) continue;\n")
            inner = (f"{{ {setup}int64_t {n} = {length}; {skip and skip[0]}"
                     f"for (int64_t {j} = 0; {j} < {n}; {j}++) {{ {values}[{i}] = {items}[{j}];\n"
                     f"{skip and skip[1]}{inner}}} }}\n")
        return f"{{ int64_t {values}[MAXP + 1]; (void){values};\n{inner}}}\n"


def _texts_in(values) -> list:
    """The texts among ``values`` and in their lists."""
    found = []
    for value in values:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list):
            found += _texts_in(value)
    return found


def _table(name, values) -> str:
    return f"static const int64_t {name}[{len(values)}] = {{{', '.join(str(int(v)) for v in values)}}};"


def struct_text(game, nvars, npvars, max_params, nflow=0) -> str:
    """The kernel's state: flat arrays (the same text in the C source and in cffi's declarations)."""
    nc, nz, ncell = max(game.num_components, 1), len(game.zone_names), max(len(game.cell_zone), 1)
    return (f"typedef struct {{ int64_t zlen[{nz}]; int64_t zitems[{nz}][{nc}]; int64_t loc[{nc}]; "
            f"int64_t cell_of[{nc}]; int64_t known[{nc}]; int64_t cells[{ncell}]; int64_t blind_to[{nz}]; "
            f"int64_t marks[{max(len(game.mark_names), 1)}][{nc}]; int64_t has_mark[{max(len(game.mark_names), 1)}][{nc}]; "
            f"int64_t vars[{max(nvars, 1)}]; "
            f"int64_t pvars[{max(npvars, 1)}][{game.num_players}]; int64_t lvars[{max(nvars, 1)}][{LCAP + 1}]; "
            f"int64_t lpvars[{max(npvars, 1)}][{game.num_players}][{LCAP + 1}]; uint64_t rng; uint64_t policy_rng; "
            f"int64_t over; int64_t moves; int64_t decider; int64_t end_reason; {resume_fields(game, nflow)}"
            f"int64_t err; int64_t err_pos; int64_t err_a; int64_t err_b; int64_t cap; int64_t n_log; int64_t looks; "
            f"int64_t log[{MAXLOG}][{max_params + 1}]; int64_t cand_n; int64_t cand[{MAXCAND}][{max_params + 1}]; "
            f"int64_t returns[{game.num_players}]; int64_t picks[{MAXLOG}]; int64_t rarena[{RCAP}]; }} KS;")

