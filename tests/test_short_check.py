"""The strength check's reading of games that end within a few decisions (issue 39): fewer of them
with the stronger bots point at the weaker bots' mistakes, as many or more at rules that let a player
end the game that early on purpose; the paired change is tested over the seeds (exact McNemar)."""
import json

import pytest

from interpreter.analysis import sanity, stats, strength
from interpreter.analysis.playing import GameResult
from interpreter.cli import main

LIMIT = sanity.short_limit_of(2)  # 16 decisions


def results(lengths: list) -> list:
    return [GameResult(seed=i, winners=[0], returns=[1, 0], decisions=n) for i, n in enumerate(lengths)]


def test_fewer_short_games_with_stronger_bots_are_the_bots_doing():
    weak, strong = results([4] * 30 + [90] * 70), results([4] * 5 + [90] * 95)  # 30 -> 5 short, paired
    check = strength.short_check(weak, strong, 2)
    assert check["reading"] == strength.BOTS_END_EARLY
    assert (check["limit"], check["games"], check["weak"], check["strong"]) == (LIMIT, 100, 30, 5)
    assert check["difference"]["change"] == -0.25 and check["difference"]["p"] < 0.05
    lo, hi = check["difference"]["ci95"]
    assert lo <= -0.25 <= hi < 0  # the interval inverts the test: it excludes 0 with p < 0.05


def test_as_many_short_games_with_stronger_bots_are_the_rules():
    weak, strong = results([4] * 40 + [90] * 60), results([4] * 38 + [90] * 62)
    check = strength.short_check(weak, strong, 2)
    assert check["reading"] == strength.RULES_END_EARLY and check["difference"]["p"] >= 0.05
    assert stats.wilson_interval(38, 100)[0] > sanity.SHORT_WARN


def test_a_short_share_near_the_warning_level_cannot_tell_yet():
    weak, strong = results([4] * 6 + [90] * 14), results([4] * 5 + [90] * 15)  # 30% and 25% of 20 games
    assert strength.short_check(weak, strong, 2)["reading"] == strength.CANNOT_TELL


def test_no_reading_without_short_games_to_speak_of():
    assert strength.short_check(results([90] * 50), results([4] * 5 + [90] * 45), 2) is None
    assert strength.short_check([], [], 2) is None


def test_a_game_cut_off_at_either_strength_is_left_out_of_the_pairs():
    weak, strong = results([4] * 30 + [90] * 70), results([4] * 5 + [90] * 95)
    weak[0].finished = False
    assert strength.short_check(weak, strong, 2)["games"] == 99


