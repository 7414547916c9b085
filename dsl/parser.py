"""Stage 3: parse expression and statement strings into the syntax tree of :mod:`dsl.ast`.

lark is imported when the first text is parsed (here and in :mod:`dsl.parse_tree`, which turns its
trees into syntax trees): a game loaded from the cache needs no parser."""
from __future__ import annotations

import hashlib
import io
import sys
from functools import lru_cache

from rulebook_data import package_folder

from . import ast, cache
from .ast import INT_LIMIT, MAX_DEPTH
from .errors import ExpressionSyntaxError, Position

_GRAMMAR = (package_folder(__package__) / "rules.lark").read_text(encoding="utf-8")

MAX_TEXT = 100_000  # characters of one expression or statement

_OPTIONS = {"start": ["start_expr", "start_stmt"], "parser": "lalr", "propagate_positions": True,
            "maybe_placeholders": True}


@lru_cache(maxsize=1)
def _parser():
    """The parser of the grammar; building it takes a while, so it is kept in the user's cache folder
    (:mod:`dsl.cache`) and read from there by the next process."""
    import lark
    from lark import Lark
    folder = cache.cache_folder()
    if folder is None:
        return Lark(_GRAMMAR, **_OPTIONS)
    key = hashlib.sha256(f"{_GRAMMAR}{sorted(_OPTIONS.items())}{lark.__version__}{sys.version}".encode())
    entry = folder / f"grammar-{key.hexdigest()[:32]}.lark"
    payload = cache.read(entry)
    if payload is not None:
        try:
            return Lark.load(io.BytesIO(payload))
        except Exception:  # noqa: BLE001 — a damaged or foreign entry: build it again
            pass
    parser = Lark(_GRAMMAR, **_OPTIONS)
    buffer = io.BytesIO()
    parser.save(buffer)
    cache.write(entry, buffer.getvalue())
    return parser


def _parse(text: str, base: Position, start: str, what: str):
    if not isinstance(text, str):
        raise ExpressionSyntaxError(f"expected an {what} as text, got {text!r}", base)
    if len(text) > MAX_TEXT:
        raise ExpressionSyntaxError(f"the {what} is longer than {MAX_TEXT:,} characters", base)
    from lark.exceptions import UnexpectedInput, VisitError

    from .parse_tree import ToAst, check_depth, syntax_error
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, base, what) from None
    check_depth(tree, base, what)
    try:
        return ToAst(base).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, ExpressionSyntaxError):
            raise exc.orig_exc from None
        raise


def parse_expression(text: str, base: Position) -> ast.Node:
    """Parse an expression; ``base`` is where the text starts in its file."""
    if isinstance(text, bool) or text is None:
        return ast.Literal(base, text)
    if isinstance(text, int):
        if not -INT_LIMIT <= text < INT_LIMIT:
            raise ExpressionSyntaxError("the number is too large: whole numbers lie within ±2^63", base)
        return ast.Literal(base, text)
    return _parse(text, base, "start_expr", "expression")


def parse_statement(text: str, base: Position) -> ast.Node:
    """Parse one simple statement (assignment, let, call, break, continue)."""
    return _parse(text, base, "start_stmt", "statement")


__all__ = ["parse_expression", "parse_statement"]
