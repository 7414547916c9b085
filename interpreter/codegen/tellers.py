"""The tellers of narration, generated: ``log()`` of one message as a function that writes the message
as a constant uses it (see :func:`interpreter.runtime.narration.teller`).  Narration makes its
tellers in plain Python until :func:`install` hands it this generator's."""
from __future__ import annotations

import ast as py
import functools

from ..runtime import narration
from ..runtime.narration import _LOG_ARGUMENTS
from .nodes import N, _attr, _call, _const, _load, _store

@functools.lru_cache(maxsize=None)
def make_teller(fields: tuple):
    """``make(message)``, making the teller of a message that uses ``fields`` (each once, in order)::

        def tell(state, player, component, number, other, count, to):
            narrative = state.narrative
            if type(narrative) is tuple:  # muted
                return
            if player is None:  # each field used, in order
                _missing('player')
            used = {'player': player}
            entry = {'move': state.moves, 'to': to, 'text': message, 'values': used,
                     'seen': _components_seen(state, used)}  # [] unless it names components
            if to is not None and not 0 <= to < state.game.num_players:
                _no_seat()
            narrative.append(entry)
            if to is None:
                state.note_entries.append(entry)  # its text is rendered when the notes are read

    built of ``ast`` nodes: the names of log()'s fields, never the text of a message (the message
    is a variable of the closure)."""
    state, narrative, used, entry, to = (_load(n) for n in ("state", "narrative", "used", "entry", "to"))
    body = [N.Assign(targets=[_store("narrative")], value=_attr(state, "narrative")),
            N.If(test=N.Compare(left=_call(_load("type"), [narrative]), ops=[N.Is()], comparators=[_load("tuple")]),
                 body=[N.Return(value=None)], orelse=[])]
    body += [N.If(test=N.Compare(left=_load(f), ops=[N.Is()], comparators=[_const(None)]),
                  body=[N.Expr(value=_call(_load("_missing"), [_const(f)]))], orelse=[]) for f in fields]
    body.append(N.Assign(targets=[_store("used")], value=N.Dict(keys=[_const(f) for f in fields],
                                                                 values=[_load(f) for f in fields])))
    seen = _call(_load("_components_seen"), [state, used]) if "component" in fields else N.List(elts=[], ctx=N.Load())
    body.append(N.Assign(targets=[_store("entry")], value=N.Dict(
        keys=[_const(k) for k in ("move", "to", "text", "values", "seen")],
        values=[_attr(state, "moves"), to, _load("message"), used, seen])))
    seats = _attr(_attr(state, "game"), "num_players")
    body.append(N.If(test=N.BoolOp(op=N.And(), values=[
        N.Compare(left=to, ops=[N.IsNot()], comparators=[_const(None)]),
        N.UnaryOp(op=N.Not(), operand=N.Compare(left=_const(0), ops=[N.LtE(), N.Lt()], comparators=[to, seats]))]),
        body=[N.Expr(value=_call(_load("_no_seat"), []))], orelse=[]))
    body.append(N.Expr(value=_call(_attr(narrative, "append"), [entry])))
    body.append(N.If(test=N.Compare(left=to, ops=[N.Is()], comparators=[_const(None)]),
                     body=[N.Expr(value=_call(_attr(_attr(state, "note_entries"), "append"), [entry]))], orelse=[]))
    tell = N.FunctionDef(name="tell", args=_arguments(("state",) + _LOG_ARGUMENTS + ("to",)), body=body,
                         decorator_list=[], returns=None, type_comment=None)
    make = N.FunctionDef(name="make", args=_arguments(("message",)), body=[tell, N.Return(value=_load("tell"))],
                         decorator_list=[], returns=None, type_comment=None)
    scope: dict = {}
    code = compile(N.Module(body=[make], type_ignores=[]), "<rulebook narration>", "exec")  # our own ast
    exec(code, vars(narration), scope)  # run in narration's namespace: its helpers, as patched
    return scope["make"]


def _arguments(names):
    return py.arguments(posonlyargs=[], args=[N.arg(arg=n) for n in names], vararg=None, kwonlyargs=[],
                        kw_defaults=[], kwarg=None, defaults=[])


def _arguments(names):
    return py.arguments(posonlyargs=[], args=[N.arg(arg=n) for n in names], vararg=None, kwonlyargs=[],
                        kw_defaults=[], kwarg=None, defaults=[])


def install() -> None:
    """Let narration make its tellers with :func:`make_teller`."""
    narration.use_teller_maker(make_teller)
