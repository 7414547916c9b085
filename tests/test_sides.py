"""Teams and cooperation: ``scoring: team:`` and ``scoring: cooperative: true`` for results, bots and
simulations."""
from __future__ import annotations

import json

import pytest

from dsl.errors import ErrorList
from interpreter import load_game
from interpreter.analysis.playing import RunSpec
from interpreter.analysis.simulation import simulate
from interpreter.bots.outcomes import finished_share

def _turns(name, players, state, rounds, options, scoring):
    """A game of ``rounds`` turns round the table, each a choice among ``options`` (name: effect)."""
    lines = [f"game: {{name: {name}, players: {players}}}", state, "flow:", f"  - repeat: {rounds}", "    do:",
             "      - choose:", "          options:"]
    lines += [f"            {option}: {{effects: [{effect}]}}" for option, effect in options.items()]
    lines += ["      - active = next_player(active)", "scoring:"] + [f"  {line}" for line in scoring]
    return "\n".join(lines) + "\n"


TEAMS = _turns("Teams", 4, "player_vars:\n  points: 0", 8,
               {"one": "active.points += 1", "three": "active.points += 3"},
               ["score: player.points", "team: seat(player) % 2"])
TABLE = _turns("Table", 3, "vars:\n  total: 0", 6,
               {"help": "total += 2", "idle": "total += 0", "spoil": "total -= 1"},
               ["cooperative: true", "score: total", "best: 12"])


