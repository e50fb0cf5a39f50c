"""Vectorized simulator of whole games of ガッチャ ~God Chance~ (axis 0 = game).

All games of a chunk advance in lockstep, phase by phase and turn by turn, with boolean
masks for games that have ended (コンスリート) and for who acts. The only code that draws
random numbers. The bag follows :mod:`gamesim.games.gacha.rules` (sessions drawn without
replacement; remade when empty, or after a session once every God Chance chip put in has
been drawn; 疑惑の運営モード removes ``k`` chips unseen at every creation); a session's
God Chance chips are drawn as a hypergeometric, which is
the distribution of drawing them one at a time. SR and N chips are both はずれ and change
nothing in the whole game unless a card reacts to them (chip triggers ``on_sr`` / ``on_n``);
without such a card the simulator tracks God Chance chips and the others, with one it also
splits a session's other chips into SR and N (a second hypergeometric).

Random streams: every source of randomness has its own stream, spawned once per chunk
(:class:`gamesim.core.rng.KeyedStreams`): the set-up (navi order, raid boss deck), the events,
the weekday deal, the bag (session chips, 疑惑の運営 removals), the characters a God Chance
gives, the attack dice, and the players' random choices (``random`` policy, targets). A rule
change that makes one source draw more or fewer numbers (a bigger bag, a boss refill) leaves
the others on their own streams. The weekday deal draws one number per game of the chunk
(alive or not), so it stays aligned game by game. The characters a God Chance gives and the
attack dice are read game by game (:class:`_PerGame`): the ``k``-th God Chance (or attack) of
game ``i`` gets the same number whatever the other games drew. The session chips and the
random players' choices draw for the games that act, in call order (reading the chips game by
game too cost about 25% more CPU time for little gain in the measured comparison,
``docs/comparisons.md``).

Entry point shared by every game: :func:`simulate` ``(params, n_games, *, rng=None)`` takes a
:class:`~gamesim.games.gacha_game.rules.GachaGameParams` (formerly ``GameConfig``, a name still
importable here) and returns :func:`simulate_games`'s arrays; :func:`make_config` builds the
Params from names.

Source: ``shared/seeds/gacha_god_chance_rules_ja.txt``; reading: ``docs/rules/gacha_game.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans
from gamesim.core.registry import ParamError
from gamesim.core.rng import KeyedStreams
from gamesim.core.samplers import row_permutations
from gamesim.core.validate import (
    Bool,
    Choice,
    Int,
    Optional,
    Rng,
    Unchecked,
    check_choice,
    check_int_list,
    validate_params,
)

from .config import BOSS_TARGETS, BOSS_USES, SOURCES, GameConfig
from .data import GameData, Icon, load_data
from .policies import (PLAN_MAX_MONEY, POLICIES, SAVE_UNTIL, WEIGHTS, effect_values, paid_plan_tables,
                       quest_tables, target_values, choose_play)
from .rules import CFG, HAND_SIZE, MAX_QUEST_CHAIN, N_ROUNDS, N_TURNS, GachaGameParams, attack_tables, paid_tables

__all__ = ["SOURCES", "BOSS_USES", "BOSS_TARGETS", "GachaGameParams", "GameConfig", "make_config", "simulate",
           "simulate_games", "MAX_GAMES", "CHUNK_SIZE", "CHUNK"]

#: Index of each pull source in :data:`SOURCES`.
_WEEKDAY, _QUEST, _BOSS, _SATURDAY, _PAID, _EVENT, _NAVI, _OVERDRIVE, _TRIGGER = range(len(SOURCES))
#: Most games per call (memory and time bound).
MAX_GAMES = 2_000_000
#: Games per chunk.
CHUNK_SIZE = 100_000
#: The older name of :data:`CHUNK_SIZE`.
CHUNK = CHUNK_SIZE
#: Sources of randomness: the key of each one's stream (see the module notes).
_S_MISC, _S_SETUP, _S_EVENTS, _S_DEAL, _S_BAG, _S_CARD, _S_DICE, _S_CHOICE, _S_SR, _S_REMOVAL = range(10)
#: Numbers per game in one block of a :class:`_PerGame` source, and blocks kept per source.
_BLOCK, _KEEP = 8, 6


class _PerGame:
    """One source's uniforms read game by game: the ``k``-th number game ``i`` uses is ``U[k, i]``.

    ``U`` is drawn in blocks of :data:`_BLOCK` rows (float32, one column per game of the chunk)
    from ``streams(source, block)``, on need. At most :data:`_KEEP` blocks are kept (the oldest
    goes first); a game that needs a dropped block gets it drawn again from its stream (the
    same numbers), so memory stays flat whatever the game length.
    """

    def __init__(self, streams: KeyedStreams, source: int, G: int) -> None:
        self.streams, self.source, self.G = streams, source, G
        self.count = np.zeros(G, np.int64)
        self.blocks: dict[int, npt.NDArray[np.float32]] = {}

    def _block(self, j: int) -> npt.NDArray[np.float32]:
        blk = self.blocks.get(j)
        if blk is None:
            blk = self.blocks[j] = self.streams(self.source, j).random((_BLOCK, self.G), dtype=np.float32)
            if len(self.blocks) > _KEEP:  # drop the oldest; drawn again (same numbers) if needed
                del self.blocks[min(self.blocks)]
        return blk

    def uniform(self, idx: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """One uniform in [0, 1) for each entry of ``idx`` (games; repeats get successive numbers)."""
        if idx.size > 1 and not (idx[1:] > idx[:-1]).all():  # a game twice: successive numbers
            o = np.argsort(idx, kind="stable")
            si = idx[o]
            first = np.r_[True, si[1:] != si[:-1]]
            start = np.flatnonzero(first)
            rank = np.empty(idx.size, np.int64)
            rank[o] = np.arange(si.size) - start[np.cumsum(first) - 1]
            k = self.count[idx] + rank
            np.add.at(self.count, idx, 1)
        else:
            k = self.count[idx]
            self.count[idx] = k + 1
        if idx.size == 0:
            return np.zeros(0, np.float32)
        lo, hi = int(k.min()) // _BLOCK, int(k.max()) // _BLOCK
        if lo == hi:
            return self._block(lo)[k - lo * _BLOCK, idx]
        b = k // _BLOCK
        out = np.empty(idx.size, np.float32)
        for j in range(lo, hi + 1):
            m = b == j
            if m.any():
                out[m] = self._block(j)[k[m] - j * _BLOCK, idx[m]]
        return out


#: Most Overdrive chains followed (each needs a God Chance showing the navi: (1/5)^k).
_MAX_DEPTH = 30
#: Most 課金ガチャ turns in one Sunday per slayer.
_MAX_SUNDAY = 200
#: Longest 👣 move read from the quest table (longer ones, from Overdrive multiples, go step by step).
_QMAX = 64


@validate_params(
    data=Unchecked("'illustrative', a card-list file or a GameData: loaded in the body"),
    remove_action=Unchecked("'none' or an action card of data: checked in the body"),
    remove_boss=Unchecked("'none' or a boss card of data that leaves one in the deck: checked in the body"),
    chip_triggers=Bool(), round_effects=Bool(), n_players=Int(2, 4), policy=Choice(POLICIES),
    policy_seat1=Optional(Choice(POLICIES)), expert=Bool(), doubtful=Bool(),
    doubtful_k=Unchecked("chips removed, below data's smallest bag (read only with doubtful): checked in the body"),
    navi_seat1=Unchecked("None or a navi card of data, unset in expert mode: checked in the body"),
    boss_refill=Bool(), last_dance_zero_first=Bool(), last_dance_consolete=Bool(), boss_use=Choice(BOSS_USES),
    boss_target=Choice(BOSS_TARGETS))
def make_config(*, n_players: int = 4, policy: str = "greedy_pulls", policy_seat1: str | None = None,
                expert: bool = False, doubtful: bool = False, doubtful_k: Sequence[int] = (3, 4),
                navi_seat1: str | None = None, boss_refill: bool = False, data: str | GameData = "illustrative",
                remove_action: str = "none", remove_boss: str = "none",
                last_dance_zero_first: bool = True, last_dance_consolete: bool = True,
                boss_use: str = "round", boss_target: str = "choose", chip_triggers: bool = True,
                round_effects: bool = True) -> GachaGameParams:
    """A game set-up, :class:`~gamesim.games.gacha_game.rules.GachaGameParams`, from names and readings.

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
    boss_refill : bool, default False
        When the raid boss area empties by a capture, reveal the next deck card. False
        (the rulebook's text): only 🐱 (ボス出現アイコン) reveals a raid boss.
    data : str or GameData, default "illustrative"
        Card lists (:func:`.data.load_data`).
    remove_action : str, default "none"
        Take every copy of this action card out of the game ("none": keep all); for
        "how much does this card matter" comparisons.
    remove_boss : str, default "none"
        Take this boss card out of the raid boss deck ("none": keep all).
    last_dance_zero_first : bool, default True
        ラストダンス: a tie at 0 (nobody has a lap, a boss card or a rate square) is a first
        place for everybody (the text); False: a first place needs more than 0.
    last_dance_consolete : bool, default True
        A slayer who completes the set during the ラストダンス wins at once (the others'
        remaining God Chances are not performed); False: the ラストダンス is played out and
        most UR cards win (completing ties with anyone else who completes).
    boss_use : {"round", "once"}, default "round"
        A captured boss card used in a weekday turn stays face up, usable in every later turn
        of that round, and is turned face down (never usable again) when the round ends
        ("round", the table reading of ボスカードの使用); "once": it is spent when played.
    boss_target : {"choose", "first"}, default "choose"
        Which raid boss of the area an attack hits: the attacker chooses ("choose": the
        boss its policy values most for that attack, :func:`.policies.target_values`; a
        ``random`` slayer picks uniformly), or always the first one ("first").
    chip_triggers : bool, default True
        Play the cards' chip triggers (``on_sr`` / ``on_n``); False: every SR and N chip is
        はずれ, as if no card had a trigger (the comparison "what do the triggers add").
    round_effects : bool, default True
        Play the cards' round-scoped effects (an event's or boss card's ``round`` table, a
        navi card's ``overdrive_round``: 課金 rates, Saturday table or bag until the round
        ends); False: the default tables always, but for an event's bag (the rulebook's own
        「イベントカードによる指定」, given as ``bag`` or ``round.bag``), which is kept.

    Returns
    -------
    GachaGameParams
        (alias ``GameConfig``) checked once, when built.

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
    if not chip_triggers and gd.has_triggers:
        gd = replace(gd, navi_trigger=np.zeros_like(gd.navi_trigger), event_trigger=np.zeros_like(gd.event_trigger))
    if not round_effects:
        gd = replace(gd, event_round=np.zeros_like(gd.event_round), boss_round=np.full_like(gd.boss_round, -1),
                     boss_bag=np.full_like(gd.boss_bag, -1), navi_round=np.full_like(gd.navi_round, -1),
                     navi_bag=np.full_like(gd.navi_bag, -1))
    pols = [policy] * n_players
    if policy_seat1 is not None:
        pols[0] = policy_seat1
    ks = None
    if doubtful:
        ks = tuple(check_int_list("doubtful_k", doubtful_k, min=0,
                                  max=max(0, min(sum(b) for b in gd.round_bags) - 1), max_len=10))
    n1 = None
    if navi_seat1 is not None:
        if expert:
            raise ParamError("navi_seat1", navi_seat1, "unset in エキスパートモード (expert = true: no navi)")
        n1 = gd.navi_names.index(check_choice("navi_seat1", navi_seat1, gd.navi_names))
    # the hand-size bound (HAND_SIZE cards per slayer) is checked by GachaGameParams itself
    return GameConfig(gd, n_players, tuple(pols), expert, ks, n1, boss_refill, last_dance_zero_first,
                      last_dance_consolete, boss_use, boss_target)


