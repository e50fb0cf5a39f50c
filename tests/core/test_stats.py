"""Estimates and intervals against their closed forms."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from gamesim.core.stats import (
    Estimate,
    mean_estimate,
    proportion_estimate,
    quantile_estimate,
    trials_for_half_width,
)


def wilson(k: int, n: int, z: float) -> tuple[float, float]:
    """Wilson score interval, written out from its formula."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (512, 1000), (1, 100000)])
def test_proportion_is_wilson(k, n):
    est = proportion_estimate(k, n)
    lo, hi = wilson(k, n, sps.norm.ppf(0.975))
    assert est.n == n and est.estimate == k / n
    assert est.ci_low == pytest.approx(lo, abs=1e-12)
    assert est.ci_high == pytest.approx(hi, abs=1e-12)
    assert est.se == pytest.approx(math.sqrt(k / n * (1 - k / n) / n))
    assert 0.0 <= est.ci_low <= est.estimate <= est.ci_high <= 1.0


def test_proportion_rejects_empty():
    with pytest.raises(ValueError):
        proportion_estimate(0, 0)


def test_mean_t_interval():
    x = np.array([1.0, 2.0, 4.0, 7.0, 11.0])
    est = mean_estimate(x)
    se = x.std(ddof=1) / math.sqrt(5)
    q = sps.t.ppf(0.975, 4)
    assert est.estimate == pytest.approx(5.0)
    assert est.se == pytest.approx(se)
    assert est.ci_low == pytest.approx(5.0 - q * se)
    assert est.ci_high == pytest.approx(5.0 + q * se)


def test_mean_constant_and_single_are_never_degenerate():
    # without a known range, an all-equal sample (or a single value) bounds nothing
    for x in ([3, 3, 3], [2.0], [0.0] * 20):
        est = mean_estimate(x)
        assert est.ci_low == -math.inf and est.ci_high == math.inf and est.half_width == math.inf
    assert math.isnan(mean_estimate([2.0]).se) and mean_estimate([3, 3, 3]).se == 0.0
    with pytest.raises(ValueError):
        mean_estimate([])


@pytest.mark.parametrize("n", [1, 2, 20, 1000])
def test_mean_constant_sample_rule_of_three_bound(n):
    # all n values 0 in a metric known to lie in [0, 5]: the share of non-zero trials is at
    # most the Clopper-Pearson bound for 0 of n, 1 - 0.025**(1/n) (about 3.7/n), each adding <= 5
    est = mean_estimate(np.zeros(n), bounds=(0.0, 5.0))
    p_up = sps.beta.ppf(0.975, 1, n)  # Clopper-Pearson upper limit for 0 successes in n
    assert est.ci_low == 0.0 and est.ci_high == pytest.approx(5.0 * p_up, rel=1e-9)
    assert est.half_width > 0.0
    # in the middle of the range, the bound extends both ways
    mid = mean_estimate(np.full(n, 2.0), bounds=(0.0, 5.0))
    assert mid.ci_low == pytest.approx(2.0 - 2.0 * p_up) and mid.ci_high == pytest.approx(2.0 + 3.0 * p_up)
    with pytest.raises(ValueError):
        mean_estimate([1.0], bounds=(1.0, 0.0))


def test_quantile_order_statistic_interval():
    x = np.arange(1, 101, dtype=float)  # 1..100
    est = quantile_estimate(x, 0.5)
    assert est.estimate == 50.0
    # Distribution-free interval: order statistics (r, s) with binomial coverage >= 95%.
    b = sps.binom(100, 0.5)
    assert b.cdf(est.ci_high - 1) - b.cdf(est.ci_low - 1) >= 0.95
    assert est.ci_low < 50 < est.ci_high


def test_quantile_censored_values_are_infinite():
    x = np.array([1.0, 2.0, np.nan, np.nan, np.nan])
    assert quantile_estimate(x, 0.3).estimate == 2.0
    assert math.isinf(quantile_estimate(x, 0.9).estimate)
    with pytest.raises(ValueError):
        quantile_estimate(x, 1.0)


def test_trials_for_half_width_scales_as_inverse_square():
    est = Estimate(1000, 0.5, 0.0158, 0.47, 0.53)
    assert trials_for_half_width(est, 0.015) == 4000
    assert trials_for_half_width(est, 0.1) == 1000


def test_difference_reduces_to_normal_for_symmetric_intervals():
    from gamesim.core.stats import difference_estimate

    z = sps.norm.ppf(0.975)
    a = Estimate(100, 5.0, 0.3, 5.0 - z * 0.3, 5.0 + z * 0.3)
    b = Estimate(200, 3.0, 0.4, 3.0 - z * 0.4, 3.0 + z * 0.4)
    d = difference_estimate(a, b)
    assert d.estimate == pytest.approx(2.0) and d.se == pytest.approx(0.5) and d.n == 100
    assert d.ci_low == pytest.approx(2.0 - z * 0.5) and d.ci_high == pytest.approx(2.0 + z * 0.5)


