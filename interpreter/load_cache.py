"""Loaded games kept in the user's private cache folder (:mod:`dsl.cache`), so that loading a
ruleset again skips the pipeline.

One file per (ruleset file, parameters, player count), ``<key>.game``, holds the loaded
:class:`interpreter.game.Game` — the checked rules and the compiled code: the generated functions as
marshaled code objects, the closures of the compiler with the contents of their cells, the tables,
the positions of every rule (runtime errors name the same file, line and column).  The key is a
SHA-256 over the engine (the source of ``dsl/`` and ``interpreter/``'s modules, the grammar, the
schemas, the versions of Python, lark and PyYAML), the ruleset file's path and content, the
parameters and the player count; the entry also lists every other file read (the chain of
``extends:``) with the file its name resolved to and the SHA-256 of its content, and is used only
while each still resolves to the same file with the same content.

Safety: entries are read with ``pickle`` and ``marshal``, which can run code.  That is acceptable
only because the cache folder is the user's own, private (0700, checked on every use) and written
by rulebook alone; nothing compiled is ever read from anywhere else, and ruleset text is never
compiled as code (the generated code comes from ``ast`` nodes, see :mod:`interpreter.codegen`).
A truncated, damaged or foreign entry is a miss (and is rewritten), never an error.  Only games
that loaded are kept: a ruleset with errors is checked again every time and fails the same way.

Off: ``RULEBOOK_NO_CACHE=1``, or ``load_game(..., cache=False)`` (games only).
"""
from __future__ import annotations

import hashlib
import importlib
import io
import json
import marshal
import os
import pickle
import sys
import types
from pathlib import Path

import lark
import yaml

from dsl import cache

_ENGINE = Path(__file__).resolve().parent.parent
_ENGINE_FILES = ("dsl/*.py", "dsl/*.lark", "interpreter/*.py", "schemas/*.json")
_SCALARS = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset, type, types.ModuleType)
_fingerprint = None


def engine_fingerprint() -> bytes:
    """A SHA-256 of what makes a compiled game: the engine's source and the Python that runs it."""
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256(cache.FORMAT)
        digest.update(f"{sys.implementation.name} {sys.version} lark {lark.__version__} "
                      f"PyYAML {yaml.__version__}".encode())
        for pattern in _ENGINE_FILES:
            for path in sorted(_ENGINE.glob(pattern)):
                digest.update(path.relative_to(_ENGINE).as_posix().encode() + b"\0")
                digest.update(hashlib.sha256(path.read_bytes()).digest())
        _fingerprint = digest.digest()
    return _fingerprint


class Store:
    """The cache entry of one load: its file, and the files the load read besides the ruleset."""

    def __init__(self, folder: Path, path, params, players):
        try:
            arguments = json.dumps([str(path), os.path.abspath(path), params, players], sort_keys=True)
        except (TypeError, ValueError):  # parameters that are not plain data: no key for them
            raise OSError("no key") from None
        digest = hashlib.sha256(engine_fingerprint())
        digest.update(arguments.encode())
        digest.update(cache.file_digest(path).encode())
        self.entry = folder / f"{digest.hexdigest()}.game"
        self.bases: list = []  # (name, folder, file found, SHA-256 of its content) per extends

    @classmethod
    def open(cls, path, params, players, use: bool = True):
        """The store for loading ``path``, or None when the cache is off or cannot be used."""
        folder = cache.cache_folder() if use else None
        if folder is None:
            return None
        try:
            return cls(folder, path, params, players)
        except OSError:
            return None

    def recording(self, find):
        """``find`` (which locates the base of an ``extends:``), noting what it found."""
        def find_and_note(name, folder):
            found = find(name, folder)
            if found is not None:
                try:
                    self.bases.append((name, str(folder), str(found), cache.file_digest(found)))
                except OSError:  # not kept: the loader says what is wrong with the file
                    self.entry = None
            return found
        return find_and_note

    def get(self, find):
        """The game kept for this key, or None (no entry, a changed base, an unreadable entry)."""
        payload = cache.read(self.entry)
        if payload is None:
            return None
        try:
            bases, game = _loads(payload)
            for name, folder, found, digest in bases:
                if str(find(name, Path(folder))) != found or cache.file_digest(found) != digest:
                    return None
        except Exception:  # noqa: BLE001 — an entry of another engine or a damaged one is a miss
            return None
        return game

    def put(self, game) -> None:
        """Keep ``game``; a game the pickler cannot write is simply not kept."""
        if self.entry is None:
            return
        try:
            payload = _dumps((self.bases, game))
        except Exception:  # noqa: BLE001
            return
        cache.write(self.entry, payload)


