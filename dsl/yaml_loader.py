"""Stage 1: read YAML into plain data and remember where every node stands.

Only the safe subset of YAML is read (``yaml.SafeLoader``, or its C twin ``yaml.CSafeLoader`` where
PyYAML was built with libyaml): no Python tags, no object construction.  Every input is bounded
before it can cost much: the file's size, its encoding (UTF-8) and characters, how deeply it
nests, how many nodes its aliases expand to, how long a text and how large a whole number may be.
Each of these is a located :class:`YamlError`, never a Python exception.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Position, YamlError

MAX_NODES = 200_000
MAX_DEPTH = 64  # mappings and lists inside each other
MAX_FILE_BYTES = 4_000_000
MAX_TEXT = 100_000  # characters of one text (the language's limit on texts)
INT_LIMIT = 2 ** 63  # whole numbers lie in [-2^63, 2^63)
# what YAML 1.1 allows in a file (besides these, no control character)
_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
_C_LOADER = getattr(yaml, "CSafeLoader", None)
# what no text of a ruleset may hold, even written as an escape ("\e"): C0 and C1 control
# characters but tab and newline, DEL, and the bidirectional overrides
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")

PathKey = tuple  # a JSON path: tuple of str keys and int indexes


@dataclass
class Document:
    """Plain data read from one YAML file, with the position of every value and key."""

    file: str
    data: Any
    positions: dict[PathKey, Position] = field(default_factory=dict)
    key_positions: dict[PathKey, Position] = field(default_factory=dict)
    quoted: dict[PathKey, int] = field(default_factory=dict)
    segments: dict[PathKey, tuple] = field(default_factory=dict)

    def position(self, path: PathKey) -> Position:
        """The position of the value at ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), Position(self.file, 1, 1))

    def key_position(self, path: PathKey) -> Position:
        """The position of the key that names ``path`` (falls back to the value's position)."""
        return self.key_positions.get(tuple(path)) or self.position(path)

    def text_position(self, path: PathKey) -> Position:
        """Where the text of a string value begins (after an opening quote); for a text over several
        lines, the position also knows where each line starts."""
        path = tuple(path)
        start = self.position(path).shifted(self.quoted.get(path, 0))
        segments = self.segments.get(path)
        if segments:
            line, column = segments[0][1], segments[0][2]
            return Position(start.file, line, column, segments)
        return start


def _mark_position(file: str, mark) -> Position:
    return Position(file, mark.line + 1, mark.column + 1)


class _Builder:
    def __init__(self, file: str, loader: yaml.SafeLoader, text: str):
        self.file = file
        self.loader = loader
        self.lines = text.splitlines()
        self.doc = Document(file, None)
        self.count = 0

    def build(self, node, path: PathKey) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise YamlError(f"the document expands to more than {MAX_NODES} nodes",
                            _mark_position(self.file, node.start_mark),
                            "remove aliases that repeat large parts of the document")
        self.doc.positions[path] = _mark_position(self.file, node.start_mark)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in PLAIN_TAGS:
            raise YamlError(f"the tag {node.tag} is not allowed", _mark_position(self.file, node.start_mark),
                            "rulesets may use plain YAML values only")
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        if node.style in ('"', "'"):
            self.doc.quoted[path] = 1
        if node.end_mark.line > node.start_mark.line:
            self.doc.segments[path] = self._segments(node)
        return self._scalar(node)

    def _scalar(self, node):
        where = _mark_position(self.file, node.start_mark)
        if len(node.value) > MAX_TEXT:
            raise YamlError(f"a text longer than {MAX_TEXT:,} characters", where,
                            "texts in a ruleset are at most that long (docs/language.md, Bounded execution)")
        try:
            value = self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise YamlError(str(exc).splitlines()[0], where, "rulesets may use plain YAML values only") from None
        except ValueError:  # Python refuses to convert an integer of thousands of digits
            value = INT_LIMIT
        if isinstance(value, str) and _CONTROL.search(value):
            raise _control_character(value, where)
        if isinstance(value, int) and not isinstance(value, bool) and not -INT_LIMIT <= value < INT_LIMIT:
            raise YamlError("the number is too large: whole numbers lie within ±2^63", where,
                            "use a smaller number (docs/language.md, Bounded execution)")
        return value

    def _segments(self, node) -> tuple:
        """Where each line of a text spread over several lines starts, as (offset in the value,
        line, column): the value joins its lines with one character (a space or a newline)."""
        block = node.style in ("|", ">")
        first = node.start_mark.line + (1 if block else 0)
        segments, offset = [], 0
        for number in range(first, min(node.end_mark.line + 1, len(self.lines))):
            raw = self.lines[number]
            if number == node.start_mark.line:
                start = node.start_mark.column + (1 if node.style in ('"', "'") else 0)
            else:
                start = len(raw) - len(raw.lstrip())
            text = raw[start:].rstrip()
            if not text:
                continue
            segments.append((offset, number + 1, start + 1))
            offset += len(text) + 1
        return tuple(segments)

    def _mapping(self, node, path: PathKey) -> dict:
        self.loader.flatten_mapping(node)
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlError("a key must be a plain word or number",
                                _mark_position(self.file, key_node.start_mark))
            key = key_node.value
            key_pos = _mark_position(self.file, key_node.start_mark)
            if len(key) > MAX_TEXT:
                raise YamlError(f"a key longer than {MAX_TEXT:,} characters", key_pos)
            if _CONTROL.search(key):
                raise _control_character(key, key_pos)
            if key in result:
                raise YamlError(f"duplicate key '{key}'", key_pos,
                                "each key may appear once in a mapping; remove or rename one")
            self.doc.key_positions[path + (key,)] = key_pos
            result[key] = self.build(value_node, path + (key,))
        return result