def _quest_vec(d: GameData, pos: npt.NDArray[np.int64], laps: npt.NDArray[np.int64],
               steps: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], ...]:
    """👣 moves of many chips at once (the loop of :func:`.rules.quest_move`, vectorized).

    Returns the new square, the new 周回数, and the pulls, money and rate gained.
    """
    nsq = len(d.quest_stop)
    pos, laps, move = pos.copy(), laps.copy(), steps.copy()
    pulls = np.zeros(pos.size, np.int64)
    money = np.zeros(pos.size, np.int64)
    rate = np.zeros(pos.size, np.int64)
    for _ in range(MAX_QUEST_CHAIN):
        if not (move > 0).any():
            break
        lap_units = np.zeros(pos.size, np.int64)
        extra = np.zeros(pos.size, np.int64)
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
    return pos, laps, pulls, money, rate


#: Largest inverse-CDF table of God Chance chips per session (entries); bigger bags use
#: ``Generator.hypergeometric``.
_HYPER_TABLE_MAX = 4_000_000


@lru_cache(maxsize=16)
def _hyper_table(gmax: int, omax: int) -> npt.NDArray[np.float64]:
    """``cdf[((g * (omax + 1) + o) * (gmax + omax + 1) + t) * gmax + k] = P(X <= k)`` for X the God
    Chance chips among ``t`` drawn from ``g`` God Chance and ``o`` other chips (hypergeometric),
    ``k < gmax``; exact binomial coefficients, one rounding to float."""
    T = gmax + omax + 1
    cdf = np.ones((gmax + 1, omax + 1, T, max(gmax, 1)))
    for g in range(gmax + 1):
        for o in range(omax + 1):
            for t in range(g + o + 1):
                tot, acc = math.comb(g + o, t), 0
                for k in range(min(g, t)):
                    acc += math.comb(g, k) * math.comb(o, t - k)
                    cdf[g, o, t, k] = acc / tot
    return cdf.reshape(-1)


