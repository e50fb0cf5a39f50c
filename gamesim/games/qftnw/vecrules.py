"""Vectorized (axis 0 = game) versions of the QftNW round rules.

The same reading as the scalar rules core :mod:`gamesim.games.qftnw.rules`,
on numpy arrays of many games at once. Used by the batch simulator and the
vectorized policies; kernels trust their inputs (no checks).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .rules import Cond, QftnwParams

__all__ = ["resolve_bids_vec", "win_condition_vec", "run_windows", "cond_table", "presence_mask"]

#: Largest number of territory types for which :func:`cond_table` builds a table.
MAX_TABLE_TYPES = 10

IntArr = npt.NDArray[np.int64]


def resolve_bids_vec(a: IntArr, b: IntArr, f0: IntArr, f1: IntArr, p: QftnwParams
                     ) -> tuple[IntArr, IntArr, IntArr]:
    """Vectorized :func:`gamesim.games.qftnw.rules.resolve_bids`.

    Parameters
    ----------
    a, b : ndarray of int, shape (m,)
        Bids (1..5) of players 0 and 1.
    f0, f1 : ndarray of int, shape (m,)
        Funds before the round (>= 1).
    p : QftnwParams

    Returns
    -------
    (winner, f0, f1) : tuple of ndarray of int64, shape (m,)
        ``winner`` 0, 1 or -1 (tie); funds after the round, not reset (<= 0 = bankrupt).
    """
    diff = a - b
    tie = diff == 0
    one_five = (a == 1) & (b == 5)
    five_one = (a == 5) & (b == 1)
    win0 = ((diff > 0) & ~five_one) | one_five
    winner = np.where(tie, -1, np.where(win0, 0, 1))
    d = np.abs(diff)
    hi0 = diff > 0  # player 0 bid the higher card
    # funds change of the higher card's player: +gain if exactly one above (it always wins then),
    # -d if two or more above
    delta = np.where(d == 1, p.gain, -d)
    g0 = np.where(hi0, delta, 0)
    g1 = np.where(diff < 0, delta, 0)
    n0 = f0 + g0
    n1 = f1 + g1
    n0 = np.where((d == 1) & hi0, np.minimum(n0, p.fund_cap), n0)
    n1 = np.where((d == 1) & (diff < 0), np.minimum(n1, p.fund_cap), n1)
    if tie.any():
        if p.tie_floor == "each":
            t0 = np.maximum(f0 - 1, 1)
            t1 = np.maximum(f1 - 1, 1)
        else:
            both1 = (f0 == 1) & (f1 == 1)
            t0 = np.where(both1, f0, f0 - 1)
            t1 = np.where(both1, f1, f1 - 1)
        n0 = np.where(tie, t0, n0)
        n1 = np.where(tie, t1, n1)
    return winner, n0, n1


def run_windows(pres: npt.NDArray[np.bool_], length: int) -> npt.NDArray[np.bool_]:
    """Which windows of ``length`` consecutive types are all present.

    Parameters
    ----------
    pres : ndarray of bool, shape (m, n_types)
    length : int

    Returns
    -------
    ndarray of bool, shape (m, max(n_types - length + 1, 0))
    """
    n_types = pres.shape[1]
    k = n_types - length + 1
    if k <= 0:
        return np.zeros((pres.shape[0], 0), dtype=bool)
    out = pres[:, :k].copy()
    for j in range(1, length):
        out &= pres[:, j:j + k]
    return out


def win_condition_vec(hold_self: npt.NDArray[np.integer], hold_opp: npt.NDArray[np.integer],
                      p: QftnwParams) -> IntArr:
    """Vectorized :func:`gamesim.games.qftnw.rules.win_condition`.

    Parameters
    ----------
    hold_self, hold_opp : ndarray of int, shape (m, n_types)
        Territory counts of the player and of the opponent.
    p : QftnwParams

    Returns
    -------
    ndarray of int64, shape (m,)
        :class:`Cond` codes (first satisfied condition in rulebook order; 0 = none).
    """
    pres = hold_self > 0
    three = (hold_self >= p.n_of_a_kind).any(axis=1)
    s5 = run_windows(pres, p.long_straight).any(axis=1)
    out = np.where(three, int(Cond.THREE), np.where(s5, int(Cond.STRAIGHT5), 0))
    if p.straight3:
        L = p.short_straight
        own = run_windows(pres, L)
        if own.shape[1]:
            opp_any = run_windows(~(hold_opp > 0), L)  # all of the window absent for the opponent
            s3 = (own & opp_any).any(axis=1)
            out = np.where((out == 0) & s3, int(Cond.STRAIGHT3), out)
    return out.astype(np.int64)


@lru_cache(maxsize=16)
def cond_table(p: QftnwParams) -> npt.NDArray[np.int8] | None:
    """Straight conditions by presence masks: ``table[mask_self, mask_opp]``.

    Parameters
    ----------
    p : QftnwParams

    Returns
    -------
    ndarray of int8, shape (2**n_types, 2**n_types), read-only, or None
        :class:`Cond` code ``STRAIGHT5``, ``STRAIGHT3`` or 0 for a player whose held types are the
        bits of ``mask_self`` against an opponent holding ``mask_opp`` (three of a kind is tested
        on counts, separately). ``None`` when ``n_types > MAX_TABLE_TYPES``.
    """
    T = p.n_types
    if T > MAX_TABLE_TYPES:
        return None
    masks = np.arange(1 << T)
    pres = ((masks[:, None] >> np.arange(T)) & 1).astype(np.int64)
    # presence masks hold at most 1 card of a type, so n_of_a_kind = 2 never fires here
    q = QftnwParams(n_types=T, n_copies=p.n_copies, n_of_a_kind=2, long_straight=p.long_straight,
                    short_straight=p.short_straight, straight3=p.straight3)
    n = masks.size
    hs = np.repeat(pres, n, axis=0)
    ho = np.tile(pres, (n, 1))
    t = win_condition_vec(hs, ho, q).astype(np.int8).reshape(n, n)
    t.setflags(write=False)
    return t


def presence_mask(hold: npt.NDArray[np.integer]) -> IntArr:
    """Bit mask of the types held (bit ``t`` set when ``hold[:, t] > 0``), shape (m,)."""
    return (hold > 0) @ (1 << np.arange(hold.shape[1], dtype=np.int64))
