"""課金ガチャ purchase plans: which rate bundles to buy, in which order, each its own session.

Rulebook (``gacha_god_chance_rules_ja.txt``, 日曜フェイズ): 「課金ガチャ(💰)を引きます…
スタートスレイヤーから順番に🎰を行うかパスするかを選択します。全スレイヤーが連続してパスしたら
日曜フェイズは終了します。」 Each purchase is its own 🎰, pulled (and its God Chances
resolved, the bag remade if its God Chance chip came out) before the player chooses again.
So money is not turned into one big session: a *plan* says which bundle to buy next,
given the money left and what the player has seen of the bag.

:func:`best_purchase_plan` finds the optimal plan exactly, by dynamic programming over
(money left, the player's information about the bag[, characters owned]). What the
player knows about the bag is the number of chips drawn since the last bag creation and
how many of them were God Chance chips; in normal rules that *is* the bag state, in
疑惑の運営モード (chips removed unseen) it fixes the posterior law of the bag state
(draws are exchangeable), so the DP is exact there too. :func:`run_purchase_plan`
simulates a player following a plan (vectorized, with the batch simulator's kernel; with
Overdrive the plan is the one optimal without Overdrive, followed as is).

The alternative reading (all the money spent at once on the mix with the most pulls, as
one session) is :func:`gamesim.games.gacha.rules.best_bundle_mix` / task parameter
``one_session = true``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.rng import RngLike
from gamesim.core.validate import Choice, Instance, Int, Rng, check_int, validate_params

from .exact import MAX_EXACT_STATES
from .rules import (
    BAG,
    BUNDLES,
    DEFAULT_BUNDLES,
    DOUBTFUL,
    MAX_MONEY,
    N_CHARACTERS,
    OVERDRIVE,
    BagConfig,
    BagState,
    DoubtfulConfig,
    RateBundle,
    _creation,
    _mv_hypergeometric,
    _check_fits,
    _normalize_bundles,
    _owned_transition_matrix,
    _session_outcomes,
    check_config,
)

__all__ = ["PurchasePlan", "best_purchase_plan", "run_purchase_plan", "Objective"]

Objective = Literal["god_chances", "complete"]
_TIE = 1e-12  # values within this are ties: prefer stopping, then the bundle listed first


def _merged(bag: BagConfig) -> BagConfig:
    return BagConfig(bag.n_god_chance, 0, bag.n_sr + bag.n_n)


def _obs(st: BagState, total: int) -> tuple[int, int]:
    """What the player knows: (chips drawn since the last bag creation, God Chance chips among them)."""
    return (total - sum(st.hidden) - st.n_left, st.gc_drawn)


@dataclass(frozen=True)
class _Model:
    classes: tuple[tuple[int, int], ...]  # (drawn since creation, God Chance chips among them)
    index: dict[tuple[int, int], int]
    reward: npt.NDArray[np.float64]  # (n_bundles, n_classes): expected God Chances of the purchase
    trans: tuple[npt.NDArray[np.float64], ...]  # per bundle (g_max + 1, n_classes, n_classes)


def _model(bag: BagConfig, doubtful: DoubtfulConfig | None, sizes: tuple[int, ...]) -> _Model:
    mb = _merged(bag)
    creation = _creation(mb, doubtful)
    total = mb.total
    # posterior law of the bag given (d, gd), by exchangeability of the draws
    post: dict[tuple[int, int], dict[BagState, float]] = {}
    for s0, q0 in creation:
        for d in range(s0.n_left):
            for drawn, p in _mv_hypergeometric(s0.in_bag, d):
                if drawn[0] >= max(1, mb.n_god_chance):
                    continue  # the bag would have been remade
                st = BagState((s0.in_bag[0] - drawn[0], 0, s0.in_bag[2] - drawn[2]), s0.hidden, drawn[0])
                post.setdefault((d, drawn[0]), {})
                post[(d, drawn[0])][st] = post[(d, drawn[0])].get(st, 0.0) + q0 * p
    if mb.n_god_chance == 0:  # always remade after a session: only the fresh bag is ever seen
        post = {(0, 0): {s: q for s, q in creation}}
    classes = tuple(sorted(post))
    if len(classes) > MAX_EXACT_STATES:
        raise ParamError("bag", bag, f"a bag with at most {MAX_EXACT_STATES} information states for the purchase "
                         "planner (chips x God Chance chips)")
    index = {c: i for i, c in enumerate(classes)}
    n = len(classes)
    reward = np.zeros((len(sizes), n))
    trans = []
    for b, m in enumerate(sizes):
        edges: list[tuple[int, int, int, float]] = []
        for i, c in enumerate(classes):
            z = sum(post[c].values())
            for st, w in post[c].items():
                for o in _session_outcomes(st, m, mb, doubtful):
                    j = index.get(_obs(o.state, total))
                    if j is None:  # pragma: no cover - every reachable class is listed
                        raise RuntimeError(f"unlisted bag information {_obs(o.state, total)}")
                    pr = w / z * o.probability
                    edges.append((o.drawn[0], i, j, pr))
                    reward[b, i] += pr * o.drawn[0]
        t = np.zeros((max(e[0] for e in edges) + 1, n, n))
        for g, i, j, pr in edges:
            t[g, i, j] += pr
        trans.append(t)
    return _Model(classes, index, reward, tuple(trans))


@dataclass(frozen=True)
class PurchasePlan:
    """The optimal 課金ガチャ plan for some money (see :func:`best_purchase_plan`).

    Attributes
    ----------
    money : int
        Money available (👑).
    bundles : tuple of RateBundle
        The rates.
    objective : {"god_chances", "complete"}
        What the plan maximises: expected God Chances, or P(コンスリート) at the end.
    bag, doubtful, n_characters
        The rules the plan was computed for.
    god_chances : float
        Exact expected God Chances when following the plan (no Overdrive).
    complete : float
        Exact P(コンスリート) after the purchases (no Overdrive).
    pulls, money_spent, purchases : float
        Exact expected pulls bought, money spent and number of purchases (sessions).
    policy : ndarray of int64, shape (money + 1, n_classes, n_characters + 1)
        Bundle index to buy next (-1 = stop) by money left, bag information class and
        characters owned.
    classes : tuple of (int, int)
        Bag information classes: (chips drawn since the last bag creation, God Chance
        chips among them); class 0 is a freshly made bag.
    """

    money: int
    bundles: tuple[RateBundle, ...]
    objective: str
    bag: BagConfig
    doubtful: DoubtfulConfig | None
    n_characters: int
    god_chances: float
    complete: float
    pulls: float
    money_spent: float
    purchases: float
    policy: npt.NDArray[np.int64] = field(repr=False)
    classes: tuple[tuple[int, int], ...] = field(repr=False)
    paths: tuple[tuple[tuple[int, ...], float], ...] = field(repr=False, default=())

    def action(self, money_left: int, drawn: int = 0, god_chance_drawn: int = 0, owned: int = 0
               ) -> RateBundle | None:
        """The bundle to buy next (None = stop), given what the player sees.

        Parameters
        ----------
        money_left : int
            0..``money``.
        drawn, god_chance_drawn : int
            Chips drawn since the last bag creation and God Chance chips among them
            (0, 0 for a fresh bag).
        owned : int
            Characters owned (matters for ``objective = "complete"``).

        Raises
        ------
        ParamTypeError, ParamError
            If an argument is not an integer in range, or the bag information is
            impossible.
        """
        mny = check_int("money_left", money_left, min=0, max=self.money)
        own = check_int("owned", owned, min=0, max=self.n_characters)
        key = (check_int("drawn", drawn, min=0), check_int("god_chance_drawn", god_chance_drawn, min=0))
        if key not in self.classes:
            raise ParamError("drawn", key, "bag information that can occur (chips drawn since the last bag "
                             "creation, God Chance chips among them)")
        a = int(self.policy[mny, self.classes.index(key), own])
        return None if a < 0 else self.bundles[a]

    def describe(self) -> str:
        """The plan in words, e.g. ``"10→12, 15→25"`` (bundles written ``money→pulls``).

        When the plan depends on what the player sees (when the God Chance chip came
        out, how full the bag is), the number of possible purchase sequences and the
        most likely one are given.
        """
        def seq_text(seq: tuple[int, ...]) -> str:
            return ", ".join(f"{self.bundles[a].cost}→{self.bundles[a].pulls}" for a in seq)

        if self.money_spent == 0:
            return "buy nothing"
        if not self.paths:
            first = self.action(self.money)
            assert first is not None
            return f"adaptive, too many sequences to list; first purchase {first.cost}→{first.pulls}"
        if len(self.paths) == 1:
            return seq_text(self.paths[0][0])
        seq, p = self.paths[0]
        return f"adaptive, {len(self.paths)} possible sequences; most likely ({p:.0%}): {seq_text(seq)}"


@validate_params(money=Int(0, MAX_MONEY), bundles=BUNDLES, bag=BAG, n_characters=N_CHARACTERS, doubtful=DOUBTFUL,
                 objective=Choice(("god_chances", "complete")))
def best_purchase_plan(
    money: int,
    bundles: Iterable[RateBundle | Sequence[int]] = DEFAULT_BUNDLES,
    *,
    bag: BagConfig = BagConfig(),
    doubtful: DoubtfulConfig | None = None,
    n_characters: int = 5,
    objective: Objective = "god_chances",
) -> PurchasePlan:
    """The optimal 課金ガチャ plan: each purchase its own session, chosen after the last.

    Parameters
    ----------
    money : int
        Money available (👑), 0..:data:`~gamesim.games.gacha.rules.MAX_MONEY`.
    bundles : iterable of RateBundle or (int, int), default DEFAULT_BUNDLES
        Rates ``(money, pulls)``, each usable any number of times.
    bag : BagConfig, default BagConfig()
        Full-bag contents; the player starts from a freshly made bag.
    doubtful : DoubtfulConfig or None, default None
        疑惑の運営モード.
    n_characters : int, default 5
        Characters to collect.
    objective : {"god_chances", "complete"}, default "god_chances"
        Maximise the expected number of God Chances, or P(コンスリート) after the
        purchases.

    Returns
    -------
    PurchasePlan
        The policy, its exact expected God Chances, P(complete), pulls, money spent and
        number of purchases, and the purchase sequences it can produce.

    Raises
    ------
    ParamTypeError
        If an argument has the wrong type (``money`` a float or bool, ...).
    ParamError
        If ``money`` or a bundle is out of range, ``objective`` is unknown, a doubtful k
        is >= the bag total, or the bag has more information states than
        :data:`~gamesim.games.gacha.exact.MAX_EXACT_STATES`.

    Notes
    -----
    日曜フェイズ: 「スタートスレイヤーから順番に🎰を行うかパスするかを選択…全スレイヤーが
    連続してパスしたら日曜フェイズは終了」: each purchase is a session of its own (rules
    of ガチャを引く, the bag remade between purchases when its God Chance chip came out).
    Exact dynamic programming over (money left, bag information, characters owned),
    money by money upwards: ``V[M] = max(stop, max_b r_b + P_b V[M - c_b])``. Ties
    (within 1e-12) are broken towards stopping (spend less), then the bundle listed
    first. Overdrive is not modelled (the plan is Overdrive-blind). Only this player
    pulls from the bag during the purchases (the other players' 🎰 on the same Sunday
    are out of scope).

    Examples
    --------
    >>> round(best_purchase_plan(25).god_chances, 6)  # 15→25 and 10→12 as two sessions
    0.86
    """
    bs = _normalize_bundles(bundles)
    _check_fits(doubtful, bag)
    if not bs:
        raise ParamError("bundles", bundles, "at least one (money, pulls) pair")
    model = _model(bag, doubtful, tuple(b.pulls for b in bs))
    n_cls, n_c = len(model.classes), n_characters + 1
    step = _owned_transition_matrix(n_characters)
    gmax = max(t.shape[0] for t in model.trans)
    powers = [np.eye(n_c)]
    for _ in range(gmax):
        powers.append(powers[-1] @ step)
    stop_val = np.zeros((n_cls, n_c))
    if objective == "complete":
        stop_val[:, -1] = 1.0
    value = np.empty((money + 1, n_cls, n_c))
    policy = np.full((money + 1, n_cls, n_c), -1, dtype=np.int64)
    for mny in range(money + 1):
        best = stop_val.copy()
        for b, bundle in enumerate(bs):
            if bundle.cost > mny:
                continue
            nxt = value[mny - bundle.cost]
            t = model.trans[b]
            if objective == "god_chances":
                cand = model.reward[b][:, None] + t.sum(axis=0) @ nxt
            else:
                cand = sum(t[g] @ nxt @ powers[g].T for g in range(t.shape[0]))
            better = cand > best + _TIE
            best = np.where(better, cand, best)
            policy[mny][better] = b
        value[mny] = best
    # forward pass: exact statistics of the plan, and the purchase sequences it produces
    stats = _evaluate(model, bs, policy, money, n_c, powers)
    return PurchasePlan(money, bs, objective, bag, doubtful, n_characters, *stats, policy=policy,
                        classes=model.classes, paths=_paths(model, bs, policy, money, n_c, powers))


def _evaluate(model: _Model, bs: tuple[RateBundle, ...], policy: npt.NDArray[np.int64], money: int, n_c: int,
              powers: list[npt.NDArray[np.float64]]) -> tuple[float, float, float, float, float]:
    n_cls = len(model.classes)
    dist = np.zeros((money + 1, n_cls, n_c))
    dist[money, 0, 0] = 1.0
    final = np.zeros((n_cls, n_c))
    gc = pulls = spent = buys = 0.0
    for mny in range(money, -1, -1):
        d = dist[mny]
        if not d.any():
            continue
        act = policy[mny]
        final += np.where(act < 0, d, 0.0)
        for b, bundle in enumerate(bs):
            mass = np.where(act == b, d, 0.0)
            tot = float(mass.sum())
            if tot == 0.0:
                continue
            gc += float(mass.sum(axis=1) @ model.reward[b])
            pulls += tot * bundle.pulls
            spent += tot * bundle.cost
            buys += tot
            t = model.trans[b]
            dist[mny - bundle.cost] += sum(t[g].T @ mass @ powers[g] for g in range(t.shape[0]))
    return gc, float(final[:, -1].sum()), pulls, spent, buys


def _paths(model: _Model, bs: tuple[RateBundle, ...], policy: npt.NDArray[np.int64], money: int, n_c: int,
           powers: list[npt.NDArray[np.float64]], limit: int = 4_000) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Distinct purchase sequences of the plan with their probabilities (most likely first)."""
    live: dict[tuple[int, int, int, tuple[int, ...]], float] = {(money, 0, 0, ()): 1.0}
    done: dict[tuple[int, ...], float] = {}
    while live:
        if len(live) > limit:  # too many to list: stop listing (the statistics are exact anyway)
            return ()
        nxt: dict[tuple[int, int, int, tuple[int, ...]], float] = {}
        for (mny, i, own, seq), p in live.items():
            a = int(policy[mny, i, own])
            if a < 0:
                done[seq] = done.get(seq, 0.0) + p
                continue
            t = model.trans[a]
            for g in range(t.shape[0]):
                for j in np.flatnonzero(t[g, i]):
                    for own2 in np.flatnonzero(powers[g][own]):
                        q = p * t[g, i, j] * powers[g][own, own2]
                        key = (mny - bs[a].cost, int(j), int(own2), seq + (a,))
                        nxt[key] = nxt.get(key, 0.0) + q
        live = nxt
    return tuple(sorted(done.items(), key=lambda kv: (-kv[1], kv[0])))


