"""The keyed playout policy: a seat picks the legal action with the smallest key, splitmix's mix of
the seat's next number and of a hash of the action itself (FNV-1a over its option's name and its
parameters' values).

A uniform pick takes ``legal[mixed(z) % len(legal)]``: after two different actions of a judged
seat the other seats' lists of legal actions may differ by one action, and then the same number
picks a different reply.  A keyed pick takes the same action whenever it is legal and still the
smallest key: every action a bot judges meets the same replies where they are possible (common
random numbers that survive a change of the lists).  Both engines compute the same keys: the kernel
from tables made here (:func:`text_key` of each option's name and of each text it numbers), the Python
engine (:func:`interpreter.native.reference.play_on`) from the actions themselves.
"""
from __future__ import annotations

import functools

from ..runtime.splitmix import GOLDEN_GAMMA, MASK64, mixed

FNV_OFFSET, FNV_PRIME = 0xCBF29CE484222325, 0x100000001B3
SEAT_STRIDE = 0xD1B54A32D192ED03  # between the seats' streams of numbers (odd)
LIST_KEY = 0x5BD1E9955BD1E995  # a parameter whose values are lists: the same key for all of them
INT_KINDS = ("int", "bool", "player", "component", "cell", "zone")


@functools.lru_cache(maxsize=4096)
def text_key(text: str) -> int:
    """A stable 64-bit number of a text (FNV-1a of its UTF-8 bytes): the same on every run, unlike
    Python's ``hash``."""
    h = FNV_OFFSET
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h


def kind_code(kind: str) -> int:
    """How a parameter's values enter the key: 0 the number itself, 1 a text's key, 2 :data:`LIST_KEY`."""
    return 0 if kind in INT_KINDS else 1 if kind == "str" else 2


def value_key(code: int, value) -> int:
    if code == 2:
        return LIST_KEY
    if code == 1 and isinstance(value, str):
        return text_key(value)
    return -1 & MASK64 if value is None else int(value) & MASK64


def action_key(z: int, action) -> int:
    """The key of ``action`` (a :class:`interpreter.runtime.actions.Action`) for the policy's number ``z``."""
    option = action.option
    h = text_key(option.name)
    for kind, value in zip(option.param_kinds, action.values):
        h = ((h ^ value_key(kind_code(kind), value)) * FNV_PRIME) & MASK64
    return mixed(z ^ h)


def seat_number(seed: int, seat: int, picks: int) -> int:
    """The number of ``seat``'s ``picks``-th keyed pick in a playout of policy seed ``seed``: each seat
    has a stream of its own, so a decision more or less of one seat (a judged action that makes
    another seat's choice forced) does not change the numbers of the others."""
    return (seed + SEAT_STRIDE * (seat + 1) + GOLDEN_GAMMA * picks) & MASK64


def keyed_pick(legal, z: int):
    """The legal action with the smallest key for the number ``z`` (the first of equal ones)."""
    best, chosen = None, None
    for action in legal:
        key = action_key(z, action)
        if best is None or key < best:
            best, chosen = key, action
    return chosen


def tables_source(tables) -> str:
    """The kernel's C tables of the keys: ``OPTKEY`` and ``OPTNP`` (its number of parameters) per
    option, ``OPTPKIND`` per option and parameter (:func:`kind_code`), ``TEXTKEY`` per text it numbers (``NTEXTS`` of them)."""
    width = max([len(kinds) for kinds in tables.param_kinds] + [1])
    rows = [[kind_code(kind) for kind in kinds] + [0] * (width - len(kinds)) for kinds in tables.param_kinds] or [[0]]
    keys = [text_key(option.name) for option in tables.options] or [0]
    texts = [text_key(text) for text in tables.texts] or [0]
    counts = [len(kinds) for kinds in tables.param_kinds] or [0]
    return (f"#define LIST_KEY {LIST_KEY}ULL\n#define FNV_PRIME {FNV_PRIME}ULL\n#define SEAT_STRIDE {SEAT_STRIDE}ULL\n"
            f"static const int64_t OPTNP[{len(counts)}] = {{{', '.join(map(str, counts))}}};\n"
            f"static const uint64_t OPTKEY[{len(keys)}] = {{{', '.join(f'{k}ULL' for k in keys)}}};\n"
            f"static const int64_t OPTPKIND[{len(rows)}][{width}] = "
            f"{{{', '.join('{' + ', '.join(map(str, row)) + '}' for row in rows)}}};\n"
            f"static const uint64_t TEXTKEY[{len(texts)}] = {{{', '.join(f'{k}ULL' for k in texts)}}};\n")
