"""Benchmark of the 神の怒り simulator: vectorized numpy vs plain Python vs numba, one algorithm.

Run ``python benchmarks/bench_kami_no_ikari.py [--quick] [--chunk N]`` (numba comes with the ``[bench]``
extra: ``pip install -e ".[test,bench]"``). Workload: whole 4-player games on the built-in board,
every seat greedy (the rulebook readings' defaults). It times, in CPU seconds of this process
(``time.process_time``), best of 5 (1 with ``--quick``):

(a) the vectorized simulator :func:`gamesim.games.kami_no_ikari.sim.simulate` (chunks of 20,000
    games in lockstep; ``--chunk 3000``: the built-in study's chunk);
(b) a plain-Python loop, one game at a time: :func:`gamesim.games.kami_no_ikari.reference.reference_game`
    (the pure rules core on tuples) driven by the ``random`` module (``random.Random(seed).random``);
(c) a numba-compiled scalar loop of the same algorithm (deal, draw, greedy choice with random
    ties, 摩天 counter, road by the hand, collapse, deck out), written below over small integer
    arrays with numba's own generator: the limit to approach;
(d) the bare random numbers: numpy generating the uniforms a game consumes (about 60: the deal,
    the draws and the players' tie-breaks), the floor of any Monte Carlo of this game.

The three engines play the same rules with the same players; their mean game lengths are
printed next to the timings as a check that they did the same work.
"""

from __future__ import annotations

import argparse
import platform
import random

import numpy as np

from gamesim.games.kami_no_ikari.reference import reference_game
from gamesim.games.kami_no_ikari.rules import HEIGHT_POINTS, SET_BONUS, KamiParams
from gamesim.games.kami_no_ikari.sim import CHUNK_SIZE, simulate

from _timing import best_cpu, positive_int  # benchmarks/ is on sys.path when run as a script

try:
    import numba
    from numba import njit
except ImportError:  # pragma: no cover - the [bench] extra is optional
    numba = None




