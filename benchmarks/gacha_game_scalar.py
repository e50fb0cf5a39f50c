"""Scalar game loop of ガッチャ ~God Chance~ (whole 4-round games), for the benchmark's numba row.

The same rules as :mod:`gamesim.games.gacha_game.reference` (the spec: this file follows it step
by step, in the same order of effects and sessions), written as plain functions over numpy arrays
so that one source runs as plain Python and compiled by ``numba.njit`` (:func:`build`). It is a
benchmark-only extra: the package never imports it or numba.

Recursion: in the reference an effect (``apply``) starts sessions, a session's God Chance fires a
navi Overdrive (``apply`` again) and its SR / N chips fire triggers (``apply`` again), down to
depth 30. Here every pending piece of work is a row of an explicit stack (:data:`T_APPLY`,
:data:`T_SESSION`, :data:`T_ATTACK`, :data:`T_TRIGGER`), pushed in reverse so that popping runs
them in the reference's depth-first order; the immediate state changes (an effect's money, rate, 🐱
and 👣 move when its row is popped, an Overdrive's round-scoped tables when the session that fires
it ends) happen exactly where the reference makes them. When the game ends (コンスリート) the stack
is dropped: every step of the reference returns at once when ``alive`` is false.

State and tables are flat arrays (``st``: int64 state of one game, ``stk``: the stack, ``ti`` /
``tf``: int64 / float64 tables with a header of sizes and offsets), not tuples of arrays: numba
increfs an array each time it is taken out of a tuple, which made a first version spend about 70%
of its time in reference counting (10x slower).

Covered setting (:func:`prepare` refuses others): not expert mode, 疑惑の運営モード off, every
slayer ``greedy_pulls``, navi cards dealt at random; ``boss_use``, ``boss_target``,
``boss_refill`` and the ラストダンス readings follow the config. Chip triggers and round-scoped
effects are whatever the card data says (both on in the study's default).

Randomness: ``rng.random()`` of a numpy ``Generator`` (numba supports it inside compiled code),
one uniform per draw, in the reference's order: fed the same stream as ``reference_game(cfg,
gen.random)``, it plays the identical games (the benchmark checks it).
"""

from __future__ import annotations

import numpy as np

# Icon indices (gamesim.games.gacha_game.data.Icon)
START_SLAYER, MONEY, RATE, BOSS_APPEAR, QUEST, ATTACK, ATTACK_CRITICAL, ATTACK_DOUBLE, PULLS = 0, 1, 2, 3, 4, 5, 6, 7, 8
N_ICONS = 9
# Pull sources (gamesim.games.gacha_game.config.SOURCES)
S_WEEKDAY, S_QUEST, S_BOSS, S_SATURDAY, S_PAID, S_EVENT, S_NAVI, S_OVERDRIVE, S_TRIGGER = 0, 1, 2, 3, 4, 5, 6, 7, 8
N_SOURCES = 9
MAX_DEPTH = 30  # reference._MAX_DEPTH
MAX_SUNDAY = 200  # reference._MAX_SUNDAY
MAX_QUEST_CHAIN = 64  # rules.MAX_QUEST_CHAIN
N_ROUNDS, N_TURNS, HAND_SIZE = 4, 5, 5
# Stack rows: [kind, seat, source, depth, a, b, icons...]
T_APPLY, T_SESSION, T_ATTACK, T_TRIGGER = 0, 1, 2, 3
STACK_ROWS = 8192
STACK_COLS = 6 + N_ICONS


def _offsets(fields):  # type: ignore[no-untyped-def]
    out, o = [], 0
    for _name, n in fields:
        out.append(o)
        o += n
    return out + [o]


# The state of one game: one flat int64 array ``st`` (numba increfs an array each time it is taken
# out of a tuple, so the loop passes a few flat arrays, not a tuple of many). Capacities:
MAXP, MAXC, MAXB, MAXIDS = 4, 16, 32, 64
(ALIVE, ROUND, LAST, EV, RID, SID, START, MADE_GC, GC_DRAWN, NAREA, DECKPOS, DECKLEN, GODCH, CONSOLETE, SP,
 O_INBAG, O_BAGCFG, O_OWNED, O_MONEY, O_RATE, O_QPOS, O_LAPS, O_NAVI, O_OWNER, O_USED, O_FLIP, O_DECK, O_AREA,
 O_AHEALTH, O_PULLS, O_GCSRC, O_TMP, O_HANDS, O_PICONS, O_PBOSS, O_PFIRST, O_PSTART, O_ORDER, O_IDS, O_EVENTS,
 O_CH, O_CNT, O_UR0, N_ST) = _offsets(
    [(s, 1) for s in ("alive", "round", "last", "ev", "rid", "sid", "start", "made_gc", "gc_drawn", "narea",
                      "deckpos", "decklen", "godch", "consolete", "sp")]
    + [("inbag", 3), ("bagcfg", 3), ("owned", MAXP * MAXC), ("money", MAXP), ("rate", MAXP), ("qpos", MAXP),
       ("laps", MAXP), ("navi", MAXP), ("owner", MAXB), ("used", MAXB), ("flip", MAXB), ("deck", MAXB),
       ("area", MAXB), ("ahealth", MAXB), ("pulls", N_SOURCES), ("gcsrc", N_SOURCES), ("tmp", N_ICONS),
       ("hands", MAXP * HAND_SIZE), ("picons", MAXP * N_ICONS), ("pboss", MAXP), ("pfirst", MAXP),
       ("pstart", MAXP), ("order", MAXP), ("ids", MAXIDS), ("events", N_ROUNDS), ("ch", MAXP),
       ("cnt", 3 * MAXP), ("ur0", MAXP)])

