"""Benchmark of whole ぱんつぁーへくせん games: vectorized vs the same algorithm in plain Python and numba.

Run ``python benchmarks/bench_panzer_hexen.py [--quick] [--chunk N]`` (numba comes with the benchmark extra:
``pip install -e ".[test,bench]"``). Workload: whole games of three ``random`` players on the
built-in ILLUSTRATIVE cards with the declared open procedures (mixed decks, all collide-and-act,
bonuses, 通信 take_charge, unexecuted events), the same algorithm on every side:

(a) the vectorized engine, :func:`gamesim.games.panzer_hexen.sim.simulate` (chunks of games in
    lockstep, one seat and one action at a time);
(b) a plain-Python loop, one game at a time over the card tables as Python lists, drawing from the
    ``random`` module (set-up shuffles by Fisher-Yates);
(c) the *same source* as (b) compiled with ``numba.njit`` (tables as numpy arrays, uniforms from
    numba's ``np.random.random``): the limit a compiled scalar loop reaches;
(d) bare random numbers: ``Generator.random`` producing as many uniforms as (b) consumed, the
    floor of any sampler.

Times are CPU seconds of this process (``time.process_time``), best of 5 runs (of 1 with
``--quick``); all sides single-threaded. ``--chunk`` sets the engine's games in lockstep (default
``CHUNK_SIZE``, the built-in study's chunk; ``--chunk 10000``: all games in one chunk). The scalar
loop draws its set-up by Fisher-Yates where the engine sorts uniform keys: the same game in
distribution, checked below by comparing mean lengths.
"""

from __future__ import annotations

import argparse
from functools import partial
import platform
import random

import numpy as np

from gamesim.games.panzer_hexen.data import load_cards
from gamesim.games.panzer_hexen.engine import tables_for
from gamesim.games.panzer_hexen.rules import PanzerParams
from gamesim.games.panzer_hexen.sim import CHUNK_SIZE, simulate

from _timing import best_cpu, build_scalar, positive_int  # benchmarks/ is on sys.path when run as a script

