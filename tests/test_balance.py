"""Balance tools: the cap on decisions, the sanity report, checks before a run, bot option limits,
paired comparison with sequential stopping, tournament ratings."""
import json
import os
import sys

import pytest

from interpreter import load_game
from interpreter.analysis import display, paired, stats
from interpreter.analysis.simulation import SIM_BOT, RunSpec, run, summarize
from interpreter.cli import main

GAME = "la-famiglia"

# A game of pure luck: each seat draws three cards from a shuffled deck; the highest total wins.
# `bonus` adds points to seat 1 after the draw: a known effect that pairs of games share everything else.
LUCK = """
game: {name: Luck, players: 2}
params:
  bonus: {default: 0, min: 0, max: 100}
  rounds: {default: 3, min: 1, max: 10}
components:
  card:
    name: "card {value}"
    attributes: {value: int}
    in: deck
    table: [{value: 1, count: 4}, {value: 2, count: 4}, {value: 3, count: 4}, {value: 5, count: 4},
            {value: 8, count: 4}, {value: 13, count: 4}]
zones:
  deck: {visibility: count}
  hand: {per: player, visibility: all}
player_vars: {points: 0}
setup: [shuffle(deck)]
flow:
  - repeat: rounds * num_players
    do:
      - choose:
          prompt: draw
          options:
            draw: {effects: ["draw(deck, active.hand, 1)"]}
      - active = next_player(active)
  - active.points += bonus
  - end_game()
scoring:
  score: "player.points + sum(c.value for c in player.hand)"
"""


def extra(module: str):
    """An extra's module: a skip when it is missing outside CI, a failure in CI."""
    return __import__(module, fromlist=["_"]) if os.environ.get("CI") else pytest.importorskip(module)


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def luck(tmp_path):
    path = tmp_path / "luck.yaml"
    path.write_text(LUCK, encoding="utf-8")
    return path


def test_luck_ruleset_plays(luck):
    game = load_game(str(luck))
    results = run(game, RunSpec(game.path, dict(game.params), 2, ["random", "random"], 0), 5)
    assert all(r.finished and r.winners for r in results)


# ---- bot options ---------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, message", [
    ("mcts:iterations=-1", "must be from 1"), ("mcts:seconds=nan", "must be from 0"),
    ("mcts:seconds=inf", "must be from 0"), ("flat:rollouts=0", "must be from 1"),
    ("greedy:samples=0", "must be from 1"), ("mcts:shared=1.5", "must be from 0 to 1"),
])
def test_bad_bot_options_are_rejected(capsys, spec, message):
    code, _, err = cli(capsys, "simulate", GAME, "-n", 1, "--seats", f"{spec},random")
    assert code == 1 and message in err and "Traceback" not in err


# ---- max decisions and the sanity report -----------------------------------------------------------
def test_games_cut_off_are_reported_as_unfinished(capsys):
    code, out, _ = cli(capsys, "simulate", "gangster", "--players", 2, "-n", 3, "--seats", "random,random",
                       "--max-decisions", 20, "--json")
    result = json.loads(out)
    assert code == 0 and result["unfinished"] == 3 and result["finished"] == 0
    assert result["decision_cap"] == 20 and all(n == 20 for n in result["lengths"])
    assert result["sanity"]["end_reasons"] == {"unfinished (cut off by --max-decisions)": 3}
    assert any("did not end" in w for w in result["sanity"]["warnings"])


def test_play_with_bots_only_stops_with_an_error_at_the_cap(capsys):
    code, _, err = cli(capsys, "play", "gangster", "--players", 2, "--seats", "random,random",
                       "--seed", 1, "--max-decisions", 10)
    assert code == 1 and "did not end within 10 decisions" in err


