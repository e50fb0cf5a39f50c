"""Plain-Python, one-battle-at-a-time reference of dqz (the tests' independent formulation).

Hands are Python lists of card values, the attack deck a list (top = index 0; used
cards are shuffled with ``rng.permutation`` and appended at the bottom), the
strategy stock a list. The party's play is found by brute force over every legal
play with :class:`fractions.Fraction` (:func:`gamesim.games.dqz.exact.enumerate_plays`
style, memoised on the sorted distinct playable values of each hand), then chosen
with the policy rules of :mod:`gamesim.games.dqz.policies`. Slow on purpose: the
vectorized simulator (:mod:`gamesim.games.dqz.sim`) must agree with it statistically,
and the benchmark times it as the plain-Python baseline.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from gamesim.core.lazy import lazy_module
from gamesim.core.registry import ParamError
from gamesim.core.rng import RngLike
from gamesim.core.validate import Int, Rng, Unchecked, validate_params

from .exact import KIND_NONE, _op_perms, variants_for
from .policies import AVOID_FLAG, DMG_OFFSET, KILL_FLAG, DamageRule
from .rules import (
    OPERATORS,
    Monster,
    Skill,
    Strategy,
    Timing,
    _damage_from_value,
    _effective_value,
    _round_half_away,
    _attack_value,
    _exact_value,
    _triggers_multiple,
)
from .config import BattleConfig
from .config import as_monster as _as_monster

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: sweep workers never need it
    pd = lazy_module("pandas")

#: Largest ``n_runs`` of the plain-Python reference.
MAX_REFERENCE_RUNS: int = 1_000_000

__all__ = ["ReferenceParty", "reference_battles", "reference_plays"]

_INOCHI = 1 + int(Strategy.INOCHI_DAIJINI)


@lru_cache(maxsize=1_000_000)
def _expr_value(eff: tuple[int, ...], ops: tuple[str, ...], paren: int | None) -> Fraction | None:
    """Exact value of one expression with Fractions (None for division by zero), memoised."""
    try:
        return _exact_value([Fraction(e) for e in eff], ops, paren=paren)
    except ValueError:
        return None


@lru_cache(maxsize=200_000)
def reference_plays(values: tuple[tuple[int, ...], ...], poison: int, para: int, sleep: int, rule: DamageRule
                    ) -> tuple[tuple[int, tuple[int, ...], int, int, int, int], ...]:
    """Every legal play for playing slots with distinct playable ``values``, in canonical order.

    Returns
    -------
    tuple of (kind, cards, value, damage, triggers, cost)
        Canonical order: variants as :func:`gamesim.games.dqz.exact.variants_for`, card
        tuples lexicographic, operator assignments in ``itertools.permutations`` order.
    """
    n = len(values)
    out = []
    # (exact value as numerator and denominator, strategy used) -> (rounded value, damage, triggers): many
    # plays share a value, and rounding a Fraction was most of a play's cost (the key is two ints: a
    # Fraction's own hash is slower than the rounding)
    scored: dict[tuple[int, int, bool], tuple[int, int, int]] = {}
    for var in variants_for(n):
        jumon = var.kind == 1 + Strategy.JUMON_SETSUYAKU
        used = var.kind != KIND_NONE
        perms = [tuple(OPERATORS[o] for o in p) for p in _op_perms(n, OPERATORS, jumon)]
        for cards in itertools.product(*values):
            eff = [_effective_value(c, i, poison=poison or None, paralysed=None if para < 0 else para,
                                    asleep=None if sleep < 0 else sleep) for i, c in enumerate(cards)]
            paren = None
            if var.kind == 1 + Strategy.GANGAN_IKOUZE:
                eff[var.target] *= 2
            elif var.kind == 1 + Strategy.ORE_NI_MAKASERO:
                eff[0] += 3
            elif var.kind == 1 + Strategy.MINNA_GANBARE:
                paren = var.target
            et, cost = tuple(eff), sum(cards)
            for ops in perms:
                x = _expr_value(et, ops, paren)
                if x is None:
                    continue
                key = (x.numerator, x.denominator, used)
                score = scored.get(key)
                if score is None:
                    v = _round_half_away(x)
                    d = _damage_from_value(x, physical_immune=rule.physical_immune,
                                           spell_resistant=rule.spell_resistant, strategy_used=used,
                                           negative_heals=rule.negative_heals, resist_rounding=rule.resist_rounding)
                    trig = _triggers_multiple(v, rule.multiples, nonpositive=rule.multiple_nonpositive)
                    score = scored[key] = (v, d, int(trig))
                out.append((var.kind, cards, *score, cost))
    return tuple(out)


def _choose(plays: Sequence[tuple[int, tuple[int, ...], int, int, int, int]], policy: str, hp: int
            ) -> dict[int, tuple[int, tuple[int, ...], int, int]]:
    """Per kind: (score, cards, value, damage) of the policy's play with that kind."""
    best1: dict[int, tuple] = {}
    best2: dict[int, tuple] = {}
    killb: dict[int, tuple] = {}
    for kind, cards, v, d, trig, cost in plays:
        k1 = (d, -cost)
        if kind not in best1 or k1 > best1[kind][0]:
            best1[kind] = (k1, cards, v, d, cost)
        if not trig and (kind not in best2 or k1 > best2[kind][0]):
            best2[kind] = (k1, cards, v, d, cost)
        if d >= hp:
            kk = (-cost, d)
            if kind not in killb or kk > killb[kind][0]:
                killb[kind] = (kk, cards, v, d, cost)
    out = {}
    for kind, (_, cards, v, d, cost) in best1.items():
        e1 = ((d + DMG_OFFSET) << 8) | (255 - cost)
        pick = (e1, cards, v, d)
        if policy in ("exact_kill", "avoid_trigger") and kind in killb:
            _, c2, v2, d2, cost2 = killb[kind]
            pick = (KILL_FLAG | ((255 - cost2) << 20) | (d2 + DMG_OFFSET), c2, v2, d2)
        elif policy == "avoid_trigger" and kind in best2:
            _, c2, v2, d2, cost2 = best2[kind]
            pick = (AVOID_FLAG | (((d2 + DMG_OFFSET) << 8) | (255 - cost2)), c2, v2, d2)
        out[kind] = pick
    return out


