"""Vectorized simulator of whole games of ガッチャ ~God Chance~ (axis 0 = game).

All games of a chunk advance in lockstep, phase by phase and turn by turn, with boolean
masks for games that have ended (コンスリート) and for who acts. The only code that draws
random numbers. The bag follows :mod:`gamesim.games.gacha.rules` (sessions drawn without
replacement; remade when empty, or after a session once every God Chance chip put in has
been drawn; 疑惑の運営モード removes ``k`` chips unseen at every creation); a session's
God Chance chips are drawn as a hypergeometric, which is
the distribution of drawing them one at a time. SR and N chips are both はずれ and change
nothing in the whole game, so the simulator tracks God Chance chips and the others.

Source: ``shared/seeds/gacha_god_chance_rules_ja.txt``; reading: ``docs/rules/gacha_game.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import ParamTypeError, check_bool, check_choice, check_int, check_int_list, check_rng

from .data import GameData, Icon, load_data
from .policies import LOOKAHEAD_CAPTURE, POLICIES, SAVE_UNTIL, WEIGHTS, effect_values, quest_tables
from .rules import HAND_SIZE, MAX_QUEST_CHAIN, N_ROUNDS, N_TURNS, attack_tables, paid_tables

__all__ = ["SOURCES", "GameConfig", "make_config", "simulate_games", "MAX_GAMES", "CHUNK"]

#: Where pulls come from (metric ``pulls_<source>``).
SOURCES: tuple[str, ...] = ("weekday", "quest", "boss", "saturday", "paid", "event", "navi", "overdrive")
_SRC = {s: i for i, s in enumerate(SOURCES)}
#: Most games per call (memory and time bound).
MAX_GAMES = 2_000_000
#: Games per chunk.
CHUNK = 50_000
#: Most Overdrive chains followed (each needs a God Chance showing the navi: (1/5)^k).
_MAX_DEPTH = 30
#: Most 課金ガチャ turns in one Sunday per slayer.
_MAX_SUNDAY = 200


@dataclass(frozen=True, eq=False)
class GameConfig:
    """A validated game set-up (see :func:`make_config`)."""

    data: GameData
    n_players: int
    policies: tuple[str, ...]
    expert: bool
    doubtful_k: tuple[int, ...] | None
    navi_seat1: int | None
    boss_refill: bool

    def __post_init__(self) -> None:
        # Built by make_config (which checks everything); a hand-built config gets the same
        # type and range checks so simulate_games never runs on a coerced value (issue 9).
        if not isinstance(self.data, GameData):
            raise ParamTypeError("data", self.data, "a GameData (from load_data / make_config)")
        n = check_int("n_players", self.n_players, min=2, max=4)
        if (not isinstance(self.policies, tuple) or len(self.policies) != n
                or not all(isinstance(x, str) and x in POLICIES for x in self.policies)):
            raise ParamError("policies", self.policies, f"a tuple of {n} names from {', '.join(POLICIES)}")
        check_bool("expert", self.expert)
        if self.doubtful_k is not None:
            check_int_list("doubtful_k", self.doubtful_k, min=0, max=max(0, sum(self.data.bag) - 1), max_len=10)
        if self.navi_seat1 is not None:
            check_int("navi_seat1", self.navi_seat1, min=0, max=len(self.data.navi_names) - 1)
        check_bool("boss_refill", self.boss_refill)


def check_game_config(cfg: object) -> GameConfig:
    """``cfg`` itself if it is a :class:`GameConfig`, else a ``ParamTypeError`` naming ``cfg``."""
    if not isinstance(cfg, GameConfig):
        raise ParamTypeError("cfg", cfg, "a GameConfig from make_config(...)")
    return cfg


def make_config(*, n_players: int = 4, policy: str = "greedy_pulls", policy_seat1: str | None = None,
                expert: bool = False, doubtful: bool = False, doubtful_k: Sequence[int] = (3, 4),
                navi_seat1: str | None = None, boss_refill: bool = True, data: str | GameData = "illustrative",
                remove_action: str = "none", remove_boss: str = "none") -> GameConfig:
    """Check a game set-up once.

    Parameters
    ----------
    n_players : int, default 4
        Slayers, 2..4 (スレイヤーチップス: 4 colours).
    policy : str, default "greedy_pulls"
        Policy of every slayer, one of :data:`.policies.POLICIES`.
    policy_seat1 : str or None
        Policy of seat 1 (the first start slayer) if different.
    expert : bool, default False
        エキスパートモード: no navi cards (no navi effects, no Overdrive).
    doubtful : bool, default False
        疑惑の運営モード.
    doubtful_k : sequence of int, default (3, 4)
        Chips removed at each bag creation in doubtful mode, uniform over the list.
    navi_seat1 : str or None
        Give seat 1 this navi card (the others are dealt at random from the rest).
    boss_refill : bool, default True
        When the raid boss area empties by a capture, reveal the next deck card.
    data : str or GameData, default "illustrative"
        Card lists (:func:`.data.load_data`).
    remove_action : str, default "none"
        Take every copy of this action card out of the game ("none": keep all); for
        "how much does this card matter" comparisons.
    remove_boss : str, default "none"
        Take this boss card out of the raid boss deck ("none": keep all).

    Returns
    -------
    GameConfig

    Raises
    ------
    ParamError, ParamTypeError
        For a value out of range or of the wrong type (the message names it).
    DataError
        If the data file is invalid.
    """
    gd = data if isinstance(data, GameData) else load_data(data)
    if remove_action != "none":
        check_choice("remove_action", remove_action, ("none",) + tuple(dict.fromkeys(gd.action_names)))
        keep = [i for i, a in enumerate(gd.action_names) if a != remove_action]
        gd = replace(gd, action_names=tuple(gd.action_names[i] for i in keep),
                     action_effects=gd.action_effects[keep])
    if remove_boss != "none":
        check_choice("remove_boss", remove_boss, ("none",) + gd.boss_names)
        places = tuple("aside" if b == remove_boss else pl for b, pl in zip(gd.boss_names, gd.boss_place))
        if "deck" not in places:
            raise ParamError("remove_boss", remove_boss, "a boss that leaves at least one card in the deck")
        gd = replace(gd, boss_place=places)
    n_players = check_int("n_players", n_players, min=2, max=4)
    pol = check_choice("policy", policy, POLICIES)
    pols = [pol] * n_players
    if policy_seat1 is not None:
        pols[0] = check_choice("policy_seat1", policy_seat1, POLICIES)
    expert = check_bool("expert", expert)
    ks = None
    if check_bool("doubtful", doubtful):
        ks = tuple(check_int_list("doubtful_k", doubtful_k, min=0, max=max(0, min(
            sum(gd.bag), *[int(b.sum()) for b in gd.event_bag if b[0] >= 0]) - 1), max_len=10))
    n1 = None
    if navi_seat1 is not None:
        if expert:
            raise ParamError("navi_seat1", navi_seat1, "unset in エキスパートモード (expert = true: no navi)")
        n1 = gd.navi_names.index(check_choice("navi_seat1", navi_seat1, gd.navi_names))
    if len(gd.action_names) < HAND_SIZE * n_players:
        raise ParamError("n_players", n_players, f"at most {len(gd.action_names) // HAND_SIZE} with "
                         f"{len(gd.action_names)} action cards ({HAND_SIZE} each)")
    return GameConfig(gd, n_players, tuple(pols), expert, ks, n1, check_bool("boss_refill", boss_refill))


class _Batch:
    """State of ``G`` games advancing in lockstep."""

    def __init__(self, cfg: GameConfig, G: int, rng: np.random.Generator):
        d = cfg.data
        self.cfg, self.d, self.G, self.rng = cfg, d, G, rng
        P, C, B = cfg.n_players, d.n_characters, len(d.boss_names)
        self.P, self.C, self.B = P, C, B
        self.rows = np.arange(G)
        self.alive = np.ones(G, bool)
        self.round = 0
        self.last_dance = False
        # bag
        self.cfg_bag = np.tile(np.array(d.bag, np.int64), (G, 1))
        self.inbag = np.zeros((G, 2), np.int64)  # God Chance chips, others (SR and N are both はずれ)
        self.made_gc = np.zeros(G, np.int64)
        self.gc_drawn = np.zeros(G, np.int64)
        # slayers
        self.owned = np.zeros((G, P, C), bool)
        self.money = np.full((G, P), d.start_money, np.int64)
        self.rate = np.zeros((G, P), np.int64)
        self.qpos = np.zeros((G, P), np.int64)
        self.laps = np.zeros((G, P), np.int64)
        self.start = np.zeros(G, np.int64)  # seat 0 is the first start slayer
        if cfg.expert:
            self.navi = np.full((G, P), -1, np.int64)
        else:
            nn = len(d.navi_names)
            order = np.argsort(rng.random((G, nn)), axis=1)
            if cfg.navi_seat1 is not None:
                # seat 1 gets navi_seat1; the others come from the rest in random order
                rest = order[order != cfg.navi_seat1].reshape(G, nn - 1)
                order = np.concatenate([np.full((G, 1), cfg.navi_seat1), rest], axis=1)
            self.navi = order[:, :P].astype(np.int64)
        # bosses
        self.owner = np.full((G, B), -1, np.int64)
        self.used = np.zeros((G, B), bool)
        deck = d.boss_deck
        shuffled = deck[np.argsort(rng.random((G, deck.size)), axis=1)]
        self.deck = np.concatenate([shuffled, np.tile(d.boss_bottom, (G, 1))], axis=1)
        self.deck_ptr = np.zeros(G, np.int64)
        self.area = np.full((G, B), -1, np.int64)
        self.area_len = np.zeros(G, np.int64)
        self.health = np.zeros(G, np.int64)
        self._reveal(np.arange(G))
        self.e_pulls, self.p_cap = attack_tables(int(max(d.boss_health.max(), 1)))
        # policy values per (card, side, boss health) and (boss card, health), per seat
        hs = np.arange(self.e_pulls.shape[1])
        self.card_val, self.card_side, self.boss_val = [], [], []
        for pol in cfg.policies:
            if pol in ("random", "lookahead"):
                self.card_val.append(None), self.card_side.append(None), self.boss_val.append(None)
                continue
            v = effect_values(WEIGHTS[pol], d.action_effects[:, :, None, :], hs[None, None, :],
                              self.e_pulls, self.p_cap)  # (cards, 2, H)
            self.card_side.append(np.argmax(v, axis=1))  # (cards, H), side 0 on ties
            self.card_val.append(v.max(axis=1))
            self.boss_val.append(effect_values(WEIGHTS[pol], d.boss_effects[:, None, :], hs[None, :],
                                               self.e_pulls, self.p_cap))  # (bosses, H)
        self.paid_pulls, self.paid_cost = paid_tables(d.paid_rates, 400)
        self.min_cost = min(c for c, _ in d.paid_rates)
        if "lookahead" in cfg.policies:
            self.qbase, self.qunits = quest_tables(d)
        # outputs
        self.pulls = np.zeros((G, len(SOURCES)), np.int64)
        self.god_chances = np.zeros(G, np.int64)
        self.gc_src = np.zeros((G, len(SOURCES)), np.int64)
        self.win = np.zeros((G, P))
        self.consolete_round = np.zeros(G, np.int64)

    # -- bag ---------------------------------------------------------------
    def _make_bag(self, idx: npt.NDArray[np.int64]) -> None:
        """ガチャ袋作成 in games ``idx`` (with 疑惑の運営 removals)."""
        if idx.size == 0:
            return
        cb = self.cfg_bag[idx]
        full = np.stack([cb[:, 0], cb[:, 1] + cb[:, 2]], axis=1)
        if self.cfg.doubtful_k is not None:
            ks = np.asarray(self.cfg.doubtful_k)[self.rng.integers(0, len(self.cfg.doubtful_k), idx.size)]
            r0 = self.rng.hypergeometric(full[:, 0], full[:, 1], ks)
            full = full - np.stack([r0, ks - r0], axis=1)
        self.inbag[idx] = full
        self.made_gc[idx] = self.cfg_bag[idx, 0]
        self.gc_drawn[idx] = 0

    def _session(self, idx: npt.NDArray[np.int64], pp: npt.NDArray[np.int64], n: npt.NDArray[np.int64],
                 src: str, depth: int = 0) -> None:
        """Slayers ``pp`` pull ``n`` chips (one session each) in games ``idx``; then God Chances and Overdrive."""
        keep = (n > 0) & self.alive[idx]
        if not keep.all():
            idx, pp, n = idx[keep], pp[keep], n[keep]
        if idx.size == 0:
            return
        left = n.copy()
        self.pulls[idx, _SRC[src]] += left
        gc = np.zeros(idx.size, np.int64)
        ai, sel = idx, np.arange(idx.size)
        while ai.size:
            bag = self.inbag[ai]
            take = np.minimum(left[sel], bag.sum(1))
            a = self.rng.hypergeometric(bag[:, 0], bag[:, 1], take)
            bag[:, 0] -= a
            bag[:, 1] -= take - a
            self.inbag[ai] = bag
            gc[sel] += a
            self.gc_drawn[ai] += a
            left[sel] -= take
            more = left[sel] > 0
            ai, sel = ai[more], sel[more]
            self._make_bag(ai)  # emptied mid-session: remake and go on
        bag = self.inbag[idx]
        end = (bag[:, 0] + bag[:, 1] == 0) | (self.gc_drawn[idx] >= self.made_gc[idx])
        self._make_bag(idx[end])
        self.gc_src[idx, _SRC[src]] += gc
        if gc.any():
            self._god_chances(idx, pp, gc, depth)

    def _god_chances(self, idx: npt.NDArray[np.int64], pp: npt.NDArray[np.int64], gc: npt.NDArray[np.int64],
                     depth: int) -> None:
        """Resolve ``gc`` God Chances of slayers ``pp`` in games ``idx``; Overdrive effects after them."""
        od = np.zeros(idx.size, np.int64)
        self.god_chances[idx] += gc
        overdrive = not self.last_dance and not self.cfg.expert
        for j in range(int(gc.max(initial=0))):
            sel = (gc > j) & self.alive[idx]
            if not sel.any():
                break
            gi, pi = idx[sel], pp[sel]
            card = self.rng.integers(0, self.C, gi.size)
            self.owned[gi, pi, card] = True
            if overdrive:
                od[sel] += card == self.d.navi_character[self.navi[gi, pi]]
            done = self.owned[gi, pi].all(axis=1)
            if done.any():  # コンスリート: the game ends at once
                dg = gi[done]
                self.win[dg, pi[done]] = 1.0
                if not self.last_dance:  # completing in the ラストダンス wins, but is not a round's コンスリート
                    self.consolete_round[dg] = self.round + 1
                self.alive[dg] = False
        om = (od > 0) & self.alive[idx]
        if om.any() and depth < _MAX_DEPTH:
            gi, pi = idx[om], pp[om]
            icons = self.d.navi_overdrive[self.navi[gi, pi]] * od[om, None]
            self._apply(gi, pi, icons, "overdrive", depth + 1)

    # -- effects -----------------------------------------------------------
    def _reveal(self, idx: npt.NDArray[np.int64]) -> None:
        """🐱: top of the raid boss deck to the bottom of the area (games ``idx``)."""
        idx = idx[self.deck_ptr[idx] < self.deck.shape[1]]
        if idx.size == 0:
            return
        card = self.deck[idx, self.deck_ptr[idx]]
        self.deck_ptr[idx] += 1
        ln = self.area_len[idx]
        self.area[idx, ln] = card
        self.area_len[idx] += 1
        empty = ln == 0
        self.health[idx[empty]] = self.d.boss_health[card[empty]]

    def _attack(self, idx: npt.NDArray[np.int64], pp: npt.NDArray[np.int64], kind: int, depth: int) -> None:
        keep = self.alive[idx] & (self.area_len[idx] > 0)
        idx, pp = idx[keep], pp[keep]
        if idx.size == 0:
            return
        roll = self.rng.integers(1, 7, idx.size)
        dmg = roll * 2 if kind == 2 else roll
        health = self.health[idx]
        removed = np.minimum(dmg, health)
        cap = removed >= health
        pulls = removed
        if kind == 1:
            six = roll == 6
            cap |= six
            pulls = np.where(six, 6, removed)
        self.health[idx] = health - removed
        if cap.any():
            ci = idx[cap]
            self.owner[ci, self.area[ci, 0]] = pp[cap]
            self.area[ci, :-1] = self.area[ci, 1:]
            self.area[ci, -1] = -1
            self.area_len[ci] -= 1
            ln = self.area_len[ci]
            nxt = ci[ln > 0]
            self.health[nxt] = self.d.boss_health[self.area[nxt, 0]]
            self.health[ci[ln == 0]] = 0
            if self.cfg.boss_refill:
                self._reveal(ci[ln == 0])
        self._session(idx, pp, pulls, "boss", depth)

    def _quest(self, idx: npt.NDArray[np.int64], pp: npt.NDArray[np.int64], steps: npt.NDArray[np.int64],
               depth: int) -> None:
        keep = (steps > 0) & self.alive[idx]
        idx, pp, move = idx[keep], pp[keep], steps[keep].copy()
        if idx.size == 0:
            return
        d = self.d
        nsq = len(d.quest_stop)
        pos, laps = self.qpos[idx, pp].copy(), self.laps[idx, pp].copy()
        pulls = np.zeros(idx.size, np.int64)
        money = np.zeros(idx.size, np.int64)
        rate = np.zeros(idx.size, np.int64)
        for _ in range(MAX_QUEST_CHAIN):
            if not (move > 0).any():
                break
            lap_units = np.zeros(idx.size, np.int64)
            extra = np.zeros(idx.size, np.int64)
            act = move > 0
            while act.any():
                pos[act] = (pos[act] + 1) % nsq
                sq = pos[act]
                laps[act] += d.quest_lap[sq]
                ic = d.quest_icons[sq]
                pulls[act] += ic[:, Icon.PULLS]
                money[act] += ic[:, Icon.MONEY]
                rate[act] += ic[:, Icon.RATE]
                extra[act] += ic[:, Icon.QUEST]
                lap_units[act] += d.quest_lap_pulls[sq]
                move[act] = np.where(d.quest_stop[sq], 0, move[act] - 1)
                act = move > 0
            pulls += laps * lap_units
            move = extra
        self.qpos[idx, pp], self.laps[idx, pp] = pos, laps
        self.money[idx, pp] += money
        self.rate[idx, pp] = np.minimum(self.rate[idx, pp] + rate, d.rate_length)
        self._session(idx, pp, pulls, "quest", depth)

    def _apply(self, idx: npt.NDArray[np.int64], pp: npt.NDArray[np.int64], icons: npt.NDArray[np.int64],
               src: str, depth: int = 0) -> None:
        """Slayers ``pp`` in games ``idx`` gain the effects ``icons`` (len(idx), N_ICONS), in :class:`Icon` order."""
        keep = self.alive[idx] & icons.any(axis=1)
        if not keep.all():
            idx, pp, icons = idx[keep], pp[keep], icons[keep]
        if idx.size == 0:
            return
        self.money[idx, pp] += icons[:, Icon.MONEY]
        self.rate[idx, pp] = np.minimum(self.rate[idx, pp] + icons[:, Icon.RATE], self.d.rate_length)
        col = icons[:, Icon.BOSS_APPEAR]
        for j in range(int(col.max())):
            self._reveal(idx[col > j])
        self._quest(idx, pp, icons[:, Icon.QUEST], depth)
        for kind, ic in enumerate((Icon.ATTACK, Icon.ATTACK_CRITICAL, Icon.ATTACK_DOUBLE)):
            col = icons[:, ic]
            for j in range(int(col.max())):
                sel = col > j
                self._attack(idx[sel], pp[sel], kind, depth)
        self._session(idx, pp, icons[:, Icon.PULLS], src, depth)

    # -- phases ------------------------------------------------------------
    def seat(self, k: int) -> npt.NDArray[np.int64]:
        """Seat acting ``k``-th in turn order (from the start slayer, seat order)."""
        return (self.start + k) % self.P

    def event(self, ev: npt.NDArray[np.int64]) -> None:
        d = self.d
        bag = d.event_bag[ev]
        has = bag[:, 0] >= 0
        self.cfg_bag = np.where(has[:, None], bag, np.array(d.bag))
        self._make_bag(np.flatnonzero(self.alive & (has | (self.round == 0))))
        icons = d.event_effects[ev]
        for k in range(self.P):
            idx = np.flatnonzero(self.alive)
            self._apply(idx, self.seat(k)[idx], icons[idx], "event")

    def _lookahead(self, icons: npt.NDArray[np.int64], s: int) -> npt.NDArray[np.float64]:
        """Pulls-equivalent of effects ``icons`` (G, ..., N) for seat ``s`` from the current state.

        Exact quest outcome from the slayer's square and 周回数, marginal 課金 pulls of the money at
        this Sunday's rates, the change of the slayer's Saturday pulls, attacks at their exact
        expected pulls plus LOOKAHEAD_CAPTURE pulls per capture probability.
        """
        extra = (1,) * (icons.ndim - 2)
        g = lambda a: a.reshape((self.G,) + extra)  # noqa: E731
        pos, laps = g(self.qpos[:, s]), g(self.laps[:, s])
        q = np.minimum(icons[..., Icon.QUEST], self.qbase.shape[1] - 1)
        val = (icons[..., Icon.PULLS] + self.qbase[pos, q] + laps * self.qunits[pos, q]).astype(float)
        cap = self.paid_pulls.size - 1
        mon = self.money[:, s]
        val += self.paid_pulls[np.minimum(g(mon) + icons[..., Icon.MONEY], cap)] - g(self.paid_pulls[np.minimum(mon, cap)])
        others = np.delete(self.rate, s, axis=1)
        top = others.max(axis=1)
        tied = (others == top[:, None]).sum(axis=1)
        d = self.d

        def sat(r: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
            t, n = g(top), g(tied)
            return np.where(r > t, d.saturday[d.rate_columns[r], 0],
                            np.where(r == t, d.saturday[d.rate_columns[r], np.minimum(n, 3)], 0))

        r0 = g(self.rate[:, s])
        val += sat(np.minimum(r0 + icons[..., Icon.RATE], d.rate_length)) - sat(r0)
        h = g(self.health)
        for k, ic in enumerate((Icon.ATTACK, Icon.ATTACK_CRITICAL, Icon.ATTACK_DOUBLE)):
            val += icons[..., ic] * (self.e_pulls[k][h] + LOOKAHEAD_CAPTURE * self.p_cap[k][h])
        return val

    def weekday(self) -> None:
        d, G, P = self.d, self.G, self.P
        deal = np.argsort(self.rng.random((G, len(d.action_names))), axis=1)[:, : P * HAND_SIZE]
        hand = deal.reshape(G, P, HAND_SIZE)
        if not self.cfg.expert:
            for k in range(P):
                idx = np.flatnonzero(self.alive)
                p = self.seat(k)[idx]
                self._apply(idx, p, d.navi_weekday[self.navi[idx, p]], "navi")
        for _turn in range(N_TURNS):
            if not self.alive.any():
                return
            chosen_card = np.zeros((G, P), np.int64)
            chosen_side = np.zeros((G, P), np.int64)
            boss_use = np.full((G, P), -1, np.int64)
            valid = hand >= 0
            hc = np.maximum(hand, 0)
            for s in range(P):
                usable = (self.owner == s) & ~self.used  # (G, B)
                any_boss = usable.any(axis=1)
                if self.cfg.policies[s] == "random":
                    side = self.rng.integers(0, 2, (G, HAND_SIZE))
                    cv = np.where(valid[:, s], self.rng.random((G, HAND_SIZE)), -np.inf)
                    best = np.argmax(cv, axis=1)
                    bv = np.where(usable, self.rng.random((G, self.B)), -np.inf)
                    use = any_boss & (self.rng.random(G) < 0.5)
                    worst = best
                elif self.cfg.policies[s] == "lookahead":
                    v = self._lookahead(d.action_effects[hc[:, s]], s)  # (G, H, 2)
                    side = np.argmax(v, axis=2)
                    cv = np.where(valid[:, s], v.max(axis=2), -np.inf)
                    best = np.argmax(cv, axis=1)
                    bv = np.where(usable, self._lookahead(np.broadcast_to(d.boss_effects, (G,) + d.boss_effects.shape), s),
                                  -np.inf)
                    use = any_boss & (bv.max(axis=1) > cv[self.rows, best])
                    worst = np.argmin(np.where(valid[:, s], cv, np.inf), axis=1)
                else:
                    h = self.health[:, None]
                    side = self.card_side[s][hc[:, s], h]
                    cv = np.where(valid[:, s], self.card_val[s][hc[:, s], h], -np.inf)
                    best = np.argmax(cv, axis=1)
                    bv = np.where(usable, self.boss_val[s][:, self.health].T, -np.inf)
                    use = any_boss & (bv.max(axis=1) > cv[self.rows, best])
                    worst = np.argmin(np.where(valid[:, s], cv, np.inf), axis=1)
                bb = np.argmax(bv, axis=1)
                slot = np.where(use, worst, best)
                chosen_card[:, s] = hand[self.rows, s, slot]
                chosen_side[:, s] = side[self.rows, slot]
                boss_use[:, s] = np.where(use, bb, -1)
                hand[self.rows, s, slot] = -1
            # ④ スタートスレイヤー changes, in the current turn order (the last one wins)
            ss = d.action_effects[chosen_card, chosen_side, Icon.START_SLAYER] > 0
            ss &= boss_use < 0
            new_start = self.start.copy()
            for k in range(P):
                p = self.seat(k)
                hit = ss[self.rows, p]
                new_start[hit] = p[hit]
            self.start = np.where(self.alive, new_start, self.start)
            icons = d.action_effects[chosen_card, chosen_side]  # (G, P, N)
            bosses = boss_use >= 0
            icons = np.where(bosses[..., None], d.boss_effects[np.maximum(boss_use, 0)], icons)
            first = bosses & d.boss_first[np.maximum(boss_use, 0)]
            self.used[self.rows[:, None].repeat(P, 1)[bosses], boss_use[bosses]] = True
            # ⑤ resolve: boss cards that act first, then everyone in turn order
            for group in (first, ~first):
                for k in range(P):
                    p = self.seat(k)
                    idx = np.flatnonzero(self.alive & group[self.rows, p])
                    self._apply(idx, p[idx], icons[idx, p[idx]], "weekday")
            hand = np.roll(hand, 1, axis=1)  # ⑥ pass the hand to the next seat

    def saturday(self) -> None:
        d = self.d
        top = self.rate.max(axis=1)
        lead = self.rate == top[:, None]
        n_lead = lead.sum(axis=1)
        per = d.saturday[d.rate_columns[top], n_lead - 1]
        for k in range(self.P):
            p = self.seat(k)
            idx = np.flatnonzero(self.alive & lead[self.rows, p])
            self._session(idx, p[idx], per[idx], "saturday")

    def sunday(self) -> None:
        passes = np.zeros(self.G, np.int64)
        k = 0
        last = self.round == N_ROUNDS - 1
        while (self.alive & (passes < self.P)).any() and k < _MAX_SUNDAY * self.P:
            p = self.seat(k % self.P)
            act = self.alive & (passes < self.P)
            mon = self.money[self.rows, p]
            buy = act & (mon >= self.min_cost)
            for s, pol in enumerate(self.cfg.policies):
                if pol == "money_then_paid" and not last:
                    buy &= (p != s) | (mon >= SAVE_UNTIL)
            capped = np.minimum(mon, self.paid_pulls.size - 1)
            n = np.where(buy, self.paid_pulls[capped], 0)
            self.money[self.rows[buy], p[buy]] -= self.paid_cost[capped][buy]
            passes = np.where(buy, 0, passes + act)
            bi = np.flatnonzero(buy)
            self._session(bi, p[bi], n[bi], "paid")
            k += 1

    def last_dance_phase(self) -> None:
        self.last_dance = True
        firsts = np.zeros((self.G, self.P), np.int64)
        bosses = np.stack([(self.owner == s).sum(axis=1) for s in range(self.P)], axis=1)
        for arr in (self.laps, bosses, self.rate):
            firsts += arr == arr.max(axis=1, keepdims=True)
        self.ld_chances = np.where(self.alive, firsts.sum(axis=1), 0)
        for k in range(self.P):
            p = self.seat(k)
            idx = np.flatnonzero(self.alive)
            self._god_chances(idx, p[idx], firsts[idx, p[idx]], _MAX_DEPTH)

    def play(self, events: npt.NDArray[np.int64]) -> dict[str, Any]:
        for r in range(N_ROUNDS):
            self.round = r
            if not self.alive.any():
                break
            self.event(events[:, r])
            self.weekday()
            self.saturday()
            self.sunday()
        ld = self.alive.copy()
        ur_before = self.owned.sum(axis=2)
        leaders_before = ur_before == ur_before.max(axis=1, keepdims=True)
        self.last_dance_phase()
        ur = self.owned.sum(axis=2)
        fin = self.alive  # no コンスリート during the last dance
        best = ur == ur.max(axis=1, keepdims=True)
        self.win[fin] = best[fin] / best[fin].sum(axis=1, keepdims=True)
        winners = self.win > 0
        decides = ld & (winners != leaders_before).any(axis=1)
        return dict(ur=ur, ld=ld, decides=decides)


def _events(d: GameData, G: int, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    sd, wk, cl = d.events_of("start_dash"), d.events_of("weekly"), d.events_of("climax")
    out = np.empty((G, N_ROUNDS), np.int64)
    out[:, 0] = sd[rng.integers(0, sd.size, G)]
    w = np.argsort(rng.random((G, wk.size)), axis=1)[:, :2]
    out[:, 1:3] = wk[w]
    out[:, 3] = cl[rng.integers(0, cl.size, G)]
    return out


def simulate_games(cfg: GameConfig, n_games: int, *, rng: Any = None) -> dict[str, npt.NDArray[Any]]:
    """Play ``n_games`` whole games (vectorized across games, in chunks).

    Parameters
    ----------
    cfg : GameConfig
        From :func:`make_config`.
    n_games : int
        Games, 1..:data:`MAX_GAMES`.
    rng : int, SeedSequence, Generator or None, keyword-only
        Randomness, normalized by ``np.random.default_rng``.

    Returns
    -------
    dict of ndarray, axis 0 = game
        ``win`` (n, P) float: win share per seat (1/k on a k-way tie; seat 0 = the first
        start slayer); ``ur`` (n, P) int: UR cards at the end; ``navi`` (n, P) int: navi id
        per seat (-1 in expert mode); ``consolete_round`` (n,) int: round of the
        コンスリート, 0 if none; ``last_dance`` (n,) bool: the game reached the
        ラストダンス; ``ld_decides`` (n,) bool: the ラストダンス changed who leads;
        ``pulls`` (n, len(SOURCES)) int: pulls per source, all slayers; ``god_chances``
        (n,) int; ``bosses`` (n,) int: boss cards captured; ``ld_god_chances`` (n,) int: God
        Chances given by the ラストダンス (0 if the game ended before it); ``gc_by_source``
        (n, len(SOURCES)) int: God Chance chips drawn per source of pulls.

    Raises
    ------
    ParamError, ParamTypeError
        If ``cfg`` is not a GameConfig, ``n_games`` is not an integer in range or ``rng``
        is not seed material (a bool, float or string).
    """
    cfg = check_game_config(cfg)
    n_games = check_int("n_games", n_games, min=1, max=MAX_GAMES)
    gen = check_rng(rng)
    parts: list[dict[str, Any]] = []
    for start in range(0, n_games, CHUNK):
        G = min(CHUNK, n_games - start)
        b = _Batch(cfg, G, gen)
        ev = _events(cfg.data, G, gen)
        res = b.play(ev)
        parts.append(dict(win=b.win, ur=res["ur"], navi=b.navi, consolete_round=b.consolete_round,
                          last_dance=res["ld"], ld_decides=res["decides"], pulls=b.pulls,
                          god_chances=b.god_chances, bosses=(b.owner >= 0).sum(axis=1),
                          ld_god_chances=b.ld_chances, gc_by_source=b.gc_src))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
