"""Benchmark of dqz: vectorized battles vs plain Python vs numba vs bare RNG; best-value solver calls.

Run ``python benchmarks/bench_dqz.py [--quick]`` (numba comes with the benchmark extra:
``pip install -e ".[test,bench]"``; without it the numba rows are skipped with a notice).
Times are CPU seconds of this process (``time.process_time``), best of 5 runs (of 1 with
``--quick``) for (a) party 3, (b3), (n) and (c), one run for the others. It prints, from one run:

(a) battles per second of the vectorized simulator
    :func:`gamesim.games.dqz.simulate_battle` (party of 3 and of 5, monster ドラゴン of
    the illustrative bestiary: HP 50, はげしいほのお and かえんのいき, policy max_damage,
    default strategy deck), fresh solver caches per call; party of 3 also at the study's
    chunk (3,000 battles per call: ``chunk_size`` of ``scenarios/dqz_battles.toml``);
(b) battles per second of the plain-Python one-battle-at-a-time loop of the reference
    (:class:`gamesim.games.dqz.reference.ReferenceParty`: lists, the scalar rules core,
    the memoised play search) with every random number from the ``random`` module
    (``randrange`` for dice and picks, ``random`` for strategy draws, ``shuffle`` for the
    decks): what a competent Python programmer would write; the speed-up's baseline
    (party of 3, same monster, memo caches cleared first);
(b2) the package's reference :func:`gamesim.games.dqz.reference_battles` as it is (numpy
    scalar draws, about 1 us each), memo caches cleared first (cold) and then again on a
    second batch (warm);
(b3) :data:`BATTLE_SOURCE` run as plain Python (``random.Random``): the simulator's
    algorithm one battle at a time, the best play per strategy kind looked up in tables of
    every hand situation (:func:`battle_tables`, built once by the simulator's own
    ``PlaySolver``, outside the timing, its build time printed);
(n) the *same source* compiled with ``numba.njit`` (numpy tables, uniforms from a numpy
    ``Generator`` inside the compiled loop; compile time excluded), party of 3, at both sizes;
(c) bare random numbers: ``Generator.random`` producing as many uniforms as (n) consumes
    (the opening shuffle, strategy draws and the shuffles under the deck), nothing else;
(d) :func:`gamesim.games.dqz.best_attack_value` calls per second on random hands of
    5 players x 3 cards: first calls (memo cleared, value tables built) and repeated
    calls (memo hits), against the Fraction brute force ``max(achievable_values(...))``;

and the ratios (a)/(b), (a)/(b2), (a)/(n), (a)/(c) and (d) exact-table / brute force,
measured in one run, with the means of (a) and (n) (win rate, turns, first-turn damage,
strategy cards used) side by side as a check that they play the same game.
Most of a plain-Python battle's time in (b) is the play search, not the random numbers, so
(b) and (b2) are close.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from gamesim.games.dqz import achievable_values, best_attack_value, reference_battles, simulate_battle
from gamesim.games.dqz.exact import KIND_NONE, N_KINDS, _best_cached, value_table
from gamesim.games.dqz.reference import ReferenceParty, _expr_value, reference_plays
from gamesim.games.dqz.policies import PlaySolver
from gamesim.games.dqz.sim import CHUNK_SIZE, BattleConfig, _as_monster

from _timing import best_cpu  # benchmarks/ is on sys.path when run as a script


class RandomModuleRng:
    """The Generator methods :class:`ReferenceParty` calls, drawn with the ``random`` module."""

    def __init__(self, seed: int | None = None):
        self.rnd = random.Random(seed)

    def integers(self, low: int, high: int | None = None) -> int:
        return self.rnd.randrange(low) if high is None else self.rnd.randrange(low, high)

    def random(self) -> float:
        return self.rnd.random()

    def permutation(self, n: int) -> list[int]:
        order = list(range(n))
        self.rnd.shuffle(order)
        return order


def plain_battles(n: int, party_size: int, monster: str, *, seed: int | None = None) -> list[dict]:
    """``n`` single battles of a fresh party, :class:`ReferenceParty` with ``random``-module draws."""
    rng = RandomModuleRng(seed)
    cfg = BattleConfig(party_size, policy="max_damage")
    mon = _as_monster(monster)
    return [ReferenceParty(cfg, rng).battle(mon) for _ in range(n)]  # type: ignore[arg-type]


#: One battle loop of a fresh party against a monster whose skills all act through the attack
#: value (はげしいほのお, かえんのいき, ひのいき: ドラゴン), policy max_damage, executed twice: as plain
#: Python (``random.Random``, tables as lists) and under numba (numpy tables, uniforms from a
#: numpy ``Generator`` called inside the compiled loop). The same rules as ``sim._turn``: the
#: playing players are those with cards; the best play per strategy kind comes from
#: :func:`battle_tables` (``PlaySolver.solve`` for every hand situation, looked up by the
#: slots' 5-bit masks); with no legal play without a strategy card the last player sits out;
#: the hero takes the best beating kind from the stock, else draws the strategy deck's top
#: card (uniform over its counts) and uses or stocks it; the used pile is shuffled back when
#: one card is left; damage, first-turn damage, the multiple-of-k discards (everyone's lowest
#: card), いのちだいじに returning the cards, the rest shuffled under the attack deck (a
#: circular buffer); the battle ends at a kill, a wiped party or the turn cap.
BATTLE_SOURCE = """
def battles(rng, n_battles, P, hand_size, n_per, sdeck0, max_turns, hp0, off, score_t, dmg_t, trig_t, tup_t,
            won_out, turns_out, first_out, strat_out, deck, hands, masks, slot_pl, cards, pushed, sdeck, sused,
            stock):
    N = 5 * n_per
    draws = 0
    for b in range(n_battles):
        # the opening shuffle (Fisher-Yates) and the inn: hand_size cards each, hero first
        for j in range(N):
            deck[j] = j // n_per + 1
        for j in range(N - 1, 0, -1):
            k = int(rng.random() * (j + 1))
            draws += 1
            t = deck[j]
            deck[j] = deck[k]
            deck[k] = t
        head = 0
        size = N
        for p in range(P):
            for v in range(5):
                hands[p * 5 + v] = 0
            for _ in range(hand_size):
                if size > 0:
                    hands[p * 5 + deck[head] - 1] += 1
                    head = (head + 1) % N
                    size -= 1
        for v in range(5):
            sdeck[v] = sdeck0[v]
            sused[v] = 0
        slen = 0
        hp = hp0
        turns = 0
        first = 0
        n_strat = 0
        won = 0
        total = 0
        for p in range(P * 5):
            total += hands[p]
        over = total == 0
        while not over:
            for p in range(P):
                m = 0
                for v in range(5):
                    if hands[p * 5 + v] > 0:
                        m |= 1 << v
                masks[p] = m
            # slots: the playing players in order; drop the last while no play is legal without a card
            n = 0
            for p in range(P):
                if masks[p] != 0:
                    slot_pl[n] = p
                    n += 1
            row = -1
            while n > 0:
                key = 0
                for i in range(n):
                    key = key * 32 + masks[slot_pl[i]]
                row = (off[n] + key) * 6
                if score_t[row] >= 0:
                    break
                n -= 1
                row = -1
            chosen = 0
            hero = 0
            for v in range(5):
                hero += hands[v]
            if n > 0 and hero > 0:
                s0 = score_t[row]
                best = -1
                best_s = -2
                for k in range(5):  # a kind in stock that beats no card (ties: the lower kind)
                    sk = score_t[row + 1 + k]
                    beats = sk >= 0 and (sk > s0 or (k == 2 and sk == s0))
                    if not beats or sk <= best_s:
                        continue
                    held = False
                    for q in range(slen):
                        if stock[q] == k:
                            held = True
                    if held:
                        best = k
                        best_s = sk
                if best >= 0:
                    q = 0
                    while stock[q] != best:
                        q += 1
                    for r in range(q, slen - 1):
                        stock[r] = stock[r + 1]
                    slen -= 1
                    chosen = 1 + best
                else:
                    left = 0
                    for v in range(5):
                        left += sdeck[v]
                    if left > 0:
                        u = int(rng.random() * left)
                        draws += 1
                        k = 0
                        c = sdeck[0]
                        while u >= c:
                            k += 1
                            c += sdeck[k]
                        sdeck[k] -= 1
                        if left - 1 <= 1:  # one card left: the used ones are shuffled back in
                            for v in range(5):
                                sdeck[v] += sused[v]
                                sused[v] = 0
                        sk = score_t[row + 1 + k]
                        if sk >= 0 and (sk > s0 or (k == 2 and sk == s0)):
                            chosen = 1 + k
                        else:
                            stock[slen] = k
                            slen += 1
                if chosen > 0:
                    sused[chosen - 1] += 1
                    n_strat += 1
            dmg = 0
            trig = 0
            if n > 0:
                e = row + chosen
                dmg = dmg_t[e]
                trig = trig_t[e]
                t = tup_t[e]
                for i in range(n - 1, -1, -1):
                    cards[i] = t % 5 + 1
                    t //= 5
                for i in range(n):
                    hands[slot_pl[i] * 5 + cards[i] - 1] -= 1
            if turns == 0:
                first = dmg
            hp -= dmg
            n_push = 0
            if hp <= 0:
                won = 1
            elif trig == 1:  # a multiple-of-k skill: everyone discards the lowest card
                for p in range(P):
                    for v in range(5):
                        if hands[p * 5 + v] > 0:
                            hands[p * 5 + v] -= 1
                            pushed[n_push] = v + 1
                            n_push += 1
                            break
            for i in range(n):
                if chosen == 3:  # いのちだいじに: the cards return to the hands
                    hands[slot_pl[i] * 5 + cards[i] - 1] += 1
                else:
                    pushed[n_push] = cards[i]
                    n_push += 1
            for j in range(n_push - 1, 0, -1):  # shuffled, then put under the deck
                k = int(rng.random() * (j + 1))
                draws += 1
                t = pushed[j]
                pushed[j] = pushed[k]
                pushed[k] = t
            for j in range(n_push):
                deck[(head + size) % N] = pushed[j]
                size += 1
            turns += 1
            total = 0
            for p in range(P * 5):
                total += hands[p]
            over = won == 1 or total == 0 or turns >= max_turns
        won_out[b] = won
        turns_out[b] = turns
        first_out[b] = first
        strat_out[b] = n_strat
    return draws
