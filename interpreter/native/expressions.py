"""Expressions of a checked ruleset as C expressions (GCC statement expressions where they need
statements).  Every value is an ``int64_t``: numbers, booleans (0, 1), seats, components, cells and
zones by number (none: -1), texts by their number in the kernel's table of texts, lists by their
handle in the arena.  A construct this slice does not translate raises :class:`Unsupported`,
located at the node, and the kernel is not built."""
from __future__ import annotations

from dsl import ast
from dsl.registry import FUNCTIONS

from ..runtime.limits import INT_MAX, INT_MIN

SCALARS = ("int", "bool", "str", "player", "component", "cell", "zone")
# functions that are one helper of the prelude, by name and number of arguments
HELPERS = {("top", 1): "TOP", ("bottom", 1): "BOTTOM", ("abs", 1): "ABS", ("roll", 1): "ROLL", ("seat", 1): "SEAT",
           ("with_item", 3): "WITH_ITEM"}
NULLABLE = ("player", "component", "cell", "zone", "none")  # types whose none is -1 in the kernel


class Unsupported(Exception):
    """A construct the native kernel does not translate yet; ``where`` its position."""

    def __init__(self, what, where):
        super().__init__(what)
        self.what = what
        self.where = where


class Scope:
    """The C names of the ruleset's names in a stretch of code: locals, a definition's parameters,
    a comprehension's variable."""

    def __init__(self, names=None):
        self.names = dict(names or {})

    def child(self, extra) -> "Scope":
        return Scope({**self.names, **extra})


