"""Tests of Godtear's simulator: Monte Carlo vs exact, vs the plain-Python reference, reproducibility and chunking.

Golden values come from mathematics (the rulebook's worked examples, brute-force
enumeration of faces, closed forms) and from icepool, an independent exact dice
library used here only as a test oracle. Stochastic tests compare estimates with
exact values (or two independent simulators) at 4.5 standard errors, with a fresh
seed per run, so they pass for any seed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest

from gamesim.games.godtear import (
    DuelState,
    Skill,
    Status,
    Target,
    expected_uses_to_knockout,
    knockout_chain,
    p_knockout,
    reference_activation,
    reference_knockout,
    reference_rolls,
    roll_pmf,
    run_activation,
    run_knockout,
    sample_rolls,
)
from tests.conftest import assert_proportion, assert_same_mean

Z = 4.5


# ---------------------------------------------------------------------------
# Monte Carlo vs exact
# ---------------------------------------------------------------------------


def _assert_prop(x: np.ndarray, p: float) -> None:
    assert_proportion(x, p, z=Z)


def _assert_mean(x: np.ndarray, mean: float, var: float) -> None:
    se = math.sqrt(max(var, 1e-12) / x.size)
    assert abs(x.mean() - mean) <= Z * se + 1e-12, (x.mean(), mean, se)


@pytest.mark.parametrize("n", [0, 1, 4, 12])
def test_sample_rolls_vs_exact(n: int, seed: int) -> None:
    x = sample_rolls(n, 100_000, rng=seed)
    _assert_mean(x, n * 5 / 6, n * 17 / 36)
    pmf = roll_pmf(n)
    # every total: exact binomial test (the normal approximation fails for the rarest totals,
    # e.g. P(24 with 12 dice) = 6**-12); 6.8e-6 is the two-sided level of 4.5 standard errors
    counts = np.bincount(x, minlength=pmf.size)
    for t in range(pmf.size):
        assert binomtest(int(counts[t]), x.size, float(pmf[t])).pvalue >= 6.8e-6, (t, counts[t], pmf[t])
    assert x.min() >= 0 and x.max() <= 2 * n


@pytest.mark.parametrize("kw", [
    dict(a=4, x=4, d=2, p=1, h=5),
    dict(a=3, x=5, d=3, p=2, h=4, hit_effect="dodge_blight", accuracy_token=1),
    dict(a=5, x=3, d=4, p=1, h=3, hit_effect="protection_blight", dodge_token=1, protection_token=-1),
    dict(a=2, x=6, d=2, p=3, h=6, hit_effect="damage_boon_self", damage_token=-1),
    dict(a=3, x=3, d=3, p=1, h=2, hit_effect="accuracy_boon_self", accuracy_token=-1),
])
def test_run_knockout_vs_exact(kw: dict, seed: int) -> None:
    kw = dict(kw)
    a, x, d, p, h = (kw.pop(k) for k in ("a", "x", "d", "p", "h"))
    eff = kw.pop("hit_effect", "none")
    toks = {k: kw.get(k, 0) for k in ("accuracy_token", "damage_token", "dodge_token", "protection_token")}
    uses = 3
    r = run_knockout(Skill(a, x, eff), Target(d, p, h), 50_000, uses=uses, max_uses=200,
                     attacker=Status(accuracy=toks["accuracy_token"], damage=toks["damage_token"]),
                     target_status=Status(dodge=toks["dodge_token"], protection=toks["protection_token"]), rng=seed)
    ex = dict(dodge=d, protection=p, health=h, hit_effect=eff, **toks)
    _assert_prop(r["knockout"], p_knockout(a, x, uses=uses, **ex))
    init = DuelState(0, Status(accuracy=toks["accuracy_token"], damage=toks["damage_token"]),
                     Status(dodge=toks["dodge_token"], protection=toks["protection_token"]))
    dist = knockout_chain([Skill(a, x, eff)] * uses, Target(d, p, h), initial=init)[-1]
    m = sum(s.wounds * q for s, q in dist.items())
    v = sum(s.wounds**2 * q for s, q in dist.items()) - m**2
    _assert_mean(r["wounds"], m, v)
    t = r["uses_to_knockout"]
    assert not np.isnan(t).any()
    e_t = expected_uses_to_knockout(a, x, **ex)
    assert abs(t.mean() - e_t) <= Z * t.std(ddof=1) / math.sqrt(t.size), (t.mean(), e_t)


def test_run_activation_single_target_vs_exact(seed: int) -> None:
    s1, s2 = Skill(4, 4, "protection_blight"), Skill(3, 5, "dodge_blight")
    target = Target(3, 2, 4)
    att, unit = Status(accuracy=1, damage=-1), Status(dodge=1)
    r = run_activation([(s1, 1), (s2, 1)], target, 60_000, attacker=att, target_status=unit, rng=seed)
    dist = knockout_chain([s1, s2], target, initial=DuelState(0, att, unit))[-1]
    p = sum(q for s, q in dist.items() if s.knocked_out(4))
    _assert_prop(r["knockouts"] > 0, p)
    m = sum(s.wounds * q for s, q in dist.items())
    _assert_mean(r["wounds"], m, sum(s.wounds**2 * q for s, q in dist.items()) - m**2)


def test_run_activation_independent_models_vs_exact(seed: int) -> None:
    # every action targets every model and no token is shared: the models are independent
    s1, s2 = Skill(3, 3), Skill(4, 2)
    target = Target(2, 1, 2)
    r = run_activation([(s1, 3), (s2, 3)], target, 60_000, n_models=3, rng=seed)
    p = float(sum(q for s, q in knockout_chain([s1, s2], target)[-1].items() if s.knocked_out(2)))
    _assert_mean(r["knockouts"], 3 * p, 3 * p * (1 - p))
    for j in range(3):
        _assert_prop(r["wounds_per_model"][:, j] >= 2, p)


# ---------------------------------------------------------------------------
# Vectorized vs plain-Python reference
# ---------------------------------------------------------------------------


def _two_sample(a: np.ndarray, b: np.ndarray) -> None:
    assert_same_mean(a, b, z=Z)


def test_rolls_vs_reference(seed: int) -> None:
    ss = np.random.SeedSequence(seed).spawn(2)
    _two_sample(sample_rolls(5, 50_000, rng=ss[0]), reference_rolls(5, 5_000, rng=ss[1]))


def test_knockout_vs_reference(seed: int) -> None:
    ss = np.random.SeedSequence(seed).spawn(2)
    args = (Skill(3, 4, "dodge_blight"), Target(3, 1, 4), )
    kw = dict(uses=2, max_uses=100, attacker=Status(accuracy=1), target_status=Status(protection=1))
    v = run_knockout(*args, 50_000, rng=ss[0], **kw)
    r = reference_knockout(*args, 2_000, rng=ss[1], **kw)
    for k in ("knockout", "wounds", "uses_to_knockout"):
        _two_sample(v[k], r[k])


@pytest.mark.parametrize("actions, n_models, att, unit", [
    ([(Skill(3, 2, "dodge_blight"), 2), (Skill(4, 1), 3)], 3, Status(accuracy=1, damage=1), Status(dodge=1)),
    ([(Skill(2, 3, "protection_blight"), 1), (Skill(3, 3), 1)], 2, Status(), Status(protection=1)),
])
def test_activation_vs_reference(actions, n_models: int, att: Status, unit: Status, seed: int) -> None:
    ss = np.random.SeedSequence(seed).spawn(2)
    target = Target(2, 0, 1)
    v = run_activation(actions, target, 50_000, n_models=n_models, attacker=att, target_status=unit, rng=ss[0])
    r = reference_activation(actions, target, 3_000, n_models=n_models, attacker=att, target_status=unit, rng=ss[1])
    _two_sample(v["knockouts"], r["knockouts"])
    for j in range(n_models):
        _two_sample(v["wounds_per_model"][:, j], r["wounds_per_model"][:, j])


# ---------------------------------------------------------------------------
# Reproducibility and chunking
# ---------------------------------------------------------------------------


def test_reproducible_and_chunked(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamesim.games.godtear import sim

    kw = dict(uses=2, attacker=Status(accuracy=1))
    a = run_knockout(Skill(3, 4), Target(2, 1, 4), 5000, rng=7, **kw)
    b = run_knockout(Skill(3, 4), Target(2, 1, 4), 5000, rng=7, **kw)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    c = run_knockout(Skill(3, 4), Target(2, 1, 4), 5000, rng=8, **kw)
    assert not np.array_equal(a["uses_to_knockout"], c["uses_to_knockout"])
    monkeypatch.setattr(sim, "CHUNK_SIZE", 1000)
    r = run_activation([(Skill(3, 3), 2), (Skill(3, 3), 2)], Target(1, 0, 1), 2500, n_models=3, rng=1)
    assert r["wounds_per_model"].shape == (2500, 3)
    assert (r["knockouts"] <= 3).all() and (r["wounds"] <= 3).all()
    assert sample_rolls(3, 2500, rng=1).shape == (2500,)
