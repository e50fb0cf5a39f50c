"""A plain-Python reference of whole ぱんつぁーへくせん games, one game at a time.

Written from the rules (:mod:`.rules`: :func:`.rules.fight`, :func:`.rules.min_mana`,
:func:`.rules.policy_cost`, :func:`.rules.ambush_mana`) and the card file, never from the
simulator: the tests compare the two formulations' distributions (two-sample tests), so a bug in
either shows. Players: ``random`` and ``greedy`` as :mod:`.policies` describes them in words.
Random choices use the caller's ``numpy.random.Generator`` (the reference is slow and is used
only in tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import Instance, Int, ParamTypeError, Ref, Rng, Unchecked, check_choice, validate_params

from .data import BUILTIN_DATA, CardSet, Equipment, load_cards
from .rules import BONUS_ACTIONS, Action, PanzerParams, ambush_mana, fight, min_mana, policy_cost

# The rules' unchecked bodies: a game calls them for every attack it weighs, on stats read from a
# card set checked when it was loaded; the arguments are checked once, at reference_game's entry.
_ambush_mana = ambush_mana.__wrapped__
_fight = fight.__wrapped__
_min_mana = min_mana.__wrapped__
_policy_cost = policy_cost.__wrapped__

__all__ = ["reference_game", "reference_simulate"]

BIG = 10**6


class _Game:
    def __init__(self, p: PanzerParams, cards: CardSet, rng: np.random.Generator, seat0: int) -> None:
        self.p, self.c, self.rng = p, cards, rng
        P = p.n_players
        NW, NN = len(cards.witches), len(cards.neuroi)
        pols = cards.all_policies
        NP = len(pols)
        if seat0 >= 0:
            rest = [i for i in range(NW) if i != seat0]
            self.witch = [seat0] + [rest[i] for i in rng.permutation(len(rest))[: P - 1]]
        else:
            self.witch = [int(i) for i in rng.permutation(NW)[:P]]
        self.w = [cards.witches[i] for i in self.witch]
        self.voice = [p.start_voice] * P
        self.mana = [p.start_mana] * P
        self.tired = [False] * P
        self.n_loc, self.n_by = [0] * NN, [-1] * NN
        self.p_loc, self.p_owner, self.p_by = [0] * NP, [-1] * NP, [-1] * NP
        self.counters, self.broken = [0] * NP, [False] * NP
        self.eff: list[dict[str, int]] = [{} for _ in range(P)]
        n_perm = [int(i) for i in rng.permutation(NN)]
        p_perm = [int(i) for i in rng.permutation(NP)]
        kn = P * p.start_neuroi
        for i in n_perm[:kn]:
            self.n_loc[i] = 1
        kc = P * p.start_charge
        for j, c in enumerate(p_perm[:kc]):
            self.p_loc[c], self.p_owner[c], self.counters[c] = 1, j // p.start_charge, p.start_counters
        for c in p_perm[kc:kc + p.start_open]:
            self.p_loc[c] = 1
        rest_cards = [("n", i) for i in n_perm[kn:]] + [("p", c) for c in p_perm[kc + p.start_open:]]
        if p.decks == "mixed":
            mixed = [rest_cards[i] for i in rng.permutation(len(rest_cards))]
            self.decks = [mixed[0::2], mixed[1::2]]
        else:
            self.decks = [[x for x in rest_cards if x[0] == "n"], [x for x in rest_cards if x[0] == "p"]]
        self.pols = pols
        self.actions = [[0] * 6 for _ in range(P)]
        self.bonuses = [0] * P
        self.lost = [0] * P

    # --- helpers -------------------------------------------------------------------------------
    def best_equipment(self, s: int, kind: str) -> int:
        best, score = -1, -1
        for j, c in enumerate(self.pols):
            if isinstance(c, Equipment) and c.kind == kind and self.p_by[j] == s and not self.broken[j]:
                if c.attack + c.defence > score:
                    best, score = j, c.attack + c.defence
        return best

    def stats(self, s: int) -> tuple[int, int, int, bool, list[int]]:
        eq = [j for j in (self.best_equipment(s, "striker"), self.best_equipment(s, "gun")) if j >= 0]
        w = self.w[s]
        a = w.attack + sum(self.pols[j].attack for j in eq) + self.eff[s].get("attack_plus", 0)
        d = w.defence + sum(self.pols[j].defence for j in eq) + self.eff[s].get("defence_plus", 0)
        return a, d, w.range, w.ability == "evade", eq

    def need(self, s: int, n: int) -> tuple[int, int]:
        a, d, r, ev, _ = self.stats(s)
        x = self.c.neuroi[n]
        return _min_mana(a, d, r, x.attack, x.defence, x.range, evade=ev, clean=True)

    def cost(self, s: int, j: int) -> int:
        return _policy_cost(self.pols[j].cost, owner=self.p_owner[j], player=s, counters=self.counters[j],
                           discounts=self.eff[s].get("discount", 0))

    def live(self) -> list[int]:
        return [i for i, v in enumerate(self.n_loc) if v == 1]

    def open_policies(self) -> list[int]:
        return [j for j, v in enumerate(self.p_loc) if v == 1]

    def gain_mana(self, s: int, amount: int) -> None:
        if not self.tired[s]:
            self.mana[s] += amount + (self.w[s].ability == "mana_plus")

    def uniform(self, options: list[Any]) -> Any:
        u = self.rng.random()
        return options[min(int(u * len(options)), len(options) - 1)] if options else None

    def draw(self, d: int) -> tuple[str, int] | None:
        if not self.decks[d]:
            d = 1 - d
        return self.decks[d].pop(0) if self.decks[d] else None

    # --- choices ----------------------------------------------------------------------------------
    def choose_action(self, s: int, kind: str) -> int:
        if kind == "random":
            return int(self.rng.integers(0, 6))
        live, opened = self.live(), self.open_policies()
        needs = {n: sum(self.need(s, n)) for n in live}
        fightable = not self.tired[s] and any(v <= self.mana[s] for v in needs.values())
        costs = {j: self.cost(s, j) for j in opened}
        afford = any(v <= self.voice[s] for v in costs.values())
        gap_m = min([v - self.mana[s] for v in needs.values()], default=BIG)
        gap_v = min([v - self.voice[s] for v in costs.values()], default=BIG)
        if fightable:
            return Action.SORTIE
        if afford:
            return Action.POLICY
        if self.tired[s]:
            return Action.REST
        if not live:
            return Action.COMMS if self.decks[0] or self.decks[1] else Action.MEETING
        return Action.TRAINING if gap_m <= gap_v else Action.MEETING

    def choose_card(self, s: int, kind: str) -> int:
        ok = [j for j in self.open_policies() if self.cost(s, j) <= self.voice[s]]
        if kind == "random":
            return -1 if not ok else self.uniform(ok)
        if not ok:
            return -1
        return max(ok, key=lambda j: (self.pols[j].vp / max(self.cost(s, j), 1), -j))

    def choose_target(self, s: int, kind: str) -> int:
        live = self.live()
        if kind == "random":
            return self.uniform([-1] + live)
        ok = [(n, sum(self.need(s, n))) for n in live]
        ok = [(n, v) for n, v in ok if v <= self.mana[s]]
        if not ok:
            return -1
        return max(ok, key=lambda t: (self.c.neuroi[t[0]].vp / (t[1] + 1.0), -t[0]))[0]

    def choose_deck(self, kind: str) -> int:
        if kind == "random":
            d = self.uniform([i for i in (0, 1) if self.decks[i]])
            return 0 if d is None else d
        return 1 if len(self.decks[1]) > len(self.decks[0]) else 0

    # --- actions ----------------------------------------------------------------------------------
    def act(self, a: int, s: int, bonus: bool, kind: str) -> None:
        if a == Action.POLICY:
            j = self.choose_card(s, kind)
            if j < 0:
                self.voice[s] += 1
                return
            self.voice[s] -= self.cost(s, j)
            own = self.p_owner[j]
            if own >= 0 and own != s:
                self.voice[own] += self.counters[j]
            self.p_loc[j], self.p_by[j], self.counters[j], self.broken[j] = 2, s, 0, False
            c = self.pols[j]
            e = "none" if isinstance(c, Equipment) else c.effect
            self.eff[s][e] = self.eff[s].get(e, 0) + 1
        elif a == Action.REST:
            was = self.tired[s]
            if was or bonus:
                self.tired[s] = False
            if not was or bonus:
                for j in range(len(self.pols)):
                    if self.p_by[j] == s:
                        self.broken[j] = False
        elif a == Action.SORTIE:
            if self.tired[s]:
                return
            n = self.choose_target(s, kind)
            if n < 0:
                self.gain_mana(s, 1)
                return
            a_, d_, r_, ev, eq = self.stats(s)
            x = self.c.neuroi[n]
            ta, td = _min_mana(a_, d_, r_, x.attack, x.defence, x.range, evade=ev, clean=True)
            if ta + td <= self.mana[s]:
                self.mana[s] -= ta + td
                a_, d_ = a_ + ta, d_ + td
            f = _fight(a_, d_, r_, x.attack, x.defence, x.range, evade=ev)
            for j in eq:
                self.broken[j] = True
            if f.destroyed:
                self.n_loc[n], self.n_by[n] = 2, s
            if f.hit:
                self.tired[s] = True
        elif a == Action.TRAINING:
            self.gain_mana(s, 2 + bonus + self.eff[s].get("training_plus", 0))
        elif a == Action.MEETING:
            self.voice[s] += 2 + bonus + self.eff[s].get("meeting_plus", 0) + (self.w[s].ability == "voice_plus")
        else:
            d = self.choose_deck(kind)
            rev = neu = 0
            for _ in range(3 if bonus else 2):
                card = self.draw(d)
                if card is None:
                    continue
                rev += 1
                if card[0] == "n":
                    neu += 1
                    self.n_loc[card[1]] = 1
                else:
                    self.reveal_policy(s, card[1])
            if rev and rev == neu:
                self.gain_mana(s, 2)

    def reveal_policy(self, s: int, j: int) -> None:
        p = self.p
        self.p_loc[j] = 1
        if p.comms_option == "take_charge":
            self.p_owner[j], self.counters[j] = s, p.start_counters
        elif p.comms_option == "open_voice":
            self.voice[s] += 1
        else:
            for i in self.open_policies():
                if self.p_owner[i] == s:
                    self.counters[i] = min(p.max_counters, self.counters[i] + 1)

    def events(self, lap: int, done: list[bool], kinds: Sequence[str]) -> None:
        if not done[Action.REST]:
            best, score = -1, -1
            for j, c in enumerate(self.pols):
                if self.p_by[j] == lap and self.broken[j] and c.attack + c.defence > score:  # type: ignore[union-attr]
                    best, score = j, c.attack + c.defence  # type: ignore[union-attr]
            if best >= 0:
                self.broken[best] = False
        if not done[Action.COMMS]:
            d = self.choose_deck(kinds[lap])
            k = 0
            P = self.p.n_players
            for _ in range(P - 1):
                card = self.draw(d)
                if card is None:
                    continue
                if card[0] == "p":
                    self.p_loc[card[1]] = 1
                    continue
                x = self.c.neuroi[card[1]]
                self.n_loc[card[1]] = 1
                k += 1
                v = (lap + k) % P
                if self.tired[v]:
                    continue
                need = _ambush_mana(self.w[v].defence + self.eff[v].get("defence_plus", 0), x.attack,
                                   evade=self.w[v].ability == "evade")
                if need == 0:
                    continue
                if need <= self.mana[v]:
                    self.mana[v] -= need
                else:
                    self.tired[v] = True

    def cards_of(self, s: int) -> int:
        return self.p_by.count(s) + self.n_by.count(s)

    def play(self, kinds: Sequence[str]) -> dict[str, Any]:
        p = self.p
        P = p.n_players
        sign = -1 if p.priority_order == "high_first" else 1
        order = sorted(range(P), key=lambda s: sign * self.w[s].priority)
        rounds, over = 0, False
        for _ in range(p.max_rounds):
            choice = [self.choose_action(s, kinds[s]) for s in range(P)]
            lap, done = -1, [False] * 6
            for a in range(6):
                first = True
                for s in order:
                    if choice[s] != a:
                        continue
                    if p.collision == "first_only" and not first:
                        self.lost[s] += 1
                        continue
                    bonus = first and p.bonus and a in BONUS_ACTIONS
                    self.act(a, s, bonus, kinds[s])
                    self.actions[s][a] += 1
                    self.bonuses[s] += bonus
                    first, lap, done[a] = False, s, True
            if p.unexecuted_events:
                self.events(lap, done, kinds)
            for j in self.open_policies():
                if self.p_owner[j] >= 0:
                    self.counters[j] = min(p.max_counters, self.counters[j] + p.counter_gain)
            rounds += 1
            if any(self.cards_of(s) >= p.end_cards for s in range(P)):
                over = True
                break
        vn = [sum(x.vp for i, x in enumerate(self.c.neuroi) if self.n_by[i] == s) for s in range(P)]
        ve = [sum(c.vp for j, c in enumerate(self.pols) if self.p_by[j] == s and isinstance(c, Equipment))
              for s in range(P)]
        vo = [sum(c.vp for j, c in enumerate(self.pols) if self.p_by[j] == s and not isinstance(c, Equipment))
              for s in range(P)]
        vp = [vn[s] + ve[s] + vo[s] for s in range(P)]
        if p.teams:
            agg = (lambda x, y: x + y) if p.team_score == "sum" else min
            team = [agg(vp[0], vp[2]), agg(vp[1], vp[3])]
            top = [t == max(team) for t in team]
            score = [top[s % 2] / sum(top) for s in range(P)]
        else:
            top = [v == max(vp) for v in vp]
            score = [t / sum(top) for t in top]
        return {"rounds": rounds, "truncated": not over, "witch": self.witch, "vp": vp, "vp_neuroi": vn,
                "vp_equipment": ve, "vp_policy": vo, "cards": [self.cards_of(s) for s in range(P)],
                "score": score, "actions": self.actions, "bonuses": self.bonuses, "lost": self.lost}


#: Declared constraints shared by the reference's public functions (:func:`validate_params`).
PARAMS = Instance(PanzerParams, "a PanzerParams")


@validate_params(p=PARAMS, cards=Instance(CardSet, "a CardSet"), rng=Instance(np.random.Generator, "a numpy Generator"),
                 policies=Unchecked("random or greedy for each of p.n_players seats: checked in the body"),
                 seat0=Int(-1, Ref("cards", "n_witches", -1)))
def reference_game(p: PanzerParams, cards: CardSet, policies: Sequence[str], rng: np.random.Generator, *,
                   seat0: int = -1) -> dict[str, Any]:
    """One whole game in plain Python; the fields of :func:`.sim.simulate`'s result for one game.

    Parameters
    ----------
    p : PanzerParams
        The rules and open procedures.
    cards : CardSet
        The card set.
    policies : sequence of str
        ``"random"`` or ``"greedy"`` for each of the ``p.n_players`` seats.
    rng : numpy.random.Generator
        The game's random numbers.
    seat0 : int, default -1
        Seat 0's witch (an index into ``cards.witches``), or -1 for a random one.

    Returns
    -------
    dict
        One value per field of :func:`.sim.simulate`'s result.

    Raises
    ------
    ParamError, ParamTypeError
        For arguments of the wrong type (``policies`` one of random/greedy per seat).
    """
    if not isinstance(policies, (list, tuple)) or len(policies) != p.n_players:
        raise ParamError("policies", policies, f"a list of {p.n_players} players (random, greedy)")
    for k in policies:
        check_choice("policies", k, ("random", "greedy"))
    return _Game(p, cards, rng, seat0).play(policies)


#: Unchecked body of :func:`reference_game` (:func:`reference_simulate`, once per game).
_reference_game = reference_game.__wrapped__


@validate_params(n_games=Int(1, 100_000), rng=Rng(),
                 cards=Unchecked("a CardSet or a card file: loaded and checked in the body"), p=PARAMS,
                 policies=Unchecked("one player or one per seat: checked by reference_game"),
                 seat0_witch=Unchecked("None or a witch of cards: checked in the body, once cards is loaded"))
def reference_simulate(p: PanzerParams, n_games: int, *, rng: Any = None, cards: CardSet | str = BUILTIN_DATA,
                       policies: Sequence[str] | str = "greedy", seat0_witch: str | None = None
                       ) -> dict[str, npt.NDArray[Any]]:
    """``n_games`` reference games; arrays shaped as :func:`.sim.simulate`'s.

    Parameters
    ----------
    p : PanzerParams
        The rules and open procedures.
    n_games : int
        Games to play, 1..100000.
    rng : int, SeedSequence, Generator or None, optional
        Seed or generator.
    cards : CardSet or str, default "illustrative"
        The card set, or a card file for :func:`.data.load_cards`.
    policies : str or sequence of str, default "greedy"
        ``"random"`` or ``"greedy"``: one for every seat, or one per seat.
    seat0_witch : str, optional
        Name of seat 0's witch (default: dealt at random).

    Returns
    -------
    dict of str to numpy.ndarray

    Raises
    ------
    ParamError, ParamTypeError
        For an argument of the wrong type or out of range (``n_games`` 1..100000).
    """
    gen = rng  # a Generator (the declaration's Rng)
    if isinstance(cards, str):
        cards = load_cards(cards)
    if not isinstance(cards, CardSet):
        raise ParamTypeError("cards", cards, "a CardSet or a card file")
    names = [policies] * p.n_players if isinstance(policies, str) else policies
    if seat0_witch is not None and (not isinstance(seat0_witch, str)
                                    or seat0_witch not in [w.name for w in cards.witches]):
        raise ParamError("seat0_witch", seat0_witch, f"None or a witch of {cards.source}")
    seat0 = -1 if seat0_witch is None else cards.witch_index(seat0_witch)
    # checked above: p, n_games, rng, cards and seat0 (the unchecked body checks policies)
    games = [_reference_game(p, cards, names, gen, seat0=seat0) for _ in range(n_games)]
    out: dict[str, npt.NDArray[Any]] = {}
    for k in games[0]:
        dtype = float if k == "score" else (bool if k == "truncated" else np.int64)
        out[k] = np.array([g[k] for g in games], dtype=dtype)
    return out
