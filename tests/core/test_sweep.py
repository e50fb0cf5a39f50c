"""Sweeps: reproducible for any n_jobs and backend, resumable, precise, right."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from gamesim.core.results import load_results
from gamesim.core.scenario import load_scenario
from gamesim.core.sweep import run_sweep
from tests.conftest import NOTEBOOK, ROOT, assert_count

SMALL = """
game = "gacha"
seed = 123
n_trials = 3000
chunk_size = 1000
[[parts]]
name = "completion"
task = "schedule"
grid = { session_size = [1, 10, 60], total_pulls = [20, 120] }
[[parts]]
name = "money"
task = "money"
grid = { money = [10, 25] }
"""


def _table(res) -> pd.DataFrame:
    return res.table.reset_index(drop=True)


@pytest.mark.slow
def test_same_seed_same_results_for_any_n_jobs_and_dask(write_scenario, tmp_path):
    sc = load_scenario(write_scenario(SMALL))
    one = run_sweep(sc, n_jobs=1, cache_root=tmp_path / "c1", progress=False)
    two = run_sweep(sc, n_jobs=2, backend="loky", cache_root=tmp_path / "c2", progress=False)
    dsk = run_sweep(sc, n_jobs=2, backend="dask", cache_root=tmp_path / "c3", progress=False)
    assert one.chunks_run == two.chunks_run == dsk.chunks_run == 8 * 3
    pd.testing.assert_frame_equal(_table(one), _table(two))
    pd.testing.assert_frame_equal(_table(one), _table(dsk))
    other = run_sweep(sc, seed=124, cache_root=tmp_path / "c4", progress=False)
    assert not np.array_equal(other.table["estimate"], one.table["estimate"])


def test_fresh_entropy_is_recorded_and_reproduces(write_scenario, tmp_path):
    sc = load_scenario(write_scenario(SMALL.replace("seed = 123\n", "")))
    first = run_sweep(sc, cache_root=tmp_path / "a", progress=False)
    assert first.table["seed_entropy"].iloc[0] == str(first.seed_entropy)
    again = run_sweep(sc, seed=first.seed_entropy, cache_root=tmp_path / "b", progress=False)
    pd.testing.assert_frame_equal(_table(first), _table(again).assign(scenario_hash=first.scenario_hash))
    resumed = run_sweep(sc, cache_root=tmp_path / "a", progress=False)
    assert resumed.chunks_run == 0 and resumed.seed_entropy == first.seed_entropy


def test_monte_carlo_agrees_with_exact_through_the_sweep(write_scenario, tmp_path):
    sc = load_scenario(write_scenario(SMALL.replace("seed = 123\n", "")))
    t = run_sweep(sc, cache_root=tmp_path, progress=False).table
    checked = t[t["exact"].notna()]
    assert len(checked) >= 20
    for _, r in checked.iterrows():
        if r.statistic == "proportion":
            # the count against its exact binomial law: a normal 4.5 SE band is far too narrow for
            # p near 0 (p = 2e-6, n = 3,000: one success, which happens in 0.6% of runs, is "15 SE")
            assert_count(r.estimate * r.n, r.n, r.exact, z=4.5, label=str(r.to_dict()))
        else:
            assert abs(r.estimate - r.exact) <= 4.5 * r.se + 1e-12, r.to_dict()


def test_precision_target_tops_up_until_narrow_or_capped(write_scenario, tmp_path):
    body = SMALL.replace("[20, 120]", "[20, 400]") + "\n[precision]\nmetric = 'complete'\nhalf_width = 0.012\nmax_trials = 9000\n"
    sc = load_scenario(write_scenario(body))
    t = run_sweep(sc, cache_root=tmp_path, progress=False).table
    p = t[(t.metric == "complete") & (t.statistic == "proportion")]
    hw = np.maximum(p.estimate - p.ci_low, p.ci_high - p.estimate)
    met = p.target_met.astype(bool)
    assert (met == (hw <= 0.012)).all() and met.mean() >= 0.5
    assert t[t.metric != "complete"].target_met.isna().all()
    # two-stage rule: every cell's results come from a second stage planned from its 3000-trial pilot
    assert (p.n <= 9000).all() and (p.n >= 2).all() and (p.n != 3000).any()
    none = p[p.estimate == 0]  # a pilot with no completion plans the cap
    assert (none.n == 9000).all()
    # the decision is reproducible: the same table with two workers
    t2 = run_sweep(sc, n_jobs=2, cache_root=tmp_path / "x", progress=False).table
    pd.testing.assert_frame_equal(t.reset_index(drop=True), t2.reset_index(drop=True))


SLOW = """
game = "gacha"
seed = 7
n_trials = 30000
chunk_size = 1000
[[parts]]
name = "completion"
task = "schedule"
grid = { session_size = [1], total_pulls = [2000] }
"""


def _start(path, out_dir):
    return subprocess.Popen(
        [sys.executable, "-m", "gamesim.cli", "run", str(path), "--out-dir", str(out_dir), "--quiet"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_chunks(out_dir, n, proc, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        files = list((out_dir / ".chunks").glob("*/p*-c*-k*.parquet"))
        if len(files) >= n:
            return len(files)
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("no chunks appeared")


@pytest.fixture(scope="module")
def slow_straight(tmp_path_factory):
    """The SLOW scenario's results run straight through, once for both signals."""
    folder = tmp_path_factory.mktemp("straight")
    path = folder / "scen.toml"
    path.write_text(f'notebook = "{NOTEBOOK.as_posix()}"\n' + SLOW, encoding="utf-8")
    straight = _start(path, folder / "out")
    assert straight.wait(timeout=300) == 0, straight.communicate()
    return load_results(folder / "out" / "scen.parquet")[0]


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_sweep_resumes_to_the_same_results(write_scenario, tmp_path, sig, slow_straight):
    path = write_scenario(SLOW)
    out = tmp_path / "interrupted"
    proc = _start(path, out)
    _wait_for_chunks(out, 3, proc)
    os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    if sig == signal.SIGINT:
        assert proc.returncode == 130, err
        assert "resume" in err and "Traceback" not in err
    done = len(list((out / ".chunks").glob("*/p*-c*-k*.parquet")))
    assert 3 <= done < 30, "the sweep was not interrupted mid-way"
    assert not list((out / ".chunks").glob("*/*.tmp*")) or sig == signal.SIGKILL

    resume = _start(path, out)
    assert resume.wait(timeout=300) == 0, resume.communicate()
    a, meta_a = load_results(out / "scen.parquet")
    assert meta_a["chunks_reused"] >= done
    assert meta_a["chunks_run"] == 30 - meta_a["chunks_reused"]
    pd.testing.assert_frame_equal(a, slow_straight)


