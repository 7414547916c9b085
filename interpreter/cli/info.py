"""The commands that describe a ruleset: ``params``, ``variants`` and ``explain``."""
from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dsl.explain import explain, first_comment, parameter_rows
from dsl.yaml_loader import load_yaml_file

from ..store import search_path
from ..game import find_base, find_ruleset
from .safe import plain, safe_text


def cmd_params(args, game) -> int:
    rows = parameter_rows(game.ruleset)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    console = Console(highlight=False)
    if not rows:
        console.print(plain(f"{game.name} has no parameters."))
        return 0
    table = Table(title=plain(f"Parameters of {game.name} (change with --set NAME=VALUE)"), show_lines=False)
    for column in ("name", "type", "default", "allowed"):
        table.add_column(column, no_wrap=True)
    table.add_column("description", overflow="fold")
    for row in rows:
        table.add_row(*(plain(row[key]) for key in ("name", "type")), plain(json.dumps(row["default"])),
                      plain(row["allowed"]), plain(row["description"]))
    console.print(table)
    return 0


def variants_of(game_name: str) -> list:
    """Every variant file in the search folders whose chain of ``extends`` reaches the ruleset named."""
    target = find_ruleset(game_name).resolve()
    found, seen = [], set()
    for _, folder in search_path.search_folders():
        for path in search_path.ruleset_files(folder):
            if path.resolve() not in seen and _extends_chain_reaches(path, target):
                seen.add(path.resolve())
                found.append(path)
    return found


def _extends_chain_reaches(path: Path, target: Path, depth: int = 0) -> bool:
    if depth > 8:
        return False
    try:
        data = load_yaml_file(path).data
    except Exception:  # a broken file is `validate`'s business, not this listing's
        return False
    base = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(base, str):
        return False
    base_path = find_base(base, path.parent)
    if base_path is None:
        return False
    return base_path.resolve() == target or _extends_chain_reaches(base_path, target, depth + 1)


def cmd_variants(args, game) -> int:
    variants = variants_of(args.game)
    rows = [{"file": search_path.shown(p), "about": first_comment(p)} for p in variants]
    if args.json:
        print(json.dumps({"variants": rows, "parameters": parameter_rows(game.ruleset)}, ensure_ascii=False))
        return 0
    console = Console(highlight=False)
    console.print(plain(f"Variants of {game.name}", style="bold"))
    if not rows:
        console.print("  (no variant files)")
    for row in rows:
        console.print(plain(f"  {row['file']}", style="cyan"))
        if row["about"]:
            console.print(plain(f"      {row['about']}"))
    console.print(Text("\nEach parameter is a variant too (--set NAME=VALUE):", style="bold"))
    for row in parameter_rows(game.ruleset):
        console.print(plain(f"  {row['name']} = {json.dumps(row['default'])} ({row['allowed']}): {row['description']}"))
    return 0


def cmd_explain(args, game) -> int:
    print(safe_text(explain(game.ruleset)), end="")
    return 0
