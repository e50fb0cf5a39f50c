"""Unit tests of gamesim.core.api.Results on one small sweep built from a dict.

The sweep: Godtear damage rolls (faces 0, 0, 1, 1, 1, 2 pips) with one or two dice against
protection 0 or 1. Every expected value is worked out below by hand from the die, never taken
from a run's output; Monte Carlo estimates are compared at 4.5 standard errors with a fresh
seed each run, so the tests pass for any seed.

One die: P(0, 1, 2 pips) = (1/3, 1/2, 1/6), mean 5/6.
Two dice: P(total = 0..4) = (1/9, 1/3, 13/36, 1/6, 1/36), mean 5/3.
Protection 1 takes one pip off (not below 0): one die wounds (5/6, 1/6), mean 1/6;
two dice wounds (4/9, 13/36, 1/6, 1/36), mean 7/9.
"""

from __future__ import annotations

import math

from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import gamesim
from gamesim.core.api import Results
from tests.conftest import assert_count

SCENARIO = {
    "name": "api_unit", "game": "godtear", "n_trials": 200,
    "parts": [{"name": "roll", "task": "damage_roll",
               "cases": [{"name": "one die", "damage": 1}, {"name": "two dice", "damage": 2}],
               "grid": {"protection": [0, 1]}}],
    "compare": {"baseline": "one die", "metrics": ["wounds"]},
}

#: Wounds PMF per (case, protection), from the die.
PMF = {
    ("one die", 0): [F(1, 3), F(1, 2), F(1, 6)],
    ("one die", 1): [F(5, 6), F(1, 6)],
    ("two dice", 0): [F(1, 9), F(1, 3), F(13, 36), F(1, 6), F(1, 36)],
    ("two dice", 1): [F(4, 9), F(13, 36), F(1, 6), F(1, 36)],
}
MEAN = {k: sum(i * p for i, p in enumerate(v)) for k, v in PMF.items()}
Z = 4.5


def test_hand_worked_pmfs_are_consistent() -> None:
    assert all(sum(v) == 1 for v in PMF.values())
    assert MEAN == {("one die", 0): F(5, 6), ("one die", 1): F(1, 6), ("two dice", 0): F(5, 3),
                    ("two dice", 1): F(7, 9)}


@pytest.fixture(scope="module")
def res(tmp_path_factory: pytest.TempPathFactory) -> Results:
    seed = int(np.random.SeedSequence().entropy % (2**32))  # a fresh seed: must pass for any
    return gamesim.sweep(dict(SCENARIO, seed=seed), progress=False,
                         cache_root=tmp_path_factory.mktemp("chunks"))


def test_structure(res: Results) -> None:
    assert res.parts == ["roll"]
    assert res.metrics() == ["wounds", "any_wound"] and res.metrics("roll") == ["wounds", "any_wound"]
    assert res.metrics("no such part") == []
    assert res.dims("roll") == ["case", "protection"]
    frame_only = Results(res.frame)  # without the scenario: the parameter columns that vary
    assert {"case", "protection"} <= set(frame_only.dims("roll"))
    assert not {"metric", "statistic", "estimate", "cell", "n"} & set(frame_only.dims("roll"))
    assert res.primary_statistic("wounds") == "mean" and res.primary_statistic("any_wound") == "proportion"


def test_rows_match_the_die(res: Results) -> None:
    rows = res.rows("wounds", statistic="mean")
    assert rows["cell"].tolist() == sorted(rows["cell"]) and len(rows) == 4
    assert (rows["n"] == 200).all()
    for r in rows.itertuples():
        mean = MEAN[(r.case, r.protection)]
        assert r.exact == pytest.approx(float(mean), abs=1e-12)
        assert abs(r.estimate - float(mean)) <= Z * r.se, (r.case, r.protection)
        assert r.ci_low <= r.estimate <= r.ci_high
    for r in res.rows("any_wound", statistic="proportion").itertuples():
        p = 1 - PMF[(r.case, r.protection)][0]
        assert r.exact == pytest.approx(float(p), abs=1e-12)
        assert_count(r.estimate * r.n, r.n, float(p), z=Z, label=f"{r.case}, {r.protection}")


def test_unknown_names_raise_key_errors(res: Results) -> None:
    with pytest.raises(KeyError, match="no metric 'hits'"):
        res.rows("hits")
    with pytest.raises(KeyError, match="no part 'other'"):
        res.rows("wounds", part="other")
    with pytest.raises(KeyError, match="no statistic 'median'"):
        res.rows("wounds", statistic="median")


