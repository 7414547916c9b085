"""``bots: default:``: the bot settings a ruleset declares for the seats a command is given no bot for
(simulate, compare, sweep and play), shown and checked by ``rulebook validate``."""
from __future__ import annotations

import json

import pytest

from dsl.errors import ParameterError
from interpreter import load_game
from interpreter.cli import main
from interpreter.cli.main import DEFAULT_BOT, HUMAN, SIM_BOT, play_seats, sim_seats

GAME = """game: {name: Count, players: 2}
vars:
  total: 0
flow:
  - repeat: 4
    do:
      - choose:
          options:
            add: {params: {n: "[1, 2]"}, effects: [total += n]}
      - active = next_player(active)
scoring:
  score: total
"""
DECLARED = "focus:budget=8"


def _ruleset(tmp_path, bots="", name="g.yaml"):
    path = tmp_path / name
    path.write_text(GAME + bots, encoding="utf-8")
    return path


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_seats_given_no_bot_get_the_declared_one_else_the_commands_default(tmp_path):
    declared = load_game(_ruleset(tmp_path, f"bots: {{default: '{DECLARED}'}}\n"), cache=False)
    plain = load_game(_ruleset(tmp_path, name="plain.yaml"), cache=False)
    assert sim_seats(None, declared) == [DECLARED, DECLARED]
    assert play_seats(None, declared) == [HUMAN, DECLARED]
    assert sim_seats(None, plain) == [SIM_BOT, SIM_BOT]
    assert play_seats(None, plain) == [HUMAN, DEFAULT_BOT]
    assert sim_seats("random,greedy", declared) == ["random", "greedy"]  # --seats wins


def test_simulate_plays_the_declared_bots_and_reports_them(tmp_path, capsys):
    path = _ruleset(tmp_path, f"bots: {{default: '{DECLARED}'}}\n")
    code, out = _run(capsys, "simulate", path, "-n", 2, "--json")
    assert code == 0
    assert json.loads(out)["seats"] == [DECLARED, DECLARED]


def test_validate_shows_the_declared_bot(capsys):
    code, out = _run(capsys, "validate", "rulesets/fireworks.yaml")
    assert code == 0
    assert "bots: flat:rollouts=16,budget=512" in out


@pytest.mark.parametrize("spec, says", [
    ("flat:rollout=16", "bot 'flat' has no option 'rollout'"),
    ("flot", "flot"),
    ("flat:budget=0", "must be from 1"),
])
def test_a_bad_declaration_is_an_error_at_its_line(tmp_path, capsys, spec, says):
    path = _ruleset(tmp_path, f"bots:\n  default: '{spec}'\n")
    line = GAME.count("\n") + 2
    code, out = _run(capsys, "validate", path)
    assert code == 1
    assert f"g.yaml:{line}:" in out and "bots: default:" in out and says in out
    with pytest.raises(ParameterError) as caught:
        sim_seats(None, load_game(path, cache=False))
    assert caught.value.position.line == line


def test_a_declaration_that_is_not_text_is_a_schema_error(tmp_path, capsys):
    code, out = _run(capsys, "validate", _ruleset(tmp_path, "bots: {default: 3}\n"))
    assert code == 1
    assert "bots.default should be string" in out


def test_a_variant_may_change_the_declaration(tmp_path):
    _ruleset(tmp_path, f"bots: {{default: '{DECLARED}'}}\n")
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: g.yaml\nbots: {default: 'flat:budget=64'}\n", encoding="utf-8")
    assert sim_seats(None, load_game(variant, cache=False)) == ["flat:budget=64"] * 2


def test_the_lobby_starts_the_bot_seats_with_the_declared_bot():
    from interpreter.web.catalog import Catalog
    catalog = Catalog("rulesets")
    assert catalog.details("fireworks")["bot"] == "flat:rollouts=16,budget=512"
    assert catalog.details("hearts")["bot"] is None


def test_the_lobby_refuses_a_ruleset_whose_declared_bot_is_bad_before_a_table_exists(tmp_path, capsys):
    from dsl.errors import ErrorList
    from interpreter.web.catalog import Catalog
    from interpreter.web.sandbox import check
    path = _ruleset(tmp_path, "bots:\n  default: 'flat:rollout=16'\n")
    line = GAME.count("\n") + 2
    code, validated = _run(capsys, "validate", path)
    assert code == 1
    catalog = Catalog(tmp_path)
    details = catalog.details("g")
    assert f"g.yaml:{line}:" in details["error"]  # the lobby shows it and offers no table
    assert details["error"].split(": ", 1)[1] in validated  # with validate's message
    with pytest.raises(ErrorList):
        catalog.load("g")  # and a table asked for anyway is refused by the same check
    designer = check(path.read_text(encoding="utf-8"), str(tmp_path), {}, None)
    assert not designer["ok"] and designer["errors"][0]["line"] == line
    assert designer["errors"][0]["message"] == "bots: default: bot 'flat' has no option 'rollout'"


def test_the_lobby_marks_a_declared_bot_beyond_the_servers_limits(tmp_path):
    from interpreter.web.catalog import Catalog
    _ruleset(tmp_path, "bots: {default: 'flat:rollouts=5000'}\n")
    details = Catalog(tmp_path).details("g")
    assert details["bot"] == "flat:rollouts=5000" and "error" not in details
    assert details["bot_limit"] == "bot 'flat': rollouts is at most 1,000 on this server, not 5000"
    assert Catalog("rulesets").details("fireworks")["bot_limit"] is None
