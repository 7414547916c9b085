"""The statistics behind simulate and compare, against values known in closed form."""
import math
import random

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
