"""Benchmark of Godtear's dice: vectorized vs plain Python vs numba vs bare RNG; exact tables vs icepool.

Run ``python benchmarks/bench_godtear.py [--quick]`` (numba comes with the benchmark extra:
``pip install -e ".[test,bench]"``; without it the numba rows are skipped with a notice).
Times are CPU seconds of this process (``time.process_time``), best of 5 runs (of 1 with
``--quick``; 1 run for the plain-Python rows (b2), (g), (g2)); every path is single-threaded.
Rolls of ``--dice`` dice (default 5):

(a) the vectorized roller :func:`gamesim.games.godtear.sim.sample_rolls` (a
    ``(dice, trials)`` array of faces per chunk of 65,536, looked up and summed), called with
    the study's chunk (100,000 rolls: ``chunk_size`` of ``scenarios/godtear_hit_tables.toml``)
    and with a large one (5,000,000 rolls);
(b) :func:`plain_rolls`: what a competent Python programmer would write, the ``random``
    module (``sum(random.choices(faces, k=dice))`` per roll), the speed-up's baseline,
(b2) the package's plain-Python test reference
    :func:`gamesim.games.godtear.reference.reference_rolls` (one numpy scalar
    ``Generator.integers`` call, about 1 us, and one list lookup per die),
(b3) :data:`ROLLS_SOURCE` run as plain Python: one roll and one die at a time, the face
    looked up from a uniform of ``random.random``,
(n) the *same source* as (b3) compiled with ``numba.njit`` (faces as a numpy array, uniforms
    from numba's ``np.random.random``; compile time excluded): the limit a compiled scalar
    loop reaches, at both sizes,
(c) the bare numpy random numbers (a) needs: ``Generator.integers`` of the same
    ``(dice, chunk)`` shape and dtype, nothing else, at both sizes,

and prints rolls per second, the speed-ups (a)/(b) and (a)/(b2), the overhead (a)/(c) and
the ratio (a)/(n), all measured in one run (mean totals printed as a check that (a) and (n)
roll the same dice). Then it times the exact tables of the study,
P(success) for accuracy 1..12 x dodge 0..12 and the wound distribution for damage
1..12 x protection 0..8 (each as exact fractions, caches cleared), against icepool
(test-only dependency) computing the same tables, and checks they agree.
Finally a full activation (two actions, three targets, tokens):

(f) :func:`gamesim.games.godtear.sim.run_activation`, at the study's chunk (100,000
    activations: ``scenarios/godtear_knockout.toml``) and at 500,000;
(g) :func:`plain_activation` (the reference's loop and unchecked rules core, dice rolled with the
    ``random`` module) and (g2) the numpy-scalar twin
    :func:`gamesim.games.godtear.reference.reference_activation`;
(g3) :data:`ACTIVATION_SOURCE` run as plain Python: the same rules as (f) on integer
    tokens, one activation, model and die at a time, ``random.random`` uniforms;
(h) the same source compiled with ``numba.njit`` (compile time excluded);
(i) bare random numbers: ``Generator.integers(0, 6, dtype=uint8)`` producing as many faces
    as the activations roll (counted by (h)), nothing else;

with the ratios (f)/(g), (f)/(g2), (f)/(h) and (f) time / (i) time, and mean wounds of
(f), (g3) and (h) with standard errors as a check that they play the same game.
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
    HIT_EFFECTS,
    DuelState,
    Skill,
    Status,
    Target,
    _after_success,
    _dice_after_token,
    _is_success,
    _resolve_use,
)
from gamesim.games.godtear.sim import CHUNK_SIZE, run_activation, sample_rolls


#: One roll loop, executed twice: as plain Python (``random.random``) and under numba.
ROLLS_SOURCE = """
def rolls(rng, n_dice, n_trials, faces, n_faces, out):
    for i in range(n_trials):
        s = 0
        for _ in range(n_dice):
            s += faces[int(rng.random() * n_faces)]
        out[i] = s
    return 0