def test_changed_scenario_never_mixes_chunks(write_scenario, tmp_path):
    sc1 = load_scenario(write_scenario(SMALL))
    r1 = run_sweep(sc1, cache_root=tmp_path, progress=False)
    sc2 = load_scenario(write_scenario(SMALL.replace("bag_n", "bag_n").replace("[20, 120]", "[20, 121]")))
    r2 = run_sweep(sc2, cache_root=tmp_path, progress=False)
    assert r1.cache_dir != r2.cache_dir
    assert r2.chunks_reused == 0 and r2.chunks_run == r1.chunks_run


@pytest.mark.slow
def test_cli_on_a_running_dask_scheduler_matches_local(write_scenario, tmp_path):
    from distributed import LocalCluster

    from tests.conftest import run_cli

    path = write_scenario(SMALL)
    local = run_cli("run", str(path), "--out", str(tmp_path / "local.parquet"), "--out-dir", str(tmp_path / "l"), "--quiet")
    assert local.returncode == 0, local.stderr
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        proc = run_cli(
            "run", str(path), "--backend", "dask", "--scheduler", cluster.scheduler_address,
            "--out", str(tmp_path / "dask.parquet"), "--out-dir", str(tmp_path / "d"), "--quiet",
        )
    assert proc.returncode == 0, proc.stderr
    a, _ = load_results(tmp_path / "local.parquet")
    b, meta = load_results(tmp_path / "dask.parquet")
    assert meta["backend"] == "dask" and meta["scheduler"] is not None
    pd.testing.assert_frame_equal(a, b)


# -- chunk summaries: merged per-chunk summaries equal the summary of the concatenation ---------------------------


def _chunks(rng, kind, n=(700, 1000, 333, 1)):
    """Random chunks of one metric's values: ints, bools, floats with censored nan, continuous floats."""
    out = []
    for m in n:
        if kind == "int":
            out.append(rng.poisson(3.0, m) - (rng.random(m) < 0.1) * 7)
        elif kind == "bool":
            out.append(rng.random(m) < 0.3)
        elif kind == "censored":
            out.append(np.where(rng.random(m) < 0.15, np.nan, rng.integers(1, 40, m).astype(np.float64)))
        else:
            out.append(rng.normal(5.0, 2.0, m))
    return out


