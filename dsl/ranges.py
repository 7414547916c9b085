"""Ranges of whole numbers, inferred from the checked rules.

``int_range(ruleset, node)`` bounds the values an int expression can take, as ``(low, high)`` with
``None`` for a side it cannot bound.  It reads literals, parameters (fixed per game), variables with a
declared ``min``/``max``, printed attributes (their smallest and largest value), ``size(...)``
(at most the number of components), ``range(a, b)``, ``min``/``max``, arithmetic, conditionals,
defines and the ``let`` bindings of locals.  Tools use it where a fixed numbering of values is needed
(action ids, observation scaling).
"""
from __future__ import annotations

from . import ast

UNKNOWN = (None, None)
_DEPTH = 40


def int_range(ruleset, node, num_components: int = 0) -> tuple:
    return _Inference(ruleset, num_components).of(node, 0)


def element_range(ruleset, domain, num_components: int = 0) -> tuple:
    """The range of the elements of a list expression (a parameter's domain)."""
    return _Inference(ruleset, num_components).elements(domain, 0)


class _Inference:
    def __init__(self, ruleset, num_components):
        self.rs = ruleset
        self.num_components = num_components
        self._locals = None
        self._local_ranges: dict = {}  # local name -> its inferred range (UNKNOWN while being inferred)
        self.bound: dict = {}  # comprehension variables in scope -> the range of their source

    def locals(self) -> dict:
        """Every value bound to each local name anywhere in the rules (None: changed in place, or
        bound by a parameter or a trigger, whose values are not inferred; a loop's variable: the
        elements of its source).  Names are not scoped: the same name in two procedures shares one range, the union of both."""
        if self._locals is None:
            found: dict = {}
            for name, source in _names_bound_otherwise(self.rs):
                found.setdefault(name, []).append(None if source is None else _Elements(source))
            for node in _statement_nodes(self.rs):
                if isinstance(node, ast.Let):
                    found.setdefault(node.name, []).append(node.value)
                elif isinstance(node, ast.Assign) and isinstance(node.target, ast.Name) and \
                        self.rs.symbols.get(node.target, ("",))[0] == "local":
                    found.setdefault(node.target.id, []).append(node.value if node.op == "=" else None)
            self._locals = found
        return self._locals

    def of(self, node, depth) -> tuple:
        if depth > _DEPTH:
            return UNKNOWN
        depth += 1
        if isinstance(node, ast.Literal):
            v = node.value
            return (v, v) if isinstance(v, int) and not isinstance(v, bool) else UNKNOWN
        if isinstance(node, ast.Name):
            return self._name(node, depth)
        if isinstance(node, ast.Attr):
            return self._attribute(node)
        if isinstance(node, ast.Neg):
            lo, hi = self.of(node.operand, depth)
            return (-hi if hi is not None else None, -lo if lo is not None else None)
        if isinstance(node, ast.BinOp):
            return _arithmetic(node.op, self.of(node.left, depth), self.of(node.right, depth))
        if isinstance(node, ast.Cond):
            return _union(self.of(node.then, depth), self.of(node.otherwise, depth))
        if isinstance(node, ast.Call):
            return self._call(node, depth)
        return UNKNOWN

    def elements(self, node, depth) -> tuple:
        if isinstance(node, ast.Call) and self.rs.symbols.get(node) == ("func", "range") and 1 <= len(node.args) <= 2:
            if len(node.args) == 1:
                lo, hi = (0, 0), self.of(node.args[0], depth)
            else:
                lo, hi = self.of(node.args[0], depth), self.of(node.args[1], depth)
            return (lo[0], hi[1] - 1 if hi[1] is not None else None)
        if isinstance(node, ast.ListLit):
            ranges = [self.of(item, depth) for item in node.items]
            return _union(*ranges) if ranges else UNKNOWN
        if isinstance(node, ast.Comprehension) and node.func == "list":
            outer = self.bound.get(node.var)
            self.bound[node.var] = self.elements(node.source, depth + 1)
            try:
                return self.of(node.elem, depth)
            finally:
                if outer is None:
                    del self.bound[node.var]
                else:
                    self.bound[node.var] = outer
        return UNKNOWN

    def _name(self, node, depth) -> tuple:
        if node.id in self.bound and not node.builtin:
            return self.bound[node.id]
        symbol = self.rs.symbols.get(node)
        if symbol is None:
            return UNKNOWN
        kind, what = symbol
        if kind == "const":
            return (what, what) if isinstance(what, int) and not isinstance(what, bool) else UNKNOWN
        if kind == "var":
            return _declared(self.rs.vars.get(what))
        if kind == "define":
            define = self.rs.defines.get(what)
            return self.of(define.body, depth) if define is not None and not define.params else UNKNOWN
        if kind == "local":
            return self._local(what, depth)
        return UNKNOWN

    def _local(self, name, depth) -> tuple:
        """The union of the ranges of every value bound to ``name``.  Each name is inferred once; a
        name met again while its own range is being inferred (``k = k + 1``) is unbounded."""
        if name in self._local_ranges:
            return self._local_ranges[name]
        values = self.locals().get(name)
        if not values or None in values:
            return UNKNOWN
        self._local_ranges[name] = UNKNOWN
        outer, self.bound = self.bound, {}  # a bound value does not see the comprehensions around its use
        try:
            found = _union(*[self.elements(v.source, depth) if isinstance(v, _Elements) else self.of(v, depth)
                             for v in values])
        finally:
            self.bound = outer
        self._local_ranges[name] = found
        return found

    def _attribute(self, node) -> tuple:
        kind, what = self.rs.symbols.get(node, ("", None))
        if kind == "pvar":
            return _declared(self.rs.player_vars.get(what))
        if kind != "attr":
            return UNKNOWN
        values = [row["values"].get(what) for k in self.rs.kinds.values() for row in k.rows]
        ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        return (min(ints), max(ints)) if ints else UNKNOWN

    def _call(self, node, depth) -> tuple:
        args = node.args
        kind, name = self.rs.symbols.get(node, ("", None))
        if kind == "define":
            define = self.rs.defines[name]
            return self.of(define.body, depth) if len(define.params) == len(args) else UNKNOWN
        if kind != "func":
            return UNKNOWN
        if node.func in ("min", "max") and args and not node.kwargs:
            if len(args) == 1:
                return self.elements(args[0], depth)
            ranges = [self.of(a, depth) for a in args]
            pick = min if node.func == "min" else max
            los, his = [r[0] for r in ranges], [r[1] for r in ranges]
            if node.func == "min":
                lo = None if None in los else pick(los)
                hi = pick([h for h in his if h is not None]) if any(h is not None for h in his) else None
            else:
                lo = pick([v for v in los if v is not None]) if any(v is not None for v in los) else None
                hi = None if None in his else pick(his)
            return (lo, hi)
        if node.func in ("size", "count"):
            return (0, self.num_components or None)
        if node.func == "abs" and len(args) == 1:
            lo, hi = self.of(args[0], depth)
            if lo is not None and hi is not None:
                return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
            return (0, None)
        return UNKNOWN


