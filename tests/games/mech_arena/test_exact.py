"""Exact weapon calculators of Mech Arena 2013: closed forms against enumeration of every roll."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from gamesim.games.mech_arena import exact as ex
from gamesim.games.mech_arena.data import load_weapons
from gamesim.games.mech_arena.rules import MechParams, check_probability, hp_check_probability


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_finger_flare_closed_form_equals_enumeration(k: int) -> None:
    closed, listed = ex.finger_flare(k), ex.finger_flare_enumerated(k)
    assert closed == listed
    assert closed.p_self_damage == 1 - Fraction(5, 6) ** k
    assert closed.expected_armour == k * Fraction(3, 5) * Fraction(5, 6) ** k
    assert closed.p_self_damage + sum(closed.p_armour) == 1


def test_finger_flare_values_by_hand() -> None:
    assert ex.finger_flare(1).expected_armour == Fraction(1, 2)  # one die: 4, 5 or 6
    assert ex.finger_flare(2).expected_armour == Fraction(5, 6)  # 2 * 3/5 * 25/36
    assert ex.finger_flare(2).p_armour == (Fraction(4, 36), Fraction(12, 36), Fraction(9, 36))


def test_best_k() -> None:
    # E[armour] = k * 3/5 * (5/6)^k grows up to k = 5 (its real maximum is at 1/ln(6/5) = 5.48)
    k, vals = ex.finger_flare_best_k(0)
    assert k == 5 and all(a < b for a, b in zip(vals, vals[1:]))
    # an HP worth 3 armour: one die is best (value 1/2 - 3/6 = 0, every other k is negative)
    k, vals = ex.finger_flare_best_k(3)
    assert k == 1 and vals[0] == pytest.approx(0) and max(vals[1:]) < 0
    # any self-cost: the best k is the argmax of the exact values
    k, vals = ex.finger_flare_best_k(1)
    exact = [float(ex.finger_flare(j).expected_armour - ex.finger_flare(j).p_self_damage) for j in range(1, 6)]
    assert vals == pytest.approx(exact) and k == 1 + max(range(5), key=lambda i: exact[i])


@pytest.mark.parametrize("reading", ["n_dice", "one_die"])
@pytest.mark.parametrize("level", [1, 2])
def test_check_probability_by_enumeration(level: int, reading: str) -> None:
    e = ex.check_probability_exact(level, reading)
    assert e == ({"n_dice": {1: Fraction(1, 2), 2: Fraction(3, 4)},
                  "one_die": {1: Fraction(1, 3), 2: Fraction(1, 2)}}[reading][level])
    assert check_probability(level, MechParams(check_reading=reading)) == pytest.approx(float(e))


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("armour", [0, 1, 2, 3])
def test_hp_check_by_enumeration(n: int, armour: int) -> None:
    e = ex.hp_check_exact(n, armour)
    assert e == Fraction(sum(comb(n, j) for j in range(armour + 1, n + 1)), 2**n)
    assert hp_check_probability(n, armour, MechParams()) == pytest.approx(float(e))
    six = ex.hp_check_exact(n, armour, "any_six")
    assert six == 1 - Fraction(5, 6) ** n
    assert hp_check_probability(n, armour, MechParams(hp_check="any_six")) == pytest.approx(float(six))


def test_hp_check_3_and_5_dice_at_full_armour() -> None:
    # 3 dice never beat 3 armour; 5 dice (アトミックスープレックス) do with P(4 or 5 of 5) = 6/32
    assert ex.hp_check_exact(3, 3) == 0
    assert ex.hp_check_exact(5, 3) == Fraction(6, 32)
    assert ex.hp_check_exact(3, 0) == Fraction(7, 8)


def test_weapon_values() -> None:
    ws = load_weapons()
    p = MechParams()
    uranus = ws.mechs[ws.index("uranus")]
    # armour 9: nothing is capped by the armour left, so the card's law shows in full
    rows = {(r["weapon"], r["option"]): r for r in ex.weapon_values(uranus, MechParams(start_armour=9), distance=2,
                                                                    armour=9)}
    for k in range(1, 6):
        f = ex.finger_flare(k)
        r = rows[("フィンガーフレア", k)]
        assert r["armour"] == pytest.approx(float(f.expected_armour))
        assert r["self_hp"] == pytest.approx(float(f.p_self_damage))
    capped = {(r["weapon"], r["option"]): r for r in ex.weapon_values(uranus, p, distance=2)}
    f4 = ex.finger_flare(4)  # at armour 3 a fourth point is lost: E = sum_j min(j, 3) p_j
    assert capped[("フィンガーフレア", 4)]["armour"] == pytest.approx(float(sum(min(j, 3) * q for j, q in
                                                                             enumerate(f4.p_armour))))
    assert rows[("イオンガン", "")]["armour"] == pytest.approx(0.5)  # 判定1 (n_dice: 1/2)
    leo = ws.mechs[ws.index("leo")]
    near = {r["weapon"]: r for r in ex.weapon_values(leo, p, distance=1)}
    assert near["ショットガン"]["armour"] == pytest.approx(1.0)  # {判定1で装甲1}を2回
    far = {(r["weapon"], r["option"]): r for r in ex.weapon_values(leo, p, distance=3)}
    assert far[("ショットガン", "")]["armour"] == pytest.approx(0.5)
    combo = {(r["weapon"], r["option"]): r for r in ex.weapon_values(leo, p, distance=3, combo=True)}
    assert combo[("ロケットジャンプ", "close")]["armour"] == pytest.approx(0.75)
    assert far[("ロケットジャンプ", "close")]["armour"] == pytest.approx(0.5)
