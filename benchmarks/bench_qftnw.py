"""Benchmark of the Quest for the New World simulator: vectorized vs plain Python and numba, in one run.

Run ``python benchmarks/bench_qftnw.py [--quick]`` (numba comes with the benchmark extra:
``pip install -e ".[test,bench]"``; without it the numba row says so and the rest runs). The
headline workload is the study's default setting (``scenarios/qftnw_editions.toml``): the original
edition, both seats ``uniform`` (each bid uniform over the legal hand cards; a bankrupt's type named
by "most held"). On it the script times

(a) the vectorized lockstep simulator :func:`gamesim.games.qftnw.sim.run_games` at the study's
    chunk size (``chunk_size = 10000`` in the scenario) and at a large chunk (``CHUNK_SIZE`` =
    100,000; finished games leave the active set);
(b) the plain-Python one-game-at-a-time loop of
    :func:`gamesim.games.qftnw.reference.reference_game` (a ``deque`` deck, lists, the scalar
    rules core, per-round conservation checks off) with every random number from the ``random``
    module (``random.random`` for the bids, ``random.shuffle`` for the deck): what a competent
    Python programmer would write; the speed-up's baseline;
(b2) the package's reference :func:`gamesim.games.qftnw.reference.reference_simulate` as it is
    (the same loop drawing numpy uniforms in blocks of 256 and one ``Generator.permutation`` per
    game);
(c0) :data:`SOURCE`, a scalar loop of the same rules written for a compiler (the deck a ring
    buffer, holdings one flat list, the win conditions one pass over the types), run as plain
    Python with ``random.random``;
(c) the *same source* compiled with ``numba.njit`` (lists become numba lists, uniforms from
    numba's ``np.random.random``); compile time is excluded (a warm-up call first): the limit a
    compiled scalar loop reaches;
(d) bare random numbers: ``Generator.random`` producing as many uniforms as the scalar loop drew
    (a Fisher-Yates shuffle of the 35 cards and one uniform per seat and round), the floor of any
    sampler;

and prints games per second and the ratios (a)/(b) (target >= 50x), (a)/(c) (goal >= 0.5: within
2x of the compiled loop) and (a)/(d), all measured in this one run. The scalar loops shuffle by
Fisher-Yates where the simulator sorts uniform keys: the same game in distribution, checked by
comparing the mean game length (rounds) of (a) and (c) in standard errors.

A second workload, the Spa edition under 上級ルール with ``greedy`` against ``cautious``
(state-dependent bids from the policies' tables), times (a), (b) and (b2) only.

Times are CPU seconds of this process (``time.process_time``; every timed path is
single-threaded), best of 5 runs (of 1 with ``--quick``).
"""

from __future__ import annotations

import argparse
from functools import partial
import platform
import random

import numpy as np

from gamesim.games.qftnw.policies import make_policy
from gamesim.games.qftnw.reference import reference_game, reference_simulate
from gamesim.games.qftnw.rules import QftnwParams, edition_params
from gamesim.games.qftnw.sim import CHUNK_SIZE, run_games

from _timing import best_cpu, build_scalar  # benchmarks/ is on sys.path when run as a script

#: The study's chunk size (``chunk_size`` of ``scenarios/qftnw_editions.toml``).
STUDY_CHUNK = 10_000

WORKLOADS = (
    ("original, uniform vs uniform", dict(edition="original"), ("uniform", "uniform")),
    ("spa + 上級ルール, greedy vs cautious", dict(edition="spa", advanced=True), ("greedy", "cautious")),
)