# The tables: one int64 array ``ti`` and one float64 array ``tf``; ``ti[0:N_HEAD]`` is a header of
# sizes and flags and of the offsets of each table in ``ti`` / ``tf`` (filled by :func:`prepare`).
(H_P, H_C, H_START_MONEY, H_RATE_LEN, H_HAS_TRIG, H_HAS_BOSS_ROUND, H_BOSS_REFILL, H_BOSS_ONCE, H_TARGET_FIRST,
 H_LD_ZERO, H_LD_CONS, H_NACT, H_NB, H_NNAVI, H_NSQ, H_NDECK, H_NBOTTOM, H_NSD, H_NWK, H_NCL, H_NPAID, H_NH,
 H_NCOLS,
 T_ACT, T_EV_EFF, T_EV_BAG, T_EV_ROUND, T_EV_TRIG, T_EV_TRIGP, T_BH, T_BEFF, T_BFIRST, T_BROUND, T_BBAG, T_BDECK,
 T_BBOTTOM, T_NCHAR, T_NWEEK, T_NOD, T_NROUND, T_NBAG, T_NHASR, T_NTRIG, T_NTRIGP, T_QSTOP, T_QLAP, T_QICONS,
 T_QLAPP, T_RCOLS, T_SAT, T_PPULLS, T_PCOST, T_MINCOST, T_BAG0, T_SD, T_WK, T_CL,
 F_E, F_P, F_TVAL, F_W, N_HEAD) = range(62)


# ---------------------------------------------------------------------------------------------
# helpers (inlined by numba)
# ---------------------------------------------------------------------------------------------

def rand_int(rng, n):
    k = int(rng.random() * n)
    return k if k < n else n - 1


def shuffle(rng, xs, o, n):
    for i in range(n - 1, 0, -1):
        j = rand_int(rng, i + 1)
        t = xs[o + i]
        xs[o + i] = xs[o + j]
        xs[o + j] = t


def set_order(ti, st):
    P = ti[H_P]
    for k in range(P):
        st[O_ORDER + k] = (st[START] + k) % P


def make_bag(st):
    for i in range(3):
        st[O_INBAG + i] = st[O_BAGCFG + i]
    st[MADE_GC] = st[O_BAGCFG]
    st[GC_DRAWN] = 0


def draw_index(rng, st):
    b0 = st[O_INBAG]
    b1 = st[O_INBAG + 1]
    u = rand_int(rng, b0 + b1 + st[O_INBAG + 2])
    if u < b0:
        return 0
    if u < b0 + b1:
        return 1
    return 2


def put_round(ti, st, r, bag):
    """reference._Game.put_round: rate set ti[r], Saturday table ti[r + 1] (-1: unchanged), bag
    ti[bag:bag + 3] (-1 row: unchanged; remade at once if it differs)."""
    if ti[r] >= 0:
        st[RID] = ti[r]
    if ti[r + 1] >= 0:
        st[SID] = ti[r + 1]
    if ti[bag] >= 0 and (ti[bag] != st[O_BAGCFG] or ti[bag + 1] != st[O_BAGCFG + 1]
                         or ti[bag + 2] != st[O_BAGCFG + 2]):
        for i in range(3):
            st[O_BAGCFG + i] = ti[bag + i]
        make_bag(st)


def reveal(ti, st):
    if st[DECKPOS] < st[DECKLEN]:
        b = st[O_DECK + st[DECKPOS]]
        st[DECKPOS] += 1
        n = st[NAREA]
        st[O_AREA + n] = b
        st[O_AHEALTH + n] = ti[ti[T_BH] + b]
        st[NAREA] = n + 1


def target(ti, tf, st, kind):
    """Area slot a greedy_pulls attack of ``kind`` hits (reference._Game.target)."""
    n = st[NAREA]
    if ti[H_TARGET_FIRST] or n == 1:
        return 0
    o = ti[F_TVAL] + kind * ti[H_NH]
    best = 0
    for i in range(n):
        if tf[o + st[O_AHEALTH + i]] > tf[o + st[O_AHEALTH + best]]:
            best = i
    return best


