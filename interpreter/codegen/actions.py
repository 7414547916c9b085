"""Generated enumeration of a decision's legal actions: one Python function per decision.

The function does what :func:`interpreter.runtime.actions.legal_actions_at` does option by option, with
the options' parameters as Python locals and their domains and staged ``require`` parts as
generated code: nested loops, one per parameter; at each loop, a value interchangeable with one
already tried is skipped (components by their interchangeability key, other values by
themselves); each part of ``require`` is tested as soon as the parameters it reads are bound.

A condition an option's ``require`` begins with and that a later option of the same decision
also tests (``not board_full()`` before every kind of placement) is computed once: expressions
have no side effects, and nothing changes the state while actions are enumerated.
"""
from __future__ import annotations


import ast as py

from dsl import ast
from dsl.types import ZONE
from dsl.unparse import unparse

from .nodes import E, N, Scope, Unsupported, _call, _const, _load, _store, _sub
from ..runtime.actions import Action, frozen, new_batch
from .expressions import names_local
from .indexes import indexed_loop
from .invariants import Invariants
from ..runtime.limits import MAX_ITEMS


def _assign(name, value):
    return N.Assign(targets=[_store(name)], value=value)


def _if(test, body, orelse=()):
    return N.If(test=test, body=list(body), orelse=list(orelse))


def _not(test):
    if isinstance(test, py.UnaryOp) and isinstance(test.op, py.Not):
        return test.operand
    return N.UnaryOp(op=N.Not(), operand=test)


def enumerator(gen, ir_options, compiled, stages_of):
    """``stages_of(option)`` splits an option's ``require`` into the parts to test before any
    parameter is bound and after each.  Returns a generated ``f(s, e, out)`` appending every legal
    action of a decision to ``out`` and returning their batch, made with the first action (None where
    nothing is offered); None where the generator cannot handle a domain or condition."""
    namespace_action = (gen.value(object.__new__), gen.value(Action), gen.value(new_batch))  # see _append
    frozen_name = gen.value(frozen)
    body = []
    cached: dict = {}  # unparsed first conjunct of an option's require -> the local holding it
    outer = gen.begin()
    fallbacks, gen.env_writes = gen.fallbacks, []
    gen.invariant = invariant = Invariants(gen, {name for option in ir_options for name, _ in option.params})
    try:
        for option, spec in zip(ir_options, compiled):
            body.extend(_option(gen, option, spec, namespace_action, frozen_name, cached, stages_of(option)))
    except Unsupported:
        gen.abandon(outer)
        return None
    finally:
        gen.invariant = None
    body[:0] = invariant.resetting(0) + [_assign(name, _const(None)) for name in invariant.indexes.values()] + [
        _assign("batch", _const(None))]
    if gen.fallbacks == fallbacks:  # parameters are read from Python locals only
        _drop(body, {id(write) for write in gen.env_writes})
        copy = []
    else:  # on a copy of the locals, as the closures of legal_actions_at do
        copy = [_assign("e", _call(_load("dict"), [E]))]
    body = copy + gen.end(outer, body)
    body.append(N.Return(value=_load("batch")))
    return gen.function(["s", "e", "out"], body)


def _drop(statements, writes) -> None:
    """Remove the statements ``writes`` (ids) from ``statements`` and the blocks nested in them."""
    statements[:] = [st for st in statements if id(st) not in writes]
    for st in statements:
        for block in (getattr(st, "body", None), getattr(st, "orelse", None)):
            if isinstance(block, list):
                _drop(block, writes)


def _option(gen, option, spec, action_class, frozen_name, cached, stages) -> list:
    opt = gen.value(spec)
    names = [name for name, _ in option.params]
    if spec.decline:
        return [_if(_load("out"), _append(action_class, opt, []))]
    first = _stage_test(gen, stages[0], cached, remember=True)
    pvars = [gen.fresh("p") for _ in names]
    inner = _level(gen, option, spec, 0, names, pvars, stages, action_class, opt, frozen_name)
    if first is None:
        return inner
    return [_if(first, inner)]


