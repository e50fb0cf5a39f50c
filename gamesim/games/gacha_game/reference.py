"""Plain-Python reference of whole games (one game at a time, lists and a float source).

An independent formulation of the rules the vectorized simulator (:mod:`.sim`) implements:
chips are drawn one at a time, God Chance cards one at a time, the quest track through
:func:`.rules.quest_move`, the boss attack through :func:`.rules.attack_result`, the
Saturday pulls through :func:`.rules.saturday_pulls_of` (its unchecked form), the ラストダンス through
:func:`.rules.last_dance_chances`. The tests compare both with two-sample tests
(``tests.conftest.assert_same_mean``); the benchmark runs it with ``random.Random().random``
as the plain-Python baseline.

Randomness comes from ``rand``, a function returning floats uniform on [0, 1) (a
``numpy.random.Generator.random`` in the package and tests; the benchmark passes the
``random`` module's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from gamesim.core.validate import Int, ParamTypeError, Rng, Unchecked, validate_params

from .data import Icon
from .policies import (LOOKAHEAD_CAPTURE, PLAN_MAX_MONEY, QUEST_TABLE_STEPS, SAVE_UNTIL, WEIGHTS, effect_value,
                       paid_plan_tables, target_values)
from .rules import (CFG, HAND_SIZE, N_ROUNDS, N_TURNS, _attack_result, _last_dance_chances, _quest_move, attack_tables,
                    paid_tables, saturday_pulls_of)
from .config import SOURCES, GameConfig

__all__ = ["reference_game", "reference_games"]

_SRC = {s: i for i, s in enumerate(SOURCES)}
_MAX_DEPTH = 30
_N_ICONS = len(Icon)  # an enum's len() is a Python call: looked up once, not per effect
_MAX_SUNDAY = 200


class _Game:
    def __init__(self, cfg: GameConfig, rand: Callable[[], float]):
        d = self.d = cfg.data
        self.cfg, self.rand = cfg, rand
        P = self.P = cfg.n_players
        self.C = d.n_characters
        self.alive, self.round, self.last_dance = True, 0, False
        self.ev = 0  # the round's event card
        self.has_trig = d.has_triggers
        # the on_sr / on_n cards as lists (indexing numpy arrays item by item was a fifth of a game)
        self.ev_trig = list(zip(d.event_trigger.tolist(), d.event_trigger_pull.tolist()))
        self.navi_trig = list(zip(d.navi_trigger.tolist(), d.navi_trigger_pull.tolist()))
        self.bag_cfg = list(d.bag)
        self.inbag, self.made_gc, self.gc_drawn, self.made_total = [0, 0, 0], 0, 0, 0
        self.owned = [[False] * self.C for _ in range(P)]
        self.money = [d.start_money] * P
        self.rate, self.qpos, self.laps = [0] * P, [0] * P, [0] * P
        self.start = 0
        if cfg.expert:
            self.navi = [-1] * P
        else:
            ids = list(range(len(d.navi_names)))
            if cfg.navi_seat1 is not None:
                ids.remove(cfg.navi_seat1)
                self._shuffle(ids)
                ids = [cfg.navi_seat1] + ids
            else:
                self._shuffle(ids)
            self.navi = ids[:P]
        self.owner = [-1] * len(d.boss_names)
        self.used = [False] * len(d.boss_names)
        self.flip: set[int] = set()
        deck = [int(b) for b in d.boss_deck]
        self._shuffle(deck)
        self.deck = deck + [int(b) for b in d.boss_bottom]
        self.area: list[int] = []
        self.ahealth: list[int] = []  # health of each boss in the area
        self.reveal()
        e, p = attack_tables(int(max(d.boss_health.max(), 1)))
        self.e_pulls, self.p_cap = e.tolist(), p.tolist()
        self.tval = [target_values(pol, e, p).tolist() for pol in cfg.policies]
        self.rate_sets = [(pp.tolist(), pc.tolist(), min(c for c, _ in rs))
                          for rs in d.paid_rate_sets for pp, pc in [paid_tables(rs, 400)]]
        self.d_sat = [replace(d, saturday=t) for t in d.saturday_sets]  # a GameData per Saturday table
        self.set_round(0, 0)
        self.action = d.action_effects.tolist()
        self.boss_eff = d.boss_effects.tolist()
        self.pulls = [0] * len(SOURCES)
        self.god_chances = 0
        self.gc_src = [0] * len(SOURCES)
        self.win = [0.0] * P
        self.consolete_round = 0

    def set_round(self, rid: int, sid: int) -> None:
        """Put 課金 rate set ``rid`` and Saturday table ``sid`` in force (0: the defaults)."""
        self.rid, self.sid = rid, sid
        self.paid_pulls, self.paid_cost, self.min_cost = self.rate_sets[rid]

    def put_round(self, r: list[int], bag: list[int]) -> None:
        """A round-scoped effect (boss card, navi Overdrive): rate set ``r[0]``, Saturday table
        ``r[1]`` (-1: unchanged) and ``bag`` (``-1`` row: unchanged; remade at once if it differs)."""
        self.set_round(r[0] if r[0] >= 0 else self.rid, r[1] if r[1] >= 0 else self.sid)
        if bag[0] >= 0 and bag != self.bag_cfg:
            self.bag_cfg = bag
            self.make_bag()

    def _int(self, n: int) -> int:
        return min(int(self.rand() * n), n - 1)

    def _shuffle(self, xs: list[Any]) -> None:
        for i in range(len(xs) - 1, 0, -1):
            j = self._int(i + 1)
            xs[i], xs[j] = xs[j], xs[i]

    # bag
    def make_bag(self) -> None:
        bag = list(self.bag_cfg)
        if self.cfg.doubtful_k is not None:
            k = self.cfg.doubtful_k[self._int(len(self.cfg.doubtful_k))]
            for _ in range(k):
                bag[self._draw_index(bag)] -= 1
        self.inbag, self.made_gc, self.gc_drawn, self.made_total = bag, self.bag_cfg[0], 0, sum(bag)
        self.made_cfg = tuple(self.bag_cfg)  # the plan of paid_plan is the one for the bag in play

    def _draw_index(self, bag: list[int]) -> int:
        u = self._int(sum(bag))
        return 0 if u < bag[0] else (1 if u < bag[0] + bag[1] else 2)

    def session(self, p: int, n: int, src: str, depth: int = 0) -> None:
        if not self.alive or n <= 0:
            return
        self.pulls[_SRC[src]] += n
        chips = [0, 0, 0]  # God Chance, SR, N
        for _ in range(n):
            if sum(self.inbag) == 0:
                self.make_bag()
            i = self._draw_index(self.inbag)
            self.inbag[i] -= 1
            chips[i] += 1
            if i == 0:
                self.gc_drawn += 1
        gc = chips[0]
        if sum(self.inbag) == 0 or self.gc_drawn >= self.made_gc:
            self.make_bag()
        self.gc_src[_SRC[src]] += gc
        self.god_chance(p, gc, depth)
        if self.has_trig and self.alive and depth < _MAX_DEPTH and (chips[1] or chips[2]):
            self.triggers(p, chips[1], chips[2], depth)

    def triggers(self, p: int, sr: int, n: int, depth: int) -> None:
        """The navi's and the round's event's ``on_sr`` / ``on_n`` effects, as one effect."""
        icons = [0] * _N_ICONS
        cards = [self.ev_trig[self.ev]]
        if not self.cfg.expert:
            cards.append(self.navi_trig[self.navi[p]])
        for eff, per_pull in cards:
            for j, count in enumerate((sr, n)):
                times = count if per_pull[j] else int(count > 0)
                if times:
                    row = eff[j]
                    for k in range(_N_ICONS):
                        icons[k] += times * row[k]
        if any(icons):
            self.apply(p, icons, "trigger", depth + 1)

    def god_chance(self, p: int, gc: int, depth: int) -> None:
        if not self.alive:  # the game ended (コンスリート): nothing left to resolve or count
            return
        od = 0
        self.god_chances += gc
        for _ in range(gc):
            if not self.alive:
                return
            card = self._int(self.C)
            self.owned[p][card] = True
            if not self.last_dance and not self.cfg.expert and card == self.d.navi_character[self.navi[p]]:
                od += 1
            if all(self.owned[p]) and (not self.last_dance or self.cfg.last_dance_consolete):
                self.win[p] = 1.0
                if not self.last_dance:
                    self.consolete_round = self.round + 1
                self.alive = False
                return
        if od and depth < _MAX_DEPTH:
            nv = self.navi[p]
            if self.d.navi_round[nv].max() >= 0 or self.d.navi_bag[nv][0] >= 0:  # overdrive_round
                self.put_round(self.d.navi_round[nv].tolist(), self.d.navi_bag[nv].tolist())
            self.apply(p, [v * od for v in self.d.navi_overdrive[self.navi[p]].tolist()], "overdrive", depth + 1)

    # effects
    def reveal(self) -> None:
        if self.deck:
            self.area.append(self.deck.pop(0))
            self.ahealth.append(int(self.d.boss_health[self.area[-1]]))

    def target(self, p: int, kind: int) -> int:
        """Area slot slayer ``p`` hits with an attack of ``kind`` (boss_target)."""
        if self.cfg.boss_target == "first" or len(self.area) == 1:
            return 0
        if self.cfg.policies[p] == "random":
            return self._int(len(self.area))
        vals = self.tval[p][kind]
        best = 0
        for i, h in enumerate(self.ahealth):
            if vals[h] > vals[self.ahealth[best]]:
                best = i
        return best

    def vhealth(self, p: int) -> int:
        """Health of the boss slayer ``p`` values its attacks against (0: no boss)."""
        if not self.area:
            return 0
        if self.cfg.policies[p] == "random":  # values nothing by health; draws no target
            return self.ahealth[0]
        return self.ahealth[self.target(p, 0)]

    def attack(self, p: int, kind: int, depth: int) -> None:
        if not self.alive or not self.area:
            return
        t = self.target(p, kind)
        roll = 1 + self._int(6)
        h = self.ahealth[t]
        pulls, cap = _attack_result(kind, h, roll)
        self.ahealth[t] = h - min(2 * roll if kind == 2 else roll, h)
        if cap:
            self.owner[self.area.pop(t)] = p
            self.ahealth.pop(t)
            if not self.area and self.cfg.boss_refill:
                self.reveal()
        self.session(p, pulls, "boss", depth)

    def apply(self, p: int, icons: list[int], src: str, depth: int = 0) -> None:
        if not self.alive:
            return
        self.money[p] += icons[Icon.MONEY]
        self.rate[p] = min(self.rate[p] + icons[Icon.RATE], self.d.rate_length)
        for _ in range(icons[Icon.BOSS_APPEAR]):
            self.reveal()
        if icons[Icon.QUEST] and self.alive:
            q = _quest_move(self.d, self.qpos[p], self.laps[p], icons[Icon.QUEST])
            self.qpos[p], self.laps[p] = q.pos, q.laps
            self.money[p] += q.money
            self.rate[p] = min(self.rate[p] + q.rate, self.d.rate_length)
            self.session(p, q.pulls, "quest", depth)
        for kind, ic in enumerate((Icon.ATTACK, Icon.ATTACK_CRITICAL, Icon.ATTACK_DOUBLE)):
            for _ in range(icons[ic]):
                self.attack(p, kind, depth)
        self.session(p, icons[Icon.PULLS], src, depth)

    def order(self) -> list[int]:
        return [(self.start + k) % self.P for k in range(self.P)]

    def value(self, seat: int, icons: list[int], h: int) -> float:
        """How slayer ``seat`` values an effect, its attacks against a boss of health ``h`` (:meth:`vhealth`)."""
        if self.cfg.policies[seat] == "lookahead":
            return self.lookahead(seat, icons, h)
        return effect_value(WEIGHTS[self.cfg.policies[seat]], icons, h, self.e_pulls, self.p_cap)

    def lookahead(self, s: int, icons: list[int], h: int) -> float:
        """Pulls-equivalent of an effect from the current state (see ``sim._Batch._lookahead``)."""
        v = float(icons[Icon.PULLS])
        k = min(icons[Icon.QUEST], QUEST_TABLE_STEPS)
        if k:
            v += _quest_move(self.d, self.qpos[s], self.laps[s], k).pulls
        # an effect with no money (no rate) changes no paid pulls (no Saturday pulls): the term is 0
        if icons[Icon.MONEY]:
            cap = len(self.paid_pulls) - 1
            v += (self.paid_pulls[min(self.money[s] + icons[Icon.MONEY], cap)]
                  - self.paid_pulls[min(self.money[s], cap)])
        if icons[Icon.RATE]:
            rates = list(self.rate)
            now = saturday_pulls_of(self.d_sat[self.sid], rates)[s]
            rates[s] = min(rates[s] + icons[Icon.RATE], self.d.rate_length)
            v += saturday_pulls_of(self.d_sat[self.sid], rates)[s] - now
        for kind, ic in enumerate((Icon.ATTACK, Icon.ATTACK_CRITICAL, Icon.ATTACK_DOUBLE)):
            if icons[ic]:
                v += icons[ic] * (self.e_pulls[kind][h] + LOOKAHEAD_CAPTURE * self.p_cap[kind][h])
        return v

    # phases
    def event(self, ev: int) -> None:
        self.ev = ev
        self.set_round(*self.d.event_round[ev].tolist())
        bag = self.d.event_bag[ev].tolist()
        self.bag_cfg = bag if bag[0] >= 0 else list(self.d.bag)
        if bag[0] >= 0 or self.round == 0:
            self.make_bag()
        icons = self.d.event_effects[ev].tolist()
        for p in self.order():
            self.apply(p, icons, "event")

    def weekday(self) -> None:
        d, P = self.d, self.P
        deck = list(range(len(d.action_names)))
        self._shuffle(deck)
        hands: list[list[int | None]] = [list(deck[s * HAND_SIZE:(s + 1) * HAND_SIZE]) for s in range(P)]
        if not self.cfg.expert:
            for p in self.order():
                self.apply(p, d.navi_weekday[self.navi[p]].tolist(), "navi")
        for _turn in range(N_TURNS):
            if not self.alive:
                return
            plays: list[tuple[list[int], int, bool, bool]] = []  # icons, boss, first, start_slayer
            for s in range(P):
                hand = hands[s]
                slots = [i for i, c in enumerate(hand) if c is not None]
                usable = [b for b in range(len(self.owner)) if self.owner[b] == s and not self.used[b]]
                if self.cfg.policies[s] == "random":
                    slot = slots[self._int(len(slots))]
                    side = self._int(2)
                    boss = usable[self._int(len(usable))] if usable and self.rand() < 0.5 else -1
                else:
                    best_v, slot, side, worst_v, worst = -1e300, -1, 0, 1e300, -1
                    h = self.vhealth(s)  # the area does not change while a slayer chooses
                    for i in slots:
                        vs = [self.value(s, self.action[hand[i]][0], h), self.value(s, self.action[hand[i]][1], h)]
                        sd = 0 if vs[0] >= vs[1] else 1
                        if vs[sd] > best_v:
                            best_v, slot, side = vs[sd], i, sd
                        if vs[sd] < worst_v:
                            worst_v, worst = vs[sd], i
                    boss, bv = -1, -1e300
                    for b in usable:
                        v = self.value(s, self.boss_eff[b], h)
                        if v > bv:
                            boss, bv = b, v
                    if boss >= 0 and bv > best_v:
                        slot = worst
                    else:
                        boss = -1
                card = hand[slot]
                hand[slot] = None
                if boss >= 0:
                    if self.cfg.boss_use == "once":
                        self.used[boss] = True
                    else:  # face up until the round ends
                        self.flip.add(boss)
                    plays.append((self.boss_eff[boss], boss, bool(d.boss_first[boss]), False))
                else:
                    icons = self.action[card][side]
                    plays.append((icons, -1, False, icons[Icon.START_SLAYER] > 0))
            if self.d.has_boss_round:  # ③' round-scoped effects of the boss cards used, in turn order
                for p in self.order():
                    b = plays[p][1]
                    if b >= 0:
                        self.put_round(self.d.boss_round[b].tolist(), self.d.boss_bag[b].tolist())
            for p in self.order():
                if plays[p][3]:
                    self.start = p
            for group in (True, False):
                for p in self.order():
                    if plays[p][2] == group:
                        self.apply(p, plays[p][0], "weekday")
            hands = [hands[(s - 1) % P] for s in range(P)]

    def bosses_face_down(self) -> None:
        for b in self.flip:  # the round's used boss cards are turned face down
            self.used[b] = True
        self.flip.clear()

    def saturday(self) -> None:
        per = saturday_pulls_of(self.d_sat[self.sid], list(self.rate))
        for p in self.order():
            self.session(p, per[p], "saturday")

    def sunday(self) -> None:
        passes, k = 0, 0
        last = self.round == N_ROUNDS - 1
        while self.alive and passes < self.P and k < _MAX_SUNDAY * self.P:
            p = (self.start + k) % self.P
            mon = self.money[p]
            buy = mon >= self.min_cost
            if self.cfg.policies[p] == "money_then_paid" and not last:
                buy = buy and mon >= SAVE_UNTIL
            m = min(mon, len(self.paid_pulls) - 1)
            n, cost = self.paid_pulls[m], self.paid_cost[m]
            if self.cfg.policies[p] == "paid_plan" and self.rid == 0:  # one bundle, as the plan says
                act, cls = paid_plan_tables(self.made_cfg, self.cfg.doubtful_k, self.d.paid_rates)
                drawn = self.made_total - sum(self.inbag)
                c = int(cls[drawn, self.gc_drawn]) if drawn < cls.shape[0] and self.gc_drawn < cls.shape[1] else -1
                if c >= 0:  # else: a bag state the plan has no entry for: buy as the others do
                    a = int(act[min(mon, PLAN_MAX_MONEY), c])
                    buy = a >= 0
                    cost, n = self.d.paid_rates[a] if buy else (0, 0)
            if buy:
                self.money[p] -= cost
                passes = 0
                self.session(p, n, "paid")
            else:
                passes += 1
            k += 1

    def play(self, events: list[int]) -> dict[str, Any]:
        for r in range(N_ROUNDS):
            self.round = r
            if not self.alive:
                break
            self.event(events[r])
            self.weekday()
            self.bosses_face_down()
            if self.alive:
                self.saturday()
            if self.alive:
                self.sunday()
        return self.end()

    def end(self) -> dict[str, Any]:
        ld = self.alive
        ur0 = [sum(o) for o in self.owned]
        lead0 = [u == max(ur0) for u in ur0]
        decides = False
        ld_chances = 0
        if ld:
            self.last_dance = True
            bosses = [sum(1 for o in self.owner if o == s) for s in range(self.P)]
            ch = _last_dance_chances(self.laps, bosses, self.rate, zero_first=self.cfg.last_dance_zero_first)
            ld_chances = sum(ch)
            for p in self.order():
                self.god_chance(p, ch[p], _MAX_DEPTH)
            if self.alive:
                ur = [sum(o) for o in self.owned]
                top = max(ur)
                k = ur.count(top)
                self.win = [1.0 / k if u == top else 0.0 for u in ur]
            decides = [w > 0 for w in self.win] != lead0
        return dict(win=self.win, ur=[sum(o) for o in self.owned], navi=self.navi,
                    consolete_round=self.consolete_round, last_dance=ld, ld_decides=decides,
                    pulls=self.pulls, god_chances=self.god_chances,
                    bosses=sum(1 for o in self.owner if o >= 0), ld_god_chances=ld_chances,
                    gc_by_source=self.gc_src)