def _declared(variable) -> tuple:
    if variable is None:
        return UNKNOWN
    return (getattr(variable, "low", None), getattr(variable, "high", None))


def _union(*ranges) -> tuple:
    los, his = [r[0] for r in ranges], [r[1] for r in ranges]
    return (None if None in los else min(los), None if None in his else max(his))


def _arithmetic(op, a, b) -> tuple:
    (alo, ahi), (blo, bhi) = a, b
    if op == "+":
        return (_add(alo, blo), _add(ahi, bhi))
    if op == "-":
        return (_sub(alo, bhi), _sub(ahi, blo))
    if None in (alo, ahi, blo, bhi):
        if op == "//" and alo is not None and alo >= 0 and blo is not None and blo > 0:
            return (0, ahi // blo if ahi is not None else None)
        if op == "%" and blo is not None and blo > 0 and bhi is not None:
            return (0, bhi - 1) if alo is not None and alo >= 0 else UNKNOWN
        return UNKNOWN
    if op == "*":
        products = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
        return (min(products), max(products))
    if op == "//" and (blo > 0 or bhi < 0):
        quotients = [alo // blo, alo // bhi, ahi // blo, ahi // bhi]
        return (min(quotients), max(quotients))
    if op == "%" and blo > 0:
        return (0, bhi - 1)
    return UNKNOWN


def _add(x, y):
    return None if x is None or y is None else x + y


def _sub(x, y):
    return None if x is None or y is None else x - y


def statements(rs):
    """Every statement of the rules (setup, flow, procedures, triggers, option bodies), nested ones
    included."""
    from . import ir  # a local import: ir imports ast only

    stack = list(rs.setup) + list(rs.flow)
    for proc in rs.procedures.values():
        stack += proc.body
    for trigger in rs.triggers:
        stack += trigger.body
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, ir.If):
            stack += stmt.then + stmt.otherwise
        elif isinstance(stmt, (ir.While, ir.For, ir.Repeat, ir.Simultaneous, ir.Block)):
            stack += stmt.body
        elif isinstance(stmt, ir.Choose):
            for option in stmt.options:
                stack += option.body
        elif isinstance(stmt, ir.CallProc) and stmt.then is not None:
            stack.append(stmt.then)  # let x = proc(): the statement storing the value returned


class _Elements:
    """A local bound by a loop: it takes the elements of ``source``."""

    def __init__(self, source):
        self.source = source


def _names_bound_otherwise(rs):
    """``(name, source)`` of the locals bound other than by ``let`` or ``=``: loop variables (with
    the list they run over), procedure and option parameters and the names a trigger binds (with
    None: their values are not inferred)."""
    from . import ir

    for proc in rs.procedures.values():
        for name in proc.params:
            yield name, None
    if rs.triggers:
        yield "component", None
        yield "owner", None
    for stmt in statements(rs):
        if isinstance(stmt, (ir.For, ir.Simultaneous)):
            yield stmt.var, stmt.source
        elif isinstance(stmt, ir.Choose):
            for option in stmt.options:
                for name, _ in option.params:
                    yield name, None


def _statement_nodes(rs):
    """Every simple-statement node of the rules."""
    for stmt in statements(rs):
        node = getattr(stmt, "node", None)
        if isinstance(node, ast.Node):
            yield node