"""

#: One activation loop (the rules of ``run_activation`` on integer tokens), executed twice.
#: ``acts`` rows: accuracy, damage (-1: none), hit effect (index in HIT_EFFECTS), targets.
ACTIVATION_SOURCE = """
def gain(cur, g):
    if cur == 0:
        return g
    if cur == g:
        return cur
    return 0


def activations(rng, n_trials, n_models, acts, n_acts, health, t_dodge, t_prot, acc0, dmg0, dodge0, prot0,
                faces, n_faces, wounds):
    dice = 0
    for g in range(n_trials):
        base = g * n_models
        for j in range(n_models):
            wounds[base + j] = 0
        acc = acc0
        dmg = dmg0
        dodge = dodge0
        prot = prot0
        for a in range(n_acts):
            accuracy = acts[4 * a]
            damage = acts[4 * a + 1]
            eff = acts[4 * a + 2]
            n_t = acts[4 * a + 3]
            done = 0
            for j in range(n_models):
                if done == n_t:
                    break
                w = wounds[base + j]
                if w >= health:
                    continue
                done += 1
                k = max(accuracy + acc, 0)
                dice += k
                s = 0
                for _ in range(k):
                    s += faces[int(rng.random() * n_faces)]
                hit = s >= t_dodge + dodge
                acc = 0
                dodge = 0
                if not hit:
                    continue
                if eff == 1:
                    dodge = gain(dodge, -1)
                elif eff == 2:
                    prot = gain(prot, -1)
                elif eff == 3:
                    acc = gain(acc, 1)
                elif eff == 4:
                    dmg = gain(dmg, 1)
                if damage < 0:
                    continue
                k = max(damage + dmg, 0)
                dice += k
                d = 0
                for _ in range(k):
                    d += faces[int(rng.random() * n_faces)]
                p = max(t_prot + prot, 0)
                wounds[base + j] = w + min(max(d - p, 0), health - w)
                dmg = 0
                prot = 0
    return dice
"""


def build(source: str, name: str, *, numba: bool, legacy: bool = False):  # type: ignore[no-untyped-def]
    """Function ``name`` of ``source``, as plain Python or compiled by numba.

    Plain Python takes a ``random.Random`` as ``rng``; compiled, a numpy ``Generator`` (numba
    draws from its PCG64 bit generator, the one (a) uses), or with ``legacy`` the source's
    ``rng.random()`` becomes numba's own ``np.random.random()`` (MT19937; ``rng`` is ignored).
    Raises ImportError when numba is asked for and not installed.
    """
    src = source.replace("rng.random()", "np.random.random()") if legacy else source
    ns: dict = {"max": max, "min": min, "int": int, "range": range, "np": np}
    exec(src, ns)  # noqa: S102 - our own source, run as Python and compiled
    if not numba:
        return ns[name]
    import numba as nb

    if "gain" in ns:
        ns["gain"] = nb.njit(ns["gain"])
    return nb.njit(cache=False)(ns[name])


def numba_seed(seed: int) -> None:
    """Seed numba's own generator (a separate state from numpy's)."""
    import numba as nb

    nb.njit(lambda s: np.random.seed(s))(seed)


def activation_args(rng, actions, target, n_trials, *, n_models, attacker, target_status, out,  # type: ignore[no-untyped-def]
                    as_list):
    """Arguments of ``activations`` for ``run_activation``'s set-up."""
    acts = []
    for skill, n_t in actions:
        acts += [skill.accuracy, -1 if skill.damage is None else skill.damage, HIT_EFFECTS.index(skill.hit_effect),
                 n_t]
    faces = list(GODTEAR_DIE.face_values)
    if not as_list:
        acts, faces = np.array(acts, np.int64), np.array(faces, np.int64)
    return (rng, n_trials, n_models, acts, len(actions), target.health, target.dodge, target.protection,
            attacker.accuracy, attacker.damage, target_status.dodge, target_status.protection, faces, len(faces), out)


def plain_rolls(n_dice: int, n_trials: int, *, seed: int | None = None) -> list[int]:
    """Totals of ``n_dice`` Godtear dice, plain Python with the ``random`` module."""
    choices = random.Random(seed).choices
    faces = GODTEAR_DIE.face_values
    return [sum(choices(faces, k=n_dice)) for _ in range(n_trials)]


