"""Simulation reports as pictures: a self-contained HTML page with SVG charts, or a PNG.

The HTML report needs nothing beyond the standard library.  PNG needs matplotlib
(``pip install 'rulebook[report]'``); without it the command says so.
"""
from __future__ import annotations

import html
import os
from pathlib import Path

from dsl.errors import ParameterError

from . import stats

WIDTH, BAR_HEIGHT = 520, 22


def check(path: str) -> None:
    """Fail now, before a long run, if the report cannot be written: unknown format, a folder that
    does not exist or cannot be written, or matplotlib missing for a PNG."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".html", ".htm", ".png"):
        raise ParameterError(f"cannot write a report as '{suffix or path}'", hint="use FILE.html or FILE.png")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ParameterError(f"cannot write the report {path}: the folder {folder} does not exist",
                             hint="create it first, or write the report elsewhere")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ParameterError(f"cannot write the report {path}: permission denied", hint="choose another path")
    if target.is_dir():
        raise ParameterError(f"cannot write the report {path}: it is a folder", hint="name a file")
    if suffix == ".png":
        _pyplot()


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ParameterError("a PNG report needs matplotlib",
                             hint="pip install 'rulebook[report]', or write FILE.html instead") from None
    return plt


def write(path: str, game, result: dict) -> None:
    suffix = Path(path).suffix.lower()
    if suffix in (".html", ".htm"):
        Path(path).write_text(html_report(game, result), encoding="utf-8")
    elif suffix == ".png":
        png_report(path, game, result)
    else:
        raise ParameterError(f"cannot write a report as '{suffix or path}'", hint="use FILE.html or FILE.png")


def _bars(rows) -> str:
    """A horizontal bar chart: rows of (label, value 0..1, interval or None, text)."""
    height = BAR_HEIGHT * len(rows) + 10
    parts = [f'<svg width="{WIDTH + 260}" height="{height}" xmlns="http://www.w3.org/2000/svg">']
    for i, (label, value, interval, text) in enumerate(rows):
        y = 5 + i * BAR_HEIGHT
        parts.append(f'<text x="0" y="{y + 15}" font-size="13">{html.escape(label)}</text>')
        parts.append(f'<rect x="160" y="{y + 3}" width="{WIDTH * value:.1f}" height="{BAR_HEIGHT - 8}" '
                     'fill="#4a7bb7"/>')
        if interval:
            lo, hi = interval
            parts.append(f'<line x1="{160 + WIDTH * lo:.1f}" x2="{160 + WIDTH * hi:.1f}" y1="{y + 10}" '
                         f'y2="{y + 10}" stroke="#222" stroke-width="2"/>')
        parts.append(f'<text x="{170 + WIDTH}" y="{y + 15}" font-size="13">{html.escape(text)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _histogram_rows(values, bins=10):
    values = list(values)
    if not values:
        return []
    lo, hi = min(values), max(values)
    step = (hi - lo) / bins or 1
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / step))] += 1
    top = max(counts)
    return [(f"{lo + i * step:.1f} – {lo + (i + 1) * step:.1f}", c / top, None, str(c))
            for i, c in enumerate(counts)]


def html_report(game, result: dict) -> str:
    seats = result["seats"]
    wins = [(f"seat {s + 1} {game.player_names[s]} ({seats[s]})", result["win_rates"][s],
             result["win_rate_ci95"][s], f"{100 * result['win_rates'][s]:.1f}%") for s in range(len(seats))]
    sections = [f"<h1>{html.escape(game.name)}</h1>",
                f"<p>{result['games']} games, seeds {result['seed']}..{result['seed'] + result['games'] - 1}, "
                f"parameters {html.escape(str(result['params']))}; {result['shared_wins']} shared wins; "
                f"{result['games_per_second']} games/s.</p>",
                "<h2>Win rate per seat (line: 95% Wilson interval)</h2>", _bars(wins),
                f"<h2>Game length in decisions (mean {result['mean_decisions']}, "
                f"sd {result['decisions_stdev']})</h2>", _bars(_histogram_rows(result["lengths"]))]
    for s in range(len(seats)):
        sections.append(f"<h2>Scores of seat {s + 1} ({html.escape(game.player_names[s])}): mean "
                        f"{result['mean_scores'][s]}, sd {result['score_stdev'][s]}</h2>")
        sections.append(_bars(_histogram_rows(result["scores"][s])))
    body = "\n".join(sections)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(game.name)} simulation"
            f"</title><style>body{{font-family:sans-serif;margin:2em}}</style></head><body>{body}</body></html>\n")


def png_report(path: str, game, result: dict) -> None:
    plt = _pyplot()
    seats = len(result["seats"])
    fig, axes = plt.subplots(1, 2 + seats, figsize=(4 * (2 + seats), 3.5))
    rates = result["win_rates"]
    errors = [[r - lo for r, (lo, _) in zip(rates, result["win_rate_ci95"])],
              [hi - r for r, (_, hi) in zip(rates, result["win_rate_ci95"])]]
    axes[0].bar([game.player_names[s] for s in range(seats)], rates, yerr=errors, capsize=4)
    axes[0].set_title("win rate (95% CI)")
    axes[1].hist(result["lengths"], bins=15)
    axes[1].set_title("decisions per game")
    for s in range(seats):
        axes[2 + s].hist(result["scores"][s], bins=15)
        axes[2 + s].set_title(f"scores {game.player_names[s]} (mean {stats.mean(result['scores'][s]):.1f})")
    fig.suptitle(f"{game.name}: {result['games']} games")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
