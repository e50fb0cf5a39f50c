"""Benchmark of the ガッチャ simulator against plain-Python baselines and the bare RNG.

Run ``python benchmarks/bench_gacha.py [--quick]``. On two workloads per trial
(300 single pulls; 100 single pulls then 10 sessions of 10 pulls), default bag
(1 God Chance, 5 SR, 44 N chips), Overdrive and 疑惑の運営モード off, it times

(a) the vectorized simulator :func:`gamesim.games.gacha.sim.run_schedule` (one
    chance outcome per bag cycle, see the notes in ``sim.py``),
(b) :func:`plain_schedule`: what a competent Python programmer would write with the
    ``random`` module and plain lists: the bag is a list of chips, one
    ``randrange`` + ``pop`` per pull, same rules (bag rebuilds, God Chance cards,
    Overdrive, 疑惑の運営モード), one trial at a time. **This is the baseline of the
    speed-up target (>= 100x).**
(b2) the package's plain-Python test reference
    :func:`gamesim.games.gacha.reference.reference_schedule` (same loop, but every
    draw is a numpy scalar call ``Generator.integers``, about 1 us each),
(b3) :func:`plain_cycles`: the ``random`` module running the same one-draw-per-bag
    algorithm as (a), one trial at a time (default bag only), to separate what the
    algorithm gains from what vectorization gains,
(c) the bare cost of the draws (a) makes: the exact sequence of ``Generator.random``
    array sizes the kernel asked for (recorded on one run), replayed with nothing
    else, each array written into one reused buffer (``out=``), as the kernel itself
    draws into preallocated buffers; keeping every replayed array alive (as an earlier
    version of this script did) adds fresh-page faults for ~160-240 MB and made the
    bare cost look 1.5-2.5x dearer than it is,

and prints trials per CPU second, the speed-ups (a)/(b), (a)/(b2), (a)/(b3) and the
overhead (a)/(c) (target <= 3x), all measured in one run. Times are CPU seconds of this
process (``time.process_time``, best of several runs): every path is single-threaded,
and on a shared machine CPU time is steadier than the wall clock; still expect tens of
percent of noise between runs.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
import timeit
from collections.abc import Callable, Sequence

import numpy as np

from gamesim.games.gacha import sim
from gamesim.games.gacha.exact import exact_god_chance_pmf
from gamesim.games.gacha.reference import reference_schedule
from gamesim.games.gacha.rules import BagConfig
from gamesim.games.gacha.sim import run_schedule


def plain_schedule(sessions: Sequence[int], n_trials: int, *, seed: int | None = None,
                   bag: tuple[int, int, int] = (1, 5, 44), n_characters: int = 5,
                   doubtful_k: Sequence[int] | None = None,
                   overdrive_pulls: int | None = None) -> list[tuple[int, int, int, int]]:
    """Plain Python with the ``random`` module: ``(god_chances, characters_owned, sr_drawn, pulls)`` per trial.

    Same rules as ``docs/rules/gacha.md``: chips drawn one at a time without
    replacement; the bag is remade when it empties (also mid-session) and at the end
    of a session once every God Chance chip put in at the last bag creation has been
    drawn; God Chances resolved after the session (uniform card, gained if new); a
    card equal to the navi (card 0) starts ``overdrive_pulls`` extra pulls at once;
    in 疑惑の運営モード ``k`` (uniform on ``doubtful_k``) random chips are removed
    unseen at every bag creation.
    """
    rnd = random.Random(seed)
    randrange = rnd.randrange
    n_gc, n_sr, n_n = bag
    full = [0] * n_gc + [1] * n_sr + [2] * n_n

    def new_bag() -> list[int]:
        b = full[:]
        if doubtful_k:
            for _ in range(rnd.choice(doubtful_k)):
                b.pop(randrange(len(b)))
        return b

    out = []
    for _ in range(n_trials):
        b = new_bag()
        gcd = god = sr = pulls = 0
        owned: set[int] = set()
        stack = list(reversed(sessions))
        while stack:
            m = stack.pop()
            pulls += m
            got = 0
            for _ in range(m):
                if not b:
                    b, gcd = new_bag(), 0
                chip = b.pop(randrange(len(b)))
                if chip == 0:
                    got += 1
                    gcd += 1
                elif chip == 1:
                    sr += 1
            if not b or gcd >= n_gc:
                b, gcd = new_bag(), 0
            god += got
            for _ in range(got):
                card = randrange(n_characters)
                owned.add(card)
                if overdrive_pulls is not None and card == 0:
                    stack.append(overdrive_pulls)  # runs before the next scheduled session
        out.append((god, len(owned), sr, pulls))
    return out


def plain_cycles(sessions: Sequence[int], n_trials: int, *, seed: int | None = None,
                 n_characters: int = 5) -> list[tuple[int, int]]:
    """The ``random`` module running (a)'s one-draw-per-bag algorithm (default bag, no Overdrive).

    Returns ``(god_chances, characters_owned)`` per trial (SR tally omitted, which
    flatters this baseline).
    """
    rnd = random.Random(seed)
    randrange = rnd.randrange
    total = sum(sessions)
    end_at = []  # end_at[t] = end of the session holding pull t + 1
    acc = 0
    for m in sessions:
        acc += m
        end_at.extend([acc] * m)
    out = []
    for _ in range(n_trials):
        s = god = 0
        owned = set()
        while True:
            t = s + randrange(50)  # the God Chance chip is pull t + 1 of the schedule
            if t >= total:
                break
            god += 1
            owned.add(randrange(n_characters))
            s = min(end_at[t], s + 50)
            if s >= total:
                break
        out.append((god, len(owned)))
    return out


class _Recorder:
    """A Generator stand-in that records the sizes of ``random`` calls (``size`` or ``out=``)."""

    def __init__(self, rng: np.random.Generator):
        self.rng, self.sizes = rng, []  # type: ignore[var-annotated]

    def random(self, size: int | None = None, *, out: np.ndarray | None = None) -> np.ndarray:
        self.sizes.append(int(size) if out is None else out.size)
        return self.rng.random(size, out=out)

    def spawn(self, n_children: int) -> list["_Recorder"]:
        """The kernel's card stream: its ``random`` calls are recorded with the others."""
        return [self] * n_children

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        raise AttributeError(f"the benchmark workload should only need Generator.random, not {name}")


