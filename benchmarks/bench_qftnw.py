"""Benchmark of the Quest for the New World simulator: vectorized vs plain Python, in one run.

Run ``python benchmarks/bench_qftnw.py [--quick]``. On each workload it times

(a) the vectorized lockstep simulator :func:`gamesim.games.qftnw.sim.run_games` (chunks of
    100,000 games; finished games leave the active set),
(b) the plain-Python one-game-at-a-time reference
    :func:`gamesim.games.qftnw.reference.reference_simulate` (a ``deque`` deck, the scalar rules
    core, per-round conservation checks off),

and prints games per second for each and the speedup (a)/(b) (target >= 50x). Workloads: the
original edition with uniform bids (the headline figure), and the Spa edition under 上級ルール
with ``greedy`` against ``cautious`` (policies with state-dependent bids).
"""

from __future__ import annotations

import argparse
import platform
import timeit

import numpy as np

from gamesim.games.qftnw.reference import reference_simulate
from gamesim.games.qftnw.rules import edition_params
from gamesim.games.qftnw.sim import CHUNK_SIZE, run_games

WORKLOADS = (
    ("original, uniform vs uniform", dict(edition="original"), ("uniform", "uniform")),
    ("spa + 上級ルール, greedy vs cautious", dict(edition="spa", advanced=True), ("greedy", "cautious")),
)


def min_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Best of ``repeat`` single runs of ``fn`` (seconds), via :func:`timeit.repeat`."""
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--games", type=int, default=None, help="vectorized games per workload")
    ap.add_argument("--ref-games", type=int, default=None, help="plain-Python games per workload")
    args = ap.parse_args(argv)
    n_vec = args.games or (5_000 if args.quick else 500_000)
    n_ref = args.ref_games or (100 if args.quick else 5_000)
    repeat = 1 if args.quick else 3
    rng = np.random.default_rng(20261121)
    print(f"qftnw benchmark: whole games, default rules (35 cards, funds 5, cap 6, max 2000 rounds); "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"chunk {CHUNK_SIZE}; best of {repeat} for (a), 1 run for (b)")
    for label, kw, pols in WORKLOADS:
        p = edition_params(kw["edition"], advanced=kw.get("advanced", False))
        run_games(p, pols, 200, rng=rng)  # warm caches (policy tables) outside the timing
        rounds: list[float] = []

        def vec() -> None:
            r = run_games(p, pols, n_vec, rng=rng)
            rounds.append(float(r["rounds"].mean()))

        t_vec = min_time(vec, repeat)
        t_ref = min_time(lambda: reference_simulate(n_ref, params=p, policies=pols, rng=rng, check=False), 1)
        g_vec, g_ref = n_vec / t_vec, n_ref / t_ref
        print(f"[{label}]  mean {rounds[-1]:.1f} rounds/game")
        print(f"  (a) vectorized       : {n_vec:>9,d} games {t_vec:8.3f} s  {g_vec:12,.0f} games/s")
        print(f"  (b) plain Python ref : {n_ref:>9,d} games {t_ref:8.3f} s  {g_ref:12,.0f} games/s")
        print(f"  speedup vectorized / plain Python : {g_vec / g_ref:8.1f}x  (target >= 50x)")


if __name__ == "__main__":
    main()
