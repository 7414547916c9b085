"""Loaded games kept in the user's private cache folder (:mod:`dsl.cache`), so that loading a
ruleset again skips the pipeline.

One file per (ruleset file, parameters, player count), ``<key>.game``, holds the loaded
:class:`interpreter.game.Game` written by :mod:`interpreter.store.graph_codec` — the checked rules and the
compiled code: the generated functions with their code objects, the closures of the compiler with
the contents of their cells, the tables, the positions of every rule (runtime errors name the same
file, line and column). The key is a SHA-256 over the engine (the source of ``dsl/`` and
``interpreter/``'s modules, the grammar, the schemas, the versions of Python, lark and PyYAML), the
ruleset file's path and content, the parameters and the player count; the entry also lists every
other file read (the chain of ``extends:``) with the file its name resolved to and the SHA-256 of
its content, and is used only while each still resolves to the same file with the same content.

Safety: entries are read with ``marshal`` and rebuilt by calling the classes and functions they
name, which can run code. That is acceptable only because the cache folder is the user's own,
private (0700, checked on every use) and written by rulebook alone; nothing compiled is ever read
from anywhere else, and ruleset text is never compiled as code (the generated code comes from
``ast`` nodes, see :mod:`interpreter.codegen.generator`). A truncated, damaged or foreign entry is a miss (and
is rewritten), never an error. Only games that loaded are kept: a ruleset with errors is checked
again every time and fails the same way.

Off: ``RULEBOOK_NO_CACHE=1``, or ``load_game(..., cache=False)`` (games only).
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path

import yaml

from dsl import cache
from dsl.schema import SCHEMAS_DIR

from . import graph_codec

_ENGINE = Path(__file__).resolve().parents[2]  # the folder holding dsl/ and interpreter/
_ENGINE_FILES = tuple((_ENGINE, pattern) for pattern in (
    "dsl/*.py", "dsl/*.lark", "interpreter/*.py", "interpreter/compile/*.py", "interpreter/codegen/*.py",
    "interpreter/runtime/*.py", "interpreter/store/*.py")) + ((SCHEMAS_DIR.parent, "schemas/*.json"),)
_fingerprint = None


def engine_fingerprint() -> bytes:
    """A SHA-256 of what makes a compiled game: the engine's source and the Python that runs it (lark
    by its ``__init__.py``, which holds its version, so that a load from the cache imports no lark)."""
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256(cache.FORMAT)
        digest.update(f"{sys.implementation.name} {sys.version} PyYAML {yaml.__version__}".encode())
        digest.update(Path(importlib.util.find_spec("lark").origin).read_bytes())
        for base, pattern in _ENGINE_FILES:
            for path in sorted(base.glob(pattern)):
                digest.update(path.relative_to(base).as_posix().encode() + b"\0")
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
        """Keep ``game``; a game the encoder cannot write is simply not kept."""
        if self.entry is None:
            return
        try:
            payload = _dumps((self.bases, game))
        except Exception:  # noqa: BLE001
            return
        cache.write(self.entry, payload)


def _dumps(obj) -> bytes:
    return graph_codec.dumps(obj, graph_codec.known_objects(("dsl", "interpreter")))


def _loads(data: bytes):
    return graph_codec.loads(data)
