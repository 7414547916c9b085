"""The statistics behind simulate and compare, against values known in closed form."""
import math
import random

import pytest

from interpreter.analysis import stats


def test_incomplete_beta_closed_forms():
    for x in (0.1, 0.5, 0.9):
        assert math.isclose(stats.incomplete_beta(1, 1, x), x, rel_tol=1e-9)
        assert math.isclose(stats.incomplete_beta(3, 1, x), x ** 3, rel_tol=1e-9)
        assert math.isclose(stats.incomplete_beta(1, 2, x), 1 - (1 - x) ** 2, rel_tol=1e-9)


def test_welch_test_is_symmetric_and_decides_clear_cases():
    rng = random.Random(1)
    same = [rng.gauss(0, 1) for _ in range(200)]
    shifted = [v + 1 for v in same]
    assert stats.welch_test(same, same) == 1.0
    assert stats.welch_test(same, shifted) < 1e-6
    xs, ys = [1, 2, 3, 4, 5], [2, 4, 6, 8, 10]
    assert math.isclose(stats.welch_test(xs, ys), stats.welch_test(ys, xs))
    # t = -1.897, df = 5.88: two-sided p = 0.1075 (textbook value)
    assert abs(stats.welch_test(xs, ys) - 0.1075) < 0.002


def test_wilson_interval_and_two_proportion_test():
    lo, hi = stats.wilson_interval(90, 100)
    assert 0.82 < lo < 0.83 and 0.94 < hi < 0.95
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    assert stats.two_proportion_test(50, 100, 50, 100) == 1.0
    assert stats.two_proportion_test(70, 100, 40, 100) < 0.001


def test_histogram_of_whole_numbers_uses_whole_bins():
    lines = stats.histogram([1, 1, 2, 3, 3, 3], bins=10)
    assert [line.split()[0] for line in lines] == ["1", "2", "3"]
    assert lines[2].endswith(" 3")


def test_clopper_pearson_interval_matches_the_beta_quantiles():
    # 95% exact intervals from the beta distribution's quantiles (SciPy: beta.ppf)
    cases = {(0, 10): (0.0, 0.30850), (3, 6): (0.11812, 0.88188), (10, 10): (0.69150, 1.0),
             (36, 40): (0.76336, 0.97207), (79, 100): (0.69708, 0.86506)}
    for (k, n), (lo, hi) in cases.items():
        got = stats.clopper_pearson_interval(k, n)
        assert abs(got[0] - lo) < 1e-4 and abs(got[1] - hi) < 1e-4, (k, n, got)
    assert stats.clopper_pearson_interval(0, 0) == (0.0, 1.0)
    wide, narrow = stats.clopper_pearson_interval(9, 10), stats.wilson_interval(9, 10)
    assert wide[0] < narrow[0]  # exact intervals are the more cautious ones


# ---- every interval agrees with its test: over many random tables ----------------------------------
from hypothesis import given, settings, strategies as st  # noqa: E402

from interpreter.analysis import display, paired, seats  # noqa: E402
from interpreter.analysis.simulation import GameResult  # noqa: E402
from interpreter.cli.runs import row_texts  # noqa: E402


def _excludes_zero(bounds) -> bool:
    return bounds is not None and (bounds[0] > 0 or bounds[1] < 0)


def _shown_bounds(text: str):
    if text == "n/a":
        return None
    lo, _, hi = text.replace("%", "").partition("..")
    return float(lo), float(hi)


def _shown_p(text: str) -> float:
    return 0.0 if text.startswith("<") else float(text)


def assert_row_agrees(row):
    """The row's interval excludes 0 exactly when p < 0.05, in its figures and as printed, and the
    star is printed exactly when the printed Holm p is below 0.05."""
    assert _excludes_zero(row["ci95"]) == (row["p"] < 0.05), row
    texts = row_texts(row)
    assert _excludes_zero(_shown_bounds(texts["ci95"])) == (_shown_p(texts["p"]) < 0.05), (row, texts)
    assert (texts["star"] == "*") == (_shown_p(texts["p_holm"]) < 0.05), (row, texts)
    assert row["p_holm"] >= row["p"]


WINNERS = st.sampled_from([[0], [1], [0, 1], [2], [0, 2]])
GAME = st.tuples(WINNERS, st.integers(-3, 30), st.integers(-3, 30), st.integers(1, 60))


def _result(seed, game, players=3):
    winners, a, b, decisions = game
    returns = [a, b] + [0] * (players - 2)
    return GameResult(seed, [w for w in winners if w < players], returns, decisions)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(GAME, GAME), min_size=0, max_size=120))
def test_compare_intervals_agree_with_their_tests(games):
    base = [_result(i, a) for i, (a, _) in enumerate(games)]
    variant = [_result(i, b) for i, (_, b) in enumerate(games)]
    for row in paired.compare(base, variant, 3)["rows"]:
        assert_row_agrees(row)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 3), st.lists(GAME, min_size=0, max_size=300))
def test_seat_advantage_intervals_agree_with_their_tests(players, games):
    results = [_result(i, g, players) for i, g in enumerate(games)]
    for row in seats.advantage_rows([r for r in results if r.winners], players):
        assert_row_agrees(row)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 400), st.integers(0, 400), st.integers(0, 400))
def test_exact_mcnemar_interval_inverts_its_test(gained, lost, same):
    xs = [False] * gained + [True] * lost + [True] * same
    ys = [True] * gained + [False] * lost + [True] * same
    row = stats.mcnemar_exact(xs, ys)
    assert _excludes_zero(row["ci95"]) == (row["p"] < 0.05)
    if xs:
        assert row["ci95"][0] <= row["difference"] <= row["ci95"][1]


def test_the_reported_fault_is_gone():
    """+30 points from 7 gained and 1 lost of 20 pairs: p = 0.0703; the old Wald interval excluded 0."""
    xs = [False] * 7 + [True] + [True] * 6 + [False] * 6
    ys = [True] * 7 + [False] + [True] * 6 + [False] * 6
    row = stats.mcnemar_exact(xs, ys)
    assert row["difference"] == pytest.approx(0.3) and row["p"] == pytest.approx(0.0703125)
    assert row["ci95"][0] < 0 < row["ci95"][1]


def test_holm_adjustment():
    assert stats.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert stats.holm([]) == []


def test_power_figures():
    # a standard error of 1: 80% power at alpha 0.05 needs a true effect of 2.80
    assert stats.detectable(1.0) == pytest.approx(2.8016, abs=1e-4)
    # an effect half the detectable size needs four times the games
    assert stats.games_to_detect(1.4008, 1.0, 100) == pytest.approx(400, abs=1)
    assert stats.games_to_detect(0, 1.0, 100) is None


def test_shown_figures_keep_their_sign_and_side_of_alpha():
    assert display.number(0.00004, 1, 100) == "+0.004"
    residue = 1 / 3 - (1 - 2 / 3)  # a cooperative game's share minus its fair share, as floats leave it
    assert residue != 0 and display.number(residue, 1, 100) == "+0.0"
    assert display.p_value(0.049996) == "0.049996" and display.p_value(0.05) == "0.0500"
    assert display.interval(None) == "n/a"
