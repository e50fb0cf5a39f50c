"""Player strategies of the whole game: how a slayer values an effect.

A policy scores every legal choice (card and side, or a boss card) by a linear value of
its icons, the boss attacks valued by their exact expected pulls and capture probability
at the current raid boss's health (:func:`.rules.attack_tables`); the best choice is
played (first best slot on ties). ``random`` plays uniformly at random among legal
choices. The same values serve the vectorized simulator (:func:`effect_values`) and the
plain-Python reference (:func:`effect_value`).

``lookahead`` (one-step lookahead): values each choice by its pulls-equivalent from the
current state: its 🎰, the exact pulls of its 👣 move from the slayer's square and 周回数, the
marginal 課金 pulls its 👑 buys at this Sunday's rates, the change in the slayer's Saturday
pulls its ★ makes, and attacks at their exact expected pulls plus ``LOOKAHEAD_CAPTURE`` pulls
per capture probability. The expected number of new UR cards is this times a factor common to
all of one slayer's choices (God Chance chips per pull × unowned characters / 5), so the choice
maximises the expected UR count of this one step, to first order.

Sunday (課金ガチャ): every policy buys the best rate mix for all its money
(:func:`.rules.paid_tables`), except ``money_then_paid``, which saves until it holds at
least ``SAVE_UNTIL`` money or the last round, and ``paid_plan``, which plays its weekdays as
``greedy_pulls`` but on Sunday buys **one rate bundle per turn** as the per-purchase dynamic
programme of the money task says (:func:`gamesim.games.gacha.purchase.best_purchase_plan`,
objective: expected God Chances), from its money and what it sees of the bag (chips drawn
since the bag was made, God Chance chips among them): :func:`paid_plan_tables`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .data import GameData, Icon
from .rules import POLICIES  # defined with the game's parameters (GachaGameParams checks them)

__all__ = ["target_values", "POLICIES", "PLAN_MAX_MONEY", "paid_plan_tables", "LOOKAHEAD_CAPTURE", "QUEST_TABLE_STEPS", "quest_tables", "PolicyWeights", "WEIGHTS", "SAVE_UNTIL", "effect_values", "effect_value", "buys"]

#: Policy names (task parameter ``policy``).
#: ``paid_plan``: largest money the purchase plan is computed for (more money is planned as this much).
PLAN_MAX_MONEY = 80
#: ``lookahead``: pulls a capture is worth (a boss card's later effect, roughly).
LOOKAHEAD_CAPTURE = 3.0
#: Largest 👣 value tabulated by :func:`quest_tables` (larger values are capped).
QUEST_TABLE_STEPS = 20
#: ``money_then_paid`` buys only with at least this much money (the 15 → 25 rate), or in the last round.
SAVE_UNTIL = 15


@dataclass(frozen=True)
class PolicyWeights:
    """Linear value of an effect: weight per icon, plus attack pulls and capture."""

    pulls: float = 1.0
    money: float = 0.6
    quest: float = 0.8
    rate: float = 0.5
    boss_appear: float = 0.3
    attack_pulls: float = 1.0
    capture: float = 1.0
    start_slayer: float = 0.1

    def icon_vector(self) -> npt.NDArray[np.float64]:
        """Weights indexed by :class:`.data.Icon` (attacks get 0: valued separately)."""
        v = np.zeros(len(Icon))
        v[Icon.PULLS], v[Icon.MONEY], v[Icon.QUEST] = self.pulls, self.money, self.quest
        v[Icon.RATE], v[Icon.BOSS_APPEAR], v[Icon.START_SLAYER] = self.rate, self.boss_appear, self.start_slayer
        return v


#: Weights of each policy (``random`` has none).
WEIGHTS: dict[str, PolicyWeights] = {
    "greedy_pulls": PolicyWeights(),
    "paid_plan": PolicyWeights(),
    "money_then_paid": PolicyWeights(pulls=0.5, money=1.5, quest=0.3, rate=0.2, attack_pulls=0.5, capture=0.5),
    "quest_rusher": PolicyWeights(pulls=0.5, money=0.3, quest=3.0, rate=0.2, attack_pulls=0.5, capture=0.5),
    "boss_hunter": PolicyWeights(pulls=0.5, money=0.3, quest=0.3, rate=0.2, boss_appear=1.0,
                                 attack_pulls=1.0, capture=6.0),
}

_ATTACKS = (Icon.ATTACK, Icon.ATTACK_CRITICAL, Icon.ATTACK_DOUBLE)


def effect_values(w: PolicyWeights, icons: npt.NDArray[np.int64], health: npt.NDArray[np.int64],
                  e_pulls: npt.NDArray[np.float64], p_cap: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Values of effects (vectorized).

    Parameters
    ----------
    w : PolicyWeights
    icons : ndarray of int, shape (..., N_ICONS)
    health : ndarray of int, broadcastable to ``icons.shape[:-1]``
        Health of the raid boss under attack (0 = none).
    e_pulls, p_cap : ndarray, shape (3, max_health + 1)
        :func:`.rules.attack_tables`.

    Returns
    -------
    ndarray of float64, shape ``icons.shape[:-1]``
    """
    v = icons @ w.icon_vector()
    for k, ic in enumerate(_ATTACKS):
        v = v + icons[..., ic] * (w.attack_pulls * e_pulls[k][health] + w.capture * p_cap[k][health])
    return v


