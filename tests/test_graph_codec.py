"""Writing a graph of objects as marshal records and reading it back (interpreter/store/graph_codec.py), the
format of the cache of loaded games: shapes pickle handles (cycles through lists, tuples, dicts and
objects, functions with their namespaces and cells, bound methods, slots, ``__setstate__``), objects
of the engine read back as the same objects, what cannot be written refused, and every shipped
ruleset (the four games under PyPy) playing the same after the round trip."""
from __future__ import annotations

import enum
import json
import operator
from dataclasses import dataclass

import pytest

from conftest import ON_PYPY, RULESETS, VARIANTS, digest
from dsl import registry
from interpreter import load_game
from interpreter.store import graph_codec
from interpreter.store import load_cache


def round_trip(root):
    return graph_codec.loads(graph_codec.dumps(root, graph_codec.known_objects(("dsl", "interpreter"))))


@dataclass(frozen=True)
class Point:
    x: int
    y: int


@dataclass(eq=False)
class Node:
    name: str
    links: list
    owner: object = None


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b

    def total(self):
        return self.a + self.b


class Counted:
    """A class that restores itself: the state it is given is what __getstate__ gave."""

    def __init__(self, items):
        self.items = list(items)

    def __getstate__(self):
        return {"packed": tuple(self.items)}

    def __setstate__(self, state):
        self.items = list(state["packed"]) + ["restored"]


class Colour(enum.Enum):
    RED = 1
    BLUE = 2


def test_cycles_through_objects_lists_tuples_and_dicts_keep_their_shape():
    a = Node("a", [])
    b = Node("b", [a], owner=a)
    a.links.append(b)
    a.links.append(a)
    pair = ([],)
    pair[0].append(pair)
    keyed = {Point(1, 2): b, "self": None}
    keyed["self"] = keyed
    loaded_a, loaded_pair, loaded_keyed = round_trip((a, pair, keyed))
    loaded_b = loaded_a.links[0]
    assert (loaded_a.name, loaded_b.name) == ("a", "b")
    assert loaded_a.links[1] is loaded_a and loaded_b.owner is loaded_a and loaded_b.links[0] is loaded_a
    assert loaded_pair[0][0] is loaded_pair
    assert loaded_keyed[Point(1, 2)] is not b and loaded_keyed[Point(1, 2)].name == "b"
    assert loaded_keyed["self"] is loaded_keyed


def test_shared_objects_stay_shared_and_plain_values_stay_equal():
    shared = [1, 2]
    data = {"twice": (shared, shared), "set": {1, "x"}, "frozen": frozenset({Point(0, 0)}),
            "numbers": (1, 2.5, 3j, True, None, b"raw", "text", -0.0), "empty": ((), [], {}, set())}
    loaded = round_trip(data)
    assert loaded["twice"][0] is loaded["twice"][1]
    assert loaded == {**data, "twice": ([1, 2], [1, 2])}
    assert type(loaded["numbers"][3]) is bool


def test_functions_keep_their_namespace_cells_defaults_and_recursion():
    namespace = {"__builtins__": __builtins__, "SCALE": 3}
    exec(compile("def scaled(x, *, by=2):\n    return x * SCALE * by\n", "<test>", "exec"), namespace)
    scaled = namespace["scaled"]
    scaled.note = "attribute"

    def countdown(n):
        return 0 if n == 0 else 1 + countdown(n - 1)

    def empty_cell():
        return later  # noqa: F821 — a cell never filled

    if False:  # noqa: SIM108 — keeps ``later`` a cell of empty_cell
        later = None
    loaded_scaled, loaded_countdown, loaded_empty, loaded_namespace = round_trip(
        (scaled, countdown, empty_cell, namespace))
    assert loaded_scaled(5) == 30 and loaded_scaled(5, by=1) == 15 and loaded_scaled.note == "attribute"
    assert loaded_scaled.__globals__ is loaded_namespace and loaded_namespace["scaled"] is loaded_scaled
    loaded_namespace["SCALE"] = 10
    assert loaded_scaled(1, by=1) == 10
    assert loaded_countdown(4) == 4 and loaded_countdown.__qualname__ == countdown.__qualname__
    with pytest.raises(NameError):
        loaded_empty()


def test_methods_slots_setstate_enums_and_importable_names():
    slotted = Slotted(2, 5)
    getter = operator.itemgetter(1, 0)
    loaded = round_trip((slotted.total, getter, Counted([1, 2]), Colour.BLUE, Point, len, json.dumps))
    total, loaded_getter, counted, colour, cls, length, dumps = loaded
    assert total() == 7 and isinstance(total.__self__, Slotted)
    assert loaded_getter(("a", "b")) == ("b", "a")
    assert counted.items == [1, 2, "restored"]
    assert colour is Colour.BLUE and cls is Point and length is len and dumps is json.dumps


def test_objects_of_the_engine_are_read_back_as_themselves():
    functions, required, loads = round_trip([registry.FUNCTIONS, registry.REQUIRED, graph_codec.loads])
    assert functions is registry.FUNCTIONS and required is registry.REQUIRED and loads is graph_codec.loads


def test_what_cannot_be_written_faithfully_is_refused():
    class Local:
        pass

    with pytest.raises(graph_codec.Unsupported):
        round_trip(Local)
    with pytest.raises(graph_codec.Unsupported):
        round_trip([1, Local()])


SHIPPED = [path for path in RULESETS + VARIANTS if not ON_PYPY or path.parent.name == "rulesets"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.stem)
def test_every_shipped_ruleset_is_written_and_plays_the_same_read_back(path):
    """Under PyPy only the four games: compiling every ruleset there takes minutes."""
    game = load_game(path, cache=False)
    payload = load_cache._dumps(([], game))
    bases, loaded = load_cache._loads(payload)
    assert bases == [] and loaded is not game
    assert digest(loaded) == digest(game)
