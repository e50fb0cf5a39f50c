"""Time the generic report of a 100-cell scenario against its sweep, in one run.

Usage::

    .venv/bin/python benchmarks/bench_report.py [--n-trials 2000] [--n-jobs 2]

Writes a gacha scenario with 100 cells (two cases x 5 session sizes x 10 pull
counts, a [compare] table, whole distributions) into a temporary folder, runs
``gamesim run`` (the sweep) and then ``gamesim report`` (which finds the results
up to date and only renders: papermill executes the generic notebook, nbconvert
writes the HTML, WeasyPrint the PDF), and prints both wall times and what the
report adds to the sweep. Goal (issue #8): the report adds no more than 30 s on
2 cores.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCENARIO = """
title = "Benchmark: 100 cells"
game = "gacha"
question = "How long does the generic report of a 100-cell sweep take?"
seed = 1
n_trials = {n}
chunk_size = {n}
[[parts]]
name = "hundred"
task = "schedule"
cases = [{{ name = "1 GC", bag_god_chance = 1, bag_n = 44 }}, {{ name = "2 GC", bag_god_chance = 2, bag_n = 43 }}]
grid = {{ session_size = [1, 2, 5, 10, 20], total_pulls = [20, 40, 60, 80, 100, 120, 140, 160, 180, 200] }}
[compare]
baseline = "1 GC"
metrics = ["complete"]
"""


def _gamesim(*args: str) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gamesim.cli", *args, "--quiet"], check=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-trials", type=int, default=2000, help="trials per cell (default 2000)")
    ap.add_argument("--n-jobs", type=int, default=2, help="workers for the sweep (default 2)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench_100_cells.toml"
        path.write_text(SCENARIO.format(n=args.n_trials), encoding="utf-8")
        out = Path(tmp) / "out"
        sweep_s = _gamesim("run", str(path), "--out-dir", str(out), "--n-jobs", str(args.n_jobs))
        report_s = _gamesim("report", str(path), "--out-dir", str(out), "--n-jobs", str(args.n_jobs))
        html = (out / "bench_100_cells.html").stat().st_size
        pdf = (out / "bench_100_cells.pdf").stat().st_size
    print(f"100 cells x {args.n_trials} trials, --n-jobs {args.n_jobs}")
    print(f"  sweep (gamesim run):                   {sweep_s:6.1f} s")
    print(f"  report on saved results (gamesim report): {report_s:6.1f} s  (HTML {html / 1e6:.1f} MB, PDF {pdf / 1e6:.1f} MB)")
    print(f"  the report adds {report_s:.1f} s to the sweep ({report_s / sweep_s:.2f}x the sweep time); goal <= 30 s")


if __name__ == "__main__":
    main()
