"""The lark side of stage 3 (:mod:`dsl.parser`): a parse tree turned into the syntax tree of
:mod:`dsl.ast`, and lark's errors into located ones.  Imported when the first text is parsed, so that
loading a game from the cache does not import lark."""
from __future__ import annotations

from lark import Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast
from .errors import ExpressionSyntaxError, Position
from .ast import INT_LIMIT, MAX_DEPTH

_TOKEN_WORDS = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','", "DOT": "'.'",
    "NAME": "a name", "BUILTIN_NAME": "builtin.NAME", "NUMBER": "a number", "STRING": "a string",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "EQUAL": "'='", "AUG_OP": "'+=' or '-='",
    "$END": "the end", "IF": "'if'", "ELSE": "'else'", "FOR": "'for'", "IN": "'in'",
}



class ToAst(Transformer):
    """A parse tree of the grammar as a tree of :mod:`dsl.ast`, every node with its position."""

    def __init__(self, base: Position):
        super().__init__()
        self.base = base

    def _pos(self, meta_or_token) -> Position:
        offset = getattr(meta_or_token, "start_pos", None)
        if offset is not None and self.base.segments:
            return self.base.at_offset(offset)
        line = getattr(meta_or_token, "line", 1) or 1
        column = getattr(meta_or_token, "column", 1) or 1
        if line == 1:
            return self.base.shifted(column - 1)
        return Position(self.base.file, self.base.line + line - 1, column)

    # --- literals and names
    @v_args(meta=True)
    def number(self, meta, items):
        digits = str(items[0]).replace("_", "")
        if len(digits.lstrip("0")) > 19 or int(digits) >= INT_LIMIT:
            raise ExpressionSyntaxError("the number is too large: whole numbers lie within ±2^63",
                                        self._pos(meta), "use a smaller number (docs/language.md, Bounded execution)")
        return ast.Literal(self._pos(meta), int(digits))

    @v_args(meta=True)
    def string(self, meta, items):
        return ast.Literal(self._pos(meta), str(items[0])[1:-1])

    @v_args(meta=True)
    def true(self, meta, items):
        return ast.Literal(self._pos(meta), True)

    @v_args(meta=True)
    def false(self, meta, items):
        return ast.Literal(self._pos(meta), False)

    @v_args(meta=True)
    def none(self, meta, items):
        return ast.Literal(self._pos(meta), None)

    @v_args(meta=True)
    def name(self, meta, items):
        name, builtin = _callee(items[0])
        return ast.Name(self._pos(meta), name, builtin)

    @v_args(meta=True)
    def list_lit(self, meta, items):
        return ast.ListLit(self._pos(meta), tuple(i for i in items if i is not None))

    # --- postfix
    @v_args(meta=True)
    def attr(self, meta, items):
        obj, name = items
        return ast.Attr(self._pos(name), obj, str(name))

    @v_args(meta=True)
    def index(self, meta, items):
        return ast.Index(self._pos(meta), items[0], items[1])

    @v_args(meta=True)
    def slice(self, meta, items):
        return ast.Slice(self._pos(meta), items[0], items[1], items[2])

    def arguments(self, items):
        return items

    @v_args(meta=True)
    def keyword(self, meta, items):
        return ("kw", str(items[0]), items[1])

    def _call(self, pos, func, arguments):
        args, kwargs = [], []
        for arg in arguments or ():
            if isinstance(arg, tuple):
                kwargs.append((arg[1], arg[2]))
            else:
                if kwargs:
                    raise ExpressionSyntaxError("a positional argument follows a keyword argument",
                                                arg.pos, "put keyword arguments (name=value) last")
                args.append(arg)
        name, builtin = _callee(func)
        if name in SEAT_WALKS:
            kwargs = [(key, _seats_where(value) if key == "where" else value) for key, value in kwargs]
            kwargs = [("among" if key == "where" else key, value) for key, value in kwargs]
        return ast.Call(pos, name, tuple(args), tuple(kwargs), builtin)

    @v_args(meta=True)
    def call(self, meta, items):
        return self._call(self._pos(meta), items[0], items[1])

    @v_args(meta=True)
    def aggregate(self, meta, items):
        func, elem, var, source, cond = items
        return ast.Comprehension(self._pos(meta), _callee(func)[0], elem, str(var), source, cond)

    @v_args(meta=True)
    def list_comp(self, meta, items):
        elem, var, source, cond = items
        return ast.Comprehension(self._pos(meta), "list", elem, str(var), source, cond)

    # --- operators
    @v_args(meta=True)
    def binop(self, meta, items):
        left, op, right = items
        return ast.BinOp(self._pos(op), str(op), left, right)

    @v_args(meta=True)
    def compare(self, meta, items):
        left, op, right = items
        return ast.Compare(self._pos(op), str(op), left, right)

    @v_args(meta=True)
    def in_op(self, meta, items):
        return ast.Compare(self._pos(meta), "in", items[0], items[1])

    @v_args(meta=True)
    def not_in_op(self, meta, items):
        return ast.Compare(self._pos(meta), "not in", items[0], items[1])

    @v_args(meta=True)
    def and_op(self, meta, items):
        return ast.BoolOp(self._pos(meta), "and", items[0], items[1])

    @v_args(meta=True)
    def or_op(self, meta, items):
        return ast.BoolOp(self._pos(meta), "or", items[0], items[1])

    @v_args(meta=True)
    def not_op(self, meta, items):
        return ast.Not(self._pos(meta), items[0])

    @v_args(meta=True)
    def neg(self, meta, items):
        return ast.Neg(self._pos(meta), items[0])

    @v_args(meta=True)
    def cond(self, meta, items):
        then, test, otherwise = items
        return ast.Cond(self._pos(meta), test, then, otherwise)

    # --- statements
    @v_args(meta=True)
    def let_stmt(self, meta, items):
        return ast.Let(self._pos(meta), str(items[0]), items[1])

    @v_args(meta=True)
    def assign_stmt(self, meta, items):
        return _element_assignment(ast.Assign(self._pos(meta), items[0], "=", items[1]))

    @v_args(meta=True)
    def augassign_stmt(self, meta, items):
        return _element_assignment(ast.Assign(self._pos(meta), items[0], str(items[1]), items[2]))

    @v_args(meta=True)
    def call_stmt(self, meta, items):
        return ast.CallStmt(self._pos(meta), self._call(self._pos(meta), items[0], items[1]))

    @v_args(meta=True)
    def return_stmt(self, meta, items):
        return ast.Return(self._pos(meta), items[0])

    @v_args(meta=True)
    def break_stmt(self, meta, items):
        return ast.Break(self._pos(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta, items):
        return ast.Continue(self._pos(meta))

    def start_expr(self, items):
        return items[0]

    def start_stmt(self, items):
        return items[0]


SEAT_WALKS = ("next_player", "previous_player")
_UPDATES = {"+=": "+", "-=": "-", "*=": "*"}


def _element_assignment(node):
    """``xs[i] = v`` (or ``xs[i] += v``) sets one element: it stands for ``xs = with_item(xs, i, v)``
    (``with_item(xs, i, xs[i] + v)``), a new list, as every change of a list is."""
    target = node.target
    if not isinstance(target, ast.Index):
        return node
    value = node.value
    if node.op != "=":
        value = ast.BinOp(node.pos, _UPDATES[node.op], ast.Index(target.pos, target.obj, target.index), value)
    call = ast.Call(node.pos, "with_item", (target.obj, target.index, value), (), True)
    return ast.Assign(node.pos, target.obj, "=", call)


def _seats_where(condition):
    """``where=<condition on player>`` of a seat walk: the seats that meet it, as the list
    ``[player for player in builtin.players if <condition>]`` it stands for (its ``among``)."""
    pos = condition.pos
    return ast.Comprehension(pos, "list", ast.Name(pos, "player"), "player", ast.Name(pos, "players", True), condition)


def _callee(token) -> tuple:
    """``(name, builtin)`` of a NAME or a BUILTIN_NAME token (``builtin.roll`` -> ``('roll', True)``)."""
    if token.type == "BUILTIN_NAME":
        return str(token).split(".", 1)[1], True
    return str(token), False


def _describe_expected(expected) -> str:
    words = sorted({_TOKEN_WORDS.get(t, repr(t.lower()) if t.isalpha() else t) for t in expected})
    return ", ".join(words[:8])


def syntax_error(exc: UnexpectedInput, text: str, base: Position, what: str) -> ExpressionSyntaxError:
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        column = len(text.splitlines()[-1]) + 1 if text.strip() else 1
        line = max(1, len(text.splitlines()))
        message = f"the {what} ends too early"
    elif isinstance(exc, UnexpectedToken):
        message = f"unexpected {exc.token.value!r} in the {what}"
    elif isinstance(exc, UnexpectedCharacters):
        lines = text.splitlines() or [""]
        row = lines[min(line, len(lines)) - 1]
        char = row[column - 1] if 0 < column <= len(row) else "end of line"
        message = f"unexpected character {char!r} in the {what}"
    else:
        message = f"cannot parse the {what}"
    expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None)
    hint = f"expected {_describe_expected(expected)}" if expected else None
    if isinstance(exc, UnexpectedToken) and exc.token.value == "=" and what == "expression":
        hint = "to compare two values write '==' ('=' assigns, in a statement of its own)"
    offset = getattr(exc, "pos_in_stream", None)
    if base.segments and offset is not None:
        pos = base.at_offset(offset)
    else:
        pos = base.shifted(column - 1) if line == 1 else Position(base.file, base.line + line - 1, column)
    return ExpressionSyntaxError(f"{message}: {text.strip()!r}", pos, hint)


def check_depth(tree, base: Position, what: str) -> None:
    """Refuse a tree nested deeper than MAX_DEPTH (walked without recursion)."""
    pending = [(tree, 1)]
    while pending:
        node, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise ExpressionSyntaxError(f"the {what} is nested too deeply (more than {MAX_DEPTH} levels)", base,
                                        "split it: name a part with 'let' or a definition ('define:')")
        pending.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