def effect_value(w: PolicyWeights, icons: list[int], health: int, e_pulls: list[list[float]],
                 p_cap: list[list[float]]) -> float:
    """Scalar twin of :func:`effect_values` (plain Python, for the reference)."""
    v = (icons[_PULLS] * w.pulls + icons[_MONEY] * w.money + icons[_QUEST] * w.quest
         + icons[_RATE] * w.rate + icons[_BOSS_APPEAR] * w.boss_appear
         + icons[_START_SLAYER] * w.start_slayer)
    for k, ic in _ATTACK_INDEX:
        if icons[ic]:
            v += icons[ic] * (w.attack_pulls * e_pulls[k][health] + w.capture * p_cap[k][health])
    return v


# the icons' positions as plain ints: a list indexed by an IntEnum member calls its __index__
# (effect_value runs about 500 times a reference game)
_PULLS, _MONEY, _QUEST, _RATE, _BOSS_APPEAR, _START_SLAYER = (
    int(Icon.PULLS), int(Icon.MONEY), int(Icon.QUEST), int(Icon.RATE), int(Icon.BOSS_APPEAR), int(Icon.START_SLAYER))
_ATTACK_INDEX = tuple(enumerate(int(ic) for ic in _ATTACKS))


def target_values(policy: str, e_pulls: npt.NDArray[np.float64], p_cap: npt.NDArray[np.float64]
                  ) -> npt.NDArray[np.float64]:
    """How a policy values one attack of each kind on a raid boss of each health (its choice of
    target when several bosses are in the area, parameter ``boss_target = "choose"``).

    Parameters
    ----------
    policy : str
        One of :data:`POLICIES`.
    e_pulls, p_cap : ndarray, shape (3, max_health + 1)
        :func:`.rules.attack_tables`.

    Returns
    -------
    ndarray of float64, shape (3, max_health + 1)
        ``[kind, health]``: ``attack_pulls * E[pulls] + capture * P(capture)`` with the policy's
        weights (``lookahead``: 1 and :data:`LOOKAHEAD_CAPTURE`); zeros for ``random`` (which
        picks a target uniformly). E.g. ``greedy_pulls`` prefers health 5 or 6 for a normal
        attack (3.67 pulls-equivalent) to health 1 (2.0); ``boss_hunter`` (capture 6) health 1.

    Raises
    ------
    ParamError
        If ``policy`` is not a policy name.
    """
    from gamesim.core.validate import check_choice

    check_choice("policy", policy, POLICIES)
    if policy == "random":
        return np.zeros_like(e_pulls, dtype=float)
    if policy == "lookahead":
        return e_pulls + LOOKAHEAD_CAPTURE * p_cap
    w = WEIGHTS[policy]
    return w.attack_pulls * e_pulls + w.capture * p_cap


