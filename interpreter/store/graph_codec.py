"""A graph of objects — a loaded game with its compiled code — written as records of plain data
that :mod:`marshal` reads, for the cache of loaded games (:mod:`interpreter.store.load_cache`).

Why not ``pickle``: PyPy has no C accelerator for it, and reading the four shipped games back took
a quarter of a second there in pickle's loop of Python, one step per opcode.  Here ``marshal`` (in
C, or RPython, on both) reads strings, numbers, tuples of them and code objects, and one loop of
Python makes only what marshal cannot: the objects, the containers that hold them, functions and
cells.  It asks objects how to write them as pickle does (``__reduce_ex__``, ``copyreg``), so
that what pickle can write this can too:

- every value is written *inline* (an atom — number, text, bytes, None, code — or a tuple or
  frozenset of inline values) or as a *reference*, the row of the table the object was made in;
  a sequence of values is ``items`` and ``refs``, the positions of ``items`` that are references;
- a record either makes an object (the next row of the table) or fills one made before; an object
  with a state is made after what its state holds, by one record, unless it is reached again from
  there (a cycle): then it is made at that point and filled by a second record once its state is
  written; what a tuple or a call is made from is made before it; the namespace and cells of a
  function are made empty, the function made, then they are filled, so that a function reached
  again from its own cells or namespace is the same object;
- objects of the engine's own modules (registries, sentinels, constants) are written by name
  (``known``), so that a loaded game shares them as a game compiled in the process does; classes
  and functions that can be imported are written by module and name; a function made at run time
  (the compiler's closures, the generated code) by value: its code, namespace, cells and defaults.

What the encoder cannot write faithfully raises :class:`Unsupported` (the game is then not kept).
Reading calls what the records name (classes, ``getattr``, constructors): the data must come from a
trusted place — here, the user's private cache folder written by rulebook alone.
"""
from __future__ import annotations

import copyreg
import importlib
import marshal
import pickle
import sys
import types

_ATOMS = frozenset({int, float, complex, str, bytes, bool, type(None), types.CodeType})
_SCALARS = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset, type, types.ModuleType)

# record kinds: made (a new row of the table) ...
OBJECT, OBJECT_STATE, TUPLE, FROZENSET, DATA, LIST, DICT, SET = range(8)
CALL, GLOBAL, KNOWN, MODULE_DICT, MODULE, FUNCTION, CELL = range(8, 15)
# ... and filled (an existing row)
ATTRS, SLOTS, SETSTATE, EXTEND, SETITEMS, ADD, FUNCTION_STATE, CELL_CONTENTS = range(15, 23)


class Unsupported(Exception):
    """An object the encoder cannot write so that reading it back gives the same."""


def known_objects(packages) -> dict:
    """``id -> (object, name)`` of the objects of the modules of ``packages`` (and of their dicts'
    entries) that are not plain values: written by name, read back as the same object."""
    table = {}
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] not in packages:
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, _SCALARS) or attr.startswith("__"):
                continue
            table.setdefault(id(value), (value, (name, attr, None)))
            if isinstance(value, dict):
                for key, item in value.items():
                    if isinstance(key, str) and not isinstance(item, _SCALARS):
                        table.setdefault(id(item), (item, (name, attr, key)))
    return table


def dumps(root, known: dict) -> bytes:
    encoder = _Encoder(known)
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, 20000))
    try:
        items, refs = encoder.values((root,))
    finally:
        sys.setrecursionlimit(previous)
    return marshal.dumps((encoder.records, items, refs))


def loads(data: bytes):
    records, items, refs = marshal.loads(data)
    table: list = []
    make = table.append
    for record in records:
        kind = record[0]
        if kind == OBJECT_STATE:
            cls = table[record[1]]
            obj = cls.__new__(cls)
            obj.__dict__.update(zip(record[2], _resolved(record[3], record[4], table)))
            make(obj)
        elif kind == DATA:
            make(record[1])
        elif kind == TUPLE:
            make(tuple(_resolved(record[1], record[2], table)))
        elif kind == OBJECT:
            cls = table[record[1]]
            make(cls.__new__(cls))
        elif kind == FROZENSET:
            make(frozenset(_resolved(record[1], record[2], table)))
        elif kind < CALL:
            make([] if kind == LIST else {} if kind == DICT else set())
        elif kind < ATTRS:
            make(_made(kind, record, table))
        else:
            _fill(kind, table[record[1]], _resolved(record[2], record[3], table), record, table)
    return _resolved(items, refs, table)[0]


def _resolved(values, where, table):
    if where:
        values = list(values)
        for k in where:
            values[k] = table[values[k]]
    return values


