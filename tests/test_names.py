"""Every command that takes a ruleset takes its name, a shipped variant's name or a path, and the
messages about names, player counts and counts of games read naturally."""
from __future__ import annotations

import json

import pytest

from interpreter.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_takes_ruleset_and_variant_names(capsys):
    code, out, _ = run(capsys, "validate", "la-famiglia", "la-famiglia-street-7")
    assert code == 0
    assert "OK: La Famiglia: 2 players" in out
    assert "OK: La Famiglia (street of 7)" in out
    assert "rulesets/variants/la-famiglia-street-7.yaml" in out


@pytest.mark.parametrize("command", [["params"], ["variants"], ["explain"],
                                     ["simulate", "-n", "1"], ["tournament", "--bots", "random,greedy", "-n", "1"]])
def test_commands_take_a_variant_name(capsys, command):
    code, _, err = run(capsys, command[0], "la-famiglia-street-7", *command[1:])
    assert code == 0, err


def test_compare_takes_a_variant_name(capsys):
    code, out, err = run(capsys, "compare", "la-famiglia", "la-famiglia-street-7", "-n", "2", "--json")
    assert code == 0, err


def test_a_misspelt_name_gets_a_did_you_mean(capsys):
    code, _, err = run(capsys, "validate", "la-famglia")
    assert code == 1
    assert "no ruleset named 'la-famglia'" in err and "did you mean 'la-famiglia'" in err


def test_a_fixed_player_count_reads_naturally(capsys):
    code, _, err = run(capsys, "simulate", "la-famiglia", "--players", "3", "-n", "1")
    assert code == 1
    assert "La Famiglia is for 2 players, not 3" in err and "2 to 2" not in err


@pytest.mark.parametrize("value, message", [("0", "must lie within 1 and 1,000,000,000, not 0"), ("x", "'x' is not a whole number")])
def test_a_bad_count_of_games_is_a_readable_usage_error(capsys, value, message):
    code, _, err = run(capsys, "simulate", "la-famiglia", "-n", value)
    assert code == 2
    assert message in err and "_positive" not in err


def test_the_schema_line_is_not_part_of_a_variants_description(capsys):
    code, out, _ = run(capsys, "variants", "la-famiglia", "--json")
    assert code == 0
    abouts = [row["about"] for row in json.loads(out)["variants"]]
    assert abouts and all(a and "yaml-language-server" not in a for a in abouts)


def test_game_docs_and_rulesets_cite_rulebooks_not_files_outside_the_repository():
    from conftest import ROOT
    texts = list((ROOT / "docs").rglob("*.md")) + list((ROOT / "rulesets").rglob("*.yaml"))
    for path in texts:
        text = path.read_text(encoding="utf-8")
        for outside in ("shared/rulebooks", "FACTS.md", "FACTS default", ".txt"):
            assert outside not in text, f"{path.relative_to(ROOT)} cites {outside}"
    for game, citation in (("gangster", "Ludoart"), ("gangster", "2006"), ("la-famiglia", "Friedemann Friese"),
                           ("mafiadollar", "Heiko Weyen"), ("pferderennen-mafia", "Ginichiro Suzuki")):
        assert citation in (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
