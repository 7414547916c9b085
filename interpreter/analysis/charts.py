"""Charts as inline SVG: no dependencies, no network, readable in any browser and in the web table.

Every chart has a title, labelled axes and gridlines.  Rates are drawn as percentages on a 0–100%
scale with the fair share as a dashed line; histograms of whole numbers use whole-number bins shared
by all the panels of a figure (same bins, same scale), so panels can be compared at a glance.
"""
from __future__ import annotations

import html
import math

WIDTH, HEIGHT = 360, 240
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 30, 44
COLOURS = ["#3b6ea8", "#d9822b", "#3f9a5b", "#b8484b", "#7b62a8", "#8c6d4f", "#c8669f", "#6f7f8f"]
MAX_BINS = 24


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _nice_step(span: float, ticks: int = 5) -> float:
    raw = span / max(1, ticks)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _ticks(lo: float, hi: float, whole: bool = False) -> list:
    step = _nice_step(hi - lo if hi > lo else 1)
    if whole:
        step = max(1, round(step))
    first = math.ceil(lo / step) * step
    out, value = [], first
    while value <= hi + 1e-9:
        out.append(round(value, 10))
        value += step
    return out


def _fmt(value: float, percent: bool = False) -> str:
    if percent:
        return f"{100 * value:.0f}%"
    if abs(value) >= 1e6:
        return f"{value / 1e6:.4g}M"
    if abs(value) >= 1e4:
        return f"{value / 1e3:.4g}k"
    return f"{value:g}"


class Frame:
    """A plot area with x and y scales, axes, gridlines and labels."""

    def __init__(self, title, xlabel, ylabel, x_range, y_range, percent=False, width=WIDTH, height=HEIGHT,
                 legend=0):
        self.w, self.h = width, height
        self.right = width - RIGHT - legend  # the plot area's right edge; the legend lies beyond it
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range
        if self.x1 == self.x0:
            self.x1 = self.x0 + 1
        if self.y1 == self.y0:
            self.y1 = self.y0 + 1
        self.percent = percent
        self.parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                      f'viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}" '
                      'font-family="sans-serif" font-size="11">',
                      f'<text x="{width / 2}" y="16" text-anchor="middle" font-size="13" '
                      f'font-weight="bold">{_e(title)}</text>',
                      f'<text x="{LEFT + (self.right - LEFT) / 2}" y="{height - 6}" '
                      f'text-anchor="middle">{_e(xlabel)}</text>',
                      f'<text transform="translate(12,{TOP + (height - TOP - BOTTOM) / 2}) rotate(-90)" '
                      f'text-anchor="middle">{_e(ylabel)}</text>']

    def x(self, value: float) -> float:
        return LEFT + (value - self.x0) / (self.x1 - self.x0) * (self.right - LEFT)

    def y(self, value: float) -> float:
        return self.h - BOTTOM - (value - self.y0) / (self.y1 - self.y0) * (self.h - TOP - BOTTOM)

    def axes(self, x_ticks=None, x_labels=None) -> None:
        for value in _ticks(self.y0, self.y1):
            y = self.y(value)
            self.parts.append(f'<line x1="{LEFT}" x2="{self.right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
            self.parts.append(f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">'
                              f'{_fmt(value, self.percent)}</text>')
        ticks = x_ticks if x_ticks is not None else _ticks(self.x0, self.x1)
        labels = x_labels or [_fmt(t) for t in ticks]
        for value, text in zip(ticks, labels):
            x = self.x(value)
            self.parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{self.h - BOTTOM}" y2="{self.h - BOTTOM + 4}" '
                              'stroke="#555"/>')
            first, _, second = str(text).partition("\n")
            below = f'<tspan x="{x:.1f}" dy="13">{_e(second)}</tspan>' if second else ""
            self.parts.append(f'<text x="{x:.1f}" y="{self.h - BOTTOM + 16}" text-anchor="middle">{_e(first)}'
                              f'{below}</text>')
        self.parts.append(f'<line x1="{LEFT}" x2="{self.right}" y1="{self.h - BOTTOM}" y2="{self.h - BOTTOM}" '
                          'stroke="#555"/>')
        self.parts.append(f'<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{self.h - BOTTOM}" stroke="#555"/>')

    def hline(self, value: float, label: str) -> None:
        """A dashed reference line, explained by a key above the plot's top right corner."""
        y = self.y(value)
        self.parts.append(f'<line x1="{LEFT}" x2="{self.right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#333" '
                          'stroke-dasharray="5,4"/>')
        key_x = self.right - 7 * len(label) - 26
        self.parts.append(f'<line x1="{key_x}" x2="{key_x + 20}" y1="{TOP - 6}" y2="{TOP - 6}" stroke="#333" '
                          'stroke-dasharray="5,4"/>')
        self.parts.append(f'<text x="{key_x + 24}" y="{TOP - 2}" fill="#333">{_e(label)}</text>')

    def key(self, index: int, colour: str, label: str) -> None:
        """One line of the legend to the right of the plot."""
        y = TOP + 14 * index + 6
        self.parts.append(f'<rect x="{self.right + 8}" y="{y - 8}" width="10" height="10" fill="{colour}"/>')
        self.parts.append(f'<text x="{self.right + 22}" y="{y + 1}">{_e(label)}</text>')

    def svg(self) -> str:
        return "".join(self.parts) + "</svg>"