def _made(kind, record, table):
    if kind == CALL:
        return table[record[1]](*_resolved(record[2], record[3], table))
    if kind == GLOBAL:
        return _attribute_path(_module(record[1]), record[2])
    if kind == KNOWN:
        value = getattr(_module(record[1]), record[2])
        return value if record[3] is None else value[record[3]]
    if kind == MODULE_DICT:
        return _module(record[1]).__dict__
    if kind == MODULE:
        return _module(record[1])
    if kind == FUNCTION:
        return types.FunctionType(record[1], table[record[2]], record[3], None,
                                  tuple(table[k] for k in record[4]) or None)
    return types.CellType()


def _fill(kind, obj, values, record, table):
    if kind == ATTRS:
        obj.__dict__.update(zip(record[4], values))
    elif kind == SLOTS:
        for name, value in zip(record[4], values):
            setattr(obj, name, value)
    elif kind == SETSTATE:
        obj.__setstate__(values[0])
    elif kind == EXTEND:
        obj.extend(values)
    elif kind == SETITEMS:
        obj.update(zip(_resolved(record[4], record[5], table), values))
    elif kind == ADD:
        obj.update(values)
    elif kind == FUNCTION_STATE:
        obj.__defaults__, obj.__kwdefaults__, obj.__qualname__, obj.__module__, attributes = values
        if attributes:
            obj.__dict__.update(attributes)
    else:
        obj.cell_contents = values[0]


def _module(name):
    return sys.modules.get(name) or importlib.import_module(name)


def _attribute_path(found, qualname: str):
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def _importable(obj, module: str, qualname: str) -> bool:
    """Whether ``obj`` is what ``module.qualname`` names in a module already imported."""
    try:
        return _attribute_path(sys.modules.get(module), qualname) is obj
    except AttributeError:
        return False


