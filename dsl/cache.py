"""The user's private cache folder, where loading keeps what it built to start faster next time.

Where: ``$XDG_CACHE_HOME/rulebook`` (else ``~/.cache/rulebook``), created with mode 0700.  A folder
that is a symbolic link or no folder, is not owned by the user, or that the group or others may
write in is not used: everything still works without it, and a warning says why (once).

What lives there: the parser built from the grammar (``grammar-<key>.lark``, :mod:`dsl.parser`) and
loaded games (``<key>.game``, :mod:`interpreter.store.load_cache`).  Each file starts with a format line
and a SHA-256 of the rest: :func:`read` gives None for a file that is missing, truncated or damaged,
so a bad entry is a miss (built again and rewritten), never an error.  Writes are atomic (a
temporary file in the folder, then ``os.replace``); past :data:`MAX_BYTES` the least recently used
files go.  The entries are read with ``pickle`` (the parser, lark's own format) and ``marshal``
(games, rebuilt by calling the classes they name), which can run code: that is acceptable only because
this folder is the user's own, private (checked on every use) and written by rulebook alone; nothing
compiled is ever read from anywhere else.

Off: ``RULEBOOK_NO_CACHE=1`` (any value but ``0``).  Clear it: delete the folder
(``rm -rf ~/.cache/rulebook``).
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import warnings
from pathlib import Path

from .yaml_loader import MAX_FILE_BYTES

FORMAT = b"rulebook-cache 1\n"
MAX_BYTES = 64 * 1024 * 1024
SUFFIXES = (".game", ".lark")
_warned: set = set()


def cache_off() -> bool:
    """Whether the environment turns the cache off (``RULEBOOK_NO_CACHE`` set, and not ``0``)."""
    return os.environ.get("RULEBOOK_NO_CACHE", "") not in ("", "0")


def cache_folder():
    """The private cache folder (created if missing); None when the cache is off or the folder
    cannot be used safely."""
    if cache_off() or not hasattr(os, "getuid"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "rulebook"
    try:
        if not os.path.lexists(folder):
            os.makedirs(folder.parent, mode=0o700, exist_ok=True)
            os.mkdir(folder, 0o700)
        info = os.lstat(folder)
    except OSError as exc:
        return _refuse(folder, f"it cannot be made or read ({exc.strerror or exc})")
    if not stat.S_ISDIR(info.st_mode):
        return _refuse(folder, "it is no folder (a symbolic link or a file)")
    if info.st_uid != os.getuid():
        return _refuse(folder, "it belongs to another user")
    if info.st_mode & 0o022:
        return _refuse(folder, "others may write in it (chmod 700 it)")
    return folder


def _refuse(folder, why):
    if str(folder) not in _warned:
        _warned.add(str(folder))
        warnings.warn(f"rulebook does not use the cache folder {folder}: {why}; it works without it",
                      RuntimeWarning, stacklevel=3)
    return None


def file_digest(path) -> str:
    """The SHA-256 of a ruleset file; OSError for a file too large to be a ruleset (read no further)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except ValueError as exc:  # a path the file system refuses (a NUL byte)
        raise OSError(str(exc)) from None
    if len(data) > MAX_FILE_BYTES:
        raise OSError("too large for a ruleset")
    return hashlib.sha256(data).hexdigest()


def read(path: Path):
    """The payload of a cache file, or None when it is missing, truncated or damaged."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(FORMAT)
    payload = data[head + 32:]
    if data[:head] != FORMAT or hashlib.sha256(payload).digest() != data[head:head + 32]:
        return None
    try:
        os.utime(path)  # recently used: pruned last
    except OSError:
        pass
    return payload


def write(path: Path, payload: bytes) -> None:
    """Write a cache file atomically, then prune the folder; a failure only means no file."""
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(FORMAT + hashlib.sha256(payload).digest() + payload)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        prune(path.parent)
    except OSError:
        return


def prune(folder: Path, limit: int = MAX_BYTES) -> None:
    """Remove the least recently used cache files while they take more than ``limit`` bytes."""
    entries = []
    for path in folder.iterdir():
        if path.suffix not in SUFFIXES or path.name.startswith("."):
            continue
        try:
            info = path.stat()
        except OSError:
            continue
        entries.append((info.st_mtime, str(path), info.st_size, path))
    total = sum(entry[2] for entry in entries)
    for _, _, size, path in sorted(entries):
        if total <= limit:
            break
        try:
            path.unlink()
        except OSError:
            pass
        total -= size
