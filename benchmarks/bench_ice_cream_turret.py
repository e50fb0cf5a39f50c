"""Benchmark of the Ice Cream Turret simulator: vectorized vs plain Python and numba, in one run.

Run ``python benchmarks/bench_ice_cream_turret.py [--quick]`` (numba comes with the benchmark
extra: ``pip install -e ".[test,bench]"``; without it the numba row says so and the rest runs).
For each policy (greedy, random and the study's one-card lookahead player) it times

(a) the vectorized lockstep simulator :func:`gamesim.games.ice_cream_turret.sim.run_games`
    (finished games leave the batch) at the study's chunk size (``chunk_size = 2000`` in
    ``scenarios/ice_cream_turret.toml``) and at a large chunk (``CHUNK_SIZE`` = 20,000);
(b) a plain-Python loop, one game at a time: :func:`gamesim.games.ice_cream_turret.reference.reference_game`
    (tuples and lists, the scalar rules core) driven by the ``random`` module
    (``random.Random(seed).random``): the baseline of the target;
(b2) the package's reference :func:`gamesim.games.ice_cream_turret.reference.reference_simulate`
    as it is: the same loop with one numpy scalar ``Generator.random()`` call per draw;

and, for the greedy policy (the ``game`` task's default player and the headline figure; the
study's lookahead parts are not compiled here),

(c0) :data:`SOURCE`, a scalar loop of the same rules and the same greedy player written for a
    compiler (flat lists for the board, the deck counts and the three candidate placements; the
    29 clearing windows, the windows through each cell and the 8-neighbourhoods as integer
    tables), run as plain Python with ``random.random``;
(c) the *same source* compiled with ``numba.njit`` (uniforms from numba's ``np.random.random``),
    compile time excluded (a warm-up call first): the limit a compiled scalar loop reaches;
(d) bare random numbers: ``Generator.random`` producing as many uniforms as the scalar loop drew
    (one per card drawn and one per tie-break), the floor of any sampler.

It prints games per second and the ratios (a)/(b) (target >= 50x for greedy), (a)/(b2),
(a)/(c) (goal >= 0.5: within 2x of the compiled loop) and (a)/(d), all measured in this one
run. Times are CPU seconds of this process (``time.process_time``; every timed path is
single-threaded, the kernels use no BLAS), best of 5 runs (of 1 with ``--quick``). The rules are
the rulebook defaults (normal mode; crush ice does not cascade; the extended-play win is
immediate; the deck runs out on the empty draw). All sides find the first wave of a placement on
the windows through the placed card only (the board was stable before it). The vectorized
player breaks ties with three uniforms per game and step, the scalar loop with one: the same
game in distribution, checked by comparing the mean cards placed and the win rate of (a) and
(c) in standard errors.
"""

from __future__ import annotations

import argparse
from functools import partial
import platform
import random

import numpy as np

from gamesim.games.ice_cream_turret.kernels import tables
from gamesim.games.ice_cream_turret.reference import reference_game, reference_simulate
from gamesim.games.ice_cream_turret.rules import NEIGHBOURS, WINDOWS, WINDOWS_THROUGH, IceCreamParams
from gamesim.games.ice_cream_turret.sim import CHUNK_SIZE, run_games

from _timing import best_cpu, build_scalar  # benchmarks/ is on sys.path when run as a script

#: The study's chunk size (``chunk_size`` of ``scenarios/ice_cream_turret.toml``).
STUDY_CHUNK = 2_000

