"""Paired comparisons, common random numbers and whole distributions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from gamesim.core.analysis import (
    distribution_table,
    paired_difference,
    paired_ratio,
    paired_table,
    unpaired_half_width,
    wilson_interval,
)
from gamesim.core.scenario import load_scenario
from gamesim.core.stats import paired_proportion_difference
from gamesim.core.sweep import run_sweep


def test_vectorized_wilson_equals_scipy():
    n = 37
    lo, hi = wilson_interval(np.arange(n + 1), n)
    for k in range(n + 1):
        ci = stats.binomtest(k, n).proportion_ci(method="wilson")
        assert lo[k] == pytest.approx(ci.low, abs=1e-12) and hi[k] == pytest.approx(ci.high, abs=1e-12)


def test_paired_mean_difference_is_the_t_interval_of_the_differences():
    rng = np.random.default_rng()
    base = rng.normal(size=500)
    var = base + 0.3 + rng.normal(scale=0.1, size=500)
    est, corr = paired_difference(var, base, kind="mean")
    d = var - base
    lo, hi = stats.t.interval(0.95, d.size - 1, loc=d.mean(), scale=d.std(ddof=1) / math.sqrt(d.size))
    assert est.estimate == pytest.approx(d.mean()) and est.ci_low == pytest.approx(lo) and est.ci_high == pytest.approx(hi)
    assert corr > 0.9
    # the pairing is what makes it narrow: two independent samples would need a far wider interval
    assert est.half_width < 0.2 * unpaired_half_width(var, base, kind="mean")


def test_paired_proportion_difference_is_tangos_interval_of_the_table():
    x = np.r_[np.ones(20), np.ones(20), np.zeros(30), np.zeros(30)]  # variant
    y = np.r_[np.ones(20), np.zeros(20), np.ones(30), np.zeros(30)]  # baseline: a=20, b=20, c=30, d=30
    est, _ = paired_difference(x, y, kind="proportion")
    assert paired_table(x, y) == (20, 20, 30, 30)
    ref = paired_proportion_difference(20, 20, 30, 30)
    assert est.estimate == pytest.approx(-0.1)
    assert est.ci_low == pytest.approx(ref.ci_low) and est.ci_high == pytest.approx(ref.ci_high)


def test_paired_proportion_interval_covers_the_true_difference():
    # Known joint law: P(both) = .3, P(variant only) = .15, P(baseline only) = .05 -> true difference 0.10.
    rng = np.random.default_rng()
    reps, n, hits, widths = 400, 300, 0, []
    for _ in range(reps):
        u = rng.random(n)
        x = (u < 0.45).astype(float)
        y = ((u < 0.30) | ((u >= 0.45) & (u < 0.50))).astype(float)
        est, corr = paired_difference(x, y, kind="proportion")
        hits += est.ci_low <= 0.10 <= est.ci_high
        widths.append(est.half_width / unpaired_half_width(x, y, kind="proportion"))
    # nominal 95%: over 400 replications fewer than 90% covering would be a 4.7-sigma event
    assert hits / reps >= 0.90
    assert np.median(widths) < 0.75  # positive correlation narrows the paired interval


def test_paired_ratio_of_means_is_fieller_and_baseline_zero_is_not_estimable():
    rng = np.random.default_rng()
    y = rng.poisson(4.0, size=4000).astype(float)
    x = y * 1.5  # exactly proportional pairs: the data allow no other ratio
    r, note = paired_ratio(x, y)
    assert note == "" and r.estimate == pytest.approx(1.5) and r.ci_high - r.ci_low < 1e-6
    r, note = paired_ratio(np.zeros(10), np.ones(10))
    assert note == "" and r.estimate == 0.0 and r.ci_low == 0.0
    r, note = paired_ratio(np.ones(10), np.zeros(10))
    assert note == "not estimable (baseline 0 in 10 trials)" and math.isnan(r.estimate) and r.ci_high == math.inf
    assert paired_ratio(-np.ones(10), np.ones(10)) is None
    # Fieller: the ratio t is inside iff the paired t test of mean(x - t y) = 0 does not reject
    x = rng.poisson(3.0, size=300).astype(float) + y[:300]
    r, note = paired_ratio(x, y[:300])
    for t, inside in ((r.ci_low * 1.0001, True), (r.ci_high * 0.9999, True), (r.ci_low * 0.999, False),
                      (r.ci_high * 1.001, False)):
        p = stats.ttest_1samp(x - t * y[:300], 0.0).pvalue
        assert (p >= 0.05) == inside


def test_paired_ratio_of_proportions_at_n_of_n_has_width_and_holds_the_exact_ratio():
    # 400/400 completions in both cells; the exact ratio of the two probabilities is 0.99982
    r, note = paired_ratio(np.ones(400), np.ones(400), kind="proportion")
    z2 = stats.norm.ppf(0.975) ** 2
    assert note == "" and r.estimate == 1.0
    assert r.ci_low == pytest.approx(1 / (1 + z2 / 400), rel=1e-6) and r.ci_high == pytest.approx(1 + z2 / 400, rel=1e-6)
    assert r.ci_low < 0.99982 < r.ci_high
    r, note = paired_ratio(np.r_[np.ones(3), np.zeros(997)], np.zeros(1000), kind="proportion")
    assert note == "not estimable (baseline 0 in 1000 trials)" and r.ci_high == math.inf and r.ci_low > 0


def test_paired_inputs_are_checked():
    with pytest.raises(ValueError, match="same length"):
        paired_difference([1, 2], [1, 2, 3], kind="mean")
    with pytest.raises(ValueError, match="nan"):
        paired_difference([1, math.nan], [1, 2], kind="mean")
    with pytest.raises(ValueError, match="kind"):
        paired_difference([1, 0], [1, 0], kind="median")


def test_distribution_of_a_binomial_matches_its_pmf():
    rng = np.random.default_rng()
    n = 20000
    x = rng.binomial(6, 0.4, size=n).astype(float)
    x[:50] = np.nan  # censored trials count in every "at least" and no "at most"
    d = distribution_table(x)
    assert d is not None and int(d["censored"].iloc[0]) == 50 and (d["n"] == n).all()
    exact = stats.binom.pmf(d["value"], 6, 0.4) * (n - 50) / n
    se = np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(d["pmf"] - exact) <= 4.5 * se + 1e-12)
    assert d["at_least"].iloc[0] == pytest.approx(1.0)
    assert d["at_most"].iloc[-1] == pytest.approx((n - 50) / n)
    assert np.allclose(d["at_least"] + d["at_most"] - d["pmf"], 1.0)
    assert ((d["pmf_low"] <= d["pmf"]) & (d["pmf"] <= d["pmf_high"])).all()
    assert distribution_table(np.array([0.5, 1.0])) is None  # not integer-valued
    many = distribution_table(np.arange(500.0))  # too many values for one row each: thinned
    assert many["thinned"].all() and len(many) <= 200 and many["value"].iloc[[0, -1]].tolist() == [0, 499]


CRN = """
game = "godtear"
n_trials = 4000
chunk_size = 2000
[[parts]]
name = "twins"
task = "success_roll"
cases = [{ name = "A", accuracy = 3 }, { name = "B", accuracy = 3 }, { name = "C", accuracy = 4 }]
grid = { dodge = [2, 3] }
[compare]
baseline = "A"
"""


@pytest.mark.parametrize("crn", [True, False])
def test_common_random_numbers_pair_identical_cases(write_scenario, tmp_path, crn):
    body = CRN + ("" if crn else "crn = false\n")
    sc = load_scenario(write_scenario(body))
    res = run_sweep(sc, cache_root=tmp_path, progress=False)
    comp = res.comparisons
    same = comp[(comp["variant"] == "B") & (comp["statistic"] == "difference")]
    assert len(same) == 2
    if crn:
        # same parameters and the same random numbers: the very same trials
        assert (same["estimate"] == 0).all() and np.allclose(same["correlation"], 1.0)
        assert set(res.table["spawn_key"]) == {"[0, 0]", "[0, 1]"}
    else:
        assert (same["correlation"].abs() < 0.2).all()
        assert res.table["spawn_key"].nunique() == 6
    better = comp[(comp["variant"] == "C") & (comp["statistic"] == "difference")]
    # one more accuracy die raises P(success); exact difference from the exact tables
    assert (better["exact"] > 0).all()
    for _, r in better.iterrows():
        assert abs(r["estimate"] - r["exact"]) <= 4.5 * r["se"] + 1e-12
    t = res.table[(res.table["metric"] == "success")].set_index("cell")
    for _, r in better.iterrows():
        assert r["exact"] == pytest.approx(t.loc[r["cell"], "exact"] - t.loc[r["baseline_cell"], "exact"])


def test_compare_along_a_grid_parameter(write_scenario, tmp_path):
    body = """