def value(ti, tf, st, arr, o):
    """policies.effect_value of the icons arr[o:o + 9] with the greedy_pulls weights, in the same
    order of float operations."""
    h = 0
    if st[NAREA] > 0:
        h = st[O_AHEALTH + target(ti, tf, st, 0)]
    w = ti[F_W]
    v = (arr[o + PULLS] * tf[w] + arr[o + MONEY] * tf[w + 1] + arr[o + QUEST] * tf[w + 2]
         + arr[o + RATE] * tf[w + 3] + arr[o + BOSS_APPEAR] * tf[w + 4] + arr[o + START_SLAYER] * tf[w + 5])
    for k in range(3):
        c = arr[o + ATTACK + k]
        if c:
            v += c * (tf[w + 6] * tf[ti[F_E] + k * ti[H_NH] + h] + tf[w + 7] * tf[ti[F_P] + k * ti[H_NH] + h])
    return v


def push(stk, st, kind, p, src, depth, a, b):
    sp = st[SP]
    if sp >= STACK_ROWS:
        raise RuntimeError("effect stack overflow")
    stk[sp, 0] = kind
    stk[sp, 1] = p
    stk[sp, 2] = src
    stk[sp, 3] = depth
    stk[sp, 4] = a
    stk[sp, 5] = b
    st[SP] = sp + 1
    return sp


def push_apply(stk, st, p, arr, o, mult, src, depth):
    sp = push(stk, st, T_APPLY, p, src, depth, 0, 0)
    for i in range(N_ICONS):
        stk[sp, 6 + i] = arr[o + i] * mult


def god_chance(ti, st, wf, rng, p, gc):
    """reference._Game.god_chance without its Overdrive: returns the Overdrive count (0 if the game ended)."""
    od = 0
    st[GODCH] += gc
    last = st[LAST]
    C = ti[H_C]
    ow = O_OWNED + p * MAXC
    mine = ti[ti[T_NCHAR] + st[O_NAVI + p]]
    for _ in range(gc):
        card = rand_int(rng, C)
        st[ow + card] = 1
        if last == 0 and card == mine:
            od += 1
        full = True
        for c in range(C):
            if st[ow + c] == 0:
                full = False
                break
        if full and (last == 0 or ti[H_LD_CONS]):
            wf[p] = 1.0
            if last == 0:
                st[CONSOLETE] = st[ROUND] + 1
            st[ALIVE] = 0
            return 0
    return od


def owned_count(ti, st, p):
    n = 0
    for c in range(ti[H_C]):
        n += st[O_OWNED + p * MAXC + c]
    return n


def quest_move(ti, st, p, steps):
    """rules.quest_move on slayer p's chip; moves it and returns (pulls, money, rate)."""
    n = ti[H_NSQ]
    qs, ql, qi, qlp = ti[T_QSTOP], ti[T_QLAP], ti[T_QICONS], ti[T_QLAPP]
    pos = st[O_QPOS + p]
    laps = st[O_LAPS + p]
    pulls = 0
    money = 0
    rate = 0
    move = steps
    for _ in range(MAX_QUEST_CHAIN):
        if move <= 0:
            break
        lap_units = 0
        extra = 0
        for _s in range(move):
            pos = (pos + 1) % n
            laps += ti[ql + pos]
            pulls += ti[qi + pos * N_ICONS + PULLS]
            money += ti[qi + pos * N_ICONS + MONEY]
            rate += ti[qi + pos * N_ICONS + RATE]
            extra += ti[qi + pos * N_ICONS + QUEST]
            lap_units += ti[qlp + pos]
            if ti[qs + pos]:
                break
        pulls += laps * lap_units
        move = extra
    st[O_QPOS + p] = pos
    st[O_LAPS + p] = laps
    return pulls, money, rate


# ---------------------------------------------------------------------------------------------
# the explicit stack: apply / session / attack / trigger, depth first
# ---------------------------------------------------------------------------------------------

