"""Where a ruleset named on the command line (``pig``, ``classic/kuhn-poker``, a variant's file name) is found.

The folders, searched in order (docs/play.md, "Your own rulesets"):

1. ``rulesets/`` in the current folder, if there is one;
2. the user's folders: those ``RULEBOOK_PATH`` lists (separated by ``os.pathsep``), or else
   ``$XDG_DATA_HOME/rulebook/rulesets`` (``~/.local/share/rulebook/rulesets``);
3. the shipped rulesets (package :mod:`rulebook_data`).

In one folder a name means ``NAME.yaml`` at its top, or the file of that name (or of that path without
``.yaml``) in one of its subfolders.  The first folder that has the name wins; the others' files of
the same name are hidden (``rulebook where NAME`` shows them).
"""
from __future__ import annotations

import os
from pathlib import Path

import rulebook_data

SUFFIXES = (".yaml", ".yml")
SHIPPED = rulebook_data.RULESETS


def user_folders() -> list:
    """The user's ruleset folders: ``RULEBOOK_PATH``'s, or the one under the XDG data folder."""
    listed = os.environ.get("RULEBOOK_PATH", "")
    if listed.strip():
        return [Path(part).expanduser() for part in listed.split(os.pathsep) if part.strip()]
    data_home = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(data_home) if data_home and Path(data_home).is_absolute() else Path.home() / ".local" / "share"
    return [base / "rulebook" / "rulesets"]


def search_folders() -> list:
    """The folders searched for a name, in order, as (what the folder is, its path); each folder once."""
    try:
        folders = [("current folder", Path.cwd() / "rulesets")]
    except OSError:  # the current folder was removed
        folders = []
    folders += [("user folder", folder) for folder in user_folders()]
    folders.append(("shipped", SHIPPED))
    seen, unique = set(), []
    for kind, folder in folders:
        key = _real(folder)
        if key not in seen:
            seen.add(key)
            unique.append((kind, folder))
    return unique


def ruleset_files(folder: Path) -> list:
    """Every ruleset and variant file below ``folder`` (none when it is no folder)."""
    try:
        return sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.is_file())
    except OSError:
        return []


def find_in(folder: Path, name: str):
    """The file ``name`` means in ``folder``, or None."""
    if not folder.is_dir():
        return None
    stem = name[:-len(Path(name).suffix)] if Path(name).suffix in SUFFIXES else name
    for candidate in (folder / f"{stem}.yaml", folder / f"{stem}.yml"):
        if candidate.is_file():
            return candidate
    for path in ruleset_files(folder):
        if stem in (path.stem, path.relative_to(folder).with_suffix("").as_posix()):
            return path
    return None


def all_matches(name: str) -> list:
    """Every file ``name`` means, one per search folder that has it, as (what the folder is, path):
    the first is the one used, the rest are hidden by it."""
    return list(_matches(name))


def find_named(name: str):
    """The file a ruleset name means (the first search folder that has it), or None."""
    return next(_matches(name), (None, None))[1]


def _matches(name: str):
    for kind, folder in search_folders():
        path = find_in(folder, name)
        if path is not None:
            yield kind, path


def known_names() -> list:
    """The names of the rulesets at the top of the search folders (for hints)."""
    return sorted({p.stem for _, folder in search_folders() if folder.is_dir()
                   for p in folder.iterdir() if p.suffix in SUFFIXES and p.is_file()})


def all_names() -> list:
    """The stems of every ruleset and variant file in the search folders."""
    return sorted({p.stem for _, folder in search_folders() for p in ruleset_files(folder)})


def shown(path: Path) -> str:
    """A file as a person reads it: a shipped one as ``rulesets/...``, one below the current folder
    relative to it, any other in full."""
    for base in (SHIPPED.parent, Path.cwd()):
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def _real(path: Path) -> str:
    try:
        return str(path.resolve())
    except OSError:
        return str(path.absolute())