game = "gacha"
n_trials = 3000
chunk_size = 1500
[[parts]]
name = "sizes"
task = "schedule"
grid = { session_size = [1, 10], total_pulls = [60, 120] }
[compare]
baseline = { total_pulls = 60 }
metrics = ["god_chances"]
"""
    res = run_sweep(load_scenario(write_scenario(body)), cache_root=tmp_path, progress=False)
    d = res.comparisons[res.comparisons["statistic"] == "difference"]
    assert sorted(d["session_size"]) == [1, 10] and set(d["variant"]) == {120} and set(d["metric"]) == {"god_chances"}
    # twice the pulls: more God Chances; the exact difference is inside 4.5 SE
    assert (d["ci_low"] > 0).all()
    for _, r in d.iterrows():
        assert abs(r["estimate"] - r["exact"]) <= 4.5 * r["se"] + 1e-12


def test_holm_and_paired_p_values():
    from gamesim.core.stats import holm_adjust, paired_difference_p_value, tango_interval

    p = np.array([0.01, 0.04, 0.03, 0.005])
    # sorted 0.005, 0.01, 0.03, 0.04 -> 4*0.005, 3*0.01, 2*0.03, 1*0.04 -> 0.02, 0.03, 0.06, 0.06
    assert holm_adjust(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # the proportion p-value rejects exactly when Tango's interval excludes 0
    for b, c in ((30, 12), (20, 12), (5, 0), (0, 0)):
        lo, hi = tango_interval(b, c, 500)
        assert (paired_difference_p_value("proportion", n=500, n10=b, n01=c) < 0.05) == bool(lo > 0 or hi < 0)
    d = np.random.default_rng().normal(0.1, 1, size=200)
    ref = stats.ttest_1samp(d, 0.0).pvalue
    assert paired_difference_p_value("mean", n=200, sum_d=d.sum(), sumsq_d=d @ d) == pytest.approx(ref)


@pytest.mark.slow
def test_all_pairs_holm_keeps_the_family_wise_error_rate():
    # 4 variants with the same success probability, 6 pairs, 3000 replications of 400 trials:
    # a false "different" anywhere in the family at most 5% (+ 4 SE of noise)
    from itertools import combinations

    from gamesim.core.stats import holm_adjust

    rng = np.random.default_rng()
    reps, n, k = 3000, 400, 4
    x = rng.random((reps, n, k)) < 0.3
    pairs = list(combinations(range(k), 2))
    pv = np.empty((reps, len(pairs)))
    for j, (a, b) in enumerate(pairs):
        n10 = np.sum(x[:, :, b] & ~x[:, :, a], axis=1)
        n01 = np.sum(~x[:, :, b] & x[:, :, a], axis=1)
        z = (n10 - n01) / np.sqrt(np.maximum(n10 + n01, 1))
        pv[:, j] = 2 * stats.norm.sf(np.abs(z))
    any_false = np.array([(holm_adjust(r) < 0.05).any() for r in pv])
    assert any_false.mean() <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / reps)
    assert (pv < 0.05).any(axis=1).mean() > 0.12  # unadjusted, the family errs far more often


ALL_PAIRS = """
game = "godtear"
n_trials = 3000
chunk_size = 1500
[[parts]]
name = "dmg"
task = "damage_roll"
cases = [{ name = "A", damage = 3 }, { name = "B", damage = 5 }, { name = "C", damage = 5 }]
params = { protection = 4 }
[compare]
baseline = "A"
pairs = "all"
metrics = ["at_least(wounds, 1)"]
"""


def test_all_pairs_comparison_and_ranking(write_scenario, tmp_path):
    from gamesim.games.godtear import wounds_pmf

    res = run_sweep(load_scenario(write_scenario(ALL_PAIRS)), cache_root=tmp_path, progress=False)
    d = res.comparisons[res.comparisons["statistic"] == "difference"]
    assert sorted(zip(d["baseline"], d["variant"])) == [("A", "B"), ("A", "C"), ("B", "C")]
    assert (d["family_size"] == 3).all()
    p3, p5 = 1 - wounds_pmf(3, 4)[0], 1 - wounds_pmf(5, 4)[0]
    for _, r in d.iterrows():
        want = 0.0 if r["baseline"] == "B" else p5 - p3
        assert r["exact"] == pytest.approx(want)
        assert r["ci_low_adj"] <= r["ci_low"] and r["ci_high"] <= r["ci_high_adj"]  # Bonferroni intervals are wider
    assert bool(d.loc[d["baseline"] == "A", "different"].all())  # 0.30 vs 0.05: far apart
    assert not bool(d.loc[d["baseline"] == "B", "different"].iloc[0])  # B and C: same rules, same numbers
    rk = res.rankings
    assert set(rk.loc[rk["indistinguishable_from_best"].astype(bool), "value"]) == {"B", "C"}
    assert rk.loc[rk["best"], "value"].iloc[0] in {"B", "C"} and rk["best"].sum() == 1
    assert rk.loc[rk["value"] == "A", "rank"].iloc[0] == 3


def test_distribution_over_the_whole_support_with_a_band(write_scenario, tmp_path):
    a = np.array([0, 0, 1, 0, 3, np.nan])
    d = distribution_table(a, support=(0, 5))
    assert d["value"].tolist() == [0, 1, 2, 3, 4, 5] and d["count"].tolist() == [3, 1, 0, 1, 0, 0]
    assert bool(d["full_support"].all()) and (d.loc[d["count"] == 0, "pmf_low"] == 0).all()
    assert (d.loc[d["count"] == 0, "pmf_high"] > 0).all()  # an unseen value is not ruled out
    eps = d["band_half_width"].iloc[0]
    assert eps == pytest.approx(math.sqrt(math.log(40) / 12))
    assert ((d["at_most_band_low"] <= d["at_most_low"]) | (d["at_most_band_low"] == 0)).all()
    assert distribution_table(np.array([7.0]), support=(0, 5)) is None  # outside the declared range
    # Godtear wounds: the support comes from the exact PMF, zero-count rare values included
    body = """
