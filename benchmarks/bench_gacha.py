"""Benchmark of the ガッチャ simulator: vectorized vs plain Python vs bare RNG.

Run ``python benchmarks/bench_gacha.py [--quick]``. On one workload (default: 100
single pulls then 10 sessions of 10 pulls, default bag, Overdrive off) it times

(a) the vectorized simulator :func:`gamesim.games.gacha.sim.run_schedule`,
(b) the plain-Python one-trial-at-a-time reference
    :func:`gamesim.games.gacha.reference.reference_schedule` (a list of chips,
    one ``rng.integers`` + ``pop`` per pull),
(c) the bare numpy random-number generation the vectorized simulator needs on
    that workload, with no bookkeeping: per session one ``Generator.random`` of
    the chunk's shape (the God Chance draw; with at most one God Chance chip per
    bag the hypergeometric draw is a Bernoulli), plus ``Generator.integers`` for
    the God Chance cards and ``Generator.hypergeometric`` for the per-bag SR
    tallies, of their expected sizes (pulls/50 of the chunk per session),

and prints pulls per second for each, the speedup (a)/(b) (target >= 100x) and
the overhead (a)/(c) (target <= 3x).
"""

from __future__ import annotations

import argparse
import platform
import timeit

import numpy as np

from gamesim.games.gacha.reference import reference_schedule
from gamesim.games.gacha.rules import BagConfig
from gamesim.games.gacha.sim import CHUNK_SIZE, run_schedule


def bare_rng(sessions: list[int], n_trials: int, rng: np.random.Generator, bag: BagConfig) -> None:
    """The random draws of :func:`run_schedule` on arrays of the same shapes, nothing else."""
    for start in range(0, n_trials, CHUNK_SIZE):
        size = min(CHUNK_SIZE, n_trials - start)
        rng.random(size)  # fresh bag (kernel: no draws without 疑惑の運営モード)
        for m in sessions:
            rng.random(size)
            n_events = max(1, int(size * m / bag.total))
            rng.integers(5, size=n_events)
            rng.hypergeometric(bag.n_sr, bag.n_n, np.full(n_events, bag.total // 2, dtype=np.int64))
        rng.hypergeometric(bag.n_sr, bag.n_n, np.full(size, bag.total // 2, dtype=np.int64))


def min_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Best of ``repeat`` single runs of ``fn`` (seconds), via :func:`timeit.repeat`."""
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--trials", type=int, default=None, help="vectorized / bare-RNG trials")
    ap.add_argument("--ref-trials", type=int, default=None, help="plain-Python trials")
    args = ap.parse_args(argv)
    n_vec = args.trials or (20_000 if args.quick else 1_000_000)
    n_ref = args.ref_trials or (200 if args.quick else 5_000)
    repeat = 1 if args.quick else 3
    sessions = [1] * 100 + [10] * 10
    pulls = sum(sessions)
    bag = BagConfig()
    rng = np.random.default_rng(20261121)

    t_vec = min_time(lambda: run_schedule(sessions, n_vec, rng=rng, bag=bag), repeat)
    t_ref = min_time(lambda: reference_schedule(sessions, n_ref, rng=rng, bag=bag), 1)
    t_rng = min_time(lambda: bare_rng(sessions, n_vec, rng, bag), repeat)

    pps_vec = n_vec * pulls / t_vec
    pps_ref = n_ref * pulls / t_ref
    pps_rng = n_vec * pulls / t_rng
    print(f"gacha benchmark: {len(sessions)} sessions ({pulls} pulls: 100 x 1 + 10 x 10) per trial, "
          f"default bag, Overdrive off; {platform.python_implementation()} {platform.python_version()}, "
          f"numpy {np.__version__}, chunk {CHUNK_SIZE}")
    print(f"(a) vectorized       : {n_vec:>9,d} trials {t_vec:8.3f} s  {pps_vec:14,.0f} pulls/s")
    print(f"(b) plain Python ref : {n_ref:>9,d} trials {t_ref:8.3f} s  {pps_ref:14,.0f} pulls/s")
    print(f"(c) bare numpy RNG   : {n_vec:>9,d} trials {t_rng:8.3f} s  {pps_rng:14,.0f} pulls/s")
    print(f"speedup vectorized / plain Python : {pps_vec / pps_ref:8.1f}x  (target >= 100x)")
    print(f"vectorized time / bare RNG time   : {t_vec / t_rng:8.2f}x  (target <= 3x)")


if __name__ == "__main__":
    main()