"""


def battle_tables(cfg: BattleConfig, mon) -> dict:  # type: ignore[no-untyped-def]
    """Best play per (playing players, slot masks, strategy kind) for :data:`BATTLE_SOURCE`.

    Every situation of up to ``party_size`` playing players without modifiers (the monster
    must have no 【先制】 or dice skills), solved at once by the simulator's own
    :class:`~gamesim.games.dqz.policies.PlaySolver` (max_damage) and decoded as in
    ``sim._turn``: score, damage, whether the value sets off a multiple-of-k skill, and the
    cards played (tuple index, base 5). Flat arrays indexed ``(off[n] + key) * 6 + kind``,
    ``key`` the slots' masks in base 32.
    """
    assert cfg.policy == "max_damage"
    rule = cfg.rule(mon)
    solver = PlaySolver(rule)
    P = cfg.party_size
    off = np.zeros(P + 1, np.int64)
    for n in range(1, P + 1):
        off[n] = off[n - 1] + (32 ** (n - 1) if n > 1 else 0)
    size = int(off[P]) + 32 ** P
    score = np.full(size * N_KINDS, -1, np.int64)
    dmg = np.zeros(size * N_KINDS, np.int64)
    trig = np.zeros(size * N_KINDS, np.int64)
    tup = np.zeros(size * N_KINDS, np.int64)
    for n in range(1, P + 1):
        grids = np.meshgrid(*([np.arange(1, 32)] * n), indexing="ij")
        masks = np.stack([g.ravel() for g in grids], axis=1).astype(np.int64)
        key = np.zeros(masks.shape[0], np.int64)
        for i in range(n):
            key = key * 32 + masks[:, i]
        r = solver.solve(n, 0, -1, -1, masks)  # (k, kinds, 8): e1, variant, tuple, perm, ...
        tab = value_table(n, 0, -1, -1, solver.ops)
        ok = r[:, :, 0] >= 0
        v, t, pm = (np.where(ok, r[:, :, c], 0) for c in (1, 2, 3))
        value = tab.values[v, t, pm]
        su = np.broadcast_to(np.arange(N_KINDS)[None, :] != KIND_NONE, value.shape)
        d = rule.damage(value, su, tab.half[v, t, pm])
        base = ((off[n] + key) * N_KINDS)[:, None] + np.arange(N_KINDS)[None, :]
        score[base] = r[:, :, 0]
        dmg[base] = np.where(ok, d, 0)
        trig[base] = np.where(ok, rule.triggers(value), False)
        tup[base] = t
    return dict(off=off, score_t=score, dmg_t=dmg, trig_t=trig, tup_t=tup)


def battle_args(rng, cfg: BattleConfig, mon, n: int, tabs: dict, *, as_list: bool):  # type: ignore[no-untyped-def]
    """Arguments of ``battles``: settings, tables and work arrays (lists for plain Python)."""
    conv = (lambda a: a.tolist()) if as_list else (lambda a: a)
    z = lambda k: conv(np.zeros(k, np.int64))  # noqa: E731
    P = cfg.party_size
    N = 5 * cfg.n_per_value
    sd = np.asarray(cfg.strategy_deck, np.int64)
    return (rng, n, P, cfg.hand_size, cfg.n_per_value, conv(sd), cfg.max_turns, mon.hp,
            *(conv(tabs[k]) for k in ("off", "score_t", "dmg_t", "trig_t", "tup_t")),
            z(n), z(n), z(n), z(n), z(N), z(5 * P), z(P), z(P), z(P), z(N), z(5), z(5), z(int(sd.sum()) + 1))


def build_battles(*, numba: bool):  # type: ignore[no-untyped-def]
    """``battles`` of :data:`BATTLE_SOURCE`: plain Python (``rng`` a ``random.Random``) or numba
    (``rng`` a numpy ``Generator``). Raises ImportError when numba is asked for and not installed."""
    ns: dict = {"int": int, "range": range}
    exec(BATTLE_SOURCE, ns)  # noqa: S102 - our own source, run as Python and compiled
    if not numba:
        return ns["battles"]
    import numba as nb

    return nb.njit(cache=False)(ns["battles"])




def timed(fn):  # type: ignore[no-untyped-def]
    """``(CPU seconds of this process, result)`` of one call (steadier than the wall clock on a
    shared machine; every timed path is single-threaded)."""
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    args = ap.parse_args(argv)
    n_vec = 4_000 if args.quick else 100_000
    n_study = 1_000 if args.quick else 3_000  # chunk_size of scenarios/dqz_battles.toml
    n_ref = 30 if args.quick else 400
    n_calls = 300 if args.quick else 5_000
    n_brute = 3 if args.quick else 20
    repeat = 1 if args.quick else 5
    mon = "ドラゴン"
    rng = np.random.default_rng(20261121)
    try:
        import numba
    except ImportError:
        numba = None
    value_table(3), value_table(5)  # build the exact tables once (timed separately below)

    res3: list = []
    t3 = best_cpu(lambda: res3.append(simulate_battle(n_vec, party_size=3, monster=mon, rng=rng)), repeat)
    t3s = best_cpu(lambda: simulate_battle(n_study, party_size=3, monster=mon, rng=rng), repeat)
    t5, _ = timed(lambda: simulate_battle(n_vec, party_size=5, monster=mon, rng=rng))
    reference_plays.cache_clear()
    _expr_value.cache_clear()
    tp, plain = timed(lambda: plain_battles(n_ref, 3, mon, seed=int(rng.integers(2**32))))
    reference_plays.cache_clear()
    _expr_value.cache_clear()
    tr_cold, ref = timed(lambda: reference_battles(n_ref, party_size=3, monsters=mon, rng=rng))
    tr_warm, _ = timed(lambda: reference_battles(n_ref, party_size=3, monsters=mon, rng=rng))

    cfg = BattleConfig(3, policy="max_damage")
    monster = _as_monster(mon)
    t_tab, tabs = timed(lambda: battle_tables(cfg, monster))
    n_src = 10 * n_ref
    py_battles = build_battles(numba=False)
    a_py = battle_args(random.Random(20261127), cfg, monster, n_src, tabs, as_list=True)
    t_src = best_cpu(lambda: py_battles(*a_py), repeat)
    t_nb = t_nbs = t_bare = t_bares = float("nan")
    draws_per = float("nan")
    a_nb = None
    if numba is not None:
        nb_battles = build_battles(numba=True)
        gen = np.random.default_rng(20261127)
        a_nb = battle_args(gen, cfg, monster, n_vec, tabs, as_list=False)
        a_nbs = battle_args(gen, cfg, monster, n_study, tabs, as_list=False)
        nb_battles(*a_nbs[:1], 10, *a_nbs[2:])  # compile outside the timing
        t_nb = best_cpu(lambda: nb_battles(*a_nb), repeat)
        t_nbs = best_cpu(lambda: nb_battles(*a_nbs), repeat)
        draws_per = nb_battles(*a_nb) / n_vec
        t_bare = best_cpu(lambda: rng.random(int(draws_per * n_vec)), repeat)
        t_bares = best_cpu(lambda: rng.random(int(draws_per * n_study)), repeat)

    hands = [[list(rng.integers(1, 6, size=3)) for _ in range(5)] for _ in range(n_calls)]
    _best_cached.cache_clear()
    tb_cold, _ = timed(lambda: [best_attack_value(h) for h in hands])
    tb_warm, _ = timed(lambda: [best_attack_value(h) for h in hands])
    tf, _ = timed(lambda: [max(achievable_values(h)) for h in hands[:n_brute]])
    value_table.cache_clear()
    from gamesim.games.dqz.exact import _master_table

    _master_table.cache_clear()
    tt, _ = timed(lambda: value_table(5))

    print(f"dqz benchmark: monster {mon} (HP 50, はげしいほのお, かえんのいき), policy max_damage, "
          f"strategy deck 2 of each; {platform.python_implementation()} {platform.python_version()}, "
          f"numpy {np.__version__}, numba {numba.__version__ if numba else 'not installed'}, chunk {CHUNK_SIZE}; "
          f"CPU time, best of {repeat} for (a) party 3, (b3), (n) and (c); 1 run for the others")
    print(f"(a) vectorized, party 3        : {n_vec:>8,d} battles {t3:8.3f} s {n_vec / t3:12,.0f} battles/s")
    print(f"(a) vectorized, party 3, study : {n_study:>8,d} battles {t3s:8.3f} s {n_study / t3s:12,.0f} battles/s")
    print(f"(a) vectorized, party 5        : {n_vec:>8,d} battles {t5:8.3f} s {n_vec / t5:12,.0f} battles/s")
    print(f"(b) plain Python, random module: {n_ref:>8,d} battles {tp:8.3f} s {n_ref / tp:12,.1f} battles/s"
          f"   (won {sum(b['won'] for b in plain) / n_ref:.3f}; numpy reference {ref['won'].mean():.3f})")
    print(f"(b2) numpy-scalar ref, cold    : {n_ref:>8,d} battles {tr_cold:8.3f} s {n_ref / tr_cold:12,.1f} battles/s")
    print(f"(b2) numpy-scalar ref, warm    : {n_ref:>8,d} battles {tr_warm:8.3f} s {n_ref / tr_warm:12,.1f} battles/s")
    print(f"(b3) battle source, plain Pyth.: {n_src:>8,d} battles {t_src:8.3f} s {n_src / t_src:12,.1f} battles/s")
    if numba is None:
        print("(n) numba: numba not installed (pip install -e '.[bench]')")
    else:
        print(f"(n) same source, numba         : {n_vec:>8,d} battles {t_nb:8.3f} s {n_vec / t_nb:12,.0f} battles/s")
        print(f"(n) same source, numba, study  : {n_study:>8,d} battles {t_nbs:8.3f} s {n_study / t_nbs:12,.0f} battles/s")
        print(f"(c) bare uniforms ({draws_per:.1f}/battle)  : {n_vec:>8,d} battles {t_bare:8.3f} s "
              f"{n_vec / t_bare:12,.0f} battles/s")
        print(f"(c) bare uniforms, study       : {n_study:>8,d} battles {t_bares:8.3f} s {n_study / t_bares:12,.0f} battles/s")
    print(f"    play tables of (b3) and (n), every situation of up to 3 players, built once: {t_tab:.3f} s")
    print(f"(d) best_attack_value, 5x3, new: {n_calls:>8,d} calls   {tb_cold:8.3f} s {n_calls / tb_cold:12,.0f} calls/s")
    print(f"(d) best_attack_value, memo hit: {n_calls:>8,d} calls   {tb_warm:8.3f} s {n_calls / tb_warm:12,.0f} calls/s")
    print(f"(d) Fraction brute force, 5x3  : {n_brute:>8,d} calls   {tf:8.3f} s {n_brute / tf:12,.2f} calls/s")
    print(f"    exact value table, 5 players, built once: {tt:.3f} s")
    v = res3[-1]
    cols = (("won", "won"), ("turns", "turns"), ("first_turn_damage", "first turn damage"),
            ("strategy_used", "strategy cards used"))
    if a_nb is not None:
        for (col, name), out in zip(cols, a_nb[13:17]):
            x, y = v[col].to_numpy(dtype=float), out.astype(float)
            print(f"check: mean {name} (a) {x.mean():.4f}, (n) {y.mean():.4f}, difference {y.mean() - x.mean():+.4f} "
                  f"+- {np.sqrt((x.var() + y.var()) / x.size):.4f}")
    print(f"check: mean won (b3) {np.mean(a_py[13]):.4f} over {n_src} battles")
    print(f"speedup vectorized / plain Python, random module (party 3) : {(n_vec / t3) / (n_ref / tp):8.1f}x")
    print(f"speedup vectorized / numpy-scalar reference (party 3, cold): {(n_vec / t3) / (n_ref / tr_cold):8.1f}x")
    print(f"speedup vectorized / numpy-scalar reference (party 3, warm): {(n_vec / t3) / (n_ref / tr_warm):8.1f}x")
    if numba is not None:
        print(f"vectorized time / numba time (party 3): {t3 / t_nb:8.1f}x, study chunk {t3s / t_nbs:8.1f}x  (target <= 2x)")
        print(f"vectorized time / bare uniforms time (party 3): {t3 / t_bare:8.1f}x, study chunk {t3s / t_bares:8.1f}x")
    print(f"speedup exact-table solver / Fraction brute force : {(n_calls / tb_cold) / (n_brute / tf):8.1f}x")


if __name__ == "__main__":
    main()
