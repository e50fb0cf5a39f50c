"""Benchmark of dqz: vectorized battles vs the plain-Python reference; best-value solver calls.

Run ``python benchmarks/bench_dqz.py [--quick]``. It prints, from one run:

(a) battles per second of the vectorized simulator
    :func:`gamesim.games.dqz.simulate_battle` (party of 3 and of 5, monster ドラゴン of
    the illustrative bestiary: HP 50, はげしいほのお and かえんのいき, policy max_damage,
    default strategy deck), fresh solver caches per call;
(b) battles per second of the plain-Python one-battle-at-a-time loop of the reference
    (:class:`gamesim.games.dqz.reference.ReferenceParty`: lists, the scalar rules core,
    the memoised play search) with every random number from the ``random`` module
    (``randrange`` for dice and picks, ``random`` for strategy draws, ``shuffle`` for the
    decks): what a competent Python programmer would write; the speed-up's baseline
    (party of 3, same monster, memo caches cleared first);
(b2) the package's reference :func:`gamesim.games.dqz.reference_battles` as it is (numpy
    scalar draws, about 1 us each), memo caches cleared first (cold) and then again on a
    second batch (warm);
(c) :func:`gamesim.games.dqz.best_attack_value` calls per second on random hands of
    5 players x 3 cards: first calls (memo cleared, value tables built) and repeated
    calls (memo hits), against the Fraction brute force ``max(achievable_values(...))``;

and the ratios (a)/(b), (a)/(b2) and (c) exact-table / brute force, measured in one run.
Most of a plain-Python battle's time is the play search, not the random numbers, so (b)
and (b2) are close.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from gamesim.games.dqz import achievable_values, best_attack_value, reference_battles, simulate_battle
from gamesim.games.dqz.exact import _best_cached, value_table
from gamesim.games.dqz.reference import ReferenceParty, _expr_value, reference_plays
from gamesim.games.dqz.sim import CHUNK_SIZE, BattleConfig, _as_monster


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
    n_ref = 30 if args.quick else 400
    n_calls = 300 if args.quick else 5_000
    n_brute = 3 if args.quick else 20
    mon = "ドラゴン"
    rng = np.random.default_rng(20261121)
    value_table(3), value_table(5)  # build the exact tables once (timed separately below)

    t3, _ = timed(lambda: simulate_battle(n_vec, party_size=3, monster=mon, rng=rng))
    t5, _ = timed(lambda: simulate_battle(n_vec, party_size=5, monster=mon, rng=rng))
    reference_plays.cache_clear()
    _expr_value.cache_clear()
    tp, plain = timed(lambda: plain_battles(n_ref, 3, mon, seed=int(rng.integers(2**32))))
    reference_plays.cache_clear()
    _expr_value.cache_clear()
    tr_cold, ref = timed(lambda: reference_battles(n_ref, party_size=3, monsters=mon, rng=rng))
    tr_warm, _ = timed(lambda: reference_battles(n_ref, party_size=3, monsters=mon, rng=rng))

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
          f"numpy {np.__version__}, chunk {CHUNK_SIZE}")
    print(f"(a) vectorized, party 3        : {n_vec:>8,d} battles {t3:8.3f} s {n_vec / t3:12,.0f} battles/s")
    print(f"(a) vectorized, party 5        : {n_vec:>8,d} battles {t5:8.3f} s {n_vec / t5:12,.0f} battles/s")
    print(f"(b) plain Python, random module: {n_ref:>8,d} battles {tp:8.3f} s {n_ref / tp:12,.1f} battles/s"
          f"   (won {sum(b['won'] for b in plain) / n_ref:.3f}; numpy reference {ref['won'].mean():.3f})")
    print(f"(b2) numpy-scalar ref, cold    : {n_ref:>8,d} battles {tr_cold:8.3f} s {n_ref / tr_cold:12,.1f} battles/s")
    print(f"(b2) numpy-scalar ref, warm    : {n_ref:>8,d} battles {tr_warm:8.3f} s {n_ref / tr_warm:12,.1f} battles/s")
    print(f"(c) best_attack_value, 5x3, new: {n_calls:>8,d} calls   {tb_cold:8.3f} s {n_calls / tb_cold:12,.0f} calls/s")
    print(f"(c) best_attack_value, memo hit: {n_calls:>8,d} calls   {tb_warm:8.3f} s {n_calls / tb_warm:12,.0f} calls/s")
    print(f"(c) Fraction brute force, 5x3  : {n_brute:>8,d} calls   {tf:8.3f} s {n_brute / tf:12,.2f} calls/s")
    print(f"    exact value table, 5 players, built once: {tt:.3f} s")
    print(f"speedup vectorized / plain Python, random module (party 3) : {(n_vec / t3) / (n_ref / tp):8.1f}x")
    print(f"speedup vectorized / numpy-scalar reference (party 3, cold): {(n_vec / t3) / (n_ref / tr_cold):8.1f}x")
    print(f"speedup vectorized / numpy-scalar reference (party 3, warm): {(n_vec / t3) / (n_ref / tr_warm):8.1f}x")
    print(f"speedup exact-table solver / Fraction brute force : {(n_calls / tb_cold) / (n_brute / tf):8.1f}x")


if __name__ == "__main__":
    main()