def run(ti, tf, st, stk, wf, rng):
    """Pop and run stack rows until the stack is empty (or the game ends: the rest is dropped)."""
    rl = ti[H_RATE_LEN]
    while st[SP] > 0:
        if st[ALIVE] == 0:
            st[SP] = 0
            return
        sp = st[SP] - 1
        st[SP] = sp
        kind = stk[sp, 0]
        p = stk[sp, 1]
        src = stk[sp, 2]
        depth = stk[sp, 3]
        a = stk[sp, 4]
        b = stk[sp, 5]
        if kind == T_APPLY:
            for i in range(N_ICONS):
                st[O_TMP + i] = stk[sp, 6 + i]
            st[O_MONEY + p] += st[O_TMP + MONEY]
            st[O_RATE + p] = min(st[O_RATE + p] + st[O_TMP + RATE], rl)
            for _ in range(st[O_TMP + BOSS_APPEAR]):
                reveal(ti, st)
            nq = st[O_TMP + QUEST]
            qp = 0
            if nq:
                qp, qm, qr = quest_move(ti, st, p, nq)
                st[O_MONEY + p] += qm
                st[O_RATE + p] = min(st[O_RATE + p] + qr, rl)
            # to run in this order: the quest session, the attacks (normal, critical, double), the pulls
            push(stk, st, T_SESSION, p, src, depth, st[O_TMP + PULLS], 0)
            for k in range(2, -1, -1):
                for _ in range(st[O_TMP + ATTACK + k]):
                    push(stk, st, T_ATTACK, p, src, depth, k, 0)
            if nq:
                push(stk, st, T_SESSION, p, S_QUEST, depth, qp, 0)
        elif kind == T_SESSION:
            n = a
            if n <= 0:
                continue
            st[O_PULLS + src] += n
            gc = 0
            sr = 0
            nn = 0
            for _ in range(n):
                if st[O_INBAG] + st[O_INBAG + 1] + st[O_INBAG + 2] == 0:
                    make_bag(st)
                i = draw_index(rng, st)
                st[O_INBAG + i] -= 1
                if i == 0:
                    gc += 1
                    st[GC_DRAWN] += 1
                elif i == 1:
                    sr += 1
                else:
                    nn += 1
            if st[O_INBAG] + st[O_INBAG + 1] + st[O_INBAG + 2] == 0 or st[GC_DRAWN] >= st[MADE_GC]:
                make_bag(st)
            st[O_GCSRC + src] += gc
            od = god_chance(ti, st, wf, rng, p, gc)
            if st[ALIVE] == 0:
                st[SP] = 0
                return
            if ti[H_HAS_TRIG] and depth < MAX_DEPTH and (sr or nn):
                push(stk, st, T_TRIGGER, p, src, depth, sr, nn)  # after the Overdrive, as in the reference
            if od and depth < MAX_DEPTH:
                nv = st[O_NAVI + p]
                if ti[ti[T_NHASR] + nv]:
                    put_round(ti, st, ti[T_NROUND] + 2 * nv, ti[T_NBAG] + 3 * nv)
                push_apply(stk, st, p, ti, ti[T_NOD] + N_ICONS * nv, od, S_OVERDRIVE, depth + 1)
        elif kind == T_ATTACK:
            if st[NAREA] == 0:
                continue
            t = target(ti, tf, st, a)
            roll = 1 + rand_int(rng, 6)
            h = st[O_AHEALTH + t]
            dmg = 2 * roll if a == 2 else roll
            removed = dmg if dmg < h else h
            if a == 1 and roll == 6:
                pl = 6
                cap = True
            else:
                pl = removed
                cap = removed >= h
            st[O_AHEALTH + t] = h - removed
            if cap:
                st[O_OWNER + st[O_AREA + t]] = p
                n = st[NAREA]
                for j in range(t, n - 1):
                    st[O_AREA + j] = st[O_AREA + j + 1]
                    st[O_AHEALTH + j] = st[O_AHEALTH + j + 1]
                st[NAREA] = n - 1
                if n - 1 == 0 and ti[H_BOSS_REFILL]:
                    reveal(ti, st)
            push(stk, st, T_SESSION, p, S_BOSS, depth, pl, 0)
        else:  # T_TRIGGER: the round event's and the navi's on_sr / on_n, as one effect
            any_icon = False
            ev = st[EV]
            nv = st[O_NAVI + p]
            for k in range(N_ICONS):
                v = 0
                for j in range(2):
                    cnt = a if j == 0 else b
                    te = cnt if ti[ti[T_EV_TRIGP] + 2 * ev + j] else (1 if cnt > 0 else 0)
                    tn = cnt if ti[ti[T_NTRIGP] + 2 * nv + j] else (1 if cnt > 0 else 0)
                    v += (te * ti[ti[T_EV_TRIG] + (2 * ev + j) * N_ICONS + k]
                          + tn * ti[ti[T_NTRIG] + (2 * nv + j) * N_ICONS + k])
                st[O_TMP + k] = v
                if v != 0:
                    any_icon = True
            if any_icon:
                push_apply(stk, st, p, st, O_TMP, 1, S_TRIGGER, depth + 1)


def apply_top(ti, tf, st, stk, wf, rng, p, arr, o, src):
    if st[ALIVE] == 0:
        return
    push_apply(stk, st, p, arr, o, 1, src, 0)
    run(ti, tf, st, stk, wf, rng)