def rate_bars(title: str, labels: list, rates: list, intervals: list, fair: float | None,
              ylabel: str = "share of games") -> str:
    """Vertical bars of rates (0..1) with 95% intervals, on a 0–100% scale, and a fair-share line."""
    n = len(labels)
    frame = Frame(title, "", ylabel, (0, n), (0, 1), percent=True, width=max(WIDTH, 70 * n + LEFT))
    frame.axes(x_ticks=[i + 0.5 for i in range(n)], x_labels=labels)
    for i, (rate, (lo, hi)) in enumerate(zip(rates, intervals)):
        left, right = frame.x(i + 0.18), frame.x(i + 0.82)
        top = frame.y(rate)
        colour = COLOURS[i % len(COLOURS)]
        frame.parts.append(f'<rect x="{left:.1f}" y="{top:.1f}" width="{right - left:.1f}" '
                           f'height="{frame.y(0) - top:.1f}" fill="{colour}"><title>{_e(labels[i])}: '
                           f'{100 * rate:.1f}% (95% interval {100 * lo:.1f}–{100 * hi:.1f}%)</title></rect>')
        mid = frame.x(i + 0.5)
        frame.parts.append(f'<path d="M{mid - 6:.1f},{frame.y(hi):.1f}h12M{mid:.1f},{frame.y(hi):.1f}'
                           f'V{frame.y(lo):.1f}M{mid - 6:.1f},{frame.y(lo):.1f}h12" stroke="#111" '
                           'stroke-width="1.5" fill="none"/>')
        frame.parts.append(f'<text x="{mid:.1f}" y="{min(frame.y(hi), top) - 5:.1f}" text-anchor="middle" '
                           f'font-weight="bold">{100 * rate:.0f}%</text>')
    if fair is not None:
        frame.hline(fair, f"fair share {100 * fair:.0f}%")
    return frame.svg()


def whole_bins(all_values: list) -> tuple:
    """Whole-number bins covering every value of every series: (first, width, count)."""
    flat = [v for values in all_values for v in values]
    if not flat:
        return 0, 1, 1
    lo, hi = math.floor(min(flat)), math.floor(max(flat))
    width = 1
    while (hi - lo + 1) / width > MAX_BINS:  # 1, 2, 5, 10, 20, 50, ...
        width = width * 5 // 2 if str(width)[0] == "2" else width * 2
    lo = lo // width * width
    return lo, width, (hi - lo) // width + 1