game = "godtear"
n_trials = 300
[[parts]]
name = "dmg"
task = "damage_roll"
params = { damage = 3, protection = 1 }
"""
    from gamesim.games.godtear import wounds_pmf

    res = run_sweep(load_scenario(write_scenario(body)), cache_root=tmp_path, progress=False)
    dist = res.distributions[res.distributions["metric"] == "wounds"]
    assert dist["value"].tolist() == list(range(len(wounds_pmf(3, 1))))
    assert dist["full_support"].all()


def test_distribution_plot_says_which_band_it_shows(tmp_path):
    from gamesim.core.api import sweep

    spec = {"game": "godtear", "n_trials": 500,
            "parts": [{"name": "d", "task": "damage_roll", "params": {"damage": 3, "protection": 2}}]}
    res = sweep(spec, progress=False, cache_root=tmp_path)

    def title(chart):  # type: ignore[no-untyped-def]  # a Vega-Altair chart's title, as its spec says
        return str(chart.to_dict().get("title", ""))

    assert "simultaneous 95% band (DKW)" in title(res.plot_distribution("wounds", band="simultaneous"))
    assert "pointwise 95% intervals (Wilson)" in title(res.plot_distribution("wounds"))
    with pytest.raises(ValueError, match="simultaneous"):
        res.plot_distribution("wounds", view="pmf", band="simultaneous")


def test_rank_cases_pairs_each_value_with_the_best_in_either_direction_or_says_not_compared():
    """Hand-made tables: two families (x = 1, 2); with pairs = "baseline" two variants are never compared."""
    import pandas as pd

    from gamesim.core.analysis import rank_cases

    est = {0: 0.5, 1: 0.7, 2: 0.6, 3: 0.2, 4: 0.1, 5: 0.3}
    table = pd.DataFrame([{"part": "p", "metric": "m", "statistic": "mean", "cell": c, "n": 100, "estimate": e,
                           "ci_low": e - 0.05, "ci_high": e + 0.05} for c, e in est.items()]
                         + [{"part": "p", "metric": "m", "statistic": "q50", "cell": 0, "n": 100, "estimate": 9.0,
                             "ci_low": 9.0, "ci_high": 9.0}])  # not a primary statistic: never ranked
    comp = pd.DataFrame([
        {"part": "p", "metric": "m", "statistic": "difference", "dimension": "case", "x": x, "cell": c,
         "baseline_cell": b, "variant": f"v{c}", "baseline": f"v{b}", "p_holm": p, "different": p < 0.05}
        for x, c, b, p in ((1, 1, 0, 0.01), (1, 2, 0, 0.2), (2, 4, 3, 0.03), (2, 5, 3, 0.5))])
    hi = rank_cases(table, comp).set_index("cell")
    assert hi.loc[[1, 2, 0], "rank"].tolist() == [1, 2, 3] and hi.loc[[5, 3, 4], "rank"].tolist() == [1, 2, 3]
    assert hi["best"].tolist() == [c in (1, 5) for c in hi.index]
    assert hi.loc[0, "p_holm_vs_best"] == 0.01 and not hi.loc[0, "indistinguishable_from_best"]  # (1 vs 0), reversed
    assert math.isnan(hi.loc[2, "p_holm_vs_best"]) and pd.isna(hi.loc[2, "indistinguishable_from_best"])
    assert hi.loc[3, "p_holm_vs_best"] == 0.5 and bool(hi.loc[3, "indistinguishable_from_best"])
    assert pd.isna(hi.loc[4, "indistinguishable_from_best"]) and hi.loc[4, "x"] == 2
    assert hi.loc[0, "value"] == "v0" and hi.loc[1, "value"] == "v1"
    lo = rank_cases(table, comp, better="lower").set_index("cell")
    assert lo.loc[lo["best"]].index.tolist() == [0, 4]
    assert lo.loc[2, "p_holm_vs_best"] == 0.2 and bool(lo.loc[2, "indistinguishable_from_best"])
    assert lo.loc[1, "p_holm_vs_best"] == 0.01 and not lo.loc[1, "indistinguishable_from_best"]
    assert lo.loc[3, "p_holm_vs_best"] == 0.03 and pd.isna(lo.loc[5, "indistinguishable_from_best"])
    assert str(lo["indistinguishable_from_best"].dtype) == "boolean"
