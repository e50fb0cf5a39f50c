"""Benchmark of the Mech Arena 2013 duel engine: vectorized vs the same algorithm in plain Python and numba.

Run ``python benchmarks/bench_mech_arena.py [--quick] [--chunk N]`` (numba comes with the benchmark extra:
``pip install -e ".[test,bench]"``). Workload: whole duels of two random players over all 42 ordered
matchups of the seven mechs (declared base rules), the same table-driven algorithm on every side:

(a) the vectorized engine, :func:`gamesim.games.mech_arena.sim.simulate_ids` (chunks of
    ``CHUNK_SIZE`` games in lockstep, or ``--chunk``; one gather per table field);
(b) a plain-Python loop, one game and one die at a time, over the same compiled weapon tables
    (flattened to Python lists), drawing from the ``random`` module;
(c) the *same source* as (b) compiled with ``numba.njit`` (tables as numpy arrays, dice from
    numba's ``np.random.random``): the limit a compiled scalar loop reaches;
(d) bare random numbers: ``Generator.random`` producing as many uniforms as (b) consumed, the
    floor of any sampler.

Times are CPU seconds of this process (``time.process_time``), best of 5 runs (of 1 with
``--quick``); all sides are single-threaded. The scalar loop rolls each die separately where the
engine draws a binomial: the same game in distribution, checked below by comparing mean lengths.
"""

from __future__ import annotations

import argparse
import platform
import random

import numpy as np

from gamesim.games.mech_arena.data import MAX_STEPS, load_weapons
from gamesim.games.mech_arena.policies import RandomPolicy
from gamesim.games.mech_arena.rules import MechParams
from gamesim.games.mech_arena.sim import CHUNK_SIZE, simulate_ids, tables_for

from _timing import best_cpu, positive_int  # benchmarks/ is on sys.path when run as a script

_FIELDS = ("melee", "armour", "hp", "stun", "set_distance", "move", "ki", "protect")

