"""Statistics for simulations: confidence intervals, tests of difference, text histograms.

Pure Python (no SciPy): Wilson score intervals for win rates, a two-proportion z-test for win
rates (and exact Clopper–Pearson intervals), Welch's t-test (with the Student t distribution through the regularized incomplete beta
function) for means such as game length and score spread; for paired samples (the same seeds and
bots under two rulesets) the exact McNemar test and the paired t-test, with intervals and effect
sizes.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054


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


def clopper_pearson_interval(successes: int, n: int, level: float = 0.95) -> tuple:
    """The exact (Clopper–Pearson) interval of a binomial proportion: never narrower than the true
    coverage needs, so it is the one to quote for small samples."""
    if n == 0:
        return (0.0, 1.0)
    tail = (1 - level) / 2

    def solve(a: float, b: float, target: float) -> float:  # x with I_x(a, b) = target, by bisection
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if incomplete_beta(a, b, mid) < target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    lower = 0.0 if successes == 0 else solve(successes, n - successes + 1, tail)
    upper = 1.0 if successes == n else solve(successes + 1, n - successes, 1 - tail)
    return (lower, upper)


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


def paired_t(xs, ys) -> dict:
    """Paired t-test of the mean difference y - x: difference, its 95% interval, p, and the effect
    size d_z (mean difference over the standard deviation of the differences)."""
    diffs = [y - x for x, y in zip(xs, ys)]
    n = len(diffs)
    m, sd = mean(diffs), stdev(diffs)
    if n < 2 or sd == 0:
        p = 1.0 if m == 0 or n < 2 else 0.0
        return {"difference": m, "ci95": [m, m], "p": p, "effect_size": 0.0 if m == 0 else math.copysign(math.inf, m)}
    se = sd / math.sqrt(n)
    half = t_quantile(0.05, n - 1) * se
    return {"difference": m, "ci95": [m - half, m + half], "p": t_two_sided_p(m / se, n - 1),
            "effect_size": m / sd}


def binomial_two_sided_p(k: int, n: int) -> float:
    """Exact two-sided p-value of k successes in n fair coin flips."""
    if n == 0:
        return 1.0
    low = min(k, n - k)
    if n > 2000:  # normal approximation with continuity correction
        return min(1.0, normal_two_sided_p((abs(k - n / 2) - 0.5) / math.sqrt(n / 4)))
    tail = sum(math.comb(n, i) for i in range(low + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def mcnemar_exact(xs, ys) -> dict:
    """Exact McNemar test of paired yes/no outcomes (x under base, y under variant): the change in
    the rate with a 95% interval (Wald for paired proportions), p from the discordant pairs, and the
    odds ratio of the discordant pairs as effect size."""
    pairs = list(zip(xs, ys))
    n = len(pairs)
    gained = sum(1 for x, y in pairs if y and not x)
    lost = sum(1 for x, y in pairs if x and not y)
    diff = (gained - lost) / n if n else 0.0
    se = math.sqrt(max(0.0, gained + lost - (gained - lost) ** 2 / n)) / n if n else 0.0
    return {"difference": diff, "ci95": [diff - Z95 * se, diff + Z95 * se],
            "p": binomial_two_sided_p(gained, gained + lost), "gained": gained, "lost": lost,
            "effect_size": (gained + 0.5) / (lost + 0.5)}

