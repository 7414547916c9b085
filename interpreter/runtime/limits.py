"""The work and size budget of the language (docs/language.md, "Bounded execution").

These limits are part of the language's semantics, not of this implementation: a ruleset that
goes past one gets a located runtime error that names the limit, whatever engine runs it.

- whole numbers lie within ±2^63 (from -2^63 to 2^63 - 1);
- a list holds at most ``MAX_ITEMS`` items and a text at most ``MAX_TEXT`` characters;
- one statement runs at most ``MAX_ITERATIONS`` comprehension iterations, nested ones included;
- a ``repeat`` count is at most ``MAX_REPEAT`` (and the loop counts, it builds no list);
- the rules take at most ``MAX_STEPS`` steps between two decisions (interpreter/runtime/vm.py; a round of
  a loop run inside a generated block counts as one step), triggers nest at most
  ``MAX_TRIGGER_DEPTH`` deep and procedure calls at most ``MAX_CALL_DEPTH`` deep.

The checks sit where values grow (arithmetic, list concatenation, comprehensions, stores and loop
counts), each a comparison or two, so they cost little.
"""
from __future__ import annotations

from dsl.errors import RulesRuntimeError

INT_MIN = -(2 ** 63)
INT_MAX = 2 ** 63 - 1
MAX_ITEMS = 100_000
MAX_TEXT = 100_000
MAX_ITERATIONS = 1_000_000
MAX_REPEAT = 1_000_000
MAX_STEPS = 200_000
MAX_TRIGGER_DEPTH = 50
MAX_CALL_DEPTH = 200

_ADVICE = "docs/language.md, Bounded execution"


def number_too_large(value) -> RulesRuntimeError:
    return RulesRuntimeError("a whole number went out of range: whole numbers lie within ±2^63",
                             hint=f"keep numbers small ({_ADVICE})")


def checked_int(value):
    """``value`` if it is a whole number within ±2^63 (or no number at all)."""
    if type(value) is int and not INT_MIN <= value <= INT_MAX:
        raise number_too_large(value)
    return value


def checked_list(value):
    """``value`` if it is a list of at most MAX_ITEMS items (or no list)."""
    if type(value) is list and len(value) > MAX_ITEMS:
        raise RulesRuntimeError(f"a list grew past {MAX_ITEMS:,} items", hint=_ADVICE)
    return value


def checked_text(value):
    """``value`` if it is a text of at most MAX_TEXT characters (or no text)."""
    if type(value) is str and len(value) > MAX_TEXT:
        raise RulesRuntimeError(f"a text grew past {MAX_TEXT:,} characters", hint=_ADVICE)
    return value


def checked_value(value):
    """Any value the rules store: a number, list or text within its limit."""
    kind = type(value)
    if kind is int:
        if not INT_MIN <= value <= INT_MAX:
            raise number_too_large(value)
    elif kind is list:
        checked_list(value)
    elif kind is str:
        checked_text(value)
    return value


def too_many_iterations() -> RulesRuntimeError:
    return RulesRuntimeError(f"one statement ran more than {MAX_ITERATIONS:,} comprehension iterations",
                             hint=f"iterate over fewer items, or split the work over several statements ({_ADVICE})")


def int_out_of_range(value):
    """Raise the error of a whole number past ±2^63 (generated code checks in line and calls this)."""
    raise number_too_large(value)


def list_too_long(value):
    """Raise the error of a list past MAX_ITEMS (generated code checks in line and calls this)."""
    checked_list(value)


def iterations_exceeded():
    """Raise the error of a nest of comprehensions past MAX_ITERATIONS (generated code counts in line)."""
    raise too_many_iterations()


def checked_repeat(count):
    """A ``repeat`` count: a whole number of at most MAX_REPEAT (below 1: no round)."""
    if count > MAX_REPEAT:
        raise RulesRuntimeError(f"repeat {count}: a repeat count is at most {MAX_REPEAT:,}", hint=_ADVICE)
    return count