def test_difference_of_proportions_is_newcombe():
    from gamesim.core.stats import difference_estimate

    # Newcombe (1998) hybrid score interval, written out from Wilson intervals.
    a, b = proportion_estimate(56, 70), proportion_estimate(48, 80)
    la, ua = wilson(56, 70, sps.norm.ppf(0.975))
    lb, ub = wilson(48, 80, sps.norm.ppf(0.975))
    d = difference_estimate(a, b)
    p1, p2 = 56 / 70, 48 / 80
    assert d.ci_low == pytest.approx(p1 - p2 - math.sqrt((p1 - la) ** 2 + (ub - p2) ** 2))
    assert d.ci_high == pytest.approx(p1 - p2 + math.sqrt((ua - p1) ** 2 + (p2 - lb) ** 2))
    # Newcombe's published example 10 (56/70 vs 48/80): 0.0524 to 0.3339
    assert d.ci_low == pytest.approx(0.0524, abs=5e-4) and d.ci_high == pytest.approx(0.3339, abs=5e-4)


# --- paired comparisons from sufficient statistics -------------------------------------------

from scipy import optimize  # noqa: E402

from gamesim.core.stats import (  # noqa: E402
    dkw_half_width,
    paired_mean_ratio,
    paired_proportion_difference,
    paired_proportion_ratio,
    paired_ratio_interval,
    tango_interval,
    wilson_bounds,
)

Z = sps.norm.ppf(0.975)


def _tango_score(b, c, n, d):
    """Tango's score statistic by its definition: constrained MLE found numerically."""
    def negll(q):
        p12, p21 = q + d, q
        rest = 1 - p12 - p21
        return -(b * math.log(p12) + c * math.log(p21) + (n - b - c) * math.log(rest))
    lo, hi = max(0.0, -d) + 1e-12, (1 - d) / 2 - 1e-12
    q = optimize.minimize_scalar(negll, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13}).x
    return (b - c - n * d) / math.sqrt(n * (2 * q + d * (1 - d)))


@pytest.mark.parametrize("b, c, n", [(10, 4, 100), (3, 0, 50), (7, 9, 400)])
def test_tango_bounds_solve_the_score_equation(b, c, n):
    lo, hi = tango_interval(b, c, n)
    assert _tango_score(b, c, n, float(lo)) == pytest.approx(Z, abs=1e-3)
    assert _tango_score(b, c, n, float(hi)) == pytest.approx(-Z, abs=1e-3)


def test_tango_without_discordant_pairs_is_never_a_point():
    e = paired_proportion_difference(400, 0, 0, 0)
    w = Z * Z / (400 + Z * Z)
    assert e.estimate == 0 and e.ci_low == pytest.approx(-w, rel=1e-6) and e.ci_high == pytest.approx(w, rel=1e-6)
    with pytest.raises(ValueError, match="n10"):
        paired_proportion_difference(1, -1, 0, 0)
    with pytest.raises(ValueError, match="empty"):
        paired_proportion_difference(0, 0, 0, 0)
    with pytest.raises(ValueError, match="n11"):
        paired_proportion_difference(True, 1, 0, 0)


def _ratio_score_numeric(x, t):
    """Score statistic of p1 = t p2 with the constrained MLE from a Lagrange root (all cells > 0)."""
    x = np.asarray(x, float)
    n = x.sum()
    g = np.array([1 - t, 1.0, -t, 0.0])
    f = lambda mu: np.sum(g * x / (n + mu * g))  # noqa: E731
    mu = optimize.brentq(f, -n / g.max() + 1e-9, n / -g.min() - 1e-9, xtol=1e-14)
    p = x / (n + mu * g)
    return (x[0] + x[1] - t * (x[0] + x[2])) / n / math.sqrt(np.sum(g * g * p) / n)


@pytest.mark.parametrize("table", [(30, 10, 5, 55), (3, 7, 2, 88), (50, 1, 4, 45)])
def test_paired_ratio_bounds_solve_the_score_equation(table):
    e, note = paired_proportion_ratio(*table)
    assert note == "" and e.ci_low < e.estimate < e.ci_high
    assert _ratio_score_numeric(table, e.ci_low) == pytest.approx(Z, abs=1e-4)
    assert _ratio_score_numeric(table, e.ci_high) == pytest.approx(-Z, abs=1e-4)