def session_top(ti, tf, st, stk, wf, rng, p, n, src):
    if st[ALIVE] == 0 or n <= 0:
        return
    push(stk, st, T_SESSION, p, src, 0, n, 0)
    run(ti, tf, st, stk, wf, rng)


# ---------------------------------------------------------------------------------------------
# phases
# ---------------------------------------------------------------------------------------------

def event_phase(ti, tf, st, stk, wf, rng, ev):
    st[EV] = ev
    st[RID] = ti[ti[T_EV_ROUND] + 2 * ev]
    st[SID] = ti[ti[T_EV_ROUND] + 2 * ev + 1]
    bag = ti[T_EV_BAG] + 3 * ev
    for i in range(3):
        st[O_BAGCFG + i] = ti[bag + i] if ti[bag] >= 0 else ti[ti[T_BAG0] + i]
    if ti[bag] >= 0 or st[ROUND] == 0:
        make_bag(st)
    set_order(ti, st)
    for k in range(ti[H_P]):
        apply_top(ti, tf, st, stk, wf, rng, st[O_ORDER + k], ti, ti[T_EV_EFF] + N_ICONS * ev, S_EVENT)


def weekday_phase(ti, tf, st, stk, wf, rng):
    P = ti[H_P]
    n_act = ti[H_NACT]
    act = ti[T_ACT]
    for i in range(n_act):
        st[O_IDS + i] = i
    shuffle(rng, st, O_IDS, n_act)
    for s in range(P):
        for i in range(HAND_SIZE):
            st[O_HANDS + s * HAND_SIZE + i] = st[O_IDS + s * HAND_SIZE + i]
    set_order(ti, st)
    for k in range(P):
        p = st[O_ORDER + k]
        apply_top(ti, tf, st, stk, wf, rng, p, ti, ti[T_NWEEK] + N_ICONS * st[O_NAVI + p], S_NAVI)
    nb = ti[H_NB]
    beff = ti[T_BEFF]
    for turn in range(N_TURNS):
        if st[ALIVE] == 0:
            return
        for s in range(P):
            hh = O_HANDS + ((s - turn) % P) * HAND_SIZE  # seat s holds hand s - turn (hands pass on)
            best_v = -1e300
            slot = -1
            side = 0
            worst_v = 1e300
            worst = -1
            for i in range(HAND_SIZE):
                c = st[hh + i]
                if c < 0:
                    continue
                v0 = value(ti, tf, st, ti, act + (2 * c) * N_ICONS)
                v1 = value(ti, tf, st, ti, act + (2 * c + 1) * N_ICONS)
                sd = 0 if v0 >= v1 else 1
                vs = v0 if sd == 0 else v1
                if vs > best_v:
                    best_v = vs
                    slot = i
                    side = sd
                if vs < worst_v:
                    worst_v = vs
                    worst = i
            boss = -1
            bv = -1e300
            for bb in range(nb):
                if st[O_OWNER + bb] == s and st[O_USED + bb] == 0:
                    v = value(ti, tf, st, ti, beff + N_ICONS * bb)
                    if v > bv:
                        boss = bb
                        bv = v
            if boss >= 0 and bv > best_v:
                slot = worst
            else:
                boss = -1
            card = st[hh + slot]
            st[hh + slot] = -1
            pi = O_PICONS + s * N_ICONS
            if boss >= 0:
                if ti[H_BOSS_ONCE]:
                    st[O_USED + boss] = 1
                else:
                    st[O_FLIP + boss] = 1
                for i in range(N_ICONS):
                    st[pi + i] = ti[beff + N_ICONS * boss + i]
                st[O_PBOSS + s] = boss
                st[O_PFIRST + s] = ti[ti[T_BFIRST] + boss]
                st[O_PSTART + s] = 0
            else:
                ao = act + (2 * card + side) * N_ICONS
                for i in range(N_ICONS):
                    st[pi + i] = ti[ao + i]
                st[O_PBOSS + s] = -1
                st[O_PFIRST + s] = 0
                st[O_PSTART + s] = 1 if ti[ao + START_SLAYER] > 0 else 0
        set_order(ti, st)
        if ti[H_HAS_BOSS_ROUND]:
            for k in range(P):
                b = st[O_PBOSS + st[O_ORDER + k]]
                if b >= 0:
                    put_round(ti, st, ti[T_BROUND] + 2 * b, ti[T_BBAG] + 3 * b)
        for k in range(P):
            p = st[O_ORDER + k]
            if st[O_PSTART + p]:
                st[START] = p
        set_order(ti, st)
        for group in range(1, -1, -1):
            for k in range(P):
                p = st[O_ORDER + k]
                if st[O_PFIRST + p] == group:
                    apply_top(ti, tf, st, stk, wf, rng, p, st, O_PICONS + p * N_ICONS, S_WEEKDAY)


