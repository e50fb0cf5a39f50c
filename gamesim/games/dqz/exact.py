"""Exact solvers for dqz attack expressions: every legal play, the best value, exact tables.

Two independent formulations of the same arithmetic:

* :func:`gamesim.games.dqz.rules.attack_value` evaluates one expression with
  :class:`fractions.Fraction` (the oracle);
* :func:`eval_expressions` evaluates many at once with exact integer rationals in
  numpy (numerator/denominator pairs reduced by ``gcd``, rounding half away from
  zero only at the end), which builds the lookup tables the solver and the
  vectorized simulator use: for ``n`` players, every tuple of card face values
  (``5 ** n``) times every assignment of distinct operator cards, for every
  strategy-card variant, under a given combination of skill modifiers
  (どくこうげき, まひこうげき, ラリホー).

Source: ``shared/seeds/dqz_rules_ja.txt``, sections バトル, えんざんカード, さくせんカード and
とくぎ (どくこうげき, まひこうげき, ラリホー・あまいいき, ザラキ, 物理攻撃無効).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import Bool, Int, Optional, ParamTypeError, Unchecked, check_int, check_int_list, validate_params

from .rules import (
    MAX_CARDS,
    MAX_PARTY,
    CARD_VALUES,
    N_PER_VALUE_DEFAULT,
    OP_CODES,
    OPERATORS,
    Strategy,
    StrategyPlay,
    _attack_value,
    _effective_value,
)

__all__ = [
    "KIND_NONE",
    "N_KINDS",
    "Variant",
    "ValueTable",
    "eval_expressions",
    "variants_for",
    "value_table",
    "achievable_values",
    "best_attack_value",
    "enumerate_plays",
    "hand_distribution",
]

#: Kind index of "no strategy card"; kinds 1..5 are ``1 + Strategy`` (みんながんばれ ... おれにまかせろ).
KIND_NONE: int = 0
N_KINDS: int = 6

_I64 = np.int64
#: Largest number of deals :func:`hand_distribution` enumerates (``C(hand_size + 4, 4) ** n_players``).
MAX_DEALS: int = 2_000_000


@dataclass(frozen=True)
class Variant:
    """One way the expression is built: no strategy card, or a strategy card and its target.

    Attributes
    ----------
    kind : int
        0 = none, ``1 + Strategy`` otherwise.
    target : int
        Operator index (みんながんばれ), card index (ガンガンいこうぜ), else -1.
    """

    kind: int
    target: int = -1

    @property
    def strategy(self) -> StrategyPlay | None:
        """The :class:`StrategyPlay` of this variant (None for kind 0)."""
        if self.kind == KIND_NONE:
            return None
        s = Strategy(self.kind - 1)
        return StrategyPlay(s, self.target if s in (Strategy.MINNA_GANBARE, Strategy.GANGAN_IKOUZE) else None)


def variants_for(n: int) -> tuple[Variant, ...]:
    """Every variant for ``n`` playing players, in canonical order.

    Order: none; みんながんばれ on operator 0..n-2; ガンガンいこうぜ on card 0..n-1;
    いのちだいじに; じゅもんせつやく (n >= 2); おれにまかせろ.
    """
    out = [Variant(KIND_NONE)]
    out += [Variant(1 + Strategy.MINNA_GANBARE, k) for k in range(n - 1)]
    out += [Variant(1 + Strategy.GANGAN_IKOUZE, j) for j in range(n)]
    out.append(Variant(1 + Strategy.INOCHI_DAIJINI))
    if n >= 2:
        out.append(Variant(1 + Strategy.JUMON_SETSUYAKU))
    out.append(Variant(1 + Strategy.ORE_NI_MAKASERO))
    return tuple(out)


def _op_perms(n: int, ops: str, jumon: bool) -> list[tuple[int, ...]]:
    codes = sorted({OP_CODES[o] for o in ops})
    if n <= 1:
        return [()]
    if jumon:
        return [(0,) + p for p in itertools.permutations(codes, n - 2)]
    return list(itertools.permutations(codes, n - 1))


def _radd(an, ad, bn, bd):  # type: ignore[no-untyped-def]
    n = an * bd + bn * ad
    d = ad * bd
    g = np.gcd(n, d)
    g[g == 0] = 1
    return n // g, d // g


def _rmul(an, ad, bn, bd):  # type: ignore[no-untyped-def]
    # no reduction here: products of <= 5 operands <= 10 stay far below int64 limits,
    # and every addition reduces by the gcd
    return an * bn, ad * bd


def _rdiv(an, ad, bn, bd):  # type: ignore[no-untyped-def]
    bad = bn == 0
    s = np.where(bn < 0, -1, 1)
    n, d = _rmul(an, ad, bd * s, np.where(bad, 1, np.abs(bn)))
    return n, d, bad


def _apply_op(o, an, ad, bn, bd):  # type: ignore[no-untyped-def]
    """a o b elementwise for op codes ``o``; returns (num, den, invalid)."""
    sn, sd = _radd(an, ad, bn, bd)
    dn, dd = _radd(an, ad, -bn, bd)
    mn, md = _rmul(an, ad, bn, bd)
    qn, qd, bad = _rdiv(an, ad, bn, bd)
    n = np.select([o == 0, o == 1, o == 2], [sn, dn, mn], qn)
    d = np.select([o == 0, o == 1, o == 2], [sd, dd, md], qd)
    return n, d, (o == 3) & bad


@validate_params(vals=Unchecked("array-like, converted once and checked in the body (2-D integers, shape, range)"),
                 ops=Unchecked("array-like, converted once and checked in the body against vals' shape"),
                 paren=Int(-1, 4), half_up=Bool())
def eval_expressions(vals: npt.ArrayLike, ops: npt.ArrayLike, *, paren: int = -1, half_up: bool = False
                     ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Exact values of many expressions at once (× ÷ before + −, rounded half away from zero).

    Parameters
    ----------
    vals : array_like of int, shape (m, n)
        Operand values in play order (any integers, e.g. 0 under まひこうげき, 10 under
        ガンガンいこうぜ).
    ops : array_like of int, shape (m, n - 1)
        Operator codes 0 ``+``, 1 ``-``, 2 ``*``, 3 ``/``.
    paren : int, default -1
        Operator index evaluated first for every row (みんながんばれ), or -1.
    half_up : bool, default False
        Return half the exact value rounded up in magnitude (呪文耐性：高 with one rounding at
        the end, ``ceil(|x| / 2)`` with the sign of x) instead of the rounded value.

    Returns
    -------
    values : ndarray of int64, shape (m,)
        Rounded attack values (0 where invalid), or the halves rounded up (``half_up``).
    valid : ndarray of bool, shape (m,)
        False where the expression divides by zero.

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``; ``ParamTypeError``, also a ``TypeError``, for non-integer arrays) for
        arrays that are not 2-D integer arrays of matching shapes, operand values outside
        -20..20, more than 6 operands or 10**7 rows, operator codes outside 0..3, or ``paren``
        not an operator index.

    Notes
    -----
    Exact integer rationals: every step reduces numerator and denominator by their
    gcd, so with card values <= 10 and n <= 5 nothing comes near int64 limits.
    """
    v, o = np.asarray(vals), np.asarray(ops)
    for name, arr in (("vals", v), ("ops", o)):
        if arr.dtype.kind not in "iu" or arr.ndim != 2:
            raise ParamTypeError(name, f"array of dtype {arr.dtype} and shape {arr.shape}", "a 2-D integer array")
    m, n = v.shape
    if not 1 <= n <= 6 or m > 10**7 or o.shape != (m, n - 1):
        raise ParamError("vals", f"array of shape {v.shape} (ops {o.shape})",
                         "shape (m, n) with 1 <= n <= 6 and m <= 10**7, ops of shape (m, n - 1)")
    if v.size and (v.min() < -20 or v.max() > 20):
        raise ParamError("vals", f"values in {v.min()}..{v.max()}", "operand values in -20..20")
    if o.size and (o.min() < 0 or o.max() > 3):
        raise ParamError("ops", f"codes in {o.min()}..{o.max()}", "operator codes 0..3")
    if paren > n - 2:  # a relation with the operands' count
        paren = check_int("paren", paren, min=-1, max=n - 2)
    tn, td, bad = _exact_rationals(v.astype(_I64), o.astype(_I64), paren)
    return _round_rationals(tn, td, bad, half_up), ~bad


