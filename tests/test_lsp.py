"""``rulebook lsp`` spoken to over stdio by a small JSON-RPC client (tests/lsp_client.py): the
diagnostics of a broken ruleset are those of ``rulebook validate``, at the same positions, within a
second of opening it; hover, completion and go to definition answer for built-ins, zones, variables
and definitions, also from a variant into the ruleset it extends."""
from __future__ import annotations

import os
import re
import time

import pytest

from conftest import MINIMAL, ROOT
from interpreter.cli import main

try:
    import pygls  # noqa: F401
except ImportError:  # pragma: no cover - the [lsp] extra is missing
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("pygls is not installed (pip install -e '.[lsp]')", allow_module_level=True)

from lsp_client import LspClient  # noqa: E402

BROKEN = MINIMAL.read_text(encoding="utf-8").replace(
    "draw(pile, active.hand, hand_size)", "draw(pile, active.hand, hand_sise)").replace(
    "move(card, table)", "move(card, tabel)").replace(
    "scoring:", "define:\n  best: max(p.score for p in players)\nscoring:")
LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<message>.*)$")


@pytest.fixture(scope="module")
def client():
    lsp = LspClient()
    lsp.initialize()
    yield lsp
    lsp.close()


def validate_output(capsys, path) -> list:
    main(["validate", str(path)])
    out = capsys.readouterr().out
    return [LINE.match(line).groupdict() for line in out.splitlines()]


def test_diagnostics_are_those_of_validate_at_the_same_positions(client, tmp_path, capsys):
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    expected = validate_output(capsys, path)
    assert len(expected) == 2
    started = time.monotonic()
    client.open(path, BROKEN)
    diagnostics = client.diagnostics(path, timeout=5.0)
    elapsed = time.monotonic() - started
    got = [{"line": d["range"]["start"]["line"] + 1, "column": d["range"]["start"]["character"] + 1,
            "message": d["message"]} for d in diagnostics]
    assert got == [{"line": int(e["line"]), "column": int(e["column"]), "message": e["message"]}
                   for e in expected]
    assert elapsed < 1.0, f"diagnostics took {elapsed:.2f} s"
    assert diagnostics[0]["range"]["end"]["character"] - diagnostics[0]["range"]["start"]["character"] == 9

    fixed = BROKEN.replace("hand_sise", "hand_size").replace("tabel", "table")
    client.change(path, fixed, 2)
    assert client.diagnostics(path, timeout=5.0) == []


def _position(text: str, needle: str, offset: int = 0):
    for number, line in enumerate(text.splitlines()):
        if needle in line:
            return number, line.index(needle) + offset
    raise AssertionError(needle)


def opened(client, path, text):
    """``path`` written with ``text``, opened in the server, and checked once."""
    path.write_text(text, encoding="utf-8")
    client.open(path, text)
    client.diagnostics(path, timeout=10.0)
    return path


def test_hover_answers_for_a_builtin_a_zone_and_a_definition(client, tmp_path):
    text = BROKEN.replace("hand_sise", "hand_size").replace("tabel", "table")
    path = opened(client, tmp_path / "hover.yaml", text)
    builtin = client.at("textDocument/hover", path, *_position(text, "shuffle(pile)", 2))
    assert "shuffle(zone: zone)" in builtin["contents"]["value"]
    zone = client.at("textDocument/hover", path, *_position(text, "shuffle(pile)", 9))
    assert "pile" in zone["contents"]["value"] and "zone" in zone["contents"]["value"]
    variable = client.at("textDocument/hover", path, *_position(text, "active.score", 8))
    assert "variable of each player of type int" in variable["contents"]["value"]
    definition = client.at("textDocument/hover", path, *_position(text, "best: max", 1))
    assert "definition" in definition["contents"]["value"] and "max(p.score" in definition["contents"]["value"]
    parameter = client.at("textDocument/hover", path, *_position(text, "active.hand, hand_size", 14))
    assert "parameter, 2 in this game" in parameter["contents"]["value"]