@pytest.mark.parametrize("kind", ["int", "bool", "censored", "float"])
def test_merged_chunk_summaries_equal_the_summary_of_the_concatenation(kind):
    from gamesim.core.registry import Metric
    from gamesim.core.stats import mean_estimate, quantile_estimate
    from gamesim.core.summary import CellAccumulator, merge_columns, order_statistic, summarize_column
    from gamesim.core.sweep import summary_estimates

    rng = np.random.default_rng()
    # continuous values: each chunk keeps its value counts, the cell has too many to keep
    parts = _chunks(rng, kind, (3000, 2500, 333, 1) if kind == "float" else (700, 1000, 333, 1))
    assert kind != "float" or summarize_column(parts[0]).values is not None
    whole = np.concatenate(parts)
    merged = merge_columns(summarize_column(p) for p in parts)
    direct = summarize_column(whole)
    acc = CellAccumulator()
    for k in (2, 0, 3, 1):  # chunks arrive in any order
        acc.add(k, {"x": summarize_column(parts[k])})
    arrived = acc.result(4)["x"]
    for s in (merged, arrived):
        assert (s.n, s.n_nan, s.n_true) == (direct.n, direct.n_nan, direct.n_true)
        if kind == "float":
            assert s.values is None and direct.values is None  # too many distinct values to count
            assert s.moments.mean() == pytest.approx(whole.mean(), rel=1e-13)
            assert s.moments.var() == pytest.approx(whole.var(ddof=1), rel=1e-12)
        else:
            np.testing.assert_array_equal(s.values, direct.values)
            np.testing.assert_array_equal(s.counts, direct.counts)
            assert (s.moments.s1, s.moments.s2) == (direct.moments.s1, direct.moments.s2)
            fin = whole[~np.isnan(whole.astype(np.float64))]
            assert s.moments.mean() == fin.astype(np.float64).mean()  # bit-identical to numpy for integer data
            assert s.moments.var() == pytest.approx(fin.astype(np.float64).var(ddof=1), rel=1e-14)
            ordered = np.sort(np.where(np.isnan(whole.astype(np.float64)), np.inf, whole))
            for k in rng.integers(0, whole.size, 25):
                assert order_statistic(s, int(k)) == ordered[k]
    metric = Metric("x", "proportion" if kind == "bool" else "mean", quantiles=() if kind == "bool" else (0.1, 0.5, 0.9))
    got = summary_estimates(metric, arrived, lambda k: float(np.sort(np.where(np.isnan(whole), np.inf, whole))[k]))
    if kind == "bool":
        assert got["proportion"].estimate == whole.mean() and got["proportion"].n == whole.size
        return
    if kind != "censored":
        ref = mean_estimate(whole)
        assert got["mean"].n == ref.n and got["mean"].estimate == pytest.approx(ref.estimate, rel=1e-14, abs=0)
        assert got["mean"].se == pytest.approx(ref.se, rel=1e-12)
        assert got["mean"].ci_low == pytest.approx(ref.ci_low, rel=1e-12)
    else:
        assert "mean" not in got  # censored trials: no mean
    for q in (0.1, 0.5, 0.9):
        assert got[f"q{round(q * 100)}"] == quantile_estimate(whole, q)  # order statistics: exactly equal


_SUMMARY_BITS = r"""
import numpy as np
from gamesim.core.summary import pair_moments, summarize_column
rng = np.random.default_rng(20261127)
x, y = rng.random(40_000) * 7.3, rng.normal(2.0, 1.5, 40_000)
print(repr(summarize_column(x).moments), repr(pair_moments(x, y)))
"""


def test_float_summaries_do_not_depend_on_the_thread_count():
    """A chunk summarised in a loky worker (one BLAS thread) and in the command's process (one per core) gives
    the same bits: a BLAS dot product splits its sum over its threads, and did change the last bits of the
    standard error of a float metric between --n-jobs 1 and 2 (chunks of 40,000 QftNW games)."""
    out = []
    for threads in ("1", "2", "4"):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads, OMP_NUM_THREADS=threads, MKL_NUM_THREADS=threads)
        proc = subprocess.run([sys.executable, "-c", _SUMMARY_BITS], env=env, capture_output=True, text=True,
                              timeout=120, cwd=ROOT)
        assert proc.returncode == 0, proc.stderr
        out.append(proc.stdout)
    assert out[0] == out[1] == out[2], out


