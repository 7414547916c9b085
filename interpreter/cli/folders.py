"""The commands about where rulesets live: ``where`` (which file a name means, the folders searched)
and ``new`` (a starter ruleset in the user's folder)."""
from __future__ import annotations

import json
import os
import re
from itertools import dropwhile
from pathlib import Path

import rulebook_data
from dsl.errors import ParameterError
from dsl.schema import SCHEMA_PATH

from ..store import search_path
from ..game import find_ruleset
from .safe import safe_text

STARTER = rulebook_data.RULESETS / "examples" / "pig.yaml"  # the game docs/tutorial.md builds
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


def add_commands(commands) -> None:
    where = commands.add_parser("where", help="which file a ruleset name means, and the folders searched")
    where.add_argument("name", metavar="NAME", nargs="?",
                       help="a ruleset name (without NAME: list the folders searched, in order)")
    where.set_defaults(run=cmd_where)
    new = commands.add_parser("new", help="write a starter ruleset (the tutorial's Pig) into your rulesets folder")
    new.add_argument("name", metavar="NAME", help="the new ruleset's name (letters, digits, - _ .)")
    new.set_defaults(run=cmd_new)


def cmd_where(args) -> int:
    if args.name is None:
        return _print_folders()
    if Path(args.name).is_file():
        print(safe_text(f"{args.name}: {Path(args.name).resolve()} (a file)"))
        return 0
    matches = search_path.all_matches(args.name)
    if not matches:
        find_ruleset(args.name)  # raises the error with its hints, unless the name is a file name
        raise ParameterError(f"{args.name}: no such file")
    (kind, path), hidden = matches[0], matches[1:]
    print(safe_text(f"{args.name}: {path} ({kind})"))
    for other_kind, other in hidden:
        print(safe_text(f"  hides {other} ({other_kind})"))
    return 0


def _print_folders() -> int:
    print("Ruleset names are looked up in these folders, in order (the first that has a name wins):")
    for kind, folder in search_path.search_folders():
        state = "" if folder.is_dir() else "  (absent)"
        print(safe_text(f"  {kind:<15} {folder}{state}"))
    print(f"Set RULEBOOK_PATH (folders separated by {os.pathsep!r}) to replace the user folder; rulebook new "
          "writes into the first user folder.")
    print(safe_text(f"JSON Schemas: {rulebook_data.SCHEMAS}"))
    print(safe_text(f"Documents:    {rulebook_data.DOCS}  (games/ holds each shipped game's rules and rulings)"))
    return 0


def cmd_new(args) -> int:
    name = args.name
    if not _NAME.fullmatch(name) or name.endswith((".yaml", ".yml")):
        raise ParameterError(f"{safe_text(name)[:100]!r} is not a ruleset name",
                             hint="use letters, digits, '-', '_' and '.', without .yaml, e.g. my-game")
    folder = search_path.user_folders()[0]
    target = folder / f"{name}.yaml"
    if target.exists():
        raise ParameterError(f"{target} exists already; rulebook new does not overwrite a file",
                             hint="choose another name, or edit that file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(target, "x", encoding="utf-8") as out:
            out.write(starter_text(name))
    except OSError as exc:
        raise ParameterError(f"cannot write {target}: {exc.strerror}") from None
    print(safe_text(f"wrote {target}"))
    matches = search_path.all_matches(name)
    if matches and matches[0][1].resolve() != target.resolve():
        print(safe_text(f"note: the name {name} means {matches[0][1]} ({matches[0][0]}, searched first); "
                        "name the new file by its path"))
    elif len(matches) > 1:
        print(safe_text(f"note: the name {name} now means this file; it hides {matches[1][1]} ({matches[1][0]})"))
    print(safe_text(f"next: rulebook validate {name}, rulebook play {name}; docs/tutorial.md explains the "
                    f"file ({rulebook_data.DOCS / 'tutorial.md'})"))
    return 0


def starter_text(name: str) -> str:
    """The tutorial's Pig under a new name, with the schema line editors read pointing at the installed
    schema."""
    lines = STARTER.read_text(encoding="utf-8").splitlines(keepends=True)
    body = "".join(dropwhile(lambda line: line.startswith("#"), lines))
    header = (f"# yaml-language-server: $schema={SCHEMA_PATH.as_uri()}\n"
              f"# {name}: a new ruleset, started from Pig, the game docs/tutorial.md builds step by step.\n")
    return header + body.replace("\n  name: Pig\n", f"\n  name: {json.dumps(name)}\n", 1)
