"""The fields of a ``log`` message written in the rules: ``log("{active.name} rolls {d1} and {d2}")``.

A field that is one of ``log``'s own arguments (``{player}``, ``{other}``, ``{component}``,
``{number}``, ``{count}``) is filled in from that argument, as always.  Any other field is an
expression of the language, parsed and checked here, when the ruleset loads, in the scope of the
``log`` statement; its value is taken when the message is logged and shown as ``text()`` shows it,
a component only to the seats that could see it then (interpreter/runtime/narration.py).  Fields
follow the rules of option texts and prompts: no format spec or conversion (``{x:>9}``, ``{x!r}``),
no positions (``{0}``); ``{{`` and ``}}`` are braces.
"""
from __future__ import annotations

import string

from . import ast
from .errors import CheckError, ExpressionSyntaxError
from .parser import parse_expression
from .types import type_text

LOG_FIELDS = ("player", "other", "component", "number", "count")  # log()'s arguments a message names
ADVICE = "a field is one of log()'s arguments ({player}, {component}, ...) or an expression, e.g. {text(d1)}"


def message_fields(checker, call, scope) -> tuple:
    """``((field text, expression, static type as text), ...)`` of the expression fields of the
    literal message of the ``log`` call ``call``; a located CheckError at the first faulty field."""
    message = call.args[0] if call.args else dict(call.kwargs).get("message")
    if not (isinstance(message, ast.Literal) and isinstance(message.value, str)):
        return ()
    text = message.value
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise CheckError(f"the message's braces do not parse: {exc}", message.pos,
                         "a field is {name} or {expression}, without '!' or ':' (write 'not (a == b)' for a != b); "
                         "write {{ and }} for braces that show as such") from None
    fields, offset = [], 1  # past the opening quote
    for literal, field, spec, conversion in parsed:
        offset += len(literal)
        if field is None:
            continue
        where = message.pos.at_offset(offset + 1)
        offset += len(field) + 2 + (len(spec) + 1 if spec else 0) + (2 if conversion else 0)
        if spec or conversion or not field.strip():
            raise CheckError(f"the message's field '{{{field}}}' should be a name or an expression, without a "
                             "format", where, ADVICE + " (a field holds no '!' or ':': write 'not (a == b)' for a != b)")
        if field.strip().isdigit():
            raise CheckError(f"the message's field '{{{field}}}' is a position: fields name what they show",
                             where, ADVICE)
        if field in LOG_FIELDS:
            continue
        try:
            node = parse_expression(field, where)
        except ExpressionSyntaxError as exc:
            exc.hint = exc.hint or ADVICE
            raise
        fields.append((field, node, type_text(checker.check(node, scope))))
    return tuple(fields)
