"""The strength check (:mod:`.strength`) as text: its heading, the cells of its table, the game
length line and the readings of the short games.  The terminal (``interpreter.cli.strength``) and
the HTML and PNG reports (:mod:`.report`) print the same texts from the same ``strength_check``
dict, so that they cannot say different things."""
from __future__ import annotations

from . import display

TITLES = {"simulate": "strength check: each seat's advantage over the fair share",
          "compare": "strength check: the variant's effect at two strengths",
          "sweep": "strength check: seat 1's advantage over the fair share at every setting"}

COLUMNS = ("", "weak", "95% CI", "strong", "95% CI", "strong − weak", "95% CI", "p", "Holm p", "verdict",
           "games to tell")
VERDICT_COLUMN = COLUMNS.index("verdict")

LEGEND = ("weak, strong: the effect at each strength with its 95% interval (*: significant after "
          "Holm's correction in its own table); strong − weak: the difference, tested as pairs over "
          "the seeds (paired t; Holm p over these rows). holds: significant at both strengths in the "
          "same direction; changes: significant in opposite directions, or the difference is "
          "significant and the conclusion does not hold; cannot tell yet: anything else. games to "
          "tell: about how many games per strength would make the observed effects significant "
          "(80% power), were they real.")


def setup(check: dict) -> str:
    """The games at each strength and the bots of both."""
    return (f"{check['games']} games at each strength, the same seeds; weak {display.bots(check['weak'])}; "
            f"strong {display.bots(check['strong'])}")


def heading(check: dict, title: str) -> str:
    return f"{title}: {setup(check)}"


def row_cells(row: dict) -> list:
    """The texts of one row of the check, one per column of ``COLUMNS``."""
    weak, strong, diff = (display.row_texts(row[k]) for k in ("weak", "strong", "difference"))
    games = row["games_to_tell"]
    return [row["label"], weak["change"] + weak["star"], weak["ci95"], strong["change"] + strong["star"],
            strong["ci95"], diff["change"] + diff["star"], diff["ci95"], diff["p"], diff["p_holm"], row["verdict"],
            "" if games is None else f"~{games:,}"]


def length_line(check: dict) -> str | None:
    """The game length at both strengths (simulate's check), or None."""
    length = check.get("length")
    if not length:
        return None
    texts = display.row_texts(length["difference"])
    (wm, wlo, whi), (sm, slo, shi) = length["weak"], length["strong"]
    return (f"decisions per game: weak {wm:.1f} ({wlo:.1f}..{whi:.1f}), strong {sm:.1f} "
            f"({slo:.1f}..{shi:.1f}), strong − weak {texts['change']} ({texts['ci95']}, p "
            f"{texts['p']}): game length belongs to the rules and the bots together.")


def _short_difference(difference: dict) -> str:
    lo, hi = (100 * end + 0.0 for end in difference["ci95"])  # + 0.0: no "-0.0"
    holm = f", Holm p {difference['p_holm']:.3g}" if "p_holm" in difference else ""
    return (f"{100 * difference['change']:+.1f} points ({lo:+.1f}..{hi:+.1f}, exact McNemar p "
            f"{difference['p']:.3g}{holm})")


def notes(check: dict) -> list:
    """The lines printed under the check's table: the game length (simulate's check), then the
    readings of the short games."""
    length = length_line(check)
    return ([length] if length else []) + short_lines(check)


def short_lines(check: dict) -> list:
    """The reading of the short games: one line per game read (none when there is nothing to read),
    and in compare, when there is, the variant's change in them at each strength."""
    short = check.get("short_games")
    readings = short if isinstance(short, list) else [short] if short else []
    lines = []
    for reading in readings:
        where = f"{reading['label']}: " if "label" in reading else ""
        games = reading["games"]
        lines.append(f"{where}games that ended within {reading['limit']} decisions: weak {reading['weak']} of "
                     f"{games}, strong {reading['strong']} of {games}, strong − weak "
                     f"{_short_difference(reading['difference'])}: {reading['reading']}.")
    change = check.get("short_games_change")
    if readings and change:
        said = [f"{name} {change[name]['base']} → {change[name]['variant']} of {change[name]['games']}, "
                f"{_short_difference(change[name]['difference'])}" for name in ("weak", "strong")]
        lines.append(f"the variant's change in games that ended within {change['limit']} decisions "
                     f"(base → variant): {'; '.join(said)}.")
    return lines