#: One scalar game loop (random players), executed twice: as plain Python and under numba.
SOURCE = '''
def cost_of(s, c, p_cost, p_owner, counters, eff):
    o = p_owner[c]
    if o == s:
        cc = p_cost[c] - counters[c]
    elif o >= 0:
        cc = p_cost[c] + 1
    else:
        cc = p_cost[c]
    cc -= eff[s * 6 + 5]
    return cc if cc > 0 else 0


def best_equip(s, kind, p_loc, p_by, broken, p_kind, p_att, p_def, NP):
    best = -1
    score = -1
    for c in range(NP):
        if p_loc[c] == 2 and p_by[c] == s and broken[c] == 0 and p_kind[c] == kind:
            v = p_att[c] + p_def[c]
            if v > score:
                best = c
                score = v
    return best


def draw_card(d, deck, dptr, dlen, L):
    if dptr[d] >= dlen[d]:
        d = 1 - d
    if dptr[d] >= dlen[d]:
        return -1
    c = deck[d * L + dptr[d]]
    dptr[d] += 1
    return c


def play_games(n_games, P, NW, NN, NP, w_att, w_def, w_rng, w_prio, w_abil, n_att, n_def, n_rng, n_vp,
               p_cost, p_vp, p_kind, p_att, p_def, p_eff, start_voice, start_mana, start_neuroi, start_charge,
               start_open, start_counters, counter_gain, max_counters, end_cards, max_rounds, rounds_out):
    draws = 0
    L = NN + NP
    for g in range(n_games):
        wp = [0] * NW
        for i in range(NW):
            wp[i] = i
        for i in range(NW - 1, 0, -1):
            j = int(rnd() * (i + 1))
            draws += 1
            wp[i], wp[j] = wp[j], wp[i]
        np_ = [0] * NN
        for i in range(NN):
            np_[i] = i
        for i in range(NN - 1, 0, -1):
            j = int(rnd() * (i + 1))
            draws += 1
            np_[i], np_[j] = np_[j], np_[i]
        pp = [0] * NP
        for i in range(NP):
            pp[i] = i
        for i in range(NP - 1, 0, -1):
            j = int(rnd() * (i + 1))
            draws += 1
            pp[i], pp[j] = pp[j], pp[i]
        wit = [0] * P
        voice = [start_voice] * P
        mana = [start_mana] * P
        tired = [0] * P
        eff = [0] * (P * 6)
        for s in range(P):
            wit[s] = wp[s]
        n_loc = [0] * NN
        n_by = [-1] * NN
        p_loc = [0] * NP
        p_owner = [-1] * NP
        p_by = [-1] * NP
        counters = [0] * NP
        broken = [0] * NP
        kn = P * start_neuroi
        for i in range(kn):
            n_loc[np_[i]] = 1
        kc = P * start_charge
        for i in range(kc):
            c = pp[i]
            p_loc[c] = 1
            p_owner[c] = i // start_charge
            counters[c] = start_counters
        for i in range(kc, kc + start_open):
            p_loc[pp[i]] = 1
        rest = [0] * L
        R = 0
        for i in range(kn, NN):
            rest[R] = np_[i]
            R += 1
        for i in range(kc + start_open, NP):
            rest[R] = NN + pp[i]
            R += 1
        for i in range(R - 1, 0, -1):
            j = int(rnd() * (i + 1))
            draws += 1
            rest[i], rest[j] = rest[j], rest[i]
        deck = [0] * (2 * L)
        dptr = [0, 0]
        dlen = [0, 0]
        for i in range(R):
            d = i % 2
            deck[d * L + dlen[d]] = rest[i]
            dlen[d] += 1
        order = [0] * P
        for s in range(P):
            order[s] = s
        for i in range(1, P):  # insertion sort, higher 優先順値 first
            j = i
            while j > 0 and w_prio[wit[order[j]]] > w_prio[wit[order[j - 1]]]:
                order[j], order[j - 1] = order[j - 1], order[j]
                j -= 1
        choice = [0] * P
        rounds = 0
        for rr in range(max_rounds):
            for s in range(P):
                choice[s] = int(rnd() * 6)
                draws += 1
            lap = -1
            done = [0] * 6
            for a in range(6):
                first = 1
                for r in range(P):
                    s = order[r]
                    if choice[s] != a:
                        continue
                    bonus = first if (a == 1 or a == 3 or a == 4 or a == 5) else 0
                    abil = w_abil[wit[s]]
                    if a == 0:
                        cnt = 0
                        for c in range(NP):
                            if p_loc[c] == 1 and cost_of(s, c, p_cost, p_owner, counters, eff) <= voice[s]:
                                cnt += 1
                        u = rnd()
                        draws += 1
                        if cnt == 0:
                            voice[s] += 1
                        else:
                            k = int(u * cnt)
                            if k > cnt - 1:
                                k = cnt - 1
                            for c in range(NP):
                                if p_loc[c] == 1 and cost_of(s, c, p_cost, p_owner, counters, eff) <= voice[s]:
                                    if k == 0:
                                        voice[s] -= cost_of(s, c, p_cost, p_owner, counters, eff)
                                        o = p_owner[c]
                                        if o >= 0 and o != s:
                                            voice[o] += counters[c]
                                        p_loc[c] = 2
                                        p_by[c] = s
                                        counters[c] = 0
                                        broken[c] = 0
                                        eff[s * 6 + p_eff[c]] += 1
                                        break
                                    k -= 1
                    elif a == 1:
                        was = tired[s]
                        if was == 1 or bonus == 1:
                            tired[s] = 0
                        if was == 0 or bonus == 1:
                            for c in range(NP):
                                if p_by[c] == s:
                                    broken[c] = 0
                    elif a == 2:
                        if tired[s] == 0:
                            cnt = 1
                            for i in range(NN):
                                if n_loc[i] == 1:
                                    cnt += 1
                            k = int(rnd() * cnt)
                            draws += 1
                            if k > cnt - 1:
                                k = cnt - 1
                            if k == 0:
                                mana[s] += 1 + (1 if abil == 1 else 0)
                            else:
                                n = -1
                                for i in range(NN):
                                    if n_loc[i] == 1:
                                        k -= 1
                                        if k == 0:
                                            n = i
                                            break
                                st = best_equip(s, 0, p_loc, p_by, broken, p_kind, p_att, p_def, NP)
                                gn = best_equip(s, 1, p_loc, p_by, broken, p_kind, p_att, p_def, NP)
                                at = w_att[wit[s]] + eff[s * 6 + 3]
                                de = w_def[wit[s]] + eff[s * 6 + 4]
                                if st >= 0:
                                    at += p_att[st]
                                    de += p_def[st]
                                    broken[st] = 1
                                if gn >= 0:
                                    at += p_att[gn]
                                    de += p_def[gn]
                                    broken[gn] = 1
                                rg = w_rng[wit[s]]
                                ev = abil == 3
                                ta = n_def[n] - at if n_def[n] > at else 0
                                td = 0
                                if rg <= n_rng[n] and not ev and n_att[n] - de + 1 > 0:
                                    td = n_att[n] - de + 1
                                if ta + td <= mana[s]:
                                    mana[s] -= ta + td
                                    at += ta
                                    de += td
                                wh = at >= n_def[n]
                                nh = n_att[n] >= de and not ev
                                if rg > n_rng[n]:
                                    dd = wh
                                    hh = nh and not wh
                                elif rg < n_rng[n]:
                                    hh = nh
                                    dd = wh and not nh
                                else:
                                    dd = wh
                                    hh = nh
                                if dd:
                                    n_loc[n] = 2
                                    n_by[n] = s
                                if hh:
                                    tired[s] = 1
                    elif a == 3:
                        if tired[s] == 0:
                            mana[s] += 2 + bonus + eff[s * 6 + 2] + (1 if abil == 1 else 0)
                    elif a == 4:
                        voice[s] += 2 + bonus + eff[s * 6 + 1] + (1 if abil == 2 else 0)
                    else:
                        ne = 0
                        for d2 in range(2):
                            if dptr[d2] < dlen[d2]:
                                ne += 1
                        u = rnd()
                        draws += 1
                        d = 0
                        if ne == 2:
                            d = 1 if u >= 0.5 else 0
                        elif dptr[1] < dlen[1]:
                            d = 1
                        rev = 0
                        neu = 0
                        for j in range(3 if bonus == 1 else 2):
                            c = draw_card(d, deck, dptr, dlen, L)
                            if c < 0:
                                continue
                            rev += 1
                            if c < NN:
                                neu += 1
                                n_loc[c] = 1
                            else:
                                p_loc[c - NN] = 1
                                p_owner[c - NN] = s
                                counters[c - NN] = start_counters
                        if rev > 0 and rev == neu and tired[s] == 0:
                            mana[s] += 2 + (1 if abil == 1 else 0)
                    first = 0
                    lap = s
                    done[a] = 1
            if done[1] == 0:
                best = -1
                score = -1
                for c in range(NP):
                    if p_by[c] == lap and broken[c] == 1 and p_att[c] + p_def[c] > score:
                        best = c
                        score = p_att[c] + p_def[c]
                if best >= 0:
                    broken[best] = 0
            if done[5] == 0:
                ne = 0
                for d2 in range(2):
                    if dptr[d2] < dlen[d2]:
                        ne += 1
                u = rnd()
                draws += 1
                d = 0
                if ne == 2:
                    d = 1 if u >= 0.5 else 0
                elif dptr[1] < dlen[1]:
                    d = 1
                k = 0
                for j in range(P - 1):
                    c = draw_card(d, deck, dptr, dlen, L)
                    if c < 0:
                        continue
                    if c >= NN:
                        p_loc[c - NN] = 1
                        continue
                    n_loc[c] = 1
                    k += 1
                    v = (lap + k) % P
                    if tired[v] == 1:
                        continue
                    need = 0
                    if w_abil[wit[v]] != 3:
                        need = n_att[c] - (w_def[wit[v]] + eff[v * 6 + 4]) + 1
                    if need > 0:
                        if need <= mana[v]:
                            mana[v] -= need
                        else:
                            tired[v] = 1
            for c in range(NP):
                if p_loc[c] == 1 and p_owner[c] >= 0:
                    counters[c] = counters[c] + counter_gain
                    if counters[c] > max_counters:
                        counters[c] = max_counters
            rounds += 1
            over = False
            for s in range(P):
                cnt = 0
                for c in range(NP):
                    if p_by[c] == s:
                        cnt += 1
                for i in range(NN):
                    if n_by[i] == s:
                        cnt += 1
                if cnt >= end_cards:
                    over = True
            if over:
                break
        rounds_out[g] = rounds
    return draws
'''