def _game(tmp_path, text, name="g.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_game(path), path


def _play(game, picks):
    state = game.new_initial_state(0)
    for pick in picks:
        state.apply_action(pick)
    return state


def test_a_team_adds_up_its_scores_and_wins_together(tmp_path):
    game, _ = _game(tmp_path, TEAMS)
    state = _play(game, ["three", "one", "one", "one"] * 2)  # P1 6, P2 2, P3 2, P4 2
    assert state.returns() == [8, 4, 8, 4] and state.winners() == [0, 2]
    assert finished_share(state, 2, 0.5) == 1.0 and finished_share(state, 1, 0.5) == 0.0


def test_a_cooperative_table_has_one_result(tmp_path):
    game, _ = _game(tmp_path, TABLE)
    state = _play(game, ["help", "spoil", "help"] * 2)
    assert state.returns() == [6, 6, 6] and state.winners() == [0, 1, 2]
    assert finished_share(state, 1, 0.5) == 0.5  # 6 of the best 12


def test_a_shared_score_may_not_depend_on_the_player(tmp_path):
    with pytest.raises(ErrorList) as info:
        _game(tmp_path, TABLE.replace("score: total", "score: total + seat(player)"))
    assert "cannot depend on 'player'" in info.value.errors[0].message


def test_flat_bots_play_for_the_shared_score_and_the_report_says_so(tmp_path):
    game, path = _game(tmp_path, TABLE)
    figures = {}
    for bot in ("random", "flat"):
        spec = RunSpec(str(path), {}, 3, [bot] * 3, 1)
        summary, _ = simulate(game, spec, 12)
        figures[bot] = summary["sides"]["cooperative"]
        assert summary["sanity"]["shared_wins"] == 0  # one table, one result: no tie
    assert figures["flat"]["mean"] > figures["random"]["mean"] + 4
    assert figures["flat"]["best_rate"] > figures["random"]["best_rate"]
    assert set(figures["flat"]) >= {"mean_ci95", "distribution", "best_rate_ci95"}


def test_greedy_teams_are_reported_as_teams(tmp_path):
    game, path = _game(tmp_path, TEAMS)
    summary, _ = simulate(game, RunSpec(str(path), {}, 4, ["greedy", "random", "greedy", "random"], 1), 10)
    teams = summary["sides"]["teams"]
    assert teams["team 0"]["seats"] == [0, 2] and teams["team 1"]["seats"] == [1, 3]
    assert teams["team 0"]["win_share_rate"] > teams["team 1"]["win_share_rate"]


def test_explain_says_who_wins_together(tmp_path):
    from dsl.explain import explain
    teams, _ = _game(tmp_path, TEAMS, "teams.yaml")
    table, _ = _game(tmp_path, TABLE, "table.yaml")
    assert "Teams: a player's team is seat(player) % 2" in explain(teams.ruleset)
    assert "Cooperative: the table shares one score, total (the best possible: 12)" in explain(table.ruleset)


def _cli(capsys, *argv):
    from interpreter.cli import main
    code = main([str(a) for a in argv])
    out = capsys.readouterr().out
    assert code == 0
    return out


def test_compare_reports_the_shared_score_of_both_rulesets(capsys):
    out = _cli(capsys, "compare", "fireworks", "fireworks", "-n", 6, "--seats", "random,random,random")
    for side in ("base", "variant"):
        assert f"{side}: cooperative: shared score mean" in out
        assert f"{side}:   best possible result (25) reached in" in out
        assert f"warning ({side}): " in out and "of the games ended within" in out  # random seats misfire early
    result = json.loads(_cli(capsys, "compare", "fireworks", "fireworks", "-n", 6, "--seats", "random,random,random",
                             "--json"))
    coop = result["variant"]["sides"]["cooperative"]
    assert coop["games"] == 6 and coop["best"] == 25 and sum(coop["distribution"].values()) == 6


def test_compare_and_sweep_report_team_win_shares(capsys):
    seats = ["--seats", "random,random,random,random"]
    out = _cli(capsys, "compare", "partners", "partners", "--set", "target=100", "-n", 4, *seats)
    assert "base: team 0 (seats 1, 3):" in out and "variant: team 1 (seats 2, 4):" in out
    out = _cli(capsys, "sweep", "partners", "--set", "target=100,200", "-n", 4, *seats)
    assert "target=100: team 0 (seats 1, 3):" in out and "target=200: team 1 (seats 2, 4):" in out
    points = json.loads(_cli(capsys, "sweep", "partners", "--set", "target=100,200", "-n", 4, *seats, "--json"))["points"]
    for point in points:
        teams = point["sides"]["teams"]
        assert teams["team 0"]["seats"] == [0, 2]
        assert sum(t["win_share_rate"] for t in teams.values()) == pytest.approx(1.0)
        assert all(len(t["win_rate_ci95"]) == 2 for t in teams.values())


def test_sweep_reports_the_shared_score_at_every_setting(capsys, tmp_path):
    text = TABLE.replace("vars:\n  total: 0", "params:\n  gain: {default: 2, min: 0, max: 4}\nvars:\n  total: 0")
    _, path = _game(tmp_path, text.replace("total += 2", "total += gain"))
    out = _cli(capsys, "sweep", path, "--set", "gain=0,4", "-n", 5, "--seats", "greedy,greedy,greedy")
    assert "gain=0: cooperative: shared score mean 0.00" in out
    assert "gain=4: cooperative: shared score mean 24.00" in out  # six turns of help, 4 each
    assert "gain=4:   best possible result (12) reached in 5 games" in out


@pytest.mark.parametrize("ruleset, plays_the_told_card", [
    ("rulesets/fireworks.yaml", True),
    ("without knowledge", False),  # its own hand dealt anew without regard to the clue
])
def test_a_seat_told_its_ones_plays_one_of_them(tmp_path, ruleset, plays_the_told_card):
    from interpreter.bots import make_bot
    from test_determinize import FIREWORKS, KNOWLEDGE
    if ruleset != FIREWORKS:
        _, path = _game(tmp_path, open(FIREWORKS, encoding="utf-8").read().replace(KNOWLEDGE, ""))
        ruleset = path
    game = load_game(ruleset, players=3)
    for seed in (0, 1, 3, 4):
        state = game.new_initial_state(seed)
        state.apply_action(next(a for a in state.legal_actions() if str(a) == "tell P2 about 1s"))
        told = {f"play card {i + 1}" for i, rank in enumerate(state.pvars["rank_hints"][1]) if rank == 1}
        choice = str(make_bot("flat:rollouts=16,budget=512", 1, seed).choose(state))
        assert (choice in told) == plays_the_told_card, (seed, told, choice)