def test_completion_offers_builtins_zones_definitions_keys_and_attributes(client, tmp_path):
    text = BROKEN.replace("hand_sise", "hand_size").replace("tabel", "table")
    path = opened(client, tmp_path / "complete.yaml", text)
    line, character = _position(text, "move(card, table)", 5)
    labels = {i["label"] for i in client.at("textDocument/completion", path, line, character)["items"]}
    assert {"shuffle", "size", "pile", "table", "best", "hand_size", "num_players", "card", "p"} <= labels
    line, character = _position(text, "card.played = true", 5)
    labels = {i["label"] for i in client.at("textDocument/completion", path, line, character)["items"]}
    assert {"value", "played", "owner", "name", "score", "hand"} <= labels
    keys = {i["label"] for i in client.at("textDocument/completion", path, 0, 0)["items"]}
    assert {"game", "zones", "flow", "define", "scoring"} <= keys


def test_go_to_definition_also_into_the_base_of_a_variant(client, tmp_path):
    text = "extends: la-famiglia\nprocedures:\n  turn:\n    - after: \"recruit_or_pass()\"\n" \
           "      insert: ['log(\"street now \" + street_size)']\n"
    path = opened(client, tmp_path / "street.yaml", text)
    found = client.at("textDocument/definition", path, 4, 36)
    assert found["uri"] == (ROOT / "rulesets" / "la-famiglia.yaml").resolve().as_uri()
    base = (ROOT / "rulesets" / "la-famiglia.yaml").read_text(encoding="utf-8").splitlines()
    assert base[found["range"]["start"]["line"]].strip().startswith("street_size:")
    hover = client.at("textDocument/hover", path, 4, 36)
    assert "Cards laid out as the street" in hover["contents"]["value"]


def test_a_name_that_hides_a_built_in_is_a_note_and_hovers_as_the_rulesets_own(client, tmp_path):
    text = (ROOT / "tests" / "compat" / "rulesets" / "pig-own-roll.yaml").read_text(encoding="utf-8").replace(
        "                    - roll()\n", "                    - roll()\n                    - let bonus = builtin.roll(6)\n")
    path = tmp_path / "pig.yaml"
    path.write_text(text, encoding="utf-8")
    client.open(path, text)
    [note] = client.diagnostics(path, timeout=10.0)
    assert note["severity"] == 3 and note["range"]["start"] == {"line": 37, "character": 2}  # Information
    assert note["message"].startswith("note: the procedure 'roll' hides the built-in function roll(sides")
    own = client.at("textDocument/hover", path, *_position(text, "- roll()", 3))["contents"]["value"]
    assert own.startswith("```\nroll()") and "procedure" in own and "hides the built-in" in own
    builtin = client.at("textDocument/hover", path, *_position(text, "builtin.roll(6)", 9))["contents"]["value"]
    assert builtin.startswith("```\nroll(sides: int) -> int") and "procedure" not in builtin
    line, character = _position(text, "builtin.roll(6)", 8)
    labels = {i["label"] for i in client.at("textDocument/completion", path, line, character)["items"]}
    assert {"roll", "shuffle", "players"} <= labels and "turn_total" not in labels
    assert client.at("textDocument/definition", path, *_position(text, "builtin.roll(6)", 9)) is None


@pytest.mark.parametrize("spec, says", [("flat:rollout=16", "has no option 'rollout'"), ("'flot'", "unknown bot 'flot'"),
                                        ('"lookahead:rounds=0"', "must be from 1")])
def test_a_bad_declared_bot_is_marked_on_its_value_as_validate_says(client, tmp_path, capsys, spec, says):
    text = MINIMAL.read_text(encoding="utf-8") + f"bots:\n  default: {spec}\n"
    path = tmp_path / "declared.yaml"
    path.write_text(text, encoding="utf-8")
    [expected] = validate_output(capsys, path)
    client.open(path, text)
    [diagnostic] = client.diagnostics(path, timeout=10.0)
    line, column = len(text.splitlines()), len("  default: ") + 1
    assert (int(expected["line"]), int(expected["column"])) == (line, column)
    assert diagnostic["range"]["start"] == {"line": line - 1, "character": column - 1}
    marked = len("flat") if spec[0] not in "'\"" else len(spec)  # a name, or a quoted value whole
    assert diagnostic["range"]["end"] == {"line": line - 1, "character": column - 1 + marked}
    assert diagnostic["message"] == expected["message"]
    assert "bots: default:" in diagnostic["message"] and says in diagnostic["message"]
