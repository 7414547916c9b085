"""``--check-strength`` of simulate, compare and sweep: the same seeds again with stronger bots, and
whether each conclusion holds (see :mod:`interpreter.analysis.strength`)."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ..analysis import strength, strength_text
from ..analysis.simulation import SIM_BOT, run
from ..bots import stronger_spec
from .runs import check_specs, run_spec

VERDICT_STYLE = {strength.HOLDS: "green", strength.CHANGES: "bold red", strength.CANNOT_TELL: "yellow"}


def add_argument(parser) -> None:
    parser.add_argument("--check-strength", nargs="?", const="", default=None, metavar="SPEC",
                        help="play the same seeds again with stronger bots (SPEC, one for all seats or one "
                             "per seat; default: each bot with four times its time per decision, e.g. "
                             f"{stronger_spec(SIM_BOT)}) and say whether each conclusion holds, and whether games "
                             "that end within a few decisions are the bots' doing or the rules'")


def strong_seats(args, specs: list):
    """The stronger seats of ``--check-strength``, checked before any game is played; None without it."""
    if args.check_strength is None:
        return None
    stronger = strength.stronger_seats(specs, args.check_strength)
    check_specs(stronger)
    return stronger


def play_strong(game, specs: list, args, games: int, executor, bar) -> list:
    """The games 0..games-1 of ``game`` again with the stronger ``specs``."""
    tick = bar.task(f"{game.name} (strength check)", games)
    return run(game, run_spec(game, specs, args), games, on_game=tick, executor=executor)


def report(weak_specs: list, strong_specs: list, rows: list, length=None, short=None, short_change=None) -> dict:
    """The check's JSON.  ``short``: simulate's reading of the short games (None: nothing to read), or
    the list of compare's (base, variant) or a sweep's (per setting) readings; ``short_change``:
    compare's change in the short games from base to variant at each strength."""
    check = {"weak": list(weak_specs), "strong": list(strong_specs), "rows": rows, "length": length,
             "short_games": short, "games": rows[0]["difference"]["games"] if rows else 0}
    if short_change is not None:
        check["short_games_change"] = short_change
    return check


def print_check(console, check: dict, command: str) -> None:
    """The check of ``command`` (simulate, compare or sweep) as the terminal shows it."""
    console.print(Text("\n" + strength_text.heading(check, strength_text.TITLES[command]), style="bold"))
    table = Table(box=None, padding=(0, 1))
    for name in strength_text.COLUMNS:
        table.add_column(name, justify="left" if name in ("", "verdict") else "right", no_wrap=True)
    for row in check["rows"]:
        cells = [Text(cell) for cell in strength_text.row_cells(row)]
        cells[strength_text.VERDICT_COLUMN].stylize(VERDICT_STYLE[row["verdict"]])
        table.add_row(*cells)
    console.print(table)
    for line in strength_text.notes(check):
        console.print(Text(line))
    console.print(strength_text.LEGEND)
