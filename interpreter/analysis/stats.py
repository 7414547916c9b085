"""Statistics for simulations: confidence intervals, tests of difference, text histograms.

Pure Python (no SciPy): Wilson score intervals for win rates with the score test they invert, a
two-proportion z-test for win rates (and exact Clopper–Pearson intervals), Welch's t-test (with the
Student t distribution through the regularized incomplete beta function) for means such as game
length and score spread; for paired samples (the same seeds and bots under two rulesets) the exact
McNemar test with the interval that inverts it, and the paired t-test with its t interval; Holm's
correction for many rows; the smallest effect a run could detect and the games an effect needs.

Every interval here comes from the same method as the test next to it, so a 95% interval excludes
the null value exactly when p < 0.05 (``tests/test_stats.py`` checks this over random tables).
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054
Z80 = 0.8416212335729143  # the one-sided z of 80% power
ALPHA = 0.05


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def variance(values) -> float:
    values = list(values)
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return sum((v - m) ** 2 for v in values) / (len(values) - 1)


def stdev(values) -> float:
    return math.sqrt(variance(values))


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple:
    """The 95% Wilson score interval of a proportion (shared wins count fractionally)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def score_test(successes: float, n: int, p0: float) -> float:
    """Two-sided p-value of the score test that a proportion is ``p0``: the test the Wilson interval
    inverts, so ``p0`` lies outside :func:`wilson_interval` exactly when this is below 0.05."""
    if n == 0 or p0 <= 0 or p0 >= 1:
        return 1.0
    return normal_two_sided_p((successes / n - p0) / math.sqrt(p0 * (1 - p0) / n))


def score_se(n: int, p0: float) -> float:
    """The standard error of a proportion under the null value ``p0`` (the score test's)."""
    return math.sqrt(p0 * (1 - p0) / n) if n else math.inf


def clopper_pearson_interval(successes: int, n: int, level: float = 0.95) -> tuple:
    """The exact (Clopper–Pearson) interval of a binomial proportion: never narrower than the true
    coverage needs, so it is the one to quote for small samples.  The lower bound is the x with
    P(X >= successes | x) = (1 - level) / 2; the upper bound is the mirror image of the lower bound
    of the failures, so a value x lies outside exactly when one tail at x is below (1 - level) / 2."""
    if n == 0:
        return (0.0, 1.0)
    tail = (1 - level) / 2

    def lower(k: int) -> float:  # x with P(X >= k | x) = tail, by bisection
        if k == 0:
            return 0.0
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if binomial_upper_tail(k, n, mid) < tail:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    return (lower(successes), 1 - lower(n - successes))


def normal_two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_test(s1: float, n1: int, s2: float, n2: int) -> float:
    """Two-sided p-value that two win rates differ (pooled z-test)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (s1 + s2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0 if s1 / n1 == s2 / n2 else 0.0
    return normal_two_sided_p((s1 / n1 - s2 / n2) / se)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (Numerical Recipes, betacf)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 3e-14:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def welch_test(xs, ys) -> float:
    """Two-sided p-value of Welch's t-test that two samples have different means."""
    xs, ys = list(xs), list(ys)
    if len(xs) < 2 or len(ys) < 2:
        return 1.0
    vx, vy = variance(xs) / len(xs), variance(ys) / len(ys)
    if vx + vy == 0:
        return 1.0 if mean(xs) == mean(ys) else 0.0
    t = (mean(xs) - mean(ys)) / math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx * vx / (len(xs) - 1) + vy * vy / (len(ys) - 1))
    return t_two_sided_p(t, df)


def histogram(values, bins: int = 10, width: int = 40) -> list:
    """Text lines of a histogram: range, bar, count."""
    values = list(values)
    if not values:
        return ["(no data)"]
    lo, hi = min(values), max(values)
    if lo == hi:
        return [f"{lo:>8g}          {'█' * width} {len(values)}"]
    whole = all(float(v).is_integer() for v in values)
    step = max(1, math.ceil((hi - lo + 1) / bins)) if whole else (hi - lo) / bins
    bins = math.ceil((hi - lo + 1) / step) if whole else bins
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) // step))] += 1
    top = max(counts)
    lines = []
    for i, count in enumerate(counts):
        left = lo + i * step
        label = (f"{int(left):>6}" if step == 1 else f"{int(left):>6}–{int(left + step - 1):<5}") if whole \
            else f"{left:>8.1f}–{left + step:<8.1f}"
        lines.append(f"{label:<13} {'█' * round(width * count / top)} {count}")
    return lines