@pytest.mark.parametrize("kind", ["int", "bool", "censored"])
def test_second_stage_summary_is_the_summary_of_the_second_stage_alone(kind):
    """Two-stage rule: the pilot's chunks plan, the cell's results come from the chunks after them."""
    from gamesim.core.summary import CellAccumulator, summarize_column

    rng = np.random.default_rng()
    parts = _chunks(rng, kind, (700, 300, 1000, 333, 1))
    acc = CellAccumulator(split=2)  # chunks 0, 1: the pilot
    for k in (3, 0, 4, 2, 1):
        acc.add(k, {"x": summarize_column(parts[k])})
    for first, want in ((0, np.concatenate(parts)), (2, np.concatenate(parts[2:]))):
        got, direct = acc.result(5, first)["x"], summarize_column(want)
        assert (got.n, got.n_nan, got.n_true) == (direct.n, direct.n_nan, direct.n_true)
        np.testing.assert_array_equal(got.values, direct.values)
        np.testing.assert_array_equal(got.counts, direct.counts)
        assert (got.moments.s1, got.moments.s2) == (direct.moments.s1, direct.moments.s2)
    early = CellAccumulator(split=2)  # before the second stage exists, the plan sees the pilot alone
    for k in (1, 0):
        early.add(k, {"x": summarize_column(parts[k])})
    pilot = early.result(2)["x"]
    direct = summarize_column(np.concatenate(parts[:2]))
    np.testing.assert_array_equal(pilot.counts, direct.counts)
    with pytest.raises(ValueError, match="first = 1"):
        acc.result(5, 1)


def test_value_counts_merged_in_batches_equal_those_of_the_concatenation():
    """Value counts wait and are merged every few chunks: the result, asked for at any point, is exact.

    150 chunks (several batches) arriving in any order, results asked for after 100 of them and again
    at the end (as a top-up does), with and without a two-stage split. The metric ``wide`` has 40
    distinct values per chunk: the pilot (70 chunks, 2,800 values) and the second stage (80 chunks,
    3,200) are each counted, the whole cell (6,000) is over ``MAX_COUNTED_VALUES`` and is not, and
    without a split the cell goes over the cap while batches of chunks wait to be merged."""
    from gamesim.core.summary import MAX_COUNTED_VALUES, CellAccumulator, summarize_column

    rng = np.random.default_rng()
    n_chunks, split = 150, 70
    small = [rng.integers(0, 60, int(rng.integers(1, 300))) for _ in range(n_chunks)]
    wide = [np.repeat(np.arange(40.0) + 40 * k, 2) + 0.5 for k in range(n_chunks)]
    assert 40 * split < MAX_COUNTED_VALUES and 40 * (n_chunks - split) < MAX_COUNTED_VALUES < 40 * n_chunks

    def check(acc, n, first):
        for _ in range(2):  # asking again gives the same
            got = acc.result(n, first)
            for name, parts in (("small", small), ("wide", wide)):
                want = summarize_column(np.concatenate(parts[first:n]))
                assert (got[name].n, got[name].moments.s1, got[name].moments.s2) == (
                    want.n, want.moments.s1, want.moments.s2)
                assert (got[name].values is None) == (want.values is None)
                if want.values is not None:
                    np.testing.assert_array_equal(got[name].values, want.values)
                    np.testing.assert_array_equal(got[name].counts, want.counts)

    for acc_split, firsts in ((split, (0, split)), (0, (0,))):
        acc = CellAccumulator(split=acc_split)
        for stop in (100, n_chunks):
            for k in rng.permutation(np.arange(stop - 100 if stop == n_chunks else 0, stop)):
                if int(k) not in acc:
                    acc.add(int(k), {"small": summarize_column(small[k]), "wide": summarize_column(wide[k])})
            for first in firsts:
                check(acc, stop, first)
    assert acc.result(n_chunks)["wide"].values is None


def test_quantiles_of_continuous_values_stream_exactly_from_the_chunk_files(tmp_path):
    from gamesim.core.sweep import ChunkStore, _disk_order_statistic

    rng = np.random.default_rng()
    store = ChunkStore(tmp_path)
    store.open(5, {})
    parts = [rng.standard_cauchy(m) for m in (900, 400, 1300)]
    parts[1][::7] = np.nan  # censored: ordered as +inf
    parts[2][:5] = -0.0
    for k, p in enumerate(parts):
        store.write((0, 0, k), {"x": p})
    select = _disk_order_statistic(store, 0, 0, 3, "x")
    ordered = np.sort(np.where(np.isnan(np.concatenate(parts)), np.inf, np.concatenate(parts)))
    for k in [0, 1, ordered.size - 1, *rng.integers(0, ordered.size, 6).tolist()]:
        assert select(int(k)) == ordered[k]


