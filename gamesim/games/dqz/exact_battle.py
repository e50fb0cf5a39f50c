"""Exact first-turn damage distribution of a fresh party, by enumerating every deal.

The starting hands are dealt from the shuffled attack deck (multivariate
hypergeometric, :func:`gamesim.games.dqz.exact.hand_distribution`); for each deal the
party's best damage without a strategy card and with each kind of strategy card is
read off the exact value tables (:func:`gamesim.games.dqz.exact.value_table`), and
the hero's first strategy card is a uniform draw from the strategy deck (the stock is
empty on the first turn). Under ``max_damage`` the first turn deals
``max(best without, best with the drawn card)``. Monsters with a 【先制】 skill are not
covered (it acts before the first attack).

Source: ``shared/seeds/dqz_rules_ja.txt``, sections バトル and さくせんカード.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np

from math import comb

from gamesim.core.registry import ParamError
from gamesim.core.validate import Instance, Int, IntList, ParamTypeError, Unchecked, validate_params

from .exact import MAX_DEALS, N_KINDS, hand_distribution, value_table
from .policies import DamageRule
from .rules import N_PER_VALUE_DEFAULT, STRATEGY_DECK_DEFAULT

__all__ = ["exact_first_turn", "best_damage_by_kind"]


RULE = Instance(DamageRule, "a DamageRule")


@validate_params(masks=Unchecked("an integer ndarray (k, n), 1 <= n <= 5, masks 1..31: checked in the body"), rule=RULE)
def best_damage_by_kind(masks: np.ndarray, rule: DamageRule) -> np.ndarray:
    """Best damage per strategy kind for hands given as value masks.

    Parameters
    ----------
    masks : ndarray of int, shape (k, n)
        Bit ``v - 1`` set when the player holds a card of value v (every mask non-zero).
    rule : DamageRule

    Returns
    -------
    ndarray of int64, shape (k, 6)
        Max damage over every legal play of each kind (0 = none, ``1 + Strategy``);
        a very negative number where the kind has no legal play.

    Raises
    ------
    ParamTypeError, ParamError
        If ``masks`` is not an integer array of shape (k, n) with 1 <= n <= 5 and every
        mask in 1..31, or ``rule`` is not a DamageRule.
    """
    if not isinstance(masks, np.ndarray) or masks.ndim != 2 or masks.dtype.kind not in "iu":
        raise ParamTypeError("masks", f"<{type(masks).__name__} {getattr(masks, 'dtype', '')} "
                             f"{getattr(masks, 'shape', '')}>", "an integer ndarray of shape (k, n)")
    if not 1 <= masks.shape[1] <= 5 or (masks.size and (int(masks.min()) < 1 or int(masks.max()) > 31)):
        raise ParamError("masks", f"<array of shape {masks.shape}>", "1 to 5 columns of masks in 1..31")
    k, n = masks.shape
    tab = value_table(n)
    kinds = np.array([v.kind for v in tab.variants])
    dmg = rule.damage(tab.values, (kinds != 0)[:, None, None], tab.half)
    dmg = np.where(tab.valid, dmg, -(1 << 40)).max(axis=2)  # (V, T)
    per_kind = np.full((N_KINDS, dmg.shape[1]), -(1 << 40), dtype=np.int64)
    for kd in range(N_KINDS):
        if (kinds == kd).any():
            per_kind[kd] = dmg[kinds == kd].max(axis=0)
    digits = (np.arange(5 ** n)[:, None] // 5 ** np.arange(n - 1, -1, -1)[None, :]) % 5  # (T, n)
    avail = np.ones((k, 5 ** n), dtype=bool)
    for i in range(n):
        avail &= ((masks[:, i][:, None] >> digits[:, i][None, :]) & 1).astype(bool)
    return np.where(avail[:, None, :], per_kind[None, :, :], -(1 << 40)).max(axis=2)


#: Unchecked body of :func:`best_damage_by_kind` (its array checks stay; the rule is trusted).
_best_damage_by_kind = best_damage_by_kind.__wrapped__


@lru_cache(maxsize=16)
def _mask_distribution(party_size: int, hand_size: int, n_per_value: int) -> tuple[np.ndarray, np.ndarray]:
    """Distribution of the players' value masks in a fresh deal: (masks (k, n), probabilities (k,))."""
    by_mask: dict[tuple[int, ...], float] = defaultdict(float)
    for hands, p in hand_distribution(party_size, hand_size, n_per_value):
        by_mask[tuple(sum(1 << v for v in range(5) if h[v]) for h in hands)] += p
    keys = list(by_mask)
    return np.array(keys, dtype=np.int64), np.array([by_mask[k] for k in keys])