#: One scalar duel loop, executed twice: as plain Python (lists, ``random``) and under numba.
SOURCE = '''
def play_games(n_games, ma, mb, first, n_act, n_slots, act_i, st_i, eff, S, NF, NMKS, NMK,
               start_armour, start_hp, start_ki, max_ki, max_d, start_d, max_turns, counter_dice, q1, q2,
               no_repeat, strip_skip, reset, turns_out):
    draws = 0
    for g in range(n_games):
        mech0 = ma[g]
        mech1 = mb[g]
        d = start_d
        arm = [start_armour, start_armour]
        hp = [start_hp, start_hp]
        ki = [start_ki, start_ki]
        last = [-1, -1]
        prev = [-1, -1]
        skip = [0, 0]
        skst = [0, 0]
        stl = [0, 0]
        prot = [0, 0]
        strip = [0, 0]
        heat = [0] * 16
        turn = 0
        me = first[g]
        winner = -1
        while winner < 0 and turn < max_turns:
            op = 1 - me
            prot[me] = 0
            if strip[me] == 1:
                arm[me] = start_armour
                strip[me] = 0
            if skip[me] == 1:
                stl[me] = skst[me]
                skip[me] = 0
                skst[me] = 0
                prev[me] = -1
            else:
                m = mech0 if me == 0 else mech1
                cnt = 0
                for k in range(n_act[m]):
                    a = (m * 16 + k) * 12
                    if ((no_repeat == 0 or act_i[a] != last[me]) and ki[me] >= act_i[a + 3]
                            and act_i[a + 4] <= d and d <= act_i[a + 5] and heat[me * 8 + act_i[a]] == 0):
                        cnt += 1
                if cnt > 0:
                    r = int(_rand() * cnt)
                    draws += 1
                    kk = -1
                    for k in range(n_act[m]):
                        a = (m * 16 + k) * 12
                        if ((no_repeat == 0 or act_i[a] != last[me]) and ki[me] >= act_i[a + 3]
                                and act_i[a + 4] <= d and d <= act_i[a + 5] and heat[me * 8 + act_i[a]] == 0):
                            if r == 0:
                                kk = k
                                break
                            r -= 1
                    a = (m * 16 + kk) * 12
                    slot = act_i[a]
                    ki[me] = min(ki[me] - act_i[a + 3] + act_i[a + 2], max_ki)
                    d = min(max(d + act_i[a + 6], 0), max_d)
                    combo = act_i[a + 9] >= 0 and prev[me] == act_i[a + 9]
                    nd = act_i[a + 8]
                    if combo and act_i[a + 11] > 0:
                        nd = act_i[a + 11]
                    counter = not (act_i[a + 10] == 1 and stl[op] == 1)
                    special = act_i[a + 7] % 4
                    if special == 1:
                        kdice = act_i[a + 1] + 1
                        one = 0
                        hits = 0
                        for i in range(kdice):
                            face = int(_rand() * 6) + 1
                            draws += 1
                            if face == 1:
                                one = 1
                            elif face >= 4:
                                hits += 1
                        if one == 1:
                            if hp[me] == 1:
                                arm[me] = 1
                            else:
                                hp[me] -= 1
                        elif prot[op] == 0 and hits > 0 and arm[op] > 0:
                            arm[op] = max(arm[op] - hits, 0)
                            if arm[op] == 0:
                                if strip_skip == 1:
                                    skip[op] = 1
                                if reset == 1:
                                    strip[op] = 1
                    elif special == 2:
                        nh = 0
                        for i in range(8):
                            nh += heat[me * 8 + i]
                            heat[me * 8 + i] = 0
                        if d <= 1 and prot[op] == 0:
                            hits = 0
                            for i in range(nh):
                                if _rand() < 0.5:
                                    hits += 1
                                draws += 1
                            if hits > 0 and arm[op] > 0:
                                arm[op] = max(arm[op] - hits, 0)
                                if arm[op] == 0:
                                    if strip_skip == 1:
                                        skip[op] = 1
                                    if reset == 1:
                                        strip[op] = 1
                    for j in range(S):
                        s = ((m * 16 + kk) * S + j) * 5
                        if st_i[s] == 0 or d < st_i[s + 1] or d > st_i[s + 2]:
                            continue
                        lvl = st_i[s + 3]
                        if combo and act_i[a + 7] >= 4 and lvl > 0:
                            lvl = act_i[a + 7] // 4
                        q = 1.0
                        if lvl == 1:
                            q = q1
                        elif lvl == 2:
                            q = q2
                        any_hit = 0
                        for rep in range(st_i[s + 4] + 1):
                            which = 2 if rep == st_i[s + 4] else -1
                            if which == -1:
                                if q >= 1.0:
                                    hit = 1
                                else:
                                    hit = 1 if _rand() < q else 0
                                    draws += 1
                                if hit == 1:
                                    any_hit = 1
                                which = 0 if hit == 1 else 1
                            elif any_hit == 0:
                                continue
                            e = (which * NF * NMK + m * 16 + kk) * S + j
                            if eff[e] == 1:
                                # 格闘: the HP-damage check, then the counter-attack
                                if prot[op] == 0:
                                    succ = 0
                                    six = 0
                                    for i in range(nd):
                                        face = int(_rand() * 6) + 1
                                        draws += 1
                                        if face >= 4:
                                            succ += 1
                                        if face == 6:
                                            six = 1
                                    if (hp_any_six == 1 and six == 1) or (hp_any_six == 0 and succ > arm[op]):
                                        hp[op] -= 1
                                if counter and hp[op] > 0 and counter_dice > 0:
                                    c = 0
                                    for i in range(counter_dice):
                                        if _rand() < 0.5:
                                            c += 1
                                        draws += 1
                                    if c > 0 and arm[me] > 0:
                                        arm[me] = max(arm[me] - c, 0)
                                        if arm[me] == 0:
                                            if strip_skip == 1:
                                                skip[me] = 1
                                            if reset == 1:
                                                strip[me] = 1
                            if prot[op] == 0:
                                dmg = eff[e + NMKS]
                                if dmg > 0 and arm[op] > 0:
                                    arm[op] = max(arm[op] - dmg, 0)
                                    if arm[op] == 0:
                                        if strip_skip == 1:
                                            skip[op] = 1
                                        if reset == 1:
                                            strip[op] = 1
                                hp[op] -= eff[e + 2 * NMKS]
                            if eff[e + 3 * NMKS] == 1:
                                skip[op] = 1
                                skst[op] = 1
                            sd = eff[e + 4 * NMKS]
                            if sd >= 0:
                                d = min(sd, max_d)
                            d = min(max(d + eff[e + 5 * NMKS], 0), max_d)
                            ki[me] = min(ki[me] + eff[e + 6 * NMKS], max_ki)
                            if eff[e + 7 * NMKS] == 1:
                                prot[me] = 1
                    if heat_flag[m * 16 + kk] == 1:
                        heat[me * 8 + slot] = 1
                    last[me] = slot
                    prev[me] = slot
                    stl[me] = 0
                    if hp[op] <= 0:
                        winner = me
            turn += 1
            me = 1 - me
        turns_out[g] = turn
    return draws
'''