class ReferenceParty:
    """One party: hands, attack deck, strategy deck/stock/used pile, one battle at a time.

    Parameters
    ----------
    cfg : BattleConfig
    rng : numpy.random.Generator
    """

    def __init__(self, cfg: BattleConfig, rng: np.random.Generator):
        self.cfg = cfg
        self.rng = rng
        cards = [v for v in range(1, 6) for _ in range(cfg.n_per_value)]
        self.deck = [cards[i] for i in rng.permutation(len(cards))]
        self.hands: list[list[int]] = [[] for _ in range(cfg.party_size)]
        self.sdeck = list(cfg.strategy_deck)
        self.sused = [0] * 5
        self.stock: list[int] = []
        self.strategy_used = 0
        self.experience = 0
        self.kansto = False
        self.inn()

    def inn(self) -> None:
        """宿屋: refill to hand_size (hero first), strategy cards back to the deck."""
        for h in self.hands:
            while len(h) < self.cfg.hand_size and self.deck:
                h.append(self.deck.pop(0))
        self.sdeck = list(self.cfg.strategy_deck)
        self.sused = [0] * 5
        self.stock = []

    def _discard_lowest(self, p: int, tod: list[int]) -> None:
        h = self.hands[p]
        if h:
            c = min(h)
            h.remove(c)
            tod.append(c)

    def _skill(self, skill: Skill, mods: dict[str, Any], hp: list[int], tod: list[int]) -> None:
        rng = self.rng
        P = len(self.hands)
        d6 = lambda: int(rng.integers(1, 7))  # noqa: E731
        if skill == Skill.IONAZUN:
            s = d6() + d6()
            if s <= 5:
                for h in self.hands:
                    if s in h:
                        h.remove(s)
                        tod.append(s)
                    else:
                        for _ in range(2):
                            if h:
                                c = min(h)
                                h.remove(c)
                                tod.append(c)
        elif skill == Skill.BEGIRAMA:
            if d6() == 1:
                for p in range(P):
                    self._discard_lowest(p, tod)
        elif skill == Skill.GIRA:
            if d6() == 1:
                self._discard_lowest(0, tod)
        elif skill == Skill.DOKU:
            d = d6()
            mods["poison"] = d if d <= 5 else 0
        elif skill == Skill.MAHI:
            d = d6()
            mods["para"] = d - 1 if d <= P else -1
        elif skill == Skill.RARIHO:
            d = d6()
            mods["sleep"] = d - 1 if d <= P else -1
        elif skill == Skill.SHUCHU:
            alive = [p for p in range(P) if self.hands[p]]
            if alive:
                self._discard_lowest(min(alive, key=lambda p: (len(self.hands[p]), p)), tod)
        elif skill == Skill.TSUKON:
            d = d6()
            mods["tsukon"] = d if d <= 5 else 0
        elif skill == Skill.FUSHIGI_ODORI:
            d = d6()
            if len(self.stock) >= d:
                self.sdeck[self.stock.pop(d - 1)] += 1
        elif skill == Skill.MAHOTON:
            mods["mahoton"] = d6() % 2 == 1
        elif skill == Skill.ZARAKI:
            d = d6()
            mods["zaraki"] = d if d <= 5 else 0
        elif skill == Skill.NAKAMA:
            mods["called"] = True
        elif skill in (Skill.BEHOIMI, Skill.HOIMI):
            healed = hp[0] + (d6() + d6() if skill == Skill.BEHOIMI else d6())
            hp[0] = min(healed, self._max_hp) if self.cfg.heal_cap else healed

    def battle(self, mon: Monster) -> dict[str, Any]:
        """Fight ``mon`` to the end; returns the battle's record."""
        cfg, rng = self.cfg, self.rng
        rule = cfg.rule(mon)
        self._max_hp = mon.hp
        P = cfg.party_size
        hp = [mon.hp]
        pending = {"poison": 0, "para": -1, "sleep": -1, "zaraki": 0, "tsukon": 0, "mahoton": False}
        called = False
        turns = 0
        first_dmg = 0
        total = 0
        won = False
        while any(self.hands) and turns < cfg.max_turns:
            tod: list[int] = []
            now = dict(pending)
            pending = {"poison": 0, "para": -1, "sleep": -1, "zaraki": 0, "tsukon": 0, "mahoton": False}
            now["called"] = False
            for u in mon.skills:
                if u.timing == Timing.PRE:
                    self._skill(u.skill, now, hp, tod)
            called = called or now["called"]
            # who plays
            playing = [p for p in range(P) if any(c != now["zaraki"] for c in self.hands[p])]
            while playing:
                vals = tuple(tuple(sorted({c for c in self.hands[p] if c != now["zaraki"]})) for p in playing)
                para = playing.index(now["para"]) if now["para"] in playing else -1
                sleep = playing.index(now["sleep"]) if now["sleep"] in playing else -1
                plays = reference_plays(vals, now["poison"], para, sleep, rule)
                if any(k == KIND_NONE for k, *_ in plays):
                    break
                playing = playing[:-1]
            chosen = KIND_NONE
            cards: tuple[int, ...] = ()
            value = 0
            dmg = 0
            if playing:
                if cfg.policy == "random":
                    cards, value = self._random_play(playing, vals, now, para, sleep)
                    dmg = _damage_from_value(Fraction(value), physical_immune=rule.physical_immune,
                                             spell_resistant=rule.spell_resistant, strategy_used=False,
                                             negative_heals=rule.negative_heals, resist_rounding="at_end")
                else:
                    per = _choose(plays, cfg.policy, hp[0])
                    none_s = per[KIND_NONE][0]

                    def beats(k: int) -> bool:
                        if k not in per:
                            return False
                        return per[k][0] > none_s or (k == _INOCHI and per[k][0] == none_s)

                    if not now["mahoton"] and (cfg.hero_passes or self.hands[0]):
                        cands = [k for k in range(1, 6) if (k - 1) in self.stock and beats(k)]
                        if cands:
                            chosen = max(cands, key=lambda k: (per[k][0], -k))
                            self.stock.remove(chosen - 1)
                        elif sum(self.sdeck) > 0:
                            u = rng.random() * sum(self.sdeck)
                            acc = 0
                            for kind in range(5):
                                acc += self.sdeck[kind]
                                if u < acc:
                                    break
                            self.sdeck[kind] -= 1
                            if sum(self.sdeck) <= 1:
                                self.sdeck = [a + b for a, b in zip(self.sdeck, self.sused)]
                                self.sused = [0] * 5
                            if beats(1 + kind):
                                chosen = 1 + kind
                            else:
                                self.stock.append(kind)
                        if chosen:
                            self.sused[chosen - 1] += 1
                            self.strategy_used += 1
                    _, cards, value, dmg = per[chosen]
                for p, c in zip(playing, cards):
                    self.hands[p].remove(c)
            if turns == 0:
                first_dmg = dmg
            total += dmg
            hp[0] -= dmg
            turns += 1
            if hp[0] <= 0:
                won = True
            else:
                if playing and _triggers_multiple(value, rule.multiples, nonpositive=rule.multiple_nonpositive):
                    for p in range(P):
                        self._discard_lowest(p, tod)
                if now["tsukon"]:
                    for p, c in zip(playing, cards):
                        if c == now["tsukon"]:
                            self._discard_lowest(p, tod)
                for u in mon.skills:
                    if u.timing == Timing.POST:
                        pend = dict(pending, called=False)
                        self._skill(u.skill, pend, hp, tod)
                        called = called or pend.pop("called")
                        pending = pend
            if chosen == _INOCHI:
                for p, c in zip(playing, cards):
                    self.hands[p].append(c)
            else:
                tod.extend(cards)
            self.deck.extend(tod[i] for i in rng.permutation(len(tod)))
            if won:
                break
        cards_left = sum(len(h) for h in self.hands)
        if won:
            alive = [p for p in range(P) if self.hands[p]]
            want = mon.level * len(alive)
            if want > len(self.deck):
                self.kansto = True
            for j in range(min(want, len(self.deck))):
                self.hands[alive[j % len(alive)]].append(self.deck.pop(0))
                self.experience += 1
        return {"won": won, "turns": turns, "cards_left": cards_left, "first_turn_damage": first_dmg,
                "damage_per_turn": total / max(turns, 1), "called_ally": called}

    def _random_play(self, playing: list[int], vals: tuple, now: dict[str, Any], para: int, sleep: int
                     ) -> tuple[tuple[int, ...], int]:
        n = len(playing)
        perms = _op_perms(n, OPERATORS, False)
        while True:
            cards = []
            for p in playing:
                usable = [c for c in self.hands[p] if c != now["zaraki"]]
                cards.append(usable[int(self.rng.integers(len(usable)))])
            ops = perms[int(self.rng.integers(len(perms)))]
            eff = [_effective_value(c, i, poison=now["poison"] or None, paralysed=None if para < 0 else para,
                                    asleep=None if sleep < 0 else sleep) for i, c in enumerate(cards)]
            try:
                return tuple(cards), _attack_value(eff, [OPERATORS[o] for o in ops])
            except ValueError:
                continue