@pytest.mark.parametrize("kind", ["int", "bool", "float"])
def test_merged_pair_statistics_equal_those_of_the_concatenated_pairs(kind):
    from gamesim.core.analysis import paired_difference_from_moments
    from gamesim.core.summary import merge_pairs, pair_moments

    rng = np.random.default_rng()
    xs, ys = _chunks(rng, kind), _chunks(rng, kind)
    pm = pair_moments(xs[0], ys[0])
    for x, y in zip(xs[1:], ys[1:], strict=True):
        pm = merge_pairs(pm, pair_moments(x, y))
    x, y = np.concatenate(xs).astype(np.float64), np.concatenate(ys).astype(np.float64)
    d = x - y
    assert pm.n == x.size
    assert pm.d.mean() == pytest.approx(d.mean(), rel=1e-13, abs=1e-15)
    assert pm.d.var() == pytest.approx(d.var(ddof=1), rel=1e-12)
    assert pm.cov() == pytest.approx(np.cov(x, y)[0, 1], rel=1e-10, abs=1e-12)
    est, corr = paired_difference_from_moments(pm, kind="proportion" if kind == "bool" else "mean")
    assert est.estimate == pytest.approx(d.mean(), rel=1e-13, abs=1e-15)
    assert est.se == pytest.approx(d.std(ddof=1) / math.sqrt(x.size), rel=1e-12)
    assert corr == pytest.approx(np.corrcoef(x, y)[0, 1], rel=1e-10, abs=1e-12)
    if kind == "bool":
        a, b = x.astype(bool), y.astype(bool)
        assert pm.table == (int((a & b).sum()), int((a & ~b).sum()), int((~a & b).sum()), int((~a & ~b).sum()))
    if kind == "int":
        assert pm.x.exact and pm.d.exact and pm.d.s1 == int(d.sum()) and pm.sxy == int((x * y).sum())


COMPARED = """
game = "godtear"
seed = {seed}
n_trials = 5000
chunk_size = 1500
[[parts]]
name = "dice"
task = "knockout"
cases = [{{ name = "A", accuracy = 3 }}, {{ name = "B", accuracy = 4 }}]
grid = {{ uses = [1, 3] }}
[compare]
baseline = "A"
"""


def test_streamed_comparisons_match_the_whole_cells_and_any_n_jobs(write_scenario, tmp_path):
    from gamesim.core.sweep import ChunkStore

    seed = int(np.random.default_rng().integers(2**31))
    sc = load_scenario(write_scenario(COMPARED.format(seed=seed)))
    one = run_sweep(sc, cache_root=tmp_path / "a", progress=False)
    two = run_sweep(sc, n_jobs=2, cache_root=tmp_path / "b", progress=False)
    pd.testing.assert_frame_equal(one.comparisons, two.comparisons)
    pd.testing.assert_frame_equal(_table(one), _table(two))
    again = run_sweep(sc, cache_root=tmp_path / "a", progress=False)  # every chunk summarised from disk
    assert again.chunks_run == 0
    pd.testing.assert_frame_equal(_table(one), _table(again))
    pd.testing.assert_frame_equal(one.comparisons, again.comparisons)
    store = ChunkStore(one.cache_dir)
    diffs = one.comparisons[one.comparisons["statistic"] == "difference"]
    assert len(diffs) >= 4
    for _, r in diffs.iterrows():
        x = store.read_cell(0, int(r["cell"]), 4)[r["metric"]].astype(np.float64)
        y = store.read_cell(0, int(r["baseline_cell"]), 4)[r["metric"]].astype(np.float64)
        d = x - y
        assert r["n"] == x.size == 5000
        assert r["estimate"] == pytest.approx(d.mean(), rel=1e-13, abs=1e-15)
        assert r["se"] == pytest.approx(d.std(ddof=1) / math.sqrt(x.size), rel=1e-12)
        if x.std() > 0 and y.std() > 0:
            assert r["correlation"] == pytest.approx(np.corrcoef(x, y)[0, 1], rel=1e-10)