def _flatten(p: MechParams):  # type: ignore[no-untyped-def]
    """The engine's compiled tables as flat integer sequences (fixed strides: 16 actions, 8 slots)."""
    t = tables_for(load_weapons())
    nm, kk = t.slot.shape
    assert kk <= 16 and int(t.n_slots.max()) <= 8
    act = np.zeros((nm, 16, 12), np.int64)
    act[:, :kk, 0], act[:, :kk, 1], act[:, :kk, 2], act[:, :kk, 3] = t.slot, t.opt, t.ki_gain, t.ki_cost
    act[:, :kk, 4], act[:, :kk, 5], act[:, :kk, 6] = t.min_d, np.minimum(t.max_d, 99), t.move
    # special in the low 2 bits, combo check level above them
    act[:, :kk, 7] = t.special + 4 * t.combo_check
    act[:, :kk, 8], act[:, :kk, 9], act[:, :kk, 10], act[:, :kk, 11] = (t.melee_dice, t.combo_after, t.no_counter,
                                                                      t.combo_melee)
    st = np.zeros((nm, 16, MAX_STEPS, 5), np.int64)
    st[:, :kk, :, 0], st[:, :kk, :, 1], st[:, :kk, :, 2] = t.step_on, t.step_lo, np.minimum(t.step_hi, 99)
    st[:, :kk, :, 3], st[:, :kk, :, 4] = t.step_check, t.step_times
    eff = np.zeros((3, len(_FIELDS), nm, 16, MAX_STEPS), np.int64)
    for w in range(3):
        for f, name in enumerate(_FIELDS):
            eff[w, f, :, :kk, :] = t.eff[w][name]
    # the any_hit effect lives at "which = 2"; fields are strided by NMKS
    heat = np.zeros((nm, 16), np.int64)
    heat[:, :kk] = t.heat
    nmk = nm * 16
    return dict(n_act=t.n_actions.astype(np.int64), n_slots=t.n_slots.astype(np.int64), act_i=act.ravel(),
                st_i=st.ravel(), eff=eff.ravel(), heat_flag=heat.ravel(), S=MAX_STEPS, NF=len(_FIELDS),
                NMKS=nmk * MAX_STEPS, NMK=nmk, nm=nm)


def _scalar_args(p: MechParams, tabs: dict, ma, mb, first, turns_out, as_list: bool):  # type: ignore[no-untyped-def]
    conv = (lambda a: a.tolist()) if as_list else (lambda a: a)
    q1, q2 = ((0.5, 0.75) if p.check_reading == "n_dice" else (1 / 3, 0.5))
    return (len(ma), conv(ma), conv(mb), conv(first), conv(tabs["n_act"]), conv(tabs["n_slots"]), conv(tabs["act_i"]),
            conv(tabs["st_i"]), conv(tabs["eff"]), tabs["S"], tabs["NF"], tabs["NMKS"], tabs["NMK"],
            p.start_armour, p.start_hp, p.start_ki, p.max_ki, p.max_distance, p.start_distance, p.max_turns,
            p.counter_dice, q1, q2, int(p.no_repeat), int(p.strip_skip), int(p.armour_on_strip == "reset"),
            turns_out)


