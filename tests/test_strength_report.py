"""The strength check in the reports of simulate and sweep (issue 39): the HTML page shows the
terminal's rows, verdicts and bots; the PNG a panel of the verdicts; untrusted texts stay text."""
import html
import json
import struct

import pytest

from conftest import require_extra
from interpreter import load_game
from interpreter.analysis import report, strength_text
from interpreter.cli import main
from test_balance import LUCK  # seat 1 gets `bonus` points: with 100 it wins every game, at any strength

RUN = ["-n", "10", "--seats", "random,random"]
CHECK = ["--check-strength", "flat"]


@pytest.fixture
def luck(tmp_path):
    path = tmp_path / "luck.yaml"
    path.write_text(LUCK, encoding="utf-8")
    return str(path)


def run(capsys, *argv) -> str:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def checked_report(capsys, tmp_path, *argv) -> tuple:
    """The strength check (from --json) and the HTML report of one run."""
    page_path = tmp_path / "report.html"
    out = run(capsys, *argv, *RUN, *CHECK, "--report", page_path, "--json")
    return json.loads(out)["strength_check"], page_path.read_text(encoding="utf-8")


def cells_in_page(page: str, check: dict) -> None:
    """Every cell of every row of the check, as the terminal prints it, is a cell of the page."""
    for row in check["rows"]:
        for cell in strength_text.row_cells(row)[:strength_text.VERDICT_COLUMN]:
            assert f">{html.escape(cell)}</td>" in page, cell


def test_simulate_report_shows_the_check_as_the_terminal_prints_it(capsys, tmp_path, luck):
    check, page = checked_report(capsys, tmp_path, "simulate", luck, "--set", "bonus=100")
    assert "<h2>Strength check: each seat&#x27;s advantage over the fair share</h2>" in page
    assert "10 games at each strength, the same seeds; weak 2 × random; strong 2 × flat." in page
    assert [row["verdict"] for row in check["rows"]] == ["holds", "holds"]
    assert page.count("<td class='holds'>holds</td>") == 2
    cells_in_page(page, check)
    assert html.escape(strength_text.length_line(check)) in page
    assert html.escape(strength_text.short_lines(check)[0]) in page
    terminal = run(capsys, "simulate", luck, "--set", "bonus=100", *RUN, *CHECK)
    seat1 = next(line for line in terminal.splitlines() if line.strip().startswith("seat 1 win share"))
    assert seat1.split() == " ".join(strength_text.row_cells(check["rows"][0])).split()


def test_sweep_report_shows_a_row_per_setting_with_its_verdict(capsys, tmp_path, luck):
    check, page = checked_report(capsys, tmp_path, "sweep", luck, "--set", "bonus=0,100")
    assert "Strength check: seat 1&#x27;s advantage over the fair share at every setting" in page
    assert "weak 2 × random; strong 2 × flat" in page
    assert [(row["label"], row["verdict"]) for row in check["rows"]] == [("bonus=0", "cannot tell yet"),
                                                                        ("bonus=100", "holds")]
    assert "<td class='cannot-tell'>cannot tell yet</td>" in page and "<td class='holds'>holds</td>" in page
    cells_in_page(page, check)


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_a_report_without_the_check_has_no_section(capsys, tmp_path, luck, command):
    page_path = tmp_path / "plain.html"
    run(capsys, command, luck, "--set", "bonus=0,100" if command == "sweep" else "bonus=100", *RUN,
        "--report", page_path)
    page = page_path.read_text(encoding="utf-8")
    assert "Strength check" not in page and "class='check'" not in page and "games to tell" not in page


def test_untrusted_texts_of_the_check_are_escaped(capsys, tmp_path, luck):
    out = run(capsys, "simulate", luck, "--set", "bonus=100", *RUN, *CHECK, "--json")
    result = json.loads(out)
    check = result["strength_check"]
    check["rows"][0]["label"] = "<script>alert(1)</script>"
    check["strong"] = ["flat<img src=x onerror=alert(2)>"] * 2
    page = report.html_report(load_game(luck, params={"bonus": 100}), result)
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "flat&lt;img src=x onerror=alert(2)&gt;" in page


def png_height(path) -> int:
    data = path.read_bytes()
    assert data[:4] == b"\x89PNG"
    return struct.unpack(">I", data[20:24])[0]


