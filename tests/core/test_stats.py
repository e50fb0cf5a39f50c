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