def test_table_strings_hold_the_interval_and_the_exact_value(res: Results) -> None:
    table = res.table("wounds")
    assert table.index.names == ["case", "protection"]
    assert list(table.columns) == ["mean [95% CI]", "n", "exact mean"]
    rows = res.rows("wounds", statistic="mean")
    for r in rows.itertuples():
        shown = table.loc[(r.case, r.protection)]
        assert shown["mean [95% CI]"] == f"{r.estimate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]"
        assert shown["n"] == "200"
        assert shown["exact mean"] == f"{float(MEAN[(r.case, r.protection)]):.3f}"
    assert res.table("wounds", digits=1).iloc[0]["exact mean"] == f"{float(MEAN[('one die', 0)]):.1f}"


def test_distribution_selects_by_setting(res: Results) -> None:
    d = res.distribution("wounds", case="two dice", protection=1)
    assert set(d["case"]) == {"two dice"} and set(d["protection"]) == {1} and d["cell"].nunique() == 1
    assert list(d.columns[:5]) == ["part", "metric", "cell", "case", "protection"]
    exact = PMF[("two dice", 1)]
    assert set(d["value"]) <= set(range(len(exact)))
    assert d["count"].sum() == 200 and d["pmf"].sum() == pytest.approx(1.0)
    for r in d.itertuples():
        p = float(exact[r.value])
        assert r.pmf_exact == pytest.approx(p, abs=1e-12)
        assert_count(r.count, r.n, p, z=Z, label=f"value {r.value}")
        assert r.pmf_low <= r.pmf <= r.pmf_high
    whole = res.distribution("wounds")
    assert whole["cell"].nunique() == 4
    assert set(res.distribution("wounds", case="one die")["protection"]) == {0, 1}


def test_distribution_refuses_unknown_setting_and_empty_selection(res: Results) -> None:
    with pytest.raises(KeyError, match="'health' is not a swept setting of part 'roll'"):
        res.distribution("wounds", health=3)
    with pytest.raises(KeyError, match="no cell") as err:  # and which values there are
        res.distribution("wounds", protection=7)
    assert err.value.args[0].endswith("; protection: 0, 1"), err.value
    with pytest.raises(KeyError) as err:
        res.distribution("wounds", case="three dice", protection=0)
    assert err.value.args[0].endswith("; case: one die, two dice; protection: 0, 1"), err.value
    with pytest.raises(KeyError, match="no metric"):
        res.distribution("hits")


def test_compare_against_the_baseline(res: Results) -> None:
    c = res.comparisons
    diff = c[c["statistic"] == "difference"]
    assert set(diff["variant"]) == {"two dice"} and set(diff["baseline"]) == {"one die"}
    assert sorted(diff["protection"]) == [0, 1]
    for r in diff.itertuples():
        want = MEAN[("two dice", r.protection)] - MEAN[("one die", r.protection)]  # 5/6 and 11/18
        assert r.exact == pytest.approx(float(want), abs=1e-12)
        assert abs(r.estimate - float(want)) <= Z * r.se
    ratio = c[c["statistic"] == "ratio"]
    for r in ratio.itertuples():
        assert r.exact == pytest.approx(float(MEAN[("two dice", r.protection)] / MEAN[("one die", r.protection)]))
    shown = res.compare("wounds")
    assert shown["case"].tolist() == ["two dice", "two dice"]
    for (_, row), r in zip(shown.iterrows(), diff.sort_values("cell").itertuples()):
        assert row["difference [95% CI]"] == f"{r.estimate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]"
        assert row["exact"] == f"{r.exact:.3f}"
        assert row["n"] == "200"
    with pytest.raises(KeyError, match="no comparisons"):
        res.compare("any_wound")
    with pytest.raises(KeyError, match="no comparisons"):
        Results(res.frame).compare()


def test_save_load_round_trip(res: Results, tmp_path: Path) -> None:
    written = res.save(tmp_path / "out.parquet")
    assert written[0] == tmp_path / "out.parquet" and all(p.is_file() for p in written)
    back = Results.load(tmp_path / "out.parquet", scenario=res.scenario)
    pd.testing.assert_frame_equal(back.frame, res.frame)
    pd.testing.assert_frame_equal(back.comparisons, res.comparisons)
    pd.testing.assert_frame_equal(back.distributions, res.distributions)
    assert {k: v for k, v in back.meta.items() if k != "companions"} == dict(res.meta, run_id=back.meta["run_id"])
    assert back.meta["run_id"].endswith("-" + str(res.meta["seed_entropy"]))
    pd.testing.assert_frame_equal(back.table("wounds"), res.table("wounds"))
    pd.testing.assert_frame_equal(back.compare(), res.compare())