def _round_rationals(tn, td, bad, half_up: bool):  # type: ignore[no-untyped-def]
    """Round exact rationals tn/td half away from zero, or halve and round up (``half_up``)."""
    if half_up:
        q = (np.abs(tn) + 2 * td - 1) // (2 * td)
    else:
        q = (2 * np.abs(tn) + td) // (2 * td)
    out = np.where(tn < 0, -q, q)
    out[bad] = 0
    return out


def _exact_rationals(v, o, paren: int):  # type: ignore[no-untyped-def]
    """Exact value numerators/denominators (den > 0) and the division-by-zero mask (trusted inputs)."""
    m, n = v.shape
    nums = [v[:, j].copy() for j in range(n)]
    dens = [np.ones(m, dtype=_I64) for _ in range(n)]
    opl = [o[:, j] for j in range(n - 1)]
    bad = np.zeros(m, dtype=bool)
    if paren >= 0:
        cn, cd, b = _apply_op(opl[paren], nums[paren], dens[paren], nums[paren + 1], dens[paren + 1])
        bad |= b
        nums[paren:paren + 2] = [cn]
        dens[paren:paren + 2] = [cd]
        del opl[paren]
    tn, td = np.zeros(m, dtype=_I64), np.ones(m, dtype=_I64)
    an, ad = nums[0], dens[0]
    for j, oj in enumerate(opl):
        bn, bd = nums[j + 1], dens[j + 1]
        addsub = oj <= 1
        sn, sd = _radd(tn, td, an, ad)
        tn, td = np.where(addsub, sn, tn), np.where(addsub, sd, td)
        mn, md = _rmul(an, ad, bn, bd)
        qn, qd, b = _rdiv(an, ad, bn, bd)
        bad |= (oj == 3) & b
        an = np.select([oj == 0, oj == 1, oj == 2], [bn, -bn, mn], qn)
        ad = np.select([oj == 0, oj == 1, oj == 2], [bd, bd, md], qd)
    tn, td = _radd(tn, td, an, ad)
    return tn, td, bad


