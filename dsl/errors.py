"""Errors of every stage of the pipeline.

One base class, :class:`RulebookError`; one subclass per stage.  Inner code raises errors without
a location; the stage that knows the file attaches ``file``, ``line`` and ``column`` (1-based).
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Position:
    """Where something stands in a ruleset file (1-based line and column)."""

    file: str
    line: int
    column: int
    # for a text spread over several lines: (offset in the text, line, column) where each line starts
    segments: tuple = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def shifted(self, offset: int) -> "Position":
        """The position ``offset`` characters further along the same line."""
        return Position(self.file, self.line, self.column + offset)

    def at_offset(self, offset: int) -> "Position":
        """The position of character ``offset`` of the text that starts here."""
        for start, line, column in reversed(self.segments):
            if offset >= start:
                return Position(self.file, line, column + offset - start)
        return self.shifted(offset)


COMMA_HINT = ("the text was probably cut at a comma by YAML: inside [ ... ] or { ... } put the whole "
              "statement or expression in quotes")


def cut_at_a_comma(text) -> bool:
    """Whether a text looks like the second half of an expression YAML split at a comma."""
    return isinstance(text, str) and (text.count(")") > text.count("(") or text.count("]") > text.count("["))


class RulebookError(Exception):
    """Base class of every error rulebook reports to a user."""

    stage = "error"

    def __init__(self, message: str, position: Position | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.position = position
        self.hint = hint

    def located(self, position: Position | None) -> "RulebookError":
        """Attach a position if the error has none yet; returns self."""
        if self.position is None and position is not None:
            self.position = position
        return self

    def __str__(self) -> str:
        where = f"{self.position}: " if self.position else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}{self.stage}: {self.message}{hint}"


class YamlError(RulebookError):
    """The file is not well-formed YAML, or uses a YAML feature rulesets may not use."""

    stage = "yaml error"


class SchemaError(RulebookError):
    """The YAML does not have the structure the JSON Schema of a ruleset describes."""

    stage = "schema error"


class ExpressionSyntaxError(RulebookError):
    """An expression or statement string does not parse."""

    stage = "syntax error"


class CheckError(RulebookError):
    """An undefined name, a type error, or another static problem found before running."""

    stage = "check error"


class Note(RulebookError):
    """Not an error: something the author may want to know, such as a name of the ruleset that hides a
    built-in of the same spelling.  A ruleset with notes is valid; ``rulebook validate --strict``
    counts them as errors."""

    stage = "note"


class ParameterError(RulebookError):
    """A parameter value given with --set or params= is unknown or out of range."""

    stage = "parameter error"


class RulesRuntimeError(RulebookError):
    """A ruleset failed while running: a runaway loop, a card taken from an empty pile, ..."""

    stage = "runtime error"


class IllegalActionError(RulebookError):
    """The action is not legal in this state; the state is unchanged."""

    stage = "illegal action"


class ErrorList(RulebookError):
    """Several errors found in one pass; ``errors`` holds them, best first."""

    stage = "errors"

    def __init__(self, errors: list[RulebookError]):
        super().__init__(f"{len(errors)} error(s)")
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)