def recorded_draws(sessions: list[int], n_trials: int, rng: np.random.Generator, bag: BagConfig) -> list[int]:
    """Sizes of the ``Generator.random`` calls :func:`run_schedule` makes on this workload."""
    rec = _Recorder(rng)
    cfg = sim._Cfg.make(bag, 5, None, None)
    sim._schedule_cycles(sessions, n_trials, rec, cfg, sim._cycles(bag, None))  # type: ignore[arg-type]
    return rec.sizes


def min_time(fn: Callable[[], object], repeat: int) -> float:
    """Best of ``repeat`` single runs of ``fn``, in CPU seconds of this process.

    Every timed code path is single-threaded, and on a machine shared with other jobs
    the process's CPU time varies much less than the wall clock.
    """
    return min(timeit.repeat(fn, number=1, repeat=repeat, timer=time.process_time))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--trials", type=int, default=None, help="vectorized / bare-RNG trials")
    ap.add_argument("--ref-trials", type=int, default=None, help="plain-Python trials")
    args = ap.parse_args(argv)
    n_vec = args.trials or (20_000 if args.quick else 1_000_000)
    n_ref = args.ref_trials or (200 if args.quick else 4_000)
    repeat = 1 if args.quick else 3
    bag = BagConfig()
    rng = np.random.default_rng(20261122)
    print(f"gacha benchmark: default bag (1 God Chance, 5 SR, 44 N), Overdrive and 疑惑の運営モード off; "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"chunks of {sim._TABLE_CHUNK} trials; best of {repeat} for (a) and (c), of 2 for (b) and (b3), "
          f"1 run of (b2)")
    for label, sessions in (("300 x 1", [1] * 300), ("100 x 1 + 10 x 10", [1] * 100 + [10] * 10)):
        pulls = sum(sessions)
        run_schedule(sessions, 1000, rng=rng, bag=bag)  # build the per-configuration tables once
        t_vec = min_time(lambda: run_schedule(sessions, n_vec, rng=rng, bag=bag), repeat)
        t_pl = min_time(lambda: plain_schedule(sessions, n_ref, seed=int(rng.integers(2**32))), 2)
        t_ref = min_time(lambda: reference_schedule(sessions, max(1, n_ref // 4), rng=rng, bag=bag), 1)
        n_ref2 = max(1, n_ref // 4)
        t_cyc = min_time(lambda: plain_cycles(sessions, n_ref * 4, seed=int(rng.integers(2**32))), 2)
        sizes = recorded_draws(sessions, n_vec, rng, bag)
        g_vec = run_schedule(sessions, n_vec, rng=rng, bag=bag)["god_chances"]
        g_pl = np.array([r[0] for r in plain_schedule(sessions, n_ref, seed=int(rng.integers(2**32)))])
        pmf = exact_god_chance_pmf(sessions, bag=bag)
        g_exact = float(pmf @ np.arange(pmf.size))
        buf = np.empty(max(sizes, default=0))

        def bare() -> None:
            for k in sizes:
                rng.random(out=buf[:k])

        t_rng = min_time(bare, repeat)
        tps = {"a": n_vec / t_vec, "b": n_ref / t_pl, "b2": n_ref2 / t_ref, "b3": 4 * n_ref / t_cyc,
               "c": n_vec / t_rng}
        print(f"\nworkload {label}: {len(sessions)} sessions, {pulls} pulls per trial; "
              f"(a) draws {sum(sizes) / n_vec:.1f} uniforms per trial")
        print(f"(a)  vectorized run_schedule           : {n_vec:>9,d} trials {t_vec:7.3f} s "
              f"{tps['a']:13,.0f} trials/s {tps['a'] * pulls:15,.0f} pulls/s")
        print(f"(b)  plain Python, random module       : {n_ref:>9,d} trials {t_pl:7.3f} s "
              f"{tps['b']:13,.0f} trials/s {tps['b'] * pulls:15,.0f} pulls/s")
        print(f"(b2) plain Python, numpy scalar draws  : {n_ref2:>9,d} trials {t_ref:7.3f} s "
              f"{tps['b2']:13,.0f} trials/s {tps['b2'] * pulls:15,.0f} pulls/s")
        print(f"(b3) random module, per-bag algorithm  : {4 * n_ref:>9,d} trials {t_cyc:7.3f} s "
              f"{tps['b3']:13,.0f} trials/s")
        print(f"(c)  bare numpy draws of (a)           : {n_vec:>9,d} trials {t_rng:7.3f} s "
              f"{tps['c']:13,.0f} trials/s")
        print(f"check: mean God Chances (a) {g_vec.mean():.4f} +- {g_vec.std() / np.sqrt(g_vec.size):.4f}, "
              f"(b) {g_pl.mean():.3f} +- {g_pl.std() / np.sqrt(g_pl.size):.3f}, exact {g_exact:.4f}")
        print(f"speedup (a) / (b)  random-module plain Python : {tps['a'] / tps['b']:8.1f}x  (target >= 100x)")
        print(f"speedup (a) / (b2) numpy-scalar reference     : {tps['a'] / tps['b2']:8.1f}x")
        print(f"speedup (a) / (b3) same algorithm, plain      : {tps['a'] / tps['b3']:8.1f}x")
        print(f"(a) time / (c) bare draws time                : {t_vec / t_rng:8.2f}x  (target <= 3x)")


if __name__ == "__main__":
    main()
