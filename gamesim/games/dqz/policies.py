"""Party policies: which cards, operators and strategy card the party plays each turn.

Every policy plays a *legal* assignment: each playing player (hand not empty and a
card not forbidden by ザラキ) plays one card, each player after the hero a different
operator card, nothing divides by zero. Policies (``policy=`` everywhere):

``"max_damage"``
    The play with the most damage this turn; ties go to the play spending the
    lowest total face value (keeping strong cards), then to the first in canonical
    order (strategy variant, card values lexicographic in play order, operator
    assignment in ``itertools.permutations`` order).
``"exact_kill"``
    If some play kills the monster this turn (damage >= HP left), the killing play
    spending the lowest total face value (ties: more damage, then canonical order);
    otherwise as ``max_damage``.
``"avoid_trigger"``
    Kills as ``exact_kill`` when it can; otherwise the most damaging play whose
    attack value does *not* set off one of the monster's multiple-of-k skills
    (はげしいほのお 5, かえんのいき 3, ひのいき 4); if every play sets one off, as
    ``max_damage``.
``"random"``
    Each playing player plays a uniformly random card of their hand and the
    operators are a uniformly random assignment, redrawn until legal; strategy
    cards are never drawn or used (a baseline for the arithmetic alone).

Strategy cards (all policies but ``random``), rulebook section さくせんカード: the hero
scores each kind of strategy card by the policy's best play with it. If a kind held
in stock beats playing without one (strictly; いのちだいじに also on a tie, since it
saves the turn's cards), the hero takes the best such kind from the stock (ties: the
lower kind index) and uses it. Otherwise the hero draws the top card of the strategy
deck, uses it if it beats playing without one, and stocks it if not.

This module holds the vectorized solver shared by the batch simulator; the scalar
reference (:mod:`gamesim.games.dqz.reference`) re-implements the same choice by
brute force with :class:`fractions.Fraction`. The policy names (:data:`POLICIES`) and
:class:`DamageRule` are defined in :mod:`.rules` (the game's parameters,
:class:`~gamesim.games.dqz.rules.DqzParams`, check and build them) and importable from here
as before.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .exact import KIND_NONE, N_KINDS, value_table
from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError

from .rules import OPERATORS, POLICIES, DamageRule, PolicyName, Strategy  # POLICIES, DamageRule, PolicyName: re-exported

__all__ = [
    "POLICIES",
    "PolicyName",
    "DamageRule",
    "PlaySolver",
    "DMG_OFFSET",
    "encode_e1",
    "kind_beats",
]


#: Offset that makes encoded damages non-negative (|damage| < 2**19 for card values <= 10).
DMG_OFFSET: int = 1 << 19
KILL_FLAG: int = 1 << 60
AVOID_FLAG: int = 1 << 40
_I64 = np.int64
_INOCHI = 1 + int(Strategy.INOCHI_DAIJINI)


def encode_e1(dmg: npt.ArrayLike, cost: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Policy score of a play by damage, then lower face-value cost: ``(dmg + OFFSET) << 8 | (255 - cost)``."""
    return ((np.asarray(dmg, dtype=_I64) + DMG_OFFSET) << 8) | (255 - np.asarray(cost, dtype=_I64))