@dataclass(frozen=True)
class ValueTable:
    """Exact attack values of every play for ``n`` players under one modifier combination.

    Attributes
    ----------
    n : int
        Playing players (slots).
    variants : tuple of Variant
        Canonical order (:func:`variants_for`).
    perms : ndarray of int64, shape (n_variants, n_perms, n - 1)
        Operator codes of each assignment (padded rows are invalid).
    values : ndarray of int32, shape (n_variants, 5 ** n, n_perms)
        Rounded attack value; card tuple index ``t = sum_i (c_i - 1) 5 ** (n - 1 - i)``
        (slot 0 most significant, so ``t`` order is lexicographic).
    valid : ndarray of bool, same shape
        Legal (no division by zero, real operator assignment).
    cost : ndarray of int64, shape (5 ** n,)
        Sum of the face values spent.
    half : ndarray of int32, same shape as ``values``
        Half the *exact* value rounded up in magnitude (呪文耐性：高 with one rounding at the end).
    """

    n: int
    variants: tuple[Variant, ...]
    perms: npt.NDArray[np.int64]
    values: npt.NDArray[np.int32]
    valid: npt.NDArray[np.bool_]
    cost: npt.NDArray[np.int64]
    half: npt.NDArray[np.int32]


def tuples_array(n: int) -> npt.NDArray[np.int64]:
    """All card tuples for ``n`` slots, shape (5 ** n, n), face values 1..5, lexicographic."""
    if n == 0:
        return np.zeros((1, 0), dtype=_I64)
    return np.array(list(itertools.product(CARD_VALUES, repeat=n)), dtype=_I64)


