"""The "short games" judgement of the sanity report: eight decisions per player, at most 32 in all, so
a race that lasts as long at any table size is not called short at eight players, while games that
really end within a few decisions still are, at any table size."""
from __future__ import annotations

import json

from interpreter.analysis import sanity
from interpreter.analysis.playing import GameResult
from interpreter.cli import main

RACE = """game: {name: Race, players: {min: 2, max: 8, default: 8}}
vars:
  lead: 0
flow:
  - while: lead < LENGTH
    do:
      - choose:
          options:
            run: {effects: [lead += 1]}
            rest: {effects: [lead += 0]}
      - active = next_player(active)
  - end_game('the runner reached the line')
scoring:
  score: lead
"""


def _results(lengths):
    return [GameResult(seed=i, winners=[0], returns=[1.0], decisions=n) for i, n in enumerate(lengths)]


def _short_warning(report):
    return [w for w in report["warnings"] if "ended within" in w]


def test_the_limit_grows_with_the_table_up_to_four_players():
    assert [sanity.short_limit_of(n) for n in (1, 2, 3, 4, 5, 8, 16)] == [8, 16, 24, 32, 32, 32, 32]


def test_games_as_long_at_eight_players_as_at_four_are_not_short():
    report = sanity.report(_results([40, 45, 60, 70, 90] * 4), players=8)
    assert report["short_limit"] == 32 and report["short_games"] == 0 and not _short_warning(report)


def test_games_that_end_within_a_few_decisions_are_short_at_any_table_size():
    for players in (3, 8):
        report = sanity.report(_results([6, 9, 12, 60] * 5), players=players)
        assert report["short_rate"] == 0.75
        assert _short_warning(report)


def test_a_race_played_at_eight_players_gives_a_clean_report_and_a_broken_short_one_warns(tmp_path, capsys):
    def simulate(length):
        path = tmp_path / f"race{length}.yaml"
        path.write_text(RACE.replace("LENGTH", str(length)), encoding="utf-8")
        code = main(["simulate", str(path), "-n", "20", "--seats", ",".join(["random"] * 8), "--json"])
        assert code == 0
        return json.loads(capsys.readouterr().out)

    race = simulate(24)  # about 48 decisions at any table size: a coin flip advances the runner
    assert race["min_decisions"] > 32 and race["sanity"]["short_games"] == 0
    assert not _short_warning(race["sanity"])
    broken = simulate(3)  # over within a handful of decisions
    assert broken["sanity"]["short_rate"] == 1.0
    assert any("ended within 32 decisions" in w for w in broken["sanity"]["warnings"])