def test_paired_ratio_at_the_edges():
    lo, hi = paired_ratio_interval([0, 400], [0, 0], [5, 0], [995, 0])
    assert lo[0] == 0.0 and 0 < hi[0] < 1  # variant never: [0, upper]
    assert lo[1] < 1 < hi[1]  # n/n against n/n: width, holds 1
    e, note = paired_proportion_ratio(0, 0, 0, 50)
    assert note == "not estimable (baseline 0 in 50 trials)" and e.ci_low == 0 and e.ci_high == math.inf


def test_paired_mean_ratio_validates_and_flags_a_zero_baseline():
    with pytest.raises(ValueError, match="n = 1"):
        paired_mean_ratio(1, 1.0, 1.0, 1.0, 1.0, 1.0)
    e, note = paired_mean_ratio(5, 3.0, 0.0, 3.0, 0.0, 0.0)
    assert note.startswith("not estimable (baseline 0 in 5") and math.isnan(e.estimate) and e.ci_high == math.inf


def test_wilson_bounds_and_dkw():
    lo, hi = wilson_bounds(np.arange(11), 10)
    for k in range(11):
        ci = sps.binomtest(k, 10).proportion_ci(method="wilson")
        assert lo[k] == pytest.approx(ci.low) and hi[k] == pytest.approx(ci.high)
    assert dkw_half_width(1000) == pytest.approx(math.sqrt(math.log(40) / 2000))
    with pytest.raises(ValueError):
        dkw_half_width(0)


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99])
@pytest.mark.parametrize("df", [1, 2, 7, 30, 999])
def test_quantiles_from_scipy_special_equal_scipy_stats(confidence, df):
    """stats computes its normal and t quantiles and tails with scipy.special (no scipy.stats import):
    the same numbers, bit for bit, as scipy.stats, and nan where scipy.stats gives nan."""
    from gamesim.core import stats as st

    q = 0.5 + confidence / 2
    assert st._z(confidence) == float(sps.norm.ppf(q))
    assert st._t_ppf(q, df) == float(sps.t.ppf(q, df))
    lo, hi = sps.t.interval(confidence, df, loc=-1.25, scale=0.3)
    assert st._t_interval(confidence, df, -1.25, 0.3) == (float(lo), float(hi))
    for bad in ((confidence, 0, 1.0, 1.0), (confidence, df, 1.0, 0.0), (confidence, df, 1.0, float("nan"))):
        assert all(np.isnan(v) for v in st._t_interval(*bad))
        with np.errstate(invalid="ignore"):
            assert all(np.isnan(v) for v in sps.t.interval(bad[0], bad[1], loc=bad[2], scale=bad[3]))
    assert np.isnan(st._t_ppf(q, 0)) and np.isnan(sps.t.ppf(q, 0))


def test_binomial_quantiles_from_scipy_special_equal_scipy_stats():
    """The order-statistic interval of a quantile takes its indices from the binomial quantiles of scipy.special
    (no scipy.stats import in a sweep's summary): the same numbers as scipy.stats.binom, over small and large n,
    central and extreme quantile levels, and the fallback path gives them too."""
    from gamesim.core import stats as st

    for n in (1, 2, 3, 7, 20, 199, 200, 1000, 4097, 123_457, 10_000_000):
        for q in (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999):
            for alpha in (0.005, 0.025, 0.05, 0.1):
                bd = sps.binom(n, q)
                ppf, isf = st._binom_quantiles(alpha, n, q)
                assert ppf == float(bd.ppf(alpha)), (n, q, alpha)
                assert isf == float(bd.isf(alpha)), (n, q, alpha)


def test_binomial_quantiles_fall_back_to_scipy_stats(monkeypatch):
    """A scipy without the private functions scipy.stats.binom calls: the same values through scipy.stats."""
    from gamesim.core import stats as st

    monkeypatch.setattr(st, "_BINOM_PPF", None)
    monkeypatch.setattr(st, "_BINOM_ISF", None)
    ppf, isf = st._binom_quantiles(0.025, 1000, 0.9)
    assert ppf == float(sps.binom(1000, 0.9).ppf(0.025))
    assert isf == float(sps.binom(1000, 0.9).isf(0.025))


def test_wilson_interval_equals_scipy_binomtest():
    """proportion_estimate computes scipy.stats.binomtest(k, n).proportion_ci(method="wilson") without
    binomtest's p-value: the same bounds, bit for bit, at the ends (k = 0, k = n) too."""
    from scipy import stats as sps

    from gamesim.core.stats import proportion_estimate

    for n in (1, 2, 3, 10, 37, 1000, 123_457):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for confidence in (0.8, 0.95, 0.99):
                ci = sps.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
                est = proportion_estimate(k, n, confidence=confidence)
                assert (est.ci_low, est.ci_high) == (float(ci.low), float(ci.high)), (k, n, confidence)
    with pytest.raises(ValueError):
        proportion_estimate(5, 4)
    with pytest.raises(ValueError):
        proportion_estimate(-1, 4)
