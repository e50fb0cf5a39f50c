"""Benchmark of whole games of ガッチャ ~God Chance~: vectorized vs plain Python.

Run ``python benchmarks/bench_gacha_game.py [--quick]``. On whole 4-round games (default
illustrative cards, 4 slayers) it times

(a) the vectorized lockstep simulator :func:`gamesim.games.gacha_game.sim.simulate_games`
    (all games of a chunk advance turn by turn with masks), best of ``repeat`` runs;
(b) the plain-Python one-game-at-a-time reference
    :func:`gamesim.games.gacha_game.reference.reference_game`, driven by the ``random``
    module (``random.Random().random``; lists, one chip at a time), best of ``repeat`` runs
    (both sides take the best of the same number of runs, so load spikes on a shared machine
    do not favour one side): the baseline of the goal,
(b2) the package's :func:`gamesim.games.gacha_game.reference.reference_games` as it is
    (the same loop fed numpy uniforms fetched in blocks of 65,536), one run,

for two policy settings, and prints games per second and the speedups (a)/(b) (goal >= 30x)
and (a)/(b2), all measured in this one run.
"""

from __future__ import annotations

import argparse
import platform
import random
import timeit

import numpy as np

from gamesim.games.gacha_game.reference import reference_game, reference_games
from gamesim.games.gacha_game.sim import CHUNK, make_config, simulate_games


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--games", type=int, default=None, help="vectorized games")
    ap.add_argument("--ref-games", type=int, default=None, help="plain-Python games")
    args = ap.parse_args(argv)
    n_vec = args.games or (2_000 if args.quick else 100_000)
    n_ref = args.ref_games or (100 if args.quick else 2_000)
    repeat = 1 if args.quick else 3
    print(f"python {platform.python_version()}, numpy {np.__version__}, chunk {CHUNK} games")
    print("| workload | (a) vectorized | (b) plain Python (random module) | (b2) numpy reference "
          "| (a)/(b) | (a)/(b2) |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, kw in (("4 slayers, greedy_pulls", dict(policy="greedy_pulls")),
                      ("4 slayers, random play", dict(policy="random"))):
        cfg = make_config(**kw)
        simulate_games(cfg, min(n_vec, 500), rng=0)  # warm-up (tables, imports)
        t_vec = min(timeit.repeat(lambda: simulate_games(cfg, n_vec, rng=np.random.default_rng()),
                                  number=1, repeat=repeat))
        rnd = random.Random()
        t_ref = min(timeit.repeat(lambda: [reference_game(cfg, rnd.random) for _ in range(n_ref)],
                                  number=1, repeat=repeat))
        t_np = timeit.timeit(lambda: reference_games(cfg, n_ref, rng=np.random.default_rng()), number=1)
        g_vec, g_ref, g_np = n_vec / t_vec, n_ref / t_ref, n_ref / t_np
        print(f"| {label} | {n_vec:,} games in {t_vec:.3f} s: {g_vec:,.0f} games/s "
              f"| {n_ref:,} games in {t_ref:.3f} s: {g_ref:,.0f} games/s "
              f"| {n_ref:,} games in {t_np:.3f} s: {g_np:,.0f} games/s "
              f"| **{g_vec / g_ref:.1f}x** | {g_vec / g_np:.1f}x |")


if __name__ == "__main__":
    main()
