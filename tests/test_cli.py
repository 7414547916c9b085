"""The ``rulebook`` command line: validate, play, simulate, replay; the bots and the play logs."""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from dsl.errors import ParameterError
from interpreter import load_game
from interpreter.analysis.simulation import SIM_BOT
from interpreter.bots import BOTS, Bot, RandomBot, make_bot, split_specs
from interpreter.cli import main
from interpreter.cli.render import render_view

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
GAME = "la-famiglia"

TINY = """\
game:
  name: Tiny
  players: 2
components:
  token:
    name: "token {value}"
    attributes:
      value: int
    in: pool
    table:
      - {value: 1, count: 3}
      - {value: 2, count: 2}
zones:
  pool: {visibility: all}
  taken: {per: player, visibility: all}
flow:
  - while: not empty(pool)
    do:
      - choose:
          prompt: "Take a token"
          options:
            take:
              text: "take {t}"
              params: {t: pool}
              effects: ["move(t, active.taken)"]
      - active = next_player(active)
scoring:
  score: "sum(t.value for t in player.taken)"
"""

SECRET = """\
game:
  name: Secret
  players: 2
components:
  token:
    name: "token {value}"
    attributes:
      value: int
    in: hand
    table:
      - {value: 1, count: 1, each_player: true}
      - {value: 2, count: 1, each_player: true}
zones:
  hand: {per: player, visibility: owner}
  bid: {per: player, visibility: owner}
flow:
  - repeat: 2
    do:
      - choose:
          prompt: "Bid a token in secret"
          options:
            bid:
              text: "bid {t}"
              params: {t: active.hand}
              effects: ["move(t, active.bid)"]
      - active = next_player(active)
scoring:
  score: "sum(t.value for t in player.bid)"
"""


def run(capsys, *argv) -> tuple[int, str, str]:
    """Run ``rulebook argv...`` in-process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def line_of(text: str, fragment: str) -> int:
    """The 1-based number of the first line of ``text`` containing ``fragment``."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if fragment in line)