def buys(policy: str, money: int, min_cost: int, last_round: bool) -> bool:
    """Whether a slayer with ``money`` buys 課金ガチャ now (else passes).

    Parameters
    ----------
    policy : str
        One of :data:`POLICIES`.
    money : int
    min_cost : int
        Cheapest rate's money.
    last_round : bool

    Returns
    -------
    bool
    """
    if money < min_cost:
        return False
    if policy == "money_then_paid" and not last_round:
        return money >= SAVE_UNTIL
    return True


def quest_tables(data: GameData) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Pulls of a 👣 move as ``base[pos, steps] + 周回数 * units[pos, steps]`` (for ``lookahead``).

    Parameters
    ----------
    data : GameData

    Returns
    -------
    (base, units) : int64 arrays of shape (n_squares, QUEST_TABLE_STEPS + 1)
        From :func:`.rules.quest_move`, which is linear in the starting 周回数.
    """
    from .rules import _quest_move

    n = len(data.quest_stop)
    base = np.zeros((n, QUEST_TABLE_STEPS + 1), np.int64)
    units = np.zeros_like(base)
    for pos in range(n):
        for k in range(QUEST_TABLE_STEPS + 1):
            p0 = _quest_move(data, pos, 0, k).pulls
            base[pos, k], units[pos, k] = p0, _quest_move(data, pos, 1, k).pulls - p0
    return base, units


@lru_cache(maxsize=32)
def paid_plan_tables(bag: tuple[int, int, int], doubtful_k: tuple[int, ...] | None,
                     rates: tuple[tuple[int, int], ...]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The per-purchase 課金ガチャ plan of ``paid_plan`` as lookup tables.

    Parameters
    ----------
    bag : (int, int, int)
        Full-bag chips (God Chance, SR, N) the bag is made with.
    doubtful_k : tuple of int or None
        疑惑の運営モード: possible numbers of chips removed at each creation (uniform).
    rates : tuple of (int, int)
        ``(money, pulls)`` bundles.

    Returns
    -------
    (action, cls) : int64 arrays
        ``action[money, c]``: index into ``rates`` of the bundle to buy next, -1 = pass, for
        money ``0..PLAN_MAX_MONEY`` and bag information class ``c``; ``cls[drawn, gc]``: the
        class of "``drawn`` chips drawn since the bag was made, ``gc`` of them God Chance
        chips" (-1 where the plan has no such state: buy as the other policies do).
        From :func:`gamesim.games.gacha.purchase.best_purchase_plan` (objective
        ``"god_chances"``, so the UR cards owned do not matter).
    """
    from gamesim.games.gacha.purchase import best_purchase_plan
    from gamesim.games.gacha.rules import BagConfig, DoubtfulConfig

    plan = best_purchase_plan(PLAN_MAX_MONEY, rates, bag=BagConfig(*bag),
                              doubtful=None if doubtful_k is None else DoubtfulConfig(tuple(doubtful_k)))
    cls = np.full((sum(bag) + 1, bag[0] + 1), -1, np.int64)
    for c, (drawn, gc) in enumerate(plan.classes):
        cls[drawn, gc] = c
    return plan.policy[:, :, 0].copy(), cls


# ---------------------------------------------------------------------------
# the slayers' choices, on the simulator's batch of games (moved from sim._Batch: policy logic
# lives here, the batch holds the game state)
# ---------------------------------------------------------------------------


