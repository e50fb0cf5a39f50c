"""Sweeps: memory of the main process per cell size, and 1 worker against N.

Usage::

    .venv/bin/python benchmarks/bench_sweep.py memory [--trials 100000 1000000 10000000] [--ref cf70cb8]
    .venv/bin/python benchmarks/bench_sweep.py parallel [--games 400000] [--n-jobs 2] [--repeat 3]
    .venv/bin/python benchmarks/bench_sweep.py workers [--n-jobs 2] [NAME ...]

``memory``: one cell of the gacha ``schedule`` task (4 metrics; chunks of
100,000 trials) swept in a fresh interpreter per size, ``n_jobs=1`` (the
chunks are simulated in the main process too, so the figure includes one
chunk's simulation), printing the process's peak resident set size
(``ru_maxrss``) and its ratio to the smallest size. With ``--ref`` the same
sweep also runs on that older commit (exported with ``git archive``) for
comparison.

``parallel``: 6 cells x ``--games`` Quest for the New World games (edition x
advanced rules; chunks of 10,000) with ``n_jobs=1`` and with ``--n-jobs``
loky workers, each in a fresh interpreter with a fresh chunk cache (so worker
start-up is counted), best wall time of ``--repeat``; prints each repeat's
wall times and speed-up, then for the best runs the wall times, the CPU
time of the main process and of the workers (counted once they have
exited), their sum against the one-process run's CPU time ("CPU vs 1": the
work that running in parallel adds), how busy the ``n_jobs`` cores were
(that sum over wall time x ``n_jobs``), the speed-up, the median of the
repeats' speed-ups and whether the tables are identical. Note the machine's
load (``/proc/loadavg``, printed) next to the figures: on a shared machine
the speed-up measures the load too.

``workers``: the sweeps of every built-in scenario (or those named), one after
another in one pool of ``--n-jobs`` loky workers, as ``gamesim report`` runs
them (fresh chunk cache); after each, the wall time, the resident memory of
each worker (MB) and any warning raised (loky restarts a worker whose memory
grew 300 MB past its size after its first chunk, with a warning).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MEMORY = """
game = "gacha"
seed = 2026
n_trials = {n}
chunk_size = {chunk}
[[parts]]
name = "completion"
task = "schedule"
grid = {{ session_size = [10], total_pulls = [120] }}
"""

PARALLEL = """
game = "qftnw"
seed = 2026
n_trials = {n}
chunk_size = {chunk}
[[parts]]
name = "editions"
task = "game"
grid = {{ edition = ["original", "spa", "v2"], advanced = [false, true] }}
"""

RUN = r"""
import json, resource, sys, time
from pathlib import Path
import gamesim
assert Path(gamesim.__file__).resolve().is_relative_to(Path.cwd().resolve()), gamesim.__file__
from gamesim.core.scenario import load_scenario
from gamesim.core.sweep import run_sweep
path, cache, n_jobs, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sc = load_scenario(path)
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0, c0 = time.perf_counter(), time.process_time()
res = run_sweep(sc, n_jobs=n_jobs, cache_root=cache, progress=False)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if n_jobs > 1:  # the workers' CPU time is counted once they have exited
    from joblib.externals.loky import get_reusable_executor
    get_reusable_executor().shutdown(wait=True)
children = resource.getrusage(resource.RUSAGE_CHILDREN)
res.table.drop(columns=["scenario_hash", "gamesim_version"]).to_pickle(out)
print(json.dumps({"rss_after_imports_mb": rss0 / 1024, "peak_rss_mb": peak / 1024, "wall_s": wall,
                  "main_cpu_s": cpu, "workers_cpu_s": children.ru_utime + children.ru_stime,
                  "chunks": res.chunks_run}))