def test_csv_round_trip_keeps_the_tables(res: Results, tmp_path: Path) -> None:
    res.save(tmp_path / "out.csv", format="csv")
    back = Results.load(tmp_path / "out.csv", scenario=res.scenario)
    pd.testing.assert_frame_equal(back.table("wounds"), res.table("wounds"))
    pd.testing.assert_frame_equal(back.compare(), res.compare())
    with pytest.raises(ValueError, match="format"):
        res.save(tmp_path / "out.x", format="xlsx")  # type: ignore[arg-type]


def test_tables_show_a_tiny_exact_value_with_the_decimals_that_show_it(res: Results) -> None:
    """An exact value that is not 0 never prints as 0.000 (as format_interval does for intervals)."""
    frame = res.frame.copy()
    first = frame.index[(frame["metric"] == "wounds") & (frame["statistic"] == "mean")][0]
    frame.loc[first, "exact"] = 1.2e-5
    tiny_key = (frame.loc[first, "case"], frame.loc[first, "protection"])
    comp = res.comparisons.copy()
    row = comp.index[comp["statistic"] == "difference"][0]
    comp.loc[row, ["exact", "unpaired_half_width"]] = [-2.5e-6, 4.4e-5]
    tiny = Results(frame, comp, res.distributions, {}, res.scenario)
    table = tiny.table("wounds")
    for key, want in MEAN.items():
        assert table.loc[key, "exact mean"] == ("0.000012" if key == tiny_key else f"{float(want):.3f}")
    shown = tiny.compare("wounds").set_index("protection")
    p = comp.loc[row, "protection"]
    assert shown.loc[p, "exact"] == "-0.0000025"
    assert shown.loc[p, "half-width paired / indep."].endswith(" / 0.000044")
    other = 1 - p
    assert shown.loc[other, "exact"] == f"{float(MEAN[('two dice', other)] - MEAN[('one die', other)]):.3f}"


def test_a_table_cell_without_spread_says_so_briefly(res: Results) -> None:
    """A cell whose trials all gave one value: "0.000 (all equal)" in the table (its n has a column), never
    the infinite bounds of its interval."""
    frame = res.frame.copy()
    first = frame.index[(frame["metric"] == "wounds") & (frame["statistic"] == "mean")][0]
    frame.loc[first, ["estimate", "se", "ci_low", "ci_high"]] = [0.0, 0.0, -math.inf, math.inf]
    key = (frame.loc[first, "case"], frame.loc[first, "protection"])
    table = Results(frame, res.comparisons, res.distributions, {}, res.scenario).table("wounds")
    assert table.loc[key, "mean [95% CI]"] == "0.000 (all equal)"
    assert all("inf" not in v for v in table["mean [95% CI]"])


def test_run_table_says_where_the_chunks_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The run table's backend line: a sweep small enough to run in gamesim's own process says its workers were
    not used; a rerun from saved chunks says every chunk was reused; the chunk counts survive a save and load."""
    import gamesim.run.sweep as sweep_module
    from gamesim.api import summary_table

    monkeypatch.setattr(sweep_module, "_workers_warm_until", 0.0)  # workers an earlier test left running: unused

    scenario = {"name": "where_run", "game": "godtear", "seed": 4, "n_trials": 300, "chunk_size": 100,
                "parts": [{"name": "p", "task": "knockout", "grid": {"accuracy": [2, 5]}}]}
    first = gamesim.sweep(scenario, n_jobs=2, progress=False, cache_root=tmp_path / "c", inline_below_s=60.0)
    assert first.meta["chunks_run"] == first.meta["chunks_in_process"] == 6
    line = summary_table(first).loc["backend / n_jobs", "value"]
    assert line == "loky / 2 (not used: the sweep was small enough to run in gamesim's own process)"
    again = gamesim.sweep(scenario, n_jobs=2, progress=False, cache_root=tmp_path / "c", inline_below_s=60.0)
    assert again.meta["chunks_run"] == 0 and again.frame.equals(first.frame)
    assert summary_table(again).loc["backend / n_jobs", "value"].endswith("(every chunk reused from an earlier run)")
    first.save(tmp_path / "r.parquet")
    loaded = Results.load(tmp_path / "r.parquet")
    assert summary_table(loaded).loc["backend / n_jobs", "value"] == line
    old = dict(first.meta)  # results written before the counts were recorded: the settings alone
    del old["chunks_in_process"]
    from gamesim.report.present import run_summary

    assert run_summary(first.frame, old).loc["backend / n_jobs", "value"] == "loky / 2"
