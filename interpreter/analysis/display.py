"""Figures of the statistics as text, rounded so that the text never contradicts the test.

A bound that rounds to zero keeps enough digits to show its sign, and a p-value just below 0.05
keeps enough digits not to read as 0.0500: a printed interval excludes 0 exactly when the printed
p is below 0.05 (``tests/test_stats.py`` checks this over random tables).
"""
from __future__ import annotations

from .stats import ALPHA

MAX_DECIMALS = 8


def number(value: float, decimals: int = 1, scale: float = 1.0, sign: bool = True) -> str:
    """``value * scale`` with ``decimals`` decimals, or more when fewer would round a nonzero value
    to zero (so its sign stays readable); a floating-point residue (below 1e-9 before scaling, as
    1/3 - 1/3 can leave) is zero."""
    value = 0.0 if abs(value) < 1e-9 else value * scale + 0.0  # no "-0.0"
    style = "+" if sign else ""
    for places in range(decimals, MAX_DECIMALS + 1):
        text = f"{value:{style}.{places}f}"
        if value == 0 or float(text) != 0:
            return text
    return f"{value:{style}.1e}"


def interval(bounds, decimals: int = 1, scale: float = 1.0, unit: str = "") -> str:
    """``lo..hi`` of a 95% interval, signed, with the unit after each bound; ``n/a`` for none (a
    mean of one game)."""
    if bounds is None:
        return "n/a"
    lo, hi = bounds
    return f"{number(lo, decimals, scale)}{unit}..{number(hi, decimals, scale)}{unit}"


def p_value(p: float, alpha: float = ALPHA) -> str:
    """A p-value with four decimals, ``<0.0001`` below that, and more decimals when four would round
    it across ``alpha``."""
    if p < 0.0001:
        return "<0.0001"
    for places in range(4, MAX_DECIMALS + 1):
        text = f"{p:.{places}f}"
        if (float(text) < alpha) == (p < alpha):
            return text
    return f"{p:.3e}"


def star(row: dict) -> str:
    """The mark of a row significant after the correction for the rows tested together."""
    return "*" if row.get("significant") else ""


def bots(specs) -> str:
    """The bots of a run's seats for a header: ``4 × flat:rollouts=16,budget=128`` when every seat
    plays the same, else each seat's in order, split by `` / `` (a spec's own options hold commas)."""
    specs = list(specs)
    if len(specs) > 1 and len(set(specs)) == 1:
        return f"{len(specs)} × {specs[0]}"
    return " / ".join(specs)


def row_texts(row: dict) -> dict:
    """The printed figures of a comparison row (shared by compare and the strength check)."""
    rate = row["measure"].startswith("win")
    scale, decimals, unit = (100, 1, "%") if rate else (1, 2, "")
    shown = not row["significant"] and row.get("detectable") is not None
    return {"change": number(row["change"], decimals, scale) + unit,
            "ci95": interval(row["ci95"], decimals, scale),
            "p": p_value(row["p"]), "p_holm": p_value(row["p_holm"]), "star": star(row),
            "detectable": f"±{number(row['detectable'], decimals, scale, sign=False)}{unit}" if shown else "",
            "value": lambda v: f"{100 * v:.1f}%" if rate else f"{v:.2f}"}
