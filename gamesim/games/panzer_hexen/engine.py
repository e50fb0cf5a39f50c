"""The state of a batch of games and the rules applied to it, vectorized over games (axis 0).

No choices and no random numbers here: :mod:`.policies` chooses, :mod:`.sim` samples the set-up
and runs the rounds. Every function takes ``gi`` (indices of the games concerned, distinct) and
``s`` (the acting seat in each of them) and applies one rule of ``panzer_hexen_rules_ja.txt`` to
those games, as :mod:`.rules` states it for one game.

Card ids: ネウロイ ``0..NN-1``; policies ``0..NP-1`` (strikers, guns, then the others, as
:attr:`.data.CardSet.all_policies`); in a deck, a policy ``j`` is ``NN + j``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .data import ABILITIES, EFFECTS, CardSet, Equipment
from .rules import PanzerParams

__all__ = ["Tables", "tables_for", "Batch", "KIND_STRIKER", "KIND_GUN", "KIND_OTHER", "BIG"]

I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]
KIND_STRIKER, KIND_GUN, KIND_OTHER = 0, 1, 2
BIG = 10**6
E_MEET, E_TRAIN, E_ATT, E_DEF, E_DISC = (EFFECTS.index(k) for k in
                                         ("meeting_plus", "training_plus", "attack_plus", "defence_plus", "discount"))
A_MANA, A_VOICE, A_EVADE = (ABILITIES.index(k) for k in ("mana_plus", "voice_plus", "evade"))
#: card location codes
DECK, IN_PLAY, DONE = 0, 1, 2


@dataclass(frozen=True)
class Tables:
    """A card set as arrays (one entry per card, ids as in the module docstring)."""

    w_att: I64
    w_def: I64
    w_rng: I64
    w_prio: I64
    w_abil: I64
    n_att: I64
    n_def: I64
    n_rng: I64
    n_vp: I64
    p_cost: I64
    p_vp: I64
    p_kind: I64
    p_att: I64
    p_def: I64
    p_eff: I64

    @property
    def n_neuroi(self) -> int:
        return int(self.n_att.size)

    @property
    def n_policies(self) -> int:
        return int(self.p_cost.size)


def tables_for(cards: CardSet) -> Tables:
    """The :class:`Tables` of a validated card set."""
    a = lambda xs: np.array(xs, dtype=np.int64)  # noqa: E731
    ps = cards.all_policies
    return Tables(
        a([w.attack for w in cards.witches]), a([w.defence for w in cards.witches]),
        a([w.range for w in cards.witches]), a([w.priority for w in cards.witches]),
        a([ABILITIES.index(w.ability) for w in cards.witches]),
        a([n.attack for n in cards.neuroi]), a([n.defence for n in cards.neuroi]), a([n.range for n in cards.neuroi]),
        a([n.vp for n in cards.neuroi]),
        a([c.cost for c in ps]), a([c.vp for c in ps]),
        a([(KIND_STRIKER if c.kind == "striker" else KIND_GUN) if isinstance(c, Equipment) else KIND_OTHER
           for c in ps]),
        a([c.attack if isinstance(c, Equipment) else 0 for c in ps]),
        a([c.defence if isinstance(c, Equipment) else 0 for c in ps]),
        a([0 if isinstance(c, Equipment) else EFFECTS.index(c.effect) for c in ps]),
    )


class Batch:
    """The state of ``G`` games with ``P`` players (arrays, axis 0 = game).

    Attributes
    ----------
    witch : (G, P) int64
        Each seat's witch id. ``prio``, ``w_att``, ``w_def``, ``w_rng``, ``abil`` are hers.
    voice, mana : (G, P) int64
        発言力 and 魔力.
    tired : (G, P) bool
        消耗 (witch card turned sideways).
    n_loc, n_by : (G, NN) int64
        ネウロイ location (0 deck or out, 1 in play, 2 destroyed) and who destroyed it (-1).
    p_loc, p_owner, p_by, counters : (G, NP) int64
        Policy location (0 deck or out, 1 in play, 2 executed), its 担当 seat (-1 none), who
        executed it (-1), counters on it.
    broken : (G, NP) bool
        失調 (equipment turned sideways).
    eff : (G, P, len(EFFECTS)) int64
        Executed policies per effect kind, per seat.
    deck : (G, 2, L) int64; dptr, dlen : (G, 2) int64
        The two 山札 (card ids, policies offset by NN), next position, length.
    """

    def __init__(self, p: PanzerParams, t: Tables, witch: I64, n_perm: I64, p_perm: I64, mix_perm: I64) -> None:
        G, P = witch.shape
        NN, NP = t.n_neuroi, t.n_policies
        self.p, self.t, self.G, self.P, self.NN, self.NP = p, t, G, P, NN, NP
        self.witch = witch
        self.prio, self.w_att, self.w_def = t.w_prio[witch], t.w_att[witch], t.w_def[witch]
        self.w_rng, self.abil = t.w_rng[witch], t.w_abil[witch]
        self.voice = np.full((G, P), p.start_voice, np.int64)
        self.mana = np.full((G, P), p.start_mana, np.int64)
        self.tired = np.zeros((G, P), bool)
        self.n_loc = np.zeros((G, NN), np.int64)
        self.n_by = np.full((G, NN), -1, np.int64)
        self.p_loc = np.zeros((G, NP), np.int64)
        self.p_owner = np.full((G, NP), -1, np.int64)
        self.p_by = np.full((G, NP), -1, np.int64)
        self.counters = np.zeros((G, NP), np.int64)
        self.broken = np.zeros((G, NP), bool)
        self.eff = np.zeros((G, P, len(EFFECTS)), np.int64)
        self.n_done = np.zeros((G, P), np.int64)  # executed policies + destroyed ネウロイ, kept up to date
        rows = np.arange(G)[:, None]
        k_n = P * p.start_neuroi
        self.n_loc[rows, n_perm[:, :k_n]] = IN_PLAY
        k_c = P * p.start_charge
        dealt = p_perm[:, :k_c]
        self.p_loc[rows, dealt] = IN_PLAY
        self.p_owner[rows, dealt] = np.repeat(np.arange(P), p.start_charge)[None, :]
        self.counters[rows, dealt] = p.start_counters
        self.p_loc[rows, p_perm[:, k_c:k_c + p.start_open]] = IN_PLAY
        rest = np.concatenate([n_perm[:, k_n:], NN + p_perm[:, k_c + p.start_open:]], axis=1)
        L = NN + NP
        self.deck = np.full((G, 2, L), -1, np.int64)
        self.dptr = np.zeros((G, 2), np.int64)
        self.dlen = np.zeros((G, 2), np.int64)
        if p.decks == "mixed":
            r = rest[rows, mix_perm]
            self.deck[:, 0, : (r.shape[1] + 1) // 2] = r[:, 0::2]
            self.deck[:, 1, : r.shape[1] // 2] = r[:, 1::2]
            self.dlen[:, 0], self.dlen[:, 1] = (r.shape[1] + 1) // 2, r.shape[1] // 2
        else:
            nn, npol = NN - k_n, NP - k_c - p.start_open
            self.deck[:, 0, :nn] = rest[:, :nn]
            self.deck[:, 1, :npol] = rest[:, nn:]
            self.dlen[:, 0], self.dlen[:, 1] = nn, npol

    # ----- derived quantities ---------------------------------------------------------------
    def best_equipment(self, gi: I64, s: I64, kind: int) -> I64:
        """The seat's usable (executed by it, not 失調) equipment of ``kind`` with the largest
        attack + defence modifier (lowest id on ties), or -1."""
        t = self.t
        ok = (self.p_loc[gi] == DONE) & (self.p_by[gi] == s[:, None]) & ~self.broken[gi] & (t.p_kind == kind)[None]
        score = np.where(ok, (t.p_att + t.p_def)[None] * (self.NP + 1) + (self.NP - np.arange(self.NP))[None], -1)
        best = score.argmax(axis=1)
        return np.where(ok.any(axis=1), best, -1)

    def fight_stats(self, gi: I64, s: I64) -> tuple[I64, I64, I64, B, I64, I64]:
        """Attack, defence, range, evade, striker id, gun id of each seat's witch with her best usable
        striker and gun and her executed attack_plus / defence_plus policies (before 魔力)."""
        st, gn = self.best_equipment(gi, s, KIND_STRIKER), self.best_equipment(gi, s, KIND_GUN)
        t = self.t
        ma = np.where(st >= 0, t.p_att[st], 0) + np.where(gn >= 0, t.p_att[gn], 0)
        md = np.where(st >= 0, t.p_def[st], 0) + np.where(gn >= 0, t.p_def[gn], 0)
        a = self.w_att[gi, s] + ma + self.eff[gi, s, E_ATT]
        d = self.w_def[gi, s] + md + self.eff[gi, s, E_DEF]
        return a, d, self.w_rng[gi, s], self.abil[gi, s] == A_EVADE, st, gn

    def clean_need(self, gi: I64, s: I64) -> tuple[I64, I64]:
        """(to_attack, to_defence) 魔力 for a clean win against every ネウロイ, shape (len(gi), NN)
        (:func:`.rules.min_mana` with ``clean=True``)."""
        a, d, r, ev, _, _ = self.fight_stats(gi, s)
        t = self.t
        to_a = np.maximum(0, t.n_def[None] - a[:, None])
        need_d = np.where(ev[:, None], 0, np.maximum(0, t.n_att[None] - d[:, None] + 1))
        to_d = np.where(r[:, None] > t.n_rng[None], 0, need_d)
        return to_a, to_d

    def costs(self, gi: I64, s: I64) -> I64:
        """発言力 each policy costs the seat (:func:`.rules.policy_cost`), shape (len(gi), NP)."""
        base = self.t.p_cost[None]
        own = self.p_owner[gi]
        c = np.where(own == s[:, None], base - self.counters[gi], np.where(own >= 0, base + 1, base))
        return np.maximum(0, c - self.eff[gi, s, E_DISC][:, None])

    def cards(self) -> I64:
        """Executed policies + destroyed ネウロイ per seat, (G, P) (a count kept by the actions: the
        end test reads it every round)."""
        return self.n_done.copy()

    def gain_mana(self, gi: I64, s: I64, amount: I64 | int) -> None:
        """魔力 from an action: nothing while 消耗; +1 for the ``mana_plus`` ability."""
        add = np.where(self.tired[gi, s], 0, amount + (self.abil[gi, s] == A_MANA))
        self.mana[gi, s] += add

    # ----- actions ----------------------------------------------------------------------------
    def do_policy(self, gi: I64, s: I64, card: I64) -> None:
        """{0:施策}: execute ``card`` (>= 0, affordable) paying its cost, or take 発言力 +1 (card -1)."""
        none = card < 0
        self.voice[gi[none], s[none]] += 1
        g, s, c = gi[~none], s[~none], card[~none]
        if g.size == 0:
            return
        cost = self.costs(g, s)[np.arange(g.size), c]
        self.voice[g, s] -= cost
        own = self.p_owner[g, c]
        other = (own >= 0) & (own != s)
        np.add.at(self.voice, (g[other], own[other]), self.counters[g[other], c[other]])
        self.p_loc[g, c] = DONE
        self.p_by[g, c] = s
        self.n_done[g, s] += 1
        self.counters[g, c] = 0
        self.broken[g, c] = False
        e = self.t.p_eff[c]
        np.add.at(self.eff, (g, s, e), 1)

    def do_rest(self, gi: I64, s: I64, bonus: B) -> None:
        """{1:休息/整備}: recover the witch if 消耗, else all 失調 equipment; both with the bonus."""
        witch = self.tired[gi, s] | bonus
        equip = ~self.tired[gi, s] | bonus
        self.tired[gi[witch], s[witch]] = False
        g, ss = gi[equip], s[equip]
        self.broken[g] &= ~(self.p_by[g] == ss[:, None])

    def do_sortie(self, gi: I64, s: I64, target: I64) -> tuple[B, B]:
        """{2:出撃}: fight ``target`` (>= 0) or take 魔力 +1 (-1); nothing while 消耗.

        The witch uses her best usable striker and gun (they become 失調) and spends the least
        魔力 for a clean win if she has it, else none. Returns (destroyed, hit) per game."""
        ok = ~self.tired[gi, s]
        mana_only = ok & (target < 0)
        self.gain_mana(gi[mana_only], s[mana_only], 1)
        f = ok & (target >= 0)
        destroyed = np.zeros(gi.size, bool)
        hit = np.zeros(gi.size, bool)
        g, ss, n = gi[f], s[f], target[f]
        if g.size == 0:
            return destroyed, hit
        a, d, r, ev, st, gn = self.fight_stats(g, ss)
        t = self.t
        to_a = np.maximum(0, t.n_def[n] - a)
        to_d = np.where(r > t.n_rng[n], 0, np.where(ev, 0, np.maximum(0, t.n_att[n] - d + 1)))
        pay = (to_a + to_d) <= self.mana[g, ss]
        a = a + np.where(pay, to_a, 0)
        d = d + np.where(pay, to_d, 0)
        self.mana[g, ss] -= np.where(pay, to_a + to_d, 0)
        w_hits = a >= t.n_def[n]
        n_hits = (t.n_att[n] >= d) & ~ev
        first_w, first_n = r > t.n_rng[n], r < t.n_rng[n]
        dd = np.where(first_n, ~n_hits & w_hits, w_hits)
        hh = np.where(first_w, ~w_hits & n_hits, n_hits)
        for e in (st, gn):
            u = e >= 0
            self.broken[g[u], e[u]] = True
        self.n_loc[g[dd], n[dd]] = DONE
        self.n_by[g[dd], n[dd]] = ss[dd]
        self.n_done[g[dd], ss[dd]] += 1
        self.tired[g[hh], ss[hh]] = True
        destroyed[f], hit[f] = dd, hh
        return destroyed, hit

    def do_training(self, gi: I64, s: I64, bonus: B) -> None:
        """{3:訓練}: 魔力 +2 (+1 bonus, + training_plus policies); nothing while 消耗."""
        self.gain_mana(gi, s, 2 + bonus.astype(np.int64) + self.eff[gi, s, E_TRAIN])

    def do_meeting(self, gi: I64, s: I64, bonus: B) -> None:
        """{4:会議}: 発言力 +2 (+1 bonus, + meeting_plus policies, +1 voice_plus ability)."""
        self.voice[gi, s] += 2 + bonus.astype(np.int64) + self.eff[gi, s, E_MEET] + (self.abil[gi, s] == A_VOICE)

    def draw(self, gi: I64, deck: I64) -> I64:
        """Top card of each game's chosen deck (the other if it is empty; -1 if both are), removed from it."""
        empty = self.dptr[gi, deck] >= self.dlen[gi, deck]
        deck = np.where(empty, 1 - deck, deck)
        has = self.dptr[gi, deck] < self.dlen[gi, deck]
        card = np.where(has, self.deck[gi, deck, np.minimum(self.dptr[gi, deck], self.deck.shape[2] - 1)], -1)
        self.dptr[gi[has], deck[has]] += 1
        return card

    def _policy_revealed(self, gi: I64, s: I64, pol: I64) -> None:
        p = self.p
        self.p_loc[gi, pol] = IN_PLAY
        if p.comms_option == "take_charge":
            self.p_owner[gi, pol] = s
            self.counters[gi, pol] = p.start_counters
        elif p.comms_option == "open_voice":
            self.voice[gi, s] += 1
        else:
            mine = (self.p_loc[gi] == IN_PLAY) & (self.p_owner[gi] == s[:, None])
            self.counters[gi] = np.where(mine, np.minimum(p.max_counters, self.counters[gi] + 1), self.counters[gi])

    def do_comms(self, gi: I64, s: I64, deck: I64, bonus: B) -> None:
        """{5:通信}: reveal 2 (3 with the bonus) cards from ``deck``: ネウロイ enter play (all ネウロイ:
        魔力 +2, not while 消耗); each policy per ``comms_option``."""
        NN = self.NN
        n_rev = np.zeros(gi.size, np.int64)
        n_neu = np.zeros(gi.size, np.int64)
        for j in range(3):
            act = (j < 2) | bonus
            card = np.where(act, self.draw_masked(gi, deck, act), -1)
            got = card >= 0
            neu = got & (card < NN)
            self.n_loc[gi[neu], card[neu]] = IN_PLAY
            pol = got & (card >= NN)
            self._policy_revealed(gi[pol], s[pol], card[pol] - NN)
            n_rev += got
            n_neu += neu
        allneu = (n_rev > 0) & (n_rev == n_neu)
        self.gain_mana(gi[allneu], s[allneu], 2)

    def draw_masked(self, gi: I64, deck: I64, act: B) -> I64:
        """:meth:`draw` in the games where ``act`` (-1 elsewhere, nothing drawn)."""
        out = np.full(gi.size, -1, np.int64)
        out[act] = self.draw(gi[act], deck[act])
        return out

    # ----- unexecuted-action events and the end of a round --------------------------------------
    def event_rest(self, gi: I64, s: I64) -> None:
        """未実行イベント of 休息/整備: the last action player recovers one 失調 equipment (the one with
        the largest modifiers, lowest id on ties)."""
        t = self.t
        ok = (self.p_by[gi] == s[:, None]) & self.broken[gi]
        score = np.where(ok, (t.p_att + t.p_def)[None] * (self.NP + 1) + (self.NP - np.arange(self.NP))[None], -1)
        c = score.argmax(axis=1)
        has = ok.any(axis=1)
        self.broken[gi[has], c[has]] = False

    def event_comms(self, gi: I64, s: I64, deck: I64) -> None:
        """未実行イベント of 通信: ``n_players - 1`` cards of ``deck`` enter play; each ネウロイ among them
        attacks a different witch one-sidedly, the last action player's opponents in seat order
        after her. A victim not 消耗 spends the 魔力 that keeps her defence above its attack if she
        has it (``evade``: never hit); a hit makes her 消耗. Policies enter play unassigned."""
        NN, P, t = self.NN, self.P, self.t
        k = np.zeros(gi.size, np.int64)
        for _ in range(P - 1):
            card = self.draw(gi, deck)
            got = card >= 0
            pol = got & (card >= NN)
            self.p_loc[gi[pol], card[pol] - NN] = IN_PLAY
            neu = got & (card < NN)
            g, n = gi[neu], card[neu]
            self.n_loc[g, n] = IN_PLAY
            k[neu] += 1
            v = (s[neu] + k[neu]) % P
            d = self.w_def[g, v] + self.eff[g, v, E_DEF]
            need = np.where(self.abil[g, v] == A_EVADE, 0, np.maximum(0, t.n_att[n] - d + 1))
            can = ~self.tired[g, v]
            pay = can & (need > 0) & (need <= self.mana[g, v])
            self.mana[g[pay], v[pay]] -= need[pay]
            hit = can & (need > 0) & ~pay
            self.tired[g[hit], v[hit]] = True

    def end_of_round(self, gi: I64) -> None:
        """Each unexecuted 担当 policy in play gains ``counter_gain`` counters (up to ``max_counters``)."""
        p = self.p
        if p.counter_gain == 0:
            return
        live = np.zeros(self.G, bool)
        live[gi] = True
        grow = (self.p_loc == IN_PLAY) & (self.p_owner >= 0) & live[:, None]
        self.counters += grow * p.counter_gain
        np.minimum(self.counters, np.where(grow, p.max_counters, self.counters), out=self.counters)

    def vp(self) -> tuple[I64, I64, I64]:
        """VP per seat from ネウロイ, equipment and other policies, each (G, P)."""
        seats = np.arange(self.P)
        t = self.t
        vn = ((self.n_by[:, :, None] == seats) * t.n_vp[None, :, None]).sum(axis=1)
        mine = self.p_by[:, :, None] == seats
        eq = (t.p_kind != KIND_OTHER)[None, :, None]
        ve = (mine * (t.p_vp[None, :, None] * eq)).sum(axis=1)
        vo = (mine * (t.p_vp[None, :, None] * ~eq)).sum(axis=1)
        return vn, ve, vo

    def take(self, idx: I64) -> "Batch":
        """A copy of the games ``idx`` (repeats allowed), e.g. for rollout playouts."""
        c = object.__new__(Batch)
        c.p, c.t, c.P, c.NN, c.NP = self.p, self.t, self.P, self.NN, self.NP
        c.G = int(idx.size)
        for k in ("witch", "prio", "w_att", "w_def", "w_rng", "abil", "voice", "mana", "tired", "n_loc", "n_by",
                  "p_loc", "p_owner", "p_by", "counters", "broken", "eff", "deck", "dptr", "dlen", "n_done"):
            setattr(c, k, getattr(self, k)[idx].copy())
        return c
