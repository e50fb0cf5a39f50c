"""Tests of gacha's rules: 課金ガチャ bundles, the rules core, strict arguments and size limits.

Golden values come from mathematics (hand derivations, brute-force enumeration),
never from a seeded run. Stochastic tests compare estimates with exact values (or
two independent simulators) at 4.5 standard errors, so they pass for any seed.
"""

from __future__ import annotations

import itertools
import math

import pytest

from gamesim.core.registry import ParamError
from gamesim.games.gacha import (
    BagConfig,
    BagState,
    DoubtfulConfig,
    RateBundle,
    bag_creation_outcomes,
    best_bundle_mix,
    coupon_collector_probability,
    exact_completion_probability,
    exact_god_chance_pmf,
    best_purchase_plan,
    exact_pulls_to_complete,
    must_rebuild,
    session_outcomes,
    simulate_pulls_to_complete,
    simulate_shared,
    split_sessions,
)


# ---------------------------------------------------------------------------
# 課金ガチャ
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("money, pulls", [(8, 4), (10, 12), (25, 37)])
def test_rulebook_bundle_examples(money: int, pulls: int) -> None:
    mix = best_bundle_mix(money)
    assert mix.pulls == pulls
    assert mix.money_spent == money


def _brute_mix(money: int, bundles: list[tuple[int, int]]) -> tuple[int, int]:
    best = (0, 0)  # (pulls, -money)
    ranges = [range(money // c + 1) for c, _ in bundles]
    for xs in itertools.product(*ranges):
        cost = sum(x * c for x, (c, _) in zip(xs, bundles))
        if cost > money:
            continue
        p = sum(x * q for x, (_, q) in zip(xs, bundles))
        best = max(best, (p, -cost))
    return best[0], -best[1]


@pytest.mark.parametrize("bundles", [[(2, 1), (10, 12), (15, 25)], [(3, 2), (7, 5), (11, 9)]])
def test_milp_matches_brute_force(bundles: list[tuple[int, int]]) -> None:
    for money in range(61):
        mix = best_bundle_mix(money, bundles)
        assert (mix.pulls, mix.money_spent) == _brute_mix(money, bundles), money
        assert mix.money_spent == sum(n * c for n, (c, _) in zip(mix.counts, bundles))


@pytest.mark.parametrize("bad", [(0, 1), (-2, 1), (2, 0), (2, -1)])
def test_bad_bundles_raise(bad: tuple[int, int]) -> None:
    with pytest.raises(ValueError):
        best_bundle_mix(10, [bad])
    with pytest.raises(ValueError):
        RateBundle(*bad)


# ---------------------------------------------------------------------------
# Rules core
# ---------------------------------------------------------------------------


def test_configs_validate() -> None:
    with pytest.raises(ValueError):
        BagConfig(0, 0, 0)
    with pytest.raises(ValueError):
        BagConfig(-1, 5, 44)
    with pytest.raises(ValueError):
        DoubtfulConfig(())
    with pytest.raises(ValueError):
        DoubtfulConfig((3, 4), (0.5, 0.6))
    assert BagConfig().total == 50


def test_split_sessions() -> None:
    assert split_sessions(100, 37) == [37, 37, 26]
    assert split_sessions(100, 10) == [10] * 10
    assert split_sessions(5, 10) == [5]


def test_must_rebuild() -> None:
    bag = BagConfig()
    assert must_rebuild(BagState((0, 5, 40), (0, 0, 0), 1), bag)  # God Chance chip drawn
    assert not must_rebuild(BagState((1, 5, 40), (0, 0, 0), 0), bag)
    # 疑惑の運営モード: the chip was removed unseen, so the bag is not remade
    assert not must_rebuild(BagState((0, 5, 40), (1, 0, 2), 0), bag)
    assert must_rebuild(BagState((0, 0, 0), (1, 0, 2), 0), bag)  # empty
    assert must_rebuild(BagState((0, 1, 1), (0, 0, 0), 1), BagConfig(2, 1, 1)) is False
    assert must_rebuild(BagState((0, 1, 1), (0, 0, 0), 2), BagConfig(2, 1, 1))


def test_creation_and_session_outcomes_sum_to_one() -> None:
    d = DoubtfulConfig()
    outs = bag_creation_outcomes(BagConfig(), d)
    assert math.isclose(sum(p for _, p in outs), 1.0)
    # P(God Chance chip removed) = E[k] / 50 = 3.5 / 50
    assert math.isclose(sum(p for s, p in outs if s.hidden[0] == 1), 3.5 / 50)
    for st, _ in outs[:5]:
        for m in (1, 10, 60):
            so = session_outcomes(st, m, BagConfig(), d)
            assert math.isclose(sum(o.probability for o in so), 1.0)
            assert all(sum(o.drawn) == m for o in so)


# ---------------------------------------------------------------------------
# Strict arguments and size limits (issue 9, points 4 and 5)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call, name", [
    (lambda: exact_completion_probability([2.5]), "sessions"),
    (lambda: exact_completion_probability([10**6]), "sessions"),
    (lambda: exact_completion_probability([10], n_characters=10**9), "n_characters"),
    (lambda: exact_completion_probability([10], n_characters=True), "n_characters"),
    (lambda: exact_god_chance_pmf([1] * 10_000), "sessions"),
    (lambda: exact_god_chance_pmf([10], counted=[1]), "counted[0]"),
    (lambda: exact_pulls_to_complete(10, max_pulls=-10), "max_pulls"),
    (lambda: exact_pulls_to_complete(10, tol=-1), "tol"),
    (lambda: exact_pulls_to_complete(10.0), "session_size"),
    (lambda: simulate_pulls_to_complete(10, 100, max_pulls=-10), "max_pulls"),
    (lambda: simulate_pulls_to_complete(10, 100, n_characters=10**9), "n_characters"),
    (lambda: simulate_pulls_to_complete(10, 2.5), "n_trials"),
    (lambda: simulate_shared([(1, 2.5)], 10), "schedule"),
    (lambda: simulate_shared([(1, 10)], 10, stop_at_completion="no"), "stop_at_completion"),
    (lambda: simulate_shared([(1, 10)], 10, overdrive_pulls=10, n_characters=1), "overdrive_pulls"),
    (lambda: BagConfig(1, 5, 10**21), "n_n"),
    (lambda: BagConfig(1, 5, 44.0), "n_n"),
    (lambda: DoubtfulConfig((3, 4), (0.5, float("nan"))), "k_probs"),
    (lambda: best_bundle_mix(25.0), "money"),
    (lambda: best_bundle_mix(10**9), "money"),
    (lambda: best_bundle_mix(25, [(2.5, 1)]), "bundles"),
    (lambda: best_purchase_plan(True), "money"),
    (lambda: best_purchase_plan(25, objective="max"), "objective"),
    (lambda: coupon_collector_probability(2.5), "n_god_chances"),
    (lambda: coupon_collector_probability(10**9), "n_god_chances"),
    (lambda: split_sessions(10**9, 1), "total_pulls"),
    (lambda: session_outcomes(BagState((1, 5, 44)), 10**6, BagConfig()), "m"),
])
def test_public_functions_refuse_bad_arguments(call, name: str) -> None:
    with pytest.raises(ParamError) as err:
        call()
    assert err.value.key == name
    assert str(err.value).startswith(f"{name} = ")
