"""Where ruleset names lead (interpreter/store/search_path.py), and the commands about it: ``rulebook where``,
``rulebook new``, ``rulebook --version``; the shipped data found as package resources (rulebook_data)."""
from __future__ import annotations

import json
import os

import pytest

import rulebook_data
from dsl.schema import SCHEMA_PATH
from interpreter import find_ruleset, load_game
from interpreter.analysis.match_log import log_header, read_logs, replay
from interpreter.cli import main
from interpreter.store import search_path
from rulebook_data import rulebook_version

from conftest import ROOT

PIG = """\
game: {name: Mine, players: {min: 2, max: 2}}
vars: {n: 0}
flow:
  - n = 1
scoring:
  score: 0
"""


@pytest.fixture
def places(tmp_path, monkeypatch):
    """An empty current folder and an empty user folder (XDG_DATA_HOME), in that order."""
    here, data = tmp_path / "here", tmp_path / "data"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.delenv("RULEBOOK_PATH", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    return here, data / "rulebook" / "rulesets"


def write(folder, name: str, text: str = PIG):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_shipped_data_are_the_top_level_folders_as_package_resources():
    assert rulebook_data.RULESETS == (ROOT / "rulesets").resolve()
    assert rulebook_data.SCHEMAS == (ROOT / "schemas").resolve() == SCHEMA_PATH.parent
    assert (rulebook_data.DOCS / "games" / "gangster.md").is_file()
    assert search_path.SHIPPED == rulebook_data.RULESETS


def test_the_user_folder_follows_xdg_and_rulebook_path(places, tmp_path, monkeypatch):
    _, user = places
    assert search_path.user_folders() == [user]
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")  # the XDG spec: ignored unless absolute
    assert search_path.user_folders() == [search_path.Path.home() / ".local" / "share" / "rulebook" / "rulesets"]
    monkeypatch.setenv("RULEBOOK_PATH", os.pathsep.join([str(tmp_path / "a"), "", str(tmp_path / "b")]))
    assert search_path.user_folders() == [tmp_path / "a", tmp_path / "b"]


def test_names_are_searched_here_then_in_the_user_folder_then_the_shipped_ones(places):
    here, user = places
    assert find_ruleset("pig") == rulebook_data.RULESETS / "examples" / "pig.yaml"
    mine = write(user, "pig.yaml")
    assert find_ruleset("pig") == mine
    local = write(here / "rulesets" / "games", "pig.yaml")
    assert find_ruleset("pig") == local.resolve() or find_ruleset("pig") == local
    assert [kind for kind, _ in search_path.all_matches("pig")] == ["current folder", "user folder", "shipped"]
    assert load_game("pig").name == "Mine"


def test_a_relative_name_and_a_file_name_find_the_file_in_a_subfolder(places):
    _, user = places
    nested = write(user / "drafts", "tiny.yaml")
    assert search_path.find_named("drafts/tiny") == nested
    assert search_path.find_named("tiny.yaml") == nested
    assert search_path.find_named("classic/kuhn-poker") == rulebook_data.RULESETS / "classic" / "kuhn-poker.yaml"


def test_validate_takes_a_name_with_its_folder(places, capsys):
    _, user = places
    write(user / "drafts", "tiny.yaml")
    code, out, _ = run(capsys, "validate", "drafts/tiny", "classic/kuhn-poker")
    assert code == 0 and out.count(": OK: ") == 2 and str(user / "drafts" / "tiny.yaml") in out
    code, _, err = run(capsys, "validate", "drafts/none")
    assert code == 1 and "drafts/none: no such file or folder" in err


def test_rulebook_path_folders_are_searched_in_their_order(places, tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    write(second, "game.yaml")
    monkeypatch.setenv("RULEBOOK_PATH", os.pathsep.join([str(first), str(second)]))
    assert find_ruleset("game") == second / "game.yaml"
    write(first, "game.yaml")
    assert find_ruleset("game") == first / "game.yaml"


def test_a_variant_in_the_user_folder_extends_a_shipped_ruleset(places):
    _, user = places
    write(user, "short-pig.yaml", "extends: pig\nparams:\n  target: {default: 20}\n")
    assert load_game("short-pig").params["target"] == 20


def test_an_unknown_name_lists_the_names_of_every_folder(places, capsys):
    _, user = places
    write(user, "zebra-game.yaml")
    code, out, err = run(capsys, "validate", "no-such-thing-here")
    assert code == 1 and "known rulesets:" in err and "zebra-game" in err and "gangster" in err
    assert "Traceback" not in err


def test_where_names_the_file_and_what_it_hides(places, capsys):
    _, user = places
    code, out, _ = run(capsys, "where", "gangster")
    assert code == 0 and out == f"gangster: {rulebook_data.RULESETS / 'gangster.yaml'} (shipped)\n"
    mine = write(user, "gangster.yaml")
    code, out, _ = run(capsys, "where", "gangster")
    assert out.splitlines() == [f"gangster: {mine} (user folder)",
                                f"  hides {rulebook_data.RULESETS / 'gangster.yaml'} (shipped)"]


def test_where_without_a_name_lists_the_folders_in_order(places, capsys):
    here, user = places
    code, out, _ = run(capsys, "where")
    folders = [line.split()[-2] if line.endswith("(absent)") else line.split()[-1]
               for line in out.splitlines() if line.startswith("  ")]
    assert code == 0 and folders == [str(here / "rulesets"), str(user), str(rulebook_data.RULESETS)]
    assert str(rulebook_data.SCHEMAS) in out and str(rulebook_data.DOCS) in out


def test_where_an_unknown_name_is_an_error_with_advice(places, capsys):
    code, _, err = run(capsys, "where", "gangstr")
    assert code == 1 and "did you mean 'gangster'" in err


def test_new_writes_the_tutorials_game_into_the_user_folder(places, capsys):
    _, user = places
    code, out, _ = run(capsys, "new", "my-game")
    target = user / "my-game.yaml"
    assert code == 0 and str(target) in out
    lines = target.read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"# yaml-language-server: $schema={SCHEMA_PATH.as_uri()}"
    code, out, _ = run(capsys, "validate", "my-game")
    assert code == 0 and ": OK: my-game: 2-6 (default 2) players" in out
    pig = load_game("pig")
    mine = load_game("my-game")
    assert [str(a) for a in mine.new_initial_state(3).legal_actions()] == \
        [str(a) for a in pig.new_initial_state(3).legal_actions()]


def test_new_refuses_to_overwrite_and_refuses_odd_names(places, capsys):
    _, user = places
    assert run(capsys, "new", "my-game")[0] == 0
    write(user, "my-game.yaml", "# mine\n")
    code, _, err = run(capsys, "new", "my-game")
    assert code == 1 and "does not overwrite" in err
    assert (user / "my-game.yaml").read_text(encoding="utf-8") == "# mine\n"
    for name in ("../escape", "a/b", "x.yaml", "-flag", ""):
        code, _, err = run(capsys, "new", name)
        assert code in (1, 2) and "Traceback" not in err, name
    assert sorted(p.name for p in user.iterdir()) == ["my-game.yaml"]
    assert run(capsys, "new", "123")[0] == 0  # quoted in the file: a text, not a number
    assert load_game("123").name == "123"


def test_new_says_when_the_name_hides_a_shipped_game(places, capsys):
    code, out, _ = run(capsys, "new", "gangster")
    assert code == 0 and "hides" in out and str(rulebook_data.RULESETS / "gangster.yaml") in out


def test_version_comes_from_the_package_metadata(capsys):
    from importlib.metadata import version
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"rulebook {version('rulebook')}\n" == f"rulebook {rulebook_version()}\n"


def test_logs_record_the_version_and_old_logs_still_replay(places, tmp_path, capsys):
    game = load_game("pig")
    assert log_header(game, ["random", "random"])["rulebook_version"] == rulebook_version()
    log = tmp_path / "game.json"
    assert run(capsys, "simulate", "pig", "-n", "1", "--seats", "random,random", "--log", str(log))[0] == 0
    logs = read_logs(log)
    assert logs[0]["rulebook_version"] == rulebook_version()
    for entry in logs:
        del entry["rulebook_version"]  # as a log written before versions were recorded
    log.write_text(json.dumps(logs), encoding="utf-8")
    report = replay(log)
    assert report.ok and report.games == 1