def saturday_phase(ti, tf, st, stk, wf, rng):
    P = ti[H_P]
    top = 0
    for p in range(P):
        if st[O_RATE + p] > top:
            top = st[O_RATE + p]
    k = 0
    for p in range(P):
        if st[O_RATE + p] == top:
            k += 1
    per = ti[ti[T_SAT] + (st[SID] * ti[H_NCOLS] + ti[ti[T_RCOLS] + top]) * 4 + k - 1]
    set_order(ti, st)
    for j in range(P):
        p = st[O_ORDER + j]
        session_top(ti, tf, st, stk, wf, rng, p, per if st[O_RATE + p] == top else 0, S_SATURDAY)


def sunday_phase(ti, tf, st, stk, wf, rng):
    P = ti[H_P]
    passes = 0
    k = 0
    npaid = ti[H_NPAID]
    cap = npaid - 1
    while st[ALIVE] and passes < P and k < MAX_SUNDAY * P:
        p = (st[START] + k) % P
        mon = st[O_MONEY + p]
        rid = st[RID]
        if mon >= ti[ti[T_MINCOST] + rid]:
            m = mon if mon < cap else cap
            st[O_MONEY + p] -= ti[ti[T_PCOST] + rid * npaid + m]
            passes = 0
            session_top(ti, tf, st, stk, wf, rng, p, ti[ti[T_PPULLS] + rid * npaid + m], S_PAID)
        else:
            passes += 1
        k += 1


def play_one(ti, tf, st, stk, wf, rng):
    """One whole game (reference_game and _Game.play); the ending (_Game.end) is in play_games."""
    P = ti[H_P]
    st[:] = 0
    wf[:] = 0.0
    st[ALIVE] = 1
    for p in range(P):
        st[O_MONEY + p] = ti[H_START_MONEY]
    n_navi = ti[H_NNAVI]
    for i in range(n_navi):
        st[O_IDS + i] = i
    shuffle(rng, st, O_IDS, n_navi)
    for p in range(P):
        st[O_NAVI + p] = st[O_IDS + p]
    nb = ti[H_NB]
    for b in range(nb):
        st[O_OWNER + b] = -1
    nd = ti[H_NDECK]
    for i in range(nd):
        st[O_DECK + i] = ti[ti[T_BDECK] + i]
    shuffle(rng, st, O_DECK, nd)
    for i in range(ti[H_NBOTTOM]):
        st[O_DECK + nd + i] = ti[ti[T_BBOTTOM] + i]
    st[DECKLEN] = nd + ti[H_NBOTTOM]
    reveal(ti, st)
    # events: start dash, two weekly (shuffled), climax
    st[O_EVENTS] = ti[ti[T_SD] + rand_int(rng, ti[H_NSD])]
    nw = ti[H_NWK]
    for i in range(nw):
        st[O_IDS + i] = ti[ti[T_WK] + i]
    shuffle(rng, st, O_IDS, nw)
    st[O_EVENTS + 1] = st[O_IDS]
    st[O_EVENTS + 2] = st[O_IDS + 1]
    st[O_EVENTS + 3] = ti[ti[T_CL] + rand_int(rng, ti[H_NCL])]
    for r in range(N_ROUNDS):
        st[ROUND] = r
        if st[ALIVE] == 0:
            break
        event_phase(ti, tf, st, stk, wf, rng, st[O_EVENTS + r])
        weekday_phase(ti, tf, st, stk, wf, rng)
        for b in range(nb):  # the round's used boss cards are turned face down
            if st[O_FLIP + b]:
                st[O_USED + b] = 1
                st[O_FLIP + b] = 0
        if st[ALIVE]:
            saturday_phase(ti, tf, st, stk, wf, rng)
        if st[ALIVE]:
            sunday_phase(ti, tf, st, stk, wf, rng)


