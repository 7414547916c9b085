"""What the language server knows about one open file, without any protocol: the errors of the real
pipeline (the same as ``rulebook validate``), and hover texts, completions and definitions read from
the merged document (a variant merged with its base) and the registries of built-ins.

Positions here are rulebook's: lines and columns count from 1.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from dsl.checker import COMPONENT_PROPERTIES, PLAYER_PROPERTIES
from dsl.declarations import split_signature
from dsl.errors import ErrorList, Position, RulebookError
from dsl.registry import BUILTIN_NAMES, EFFECTS, FUNCTIONS
from dsl.schema import SCHEMA_PATH, VARIANT_SCHEMA_PATH
from dsl.variants import resolve_extends
from dsl.yaml_loader import Document, load_yaml_file, load_yaml_text

from ..bots import declared_bot
from ..game import find_base, load_game

BUILTIN = "builtin"  # builtin.NAME: the built-in, even where a name of the ruleset hides it
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NAMED_SECTIONS = (("zones", "zone"), ("vars", "variable"), ("player_vars", "variable of each player"),
                  ("params", "parameter"), ("components", "component kind"), ("actions", "action"))
SIGNATURE_SECTIONS = (("define", "definition"), ("procedures", "procedure"))


@dataclass
class Analysis:
    """One run of the pipeline over a file's text."""

    path: str
    errors: list = field(default_factory=list)
    doc: Document | None = None  # the merged document, when the YAML and the variant merge worked
    game: object = None  # the compiled game, when everything checked
    is_variant: bool = False
    text: str = ""
    notes: list = field(default_factory=list)  # dsl.errors.Note: names of the ruleset that hide built-ins


def analyse(text: str, path: str) -> Analysis:
    """Run the pipeline over ``text`` as the file ``path`` (an editor's buffer, saved or not)."""
    result = Analysis(str(path), text=text)
    try:
        own = load_yaml_text(text, str(path))
        result.is_variant = isinstance(own.data, dict) and "extends" in own.data
        result.doc = resolve_extends(own, load_yaml_file, find_base)
    except RulebookError:
        pass  # load_game reports it below, with every other error
    try:
        result.game = load_game(path, text=text)
        result.notes = list(result.game.ruleset.notes)
        declared_bot(result.game.ruleset, None)  # a bad bots: default: is an error at its line, as in validate
    except ErrorList as exc:
        result.errors = list(exc.errors)
    except RulebookError as exc:
        result.errors = [exc]
    return result


def problem_text(error: RulebookError) -> str:
    """An error as ``rulebook validate`` prints it, without the file:line:col in front."""
    hint = f" ({error.hint})" if error.hint else ""
    return f"{error.stage}: {error.message}{hint}"


def word_at(line: str, column: int):
    """The name around 1-based ``column`` of ``line`` and where it starts, or (None, column)."""
    index = column - 1
    for match in WORD.finditer(line):
        if match.start() <= index <= match.end():
            return match.group(), match.start() + 1
    return None, column


def builtin_qualified(line: str, start: int) -> bool:
    """Whether the name that starts at 1-based ``start`` of ``line`` is written ``builtin.NAME``."""
    return line[:start - 1].endswith(f"{BUILTIN}.")


# ---- hover -------------------------------------------------------------------------------------
def hover(analysis: Analysis, name: str, qualified: bool = False) -> str | None:
    """Markdown for a name as the checker resolves it: the ruleset's own declaration first (saying
    which built-in it hides), else a built-in's signature and doc; ``qualified`` (``builtin.NAME``)
    the built-in only."""
    if name == BUILTIN and not qualified:
        return (f"```\n{BUILTIN}.NAME\n```\nthe built-in NAME, even where a name of this ruleset "
                "hides it: `builtin.roll(6)`, `builtin.players`")
    own = None if qualified else _declared_hover(analysis, name)
    if own is not None:
        hidden = _builtin_hover(name)
        return own if hidden is None else f"{own}\n\nhides the built-in (write `{BUILTIN}.{name}` for it):\n{hidden}"
    return _builtin_hover(name)


def _builtin_hover(name: str) -> str | None:
    for registry, what in ((FUNCTIONS, "function"), (EFFECTS, "effect")):
        entry = registry.get(name)
        if entry is not None:
            return f"```\n{entry.signature()}\n```\n{what}: {entry.doc}"
    if name in BUILTIN_NAMES:
        entry = BUILTIN_NAMES[name]
        return f"```\n{name}: {entry.type}\n```\nbuilt-in name ({entry.where}): {entry.doc}"
    return None


def _declared_hover(analysis: Analysis, name: str) -> str | None:
    found = declaration(analysis, name)
    if found is None:
        return None
    section, key, what = found
    value = analysis.doc.data[section][key]
    if section in ("define", "procedures"):
        head = key if "(" in key else f"{key}()"
        body = value if isinstance(value, str) else f"{len(value)} statement(s)"
        return f"```\n{head}: {body}\n```\n{what}"
    detail = _short(value)
    description = value.get("description") if isinstance(value, dict) else None
    lines = [f"```\n{name}: {detail}\n```", what + _type_note(analysis, section, name)]
    if description:
        lines.append(str(description).strip())
    return "\n".join(lines)


def _type_note(analysis: Analysis, section: str, name: str) -> str:
    game = analysis.game
    if game is None:
        return ""
    table = {"vars": game.ruleset.vars, "player_vars": game.ruleset.player_vars}.get(section)
    if table and name in table:
        return f" of type {table[name].type}"
    if section == "params" and name in game.params:
        return f", {game.params[name]!r} in this game"
    return ""