def write_ruleset(tmp_path, text: str, name: str = "tiny.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def simulate_json(capsys, *argv) -> dict:
    """``simulate --json`` (with random bots unless --seats is given: quick)."""
    seats = () if "--seats" in argv else ("--seats", "random,random")
    code, out, _ = run(capsys, "simulate", GAME, "--json", *seats, *argv)
    assert code == 0
    return json.loads(out)


# ---- validate ----------------------------------------------------------------------------------
def test_validate_rulesets_folder_passes(capsys):
    code, out, _ = run(capsys, "validate", RULESETS)
    assert code == 0
    assert "la-famiglia.yaml: OK: La Famiglia" in out
    assert len(out.splitlines()) == len(list(RULESETS.rglob("*.yaml")))


def test_validate_tiny_ruleset_summary(capsys, tmp_path):
    code, out, _ = run(capsys, "validate", write_ruleset(tmp_path, TINY))
    assert code == 0
    assert "Tiny: 2 players, 5 components, 2 zones, no parameters" in out


def test_validate_reports_a_misspelt_name_at_its_line(capsys, tmp_path):
    text = TINY.replace("active.taken)", "active.takn)")
    path = write_ruleset(tmp_path, text)
    code, out, _ = run(capsys, "validate", path)
    assert code == 1
    assert f"{path}:{line_of(text, 'active.takn')}:" in out
    assert "takn" in out and "Traceback" not in out


def test_validate_reports_a_missing_key_at_its_line(capsys, tmp_path):
    text = TINY.replace("  name: Tiny\n", "")
    path = write_ruleset(tmp_path, text)
    code, out, _ = run(capsys, "validate", path)
    assert code == 1
    assert f"{path}:{line_of(text, 'game:')}:" in out
    assert "name" in out


def test_validate_prints_every_error_of_every_file(capsys, tmp_path):
    good = write_ruleset(tmp_path, TINY, "good.yaml")
    bad = write_ruleset(tmp_path, TINY.replace("empty(pool)", "empty(pol)").replace("t.value", "t.valu"),
                        "bad.yaml")
    code, out, _ = run(capsys, "validate", tmp_path)
    assert code == 1
    assert f"{good}: OK" in out
    assert sum(line.startswith(f"{bad}:") for line in out.splitlines()) == 2


def test_validate_missing_path_is_a_clear_error(capsys, tmp_path):
    code, _, err = run(capsys, "validate", tmp_path / "nothing.yaml")
    assert code == 1
    assert "no such file" in err


# ---- simulate ----------------------------------------------------------------------------------
def test_simulate_json_has_the_documented_keys(capsys):
    result = simulate_json(capsys, "-n", 20, "--seed", 5)
    for key in ("games", "wins", "mean_scores", "mean_decisions", "games_per_second", "seed", "seats",
                "players", "params"):
        assert key in result
    assert result["games"] == 20
    assert result["players"] == 2 and result["seats"] == ["random", "random"]
    assert result["finished"] == 20 and result["unfinished"] == 0 and "sanity" in result
    assert len(result["wins"]) == 2 and sum(result["wins"]) >= 20
    assert result["mean_decisions"] > 0


def test_simulate_is_deterministic_for_a_seed(capsys):
    def without_timing(result):
        return {k: v for k, v in result.items() if k not in ("seconds", "games_per_second")}

    first = simulate_json(capsys, "-n", 10, "--seed", 7)
    second = simulate_json(capsys, "-n", 10, "--seed", 7)
    other = simulate_json(capsys, "-n", 10, "--seed", 8)
    assert without_timing(first) == without_timing(second)
    assert without_timing(first) != without_timing(other)


def test_simulate_table_output(capsys):
    code, out, _ = run(capsys, "simulate", GAME, "-n", 5, "--seed", 1, "--seats", "random,random")
    assert code == 0
    assert "win rate" in out and "games/s" in out and "sanity" in out


def test_simulate_without_seats_plays_the_default_bot(capsys):
    result = simulate_json(capsys, "-n", 1, "--seats", "greedy,random")
    assert result["seats"] == ["greedy", "random"]
    code, out, _ = run(capsys, "simulate", GAME, "-n", 1, "--json")
    assert code == 0 and json.loads(out)["seats"] == [SIM_BOT, SIM_BOT]


def test_simulate_passes_parameters(capsys):
    result = simulate_json(capsys, "-n", 3, "--set", "street_size=3", "--set", "open_hands=true")
    assert result["params"]["street_size"] == 3 and result["params"]["open_hands"] is True


def test_seats_set_the_number_of_players_the_game_allows(capsys):
    assert load_game("gangster").num_players == 4
    code, out, _ = run(capsys, "simulate", "gangster", "--json", "-n", 1, "--seats", "random,random")
    assert code == 0 and json.loads(out)["players"] == 2 and json.loads(out)["seats"] == ["random", "random"]


@pytest.mark.parametrize("argv, message", [
    (["--seats", "random"], "--seats lists 1 seat(s)"),
    (["--seats", "random,nobody"], "unknown bot 'nobody'"),
    (["--seats", "random,random:depth=3"], "has no option 'depth'"),
    (["--set", "street_size=99"], "street_size"),
    (["--set", "no_such_parameter=1"], "unknown parameter"),
    (["--players", "5"], "players"),
])
def test_simulate_errors_are_clear_messages(capsys, argv, message):
    code, _, err = run(capsys, "simulate", GAME, "-n", 2, *argv)
    assert code == 1
    assert message in err and "Traceback" not in err


def test_unknown_ruleset_is_a_clear_error(capsys):
    code, _, err = run(capsys, "simulate", "no-such-game", "-n", 1)
    assert code == 1
    assert "no ruleset named 'no-such-game'" in err


@pytest.mark.parametrize("argv", [[], ["simulate", GAME], ["simulate", GAME, "-n", "0"],
                                  ["simulate", GAME, "-n", "2", "--set", "street_size"]])
def test_usage_errors_exit_2(capsys, argv):
    assert run(capsys, *argv)[0] == 2


# ---- play --------------------------------------------------------------------------------------
def test_play_with_bots_finishes(capsys):
    code, out, _ = run(capsys, "play", GAME, "--seats", "random,random", "--seed", 3)
    assert code == 0
    assert "P1 (random): " in out and "P2 (random): " in out
    assert "game over" in out and "Scores: " in out


def test_play_with_a_human_by_number(capsys, monkeypatch):
    first = load_game(GAME).new_initial_state(2).legal_actions()[0]
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 500))
    code, out, _ = run(capsys, "play", GAME, "--seed", 2)
    assert code == 0
    assert "P1 (you)" in out and "P2 (random): " in out
    assert f"P1 (human): {first}" in out