#: One scalar game loop (normal mode, the greedy player), run as plain Python and under numba.
SOURCE = '''
def win_kind(b, o, w, win_cells, win_len):
    L = win_len[w]
    lo = 99
    hi = 0
    bits = 0
    first = b[o + win_cells[w * 5]]
    eq = 1
    for k in range(L):
        v = b[o + win_cells[w * 5 + k]]
        if v == 0 or v == 10:
            return 0
        if v != first:
            eq = 0
        if v < lo:
            lo = v
        if v > hi:
            hi = v
        bits |= 1 << v
    if eq == 1:
        return 1
    if hi - lo == L - 1 and bits == ((1 << L) - 1) << lo:
        return 2
    return 0


def resolve(b, o, pos, rem, ro, gone, win_cells, win_len, n_win, thru, n_thru, neigh, n_neigh, cascade):
    for v in range(11):
        rem[ro + v] = 0
    any_clear = 0
    for k in range(n_thru[pos]):
        if win_kind(b, o, thru[pos * 16 + k], win_cells, win_len) > 0:
            any_clear = 1
            break
    if any_clear == 0:
        return 0
    waves = 0
    while True:
        for i in range(15):
            gone[i] = 0
        found = 0
        for w in range(n_win):
            if win_kind(b, o, w, win_cells, win_len) > 0:
                found = 1
                for k in range(win_len[w]):
                    gone[win_cells[w * 5 + k]] = 1
        if found == 0:
            break
        waves += 1
        for i in range(15):
            if b[o + i] == 10 and gone[i] == 0:
                for k in range(n_neigh[i]):
                    if gone[neigh[i * 8 + k]] == 1:
                        gone[i] = 2
                        break
        grew = cascade
        while grew == 1:
            grew = 0
            for i in range(15):
                if b[o + i] == 10 and gone[i] == 0:
                    for k in range(n_neigh[i]):
                        if gone[neigh[i * 8 + k]] == 2:
                            gone[i] = 3
                            grew = 1
                            break
            for i in range(15):
                if gone[i] == 3:
                    gone[i] = 2
        for i in range(15):
            if gone[i] > 0:
                rem[ro + b[o + i]] += 1
                b[o + i] = 0
        for c in range(3):
            r = 0
            for r0 in range(5):
                v = b[o + r0 * 3 + c]
                if v != 0:
                    b[o + r * 3 + c] = v
                    r += 1
            for r1 in range(r, 5):
                b[o + r1 * 3 + c] = 0
    return waves


def draw_card(deck, u):
    total = 0
    for v in range(11):
        total += deck[v]
    r = int(u * total)
    for v in range(11):
        if r < deck[v]:
            deck[v] -= 1
            return v
        r -= deck[v]
    return -1


def play_games(n_games, add, n_add, strip_crush, n_cycles, max_placements, cascade, win_cells, win_len, n_win, thru,
               n_thru, neigh, n_neigh, placed_out, status_out, cycle_out):
    draws = 0
    board = [0] * 15
    cand = [0] * 45
    crem = [0] * 33
    keys = [0.0] * 3
    gone = [0] * 15
    deck = [0] * 11
    disc = [0] * 11
    for g in range(n_games):
        for i in range(15):
            board[i] = 0
        for v in range(11):
            deck[v] = add[11 + v]
            disc[v] = 0
        cycle = 1
        placed = 0
        status = 0
        card = draw_card(deck, rnd())
        draws += 1
        while status == 0:
            best = -1e300
            for c in range(3):
                h = 0
                while h < 5 and board[h * 3 + c] != 0:
                    h += 1
                if h >= 5:
                    keys[c] = -1e300
                    continue
                o = c * 15
                for i in range(15):
                    cand[o + i] = board[i]
                cand[o + h * 3 + c] = card
                resolve(cand, o, h * 3 + c, crem, c * 11, gone, win_cells, win_len, n_win, thru, n_thru, neigh,
                        n_neigh, cascade)
                if cand[o + 12] != 0 or cand[o + 13] != 0 or cand[o + 14] != 0:
                    keys[c] = -1e6
                else:
                    nrem = 0
                    for v in range(11):
                        nrem += crem[c * 11 + v]
                    hmax = 0
                    for cc in range(3):
                        hh = 0
                        while hh < 5 and cand[o + hh * 3 + cc] != 0:
                            hh += 1
                        if hh > hmax:
                            hmax = hh
                    keys[c] = 100.0 * nrem - 10.0 * hmax - h
                if keys[c] > best:
                    best = keys[c]
            tol = best - 1e-9 * max(1.0, abs(best))
            nt = 0
            for c in range(3):
                if keys[c] >= tol:
                    nt += 1
            k = int(rnd() * nt)
            draws += 1
            col = 0
            for c in range(3):
                if keys[c] >= tol:
                    if k == 0:
                        col = c
                        break
                    k -= 1
            for i in range(15):
                board[i] = cand[col * 15 + i]
            for v in range(11):
                disc[v] += crem[col * 11 + v]
            placed += 1
            crush = 0
            for i in range(15):
                if board[i] == 10:
                    crush = 1
            if board[12] != 0 or board[13] != 0 or board[14] != 0:
                status = 2
            elif cycle > n_cycles and crush == 0:
                status = 1
            else:
                left = 0
                for v in range(11):
                    left += deck[v]
                if left == 0:
                    if cycle >= n_cycles and crush == 0:
                        status = 1
                    else:
                        nxt = min(cycle + 1, n_add - 1)
                        for v in range(11):
                            deck[v] = disc[v] + add[nxt * 11 + v]
                            disc[v] = 0
                        if strip_crush[nxt] == 1:
                            deck[10] = 0
                        for v in range(11):
                            left += deck[v]
                        cycle += 1
                        if left == 0:
                            status = 4
                if status == 0 and placed >= max_placements:
                    status = 3
                if status == 0:
                    card = draw_card(deck, rnd())
                    draws += 1
        placed_out[g] = placed
        status_out[g] = status
        cycle_out[g] = cycle
    return draws
'''


