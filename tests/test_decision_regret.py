"""benchmarks/decision_regret.py: the regret of a way of choosing against the reference worlds, on
tables made by hand (the positions and judging need games; the arithmetic does not)."""
from __future__ import annotations

import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from decision_regret import regrets, ways  # noqa: E402


def _row(seen, reference, looks):
    """One position: the worlds a way may read, then as many reference worlds."""
    return (seen + reference, looks)


def test_flat_reads_its_worlds_and_pays_the_reference_regret():
    # two actions (flat deals min(4, 32 // 2) = 4 worlds); the first looks better on the seen
    # worlds, the second is better on the reference ones
    seen = [[1.0, 0.0]] * 4
    reference = [[0.2, 0.6]] * 4
    mean, by_size, cpu = regrets([_row(seen, reference, [0.0, 0.0])], ways(10.0)["flat"], 128)
    assert abs(mean - 0.4) < 1e-9 and abs(by_size["<=8"] - 0.4) < 1e-9
    assert cpu == 1.0


def test_actions_a_way_cannot_tell_apart_cost_their_mean_regret():
    seen = [[0.5, 0.5, 0.0]] * 4
    reference = [[1.0, 0.0, 0.0]] * 4
    mean, _, _ = regrets([_row(seen, reference, [0.0, 0.0, 0.0])], ways(10.0)["flat"], 128)
    assert abs(mean - 0.5) < 1e-9  # a random pick between the first two
    # the look one step ahead breaks the tie: the first action looks better
    mean, _, cpu = regrets([_row(seen, reference, [2.0, 1.0, 0.0])], ways(10.0)["look as tie-break"], 128)
    assert mean == 0.0 and cpu > 1.0


def test_a_cut_by_the_look_races_only_the_best_actions():
    n = 12  # more than the cut of 4: the race sees only the four best looks
    looks = [float(i) for i in range(n)]  # the last four look best
    seen = [[1.0 if i == 0 else 0.0 for i in range(n)]] * 4  # action 0 wins every seen world
    reference = [[1.0 if i == 0 else 0.5 for i in range(n)]] * 4
    mean, _, _ = regrets([_row(seen, reference, looks)], ways(10.0)["look, then race top 4"], 128)
    assert abs(mean - 0.5) < 1e-9  # action 0 was cut before the race
    mean, _, _ = regrets([_row(seen, reference, looks)], ways(10.0)["race z=1.0, tie=0.1"], 128)
    assert mean == 0.0
