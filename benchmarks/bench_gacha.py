"""Benchmark of the ガッチャ simulator against plain-Python baselines, numba and the bare RNG.

Run ``python benchmarks/bench_gacha.py [--quick]`` (numba comes with the benchmark extra:
``pip install -e ".[test,bench]"``; without it the numba rows are skipped with a notice).
On two workloads per trial (300 single pulls; 100 single pulls then 10 sessions of 10
pulls), default bag (1 God Chance, 5 SR, 44 N chips), Overdrive and 疑惑の運営モード off, it times

(a) the vectorized simulator :func:`gamesim.games.gacha.sim.run_schedule` (one
    chance outcome per bag cycle, see the notes in ``sim.py``), on 1,000,000 trials
    (chunks of 65,536) and on the study's chunk, 10,000 trials (``chunk_size`` of
    ``scenarios/gacha_god_chance.toml``: one call per chunk),
(b) :func:`plain_schedule`: what a competent Python programmer would write with the
    ``random`` module and plain lists: the bag is a list of chips, one
    ``randrange`` + ``pop`` per pull, same rules (bag rebuilds, God Chance cards,
    Overdrive, 疑惑の運営モード), one trial at a time. **This is the baseline of the
    speed-up target (>= 100x).**
(b2) the package's plain-Python test reference
    :func:`gamesim.games.gacha.reference.reference_schedule` (same loop, but every
    draw is a numpy scalar call ``Generator.integers``, about 1 us each; one run),
(b3) :func:`plain_cycles`: the ``random`` module running the same one-draw-per-bag
    algorithm as (a), one trial at a time (default bag only, no SR tally), to separate
    what the algorithm gains from what vectorization gains,
(b4) :data:`CYCLES_SOURCE` run as plain Python (``random.Random``): (a)'s algorithm with
    all of (a)'s tallies (God Chances, SR chips, characters owned), one trial at a time,
(d) the *same source* compiled with ``numba.njit`` (numpy tables, uniforms from a numpy
    ``Generator``, i.e. PCG64 as in (a), called inside the compiled loop; compile time
    excluded), at both sizes: the limit a compiled scalar loop reaches; (d2) the same with
    numba's own ``np.random.random`` (MT19937), slower per uniform,
(c) the bare cost of the draws (a) makes: the exact sequence of ``Generator.random``
    array sizes the kernel asked for (recorded on one run), replayed with nothing
    else, each array written into one reused buffer (``out=``), as the kernel itself
    draws into preallocated buffers; keeping every replayed array alive (as an earlier
    version of this script did) adds fresh-page faults for ~160-240 MB and made the
    bare cost look 1.5-2.5x dearer than it is; at both sizes,

and prints trials per CPU second, the speed-ups (a)/(b), (a)/(b2), (a)/(b3), the overhead
(a)/(c) (target <= 3x) and the ratio (a)/(d) (target <= 2x), all measured in one run, with
the means of (a) and (d) side by side as a check that they play the same game. Times are
CPU seconds of this process (``time.process_time``), best of 5 runs (of 1 with ``--quick``):
every path is single-threaded, and on a shared machine CPU time is steadier than the wall
clock; still expect tens of percent of noise between runs.
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


#: (a)'s one-draw-per-bag algorithm for the default bag (one God Chance chip, no 疑惑の運営モード)
#: with all of (a)'s tallies, one trial at a time, executed twice: as plain Python
#: (``random.random``, tables as lists) and under numba (numpy tables, numba's
#: ``np.random.random``). Per bag cycle: one uniform for the position of the God Chance chip,
#: one for the cycle's SR count (inverse CDF of hypergeometric(n_sr, n_n, others drawn), the
#: CDF rows of ``sim._cycles(bag).sr_guide``); per trial one for the owned characters (inverse
#: CDF of the coupon collector's law given the God Chances, ``sim._owned_pmf``).
CYCLES_SOURCE = """
def schedule_cycles(rng, n_trials, total, bag_n, end_at, sr_cdf, k_sr, own_cdf, k_own, god_out, sr_out, own_out):
    for i in range(n_trials):
        s = 0
        god = 0
        sr = 0
        while s < total:
            x0 = int(rng.random() * bag_n)  # the God Chance chip is pull s + x0 + 1
            end = min(end_at[s + x0], s + bag_n)
            gc = 0
            if end <= total:
                gc = 1
            else:
                end = total
            u = rng.random()
            r = (end - s - gc) * k_sr
            c = 0
            while c < k_sr and sr_cdf[r + c] <= u:
                c += 1
            sr += c
            god += gc
            s = end
        u = rng.random()
        r = god * k_own
        c = 0
        while c < k_own and own_cdf[r + c] <= u:
            c += 1
        god_out[i] = god
        sr_out[i] = sr
        own_out[i] = c
    return 0