#: ``build(numba=...)``: ``play_games`` of :data:`SOURCE`, plain Python or numba-compiled.
build = partial(build_scalar, SOURCE, helpers=("win_kind", "resolve", "draw_card"))


def scalar_args(p: IceCreamParams, *, as_list: bool) -> tuple:
    """The rules and the board geometry as the scalar loop's arguments (after ``n_games``, before the outputs)."""
    if p.mode != "normal" or p.extra_win != "immediate" or p.deck_out != "empty_draw":
        raise ValueError("the scalar loop plays the normal game with the default readings only")
    t = tables(p)
    win_cells = np.zeros((len(WINDOWS), 5), np.int64)
    for w, cells in enumerate(WINDOWS):
        win_cells[w, :len(cells)] = cells
    win_len = np.array([len(c) for c in WINDOWS], np.int64)
    thru = np.zeros((15, 16), np.int64)
    n_thru = np.array([len(x) for x in WINDOWS_THROUGH], np.int64)
    for i, ws in enumerate(WINDOWS_THROUGH):
        thru[i, :len(ws)] = ws
    neigh = np.zeros((15, 8), np.int64)
    n_neigh = np.array([len(x) for x in NEIGHBOURS], np.int64)
    for i, ns in enumerate(NEIGHBOURS):
        neigh[i, :len(ns)] = ns
    conv = (lambda a: [int(x) for x in np.ravel(a)]) if as_list else (lambda a: np.ascontiguousarray(np.ravel(a), np.int64))
    return (conv(t.add), t.add.shape[0], conv(t.strip_crush), p.n_cycles, p.max_placements, int(p.crush_cascade),
            conv(win_cells), conv(win_len), len(WINDOWS), conv(thru), conv(n_thru), conv(neigh), conv(n_neigh))




