"""Text templates: a component kind's ``name`` and an option's ``text``.

A template is text with fields in braces, ``"card {value}"``: each field is one plain name (an
attribute of the kind, a parameter of the option); ``{{`` and ``}}`` stand for braces.  Nothing
else is allowed in braces (no format spec such as ``{value:>9}``, no conversion, no index), so a
template cannot make a huge text or fail while a game runs.
"""
from __future__ import annotations

import re

from .errors import CheckError, Position

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
ADVICE = "a template's fields are plain names in braces, such as {value}; write {{ and }} for braces"


def template_fields(text: str, where: Position) -> list:
    """The names of the fields of ``text`` (which starts at ``where``), in order; a CheckError at
    the first malformed field."""
    fields, i = [], 0
    while i < len(text):
        char = text[i]
        if text.startswith(("{{", "}}"), i):
            i += 2
            continue
        if char == "}":
            raise CheckError("a '}' without its '{' in the template", where.at_offset(i), ADVICE)
        if char == "{":
            end = text.find("}", i)
            if end < 0:
                raise CheckError("a '{' without its '}' in the template", where.at_offset(i), ADVICE)
            field = text[i + 1:end]
            if not _NAME.match(field):
                raise CheckError(_malformed(field), where.at_offset(i), ADVICE)
            fields.append(field)
            i = end + 1
            continue
        i += 1
    return fields


def _malformed(field: str) -> str:
    if not field:
        return "an empty field '{}' in the template: name what goes there"
    if ":" in field or "!" in field:
        return f"'{{{field}}}': format specs and conversions are not part of the language"
    return f"'{{{field}}}' is no plain name"
