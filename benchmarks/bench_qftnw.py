"""Benchmark of the Quest for the New World simulator: vectorized vs plain Python, in one run.

Run ``python benchmarks/bench_qftnw.py [--quick]``. On each workload it times

(a) the vectorized lockstep simulator :func:`gamesim.games.qftnw.sim.run_games` (chunks of
    100,000 games; finished games leave the active set),
(b) the plain-Python one-game-at-a-time loop of
    :func:`gamesim.games.qftnw.reference.reference_game` (a ``deque`` deck, lists, the scalar
    rules core, per-round conservation checks off) with every random number from the
    ``random`` module (``random.random`` for the bids, ``random.shuffle`` for the deck): what a
    competent Python programmer would write; the speed-up's baseline,
(b2) the package's reference :func:`gamesim.games.qftnw.reference.reference_simulate` as it is
    (the same loop drawing numpy uniforms in blocks of 256 and one ``Generator.permutation``
    per game),

and prints games per second for each and the speed-ups (a)/(b) (target >= 50x) and (a)/(b2),
measured in one run. Workloads: the
original edition with uniform bids (the headline figure), and the Spa edition under 上級ルール
with ``greedy`` against ``cautious`` (policies with state-dependent bids).
"""

from __future__ import annotations

import argparse
import platform
import random
import time
import timeit

import numpy as np

from gamesim.games.qftnw.policies import make_policy
from gamesim.games.qftnw.reference import reference_game, reference_simulate
from gamesim.games.qftnw.rules import edition_params
from gamesim.games.qftnw.sim import CHUNK_SIZE, run_games

WORKLOADS = (
    ("original, uniform vs uniform", dict(edition="original"), ("uniform", "uniform")),
    ("spa + 上級ルール, greedy vs cautious", dict(edition="spa", advanced=True), ("greedy", "cautious")),
)


class _RandomModuleDeck:
    """The one Generator method :func:`reference_game` calls besides its uniforms, from ``random``."""

    def __init__(self, rnd: random.Random):
        self.rnd = rnd

    def permutation(self, n: int) -> np.ndarray:
        order = list(range(n))
        self.rnd.shuffle(order)
        return np.array(order)  # reference_game divides it by the copies per type


def plain_games(p, policies, n_games: int, *, seed: int | None = None) -> list[dict]:  # type: ignore[no-untyped-def]
    """``n_games`` games of :func:`reference_game` with every random number from the ``random`` module."""
    rnd = random.Random(seed)
    deck_rng = _RandomModuleDeck(rnd)
    pol = [make_policy(x) for x in policies]
    return [reference_game(p, pol[0], pol[1], deck_rng, check=False, _u=rnd.random)  # type: ignore[arg-type]
            for _ in range(n_games)]


def min_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Best of ``repeat`` single runs of ``fn``, in CPU seconds of this process (steadier than
    the wall clock on a shared machine; every timed path is single-threaded)."""
    return min(timeit.repeat(fn, number=1, repeat=repeat, timer=time.process_time))


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
          f"chunk {CHUNK_SIZE}; best of {repeat} for (a), 1 run for (b) and (b2)")
    for label, kw, pols in WORKLOADS:
        p = edition_params(kw["edition"], advanced=kw.get("advanced", False))
        run_games(p, pols, 200, rng=rng)  # warm caches (policy tables) outside the timing
        rounds: list[float] = []

        def vec() -> None:
            r = run_games(p, pols, n_vec, rng=rng)
            rounds.append(float(r["rounds"].mean()))

        t_vec = min_time(vec, repeat)
        pl_rounds: list[float] = []

        def plain() -> None:
            games = plain_games(p, pols, n_ref, seed=int(rng.integers(2**32)))
            pl_rounds.append(sum(g["rounds"] for g in games) / len(games))

        t_pl = min_time(plain, 1)
        t_ref = min_time(lambda: reference_simulate(n_ref, params=p, policies=pols, rng=rng, check=False), 1)
        g_vec, g_pl, g_ref = n_vec / t_vec, n_ref / t_pl, n_ref / t_ref
        print(f"[{label}]  mean {rounds[-1]:.2f} rounds/game (vectorized), {pl_rounds[-1]:.2f} (random module)")
        print(f"  (a)  vectorized                    : {n_vec:>9,d} games {t_vec:8.3f} s  {g_vec:12,.0f} games/s")
        print(f"  (b)  plain Python, random module   : {n_ref:>9,d} games {t_pl:8.3f} s  {g_pl:12,.0f} games/s")
        print(f"  (b2) plain Python, numpy reference : {n_ref:>9,d} games {t_ref:8.3f} s  {g_ref:12,.0f} games/s")
        print(f"  speedup vectorized / plain Python (random module) : {g_vec / g_pl:8.1f}x  (target >= 50x)")
        print(f"  speedup vectorized / numpy reference              : {g_vec / g_ref:8.1f}x")


if __name__ == "__main__":
    main()