def test_simulate_prints_the_reading_with_its_test(capsys):
    """La Famiglia: `greedy` passes out most games against `random`; the stronger setting of both
    (four samples, and `flat` for `random`, which has none) passes out fewer."""
    code = main(["simulate", "la-famiglia", "-n", "40", "--seed", "1", "--seats", "greedy,random",
                 "--check-strength", "greedy:samples=4,flat", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    check = json.loads(out)["strength_check"]["short_games"]
    assert check["limit"] == 16 and check["games"] == 40 and check["weak"] > check["strong"]
    assert check["reading"] == strength.BOTS_END_EARLY  # 28 -> 9 of 40 (the bots count samples: no luck of timing)
    code = main(["simulate", "la-famiglia", "-n", "40", "--seed", "1", "--seats", "greedy,random",
                 "--check-strength", "greedy:samples=4,flat"])
    out, _ = capsys.readouterr()
    line = next(line for line in out.splitlines() if line.startswith("games that ended within 16 decisions: weak"))
    assert f"weak {check['weak']} of 40, strong {check['strong']} of 40" in line and "exact McNemar p" in line


def test_readings_of_several_games_are_corrected_together_and_read_again():
    """Six seeds end early with the weak bots only: p = 2/64 alone (the bots' doing), 1/16 after Holm
    over two games (and 24 of 100 short with the stronger bots is not clearly above a fifth)."""
    weak, strong = results([4] * 30 + [90] * 70), results([4] * 24 + [90] * 76)
    alone = strength.short_check(weak, strong, 2)
    assert alone["reading"] == strength.BOTS_END_EARLY and alone["difference"]["p"] == pytest.approx(2 / 64)
    readings = strength.short_across([({"label": "base"}, strength.short_check(weak, strong, 2)),
                                      ({"label": "variant"}, strength.short_check(weak, strong, 2)),
                                      ({"label": "quiet"}, None)])
    assert [r["label"] for r in readings] == ["base", "variant"]
    assert [r["difference"]["p_holm"] for r in readings] == pytest.approx([4 / 64] * 2)
    assert [r["reading"] for r in readings] == [strength.CANNOT_TELL] * 2


def test_the_variants_change_in_short_games_is_paired_at_each_strength():
    base, variant = results([4] * 30 + [90] * 70), results([90] * 10 + [4] * 20 + [90] * 70)
    change = strength.short_effect(base, variant, results([90] * 100), results([90] * 100), 2)
    assert change["limit"] == LIMIT
    assert (change["weak"]["base"], change["weak"]["variant"], change["weak"]["games"]) == (30, 20, 100)
    assert change["weak"]["difference"]["change"] == -0.1 and change["weak"]["difference"]["p"] < 0.05
    assert (change["strong"]["base"], change["strong"]["variant"]) == (0, 0)
    assert change["strong"]["difference"]["p"] == 1.0


# A race of `laps` turns a player (24 decisions by default, above the 16 of a short game): each turn
# the active player walks on, or (when `resignable`) resigns and loses at once.  A random player
# resigns at its first turn or so; a searching one never does.
QUIT = """
game: {name: Quit, players: 2}
params:
  laps: {default: 12, min: 9, max: 20}
  resignable: {default: true}
player_vars: {points: 0}
flow:
  - repeat: laps * num_players
    do:
      - choose:
          prompt: move
          options:
            walk: {effects: [active.points += 1]}
            resign:
              require: resignable
              effects:
                - active.points = -1
                - end_game("resigned")
      - active = next_player(active)
  - end_game()
scoring:
  score: player.points
"""
CHECK = ["-n", "40", "--seats", "random,random", "--check-strength", "flat"]


@pytest.fixture
def quit_race(tmp_path):
    base, variant = tmp_path / "quit.yaml", tmp_path / "ten-laps.yaml"
    base.write_text(QUIT, encoding="utf-8")
    variant.write_text("extends: quit.yaml\nparams: {laps: {default: 10}}\n", encoding="utf-8")
    return str(base), str(variant)


def run_cli(capsys, argv: list) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def flowing(out: str) -> str:
    """The output with its lines joined (the piped width of 240 wraps the longest)."""
    return " ".join(out.split())


def test_compare_reads_the_short_games_of_base_and_variant(capsys, quit_race):
    check = json.loads(run_cli(capsys, ["compare", *quit_race, *CHECK, "--json"]))["strength_check"]
    assert [r["label"] for r in check["short_games"]] == ["base", "variant"]
    for reading in check["short_games"]:
        assert (reading["weak"], reading["strong"], reading["games"]) == (40, 0, 40)
        assert reading["reading"] == strength.BOTS_END_EARLY and reading["difference"]["p_holm"] < 0.05
    change = check["short_games_change"]
    assert (change["weak"]["base"], change["weak"]["variant"], change["strong"]["variant"]) == (40, 40, 0)
    text = flowing(run_cli(capsys, ["compare", *quit_race, *CHECK]))
    read = ("strong − weak -100.0 points (-100.0..-82.4, exact McNemar p 1.82e-12, Holm p 3.64e-12): "
            f"{strength.BOTS_END_EARLY}.")
    assert f"base: games that ended within 16 decisions: weak 40 of 40, strong 0 of 40, {read}" in text
    assert f"variant: games that ended within 16 decisions: weak 40 of 40, strong 0 of 40, {read}" in text
    assert ("the variant's change in games that ended within 16 decisions (base → variant): weak 40 → 40 of 40, "
            "+0.0 points (+0.0..+0.0, exact McNemar p 1); strong 0 → 0 of 40, +0.0 points") in text


def test_sweep_reads_the_short_games_at_every_setting(capsys, quit_race):
    argv = ["sweep", quit_race[0], "--set", "laps=9,12", *CHECK]
    check = json.loads(run_cli(capsys, [*argv, "--json"]))["strength_check"]
    assert [(r["label"], r["params"]) for r in check["short_games"]] == [("laps=9", {"laps": 9}),
                                                                         ("laps=12", {"laps": 12})]
    assert all(r["reading"] == strength.BOTS_END_EARLY for r in check["short_games"])
    text = flowing(run_cli(capsys, argv))
    for setting in ("laps=9", "laps=12"):
        assert f"{setting}: games that ended within 16 decisions: weak 40 of 40, strong 0 of 40," in text
    assert text.count(strength.BOTS_END_EARLY) == 2 and "the variant's change" not in text


def test_no_short_game_line_without_short_games_to_speak_of(capsys, quit_race):
    """Without resigning the race lasts its 24 decisions (20 with ten laps) at both strengths."""
    for argv in (["compare", *quit_race], ["sweep", quit_race[0], "--set", "laps=9,12"]):
        argv = [*argv, "--set", "resignable=false", *CHECK]
        check = json.loads(run_cli(capsys, [*argv, "--json"]))["strength_check"]
        assert check["short_games"] == []
        out = run_cli(capsys, argv)
        assert "strength check" in out and "games that ended within 16" not in out