def _args(p: PanzerParams, as_list: bool) -> tuple:
    t = tables_for(load_cards())
    conv = (lambda a: [int(x) for x in a]) if as_list else (lambda a: np.ascontiguousarray(a, dtype=np.int64))
    tabs = [conv(getattr(t, k)) for k in ("w_att", "w_def", "w_rng", "w_prio", "w_abil", "n_att", "n_def", "n_rng",
                                          "n_vp", "p_cost", "p_vp", "p_kind", "p_att", "p_def", "p_eff")]
    return (p.n_players, t.w_att.size, t.n_neuroi, t.n_policies, *tabs, p.start_voice, p.start_mana,
            p.start_neuroi, p.start_charge, p.start_open, p.start_counters, p.counter_gain, p.max_counters,
            p.end_cards, p.max_rounds)


#: ``build(numba=...)``: ``play_games`` of :data:`SOURCE`, plain Python or numba-compiled.
build = partial(build_scalar, SOURCE, helpers=("cost_of", "best_equip", "draw_card"))




def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload, one run each")
    ap.add_argument("--chunk", type=positive_int, default=CHUNK_SIZE, help=f"games in lockstep (default {CHUNK_SIZE})")
    a = ap.parse_args(argv)
    n = 2_000 if a.quick else 10_000
    n_py = 200 if a.quick else 1_000
    repeat = 1 if a.quick else 5
    p = PanzerParams(n_players=3)
    print(f"panzer_hexen, {n} games (plain Python: {n_py}) of 3 random players, chunks of {a.chunk}; "
          f"{platform.processor() or platform.machine()}; CPU time, best of {repeat}")
    res: dict = {}
    t_vec = best_cpu(lambda: res.__setitem__("vec", simulate(p, n, rng=1, policies="random", chunk_size=a.chunk)),
                     repeat)
    py = build(numba=False)
    rounds_py = [0] * n_py
    random.seed(1)
    holder: dict = {}
    t_py = best_cpu(lambda: holder.__setitem__("draws", py(n_py, *_args(p, True), rounds_py)), repeat) * n / n_py
    draws = holder["draws"] * n / n_py
    rows = [("vectorized (numpy)", t_vec), ("plain Python + random (scaled)", t_py)]
    try:
        nbf = build(numba=True)
        rounds_nb = np.zeros(n, np.int64)
        args = _args(p, False)
        nbf(10, *args, np.zeros(10, np.int64))  # compile
        t_nb = best_cpu(lambda: nbf(n, *args, rounds_nb), repeat)
        rows.append(("numba (same source)", t_nb))
        print(f"mean rounds: vectorized {res['vec']['rounds'].mean():.2f}, plain {np.mean(rounds_py):.2f}, "
              f"numba {rounds_nb.mean():.2f}")
    except ImportError:
        print(f"numba not installed (pip install -e '.[test,bench]'); mean rounds: vectorized "
              f"{res['vec']['rounds'].mean():.2f}, plain {np.mean(rounds_py):.2f}")
    g = np.random.default_rng(1)
    rows.append(("bare Generator.random, as many uniforms", best_cpu(lambda: g.random(int(draws)), repeat)))
    for name, t in rows:
        print(f"  {name:42s} {t:8.3f} s CPU   {n / t:12,.0f} games/s")


if __name__ == "__main__":
    main()