@lru_cache(maxsize=16)
def _quest_table(d: GameData) -> npt.NDArray[np.int64]:
    """Every 👣 move of up to ``_QMAX`` steps from every square, rows (new square, laps gained,
    pulls at 周回数 0, pulls per starting 周回数, money, rate), column ``pos * (_QMAX + 1) + steps``.

    The pulls of a move are linear in the starting 周回数 (each chained move's lap pulls are
    周回数 after it × its lap units), so two runs (周回数 0 and 1) give the whole table."""
    nsq = len(d.quest_stop)
    pos = np.repeat(np.arange(nsq), _QMAX + 1)
    steps = np.tile(np.arange(_QMAX + 1), nsq)
    p0, l0, u0, m0, r0 = _quest_vec(d, pos, np.zeros_like(pos), steps)
    u1 = _quest_vec(d, pos, np.ones_like(pos), steps)[2]
    return np.stack([p0, l0, u0, u1 - u0, m0, r0])


class _Batch:
    """State of ``G`` games advancing in lockstep.

    Per-slayer state is flat, index ``f = game * P + seat`` (one 1-D gather per access); the
    bag holds two counts per game (God Chance chips, other chips); the UR cards a slayer owns
    are a bit mask. Effects are columns of ``(N_ICONS, n)`` arrays gathered from tables.
    """

    def __init__(self, cfg: GameConfig, G: int, rng: np.random.Generator, held: bool = False):
        d = self.d = cfg.data
        self.cfg, self.G = cfg, G
        self.streams = streams = KeyedStreams(rng)
        self.rng = streams(_S_MISC)  # draws not assigned to a source below
        self.rng_removal = streams(_S_REMOVAL)  # 疑惑の運営 removals
        self.rng_deal, self.rng_choice = streams(_S_DEAL), streams(_S_CHOICE)
        self.rng_bag, self.rng_sr = streams(_S_BAG), streams(_S_SR)
        self.u_card, self.u_dice = _PerGame(streams, _S_CARD, G), _PerGame(streams, _S_DICE, G)
        rng = streams(_S_SETUP)
        # held=True: record which action cards each slayer plays face up (for "win rate when held")
        self.played = np.zeros((G, cfg.n_players, len(d.action_names)), bool) if held else None
        P, C, B = cfg.n_players, d.n_characters, len(d.boss_names)
        self.P, self.C, self.B = P, C, B
        self.rows = np.arange(G)
        self.alive = np.ones(G, bool)
        self.round = 0
        self.last_dance = False
        # bag: God Chance chips and the others (SR and N are both はずれ)
        self.cfg_gc = np.full(G, d.bag[0], np.int64)
        self.cfg_ot = np.full(G, d.bag[1] + d.bag[2], np.int64)
        self.gcb = np.zeros(G, np.int64)
        self.otb = np.zeros(G, np.int64)
        self.made_gc = np.zeros(G, np.int64)
        self.made_tot = np.zeros(G, np.int64)  # chips in the bag when it was made
        self.plan_id: npt.NDArray[np.int64] | None = None  # paid_plan: plan of the bag config, per game
        self.gc_drawn = np.zeros(G, np.int64)
        # chip triggers: SR chips tracked apart from N chips (only when a card reacts to them)
        self.trig = d.has_triggers
        self.cfg_sr = np.full(G, d.bag[1], np.int64)
        self.srb = np.zeros(G, np.int64)
        self.unseen = np.zeros(G, np.int64)
        self.cur_ev = np.zeros(G, np.int64)
        # which chip kinds (SR, N) each event / navi reacts to; index -1 (no navi, expert) = none
        self.ev_kinds = d.event_trigger.any(axis=2)
        self.navi_kinds = np.concatenate([d.navi_trigger.any(axis=2), np.zeros((1, 2), bool)])
        if cfg.expert:
            self.navi_kinds[:] = False
        self.ev_any, self.navi_any = self.ev_kinds.any(axis=1), self.navi_kinds.any(axis=1)
        # slayers, flat index game * P + seat
        self.owned = np.zeros(G * P, np.int64)  # bit c: owns UR character c
        self.full = (1 << C) - 1
        self.money = np.full(G * P, d.start_money, np.int64)
        self.rate = np.zeros(G * P, np.int64)
        self.qpos = np.zeros(G * P, np.int64)
        self.laps = np.zeros(G * P, np.int64)
        self.start = np.zeros(G, np.int64)  # seat 0 is the first start slayer
        self._seats: list[npt.NDArray[np.int64]] | None = None
        if cfg.expert:
            self.navi = np.full((G, P), -1, np.int64)
        else:
            nn = len(d.navi_names)
            order = row_permutations(G, nn, rng=rng)
            if cfg.navi_seat1 is not None:
                # seat 1 gets navi_seat1; the others come from the rest in random order
                rest = order[order != cfg.navi_seat1].reshape(G, nn - 1)
                order = np.concatenate([np.full((G, 1), cfg.navi_seat1), rest], axis=1)
            self.navi = order[:, :P].astype(np.int64)
        self.navi_f = self.navi.reshape(-1)
        self.navi_char = np.where(self.navi_f >= 0, d.navi_character[np.maximum(self.navi_f, 0)], -1)
        # bosses
        self.owner = np.full((G, B), -1, np.int64)
        self.used = np.zeros((G, B), bool)  # turned face down: never usable again
        self.flip = np.zeros((G, B), bool)  # boss_use "round": used this round, face down at its end
        deck = d.boss_deck
        shuffled = deck[row_permutations(G, deck.size, rng=rng)]
        self.deck = np.concatenate([shuffled, np.tile(d.boss_bottom, (G, 1))], axis=1)
        self.deck_ptr = np.zeros(G, np.int64)
        self.area = np.full((G, B), -1, np.int64)
        self.area_len = np.zeros(G, np.int64)
        self.ahealth = np.zeros((G, B + 1), np.int64)  # health per area slot (0: empty; last column: padding)
        self._reveal(np.arange(G))
        self.e_pulls, self.p_cap = attack_tables(int(max(d.boss_health.max(), 1)))
        # value of an attack of each kind on a boss with each health, per seat (boss_target "choose")
        self.tval = np.stack([target_values(pol, self.e_pulls, self.p_cap) for pol in cfg.policies])
        self.rand_seat = np.array([pol == "random" for pol in cfg.policies])
        self.choose = cfg.boss_target == "choose"
        # effect tables, one column per code: action card c side s -> 2c + s, boss b -> 2A + b
        A = self.A = len(d.action_names)
        self.eff_T = np.ascontiguousarray(np.concatenate([d.action_effects.reshape(2 * A, -1), d.boss_effects]).T)
        self.code_ss = np.concatenate([d.action_effects.reshape(2 * A, -1)[:, Icon.START_SLAYER] > 0, np.zeros(B, bool)])
        self.code_first = np.concatenate([np.zeros(2 * A, bool), d.boss_first])
        self.navi_wd_T = np.ascontiguousarray(d.navi_weekday.T)
        self.navi_od_T = np.ascontiguousarray(d.navi_overdrive.T)
        self.event_T = np.ascontiguousarray(d.event_effects.T)
        self.any_T = {id(t): t.any(axis=0) for t in (self.eff_T, self.navi_wd_T, self.event_T)}
        self.nboss = np.zeros(G * P, np.int64)  # boss cards a slayer holds and has not used
        self.qtab = _quest_table(d)
        bags = d.round_bags
        self.hg = max(b[0] for b in bags)
        self._ks = np.arange(max(b[0] + b[1] for b in bags) + 1)  # table columns k, for _hyper
        self.ho = max(b[1] + b[2] for b in bags)
        n_tab = (self.hg + 1) * (self.ho + 1) * (self.hg + self.ho + 1) * max(self.hg, 1)
        self.htab = _hyper_table(self.hg, self.ho) if n_tab <= _HYPER_TABLE_MAX else None
        if self.trig:  # SR chips among the others drawn: the same table shape, SR as the "good" chips
            self.hs = max(b[1] for b in bags)
            self.hn = max(b[2] for b in bags)
            n_tab = (self.hs + 1) * (self.hn + 1) * (self.hs + self.hn + 1) * max(self.hs, 1)
            self.stab = _hyper_table(self.hs, self.hn) if n_tab <= _HYPER_TABLE_MAX else None
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
        # 課金 rate sets and Saturday tables (0: the default; others from round-scoped effects)
        tabs = [paid_tables(rs, 400) for rs in d.paid_rate_sets]
        self.pp = np.stack([t[0] for t in tabs])
        self.pc = np.stack([t[1] for t in tabs])
        self.minc = np.array([min(c for c, _ in rs) for rs in d.paid_rate_sets], np.int64)
        self.rid = np.zeros(G, np.int64)  # rate set in force, per game
        self.sid = np.zeros(G, np.int64)  # Saturday table in force, per game
        self.boss_round_any = d.has_boss_round
        self.navi_round_any = d.has_navi_round and not cfg.expert
        # codes (action 2c + s, boss 2A + b) of boss cards with a round-scoped effect
        self.round_code = np.concatenate([np.zeros(2 * len(d.action_names), bool),
                                          (d.boss_round >= 0).any(axis=1) | (d.boss_bag[:, 0] >= 0)])
        self.sat_sets = d.saturday_sets
        if "lookahead" in cfg.policies:
            self.qbase, self.qunits = quest_tables(d)
        if "paid_plan" in cfg.policies:  # per-purchase plans, one per bag the game can make
            self.plan_bags = d.round_bags
            tabs = [paid_plan_tables(b, cfg.doubtful_k, d.paid_rates) for b in self.plan_bags]
            nc = max(t[0].shape[1] for t in tabs)
            dr, gg = max(t[1].shape[0] for t in tabs), max(t[1].shape[1] for t in tabs)
            self.plan_act = np.full((len(tabs), PLAN_MAX_MONEY + 1, nc), -1, np.int64)
            self.plan_cls = np.full((len(tabs), dr, gg), -1, np.int64)
            for i, (a, c) in enumerate(tabs):
                self.plan_act[i, :, : a.shape[1]] = a
                self.plan_cls[i, : c.shape[0], : c.shape[1]] = c
            self.plan_id = np.zeros(G, np.int64)
            self.bag_plan = np.zeros(G, np.int64)
            self.rate_cost = np.array([c for c, _ in d.paid_rates], np.int64)
            self.rate_pulls = np.array([p for _, p in d.paid_rates], np.int64)
        # outputs
        self.pulls = np.zeros((len(SOURCES), G), np.int64)
        self.god_chances = np.zeros(G, np.int64)
        self.gc_src = np.zeros((len(SOURCES), G), np.int64)
        self.win = np.zeros((G, P))
        self.consolete_round = np.zeros(G, np.int64)

    # -- bag ---------------------------------------------------------------
    def _make_bag(self, idx: npt.NDArray[np.int64]) -> None:
        """ガチャ袋作成 in games ``idx`` (with 疑惑の運営 removals)."""
        if idx.size == 0:
            return
        g, o = self.cfg_gc[idx], self.cfg_ot[idx]
        self.made_gc[idx] = g
        if self.trig:  # SR chips not yet seen drawn; others taken out unseen (see _session)
            self.srb[idx] = self.cfg_sr[idx]
            self.unseen[idx] = 0
        if self.cfg.doubtful_k is not None:
            ks = np.asarray(self.cfg.doubtful_k)[self.rng_removal.integers(0, len(self.cfg.doubtful_k), idx.size)]
            r0 = self.rng_removal.hypergeometric(g, o, ks)
            g, o = g - r0, o - (ks - r0)
            if self.trig:
                self.unseen[idx] = ks - r0
        self.gcb[idx] = g
        self.otb[idx] = o
        self.made_tot[idx] = g + o
        if self.plan_id is not None:  # paid_plan: the plan of the bag in play
            self.bag_plan[idx] = self.plan_id[idx]
        self.gc_drawn[idx] = 0

    def _hyper(self, g: npt.NDArray[np.int64], o: npt.NDArray[np.int64],
               t: npt.NDArray[np.int64], sr: bool = False) -> npt.NDArray[np.int64]:
        """God Chance chips among ``t`` drawn from ``g`` God Chance and ``o`` other chips
        (hypergeometric; inverse CDF from a table). ``sr``: SR chips among ``t`` others drawn
        from ``g`` SR and ``o`` N chips."""
        tab, hg, ho = (self.stab, self.hs, self.hn) if sr else (self.htab, self.hg, self.ho)
        if tab is None:
            return (self.rng_sr if sr else self.rng_bag).hypergeometric(g, o, t)
        m = int(g.max(initial=0))
        u = (self.rng_sr if sr else self.rng_bag).random(g.size)
        base = ((g * (ho + 1) + o) * (hg + ho + 1) + t) * max(hg, 1)
        if m <= 1:
            return (u >= tab[base]).astype(np.int64)
        return (u[:, None] >= tab[base[:, None] + self._ks[:m]]).sum(axis=1)

    def _session(self, idx: npt.NDArray[np.int64], f: npt.NDArray[np.int64], n: npt.NDArray[np.int64],
                 src: int, depth: int = 0) -> None:
        """Slayers ``f`` pull ``n`` chips (one session each) in games ``idx``; then God Chances and Overdrive."""
        keep = (n > 0) & self.alive[idx]
        if not keep.all():
            idx, f, n = idx[keep], f[keep], n[keep]
        if idx.size == 0:
            return
        self.pulls[src][idx] += n
        g, o = self.gcb[idx], self.otb[idx]
        take = np.minimum(n, g + o)
        gc = self._hyper(g, o, take)
        if self.trig:
            # SR among the other chips drawn, sampled only where a card can react (``need``);
            # elsewhere the draw stays unseen. The others' order in the bag is a uniform random
            # permutation, so the seen blocks are hypergeometric draws from the chips not seen
            # drawn (those in the bag plus the unseen ones): exact, and cheaper.
            need = self.ev_any[self.cur_ev[idx]] | self.navi_any[self.navi_f[f]]
            sr = self._sr(idx, need, o, take - gc)
        o -= take - gc
        drawn = self.gc_drawn[idx] + gc
        g -= gc
        self.gcb[idx], self.otb[idx], self.gc_drawn[idx] = g, o, drawn
        left = n - take
        if left.any():  # the bag emptied mid-session: remake it and go on
            sel = left.nonzero()[0]
            ai = idx[sel]
            while ai.size:
                self._make_bag(ai)
                g2, o2 = self.gcb[ai], self.otb[ai]
                t2 = np.minimum(left[sel], g2 + o2)
                a2 = self._hyper(g2, o2, t2)
                if self.trig:
                    sr[sel] += self._sr(ai, need[sel], o2, t2 - a2)
                self.gcb[ai], self.otb[ai] = g2 - a2, o2 - (t2 - a2)
                self.gc_drawn[ai] += a2
                gc[sel] += a2
                left[sel] -= t2
                more = left[sel] > 0
                ai, sel = ai[more], sel[more]
            g, o, drawn = self.gcb[idx], self.otb[idx], self.gc_drawn[idx]
        end = (g + o == 0) | (drawn >= self.made_gc[idx])
        if end.any():
            self._make_bag(idx[end])
        self.gc_src[src][idx] += gc
        hit = gc.nonzero()[0]
        if hit.size:
            self._god_chances(idx[hit], f[hit], gc[hit], depth)
        if self.trig and depth < _MAX_DEPTH:
            ni = need.nonzero()[0]  # a trigger can fire only where a card can react
            if ni.size:
                chips = np.empty((ni.size, 2), np.int64)
                chips[:, 0] = sr[ni]
                chips[:, 1] = n[ni] - gc[ni] - sr[ni]
                self._triggers(idx[ni], f[ni], chips, depth)

    def _sr(self, idx: npt.NDArray[np.int64], need: npt.NDArray[np.bool_], o: npt.NDArray[np.int64],
            t: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """SR chips among ``t`` other chips drawn in games ``idx`` (``o`` others in the bag before):
        sampled where ``need``, from the chips not seen drawn; elsewhere counted unseen (0 returned)."""
        sr = np.zeros(idx.size, np.int64)
        ni = need.nonzero()[0]
        if ni.size < idx.size:
            mi = (~need).nonzero()[0]
            self.unseen[idx[mi]] += t[mi]
        if ni.size:
            gi = idx[ni]
            s0 = self.srb[gi]
            x = self._hyper(s0, o[ni] + self.unseen[gi] - s0, t[ni], True)
            self.srb[gi] = s0 - x
            sr[ni] = x
        return sr

    def _triggers(self, idx: npt.NDArray[np.int64], f: npt.NDArray[np.int64], chips: npt.NDArray[np.int64],
                  depth: int) -> None:
        """Chip triggers after a session: ``chips`` (k, 2) SR and N chips drawn by slayers ``f``;
        the navi's and the round's event's ``on_sr`` / ``on_n`` effects, as one effect."""
        d = self.d
        ev = self.cur_ev[idx]
        on = (self.ev_kinds[ev] | self.navi_kinds[self.navi_f[f]]) & (chips > 0)  # (k, 2): a trigger fires
        hit = on.any(axis=1).nonzero()[0]
        if hit.size == 0:
            return
        idx, f, chips, ev = idx[hit], f[hit], chips[hit], ev[hit]
        mult = np.where(d.event_trigger_pull[ev], chips, chips > 0)
        icons = np.einsum("kj,kjn->nk", mult, d.event_trigger[ev])
        if not self.cfg.expert:
            nv = self.navi_f[f]
            mult = np.where(d.navi_trigger_pull[nv], chips, chips > 0)
            icons += np.einsum("kj,kjn->nk", mult, d.navi_trigger[nv])
        self._apply(idx, f, icons, _TRIGGER, depth + 1)

    def _god_chances(self, idx: npt.NDArray[np.int64], f: npt.NDArray[np.int64], gc: npt.NDArray[np.int64],
                     depth: int) -> None:
        """Resolve ``gc`` God Chances of slayers ``f`` in games ``idx``; Overdrive effects after them."""
        self.god_chances[idx] += gc
        overdrive = not self.last_dance and not self.cfg.expert
        od = np.zeros(idx.size, np.int64)
        for j in range(int(gc.max(initial=0))):
            si = ((gc > j) & self.alive[idx]).nonzero()[0]
            if si.size == 0:
                break
            fi = f[si]
            card = np.minimum((self.u_card.uniform(idx[si]) * self.C).astype(np.int64), self.C - 1)
            own = self.owned[fi] | np.left_shift(1, card)
            self.owned[fi] = own
            if overdrive:
                od[si] += card == self.navi_char[fi]
            done = own == self.full
            if done.any() and (not self.last_dance or self.cfg.last_dance_consolete):  # コンスリート: the game ends
                dg = idx[si[done]]
                self.win[dg, fi[done] - dg * self.P] = 1.0
                if not self.last_dance:  # completing in the ラストダンス wins, but is not a round's コンスリート
                    self.consolete_round[dg] = self.round + 1
                self.alive[dg] = False
        if overdrive and depth < _MAX_DEPTH:
            om = ((od > 0) & self.alive[idx]).nonzero()[0]
            if om.size:
                fo = f[om]
                if self.navi_round_any:  # overdrive_round: tables until the round ends, before the effect
                    nv = self.navi_f[fo]
                    self._put_round(idx[om], self.d.navi_round[nv], self.d.navi_bag[nv])
                self._apply(idx[om], fo, self.navi_od_T[:, self.navi_f[fo]] * od[om], _OVERDRIVE, depth + 1)

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
        self.ahealth[idx, ln] = self.d.boss_health[card]

    def _attack(self, idx: npt.NDArray[np.int64], f: npt.NDArray[np.int64], kind: int, depth: int) -> None:
        keep = self.alive[idx] & (self.area_len[idx] > 0)
        if not keep.all():
            idx, f = idx[keep], f[keep]
        if idx.size == 0:
            return
        slot = self._target(idx, f - idx * self.P, kind) if self.choose else np.zeros(idx.size, np.int64)
        roll = np.minimum((self.u_dice.uniform(idx) * 6).astype(np.int64), 5) + 1
        dmg = roll * 2 if kind == 2 else roll
        health = self.ahealth[idx, slot]
        removed = np.minimum(dmg, health)
        cap = removed >= health
        pulls = removed
        if kind == 1:
            six = roll == 6
            cap |= six
            pulls = np.where(six, 6, removed)
        self.ahealth[idx, slot] = health - removed
        if cap.any():
            ci, cs = idx[cap], slot[cap]
            self.owner[ci, self.area[ci, cs]] = f[cap] - ci * self.P
            self.nboss[f[cap]] += 1
            if cs.any():  # close up the area behind the captured slot
                cols = np.arange(self.B)[None, :]
                src = cols + (cols >= cs[:, None])
                self.area[ci] = np.take_along_axis(np.concatenate([self.area[ci], np.full((ci.size, 1), -1)], axis=1),
                                                   src, axis=1)
                self.ahealth[ci, : self.B] = np.take_along_axis(self.ahealth[ci], src, axis=1)
            else:
                self.area[ci, :-1] = self.area[ci, 1:]
                self.area[ci, -1] = -1
                self.ahealth[ci, :-1] = self.ahealth[ci, 1:]
            self.area_len[ci] -= 1
            if self.cfg.boss_refill:
                self._reveal(ci[self.area_len[ci] == 0])
        self._session(idx, f, pulls, _BOSS, depth)

    def _target(self, idx: npt.NDArray[np.int64], seat: npt.NDArray[np.int64], kind: int) -> npt.NDArray[np.int64]:
        """Area slot each attacker (``seat`` in games ``idx``, area not empty) hits with an attack
        of ``kind``: the most valued by its policy (first on ties); uniform for ``random``."""
        L = int(self.area_len[idx].max())
        if L == 1:
            return np.zeros(idx.size, np.int64)
        v = self.tval[seat[:, None], kind, self.ahealth[idx, :L]]
        rs = np.nonzero(self.rand_seat[seat])[0]
        if rs.size:
            v[rs] = self.rng_choice.random((rs.size, L))
        v[np.arange(L)[None, :] >= self.area_len[idx][:, None]] = -np.inf
        return np.argmax(v, axis=1)

    def _vhealth(self, s: int) -> npt.NDArray[np.int64]:
        """Health of the raid boss seat ``s`` values its attacks against, per game (0: none): the
        first one, or (boss_target "choose") the one it would hit with a normal attack."""
        if not self.choose:
            return self.ahealth[:, 0]
        L = max(int(self.area_len.max()), 1)
        h = self.ahealth[:, :L]
        v = np.where(np.arange(L)[None, :] < self.area_len[:, None], self.tval[s, 0][h], -np.inf)
        return h[self.rows, np.argmax(v, axis=1)]

    def _quest(self, idx: npt.NDArray[np.int64], f: npt.NDArray[np.int64], steps: npt.NDArray[np.int64],
               depth: int) -> None:
        """👣 ``steps`` (> 0) for slayers ``f`` in games ``idx`` (all alive)."""
        pos, laps = self.qpos[f], self.laps[f]
        if steps.max() <= _QMAX:
            t = self.qtab[:, pos * (_QMAX + 1) + steps]
            npos, nlaps, pulls, money, rate = t[0], laps + t[1], t[2] + laps * t[3], t[4], t[5]
        else:  # long chained moves (Overdrive multiples): step by step
            npos, nlaps, pulls, money, rate = _quest_vec(self.d, pos, laps, steps)
        self.qpos[f], self.laps[f] = npos, nlaps
        self.money[f] += money
        self.rate[f] = np.minimum(self.rate[f] + rate, self.d.rate_length)
        self._session(idx, f, pulls, _QUEST, depth)

    def _apply(self, idx: npt.NDArray[np.int64], f: npt.NDArray[np.int64], icons: npt.NDArray[np.int64],
               src: int, depth: int = 0, checked: bool = False) -> None:
        """Slayers ``f`` in games ``idx`` gain the effects ``icons`` (N_ICONS, len(idx)), in :class:`Icon` order.

        ``checked``: the caller already kept only live games and non-empty effects."""
        if not checked:
            keep = self.alive[idx] & icons.any(axis=0)
            if not keep.all():
                idx, f, icons = idx[keep], f[keep], icons[:, keep]
        if idx.size == 0:
            return
        has = icons.any(axis=1).tolist()  # icons present in some row: the others are skipped
        if has[Icon.MONEY]:
            col = icons[Icon.MONEY]
            nz = col.nonzero()[0]
            self.money[f[nz]] += col[nz]
        if has[Icon.RATE]:
            col = icons[Icon.RATE]
            nz = col.nonzero()[0]
            fr = f[nz]
            self.rate[fr] = np.minimum(self.rate[fr] + col[nz], self.d.rate_length)
        if has[Icon.BOSS_APPEAR]:
            col = icons[Icon.BOSS_APPEAR]
            nz = col.nonzero()[0]
            for j in range(int(col.max())):
                self._reveal(idx[nz[col[nz] > j]])
        if has[Icon.QUEST]:
            col = icons[Icon.QUEST]
            nz = col.nonzero()[0]
            self._quest(idx[nz], f[nz], col[nz], depth)
        for kind, ic in enumerate((Icon.ATTACK, Icon.ATTACK_CRITICAL, Icon.ATTACK_DOUBLE)):
            if has[ic]:
                col = icons[ic]
                nz = col.nonzero()[0]
                c = col[nz]
                for j in range(int(c.max())):
                    sel = nz[c > j]
                    self._attack(idx[sel], f[sel], kind, depth)
        if has[Icon.PULLS]:
            self._session(idx, f, icons[Icon.PULLS], src, depth)

    # -- phases ------------------------------------------------------------
    def seat(self, k: int) -> npt.NDArray[np.int64]:
        """Seat acting ``k``-th in turn order (from the start slayer, seat order)."""
        if self._seats is None:  # cached until the start slayer changes
            self._seats = [np.where(self.start + j >= self.P, self.start + j - self.P, self.start + j)
                           for j in range(self.P)]
        return self._seats[k]

    def _each_seat(self, table_T: npt.NDArray[np.int64], which: npt.NDArray[np.int64], src: int,
                   mask: list[npt.NDArray[np.bool_]] | None = None) -> None:
        """Every slayer in turn order (``mask[k]``: games where the ``k``-th one acts) gains the
        effect ``table_T[:, which[f]]`` (``which`` flat by slayer)."""
        nonempty = self.any_T[id(table_T)]
        for k in range(self.P):
            f = self.rows * self.P + self.seat(k)
            w = which[f]
            ok = self.alive & nonempty[w]
            if mask is not None:
                ok &= mask[k]
            idx = np.nonzero(ok)[0]
            self._apply(idx, f[idx], table_T[:, w[idx]], src, checked=True)

    def event(self, ev: npt.NDArray[np.int64]) -> None:
        d = self.d
        bag = d.event_bag[ev]
        has = bag[:, 0] >= 0
        self.cfg_gc = np.where(has, bag[:, 0], d.bag[0])
        self.cfg_ot = np.where(has, bag[:, 1] + bag[:, 2], d.bag[1] + d.bag[2])
        self.cfg_sr = np.where(has, bag[:, 1], d.bag[1])
        self.cur_ev = ev
        self.rid, self.sid = d.event_round[ev, 0], d.event_round[ev, 1]
        if "paid_plan" in self.cfg.policies:
            ids = np.array([self.plan_bags.index(tuple(b)) if b[0] >= 0 else 0 for b in d.event_bag.tolist()])
            self.plan_id = ids[ev]
        self._make_bag(np.nonzero(self.alive & (has | (self.round == 0)))[0])
        self._each_seat(self.event_T, np.repeat(ev, self.P), _EVENT)

    def weekday(self) -> None:
        G, P, A = self.G, self.P, self.A
        # deal: the first P * HAND_SIZE cards of a shuffled deck (partial Fisher-Yates)
        deck = np.tile(np.arange(A), (G, 1))
        flat, rowa = deck.reshape(-1), self.rows * A
        for i in range(P * HAND_SIZE):
            j = rowa + self.rng_deal.integers(i, A, G)
            top = deck[:, i].copy()
            deck[:, i] = flat[j]
            flat[j] = top
        # hands[h]: hand h, held by seat (h + turn) % P; its cards in the first HAND_SIZE - turn
        # slots, in dealt order (a played card's slot is closed up, keeping the order)
        hands = np.ascontiguousarray(deck[:, : P * HAND_SIZE].reshape(G, P, HAND_SIZE).transpose(1, 0, 2))
        if not self.cfg.expert:
            self._each_seat(self.navi_wd_T, self.navi_f, _NAVI)
        ar = np.arange(HAND_SIZE)
        for turn in range(N_TURNS):
            if not self.alive.any():
                return
            nv = HAND_SIZE - turn
            code = np.empty((G, P), np.int64)
            for s in range(P):
                h = (s - turn) % P
                hs = hands[h, :, :nv]
                code[:, s], slot = choose_play(self, s, hs)
                if nv > 1:
                    shift = ar[None, : nv - 1] + (ar[None, : nv - 1] >= slot[:, None])
                    hands[h, :, : nv - 1] = np.take_along_axis(hs, shift, axis=1)
            if self.boss_round_any and self.round_code[code].any():
                self._boss_round(code)
            # ④ スタートスレイヤー changes, in the current turn order (the last one wins)
            ss = self.code_ss[code]
            if ss.any():
                new_start = self.start.copy()
                for k in range(P):
                    p = self.seat(k)
                    hit = ss[self.rows, p]
                    new_start[hit] = p[hit]
                self.start = np.where(self.alive, new_start, self.start)
                self._seats = None
            if self.played is not None:
                face_up = self.alive[:, None] & (code < 2 * A)
                gp, sp = np.nonzero(face_up)
                self.played[gp, sp, code[gp, sp] // 2] = True
            gb, sb = np.nonzero(code >= 2 * A)
            if gb.size:
                if self.cfg.boss_use == "once":
                    self.used[gb, code[gb, sb] - 2 * A] = True
                    self.nboss[gb * P + sb] -= 1
                else:
                    self.flip[gb, code[gb, sb] - 2 * A] = True
            # ⑤ resolve: boss cards that act first, then everyone in turn order
            first = self.code_first[code]
            code_f = code.reshape(-1)
            if first.any():
                fk = [first[self.rows, self.seat(k)] for k in range(P)]
                self._each_seat(self.eff_T, code_f, _WEEKDAY, fk)
                self._each_seat(self.eff_T, code_f, _WEEKDAY, [~m for m in fk])
            else:
                self._each_seat(self.eff_T, code_f, _WEEKDAY)

    def _boss_round(self, code: npt.NDArray[np.int64]) -> None:
        """Round-scoped effects of the boss cards used this turn (③'), in turn order (the last
        one wins): the rate set, the Saturday table, the bag (remade at once if it changes)."""
        d, A = self.d, self.A
        for k in range(self.P):
            c = code[self.rows, self.seat(k)]
            gi = np.nonzero(self.alive & (c >= 2 * A))[0]
            if gi.size == 0:
                continue
            b = c[gi] - 2 * A
            self._put_round(gi, d.boss_round[b], d.boss_bag[b])

    def _put_round(self, gi: npt.NDArray[np.int64], r: npt.NDArray[np.int64], bg: npt.NDArray[np.int64]) -> None:
        """Put a round-scoped effect in force in games ``gi``: rate set ``r[:, 0]``, Saturday
        table ``r[:, 1]`` and bag ``bg`` (remade at once if it differs from the bag in force);
        ``-1``: that table unchanged."""
        m = r[:, 0] >= 0
        self.rid[gi[m]] = r[m, 0]
        m = r[:, 1] >= 0
        self.sid[gi[m]] = r[m, 1]
        m = bg[:, 0] >= 0
        if m.any():
            gm, bg = gi[m], bg[m]
            ch = (self.cfg_gc[gm] != bg[:, 0]) | (self.cfg_sr[gm] != bg[:, 1]) | (self.cfg_ot[gm] != bg[:, 1] + bg[:, 2])
            self.cfg_gc[gm], self.cfg_sr[gm], self.cfg_ot[gm] = bg[:, 0], bg[:, 1], bg[:, 1] + bg[:, 2]
            if self.plan_id is not None:
                self.plan_id[gm] = [self.plan_bags.index(tuple(x)) for x in bg.tolist()]
            self._make_bag(gm[ch])

    def bosses_face_down(self) -> None:
        """End of the round (boss_use "round"): boss cards used in it are turned face down."""
        if self.flip.any():
            self.used |= self.flip
            self.flip[:] = False
            usable = ~self.used
            self.nboss = np.stack([((self.owner == s) & usable).sum(axis=1) for s in range(self.P)], axis=1).reshape(-1)

    def saturday(self) -> None:
        d, G, P = self.d, self.G, self.P
        rate = self.rate.reshape(G, P)
        top = rate.max(axis=1)
        lead = rate == top[:, None]
        per = self.sat_sets[self.sid, d.rate_columns[top], lead.sum(axis=1) - 1]
        for k in range(P):
            p = self.seat(k)
            idx = np.nonzero(self.alive & lead[self.rows, p])[0]
            self._session(idx, idx * P + p[idx], per[idx], _SATURDAY)

    def sunday(self) -> None:
        G, P = self.G, self.P
        passes = np.zeros(G, np.int64)
        k = 0
        last = self.round == N_ROUNDS - 1
        while (self.alive & (passes < P)).any() and k < _MAX_SUNDAY * P:
            p = self.seat(k % P)
            f = self.rows * P + p
            act = self.alive & (passes < P)
            mon = self.money[f]
            buy = act & (mon >= self.minc[self.rid])
            for s, pol in enumerate(self.cfg.policies):
                if pol == "money_then_paid" and not last:
                    buy &= (p != s) | (mon >= SAVE_UNTIL)
            capped = np.minimum(mon, self.pp.shape[1] - 1)
            n, cost = self.pp[self.rid, capped], self.pc[self.rid, capped]
            for s, pol in enumerate(self.cfg.policies):
                if pol == "paid_plan":  # one bundle per turn, from the per-purchase plan
                    gi = np.nonzero(act & (p == s))[0]
                    drawn = self.made_tot[gi] - self.gcb[gi] - self.otb[gi]
                    c = self.plan_cls[self.bag_plan[gi], drawn, self.gc_drawn[gi]]
                    a = self.plan_act[self.bag_plan[gi], np.minimum(mon[gi], PLAN_MAX_MONEY), c]
                    # a bag state the plan has no entry for, or other rates this round: buy as the others do
                    planned = (c >= 0) & (self.rid[gi] == 0)
                    gp, ap = gi[planned], a[planned]
                    buy[gp] = ap >= 0
                    n[gp] = self.rate_pulls[np.maximum(ap, 0)]
                    cost[gp] = self.rate_cost[np.maximum(ap, 0)]
            passes = np.where(buy, 0, passes + act)
            bi = np.nonzero(buy)[0]
            self.money[f[bi]] -= cost[bi]
            self._session(bi, f[bi], n[bi], _PAID)
            k += 1

    def ur(self) -> npt.NDArray[np.int64]:
        """UR cards per slayer, (G, P)."""
        return ((self.owned[:, None] >> np.arange(self.C)) & 1).sum(axis=1).reshape(self.G, self.P)

    def last_dance_phase(self) -> None:
        G, P = self.G, self.P
        self.last_dance = True
        firsts = np.zeros((G, P), np.int64)
        bosses = np.stack([(self.owner == s).sum(axis=1) for s in range(P)], axis=1)
        for arr in (self.laps.reshape(G, P), bosses, self.rate.reshape(G, P)):
            top = arr.max(axis=1, keepdims=True)
            firsts += (arr == top) if self.cfg.last_dance_zero_first else (arr == top) & (top > 0)
        self.ld_chances = np.where(self.alive, firsts.sum(axis=1), 0)
        firsts_f = firsts.reshape(-1)
        for k in range(P):
            idx = np.nonzero(self.alive)[0]
            f = idx * P + self.seat(k)[idx]
            self._god_chances(idx, f, firsts_f[f], _MAX_DEPTH)

    def play(self, events: npt.NDArray[np.int64]) -> dict[str, Any]:
        for r in range(N_ROUNDS):
            self.round = r
            if not self.alive.any():
                break
            self.event(events[:, r])
            self.weekday()
            self.bosses_face_down()
            self.saturday()
            self.sunday()
        return self.end()

    def end(self) -> dict[str, Any]:
        """The ラストダンス and the winners (most UR cards) of the games still going."""
        ld = self.alive.copy()
        ur_before = self.ur()
        leaders_before = ur_before == ur_before.max(axis=1, keepdims=True)
        self.last_dance_phase()
        ur = self.ur()
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
    w = row_permutations(G, wk.size, rng=rng)[:, :2]
    out[:, 1:3] = wk[w]
    out[:, 3] = cl[rng.integers(0, cl.size, G)]
    return out


@validate_params(params=CFG, n_games=Int(1, MAX_GAMES), held=Bool(), rng=Rng())
def simulate(params: GachaGameParams, n_games: int, *, rng: Any = None, held: bool = False
             ) -> dict[str, npt.NDArray[Any]]:
    """Play ``n_games`` whole games of ``params``: every game's common entry point.

    The same function as :func:`simulate_games` under the common name (the same random
    streams: identical arrays for the same ``rng``).

    Parameters
    ----------
    params : GachaGameParams
        The set-up (``GachaGameParams()`` or :func:`make_config`).
    n_games : int
        Games, 1..:data:`MAX_GAMES`.
    rng : int, SeedSequence, Generator or None, keyword-only, default None
        Randomness, normalized by ``np.random.default_rng``.
    held : bool, keyword-only, default False
        Also return ``boss_owner`` and ``played`` (see :func:`simulate_games`).

    Returns
    -------
    dict of ndarray, axis 0 = game
        As :func:`simulate_games`.

    Raises
    ------
    ParamError, ParamTypeError
        As :func:`simulate_games`.
    """
    return _simulate_games(params, n_games, rng=rng, held=held)


@validate_params(cfg=CFG, n_games=Int(1, MAX_GAMES), held=Bool(), rng=Rng())
def simulate_games(cfg: GameConfig, n_games: int, *, rng: Any = None, held: bool = False) -> dict[str, npt.NDArray[Any]]:
    """Play ``n_games`` whole games (vectorized across games, in chunks).

    Parameters
    ----------
    cfg : GameConfig
        From :func:`make_config`.
    n_games : int
        Games, 1..:data:`MAX_GAMES`.
    rng : int, SeedSequence, Generator or None, keyword-only
        Randomness, normalized by ``np.random.default_rng``.
    held : bool, default False, keyword-only
        Also return ``boss_owner`` (n, n_bosses) int: seat holding each boss card at the end
        (-1: nobody), and ``played`` (n, P, n_action_cards) bool: the slayer played the card
        face up at least once (a card id is a row of ``cfg.data.action_names``).

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
    gen = rng
    parts: list[dict[str, Any]] = []
    for start, stop in chunk_spans(n_games, CHUNK_SIZE):
        G = stop - start
        b = _Batch(cfg, G, gen, held)
        ev = _events(cfg.data, G, b.streams(_S_EVENTS))
        res = b.play(ev)
        parts.append(dict(win=b.win, ur=res["ur"], navi=b.navi, consolete_round=b.consolete_round,
                          last_dance=res["ld"], ld_decides=res["decides"], pulls=b.pulls.T,
                          god_chances=b.god_chances, bosses=(b.owner >= 0).sum(axis=1),
                          ld_god_chances=b.ld_chances, gc_by_source=b.gc_src.T))
        if held:
            parts[-1].update(boss_owner=b.owner, played=b.played)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


_simulate_games = simulate_games.__wrapped__