class _Encoder:
    def __init__(self, known):
        self.known = known
        self.records: list = []
        self.memo: dict = {}  # id -> row
        self.alive: list = []  # objects made while writing (reductions): their ids stay theirs
        self.unmade: dict = {}  # id -> row of the class, of objects whose state is being written
        self.names: dict = {}  # one tuple per distinct tuple of names, which marshal writes once

    def values(self, seq):
        items, refs = [], []
        for k, value in enumerate(seq):
            if self.inline(value):
                items.append(value)
            else:
                items.append(self.save(value))
                refs.append(k)
        return tuple(items), tuple(refs)

    def inline(self, value) -> bool:
        kind = type(value)
        if kind in _ATOMS:
            return True
        if kind is tuple or kind is frozenset:
            return all(self.inline(item) for item in value)
        return False

    def names_of(self, mapping) -> tuple:
        """The keys of ``mapping`` as the one tuple kept for them (marshal writes it once)."""
        names = tuple(mapping)
        return self.names.setdefault(names, names)

    def make(self, obj, record) -> int:
        row = self.memo[id(obj)] = len(self.memo)
        self.alive.append(obj)
        self.records.append(record)
        return row

    def save(self, obj) -> int:
        row = self.memo.get(id(obj))
        if row is not None:
            return row
        found = self.known.get(id(obj))
        if found is not None and found[0] is obj:
            return self.make(obj, (KNOWN,) + found[1])
        cls = self.unmade.get(id(obj))
        if cls is not None:  # reached again while its state is written: made now, filled after
            return self.make(obj, (OBJECT, cls))
        kind = type(obj)
        if kind is tuple or kind is frozenset:
            items, refs = self.values(obj)
            row = self.memo.get(id(obj))  # reached again through its own items
            if row is not None:
                return row
            return self.make(obj, (TUPLE if kind is tuple else FROZENSET, items, refs))
        if kind is list or kind is dict or kind is set:
            return self.container(obj, kind)
        if kind is types.FunctionType:
            return self.function(obj)
        if kind is types.CellType:
            row = self.make(obj, (CELL,))
            self.fill_cell(obj, row)
            return row
        if kind is types.ModuleType:
            return self.make(obj, (MODULE, obj.__name__))
        if isinstance(obj, type) or (kind is types.BuiltinFunctionType
                                     and isinstance(getattr(obj, "__self__", None), (types.ModuleType, type(None)))):
            return self.global_(obj)
        return self.reduced(obj)

    def container(self, obj, kind) -> int:
        if kind is dict and not self.user_namespace(obj):
            return self.make(obj, (MODULE_DICT, obj["__name__"]))
        if all(self.inline(item) for item in (obj.items() if kind is dict else obj)):
            return self.make(obj, (DATA, kind(obj)))
        row = self.make(obj, (LIST if kind is list else DICT if kind is dict else SET,))
        self.fill_container(obj, kind, row)
        return row

    def fill_container(self, obj, kind, row) -> None:
        if kind is list:
            self.records.append((EXTEND, row) + self.values(obj))
        elif kind is set:
            self.records.append((ADD, row) + self.values(obj))
        else:
            values, value_refs = self.values(list(obj.values()))
            keys, key_refs = self.values(list(obj))
            self.records.append((SETITEMS, row, values, value_refs, keys, key_refs))

    def fill_cell(self, cell, row) -> None:
        try:
            contents = cell.cell_contents
        except ValueError:  # an empty cell
            return
        self.records.append((CELL_CONTENTS, row) + self.values((contents,)))

    def global_(self, obj, name=None) -> int:
        name = name or getattr(obj, "__qualname__", None) or obj.__name__
        module = pickle.whichmodule(obj, name)
        if not _importable(obj, module, name):
            raise Unsupported(f"{obj!r} is not importable as {module}.{name}")
        return self.make(obj, (GLOBAL, module, name))

    def function(self, f) -> int:
        if _importable(f, f.__module__, f.__qualname__):
            return self.make(f, (GLOBAL, f.__module__, f.__qualname__))
        if type(f.__globals__) is not dict:  # PyPy: a built-in such as object.__new__
            return self.global_(f)
        shells = []  # made empty before the function, filled after it
        namespace = self.shell(f.__globals__, shells)
        cells = tuple(self.shell(cell, shells) for cell in f.__closure__ or ())
        row = self.make(f, (FUNCTION, f.__code__, namespace, f.__name__, cells))
        for obj, kind, shell_row in shells:
            if kind is types.CellType:
                self.fill_cell(obj, shell_row)
            else:
                self.fill_container(obj, kind, shell_row)
        state = (f.__defaults__, f.__kwdefaults__, f.__qualname__, f.__module__, f.__dict__ or None)
        self.records.append((FUNCTION_STATE, row) + self.values(state))
        return row

    def shell(self, obj, shells) -> int:
        row = self.memo.get(id(obj))
        if row is not None:
            return row
        kind = type(obj)
        if kind is types.CellType:
            row = self.make(obj, (CELL,))
        elif kind is dict and not self.user_namespace(obj):
            return self.save(obj)
        elif kind is dict:
            row = self.make(obj, (DICT,))
        else:
            raise Unsupported(f"a function's namespace of type {kind.__name__}")
        shells.append((obj, kind, row))
        return row

    @staticmethod
    def user_namespace(namespace) -> bool:
        """Whether a dict is no module's namespace (a module's is written by the module's name)."""
        name = namespace.get("__name__")
        return not (isinstance(name, str) and getattr(sys.modules.get(name), "__dict__", None) is namespace)

    def reduced(self, obj) -> int:
        reduction = copyreg.dispatch_table.get(type(obj))
        reduction = reduction(obj) if reduction else obj.__reduce_ex__(4)
        if isinstance(reduction, str):
            return self.global_(obj, reduction)
        self.alive.append(reduction)
        call, args, state, listitems, dictitems = (tuple(reduction) + (None,) * 5)[:5]
        if len(reduction) > 5 and reduction[5] is not None:
            raise Unsupported(f"{type(obj).__name__} has a state setter of its own")
        if call is copyreg.__newobj__ and len(args) == 1 and args[0] is type(obj):
            cls = self.save(args[0])
            if type(state) is dict and listitems is None and dictitems is None and not hasattr(obj, "__setstate__"):
                return self.object_with_state(obj, cls, state)
            row = self.make(obj, (OBJECT, cls))
        else:
            function = self.save(call)
            items, refs = self.values(args)
            if id(obj) in self.memo:  # reached again through its own arguments
                return self.memo[id(obj)]
            row = self.make(obj, (CALL, function, items, refs))
        if listitems is not None:
            self.records.append((EXTEND, row) + self.values(list(listitems)))
        if dictitems is not None:
            pairs = list(dictitems)
            values, value_refs = self.values([value for _, value in pairs])
            keys, key_refs = self.values([key for key, _ in pairs])
            self.records.append((SETITEMS, row, values, value_refs, keys, key_refs))
        if state is not None:
            self.state(obj, row, state)
        return row

    def object_with_state(self, obj, cls, state) -> int:
        """An object of ``cls`` (a row) made and filled by one record after what its state holds, or,
        when it is reached again from there, made then and filled by a second record."""
        names = self.names_of(state)
        self.unmade[id(obj)] = cls
        try:
            values, refs = self.values(tuple(state.values()))
        finally:
            del self.unmade[id(obj)]
        row = self.memo.get(id(obj))
        if row is None:
            return self.make(obj, (OBJECT_STATE, cls, names, values, refs))
        self.records.append((ATTRS, row, values, refs, names))
        return row

    def state(self, obj, row, state) -> None:
        if hasattr(obj, "__setstate__"):
            self.records.append((SETSTATE, row) + self.values((state,)))
            return
        slots = None
        if type(state) is tuple and len(state) == 2:
            state, slots = state
        if state:
            self.records.append((ATTRS, row) + self.values(tuple(state.values())) + (self.names_of(state),))
        if slots:
            self.records.append((SLOTS, row) + self.values(tuple(slots.values())) + (self.names_of(slots),))