def test_quantiles_from_order_statistics_are_numpys_and_scipys():
    from scipy import stats as sps

    from gamesim.core.stats import quantile_estimate

    rng = np.random.default_rng()
    for n in [1, 2, 3, 7, 20, 101, 1000]:
        for q in (0.01, 0.1, 0.3, 0.5, 0.9, 0.99):
            a = rng.integers(0, 6, n).astype(np.float64)
            a[rng.random(n) < 0.1] = np.nan
            b = np.where(np.isnan(a), np.inf, a)
            ci = sps.quantile_test(b, p=q).confidence_interval(confidence_level=0.95)
            e = quantile_estimate(a, q)
            assert e.estimate == float(np.quantile(b, q, method="inverted_cdf"))
            np.testing.assert_array_equal([e.ci_low, e.ci_high], [float(ci.low), float(ci.high)])


WORKER_PROBE = r"""
import json, os
import joblib
from gamesim.run.sweep import compute_backend

from gamesim.run.scenario import load_scenario

cell = load_scenario({"game": "qftnw", "n_trials": 50, "parts": [{"name": "p", "task": "game",
                      "grid": {"edition": ["spa"]}}]}).parts[0].cells()[0]

def probe(i, cell):
    import sys
    from gamesim.run.chunks import run_chunk_summary
    tag, blob, rows, summaries = run_chunk_summary("qftnw", "game", cell, 50, 1, (0, 0, i), (0, 0, i))
    heavy = ("pandas", "scipy", "gamesim.run.sweep", "gamesim.run.scenario", "tqdm")
    return os.getpid(), rows, sorted(m for m in heavy if m in sys.modules)

with compute_backend("loky", 2):
    out = joblib.Parallel()(joblib.delayed(probe)(i, cell) for i in range(6))
print(json.dumps([o for o in out if o[0] != os.getpid()]))
"""


def test_sweep_workers_import_neither_pandas_nor_scipy():
    """A loky worker's start-up is part of every parallel run: its initializer and a chunk of a game that
    needs no scipy (QftNW) import numpy, pyarrow, the registry and the game, not the sweep's module
    (pandas, scipy, tqdm)."""
    import json

    proc = subprocess.run([sys.executable, "-c", WORKER_PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(out) == 6 and all(rows == 50 for _, rows, _ in out)  # every chunk ran in a worker
    assert [heavy for _, _, heavy in out] == [[]] * 6


def test_interrupted_progress_line_is_ended_before_the_message(tmp_path, monkeypatch):
    """Ctrl-C while the sweep's bar is drawn (after its text, before tqdm notes it drew it): tqdm's close leaves
    the line open, so the sweep ends it itself and the command's one-line message starts its own line."""
    import io

    import gamesim
    import gamesim.run.sweep as sweep_module
    from tests.conftest import interrupt_while_the_bar_draws

    err = io.StringIO()
    monkeypatch.setattr(sweep_module.sys, "stderr", err)
    monkeypatch.setattr(sweep_module, "_workers_warm_until", 0.0)
    interrupt_while_the_bar_draws(monkeypatch, "run_chunk_summary")
    scenario = {"name": "bar_check", "game": "godtear", "seed": 1, "n_trials": 300, "chunk_size": 100,
                "parts": [{"name": "p", "task": "knockout"}]}
    with pytest.raises(KeyboardInterrupt):
        gamesim.sweep(scenario, progress=True, cache_root=tmp_path, inline_below_s=60.0)
    text = err.getvalue()
    assert "bar_check" in text and text.endswith("\n"), repr(text)


def test_a_drawn_progress_bar_ends_at_the_chunks_the_sweep_ran(tmp_path, monkeypatch):
    """A short sweep with a precision top-up: whatever the bar drew last says every chunk ran (it once stayed at
    '12/39', the first round's count, when the sweep was shorter than the bar's delay)."""
    import io
    import re

    import gamesim.run.sweep as sweep_module
    from gamesim.run.scenario import load_scenario

    err = io.StringIO()
    monkeypatch.setattr(sweep_module.sys, "stderr", err)
    scenario = {"name": "bar_end", "game": "godtear", "seed": 1, "n_trials": 200, "chunk_size": 100,
                "parts": [{"name": "p", "task": "knockout", "grid": {"uses": [1, 2]}}],
                "precision": {"metric": "knockout", "half_width": 0.03, "max_trials": 2000}}
    res = sweep_module.run_sweep(load_scenario(scenario), progress=True, cache_root=tmp_path)
    assert res.chunks_run > 4  # the top-up ran
    drawn = re.findall(r"(\d+)/(\d+) \[", err.getvalue())
    if drawn:  # tqdm draws nothing for a sweep shorter than its delay
        assert drawn[-1] == (str(res.chunks_run), str(res.chunks_run)), err.getvalue()
