"""The strength check's reading of games that end within a few decisions (issue 39): fewer of them
with the stronger bots point at the weaker bots' mistakes, as many or more at rules that let a player
end the game that early on purpose; the paired change is tested over the seeds (exact McNemar)."""
import json

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