@lru_cache(maxsize=32)
def _master_table(n: int, ops: str) -> tuple[tuple[Variant, ...], npt.NDArray[np.int64], npt.NDArray[np.int32],
                                              npt.NDArray[np.bool_], npt.NDArray[np.int32]]:
    """Values of every variant over every *effective* tuple (digits 0..5), shape (V, 6 ** n, P)."""
    eff = np.array(list(itertools.product(range(6), repeat=n)), dtype=_I64)
    variants = variants_for(n)
    plist = [_op_perms(n, ops, v.kind == 1 + Strategy.JUMON_SETSUYAKU) for v in variants]
    n_perm = max(len(p) for p in plist)
    T = eff.shape[0]
    values = np.zeros((len(variants), T, n_perm), dtype=np.int32)
    halves = np.zeros((len(variants), T, n_perm), dtype=np.int32)
    valid = np.zeros((len(variants), T, n_perm), dtype=bool)
    perms = np.zeros((len(variants), n_perm, max(n - 1, 0)), dtype=_I64)
    for vi, var in enumerate(variants):
        ps = np.array(plist[vi], dtype=_I64).reshape(len(plist[vi]), max(n - 1, 0))
        perms[vi, : len(ps)] = ps
        if var.kind == 1 + Strategy.INOCHI_DAIJINI:  # same arithmetic as no strategy card
            values[vi], valid[vi], perms[vi], halves[vi] = values[0], valid[0], perms[0], halves[0]
            continue
        e = eff.copy()
        paren = -1
        if var.kind == 1 + Strategy.GANGAN_IKOUZE:
            e[:, var.target] *= 2
        elif var.kind == 1 + Strategy.ORE_NI_MAKASERO:
            e[:, 0] += 3
        elif var.kind == 1 + Strategy.MINNA_GANBARE:
            paren = var.target
        P = len(ps)
        tn, td, bad = _exact_rationals(np.repeat(e, P, axis=0), np.tile(ps, (T, 1)), paren)
        values[vi, :, :P] = _round_rationals(tn, td, bad, False).reshape(T, P)
        valid[vi, :, :P] = ~bad.reshape(T, P)
        halves[vi, :, :P] = _round_rationals(tn, td, bad, True).reshape(T, P)
    return variants, perms, values, valid, halves


#: ``hands`` of the exact functions: nested lists (the errors name ``hands[i]``), checked in the body.
HANDS = Unchecked("at most 5 lists of card values 1..5: checked in the body (errors name hands[i])")
#: An optional card value of a skill (どくこうげき, ザラキ) or a play position (まひ, ラリホー).
VALUE_OR_NONE = Optional(Int(1, 6))
SLOT_OR_NONE = Optional(Int(0, MAX_PARTY - 1))


@validate_params(n=Int(1, MAX_PARTY), poison=Int(0, 6), paralysed=Int(-1, MAX_PARTY - 1), asleep=Int(-1, MAX_PARTY - 1),
                 ops=Unchecked("a string of operators, at least n - 1 distinct: checked in the body"))
def value_table(n: int, poison: int = 0, paralysed: int = -1, asleep: int = -1, ops: str = OPERATORS) -> ValueTable:
    """The :class:`ValueTable` for ``n`` slots and a modifier combination (cached).

    Parameters
    ----------
    n : int
        Playing players, 1..5.
    poison : int, default 0
        どくこうげき value (cards of that value count one less), 0 = none.
    paralysed, asleep : int, default -1
        Slot (0-based play position) whose card counts 0 (まひこうげき) or 1 (ラリホー), -1 = none.
    ops : str, default "+-*/"
        Operator cards available (canonical order).

    Returns
    -------
    ValueTable

    Raises
    ------
    ParamTypeError, ParamError
        (``TypeError`` for a wrong type; ``ValueError``) if ``n`` is not an integer in 1..5,
        ``poison`` not in 0..6, ``paralysed``/``asleep`` not in -1..4, ``ops`` not a string of
        operators, or fewer distinct operators than ``n - 1``.

    Notes
    -----
    One exact evaluation per ``n`` over every effective tuple (values 0..5 per slot),
    then a gather per modifier combination: face value -> effective value per slot.
    """
    if not isinstance(ops, str) or not ops or any(o not in OPERATORS for o in ops):
        raise ParamError("ops", ops, "a non-empty string of operators from '+-*/'")
    if len(set(ops)) < n - 1:
        raise ParamError("ops", ops, f"at least {n - 1} distinct operators for {n} players")
    return _value_table(n, poison, paralysed, asleep, ops)


