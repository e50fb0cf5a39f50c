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

from gamesim.core.validate import check_bool, check_int

from .rules import COPIES, END_HEIGHT, HAND_SIZE, N_NUMBERS, SET_BONUS, _check_counts, _hand_value

__all__ = ["hands_of_size", "hand_probability", "hand_value_distribution", "set_bonus_distribution",
           "expected_hand_value"]


@lru_cache(maxsize=16)
def _hands(k: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for combo in combinations_with_replacement(range(N_NUMBERS), k):
        out.append(tuple(combo.count(v) for v in range(N_NUMBERS)))
    return tuple(out)


def hands_of_size(k: int = HAND_SIZE) -> tuple[tuple[int, ...], ...]:
    """Every hand of ``k`` cards as counts per number (``C(k + 4, 4)`` of them; 126 for 5).

    Raises
    ------
    ParamTypeError, ParamError
        If ``k`` is not an integer 0..12.
    """
    return _hands(check_int("k", k, min=0, max=12))


def hand_probability(hand: tuple[int, ...], pool: tuple[int, ...] = (COPIES,) * N_NUMBERS) -> Fraction:
    """Chance that ``sum(hand)`` cards dealt from ``pool`` are exactly ``hand`` (multivariate hypergeometric).

    Raises
    ------
    ParamTypeError, ParamError
        For counts of the wrong length, type or range, or an empty pool.
    """
    hand = _check_counts("hand", hand)
    pool = _check_counts("pool", pool)
    n = sum(pool)
    k = sum(hand)
    if k > n:
        return Fraction(0)
    num = 1
    for h, c in zip(hand, pool):
        num *= comb(c, h)
    return Fraction(num, comb(n, k))


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
    heights = _check_counts("heights", heights, END_HEIGHT)
    mate = check_int("mate", mate, min=-1, max=N_NUMBERS - 1)
    k = check_int("k", k, min=0, max=12)
    pool = _check_counts("pool", pool)
    check_bool("collapse_doubled", collapse_doubled)
    if sum(pool) < k:
        from gamesim.core.registry import ParamError

        raise ParamError("pool", pool, f"at least k = {k} cards")
    out: dict[int, Fraction] = {}
    for h in _hands(k):
        if any(c > p for c, p in zip(h, pool)):  # more copies than the pool holds (k > COPIES): probability 0
            continue
        pr = hand_probability(h, pool)
        if pr:
            v = _hand_value(h, heights, mate, 0, collapse_doubled)
            out[v] = out.get(v, Fraction(0)) + pr
    return dict(sorted(out.items()))


def set_bonus_distribution(k: int = HAND_SIZE, pool: tuple[int, ...] = (COPIES,) * N_NUMBERS) -> dict[int, Fraction]:
    """Exact distribution of a random ``k``-card hand's set bonus (3/4/5 equal cards → +3/+7/+12).

    With the defaults: the opening hand (始め方: 5 cards from the 45).

    Raises
    ------
    ParamTypeError, ParamError
        For ``k`` or ``pool`` out of range.
    """
    k = check_int("k", k, min=0, max=12)
    pool = _check_counts("pool", pool)
    out: dict[int, Fraction] = {}
    for h in _hands(k):
        if any(c > p for c, p in zip(h, pool)):  # more copies than the pool holds: probability 0
            continue
        pr = hand_probability(h, pool) if sum(pool) >= k else Fraction(0)
        if pr:
            v = sum(SET_BONUS[min(c, 5)] for c in h)
            out[v] = out.get(v, Fraction(0)) + pr
    return dict(sorted(out.items()))


def expected_hand_value(heights: tuple[int, ...] = (0,) * N_NUMBERS, mate: int = -1, *, k: int = HAND_SIZE,
                        pool: tuple[int, ...] = (COPIES,) * N_NUMBERS, collapse_doubled: bool = True) -> Fraction:
    """Mean of :func:`hand_value_distribution`, computed independently by linearity over the numbers.

    Each number's count in the hand is hypergeometric, so the mean is
    ``sum_v E[SET_BONUS[c_v]] + E[c_v] * points_v``: a second formulation the tests hold against
    the enumeration.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`hand_value_distribution`.
    """
    heights = _check_counts("heights", heights, END_HEIGHT)
    mate = check_int("mate", mate, min=-1, max=N_NUMBERS - 1)
    k = check_int("k", k, min=0, max=12)
    pool = _check_counts("pool", pool)
    check_bool("collapse_doubled", collapse_doubled)
    n = sum(pool)
    if n < k:
        from gamesim.core.registry import ParamError

        raise ParamError("pool", pool, f"at least k = {k} cards")
    total = Fraction(0)
    for v in range(N_NUMBERS):
        one = [0] * N_NUMBERS
        one[v] = 1
        pts = _hand_value(tuple(one), heights, mate, 0, collapse_doubled)  # a single card: its points, no bonus
        total += Fraction(k * pool[v], n) * pts
        for c in range(3, min(k, pool[v]) + 1):
            total += Fraction(comb(pool[v], c) * comb(n - pool[v], k - c), comb(n, k)) * SET_BONUS[min(c, 5)]
    return total
