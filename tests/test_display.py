"""The ``display:`` section (docs/language.md, "Display"): checked names, load-time field counts,
merged by variants, kept by the load cache, and carried to the web table as static ruleset data."""
import json
import os
import re
from pathlib import Path

import pytest

from interpreter import ErrorList, load_game

SEED_GAMES = ["pferderennen-mafia", "gangster", "la-famiglia", "mafiadollar"]

TINY = """\
game: {name: Tiny race, players: 2}
params:
  size: {default: 9, min: 1, max: 20}
components:
  token: {attributes: {n: int}, marks: {pos: 0}, in: board, table: [{n: 1}, {n: 2}]}
zones:
  board: {}
vars:
  v: 0
flow:
  - end_game()
"""


def file_of(tmp_path, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path / name


def messages(tmp_path, text):
    """(line, message) of every error the ruleset ``text`` has."""
    with pytest.raises(ErrorList) as info:
        load_game(file_of(tmp_path, "game.yaml", text), cache=False)
    return [(e.position.line, e.message) for e in info.value.errors]


def test_a_track_counts_its_fields_from_parameters(tmp_path):
    game = load_game(file_of(tmp_path, "game.yaml", TINY + "display:\n  tracks:\n    - {zone: board, attribute: pos, "
                                                          "fields: size + 1, finish: size}\n"), params={"size": 12}, cache=False)
    track = game.ruleset.display["tracks"][0]
    assert (track["fields"], track["finish"], track["start"]) == (13, 12, 0)


def test_every_name_the_section_uses_is_checked(tmp_path):
    found = messages(tmp_path, TINY + """\
display:
  labels: {bord: B}
  hide: [token]
  layout: {top: [nope]}
  tracks:
    - {zone: board, attribute: n2, fields: size}
    - {variable: w, fields: sizes}
  faces:
    token: {colour: c, explain: "{x} at {pos}"}
    tok: {value: n}
""")
    text = "\n".join(message for _, message in found)
    assert "'labels' names 'bord'" in text and "'hide' names 'token'" in text
    assert "'layout' places unknown zone 'nope'" in text and "'n2' is none" in text
    assert "unknown variable 'w'" in text and "not 'sizes'" in text
    assert "has no attribute 'c'" in text and "'{x}' is no attribute" in text and "{pos}" not in text
    assert "unknown component kind 'tok'" in text
    assert [line for line, _ in found] == [13, 14, 15, 17, 18, 18, 20, 20, 21]


def test_the_schema_refuses_an_unknown_symbol(tmp_path):
    found = messages(tmp_path, TINY + "display:\n  faces:\n    token: {symbol: dragon}\n")
    assert found and found[0][0] == 14 and "'dragon' is not one of" in found[0][1]


def test_a_variant_merges_the_section_key_by_key(tmp_path):
    file_of(tmp_path, "base.yaml", TINY + "display:\n  lang: de\n  labels: {board: Spielbrett, v: Wert}\n")
    game = load_game(file_of(tmp_path, "variant.yaml", "extends: base.yaml\ndisplay:\n  labels: {v: Zähler}\n"),
                     cache=False)
    assert game.ruleset.display["lang"] == "de"
    assert game.ruleset.display["labels"] == {"board": "Spielbrett", "v": "Zähler"}


def test_a_ruleset_without_it_has_none():
    assert load_game("rulesets/examples/pig.yaml").ruleset.display == {}


def test_the_schema_and_the_checker_know_the_same_symbols():
    from dsl.display import SYMBOLS
    schema = json.loads(Path("schemas/ruleset.schema.json").read_text(encoding="utf-8"))
    assert tuple(schema["$defs"]["display"]["properties"]["faces"]["additionalProperties"]["properties"]
                 ["symbol"]["enum"]) == SYMBOLS


@pytest.mark.parametrize("name", SEED_GAMES)
def test_seed_games_keep_their_display_through_the_cache(name):
    first = load_game(name).ruleset.display
    again = load_game(name).ruleset.display  # read back from the load cache
    assert first == again and first["labels"] and json.loads(json.dumps(first)) == first


def terminal_rows(view, game, terse=False) -> dict:
    """The rows of ``render_view`` in a 120-column terminal, by their label."""
    from rich.console import Console
    from interpreter.cli.render import render_view
    console = Console(width=120, record=True, file=open(os.devnull, "w"))
    console.print(render_view(view, game, menu=False, terse=terse))
    cells = [re.split(r"\s{2,}", line.strip(), maxsplit=1) for line in console.export_text().splitlines()]
    return {cell[0]: cell[1] for cell in cells if len(cell) == 2}


def test_a_top_first_zone_reads_from_its_top_in_the_terminal():
    game = load_game("spice-market", cache=False)
    view = game.new_initial_state(seed=1).view(0)
    assert [t["value"] for t in view["zones"]["diamond_tokens"]] == [5, 5, 5, 7, 7]  # the view lists from the bottom
    rows = terminal_rows(view, game)
    assert rows["Diamond tokens"] == "diamond token 7 ×2, diamond token 5 ×3"
    assert rows["Leather tokens"].startswith("leather token 4, leather token 3, leather token 2")
    assert rows["Market"] == ", ".join(_names(view["zones"]["market"]))  # a zone not listed keeps its order


def _names(content) -> list:
    counts = {}
    for comp in content:
        counts[comp["name"]] = counts.get(comp["name"], 0) + 1
    return [name if n == 1 else f"{name} ×{n}" for name, n in counts.items()]


def test_a_long_top_first_pile_keeps_its_top_in_a_terse_board(tmp_path):
    rows = "".join(f"{{n: {n}}}, " for n in range(1, 13))
    text = TINY.replace("table: [{n: 1}, {n: 2}]", f"name: 'n{{n}}', table: [{rows}]")
    plain = load_game(file_of(tmp_path, "plain.yaml", text), cache=False)
    first = load_game(file_of(tmp_path, "first.yaml", text + "display:\n  top_first: [board]\n"), cache=False)
    view = plain.new_initial_state(seed=0).view(0)
    assert terminal_rows(view, plain, terse=True)["board"] == "…, n8, n9, n10, n11, n12, 12 in all"
    assert terminal_rows(view, first, terse=True)["board"] == "n12, n11, n10, n9, n8, …, 12 in all"
    assert terminal_rows(view, first)["board"].startswith("n12, n11, n10, n9, n8, n7, n6")


def test_top_first_names_zones(tmp_path):
    found = messages(tmp_path, TINY + "display:\n  top_first: [board, bord]\n")
    assert found == [(13, "'top_first' names unknown zone 'bord'")]
    assert messages(tmp_path, TINY + "display:\n  faces:\n    token: {text: n, corner: cost}\n") == \
        [(14, "component kind 'token' has no attribute 'cost'")]
