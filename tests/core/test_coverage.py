"""Coverage of gamesim's intervals against exact values, at fresh seeds.

Each test replicates a whole experiment many times (vectorised: the sufficient
statistics of every replication are drawn at once) and checks that the 95%
intervals hold the truth at the stated rate, with misses balanced on both sides.
The replication counts are in each test; the bounds leave at least 4 standard
errors of Monte Carlo noise, so they pass for any seed.
"""

from __future__ import annotations

import numpy as np
import pytest

from gamesim.core.stats import dkw_half_width, paired_ratio_interval, tango_interval

pytestmark = pytest.mark.slow


def _cells(p_variant: float, p_baseline: float, rho: float) -> np.ndarray:
    """Joint law of a paired 2x2 table: variant = U < p1, baseline = V < p2, V = U with probability rho."""
    both = rho * min(p_variant, p_baseline) + (1 - rho) * p_variant * p_baseline
    return np.array([both, p_variant - both, p_baseline - both, 1 - p_variant - p_baseline + both])


# baseline p in {0.001, 0.5, 0.999}; variant equal or one step off; independent and correlated pairs
SETTINGS = [
    (p, p1, rho)
    for p, shifted in ((0.001, 0.0015), (0.5, 0.55), (0.999, 0.9985))
    for p1 in (p, shifted)
    for rho in (0.0, 0.5)
]


@pytest.mark.parametrize("p_baseline, p_variant, rho", SETTINGS)
def test_paired_difference_and_ratio_cover_at_0_and_1(p_baseline, p_variant, rho):
    # 8000 replications of n = 10,000 pairs each: SE of a coverage rate ~0.0025, of a side's miss ~0.0019
    reps, n = 8000, 10_000
    rng = np.random.default_rng()
    x = rng.multinomial(n, _cells(p_variant, p_baseline, rho), size=reps)
    d = p_variant - p_baseline
    lo, hi = tango_interval(x[:, 1], x[:, 2], n)
    r = p_variant / p_baseline
    rlo, rhi = paired_ratio_interval(x[:, 0], x[:, 1], x[:, 2], x[:, 3])
    for name, above, below in (("difference", lo > d, hi < d), ("ratio", rlo > r, rhi < r)):
        cover = 1 - above.mean() - below.mean()
        assert 0.93 <= cover <= 0.97, (name, cover)
        assert above.mean() <= 0.04 and below.mean() <= 0.04, (name, above.mean(), below.mean())


def test_ratio_never_dropped_near_zero():
    # n = 1000 at p = 0.001: about a third of the baselines are 0 of 1000; their rows stay, with [lower, inf)
    reps, n = 4000, 1000
    rng = np.random.default_rng()
    x = rng.multinomial(n, _cells(0.001, 0.001, 0.0), size=reps)
    lo, hi = paired_ratio_interval(x[:, 0], x[:, 1], x[:, 2], x[:, 3])
    zero = x[:, 0] + x[:, 2] == 0
    assert 0.3 < zero.mean() < 0.44 and np.isinf(hi[zero]).all()
    cover = np.mean((lo <= 1.0) & (1.0 <= hi))
    assert cover >= 0.93  # small counts: the score interval is conservative here, never liberal


@pytest.mark.parametrize("pmf_name", ["binomial", "rare_tail"])
def test_dkw_band_covers_the_whole_curve(pmf_name):
    # 4000 replications of n = 500 trials: whole-curve coverage of the simultaneous band >= 95%
    from scipy import stats

    if pmf_name == "binomial":
        pmf = stats.binom.pmf(np.arange(9), 8, 0.3)
    else:  # mostly zero, a long thin tail (like wounds against high protection)
        pmf = np.array([0.95, 0.03, 0.012, 0.005, 0.002, 0.0008, 0.0002])
        pmf = pmf / pmf.sum()
    reps, n = 4000, 500
    rng = np.random.default_rng()
    counts = rng.multinomial(n, pmf, size=reps)
    cdf = np.cumsum(pmf)
    at_most = np.cumsum(counts, axis=1) / n
    at_least = 1 - at_most + counts / n
    eps = dkw_half_width(n)
    true_least = 1 - cdf + pmf
    inside = (np.abs(at_most - cdf) <= eps + 1e-12).all(axis=1) & (np.abs(at_least - true_least) <= eps + 1e-12).all(axis=1)
    assert inside.mean() >= 0.95


def _two_stage_coverage(pmf: np.ndarray, n_pilot: int, half_width: float, reps: int, kind: str):
    """Replicate the sweep's two-stage precision rule on a known distribution (values 0..len(pmf)-1)."""
    from scipy import stats

    from gamesim.core.stats import two_stage_trials, wilson_bounds

    rng = np.random.default_rng()
    v = np.arange(len(pmf), dtype=np.float64)
    mu = float(pmf @ v)
    pilot = rng.multinomial(n_pilot, pmf, size=reps)
    m0 = pilot @ v / n_pilot
    sd0 = np.sqrt(np.maximum(pilot @ (v * v) - n_pilot * m0 * m0, 0.0) / (n_pilot - 1))
    if kind == "proportion":
        sd0 = np.sqrt(m0 * (1 - m0))
        info = np.minimum(pilot[:, 1], n_pilot - pilot[:, 1])
    else:
        info = n_pilot - pilot.max(axis=1)
    n2 = np.array([two_stage_trials(n_pilot, float(s), int(i), half_width, cap=20_000) for s, i in zip(sd0, info)])
    second = np.stack([rng.multinomial(n, pmf) for n in n2])  # fresh trials: the plan never saw them
    m = second @ v / n2
    if kind == "proportion":
        lo, hi = wilson_bounds(second[:, 1], n2)
    else:
        sd = np.sqrt(np.maximum(second @ (v * v) - n2 * m * m, 0.0) / (n2 - 1))
        h = stats.t.ppf(0.975, n2 - 1) * sd / np.sqrt(n2)
        lo, hi = m - h, m + h
    return np.mean((lo <= mu) & (mu <= hi)), np.mean(lo > mu), np.mean(hi < mu), np.mean((hi - lo) / 2 <= half_width)


def test_two_stage_precision_rule_holds_its_rate_on_a_skewed_mean():
    # Godtear wounds, 3 damage dice against protection 4 (exact mean 0.0509 from the exact solver);
    # target half-width 0.02, 200-trial pilot; 4000 replications (SE of the coverage ~0.0035)
    from gamesim.games.godtear import expected_wounds, wounds_pmf

    pmf = np.array(wounds_pmf(3, 4), dtype=np.float64)
    assert float(pmf @ np.arange(len(pmf))) == pytest.approx(expected_wounds(3, 4)) == pytest.approx(0.0509, abs=1e-4)
    cover, above, below, met = _two_stage_coverage(pmf, 200, 0.02, 4000, "mean")
    assert cover >= 0.935 and above <= 0.04 and below <= 0.045, (cover, above, below)
    assert met >= 0.95


@pytest.mark.parametrize("p, half_width", [(0.05, 0.01), (0.3, 0.02), (0.97, 0.01)])
def test_two_stage_precision_rule_holds_its_rate_on_proportions(p, half_width):
    # 200-trial pilot; 4000 replications per setting
    cover, above, below, met = _two_stage_coverage(np.array([1 - p, p]), 200, half_width, 4000, "proportion")
    assert cover >= 0.935 and above <= 0.04 and below <= 0.04, (cover, above, below)
    assert met >= 0.9
