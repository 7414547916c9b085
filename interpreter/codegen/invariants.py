"""Parts of a generated enumerator that a deeper loop would compute again with the same values.

In the nested loops of an enumerator (interpreter/codegen/actions.py), a part of a domain or a
condition that reads only parameters bound further out (``rank_now(card) - 1`` in the test of
every card of the hand, for one ``card``) gives the same value at every turn of the inner loops:
expressions have no side effects and nothing changes the state while actions are enumerated.  Such
a part is computed once per binding of the parameters it reads, at its first use::

    _m7 = ...                         # where the last parameter it reads is bound
    ... (_m7 if _m7 is not ... else (_m7 := PART)) ...

``...`` (Ellipsis, a constant of the code) marks a part not computed yet: no value of the
language is Ellipsis.

Computing it at its first use (not before the loops) keeps every error where it was: a part that
was never computed is still never computed.  A part that cannot fail is computed where the
parameters it reads are bound instead, into a local: a read of a component's entry in a table
(``card.family``), a sum of such entries of whole numbers, of marks holding whole numbers and of
constants (``card.rank - card.reduction - 1``, see ``Invariants._sure_number``), and whether a zone
is empty (at the function's start, see ``_zone_truth``).

A part is kept only if all it reads is known: the parameters (Python locals), the state's tables
read once at the function's start, values handed to the generated code, and locals it binds
itself; never the variable of a comprehension around it, a kept test of a conditional, or the
count of iterations of a nest of comprehensions.
"""
from __future__ import annotations

import ast as py
import re

from .nodes import N, _const, _load, _store

_COST = {py.Call: 3, py.ListComp: 3, py.GeneratorExp: 3, py.BinOp: 1, py.Compare: 1, py.BoolOp: 1,
         py.IfExp: 1}  # a part is worth keeping from a cost of 3 (a call, or a checked subtraction)
_OWN = ("_n", "_o", "_z", "_a", "_s", "_m", "_x")  # locals a part binds itself (checked values, sources,
# kept parts; an index, made once whoever makes it: interpreter/codegen/indexes.py)
GLOBAL = ("_h", "_k")  # the state's tables read once, values handed to the generated code
_BUILTINS = {"s", "len", "sum", "any", "all", "min", "max", "set", "isinstance", "list", "dict", "map"}


class Invariants:
    """The parts kept in one enumerator being generated: ``depth`` counts the loops (and
    comprehensions) around the code being generated; a parameter bound inside the k-th loop has
    depth k; a part is kept when everything it reads is bound further out than ``depth``.  Only
    the largest such parts are kept: a part stays pending until its parent is made (the parent
    keeps it if the parent itself depends on something deeper) or its statement is (``settle``)."""

    def __init__(self, gen, params):
        self.scopes = gen.scopes  # the enumerator's own scopes: off while generating another function
        self.params = params  # the option parameters' names in e (never read from e by a kept part)
        self.depth = 0
        self.levels: dict = {}  # Python local of a parameter -> the depth it is bound at
        self.resets: dict = {}  # depth -> (local, None to reset it or the code to compute it) where it is bound
        self.components: set = set()  # Python locals of parameters that always hold a component
        self.kept: dict = {}  # (depth, code) -> local
        self.kept_depth: dict = {}  # local -> depth
        self.pending: dict = {}  # id(part) -> (part, depth): invariant here, not kept yet
        self.settled: set = set()  # ids of parts made whose pending parts are decided
        self.eager: dict = {}  # local -> the read of a component's table it keeps (see _read_of_component)
        self.indexes: dict = {}  # what is grouped -> the local of its index (interpreter/codegen/indexes.py)

    def active(self, gen) -> bool:
        return gen.scopes is self.scopes and not gen.in_iterable

    def note(self, gen, made):
        """``made``, just generated: left pending if invariant here, else with its pending parts kept."""
        if self.depth == 0 and not self.pending:  # outside the loops: nothing to keep
            return made
        depth = self._bound_at(made)
        if depth is not None and depth < self.depth:
            self.pending[id(made)] = (made, depth)
            return made
        made = self._keep_parts(gen, made)
        self.settled.add(id(made))
        return made

    def settle(self, gen, made):
        """``made``, a whole domain or condition computed at ``depth``: kept if invariant and worth
        it, else with its pending parts kept."""
        found = self.pending.pop(id(made), None)
        if found is not None and found[0] is made:
            return self._keep(gen, made, found[1])
        return self._keep_parts(gen, made)

    def _keep_parts(self, gen, node):
        for field, value in py.iter_fields(node):
            if isinstance(value, list):
                value[:] = [self._part(gen, v) if isinstance(v, py.AST) else v for v in value]
            elif isinstance(value, py.AST):
                setattr(node, field, self._part(gen, value))
        return node

    def _part(self, gen, node):
        found = self.pending.pop(id(node), None)
        if found is not None and found[0] is node:
            return self._keep(gen, node, found[1])
        if id(node) in self.settled:
            return node
        return self._keep_parts(gen, node)

    def _keep(self, gen, made, depth):
        """The read of a local keeping ``made`` (computed at its first use per binding of what it
        reads), or ``made`` itself where that saves nothing.  A read that cannot fail (see
        ``_read_of_component``) is computed where what it reads is bound, into a local."""
        eager = self._read_of_component(gen, made) or (_cost(made) >= 2 and self._sure_number(gen, made)) \
            or _zone_truth(gen, made)
        if _cost(made) < 3 and not eager:
            return made
        key = (depth, _canonical(py.dump(made)))
        name = self.kept.get(key)
        if name is None:
            name = self.kept[key] = gen.fresh("m")
            self.kept_depth[name] = depth
            self.resets.setdefault(depth, []).append((name, made if eager else None))
            if eager and isinstance(made, py.Subscript):
                self.eager[name] = made
        if eager:
            return _load(name)
        test = N.Compare(left=_load(name), ops=[N.IsNot()], comparators=[_const(...)])
        return N.IfExp(test=test, body=_load(name), orelse=N.NamedExpr(target=_store(name), value=made))

    def resetting(self, depth) -> list:
        """The statements resetting the parts kept for ``depth`` or computing those read where it
        is bound (to run there)."""
        return [N.Assign(targets=[_store(name)], value=_const(...) if value is None else value)
                for name, value in self.resets.pop(depth, [])]

    def _read_of_component(self, gen, made) -> bool:
        """Whether ``made`` is ``T[p]``: ``T`` a table handed to the generated code with an entry
        per component (an attribute, a name), ``p`` a parameter that always holds a component (see
        ``components``).  Such a read cannot fail: it is made once where ``p`` is bound."""
        return component_table(gen, made) is not None and made.slice.id in self.components

    def _sure_number(self, gen, node) -> bool:
        """Whether ``node`` adds and subtracts whole numbers that are constants or entries, for a
        parameter that always holds a component (see ``components``), of a table of a whole-number
        attribute or of a mark holding whole numbers (``rank_now(card) - 1``, ``_k5[_p] - _h3[_p] - 1``;
        its checks, where it needs any, are no such nodes): it cannot fail, and is computed where the
        parameter is bound."""
        if isinstance(node, py.Constant):
            return type(node.value) is int
        if isinstance(node, py.BinOp):
            return isinstance(node.op, (py.Add, py.Sub)) and self._sure_number(gen, node.left) \
                and self._sure_number(gen, node.right)
        if not (isinstance(node, py.Subscript) and isinstance(node.slice, py.Name)
                and node.slice.id in self.components and isinstance(node.value, py.Name)):
            return False
        table = component_table(gen, node)
        if table is not None:
            return all(type(value) is int for value in table)
        read = gen.hoisted_read(node.value.id)
        return read is not None and read[0] == "marks" and read[1] in gen.game.mark_ranges

    def _bound_at(self, made):
        """The depth at which everything ``made`` reads is bound, or None if it reads something
        that may change inside the loop it stands in (or that is not known)."""
        own = set()
        for node in py.walk(made):
            if isinstance(node, py.NamedExpr):
                if not node.target.id.startswith(_OWN):
                    return None
                own.add(node.target.id)
            elif isinstance(node, py.comprehension):
                own.add(node.target.id)
        depth = 0
        for node in py.walk(made):
            if isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and node.value.id == "e":
                if not isinstance(node.slice, py.Constant) or node.slice.value in self.params:
                    return None
            if not isinstance(node, py.Name) or node.id in own or node.id in _BUILTINS:
                continue
            name = node.id
            if name == "e":
                if not _subscripted(made, node):
                    return None
            elif name in self.levels:
                depth = max(depth, self.levels[name])
            elif name in self.kept_depth:
                depth = max(depth, self.kept_depth[name])
            elif not name.startswith(GLOBAL):
                return None
        return depth