def kind_beats(kind: int, score: npt.ArrayLike, none_score: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Whether using strategy kind ``kind`` beats playing without one (いのちだいじに also on ties)."""
    s, n0 = np.asarray(score), np.asarray(none_score)
    return (s >= 0) & ((s > n0) | ((s == n0) if kind == _INOCHI else False))


@dataclass
class _Reduced:
    variants_kind: npt.NDArray[np.int64]
    kind_slices: list[tuple[int, int]]
    e1: npt.NDArray[np.int64]  # (V, T)
    p1: npt.NDArray[np.int64]
    d1: npt.NDArray[np.int64]
    e2: npt.NDArray[np.int64]
    p2: npt.NDArray[np.int64]
    values: npt.NDArray[np.int32]
    cost: npt.NDArray[np.int64]
    seg_kinds: npt.NDArray[np.int64]  # (S,) the kinds with variants, in variant order
    seg_starts: npt.NDArray[np.int64]  # (S,) their first variant (the slices are adjacent)
    seg_of: npt.NDArray[np.int64]  # (V,) the segment of each variant


@lru_cache(maxsize=1024)
def _digits(sizes: tuple[int, ...]) -> npt.NDArray[np.int64]:
    """Every choice of one card per slot, as positions within the slots (m, n): slot ``i`` has
    ``sizes[i]`` playable values (1..5); rows in ``itertools.product`` order (cached, read-only)."""
    d = np.array(list(itertools.product(*(range(s) for s in sizes))), dtype=_I64).reshape(-1, len(sizes))
    d.setflags(write=False)
    return d


class PlaySolver:
    """Best plays for many hand situations at once, memoised per situation.

    A *situation* is the number ``n`` of playing players, the modifiers
    (どくこうげき value, まひ/ラリホー slot) and each slot's set of playable face values
    (a 5-bit mask). For each situation and each strategy kind (0 = none, ``1 +
    Strategy``), the solver keeps the best play by damage (``e1``) and the best
    play that sets off no multiple-of-k skill (``e2``), each as ``(score, variant,
    tuple, perm)``.

    Parameters
    ----------
    rule : DamageRule
    ops : str, default "+-*/"
    """

    def __init__(self, rule: DamageRule, ops: str = OPERATORS):
        if not isinstance(rule, DamageRule):
            raise ParamTypeError("rule", rule, "a DamageRule")
        if not isinstance(ops, str) or not ops or any(o not in OPERATORS for o in ops) or len(set(ops)) != len(ops):
            raise ParamError("ops", ops, f"a non-empty string of distinct operators from {OPERATORS!r}")
        self.rule = rule
        self.ops = ops
        self._red: dict[tuple[int, int, int, int], _Reduced] = {}
        self._index: dict[int, int] = {}
        self._n = 0  # rows of _table in use (it grows geometrically: solved situations only accumulate)
        self._table: npt.NDArray[np.int64] = np.zeros((64, N_KINDS, 8), dtype=_I64)

    def reduced(self, n: int, poison: int, para: int, sleep: int) -> _Reduced:
        """Per (variant, card tuple): best damage over operator assignments (cached)."""
        key = (n, poison, para, sleep)
        r = self._red.get(key)
        if r is not None:
            return r
        tab = value_table(n, poison, para, sleep, self.ops)
        vk = np.array([v.kind for v in tab.variants], dtype=_I64)
        su = (vk != KIND_NONE)[:, None, None]
        dmg = self.rule.damage(tab.values, su, tab.half)
        dmg_e = np.where(tab.valid, dmg + DMG_OFFSET, -1)
        p1 = dmg_e.argmax(axis=2)
        d1 = np.take_along_axis(dmg_e, p1[..., None], axis=2)[..., 0]
        ok1 = d1 >= 0
        e1 = np.where(ok1, (d1 << 8) | (255 - tab.cost)[None, :], -1)
        nt = np.where(self.rule.triggers(tab.values), -1, dmg_e)
        p2 = nt.argmax(axis=2)
        d2 = np.take_along_axis(nt, p2[..., None], axis=2)[..., 0]
        e2 = np.where(d2 >= 0, (d2 << 8) | (255 - tab.cost)[None, :], -1)
        slices = []
        for k in range(N_KINDS):
            w = np.flatnonzero(vk == k)
            slices.append((int(w[0]), int(w[-1]) + 1) if w.size else (0, 0))
        segs = [(k, a, b) for k, (a, b) in enumerate(slices) if b > a]  # the kinds with variants
        starts, ends = [a for _, a, _ in segs], [b for _, _, b in segs]
        if starts[0] != 0 or starts[1:] != ends[:-1] or ends[-1] != vk.size:  # value_table orders them by kind
            raise AssertionError(f"variants not grouped by kind: {slices}")
        seg_of = np.repeat(np.arange(len(segs), dtype=_I64), [b - a for a, b in zip(starts, ends)])
        r = _Reduced(vk, slices, e1, p1, np.where(ok1, d1 - DMG_OFFSET, 0), e2, p2, tab.values, tab.cost,
                     np.array([k for k, _, _ in segs], _I64), np.array(starts, _I64), seg_of)
        self._red[key] = r
        return r

    @staticmethod
    def situation_key(n: int, poison: int, para: int, sleep: int, masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Integer key of situations: masks (k, n) of playable values (bit v-1 for value v)."""
        key = np.full(masks.shape[0], ((n * 8 + poison) * 8 + (para + 1)) * 8 + (sleep + 1), dtype=_I64)
        for i in range(n):
            key = key * 32 + masks[:, i]
        return key

    @staticmethod
    def _tuples(masks: npt.NDArray[np.int64], n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Card tuple indices (k, m) of a group of masks with equal slot sizes, and the sizes."""
        k = masks.shape[0]
        bits = ((masks[:, :, None] >> np.arange(5)) & 1).astype(bool)  # (k, n, 5)
        sizes = bits.sum(axis=2)[0]
        vals = np.argsort(~bits, axis=2, kind="stable")  # set values first, ascending
        digits = _digits(tuple(sizes.tolist()))
        m = digits.shape[0]
        tidx = np.zeros((k, m), dtype=_I64)
        for i in range(n):
            tidx = tidx * 5 + vals[:, i, :][:, digits[:, i]]
        return tidx, sizes

    def _groups(self, masks: npt.NDArray[np.int64]):  # type: ignore[no-untyped-def]
        """Row groups with equal per-slot mask sizes."""
        pc = np.zeros(masks.shape, dtype=_I64)
        for b in range(5):
            pc += (masks >> b) & 1
        code = np.zeros(masks.shape[0], dtype=_I64)
        for i in range(masks.shape[1]):
            code = code * 6 + pc[:, i]
        uniq, inv = np.unique(code, return_inverse=True)
        for g in range(uniq.size):
            yield np.flatnonzero(inv == g)

    def solve(self, n: int, poison: int, para: int, sleep: int, masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Best plays per kind for every row of ``masks``.

        Parameters
        ----------
        n : int
            Playing players (1..5).
        poison, para, sleep : int
            Modifiers (0 / -1 = none); para and sleep are slot indices.
        masks : ndarray of int64, shape (k, n)
            Playable values per slot (non-zero).

        Returns
        -------
        ndarray of int64, shape (k, 6, 8)
            Per kind: ``[e1, variant, tuple, perm, e2, variant, tuple, perm]``; scores
            -1 where the kind has no legal play.
        """
        keys = self.situation_key(n, poison, para, sleep, masks)
        uk, first, inv = np.unique(keys, return_index=True, return_inverse=True)
        rows = np.array([self._index.get(int(x), -1) for x in uk], dtype=_I64)
        miss = np.flatnonzero(rows < 0)
        if miss.size:
            new = self._compute(n, poison, para, sleep, masks[first[miss]])
            base = self._n
            if base + miss.size > self._table.shape[0]:
                grown = np.zeros((max(2 * self._table.shape[0], base + miss.size), N_KINDS, 8), dtype=_I64)
                grown[:base] = self._table[:base]
                self._table = grown
            self._table[base:base + miss.size] = new
            self._n = base + miss.size
            for j, x in enumerate(uk[miss]):
                self._index[int(x)] = base + j
            rows[miss] = base + np.arange(miss.size)
        return self._table[rows[inv]]

    def _compute(self, n: int, poison: int, para: int, sleep: int, masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        red = self.reduced(n, poison, para, sleep)
        out = np.full((masks.shape[0], N_KINDS, 8), -1, dtype=_I64)
        kinds = red.seg_kinds[None, :]
        vidx = np.arange(red.seg_of.size, dtype=_I64)[:, None]
        for g in self._groups(masks):
            tidx, _ = self._tuples(masks[g], n)
            rows = np.arange(g.size)[None, :]
            gg = g[:, None]
            for which, (e, p) in enumerate(((red.e1, red.p1), (red.e2, red.p2))):
                # for each kind, the first best (variant, tuple) in variant-major order: per variant the
                # first best tuple, then the first variant of the kind with the kind's best score
                eg = e[:, tidx]  # (V, k, m)
                at = eg.argmax(axis=2)  # (V, k)
                mx = np.take_along_axis(eg, at[..., None], axis=2)[..., 0]
                best = np.maximum.reduceat(mx, red.seg_starts, axis=0)  # (S, k)
                v = np.minimum.reduceat(np.where(mx == best[red.seg_of], vidx, vidx.size), red.seg_starts, axis=0)
                t = tidx[rows, at[v, rows]]
                col = 4 * which
                out[gg, kinds, col] = best.T
                out[gg, kinds, col + 1] = v.T
                out[gg, kinds, col + 2] = t.T
                out[gg, kinds, col + 3] = p[v, t].T
        return out

    def kill_plays(self, n: int, poison: int, para: int, sleep: int, masks: npt.NDArray[np.int64],
                   hp: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Cheapest killing play per kind (damage >= ``hp``): lowest face-value cost, then most damage.

        Returns
        -------
        ndarray of int64, shape (k, 6, 4)
            Per kind ``[score, variant, tuple, perm]`` with score
            ``KILL_FLAG | (255 - cost) << 20 | (damage + OFFSET)``, or -1 if no play kills.
        """
        red = self.reduced(n, poison, para, sleep)
        out = np.full((masks.shape[0], N_KINDS, 4), -1, dtype=_I64)
        for g in self._groups(masks):
            tidx, _ = self._tuples(masks[g], n)
            m = tidx.shape[1]
            d = red.d1[:, tidx]  # (V, k, m)
            ok = (red.e1[:, tidx] >= 0) & (d >= hp[g][None, :, None])
            s = np.where(ok, KILL_FLAG | ((255 - red.cost[tidx])[None] << 20) | (d + DMG_OFFSET), -1)
            for kind, (a, b) in enumerate(red.kind_slices):
                if b <= a:
                    continue
                sub = np.moveaxis(s[a:b], 0, 1).reshape(g.size, (b - a) * m)
                am = sub.argmax(axis=1)
                v = a + am // m
                t = tidx[np.arange(g.size), am % m]
                out[g, kind, 0] = sub[np.arange(g.size), am]
                out[g, kind, 1] = v
                out[g, kind, 2] = t
                out[g, kind, 3] = red.p1[v, t]
        return out