def build(p: MechParams, tabs: dict, *, numba: bool):  # type: ignore[no-untyped-def]
    """``play_games`` from :data:`SOURCE`: plain Python with ``random``, or numba-compiled."""
    ns: dict = {"min": min, "max": max, "int": int, "range": range,
                "heat_flag": tabs["heat_flag"] if numba else tabs["heat_flag"].tolist(),
                "hp_any_six": int(p.hp_check == "any_six")}
    if numba:
        import numba as nb

        @nb.njit(cache=False)
        def _rand() -> float:
            return np.random.random()

        ns["_rand"] = _rand
        ns["np"] = np
        exec(SOURCE, ns)  # noqa: S102 - our own source, compiled twice
        return nb.njit(ns["play_games"])
    ns["_rand"] = random.random
    exec(SOURCE, ns)  # noqa: S102
    return ns["play_games"]




def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload, one run each")
    ap.add_argument("--chunk", type=positive_int, default=CHUNK_SIZE,
                    help=f"games in lockstep in the vectorized engine (default {CHUNK_SIZE}, the study's chunk)")
    args = ap.parse_args(argv)
    rounds_vec, rounds_py, rounds_nb = (100, 5, 100) if args.quick else (500, 25, 500)
    repeat = 1 if args.quick else 5
    p = MechParams()
    tabs = _flatten(p)
    nm = tabs["nm"]
    a, b = np.meshgrid(np.arange(nm), np.arange(nm), indexing="ij")
    pa, pb = a[a != b].astype(np.int64), b[a != b].astype(np.int64)
    t = tables_for(load_weapons())
    pol = (RandomPolicy(), RandomPolicy())
    print(f"mech_arena benchmark: random players, all {pa.size} ordered matchups per round, declared base rules; "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"chunk {args.chunk}; CPU time, best of {repeat}")
    res: dict[str, tuple[int, float, float]] = {}

    n = rounds_vec * pa.size
    ma, mb = np.tile(pa, rounds_vec), np.tile(pb, rounds_vec)
    turns_vec: list[float] = []

    def vec() -> None:
        r = simulate_ids(p, ma, mb, rng=np.random.default_rng(1), tables=t, policies=pol, chunk_size=args.chunk)
        turns_vec.append(float(r["turns"].mean()))

    res["(a) vectorized engine"] = (n, best_cpu(vec, repeat), turns_vec[-1])

    draws: list[int] = []
    for label, rounds, use_numba in (("(b) plain Python, random module", rounds_py, False),
                                     ("(c) numba-compiled scalar loop", rounds_nb, True)):
        try:
            fn = build(p, tabs, numba=use_numba)
        except ImportError:
            print(f"  {label}: numba not installed (pip install -e '.[bench]')")
            continue
        nn = rounds * pa.size
        ma2, mb2 = np.tile(pa, rounds), np.tile(pb, rounds)
        first = np.random.default_rng(2).integers(0, 2, nn)
        turns = np.zeros(nn, np.int64)
        if use_numba:
            fn(*_scalar_args(p, tabs, ma2[:42], mb2[:42], first[:42], turns[:42], False))  # compile outside timing
            out = turns
        else:
            out = [0] * nn

        def run() -> None:
            draws.append(fn(*_scalar_args(p, tabs, ma2, mb2, first, out, not use_numba)))

        cpu = best_cpu(run, repeat)
        res[label] = (nn, cpu, float(np.mean(out)))
        if not use_numba:
            per_game_draws = draws[-1] / nn
    n_bare = int(per_game_draws * n)
    gen = np.random.default_rng(3)
    res["(d) bare uniforms (same count as (b) per game)"] = (n, best_cpu(lambda: gen.random(n_bare), repeat), float("nan"))
    for label, (nn, cpu, turns) in res.items():
        extra = f"  mean length {turns:5.1f} turns" if np.isfinite(turns) else ""
        print(f"  {label:<48s}: {nn:>9,d} games  CPU {cpu:8.3f} s {nn / cpu:12,.0f} games/s{extra}")
    base = res["(a) vectorized engine"]
    for label, (nn, cpu, _) in res.items():
        if label != "(a) vectorized engine":
            print(f"  vectorized / {label:<48s}: {(base[0] / base[1]) / (nn / cpu):8.3f}x")


if __name__ == "__main__":
    main()