def _numba_kernel():  # type: ignore[no-untyped-def]
    """Compile the scalar numba game loop (greedy players, default readings)."""
    SET = np.array(SET_BONUS, np.int64)

    @njit(cache=False)
    def draw(counts: np.ndarray) -> int:
        n = counts.sum()
        u = int(np.random.random() * n)
        for v in range(5):
            if u < counts[v]:
                return v
            u -= counts[v]
        return 4

    @njit(cache=False)
    def value(hand: np.ndarray, heights: np.ndarray, mate: int, smoke: int, pts: np.ndarray) -> int:
        v = -3 * smoke
        for t in range(5):
            c = hand[t]
            v += SET[min(c, 5)] + c * pts[heights[t], 1 if t == mate else 0]
        return v

    @njit(cache=False)
    def play(n_games: int, ends: np.ndarray, P: int, pts: np.ndarray, seed: int) -> float:
        np.random.seed(seed)
        L = ends.shape[0]
        M = L + 1
        hands = np.zeros((P, 5), np.int64)
        deck = np.zeros(5, np.int64)
        heights = np.zeros(5, np.int64)
        workers = np.zeros(P, np.int64)
        smoke = np.zeros(P, np.int64)
        total_turns = 0
        for _ in range(n_games):
            deck[:] = 9
            hands[:, :] = 0
            heights[:] = 0
            workers[:] = -1
            smoke[:] = 0
            mate, ra, rb = -1, -1, -1
            for _k in range(5):
                for s in range(P):
                    v = draw(deck)
                    deck[v] -= 1
                    hands[s, v] += 1
            me = 0
            turns = 0
            while deck.sum() > 0:
                v = draw(deck)
                deck[v] -= 1
                hands[me, v] += 1
                best = -10**9
                n_best = 0
                best_a = -1
                for j in range(M):
                    if j == L:
                        if ra < 0:
                            continue
                        a, b = ra, rb
                    else:
                        a, b = ends[j, 0], ends[j, 1]
                    if workers[me] == j:
                        continue
                    occupied = False
                    for q in range(P):
                        if q != me and workers[q] == j:
                            occupied = True
                    if occupied:
                        continue
                    for d in range(2):
                        card = a if d == 0 else b
                        tower = b if d == 0 else a
                        if hands[me, card] == 0:
                            continue
                        hands[me, card] -= 1
                        heights[tower] += 1
                        m = tower if (mate < 0 and heights[tower] == 3) else mate
                        val = value(hands[me], heights, m, smoke[me], pts)
                        hands[me, card] += 1
                        heights[tower] -= 1
                        if val > best:
                            best, n_best, best_a = val, 1, 2 * j + d
                        elif val == best:
                            n_best += 1
                            if np.random.random() * n_best < 1.0:
                                best_a = 2 * j + d
                for c in range(5):  # the smoking room (chosen or forced)
                    if hands[me, c] == 0:
                        continue
                    hands[me, c] -= 1
                    val = value(hands[me], heights, mate, smoke[me] + 1, pts)
                    hands[me, c] += 1
                    if val > best:
                        best, n_best, best_a = val, 1, 2 * M + c
                    elif val == best:
                        n_best += 1
                        if np.random.random() * n_best < 1.0:
                            best_a = 2 * M + c
                turns += 1
                if best_a >= 2 * M:
                    hands[me, best_a - 2 * M] -= 1
                    smoke[me] += 1
                    workers[me] = -2
                else:
                    j, d = best_a // 2, best_a % 2
                    if j == L:
                        a, b = ra, rb
                    else:
                        a, b = ends[j, 0], ends[j, 1]
                    card = a if d == 0 else b
                    tower = b if d == 0 else a
                    hands[me, card] -= 1
                    heights[tower] += 1
                    workers[me] = j
                    if mate < 0 and heights[tower] == 3:
                        mate = tower
                        rk, nk, bx, by = -1, 0, 0, 1
                        for x in range(5):   # the road: the pair held most (ties at random); hand after the move
                            for y in range(x + 1, 5):
                                k = hands[me, x] + hands[me, y] + (1 if x == card else 0) + (1 if y == card else 0)
                                if k > rk:
                                    rk, nk, bx, by = k, 1, x, y
                                elif k == rk:
                                    nk += 1
                                    if np.random.random() * nk < 1.0:
                                        bx, by = x, y
                        ra, rb = bx, by
                    if heights[tower] >= 5:
                        break
                me = (me + 1) % P
            total_turns += turns
        return total_turns / n_games

    return play


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--chunk", type=positive_int, default=CHUNK_SIZE,
                    help=f"games in lockstep in the vectorized simulator (default {CHUNK_SIZE}; the study's: 3000)")
    args = ap.parse_args(argv)
    n_vec = 4_000 if args.quick else 20_000
    n_ref = 100 if args.quick else 500
    n_nb = 4_000 if args.quick else 100_000
    repeat = 1 if args.quick else 5
    p = KamiParams(n_players=4)
    rng = np.random.default_rng(20261125)
    pyrng = random.Random(20261125)
    print(f"kami_no_ikari benchmark: whole 4-player games, all greedy, built-in board; "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"numba {numba.__version__ if numba else 'not installed'}; chunks of {args.chunk}; CPU time, best of {repeat}")
    simulate(p, 200, rng=rng)  # warm the board cache outside the timing
    turns: dict[str, float] = {}

    def vec() -> None:
        turns["vectorized"] = float(simulate(p, n_vec, rng=rng, chunk_size=args.chunk)["turns"].mean())

    def ref() -> None:
        t = 0
        for _ in range(n_ref):
            t += reference_game(p, ["greedy"] * 4, pyrng.random)["turns"]  # type: ignore[operator]
        turns["plain Python"] = t / n_ref

    rows = [("(a) vectorized numpy", n_vec, best_cpu(vec, repeat)),
            ("(b) plain Python (random)", n_ref, best_cpu(ref, repeat))]
    if numba is not None:
        play = _numba_kernel()
        ends = np.array(p.lines, np.int64)
        pts = np.array([[v, 2 * v] for v in HEIGHT_POINTS], np.int64)
        play(10, ends, 4, pts, 1)  # compile outside the timing

        def nb() -> None:
            turns["numba"] = play(n_nb, ends, 4, pts, 20261125)

        rows.append(("(c) numba scalar loop", n_nb, best_cpu(nb, repeat)))
    rows.append(("(d) bare random numbers (60/game)", n_vec, best_cpu(lambda: rng.random(60 * n_vec), repeat)))
    for name, n, cpu in rows:
        print(f"  {name:34s}: {n:>9,d} games  CPU {cpu:8.3f} s  {n / cpu:12,.0f} games/s")
    print("  mean game length (moves): " + ", ".join(f"{k} {v:.2f}" for k, v in turns.items()))
    rate = {name: n / cpu for name, n, cpu in rows}
    a = rate["(a) vectorized numpy"]
    print(f"  vectorized / plain Python: {a / rate['(b) plain Python (random)']:.1f}x")
    if numba is not None:
        print(f"  numba / vectorized: {rate['(c) numba scalar loop'] / a:.1f}x")


if __name__ == "__main__":
    main()
