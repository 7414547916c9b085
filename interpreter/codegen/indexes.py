"""Selections by an attribute looked up in an index, in generated enumerators.

A domain such as ``[h for h in active.hand if h.family == card.family and ...]`` tests every
component of the hand for every ``card``.  In an enumerator nothing changes the state while the
actions are enumerated, so the hand is the same each time: its components are grouped by family
once per enumeration (at the first loop that needs them) and each loop goes through the group of
``card.family`` only, in the hand's order, testing the rest of the condition::

    if _x3 is None:
        _x3 = grouped(_h1[3 + _h2], _k7)          # the hand by family (table _k7)
    for _v9 in _x3.get(_m5, ()):                  # _m5: card.family, read where card is bound
        if not (REST): continue

A ``count``, ``sum``, ``any``… over such a selection, checked for each binding of a parameter
(``count(m for m in active.hand if matching(m, card)) == 1``), takes its items from the same
index, made at its first use inside the expression (:func:`indexed_items`).

The first such test of the condition (``h.family == value``) is the one replaced, where the tests
before it only compare locals (they cannot fail); the rest is tested as before, item by item, so
every error is raised where it was.  It applies only where nothing can
differ: the source reads only what the enumerator read at its start; the table is an attribute of
every component, each value a str, int or bool; the value looked up is such a constant, or the
same attribute of a parameter that always holds a component (read where it is bound, so reading
it cannot fail and it is hashable).  A group holds the items whose value is equal (``==``) to the
key, as the test found them.
"""
from __future__ import annotations

import ast as py

from .nodes import N, _call, _const, _load, _store
from .invariants import GLOBAL, component_table

_PLAIN = (str, int, bool)


def grouped(items, table) -> dict:
    """The items by their entry in ``table``, each group in the order of ``items``."""
    groups: dict = {}
    for item in items:
        groups.setdefault(table[item], []).append(item)
    return groups


def indexed_loop(gen, indexes, source, var, condition):
    """``(statements, source, condition)`` for a loop over ``source`` by ``var`` whose condition
    begins with an equality ``indexes`` can look up (``indexes``: the enumerator's index locals by
    what they group); None where it does not apply."""
    found = _lookup(gen, indexes, source, var, condition)
    if found is None:
        return None
    name, build, key, rest = found
    made = N.If(test=N.Compare(left=_load(name), ops=[N.Is()], comparators=[_const(None)]),
                body=[N.Assign(targets=[_store(name)], value=build)], orelse=[])
    return [made], _group(name, key), rest


def indexed_items(gen, indexes, source, var, condition, new=True):
    """``(items, condition)`` for a comprehension over ``source`` by ``var`` in an enumerator, as
    ``indexed_loop`` but in one expression: the group, the index made at its first use::

        (_x3 if _x3 is not None else (_x3 := grouped(SOURCE, TABLE))).get(KEY, ())

    None where it does not apply, or (``new`` false) where it would need an index of its own."""
    found = _lookup(gen, indexes, source, var, condition, new)
    if found is None:
        return None
    name, build, key, rest = found
    index = N.IfExp(test=N.Compare(left=_load(name), ops=[N.IsNot()], comparators=[_const(None)]),
                    body=_load(name), orelse=N.NamedExpr(target=_store(name), value=build))
    return _group(index, key), rest


def _group(index, key):
    """``INDEX.get(KEY, ())``: the items of the group of ``key`` (``index`` a local's name or code)."""
    index = _load(index) if isinstance(index, str) else index
    return _call(N.Attribute(value=index, attr="get", ctx=N.Load()), [key, N.Tuple(elts=[], ctx=N.Load())])


def _lookup(gen, indexes, source, var, condition, new=True):
    """``(index local, code building the index, key, rest of the condition)`` where the condition
    of a loop over ``source`` by ``var`` begins with an equality an index (an existing one, unless
    ``new``) can look up."""
    if condition is None or not _invariant(source):
        return None
    tests = _conjuncts(condition)
    for k, test in enumerate(tests):
        found = _equality(gen, test, var)
        if found is not None:
            break
        if not _harmless(test):  # a test before it is made for every item: it must not fail
            return None
    else:
        return None
    table, key = found
    what = (py.dump(source), table.id)
    name = indexes.get(what)
    if name is None:
        if not new:
            return None
        name = indexes[what] = gen.fresh("x")
    rest = tests[:k] + tests[k + 1:]
    rest = None if not rest else rest[0] if len(rest) == 1 else N.BoolOp(op=N.And(), values=rest)
    return name, _call(gen.value(grouped), [source, table]), key, rest


def _conjuncts(test) -> list:
    """The tests ``test`` joins with ``and``, nested ones flattened, in order."""
    if isinstance(test, py.BoolOp) and isinstance(test.op, py.And):
        return [part for value in test.values for part in _conjuncts(value)]
    return [test]


def _harmless(test) -> bool:
    """Whether ``test`` compares locals or constants (``_v7 != _p3``): it cannot fail, so it may
    be left out for the items the index leaves out."""
    return (isinstance(test, py.Compare) and all(isinstance(op, (py.Eq, py.NotEq, py.Is, py.IsNot)) for op in test.ops)
            and all(isinstance(side, (py.Name, py.Constant)) for side in [test.left] + test.comparators))


def _invariant(source) -> bool:
    """Whether ``source`` reads only what the enumerator read at its start (``_h`` locals), values
    handed to the generated code (``_k``) and constants, with ``+`` and subscripts."""
    for node in py.walk(source):
        if isinstance(node, py.Name):
            if not node.id.startswith(GLOBAL):
                return False
        elif not isinstance(node, (py.Subscript, py.BinOp, py.Add, py.Constant, py.Load)):
            return False
    return True


def _equality(gen, test, var):
    """For ``T[var] == key`` (either way round), ``(T, key)`` if it can be looked up; else None."""
    if not (isinstance(test, py.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], py.Eq)):
        return None
    for read, key in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
        table = _table_read(gen, read, var)
        if table is not None and _plain_key(gen, key):
            return table, key
    return None


def _table_read(gen, node, var):
    """``T`` for ``T[var]``, ``T`` an attribute table with a plain value for every component."""
    table = component_table(gen, node, var)
    return node.value if table is not None and all(type(value) in _PLAIN for value in table) else None


def _plain_key(gen, node) -> bool:
    """Whether ``node`` is a str, int or bool constant, or a local keeping such a table's entry for
    a component, read where the component is bound (see ``Invariants.eager``)."""
    if isinstance(node, py.Constant):
        return type(node.value) in _PLAIN
    if not isinstance(node, py.Name):
        return False
    made = gen.invariant.eager.get(node.id)
    return made is not None and _table_read(gen, made, made.slice.id) is not None
