"""Simulation and sweep reports as pictures: a self-contained HTML page with inline SVG charts, or a PNG.

The HTML report needs nothing beyond the standard library and loads nothing from the network.  PNG
needs matplotlib (``pip install 'rulebook[report]'``); :func:`check` says so before a run starts.
"""
from __future__ import annotations

import html
import json
import os
import textwrap
from pathlib import Path

from dsl.errors import ParameterError

from . import charts, display, sanity, stats, strength, strength_text

STYLE = ("body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1200px}"
         "h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin:1.2em 0 .4em}"
         "table{border-collapse:collapse;margin:.4em 0}td,th{padding:2px 10px;text-align:left;"
         "border-bottom:1px solid #ddd}th{background:#f3f3f3}.grid{display:flex;flex-wrap:wrap;gap:8px}"
         ".panel{border:1px solid #e3e3e3;border-radius:4px}.warn{color:#8a5a00;background:#fff6dd;"
         "padding:4px 8px;border-left:3px solid #e0a000;margin:4px 0}p.note{color:#555;font-size:.9em}"
         "table.check{font-size:.92em}table.check td,table.check th{text-align:right;white-space:nowrap;padding:2px 7px}table.check td:first-child,"
         "table.check th:first-child{text-align:left;white-space:normal}"
         f"table.check td:nth-child({strength_text.VERDICT_COLUMN + 1}),"
         f"table.check th:nth-child({strength_text.VERDICT_COLUMN + 1}){{text-align:left}}"
         "td.holds{color:#1a7f37;font-weight:bold}td.changes{color:#c62828;font-weight:bold}"
         "td.cannot-tell{color:#8a5a00;font-weight:bold}ul.check li{margin:.3em 0}")

VERDICT_CLASS = {strength.HOLDS: "holds", strength.CHANGES: "changes", strength.CANNOT_TELL: "cannot-tell"}


