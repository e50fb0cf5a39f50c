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
from tests.conftest import ROOT

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
            se = math.sqrt(r.exact * (1 - r.exact) / r.n)
        else:
            se = r.se
        assert abs(r.estimate - r.exact) <= 4.5 * se + 1e-12, r.to_dict()


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


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_interrupted_sweep_resumes_to_the_same_results(write_scenario, tmp_path, sig):
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
    straight = _start(path, tmp_path / "straight")
    assert straight.wait(timeout=300) == 0, straight.communicate()
    a, meta_a = load_results(out / "scen.parquet")
    b, _ = load_results(tmp_path / "straight" / "scen.parquet")
    assert meta_a["chunks_reused"] >= done
    assert meta_a["chunks_run"] == 30 - meta_a["chunks_reused"]
    pd.testing.assert_frame_equal(a, b)


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