def _control_character(text: str, where: Position) -> YamlError:
    char = _CONTROL.search(text).group()
    return YamlError(f"the text holds the control character U+{ord(char):04X}", where,
                     "names and texts of a ruleset are shown in terminals and pages: write them without "
                     "control characters (escape sequences, bells, direction overrides)")


def _position_at(file: str, text: str, offset: int) -> Position:
    line = text.count("\n", 0, offset) + 1
    return Position(file, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def _check_characters(text: str, file: str) -> None:
    bad = _NOT_PRINTABLE.search(text)
    if bad:
        char = bad.group()
        raise YamlError(f"the file contains the control character U+{ord(char):04X}, which YAML does not allow",
                        _position_at(file, text, bad.start()),
                        "remove it: a ruleset is plain text (write it as \\u escape in a double-quoted text "
                        "if you need it)")


def _check_depth(text: str, file: str) -> None:
    """Refuse a document that nests deeper than MAX_DEPTH, reading its events only (no nodes)."""
    loader = _C_LOADER(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _too_deep(_mark_position(file, event.start_mark))
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    finally:
        loader.dispose()


def _too_deep(where: Position) -> YamlError:
    return YamlError(f"the document is nested too deeply (more than {MAX_DEPTH} levels)", where,
                     "flatten the structure: no ruleset needs that many levels")


class _DepthLimitedLoader(yaml.SafeLoader):
    """The pure-Python safe loader (where libyaml is missing), refusing deep nesting while composing."""

    depth = 0

    def compose_node(self, parent, index):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _too_deep(_mark_position(self.name, self.peek_event().start_mark))
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _loader(text: str, file: str):
    if _C_LOADER is not None:
        _check_depth(text, file)
        return _C_LOADER(text)
    loader = _DepthLimitedLoader(text)
    loader.name = file
    return loader


def load_yaml_text(text: str, file: str = "<string>") -> Document:
    """Read YAML text into a :class:`Document`."""
    _check_characters(text, file)
    loader = None
    try:
        loader = _loader(text, file)
        node = loader.get_single_node()
        if node is None:
            raise YamlError("the file is empty", Position(file, 1, 1),
                            "a ruleset is a YAML mapping with at least 'game' and 'flow'")
        builder = _Builder(file, loader, text)
        builder.doc.data = builder.build(node, ())
        return builder.doc
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _mark_position(file, mark) if mark else Position(file, 1, 1)
        if "maximum nesting depth" in str(exc.problem):  # newer libyaml's own limit, met before ours
            raise _too_deep(pos) from None
        if mark and text[mark.index:mark.index + 1] == "\t":  # libyaml and PyYAML word this differently
            raise YamlError("a tab character where YAML expects indentation or a value", pos,
                            "check indentation: YAML indents with spaces, not tabs") from None
        raise YamlError(f"{exc.problem or exc.context}", pos,
                        "check indentation, colons and quotes on this line") from None
    except yaml.YAMLError as exc:
        raise YamlError(str(exc).splitlines()[0], Position(file, 1, 1)) from None
    finally:
        if loader is not None:
            loader.dispose()


def decode_text(data: bytes, file: str) -> str:
    """The text of a file's bytes: UTF-8 (a leading byte order mark is dropped), at most
    MAX_FILE_BYTES long; otherwise a located YamlError."""
    if len(data) > MAX_FILE_BYTES:
        raise YamlError(f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB", Position(file, 1, 1),
                        "a ruleset is a text file of a few hundred kilobytes at most")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[:exc.start].decode("utf-8")
        raise YamlError(f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x})",
                        _position_at(file, good, len(good)), "save the file as UTF-8") from None
    return text[1:] if text.startswith("\ufeff") else text


def load_yaml_file(path: str | Path) -> Document:
    """Read a YAML file into a :class:`Document`."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as exc:
        raise YamlError(f"cannot read the file: {exc}", Position(str(path), 1, 1)) from None
    return load_yaml_text(decode_text(data, str(path)), str(path))