def _z(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """Means of ``a`` and ``b`` and their difference in standard errors."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    se = np.hypot(a.std(ddof=1) / np.sqrt(a.size), b.std(ddof=1) / np.sqrt(b.size))
    return float(a.mean()), float(b.mean()), float((a.mean() - b.mean()) / se) if se > 0 else 0.0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--games", type=int, default=None, help="vectorized and numba games (greedy; x4 for random, x0.05 for lookahead)")
    ap.add_argument("--ref-games", type=int, default=None, help="plain-Python games (greedy; x4 for random, x0.05 for lookahead)")
    ap.add_argument("--policy", choices=("greedy", "random", "lookahead"), action="append",
                    help="time this policy only (repeatable; default all three)")
    args = ap.parse_args(argv)
    n_vec = args.games or (2_000 if args.quick else 40_000)
    n_ref = args.ref_games or (20 if args.quick else 400)
    repeat = 1 if args.quick else 5
    p = IceCreamParams()
    rng = np.random.default_rng(20261122)
    pyrng = random.Random(20261122)
    try:
        import numba
        nb_version = numba.__version__
    except ImportError:
        nb_version = "not installed"
    print(f"ice_cream_turret benchmark: whole normal games, default deck; "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"numba {nb_version}; CPU time, best of {repeat}")
    for policy, scale in (("greedy", 1), ("random", 4), ("lookahead", 0.05)):
        if args.policy and policy not in args.policy:
            continue
        run_games(p, policy, 200, rng=rng)  # warm caches (kernel tables) outside the timing
        nv, nr = max(1, int(n_vec * scale)), max(1, int(n_ref * scale))
        rows: list[tuple[str, int, float]] = []
        vec_out: dict[int, dict] = {}
        for chunk in (STUDY_CHUNK, CHUNK_SIZE):
            def vec(chunk: int = chunk) -> None:
                vec_out[chunk] = run_games(p, policy, nv, rng=rng, chunk_size=chunk)

            rows.append((f"(a) vectorized, chunk {chunk:,}", nv, best_cpu(vec, repeat)))

        def ref() -> None:
            for _ in range(nr):
                reference_game(p, policy, pyrng.random)

        rows.append(("(b) plain Python loop, random module", nr, best_cpu(ref, repeat)))
        rows.append(("(b2) numpy-scalar reference", nr, best_cpu(lambda: reference_simulate(p, policy, nr, rng=rng), 1)))
        print(f"[{policy}]  mean {vec_out[CHUNK_SIZE]['placed'].mean():.1f} cards placed/game, "
              f"won {vec_out[CHUNK_SIZE]['won'].mean():.3f} (vectorized)")
        if policy == "greedy":
            draws = [0]
            py = build(numba=False)
            o_py = ([0] * nr, [0] * nr, [0] * nr)
            random.seed(int(rng.integers(2**32)))

            def plain_src() -> None:
                draws[0] = py(nr, *scalar_args(p, as_list=True), *o_py)

            rows.append(("(c0) same source as (c), plain Python", nr, best_cpu(plain_src, repeat)))
            per_game = draws[0] / nr
            try:
                nbf = build(numba=True)
            except ImportError:
                print("  (c) numba not installed (pip install -e '.[bench]')")
                nbf = None
            if nbf is not None:
                sargs = scalar_args(p, as_list=False)
                o_nb = tuple(np.zeros(nv, np.int64) for _ in range(3))
                nbf(10, *sargs, *(o[:10] for o in o_nb))  # compile outside the timing

                def compiled() -> None:
                    draws[0] = nbf(nv, *sargs, *o_nb)

                rows.append(("(c) numba, same source", nv, best_cpu(compiled, repeat)))
                per_game = draws[0] / nv
                a = vec_out[CHUNK_SIZE]
                m1, m2, z1 = _z(a["placed"], o_nb[0])
                w1, w2, z2 = _z(a["won"], o_nb[1] == 1)
                print(f"  same game? mean cards placed: vectorized {m1:.2f}, numba {m2:.2f} ({z1:+.1f} standard "
                      f"errors); win rate {w1:.4f} vs {w2:.4f} ({z2:+.1f} s.e.); plain source {np.mean(o_py[0]):.1f} "
                      f"placed; {per_game:.1f} uniforms/game")
            gen = np.random.default_rng(3)
            n_u = int(round(per_game * nv))
            rows.append((f"(d) bare Generator.random, {per_game:.1f} per game", nv,
                         best_cpu(lambda: gen.random(n_u), repeat)))
        for name, n, t in rows:
            print(f"  {name:42s}: {n:>9,d} games  CPU {t:8.3f} s  {n / t:12,.1f} games/s")
        rate = {name: n / t for name, n, t in rows}
        for name in [r[0] for r in rows if r[0].startswith("(a)")]:
            for other in [r[0] for r in rows if r[0][:3] in ("(b)", "(b2", "(c)", "(d)")]:
                print(f"  speedup {name} / {other:42s}: {rate[name] / rate[other]:8.3g}x")


if __name__ == "__main__":
    main()