def check(path: str, formats=(".html", ".htm", ".png")) -> None:
    """Fail now, before a long run, if the report cannot be written: unknown format, a folder that
    does not exist or cannot be written, or matplotlib missing for a PNG."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in formats:
        raise ParameterError(f"cannot write a report as '{suffix or path}'", hint="use FILE.html or FILE.png")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise ParameterError(f"cannot write the report {path}: the folder {folder} does not exist",
                             hint="create it first, or write the report elsewhere")
    if target.is_dir():
        raise ParameterError(f"cannot write the report {path}: it is a folder", hint="name a file")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ParameterError(f"cannot write the report {path}: permission denied", hint="choose another path")
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


def _is_png(path: str) -> bool:
    return Path(path).suffix.lower() == ".png"


def write(path: str, game, result: dict) -> None:
    """The report of a simulation."""
    _write(path, game, result, png_report, html_report)


def write_sweep(path: str, game, result: dict) -> None:
    """The report of a sweep."""
    _write(path, game, result, png_sweep, html_sweep)


def _write(path: str, game, result: dict, as_png, as_html) -> None:
    check(path)
    if _is_png(path):
        with _pyplot().rc_context({"text.parse_math": False}):  # a name's "$" is text, not a formula
            as_png(path, game, result)
    else:
        Path(path).write_text(as_html(game, result), encoding="utf-8")


def _page(title: str, body: list) -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")


def _table(header: list, rows: list, css: str = "", classes=None) -> str:
    """A table of escaped texts; ``classes``: the CSS class of a cell by its column and text."""
    classes = classes or {}
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(_cell(c, classes.get(i, {}).get(c)) for i, c in enumerate(row)) + "</tr>"
                   for row in rows)
    kind = f" class='{css}'" if css else ""
    return f"<table{kind}><tr>{head}</tr>{body}</table>"


def _cell(text, css=None) -> str:
    kind = f" class='{css}'" if css else ""
    return f"<td{kind}>{html.escape(str(text))}</td>"


def _strength_html(result: dict, command: str) -> list:
    """The strength check of the run, when it had one, as the terminal prints it."""
    check = result.get("strength_check")
    if not check:
        return []
    title = strength_text.TITLES[command]
    lines = "".join(f"<li>{html.escape(line)}</li>" for line in strength_text.notes(check))
    return [f"<h2>{html.escape(title[0].upper() + title[1:])}</h2>",
            f"<p>{html.escape(strength_text.setup(check))}.</p>",
            _table(strength_text.COLUMNS, [strength_text.row_cells(row) for row in check["rows"]], "check",
                   {strength_text.VERDICT_COLUMN: VERDICT_CLASS}),
            f"<ul class='check'>{lines}</ul>" if lines else "",
            f"<p class='note'>{html.escape(strength_text.LEGEND)}</p>"]


def _params_table(game, params: dict, swept=()) -> str:
    specs = game.ruleset.param_specs
    rows = [(name, "swept" if name in swept else json.dumps(value),
             json.dumps(specs.get(name, {}).get("default")),
             " ".join(str(specs.get(name, {}).get("description", "")).split()))
            for name, value in params.items()]
    return _table(["parameter", "value", "default", "description"], rows) if rows else "<p>No parameters.</p>"


def _sanity_html(report: dict, games: int) -> str:
    lines = "".join(f"<li>{html.escape(line)}</li>" for line in sanity.lines(report, games))
    warnings = "".join(f"<div class='warn'>warning: {html.escape(w)}</div>" for w in report["warnings"])
    return f"<ul>{lines}</ul>{warnings}"


def seat_labels(game, result: dict) -> list:
    return [f"{game.player_names[s]} ({spec})" for s, spec in enumerate(result["seats"])]


def html_report(game, result: dict) -> str:
    seats = len(result["seats"])
    labels = seat_labels(game, result)
    finished = result["finished"]
    shares = result["win_share_rates"]
    intervals = [stats.wilson_interval(s, finished) for s in result["win_shares"]]
    first, last = result["seed"], result["seed"] + result["games"] - 1
    body = [f"<h1>{html.escape(game.name)}: {result['games']} games</h1>",
            f"<p>Seeds {first}..{last}; {seats} players; bots: {html.escape(', '.join(labels))}; "
            f"{result['games_per_second'] or 0:g} games/s{_cap_text(result)}.</p>",
            "<h2>Parameters</h2>", _params_table(game, result["params"]),
            "<h2>Sanity: do these numbers describe the rules or the bots?</h2>",
            _sanity_html(result["sanity"], result["games"]),
            "<h2>Results</h2>",
            charts.grid([charts.rate_bars("Win share per seat", [label.replace(" (", "\n(") for label in labels],
                                          shares, intervals, 1 / seats,
                                          ylabel="win share (shared win = 1/k)"),
                         charts.histograms(["Game length"], [result["lengths"]], "decisions per game")[0]]),
            "<p class='note'>Bars: 95% Wilson intervals; dashed line: the fair share 1/players. Histograms: "
            "share of games per whole-number bin, with the mean.</p>",
            *_strength_html(result, "simulate"),
            "<h2>Final scores per seat (same bins and scale in every panel)</h2>",
            charts.grid(charts.histograms([f"Score of {label}" for label in labels], result["scores"], "final score")),
            "<p class='note'>Mean scores: " + html.escape(", ".join(
                f"{label} {m:.2f} (sd {sd:.2f})" for label, m, sd in
                zip(labels, result["mean_scores"], result["score_stdev"]))) + ".</p>"]
    return _page(f"{game.name} simulation", body)


def _cap_text(result: dict) -> str:
    """The cap on decisions per game, when the run says what it was."""
    cap = result.get("decision_cap")
    return f"; at most {cap} decisions per game" if cap is not None else ""


def html_sweep(game, result: dict) -> str:
    names, players, points = result["swept"], result["players"], result["points"]
    labels = [f"{game.player_names[s]} ({spec})" for s, spec in enumerate(result["seats"])]
    body = [f"<h1>{html.escape(game.name)}: sweep of {html.escape(' × '.join(names))}</h1>",
            f"<p>{len(points)} settings × {result['games_per_point']} games, seeds {result['seed']}.."
            f"{result['seed'] + result['games_per_point'] - 1} at every setting; bots: "
            f"{html.escape(', '.join(labels))}.</p>",
            "<h2>Parameters</h2>", _params_table(game, {**{n: None for n in names}, **result["fixed"]}, names)]
    if len(names) == 1:
        name = names[0]
        raw = [p["params"][name] for p in points]
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw)
        xs = raw if numeric else list(range(len(raw)))
        xl = None if numeric else [json.dumps(v) for v in raw]
        panels = [charts.lines("Win share per seat", xs,
                               [(labels[s], [p["win_share"][s] for p in points], [p["win_share_ci95"][s] for p in points])
                                for s in range(players)], name, "win share", percent=True, fair=1 / players, x_labels=xl),
                  charts.lines("Game length", xs, [("mean decisions", [p["mean_decisions"] for p in points],
                                                   [p["decisions_ci95"] for p in points])], name,
                               "decisions per game", x_labels=xl),
                  charts.lines("Mean final score per seat", xs,
                               [(labels[s], [p["mean_scores"][s] for p in points], [p["score_ci95"][s] for p in points])
                                for s in range(players)], name, "mean score", x_labels=xl)]
        body += ["<h2>How the results move with " + html.escape(name) + "</h2>", charts.grid(panels),
                 "<p class='note'>Bands: 95% intervals (Wilson for win shares, t for means); dashed line: "
                 "the fair share.</p>"]
    else:
        xs = sorted({json.dumps(p["params"][names[0]]) for p in points}, key=lambda t: _order(t))
        ys = sorted({json.dumps(p["params"][names[1]]) for p in points}, key=lambda t: _order(t))
        cell = {(json.dumps(p["params"][names[0]]), json.dumps(p["params"][names[1]])): p for p in points}
        panels = [charts.heatmap(f"Win share of seat 1 ({labels[0]})", xs, ys,
                                 {k: p["win_share"][0] for k, p in cell.items()}, names[0], names[1], percent=True,
                                 centre=1 / players, intervals={k: p["win_share_ci95"][0] for k, p in cell.items()}),
                  charts.heatmap("Mean decisions per game", xs, ys,
                                 {k: p["mean_decisions"] for k, p in cell.items()}, names[0], names[1])]
        numeric = [json.loads(x) for x in xs]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in numeric):
            series = []
            for y in ys:
                row = [cell.get((x, y)) for x in xs]
                series.append((f"{names[1]} = {y}", [p["win_share"][0] for p in row],
                               [p["win_share_ci95"][0] for p in row]))
            panels.insert(1, charts.lines(f"Win share of seat 1 by {names[0]}", numeric, series, names[0],
                                          "win share", percent=True, fair=1 / players))
        body += ["<h2>Grid</h2>", charts.grid(panels),
                 "<p class='note'>Seat 1's win share with its 95% Wilson interval in each cell and as bands "
                 "(a win shared by k counts 1/k); dashed line: the fair share.</p>"]
    rows = []
    for p in points:
        rows.append([json.dumps(p["params"][n]) for n in names]
                    + [f"{100 * s:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})" for s, (lo, hi) in zip(p["win_share"], p["win_share_ci95"])]
                    + [f"{p['mean_decisions']:.1f}", f"{100 * p['short_rate']:.0f}%", f"{100 * p['shared_rate']:.0f}%"])
    body += ["<h2>Table</h2>", _table(names + [f"win share {label}" for label in labels]
                                      + ["mean decisions", "short games", "shared wins"], rows)]
    warned = [f"{', '.join(f'{k}={json.dumps(v)}' for k, v in p['params'].items())}: {w}"
              for p in points for w in p["warnings"]]
    body += [f"<div class='warn'>warning ({html.escape(w)})</div>" for w in warned[:10]]
    body += _strength_html(result, "sweep")
    return _page(f"{game.name} sweep", body)


def _order(text: str):
    value = json.loads(text)
    return (0, value, "") if isinstance(value, (int, float)) else (1, 0, str(value))


def png_report(path: str, game, result: dict) -> None:
    plt = _pyplot()
    seats = len(result["seats"])
    labels = seat_labels(game, result)
    columns = min(4, seats + 2)
    rows = -(-(seats + 2) // columns)
    fig, axes = _figure(plt, rows, columns, (4.2 * columns, 3.4 * rows), result, "simulate")
    flat = [ax for row in axes for ax in row]
    shares = result["win_share_rates"]
    intervals = [stats.wilson_interval(s, result["finished"]) for s in result["win_shares"]]
    ax = flat[0]
    ax.bar(range(seats), shares, yerr=_error_bars(shares, intervals), capsize=4)
    ax.axhline(1 / seats, linestyle="--", color="#333", label=f"fair share {100 / seats:.0f}%")
    ax.set_xticks(range(seats), [game.player_names[s] for s in range(seats)])
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_ylabel("win share")
    ax.set_title("Win share per seat (95% CI)")
    ax.legend(fontsize=8)
    lo, width, count = charts.whole_bins([result["lengths"]])
    _hist(flat[1], result["lengths"], lo, width, count, "Game length", "decisions per game")
    lo, width, count = charts.whole_bins(result["scores"])
    top = 0
    for s in range(seats):
        top = max(top, _hist(flat[2 + s], result["scores"][s], lo, width, count, f"Score of {labels[s]}", "final score"))
    for s in range(seats):
        flat[2 + s].set_ylim(0, top * 1.1)
    for ax in flat[seats + 2:]:
        ax.axis("off")
    fig.suptitle(f"{game.name}: {result['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _error_bars(values: list, intervals: list) -> list:
    """Matplotlib's error bars (below, above) of values with their intervals; a bound that rounding
    leaves a hair inside its value (a Wilson interval of 10 wins in 10 ends at 0.9999…) gives 0."""
    return [[max(0.0, v - lo) for v, (lo, _) in zip(values, intervals)],
            [max(0.0, hi - v) for v, (_, hi) in zip(values, intervals)]]


def _figure(plt, rows: int, columns: int, size: tuple, result: dict, command: str, **grid) -> tuple:
    """A figure of rows × columns panels (returned as a list of rows) and, across the bottom when the
    run had a strength check, a table of its verdicts with the game length and short-game lines."""
    check = result.get("strength_check")
    width, height = size
    below = _panel_height(check, command, width) if check else 0
    fig = plt.figure(figsize=(width, height + below))
    spec = fig.add_gridspec(rows + bool(check), columns, height_ratios=[height / rows] * rows + [below] * bool(check),
                            **grid)
    axes = [[fig.add_subplot(spec[r, c]) for c in range(columns)] for r in range(rows)]
    if check:
        _strength_panel(fig.add_subplot(spec[rows, :]), check, command)
    return fig, axes


PANEL_COLUMNS = ("", "weak (95% CI)", "strong (95% CI)", "strong − weak (95% CI)", "Holm p", "verdict",
                 "games to tell")
VERDICT_COLOUR = {strength.HOLDS: "#1a7f37", strength.CHANGES: "#c62828", strength.CANNOT_TELL: "#8a5a00"}


def panel_cells(row: dict) -> list:
    """A row of the check in the PNG's panel: the terminal's cells, each effect with its interval."""
    cells = strength_text.row_cells(row)
    return [cells[0], f"{cells[1]} ({cells[2]})", f"{cells[3]} ({cells[4]})", f"{cells[5]} ({cells[6]})",
            cells[8], cells[9], cells[10]]


HEADING_SIZE = 10  # points


def _text_size(figure_width: float) -> int:
    """The size (points) of the table and the notes in the panel of a figure this wide (inches)."""
    return 9 if figure_width >= 12 else 8


def _characters(figure_width: float, size: float) -> int:
    """Characters per line of text this size that fit across the panel before the layout shrinks the
    charts: the width of the figure's default axes (about 77% of it), at about 0.6 em a character."""
    return int(0.77 * figure_width * 72 / (0.6 * size))