def _stage_test(gen, parts, cached, remember=False):
    """The test of one stage of ``require``: its parts joined with 'and'.  At stage 0 a part
    some earlier option began with is read from where it was kept; the first part of this
    option's stage 0 is kept for later options."""
    if not parts:
        return None
    tests = []
    for k, part in enumerate(parts):
        key = unparse(part) if remember else None
        if key is not None and key in cached:
            tests.append(_load(cached[key]))
        elif key is not None and k == 0:
            name = gen.fresh("c")
            cached[key] = name
            tests.append(N.NamedExpr(target=_store(name), value=gen.expr(part)))
        else:
            tests.append(gen.expr(part))
    return tests[0] if len(tests) == 1 else N.BoolOp(op=N.And(), values=tests)


def _append(action_class, opt, values) -> list:
    """The statements appending an Action of ``opt`` with ``values`` to ``out``: the object made
    without calling its class, its fields stored in line (as ``Action.__init__`` does, cheaper; its
    text is left unset until it is named); the batch is made with the first action."""
    made = [_if(N.Compare(left=_load("batch"), ops=[N.Is()], comparators=[_const(None)]),
                [_assign("batch", _call(action_class[2], [_load("s"), _load("out")]))]),
            N.Assign(targets=[_store("_action")], value=_call(action_class[0], [action_class[1]]))]
    for field, value in (("option", opt), ("values", N.Tuple(elts=values, ctx=N.Load())),
                         ("batch", _load("batch"))):
        made.append(N.Assign(targets=[N.Attribute(value=_load("_action"), attr=field, ctx=N.Store())], value=value))
    return made + [N.Expr(value=_call(_attr_load("out", "append"), [_load("_action")]))]


def _attr_load(name, attr):
    return N.Attribute(value=_load(name), attr=attr, ctx=N.Load())


def _interchangeable(gen, value, domain):
    """The key under which components are interchangeable (see ``actions.equivalence``): name,
    zone, cell on a grid, and marks; none for none.  The components of a zone (or of a selection
    from one) are never none and share their zone: the key leaves both tests out."""
    game = gen.game
    one_zone = _from_one_zone(gen, domain)
    marks = game.mark_names
    if not game.has_grids and len(marks) <= 1 and all(type(v) is int for m in marks for v in game.initial_marks[m]):
        key = _packed_key(gen, value, one_zone)
    else:
        columns = [gen.value(game.name_index)] + ([] if one_zone else [gen.state_table("loc")])
        if game.has_grids:
            columns.append(gen.state_table("cell_of"))
        columns += [gen.state_table("marks", name) for name in marks]
        key = N.Tuple(elts=[_sub(column, value) for column in columns], ctx=N.Load())
    if one_zone:
        return key
    return N.IfExp(test=N.Compare(left=value, ops=[N.IsNot()], comparators=[_const(None)]), body=key,
                    orelse=_const(None))


def _packed_key(gen, value, one_zone):
    """The key of ``_interchangeable`` as one whole number, cheaper to make and hash than a tuple,
    for a game without grids whose components have at most one mark, a whole number in every
    component: ``name + names × (zone + zones × mark)``.  Name and zone are numbered from 0, each
    below its count, so different keys give different numbers (the mark may be any whole number)."""
    game = gen.game
    parts = [(gen.value(game.name_index), max(game.name_index, default=0) + 1)]
    if not one_zone:
        parts.append((gen.state_table("loc"), len(game.zone_names)))
    key = None
    for name in game.mark_names:  # at most one
        key = _sub(gen.state_table("marks", name), value)
    for column, count in reversed(parts):
        read = _sub(column, value)
        key = read if key is None else N.BinOp(left=read, op=N.Add(),
                                               right=N.BinOp(left=_const(count), op=N.Mult(), right=key))
    return key