# ---- pickling compiled code -----------------------------------------------------------------------
# Functions made at run time (the compiler's closures, the generated functions) are written by value:
# their code marshaled, their cells with their contents, their globals a module (by name) or a
# namespace of generated code (written once, after the game, so that references between functions
# and namespaces are restored with each object made once).  Objects of the engine's modules (the
# registries, constants, sentinels) are written by name, so that the loaded game shares them as a
# game compiled in this process does.

def _module_objects() -> dict:
    table = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (name.split(".")[0] in ("dsl", "interpreter")):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, _SCALARS) or attr.startswith("__"):
                continue
            table.setdefault(id(value), (value, ("g", name, attr)))
            if isinstance(value, dict):
                for key, item in value.items():
                    if isinstance(key, str) and not isinstance(item, _SCALARS):
                        table.setdefault(id(item), (item, ("i", name, attr, key)))
    return table


class _Pickler(pickle.Pickler):
    def __init__(self, file):
        super().__init__(file, protocol=4)
        self.objects = _module_objects()
        self.namespaces: list = []
        self.namespace_ids: dict = {}

    def persistent_id(self, obj):
        found = self.objects.get(id(obj))
        if found is not None and found[0] is obj:
            return found[1]
        if type(obj) is dict and "__builtins__" in obj:
            name = obj.get("__name__")
            if isinstance(name, str) and getattr(sys.modules.get(name), "__dict__", None) is obj:
                return ("m", name)
            number = self.namespace_ids.get(id(obj))
            if number is None:
                number = self.namespace_ids[id(obj)] = len(self.namespaces)
                self.namespaces.append(obj)
            return ("n", number)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, types.FunctionType):
            return self._function(obj)
        if isinstance(obj, types.CodeType):
            return marshal.loads, (marshal.dumps(obj),)
        if isinstance(obj, types.CellType):
            try:
                contents = (obj.cell_contents,)
            except ValueError:  # an empty cell
                contents = ()
            return _empty_cell, (), contents, None, None, _fill_cell
        if isinstance(obj, types.ModuleType):
            return importlib.import_module, (obj.__name__,)
        return NotImplemented

    def _function(self, f):
        if type(f.__globals__) is not dict:  # PyPy: a built-in such as object.__new__, pickled by name
            return NotImplemented
        module = sys.modules.get(f.__module__)
        found = module
        for part in f.__qualname__.split("."):
            found = getattr(found, part, None)
        if found is f:
            return NotImplemented  # importable by name
        state = (f.__defaults__, f.__kwdefaults__, f.__qualname__, f.__module__, f.__dict__ or None)
        return _function, (f.__code__, f.__globals__, f.__name__, f.__closure__), state, None, None, _fill_function

    def namespace_items(self):
        """The contents of the namespaces met so far (more may be met while they are written)."""
        number = 0
        while number < len(self.namespaces):
            yield list(self.namespaces[number].items())
            number += 1


class _Trailer:
    def __init__(self, pickler):
        self.pickler = pickler

    def __reduce__(self):
        return list, (), None, self.pickler.namespace_items()


def _function(code, globals_, name, closure):
    return types.FunctionType(code, globals_, name, None, closure)


def _fill_function(f, state):
    f.__defaults__, f.__kwdefaults__, f.__qualname__, f.__module__, attributes = state
    if attributes:
        f.__dict__.update(attributes)


def _empty_cell():
    return types.CellType()


def _fill_cell(cell, contents):
    if contents:
        cell.cell_contents = contents[0]


class _Unpickler(pickle.Unpickler):
    def __init__(self, file):
        super().__init__(file)
        self.namespaces: dict = {}

    def persistent_load(self, pid):
        kind = pid[0]
        if kind == "n":
            return self.namespaces.setdefault(pid[1], {})
        module = sys.modules.get(pid[1]) or importlib.import_module(pid[1])
        if kind == "m":
            return module.__dict__
        value = getattr(module, pid[2])
        return value if kind == "g" else value[pid[3]]


def _dumps(obj) -> bytes:
    buffer = io.BytesIO()
    pickler = _Pickler(buffer)
    pickler.dump((obj, _Trailer(pickler)))
    return buffer.getvalue()


def _loads(data: bytes):
    unpickler = _Unpickler(io.BytesIO(data))
    obj, namespaces = unpickler.load()
    for number, items in enumerate(namespaces):
        unpickler.namespaces.setdefault(number, {}).update(items)
    return obj

