"""Generate the built-in reference of docs/language.md from the registries.

    python -m interpreter.runtime.docgen           # rewrite the section between the markers
    python -m interpreter.runtime.docgen --check   # exit 1 if the section is out of date
"""
from __future__ import annotations

import sys

import rulebook_data
from dsl.registry import BUILTIN_NAMES, EFFECTS, FUNCTIONS

from . import effects as _effects  # noqa: F401  (fills the registry)
from . import functions as _functions  # noqa: F401  (fills the registry)

DOC = rulebook_data.DOCS / "language.md"  # in a checkout: docs/language.md
START, END = "<!-- builtins:start -->", "<!-- builtins:end -->"


def reference() -> str:
    """The Markdown tables of every built-in function, effect and name."""
    lines = []
    for title, registry in (("Functions (usable in any expression)", FUNCTIONS),
                            ("Effects (statements that change the game)", EFFECTS)):
        lines += [f"### {title}", "", "| signature | what it does |", "| --- | --- |"]
        for name in registry.names():
            entry = registry.get(name)
            doc = entry.doc.replace("|", "\\|")
            lines.append(f"| `{entry.signature()}` | {doc} |")
        lines.append("")
    lines += ["### Built-in names", "", "| name | type | where | what it is |", "| --- | --- | --- | --- |"]
    for entry in BUILTIN_NAMES.values():
        lines.append(f"| `{entry.name}` | {entry.type} | {entry.where} | {entry.doc} |")
    lines += ["", "Every component also has `c.name`, `c.kind`, `c.zone`, `c.owner` and (on a grid) `c.cell`; "
              "every player has `p.name`, and `p.X` for each player variable and zone of each player X.", ""]
    lines += ["Aggregates over comprehensions: `list`, `sum`, `count`, `any`, `all`, `min`, `max`, "
              "as in `sum(c.vp for c in p.hand if c.rank > 0)`.", ""]
    lines += ["A name of the ruleset hides the built-in of the same spelling; every built-in above is also "
              "`builtin.NAME` (`builtin.roll(6)`, `builtin.players`), which always means the built-in "
              "(see [Your names before the built-ins](#your-names-before-the-built-ins)).", ""]
    return "\n".join(lines)


def updated(text: str) -> str:
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    return f"{before}{START}\n{reference()}{END}{after}"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = DOC.read_text(encoding="utf-8")
    new = updated(text)
    if "--check" in argv:
        if new != text:
            print(f"{DOC} is out of date: run python -m interpreter.runtime.docgen", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
