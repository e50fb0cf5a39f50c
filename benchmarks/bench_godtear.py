"""Benchmark of Godtear's dice: vectorized rolls vs plain Python vs bare RNG; exact tables vs icepool.

Run ``python benchmarks/bench_godtear.py [--quick]``. It times

(a) the vectorized roller :func:`gamesim.games.godtear.sim.sample_rolls` (a
    ``(dice, trials)`` array of faces per chunk, looked up and summed),
(b) :func:`plain_rolls`: what a competent Python programmer would write, the ``random``
    module (``sum(random.choices(faces, k=dice))`` per roll), the speed-up's baseline,
(b2) the package's plain-Python test reference
    :func:`gamesim.games.godtear.reference.reference_rolls` (one numpy scalar
    ``Generator.integers`` call, about 1 us, and one list lookup per die),
(c) the bare numpy random numbers (a) needs: ``Generator.integers`` of the same
    ``(chunk, dice)`` shape and dtype, nothing else,

on rolls of ``--dice`` dice (default 5) and prints rolls per second, the speed-ups
(a)/(b) and (a)/(b2) and the overhead (a)/(c), all measured in one run. Then it times the exact tables of the study,
P(success) for accuracy 1..12 x dodge 0..12 and the wound distribution for damage
1..12 x protection 0..8 (each as exact fractions, caches cleared), against icepool
(test-only dependency) computing the same tables, and checks they agree.
Finally a full activation (two actions, three targets, tokens) of
:func:`gamesim.games.godtear.sim.run_activation` against :func:`plain_activation` (the
same rules core, dice rolled with the ``random`` module) and the numpy-scalar twin
:func:`gamesim.games.godtear.reference.reference_activation`.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
import timeit
from fractions import Fraction

import numpy as np

from gamesim.games.godtear import exact
from gamesim.games.godtear.reference import reference_activation, reference_rolls
from gamesim.games.godtear.rules import (
    GODTEAR_DIE,
    DuelState,
    Skill,
    Status,
    Target,
    after_success,
    dice_after_token,
    is_success,
    resolve_use,
)
from gamesim.games.godtear.sim import CHUNK_SIZE, run_activation, sample_rolls


def plain_rolls(n_dice: int, n_trials: int, *, seed: int | None = None) -> list[int]:
    """Totals of ``n_dice`` Godtear dice, plain Python with the ``random`` module."""
    choices = random.Random(seed).choices
    faces = GODTEAR_DIE.face_values
    return [sum(choices(faces, k=n_dice)) for _ in range(n_trials)]


def plain_activation(actions, target, n_trials, *, n_models, attacker, target_status,  # type: ignore[no-untyped-def]
                     seed=None):
    """:func:`reference_activation`'s loop (same rules core) with dice from the ``random`` module.

    Returns the wounds per model of each trial, a list of lists.
    """
    choices = random.Random(seed).choices
    faces = GODTEAR_DIE.face_values
    out = []
    for _ in range(n_trials):
        wounds = [0] * n_models
        att, unit = attacker, target_status
        for skill, n_t in actions:
            for j in [j for j in range(n_models) if wounds[j] < target.health][:n_t]:
                st = DuelState(wounds[j], att, unit)
                s = sum(choices(faces, k=dice_after_token(skill.accuracy, st.attacker.accuracy)))
                d = None
                if is_success(s, target.dodge + st.target.dodge) and skill.damage is not None:
                    a2, _ = after_success(st, skill)
                    d = sum(choices(faces, k=dice_after_token(skill.damage, a2.damage)))
                st = resolve_use(st, skill, target, s, d)
                wounds[j], att, unit = st.wounds, st.attacker, st.target
        out.append(wounds)
    return out


def bare_rng(n_dice: int, n_trials: int, rng: np.random.Generator) -> None:
    """The random draws of :func:`sample_rolls`, same shapes and dtype, no lookup or sum."""
    for start in range(0, n_trials, CHUNK_SIZE):
        rng.integers(0, 6, size=(n_dice, min(CHUNK_SIZE, n_trials - start)), dtype=np.uint8)


def ours_tables() -> tuple[object, object]:
    exact._counts.cache_clear()
    exact._outcomes.cache_clear()
    s = exact.success_table(range(1, 13), range(0, 13), exact=True)
    w = exact.wounds_distribution_table(range(1, 13), range(0, 9), exact=True)
    return s, w


def icepool_tables() -> tuple[dict, dict]:
    import icepool

    die = icepool.Die({0: 2, 1: 3, 2: 1})
    s = {}
    for a in range(1, 13):
        pool = a @ die
        for d in range(0, 13):
            s[(a, d)] = Fraction(pool.probability(">=", d))
    w = {}
    for x in range(1, 13):
        pool = x @ die
        for p in range(0, 9):
            dist = (pool - p).clip(0, None)
            w[(x, p)] = {int(o): Fraction(q) for o, q in zip(dist.outcomes(), dist.probabilities())}
    return s, w


def min_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    """Best of ``repeat`` single runs of ``fn``, in CPU seconds of this process (steadier than
    the wall clock on a shared machine; every timed path is single-threaded)."""
    return min(timeit.repeat(fn, number=1, repeat=repeat, timer=time.process_time))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small workload (a few seconds)")
    ap.add_argument("--dice", type=int, default=5, help="dice per roll")
    ap.add_argument("--trials", type=int, default=None, help="vectorized / bare-RNG rolls")
    ap.add_argument("--ref-trials", type=int, default=None, help="plain-Python rolls")
    args = ap.parse_args(argv)
    n_vec = args.trials or (200_000 if args.quick else 5_000_000)
    n_ref = args.ref_trials or (2_000 if args.quick else 50_000)
    repeat = 1 if args.quick else 3
    rng = np.random.default_rng(20261121)
    n = args.dice

    t_vec = min_time(lambda: sample_rolls(n, n_vec, rng=rng), repeat)
    n_pl = 5 * n_ref
    t_pl = min_time(lambda: plain_rolls(n, n_pl, seed=int(rng.integers(2**32))), repeat)
    t_ref = min_time(lambda: reference_rolls(n, n_ref, rng=rng), 1)
    t_rng = min_time(lambda: bare_rng(n, n_vec, rng), repeat)
    print(f"godtear benchmark: rolls of {n} Godtear dice (faces 0,0,1,1,1,2); "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"chunk {CHUNK_SIZE}")
    print(f"(a)  vectorized                     : {n_vec:>10,d} rolls {t_vec:8.3f} s  {n_vec / t_vec:14,.0f} rolls/s")
    print(f"(b)  plain Python, random module    : {n_pl:>10,d} rolls {t_pl:8.3f} s  {n_pl / t_pl:14,.0f} rolls/s")
    print(f"(b2) plain Python, numpy scalar ref : {n_ref:>10,d} rolls {t_ref:8.3f} s  {n_ref / t_ref:14,.0f} rolls/s")
    print(f"(c)  bare numpy RNG                 : {n_vec:>10,d} rolls {t_rng:8.3f} s  {n_vec / t_rng:14,.0f} rolls/s")
    print(f"speedup vectorized / plain Python (random module) : {(n_vec / t_vec) / (n_pl / t_pl):8.1f}x")
    print(f"speedup vectorized / numpy-scalar reference       : {(n_vec / t_vec) / (n_ref / t_ref):8.1f}x")
    print(f"vectorized time / bare RNG time                  : {t_vec / t_rng:8.2f}x")

    t_ours_cold = min_time(ours_tables, 1)  # caches are cleared inside ours_tables
    t_ours = min_time(ours_tables, repeat)
    t_ice_cold = min_time(icepool_tables, 1)  # first call in this process
    t_ice = min_time(icepool_tables, 1 if args.quick else 2)  # icepool keeps its own caches
    s, w = ours_tables()
    s_ice, w_ice = icepool_tables()
    ok = all(s.loc[a, d] == v for (a, d), v in s_ice.items()) and all(
        {k: q for k, q in w.loc[(x, p)].items() if q} == v for (x, p), v in w_ice.items())
    print("exact tables (P(success) 12 x 13 and wound distributions 12 x 9, as fractions):")
    print(f"(d) gamesim (numpy convolution) : first {t_ours_cold:8.4f} s, best {t_ours:8.4f} s")
    print(f"(e) icepool                     : first {t_ice_cold:8.4f} s, best {t_ice:8.4f} s (warm caches)")
    print(f"icepool time / gamesim time     : first {t_ice_cold / t_ours_cold:6.1f}x, best {t_ice / t_ours:6.1f}x"
          f"   tables identical: {ok}")

    n_act = 20_000 if args.quick else 500_000
    n_act_ref = 300 if args.quick else 5_000
    actions = [(Skill(4, 3, "dodge_blight"), 3), (Skill(3, 4), 3)]
    kw = dict(n_models=3, attacker=Status(accuracy=1), target_status=Status(dodge=1))
    tgt = Target(2, 1, 2)
    t_a = min_time(lambda: run_activation(actions, tgt, n_act, rng=rng, **kw), repeat)
    t_ap = min_time(lambda: plain_activation(actions, tgt, n_act_ref, seed=int(rng.integers(2**32)), **kw), 1)
    t_ar = min_time(lambda: reference_activation(actions, tgt, n_act_ref, rng=rng, **kw), 1)
    print("full activation (2 actions x 3 targets, tokens):")
    print(f"(f)  vectorized                     : {n_act:>10,d} activations {t_a:8.3f} s  {n_act / t_a:12,.0f} activations/s")
    print(f"(g)  plain Python, random module    : {n_act_ref:>10,d} activations {t_ap:8.3f} s  "
          f"{n_act_ref / t_ap:12,.0f} activations/s")
    print(f"(g2) plain Python, numpy scalar ref : {n_act_ref:>10,d} activations {t_ar:8.3f} s  "
          f"{n_act_ref / t_ar:12,.0f} activations/s")
    print(f"speedup activation vectorized / plain Python (random module) : {(n_act / t_a) / (n_act_ref / t_ap):8.1f}x")
    print(f"speedup activation vectorized / numpy-scalar reference       : {(n_act / t_a) / (n_act_ref / t_ar):8.1f}x")


if __name__ == "__main__":
    main()