def _zone_truth(gen, node) -> bool:
    """Whether ``node`` tests whether a zone of the state is empty (``not _h3[0]``, ``not not
    _h3[0]``: ``empty(draw_pile)``, ``not empty(draw_pile)``, ``_h3`` the state's zones read at the
    function's start): it cannot fail, and is computed where what it reads is known."""
    if not (isinstance(node, py.UnaryOp) and isinstance(node.op, py.Not)):
        return False
    while isinstance(node, py.UnaryOp) and isinstance(node.op, py.Not):
        node = node.operand
    if not (isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and isinstance(node.slice, py.Constant)):
        return False
    zone = node.slice.value
    return (gen.hoisted_read(node.value.id) == ("zones",) and type(zone) is int
            and 0 <= zone < len(gen.game.zone_names))


def component_table(gen, read, var=None):
    """For ``read`` = ``T[v]``, ``v`` a local (``var`` if given): the value of ``T`` if it is a table
    handed to the generated code with an entry per component (an attribute, a name); else None."""
    if not (isinstance(read, py.Subscript) and isinstance(read.value, py.Name) and isinstance(read.slice, py.Name)
            and read.value.id.startswith("_k") and (var is None or read.slice.id == var)):
        return None
    table = gen.namespace.get(read.value.id)
    return table if type(table) in (list, tuple) and len(table) == gen.game.num_components else None


def _cost(node) -> int:
    """The work of computing ``node``, roughly; the other branch of a conditional (the error of a
    checked value, mostly) is not counted."""
    if isinstance(node, py.IfExp):
        return 1 + _cost(node.test) + _cost(node.body)
    return _COST.get(type(node), 0) + sum(_cost(child) for child in py.iter_child_nodes(node))


def _canonical(text) -> str:
    """The dump of a part with the locals it binds itself numbered in order of appearance, so that
    two copies of one part (made twice, with fresh names) are recognised as one."""
    names: dict = {}
    return re.sub(r"'(_[nozasv]\d+)'", lambda m: names.setdefault(m.group(1), f"'#{len(names)}'"), text)


def _subscripted(tree, name_node) -> bool:
    """Whether ``name_node`` (``e``) is read only as ``e['constant']`` in ``tree``."""
    return any(isinstance(n, py.Subscript) and n.value is name_node and isinstance(n.slice, py.Constant)
               for n in py.walk(tree))

