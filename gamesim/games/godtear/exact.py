"""Exact solvers for Godtear's dice and combat: convolution and a small Markov chain.

* Rolls: the distribution of the pips total of ``n`` dice is the ``n``-fold
  convolution of the die's face counts (``numpy.convolve``, integer counts, so the
  float tables are exact up to rounding and the :class:`fractions.Fraction` tables
  exact).
* Success roll (成功判定) and damage roll (ダメージ判定): tail sums and shifts of
  that distribution.
* Several uses of a skill against one target (打倒): a Markov chain over
  :class:`~gamesim.games.godtear.rules.DuelState` (wounds and the status tokens
  that matter), whose one-step outcomes are listed by the rules core
  (:func:`~gamesim.games.godtear.rules.use_outcomes`).

Every function takes the die as a keyword (default: the Godtear die, faces 0, 0,
1, 1, 1, 2). Functions ending in ``_fraction`` return exact fractions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from gamesim.core.lazy import lazy_module
from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Bool,
    Choice,
    Float,
    Instance,
    Int,
    IntList,
    Optional,
    ParamTypeError,
    Unchecked,
    validate_params,
)

from .rules import (
    DICE,
    DIE,
    GODTEAR_DIE,
    HEALTH,
    HIT_EFFECT,
    MAX_DICE,
    MAX_PIPS,
    MAX_USES,
    PIPS,
    ROLL_DICE,
    TARGET,
    TOKEN,
    USES,
    DieSpec,
    DuelState,
    Skill,
    Status,
    Target,
    _dice_after_token,
    _use_outcomes,
)

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: sweep workers never need it
    pd = lazy_module("pandas")

__all__ = [
    "roll_counts",
    "roll_pmf",
    "roll_pmf_fraction",
    "p_success",
    "p_success_fraction",
    "wounds_pmf",
    "wounds_pmf_fraction",
    "expected_wounds",
    "success_table",
    "expected_wounds_table",
    "wounds_distribution_table",
    "knockout_chain",
    "p_knockout",
    "p_knockout_fraction",
    "knockout_curve",
    "expected_uses_to_knockout",
    "uses_to_knockout_quantile",
    "min_stat_lines",
    "end_phase_pmf",
]


#: Largest work estimate of one knock-out chain: (success totals x damage totals) per
#: state x (health + 1). The Godtear die at the limits of the task parameters (40 dice,
#: health 60) is about 0.42 million (tens of seconds); larger is refused up front.
MAX_CHAIN_WORK = 2_000_000
#: Most rows or columns of a table function.
MAX_TABLE_SIDE = 1000


#: Declared constraints of the tables: a side of at most MAX_TABLE_SIDE values (a range is a sequence).
ACCURACIES = IntList(0, MAX_DICE, max_len=MAX_TABLE_SIDE)
DODGES = IntList(0, MAX_PIPS, max_len=MAX_TABLE_SIDE)
#: The knock-out functions' skill, target and starting tokens (as :func:`knockout_curve`).
KO = dict(accuracy=DICE, damage=DICE, dodge=PIPS, protection=PIPS, health=HEALTH, hit_effect=HIT_EFFECT,
          accuracy_token=TOKEN, damage_token=TOKEN, dodge_token=TOKEN, protection_token=TOKEN, die=DIE)


def _check_chain_work(skills: Sequence[Skill], target: Target, die: DieSpec) -> None:
    """Refuse a knock-out chain whose outcome enumeration would run for minutes."""
    worst = 0
    for sk in set(skills):
        acc = sk.accuracy + 1  # an accuracy boon adds a die
        dmg = 0 if sk.damage is None else sk.damage + 1
        worst = max(worst, (acc * die.max_pips + 1) * (dmg * die.max_pips + 1))
    work = worst * (target.health + 1) * max(1, len(set(skills)))
    if work > MAX_CHAIN_WORK:
        raise ParamError("skills", [(s.accuracy, s.damage) for s in sorted(set(skills), key=repr)][:3],
                         f"a chain of at most {MAX_CHAIN_WORK:,} work units ((dice x pips + 1)^2 x (health + 1) "
                         f"per distinct skill; this one is {work:,}): fewer dice, less health or a smaller die")


@lru_cache(maxsize=1024)
def _counts(n_dice: int, die: DieSpec) -> tuple[int, ...]:
    face = np.array(die.counts, dtype=object)
    out = np.array([1], dtype=object)
    for _ in range(n_dice):
        out = np.convolve(out, face)
    return tuple(int(x) for x in out)


@validate_params(n_dice=ROLL_DICE, die=DIE)
def roll_counts(n_dice: int, *, die: DieSpec = GODTEAR_DIE) -> npt.NDArray[np.object_]:
    """Number of face combinations giving each total of ``n_dice`` dice (exact integers).

    Parameters
    ----------
    n_dice : int
        Dice rolled (>= 0).
    die : DieSpec, default GODTEAR_DIE

    Returns
    -------
    ndarray of Python int (dtype object), shape (n_dice * die.max_pips + 1,)
        ``counts[t]`` ways to roll total ``t``; they sum to ``die.n_faces ** n_dice``.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``n_dice`` is not an integer (a float, even ``2.0``, or a bool) or
        ``die`` not a DieSpec.
    ParamError
        (a ``ValueError``) If ``n_dice`` is outside ``0 .. MAX_ROLL_DICE`` (200).
    """
    return np.array(_counts(n_dice, die), dtype=object)


@validate_params(n_dice=ROLL_DICE, die=DIE)
def roll_pmf(n_dice: int, *, die: DieSpec = GODTEAR_DIE) -> npt.NDArray[np.float64]:
    """Distribution of the pips total of ``n_dice`` Godtear dice.

    Parameters
    ----------
    n_dice : int
        Dice rolled (>= 0).
    die : DieSpec, default GODTEAR_DIE
        Face counts (default two blanks, three 1s, one 2).

    Returns
    -------
    ndarray of float64, shape (n_dice * die.max_pips + 1,)
        ``pmf[t]`` = P(total = t); index = total. Sums to 1.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``n_dice`` is not an integer (a float, even ``2.0``, or a bool) or
        ``die`` not a DieSpec.
    ParamError
        (a ``ValueError``) If ``n_dice`` is outside ``0 .. MAX_ROLL_DICE`` (200).

    Notes
    -----
    ``n``-fold ``numpy.convolve`` of the face counts in exact integers, divided by
    ``n_faces ** n`` (rulebook モデルのスキルを使う: 「ダイスの出目を合計」).

    Examples
    --------
    >>> roll_pmf(1)
    array([0.33333333, 0.5       , 0.16666667])
    """
    c = _counts(n_dice, die)
    denom = die.n_faces**n_dice
    return np.array([Fraction(x, denom) for x in c], dtype=np.float64)


@validate_params(n_dice=ROLL_DICE, die=DIE)
def roll_pmf_fraction(n_dice: int, *, die: DieSpec = GODTEAR_DIE) -> list[Fraction]:
    """:func:`roll_pmf` as exact fractions.

    Parameters
    ----------
    n_dice : int
        Dice rolled (>= 0).
    die : DieSpec, default GODTEAR_DIE

    Returns
    -------
    list of fractions.Fraction, length n_dice * die.max_pips + 1
        Index = total; sums to exactly 1.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``n_dice`` is not an integer (a float, even ``2.0``, or a bool) or
        ``die`` not a DieSpec.
    ParamError
        (a ``ValueError``) If ``n_dice`` is outside ``0 .. MAX_ROLL_DICE`` (200).
    """
    c = _counts(n_dice, die)
    denom = die.n_faces**n_dice
    return [Fraction(x, denom) for x in c]


#: Unchecked body of :func:`roll_pmf_fraction` (the success and wound distributions).
_roll_pmf_fraction = roll_pmf_fraction.__wrapped__


@validate_params(accuracy=DICE, dodge=PIPS, boon=TOKEN, die=DIE)
def p_success_fraction(accuracy: int, dodge: int, *, boon: int = 0, die: DieSpec = GODTEAR_DIE) -> Fraction:
    """:func:`p_success` as an exact fraction.

    Parameters
    ----------
    accuracy, dodge, boon, die
        As :func:`p_success`.

    Returns
    -------
    fractions.Fraction
        P(total >= dodge), e.g. ``Fraction(74, 81)`` for 4 dice against dodge 2.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`p_success`.
    """
    pmf = _roll_pmf_fraction(_dice_after_token(accuracy, boon), die=die)
    return sum(pmf[dodge:], Fraction(0))


#: Unchecked body of :func:`p_success_fraction` (the tables' cells).
_p_success_fraction = p_success_fraction.__wrapped__


@validate_params(accuracy=DICE, dodge=PIPS, boon=TOKEN, die=DIE)
def p_success(accuracy: int, dodge: int, *, boon: int = 0, die: DieSpec = GODTEAR_DIE) -> float:
    """P(success roll succeeds): P(total of ``accuracy`` dice >= ``dodge``).

    Parameters
    ----------
    accuracy : int
        Skill accuracy (精度), dice (>= 0).
    dodge : int
        Target's dodge (回避) for this roll, with any dodge boon/blight already added
        (``0 .. MAX_PIPS``; a blight on dodge 0 is passed as 0); dodge 0 always succeeds.
    boon : {-1, 0, 1}, default 0
        Accuracy blight (-1: one die fewer, never below 0 dice) or boon (+1: one more die).
    die : DieSpec, default GODTEAR_DIE

    Returns
    -------
    float
        Probability in [0, 1].

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If an argument is not an integer (``3.5``, ``True``) or ``die`` not a DieSpec.
    ParamError
        (a ``ValueError``) If ``accuracy`` is outside ``0 .. MAX_DICE`` (40), ``dodge`` outside ``0 ..
        MAX_PIPS`` (200) or ``boon`` not in {-1, 0, 1}.

    Notes
    -----
    成功判定: 「精度が対象の回避の数値以上である場合、スキルは成功」. Rulebook example: 4 dice
    all showing 1 total 4 >= dodge 2, a success.

    Examples
    --------
    >>> round(p_success(1, 1), 4)
    0.6667
    """
    return float(_p_success_fraction(accuracy, dodge, boon=boon, die=die))


#: Unchecked body of :func:`p_success` (the tables' cells).
_p_success = p_success.__wrapped__


@validate_params(damage=DICE, protection=PIPS, health=Optional(HEALTH), boon=TOKEN, die=DIE)
def wounds_pmf_fraction(damage: int, protection: int, *, health: int | None = None, boon: int = 0,
                        die: DieSpec = GODTEAR_DIE) -> list[Fraction]:
    """:func:`wounds_pmf` as exact fractions.

    Parameters
    ----------
    damage, protection, health, boon, die
        As :func:`wounds_pmf`.

    Returns
    -------
    list of fractions.Fraction
        Index = wounds; same length as :func:`wounds_pmf`; sums to exactly 1.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`wounds_pmf`.
    """
    p = protection
    pmf = _roll_pmf_fraction(_dice_after_token(damage, boon), die=die)
    size = max(len(pmf) - p, 1)
    out = [Fraction(0)] * size
    for t, q in enumerate(pmf):
        out[max(t - p, 0)] += q
    if health is not None:
        h = health
        capped = [Fraction(0)] * (h + 1)
        for w, q in enumerate(out):
            capped[min(w, h)] += q
        out = capped
    return out


#: Unchecked body of :func:`wounds_pmf_fraction` (the tables' cells).
_wounds_pmf_fraction = wounds_pmf_fraction.__wrapped__


@validate_params(damage=DICE, protection=PIPS, health=Optional(HEALTH), boon=TOKEN, die=DIE)
def wounds_pmf(damage: int, protection: int, *, health: int | None = None, boon: int = 0,
               die: DieSpec = GODTEAR_DIE) -> npt.NDArray[np.float64]:
    """Distribution of the wounds one damage roll deals (after a successful success roll).

    Parameters
    ----------
    damage : int
        Skill damage (ダメージ), dice (>= 0).
    protection : int
        Target's protection (防御) for this roll, tokens included (``0 .. MAX_PIPS``; a
        blight on protection 0 is passed as 0).
    health : int or None, default None
        Health the target has left; wounds above it are lost. ``None``: no cap.
    boon : {-1, 0, 1}, default 0
        Damage blight / boon: one die fewer / more (never below 0 dice).
    die : DieSpec, default GODTEAR_DIE

    Returns
    -------
    ndarray of float64
        ``pmf[w]`` = P(w wounds), index = wounds. Shape ``(health + 1,)`` with a cap,
        else ``(max(damage_dice * max_pips - protection, 0) + 1,)``. Sums to 1.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If an argument is not an integer (``2.5``, ``True``) or ``die`` not a DieSpec.
    ParamError
        (a ``ValueError``) If ``damage`` is outside ``0 .. MAX_DICE`` (40), ``protection`` outside ``0 ..
        MAX_PIPS``, ``boon`` not in {-1, 0, 1} or ``health`` outside ``1 .. MAX_HEALTH`` (60).

    Notes
    -----
    ダメージ判定 and 打倒: wounds = total - protection, never below 0, never more than
    the health left. Rulebook example: 5 dice 1, 1, 0, 0, 2 total 4 against protection 3
    deal 1 wound.

    Examples
    --------
    >>> wounds_pmf(1, 0)
    array([0.33333333, 0.5       , 0.16666667])
    """
    return np.array(_wounds_pmf_fraction(damage, protection, health=health, boon=boon, die=die), dtype=np.float64)


#: Unchecked body of :func:`wounds_pmf` (the tables' cells).
_wounds_pmf = wounds_pmf.__wrapped__


@validate_params(damage=DICE, protection=PIPS, health=Optional(HEALTH), boon=TOKEN, die=DIE, exact=Bool())
def expected_wounds(damage: int, protection: int, *, health: int | None = None, boon: int = 0,
                    die: DieSpec = GODTEAR_DIE, exact: bool = False) -> float | Fraction:
    """Mean wounds of one damage roll.

    Parameters
    ----------
    damage, protection, health, boon, die
        As :func:`wounds_pmf`.
    exact : bool, default False
        Return a :class:`fractions.Fraction` instead of a float.

    Returns
    -------
    float or fractions.Fraction
        Expected wounds (wounds).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`wounds_pmf`; ``exact`` not a bool.
    """
    pmf = _wounds_pmf_fraction(damage, protection, health=health, boon=boon, die=die)
    m = sum((w * q for w, q in enumerate(pmf)), Fraction(0))
    return m if exact else float(m)


#: Unchecked body of :func:`expected_wounds` (the tables' cells).
_expected_wounds = expected_wounds.__wrapped__


@validate_params(accuracies=ACCURACIES, dodges=DODGES, boon=TOKEN, die=DIE, exact=Bool())
def success_table(accuracies: Sequence[int] = range(1, 13), dodges: Sequence[int] = range(0, 13), *,
                  boon: int = 0, die: DieSpec = GODTEAR_DIE, exact: bool = False) -> pd.DataFrame:
    """P(success) for every accuracy (rows) against every dodge (columns).

    Parameters
    ----------
    accuracies : sequence of int, default 1..12
    dodges : sequence of int, default 0..12
    boon : {-1, 0, 1}, default 0
        Accuracy blight/boon on every roll of the table.
    die : DieSpec, default GODTEAR_DIE
    exact : bool, default False
        ``True``: cells are :class:`fractions.Fraction` (dtype object); else float64.

    Returns
    -------
    pandas.DataFrame
        Index ``accuracy``, columns ``dodge``.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`p_success`; a side not a sequence of 1 to ``MAX_TABLE_SIDE`` such integers,
        ``exact`` not a bool.
    """
    f = _p_success_fraction if exact else _p_success
    return _grid_table(lambda a, d: f(a, d, boon=boon, die=die), accuracies, "accuracy", dodges, "dodge", exact)


def _grid_table(cell, rows: Sequence[int], row_name: str, cols: Sequence[int], col_name: str,  # type: ignore[no-untyped-def]
                exact: bool) -> pd.DataFrame:
    """``cell(row, col)`` for every row and column, as a labelled table (Fractions: dtype object)."""
    data = [[cell(r, c) for c in cols] for r in rows]
    return pd.DataFrame(data, index=pd.Index(list(rows), name=row_name),
                        columns=pd.Index(list(cols), name=col_name), dtype=object if exact else np.float64)


@validate_params(damages=ACCURACIES, protections=DODGES, health=Optional(HEALTH), boon=TOKEN, die=DIE,
                 exact=Bool())
def expected_wounds_table(damages: Sequence[int] = range(1, 13), protections: Sequence[int] = range(0, 9), *,
                          health: int | None = None, boon: int = 0, die: DieSpec = GODTEAR_DIE,
                          exact: bool = False) -> pd.DataFrame:
    """Mean wounds of one damage roll for every damage (rows) against every protection (columns).

    Parameters
    ----------
    damages : sequence of int, default 1..12
    protections : sequence of int, default 0..8
    health, boon, die
        As :func:`wounds_pmf`.
    exact : bool, default False
        Fractions (dtype object) instead of floats.

    Returns
    -------
    pandas.DataFrame
        Index ``damage``, columns ``protection``; wounds per damage roll.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`wounds_pmf`; a side not a sequence of 1 to ``MAX_TABLE_SIDE`` such integers,
        ``exact`` not a bool.
    """
    return _grid_table(lambda x, p: _expected_wounds(x, p, health=health, boon=boon, die=die, exact=exact),
                       damages, "damage", protections, "protection", exact)


@validate_params(damages=ACCURACIES, protections=DODGES, health=Optional(HEALTH), boon=TOKEN, die=DIE,
                 exact=Bool())
def wounds_distribution_table(damages: Sequence[int] = range(1, 13), protections: Sequence[int] = range(0, 9), *,
                              health: int | None = None, boon: int = 0, die: DieSpec = GODTEAR_DIE,
                              exact: bool = False) -> pd.DataFrame:
    """The whole wound distribution for every (damage, protection).

    Parameters
    ----------
    damages : sequence of int, default 1..12
    protections : sequence of int, default 0..8
    health, boon, die
        As :func:`wounds_pmf`.
    exact : bool, default False
        Fractions (dtype object) instead of floats.

    Returns
    -------
    pandas.DataFrame
        Index ``(damage, protection)``, columns ``wounds`` 0..max; P(wounds), zeros
        where impossible (Fractions with ``exact=True``).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`wounds_pmf`; a side not a sequence of 1 to ``MAX_TABLE_SIDE`` such integers,
        ``exact`` not a bool.
    """
    rows: dict[tuple[int, int], list[Any]] = {}
    for x in damages:
        for p in protections:
            rows[(x, p)] = (_wounds_pmf_fraction if exact else _wounds_pmf)(
                x, p, health=health, boon=boon, die=die)
    width = max(len(v) for v in rows.values())
    zero: Any = Fraction(0) if exact else 0.0
    data = [list(v) + [zero] * (width - len(v)) for v in rows.values()]
    idx = pd.MultiIndex.from_tuples(list(rows), names=["damage", "protection"])
    return pd.DataFrame(data, index=idx, columns=pd.Index(range(width), name="wounds"),
                        dtype=object if exact else np.float64)


# ---------------------------------------------------------------------------
# Several uses against one target: Markov chain over DuelState
# ---------------------------------------------------------------------------


@lru_cache(maxsize=200_000)
def _outcomes(state: DuelState, skill: Skill, target: Target, die: DieSpec) -> tuple[tuple[DuelState, Fraction], ...]:
    return tuple(_use_outcomes(state, skill, target, die))


@validate_params(skills=Unchecked("a sequence of Skill objects: checked in the body (with the chain's work)"),
                 target=TARGET, initial=Instance(DuelState, "a DuelState"), die=DIE, exact=Bool())
def knockout_chain(skills: Sequence[Skill], target: Target, *, initial: DuelState = DuelState(),
                   die: DieSpec = GODTEAR_DIE, exact: bool = False) -> list[dict[DuelState, Any]]:
    """Distribution of the duel state after each use of a sequence of skills on one target.

    Parameters
    ----------
    skills : sequence of Skill
        The skill of use 1, 2, ... (the same skill repeated for "k uses of a skill"; two
        different skills for one activation, which may use each skill once).
    target : Target
        The target's printed dodge, protection and health.
    initial : DuelState, default DuelState()
        Wounds and tokens before the first use (e.g. an accuracy boon on the attacker).
    die : DieSpec, default GODTEAR_DIE
    exact : bool, default False
        Probabilities as Fractions (exact) or floats.

    Returns
    -------
    list of dict
        ``dists[k]`` maps each state to its probability after ``k`` uses (``dists[0]`` is
        ``{initial: 1}``); length ``len(skills) + 1``.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``skills`` is not a sequence of at most ``MAX_USES`` Skill objects,
        ``target`` not a Target, ``initial`` not a DuelState, ``die`` not a DieSpec or ``exact``
        not a bool.
    ParamError
        (a ``ValueError``) If the chain is larger than ``MAX_CHAIN_WORK``.

    Notes
    -----
    Tokens persist between uses until used (状態効果); wounds carry over; a knocked-out
    target (打倒) is absorbing.
    """
    if isinstance(skills, (str, bytes)) or not isinstance(skills, Sequence) or len(skills) > MAX_USES or not all(
        isinstance(sk, Skill) for sk in skills
    ):
        raise ParamTypeError("skills", skills, f"a sequence of at most {MAX_USES} Skill objects")
    _check_chain_work(skills, target, die)
    one: Any = Fraction(1) if exact else 1.0
    dist: dict[DuelState, Any] = {initial: one}
    out = [dist]
    for skill in skills:
        new: dict[DuelState, Any] = {}
        for st, p in dist.items():
            for nxt, q in _outcomes(st, skill, target, die):
                new[nxt] = new.get(nxt, 0) + p * (q if exact else float(q))
        dist = new
        out.append(dist)
    return out


#: Unchecked body of :func:`knockout_chain` (its checks of ``skills`` and of the work stay).
_knockout_chain = knockout_chain.__wrapped__


def _setup(accuracy: int, damage: int, dodge: int, protection: int, health: int, hit_effect: str,
           tokens: tuple[int, int, int, int]) -> tuple[Skill, Target, DuelState]:
    """The skill, target and starting state of checked arguments."""
    acc_t, dmg_t, dodge_t, prot_t = tokens
    return Skill(accuracy, damage, hit_effect), Target(dodge, protection, health), \
        DuelState(0, Status(accuracy=acc_t, damage=dmg_t), Status(dodge=dodge_t, protection=prot_t))


@validate_params(uses=USES, **KO, exact=Bool())
def knockout_curve(accuracy: int, damage: int, *, dodge: int, protection: int, health: int, uses: int,
                   hit_effect: str = "none", accuracy_token: int = 0, damage_token: int = 0,
                   dodge_token: int = 0, protection_token: int = 0, die: DieSpec = GODTEAR_DIE,
                   exact: bool = False) -> list[Any]:
    """P(target knocked out within k uses) for k = 0, 1, ..., ``uses``.

    Parameters
    ----------
    accuracy, damage : int
        The skill's dice (精度, ダメージ), >= 0.
    dodge, protection, health : int
        The target's stats (回避, 防御, 体力 >= 1).
    uses : int
        Uses of the skill (>= 0), wounds carried over.
    hit_effect : str, default "none"
        Success effect, see :class:`~gamesim.games.godtear.rules.Skill`.
    accuracy_token, damage_token : {-1, 0, 1}, default 0
        Attacker's tokens before the first use.
    dodge_token, protection_token : {-1, 0, 1}, default 0
        Target's tokens before the first use.
    die : DieSpec, default GODTEAR_DIE
    exact : bool, default False
        Fractions instead of floats.

    Returns
    -------
    list of float (or Fraction), length ``uses + 1``
        Non-decreasing, starting at 0.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If a count is not an integer (``2.9``, ``True``), ``die`` not a DieSpec or
        ``exact`` not a bool.
    ParamError
        (a ``ValueError``) For dice outside ``0 .. MAX_DICE`` (40), dodge/protection outside ``0 ..
        MAX_PIPS`` (200), health outside ``1 .. MAX_HEALTH`` (60), uses outside ``0 .. MAX_USES``
        (1000), a token not in {-1, 0, 1}, an unknown ``hit_effect``, or a chain larger
        than ``MAX_CHAIN_WORK`` (refused up front instead of running for minutes).
    """
    skill, target, init = _setup(accuracy, damage, dodge, protection, health, hit_effect,
                                 (accuracy_token, damage_token, dodge_token, protection_token))
    dists = _knockout_chain([skill] * uses, target, initial=init, die=die, exact=exact)
    zero: Any = Fraction(0) if exact else 0.0
    return [sum((p for s, p in d.items() if s.knocked_out(target.health)), zero) for d in dists]


#: Unchecked body of :func:`knockout_curve`.
_knockout_curve = knockout_curve.__wrapped__


@validate_params(uses=USES, **KO)
def p_knockout(accuracy: int, damage: int, *, dodge: int, protection: int, health: int, uses: int,
               hit_effect: str = "none", accuracy_token: int = 0, damage_token: int = 0, dodge_token: int = 0,
               protection_token: int = 0, die: DieSpec = GODTEAR_DIE) -> float:
    """P(a target of ``health`` is knocked out within ``uses`` uses of a skill).

    Parameters
    ----------
    accuracy, damage : int
        The skill's accuracy and damage dice (>= 0).
    dodge, protection, health : int
        The target's dodge, protection and health (>= 1).
    uses : int
        Number of uses (>= 0); wounds carry over between uses.
    hit_effect, accuracy_token, damage_token, dodge_token, protection_token, die
        As :func:`knockout_curve` (defaults: no success effect, no tokens, Godtear die).

    Returns
    -------
    float
        Probability in [0, 1].

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`knockout_curve`.

    Notes
    -----
    Exact Markov chain over (wounds, tokens) built from the rules core; 打倒 at wounds ==
    health. Each use: success roll (total >= dodge), then damage roll (total - protection
    wounds, at least 0, capped at the health left).

    Examples
    --------
    >>> p_knockout(4, 4, dodge=2, protection=1, health=1, uses=0)
    0.0
    """
    return float(_knockout_curve(accuracy, damage, dodge=dodge, protection=protection, health=health, uses=uses,
                                 hit_effect=hit_effect, accuracy_token=accuracy_token, damage_token=damage_token,
                                 dodge_token=dodge_token, protection_token=protection_token, die=die)[-1])


#: Unchecked body of :func:`p_knockout` (:func:`min_stat_lines`' search).
_p_knockout = p_knockout.__wrapped__


@validate_params(uses=USES, **KO)
def p_knockout_fraction(accuracy: int, damage: int, *, dodge: int, protection: int, health: int, uses: int,
                        hit_effect: str = "none", accuracy_token: int = 0, damage_token: int = 0,
                        dodge_token: int = 0, protection_token: int = 0, die: DieSpec = GODTEAR_DIE) -> Fraction:
    """:func:`p_knockout` as an exact fraction.

    Parameters
    ----------
    accuracy, damage, dodge, protection, health, uses, hit_effect, tokens, die
        As :func:`p_knockout`.

    Returns
    -------
    fractions.Fraction

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`knockout_curve`.
    """
    return _knockout_curve(accuracy, damage, dodge=dodge, protection=protection, health=health, uses=uses,
                           hit_effect=hit_effect, accuracy_token=accuracy_token, damage_token=damage_token,
                           dodge_token=dodge_token, protection_token=protection_token, die=die, exact=True)[-1]


@validate_params(**KO)
def expected_uses_to_knockout(accuracy: int, damage: int, *, dodge: int, protection: int, health: int,
                              hit_effect: str = "none", accuracy_token: int = 0, damage_token: int = 0,
                              dodge_token: int = 0, protection_token: int = 0,
                              die: DieSpec = GODTEAR_DIE) -> float:
    """Expected number of uses of a skill until the target is knocked out.

    Parameters
    ----------
    accuracy, damage, dodge, protection, health, hit_effect, tokens, die
        As :func:`knockout_curve`.

    Returns
    -------
    float
        ``E[T]`` with ``T`` the use that knocks the target out; ``inf`` when some reachable
        state can never lead to a knock-out (e.g. damage dice that cannot beat protection).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`knockout_curve`.

    Notes
    -----
    Fundamental-matrix solution ``(I - Q) t = 1`` over the transient states reachable
    from the start (wounds below health, with their tokens).
    """
    skill, target, init = _setup(accuracy, damage, dodge, protection, health, hit_effect,
                                 (accuracy_token, damage_token, dodge_token, protection_token))
    _check_chain_work([skill], target, die)
    index: dict[DuelState, int] = {init: 0}
    order = [init]
    edges: list[tuple[int, DuelState, float]] = []
    i = 0
    while i < len(order):
        st = order[i]
        for nxt, q in _outcomes(st, skill, target, die):
            edges.append((i, nxt, float(q)))
            if not nxt.knocked_out(target.health) and nxt not in index:
                index[nxt] = len(order)
                order.append(nxt)
        i += 1
    n = len(order)
    q_mat = np.zeros((n, n))
    can_ko = np.zeros(n, dtype=bool)
    succ: list[list[int]] = [[] for _ in range(n)]
    for a, nxt, p in edges:
        if nxt.knocked_out(target.health):
            if p > 0:
                can_ko[a] = True
        else:
            q_mat[a, index[nxt]] += p
            if p > 0:
                succ[a].append(index[nxt])
    # states that can reach a knock-out: backward closure
    changed = True
    while changed:
        changed = False
        for a in range(n):
            if not can_ko[a] and any(can_ko[b] for b in succ[a]):
                can_ko[a] = True
                changed = True
    if not can_ko.all():
        return math.inf
    t = np.linalg.solve(np.eye(n) - q_mat, np.ones(n))
    return float(t[0])


@validate_params(q=Float(0, 1), accuracy=DICE, damage=DICE, dodge=PIPS, protection=PIPS, health=HEALTH,
                 max_uses=USES)
def uses_to_knockout_quantile(q: float, accuracy: int, damage: int, *, dodge: int, protection: int,
                              health: int, max_uses: int = 200, **kwargs: Any) -> float:
    """Smallest k with P(knocked out within k uses) >= q (inverted CDF).

    Parameters
    ----------
    q : float
        Level in (0, 1).
    accuracy, damage, dodge, protection, health
        As :func:`knockout_curve`.
    max_uses : int, default 200
        Search cap; returns ``inf`` when the level is not reached within it.
    **kwargs
        Tokens, ``hit_effect``, ``die`` (as :func:`knockout_curve`).

    Returns
    -------
    float
        Uses (an integer value), or ``inf``.

    Raises
    ------
    ParamTypeError, ParamError
        If ``q`` is not a number in (0, 1), or as :func:`knockout_curve`.
    """
    if not 0 < q < 1:  # the declaration's bounds are inclusive: the open interval is checked here
        raise ParamError("q", q, "a number strictly between 0 and 1")
    curve = knockout_curve(accuracy, damage, dodge=dodge, protection=protection, health=health, uses=max_uses,
                           **kwargs)
    for k, p in enumerate(curve):
        if p >= q - 1e-12:
            return float(k)
    return math.inf


@validate_params(dodge=PIPS, protection=PIPS, health=HEALTH, uses=USES, p_min=Float(0, 1),
                 max_accuracy=Int(1, MAX_DICE), max_damage=DICE, die=DIE)
def min_stat_lines(*, dodge: int, protection: int, health: int, uses: int = 2, p_min: float = 0.5,
                   max_accuracy: int = 12, max_damage: int = 12, die: DieSpec = GODTEAR_DIE) -> pd.DataFrame:
    """The smallest stat lines that knock a target out with at least ``p_min`` in ``uses`` uses.

    Parameters
    ----------
    dodge, protection, health : int
        The target.
    uses : int, default 2
        Uses of the skill.
    p_min : float, default 0.5
        Required knock-out probability.
    max_accuracy, max_damage : int, default 12
        Search range (dice).
    die : DieSpec, default GODTEAR_DIE

    Returns
    -------
    pandas.DataFrame
        One row per accuracy 1..max_accuracy that can reach ``p_min``: columns
        ``accuracy``, ``min_damage`` (smallest damage with P >= p_min at that accuracy),
        ``p_knockout`` (exact, at that stat line), ``total_dice``, ``pareto`` (True when
        no other row has both accuracy and damage <= and one <). Rows whose accuracy
        cannot reach ``p_min`` within ``max_damage`` are left out.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`knockout_curve`; also ``p_min`` outside [0, 1], ``max_accuracy``
        outside ``1 .. MAX_DICE``, ``max_damage`` outside ``0 .. MAX_DICE``, or a search
        larger than ``5 * MAX_CHAIN_WORK``.

    Notes
    -----
    P(knock-out) is non-decreasing in damage (more dice can only add pips), so a
    bisection-free scan upward from damage 0 is exact.
    """
    worst = sum((a + 1) * die.max_pips + 1 for a in range(1, max_accuracy + 1)) * sum(
        (x + 1) * die.max_pips + 1 for x in range(max_damage + 1)) * (health + 1)
    if worst > 5 * MAX_CHAIN_WORK:
        raise ParamError("max_accuracy", max_accuracy, f"with max_damage = {max_damage} and health = {health}, "
                         f"a search of at most {5 * MAX_CHAIN_WORK:,} work units (this one: {worst:,}); "
                         "narrow the search")
    rows = []
    for a in range(1, max_accuracy + 1):
        for x in range(0, max_damage + 1):
            p = _p_knockout(a, x, dodge=dodge, protection=protection, health=health, uses=uses, die=die)
            if p >= p_min:
                rows.append({"accuracy": a, "min_damage": x, "p_knockout": p, "total_dice": a + x})
                break
    df = pd.DataFrame(rows, columns=["accuracy", "min_damage", "p_knockout", "total_dice"])
    if not df.empty:
        best = np.minimum.accumulate(df["min_damage"].to_numpy())
        prev = np.r_[np.inf, best[:-1]]
        df["pareto"] = df["min_damage"].to_numpy() < prev
    else:
        df["pareto"] = pd.Series(dtype=bool)
    return df


@validate_params(rule=Choice(("life", "change")), die=DIE, exact=Bool())
def end_phase_pmf(rule: str, *, die: DieSpec = GODTEAR_DIE, exact: bool = False) -> dict[int, Any]:
    """Distribution of what the 生命 / 変化 end-phase die roll does.

    Parameters
    ----------
    rule : {"life", "change"}
        ``"life"`` (生命): new objective hexes = roll + 2; ``"change"`` (変化): objective
        hexes moved = roll.
    die : DieSpec, default GODTEAR_DIE
    exact : bool, default False
        Fractions instead of floats.

    Returns
    -------
    dict of int to probability
        Count -> P(count).

    Raises
    ------
    ParamError
        (a ``ValueError``) For an unknown ``rule``.
    ParamTypeError
        (a ``TypeError``) If ``die`` is not a DieSpec or ``exact`` not a bool.
    """
    shift = 2 if rule == "life" else 0
    return {v + shift: (p if exact else float(p)) for v, p in enumerate(die.probabilities) if p}
