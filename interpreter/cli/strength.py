"""``--check-strength`` of simulate, compare and sweep: the same seeds again with stronger bots, and
whether each conclusion holds (see :mod:`interpreter.analysis.strength`)."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from ..analysis import display, strength
from ..analysis.simulation import SIM_BOT, run
from ..bots import stronger_spec
from .runs import check_specs, row_texts, run_spec

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


def _short_difference(difference: dict) -> str:
    lo, hi = (100 * end + 0.0 for end in difference["ci95"])  # + 0.0: no "-0.0"
    holm = f", Holm p {difference['p_holm']:.3g}" if "p_holm" in difference else ""
    return (f"{100 * difference['change']:+.1f} points ({lo:+.1f}..{hi:+.1f}, exact McNemar p "
            f"{difference['p']:.3g}{holm})")


def print_short(console, check: dict) -> None:
    """The reading of the short games: one line per game read (none when there is nothing to read),
    and in compare, when there is, the variant's change in them at each strength."""
    short = check.get("short_games")
    readings = short if isinstance(short, list) else [short] if short else []
    for reading in readings:
        where = f"{reading['label']}: " if "label" in reading else ""
        games = reading["games"]
        console.print(Text(f"{where}games that ended within {reading['limit']} decisions: weak {reading['weak']} of "
                           f"{games}, strong {reading['strong']} of {games}, strong − weak "
                           f"{_short_difference(reading['difference'])}: {reading['reading']}."))
    change = check.get("short_games_change")
    if readings and change:
        said = [f"{name} {change[name]['base']} → {change[name]['variant']} of {change[name]['games']}, "
                f"{_short_difference(change[name]['difference'])}" for name in ("weak", "strong")]
        console.print(Text(f"the variant's change in games that ended within {change['limit']} decisions "
                           f"(base → variant): {'; '.join(said)}."))


def print_check(console, check: dict, title: str = "strength check") -> None:
    console.print(Text(f"\n{title}: {check['games']} games at each strength, the same seeds; weak "
                       f"{display.bots(check['weak'])}; strong {display.bots(check['strong'])}", style="bold"))
    table = Table(box=None, padding=(0, 1))
    for name in ("", "weak", "95% CI", "strong", "95% CI", "strong − weak", "95% CI", "p", "Holm p",
                 "verdict", "games to tell"):
        table.add_column(name, justify="left" if name in ("", "verdict") else "right", no_wrap=True)
    for row in check["rows"]:
        weak, strong, diff = (row_texts(row[k]) for k in ("weak", "strong", "difference"))
        games = row["games_to_tell"]
        table.add_row(Text(row["label"]), weak["change"] + weak["star"], weak["ci95"],
                      strong["change"] + strong["star"], strong["ci95"], diff["change"] + diff["star"],
                      diff["ci95"], diff["p"], diff["p_holm"], Text(row["verdict"], style=VERDICT_STYLE[row["verdict"]]),
                      "" if games is None else f"~{games:,}")
    console.print(table)
    length = check.get("length")
    if length:
        texts = row_texts(length["difference"])
        (wm, wlo, whi), (sm, slo, shi) = length["weak"], length["strong"]
        console.print(f"decisions per game: weak {wm:.1f} ({wlo:.1f}..{whi:.1f}), strong {sm:.1f} "
                      f"({slo:.1f}..{shi:.1f}), strong − weak {texts['change']} ({texts['ci95']}, p "
                      f"{texts['p']}): game length belongs to the rules and the bots together.")
    print_short(console, check)
    console.print("weak, strong: the effect at each strength with its 95% interval (*: significant after "
                  "Holm's correction in its own table); strong − weak: the difference, tested as pairs over "
                  "the seeds (paired t; Holm p over these rows). holds: significant at both strengths in the "
                  "same direction; changes: significant in opposite directions, or the difference is "
                  "significant and the conclusion does not hold; cannot tell yet: anything else. games to "
                  "tell: about how many games per strength would make the observed effects significant "
                  "(80% power), were they real.")