@lru_cache(maxsize=64)
def _best_for(party_size: int, hand_size: int, n_per_value: int, rule: DamageRule) -> np.ndarray:
    return _best_damage_by_kind(_mask_distribution(party_size, hand_size, n_per_value)[0], rule)


@validate_params(party_size=Int(1, 5), hand_size=Int(1, 20), n_per_value=Int(1, 40),
                 strategy_deck=IntList(0, 20, min_len=5, max_len=5), rule=RULE)
def exact_first_turn(party_size: int, *, hand_size: int = 3, n_per_value: int = N_PER_VALUE_DEFAULT,
                     strategy_deck: tuple[int, ...] = STRATEGY_DECK_DEFAULT,
                     rule: DamageRule = DamageRule()) -> dict[int, float]:
    """Exact distribution of the first turn's damage of a fresh party under ``max_damage``.

    Parameters
    ----------
    party_size : int
        Players (1..5; the enumeration grows as ``C(hand_size + 4, 4) ** party_size``,
        so keep ``party_size <= 3`` for sub-second answers).
    hand_size : int, default 3
    n_per_value : int, default 10
    strategy_deck : tuple of 5 int, default (2, 2, 2, 2, 2)
    rule : DamageRule, default DamageRule()
        Damage rule of the monster (物理攻撃無効, 呪文耐性：高, healing).

    Returns
    -------
    dict of int to float
        P(first-turn damage = d); sums to 1.

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``; ``ParamTypeError``, also a ``TypeError``, for wrong types) for
        ``party_size`` not an integer in 1..5, ``hand_size`` not in 1..20, ``n_per_value`` not in
        1..40, hands that do not fit in the deck, ``strategy_deck`` not five counts 0..20,
        ``rule`` not a :class:`DamageRule`, or more than 2,000,000 deals to enumerate.

    Notes
    -----
    P(win on the first turn) against a monster of HP h without 【先制】 skills is
    ``sum(p for d, p in pmf.items() if d >= h)`` under every policy but ``random``.
    """
    sd = tuple(strategy_deck)
    if party_size * hand_size > 5 * n_per_value:
        raise ParamError("hand_size", hand_size, f"at most {5 * n_per_value // party_size} (hands must fit in the deck)")
    if comb(hand_size + 4, 4) ** party_size > MAX_DEALS:
        raise ParamError("party_size", party_size, f"a deal count C(hand_size + 4, 4) ** party_size <= {MAX_DEALS:g}")
    return _exact_first_turn(party_size, hand_size, n_per_value, sd, rule)


@lru_cache(maxsize=64)
def _exact_first_turn(party_size: int, hand_size: int, n_per_value: int, strategy_deck: tuple[int, ...],
                      rule: DamageRule) -> dict[int, float]:
    keys, probs = _mask_distribution(party_size, hand_size, n_per_value)
    best = _best_for(party_size, hand_size, n_per_value, rule)
    sd = np.asarray(strategy_deck, dtype=float)
    out: dict[int, float] = defaultdict(float)
    if sd.sum() == 0:
        for d, p in zip(best[:, 0], probs):
            out[int(d)] += p
        return dict(out)
    for kind in range(5):
        if sd[kind] == 0:
            continue
        w = sd[kind] / sd.sum()
        dm = np.maximum(best[:, 0], best[:, 1 + kind])
        for d, p in zip(dm, probs):
            out[int(d)] += w * p
    return dict(out)
