"""Replaying a log against rules that changed since it was written says so and names the change.

``tests/logs/*-before-rulings.json`` were written by ``rulebook simulate --log`` before the rulings of
issue 14 changed La Famiglia and Pferderennen Mafia; they carry only the sha256 of the ruleset file
(logs now carry the content hash of the effective ruleset, see interpreter/analysis/fingerprint.py).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.analysis.fingerprint import content_hash
from interpreter.analysis.match_log import replay
from interpreter.cli import main
from test_cli import TINY as CLI_TINY

ROOT = Path(__file__).resolve().parent.parent
OLD_LOGS = ROOT / "tests" / "logs"

# the tiny game of the command-line tests, with a parameter
TINY = CLI_TINY.replace("  players: 2\n", "  players: 2\nparams:\n  prize: {default: 1, min: 0, max: 9}\n", 1)
assert "prize" in TINY

VARIANT = """\
extends: tiny.yaml
game:
  name: Tiny (bigger prize)
params:
  prize: {default: 2}
"""


def _relocated(tmp_path, name: str) -> Path:
    """A copy of an old log whose ruleset path points into this checkout (the log names an absolute
    path of the checkout it was written in); nothing else is touched."""
    log = json.loads((OLD_LOGS / name).read_text(encoding="utf-8"))
    for entry in log:
        entry["ruleset"] = str(ROOT / "rulesets" / Path(entry["ruleset"]).name)
    path = tmp_path / name
    path.write_text(json.dumps(log), encoding="utf-8")
    return path


@pytest.mark.parametrize("name, ruleset", [("pferderennen-mafia-before-rulings.json", "pferderennen-mafia.yaml"),
                                           ("la-famiglia-before-rulings.json", "la-famiglia.yaml")])
def test_a_log_written_before_the_rulings_says_the_ruleset_changed(capsys, tmp_path, name, ruleset):
    log = _relocated(tmp_path, name)
    code = main(["replay", str(log)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("RULESET CHANGED") and "MISMATCH" not in out
    old = json.loads(log.read_text())[0]["ruleset_sha256"]
    assert f"the ruleset changed since this log was written (sha256 {old[:12]}, now " in out
    assert f"{ROOT / 'rulesets' / ruleset} changed" in out


def _write(tmp_path, variant=False):
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    if variant:
        (tmp_path / "bigger.yaml").write_text(VARIANT, encoding="utf-8")
    return tmp_path / ("bigger.yaml" if variant else "tiny.yaml")


def _log(capsys, tmp_path, ruleset) -> Path:
    log = tmp_path / "game.json"
    assert main(["play", str(ruleset), "--seats", "random,random", "--seed", "3", "--log", str(log)]) == 0
    capsys.readouterr()
    return log


def test_logs_carry_the_content_hash_of_the_effective_ruleset(capsys, tmp_path):
    ruleset = _write(tmp_path, variant=True)
    data = json.loads(_log(capsys, tmp_path, ruleset).read_text())
    assert data["ruleset_hash"] == content_hash(load_game(ruleset))
    assert set(data["ruleset_files"]) == {str(ruleset.resolve()), str((tmp_path / "tiny.yaml").resolve())}
    assert "flow" in data["ruleset_sections"]
    # the hash covers the parameters in force and the player count, not only the files
    assert content_hash(load_game(ruleset, params={"prize": 3})) != data["ruleset_hash"]


def test_a_change_in_the_base_of_a_variant_is_named(capsys, tmp_path):
    ruleset = _write(tmp_path, variant=True)
    log = _log(capsys, tmp_path, ruleset)
    old = json.loads(log.read_text())["ruleset_hash"]
    base = tmp_path / "tiny.yaml"
    base.write_text(TINY.replace("{value: 2, count: 2}", "{value: 3, count: 2}"), encoding="utf-8")
    report = replay(log)
    assert not report.ok
    new = content_hash(load_game(ruleset))
    assert report.ruleset_change == (f"the ruleset changed since this log was written (hash {old[:12]}, "
                                     f"now {new[:12]}): {base.resolve()} changed; sections changed: components")
    code = main(["replay", str(log)])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith("RULESET CHANGED") and report.ruleset_change in out


def test_comments_and_layout_do_not_change_the_hash(capsys, tmp_path):
    ruleset = _write(tmp_path)
    log = _log(capsys, tmp_path, ruleset)
    ruleset.write_text("# a comment\n" + TINY.replace("{value: 1, count: 3}", "{count: 3, value: 1}"),
                       encoding="utf-8")
    report = replay(log)
    assert report.ok and report.ruleset_change is None and report.warnings == []


def test_a_change_that_does_not_matter_to_the_game_is_a_warning(capsys, tmp_path):
    ruleset = _write(tmp_path)
    log = _log(capsys, tmp_path, ruleset)
    ruleset.write_text(TINY.replace("max: 9}", "max: 9, description: the prize}"), encoding="utf-8")
    report = replay(log)
    assert report.ok
    assert report.warnings and "sections changed: params" in report.warnings[0]
    assert report.warnings[0].endswith("the log still reproduces")