@validate_params(plan=Instance(PurchasePlan, "a PurchasePlan from best_purchase_plan"), n_trials=Int(0, 10_000_000),
                 overdrive_pulls=OVERDRIVE, rng=Rng())
def run_purchase_plan(
    plan: PurchasePlan,
    n_trials: int,
    *,
    rng: RngLike = None,
    overdrive_pulls: int | None = None,
) -> dict[str, npt.NDArray[np.int64] | npt.NDArray[np.bool_]]:
    """Simulate players following a purchase plan from a fresh bag (vectorized).

    Parameters
    ----------
    plan : PurchasePlan
        From :func:`best_purchase_plan` (its bag, doubtful mode and characters are used).
    n_trials : int
        Independent trials, 0..10_000_000.
    rng : int, SeedSequence, Generator or None, default None
    overdrive_pulls : int or None, default None
        Overdrive extra pulls (None = エキスパートモード). The plan is followed as is
        (it was optimised without Overdrive); Overdrive pulls are free.

    Returns
    -------
    dict of str to ndarray, each of shape (n_trials,)
        ``god_chances`` (int64), ``complete`` (bool), ``characters_owned`` (int64),
        ``pulls`` (int64: pulls bought, Overdrive pulls not counted), ``money_spent``
        (int64), ``purchases`` (int64: sessions bought).

    Raises
    ------
    ParamTypeError, ParamError
        If ``plan`` is not a PurchasePlan, ``n_trials`` not an integer in range, or
        ``overdrive_pulls`` invalid (see :func:`~gamesim.games.gacha.rules.check_config`).

    Notes
    -----
    Each trial looks up the plan's next bundle from its money left, the chips and God
    Chance chips drawn since its bag was last made and its characters owned; trials
    buying the same bundle pull together (the batch simulator's session kernel).
    """
    from .kernels import _chunks, _Cfg, _fresh_bag, _play_session

    # the plan's set-up with overdrive_pulls (the Overdrive chain must end): its fields are not arguments
    bag, n_chars, doubtful, op = check_config(plan.bag, plan.n_characters, plan.doubtful, overdrive_pulls)
    gen = rng
    cfg = _Cfg.make(bag, n_chars, doubtful, op)
    lookup = np.full((bag.total + 1, bag.n_god_chance + 1), -1, dtype=np.int64)
    for i, (d, gd) in enumerate(plan.classes):
        lookup[d, gd] = i
    costs = np.array([b.cost for b in plan.bundles], dtype=np.int64)
    sizes = [b.pulls for b in plan.bundles]
    out = {k: np.zeros(n_trials, dtype=np.int64) for k in
           ("god_chances", "characters_owned", "pulls", "money_spent", "purchases")}
    start = 0
    for size in _chunks(n_trials, 1, n_chars):
        b = _fresh_bag(size, gen, cfg)
        owned = np.zeros((size, 1, n_chars), dtype=bool)
        gcount = np.zeros((1, size), dtype=np.int64)
        extra = np.zeros((1, size), dtype=np.int64)
        left = np.full(size, plan.money, dtype=np.int64)
        bought = np.zeros(size, dtype=np.int64)
        buys = np.zeros(size, dtype=np.int64)
        while True:
            cls = lookup[np.minimum(b.od + b.gcd, bag.total), np.minimum(b.gcd, bag.n_god_chance)]
            if (cls < 0).any():  # pragma: no cover - every bag information is a class
                raise RuntimeError("bag information outside the plan")
            act = plan.policy[left, cls, owned[:, 0].sum(axis=1)]
            if (act < 0).all():
                break
            for a in np.unique(act[act >= 0]):
                idx = np.flatnonzero(act == a)
                sub = b.take(idx)
                o_sub, g_sub, e_sub = owned[idx], gcount[:, idx], extra[:, idx]
                _play_session(sub, o_sub, g_sub, e_sub, 0, sizes[a], gen, cfg)
                b.put(idx, sub)
                owned[idx], gcount[:, idx], extra[:, idx] = o_sub, g_sub, e_sub
                left[idx] -= costs[a]
                bought[idx] += sizes[a]
                buys[idx] += 1
        sl = slice(start, start + size)
        out["god_chances"][sl] = gcount[0]
        out["characters_owned"][sl] = owned[:, 0].sum(axis=1)
        out["pulls"][sl] = bought
        out["money_spent"][sl] = plan.money - left
        out["purchases"][sl] = buys
        start += size
    res: dict[str, npt.NDArray[np.int64] | npt.NDArray[np.bool_]] = dict(out)
    res["complete"] = out["characters_owned"] == n_chars
    return res