def play_games(ti, tf, rng, n_games, win, ur, navi, consolete, last_dance, ld_decides, pulls, god_chances, bosses,
               ld_gc, gc_src):
    """Play ``n_games`` games into the output arrays (the keys of reference_game / simulate_games)."""
    P = ti[H_P]
    nb = ti[H_NB]
    st = np.zeros(N_ST, np.int64)
    stk = np.zeros((STACK_ROWS, STACK_COLS), np.int64)
    wf = np.zeros(MAXP, np.float64)
    for g in range(n_games):
        play_one(ti, tf, st, stk, wf, rng)
        ld = st[ALIVE] == 1
        top0 = 0
        for p in range(P):
            u = owned_count(ti, st, p)
            st[O_UR0 + p] = u
            if u > top0:
                top0 = u
        decides = False
        ldc = 0
        if ld:  # ラストダンス (_Game.end)
            st[LAST] = 1
            for p in range(P):  # 周回数, boss cards held, rate
                st[O_CNT + p] = st[O_LAPS + p]
                st[O_CNT + P + p] = 0
                st[O_CNT + 2 * P + p] = st[O_RATE + p]
                st[O_CH + p] = 0
            for b in range(nb):
                if st[O_OWNER + b] >= 0:
                    st[O_CNT + P + st[O_OWNER + b]] += 1
            for c in range(3):
                top = 0
                for p in range(P):
                    if st[O_CNT + c * P + p] > top:
                        top = st[O_CNT + c * P + p]
                if top == 0 and not ti[H_LD_ZERO]:
                    continue
                for p in range(P):
                    if st[O_CNT + c * P + p] == top:
                        st[O_CH + p] += 1
                        ldc += 1
            set_order(ti, st)
            for k in range(P):
                p = st[O_ORDER + k]
                if st[ALIVE]:
                    god_chance(ti, st, wf, rng, p, st[O_CH + p])
            if st[ALIVE]:
                top = 0
                for p in range(P):
                    top = max(top, owned_count(ti, st, p))
                k = 0
                for p in range(P):
                    if owned_count(ti, st, p) == top:
                        k += 1
                for p in range(P):
                    wf[p] = 1.0 / k if owned_count(ti, st, p) == top else 0.0
            for p in range(P):
                if (wf[p] > 0) != (st[O_UR0 + p] == top0):
                    decides = True
        nbos = 0
        for b in range(nb):
            if st[O_OWNER + b] >= 0:
                nbos += 1
        for p in range(P):
            win[g, p] = wf[p]
            ur[g, p] = owned_count(ti, st, p)
            navi[g, p] = st[O_NAVI + p]
        consolete[g] = st[CONSOLETE]
        last_dance[g] = ld
        ld_decides[g] = decides
        for i in range(N_SOURCES):
            pulls[g, i] = st[O_PULLS + i]
            gc_src[g, i] = st[O_GCSRC + i]
        god_chances[g] = st[GODCH]
        bosses[g] = nbos
        ld_gc[g] = ldc


# ---------------------------------------------------------------------------------------------
# outside the loop: tables, compile, results
# ---------------------------------------------------------------------------------------------

FUNCTIONS = ("rand_int", "shuffle", "set_order", "make_bag", "draw_index", "put_round", "reveal", "target", "value",
             "push", "push_apply", "god_chance", "owned_count", "quest_move", "run", "apply_top", "session_top",
             "event_phase", "weekday_phase", "saturday_phase", "sunday_phase", "play_one", "play_games")
#: Small helpers inlined by numba's own inliner (the others are left to LLVM).
INLINE = ("rand_int", "shuffle", "set_order", "make_bag", "draw_index", "put_round", "reveal", "target", "value",
          "push", "push_apply", "god_chance", "owned_count", "quest_move", "apply_top", "session_top")


