"""Stage 1: read YAML into plain data and remember where every node stands.

Only the safe subset of YAML is read (``yaml.SafeLoader``): no Python tags, no object construction.
Duplicate keys are an error, and so is a document that expands into an absurd number of nodes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import Position, YamlError

MAX_NODES = 200_000
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
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise YamlError(str(exc).splitlines()[0], _mark_position(self.file, node.start_mark),
                            "rulesets may use plain YAML values only") from None

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
            if key in result:
                raise YamlError(f"duplicate key '{key}'", key_pos,
                                "each key may appear once in a mapping; remove or rename one")
            self.doc.key_positions[path + (key,)] = key_pos
            result[key] = self.build(value_node, path + (key,))
        return result


def load_yaml_text(text: str, file: str = "<string>") -> Document:
    """Read YAML text into a :class:`Document`."""
    loader = yaml.SafeLoader(text)
    try:
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
        raise YamlError(f"{exc.problem or exc.context}", pos,
                        "check indentation, colons and quotes on this line") from None
    except yaml.YAMLError as exc:
        raise YamlError(str(exc), Position(file, 1, 1)) from None
    finally:
        loader.dispose()


def load_yaml_file(path: str | Path) -> Document:
    """Read a YAML file into a :class:`Document`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise YamlError(f"cannot read the file: {exc}", Position(str(path), 1, 1)) from None
    return load_yaml_text(text, str(path))