def test_play_human_sees_only_its_own_view(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    code, out, _ = run(capsys, "play", GAME, "--seed", 2)
    assert code == 0
    assert "4 face down" in out  # the other hand
    assert "Stopped after 0 moves" in out


def test_play_rejects_bad_input_and_asks_again(capsys, monkeypatch):
    state = load_game(GAME).new_initial_state(2)
    wanted = str(state.legal_actions()[-1])
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"help\nfly away\n99\n{wanted.upper()}\nquit\n"))
    code, out, _ = run(capsys, "play", GAME, "--seed", 2)
    assert code == 0
    assert "'fly away' is none of the" in out
    assert "'99' is none of the" in out
    assert f"P1 (human): {wanted}" in out


def test_play_masks_what_a_human_has_not_seen(capsys, monkeypatch, tmp_path):
    path = write_ruleset(tmp_path, SECRET)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    code, out, _ = run(capsys, "play", path, "--seed", 1)
    assert code == 0
    assert "P1 (human): bid token 1" in out and "P2 (random): bid (details hidden)" in out
    code, out, _ = run(capsys, "play", path, "--seed", 1, "--seats", "random,random")
    assert "P2 (random): bid token" in out


def test_play_end_of_input_quits_cleanly(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    code, out, _ = run(capsys, "play", GAME, "--seed", 2)
    assert code == 0 and "Stopped after" in out


# ---- logs and replay ---------------------------------------------------------------------------
def test_simulate_log_replays(capsys, tmp_path):
    log = tmp_path / "games.json"
    simulate_json(capsys, "-n", 4, "--seed", 11, "--log", log)
    logs = json.loads(log.read_text())
    assert len(logs) == 4 and all(entry["finished"] for entry in logs)
    code, out, _ = run(capsys, "replay", log)
    assert code == 0
    assert out.startswith(f"OK: 4 games, {sum(len(entry['steps']) for entry in logs)} steps")


def test_play_log_replays(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 500))
    assert run(capsys, "play", GAME, "--seed", 4, "--log", log)[0] == 0
    data = json.loads(log.read_text())
    assert data["seats"] == ["human", "random"] and data["seed"] == 4 and data["steps"]
    code, out, _ = run(capsys, "replay", log)
    assert code == 0 and out.startswith(f"OK: {len(data['steps'])} steps")


def test_tampered_log_reports_the_step(capsys, tmp_path):
    log = tmp_path / "game.json"
    assert run(capsys, "play", GAME, "--seats", "random,random", "--seed", 6, "--log", log)[0] == 0
    data = json.loads(log.read_text())
    data["steps"][4]["action"] = "pass" if data["steps"][4]["action"] != "pass" else "keep_street"
    log.write_text(json.dumps(data))
    code, out, _ = run(capsys, "replay", log)
    assert code == 1
    assert "step 5:" in out


def test_changed_digest_reports_the_step(capsys, tmp_path):
    log = tmp_path / "game.json"
    run(capsys, "play", GAME, "--seats", "random,random", "--seed", 6, "--log", log)
    data = json.loads(log.read_text())
    data["steps"][2]["state"] = "0" * 16
    log.write_text(json.dumps(data))
    code, out, _ = run(capsys, "replay", log)
    assert code == 1 and "step 3: the state after" in out


