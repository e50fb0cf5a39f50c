"""Benchmark of the Ice Cream Turret simulator: vectorized vs plain Python, in one run.

Run ``python benchmarks/bench_ice_cream_turret.py [--quick]``. For each policy it times

(a) the vectorized lockstep simulator :func:`gamesim.games.ice_cream_turret.sim.run_games`
    (chunks of 20,000 games; finished games leave the batch),
(b) a plain-Python loop, one game at a time: :func:`gamesim.games.ice_cream_turret.reference.reference_game`
    (tuples and lists, the scalar rules core) driven by the ``random`` module
    (``random.Random(seed).random``): the baseline of the target,
(b2) the package's reference :func:`gamesim.games.ice_cream_turret.reference.reference_simulate`
    as it is: the same loop with one numpy scalar ``Generator.random()`` call per draw,

and prints games per second for each and the speedups (a)/(b) (target >= 50x for greedy) and
(a)/(b2), in
wall-clock time and in CPU time of this process (``time.process_time``: all its threads; both
sides are single-threaded here, as the kernels use no BLAS). On a shared machine the wall-clock
figures swing with the other jobs' load; the CPU-time figures do not.
Both sides find the first wave of a placement on the lines through the placed card only (the
board was stable before it): the vectorized kernel and the scalar rules core alike.
Workloads: the normal game with the greedy policy (the headline figure) and with random play.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from gamesim.games.ice_cream_turret.reference import reference_game, reference_simulate
from gamesim.games.ice_cream_turret.rules import IceCreamParams
from gamesim.games.ice_cream_turret.sim import CHUNK_SIZE, run_games


def min_time(fn, repeat: int) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Best of ``repeat`` single runs of ``fn``: (wall-clock seconds, CPU seconds of this process)."""
    wall, cpu = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w0)
        cpu.append(time.process_time() - c0)
    return min(wall), min(cpu)


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
          f"chunk {CHUNK_SIZE}; best of {repeat} for (a), 1 run for (b) and (b2); wall-clock and CPU time")
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

        (w_vec, c_vec), (w_ref, c_ref) = min_time(vec, repeat), min_time(ref, 1)
        w_np, c_np = min_time(ref_np, 1)
        nv, nr = n_vec * scale, n_ref * scale
        print(f"[{policy}]  mean {placed[-1]:.1f} cards placed/game")
        print(f"  (a) vectorized       : {nv:>9,d} games  wall {w_vec:8.3f} s {nv / w_vec:10,.0f} games/s"
              f"  CPU {c_vec:8.3f} s {nv / c_vec:10,.0f} games/s")
        print(f"  (b) plain Python loop: {nr:>9,d} games  wall {w_ref:8.3f} s {nr / w_ref:10,.0f} games/s"
              f"  CPU {c_ref:8.3f} s {nr / c_ref:10,.0f} games/s")
        print(f"  (b2) numpy-scalar ref: {nr:>9,d} games  wall {w_np:8.3f} s {nr / w_np:10,.0f} games/s"
              f"  CPU {c_np:8.3f} s {nr / c_np:10,.0f} games/s")
        print(f"  speedup vectorized / plain Python (random module) : wall {(nv / w_vec) / (nr / w_ref):8.1f}x"
              f"  CPU {(nv / c_vec) / (nr / c_ref):8.1f}x  (target >= 50x for greedy)")
        print(f"  speedup vectorized / numpy-scalar reference       : wall {(nv / w_vec) / (nr / w_np):8.1f}x"
              f"  CPU {(nv / c_vec) / (nr / c_np):8.1f}x")


if __name__ == "__main__":
    main()
