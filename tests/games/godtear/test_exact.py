"""Tests of Godtear's exact rolls (enumeration, closed forms, icepool) and knock-out chain.

Golden values come from mathematics (the rulebook's worked examples, brute-force
enumeration of faces, closed forms) and from icepool, an independent exact dice
library used here only as a test oracle. Stochastic tests compare estimates with
exact values (or two independent simulators) at 4.5 standard errors, with a fresh
seed per run, so they pass for any seed.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import icepool
import numpy as np
import pytest

from gamesim.games.godtear import (
    GODTEAR_DIE,
    DieSpec,
    expected_uses_to_knockout,
    expected_wounds_table,
    knockout_curve,
    min_stat_lines,
    p_knockout,
    p_knockout_fraction,
    p_success,
    p_success_fraction,
    roll_outcomes,
    roll_pmf,
    roll_pmf_fraction,
    success_table,
    uses_to_knockout_quantile,
    wounds_distribution_table,
    wounds_pmf,
    wounds_pmf_fraction,
)

ICE_DIE = icepool.Die({0: 2, 1: 3, 2: 1})


def _ice_pmf(die: icepool.Die) -> dict[int, Fraction]:
    return {int(o): Fraction(p) for o, p in zip(die.outcomes(), die.probabilities())}


# ---------------------------------------------------------------------------
# Exact rolls: enumeration, closed forms and icepool
# ---------------------------------------------------------------------------


def test_roll_pmf_small_cases() -> None:
    np.testing.assert_allclose(roll_pmf(0), [1.0])
    np.testing.assert_allclose(roll_pmf(1), [1 / 3, 1 / 2, 1 / 6])
    assert roll_pmf_fraction(2) == [Fraction(1, 9), Fraction(1, 3), Fraction(13, 36), Fraction(1, 6), Fraction(1, 36)]
    with pytest.raises(ValueError):
        roll_pmf(-1)


@pytest.mark.parametrize("n", range(0, 6))
def test_roll_pmf_matches_enumeration(n: int) -> None:
    counts = [0] * (2 * n + 1)
    for faces in itertools.product(GODTEAR_DIE.face_values, repeat=n):
        counts[sum(faces)] += 1
    assert roll_pmf_fraction(n) == [Fraction(c, 6**n) for c in counts]
    assert [p for _, p in roll_outcomes(n)] == [Fraction(c, 6**n) for c in counts if c]


def test_roll_pmf_matches_icepool_and_moments() -> None:
    for n in range(0, 21):
        ours = roll_pmf_fraction(n)
        ice = _ice_pmf(n @ ICE_DIE)
        assert {t: p for t, p in enumerate(ours) if p} == ice, n
        pmf = roll_pmf(n)
        t = np.arange(pmf.size)
        assert math.isclose(pmf.sum(), 1.0)
        assert math.isclose(pmf @ t, n * 5 / 6, abs_tol=1e-12)
        assert math.isclose(pmf @ t**2 - (pmf @ t) ** 2, n * 17 / 36, abs_tol=1e-10)


def test_other_dice_match_icepool() -> None:
    d6 = DieSpec((1, 1, 1, 1, 1, 1))  # faces 0..5
    assert d6.max_pips == 5 and d6.n_faces == 6
    for n in range(0, 5):
        assert {t: p for t, p in enumerate(roll_pmf_fraction(n, die=d6)) if p} == _ice_pmf(n @ (icepool.d6 - 1))
    heavy = DieSpec((1, 1, 4))
    ice = icepool.Die({0: 1, 1: 1, 2: 4})
    for a in range(1, 7):
        for d in range(0, 13):
            assert p_success_fraction(a, d, die=heavy) == (a @ ice).probability(">=", d)
    assert DieSpec((2, 3, 1, 0)) == GODTEAR_DIE
    with pytest.raises(ValueError):
        DieSpec((0, 0))


@pytest.mark.parametrize("boon", [-1, 0, 1])
def test_success_table_matches_icepool(boon: int) -> None:
    table = success_table(range(1, 13), range(0, 13), boon=boon, exact=True)
    for a in range(1, 13):
        n = max(a + boon, 0)
        die_n = n @ ICE_DIE
        for d in range(0, 13):
            assert table.loc[a, d] == die_n.probability(">=", d), (a, d, boon)
            assert p_success(a, d, boon=boon) == float(table.loc[a, d])
    floats = success_table(boon=boon)
    assert floats.dtype == np.float64 if hasattr(floats, "dtype") else True
    np.testing.assert_allclose(floats.to_numpy(float), table.to_numpy(float))


def test_p_success_edges() -> None:
    assert p_success(0, 0) == 1.0 and p_success(0, 1) == 0.0
    assert p_success(1, 0, boon=-1) == 1.0
    assert p_success_fraction(4, 2) == Fraction(74, 81)
    with pytest.raises(ValueError, match="dodge = -1"):  # issue 9: negative dodge refused, not clamped
        p_success(3, -1)
    for bad in (2, -2, True):
        with pytest.raises(ValueError):
            p_success(3, 2, boon=bad)
    with pytest.raises(ValueError):
        p_success(-1, 2)


@pytest.mark.parametrize("health", [None, 1, 3])
@pytest.mark.parametrize("boon", [-1, 0, 1])
def test_wounds_pmf_matches_icepool(health: int | None, boon: int) -> None:
    for x in range(1, 13):
        n = max(x + boon, 0)
        for p in range(0, 9):
            ice = (n @ ICE_DIE - p)
            ice = ice.clip(0, health) if health is not None else ice.clip(0, None)
            ours = wounds_pmf_fraction(x, p, health=health, boon=boon)
            assert {w: q for w, q in enumerate(ours) if q} == _ice_pmf(ice), (x, p, health, boon)
            if health is not None:
                assert len(ours) == health + 1
    np.testing.assert_allclose(wounds_pmf(5, 3, health=2), np.array(wounds_pmf_fraction(5, 3, health=2), float))


def test_wound_tables() -> None:
    ew = expected_wounds_table(exact=True)
    assert ew.shape == (12, 9)
    # protection 0: mean wounds = mean pips = 5/6 per die
    assert all(ew.loc[x, 0] == Fraction(5 * x, 6) for x in range(1, 13))
    dist = wounds_distribution_table(range(1, 4), range(0, 3), exact=True)
    assert all(sum(r) == 1 for r in dist.itertuples(index=False))
    np.testing.assert_allclose(expected_wounds_table().to_numpy(float), ew.to_numpy(float))
    with pytest.raises(ValueError):
        wounds_pmf(3, 1, health=0)


# ---------------------------------------------------------------------------
# Exact knock-out chain: closed forms
# ---------------------------------------------------------------------------


def _one_use_wounds(a: int, x: int, d: int, p: int, h: int, acc_boon: int = 0) -> np.ndarray:
    """Wound distribution of one use: miss -> 0 wounds; hit -> wounds_pmf (capped at h)."""
    ps = p_success(a, d, boon=acc_boon)
    w = wounds_pmf(x, p, health=h) * ps
    w[0] += 1 - ps
    return w


@pytest.mark.parametrize("a, x, d, p, h", [(4, 4, 2, 1, 5), (3, 6, 3, 2, 4), (6, 3, 4, 0, 2), (2, 2, 1, 1, 1)])
def test_knockout_closed_forms(a: int, x: int, d: int, p: int, h: int) -> None:
    one = _one_use_wounds(a, x, d, p, h)
    assert math.isclose(p_knockout(a, x, dodge=d, protection=p, health=h, uses=1), one[h], abs_tol=1e-14)
    # two uses without tokens: wounds of the uses add up (capped at health)
    two = np.convolve(one, one)
    assert math.isclose(p_knockout(a, x, dodge=d, protection=p, health=h, uses=2), two[h:].sum(), abs_tol=1e-13)
    three = np.convolve(two, one)
    assert math.isclose(p_knockout(a, x, dodge=d, protection=p, health=h, uses=3), three[h:].sum(), abs_tol=1e-13)
    # exact fraction agrees with the float
    fr = p_knockout_fraction(a, x, dodge=d, protection=p, health=h, uses=3)
    assert isinstance(fr, Fraction) and math.isclose(float(fr), three[h:].sum(), abs_tol=1e-13)
    curve = knockout_curve(a, x, dodge=d, protection=p, health=h, uses=6)
    assert curve[0] == 0 and all(b >= c - 1e-15 for b, c in zip(curve[1:], curve))


def test_knockout_with_tokens_closed_forms() -> None:
    a, x, d, p, h = 3, 4, 3, 2, 3
    # an accuracy boon helps the first use only
    one_b = _one_use_wounds(a, x, d, p, h, acc_boon=1)
    one = _one_use_wounds(a, x, d, p, h)
    got = p_knockout(a, x, dodge=d, protection=p, health=h, uses=2, accuracy_token=1)
    assert math.isclose(got, np.convolve(one_b, one)[h:].sum(), abs_tol=1e-13)
    # a protection-blight success effect lowers protection for the same use's damage roll
    ps = p_success(a, d)
    expect = ps * wounds_pmf(x, p - 1, health=h)[h]
    assert math.isclose(p_knockout(a, x, dodge=d, protection=p, health=h, uses=1, hit_effect="protection_blight"),
                        expect, abs_tol=1e-14)
    # a dodge-blight success effect lowers dodge for the *next* success roll
    w_hit = wounds_pmf(x, p, health=h)
    ps2 = p_success(a, d - 1)
    p_ko2 = ps * w_hit[h] + ps * sum(w_hit[w] * ps2 * wounds_pmf(x, p, health=h - w)[h - w] for w in range(h)) \
        + (1 - ps) * ps * w_hit[h]
    assert math.isclose(p_knockout(a, x, dodge=d, protection=p, health=h, uses=2, hit_effect="dodge_blight"),
                        p_ko2, abs_tol=1e-13)


def test_expected_uses_closed_forms() -> None:
    # health 1: geometric, p = P(success) * P(at least one wound)
    a, x, d, p = 4, 3, 3, 1
    q = p_success(a, d) * (1 - wounds_pmf(x, p)[0])
    assert math.isclose(expected_uses_to_knockout(a, x, dodge=d, protection=p, health=1), 1 / q, rel_tol=1e-10)
    assert uses_to_knockout_quantile(0.5, a, x, dodge=d, protection=p, health=1) == math.ceil(
        math.log(0.5) / math.log(1 - q) - 1e-12)
    # damage that cannot beat protection never knocks out
    assert expected_uses_to_knockout(3, 1, dodge=0, protection=2, health=1) == math.inf
    assert uses_to_knockout_quantile(0.5, 3, 1, dodge=0, protection=2, health=1, max_uses=20) == math.inf
    # E[T] = sum_k P(T > k)
    curve = knockout_curve(4, 4, dodge=2, protection=1, health=5, uses=400)
    assert math.isclose(expected_uses_to_knockout(4, 4, dodge=2, protection=1, health=5),
                        sum(1 - c for c in curve), rel_tol=1e-9)


def test_min_stat_lines_brute_force() -> None:
    df = min_stat_lines(dodge=3, protection=2, health=4, uses=2, max_accuracy=8, max_damage=10)
    for _, r in df.iterrows():
        a, x = int(r.accuracy), int(r.min_damage)
        assert p_knockout(a, x, dodge=3, protection=2, health=4, uses=2) >= 0.5
        if x > 0:
            assert p_knockout(a, x - 1, dodge=3, protection=2, health=4, uses=2) < 0.5
    assert df.pareto.iloc[0]
    assert (np.diff(df.min_damage) <= 0).all()  # more accuracy never needs more damage


def test_knockout_argument_errors() -> None:
    with pytest.raises(ValueError):
        p_knockout(3, 3, dodge=2, protection=1, health=0, uses=2)
    with pytest.raises(ValueError):
        p_knockout(3, 3, dodge=2, protection=1, health=3, uses=-1)
    with pytest.raises(ValueError):
        p_knockout(3, 3, dodge=2, protection=1, health=3, uses=1, accuracy_token=3)
    with pytest.raises(ValueError):
        p_knockout(3, 3, dodge=2, protection=1, health=3, uses=1, hit_effect="fireball")