@validate_params(cfg=CFG, rand=Unchecked("a callable returning floats in [0, 1): callable() checked in the body"))
def reference_game(cfg: GameConfig, rand: Callable[[], float]) -> dict[str, Any]:
    """Play one whole game in plain Python.

    Parameters
    ----------
    cfg : GameConfig
        From :func:`.sim.make_config`.
    rand : callable () -> float
        Uniform floats on [0, 1).

    Returns
    -------
    dict
        The keys of :func:`.sim.simulate_games` for one game (lists and scalars).

    Raises
    ------
    ParamTypeError
        If ``cfg`` is not a GameConfig or ``rand`` is not callable.
    """
    if not callable(rand):
        raise ParamTypeError("rand", rand, "a callable returning floats in [0, 1)")
    g = _Game(cfg, rand)
    d = cfg.data
    sd, wk, cl = d.events_of("start_dash").tolist(), d.events_of("weekly").tolist(), d.events_of("climax").tolist()
    ev0 = sd[g._int(len(sd))]
    g._shuffle(wk)
    ev3 = cl[g._int(len(cl))]
    return g.play([ev0, wk[0], wk[1], ev3])


_reference_game = reference_game.__wrapped__


@validate_params(cfg=CFG, n_games=Int(1, 100_000), rng=Rng())
def reference_games(cfg: GameConfig, n_games: int, *, rng: Any = None) -> dict[str, np.ndarray]:
    """Play ``n_games`` games with :func:`reference_game` and stack the results like :func:`.sim.simulate_games`.

    Parameters
    ----------
    cfg : GameConfig
    n_games : int
        1..100_000 (slow: a few hundred games a second).
    rng : int, SeedSequence, Generator or None, keyword-only

    Returns
    -------
    dict of ndarray, axis 0 = game

    Raises
    ------
    ParamError, ParamTypeError
        If ``n_games`` is out of range.
    """
    gen = rng
    buf = gen.random(1 << 16).tolist()
    pos = [0]

    def rand() -> float:
        if pos[0] >= len(buf):
            buf[:] = gen.random(1 << 16).tolist()
            pos[0] = 0
        pos[0] += 1
        return buf[pos[0] - 1]

    rows = [_reference_game(cfg, rand) for _ in range(n_games)]
    return {k: np.array([r[k] for r in rows]) for k in rows[0]}