def test_sanity_report_warns_about_games_passed_out(capsys):
    code, out, _ = cli(capsys, "simulate", GAME, "-n", 200, "--seats", "greedy,random", "--seed", 1, "--json")
    sanity = json.loads(out)["sanity"]
    assert sanity["short_limit"] == 16 and sanity["short_rate"] > 0.5
    assert sanity["end_reasons"] and sum(sanity["end_reasons"].values()) == 200
    assert sanity["plain_choices"][0]["option"] == "pass"
    assert any("ended within 16 decisions" in w for w in sanity["warnings"])
    # the advice names a stronger setting of the bots that played, not bots already in use
    assert any(f"--seats greedy:samples=4,{SIM_BOT})" in w for w in sanity["warnings"])  # random: the default bot
    assert not any("(flat, mcts)" in w for w in sanity["warnings"])


def test_sanity_advice_for_flat_bots_names_a_stronger_flat():
    from interpreter.analysis import sanity
    advice = sanity.stronger_advice(["flat", "flat:rollouts=2"])
    assert "--seats flat:rollouts=16,budget=128,flat:rollouts=8,budget=128" in advice


@pytest.mark.parametrize("default", [SIM_BOT, "lookahead:margin=1"])
def test_sanity_advice_for_the_default_bot_names_the_setting_check_strength_plays(default):
    """The advice never proposes the bots already playing: it names what --check-strength would play
    (the same bot and options, more time per decision), and the default bot for a bot without one."""
    from interpreter.analysis import sanity
    from interpreter.analysis.strength import stronger_seats
    stronger = stronger_seats([default, default])
    assert stronger[0] != default and stronger[0].startswith(default)  # its options kept, time raised
    advice = sanity.stronger_advice([default, default])
    assert f"--seats {','.join(stronger)})" in advice
    assert f"--seats {SIM_BOT}," in sanity.stronger_advice(["random", default])
    assert stronger_seats(["lookahead:margin=1"]) == ["lookahead:margin=1,rollouts=16,budget=128"]


def test_report_without_a_decision_cap_does_not_print_a_question_mark(capsys):
    from interpreter.analysis import report
    from interpreter.analysis.simulation import summarize
    game = load_game(GAME)
    results = run(game, RunSpec(game.path, dict(game.params), 2, ["random", "random"], 0), 2)
    result = {"seed": 0, "seats": ["random", "random"], "params": game.params, **summarize(results, 2, 1.0)}
    page = report.html_report(game, result)
    assert "?" not in page.split("<h2>")[0] and "games/s." in page
    assert "at most 7 decisions" in report.html_report(game, {**result, "decision_cap": 7})


def test_piped_compare_cuts_no_header(capsys, luck):
    code, out, _ = cli(capsys, "compare", luck, luck, "-n", 4, "--seats", "random,random")
    assert code == 0 and "…" not in out
    header = next(line for line in out.splitlines() if "measure" in line)
    assert header.split() == ["measure", "base", "variant", "change", "95%", "CI", "p", "Holm", "p",
                              "detectable", "effect", "unpaired"]


def test_flat_bot_does_not_pass_out_la_famiglia(capsys):
    """greedy against random passes out three games in four (test above); flat against itself rarely."""
    code, out, _ = cli(capsys, "simulate", GAME, "-n", 8, "--seed", 1, "--json", "--jobs", 2, "--seats", "flat,flat")
    result = json.loads(out)
    assert result["sanity"]["short_rate"] <= 0.25 and result["mean_decisions"] > 40


@pytest.mark.parametrize("report, message", [("missing/dir/x.html", "does not exist"),
                                             ("x.pdf", "cannot write a report as '.pdf'")])
def test_report_path_is_checked_before_the_run(capsys, tmp_path, report, message):
    code, _, err = cli(capsys, "simulate", GAME, "-n", 100000, "--report", tmp_path / report)
    assert code == 1 and message in err


