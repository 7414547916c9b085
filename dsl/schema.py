"""Stage 2: check a ruleset's structure against ``schemas/ruleset.schema.json`` (JSON Schema 2020-12).

A variant file (``extends:``) is checked against ``schemas/variant.schema.json`` by editors; the loader
checks it after merging it with its base, as a whole ruleset.

Every error is located at the line of the offending value (or key), and the best of the alternatives
of an ``anyOf`` is reported instead of all of them.
"""
from __future__ import annotations

import difflib
import json
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

import rulebook_data

from .errors import COMMA_HINT, SchemaError, cut_at_a_comma
from .yaml_loader import Document

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SCHEMAS_DIR = rulebook_data.SCHEMAS
SCHEMA_PATH = SCHEMAS_DIR / "ruleset.schema.json"
VARIANT_SCHEMA_PATH = SCHEMAS_DIR / "variant.schema.json"


@lru_cache(maxsize=None)
def _schema(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def ruleset_schema() -> dict:
    return _schema(SCHEMA_PATH)


@lru_cache(maxsize=None)
def validator(path: Path = SCHEMA_PATH) -> Draft202012Validator:
    """A validator for one of the schemas; the two refer to each other by file name."""
    from jsonschema import Draft202012Validator  # imported when first needed: a load from the cache does not
    from referencing import Registry, Resource
    registry = Registry().with_resources(
        (p.name, Resource.from_contents(_schema(p))) for p in (SCHEMA_PATH, VARIANT_SCHEMA_PATH))
    return Draft202012Validator(_schema(path), registry=registry)


def _path_name(path) -> str:
    parts = []
    for p in path:
        parts.append(f"[{p}]" if isinstance(p, int) else (f".{p}" if parts else str(p)))
    return "".join(parts) or "the top level"


def _deepest(error: ValidationError) -> ValidationError:
    from jsonschema.exceptions import best_match
    while error.context:
        intended = _intended_alternative(error)
        error = best_match(intended or error.context)
    return error


def _intended_alternative(error: ValidationError):
    """For an ``anyOf`` of mapping shapes (the statements), the errors of the shape whose required
    keys the mapping has, so the message speaks of that shape."""
    if not isinstance(error.instance, dict):
        return None
    for index, alternative in enumerate(error.validator_value or []):
        required = alternative.get("required") if isinstance(alternative, dict) else None
        if required and all(key in error.instance for key in required):
            return [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == index]
    return None


def _unknown_shape(doc: Document, error: ValidationError):
    """A mapping that fits none of the shapes of an ``anyOf`` because of a key none of them knows."""
    if error.validator != "anyOf" or not isinstance(error.instance, dict) or _intended_alternative(error):
        return None
    known = set()
    for alternative in error.validator_value:
        if isinstance(alternative, dict):
            known |= set(alternative.get("properties", {}))
    unknown = [key for key in error.instance if key not in known]
    if not known or not unknown:
        return None
    path = tuple(error.absolute_path)
    close = difflib.get_close_matches(unknown[0], sorted(known), n=1)
    hint = f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(sorted(known))}"
    if cut_at_a_comma(unknown[0]):
        hint = COMMA_HINT
    return SchemaError(f"unknown key '{unknown[0]}' in {_path_name(path)}",
                       doc.key_position(path + (unknown[0],)), hint)


def _to_schema_error(doc: Document, error: ValidationError) -> SchemaError:
    shape = _unknown_shape(doc, error)
    if shape is not None:
        return shape
    error = _deepest(error)
    path = tuple(error.absolute_path)
    where = _path_name(path)
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed] if isinstance(error.instance, dict) else []
        key = extra[0] if extra else None
        hint = None
        if key is not None:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"allowed keys: {', '.join(allowed)}"
            if cut_at_a_comma(key):
                hint = COMMA_HINT
            return SchemaError(f"unknown key '{key}' in {where}", doc.key_position(path + (key,)), hint)
    if error.validator == "required":
        return SchemaError(f"{where} misses a key: {error.message}", doc.key_position(path),
                           "add the missing key")
    if error.validator == "enum":
        choices = ", ".join(map(str, error.validator_value))
        return SchemaError(f"{where}: {error.instance!r} is not one of: {choices}", doc.position(path))
    if error.validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return SchemaError(f"{where} should be {expected}, not {type(error.instance).__name__}",
                           doc.position(path))
    if error.validator == "maxLength":
        return SchemaError(f"{where} is longer than {error.validator_value:,} characters", doc.position(path),
                           "shorten it")
    return SchemaError(f"{where}: {error.message}", doc.position(path))


MAX_SCHEMA_ERRORS = 50  # the validation stops after so many errors (a node repeated through aliases gives one each)


def schema_errors(doc: Document) -> list[SchemaError]:
    """The structural errors of a document (the first ``MAX_SCHEMA_ERRORS``), one per place in the
    file (a YAML node reused through aliases is reported once, at its anchor), in file order."""
    unique = {}
    for error in islice(validator().iter_errors(doc.data), MAX_SCHEMA_ERRORS):
        err = _to_schema_error(doc, error)
        unique.setdefault(err.position, err)
    return sorted(unique.values(), key=lambda e: (e.position.line, e.position.column))