@validate_params(n_runs=Int(0, MAX_REFERENCE_RUNS), party_size=Unchecked("a BattleConfig field: checked when built"),
                 monsters=Unchecked("a monster or a list of 1 to 1000: checked in the body"),
                 policy=Unchecked("a BattleConfig field: checked when built"), rng=Rng())
def reference_battles(n_runs: int, *, party_size: int, monsters: Sequence[Monster | str] | Monster | str,
                      policy: str = "max_damage", rng: RngLike = None, **kwargs: Any) -> pd.DataFrame:
    """Scalar reference of :func:`gamesim.games.dqz.sim.simulate_run` / ``simulate_battle``.

    Parameters
    ----------
    n_runs : int
    party_size : int
    monsters : Monster, str or sequence of them
        One monster = a single battle.
    policy : str, default "max_damage"
    rng : int, SeedSequence, Generator or None
    **kwargs
        Other :class:`BattleConfig` fields (``hand_size``, ``strategy_deck``, ``inn_every`` ...).

    Returns
    -------
    pandas.DataFrame
        Same columns as :func:`gamesim.games.dqz.sim.run_battles`.

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for ``n_runs`` not an integer in 0..1,000,000 (slow on
        purpose), a bad monster list or ``rng``, or any field :class:`BattleConfig` refuses.
    """
    gen = rng
    if isinstance(monsters, (Monster, str, Mapping)):
        monsters = [monsters]
    if not isinstance(monsters, Sequence) or not 1 <= len(monsters) <= 1000:
        raise ParamError("monsters", monsters, "a monster or a list of 1 to 1000 monsters")
    mons = [_as_monster(m) for m in monsters]
    if "strategy_deck" in kwargs:
        kwargs["strategy_deck"] = tuple(kwargs["strategy_deck"])
    cfg = BattleConfig(party_size, policy=policy, **kwargs)
    rows = []
    for _ in range(n_runs):
        party = ReferenceParty(cfg, gen)
        won_n = 0
        prev_called = False
        rec: dict[str, Any] = {}
        for j, mon in enumerate(mons):
            if j > 0 and cfg.inn_every > 0 and j % cfg.inn_every == 0 and not prev_called:
                party.inn()
            if any(party.hands):
                rec = party.battle(mon)
            else:
                rec = {"won": False, "turns": 0, "cards_left": 0, "first_turn_damage": 0, "damage_per_turn": 0.0,
                       "called_ally": False}
            won_n += rec["won"]
            prev_called = rec["called_ally"]
        rec.update(strategy_used=party.strategy_used, experience=party.experience, kansto=party.kansto,
                   deck_left=len(party.deck), battles_won=won_n, cleared=won_n == len(mons),
                   cards_end=sum(len(h) for h in party.hands))
        rows.append(rec)
    return pd.DataFrame(rows)