def _panel_texts(check: dict, command: str, figure_width: float) -> tuple:
    """The panel's heading and its notes (the game length and short-game lines), each wrapped to
    the width of the figure (inches)."""
    notes = _characters(figure_width, _text_size(figure_width))
    return (textwrap.fill(strength_text.heading(check, strength_text.TITLES[command]),
                          _characters(figure_width, HEADING_SIZE)),
            [textwrap.fill(line, notes, initial_indent="• ", subsequent_indent="   ")
             for line in strength_text.notes(check)])


def _panel_height(check: dict, command: str, figure_width: float) -> float:
    """The height (inches) of the panel: its heading, the table's header and rows, and the notes
    under the table, each wrapped line counted (a line of text is 1.3 times its size high)."""
    heading, notes = _panel_texts(check, command, figure_width)
    lines = sum(note.count("\n") + 1 for note in notes)
    return (0.45 + 1.3 * HEADING_SIZE / 72 * (heading.count("\n") + 1) + 0.22 * len(check["rows"])
            + (0.1 + 1.3 * _text_size(figure_width) / 72 * lines if notes else 0))


def _strength_panel(ax, check: dict, command: str) -> None:
    ax.axis("off")
    size = _text_size(ax.figure.get_figwidth())
    heading, notes = _panel_texts(check, command, ax.figure.get_figwidth())
    ax.set_title(heading, fontsize=HEADING_SIZE, loc="left", parse_math=False)
    rows = [panel_cells(row) for row in check["rows"]]
    table = ax.table(cellText=rows, colLabels=PANEL_COLUMNS, loc="upper left", cellLoc="right",
                     colLoc="right", edges="open")
    table.auto_set_font_size(False)
    table.set_fontsize(size)
    table.auto_set_column_width(range(len(PANEL_COLUMNS)))
    for (r, c), cell in table.get_celld().items():
        text = cell.get_text()
        if not r:
            cell.visible_edges = "B"
            text.set_fontweight("bold")
        if c in (0, PANEL_COLUMNS.index("verdict")):
            cell.set_text_props(ha="left")
        if r and c == PANEL_COLUMNS.index("verdict"):
            text.set_color(VERDICT_COLOUR.get(check["rows"][r - 1]["verdict"], "black"))
            text.set_fontweight("bold")
    if notes:  # under the table wherever the layout puts it, from the panel's left edge like the heading
        ax.annotate("\n".join(notes), xy=(0, 0), xycoords=("axes fraction", table), xytext=(0, -6),
                    textcoords="offset points", ha="left", va="top", fontsize=size, annotation_clip=False,
                    parse_math=False)