@pytest.mark.parametrize("command, setting", [("simulate", "bonus=100"), ("sweep", "bonus=0,100")])
def test_png_report_gets_a_panel_of_the_verdicts(capsys, tmp_path, luck, command, setting):
    require_extra("matplotlib", "report")
    plain, checked = tmp_path / "plain.png", tmp_path / "checked.png"
    run(capsys, command, luck, "--set", setting, *RUN, "--report", plain)
    run(capsys, command, luck, "--set", setting, *RUN, *CHECK, "--report", checked)
    assert png_height(checked) > png_height(plain)  # the panel lies under the charts


def test_png_report_draws_names_and_labels_with_dollars_as_text(capsys, tmp_path, luck):
    """Matplotlib would read ``$\\frac{$`` as a broken formula and fail; the report prints it, in the
    panel (its table and the lines under it) and in the titles made from the game's name."""
    require_extra("matplotlib", "report")
    out = run(capsys, "simulate", luck, "--set", "bonus=100", *RUN, *CHECK, "--json")
    result = json.loads(out)
    result["strength_check"]["rows"][0]["label"] = r"$\frac{$ seat"
    result["strength_check"]["strong"] = [r"$\frac{$"] * 2
    result["strength_check"]["short_games"]["label"] = r"$\frac{$ setting"  # a short-game line under the table
    game = load_game(luck, params={"bonus": 100})
    game.name = r"$\frac{$ game"
    report.write(str(tmp_path / "dollars.png"), game, result)
    assert png_height(tmp_path / "dollars.png") > 0
    assert report.panel_cells(result["strength_check"]["rows"][0])[0] == r"$\frac{$ seat"


def drawn_panel(monkeypatch, tmp_path, game, result, command) -> tuple:
    """The strength panel's axes, title and texts as ``report`` draws them into a PNG."""
    panels = []
    draw = report._strength_panel

    def keep(ax, check, name):
        draw(ax, check, name)
        panels.append(ax)

    monkeypatch.setattr(report, "_strength_panel", keep)
    path = tmp_path / f"{command}.png"
    (report.write if command == "simulate" else report.write_sweep)(str(path), game, result)
    (ax,) = panels
    return ax, " ".join(ax.get_title(loc="left").split()), [" ".join(t.get_text().split()) for t in ax.texts]


@pytest.mark.parametrize("command, setting", [("simulate", "bonus=100"), ("sweep", "bonus=0,100")])
def test_png_panel_shows_the_length_and_short_game_lines_under_the_table(capsys, monkeypatch, tmp_path, luck,
                                                                         command, setting):
    require_extra("matplotlib", "report")
    result = json.loads(run(capsys, command, luck, "--set", setting, *RUN, *CHECK, "--json"))
    check = result["strength_check"]
    notes = strength_text.notes(check)
    assert len(notes) == 2  # simulate: the length and the short games; sweep: the short games of each setting
    if command == "simulate":
        assert notes[0] == strength_text.length_line(check)
    game = load_game(luck, params={"bonus": 100})
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    ax, title, texts = drawn_panel(monkeypatch, tmp_path, game, result, command)
    assert title == " ".join(strength_text.heading(check, strength_text.TITLES[command]).split())
    (drawn,) = texts
    assert drawn == " ".join(f"• {note}" for note in notes)
    renderer = FigureCanvasAgg(ax.figure).get_renderer()  # the closed figure, as laid out when saved
    (table,) = ax.tables
    below, figure = ax.texts[0].get_window_extent(renderer), ax.figure.bbox
    assert below.y1 <= table.get_window_extent(renderer).y0  # under the table, not over it
    assert figure.x0 <= below.x0 and below.x1 <= figure.x1 and figure.y0 <= below.y0  # nothing cut off


def test_png_panel_grows_with_its_lines(capsys, monkeypatch, tmp_path, luck):
    require_extra("matplotlib", "report")
    result = json.loads(run(capsys, "simulate", luck, "--set", "bonus=100", *RUN, *CHECK, "--json"))
    game = load_game(luck, params={"bonus": 100})
    report.write(str(tmp_path / "lines.png"), game, result)
    bare = json.loads(json.dumps(result))
    bare["strength_check"].update(length=None, short_games=None)
    assert strength_text.notes(bare["strength_check"]) == []
    _, _, texts = drawn_panel(monkeypatch, tmp_path, game, bare, "simulate")
    assert texts == []
    longer = json.loads(json.dumps(result))
    longer["strength_check"]["short_games"]["reading"] += " and more" * 60  # wraps to more lines
    report.write(str(tmp_path / "longer.png"), game, longer)
    heights = [png_height(tmp_path / name) for name in ("simulate.png", "lines.png", "longer.png")]
    assert heights[0] < heights[1] < heights[2]