def test_changed_ruleset_reports_the_step(capsys, tmp_path):
    path = write_ruleset(tmp_path, TINY)
    log = tmp_path / "game.json"
    run(capsys, "play", path, "--seats", "random,random", "--seed", 1, "--log", log)
    path.write_text(TINY.replace("{value: 2, count: 2}", "{value: 3, count: 2}"), encoding="utf-8")
    code, out, _ = run(capsys, "replay", log)
    assert code == 1 and out.startswith("RULESET CHANGED")
    assert "the ruleset changed since this log was written" in out and f"{path.resolve()} changed" in out
    assert "sections changed: components" in out and "step 1: the legal actions differ" in out


def test_replay_of_a_non_log_is_a_clear_error(capsys, tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    code, _, err = run(capsys, "replay", path)
    assert code == 1 and "not a rulebook play log" in err


# ---- bots --------------------------------------------------------------------------------------
def test_make_bot_specs():
    bot = make_bot("random", 1, 42)
    assert isinstance(bot, RandomBot) and bot.seat == 1
    state = load_game(GAME).new_initial_state(1)
    assert bot.choose(state) in state.legal_actions()
    with pytest.raises(ParameterError, match="unknown bot") as info:
        make_bot("genius", 0, 1)
    assert all(name in info.value.hint for name in BOTS)
    with pytest.raises(ParameterError, match="not key=value"):
        make_bot("random:fast", 0, 1)


def test_bot_options_are_converted_and_checked(monkeypatch):
    class Tuned(Bot):
        name = "tuned"
        options = {"iterations": 100, "exploration": 0.7, "greedy": False, "seconds": None}

    monkeypatch.setitem(BOTS, "tuned", Tuned)
    bot = make_bot("tuned:iterations=400,greedy=yes,seconds=1.5", 0, 1)
    assert bot.settings == {"iterations": 400, "exploration": 0.7, "greedy": True, "seconds": 1.5}
    with pytest.raises(ParameterError, match="whole number"):
        make_bot("tuned:iterations=many", 0, 1)
    with pytest.raises(ParameterError, match="no option 'depth'") as info:
        make_bot("tuned:depth=3", 0, 1)
    assert "iterations" in info.value.hint


def test_random_bot_is_seeded():
    game = load_game(GAME)
    choices = [[str(make_bot("random", 0, seed).choose(game.new_initial_state(1))) for _ in range(5)]
               for seed in (3, 3)]
    assert choices[0] == choices[1]


def test_split_specs_keeps_bot_options_together():
    assert split_specs("random,random") == ["random", "random"]
    assert split_specs("bot:a=1,b=2, random") == ["bot:a=1,b=2", "random"]


# ---- rendering ---------------------------------------------------------------------------------
def rendered(view: dict, game, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(render_view(view, game))
    return console.export_text()


def test_render_fits_80_columns_and_hides_what_is_hidden():
    game = load_game(GAME)
    state = game.new_initial_state(1)
    text = rendered(state.view(0), game)
    assert all(len(line.rstrip()) <= 80 for line in text.splitlines())
    assert "P1 (you)" in text and "4 face down" in text
    for number, action in enumerate(state.legal_actions(), 1):
        assert f"{number}  {action}" in text
    assert "Waiting for P1" in rendered(state.view(1), game)


def test_render_shows_marks_grids_and_odd_names():
    game = load_game(GAME)
    view = game.new_initial_state(1).view(None)
    street = view["zones"]["street"]
    street[0]["reduction"] = 2
    view["zones"]["odd [zone]"] = {"grid": [[None, street[1]], [None, None]]}
    text = rendered(view, game)
    assert f"{street[0]['name']} (reduction 2)" in text
    assert "odd [zone]" in text and "c2" in text and "r2" in text


# ---- the installed command -----------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("rulebook") is None, reason="the rulebook command is not installed")
def test_installed_command_with_piped_stdin():
    done = subprocess.run(["rulebook", "play", GAME, "--seed", "2"], input="1\n1\n1\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "P1 (human): " in done.stdout and "Stopped after" in done.stdout
    done = subprocess.run(["rulebook", "simulate", GAME, "-n", "3", "--json", "--seats", "random,random"],
                          capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout)["games"] == 3 and not done.stderr
