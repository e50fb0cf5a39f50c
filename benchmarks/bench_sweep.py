"""Time one gacha sweep through each joblib backend, in one run.

Usage::

    .venv/bin/python benchmarks/bench_sweep.py [--quick] [--n-jobs 2]

Runs the same scenario (fresh chunk cache each time) with ``n_jobs=1``, loky
with ``--n-jobs`` workers, a Dask ``LocalCluster`` of ``--n-jobs`` workers with
gamesim's fix (``MALLOC_TRIM_THRESHOLD_`` left unset in workers) and the same
cluster with Dask's default nanny environment (``MALLOC_TRIM_THRESHOLD_=65536``).
Prints the backend start-up time and the sweep time (trials per second, ratio
to loky), and checks that all four tables are identical.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from pathlib import Path

import pandas as pd

from gamesim.core.scenario import load_scenario
from gamesim.core.sweep import compute_backend, run_sweep

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """
notebook = "{nb}"
game = "gacha"
seed = 2026
n_trials = {n}
chunk_size = {chunk}
[[parts]]
name = "completion"
task = "schedule"
grid = {{ session_size = [1, 10], total_pulls = [100, 300] }}
"""


@contextlib.contextmanager
def dask_default_malloc():
    """Workers inherit MALLOC_TRIM_THRESHOLD_=65536, as Dask's nanny default would set."""
    old = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    os.environ["MALLOC_TRIM_THRESHOLD_"] = "65536"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MALLOC_TRIM_THRESHOLD_")
        else:
            os.environ["MALLOC_TRIM_THRESHOLD_"] = old


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (seconds)")
    ap.add_argument("--n-jobs", type=int, default=2)
    args = ap.parse_args()
    n, chunk = (4000, 1000) if args.quick else (600_000, 50_000)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(SCENARIO.format(nb=(ROOT / "notebooks/gacha_god_chance.ipynb").as_posix(), n=n, chunk=chunk))
        sc = load_scenario(path)
        trials = n * 4
        runs = {
            "n_jobs=1 (sequential)": dict(n_jobs=1, backend="loky"),
            f"loky, n_jobs={args.n_jobs}": dict(n_jobs=args.n_jobs, backend="loky"),
            f"dask LocalCluster {args.n_jobs} workers (gamesim: MALLOC_TRIM unset)": dict(
                n_jobs=args.n_jobs, backend="dask"
            ),
            f"dask LocalCluster {args.n_jobs} workers (dask default MALLOC_TRIM=65536)": dict(
                n_jobs=args.n_jobs, backend="dask", keep_default=True
            ),
        }
        tables: dict[str, pd.DataFrame] = {}
        times: dict[str, float] = {}
        startup: dict[str, float] = {}
        for i, (label, kw) in enumerate(runs.items()):
            keep = kw.pop("keep_default", False)
            ctx = dask_default_malloc() if keep else contextlib.nullcontext()
            with ctx:
                t0 = time.perf_counter()
                with compute_backend(kw["backend"], kw["n_jobs"]):
                    t1 = time.perf_counter()
                    res = run_sweep(sc, backend=None, cache_root=Path(tmp) / f"c{i}", progress=False)
                    times[label] = time.perf_counter() - t1
                startup[label] = t1 - t0
            tables[label] = res.table
        base = f"loky, n_jobs={args.n_jobs}"
        print(f"workload: 4 cells x {n:,} trials (chunks of {chunk:,}), gacha schedule task")
        print(f"{'backend':<72} {'start s':>7} {'sweep s':>8} {'trials/s':>10} {'time vs loky':>12}")
        for label, t in times.items():
            print(f"{label:<72} {startup[label]:7.2f} {t:8.2f} {trials / t:10,.0f} {t / times[base]:11.2f}x")
        first = next(iter(tables.values()))
        same = all(tables[k].equals(first) for k in tables)
        print(f"identical tables across backends: {same}")


if __name__ == "__main__":
    main()
