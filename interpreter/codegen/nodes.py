"""The ``ast`` nodes generated code is built of, and the stubs that compile it lazily.

Nodes are made through ``N`` (``N.Name(...)``, ``N.Call(...)``): the ``ast`` classes with a location
filled in, so nothing has to walk a tree before compiling it.  Everything here builds nodes from
values the generator chose (names of a fixed scheme, ``ast.Constant`` values); nothing parses text.
"""
from __future__ import annotations

import ast as py
import types

from dsl.errors import CheckError, Position

MAX_GENERATED = 400_000  # Python nodes made for one game, all its generated code (the largest shipped: 64,392)

_PYOPS = {"+": py.Add, "-": py.Sub, "*": py.Mult, "//": py.FloorDiv, "%": py.Mod}
_CMPOPS = {"==": py.Eq, "!=": py.NotEq, "<": py.Lt, "<=": py.LtE, ">": py.Gt, ">=": py.GtE,
           "in": py.In, "not in": py.NotIn}


class _Located:
    """The ``ast`` node classes, made with a location: the line ``N.line`` (1 unless a block is
    numbering its statements, see interpreter/codegen/blocks.py), so that nothing has to walk the
    trees to fill locations in before compiling."""

    line = 1
    made = 0  # nodes made for the game being compiled (at most MAX_GENERATED: see ``start``)
    where = None  # the position of the rule being compiled, for the error past that bound; None: no game is

    def start(self, file: str) -> None:
        """Begin counting the nodes of one game (whose ruleset is ``file``)."""
        self.made, self.where = 0, Position(file, 1, 1)

    def stop(self) -> None:
        """The game is compiled: code made later (a teller of a message logged in play) is not bounded."""
        self.where = None

    def __getattr__(self, name):
        cls = getattr(py, name)
        if "lineno" in cls._attributes:
            located = self

            def made(*args, **fields):
                located.made += 1
                if located.made > MAX_GENERATED and located.where is not None:
                    raise too_much_code(located.where)
                line = located.line
                return cls(*args, lineno=line, end_lineno=line, col_offset=0, end_col_offset=0, **fields)
        else:  # operators and contexts: classes the generator also tests nodes against
            made = cls
        self.__dict__[name] = made
        return made

    def shared(self, node):
        """A function giving ``node`` wherever it is used again (a definition's argument, read once
        for each use of its parameter); each use counts the nodes of ``node``, which the compiler
        walks as often as it stands in the code."""
        size = 0
        for size, _ in enumerate(py.walk(node), 1):  # stops at the bound: a node may share others
            if size > MAX_GENERATED:
                break

        def use():
            self.made += size
            if self.made > MAX_GENERATED and self.where is not None:
                raise too_much_code(self.where)
            return node
        return use


def too_much_code(where) -> CheckError:
    """The located error of rules that compile to more code than any game needs: the generated code
    grows linearly with the rules, definitions expanded where they are used."""
    return CheckError(f"the rules compile to more than {MAX_GENERATED:,} pieces of code", where,
                      "split long procedures and definitions, or call a procedure instead of repeating its "
                      "statements")


N = _Located()


class Unsupported(Exception):
    """This node cannot be generated here; the caller falls back to the closure compiler."""


def _load(name):
    return N.Name(id=name, ctx=N.Load())


def _store(name):
    return N.Name(id=name, ctx=N.Store())


def _sub(value, key):
    return N.Subscript(value=value, slice=key, ctx=N.Load())


def _attr(value, name):
    return N.Attribute(value=value, attr=name, ctx=N.Load())


def _sub_store(value, key):
    return N.Subscript(value=value, slice=key, ctx=N.Store())


def _call(func, args):
    return N.Call(func=func, args=list(args), keywords=[])


def _const(value):
    return N.Constant(value=value)


S, E = _load("s"), _load("e")


class Scope:
    """Names visible in generated code: comprehension variables and option parameters (Python
    locals), and the parameters of an expanded definition (their argument's code).  A definition's
    scope is opaque: its body sees only its own parameters and what it binds itself."""

    def __init__(self, names, opaque=False, e_backed=False):
        self.names = names  # ruleset name -> a function making the ast that reads it
        self.opaque = opaque
        self.e_backed = e_backed  # the names are also kept in e (an option's parameters)


def _cheap(node) -> bool:
    """Whether an ast is cheap to evaluate twice: a name, a constant, or a name subscripted with
    such (``e['x']``, ``_h3[_v4]``)."""
    return isinstance(node, (py.Name, py.Constant)) or (
        isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and _cheap(node.slice))


def _checked(read, otherwise):
    """``read if read is not None else otherwise`` (``read`` is evaluated twice: it must be cheap)."""
    return N.IfExp(test=N.Compare(left=read, ops=[N.IsNot()], comparators=[_const(None)]),
                    body=_copy(read), orelse=otherwise)


def _copy(node):
    return N.Subscript(value=_copy(node.value), slice=_copy(node.slice), ctx=N.Load()) \
        if isinstance(node, py.Subscript) else (N.Name(id=node.id, ctx=N.Load()) if isinstance(node, py.Name)
                                                 else N.Constant(value=node.value))


_STUB_TEMPLATES: dict = {}
_MARK = "rulebook stub number"


def _stub_code(arity: int, index: int):
    """The code of ``def _g(a0, ...): return _flush(index)(a0, ...)``: the first call compiles
    every pending function (and so replaces this code) and then runs the real one."""
    template = _STUB_TEMPLATES.get(arity)
    if template is None:
        names = [f"a{i}" for i in range(arity)]
        call = _call(_call(_load("_flush"), [_const(_MARK)]), [_load(n) for n in names])
        arguments = py.arguments(posonlyargs=[], args=[N.arg(arg=n) for n in names], vararg=None,
                                 kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fdef = N.FunctionDef(name="_g", args=arguments, body=[N.Return(value=call)], decorator_list=[],
                              returns=None, type_comment=None)
        module = N.Module(body=[fdef], type_ignores=[])
        py.fix_missing_locations(module)
        code = compile(module, "<rulebook stub>", "exec")
        template = _STUB_TEMPLATES[arity] = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    return template.replace(co_consts=tuple(index if c == _MARK else c for c in template.co_consts))