# ---- paired samples (the same seeds and bots under two rulesets) ------------------------------------
def t_two_sided_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        return 1.0
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    """The t with P(|T| > t) = p (so t_quantile(0.05, df) is the 97.5th percentile), by bisection."""
    lo, hi = 0.0, 1e3
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def one_sample_t(values, null: float = 0.0) -> dict:
    """Student's t-test that the mean of ``values`` is ``null``, with the t interval it inverts:
    mean, 95% interval, p, the standard error and d (mean - null over the sd)."""
    values = list(values)
    n = len(values)
    m, sd = mean(values), stdev(values)
    if n < 2:  # no spread to test against: no interval, nothing shown
        return {"difference": m, "ci95": None, "p": 1.0, "effect_size": 0.0, "se": None}
    if sd == 0:
        effect = 0.0 if m == null else math.copysign(math.inf, m - null)
        return {"difference": m, "ci95": [m, m], "p": 1.0 if m == null else 0.0, "effect_size": effect, "se": 0.0}
    se = sd / math.sqrt(n)
    half = t_quantile(ALPHA, n - 1) * se
    return {"difference": m, "ci95": [m - half, m + half], "p": t_two_sided_p((m - null) / se, n - 1),
            "effect_size": (m - null) / sd, "se": se}


def paired_t(xs, ys) -> dict:
    """Paired t-test of the mean difference y - x: difference, its 95% t interval, p, the standard
    error, and the effect size d_z (mean difference over the standard deviation of the differences)."""
    return one_sample_t([y - x for x, y in zip(xs, ys)])


def holm(pvalues) -> list:
    """Holm's step-down adjustment of p-values for the number of rows tested together: a row is
    significant at level alpha after the correction exactly when its adjusted p is below alpha."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [1.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def detectable(se) -> float | None:
    """The smallest true effect a two-sided test at alpha 0.05 finds with 80% power, given the
    estimate's standard error (normal approximation); None when the run gives no standard error."""
    return None if se is None else (Z95 + Z80) * se


def games_to_detect(effect: float, se, games: int) -> int | None:
    """About how many games make ``effect`` significant with 80% power, from the standard error
    ``se`` at ``games`` games (standard errors shrink as one over the square root of the games);
    None when there is no effect or no standard error to scale."""
    if not se or not effect or not games:
        return None
    return max(games, math.ceil(games * ((Z95 + Z80) * se / abs(effect)) ** 2))


def t_interval(values) -> tuple:
    """The mean of ``values`` with its 95% t interval."""
    row = one_sample_t(values)
    lo, hi = row["ci95"] or (row["difference"], row["difference"])
    return row["difference"], lo, hi


def binomial_upper_tail(k: int, n: int, x: float = 0.5) -> float:
    """P(X >= k) for X ~ Binomial(n, x): the function the Clopper–Pearson bounds are solved on."""
    return 1.0 if k <= 0 else incomplete_beta(k, n - k + 1, x)


def binomial_two_sided_p(k: int, n: int) -> float:
    """Exact two-sided p-value of k successes in n fair coin flips (twice the smaller tail, from the
    same incomplete beta function as :func:`clopper_pearson_interval`, so the two agree exactly)."""
    if n == 0:
        return 1.0
    return min(1.0, 2 * min(binomial_upper_tail(k, n), binomial_upper_tail(n - k, n)))


def mcnemar_exact(xs, ys) -> dict:
    """Exact McNemar test of paired yes/no outcomes (x under base, y under variant): the change in
    the rate, p from the discordant pairs, and the odds ratio of the discordant pairs as effect size.

    The 95% interval inverts the same test: given m discordant pairs of n, the gained ones are
    Binomial(m, pi) and the change is m/n * (2 pi - 1); the exact (Clopper–Pearson) interval of pi
    mapped through that line excludes 0 exactly when pi = 1/2 is rejected, i.e. when p < 0.05.
    ``se`` is the change's standard error under no change (sqrt(m) / n), for power."""
    pairs = list(zip(xs, ys))
    n = len(pairs)
    gained = sum(1 for x, y in pairs if y and not x)
    lost = sum(1 for x, y in pairs if x and not y)
    discordant = gained + lost
    diff = (gained - lost) / n if n else 0.0
    lo, hi = clopper_pearson_interval(gained, discordant)
    scale = discordant / n if n else 0.0
    return {"difference": diff, "ci95": [scale * (2 * lo - 1), scale * (2 * hi - 1)],
            "p": binomial_two_sided_p(gained, discordant), "gained": gained, "lost": lost,
            "effect_size": (gained + 0.5) / (lost + 0.5),
            "se": math.sqrt(discordant) / n if n and discordant else None}

