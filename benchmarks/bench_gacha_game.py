"""Benchmark of whole games of ガッチャ ~God Chance~: vectorized vs plain Python and bare random numbers.

Run ``python benchmarks/bench_gacha_game.py [--quick]``. On whole 4-round games (default
illustrative cards, 4 slayers, chip triggers and round-scoped effects on) it times

(a) the vectorized lockstep simulator :func:`gamesim.games.gacha_game.sim.simulate_games` (all
    games of a chunk advance turn by turn with masks) at the study's chunk size (calls of
    ``chunk_size = 3000`` games, as ``scenarios/gacha_game.toml`` runs it) and at a large chunk
    (one call: one chunk of all the games, at most ``CHUNK`` = 100,000);
(b) the plain-Python one-game-at-a-time reference
    :func:`gamesim.games.gacha_game.reference.reference_game`, driven by the ``random``
    module (``random.Random().random``; lists, one chip at a time): the baseline of the goal;
(b2) the package's :func:`gamesim.games.gacha_game.reference.reference_games` as it is
    (the same loop fed numpy uniforms fetched in blocks of 65,536), one run;
(d) bare random numbers: ``Generator.random`` producing as many uniforms as (b) consumed per
    game (counted in a separate, untimed pass of (b)), the floor of any sampler;

for two policy settings (``greedy_pulls``, every slayer's default in the study, and random
play), and prints games per second and the ratios (a)/(b) (goal >= 30x), (a)/(b2) and
(a)/(d), all measured in this one run. Times are CPU seconds of this process
(``time.process_time``; every timed path is single-threaded), best of 5 runs (of 1 with
``--quick``; (b2) one run).

There is no numba row here: a compiled scalar loop of these rules (recursive effects: a session's
chips trigger effects that start sessions, navi Overdrive, round-scoped rate sets, Saturday tables
and bags) has not been written; ``docs/benchmarks.md`` says what the bare-number row shows instead.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from gamesim.games.gacha_game.reference import reference_game, reference_games
from gamesim.games.gacha_game.sim import CHUNK, make_config, simulate_games

#: The study's chunk size (``chunk_size`` of ``scenarios/gacha_game.toml``).
STUDY_CHUNK = 3_000


def best_cpu(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Best CPU time (``time.process_time``) of ``repeat`` runs of ``fn``."""
    best = float("inf")
    for _ in range(repeat):
        c0 = time.process_time()
        fn()
        best = min(best, time.process_time() - c0)
    return best


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--games", type=int, default=None, help="vectorized games")
    ap.add_argument("--ref-games", type=int, default=None, help="plain-Python games")
    args = ap.parse_args(argv)
    n_vec = min(args.games or (1_000 if args.quick else 30_000), CHUNK)
    n_ref = args.ref_games or (50 if args.quick else 1_000)
    repeat = 1 if args.quick else 5
    study = min(STUDY_CHUNK, n_vec)
    print(f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}; "
          f"CPU time, best of {repeat}; {n_vec:,} vectorized games in calls of {study:,} (study chunk) "
          f"and in one call (chunk {n_vec:,}), {n_ref:,} plain-Python games")
    print("| workload | (a) vectorized, study chunk | (a) vectorized, one chunk | (b) plain Python (random module) "
          "| (b2) numpy reference | (d) bare uniforms | (a)/(b) | (a)/(b2) | (a)/(d) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, kw in (("4 slayers, greedy_pulls", dict(policy="greedy_pulls")),
                      ("4 slayers, random play", dict(policy="random"))):
        cfg = make_config(**kw)
        simulate_games(cfg, min(n_vec, 500), rng=0)  # warm-up (tables, imports)

        def vec_study() -> None:
            for s in range(0, n_vec, study):
                simulate_games(cfg, min(study, n_vec - s), rng=np.random.default_rng())

        t_st = best_cpu(vec_study, repeat)
        t_one = best_cpu(lambda: simulate_games(cfg, n_vec, rng=np.random.default_rng()), repeat)
        rnd = random.Random()
        t_ref = best_cpu(lambda: [reference_game(cfg, rnd.random) for _ in range(n_ref)], repeat)
        t_np = best_cpu(lambda: reference_games(cfg, n_ref, rng=np.random.default_rng()), 1)
        count = [0]

        def counted() -> float:
            count[0] += 1
            return rnd.random()

        for _ in range(n_ref):  # untimed: the uniforms (b) draws per game
            reference_game(cfg, counted)
        per_game = count[0] / n_ref
        gen = np.random.default_rng(3)
        n_u = int(round(per_game * n_vec))
        t_bare = best_cpu(lambda: gen.random(n_u), repeat)
        g_st, g_one, g_ref, g_np, g_bare = n_vec / t_st, n_vec / t_one, n_ref / t_ref, n_ref / t_np, n_vec / t_bare
        print(f"| {label} | {t_st:.3f} s: {g_st:,.0f} games/s | {t_one:.3f} s: {g_one:,.0f} games/s "
              f"| {t_ref:.3f} s: {g_ref:,.0f} games/s | {t_np:.3f} s: {g_np:,.0f} games/s "
              f"| {per_game:.0f} per game, {t_bare:.4f} s: {g_bare:,.0f} games/s "
              f"| **{g_st / g_ref:.1f}x** | {g_st / g_np:.1f}x | {g_st / g_bare:.4f}x |")
        print(f"  one chunk: (a)/(b) {g_one / g_ref:.1f}x, (a)/(d) {g_one / g_bare:.4f}x")


if __name__ == "__main__":
    main()
