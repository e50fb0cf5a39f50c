"""Vectorized batch simulator of dqz battles and runs of battles.

Axis 0 is the run (a party's sequence of battles; one battle is a run of length 1).
All runs advance one turn at a time in lockstep with numpy arrays:

* hands: ``(n, party_size, 5)`` counts of each face value 1..5 per player;
* the attack deck: ``(n, 50)`` card values in a circular buffer (head, size): draws
  come off the top, used and discarded cards are shuffled and put at the bottom
  (使用済みカードは随時、シャッフルして山札に補充する(下に置く));
* the strategy deck and used pile as counts per kind (the deck is always freshly
  shuffled, so its top card is a uniform draw from its contents), the stock as an
  ordered list (ふしぎなおどり counts its position);
* the monster's HP and the pending effects of [攻撃終了後] skills.

The party's play each turn comes from :class:`gamesim.games.dqz.policies.PlaySolver`,
which memoises the best plays per distinct hand situation (lookup tables built from
the exact value tables of :mod:`gamesim.games.dqz.exact`), so the per-turn work is a
few array operations plus a dictionary lookup per *distinct* situation.

Runs are processed in chunks of at most :data:`CHUNK_SIZE`, so memory is bounded.
The order of events in a turn is documented in ``docs/rules/dqz.md``.

Random streams: each source of randomness has its own stream per battle and turn
(:class:`gamesim.core.rng.KeyedStreams`, keys ``(source, battle, turn, ...)``): the
opening shuffle of the attack deck, the shuffle of the cards put under the deck, each
monster skill's dice (per skill slot), the strategy card drawn, and the random policy's
picks. Every draw is made for all runs of the chunk (one number per run, used or not), so
run ``i`` reads column ``i`` whichever runs are still fighting. Two variants compared with
common random numbers (a bigger party, more HP, another strategy deck) then keep every
source that the change does not touch on the same numbers, turn by turn.

Entry point shared by every game: :func:`simulate` ``(params, n_games, *, rng=None)`` takes a
:class:`~gamesim.games.dqz.rules.DqzParams` (formerly ``BattleConfig``, a name still importable
here) and returns :func:`run_battles`'s arrays; :func:`simulate_battle` and :func:`simulate_run`
remain the DataFrame front ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans
from gamesim.core.lazy import lazy_module
from gamesim.core.registry import ParamError
from gamesim.core.rng import KeyedStreams, RngLike
from gamesim.core.samplers import row_permutations
from gamesim.core.validate import Instance, Int, ParamTypeError, Rng, Unchecked, validate_params

from .exact import KIND_NONE, value_table
from .policies import DMG_OFFSET, DamageRule, PlaySolver, kind_beats
from .config import (
    MAX_HAND,
    MAX_INN_EVERY,
    MAX_PER_VALUE,
    MAX_STRATEGY,
    MAX_TURNS,
    BattleConfig,
)
from .config import as_monster as _as_monster
from .rules import DqzParams
from .rules import (
    HAND_SIZE_DEFAULT,
    N_PER_VALUE_DEFAULT,
    STRATEGY_DECK_DEFAULT,
    Monster,
    Skill,
    Strategy,
    Timing,
)

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: sweep workers never need it
    pd = lazy_module("pandas")

#: Largest trial count and battles per run the public functions accept (bigger values would
#: exhaust memory or time); the limits of a :class:`BattleConfig` are in :mod:`.config`.
MAX_TRIALS: int = 10_000_000
MAX_BATTLES: int = 1000

__all__ = ["CHUNK_SIZE", "MAX_HAND", "MAX_PER_VALUE", "MAX_STRATEGY", "MAX_INN_EVERY", "MAX_TURNS", "MAX_TRIALS",
           "MAX_BATTLES", "BattleConfig", "DqzParams", "run_battles", "simulate", "simulate_battle", "simulate_run",
           "RESULT_COLUMNS"]

#: Runs simulated at once.
CHUNK_SIZE: int = 8192
#: Sources of randomness: the first element of a stream key (see the module notes).
_DEAL, _PUSH, _SKILL_PRE, _SKILL_POST, _STRATEGY, _POLICY = range(6)
_I64 = np.int64
_INOCHI = 1 + int(Strategy.INOCHI_DAIJINI)

#: Columns of the per-run results.
RESULT_COLUMNS: tuple[str, ...] = (
    "won", "turns", "cards_left", "first_turn_damage", "damage_per_turn", "strategy_used",
    "called_ally", "experience", "kansto", "deck_left", "battles_won", "cleared", "cards_end",
)


class _State:
    """Arrays of one chunk of runs."""

    def __init__(self, n: int, cfg: BattleConfig, rng: np.random.Generator):
        self.width = n
        P = cfg.party_size
        N = 5 * cfg.n_per_value
        self.N = N
        self.hands = np.zeros((n, P, 5), dtype=_I64)
        cards = np.repeat(np.arange(1, 6, dtype=_I64), cfg.n_per_value)
        order = row_permutations(n, N, rng=rng)
        self.deck = cards[order] if N else np.zeros((n, 0), dtype=_I64)
        self.head = np.zeros(n, dtype=_I64)
        self.size = np.full(n, N, dtype=_I64)
        self.full_sdeck = np.asarray(cfg.strategy_deck, dtype=_I64)
        self.sdeck = np.tile(self.full_sdeck, (n, 1))
        self.sused = np.zeros((n, 5), dtype=_I64)
        self.stock = np.full((n, int(self.full_sdeck.sum()) + 1), -1, dtype=_I64)
        self.slen = np.zeros(n, dtype=_I64)
        z = lambda v=0: np.full(n, v, dtype=_I64)  # noqa: E731
        self.p_poison, self.p_para, self.p_sleep, self.p_zaraki, self.p_tsukon = z(), z(-1), z(-1), z(), z()
        self.p_mahoton = np.zeros(n, dtype=bool)
        self.hp = z()
        self.max_hp = 0
        self.heal_cap = cfg.heal_cap
        self.over = np.zeros(n, dtype=bool)
        self.won = np.zeros(n, dtype=bool)
        self.called = np.zeros(n, dtype=bool)
        self.turns = z()
        self.first_dmg = z()
        self.total_dmg = z()
        self.strat_used = z()
        self.experience = z()
        self.kansto = np.zeros(n, dtype=bool)

    # -- attack deck -------------------------------------------------------------------
    def pop(self, rows: npt.NDArray[np.int64], k: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Take ``k[i]`` cards off the top for each row; (len(rows), max k), 0-padded."""
        k = np.minimum(k, self.size[rows])
        kmax = int(k.max()) if k.size else 0
        if kmax == 0 or self.N == 0:
            return np.zeros((rows.size, 0), dtype=_I64)
        pos = (self.head[rows][:, None] + np.arange(kmax)) % self.N
        vals = self.deck[rows[:, None], pos]
        vals[np.arange(kmax)[None, :] >= k[:, None]] = 0
        self.head[rows] = (self.head[rows] + k) % self.N
        self.size[rows] -= k
        return vals

    def push(self, parts: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]], rng: np.random.Generator) -> None:
        """Shuffle each row's cards in ``parts`` (rows, values) and put them at the bottom.

        The ``j``-th card of row ``r`` (in ``parts`` order) gets the sort key ``keys[j, r]`` of a
        ``(cards, width)`` block of ``rng``: row ``r``'s shuffle does not depend on the others'.
        """
        if not parts:
            return
        r = np.concatenate([p[0] for p in parts])
        v = np.concatenate([p[1] for p in parts])
        keep = v > 0
        r, v = r[keep], v[keep]
        if r.size == 0:
            return
        o = np.argsort(r, kind="stable")
        r, v = r[o], v[o]
        start = np.r_[0, np.flatnonzero(np.diff(r)) + 1]
        cnt = np.diff(np.r_[start, r.size])
        pos = np.arange(r.size) - np.repeat(start, cnt)
        keys = rng.random((int(cnt.max()), self.width))[pos, r]
        o = np.argsort(r + keys)  # r is sorted: this shuffles within each row only
        r, v = r[o], v[o]
        self.deck[r, (self.head[r] + self.size[r] + pos) % self.N] = v
        self.size[r[start]] += cnt

    def give(self, rows: npt.NDArray[np.int64], player: npt.NDArray[np.int64] | int, vals: npt.NDArray[np.int64]) -> None:
        """Add 0-padded card values ``vals`` (len(rows), k) to the players' hands."""
        if vals.size == 0:
            return
        pl = np.broadcast_to(np.asarray(player), rows.shape)
        rr = np.repeat(rows, vals.shape[1])
        pp = np.repeat(pl, vals.shape[1])
        vv = vals.ravel()
        m = vv > 0
        np.add.at(self.hands, (rr[m], pp[m], vv[m] - 1), 1)

    def discard_lowest(self, rows: npt.NDArray[np.int64], players: npt.NDArray[np.int64],
                       tod: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]) -> None:
        """Each (row, player) with cards discards its lowest card (our reading of 任意の1枚)."""
        h = self.hands[rows, players]
        has = h.sum(axis=1) > 0
        r, p = rows[has], players[has]
        v = np.argmax(self.hands[r, p] > 0, axis=1)
        self.hands[r, p, v] -= 1
        tod.append((r, v + 1))

    # -- strategy cards ----------------------------------------------------------------
    def stock_remove(self, rows: npt.NDArray[np.int64], pos: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Remove stock position ``pos`` of each row; returns the kinds removed."""
        kinds = self.stock[rows, pos]
        S = self.stock.shape[1]
        ext = np.concatenate([self.stock[rows], np.full((rows.size, 1), -1, dtype=_I64)], axis=1)
        ar = np.arange(S)
        src = ar[None, :] + (ar[None, :] >= pos[:, None])
        self.stock[rows] = ext[np.arange(rows.size)[:, None], src]
        self.slen[rows] -= 1
        return kinds

    def inn(self, rows: npt.NDArray[np.int64], hand_size: int) -> None:
        """宿屋: refill every hand to ``hand_size`` (hero first) and return every strategy card."""
        for p in range(self.hands.shape[1]):
            need = np.maximum(hand_size - self.hands[rows, p].sum(axis=1), 0)
            self.give(rows, p, self.pop(rows, need))
        self.sdeck[rows] = self.full_sdeck
        self.sused[rows] = 0
        self.stock[rows] = -1
        self.slen[rows] = 0



def _roll(rng: np.random.Generator, rows: npt.NDArray[np.int64], width: int, dice: int = 1) -> npt.NDArray[np.int64]:
    """Totals of ``dice`` d6 for the chunk rows ``rows``: die ``k`` of row ``r`` is draw ``k * width + r``."""
    out = rng.integers(1, 7, size=width)[rows]
    for _ in range(dice - 1):
        out = out + rng.integers(1, 7, size=width)[rows]
    return out


def _apply_skill(st: _State, skill: Skill, pre: bool, rows: npt.NDArray[np.int64], now: dict[str, npt.NDArray[Any]],
                 loc: npt.NDArray[np.int64], rng: np.random.Generator,
                 tod: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]) -> None:
    """Roll and resolve one dice skill for ``rows`` (``loc``: their positions in the turn arrays).

    Modifiers of the next attack go to ``now`` (【先制】) or to the pending arrays ([攻撃終了後]).
    """
    if rows.size == 0:
        return
    P = st.hands.shape[1]
    w = st.width

    def set_mod(name: str, value: npt.NDArray[Any]) -> None:
        if pre:
            now[name][loc] = value
        else:
            getattr(st, "p_" + name)[rows] = value

    def everyone_lowest(sel: npt.NDArray[np.bool_]) -> None:
        r = rows[sel]
        for p in range(P):
            st.discard_lowest(r, np.full(r.size, p, dtype=_I64), tod)

    if skill == Skill.IONAZUN:
        s = _roll(rng, rows, w, 2)
        for p in range(P):
            hit = s <= 5
            r = rows[hit]
            sv = s[hit]
            has = st.hands[r, p, sv - 1] > 0
            st.hands[r[has], p, sv[has] - 1] -= 1
            tod.append((r[has], sv[has]))
            r2 = r[~has]
            for _ in range(2):
                st.discard_lowest(r2, np.full(r2.size, p, dtype=_I64), tod)
    elif skill == Skill.BEGIRAMA:
        everyone_lowest(_roll(rng, rows, w) == 1)
    elif skill == Skill.GIRA:
        r = rows[_roll(rng, rows, w) == 1]
        st.discard_lowest(r, np.zeros(r.size, dtype=_I64), tod)
    elif skill == Skill.DOKU:
        d = _roll(rng, rows, w)
        set_mod("poison", np.where(d <= 5, d, 0))
    elif skill in (Skill.MAHI, Skill.RARIHO):
        d = _roll(rng, rows, w)
        set_mod("para" if skill == Skill.MAHI else "sleep", np.where(d <= P, d - 1, -1))
    elif skill == Skill.SHUCHU:
        sizes = st.hands[rows].sum(axis=2)
        alive = sizes > 0
        key = np.where(alive, sizes * 8 + np.arange(P)[None, :], 1 << 30)
        tgt = key.argmin(axis=1)
        has = alive.any(axis=1)
        st.discard_lowest(rows[has], tgt[has], tod)
    elif skill == Skill.TSUKON:
        d = _roll(rng, rows, w)
        set_mod("tsukon", np.where(d <= 5, d, 0))
    elif skill == Skill.FUSHIGI_ODORI:
        d = _roll(rng, rows, w)
        hit = st.slen[rows] >= d
        r = rows[hit]
        kinds = st.stock_remove(r, d[hit] - 1)
        np.add.at(st.sdeck, (r, kinds), 1)
    elif skill == Skill.MAHOTON:
        set_mod("mahoton", _roll(rng, rows, w) % 2 == 1)
    elif skill == Skill.ZARAKI:
        d = _roll(rng, rows, w)
        set_mod("zaraki", np.where(d <= 5, d, 0))
    elif skill == Skill.NAKAMA:
        st.called[rows] = True
    elif skill in (Skill.BEHOIMI, Skill.HOIMI):
        healed = st.hp[rows] + _roll(rng, rows, w, 2 if skill == Skill.BEHOIMI else 1)
        st.hp[rows] = np.minimum(healed, st.max_hp) if st.heal_cap else healed


def _turn(st: _State, idx: npt.NDArray[np.int64], mon: Monster, cfg: BattleConfig, solver: PlaySolver,
          streams: KeyedStreams, battle: int, turn: int) -> None:
    """One turn for the runs ``idx`` (monster alive, party not wiped); random numbers from
    ``streams(source, battle, turn, ...)`` (see the module notes)."""
    B = idx.size
    P = cfg.party_size
    loc = np.arange(B)
    tod: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
    now = {
        "poison": st.p_poison[idx].copy(), "para": st.p_para[idx].copy(), "sleep": st.p_sleep[idx].copy(),
        "zaraki": st.p_zaraki[idx].copy(), "tsukon": st.p_tsukon[idx].copy(), "mahoton": st.p_mahoton[idx].copy(),
    }
    st.p_poison[idx], st.p_para[idx], st.p_sleep[idx], st.p_zaraki[idx], st.p_tsukon[idx] = 0, -1, -1, 0, 0
    st.p_mahoton[idx] = False
    for k, use in enumerate(mon.skills):
        if use.timing == Timing.PRE:
            _apply_skill(st, use.skill, True, idx, now, loc, streams(_SKILL_PRE, battle, turn, k), tod)

    # --- who plays, with which playable values ---------------------------------------
    hands = st.hands[idx]
    masks = ((hands > 0) * (1 << np.arange(5))).sum(axis=2)
    z = now["zaraki"]
    masks = np.where((z > 0)[:, None], masks & ~(1 << np.maximum(z - 1, 0))[:, None], masks)
    playing = masks != 0
    res = np.full((B, 6, 8), -1, dtype=_I64)
    kill = np.full((B, 6, 4), -1, dtype=_I64)
    slot_pl = np.zeros((B, 5), dtype=_I64)
    combo = np.zeros((B, 4), dtype=_I64)
    todo = np.flatnonzero(playing.any(axis=1))
    random_policy = cfg.policy == "random"
    kill_policy = cfg.policy in ("exact_kill", "avoid_trigger")
    hp = st.hp[idx]
    while todo.size:
        pl = playing[todo]
        n = pl.sum(axis=1)
        order = np.argsort(~pl, axis=1, kind="stable")
        cum = np.cumsum(pl, axis=1) - 1
        para, sleep = now["para"][todo], now["sleep"][todo]
        pslot = np.where(para >= 0, np.where(pl[np.arange(todo.size), np.maximum(para, 0)],
                                             cum[np.arange(todo.size), np.maximum(para, 0)], -1), -1)
        sslot = np.where(sleep >= 0, np.where(pl[np.arange(todo.size), np.maximum(sleep, 0)],
                                              cum[np.arange(todo.size), np.maximum(sleep, 0)], -1), -1)
        cb = np.stack([n, now["poison"][todo], pslot, sslot], axis=1)
        ucb, inv = np.unique(cb, axis=0, return_inverse=True)
        inv = inv.ravel()
        redo = []
        for g in range(ucb.shape[0]):
            rows = todo[inv == g]
            ng, po, pa, sl = (int(x) for x in ucb[g])
            sp = order[inv == g][:, :ng]
            mk = masks[rows[:, None], sp]
            r = solver.solve(ng, po, pa, sl, mk)
            bad = r[:, 0, 0] < 0  # no legal play without a strategy card: the last player sits out
            if bad.any():
                rb = rows[bad]
                playing[rb, sp[bad, -1]] = False
                redo.append(rb)
            ok = ~bad
            rows, r, sp, mk = rows[ok], r[ok], sp[ok], mk[ok]
            res[rows] = r
            slot_pl[rows, :ng] = sp
            combo[rows] = ucb[g]
            if kill_policy and rows.size:
                d = np.where(r[:, :, 0] >= 0, (r[:, :, 0] >> 8) - DMG_OFFSET, -(1 << 30)).max(axis=1)
                kr = d >= hp[rows]
                if kr.any():
                    kill[rows[kr]] = solver.kill_plays(ng, po, pa, sl, mk[kr], hp[rows[kr]])
        todo = np.concatenate(redo) if redo else np.zeros(0, dtype=_I64)
        todo = todo[playing[todo].any(axis=1)]
    can_play = combo[:, 0] > 0

    # --- strategy card and the play of each kind ---------------------------------------
    e1 = res[:, :, 0]
    e2 = res[:, :, 4]
    ks = kill[:, :, 0]
    if cfg.policy == "max_damage":
        score = e1
        play = res[:, :, 1:4]
    elif cfg.policy == "exact_kill":
        score = np.where(ks >= 0, ks, e1)
        play = np.where((ks >= 0)[:, :, None], kill[:, :, 1:4], res[:, :, 1:4])
    else:
        use2 = (ks < 0) & (e2 >= 0)
        score = np.where(ks >= 0, ks, np.where(e2 >= 0, (1 << 40) | e2, e1))
        play = np.where((ks >= 0)[:, :, None], kill[:, :, 1:4], np.where(use2[:, :, None], res[:, :, 5:8], res[:, :, 1:4]))
    chosen = np.zeros(B, dtype=_I64)
    if not random_policy:
        can = can_play & ~now["mahoton"]
        if not cfg.hero_passes:  # a しぼう hero takes and uses no strategy card
            can &= hands[:, 0].sum(axis=1) > 0
        none_s = score[:, 0]
        gidx = idx
        beats = np.stack([kind_beats(k, score[:, k], none_s) for k in range(1, 6)], axis=1)
        stock = st.stock[gidx]
        in_stock = np.stack([(stock == k).any(axis=1) for k in range(5)], axis=1)
        q = beats & in_stock & can[:, None]
        sq = np.where(q, score[:, 1:], -2)
        best = sq.argmax(axis=1)
        use_stock = sq.max(axis=1) > -2
        us = np.flatnonzero(use_stock)
        if us.size:
            pos = np.argmax(stock[us] == best[us][:, None], axis=1)
            st.stock_remove(gidx[us], pos)
            chosen[us] = 1 + best[us]
        dr = np.flatnonzero(can & ~use_stock & (st.sdeck[gidx].sum(axis=1) > 0))
        if dr.size:
            g = gidx[dr]
            cnt = st.sdeck[g]
            c = np.cumsum(cnt, axis=1)
            u = (streams(_STRATEGY, battle, turn).random(st.width)[g] * c[:, -1]).astype(_I64)
            kind = (u[:, None] >= c).sum(axis=1)
            st.sdeck[g, kind] -= 1
            one = st.sdeck[g].sum(axis=1) <= 1  # 残り1枚 (or none): shuffle the used cards back in
            st.sdeck[g[one]] += st.sused[g[one]]
            st.sused[g[one]] = 0
            use = beats[dr, kind]
            chosen[dr[use]] = 1 + kind[use]
            keep = dr[~use]
            gk = gidx[keep]
            st.stock[gk, st.slen[gk]] = kind[~use]
            st.slen[gk] += 1
        uc = np.flatnonzero(chosen > 0)
        np.add.at(st.sused, (gidx[uc], chosen[uc] - 1), 1)
        st.strat_used[gidx[uc]] += 1
    sel = play[np.arange(B), chosen]  # (B, 3): variant, tuple, perm

    # --- decode the plays: cards and value ---------------------------------------------
    cards = np.zeros((B, 5), dtype=_I64)
    value = np.zeros(B, dtype=_I64)
    halfv = np.zeros(B, dtype=_I64)
    rule = solver.rule
    blocks: list[npt.NDArray[np.float64]] = []  # the random policy's draws, one block per attempt
    pol_rng = streams(_POLICY, battle, turn) if random_policy else None
    ucb, inv = np.unique(combo, axis=0, return_inverse=True)
    inv = inv.ravel()
    for g in range(ucb.shape[0]):
        ng, po, pa, sl = (int(x) for x in ucb[g])
        if ng == 0:
            continue
        rows = np.flatnonzero(inv == g)
        tab = value_table(ng, po, pa, sl, solver.ops)
        if random_policy:
            v, t, p = _random_plays(st, idx[rows], slot_pl[rows, :ng], masks[rows[:, None], slot_pl[rows, :ng]], tab,
                                    pol_rng, blocks)
        else:
            v, t, p = sel[rows, 0], sel[rows, 1], sel[rows, 2]
        value[rows] = tab.values[v, t, p]
        halfv[rows] = tab.half[v, t, p]
        for i in range(ng):
            cards[rows, i] = (t // 5 ** (ng - 1 - i)) % 5 + 1
    dmg = np.where(can_play, rule.damage(value, chosen != KIND_NONE, halfv), 0)
    n_play = combo[:, 0]
    for i in range(5):
        m = np.flatnonzero(i < n_play)
        st.hands[idx[m], slot_pl[m, i], cards[m, i] - 1] -= 1
    first = st.turns[idx] == 0
    st.first_dmg[idx[first]] = dmg[first]
    st.total_dmg[idx] += dmg
    st.hp[idx] -= dmg
    win = st.hp[idx] <= 0
    st.over[idx[win]] = True
    st.won[idx[win]] = True

    # --- after the attack: skills while the monster lives --------------------------------
    alive = np.flatnonzero(~win)
    if alive.size:
        ra = idx[alive]
        mult = np.flatnonzero(can_play[alive] & rule.triggers(value[alive]))
        for p in range(P):
            st.discard_lowest(ra[mult], np.full(mult.size, p, dtype=_I64), tod)
        ts = now["tsukon"][alive]
        for i in range(5):
            hit = np.flatnonzero((ts > 0) & (i < n_play[alive]) & (cards[alive, i] == ts))
            st.discard_lowest(ra[hit], slot_pl[alive[hit], i], tod)
        for k, use in enumerate(mon.skills):
            if use.timing == Timing.POST:
                _apply_skill(st, use.skill, False, ra, now, alive, streams(_SKILL_POST, battle, turn, k), tod)

    # --- end of turn: いのちだいじに returns the played cards, the rest go under the deck --------
    inochi = chosen == _INOCHI
    for i in range(5):
        m = i < n_play
        back = np.flatnonzero(m & inochi)
        st.hands[idx[back], slot_pl[back, i], cards[back, i] - 1] += 1
        gone = np.flatnonzero(m & ~inochi)
        tod.append((idx[gone], cards[gone, i]))
    st.push(tod, streams(_PUSH, battle, turn))
    st.turns[idx] += 1
    wiped = (st.hands[idx].sum(axis=(1, 2)) == 0) & ~win
    capped = (st.turns[idx] >= cfg.max_turns) & ~win
    st.over[idx[wiped | capped]] = True


def _random_plays(st: _State, rows: npt.NDArray[np.int64], players: npt.NDArray[np.int64], masks: npt.NDArray[np.int64],
                  tab: Any, rng: np.random.Generator,
                  blocks: list[npt.NDArray[np.float64]]):  # type: ignore[no-untyped-def]
    """Uniform random legal plays (no strategy card): random card per player, random operators.

    Attempt ``a`` of chunk row ``r`` reads column ``r`` of ``blocks[a]`` (a ``(6, width)`` block
    of uniforms drawn from ``rng`` on first need and shared by the calls of one turn: their rows
    differ): row ``i`` for the card of slot ``i``, row 5 for the operators.
    """
    k, n = players.shape
    todo = np.arange(k)
    t = np.zeros(k, dtype=_I64)
    p = np.zeros(k, dtype=_I64)
    for a in range(1000):
        if todo.size == 0:
            break
        if a == len(blocks):
            blocks.append(rng.random((6, st.width)))
        ub = blocks[a][:, rows[todo]]
        tt = np.zeros(todo.size, dtype=_I64)
        for i in range(n):
            h = st.hands[rows[todo], players[todo, i]] * ((masks[todo, i][:, None] >> np.arange(5)) & 1)
            c = np.cumsum(h, axis=1)
            u = (ub[i] * c[:, -1]).astype(_I64)
            tt = tt * 5 + (u[:, None] >= c).sum(axis=1)
        pp = (ub[5] * _n_perms(n)).astype(_I64)
        ok = tab.valid[0, tt, pp]
        t[todo[ok]] = tt[ok]
        p[todo[ok]] = pp[ok]
        todo = todo[~ok]
    if todo.size:  # pragma: no cover - a legal play exists (checked by the solver)
        raise RuntimeError("random policy found no legal play")
    return np.zeros(k, dtype=_I64), t, p


def _n_perms(n: int) -> int:
    out = 1
    for j in range(n - 1):
        out *= 4 - j
    return out


def _experience(st: _State, rows: npt.NDArray[np.int64], level: int) -> None:
    """経験値: ``level`` cards to every living player, one each in turn order, until the deck runs out."""
    if rows.size == 0 or level == 0:
        return
    alive = st.hands[rows].sum(axis=2) > 0
    nl = alive.sum(axis=1)
    want = level * nl
    st.kansto[rows] |= want > st.size[rows]
    got = np.minimum(want, st.size[rows])
    st.experience[rows] += got
    vals = st.pop(rows, got)
    if vals.shape[1] == 0:
        return
    order = np.argsort(~alive, axis=1, kind="stable")
    j = np.arange(vals.shape[1])
    who = order[np.arange(rows.size)[:, None], j[None, :] % np.maximum(nl, 1)[:, None]]
    m = vals > 0
    rr = np.broadcast_to(rows[:, None], vals.shape)
    np.add.at(st.hands, (rr[m], who[m], vals[m] - 1), 1)


#: Declared constraints of the entry points (:func:`validate_params`).
TRIALS = Int(0, MAX_TRIALS)
#: A field of the DqzParams that simulate_battle / simulate_run build from their keywords.
FIELD = Unchecked("a DqzParams field: checked when the DqzParams is built in the body")
#: A list of monsters (or names, mappings) converted by as_monster in the body.
MONSTERS = Unchecked("a list of 1 to MAX_BATTLES monsters, names or mappings: checked in the body")


@validate_params(monsters=Unchecked("a list of 1 to MAX_BATTLES Monster objects: checked in the body"),
                 n_runs=TRIALS, cfg=Instance(BattleConfig, "a BattleConfig"), rng=Rng())
def run_battles(monsters: Sequence[Monster], n_runs: int, cfg: BattleConfig, *, rng: RngLike = None
                ) -> dict[str, npt.NDArray[Any]]:
    """Simulate ``n_runs`` runs of the battles ``monsters`` (in order), vectorized.

    Parameters
    ----------
    monsters : sequence of Monster
        The battles of a run, in order (one monster = a single battle).
    n_runs : int
        Independent runs (>= 0).
    cfg : BattleConfig
    rng : int, SeedSequence, Generator or None

    Returns
    -------
    dict of str to ndarray, each shape (n_runs,)
        ``won`` (bool, the last battle), ``turns`` (of the last battle), ``cards_left``
        (cards in all hands when the last battle ended, before experience),
        ``first_turn_damage``, ``damage_per_turn`` (float; of the last battle),
        ``strategy_used`` (strategy cards used, whole run), ``called_ally`` (bool),
        ``experience`` (cards gained, whole run), ``kansto`` (bool: the deck ran out
        during experience), ``deck_left`` (attack deck at the end), ``battles_won``
        ``cleared`` (bool: every battle won) and ``cards_end`` (cards in hands at the very
        end, after the last experience).

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``; ``ParamTypeError``, a ``TypeError``, for wrong types) for an empty
        monster list or one longer than :data:`MAX_BATTLES` (1000), an entry that is not a
        :class:`Monster`, ``n_runs`` not an integer in 0..:data:`MAX_TRIALS` (10**7), or ``cfg``
        not a :class:`BattleConfig`.
    """
    if isinstance(monsters, (str, bytes, Monster)) or not isinstance(monsters, Sequence):
        raise ParamTypeError("monsters", monsters, "a list of Monster objects")
    if not 1 <= len(monsters) <= MAX_BATTLES:
        raise ParamError("monsters", monsters, f"a list of 1 to {MAX_BATTLES} monsters")
    if not all(isinstance(m, Monster) for m in monsters):
        raise ParamTypeError("monsters", monsters, "a list of Monster objects")
    gen = rng
    out: dict[str, list[npt.NDArray[Any]]] = {c: [] for c in RESULT_COLUMNS}
    solvers: dict[DamageRule, PlaySolver] = {}
    for start, stop in chunk_spans(n_runs, CHUNK_SIZE):
        n = stop - start
        streams = KeyedStreams(gen)
        st = _State(n, cfg, streams(_DEAL))
        all_rows = np.arange(n)
        st.inn(all_rows, cfg.hand_size)
        battles_won = np.zeros(n, dtype=_I64)
        cards_left = np.zeros(n, dtype=_I64)
        prev_called = np.zeros(n, dtype=bool)
        for j, mon in enumerate(monsters):
            rule = cfg.rule(mon)
            solver = solvers.setdefault(rule, PlaySolver(rule))
            if j > 0 and cfg.inn_every > 0 and j % cfg.inn_every == 0:
                st.inn(np.flatnonzero(~prev_called), cfg.hand_size)
            st.hp[:] = mon.hp
            st.max_hp = mon.hp
            st.over[:] = False
            st.won[:] = False
            st.called[:] = False
            st.turns[:] = 0
            st.first_dmg[:] = 0
            st.total_dmg[:] = 0
            st.p_poison[:], st.p_para[:], st.p_sleep[:], st.p_zaraki[:], st.p_tsukon[:] = 0, -1, -1, 0, 0
            st.p_mahoton[:] = False
            st.over[st.hands.sum(axis=(1, 2)) == 0] = True  # a wiped party cannot fight
            turn = 0
            while True:
                act = np.flatnonzero(~st.over)
                if act.size == 0:
                    break
                _turn(st, act, mon, cfg, solver, streams, j, turn)
                turn += 1
            cards_left = st.hands.sum(axis=(1, 2))
            battles_won += st.won
            _experience(st, np.flatnonzero(st.won), mon.level)
            prev_called = st.called.copy()
        out["won"].append(st.won.copy())
        out["turns"].append(st.turns.copy())
        out["cards_left"].append(cards_left)
        out["first_turn_damage"].append(st.first_dmg.copy())
        out["damage_per_turn"].append(st.total_dmg / np.maximum(st.turns, 1))
        out["strategy_used"].append(st.strat_used.copy())
        out["called_ally"].append(st.called.copy())
        out["experience"].append(st.experience.copy())
        out["kansto"].append(st.kansto.copy())
        out["deck_left"].append(st.size.copy())
        out["battles_won"].append(battles_won)
        out["cleared"].append(battles_won == len(monsters))
        out["cards_end"].append(st.hands.sum(axis=(1, 2)))
    return {k: (np.concatenate(v) if v else np.zeros(0)) for k, v in out.items()}


#: Unchecked body of :func:`run_battles` (the entry points below; its checks of ``monsters`` stay).
_run_battles = run_battles.__wrapped__


@validate_params(params=Instance(DqzParams, "a DqzParams"), n_games=TRIALS, rng=Rng(), monsters=MONSTERS)
def simulate(params: DqzParams, n_games: int, *, rng: RngLike = None,
             monsters: Sequence[Monster | str | Mapping[str, Any]] = ("スライム",)) -> dict[str, npt.NDArray[Any]]:
    """``n_games`` runs of the battles ``monsters`` under ``params``: every game's common entry point.

    Delegates to :func:`run_battles` (the same random streams: identical arrays for the same
    ``rng``); one monster is a single battle.

    Parameters
    ----------
    params : DqzParams
        Party, decks, policy and rule readings (checked when built).
    n_games : int
        Independent runs, 0..:data:`MAX_TRIALS` (10**7).
    rng : int, SeedSequence, Generator or None, keyword-only, default None
        Random source, normalised by ``numpy.random.default_rng``.
    monsters : sequence of Monster, str or mapping, keyword-only, default ("スライム",)
        The battles of a run, in order: :class:`Monster` objects, names from the illustrative
        bestiary or ``{"name", "level", "hp", "skills"}`` mappings (1 to :data:`MAX_BATTLES`);
        the default is the ``battle`` task's single スライム battle.

    Returns
    -------
    dict of str to ndarray, each shape (n_games,)
        As :func:`run_battles` (``won``, ``turns``, ``cards_left``, ..., ``cards_end``).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``params`` is not a :class:`DqzParams`, ``monsters`` not a list of
        monsters, or ``n_games`` not an integer.
    ParamError
        (a ``ValueError``) For an unknown monster name, an empty monster list or one longer than
        1000, ``n_games`` out of range, a bad ``rng``.
    """
    if isinstance(monsters, (str, bytes, Mapping, Monster)) or not isinstance(monsters, Sequence):
        raise ParamTypeError("monsters", monsters, "a list of monsters (Monster, bestiary name or mapping)")
    if not 1 <= len(monsters) <= MAX_BATTLES:
        raise ParamError("monsters", monsters, f"a list of 1 to {MAX_BATTLES} monsters")
    return _run_battles([_as_monster(m) for m in monsters], n_games, params, rng=rng)


@validate_params(n_battles=TRIALS, party_size=FIELD, monster=Unchecked("converted by as_monster in the body"),
                 policy=FIELD, rng=Rng(), hand_size=FIELD, n_per_value=FIELD, strategy_deck=FIELD, negative_heals=FIELD,
                 max_turns=FIELD, hero_passes=FIELD, resist_rounding=FIELD, heal_cap=FIELD, multiple_nonpositive=FIELD)
def simulate_battle(n_battles: int, *, party_size: int, monster: Monster | str | Mapping[str, Any],
                    policy: str = "max_damage", rng: RngLike = None, hand_size: int = HAND_SIZE_DEFAULT,
                    n_per_value: int = N_PER_VALUE_DEFAULT, strategy_deck: Sequence[int] = STRATEGY_DECK_DEFAULT,
                    negative_heals: bool = False, max_turns: int = 200, hero_passes: bool = False,
                    resist_rounding: str = "at_end", heal_cap: bool = True,
                    multiple_nonpositive: bool = False) -> pd.DataFrame:
    """Simulate ``n_battles`` independent battles of a fresh party against one monster.

    Parameters
    ----------
    n_battles : int
        Battles (>= 0).
    party_size : int
        Players (1..5; the rulebook plays 3-5).
    monster : Monster, str or mapping
        A :class:`Monster`, a name from the illustrative bestiary
        (:data:`gamesim.games.dqz.bestiary.BESTIARY`), or ``{"name", "level", "hp", "skills"}``.
    policy : {"max_damage", "exact_kill", "avoid_trigger", "random"}, default "max_damage"
        See :mod:`gamesim.games.dqz.policies`.
    rng : int, SeedSequence, Generator or None
    hand_size : int, default 3
        Starting cards per player (the inn's number).
    n_per_value : int, default 10
        Attack cards per value 1..5.
    strategy_deck : sequence of 5 int, default (2, 2, 2, 2, 2)
        Strategy cards per kind (みんながんばれ, ガンガンいこうぜ, いのちだいじに, じゅもんせつやく,
        おれにまかせろ); all zeros = no strategy cards.
    negative_heals : bool, default False
        Negative damage heals the monster.
    max_turns : int, default 200
        Turn cap (a battle not over by then counts as lost; 1..10,000).
    hero_passes, resist_rounding, heal_cap, multiple_nonpositive
        Rule readings, see :class:`BattleConfig` (defaults: the rulebook's reading).

    Returns
    -------
    pandas.DataFrame
        One row per battle: ``won`` (bool), ``turns`` (int), ``cards_left`` (cards in
        all hands when it ended, before experience), ``first_turn_damage``,
        ``damage_per_turn`` (float), ``strategy_used``, ``called_ally`` (bool),
        ``experience`` (cards drawn on a win), ``kansto`` (bool), ``deck_left``.

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``; ``ParamTypeError``, a ``TypeError``, for wrong types: ``2.5`` or ``True``
        for an integer, ``"no"`` for a bool) for ``n_battles`` outside 0..10**7, an unknown
        monster name, or any field :class:`BattleConfig` refuses.

    Notes
    -----
    Rulebook sections バトル, さくせんカード, とくぎ; our reading in ``docs/rules/dqz.md``.

    Examples
    --------
    >>> df = simulate_battle(100, party_size=3, monster="スライム", rng=1)
    >>> sorted(df.columns)[:3]
    ['called_ally', 'cards_left', 'damage_per_turn']
    """
    mon = _as_monster(monster)
    cfg = BattleConfig(party_size, hand_size, n_per_value, strategy_deck, policy, negative_heals, 1, max_turns,
                       hero_passes=hero_passes, resist_rounding=resist_rounding, heal_cap=heal_cap,
                       multiple_nonpositive=multiple_nonpositive)
    r = _run_battles([mon], n_battles, cfg, rng=rng)
    cols = ("won", "turns", "cards_left", "first_turn_damage", "damage_per_turn", "strategy_used", "called_ally",
            "experience", "kansto", "deck_left")
    return pd.DataFrame({c: r[c] for c in cols})


@validate_params(n_runs=TRIALS, party_size=FIELD, monsters=MONSTERS, policy=FIELD, rng=Rng(), hand_size=FIELD,
                 n_per_value=FIELD, strategy_deck=FIELD, negative_heals=FIELD, inn_every=FIELD, max_turns=FIELD,
                 hero_passes=FIELD, resist_rounding=FIELD, heal_cap=FIELD, multiple_nonpositive=FIELD)
def simulate_run(n_runs: int, *, party_size: int, monsters: Sequence[Monster | str | Mapping[str, Any]],
                 policy: str = "max_damage", rng: RngLike = None, hand_size: int = HAND_SIZE_DEFAULT,
                 n_per_value: int = N_PER_VALUE_DEFAULT, strategy_deck: Sequence[int] = STRATEGY_DECK_DEFAULT,
                 negative_heals: bool = False, inn_every: int = 1, max_turns: int = 200, hero_passes: bool = False,
                 resist_rounding: str = "at_end", heal_cap: bool = True,
                 multiple_nonpositive: bool = False) -> pd.DataFrame:
    """Simulate runs of consecutive battles with experience and the inn (宿屋).

    Parameters
    ----------
    n_runs : int
    party_size : int
    monsters : sequence of Monster, str or mapping
        The battles of each run, in order.
    policy, rng, hand_size, n_per_value, strategy_deck, negative_heals, max_turns
        As :func:`simulate_battle`.
    hero_passes, resist_rounding, heal_cap, multiple_nonpositive
        Rule readings, see :class:`BattleConfig`.
    inn_every : int, default 1
        The party stays at the inn before battle j (j >= 1) when ``j % inn_every == 0``;
        0 = never. Never right after a なかまをよぶ battle.

    Returns
    -------
    pandas.DataFrame
        Columns of :func:`run_battles` (``battles_won``, ``cleared``, ``kansto``,
        ``experience``, ``deck_left``, ... ; ``won``/``turns``/``cards_left`` refer to the
        last battle).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`simulate_battle`, or ``monsters`` empty, not a list, or longer than 1000.
    """
    if isinstance(monsters, (str, bytes, Mapping, Monster)) or not isinstance(monsters, Sequence):
        raise ParamTypeError("monsters", monsters, "a list of monsters (Monster, bestiary name or mapping)")
    if not 1 <= len(monsters) <= MAX_BATTLES:
        raise ParamError("monsters", monsters, f"a list of 1 to {MAX_BATTLES} monsters")
    mons = [_as_monster(m) for m in monsters]
    cfg = BattleConfig(party_size, hand_size, n_per_value, strategy_deck, policy, negative_heals, inn_every,
                       max_turns, hero_passes=hero_passes, resist_rounding=resist_rounding, heal_cap=heal_cap,
                       multiple_nonpositive=multiple_nonpositive)
    return pd.DataFrame(_run_battles(mons, n_runs, cfg, rng=rng))