def lookahead_values(b: Any, icons: npt.NDArray[np.int64], s: int) -> npt.NDArray[np.float64]:
    """Pulls-equivalent of effects ``icons`` (G, ..., N) for seat ``s`` of batch ``b`` in its current state.

    A kernel of the simulator (unchecked): ``b`` is its batch of ``G`` games
    (``gamesim.games.gacha_game.sim._Batch``), ``icons`` an int64 array whose last axis counts the
    icons of :class:`.data.Icon`; returns float64 of ``icons.shape[:-1]``, in pulls.

    Exact quest outcome from the slayer's square and 周回数, marginal 課金 pulls of the money at
    this Sunday's rates, the change of the slayer's Saturday pulls, attacks at their exact
    expected pulls plus LOOKAHEAD_CAPTURE pulls per capture probability.
    """
    G, P = b.G, b.P
    extra = (1,) * (icons.ndim - 2)
    g = lambda a: a.reshape((G,) + extra)  # noqa: E731
    pos, laps = g(b.qpos.reshape(G, P)[:, s]), g(b.laps.reshape(G, P)[:, s])
    q = np.minimum(icons[..., Icon.QUEST], b.qbase.shape[1] - 1)
    val = (icons[..., Icon.PULLS] + b.qbase[pos, q] + laps * b.qunits[pos, q]).astype(float)
    cap = b.pp.shape[1] - 1
    mon = b.money.reshape(G, P)[:, s]
    val += (b.pp[g(b.rid), np.minimum(g(mon) + icons[..., Icon.MONEY], cap)]
            - g(b.pp[b.rid, np.minimum(mon, cap)]))
    rate = b.rate.reshape(G, P)
    others = np.delete(rate, s, axis=1)
    top = others.max(axis=1)
    tied = (others == top[:, None]).sum(axis=1)
    d = b.d

    def sat(r: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        t, n, tab = g(top), g(tied), g(b.sid)
        return np.where(r > t, b.sat_sets[tab, d.rate_columns[r], 0],
                        np.where(r == t, b.sat_sets[tab, d.rate_columns[r], np.minimum(n, 3)], 0))

    r0 = g(rate[:, s])
    val += sat(np.minimum(r0 + icons[..., Icon.RATE], d.rate_length)) - sat(r0)
    h = g(b._vhealth(s))
    for k, ic in enumerate((Icon.ATTACK, Icon.ATTACK_CRITICAL, Icon.ATTACK_DOUBLE)):
        val += icons[..., ic] * (b.e_pulls[k][h] + LOOKAHEAD_CAPTURE * b.p_cap[k][h])
    return val

def choose_play(b: Any, s: int, hs: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Seat ``s`` of batch ``b`` picks from its hand ``hs`` (G, nv) by its policy: the code it plays
    and the hand slot it gives up, both int64 (G,).

    A kernel of the simulator (unchecked; ``b`` as :func:`lookahead_values`). The code is
    ``2 * card + side`` for an action card, ``2 * A + boss`` for a boss card (A action cards).
    ``random`` draws from ``b.rng_choice``; the other policies play the card of highest value
    (``lookahead``: :func:`lookahead_values`; else the weights' tables) and a boss card when
    it is worth more (the worst card then goes face down).
    """
    d, G, rows, A = b.d, b.G, b.rows, b.A
    nv = hs.shape[1]
    pol = b.cfg.policies[s]
    gi = np.nonzero(b.nboss.reshape(G, b.P)[:, s])[0]  # games where s has a usable boss card
    if pol == "random":
        slot = b.rng_choice.integers(0, nv, G)
        code = 2 * hs.reshape(-1)[rows * nv + slot] + b.rng_choice.integers(0, 2, G)
        gi = gi[b.rng_choice.random(gi.size) < 0.5]
        if gi.size:
            usable = (b.owner[gi] == s) & ~b.used[gi]
            bv = np.where(usable, b.rng_choice.random((gi.size, b.B)), -np.inf)
            code[gi] = 2 * A + np.argmax(bv, axis=1)
        return code, slot
    if pol == "lookahead":
        v = lookahead_values(b, d.action_effects[hs], s)  # (G, nv, 2)
        side = np.argmax(v, axis=2)
        cv = v.max(axis=2)
    else:
        vh = b._vhealth(s)
        h = vh[:, None]
        side = b.card_side[s][hs, h]
        cv = b.card_val[s][hs, h]
    slot = np.argmax(cv, axis=1)
    fl = rows * nv + slot
    code = 2 * hs.reshape(-1)[fl] + side.reshape(-1)[fl]
    if gi.size:
        if pol == "lookahead":
            bv = lookahead_values(b, np.broadcast_to(d.boss_effects, (G,) + d.boss_effects.shape), s)[gi]
        else:
            bv = b.boss_val[s][:, vh[gi]].T
        bv = np.where((b.owner[gi] == s) & ~b.used[gi], bv, -np.inf)
        use = bv.max(axis=1) > cv.reshape(-1)[fl[gi]]
        gu = gi[use]
        if gu.size:
            code[gu] = 2 * A + np.argmax(bv[use], axis=1)
            slot[gu] = np.argmin(cv[gu], axis=1)  # the worst card goes face down
    return code, slot