def histograms(titles: list, series: list, xlabel: str) -> list:
    """One histogram per series, all with the same whole-number bins and the same percentage scale."""
    lo, width, count = whole_bins(series)
    shares = []
    for values in series:
        counts = [0] * count
        for v in values:
            counts[(math.floor(v) - lo) // width] += 1
        shares.append([c / len(values) if values else 0 for c in counts])
    top = max((s for row in shares for s in row), default=0) or 1
    top = min(1.0, _nice_step(top, 4) * math.ceil(top / _nice_step(top, 4)))
    panels = []
    for title, row, values in zip(titles, shares, series):
        frame = Frame(title, xlabel, "share of games", (lo, lo + count * width), (0, top), percent=True)
        if width == 1:  # a bar per whole number: label the numbers under their bars
            step = max(1, math.ceil(count / 8))
            ticks = list(range(lo, lo + count, step))
            frame.axes(x_ticks=[t + 0.5 for t in ticks], x_labels=[_fmt(t) for t in ticks])
        else:
            frame.axes()
        for k, share in enumerate(row):
            if not share:
                continue
            left, right = frame.x(lo + k * width), frame.x(lo + (k + 1) * width)
            label = str(lo + k * width) if width == 1 else f"{lo + k * width}–{lo + (k + 1) * width - 1}"
            frame.parts.append(f'<rect x="{left + 0.5:.1f}" y="{frame.y(share):.1f}" width="{max(1, right - left - 1):.1f}" '
                               f'height="{frame.y(0) - frame.y(share):.1f}" fill="{COLOURS[0]}"><title>{_e(label)}: '
                               f'{100 * share:.1f}% of games</title></rect>')
        if values:
            mean = sum(values) / len(values)
            x = frame.x(mean + (0.5 if width == 1 else 0))
            frame.parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{frame.y(0):.1f}" stroke="#b8484b" '
                               'stroke-width="1.5"/>')
            text = f"mean {_fmt(round(mean, 1))}"
            left = x > frame.right - 7 * len(text)
            frame.parts.append(f'<text x="{x - 3 if left else x + 3:.1f}" y="{TOP + 10}" fill="#b8484b" '
                               f'text-anchor="{"end" if left else "start"}">{_e(text)}</text>')
        panels.append(frame.svg())
    return panels


def lines(title: str, xs: list, series: list, xlabel: str, ylabel: str, percent: bool = False,
          fair: float | None = None, x_labels: list | None = None) -> str:
    """Lines over x with 95% bands: ``series`` is a list of (label, values, intervals)."""
    lows = [lo for _, _, band in series for lo, _ in band]
    highs = [hi for _, _, band in series for _, hi in band]
    if percent:
        y_range = (0, 1)
    else:
        lo, hi = min(lows, default=0), max(highs, default=1)
        pad = (hi - lo) * 0.08 or 1
        y_range = (min(0, lo) if lo >= 0 and lo < (hi - lo) else lo - pad, hi + pad)
    frame = Frame(title, xlabel, ylabel, (min(xs), max(xs)), y_range, percent=percent, width=WIDTH + 130,
                  legend=130)
    frame.axes(x_ticks=xs if len(xs) <= 12 else None, x_labels=x_labels if len(xs) <= 12 else None)
    for i, (label, values, band) in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        upper = " ".join(f"{frame.x(x):.1f},{frame.y(hi):.1f}" for x, (_, hi) in zip(xs, band))
        lower = " ".join(f"{frame.x(x):.1f},{frame.y(lo):.1f}" for x, (lo, _) in reversed(list(zip(xs, band))))
        frame.parts.append(f'<polygon points="{upper} {lower}" fill="{colour}" fill-opacity="0.15"/>')
        points = " ".join(f"{frame.x(x):.1f},{frame.y(v):.1f}" for x, v in zip(xs, values))
        frame.parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, v in zip(xs, values):
            shown = f"{100 * v:.1f}%" if percent else f"{v:.2f}"
            frame.parts.append(f'<circle cx="{frame.x(x):.1f}" cy="{frame.y(v):.1f}" r="3" fill="{colour}">'
                               f'<title>{_e(label)} at {_e(x)}: {shown}</title></circle>')
        frame.key(i, colour, label)
    if fair is not None:
        frame.hline(fair, f"fair share {100 * fair:.0f}%")
    return frame.svg()