def _value_table_cache_clear() -> None:
    """Empty the cache of :func:`value_table` (benchmarks time the cold tables)."""
    _value_table.cache_clear()


value_table.cache_clear = _value_table_cache_clear  # type: ignore[attr-defined]


# 24 tables (about 2.7 MB each for 5 players): a chunk of the built-in study needs at most 15, and the
# whole study 57 (155 MB). A sweep worker that kept them all grew past loky's memory-leak check
# (300 MB above its first chunk) later in the main job, and was restarted with a warning.
@lru_cache(maxsize=24)
def _value_table(n: int, poison: int, paralysed: int, asleep: int, ops: str) -> ValueTable:
    variants, perms, mvalues, mvalid, mhalf = _master_table(n, ops)
    tup = tuples_array(n)
    eff = tup.copy()
    if poison:
        eff[eff == poison] -= 1
    if 0 <= asleep < n:
        eff[:, asleep] = 1
    if 0 <= paralysed < n:
        eff[:, paralysed] = 0
    eidx = (eff * (6 ** np.arange(n - 1, -1, -1, dtype=_I64))).sum(axis=1)
    values = mvalues[:, eidx, :]
    valid = mvalid[:, eidx, :]
    half = mhalf[:, eidx, :]
    values.setflags(write=False)
    valid.setflags(write=False)
    half.setflags(write=False)
    return ValueTable(n, variants, perms, values, valid, tup.sum(axis=1), half)


def _check_hands(hands: object, *, min_value: int = 1) -> list[list[int]]:
    """Validate ``hands``: at most 5 lists of at most MAX_CARDS integer card values 1..5."""
    if isinstance(hands, (str, bytes)) or not isinstance(hands, (Sequence, np.ndarray)):
        raise ParamTypeError("hands", hands, "a list of at most 5 hands, each a list of card values 1..5")
    if len(hands) > MAX_PARTY:
        raise ParamError("hands", hands, "a list of at most 5 hands (the party has at most 5 players)")
    return [check_int_list(f"hands[{i}]", h, min=min_value, max=5, min_len=0, max_len=MAX_CARDS)
            for i, h in enumerate(hands)]