#: One scalar game loop (both seats ``uniform``, naming "most held"), run as plain Python and under numba.
SOURCE = '''
def cond_of(hold, s, T, kind, long_s, short_s, straight3):
    for t in range(T):
        if hold[s * T + t] >= kind:
            return 1
    run = 0
    for t in range(T):
        if hold[s * T + t] > 0:
            run += 1
            if run >= long_s:
                return 2
        else:
            run = 0
    if straight3 == 1:
        o = 1 - s
        run = 0
        for t in range(T):
            if hold[s * T + t] > 0 and hold[o * T + t] == 0:
                run += 1
                if run >= short_s:
                    return 3
            else:
                run = 0
    return 0


def play_games(n_games, T, C, start_funds, reset_funds, fund_cap, gain, tie_each, discard_all, straight3,
               kind, long_s, short_s, max_rounds, advanced, rounds_out, winner_out):
    draws = 0
    N = T * C
    deck = [0] * N
    hold = [0] * (2 * T)
    for g in range(n_games):
        for i in range(N):
            deck[i] = i // C
        for i in range(N - 1, 0, -1):
            j = int(rnd() * (i + 1))
            draws += 1
            x = deck[i]
            deck[i] = deck[j]
            deck[j] = x
        for i in range(2 * T):
            hold[i] = 0
        hold[deck[0]] += 1
        hold[T + deck[1]] += 1
        head = 2 % N
        cnt = N - 2
        f0 = start_funds
        f1 = start_funds
        lock0 = 0
        lock1 = 0
        rounds = 0
        winner = -1
        while rounds < max_rounds and cnt > 0:
            flip = deck[head]
            head = (head + 1) % N
            cnt -= 1
            if advanced == 1 and lock0 > 0:
                a = int(rnd() * 4) + 1
                if a >= lock0:
                    a += 1
            else:
                a = int(rnd() * 5) + 1
            if advanced == 1 and lock1 > 0:
                b = int(rnd() * 4) + 1
                if b >= lock1:
                    b += 1
            else:
                b = int(rnd() * 5) + 1
            draws += 2
            g0 = f0
            g1 = f1
            if a == b:
                w = -1
                if tie_each == 1:
                    g0 = max(f0 - 1, 1)
                    g1 = max(f1 - 1, 1)
                elif f0 != 1 or f1 != 1:
                    g0 = f0 - 1
                    g1 = f1 - 1
            else:
                if a == 1 and b == 5:
                    w = 0
                elif a == 5 and b == 1:
                    w = 1
                else:
                    w = 0 if a > b else 1
                d = a - b if a > b else b - a
                hi = 0 if a > b else 1
                if d == 1:
                    if hi == w:
                        if hi == 0:
                            g0 = min(g0 + gain, fund_cap)
                        else:
                            g1 = min(g1 + gain, fund_cap)
                elif hi == 0:
                    g0 -= d
                else:
                    g1 -= d
            bankrupt = 0 if g0 <= 0 else (1 if g1 <= 0 else -1)
            if bankrupt >= 0:
                g0 = reset_funds
                g1 = reset_funds
                best = 0
                bt = -1
                for t in range(T):
                    if hold[bankrupt * T + t] > best:
                        best = hold[bankrupt * T + t]
                        bt = t
                if bt >= 0:
                    hold[bankrupt * T + bt] = 0
                    k = best
                    if discard_all == 0:
                        hold[(1 - bankrupt) * T + bt] += best - 1
                        k = 1
                    for i in range(k):
                        deck[(head + cnt) % N] = bt
                        cnt += 1
            if w >= 0:
                hold[w * T + flip] += 1
            else:
                deck[(head + cnt) % N] = flip
                cnt += 1
            c0 = cond_of(hold, 0, T, kind, long_s, short_s, straight3)
            c1 = cond_of(hold, 1, T, kind, long_s, short_s, straight3)
            if c0 > 0 and c1 > 0:
                winner = 1 - bankrupt if bankrupt >= 0 else (w if w >= 0 else 0)
            elif c0 > 0:
                winner = 0
            elif c1 > 0:
                winner = 1
            if advanced == 1 and w >= 0:
                lock0 = a
                lock1 = b
            else:
                lock0 = 0
                lock1 = 0
            f0 = g0
            f1 = g1
            rounds += 1
            if winner >= 0:
                break
        rounds_out[g] = rounds
        winner_out[g] = winner
    return draws
'''


#: ``build(numba=...)``: ``play_games`` of :data:`SOURCE`, plain Python or numba-compiled.
build = partial(build_scalar, SOURCE, helpers=("cond_of",))


def scalar_args(p: QftnwParams) -> tuple:
    """The rules as the scalar loop's integer arguments (after ``n_games``, before the outputs)."""
    return (p.n_types, p.n_copies, p.start_funds, p.reset_funds, p.fund_cap, p.gain, int(p.tie_floor == "each"),
            int(p.transfer == "discard_all"), int(p.straight3), p.n_of_a_kind, p.long_straight, p.short_straight,
            p.max_rounds, int(p.advanced))


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




