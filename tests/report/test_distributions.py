"""Whole distributions in the report: exact PMF columns, the exact curve over the Monte Carlo band, the P(X >= k)
picker and its data, and the case and parameter columns of the ``.dist`` table."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess

import numpy as np
import pytest

import gamesim
from gamesim.core.analysis import distribution_table, exact_pmf, with_exact_columns
from gamesim.report.charts import EXACT_CURVE, MC_CURVE, distribution_chart
from gamesim.report.picker import READ_JS, event_lines, picker_data, picker_html

#: Two-sided confidence of a 4.5-standard-error check (the project's Monte Carlo tolerance).
CONF_45 = 1 - 6.8e-6


@pytest.fixture(scope="module")
def res(tmp_path_factory):
    scenario = {
        "name": "dist_check", "game": "godtear", "n_trials": 800, "chunk_size": 800,  # fresh seed every run
        "events": ["at_least(wounds, 3)"],
        "parts": [{"name": "p", "task": "knockout", "params": {"max_uses": 30},
                   "cases": [{"name": "weak", "accuracy": 2}, {"name": "strong", "accuracy": 5}],
                   "grid": {"dodge": [1, 3]}}],
    }
    return gamesim.sweep(scenario, progress=False, cache_root=tmp_path_factory.mktemp("chunks"))


def test_exact_columns_from_a_pmf_with_censored_mass():
    exact = {"x:pmf=1": 0.25, "x:pmf=3": 0.5, "x:mean": 9.0, "y:pmf=0": 1.0}  # P(censored) = 0.25
    pmf = exact_pmf(exact, "x")
    assert pmf == {1: 0.25, 3: 0.5}
    dist = distribution_table([0, 1, 2, 3, 3, np.nan])
    out = with_exact_columns(dist, pmf)
    assert out["value"].tolist() == [0, 1, 2, 3]
    assert out["pmf_exact"].tolist() == [0.0, 0.25, 0.0, 0.5]
    assert out["at_least_exact"].tolist() == [1.0, 1.0, 0.75, 0.75]  # censored counts as +inf: in every "at least"
    assert out["at_most_exact"].tolist() == [0.0, 0.25, 0.25, 0.75]
    assert with_exact_columns(dist, {}) is dist
    with pytest.raises(ValueError, match="x:pmf=1.5"):
        exact_pmf({"x:pmf=1.5": 0.1}, "x")


def test_dist_table_carries_case_and_parameters_and_distribution_selects_by_them(res):
    d = res.distributions
    assert {"case", "dodge", "accuracy", "at_least_exact", "pmf_exact", "at_most_exact"} <= set(d.columns)
    for _, r in d.drop_duplicates("cell").iterrows():
        row = res.frame[res.frame["cell"] == r["cell"]].iloc[0]
        assert (r["case"], int(r["dodge"]), int(r["accuracy"])) == (row["case"], int(row["dodge"]), int(row["accuracy"]))
    one = res.distribution("uses_to_knockout", case="strong", dodge=3)
    assert one["cell"].nunique() == 1 and set(one["case"]) == {"strong"} and set(one["dodge"]) == {3}


def test_monte_carlo_curves_agree_with_the_exact_ones(res):
    d = res.distributions
    assert d["at_least_exact"].notna().all()
    from scipy.stats import binom

    for col in ("at_least", "at_most", "pmf"):
        # each count against Binomial(n, exact p), two-sided at the 4.5-sigma level (exact tails: no
        # normal approximation where p is tiny)
        k = np.round(d[col] * d["n"]).astype(int).to_numpy()
        n, p = d["n"].to_numpy(), np.clip(d[f"{col}_exact"].to_numpy(), 0.0, 1.0)
        tail = np.minimum(binom.sf(k - 1, n, p), binom.cdf(k, n, p))
        bad = tail < (1 - CONF_45) / 2
        assert not bad.any(), d.loc[bad, ["cell", "metric", "value", col, f"{col}_exact"]]
    # the exact PMF of each cell sums to the exact P(knock-out within max_uses) / to 1 for wounds
    for (metric, cell), g in d.groupby(["metric", "cell"]):
        total = g["pmf_exact"].sum()
        assert total == pytest.approx(1.0 if metric == "wounds" else g["at_most_exact"].iloc[-1], abs=1e-12)


def test_exact_pmfs_of_the_games_match_their_exact_means():
    from gamesim.games.dqz.tasks import BATTLE_TASK
    from gamesim.games.gacha.tasks import PULLS_TO_COMPLETE_TASK, SCHEDULE_TASK
    from gamesim.games.godtear.tasks import KNOCKOUT_TASK

    def defaults(task, **kw):
        p = {x.name: x.default for x in task.params}
        p.update(kw)
        return p

    def mean(ex, metric):
        pmf = exact_pmf(ex, metric)
        assert pmf and sum(pmf.values()) == pytest.approx(1.0, abs=1e-9)
        return sum(k * p for k, p in pmf.items())

    ex = PULLS_TO_COMPLETE_TASK.exact(defaults(PULLS_TO_COMPLETE_TASK, overdrive=False, session_size=10,
                                               max_pulls=5000))
    assert mean(ex, "pulls_to_complete") == pytest.approx(ex["pulls_to_complete:mean"], rel=1e-9)
    ex = SCHEDULE_TASK.exact(defaults(SCHEDULE_TASK, overdrive=False, session_size=10, total_pulls=100))
    assert mean(ex, "god_chances") == pytest.approx(ex["god_chances:mean"], rel=1e-12)
    ex = KNOCKOUT_TASK.exact(defaults(KNOCKOUT_TASK))
    assert mean(ex, "wounds") == pytest.approx(ex["wounds:mean"], rel=1e-12)
    assert mean(ex, "uses_to_knockout") == pytest.approx(ex["uses_to_knockout:mean"], rel=1e-9)
    ex = BATTLE_TASK.exact(defaults(BATTLE_TASK, monster="custom", hp=100000, skills="", party_size=3,
                                    hand_size=3, policy="max_damage"))
    assert mean(ex, "first_turn_damage") == pytest.approx(ex["first_turn_damage:mean"], rel=1e-12)


def _layers(spec):
    """Every layer of a (faceted, concatenated) Vega-Lite spec, depth first."""
    if isinstance(spec, dict):
        if "mark" in spec:
            yield spec
        for v in spec.values():
            yield from _layers(v)
    elif isinstance(spec, list):
        for v in spec:
            yield from _layers(v)


def _has_overlay(spec) -> bool:
    exact_lines = [ly for ly in _layers(spec) if ly.get("encoding", {}).get("y", {}).get("field") == "exact"]
    domains = [ly["encoding"]["color"].get("scale", {}).get("domain") for ly in exact_lines
               if "color" in ly.get("encoding", {})]
    data = [row for rows in spec.get("datasets", {}).values() for row in rows if row.get("exact") is not None]
    return bool(exact_lines) and any(dom == [MC_CURVE, EXACT_CURVE] for dom in domains) and bool(data)


def test_distribution_chart_overlays_the_exact_curve_and_names_both_in_the_legend(res):
    assert _has_overlay(distribution_chart(res, "p").to_dict())
    # without the exact columns: no exact layer, a legend with the Monte Carlo curve only
    bare = type(res)(res.frame, res.comparisons, res.distributions.drop(
        columns=["pmf_exact", "at_least_exact", "at_most_exact"]), res.meta, res.scenario)
    spec = distribution_chart(bare, "p").to_dict()
    assert not _has_overlay(spec) and MC_CURVE in json.dumps(spec, ensure_ascii=False)


def test_picker_data_are_the_rows_of_results_distribution(res):
    data = picker_data(res, "p")
    assert data["dims"] == ["case", "dodge"]
    assert [m["name"] for m in data["metrics"]] == ["wounds", "uses_to_knockout"]
    for m in data["metrics"]:
        for c in m["cells"]:
            row = res.frame[res.frame["cell"] == c["cell"]].iloc[0]
            assert c["label"] == f"case = {row['case']}, dodge = {row['dodge']}"
            rows = res.distribution(m["name"], case=row["case"], dodge=int(row["dodge"])).sort_values("value")
            assert c["k"] == rows["value"].tolist() and c["n"] == int(rows["n"].iloc[0])
            for key, col in (("p", "at_least"), ("lo", "at_least_low"), ("hi", "at_least_high"),
                             ("blo", "at_least_band_low"), ("bhi", "at_least_band_high"), ("exact", "at_least_exact")):
                assert np.allclose(c[key], rows[col], atol=1e-6, rtol=0), (m["name"], c["cell"], key)
    page = picker_html(res, "p")
    blob = re.search(r'<script type="application/json" class="gamesim-picker-data">(.*?)</script>', page, re.S)
    assert json.loads(blob.group(1)) == data
    assert "http" not in page and "@media print{.gamesim-picker{display:none" in page


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: the reading rule is not run")
def test_the_pickers_reading_rule_in_javascript(res):
    cell = next(c for c in picker_data(res, "p")["metrics"][1]["cells"] if len(c["k"]) > 3)
    ks = cell["k"]
    probes = [ks[2], ks[0] - 5, ks[-1] + 7]
    gap = next((a + 1 for a, b in zip(ks, ks[1:]) if b > a + 1), None)
    if gap is not None:
        probes.append(gap)
    script = READ_JS + f"\nvar cell = {json.dumps(cell)};\n" + \
        f"console.log(JSON.stringify({json.dumps(probes)}.map(function (k) {{ return gamesimRead(cell, k); }})));"
    out = json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout)
    for k, r in zip(probes, out):
        i = min(int(np.searchsorted(ks, k, side="left")), len(ks) - 1)
        assert r["k"] == ks[i] and r["p"] == cell["p"][i] and r["lo"] == cell["lo"][i] and r["hi"] == cell["hi"][i]
        assert r["exact"] == cell["exact"][i] and r["n"] == cell["n"]
        assert (r["note"] == "") == (k == ks[i])


def test_event_lines_give_p_at_least_k_per_cell_with_intervals(res):
    (line,) = event_lines(res, "p")
    rows = res.rows("at_least(wounds, 3)", part="p", statistic="proportion")
    assert line.startswith("P(wounds ≥ 3), 95% Wilson intervals, n = 800 per cell:")
    for _, r in rows.iterrows():
        assert f"{r['estimate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]" in line
        assert not math.isnan(r["exact"]) and f"exact {r['exact']:.3f}" in line


@pytest.mark.slow
def test_rendered_report_has_the_exact_overlay_and_the_picker(report_of):
    rendered = report_of("tests/data/gacha_small.toml")
    specs = [json.loads(s.replace("<\\/", "</")) for s in
             re.findall(r'<script[^>]*class="gamesim-spec"[^>]*>(.*?)</script>', rendered.html, re.S)]
    assert any(_has_overlay(s) for s in specs), "no distribution figure with the exact curve"
    pickers = re.findall(r'<script[^>]*class="gamesim-picker-data"[^>]*>(.*?)</script>', rendered.html, re.S)
    assert pickers
    res = gamesim.Results.load(rendered.out_dir / f"{rendered.name}.parquet")
    for blob in pickers:
        data = json.loads(blob.replace("<\\/", "</"))
        assert data == json.loads(json.dumps(picker_data(res, data["part"]), ensure_ascii=False))
    ptc = next(json.loads(b.replace("<\\/", "</")) for b in pickers if '"part":"pulls_to_complete"' in b)
    exact_cells = [c for m in ptc["metrics"] if m["name"] == "pulls_to_complete" for c in m["cells"] if c["exact"]]
    assert exact_cells and all("overdrive = false" in c["label"] for c in exact_cells)  # no exact with Overdrive


def test_plot_distribution_selects_cells_by_their_settings(res):
    spec = res.plot_distribution("wounds", dodge=3).to_dict()
    drawn = {row["cell"] for rows in spec["datasets"].values() for row in rows}
    assert drawn == {"weak | 3", "strong | 3"}
    with pytest.raises(KeyError, match="dodge"):
        res.plot_distribution("wounds", dodge=7)


def test_exact_event_counts_the_censored_mass_in_at_least():
    from gamesim.core.events import exact_event, parse_event
    from gamesim.games.godtear.tasks import KNOCKOUT_TASK

    p = {x.name: x.default for x in KNOCKOUT_TASK.params}
    p.update(accuracy=2, dodge=3, max_uses=4)  # a weak skill: often no knock-out within 4 uses
    ex = KNOCKOUT_TASK.exact(p)
    pmf = exact_pmf(ex, "uses_to_knockout")
    within = sum(pmf.values())
    assert sorted(pmf) == [1, 2, 3, 4] and within < 0.9
    # P(X >= 3) = P(knock-out at use 3 or 4) + P(none within 4 uses): censored counts as +inf
    assert exact_event(parse_event("at_least(uses_to_knockout, 3)"), ex) == pytest.approx(
        pmf[3] + pmf[4] + (1 - within), abs=1e-12)
    assert exact_event(parse_event("at_most(uses_to_knockout, 2)"), ex) == pytest.approx(pmf[1] + pmf[2], abs=1e-12)


def test_picker_leaves_cells_out_beyond_its_row_budget_and_says_how_many(res):
    full = picker_data(res, "p")
    rows = [len(c["k"]) for m in full["metrics"] for c in m["cells"]]
    small = picker_data(res, "p", max_rows=rows[0])  # room for the first cell only (every metric keeps one)
    kept = sum(len(m["cells"]) for m in small["metrics"])
    assert kept < sum(len(m["cells"]) for m in full["metrics"])
    for m_full, m_small in zip(full["metrics"], small["metrics"]):
        assert len(m_small["cells"]) + m_small["left_out"] == len(m_full["cells"])
        assert m_small["cells"] == m_full["cells"][:len(m_small["cells"])]


def test_cells_with_many_values_are_tabulated_thinned_and_drawn(tmp_path):
    from gamesim.core.analysis import MAX_DISTINCT_VALUES
    from gamesim.report.generic import _thinned_cells, untabulated_cells

    # single pulls spread pulls-to-complete over hundreds of values; fifty-pulls over at most 3000 / 50 = 60
    scenario = {
        "name": "spread", "game": "gacha", "n_trials": 600, "chunk_size": 600,
        "parts": [{"name": "s", "task": "pulls_to_complete", "params": {"max_pulls": 3000},
                   "cases": [{"name": "single", "session_size": 1}, {"name": "fifty", "session_size": 50}]}],
    }
    r = gamesim.sweep(scenario, progress=False, cache_root=tmp_path)
    d = r.distributions
    d = d[d["metric"] == "pulls_to_complete"]
    assert set(d["case"]) == {"single", "fifty"}
    single, fifty = d[d["case"] == "single"], d[d["case"] == "fifty"]
    assert single["thinned"].all() and not fifty["thinned"].any()
    assert len(single) <= MAX_DISTINCT_VALUES < 600  # the premise: single pulls has more distinct values
    assert untabulated_cells(r, "s", ["pulls_to_complete"]) == []
    assert _thinned_cells(r, "s", ["pulls_to_complete"]) == ["case = single"]  # named by its settings
    # the thinned rows agree with the cell's quantiles: P(X <= median) >= 1/2 >= P(X <= k) below it
    med = float(r.frame.loc[(r.frame["case"] == "single") & (r.frame["metric"] == "pulls_to_complete")
                            & (r.frame["statistic"] == "q50"), "estimate"].iloc[0])
    assert (single.loc[single["value"] >= med, "at_most"] >= 0.5).all()
    assert (single.loc[single["value"] < med, "at_most"] <= 0.5).all()


@pytest.mark.parametrize("censor", [False, True])
def test_thinned_table_is_exact_at_every_k(censor):
    from gamesim.core.analysis import distribution_table

    rng = np.random.default_rng()
    x = rng.geometric(0.004, size=3000).astype(float)  # hundreds of distinct values
    if censor:
        x[rng.random(x.size) < 0.1] = np.nan
    t = distribution_table(x, max_distinct=50)
    assert t is not None and t["thinned"].all() and 40 <= len(t) <= 50
    finite = x[~np.isnan(x)]
    assert t["value"].iloc[0] == finite.min() and t["value"].iloc[-1] == finite.max()
    for row in t.itertuples():
        assert row.count == np.sum(x == row.value)
        assert row.at_least == pytest.approx(np.mean(~(x < row.value)))  # nan: at least every k
        assert row.at_most == pytest.approx(np.mean(x <= row.value))
        assert row.pmf == pytest.approx(np.mean(x == row.value))
    assert not distribution_table(np.arange(30.0), max_distinct=50)["thinned"].any()