def test_png_report_needs_matplotlib_before_the_run(capsys, tmp_path, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, _, err = cli(capsys, "simulate", GAME, "-n", 100000, "--report", tmp_path / "x.png")
    assert code == 1 and "needs matplotlib" in err


# ---- paired comparison ----------------------------------------------------------------------------
def test_paired_tests_agree_with_scipy():
    scipy_stats = extra("scipy.stats")
    xs = [3, 5, 2, 8, 6, 5, 4, 7, 5, 6]
    ys = [4, 6, 2, 9, 8, 5, 5, 8, 6, 6]
    row = stats.paired_t(xs, ys)
    assert abs(row["p"] - scipy_stats.ttest_rel(ys, xs).pvalue) < 1e-9
    assert stats.binomial_two_sided_p(3, 15) == pytest.approx(scipy_stats.binomtest(3, 15).pvalue)


def _luck_runs(luck, games, bonus):
    base = load_game(str(luck))
    variant = load_game(str(luck), params={"bonus": bonus})
    spec = lambda g: RunSpec(g.path, dict(g.params), 2, ["random", "random"], 0)  # noqa: E731
    return run(base, spec(base), games), run(variant, spec(variant), games)


def test_paired_test_detects_a_small_effect_with_fewer_games_than_the_unpaired_one(luck):
    """A bonus of 1 point to seat 1 (scores have sd ~9): the smallest number of games at which each
    test finds the change in seat 1's score (p < 0.05)."""
    base, variant = _luck_runs(luck, 400, 1)

    def games_needed(key):
        for n in range(10, 401, 10):
            if paired.test(base[:n], variant[:n], "score:1")[key] < 0.05:
                return n
        return 10_000

    paired_n, unpaired_n = games_needed("p"), games_needed("p_unpaired")
    assert paired_n <= 20 < 100 <= unpaired_n
    row = paired.test(base, variant, "score:1")
    assert row["change"] == 1 and row["ci95"] == [1, 1]


def test_compare_json_has_paired_rows(capsys, luck):
    code, out, _ = cli(capsys, "compare", luck, luck, "--set", "rounds=2", "-n", 30, "--seats", "random,random",
                       "--json")
    result = json.loads(out)["comparison"]
    assert code == 0 and result["games"] == 30
    names = [row["measure"] for row in result["rows"]]
    assert names == ["win:1", "win:2", "length", "spread", "score:1", "score:2"]
    assert all(row["p"] == 1.0 and row["change"] == 0 for row in result["rows"])  # the same games


def test_until_significant_stops_early_on_a_clear_change(capsys, tmp_path, luck):
    variant = tmp_path / "bonus.yaml"
    variant.write_text(f"extends: {luck.name}\nparams: {{bonus: {{default: 3}}}}\n", encoding="utf-8")
    code, out, _ = cli(capsys, "compare", luck, variant, "-n", 20, "--seats", "random,random", "--json",
                       "--until-significant", "--measure", "score:1", "--max-games", 400)
    result = json.loads(out)["comparison"]
    assert code == 0 and result["stopped_at_look"] == 1 and result["looks_planned"] == 20
    assert result["threshold"] == pytest.approx(0.05 / 20)
    code, out, _ = cli(capsys, "compare", luck, luck, "-n", 20, "--seats", "random,random", "--json",
                       "--until-significant", "--measure", "win:1", "--max-games", 60)
    result = json.loads(out)["comparison"]
    assert result["stopped_at_look"] is None and result["games"] == 60


# ---- tournament ------------------------------------------------------------------------------------
def test_tournament_ratings_have_intervals_and_order_the_bots(capsys):
    code, out, _ = cli(capsys, "tournament", GAME, "--bots", "greedy,random", "-n", 60, "--seed", 3, "--json")
    result = json.loads(out)
    assert code == 0
    top, bottom = result["standings"]
    assert top["bot"] == "greedy" and top["rating"] > bottom["rating"]
    for row in result["standings"]:
        lo, hi = row["rating_ci95"]
        assert lo <= row["rating"] <= hi and row["games"] == 120
    assert abs(top["win_share"] + bottom["win_share"] - 1) < 1e-3  # shares of 2-player games add to 1


# ---- sweep ----------------------------------------------------------------------------------------
def _int_params():
    from pathlib import Path
    from dsl.explain import parameter_rows
    root = Path(__file__).resolve().parent.parent / "rulesets"
    for path in sorted(root.glob("*.yaml")) + sorted(root.glob("classic/*.yaml")):
        for row in parameter_rows(load_game(str(path)).ruleset):
            if row["type"] == "int":
                low, _, high = row["allowed"].partition("..")
                other = row["default"] + 1 if high in ("…", "") or row["default"] < int(high) else row["default"] - 1
                yield pytest.param(str(path), row["name"], row["default"], other, id=f"{path.stem}-{row['name']}")


@pytest.mark.parametrize("ruleset, name, default, other", list(_int_params()))
def test_sweep_runs_every_shipped_whole_number_parameter(capsys, ruleset, name, default, other):
    players = load_game(ruleset).num_players
    code, out, err = cli(capsys, "sweep", ruleset, "--set", f"{name}={default},{other}", "-n", 1,
                         "--seats", ",".join(["random"] * players), "--max-decisions", 3000, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert [p["params"][name] for p in result["points"]] == [default, other]
    assert all(p["games"] == 1 for p in result["points"])


def test_sweep_grid_of_two_parameters_and_its_report(capsys, tmp_path):
    report = tmp_path / "grid.html"
    code, out, _ = cli(capsys, "sweep", GAME, "--set", "street_size=4..6", "--set", "open_hands=true,false",
                       "--set", "reduction_lasts_turn=false", "-n", 3, "--seats", "random,random",
                       "--report", report)
    assert code == 0 and "street_size" in out and "open_hands" in out
    page = report.read_text(encoding="utf-8")
    # seat 1's share as a heatmap around the fair share and as a line per open_hands value; length
    assert page.count("<svg") == 3 and "http://www.w3.org/2000/svg" in page
    assert "white: the fair share 50%" in page and "open_hands = true" in page and "95% CI" in page
    assert "src=" not in page and "https:" not in page and "<script" not in page  # self-contained
    assert "reduction_lasts_turn" in page


def test_sweep_grid_of_two_parameters_as_png(capsys, tmp_path):
    extra("matplotlib")
    report = tmp_path / "grid.png"
    code, out, _ = cli(capsys, "sweep", GAME, "--set", "street_size=5,6", "--set", "open_hands=true,false",
                       "-n", 2, "--seats", "random,random", "--report", report)
    assert code == 0 and report.read_bytes()[:4] == b"\x89PNG" and "report written" in out


@pytest.mark.parametrize("argv, message", [
    (["--set", "street_size=6"], "nothing to sweep"),
    (["--set", "street_size=8..4"], "runs backwards"),
    (["--set", "street_size=4..6", "--set", "open_hands=true,false", "--set", "joker_only_with_one_match=true,false"],
     "one or two parameters"),
    (["--set", "street_size=4,,6"], "empty value"),
    (["--set", "street_size=40,41"], "street_size"),
])
def test_sweep_errors_are_clear(capsys, argv, message):
    code, _, err = cli(capsys, "sweep", GAME, "-n", 1, *argv)
    assert code == 1 and message in err and "Traceback" not in err


# ---- reports ----------------------------------------------------------------------------------------
def test_simulation_report_is_self_contained_with_shared_whole_number_bins(capsys, tmp_path):
    from interpreter.analysis import charts
    report = tmp_path / "r.html"
    code, _, _ = cli(capsys, "simulate", "gangster", "-n", 4, "--seats", "random,random,random,random",
                     "--report", report)
    page = report.read_text(encoding="utf-8")
    assert code == 0 and "<script" not in page and "src=" not in page
    assert page.count("<svg") == 2 + 4  # win shares, length, one score panel per seat
    assert "fair share 25%" in page and "Sanity" in page and "target" in page
    assert charts.whole_bins([[0, 3, 7], [2, 12]]) == (0, 1, 13)
    assert charts.whole_bins([[0, 100]]) == (0, 5, 21)


def test_png_report(capsys, tmp_path):
    extra("matplotlib")
    report = tmp_path / "r.png"
    code, _, _ = cli(capsys, "simulate", GAME, "-n", 4, "--seats", "random,random", "--report", report)
    assert code == 0 and report.read_bytes()[:4] == b"\x89PNG"


def test_validate_counts_one_parameter_in_the_singular(capsys, tmp_path):
    path = tmp_path / "one.yaml"
    path.write_text(LUCK.replace("  rounds: {default: 3, min: 1, max: 10}\n", "").replace("rounds *", "3 *"),
                    encoding="utf-8")
    code, out, _ = cli(capsys, "validate", path)
    assert code == 0 and "1 parameter (bonus=0)" in out


# ---- strength check --------------------------------------------------------------------------------
# Seat 1 alone decides once.  Without gambles it can only play `steady` (wins on 6..10 of a d10);
# with gambles it may also play `edge` (wins on 3..10) or one of three doors that lose at once.  A
# random seat 1 falls into a door three times in five (so gambles hurt it); a searching one takes the
# edge (so gambles help it): the variant's effect flips sign between a weak and a strong player.
TRAP = """
game: {name: Trap, players: 2}
params:
  gambles: {default: false}
player_vars: {points: 0}
flow:
  - choose:
      prompt: play
      options:
        steady:
          effects:
            - let d = roll(10)
            - if: d >= 6
              then: [active.points = 1]
        edge:
          require: gambles
          effects:
            - let d = roll(10)
            - if: d >= 3
              then: [active.points = 1]
        door:
          params: {door: "range(1, 4)"}
          require: gambles
          effects: [log("a trap")]
  - if: players[0].points == 0
    then: ["players[1].points = 1"]
  - end_game()
scoring:
  score: player.points
"""


@pytest.fixture
def trap(tmp_path):
    base, variant = tmp_path / "trap.yaml", tmp_path / "gambles.yaml"
    base.write_text(TRAP, encoding="utf-8")
    variant.write_text("extends: trap.yaml\nparams: {gambles: {default: true}}\n", encoding="utf-8")
    return base, variant


def _check_rows(out: str) -> dict:
    return {row["measure"]: row for row in json.loads(out)["strength_check"]["rows"]}


def test_strength_check_sees_a_variant_effect_flip_between_weak_and_strong_bots(capsys, trap):
    code, out, err = cli(capsys, "compare", *trap, "-n", 60, "--seats", "random,random",
                         "--check-strength", "flat", "--json")
    assert code == 0, err
    row = _check_rows(out)["win:1"]
    assert row["weak"]["change"] < 0 < row["strong"]["change"]
    assert row["weak"]["significant"] and row["strong"]["significant"]
    assert row["verdict"] == "changes" and row["games_to_tell"] is None
    assert json.loads(out)["strength_check"]["strong"] == ["flat", "flat"]


def test_strength_check_of_simulate_prints_both_strengths_and_a_verdict(capsys, trap):
    code, out, _ = cli(capsys, "simulate", trap[1], "-n", 40, "--seats", "random,random", "--check-strength", "flat")
    assert code == 0
    check = out[out.index("strength check"):]
    seat1 = next(line for line in check.splitlines() if line.strip().startswith("seat 1 win share"))
    assert "changes" in seat1 and "weak 2 × random; strong 2 × flat" in check
    assert "decisions per game: weak" in check


@pytest.mark.parametrize("terminal", [False, True], ids=["piped", "terminal"])
def test_strength_check_headers_name_a_bot_all_seats_share_once_with_the_seat_count(capsys, monkeypatch, tmp_path,
                                                                                      terminal):
    four = tmp_path / "luck4.yaml"
    four.write_text(LUCK.replace("players: 2", "players: 4"), encoding="utf-8")
    if terminal:
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
        monkeypatch.setenv("COLUMNS", "100")
    seats = ["--seats", ",".join(["flat:rollouts=1"] * 4), "--check-strength", "-n", 4]
    commands = {"simulate": ["simulate", four], "compare": ["compare", four, four, "--set", "bonus=0"],
                "sweep": ["sweep", four, "--set", "bonus=0,13"]}
    texts = {}
    for command, argv in commands.items():
        code, out, err = cli(capsys, *argv, *seats)
        assert code == 0, err
        texts[command] = text = " ".join(out.split())  # a terminal's lines wrapped as they may be
        assert "weak 4 × flat:rollouts=1; strong 4 × flat:rollouts=4,budget=128" in text, command
        assert "rollouts=1, flat" not in text and "rollouts=1,flat" not in text, command
    assert "and bots (4 × flat:rollouts=1), tested as pairs" in texts["compare"]
    assert "bots 4 × flat:rollouts=1" in texts["sweep"]


def test_a_header_lists_different_bots_seat_by_seat():
    assert display.bots(["flat:rollouts=16,budget=128"] * 3) == "3 × flat:rollouts=16,budget=128"
    assert display.bots(["flat:rollouts=16,budget=128", "random"]) == "flat:rollouts=16,budget=128 / random"
    assert display.bots(["mcts"]) == "mcts"


def test_strength_check_by_default_plays_a_stronger_setting_of_the_same_bot(capsys, luck):
    """The same ruleset twice at both strengths: no effect, nothing to tell."""
    code, out, _ = cli(capsys, "compare", luck, luck, "--set", "bonus=0", "-n", 30, "--seats",
                       "flat:rollouts=1,flat:rollouts=1", "--check-strength", "--json")
    check = json.loads(out)["strength_check"]
    assert code == 0 and check["strong"] == ["flat:rollouts=4,budget=128"] * 2
    row = _check_rows(out)["score:1"]
    assert row["verdict"] == "cannot tell yet" and row["games_to_tell"] is None  # the same games: nothing to tell


def test_strength_check_holds_for_an_effect_of_the_rules(capsys, tmp_path, luck):
    variant = tmp_path / "bonus.yaml"
    variant.write_text(f"extends: {luck.name}\nparams: {{bonus: {{default: 13}}}}\n", encoding="utf-8")
    code, out, _ = cli(capsys, "compare", luck, variant, "-n", 40, "--seats", "flat,flat", "--check-strength",
                       "--json")
    rows = _check_rows(out)
    assert code == 0 and rows["score:1"]["verdict"] == "holds" and rows["win:1"]["verdict"] == "holds"


def test_strength_check_of_a_sweep_has_a_row_per_setting(capsys, luck):
    code, out, _ = cli(capsys, "sweep", luck, "--set", "bonus=0,13", "-n", 40, "--seats", "random,random",
                       "--check-strength", "flat", "--json")
    rows = json.loads(out)["strength_check"]["rows"]
    assert code == 0 and [row["label"] for row in rows] == ["bonus=0", "bonus=13"]
    assert rows[1]["verdict"] == "holds"


def test_strength_check_needs_a_bot_with_a_stronger_setting(capsys, luck):
    code, _, err = cli(capsys, "simulate", luck, "-n", 2, "--seats", "random,random", "--check-strength")
    assert code == 1 and "has a setting that buys strength" in err and f"--check-strength {SIM_BOT}" in err
    code, _, err = cli(capsys, "simulate", luck, "-n", 2, "--check-strength", "flat,flat,flat")
    assert code == 1 and "lists 3 bots for 2 seats" in err


def _row(change, significant, se=0.05, games=100):
    return {"change": change, "significant": significant, "se": se, "games": games}


@pytest.mark.parametrize("weak, strong, difference, said", [
    (_row(0.1, True), _row(0.2, True), _row(0.1, True), "holds"),        # same direction, size differs
    (_row(0.1, True), _row(-0.1, True), _row(-0.2, False), "changes"),   # opposite directions
    (_row(0.1, True), _row(0.0, False), _row(-0.1, True), "changes"),    # gone at the stronger setting
    (_row(0.1, True), _row(0.05, False), _row(-0.05, False), "cannot tell yet"),
    (_row(0.0, False), _row(0.0, False), _row(0.0, False), "cannot tell yet"),
])
def test_strength_verdicts(weak, strong, difference, said):
    from interpreter.analysis import strength
    assert strength.verdict(weak, strong, difference)[0] == said


def test_games_to_tell_is_the_fewer_of_both_significant_and_the_difference_significant():
    from interpreter.analysis import strength
    # the strong effect (se 0.05, half the detectable 0.14) needs 4x the games; the difference more
    said, games = strength.verdict(_row(0.2, True), _row(0.07, False), _row(-0.13, False, se=0.1))
    assert said == "cannot tell yet" and games == pytest.approx(400, rel=0.05)


def test_stronger_settings_of_each_bot():
    from interpreter.bots import stronger_spec
    assert stronger_spec("flat") == "flat:rollouts=16,budget=128"
    assert stronger_spec("flat:seconds=0.01") == "flat:seconds=0.04"
    assert stronger_spec("mcts:iterations=1000,depth=4") == "mcts:iterations=4000,depth=4"
    assert stronger_spec("mcts:seconds=0.5") == "mcts:seconds=2"
    assert stronger_spec("greedy") == "greedy:samples=4"
    assert stronger_spec("random") is None


def test_flat_by_the_clock_plays_a_game(capsys):
    code, out, _ = cli(capsys, "simulate", GAME, "-n", 1, "--seats", "flat:seconds=0.001,flat", "--json")
    assert code == 0 and json.loads(out)["finished"] == 1


def test_strength_difference_interval_stays_within_what_the_difference_can_be():
    """Three seeds with win-share differences +1, +1, -1: the t interval (-2.5..+3.2) reaches past
    the possible -1..+1 and is cut to it; the cut keeps the interval's agreement with p."""
    from interpreter.analysis import strength
    row = strength._difference("win:1", "seat 1 win share", [0, 0, 1], [1, 1, 0], span=1.0)
    assert row["ci95"] == [-1.0, 1.0] and row["p"] > 0.05
    row = strength._difference("win:1", "seat 1 win share", [0.0] * 30 + [1.0] * 2, [1.0] * 30 + [0.0] * 2,
                               span=1.0)
    assert 0 < row["ci95"][0] < row["ci95"][1] <= 1.0 and row["p"] < 0.05
    unbounded = strength._difference("length", "decisions", [0, 0, 1], [1, 1, 0])
    assert unbounded["ci95"][0] < -1 and unbounded["ci95"][1] > 1


def test_compare_and_sweep_take_the_number_of_players_from_seats_as_simulate_does(capsys):
    """`--seats` with three bots plays three players in compare and sweep too (they refused with
    "--seats lists 3 seat(s), but this game ... has 2 players")."""
    seats = ("--seats", "random,random,random", "-n", 2, "--json")
    code, out, err = cli(capsys, "compare", "pig", "pig", "--set", "target=10", *seats)
    assert code == 0, err
    result = json.loads(out)
    assert result["base"]["players"] == result["variant"]["players"] == 3
    assert [row["measure"] for row in result["comparison"]["rows"]][:3] == ["win:1", "win:2", "win:3"]
    code, out, err = cli(capsys, "sweep", "pig", "--set", "target=10,20", *seats)
    assert code == 0, err
    assert json.loads(out)["players"] == 3
    code, _, err = cli(capsys, "compare", "pig", "pig", "--seats", ",".join(["random"] * 7), "-n", 1)
    assert code == 1 and "7 seat(s)" in err