class Expressions:
    """Translates expressions; ``tables`` holds the game's layout and the texts' numbers."""

    def __init__(self, ruleset, game, tables):
        self.rs = ruleset
        self.game = game
        self.types = ruleset.types
        self.symbols = ruleset.symbols
        self.tables = tables
        self.counter = 0
        self.expanding: list = []
        self.constants: list = []  # C expressions of lists that never change, made once per game
        # C names whose values are always in range, read unchecked: 'component' (an item of a zone),
        # 'cell' (an item of neighbors(), cells(), a line), 'cells' (a line of lines_through())
        self.valid: dict = {}
        self.uses_lines = False  # whether lines_through() is read (its lists are made once per game)

    def constant(self, code) -> str:
        """A list that never changes (its C expression reads nothing of the state or the locals):
        made once when the game starts, then read from ``C->consts``."""
        if code not in self.constants:
            self.constants.append(code)
        return f"C->consts[{self.constants.index(code)}]"

    def component(self, code) -> str:
        """``code`` as an index of the tables of components: checked, unless it always holds one."""
        return code if self.valid.get(code) == "component" else f"CK(C, {code}, NC)"

    def cell(self, code) -> str:
        """``code`` as an index of the tables of cells: checked, unless it always holds a cell."""
        return code if self.valid.get(code) == "cell" else f"CK(C, {code}, NCELL)"

    def item_kind(self, node, scope):
        """What the items of a list or zone always are ('component', 'cell', 'cells'), or None."""
        if self.type_of(node) == "zone":
            return "component"
        if isinstance(node, ast.Call) and self.symbols.get(node, ("",))[0] == "func":
            return {"neighbors": "cell", "cells": "cell", "lines_through": "cells"}.get(self.symbols[node][1])
        if isinstance(node, ast.Name) and self.symbols.get(node, ("",))[0] == "local" and node.id in scope.names:
            return {"cells": "cell"}.get(self.valid.get(scope.names[node.id]))
        if self._filtered(node):
            return self.item_kind(node.source, scope)
        if self._constant_define(node):
            return self.item_kind(self.rs.defines[self.symbols[node][1]].body, Scope())
        return None

    def distinct(self, node) -> bool:
        """Whether a list or zone never holds two values a decision would offer once: the
        components of a grid zone (each on its own cell), cells(), range(), and the items of those a
        comprehension keeps."""
        kind, name = self.symbols.get(node, ("", None))
        if kind == "zone":
            return self.game.zone_grid[self.game.family_base[name]] is not None
        if kind == "func" and name in ("cells", "range"):
            return True
        if self._filtered(node):
            return self.distinct(node.source)
        if self._constant_define(node):
            return self.distinct(self.rs.defines[name].body)
        return False

    @staticmethod
    def _filtered(node) -> bool:
        """Whether a node is ``[x for x in SOURCE if ...]``: some of the items of its source."""
        return isinstance(node, ast.Comprehension) and node.func == "list" and isinstance(node.elem, ast.Name) \
            and node.elem.id == node.var

    def _constant_define(self, node) -> bool:
        """Whether a node is the use of a definition without parameters."""
        kind, name = self.symbols.get(node, ("", None))
        return kind == "define" and not self.rs.defines[name].params and not getattr(node, "args", ())

    def fresh(self, stem="t") -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def type_of(self, node):
        found = self.types.get(node)
        if found is None:
            return None
        return found.name

    def is_list(self, node) -> bool:
        return self.type_of(node) in ("list", "zone") and self.type_of(node) == "list"

    def flat_list(self, node) -> bool:
        """Whether a node is a list of numbers, seats, components, cells, ... (not of lists)."""
        found = self.types.get(node)
        return found is not None and found.name == "list" and (
            (found.arg is not None and found.arg.name in SCALARS) or (isinstance(node, ast.ListLit) and not node.items))

    def check_scalar(self, node) -> None:
        name = self.type_of(node)
        if name not in SCALARS and name != "none":  # none: a seat, component or cell to be set later
            raise Unsupported(f"a value of type {name or 'unknown'}", node.pos)

    def as_list(self, node, scope) -> str:
        """A list handle for a node that is a list or a zone (a snapshot of its contents)."""
        if self.type_of(node) == "zone":
            return f"ZLIST(C, {self.expr(node, scope)})"
        if self.type_of(node) != "list":
            raise Unsupported(f"iterating over a {self.type_of(node)}", node.pos)
        arg = self.types[node].arg
        if isinstance(node, ast.ListLit) and not node.items:
            return "NEWLIST(C, 0)"
        if arg is not None and arg.name not in SCALARS + ("list", "any", "none"):  # unknown: its items are never compared
            raise Unsupported(f"a list of values of type {arg.name}", node.pos)
        return self.expr(node, scope)

    def items(self, node, scope) -> tuple:
        """``(setup, pointer, length)``: C to read a list's or zone's items in place, without a copy.
        Only for code that moves nothing while it reads them (expressions, and the enumeration of
        legal actions): a zone is read in the state, neighbors() in the layout's table."""
        p = self.fresh("p")
        if self.type_of(node) == "zone":
            z = self.fresh("z")
            return (f"int64_t {z} = CK(C, {self.expr(node, scope)}, NZ); const int64_t *{p} = C->s->zitems[{z}]; ",
                    p, f"C->s->zlen[{z}]")
        if isinstance(node, ast.Call) and self.symbols.get(node) == ("func", "lines_through") and len(node.args) == 1:
            self.uses_lines = True
            return "", f"C->lines[{self.cell(self.expr(node.args[0], scope))}]", "2"
        if isinstance(node, ast.Call) and self.symbols.get(node) == ("func", "neighbors") and len(node.args) == 1 \
                and not node.kwargs:
            cell = self.fresh("c")
            return (f"int64_t {cell} = {self.cell(self.expr(node.args[0], scope))}; "
                    f"const int64_t *{p} = ORTH_CELLS + ORTH_START[{cell}]; ", p,
                    f"(ORTH_START[{cell} + 1] - ORTH_START[{cell}])")
        h = self.fresh("h")
        return f"int64_t {h} = {self.as_list(node, scope)}; const int64_t *{p} = &ITEM({h}, 0); ", p, f"LEN({h})"

    def expr(self, node, scope) -> str:
        method = getattr(self, "_x_" + type(node).__name__.lower(), None)
        if method is None:
            raise Unsupported(f"the expression {type(node).__name__}", node.pos)
        return method(node, scope)

    # ---- leaves --------------------------------------------------------------------------------
    def _x_literal(self, node, scope) -> str:
        value = node.value
        if value is None:
            return "(-1LL)"
        if isinstance(value, bool):
            return "1" if value else "0"
        if isinstance(value, int):
            if not INT_MIN < value <= INT_MAX:
                raise Unsupported("a whole number at the limit", node.pos)
            return f"({int(value)}LL)"
        if isinstance(value, str):
            return f"({self.tables.text(value)}LL)"
        if isinstance(value, list) and all(type(v) is int and INT_MIN < v <= INT_MAX for v in value):
            h = self.fresh("h")
            stores = "".join(f"ITEM({h}, {i}) = {v}LL; " for i, v in enumerate(value))
            return self.constant(f"({{ int64_t {h} = NEWLIST(C, {len(value)}); {stores}{h}; }})")
        raise Unsupported(f"a literal of type {type(value).__name__}", node.pos)

    def _x_name(self, node, scope) -> str:
        kind, arg = self.symbols[node]
        if kind == "local":
            if arg not in scope.names:
                raise Unsupported(f"the name '{arg}' here", node.pos)
            return scope.names[arg]
        if kind == "const":
            return self._x_literal(ast.Literal(node.pos, arg), scope)
        if kind == "var":
            place, is_list = self.tables.var(arg, node.pos)
            return f"VLIST(C, {place})" if is_list else place
        if kind == "zone":
            return f"({self.game.family_base[arg]}LL)"
        if kind == "define":
            return self.define(node, scope)
        raise Unsupported(f"a name of kind {kind}", node.pos)

    def _x_attr(self, node, scope) -> str:
        kind, name = self.symbols[node]
        obj = self.expr(node.obj, scope)
        if kind == "attr":
            table = self.tables.attribute(name)
            if name in self.game.partial_attributes:
                return f"ATTRP(C, {table}, {table}_HAS, {obj}, {self.tables.attributes.index(name)})"
            return f"{table}[{self.component(obj)}]"
        if kind == "mark":
            return self.mark(name, obj, write=False)
        if kind == "pvar":
            place, is_list = self.tables.player_var(name, obj, node.pos)
            return f"VLIST(C, {place})" if is_list else place
        if kind == "pzone":
            return f"({self.game.family_base[name]}LL + CK(C, {obj}, NP))"
        if kind == "cprop" and name == "zone":
            return f"C->s->loc[{self.component(obj)}]"
        if kind == "cprop" and name == "cell":
            return f"C->s->cell_of[{self.component(obj)}]"
        if kind == "cprop" and name == "owner":
            return f"OWNER_NOW(C, C->s->loc[{self.component(obj)}])"
        if kind == "cprop" and name in ("kind", "name"):
            return f"{name.upper()}_TEXT[{self.component(obj)}]"
        if kind == "kzone":
            return f"ATTACHED(C, {self.tables.attached(name)}, {obj})"
        raise Unsupported(f"the property '{name}' ({kind})", node.pos)

    def mark(self, name, obj, write) -> str:
        """The C place of a component's mark (``obj`` a C expression); a write sets the mark."""
        number = self.game.mark_names.index(name)
        if all(v is not None for v in self.game.initial_marks[name]):  # every component has it, always
            return f"C->s->marks[{number}][{self.component(obj)}]"
        return f"(*MARKP(C, {number}, {obj}, {int(write)}))"

    def _x_index(self, node, scope) -> str:
        return f"LIST_AT(C, {self.as_list(node.obj, scope)}, {self.expr(node.index, scope)})"

    def _x_slice(self, node, scope) -> str:
        """``xs[start:stop]`` as Python slices: negative bounds count from the end, both clamped."""
        start = self.expr(node.start, scope) if node.start is not None else "0"
        stop = self.expr(node.stop, scope) if node.stop is not None else "INT64_MAX"
        return f"SLICE(C, {self.as_list(node.obj, scope)}, {start}, {stop})"

    def _x_listlit(self, node, scope) -> str:
        for item in node.items:
            self.check_scalar(item) if self.type_of(item) != "list" else None
        h = self.fresh("h")
        items = [self.expr(item, scope) for item in node.items]
        stores = "".join(f"ITEM({h}, {i}) = {code}; " for i, code in enumerate(items))
        code = f"({{ int64_t {h} = SUBLIST(C, {len(node.items)}); {stores}{h}; }})"
        fixed = all(isinstance(item, ast.Literal) or self.symbols.get(item, ("",))[0] == "const"
                    or (isinstance(item, ast.ListLit) and text.startswith("C->consts["))
                    for item, text in zip(node.items, items))  # written out, or lists that are constants
        return self.constant(code) if fixed else code

    # ---- operators -----------------------------------------------------------------------------
    def _x_binop(self, node, scope) -> str:
        if self.type_of(node) == "list":
            return f"CONCAT(C, {self.as_list(node.left, scope)}, {self.as_list(node.right, scope)})"
        if self.type_of(node) != "int":
            raise Unsupported(f"'{node.op}' on values of type {self.type_of(node)}", node.pos)
        helper = {"+": "ADD", "-": "SUB", "*": "MUL", "//": "FDIV", "%": "FMOD"}.get(node.op)
        if helper is None:
            raise Unsupported(f"the operator '{node.op}'", node.pos)
        return f"{helper}(C, {self.expr(node.left, scope)}, {self.expr(node.right, scope)})"

    def _x_compare(self, node, scope) -> str:
        left = self.expr(node.left, scope)
        if node.op in ("in", "not in"):
            self.check_scalar(node.left)
            negate = "!" if node.op == "not in" else ""
            if self.type_of(node.right) == "zone":
                return f"({negate}(C->s->loc[{self.component(left)}] == {self.expr(node.right, scope)}))"
            return f"({negate}CONTAINS(C, {self.as_list(node.right, scope)}, {left}))"
        if node.op in ("==", "!=") and self.flat_list(node.left) and self.flat_list(node.right):
            same = f"LISTEQ(C, {self.as_list(node.left, scope)}, {self.as_list(node.right, scope)})"
            return same if node.op == "==" else f"((int64_t)!{same})"
        for side in (node.left, node.right):
            if not isinstance(side, ast.Literal):
                self.check_scalar(side)
        right = self.expr(node.right, scope)
        if node.op not in ("==", "!=") and self.type_of(node.left) == "str" == self.type_of(node.right):
            return f"((int64_t)(TEXT_RANK[{left}] {node.op} TEXT_RANK[{right}]))"  # texts in Python's order
        if node.op not in ("==", "!="):
            if self.type_of(node.left) != "int" or self.type_of(node.right) != "int":
                raise Unsupported(f"ordering values of type {self.type_of(node.left)}", node.pos)
        return f"((int64_t)({left} {node.op} {right}))"

    def _x_boolop(self, node, scope) -> str:
        op = "&&" if node.op == "and" else "||"
        return f"((int64_t)({self.expr(node.left, scope)} {op} {self.expr(node.right, scope)}))"

    def _x_not(self, node, scope) -> str:
        return f"((int64_t)!({self.expr(node.operand, scope)}))"

    def _x_neg(self, node, scope) -> str:
        return f"NEG(C, {self.expr(node.operand, scope)})"

    def _x_cond(self, node, scope) -> str:
        return (f"(({self.expr(node.test, scope)}) ? ({self.expr(node.then, scope)}) : "
                f"({self.expr(node.otherwise, scope)}))")

    # ---- comprehensions and calls --------------------------------------------------------------
    def _x_comprehension(self, node, scope) -> str:
        setup, items, length = self.items(node.source, scope)
        i, n, r, v = (self.fresh(x) for x in "inrv")
        kind = self.item_kind(node.source, scope)
        if kind is not None:
            self.valid[v] = kind
        inner = scope.child({node.var: v})
        elem = self.expr(node.elem, inner)
        cond = f"if (!({self.expr(node.cond, inner)})) continue; " if node.cond is not None else ""
        head = f"{setup}int64_t {n} = {length}; ITERS(C, {n}); "  # counted up front, as Python counts them
        loop = f"for (int64_t {i} = 0; {i} < {n}; {i}++) {{ int64_t {v} = {items}[{i}]; {cond}"
        func = node.func
        if func == "any":
            return f"({{ {head}int64_t {r} = 0; {loop}if ({elem}) {{ {r} = 1; break; }} }} {r}; }})"
        if func == "all":
            return f"({{ {head}int64_t {r} = 1; {loop}if (!({elem})) {{ {r} = 0; break; }} }} {r}; }})"
        if func == "count":  # the items passing the condition whose element is not none
            counted = f"({elem}) != -1" if self.type_of(node.elem) in NULLABLE else f"((void)({elem}), 1)"
            return f"({{ {head}int64_t {r} = 0; {loop}if ({counted}) {r}++; }} {r}; }})"
        if func == "sum":
            return f"({{ {head}int64_t {r} = 0; {loop}{r} = ADD(C, {r}, {elem}); }} {r}; }})"
        if func in ("list", "min", "max"):
            if func == "list" and self.type_of(node.elem) not in SCALARS + ("list",):
                raise Unsupported("a list of values of no known type", node.pos)
            k = self.fresh("k")
            build = (f"({{ {head}int64_t {r} = SUBLIST(C, {n}); int64_t {k} = 0; {loop}"
                     f"int64_t e_ = {elem}; ITEM({r}, {k}) = e_; {k}++; }} LEN({r}) = {k}; {r}; }})")
            return build if func == "list" else f"{func.upper()}OF(C, {build})"
        raise Unsupported(f"the comprehension {func}", node.pos)

    def _x_call(self, node, scope) -> str:
        kind, name = self.symbols[node]
        if kind == "define":
            return self.define(node, scope)
        if name == "neighbors" and kind == "func":
            return self._neighbors(node, scope)
        args = node.args
        if kind == "func" and name in ("next_player", "previous_player") and node.kwargs and len(args) <= 2:
            named = dict(node.kwargs)  # steps and among (where=) by name
            steps = args[1] if len(args) == 2 else named.pop("steps", ast.Literal(node.pos, 1))
            among = named.pop("among", None)
            args = None if named or among is None else (args[0], steps, among)
        if kind != "func" or args is None or (node.kwargs and name not in ("next_player", "previous_player")):
            raise Unsupported(f"the call of {name}", node.pos)
        a = [self.as_list(x, scope) if self.type_of(x) == "list" or self._wants_items(name, i, x)
             else self.expr(x, scope) for i, x in enumerate(args)]
        grid = self._grid_call(name, node, a)
        if grid is not None:
            return grid
        if name == "at" and len(a) == 1:
            return f"C->s->cells[{self.cell(a[0])}]"
        helper = HELPERS.get((name, len(a)))
        if helper is not None:
            return f"{helper}(C, {', '.join(a)})"
        if name in ("size", "empty") and len(a) == 1:
            size = f"ZSIZE(C, {a[0]})" if self.type_of(args[0]) == "zone" else f"LEN({a[0]})"
            return size if name == "size" else f"((int64_t)({size} == 0))"
        if name in ("first", "last") and len(a) == 1:
            return f"{name.upper()}OF(C, {self._listed(args[0], scope)})"
        if name == "list" and len(a) == 1:
            return f"COPYLIST(C, {self._listed(args[0], scope)})"
        if name in ("sum", "any", "all") and len(a) == 1:
            return f"{name.upper()}OF(C, {a[0]})"
        if name in ("min", "max"):
            if len(a) == 1 and self.type_of(args[0]) == "list":
                return f"{name.upper()}OF(C, {a[0]})"
            op = "<" if name == "min" else ">"
            out = a[0]
            for other in a[1:]:
                x, y = self.fresh("x"), self.fresh("y")
                out = f"({{ int64_t {x} = {out}; int64_t {y} = {other}; {y} {op} {x} ? {y} : {x}; }})"
            return out
        if name == "lines_through" and len(a) == 1:
            self.uses_lines = True
            return f"LINES_THROUGH(C, {a[0]})"
        if name == "range" and len(a) == 2:
            return f"RANGE(C, {a[0]}, {a[1]})"
        if name == "components" and len(args) == 1:
            kind = self.static_text(args[0])
            if kind in self.game.components_by_kind:
                return self._x_literal(ast.Literal(node.pos, list(self.game.components_by_kind[kind])), scope)
            for known in self.game.components_by_kind:  # the table of kinds by text (emit.py) lists them all
                self.tables.text(known)
            self.tables.kinds_by_text = True
            return f"COMPONENTS(C, {a[0]})"
        if name == "owner_of" and len(a) == 1:
            return f"OWNER_NOW(C, CK(C, {a[0]}, NZ))"
        if name in ("next_player", "previous_player") and len(a) in (1, 2, 3):
            steps = a[1] if len(a) >= 2 else "1LL"
            if len(a) == 3:  # among: the seats of a list (where=: those meeting a condition)
                return f"NEXT_AMONG(C, {a[0]}, {steps}, {a[2]}, {1 if name == 'next_player' else -1})"
            op = "ADD" if name == "next_player" else "SUB"
            return f"FMOD(C, {op}(C, {a[0]}, {steps}), NP)"
        if name == "player" and len(a) == 1:
            return f"FMOD(C, {a[0]}, NP)"
        raise Unsupported(f"the function {name}", node.pos)

    def _wants_items(self, name, i, node) -> bool:
        """Whether argument ``i`` of the function is a zone where the function takes its contents
        (a parameter of spec 'collection', as the Python engine hands it a list)."""
        if name in ("size", "empty"):  # of a zone: its length, read in place
            return False
        params = FUNCTIONS.entries[name].params if name in FUNCTIONS.entries else ()
        return self.type_of(node) == "zone" and i < len(params) and params[i].spec == "collection"

    def static_text(self, node):
        """The text a node always is (a literal, or a name of a constant), else None."""
        if isinstance(node, ast.Literal):
            return node.value
        kind, value = self.symbols.get(node, ("", None))
        return value if kind == "const" else None

    def _neighbors(self, node, scope) -> str:
        """neighbors(cell, diagonal): the layout's tables of neighbours, flattened (see emit.py)."""
        kwargs = dict(node.kwargs)
        if set(kwargs) - {"diagonal"} or len(node.args) + len(kwargs) not in (1, 2):
            raise Unsupported("neighbors() written this way", node.pos)
        diagonal = node.args[1] if len(node.args) == 2 else kwargs.get("diagonal")
        flag = self.expr(diagonal, scope) if diagonal is not None else "0"
        return f"NEIGHBORS(C, {self.expr(node.args[0], scope)}, {flag})"

    def _listed(self, node, scope) -> str:
        return f"ZLIST(C, {self.expr(node, scope)})" if self.type_of(node) == "zone" else self.as_list(node, scope)

    def _grid_call(self, name, node, a):
        grids = [z for z, g in enumerate(self.game.zone_grid) if g is not None]
        if name not in ("cells", "rows", "columns", "cell_at", "row", "column"):
            return None
        if name in ("row", "column"):
            table = "CELL_ROW" if name == "row" else "CELL_COLUMN"
            return f"({table}[{self.cell(a[0])}] + 1)"
        if len(grids) != 1 or not isinstance(node.args[0], ast.Name):
            raise Unsupported(f"{name}() where the game has other than one grid", node.pos)
        zone = grids[0]
        first, rows, columns = self.game.zone_grid[zone]
        check = f"(({a[0]}) == {zone} ? 0 : (fail(C, E_index, {a[0]}, 0), 0))"
        if name == "cells":
            return self.constant(f"RANGE(C, {first}, {first + rows * columns})") if self._is_zone(node.args[0], zone) \
                else f"({check}, RANGE(C, {first}, {first + rows * columns}))"
        if name == "cell_at":
            r, c = self.fresh("r"), self.fresh("c")
            return (f"({{ {check}; int64_t {r} = {a[1]}; int64_t {c} = {a[2]}; "
                    f"(1 <= {r} && {r} <= {rows} && 1 <= {c} && {c} <= {columns}) ? "
                    f"{first} + ({r} - 1) * {columns} + {c} - 1 : -1; }})")
        outer, inner = (rows, columns) if name == "rows" else (columns, rows)
        item = (f"{first} + o_ * {columns} + i_" if name == "rows" else f"{first} + i_ * {columns} + o_")
        lines = (f"int64_t h_ = NEWLIST(C, {outer}); for (int64_t o_ = 0; o_ < {outer}; o_++) {{ "
                 f"int64_t l_ = NEWLIST(C, {inner}); for (int64_t i_ = 0; i_ < {inner}; i_++) ITEM(l_, i_) = {item}; "
                 f"ITEM(h_, o_) = l_; }} h_;")
        if self._is_zone(node.args[0], zone):
            return self.constant(f"({{ {lines} }})")
        return f"({{ {check}; {lines} }})"

    def _is_zone(self, node, zone) -> bool:
        """Whether a node names the zone ``zone`` itself (a zone written out)."""
        return self.symbols.get(node, ("",))[0] == "zone" and self.game.family_base[self.symbols[node][1]] == zone

    def define(self, node, scope) -> str:
        """A definition expanded in place, its parameters bound once to the arguments' values."""
        name = self.symbols[node][1]
        if self.expanding.count(name) > 0 or len(self.expanding) > 32:
            raise Unsupported(f"the recursive definition {name}", node.pos)
        define = self.rs.defines[name]
        args = getattr(node, "args", ())
        temps = [self.fresh("d") for _ in args]
        codes = [self.expr(arg, scope) for arg in args]
        self.valid.update((t, self.valid[code]) for t, code in zip(temps, codes) if code in self.valid)
        binds = "".join(f"int64_t {t} = {code}; " for t, code in zip(temps, codes))
        self.expanding.append(name)
        try:
            body = self.expr(define.body, Scope(dict(zip(define.params, temps))))
        finally:
            self.expanding.pop()
        return f"({{ {binds}{body}; }})"
