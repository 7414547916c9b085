"""The seeded generator of a game state: splitmix64 (Steele, Lea and Flood, 2014).

Its state is one 64-bit number ``z``; each step adds ``GOLDEN_GAMMA`` to it and mixes the sum into
an output (:func:`mixed`).  A state of the generator is plain data (a number in the game state's
JSON), and step ``k`` from ``z`` needs only ``z + k * GOLDEN_GAMMA``: many outputs can be made at once.

:func:`outputs` makes the ``count`` outputs a shuffle needs together, lane-parallel in one big
integer: lane ``k`` (128 bits wide) holds step ``k``'s value in its low 64 bits, so a product by a
64-bit constant never reaches the next lane, and bits a right shift brings down from the next lane
land above bit 64, where the mask clears them.  A dozen operations on one long number (done in C)
replace a dozen per output; the outputs are exactly those of :func:`mixed`, one step at a time.
"""
from __future__ import annotations

import functools
import struct

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15  # splitmix64's increment
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_LANE = 128


def mixed(z: int) -> int:
    """splitmix64's output for the generator state ``z``."""
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)


@functools.lru_cache(maxsize=64)
def _lanes(count: int):
    """For ``count`` lanes: a 1 in each lane, ``(k + 1) * GOLDEN_GAMMA`` in lane ``k`` (a lane of 128
    bits holds it), the low 64 bits of each lane, and the reader of the lanes' low halves."""
    ones = sum(1 << (_LANE * k) for k in range(count))
    steps = sum(((k + 1) * GOLDEN_GAMMA) << (_LANE * k) for k in range(count))
    return ones, steps, ones * MASK64, struct.Struct("<" + "Q8x" * count)


def outputs(z: int, count: int) -> tuple:
    """``(the next count outputs from generator state z, the state after them)``."""
    if count <= 0:
        return (), z
    ones, steps, low, reader = _lanes(count)
    x = (z * ones + steps) & low
    x = (x ^ (x >> 30)) & low
    x = (x * _MIX1) & low
    x = (x ^ (x >> 27)) & low
    x = (x * _MIX2) & low
    x = (x ^ (x >> 31)) & low
    return reader.unpack(x.to_bytes(16 * count, "little")), (z + count * GOLDEN_GAMMA) & MASK64