def _short(value) -> str:
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k not in ("description", "table")}
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 120 else text[:117] + "..."


def declaration(analysis: Analysis, name: str):
    """``(section, key, what)`` of the declaration of ``name`` in the merged document, or None."""
    data = analysis.doc.data if analysis.doc is not None else None
    if not isinstance(data, dict):
        return None
    for section, what in NAMED_SECTIONS:
        if isinstance(data.get(section), dict) and name in data[section]:
            return section, name, what
    for section, what in SIGNATURE_SECTIONS:
        for key in (data.get(section) or {}) if isinstance(data.get(section), dict) else ():
            if split_signature(key)[0] == name:
                return section, key, what
    return None


# ---- go to definition --------------------------------------------------------------------------
def definition(analysis: Analysis, name: str) -> Position | None:
    """Where ``name`` is declared: in this file, or in the ruleset a variant extends."""
    found = declaration(analysis, name)
    if found is None:
        return None
    section, key, _ = found
    return analysis.doc.key_position((section, key))


# ---- completion --------------------------------------------------------------------------------
def completions(analysis: Analysis, line: str, column: int) -> list:
    """``(label, kind, detail)`` for what may be typed at 1-based ``column`` of ``line``; kind is
    one of key, attribute, name, function, effect."""
    before = line[:column - 1]
    dotted = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_0-9]*)$", before)
    if dotted and dotted.group(1) == BUILTIN:
        return _builtins()
    if dotted:
        return _attributes(analysis)
    stripped = before.lstrip(" -")
    if ":" not in before and "(" not in before and re.fullmatch(r"[A-Za-z_]*", stripped):
        indent = len(before) - len(before.lstrip(" "))
        keys = _keys(analysis, top=indent == 0 and not before.lstrip(" ").startswith("-"))
        if not _in_expression(before):
            return keys + _names(analysis) if indent else keys
    return _names(analysis)


def _in_expression(before: str) -> bool:
    return bool(re.search(r"[\"'(\[]", before))


def _attributes(analysis: Analysis) -> list:
    out = [(n, "attribute", "every component") for n in COMPONENT_PROPERTIES]
    out += [(n, "attribute", "every player") for n in PLAYER_PROPERTIES]
    data = analysis.doc.data if analysis.doc is not None and isinstance(analysis.doc.data, dict) else {}
    for kind, spec in (data.get("components") or {}).items():
        if isinstance(spec, dict):
            for attr in list(spec.get("attributes") or {}) + list(spec.get("marks") or {}):
                out.append((attr, "attribute", f"a {kind}"))
    for name in data.get("player_vars") or {}:
        out.append((name, "attribute", "variable of each player"))
    for name, spec in (data.get("zones") or {}).items():
        if isinstance(spec, dict) and spec.get("per"):
            out.append((name, "attribute", f"zone of each {spec['per']}"))
    return _unique(out)


def _keys(analysis: Analysis, top: bool) -> list:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    if top:
        source = json.loads(VARIANT_SCHEMA_PATH.read_text(encoding="utf-8")) if analysis.is_variant \
            else schema["$defs"]["ruleset"]
        return [(k, "key", "section") for k in source["properties"]]
    keys = set()
    for name, definition_ in schema["$defs"].items():
        if name != "ruleset":
            keys |= _property_names(definition_)
    return [(k, "key", "key") for k in sorted(keys)]


def _property_names(schema) -> set:
    names = set()
    if isinstance(schema, dict):
        names |= set(schema.get("properties") or {})
        for value in schema.values():
            names |= _property_names(value)
    elif isinstance(schema, list):
        for value in schema:
            names |= _property_names(value)
    return names


def _names(analysis: Analysis) -> list:
    out = []
    data = analysis.doc.data if analysis.doc is not None and isinstance(analysis.doc.data, dict) else {}
    for section, what in NAMED_SECTIONS[:4]:
        for name in data.get(section) or {}:
            out.append((name, "name", what))
    for section, what in SIGNATURE_SECTIONS:
        for key in data.get(section) or {}:
            name = split_signature(key)[0]
            if name:
                out.append((name, "name", f"{what} {key}"))
    out += [(n, "name", "local") for n in _locals(analysis, data)]
    return _unique(out + _builtins())


def _builtins() -> list:
    out = [(n, "name", f"built-in: {e.type}") for n, e in BUILTIN_NAMES.items()]
    out += [(n, "function", FUNCTIONS.get(n).signature()) for n in FUNCTIONS.names()]
    out += [(n, "effect", EFFECTS.get(n).signature()) for n in EFFECTS.names()]
    return out


LOCAL = re.compile(r"\blet\s+([A-Za-z_]\w*)\s*=|\b(?:for|simultaneous)\W+([A-Za-z_]\w*)\s+in\b")


def _locals(analysis: Analysis, data: dict) -> list:
    """Names bound inside rules: let, loop variables, option, procedure and definition parameters."""
    names = [a or b for a, b in LOCAL.findall(analysis.text)]
    for section in ("procedures", "define"):
        for key in data.get(section) or {}:
            names += split_signature(key)[1]
    todo = [(k, v) for k, v in data.items() if k != "params"]
    while todo:
        key, value = todo.pop()
        if key == "params" and isinstance(value, dict):
            names += list(value)
        if isinstance(value, dict):
            todo += list(value.items())
        elif isinstance(value, list):
            todo += [(None, v) for v in value]
    return names


def _unique(items: list) -> list:
    seen, out = set(), []
    for item in items:
        if item[0] not in seen:
            seen.add(item[0])
            out.append(item)
    return out