def _level(gen, option, spec, i, names, pvars, stages, action_class, opt, frozen_name) -> list:
    """The loop binding parameter ``i`` and, inside it, the deeper ones.  A domain of one item
    (``[tile.cell]``) binds it without a loop; a domain whose values are pairwise distinct under
    the interchangeability key (see ``distinct_keys``) is looped over without a set of tried keys;
    the last parameter's domain made of parts (see ``_pieces``) is a loop per part."""
    if i == len(names):
        return _append(action_class, opt, [_load(p) for p in pvars])
    domain_node = option.params[i][1]
    items, tried, var = gen.fresh("i"), gen.fresh("t"), pvars[i]
    single = isinstance(domain_node, ast.ListLit) and len(domain_node.items) == 1
    distinct = distinct_keys(gen, domain_node, spec.component_params[i])
    unwrapped = _unwrapped(gen, domain_node)
    last = i == len(names) - 1
    if last and not single and not stages[i + 1] and _pieces(gen, unwrapped) and (
            i == 0 or _reads(gen.compiler, domain_node, names[i - 1])):
        def item():  # the statements run for each item: skip it if tried, else its action
            return _skip(gen, spec, i, var, tried, domain_node, frozen_name, lazy=True) + _append(
                action_class, opt, [_load(p) for p in pvars])
        gen.scopes.append(Scope({}, opaque=domain_node is not unwrapped))
        try:
            loops = _part_loops(gen, unwrapped, var, item, i)
        finally:
            gen.scopes.pop()
        return [_assign(tried, _const(None))] + loops
    fused = None  # a list comprehension looped over in place: (statements, source, variable, condition)
    invariant = gen.invariant
    if single:
        domain = invariant.settle(gen, gen.expr(domain_node.items[0]))
    elif isinstance(unwrapped, ast.Comprehension) and unwrapped.func == "list":
        gen.scopes.append(Scope({}, opaque=domain_node is not unwrapped))
        try:
            prelude, source, loop_var, condition, domain = _comprehension_loop(gen, unwrapped, i)
        finally:
            gen.scopes.pop()
        fused = (prelude, source, loop_var, condition)
    else:  # a list of constants is iterated as one tuple constant when no value is skipped
        domain = invariant.settle(gen, (gen.read_only_list if distinct else gen.list_expr)(domain_node))
    gen.scopes.append(Scope({names[i]: (lambda v=var: _load(v))}, e_backed=True))
    invariant.levels[var] = invariant.depth = i + 1
    if spec.component_params[i] and not single and _from_one_zone(gen, domain_node):
        invariant.components.add(var)  # never none: the tables of components can be read for it
    try:
        check = _stage_test(gen, stages[i + 1], {})
        check = invariant.settle(gen, check) if check is not None else None
        inner = _level(gen, option, spec, i + 1, names, pvars, stages, action_class, opt, frozen_name)
    finally:
        gen.scopes.pop()
        invariant.depth = i
    resets = invariant.resetting(i + 1)  # the parts kept once per value of this parameter
    if single:
        bound = [_assign(var, domain)] + resets
        if check is not None or not last:
            write = N.Assign(targets=[N.Subscript(value=E, slice=_const(names[i]), ctx=N.Store())], value=_load(var))
            bound.append(write)
            gen.env_writes.append(write)
        bound.extend([_if(check, inner)] if check is not None else inner)
        return bound
    skip = _skip(gen, spec, i, var, tried, domain_node, frozen_name, lazy=fused is not None)
    if distinct:
        loop = resets
    elif fused is not None:
        loop = skip + resets
    else:
        loop = [_if(N.Compare(left=_load(tried), ops=[N.IsNot()], comparators=[_const(None)]), skip)] + resets
    if check is not None or not last:  # for closures that read it from e (removed if there are none)
        write = N.Assign(targets=[N.Subscript(value=E, slice=_const(names[i]), ctx=N.Store())], value=_load(var))
        loop.append(write)
        gen.env_writes.append(write)
    if check is not None:
        loop.append(_if(_not(check), [N.Continue()]))
    loop.extend(inner)
    if fused is not None:  # for _v in SOURCE: if not CONDITION: continue; _p = ELEMENT; ...
        prelude, source, loop_var, condition = fused
        if isinstance(domain, py.Name) and domain.id == loop_var:  # the items themselves: for _p in SOURCE
            for node in py.walk(condition) if condition is not None else ():
                if isinstance(node, py.Name) and node.id == loop_var:
                    node.id = var
            loop_var, bind = var, []
        else:
            bind = [_assign(var, domain)]
        head = [] if condition is None else [_if(_not(condition), [N.Continue()])]
        loop[:0] = head + bind
        made = [] if distinct else [_assign(tried, _const(None))]
        return prelude + made + [N.For(target=_store(loop_var), iter=source, body=loop, orelse=[])]
    if distinct:
        return [N.For(target=_store(var), iter=domain, body=loop, orelse=[])]
    many = N.Compare(left=_call(_load("len"), [_load(items)]), ops=[N.Gt()], comparators=[_const(1)])
    return [_assign(items, domain),
            _assign(tried, N.IfExp(test=many, body=_call(_load("set"), []), orelse=_const(None))),
            N.For(target=_store(var), iter=_load(items), body=loop, orelse=[])]