def plain_activation(actions, target, n_trials, *, n_models, attacker, target_status,  # type: ignore[no-untyped-def]
                     seed=None):
    """:func:`reference_activation`'s loop (same unchecked rules core) with dice from the ``random`` module.

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
                s = sum(choices(faces, k=_dice_after_token(skill.accuracy, st.attacker.accuracy)))
                d = None
                if _is_success(s, target.dodge + st.target.dodge) and skill.damage is not None:
                    a2, _ = _after_success(st, skill)
                    d = sum(choices(faces, k=_dice_after_token(skill.damage, a2.damage)))
                st = _resolve_use(st, skill, target, s, d)
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
    ap.add_argument("--trials", type=int, default=None, help="vectorized / bare-RNG rolls (large size)")
    ap.add_argument("--ref-trials", type=int, default=None, help="plain-Python rolls")
    args = ap.parse_args(argv)
    n_study = 20_000 if args.quick else 100_000  # chunk_size of scenarios/godtear_hit_tables.toml
    n_vec = args.trials or (200_000 if args.quick else 5_000_000)
    n_ref = args.ref_trials or (2_000 if args.quick else 50_000)
    repeat = 1 if args.quick else 5
    rng = np.random.default_rng(20261121)
    n = args.dice
    try:
        import numba
    except ImportError:
        numba = None
    print(f"godtear benchmark: rolls of {n} Godtear dice (faces 0,0,1,1,1,2); "
          f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"numba {numba.__version__ if numba else 'not installed'}; chunk {CHUNK_SIZE}; "
          f"CPU time, best of {repeat}")

    sizes = (("study", n_study), ("large", n_vec))
    t_vec = {k: min_time(lambda m=m: sample_rolls(n, m, rng=rng), repeat) for k, m in sizes}
    m_vec = float(sample_rolls(n, n_vec, rng=rng).mean())
    n_pl = 5 * n_ref
    t_pl = min_time(lambda: plain_rolls(n, n_pl, seed=int(rng.integers(2**32))), repeat)
    t_ref = min_time(lambda: reference_rolls(n, n_ref, rng=rng), 1)
    faces = GODTEAR_DIE.face_values
    py_rolls = build(ROLLS_SOURCE, "rolls", numba=False)
    py_rng = random.Random(20261127)
    nb_rng = np.random.default_rng(20261127)
    out_py = [0] * n_pl
    t_src = min_time(lambda: py_rolls(py_rng, n, n_pl, list(faces), len(faces), out_py), repeat)
    t_rng = {k: min_time(lambda m=m: bare_rng(n, m, rng), repeat) for k, m in sizes}
    t_nb: dict[str, float] = {}
    t_nl: dict[str, float] = {}
    m_nb = float("nan")
    if numba is not None:
        nb_rolls = build(ROLLS_SOURCE, "rolls", numba=True)
        nb_legacy = build(ROLLS_SOURCE, "rolls", numba=True, legacy=True)
        numba_seed(20261127)
        fa = np.array(faces, np.int64)
        out = np.zeros(n_vec, np.int64)
        nb_rolls(nb_rng, n, 10, fa, fa.size, out)  # compile outside the timing
        nb_legacy(0, n, 10, fa, fa.size, out)
        t_nb = {k: min_time(lambda m=m: nb_rolls(nb_rng, n, m, fa, fa.size, out), repeat) for k, m in sizes}
        t_nl = {k: min_time(lambda m=m: nb_legacy(0, n, m, fa, fa.size, out), repeat) for k, m in sizes}
        nb_rolls(nb_rng, n, n_vec, fa, fa.size, out)
        m_nb = float(out.mean())
    print(f"(a)  vectorized, study chunk        : {n_study:>10,d} rolls {t_vec['study']:8.3f} s  "
          f"{n_study / t_vec['study']:14,.0f} rolls/s")
    print(f"(a)  vectorized, large              : {n_vec:>10,d} rolls {t_vec['large']:8.3f} s  "
          f"{n_vec / t_vec['large']:14,.0f} rolls/s")
    print(f"(b)  plain Python, random module    : {n_pl:>10,d} rolls {t_pl:8.3f} s  {n_pl / t_pl:14,.0f} rolls/s")
    print(f"(b2) plain Python, numpy scalar ref : {n_ref:>10,d} rolls {t_ref:8.3f} s  {n_ref / t_ref:14,.0f} rolls/s")
    print(f"(b3) scalar source, plain Python    : {n_pl:>10,d} rolls {t_src:8.3f} s  {n_pl / t_src:14,.0f} rolls/s")
    if numba is None:
        print("(n)  numba: numba not installed (pip install -e '.[bench]')")
    else:
        for k, m in sizes:
            print(f"(n)  same source, numba, {k:<11s}: {m:>10,d} rolls {t_nb[k]:8.3f} s  {m / t_nb[k]:14,.0f} rolls/s")
        for k, m in sizes:
            print(f"(n2) numba, MT19937, {k:<15s}: {m:>10,d} rolls {t_nl[k]:8.3f} s  {m / t_nl[k]:14,.0f} rolls/s")
    for k, m in sizes:
        print(f"(c)  bare numpy RNG, {k:<15s}: {m:>10,d} rolls {t_rng[k]:8.3f} s  {m / t_rng[k]:14,.0f} rolls/s")
    print(f"check: mean total of {n} dice (a) {m_vec:.4f}, (n) {m_nb:.4f}, exact {n * np.mean(faces):.4f} "
          f"(standard error {np.std(faces) * np.sqrt(n / n_vec):.4f})")
    print(f"speedup vectorized / plain Python (random module) : {(n_vec / t_vec['large']) / (n_pl / t_pl):8.1f}x")
    print(f"speedup vectorized / numpy-scalar reference       : {(n_vec / t_vec['large']) / (n_ref / t_ref):8.1f}x")
    print(f"vectorized time / bare RNG time                  : {t_vec['large'] / t_rng['large']:8.2f}x")
    for k, m in sizes:
        line = f"rolls, {k:<5s}: vectorized time / bare RNG time {t_vec[k] / t_rng[k]:6.2f}x"
        if numba is not None:
            line += (f", vectorized time / numba time {t_vec[k] / t_nb[k]:6.2f}x"
                     f" (numba MT19937: {t_vec[k] / t_nl[k]:.2f}x)")
        print(line)

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

    n_act_study = 20_000 if args.quick else 100_000  # chunk_size of scenarios/godtear_knockout.toml
    n_act = 50_000 if args.quick else 500_000
    n_act_ref = 300 if args.quick else 5_000
    actions = [(Skill(4, 3, "dodge_blight"), 3), (Skill(3, 4), 3)]
    kw = dict(n_models=3, attacker=Status(accuracy=1), target_status=Status(dodge=1))
    tgt = Target(2, 1, 2)
    act_sizes = (("study", n_act_study), ("large", n_act))
    t_a = {k: min_time(lambda m=m: run_activation(actions, tgt, m, rng=rng, **kw), repeat) for k, m in act_sizes}
    w_vec = run_activation(actions, tgt, n_act, rng=rng, **kw)["wounds"]
    t_ap = min_time(lambda: plain_activation(actions, tgt, n_act_ref, seed=int(rng.integers(2**32)), **kw), 1)
    t_ar = min_time(lambda: reference_activation(actions, tgt, n_act_ref, rng=rng, **kw), 1)
    n_src = 4 * n_act_ref
    py_act = build(ACTIVATION_SOURCE, "activations", numba=False)
    w_py = [0] * (n_src * kw["n_models"])
    t_as = min_time(lambda: py_act(*activation_args(py_rng, actions, tgt, n_src, out=w_py, as_list=True, **kw)),
                    repeat)
    w_py_tot = np.array(w_py).reshape(n_src, -1).sum(axis=1)
    t_ah: dict[str, float] = {}
    t_al: dict[str, float] = {}
    t_ai: dict[str, float] = {}
    dice_per = float("nan")
    w_nb_tot = np.full(1, np.nan)
    if numba is not None:
        nb_act = build(ACTIVATION_SOURCE, "activations", numba=True)
        nb_act_l = build(ACTIVATION_SOURCE, "activations", numba=True, legacy=True)
        w_nb = np.zeros(n_act * kw["n_models"], np.int64)
        nb_act(*activation_args(nb_rng, actions, tgt, 10, out=w_nb, as_list=False, **kw))  # compile outside the timing
        nb_act_l(*activation_args(0, actions, tgt, 10, out=w_nb, as_list=False, **kw))
        t_al = {k: min_time(lambda m=m: nb_act_l(*activation_args(0, actions, tgt, m, out=w_nb, as_list=False, **kw)),
                            repeat) for k, m in act_sizes}
        t_ah = {k: min_time(lambda m=m: nb_act(*activation_args(nb_rng, actions, tgt, m, out=w_nb, as_list=False,
                                                                 **kw)), repeat) for k, m in act_sizes}
        dice_per = nb_act(*activation_args(nb_rng, actions, tgt, n_act, out=w_nb, as_list=False, **kw)) / n_act
        w_nb_tot = w_nb.reshape(n_act, -1).sum(axis=1)
        t_ai = {k: min_time(lambda m=m: rng.integers(0, 6, size=int(dice_per * m), dtype=np.uint8), repeat)
                for k, m in act_sizes}
    print("full activation (2 actions x 3 targets, tokens):")
    for k, m in act_sizes:
        print(f"(f)  vectorized, {k:<5s}              : {m:>10,d} activations {t_a[k]:8.3f} s  "
              f"{m / t_a[k]:12,.0f} activations/s")
    print(f"(g)  plain Python, random module    : {n_act_ref:>10,d} activations {t_ap:8.3f} s  "
          f"{n_act_ref / t_ap:12,.0f} activations/s")
    print(f"(g2) plain Python, numpy scalar ref : {n_act_ref:>10,d} activations {t_ar:8.3f} s  "
          f"{n_act_ref / t_ar:12,.0f} activations/s")
    print(f"(g3) scalar source, plain Python    : {n_src:>10,d} activations {t_as:8.3f} s  "
          f"{n_src / t_as:12,.0f} activations/s")
    if numba is None:
        print("(h)  numba: numba not installed (pip install -e '.[bench]')")
    else:
        for k, m in act_sizes:
            print(f"(h)  same source, numba, {k:<5s}      : {m:>10,d} activations {t_ah[k]:8.3f} s  "
                  f"{m / t_ah[k]:12,.0f} activations/s")
        for k, m in act_sizes:
            print(f"(h2) numba, MT19937, {k:<5s}          : {m:>10,d} activations {t_al[k]:8.3f} s  "
                  f"{m / t_al[k]:12,.0f} activations/s")
        for k, m in act_sizes:
            print(f"(i)  bare numpy RNG, {k:<5s}          : {m:>10,d} activations {t_ai[k]:8.3f} s  "
                  f"{m / t_ai[k]:12,.0f} activations/s  ({dice_per:.2f} dice per activation)")
    se = lambda x: float(np.std(x) / np.sqrt(x.size))  # noqa: E731
    print(f"check: mean wounds (f) {w_vec.mean():.4f} +- {se(w_vec):.4f}, (g3) {w_py_tot.mean():.4f} +- "
          f"{se(w_py_tot):.4f}, (h) {w_nb_tot.mean():.4f} +- {se(w_nb_tot):.4f}")
    print(f"speedup activation vectorized / plain Python (random module) : "
          f"{(n_act / t_a['large']) / (n_act_ref / t_ap):8.1f}x")
    print(f"speedup activation vectorized / numpy-scalar reference       : "
          f"{(n_act / t_a['large']) / (n_act_ref / t_ar):8.1f}x")
    if numba is not None:
        for k, m in act_sizes:
            print(f"activation, {k:<5s}: vectorized time / numba time {t_a[k] / t_ah[k]:6.2f}x "
                  f"(numba MT19937: {t_a[k] / t_al[k]:.2f}x), "
                  f"vectorized time / bare RNG time {t_a[k] / t_ai[k]:6.2f}x")


if __name__ == "__main__":
    main()