"""


def cycle_tables(sessions: Sequence[int], bag: BagConfig, n_characters: int = 5):  # type: ignore[no-untyped-def]
    """``(total, bag_n, end_at, sr_cdf, k_sr, own_cdf, k_own)`` for :data:`CYCLES_SOURCE` (numpy arrays)."""
    cy = sim._cycles(bag, None)
    assert cy.uniform_n and cy.sr_guide is not None, "the scalar loop covers the default-like bags only"
    ends = np.cumsum([m for m in sessions if m > 0])
    total = int(ends[-1])
    big = total + bag.total + 1
    end_at = np.full(total + bag.total + 1, big, dtype=np.int64)
    end_at[:total] = ends[np.searchsorted(ends, np.arange(1, total + 1))]
    own_cdf = np.cumsum(sim._owned_pmf(n_characters, total), axis=1)[:, :n_characters]
    return (total, cy.uniform_n, end_at, np.ascontiguousarray(cy.sr_guide.cdf).ravel(), cy.sr_guide.cdf.shape[1],
            np.ascontiguousarray(own_cdf).ravel(), n_characters)


def build_cycles(*, numba: bool, legacy: bool = False):  # type: ignore[no-untyped-def]
    """``schedule_cycles`` of :data:`CYCLES_SOURCE`, as plain Python or compiled by numba.

    Plain Python takes a ``random.Random`` as ``rng``; compiled, a numpy ``Generator`` (numba
    draws from its PCG64 bit generator, the one (a) uses), or with ``legacy`` the source's
    ``rng.random()`` becomes numba's own ``np.random.random()`` (MT19937; ``rng`` is ignored).
    Raises ImportError when numba is asked for and not installed.
    """
    src = CYCLES_SOURCE.replace("rng.random()", "np.random.random()") if legacy else CYCLES_SOURCE
    ns: dict = {"min": min, "int": int, "range": range, "np": np}
    exec(src, ns)  # noqa: S102 - our own source, run as Python and compiled
    if not numba:
        return ns["schedule_cycles"]
    import numba as nb

    return nb.njit(cache=False)(ns["schedule_cycles"])


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
    ap.add_argument("--trials", type=int, default=None, help="vectorized / bare-RNG / numba trials (large size)")
    ap.add_argument("--ref-trials", type=int, default=None, help="plain-Python trials")
    args = ap.parse_args(argv)
    n_vec = args.trials or (20_000 if args.quick else 1_000_000)
    n_study = min(10_000, n_vec)  # chunk_size of scenarios/gacha_god_chance.toml
    n_ref = args.ref_trials or (200 if args.quick else 4_000)
    repeat = 1 if args.quick else 5
    bag = BagConfig()
    rng = np.random.default_rng(20261122)
    try:
        import numba
    except ImportError:
        numba = None
    print(f"gacha benchmark: default bag (1 God Chance, 5 SR, 44 N), Overdrive and 疑惑の運営モード off; "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"numba {numba.__version__ if numba else 'not installed'}; chunks of {sim._TABLE_CHUNK} trials; "
          f"CPU time, best of {repeat} (1 run of (b2))")
    nb_cycles = nb_legacy = None
    if numba is not None:
        nb_cycles, nb_legacy = build_cycles(numba=True), build_cycles(numba=True, legacy=True)
        numba.njit(lambda s: np.random.seed(s))(20261127)
    else:
        print("(d) numba: numba not installed (pip install -e '.[bench]')")
    py_cycles = build_cycles(numba=False)
    py_rng = random.Random(20261127)
    nb_rng = np.random.default_rng(20261127)
    for label, sessions in (("300 x 1", [1] * 300), ("100 x 1 + 10 x 10", [1] * 100 + [10] * 10)):
        pulls = sum(sessions)
        run_schedule(sessions, 1000, rng=rng, bag=bag)  # build the per-configuration tables once
        t_vec = min_time(lambda: run_schedule(sessions, n_vec, rng=rng, bag=bag), repeat)
        t_vs = min_time(lambda: run_schedule(sessions, n_study, rng=rng, bag=bag), repeat)
        t_pl = min_time(lambda: plain_schedule(sessions, n_ref, seed=int(rng.integers(2**32))), repeat)
        t_ref = min_time(lambda: reference_schedule(sessions, max(1, n_ref // 4), rng=rng, bag=bag), 1)
        n_ref2 = max(1, n_ref // 4)
        t_cyc = min_time(lambda: plain_cycles(sessions, n_ref * 4, seed=int(rng.integers(2**32))), repeat)
        tabs = cycle_tables(sessions, bag)
        n_src = n_ref * 4
        py_out = ([0] * n_src, [0] * n_src, [0] * n_src)
        lt = tuple(t.tolist() if isinstance(t, np.ndarray) else t for t in tabs)
        t_src = min_time(lambda: py_cycles(py_rng, n_src, *lt, *py_out), repeat)
        sizes = recorded_draws(sessions, n_vec, rng, bag)
        sizes_s = recorded_draws(sessions, n_study, rng, bag)
        r_vec = run_schedule(sessions, n_vec, rng=rng, bag=bag)
        g_vec = r_vec["god_chances"]
        g_pl = np.array([r[0] for r in plain_schedule(sessions, n_ref, seed=int(rng.integers(2**32)))])
        pmf = exact_god_chance_pmf(sessions, bag=bag)
        g_exact = float(pmf @ np.arange(pmf.size))
        buf = np.empty(max(sizes, default=0))

        def bare(sz: list[int] = sizes) -> None:
            for k in sz:
                rng.random(out=buf[:k])

        t_rng = min_time(bare, repeat)
        t_rs = min_time(lambda: bare(sizes_s), repeat)
        nb_res: dict[str, np.ndarray] = {}
        t_nb = t_ns = t_nl = t_nls = float("nan")
        if nb_cycles is not None and nb_legacy is not None:
            outs = tuple(np.zeros(n_vec, np.int64) for _ in range(3))
            nb_cycles(nb_rng, 10, *tabs, *outs)  # compile outside the timing
            nb_legacy(0, 10, *tabs, *outs)
            t_nb = min_time(lambda: nb_cycles(nb_rng, n_vec, *tabs, *outs), repeat)
            t_ns = min_time(lambda: nb_cycles(nb_rng, n_study, *tabs, *outs), repeat)
            t_nl = min_time(lambda: nb_legacy(0, n_vec, *tabs, *outs), repeat)
            t_nls = min_time(lambda: nb_legacy(0, n_study, *tabs, *outs), repeat)
            nb_cycles(nb_rng, n_vec, *tabs, *outs)
            nb_res = dict(zip(("god_chances", "sr_drawn", "characters_owned"), outs))
        tps = {"a": n_vec / t_vec, "b": n_ref / t_pl, "b2": n_ref2 / t_ref, "b3": 4 * n_ref / t_cyc,
               "c": n_vec / t_rng}
        print(f"\nworkload {label}: {len(sessions)} sessions, {pulls} pulls per trial; "
              f"(a) draws {sum(sizes) / n_vec:.1f} uniforms per trial")
        print(f"(a)  vectorized run_schedule           : {n_vec:>9,d} trials {t_vec:7.3f} s "
              f"{tps['a']:13,.0f} trials/s {tps['a'] * pulls:15,.0f} pulls/s")
        print(f"(a)  vectorized, study chunk           : {n_study:>9,d} trials {t_vs:7.3f} s "
              f"{n_study / t_vs:13,.0f} trials/s")
        print(f"(b)  plain Python, random module       : {n_ref:>9,d} trials {t_pl:7.3f} s "
              f"{tps['b']:13,.0f} trials/s {tps['b'] * pulls:15,.0f} pulls/s")
        print(f"(b2) plain Python, numpy scalar draws  : {n_ref2:>9,d} trials {t_ref:7.3f} s "
              f"{tps['b2']:13,.0f} trials/s {tps['b2'] * pulls:15,.0f} pulls/s")
        print(f"(b3) random module, per-bag algorithm  : {4 * n_ref:>9,d} trials {t_cyc:7.3f} s "
              f"{tps['b3']:13,.0f} trials/s")
        print(f"(b4) per-bag source, plain Python      : {n_src:>9,d} trials {t_src:7.3f} s "
              f"{n_src / t_src:13,.0f} trials/s")
        if nb_cycles is not None:
            print(f"(d)  same source, numba, PCG64         : {n_vec:>9,d} trials {t_nb:7.3f} s "
                  f"{n_vec / t_nb:13,.0f} trials/s")
            print(f"(d)  numba, PCG64, study chunk         : {n_study:>9,d} trials {t_ns:7.3f} s "
                  f"{n_study / t_ns:13,.0f} trials/s")
            print(f"(d2) numba, np.random.random (MT19937) : {n_vec:>9,d} trials {t_nl:7.3f} s "
                  f"{n_vec / t_nl:13,.0f} trials/s")
            print(f"(d2) numba, MT19937, study chunk       : {n_study:>9,d} trials {t_nls:7.3f} s "
                  f"{n_study / t_nls:13,.0f} trials/s")
        print(f"(c)  bare numpy draws of (a)           : {n_vec:>9,d} trials {t_rng:7.3f} s "
              f"{tps['c']:13,.0f} trials/s")
        print(f"(c)  bare numpy draws, study chunk     : {n_study:>9,d} trials {t_rs:7.3f} s "
              f"{n_study / t_rs:13,.0f} trials/s")
        print(f"check: mean God Chances (a) {g_vec.mean():.4f} +- {g_vec.std() / np.sqrt(g_vec.size):.4f}, "
              f"(b) {g_pl.mean():.3f} +- {g_pl.std() / np.sqrt(g_pl.size):.3f}, exact {g_exact:.4f}")
        for key, res in nb_res.items():
            v = r_vec[key]
            print(f"check: mean {key} (a) {v.mean():.4f}, (d) {res.mean():.4f}, "
                  f"difference {res.mean() - v.mean():+.4f} +- {np.sqrt((v.var() + res.var()) / v.size):.4f}")
        print(f"speedup (a) / (b)  random-module plain Python : {tps['a'] / tps['b']:8.1f}x  (target >= 100x)")
        print(f"speedup (a) / (b2) numpy-scalar reference     : {tps['a'] / tps['b2']:8.1f}x")
        print(f"speedup (a) / (b3) same algorithm, plain      : {tps['a'] / tps['b3']:8.1f}x")
        print(f"(a) time / (c) bare draws time                : {t_vec / t_rng:8.2f}x  (target <= 3x)")
        print(f"study chunk: (a) time / (c) bare time         : {t_vs / t_rs:8.2f}x")
        if nb_cycles is not None:
            print(f"(a) time / (d) numba time                     : {t_vec / t_nb:8.2f}x  (target <= 2x)")
            print(f"study chunk: (a) time / (d) numba time        : {t_vs / t_ns:8.2f}x")
            print(f"(a) time / (d2) numba MT19937 time            : {t_vec / t_nl:8.2f}x, study chunk "
                  f"{t_vs / t_nls:.2f}x")


if __name__ == "__main__":
    main()