def heatmap(title: str, xs: list, ys: list, values: dict, xlabel: str, ylabel: str, percent: bool = False,
            centre: float | None = None, intervals: dict | None = None) -> str:
    """A grid of coloured cells: ``values[(x, y)]`` for each x of ``xs`` and y of ``ys`` (as labels).
    With ``centre`` (a rate's fair share) the scale diverges: white at the centre, blue above it and
    orange below, over the whole 0–100% range, so that equal differences look equal; otherwise it
    runs from light to dark over the values shown.  ``intervals[(x, y)]`` (low, high) is printed
    under a cell's value."""
    cell_w = max(48 if intervals else 34, min(70, 420 // max(1, len(xs))))
    cell_h = max(36 if intervals else 22, min(44, 300 // max(1, len(ys))))
    width = max(LEFT + 30 + cell_w * len(xs) + RIGHT, 300)
    height = TOP + cell_h * len(ys) + BOTTOM + (16 if centre is not None else 0)
    numbers = [v for v in values.values() if v is not None]
    lo, hi = min(numbers, default=0), max(numbers, default=1)
    frame = Frame(title, xlabel, ylabel, (0, 1), (0, 1), width=width, height=height)
    label_y = TOP + cell_h * len(ys) + 14
    for j, y in enumerate(ys):
        top = TOP + j * cell_h
        frame.parts.append(f'<text x="{LEFT + 26}" y="{top + cell_h / 2 + 4:.1f}" text-anchor="end">{_e(y)}</text>')
        for i, x in enumerate(xs):
            value = values.get((x, y))
            colour, ink = _cell_colour(value, lo, hi, centre)
            left = LEFT + 30 + i * cell_w
            text = "" if value is None else (f"{100 * value:.0f}%" if percent else f"{value:.3g}")
            band = (intervals or {}).get((x, y))
            band_text = "" if band is None else (f"{100 * band[0]:.0f}–{100 * band[1]:.0f}%" if percent
                                                 else f"{band[0]:.3g}–{band[1]:.3g}")
            tip = text + (f" (95% CI {band_text})" if band_text else "")
            frame.parts.append(f'<rect x="{left}" y="{top}" width="{cell_w - 1}" height="{cell_h - 1}" '
                               f'fill="{colour}"><title>{_e(xlabel)} {_e(x)}, {_e(ylabel)} {_e(y)}: '
                               f'{_e(tip)}</title></rect>')
            middle = top + cell_h / 2 + (0 if band_text else 4)
            frame.parts.append(f'<text x="{left + cell_w / 2:.1f}" y="{middle:.1f}" text-anchor="middle" '
                               f'fill="{ink}">{text}</text>')
            if band_text:
                frame.parts.append(f'<text x="{left + cell_w / 2:.1f}" y="{middle + 12:.1f}" '
                                   f'text-anchor="middle" font-size="9" fill="{ink}">{band_text}</text>')
    for i, x in enumerate(xs):
        frame.parts.append(f'<text x="{LEFT + 30 + (i + 0.5) * cell_w:.1f}" y="{label_y}" '
                           f'text-anchor="middle">{_e(x)}</text>')
    if centre is not None:
        frame.parts.append(f'<text x="{LEFT}" y="{height - 22}" font-size="10" fill="#555">white: the fair '
                           f'share {_fmt(centre, percent)}; blue above, orange below</text>')
    return frame.svg()


def _cell_colour(value, lo: float, hi: float, centre) -> tuple:
    """A cell's fill and the colour of its text."""
    if value is None:
        return "#f4f4f4", "#333"
    if centre is None:
        t = 0.5 if hi == lo else (value - lo) / (hi - lo)
        return f"rgb({int(245 - 170 * t)},{int(248 - 120 * t)},{int(255 - 60 * t)})", "#000"
    t = (value - centre) / max(centre, 1 - centre, 1e-9)
    t = max(-1.0, min(1.0, t))
    ink = "#fff" if abs(t) > 0.6 else "#000"
    if t >= 0:
        return f"rgb({int(255 - 196 * t)},{int(255 - 145 * t)},{int(255 - 87 * t)})", ink
    t = -t
    return f"rgb({int(255 - 38 * t)},{int(255 - 125 * t)},{int(255 - 212 * t)})", ink


def grid(panels: list) -> str:
    """Panels side by side, wrapping to as many rows as the page needs."""
    return '<div class="grid">' + "".join(f'<div class="panel">{p}</div>' for p in panels) + "</div>"