def prepare(cfg):  # type: ignore[no-untyped-def]
    """The tables ``(ti, tf)`` of a GameConfig (two flat numpy arrays), outside any timed region.

    Raises ValueError for a setting the loop does not cover (see the module docstring).
    """
    from gamesim.games.gacha_game.policies import WEIGHTS, target_values
    from gamesim.games.gacha_game.rules import attack_tables, paid_tables

    if cfg.expert or cfg.doubtful_k is not None or cfg.navi_seat1 is not None:
        raise ValueError("the scalar loop covers navi mode with random navi cards and 疑惑の運営モード off only")
    if any(p != "greedy_pulls" for p in cfg.policies):
        raise ValueError("the scalar loop covers greedy_pulls slayers only")
    d = cfg.data
    nb, nn = len(d.boss_names), len(d.navi_names)
    if (cfg.n_players > MAXP or d.n_characters > MAXC or nb > MAXB
            or max(len(d.action_names), nn, len(d.events_of("weekly"))) > MAXIDS):
        raise ValueError("card lists larger than the scalar loop's capacities")
    e, pc = attack_tables(int(max(d.boss_health.max(), 1)))
    pp, cost, mc = [], [], []
    for rs in d.paid_rate_sets:
        a, c = paid_tables(rs, 400)
        pp.append(a)
        cost.append(c)
        mc.append(min(x for x, _ in rs))
    w = WEIGHTS["greedy_pulls"]
    wv = [w.pulls, w.money, w.quest, w.rate, w.boss_appear, w.start_slayer, w.attack_pulls, w.capture]
    navi_has_round = [int(d.navi_round[v].max() >= 0 or d.navi_bag[v][0] >= 0) for v in range(nn)]
    head = np.zeros(N_HEAD, np.int64)
    head[[H_P, H_C, H_START_MONEY, H_RATE_LEN, H_HAS_TRIG, H_HAS_BOSS_ROUND, H_BOSS_REFILL, H_BOSS_ONCE,
          H_TARGET_FIRST, H_LD_ZERO, H_LD_CONS, H_NACT, H_NB, H_NNAVI, H_NSQ, H_NDECK, H_NBOTTOM, H_NSD, H_NWK,
          H_NCL, H_NPAID, H_NH, H_NCOLS]] = [
        cfg.n_players, d.n_characters, d.start_money, d.rate_length, d.has_triggers, d.has_boss_round,
        cfg.boss_refill, cfg.boss_use == "once", cfg.boss_target == "first", cfg.last_dance_zero_first,
        cfg.last_dance_consolete, len(d.action_names), nb, nn, len(d.quest_stop), len(d.boss_deck),
        len(d.boss_bottom), len(d.events_of("start_dash")), len(d.events_of("weekly")), len(d.events_of("climax")),
        len(pp[0]), e.shape[1], d.saturday_sets.shape[1]]
    ints = [(T_ACT, d.action_effects), (T_EV_EFF, d.event_effects), (T_EV_BAG, d.event_bag),
            (T_EV_ROUND, d.event_round), (T_EV_TRIG, d.event_trigger), (T_EV_TRIGP, d.event_trigger_pull),
            (T_BH, d.boss_health), (T_BEFF, d.boss_effects), (T_BFIRST, d.boss_first), (T_BROUND, d.boss_round),
            (T_BBAG, d.boss_bag), (T_BDECK, d.boss_deck), (T_BBOTTOM, d.boss_bottom), (T_NCHAR, d.navi_character),
            (T_NWEEK, d.navi_weekday), (T_NOD, d.navi_overdrive), (T_NROUND, d.navi_round), (T_NBAG, d.navi_bag),
            (T_NHASR, navi_has_round), (T_NTRIG, d.navi_trigger), (T_NTRIGP, d.navi_trigger_pull),
            (T_QSTOP, d.quest_stop), (T_QLAP, d.quest_lap), (T_QICONS, d.quest_icons),
            (T_QLAPP, d.quest_lap_pulls), (T_RCOLS, d.rate_columns), (T_SAT, d.saturday_sets),
            (T_PPULLS, np.stack(pp)), (T_PCOST, np.stack(cost)), (T_MINCOST, mc), (T_BAG0, d.bag),
            (T_SD, d.events_of("start_dash")), (T_WK, d.events_of("weekly")), (T_CL, d.events_of("climax"))]
    parts, o = [head], N_HEAD
    for slot, x in ints:
        x = np.asarray(x).astype(np.int64).ravel()  # row-major: [i, j, k] at (i * J + j) * K + k
        head[slot] = o
        parts.append(x)
        o += len(x)
    fparts, o = [], 0
    for slot, x in ((F_E, e), (F_P, pc), (F_TVAL, target_values("greedy_pulls", e, pc)), (F_W, wv)):
        x = np.asarray(x, np.float64).ravel()
        head[slot] = o
        fparts.append(x)
        o += len(x)
    return np.concatenate(parts), np.concatenate(fparts)


def build(*, numba: bool):  # type: ignore[no-untyped-def]
    """``play_games`` of this file's source: plain Python, or every function compiled by ``numba.njit``.

    Raises ImportError when numba is asked for and not installed.
    """
    if not numba:
        return play_games
    import numba as nb

    ns: dict = {}
    with open(__file__, encoding="utf-8") as f:
        exec(compile(f.read(), __file__, "exec"), ns)  # noqa: S102 - this file's own source, compiled
    for name in FUNCTIONS:
        ns[name] = nb.njit(cache=False, inline="always" if name in INLINE else "never")(ns[name])
    return ns["play_games"]


def games(fn, tables, n_games: int, rng: np.random.Generator) -> dict:  # type: ignore[no-untyped-def]
    """Run ``fn`` (from :func:`build`) on ``n_games`` games; the result dict of simulate_games."""
    ti, tf = tables
    P = int(ti[H_P])
    out = dict(win=np.zeros((n_games, P)), ur=np.zeros((n_games, P), np.int64),
               navi=np.zeros((n_games, P), np.int64),
               consolete_round=np.zeros(n_games, np.int64), last_dance=np.zeros(n_games, np.bool_),
               ld_decides=np.zeros(n_games, np.bool_), pulls=np.zeros((n_games, N_SOURCES), np.int64),
               god_chances=np.zeros(n_games, np.int64), bosses=np.zeros(n_games, np.int64),
               ld_god_chances=np.zeros(n_games, np.int64), gc_by_source=np.zeros((n_games, N_SOURCES), np.int64))
    fn(ti, tf, rng, n_games, out["win"], out["ur"], out["navi"], out["consolete_round"],
       out["last_dance"], out["ld_decides"], out["pulls"], out["god_chances"], out["bosses"], out["ld_god_chances"],
       out["gc_by_source"])
    return out