def _skip(gen, spec, i, var, tried, domain_node, frozen_name, lazy=False) -> list:
    """The statements skipping the value of parameter ``i`` (in ``var``) if one interchangeable
    with it was tried (its key is in the set ``tried``), else adding its key.  ``lazy``: the set
    is made with the first key (``tried`` is None until then): a loop none of whose values
    passes its condition makes no set."""
    if spec.component_params[i]:
        key_value = _interchangeable(gen, _load(var), domain_node)
    elif spec.param_kinds[i] in ("int", "cell", "str", "bool", "player", "zone"):
        key_value = _load(var)  # a plain value is its own key
    else:
        is_list = _call(_load("isinstance"), [_load(var), _load("list")])
        key_value = N.IfExp(test=is_list, body=_call(frozen_name, [_load(var)]), orelse=_load(var))
    key = gen.fresh("q")
    seen = _if(N.Compare(left=_load(key), ops=[N.In()], comparators=[_load(tried)]), [N.Continue()],
               [N.Expr(value=_call(_attr_load(tried, "add"), [_load(key)]))])
    if lazy:  # if tried is None: tried = {key} / elif key in tried: continue / else: tried.add(key)
        first = N.Compare(left=_load(tried), ops=[N.Is()], comparators=[_const(None)])
        seen = _if(first, [_assign(tried, N.Set(elts=[_load(key)]))], [seen])
    return [_assign(key, key_value), seen]


def _comprehension_loop(gen, node, i):
    """The parts of a ``for`` statement over the list comprehension ``node``, the domain of
    parameter ``i``: ``(statements, source, variable, condition or None, element)``, the condition
    and the element computed once per item (a loop deeper, for the parts kept once per binding)."""
    invariant = gen.invariant
    prelude, source, loop_var, condition, element = gen.comprehension_loop(node)
    source = invariant.settle(gen, source)
    invariant.depth = i + 1
    try:
        condition = invariant.settle(gen, condition) if condition is not None else None
        element = invariant.settle(gen, element)
    finally:
        invariant.depth = i
    looked_up = None if prelude else indexed_loop(gen, invariant.indexes, source, loop_var, condition)
    if looked_up is not None:  # the items passing the condition's first test, from an index
        prelude, source, condition = looked_up
    return prelude, source, loop_var, condition, element


def _pieces(gen, node) -> bool:
    """Whether the list ``node`` is made of parts: a concatenation (``A + B``) or a choice
    (``A if c else B``) of lists, that provably holds at most MAX_ITEMS items (the check of
    a concatenation's length can never fail).  Each part is then looped over where it stands,
    in order, without building the list (see ``_part_loops``)."""
    if not (isinstance(node, ast.Cond) or isinstance(node, ast.BinOp) and node.op == "+"):
        return False
    bound = gen.size_bound(node)
    return bound is not None and bound <= MAX_ITEMS


def _reads(compiler, node, name) -> bool:
    """Whether ``node`` reads the local ``name`` (else, inside the loops of the parameters before
    it, a list is computed once per binding of what it reads and kept: cheaper than its parts'
    loops computed again for every value of the parameter before)."""
    if names_local(compiler, node, name):
        return True
    return any(_reads(compiler, child, name) for child in ast.children(node))


def _part_loops(gen, node, var, item, i) -> list:
    """Statements binding ``var`` to each item of the list ``node``, in order, and running the
    statements ``item()`` makes for it: a loop per part of a concatenation, an ``if`` choosing
    between the parts of a conditional, a comprehension's loop over its source.  The parts are
    computed in the order the list would compute them, the items of one part before the next part
    is computed; an item's statements cannot fail, so every error is raised where it was."""
    if isinstance(node, ast.BinOp):
        return _part_loops(gen, node.left, var, item, i) + _part_loops(gen, node.right, var, item, i)
    if isinstance(node, ast.Cond):
        test = gen.invariant.settle(gen, gen.expr(node.test))
        if isinstance(test, py.Constant):  # a parameter of the game decides (folded)
            return _part_loops(gen, node.then if test.value else node.otherwise, var, item, i)
        return [_if(test, _part_loops(gen, node.then, var, item, i), _part_loops(gen, node.otherwise, var, item, i))]
    if isinstance(node, ast.ListLit) and not node.items:
        return []
    if isinstance(node, ast.Comprehension) and node.func == "list":
        prelude, source, loop_var, condition, element = _comprehension_loop(gen, node, i)
        head = [] if condition is None else [_if(_not(condition), [N.Continue()])]
        body = head + [_assign(var, element)] + item()
        return prelude + [N.For(target=_store(loop_var), iter=source, body=body, orelse=[])]
    values = gen.invariant.settle(gen, gen.list_expr(node))
    return [N.For(target=_store(var), iter=values, body=item(), orelse=[])]


