"""Players of ぱんつぁーへくせん: how each seat chooses its action, card, target and deck.

``random``
    An action uniformly among the six; within it, a uniform legal choice: an affordable policy
    (発言力 +1 if none), a ネウロイ in play or 魔力 +1 (uniform over those), a non-empty deck.
``greedy`` (VP per resource)
    出撃 if some ネウロイ in play can be destroyed without being hit with the 魔力 held (the one
    with the most VP per 魔力 + 1); else 施策 if some policy is affordable (the most VP per 発言力);
    else 休息/整備 if 消耗; else 通信 if no ネウロイ is in play (and a deck has cards); else 訓練 or
    会議, whichever closes the smaller gap (魔力 to the cheapest clean win vs 発言力 to the cheapest
    policy); the deck with more cards left. Ties: lowest id.

``rollout``
    For each of the six actions, ``k`` random playouts of ``horizon`` rounds from a copy of the
    game; the action with the best mean (own VP − best other VP); inside an action it chooses as
    ``greedy``.

All spend, in a fight, the least 魔力 for a clean win if they hold it (else none), use their best
usable striker and gun, and defend against an unexecuted-通信 ambush when they can.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.validate import check_choice

from .engine import BIG, IN_PLAY, Batch
from .rules import Action

__all__ = [
    "POLICY_NAMES", "pick_uniform", "choose_action", "choose_card", "choose_target", "choose_deck", "rollout_choice",
]

I64 = npt.NDArray[np.int64]
POLICY_NAMES: tuple[str, ...] = ("random", "greedy", "rollout")


def pick_uniform(mask: npt.NDArray[np.bool_], u: npt.NDArray[np.float64]) -> I64:
    """Column of a uniformly chosen True per row of ``mask`` given uniforms ``u`` in [0, 1); -1 for
    an all-False row."""
    cnt = mask.sum(axis=1)
    k = np.minimum((u * cnt).astype(np.int64), np.maximum(cnt - 1, 0))
    pos = np.cumsum(mask, axis=1) - 1
    hit = mask & (pos == k[:, None])
    return np.where(cnt > 0, hit.argmax(axis=1), -1)


def _ratio_best(ok: npt.NDArray[np.bool_], score: npt.NDArray[np.float64]) -> I64:
    s = np.where(ok, score, -np.inf)
    return np.where(ok.any(axis=1), s.argmax(axis=1), -1)


def choose_action(b: Batch, gi: I64, s: I64, kind: str, rng: np.random.Generator) -> I64:
    """Each seat's action (:class:`.rules.Action` values) in games ``gi``."""
    if kind == "random":
        return rng.integers(0, 6, size=gi.size)
    check_choice("policy", kind, ("random", "greedy"))
    to_a, to_d = b.clean_need(gi, s)
    need = to_a + to_d
    live = b.n_loc[gi] == IN_PLAY
    mana = b.mana[gi, s][:, None]
    tired = b.tired[gi, s]
    fightable = (live & (need <= mana)).any(axis=1) & ~tired
    cost = b.costs(gi, s)
    open_p = b.p_loc[gi] == IN_PLAY
    afford = (open_p & (cost <= b.voice[gi, s][:, None])).any(axis=1)
    gap_m = np.where(live, need - mana, BIG).min(axis=1)
    gap_v = np.where(open_p, cost - b.voice[gi, s][:, None], BIG).min(axis=1)
    cards_left = (b.dlen[gi] - b.dptr[gi]).sum(axis=1) > 0
    act = np.where(gap_m <= gap_v, Action.TRAINING, Action.MEETING)
    act = np.where(~live.any(axis=1), np.where(cards_left, Action.COMMS, Action.MEETING), act)
    act = np.where(tired, Action.REST, act)
    act = np.where(afford, Action.POLICY, act)
    act = np.where(fightable, Action.SORTIE, act)
    return act.astype(np.int64)


def choose_card(b: Batch, gi: I64, s: I64, kind: str, rng: np.random.Generator) -> I64:
    """The policy each seat executes with 施策 (-1: 発言力 +1 instead)."""
    cost = b.costs(gi, s)
    ok = (b.p_loc[gi] == IN_PLAY) & (cost <= b.voice[gi, s][:, None])
    if kind == "random":
        return pick_uniform(ok, rng.random(gi.size))
    return _ratio_best(ok, b.t.p_vp[None] / np.maximum(cost, 1))


def choose_target(b: Batch, gi: I64, s: I64, kind: str, rng: np.random.Generator) -> I64:
    """The ネウロイ each seat fights with 出撃 (-1: 魔力 +1 instead)."""
    live = b.n_loc[gi] == IN_PLAY
    if kind == "random":
        opts = np.concatenate([np.ones((gi.size, 1), bool), live], axis=1)
        return pick_uniform(opts, rng.random(gi.size)) - 1
    to_a, to_d = b.clean_need(gi, s)
    need = to_a + to_d
    ok = live & (need <= b.mana[gi, s][:, None])
    return _ratio_best(ok, b.t.n_vp[None] / (need + 1.0))


def choose_deck(b: Batch, gi: I64, s: I64, kind: str, rng: np.random.Generator) -> I64:
    """The deck (0 or 1) each seat reveals from (通信, or the 通信 unexecuted event)."""
    left = b.dlen[gi] - b.dptr[gi]
    if kind == "random":
        d = pick_uniform(left > 0, rng.random(gi.size))
        return np.maximum(d, 0)
    return np.where(left[:, 1] > left[:, 0], 1, 0).astype(np.int64)


def rollout_choice(b: Batch, gi: I64, seat: int, play: Callable[..., Any], rng: np.random.Generator,
                   k: int, horizon: int) -> I64:
    """The rollout player: for each of the six actions, ``k`` playouts of ``horizon`` rounds with
    random players everywhere (the seat's first action fixed); the action with the best mean
    (own VP − best other VP). The playouts see the shuffled decks' order only through play.
    ``play`` is :func:`.sim.play_rounds` (passed in, so this module does not import the simulator)."""
    P = b.P
    best = np.full(gi.size, -np.inf)
    out = np.zeros(gi.size, np.int64)
    idx = np.repeat(gi, k)
    for a in range(6):
        c = b.take(idx)
        fc = np.full((idx.size, P), -1, np.int64)
        fc[:, seat] = a
        play(c, ["random"] * P, rng, rounds=max(1, horizon), first_choice=fc)
        vn, ve, vo = c.vp()
        vp = vn + ve + vo
        others = np.delete(vp, seat, axis=1).max(axis=1)
        val = (vp[:, seat] - others).reshape(gi.size, k).mean(axis=1)
        better = val > best
        best[better], out[better] = val[better], a
    return out
