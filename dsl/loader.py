"""The front of the pipeline: YAML with positions -> JSON Schema -> parse -> resolve and check.

``load_ruleset`` returns a checked :class:`dsl.ir.Ruleset` or raises :class:`ErrorList` with every
error found, each located at file, line and column.
"""
from __future__ import annotations

from pathlib import Path

from .errors import ErrorList, RulebookError
from .resolver import resolve
from .schema import schema_errors
from .variants import resolve_extends
from .yaml_loader import Document, load_yaml_file, load_yaml_text


def check_document(doc: Document, functions, effects, params=None, players=None):
    """Run the schema and the static checks over a loaded document."""
    errors = schema_errors(doc)
    if errors:
        raise ErrorList(errors)
    try:
        ruleset, errors = resolve(doc, functions, effects, params, players)
    except RulebookError as exc:
        raise ErrorList([exc]) from None
    if errors:
        errors.sort(key=lambda e: (e.position.line, e.position.column) if e.position else (0, 0))
        raise ErrorList(errors)
    return ruleset


def load_ruleset(path: str | Path, functions, effects, params=None, players=None, find=None, text=None):
    """Load, validate and check one ruleset file (or ``text``, as if it were that file, for an editor's
    unsaved buffer); a variant (``extends:``) is merged with its base, which ``find(name, folder)``
    locates."""
    try:
        doc = load_yaml_file(path) if text is None else load_yaml_text(text, str(path))
        if find is not None:
            doc = resolve_extends(doc, load_yaml_file, find)
    except RulebookError as exc:
        raise ErrorList([exc]) from None
    return check_document(doc, functions, effects, params, players)
