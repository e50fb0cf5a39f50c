"""Benchmark of the Ice Cream Turret simulator: vectorized vs plain Python, in one run.

Run ``python benchmarks/bench_ice_cream_turret.py [--quick]``. For each policy it times

(a) the vectorized lockstep simulator :func:`gamesim.games.ice_cream_turret.sim.run_games`
    (chunks of 20,000 games; finished games leave the batch),
(b) a plain-Python loop, one game at a time: :func:`gamesim.games.ice_cream_turret.reference.reference_game`
    (tuples and lists, the scalar rules core) driven by the ``random`` module
    (``random.Random(seed).random``): the baseline of the target,
(b2) the package's reference :func:`gamesim.games.ice_cream_turret.reference.reference_simulate`
    as it is: the same loop with one numpy scalar ``Generator.random()`` call per draw,

and prints games per second for each and the speedups (a)/(b) (target >= 50x for greedy)
and (a)/(b2).
Workloads: the normal game with the greedy policy (the headline figure) and with random play.
"""

from __future__ import annotations

import argparse
import platform
import random
import timeit

import numpy as np

from gamesim.games.ice_cream_turret.reference import reference_game, reference_simulate
from gamesim.games.ice_cream_turret.rules import IceCreamParams
from gamesim.games.ice_cream_turret.sim import CHUNK_SIZE, run_games


def min_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Best of ``repeat`` single runs of ``fn`` (seconds), via :func:`timeit.repeat`."""
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--games", type=int, default=None, help="vectorized games per workload")
    ap.add_argument("--ref-games", type=int, default=None, help="plain-Python games per workload")
    args = ap.parse_args(argv)
    n_vec = args.games or (2_000 if args.quick else 100_000)
    n_ref = args.ref_games or (20 if args.quick else 400)
    repeat = 1 if args.quick else 3
    p = IceCreamParams()
    rng = np.random.default_rng(20261122)
    pyrng = random.Random(20261122)
    print(f"ice_cream_turret benchmark: whole normal games, default deck; "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"chunk {CHUNK_SIZE}; best of {repeat} for (a), 1 run for (b) and (b2)")
    for policy, scale in (("greedy", 1), ("random", 4)):
        run_games(p, policy, 200, rng=rng)  # warm caches (kernel tables) outside the timing
        placed: list[float] = []

        def vec() -> None:
            r = run_games(p, policy, n_vec * scale, rng=rng)
            placed.append(float(r["placed"].mean()))

        def ref() -> None:
            for _ in range(n_ref * scale):
                reference_game(p, policy, pyrng.random)

        def ref_np() -> None:
            reference_simulate(p, policy, n_ref * scale, rng=rng)

        t_vec = min_time(vec, repeat)
        t_ref = min_time(ref, 1)
        t_np = min_time(ref_np, 1)
        g_vec, g_ref, g_np = n_vec * scale / t_vec, n_ref * scale / t_ref, n_ref * scale / t_np
        print(f"[{policy}]  mean {placed[-1]:.1f} cards placed/game")
        print(f"  (a)  vectorized                    : {n_vec * scale:>9,d} games {t_vec:8.3f} s  {g_vec:12,.0f} games/s")
        print(f"  (b)  plain Python, random module   : {n_ref * scale:>9,d} games {t_ref:8.3f} s  {g_ref:12,.0f} games/s")
        print(f"  (b2) plain Python, numpy scalar ref: {n_ref * scale:>9,d} games {t_np:8.3f} s  {g_np:12,.0f} games/s")
        print(f"  speedup vectorized / plain Python (random module) : {g_vec / g_ref:8.1f}x  (target >= 50x for greedy)")
        print(f"  speedup vectorized / numpy-scalar reference       : {g_vec / g_np:8.1f}x")


if __name__ == "__main__":
    main()