def _norm_hands(hands: Sequence[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    out = []
    for h in _check_hands(hands):
        vals = tuple(sorted(set(h)))
        if vals:
            out.append(vals)
    return tuple(out)


def _tuple_index(hands: tuple[tuple[int, ...], ...]) -> npt.NDArray[np.int64]:
    n = len(hands)
    idx = np.zeros(1, dtype=_I64)
    for h in hands:
        idx = (idx[:, None] * 5 + (np.array(h, dtype=_I64) - 1)[None, :]).ravel()
    return idx if n else idx


@lru_cache(maxsize=65536)
def _best_cached(hands: tuple[tuple[int, ...], ...], ops: str) -> int:
    tab = value_table(len(hands), ops=ops)
    t = _tuple_index(hands)
    vals = tab.values[0][t]
    ok = tab.valid[0][t]
    if not ok.any():
        raise ValueError(f"no legal play for hands {hands}")
    return int(vals[ok].max())


@validate_params(hands=HANDS, operators=Unchecked("a string of operators, related to the hands: checked in the body"))
def best_attack_value(hands: Sequence[Iterable[int]], *, operators: str = OPERATORS) -> int:
    """The highest attack value the party can make (no strategy card, no skill modifiers).

    Parameters
    ----------
    hands : sequence of sequence of int
        One list of card values (1..5) per player in play order, the hero first;
        players with an empty hand (しぼう) sit the turn out.
    operators : str, default "+-*/"
        Operator cards available; each player after the hero takes a different one.

    Returns
    -------
    int
        Max over every legal assignment of one card per living player and distinct
        operators (division by zero excluded) of the rounded value.

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``; ``ParamTypeError``, a ``TypeError``, for wrong types) for card values
        that are not integers in 1..5 (``[[2.5], [5]]`` is refused, never truncated), more
        than 5 hands, a hand of more than 200 cards, or bad ``operators``.
    ValueError
        For no living player, fewer distinct operators than living players - 1, or no
        legal play.

    Notes
    -----
    Rulebook section バトル. Memoised on the sorted distinct values of each hand; each
    new hand combination is one lookup in the exact table of :func:`value_table`.

    Examples
    --------
    >>> best_attack_value([[5], [4], [3], [2]])
    22
    """
    key = _norm_hands(hands)
    if not key:
        raise ValueError("no living player (every hand is empty)")
    if not isinstance(operators, str) or any(o not in OP_CODES for o in operators):
        raise ParamError("operators", operators, "a string of operators + - * / (× ÷ accepted)")
    canon = "".join(sorted({OPERATORS[OP_CODES[o]] for o in operators}, key=OPERATORS.index))
    if len(canon) < len(key) - 1:
        raise ValueError(f"{len(key)} players need {len(key) - 1} distinct operators, got {operators!r}")
    return _best_cached(key, canon)


@validate_params(hands=HANDS, operators=Unchecked("a string of operators from '+-*/': checked in the body"),
                 strategy=Unchecked("a strategy card kind or name, parsed in the body"), poison=VALUE_OR_NONE,
                 paralysed=SLOT_OR_NONE, asleep=SLOT_OR_NONE, forbidden=VALUE_OR_NONE)
def enumerate_plays(hands: Sequence[Iterable[int]], *, operators: str = OPERATORS,
                    strategy: str | Strategy | None = None, poison: int | None = None,
                    paralysed: int | None = None, asleep: int | None = None,
                    forbidden: int | None = None) -> list[tuple[tuple[int, ...], tuple[str, ...], StrategyPlay | None, int]]:
    """Every legal play by brute force with :class:`fractions.Fraction` (the scalar oracle).

    Parameters
    ----------
    hands : sequence of sequence of int
        Card values per player in play order (hero first); empty hands sit out.
    operators : str, default "+-*/"
    strategy : str or Strategy, optional
        A strategy card kind: every target of it is enumerated.
    poison : int, optional
        どくこうげき value.
    paralysed, asleep : int, optional
        Play position (0-based among the players who play) counting 0 / 1.
    forbidden : int, optional
        ザラキ value: cards of this value cannot be played.

    Returns
    -------
    list of (cards, operators, strategy, value)
        ``cards``: face values in play order; ``value``: rounded attack value.
        Division by zero is left out.

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for hands as in :func:`best_attack_value`, ``operators``
        not a string of + - * /, ``poison``/``forbidden`` not in 1..6, ``paralysed``/``asleep``
        not in 0..4.
    ValueError
        For an unknown strategy card.

    Notes
    -----
    Slow on purpose (the tests' and the reference's independent formulation).
    """
    checked = _check_hands(hands)
    if not isinstance(operators, str) or any(o not in OPERATORS for o in operators):
        raise ParamError("operators", operators, "a string of operators from '+-*/'")
    hs = [sorted({c for c in h if forbidden is None or c != forbidden}) for h in checked]
    hs = [h for h in hs if h]
    n = len(hs)
    if n == 0:
        return []
    kind = None
    if strategy is not None:
        from .rules import _STRATEGY_ALIASES

        kind = strategy if isinstance(strategy, Strategy) else _STRATEGY_ALIASES.get(str(strategy), _STRATEGY_ALIASES.get(str(strategy).lower()))
        if kind is None:
            raise ValueError(f"unknown strategy card {strategy!r}")
    if kind is None:
        sps: list[StrategyPlay | None] = [None]
    elif kind == Strategy.MINNA_GANBARE:
        sps = [StrategyPlay(kind, k) for k in range(n - 1)]
    elif kind == Strategy.GANGAN_IKOUZE:
        sps = [StrategyPlay(kind, j) for j in range(n)]
    else:
        sps = [StrategyPlay(kind)]
    out = []
    for sp in sps:
        jumon = sp is not None and sp.kind == Strategy.JUMON_SETSUYAKU
        if jumon and n < 2:
            continue
        for cards in itertools.product(*hs):
            eff = [_effective_value(c, i, poison=poison, paralysed=paralysed, asleep=asleep) for i, c in enumerate(cards)]
            for p in _op_perms(n, operators, jumon):
                ops = tuple(OPERATORS[o] for o in p)
                try:
                    v = _attack_value(eff, ops, strategy=sp)
                except ValueError:
                    continue
                out.append((tuple(cards), ops, sp, v))
    return out


#: Unchecked body of :func:`enumerate_plays` (:func:`achievable_values`).
_enumerate_plays = enumerate_plays.__wrapped__


@validate_params(hands=HANDS, operators=Unchecked("as enumerate_plays: checked in its body"),
                 strategy=Unchecked("as enumerate_plays: parsed in its body"), poison=VALUE_OR_NONE,
                 paralysed=SLOT_OR_NONE, asleep=SLOT_OR_NONE, forbidden=VALUE_OR_NONE)
def achievable_values(hands: Sequence[Iterable[int]], *, operators: str = OPERATORS,
                      strategy: str | Strategy | None = None, poison: int | None = None,
                      paralysed: int | None = None, asleep: int | None = None,
                      forbidden: int | None = None) -> set[int]:
    """The set of every attack value the party can make (see :func:`enumerate_plays`).

    Returns
    -------
    set of int

    Raises
    ------
    ParamTypeError, ParamError, ValueError
        As :func:`enumerate_plays`.

    Examples
    --------
    >>> sorted(achievable_values([[1], [2]]))
    [-1, 1, 2, 3]
    """
    return {v for *_, v in _enumerate_plays(hands, operators=operators, strategy=strategy, poison=poison,
                                           paralysed=paralysed, asleep=asleep, forbidden=forbidden)}


@validate_params(n_players=Int(1, MAX_PARTY), hand_size=Int(0, MAX_CARDS), n_per_value=Int(0, MAX_CARDS // 5))
def hand_distribution(n_players: int, hand_size: int, n_per_value: int = N_PER_VALUE_DEFAULT
                      ) -> list[tuple[tuple[tuple[int, ...], ...], float]]:
    """Exact joint distribution of the players' starting hands (as value counts).

    Parameters
    ----------
    n_players : int
    hand_size : int
    n_per_value : int, default 10

    Returns
    -------
    list of (hands, probability)
        ``hands[i]`` is player i's count of each value 1..5; probabilities sum to 1.

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for non-integers, ``n_players`` outside 1..5, hands that
        do not fit in the deck, or more than :data:`MAX_DEALS` (2,000,000) deals to enumerate.

    Notes
    -----
    Multivariate hypergeometric dealing from the shuffled attack deck. Size grows as
    ``C(hand_size + 4, 4) ** n_players``: meant for small parties (tests, exact cells).
    """
    from math import comb

    if n_players * hand_size > 5 * n_per_value:
        raise ParamError("hand_size", hand_size, f"at most {5 * n_per_value // n_players} "
                         f"({n_players} hands must fit in the deck of {5 * n_per_value})")
    if comb(hand_size + 4, 4) ** n_players > MAX_DEALS:
        raise ParamError("n_players", n_players, f"a deal count C(hand_size + 4, 4) ** n_players <= {MAX_DEALS:g} "
                         f"(hand_size = {hand_size}): the enumeration would not finish")
    comps = [c for c in itertools.product(range(hand_size + 1), repeat=5) if sum(c) == hand_size]
    out = []
    total_cards = 5 * n_per_value

    def rec(i: int, left: list[int], remaining: int, acc: list[tuple[int, ...]], p: float) -> None:
        if i == n_players:
            out.append((tuple(acc), p))
            return
        denom = comb(remaining, hand_size)
        for c in comps:
            num = 1
            for k in range(5):
                num *= comb(left[k], c[k])
            if num == 0:
                continue
            rec(i + 1, [left[k] - c[k] for k in range(5)], remaining - hand_size, acc + [c], p * num / denom)

    rec(0, [n_per_value] * 5, total_cards, [], 1.0)
    return out