"""


def _sweep(tree: Path, scenario_text: str, tmp: Path, tag: str, n_jobs: int) -> dict[str, float]:
    scen = tmp / "bench.toml"  # one name: the scenario's name (from the file) is in the table
    scen.write_text(scenario_text, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", RUN, str(scen), str(tmp / f"{tag}-cache"), str(n_jobs), str(tmp / f"{tag}.pkl")],
        cwd=tree, check=True, capture_output=True, text=True,
    )
    subprocess.run(["rm", "-rf", str(tmp / f"{tag}-cache")], check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _export(ref: str, tmp: Path) -> Path:
    tree = tmp / f"tree-{ref}"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def _load() -> str:
    return Path("/proc/loadavg").read_text().split(" ")[:3].__str__() if Path("/proc/loadavg").exists() else "?"


def memory(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="bench_sweep-") as t:
        tmp = Path(t)
        trees = {"this checkout": ROOT}
        if args.ref:
            trees[args.ref] = _export(args.ref, tmp)
        print(f"one cell of gacha schedule (4 metrics), chunks of {args.chunk:,}, n_jobs=1; "
              f"cpus {len(os.sched_getaffinity(0))}, load {_load()}")
        print(f"{'code':<16} {'trials':>12} {'peak RSS MB':>12} {'vs smallest':>12} {'wall s':>8}")
        for label, tree in trees.items():
            first = None
            for n in args.trials:
                r = _sweep(tree, MEMORY.format(n=n, chunk=min(args.chunk, n)), tmp, f"m{n}", 1)
                first = first or r["peak_rss_mb"]
                print(f"{label:<16} {n:>12,} {r['peak_rss_mb']:12.0f} {r['peak_rss_mb'] / first:11.2f}x "
                      f"{r['wall_s']:8.1f}", flush=True)


def parallel(args: argparse.Namespace) -> None:
    import pandas as pd

    with tempfile.TemporaryDirectory(prefix="bench_sweep-") as t:
        tmp = Path(t)
        text = PARALLEL.format(n=args.games, chunk=args.chunk)
        print(f"6 cells x {args.games:,} QftNW games (chunks of {args.chunk:,}); cpus {len(os.sched_getaffinity(0))}, "
              f"load before {_load()}")
        best: dict[int, dict[str, float]] = {}
        pairs: list[float] = []
        for i in range(args.repeat):
            walls = {}
            for n_jobs in (1, args.n_jobs):
                r = _sweep(ROOT, text, tmp, f"p{n_jobs}", n_jobs)
                walls[n_jobs] = r["wall_s"]
                if n_jobs not in best or r["wall_s"] < best[n_jobs]["wall_s"]:
                    best[n_jobs] = r
            pairs.append(walls[1] / walls[args.n_jobs])
            print(f"run {i + 1}: n_jobs=1 {walls[1]:.2f} s, n_jobs={args.n_jobs} {walls[args.n_jobs]:.2f} s, "
                  f"{pairs[-1]:.2f}x", flush=True)
        same = pd.read_pickle(tmp / "p1.pkl").equals(pd.read_pickle(tmp / f"p{args.n_jobs}.pkl"))
        print(f"{'n_jobs':>6} {'wall s':>8} {'main CPU s':>11} {'workers CPU s':>14} {'CPU vs 1':>9} "
              f"{'cores busy':>11} {'speed-up':>9}")
        for n_jobs, r in best.items():
            cpu = r["main_cpu_s"] + r["workers_cpu_s"]
            print(f"{n_jobs:>6} {r['wall_s']:8.2f} {r['main_cpu_s']:11.2f} {r['workers_cpu_s']:14.2f} "
                  f"{cpu / best[1]['main_cpu_s']:8.3f}x {cpu / (r['wall_s'] * n_jobs):10.1%} "
                  f"{best[1]['wall_s'] / r['wall_s']:8.2f}x")
        if len(pairs) > 1:
            print(f"speed-up of each run's pair: median {statistics.median(pairs):.2f}x, "
                  f"min {min(pairs):.2f}x, max {max(pairs):.2f}x")
        print(f"identical tables: {same}; load after {_load()}")


WORKERS = r"""
import json, sys, time, warnings
import psutil
from gamesim.cli import builtin_scenarios
from gamesim.core.scenario import load_scenario
from gamesim.run.sweep import compute_backend, run_sweep
n_jobs, cache, names = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
me = psutil.Process()
def workers():
    out = []
    for c in me.children(recursive=True):
        cmd = " ".join(c.cmdline())
        if "loky" in cmd and "resource_tracker" not in cmd:
            out.append(round(c.memory_info().rss / 2**20))
    return out
with compute_backend("loky", n_jobs):
    for path in builtin_scenarios():
        sc = load_scenario(path)
        if names and sc.name not in names:
            continue
        t = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run_sweep(sc, n_jobs=n_jobs, backend=None, cache_root=cache, progress=False, fresh=True)
        print(json.dumps({"scenario": sc.name, "wall_s": time.perf_counter() - t, "workers_mb": workers(),
                          "warnings": [str(w.message).splitlines()[0] for w in caught]}), flush=True)
"""


def workers(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="bench_sweep-") as t:
        print(f"built-in sweeps in one pool of {args.n_jobs} loky workers; cpus {len(os.sched_getaffinity(0))}, "
              f"load before {_load()}")
        print(f"{'scenario':<28} {'wall s':>7}  {'workers MB':<14} warnings")
        proc = subprocess.Popen([sys.executable, "-c", WORKERS, str(args.n_jobs), str(Path(t) / "cache"), *args.names],
                                cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            r = json.loads(line)
            print(f"{r['scenario']:<28} {r['wall_s']:7.1f}  {', '.join(map(str, r['workers_mb'])):<14} "
                  f"{'; '.join(r['warnings']) or '-'}", flush=True)
        if proc.wait():
            raise SystemExit(proc.returncode)
        print(f"load after {_load()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    m = sub.add_parser("memory")
    m.add_argument("--trials", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    m.add_argument("--chunk", type=int, default=100_000)
    m.add_argument("--ref", default=None, help="also measure this older commit (e.g. cf70cb8)")
    p = sub.add_parser("parallel")
    p.add_argument("--games", type=int, default=400_000)
    p.add_argument("--chunk", type=int, default=10_000)
    p.add_argument("--n-jobs", type=int, default=2)
    p.add_argument("--repeat", type=int, default=1)
    w = sub.add_parser("workers")
    w.add_argument("--n-jobs", type=int, default=2)
    w.add_argument("names", nargs="*", help="built-in scenario names (default: all)")
    args = ap.parse_args()
    {"memory": memory, "parallel": parallel, "workers": workers}[args.what](args)


if __name__ == "__main__":
    main()