def _unwrapped(gen, node):
    """The body of a definition without parameters that ``node`` calls (``free_cells()``), else
    ``node``."""
    compiler = gen.compiler
    while isinstance(node, ast.Call) and not node.args and compiler.symbols.get(node, ("",))[0] == "define":
        node = compiler.rs.defines[compiler.symbols[node][1]].body
    return node


def distinct_keys(gen, node, component) -> bool:
    """Whether the values of the domain ``node`` are pairwise distinct under the interchangeability
    key, so that none is ever skipped.  Plain values are their own key; components have distinct
    keys when they are distinct and each lies on a cell of a grid (the key holds the cell, and a
    cell holds one component; a component in a grid zone always has a cell)."""
    if not _distinct(gen, node):
        return False
    return not component or (gen.game.has_grids and _on_cells(gen, node))


def _distinct(gen, node) -> bool:
    """Whether ``node`` (a list) provably holds no value twice."""
    compiler = gen.compiler
    if compiler.types.get(node) == ZONE:
        return True
    if isinstance(node, ast.ListLit):
        values = [item.value for item in node.items if isinstance(item, ast.Literal)]
        return len(node.items) <= 1 or (len(values) == len(node.items) and len({type(v) for v in values}) == 1
                                        and len(set(values)) == len(values))
    if isinstance(node, ast.Call):
        kind = compiler.symbols.get(node, ("",))[0]
        if kind == "func":
            return node.func in ("neighbors", "cells", "range")
        return kind == "define" and not node.args and _distinct(gen, _unwrapped(gen, node))
    if isinstance(node, ast.Comprehension) and node.func == "list":
        return (names_local(compiler, node.elem, node.var) or _occupant(compiler, node) is not None) \
            and _distinct(gen, node.source)
    return False


def _on_cells(gen, node) -> bool:
    """Whether every value of ``node`` (a list of components) lies on a cell of a grid."""
    compiler = gen.compiler
    if isinstance(node, ast.Name) and compiler.symbols.get(node, ("",))[0] == "zone":
        return gen.game.zone_grid[gen.game.family_base[compiler.symbols[node][1]]] is not None
    if isinstance(node, ast.Comprehension) and node.func == "list":
        if _occupant(compiler, node) is not None:
            return True
        return names_local(compiler, node.elem, node.var) and _on_cells(gen, node.source)
    if isinstance(node, ast.Call) and compiler.symbols.get(node, ("",))[0] == "define" and not node.args:
        return _on_cells(gen, _unwrapped(gen, node))
    return False


def _from_one_zone(gen, node) -> bool:
    """Whether ``node`` is a zone or a selection (``[c for c in ZONE if ...]``) from one."""
    node = _unwrapped(gen, node)
    while isinstance(node, ast.Comprehension) and node.func == "list" and names_local(gen.compiler, node.elem, node.var):
        node = _unwrapped(gen, node.source)
    return gen.compiler.types.get(node) == ZONE


def _occupant(compiler, node):
    """For ``[at(n) for n in CELLS if ... at(n) != none ...]``: the ``at(n)`` call (the components
    on distinct cells, none left out), else None."""
    elem = node.elem
    if not (isinstance(elem, ast.Call) and elem.func == "at" and len(elem.args) == 1 and not elem.kwargs
            and compiler.symbols.get(elem, ("",))[0] == "func" and names_local(compiler, elem.args[0], node.var)):
        return None
    parts, cond = [], node.cond
    while isinstance(cond, ast.BoolOp) and cond.op == "and":
        parts.append(cond.right)
        cond = cond.left
    parts.append(cond)
    for part in parts:
        if isinstance(part, ast.Compare) and part.op == "!=":
            sides = (part.left, part.right)
            if any(isinstance(x, ast.Literal) and x.value is None for x in sides) and \
                    any(unparse(x) == unparse(elem) and isinstance(x, ast.Call) and
                        compiler.symbols.get(x, ("",))[0] == "func" for x in sides):
                return elem
    return None
