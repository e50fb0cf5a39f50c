"""Exact per-weapon values of Mech Arena 2013 where the text fixes them (rational arithmetic).

``finger_flare``
    フィンガーフレア with k dice (1..5): 「どれか1つでも1の目が出たら自分にHPダメージ1。1の目が出なければ
    4・5・6の出た数だけ相手に装甲ダメージ」. P(no 1) = (5/6)^k; given no 1, each die shows 2–6
    uniformly, so the armour dealt is Binomial(k, 3/5) and E[armour] = k · 3/5 · (5/6)^k.
    :func:`finger_flare_enumerated` gets the same numbers by listing all 6^k rolls (the tests'
    oracle for the closed form). :func:`finger_flare_best_k` is the k a player should choose
    when a point of self-damage costs ``self_cost`` armour points.
``check_probability_exact``
    判定N under a declared reading (base rule assumed): by enumeration of the dice.
``hp_check_exact``
    The HP-damage check of 格闘 with 3 dice (5 for アトミックスープレックス, 4 for デュアルブレード's
    combo) under a declared reading: by enumeration of all 6^n rolls.
``weapon_values``
    Expected armour and HP damage (and the chance of any damage) of every weapon of a mech from a
    given state, exactly over :func:`.rules.action_outcomes` (floats).

Source: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``, メックアリーナ2013 新機体.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from gamesim.core.validate import Bool, Choice, Float, Instance, Int, Ref, validate_params

from .data import Mech
from .rules import PARAMS, DuelState, MechParams, action_outcomes, legal_actions

__all__ = ["FingerFlare", "finger_flare", "finger_flare_enumerated", "finger_flare_best_k",
           "check_probability_exact", "hp_check_exact", "weapon_values"]

#: Most dice any enumeration here accepts (6**8 = 1.7 million rolls).
MAX_ENUM_DICE = 8


@dataclass(frozen=True)
class FingerFlare:
    """Exact outcome law of フィンガーフレア with ``k`` dice.

    Attributes
    ----------
    k : int
    p_self_damage : Fraction
        P(at least one 1) = 1 − (5/6)^k: the user takes 1 HP (or its armour becomes 1 at HP 1).
    p_armour : tuple of Fraction, length k + 1
        ``p_armour[j]`` = P(no 1 and exactly j dice show 4–6) (``j = 0`` includes "no 1, no 4–6").
    expected_armour : Fraction
        E[armour dealt] = k · 3/5 · (5/6)^k.
    """

    k: int
    p_self_damage: Fraction
    p_armour: tuple[Fraction, ...]
    expected_armour: Fraction


#: Dice enumerated (6^k rolls).
DICE = Int(1, MAX_ENUM_DICE)


@validate_params(k=DICE)
def finger_flare(k: int) -> FingerFlare:
    """The closed form of フィンガーフレア with ``k`` dice.

    Parameters
    ----------
    k : int
        Dice rolled, 1..MAX_ENUM_DICE (the card allows 1〜5).

    Returns
    -------
    FingerFlare

    Raises
    ------
    ParamError
        If ``k`` is not an integer in range.
    """
    q = Fraction(5, 6) ** k
    p_armour = tuple(q * _comb(k, j) * Fraction(3, 5) ** j * Fraction(2, 5) ** (k - j) for j in range(k + 1))
    return FingerFlare(k=k, p_self_damage=1 - q, p_armour=p_armour, expected_armour=k * Fraction(3, 5) * q)


#: Unchecked body of :func:`finger_flare` (for :func:`finger_flare_best_k`).
_finger_flare = finger_flare.__wrapped__


def _comb(n: int, j: int) -> int:
    from math import comb

    return comb(n, j)


@validate_params(k=DICE)
def finger_flare_enumerated(k: int) -> FingerFlare:
    """フィンガーフレア with ``k`` dice by listing all 6^k rolls (no formula).

    Parameters
    ----------
    k : int
        Dice rolled, 1..MAX_ENUM_DICE.

    Returns
    -------
    FingerFlare

    Raises
    ------
    ParamError
        If ``k`` is not an integer in 1..MAX_ENUM_DICE.
    """
    total = 6**k
    self_hits = 0
    counts = [0] * (k + 1)
    for roll in itertools.product(range(1, 7), repeat=k):
        if 1 in roll:
            self_hits += 1
        else:
            counts[sum(1 for d in roll if d >= 4)] += 1
    p_armour = tuple(Fraction(c, total) for c in counts)
    return FingerFlare(k=k, p_self_damage=Fraction(self_hits, total), p_armour=p_armour,
                       expected_armour=sum((j * pj for j, pj in enumerate(p_armour)), Fraction(0)))


@validate_params(self_cost=Float(0, 100), max_dice=DICE)
def finger_flare_best_k(self_cost: float, *, max_dice: int = 5) -> tuple[int, tuple[float, ...]]:
    """The dice count maximizing E[armour dealt] − ``self_cost`` · P(self-damage).

    Parameters
    ----------
    self_cost : float
        What the user's own damage is worth in armour points (e.g. 3 for an HP, our greedy
        player's HP_VALUE; 0 if it does not matter). 0..100.
    max_dice : int, default 5
        1〜5個 on the card. 1..MAX_ENUM_DICE.

    Returns
    -------
    (int, tuple of float)
        The best k (the smallest on a tie) and the value of each k = 1..max_dice.

    Raises
    ------
    ParamError
        For an argument of the wrong type or out of range.
    """
    c, n = self_cost, max_dice
    vals = tuple(float(f.expected_armour - Fraction(c) * f.p_self_damage) for f in map(_finger_flare, range(1, n + 1)))
    best = max(range(n), key=lambda i: (vals[i], -i))
    return best + 1, vals


@validate_params(level=Int(1, 2), reading=Choice(("n_dice", "one_die")))
def check_probability_exact(level: int, reading: str = "n_dice") -> Fraction:
    """判定N's success probability by enumerating the dice (base rule assumed, see MechParams).

    Parameters
    ----------
    level : int
        1 or 2.
    reading : {"n_dice", "one_die"}, default "n_dice"
        ``n_dice``: N dice, success if any shows 4–6. ``one_die``: one die, success on 6 − N or more.

    Returns
    -------
    Fraction

    Raises
    ------
    ParamError
        For a level other than 1 or 2 or an unknown reading.
    """
    lv = level
    if reading == "n_dice":
        rolls = list(itertools.product(range(1, 7), repeat=lv))
        return Fraction(sum(1 for r in rolls if max(r) >= 4), len(rolls))
    return Fraction(sum(1 for d in range(1, 7) if d >= 6 - lv), 6)


@validate_params(n_dice=DICE, armour=Int(0, 9), reading=Choice(("beat_armour", "any_six")))
def hp_check_exact(n_dice: int, armour: int, reading: str = "beat_armour") -> Fraction:
    """P(the HP-damage check of a 格闘 deals 1 HP), by enumerating all 6^n rolls.

    Parameters
    ----------
    n_dice : int
        3 (2013 text), 5 (アトミックスープレックス), 4 (デュアルブレード after リボルバー). 1..MAX_ENUM_DICE.
    armour : int
        The defender's armour (``beat_armour``). 0..9.
    reading : {"beat_armour", "any_six"}, default "beat_armour"
        Base rule assumed: more dice showing 4–6 than the armour, or any 6.

    Returns
    -------
    Fraction

    Raises
    ------
    ParamError
        For an argument of the wrong type or out of range.
    """
    n, a = n_dice, armour
    rolls = itertools.product(range(1, 7), repeat=n)
    if reading == "beat_armour":
        good = sum(1 for r in rolls if sum(1 for d in r if d >= 4) > a)
    else:
        good = sum(1 for r in rolls if 6 in r)
    return Fraction(good, 6**n)


@validate_params(mech=Instance(Mech, "a Mech (load_weapons().mechs[i])"), p=PARAMS,
                 distance=Int(0, Ref("p", "max_distance")), armour=Int(0, Ref("p", "start_armour")),
                 hp=Int(1, Ref("p", "start_hp")), combo=Bool())
def weapon_values(mech: Mech, p: MechParams, *, distance: int, armour: int = 3, hp: int = 2,
                  combo: bool = False) -> list[dict[str, object]]:
    """Exact expected damage of each legal action of ``mech`` from a fresh state at ``distance``.

    The opponent (a copy of ``mech``) has ``armour`` and ``hp``; the user has the starting values,
    full 気力 and no heat; ``combo``: the weapon named by each combo weapon's ``combo_after`` was
    used on the previous turn.

    Parameters
    ----------
    mech : Mech
        A mech of a weapon set (``load_weapons().mechs[i]``).
    p : MechParams
    distance : int
        0..``p.max_distance``.
    armour : int, default 3
        The opponent's armour, 0..``p.start_armour``.
    hp : int, default 2
        The opponent's HP, 1..``p.start_hp``.
    combo : bool, default False
        Whether each combo weapon's ``combo_after`` weapon was used on the previous turn.

    Returns
    -------
    list of dict
        One per legal action: ``weapon``, ``option``, ``armour`` (E[armour dealt]), ``hp`` (E[HP
        dealt]), ``p_damage`` (P(any damage dealt)), ``self_armour`` and ``self_hp`` (E[taken]).

    Raises
    ------
    ParamError
        For an argument of the wrong type or out of range.
    """
    d, a, h = distance, armour, hp
    heat = tuple(False for _ in mech.weapons)
    out = []
    for slot, opt in legal_actions(DuelState(distance=d, turn=0, to_move=0, armour=(p.start_armour, a),
                                             hp=(p.start_hp, h), ki=(p.max_ki, 0), heat=(heat, heat)),
                                   (mech, mech), p):
        w = mech.weapons[slot]
        prev = w.combo_after if (combo and w.combo_after is not None) else -1
        s = DuelState(distance=d, turn=0, to_move=0, armour=(p.start_armour, a), hp=(p.start_hp, h),
                      ki=(p.max_ki, 0), prev=(prev, -1), heat=(heat, heat))
        outs = action_outcomes(s, (slot, opt), (mech, mech), p)
        out.append({
            "weapon": w.name, "option": (w.options[opt] if w.options else (opt + 1 if w.special == "finger_flare"
                                                                           else "")),
            "armour": sum(pr * (a - t.armour[1]) for pr, t in outs),
            "hp": sum(pr * (h - t.hp[1]) for pr, t in outs),
            "p_damage": sum(pr for pr, t in outs if t.armour[1] < a or t.hp[1] < h),
            "self_armour": sum(pr * (p.start_armour - t.armour[0]) for pr, t in outs),
            "self_hp": sum(pr * (p.start_hp - t.hp[0]) for pr, t in outs),
        })
    return out