def _mean_se(x: np.ndarray) -> tuple[float, float]:
    x = np.asarray(x, dtype=float)
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(x.size))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--games", type=int, default=None, help="vectorized and numba games per workload")
    ap.add_argument("--ref-games", type=int, default=None, help="plain-Python games per workload")
    args = ap.parse_args(argv)
    n_vec = args.games or (5_000 if args.quick else 200_000)
    n_ref = args.ref_games or (100 if args.quick else 5_000)
    repeat = 1 if args.quick else 5
    rng = np.random.default_rng(20261121)
    try:
        import numba
        nb_version = numba.__version__
    except ImportError:
        nb_version = "not installed"
    print(f"qftnw benchmark: whole games, default rules (35 cards, funds 5, cap 6, max 2000 rounds); "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"numba {nb_version}; CPU time, best of {repeat}")
    for wi, (label, kw, pols) in enumerate(WORKLOADS):
        p = edition_params(kw["edition"], advanced=kw.get("advanced", False))
        run_games(p, pols, 200, rng=rng)  # warm caches (policy tables) outside the timing
        rows: list[tuple[str, int, float]] = []
        vec_rounds: dict[int, np.ndarray] = {}
        chunks = (STUDY_CHUNK, CHUNK_SIZE) if wi == 0 else (CHUNK_SIZE,)
        for chunk in chunks:
            def vec(chunk: int = chunk) -> None:
                vec_rounds[chunk] = run_games(p, pols, n_vec, rng=rng, chunk_size=chunk)["rounds"]

            rows.append((f"(a) vectorized, chunk {chunk:,}", n_vec, best_cpu(vec, repeat)))

        def plain() -> None:
            plain_games(p, pols, n_ref, seed=int(rng.integers(2**32)))

        rows.append(("(b) plain Python (random module)", n_ref, best_cpu(plain, repeat)))
        rows.append(("(b2) plain Python, numpy reference", n_ref,
                     best_cpu(lambda: reference_simulate(n_ref, params=p, policies=pols, rng=rng, check=False), 1)))
        print(f"[{label}]")
        if wi == 0:
            sargs = scalar_args(p)
            py = build(numba=False)
            r_py, w_py = [0] * n_ref, [0] * n_ref
            random.seed(int(rng.integers(2**32)))
            draws = [0]

            def plain_src() -> None:
                draws[0] = py(n_ref, *sargs, r_py, w_py)

            rows.append(("(c0) same source as (c), plain Python", n_ref, best_cpu(plain_src, repeat)))
            per_game = draws[0] / n_ref
            try:
                nbf = build(numba=True)
            except ImportError:
                print("  (c) numba not installed (pip install -e '.[bench]')")
                nbf = None
            if nbf is not None:
                r_nb, w_nb = np.zeros(n_vec, np.int64), np.zeros(n_vec, np.int64)
                nbf(10, *sargs, r_nb[:10], w_nb[:10])  # compile outside the timing

                def compiled() -> None:
                    draws[0] = nbf(n_vec, *sargs, r_nb, w_nb)

                rows.append(("(c) numba, same source", n_vec, best_cpu(compiled, repeat)))
                per_game = draws[0] / n_vec
                (m_a, se_a), (m_c, se_c) = _mean_se(vec_rounds[CHUNK_SIZE]), _mean_se(r_nb)
                print(f"  same game? mean rounds: vectorized {m_a:.3f} +- {se_a:.3f}, numba {m_c:.3f} +- {se_c:.3f}, "
                      f"difference {(m_a - m_c) / np.hypot(se_a, se_c):+.1f} standard errors; "
                      f"plain source {np.mean(r_py):.2f}; {per_game:.1f} uniforms/game")
            gen = np.random.default_rng(3)
            n_u = int(round(per_game * n_vec))
            rows.append((f"(d) bare Generator.random, {per_game:.1f} per game", n_vec,
                         best_cpu(lambda: gen.random(n_u), repeat)))
        for name, n, t in rows:
            print(f"  {name:42s}: {n:>9,d} games  CPU {t:8.3f} s  {n / t:12,.0f} games/s")
        rate = {name: n / t for name, n, t in rows}
        for name in [r[0] for r in rows if r[0].startswith("(a)")]:
            for other in ("(b) plain Python (random module)", "(b2) plain Python, numpy reference",
                          "(c) numba, same source") + tuple(r[0] for r in rows if r[0].startswith("(d)")):
                if other in rate:
                    print(f"  speedup {name} / {other:42s}: {rate[name] / rate[other]:8.3g}x")


if __name__ == "__main__":
    main()
