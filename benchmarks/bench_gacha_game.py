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

(c) a numba-compiled scalar loop of the same rules (``benchmarks/gacha_game_scalar.py``, one
    source run as plain Python or under ``numba.njit``; numba is the ``[bench]`` extra, never
    required by the package; without it this row prints a notice): the reference's game, one
    game and one chip at a time, its recursion (a session's chips fire triggers that start
    sessions, God Chances fire navi Overdrive) as an explicit stack, uniforms from a numpy
    ``Generator`` (PCG64) called inside the compiled loop, tables prepared outside the timed
    region, compile excluded (a warm-up call). Only the ``greedy_pulls`` workload (the loop covers
    greedy_pulls slayers, random navi cards, 疑惑の運営モード off: the study's default), timed at
    the study's chunk (the same games in calls of 3,000) and in one call, beside (a) of this run:
    the ratios (a) time / (c) time. Same-game checks: the scalar loop fed the same uniform stream
    as ``reference_game`` plays the identical games (every returned key, game for game), and its
    per-game means agree with (a)'s (printed with standard errors and z).
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from gamesim.games.gacha_game.reference import reference_game, reference_games
from gamesim.games.gacha_game.sim import CHUNK, make_config, simulate_games

try:  # run as a script (benchmarks/ on sys.path) or loaded from its path by the smoke test
    import gacha_game_scalar as scalar
    from _timing import best_cpu
except ImportError:  # loaded by path from elsewhere: its folder is not on sys.path
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import gacha_game_scalar as scalar
    from _timing import best_cpu

#: The study's chunk size (``chunk_size`` of ``scenarios/gacha_game.toml``).
STUDY_CHUNK = 3_000




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
    compiled: dict = {}
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
        if kw["policy"] == "greedy_pulls":
            compiled[label] = (cfg, t_st, t_one)
    numba_rows(compiled, n_vec, study, repeat, n_ref)


def _flat_means(r: dict) -> dict[str, np.ndarray]:
    """Per-game statistics compared between (a) and (c)."""
    out = {f"win rate seat {s}": r["win"][:, s] for s in range(r["win"].shape[1])}
    out.update({"UR cards, seat 0": r["ur"][:, 0].astype(float),
                "pulls per game": r["pulls"].sum(axis=1).astype(float),
                "paid pulls per game": r["pulls"][:, 4].astype(float),
                "trigger pulls per game": r["pulls"][:, 8].astype(float),
                "Overdrive pulls per game": r["pulls"][:, 7].astype(float),
                "God Chances per game": r["god_chances"].astype(float),
                "end by コンスリート (share)": (r["consolete_round"] > 0).astype(float),
                "コンスリート round (0 = none)": r["consolete_round"].astype(float),
                "ラストダンス decides (share)": r["ld_decides"].astype(float),
                "bosses captured": r["bosses"].astype(float)})
    return out


def numba_rows(compiled: dict, n_vec: int, study: int, repeat: int, n_ref: int) -> None:
    """Row (c): the compiled scalar loop beside (a), with the same-game checks."""
    try:
        import numba
    except ImportError:
        print("(c) numba-compiled scalar loop: numba not installed (pip install -e '.[bench]')")
        return
    c0 = time.process_time()
    fn = scalar.build(numba=True)
    for label, (cfg, t_st, t_one) in compiled.items():
        tables = scalar.prepare(cfg)
        scalar.games(fn, tables, 10, np.random.default_rng(0))  # warm-up: compile
        print(f"numba {numba.__version__}: compile {time.process_time() - c0:.1f} CPU-s (excluded)")

        def nb_study() -> None:
            gen = np.random.default_rng()
            for s in range(0, n_vec, study):
                scalar.games(fn, tables, min(study, n_vec - s), gen)

        t_nst = best_cpu(nb_study, repeat)
        t_none = best_cpu(lambda: scalar.games(fn, tables, n_vec, np.random.default_rng()), repeat)
        print(f"| workload | games | (a) vectorized, calls of {study:,} | (c) numba-compiled scalar loop, calls of "
              f"{study:,} | (a) vectorized, one call | (c) numba, one call | (a)/(c) time, calls of {study:,} "
              "| (a)/(c) time, one call |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        print(f"| {label} | {n_vec:,} | {t_st:.3f} s: {n_vec / t_st:,.0f} games/s | {t_nst:.3f} s: "
              f"{n_vec / t_nst:,.0f} games/s | {t_one:.3f} s: {n_vec / t_one:,.0f} games/s | {t_none:.3f} s: "
              f"{n_vec / t_none:,.0f} games/s | {t_st / t_nst:.2f}x | {t_one / t_none:.2f}x |")
        # same game (1): fed the same uniforms as the plain-Python reference, the loop plays the same games
        n_id = max(20, min(n_ref, 200))
        mine = scalar.games(fn, tables, n_id, np.random.default_rng(20261127))
        gen = np.random.default_rng(20261127)
        same = 0
        for i in range(n_id):
            ref = reference_game(cfg, gen.random)
            same += all(np.array_equal(np.asarray(v), mine[k][i]) for k, v in ref.items())
        print(f"  same game? (c) fed the reference's uniform stream: {same} of {n_id} games identical to "
              "reference_game (every returned key)")
        # same game (2): per-game means of (c) and (a), independent streams
        a = _flat_means(simulate_games(cfg, n_vec, rng=np.random.default_rng(1)))
        c = _flat_means(scalar.games(fn, tables, n_vec, np.random.default_rng(2)))
        zs = []
        for k in a:
            ma, mc = a[k].mean(), c[k].mean()
            sa, sc = a[k].std(ddof=1) / np.sqrt(len(a[k])), c[k].std(ddof=1) / np.sqrt(len(c[k]))
            z = (mc - ma) / np.hypot(sa, sc) if np.hypot(sa, sc) > 0 else 0.0
            zs.append(abs(z))
            print(f"  same game? {k}: (a) {ma:.4f} +- {sa:.4f}, (c) {mc:.4f} +- {sc:.4f}, z {z:+.2f}")
        print(f"  largest |z| {max(zs):.2f} over {len(zs)} means ({n_vec:,} games each)")
    print("  (c) for random play: not measured (the scalar loop ports greedy_pulls slayers only)")


if __name__ == "__main__":
    main()
