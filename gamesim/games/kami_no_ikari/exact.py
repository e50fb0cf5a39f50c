"""Exact enumerations of 神の怒り's hand scoring (the tests' oracles and the report's reference lines).

The whole game is far too large to solve (hidden hands, up to 4 players, 45 cards), but a hand
is small: a hand of ``k`` cards is a multiset of the numbers 1..5, at most ``C(k + 4, 4)`` of
them (126 for 5 cards), and the chance of being dealt one from a pool of cards is
multivariate hypergeometric. So the distribution of a hand's value on a given board is exact
(fractions), and so is, e.g., the chance of an opening set bonus (3/4/5 equal cards).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb

from gamesim.core.registry import ParamError
from gamesim.core.validate import Bool, Int, validate_params

from .rules import COPIES, COUNTS, HAND_SIZE, HEIGHTS, MATE, N_NUMBERS, SET_BONUS, _hand_value

__all__ = ["hands_of_size", "hand_probability", "hand_value_distribution", "set_bonus_distribution",
           "expected_hand_value"]


@lru_cache(maxsize=16)
def _hands(k: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for combo in combinations_with_replacement(range(N_NUMBERS), k):
        out.append(tuple(combo.count(v) for v in range(N_NUMBERS)))
    return tuple(out)


#: A hand size (the enumeration has ``C(k + 4, 4)`` hands: 1820 for 12).
HAND_K = Int(0, 12)


@validate_params(k=HAND_K)
def hands_of_size(k: int = HAND_SIZE) -> tuple[tuple[int, ...], ...]:
    """Every hand of ``k`` cards as counts per number (``C(k + 4, 4)`` of them; 126 for 5).

    Parameters
    ----------
    k : int, default 5
        Hand size, 0..12.

    Returns
    -------
    tuple of tuple of int

    Raises
    ------
    ParamTypeError, ParamError
        If ``k`` is not an integer 0..12.
    """
    return _hands(k)


@validate_params(hand=COUNTS, pool=COUNTS)
def hand_probability(hand: tuple[int, ...], pool: tuple[int, ...] = (COPIES,) * N_NUMBERS) -> Fraction:
    """Chance that ``sum(hand)`` cards dealt from ``pool`` are exactly ``hand`` (multivariate hypergeometric).

    Parameters
    ----------
    hand : sequence of 5 int
        Counts per number, 0..9 each.
    pool : sequence of 5 int, default 9 each
        Cards dealt from, 0..9 of each number.

    Returns
    -------
    Fraction

    Raises
    ------
    ParamTypeError, ParamError
        For counts of the wrong length, type or range.
    """
    n = sum(pool)
    k = sum(hand)
    if k > n:
        return Fraction(0)
    num = 1
    for h, c in zip(hand, pool):
        num *= comb(c, h)
    return Fraction(num, comb(n, k))


_hand_probability = hand_probability.__wrapped__


@validate_params(heights=HEIGHTS, mate=MATE, k=HAND_K, pool=COUNTS, collapse_doubled=Bool())
def hand_value_distribution(heights: tuple[int, ...] = (0,) * N_NUMBERS, mate: int = -1, *, k: int = HAND_SIZE,
                            pool: tuple[int, ...] = (COPIES,) * N_NUMBERS, collapse_doubled: bool = True
                            ) -> dict[int, Fraction]:
    """Exact distribution of the value of a random ``k``-card hand from ``pool`` on a board.

    Parameters
    ----------
    heights : sequence of 5 int, default all 0
        Cards on each tower (0..5).
    mate : int, default -1
        Tower with the 摩天カウンター (-1 none).
    k : int, default 5
        Hand size, 0..12.
    pool : sequence of 5 int, default 9 each
        Cards the hand is dealt from.
    collapse_doubled : bool, default True

    Returns
    -------
    dict of int to Fraction
        Hand value → probability (summing to 1), no smoking-room cards.

    Raises
    ------
    ParamTypeError, ParamError
        For arguments of the wrong type or range, or a pool with fewer than ``k`` cards.
    """
    if sum(pool) < k:  # a relation between pool and k: not declarable
        raise ParamError("pool", pool, f"at least k = {k} cards")
    out: dict[int, Fraction] = {}
    for h in _hands(k):
        if any(c > p for c, p in zip(h, pool)):  # more copies than the pool holds (k > COPIES): probability 0
            continue
        pr = _hand_probability(h, pool)
        if pr:
            v = _hand_value(h, heights, mate, 0, collapse_doubled=collapse_doubled)
            out[v] = out.get(v, Fraction(0)) + pr
    return dict(sorted(out.items()))


@validate_params(k=HAND_K, pool=COUNTS)
def set_bonus_distribution(k: int = HAND_SIZE, pool: tuple[int, ...] = (COPIES,) * N_NUMBERS) -> dict[int, Fraction]:
    """Exact distribution of a random ``k``-card hand's set bonus (3/4/5 equal cards → +3/+7/+12).

    With the defaults: the opening hand (始め方: 5 cards from the 45).

    Parameters
    ----------
    k : int, default 5
        Hand size, 0..12.
    pool : sequence of 5 int, default 9 each
        Cards the hand is dealt from.

    Returns
    -------
    dict of int to Fraction
        Set bonus → probability (empty if the pool holds fewer than ``k`` cards).

    Raises
    ------
    ParamTypeError, ParamError
        For ``k`` or ``pool`` out of range.
    """
    out: dict[int, Fraction] = {}
    for h in _hands(k):
        if any(c > p for c, p in zip(h, pool)):  # more copies than the pool holds: probability 0
            continue
        pr = _hand_probability(h, pool) if sum(pool) >= k else Fraction(0)
        if pr:
            v = sum(SET_BONUS[min(c, 5)] for c in h)
            out[v] = out.get(v, Fraction(0)) + pr
    return dict(sorted(out.items()))


@validate_params(heights=HEIGHTS, mate=MATE, k=HAND_K, pool=COUNTS, collapse_doubled=Bool())
def expected_hand_value(heights: tuple[int, ...] = (0,) * N_NUMBERS, mate: int = -1, *, k: int = HAND_SIZE,
                        pool: tuple[int, ...] = (COPIES,) * N_NUMBERS, collapse_doubled: bool = True) -> Fraction:
    """Mean of :func:`hand_value_distribution`, computed independently by linearity over the numbers.

    Each number's count in the hand is hypergeometric, so the mean is
    ``sum_v E[SET_BONUS[c_v]] + E[c_v] * points_v``: a second formulation the tests hold against
    the enumeration.

    Parameters
    ----------
    heights, mate, k, pool, collapse_doubled
        As :func:`hand_value_distribution`.

    Returns
    -------
    Fraction

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`hand_value_distribution`.
    """
    n = sum(pool)
    if n < k:  # a relation between pool and k: not declarable
        raise ParamError("pool", pool, f"at least k = {k} cards")
    total = Fraction(0)
    for v in range(N_NUMBERS):
        one = [0] * N_NUMBERS
        one[v] = 1
        pts = _hand_value(tuple(one), heights, mate, 0, collapse_doubled=collapse_doubled)  # a single card: its points, no bonus
        total += Fraction(k * pool[v], n) * pts
        for c in range(3, min(k, pool[v]) + 1):
            total += Fraction(comb(pool[v], c) * comb(n - pool[v], k - c), comb(n, k)) * SET_BONUS[min(c, 5)]
    return total
