"""Tests of gacha's 課金ガチャ per purchase (日曜フェイズ): purchase plans, exact and Monte Carlo.

Golden values come from mathematics (hand derivations, brute-force enumeration),
never from a seeded run. Stochastic tests compare estimates with exact values (or
two independent simulators) at 4.5 standard errors, so they pass for any seed.
"""

from __future__ import annotations

import functools
import itertools
import math

import pytest

from gamesim.games.gacha import (
    BagConfig,
    BagState,
    DoubtfulConfig,
    RateBundle,
    best_bundle_mix,
    exact_expected_god_chances,
    best_purchase_plan,
    run_purchase_plan,
    session_outcomes,
)
from gamesim.games.gacha.tasks import TASKS
from tests.games.gacha.helpers import _assert_prop

Z = 4.5


# ---------------------------------------------------------------------------
# 課金ガチャ per purchase (日曜フェイズ): purchase plans
# ---------------------------------------------------------------------------


def test_purchase_plan_hand_computed_25_money() -> None:
    """日曜フェイズ: 「スタートスレイヤーから順番に🎰を行うかパスするかを選択…」: each purchase is its
    own 🎰. With 25 money (課金ガチャの例 パターン③: 25 = 10 + 15 → 12 + 25 pulls):

    - one session of 37 pulls from a fresh bag of 50: E[God Chances] = 37/50 = 0.74;
    - 25 pulls, then 12 pulls: the chip came out in the first purchase with probability
      25/50 (the bag is remade: 12/50 next), else it is among the 25 chips left (12/25):
      0.5 + 0.5 * 12/50 + 0.5 * 12/25 = 0.86 (and 12 then 25 gives the same).
    """
    plan = best_purchase_plan(25)
    assert math.isclose(plan.god_chances, 0.5 + 0.5 * 12 / 50 + 0.5 * 12 / 25, rel_tol=1e-12)
    assert math.isclose(plan.god_chances, 0.86, rel_tol=1e-12)
    assert math.isclose(exact_expected_god_chances([best_bundle_mix(25).pulls]), 0.74, rel_tol=1e-12)
    assert plan.pulls == 37 and plan.money_spent == 25 and plan.purchases == 2
    assert plan.describe() == "10→12, 15→25"
    assert plan.action(25) == RateBundle(10, 12)
    assert plan.action(15, drawn=12, god_chance_drawn=0) == RateBundle(15, 25)
    assert plan.action(0) is None
    # money 8 (パターン①): four single pulls of 2 → 1, each its own session
    p8 = best_purchase_plan(8)
    assert p8.describe() == "2→1, 2→1, 2→1, 2→1"
    assert math.isclose(p8.god_chances, exact_expected_god_chances([1, 1, 1, 1]), rel_tol=1e-12)


def _brute_plan(money: int, bundles: list[tuple[int, int]], bag: BagConfig) -> float:
    """Independent optimum (normal rules): recursion over the true bag state with session_outcomes."""
    @functools.lru_cache(maxsize=None)
    def v(m: int, st: BagState) -> float:
        best = 0.0
        for cost, pulls in bundles:
            if cost <= m:
                best = max(best, sum(o.probability * (o.drawn[0] + v(m - cost, o.state))
                                     for o in session_outcomes(st, pulls, bag)))
        return best

    return v(money, BagState(bag.counts))


@pytest.mark.parametrize("money, bundles, bag", [
    (25, [(2, 1), (10, 12), (15, 25)], BagConfig()),
    (100, [(2, 1), (10, 12), (15, 25)], BagConfig()),
    (40, [(3, 2), (7, 5), (11, 9)], BagConfig(1, 2, 9)),
    (30, [(2, 3), (5, 8)], BagConfig(2, 1, 7)),
])
def test_purchase_plan_matches_brute_force(money: int, bundles: list[tuple[int, int]], bag: BagConfig) -> None:
    plan = best_purchase_plan(money, bundles, bag=bag)
    assert math.isclose(plan.god_chances, _brute_plan(money, bundles, bag), rel_tol=1e-10)
    # the plan's exact statistics are those of the sequences it produces
    if len(plan.paths) == 1:
        seq = [bundles[a][1] for a in plan.paths[0][0]]
        assert math.isclose(plan.god_chances, exact_expected_god_chances(seq, bag=bag), rel_tol=1e-10)
    assert math.isclose(sum(p for _, p in plan.paths), 1.0)


def test_purchase_plan_100_money_beats_every_fixed_order_and_one_session() -> None:
    """100 money: 6 × (15 → 25) + 10 → 12 = 162 pulls. As one session: 3.24 God Chances. Each
    purchase on its own: the order 12 first gives 4.316, the best fixed order 4.371, and the
    optimal plan, which reacts to whether the chip came out, more still."""
    plan = best_purchase_plan(100)
    one = exact_expected_god_chances([best_bundle_mix(100).pulls])
    assert math.isclose(one, 3.24, rel_tol=1e-12)
    fixed = {seq: exact_expected_god_chances(list(seq)) for seq in set(itertools.permutations([25] * 6 + [12]))}
    assert plan.god_chances >= max(fixed.values()) - 1e-12
    assert max(fixed.values()) > fixed[(12,) + (25,) * 6] > one
    assert plan.god_chances > 4.4 and plan.pulls == 162


def test_purchase_plan_objective_complete() -> None:
    g = best_purchase_plan(100)
    c = best_purchase_plan(100, objective="complete")
    assert c.complete >= g.complete - 1e-12
    assert g.god_chances >= c.god_chances - 1e-12


@pytest.mark.parametrize("money, doubtful, objective", [
    (25, None, "god_chances"),
    (100, None, "god_chances"),
    (100, DoubtfulConfig(), "god_chances"),
    (150, None, "complete"),
])
def test_purchase_plan_monte_carlo_vs_exact(money: int, doubtful: DoubtfulConfig | None, objective: str,
                                            seed: int) -> None:
    """The simulator plays the plan on the true bag (in 疑惑の運営モード the plan only sees the
    chips drawn), so this also checks the planner's law of the bag given what was seen."""
    plan = best_purchase_plan(money, doubtful=doubtful, objective=objective)
    n = 60_000
    r = run_purchase_plan(plan, n, rng=seed)
    for key in ("god_chances", "pulls", "money_spent", "purchases"):
        x = r[key].astype(float)
        se = max(x.std(ddof=1), 1e-9) / math.sqrt(n)
        assert abs(x.mean() - getattr(plan, key)) <= Z * se + 1e-9, (key, x.mean(), getattr(plan, key))
    _assert_prop(r["complete"], plan.complete)


def test_money_task_both_readings() -> None:
    t = TASKS["money"]
    per = t.exact(t.defaults(money=25))
    one = t.exact(t.defaults(money=25, one_session=True))
    assert math.isclose(per["god_chances:mean"], 0.86) and per["purchases:mean"] == 2
    assert math.isclose(one["god_chances:mean"], 0.74) and one["purchases:mean"] == 1
    assert math.isclose(per["complete:proportion"], 0.0)  # at most 2 God Chances
    out = t.simulate(t.defaults(money=100, overdrive=True), 2000, rng=1)
    assert (out["money_spent"] == 100).all() and (out["pulls"] == 162).all()
