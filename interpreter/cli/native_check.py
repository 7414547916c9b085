"""``rulebook native-check``: which rulesets the native kernel covers, and the first construct of
each that it does not translate yet (with its place); with ``--games N``, whether N seeded random
games play the same in the kernel and in the Python engine."""
from __future__ import annotations

import json

import rulebook_data
from dsl.errors import RulebookError

from ..game import load_game
from ..native import NativeUnavailable, kernel_for
from ..native.coverage import first_difference, missing
from .safe import safe_text


def add_command(commands, ruleset_files) -> None:
    check = commands.add_parser("native-check", help="which rulesets the native kernel covers, and what it "
                                "does not translate yet")
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="ruleset or variant names, files, or folders (default: every shipped ruleset)")
    check.add_argument("--games", type=int, default=0, metavar="N",
                       help="also play N seeded random games in the kernel and in Python and compare them "
                       "(builds each kernel: needs the [native] extra and a C compiler)")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.set_defaults(run=lambda args: cmd_native_check(args, ruleset_files))


def cmd_native_check(args, ruleset_files) -> int:
    paths = ruleset_files(args.paths or [str(rulebook_data.RULESETS)])
    rows, uncovered = [], 0
    for path in paths:
        row = {"ruleset": str(path)}
        try:
            game = load_game(path)
        except RulebookError as exc:
            row["error"] = str(exc).splitlines()[0]
            rows.append(row)
            continue
        lacking = missing(game)
        row["covered"] = lacking is None
        if lacking is not None:
            uncovered += 1
            what, where = lacking
            row["construct"] = what
            row["at"] = f"{where.file}:{where.line}" if where is not None else None
        elif args.games > 0:
            try:
                differs = first_difference(kernel_for(game), range(args.games))
            except NativeUnavailable as exc:
                row["games"] = str(exc)
            else:
                row["games"] = "same" if differs is None else f"seed {differs[0]}: {differs[1]} differ"
                uncovered += differs is not None
        rows.append(row)
    if args.json:
        print(json.dumps(rows))
    else:
        for row in rows:
            print(safe_text(_line(row, args.games)))
        covered = sum(1 for row in rows if row.get("covered"))
        print(f"{covered} of {len(rows)} rulesets covered by the native kernel")
    return 1 if uncovered else 0


def _line(row, games) -> str:
    if "error" in row:
        return f"{row['ruleset']}: does not load: {row['error']}"
    if not row["covered"]:
        where = f" at {row['at']}" if row.get("at") else ""
        return f"{row['ruleset']}: not covered: {row['construct']}{where}"
    if "games" in row:
        played = f"{games} games the same" if row["games"] == "same" else row["games"]
        return f"{row['ruleset']}: covered; {played}"
    return f"{row['ruleset']}: covered"