def _hist(ax, values, lo, width, count, title, xlabel) -> float:
    edges = [lo + k * width for k in range(count + 1)]
    weights = [1 / len(values)] * len(values) if values else []
    heights, _, _ = ax.hist(values, bins=edges, weights=weights, edgecolor="white")
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.set_title(title, fontsize=10)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of games")
    ax.grid(axis="y", alpha=0.3)
    return max(heights, default=0)


def png_sweep(path: str, game, result: dict) -> None:
    plt = _pyplot()
    names = result["swept"]
    if len(names) == 2:
        _png_grid(plt, path, game, result)
        return
    players, points = result["players"], result["points"]
    xs = [p["params"][names[0]] for p in points]
    positions = xs if all(isinstance(x, int) and not isinstance(x, bool) for x in xs) else list(range(len(xs)))
    fig, (axes,) = _figure(plt, 1, 2, (11, 4), result, "sweep")
    for s in range(players):
        axes[0].errorbar(positions, [p["win_share"][s] for p in points],
                         yerr=_error_bars([p["win_share"][s] for p in points], [p["win_share_ci95"][s] for p in points]),
                         marker="o", capsize=3, label=game.player_names[s])
    axes[0].axhline(1 / players, linestyle="--", color="#333", label="fair share")
    axes[0].set_ylim(0, 1)
    axes[0].yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    axes[0].set(title="Win share per seat (95% CI)", xlabel=names[0], ylabel="win share")
    axes[0].legend(fontsize=8)
    axes[1].errorbar(positions, [p["mean_decisions"] for p in points],
                     yerr=_error_bars([p["mean_decisions"] for p in points], [p["decisions_ci95"] for p in points]),
                     marker="o", capsize=3)
    axes[1].set(title="Game length (95% CI)", xlabel=names[0], ylabel="decisions per game")
    for ax in axes:
        ax.set_xticks(positions, [str(x) for x in xs])
        ax.grid(alpha=0.3)
    fig.suptitle(f"{game.name}: sweep of {names[0]}, {result['games_per_point']} games per value")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _png_grid(plt, path: str, game, result: dict) -> None:
    """A sweep of two parameters: seat 1's win share as a heatmap centred on the fair share (with
    intervals) and as one line per value of the second parameter, and the mean length as a heatmap."""
    (xname, yname), players, points = result["swept"], result["players"], result["points"]
    xs = sorted({json.dumps(p["params"][xname]) for p in points}, key=_order)
    ys = sorted({json.dumps(p["params"][yname]) for p in points}, key=_order)
    cell = {(json.dumps(p["params"][xname]), json.dumps(p["params"][yname])): p for p in points}
    fair = 1 / players
    fig, (axes,) = _figure(plt, 1, 3, (16, 4.6), result, "sweep", width_ratios=[1.1, 1.2, 1])
    share = [[cell[x, y]["win_share"][0] for x in xs] for y in ys]
    spread = max(fair, 1 - fair)
    image = axes[0].imshow(share, cmap="RdBu", vmin=fair - spread, vmax=fair + spread, aspect="auto")
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            p = cell[x, y]
            lo, hi = p["win_share_ci95"][0]
            dark = abs(p["win_share"][0] - fair) > 0.6 * spread
            axes[0].text(i, j, f"{100 * p['win_share'][0]:.0f}%\n{100 * lo:.0f}–{100 * hi:.0f}%", ha="center",
                         va="center", fontsize=8, color="white" if dark else "black")
    bar = fig.colorbar(image, ax=axes[0], fraction=0.05)
    bar.ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    bar.set_label(f"seat 1 win share (white: fair share {100 * fair:.0f}%)")
    axes[0].set_title(f"Win share of seat 1, {game.player_names[0]} (95% CI)", fontsize=10)
    lengths = [[cell[x, y]["mean_decisions"] for x in xs] for y in ys]
    shortest, longest = min(map(min, lengths)), max(map(max, lengths))
    fig.colorbar(axes[2].imshow(lengths, cmap="Blues", aspect="auto"), ax=axes[2], fraction=0.05)
    for j, row in enumerate(lengths):
        for i, value in enumerate(row):
            dark = longest > shortest and (value - shortest) / (longest - shortest) > 0.55
            axes[2].text(i, j, f"{value:.0f}", ha="center", va="center", fontsize=8,
                         color="white" if dark else "black")
    axes[2].set_title("Mean decisions per game", fontsize=10)
    for ax in (axes[0], axes[2]):
        ax.set_xticks(range(len(xs)), xs)
        ax.set_yticks(range(len(ys)), ys)
        ax.set(xlabel=xname, ylabel=yname)
    numeric = [json.loads(x) for x in xs]
    positions = numeric if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in numeric) \
        else list(range(len(xs)))
    gap = min((b - a for a, b in zip(positions, positions[1:])), default=1)
    for j, y in enumerate(ys):
        row = [cell[x, y] for x in xs]
        values = [p["win_share"][0] for p in row]
        dodge = (j - (len(ys) - 1) / 2) * 0.06 * gap  # lines side by side, so equal ones stay visible
        axes[1].errorbar([x + dodge for x in positions], values,
                         yerr=_error_bars(values, [p["win_share_ci95"][0] for p in row]),
                         marker="o", capsize=3, label=f"{yname} = {y}", alpha=0.85)
    axes[1].axhline(fair, linestyle="--", color="#333", label="fair share")
    axes[1].set_ylim(0, 1)
    axes[1].yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    axes[1].set_xticks(positions, xs)
    axes[1].set(title=f"Win share of seat 1 by {xname} (95% CI)", xlabel=xname, ylabel="win share")
    axes[1].title.set_fontsize(10)
    axes[1].grid(alpha=0.3)
    axes[1].legend(fontsize=8)
    fig.suptitle(f"{game.name}: sweep of {xname} × {yname}, {result['games_per_point']} games per setting, "
                 f"bots {display.bots(result['seats'])}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
