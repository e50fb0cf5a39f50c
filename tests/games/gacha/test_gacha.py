"""Tests of ガッチャ ~God Chance~: rules core, exact solvers, simulator, reference, tasks.

Golden values come from mathematics (hand derivations, brute-force enumeration),
never from a seeded run. Stochastic tests compare estimates with exact values (or
two independent simulators) at 4.5 standard errors, so they pass for any seed.
"""

from __future__ import annotations

import functools
import itertools
import math
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.gacha import (
    BagConfig,
    BagState,
    DoubtfulConfig,
    RateBundle,
    bag_creation_outcomes,
    best_bundle_mix,
    coupon_collector_probability,
    exact_completion_curve,
    exact_completion_probability,
    exact_expected_characters_owned,
    exact_expected_god_chances,
    exact_god_chance_pmf,
    exact_shared,
    best_purchase_plan,
    run_purchase_plan,
    exact_pulls_to_complete,
    must_rebuild,
    reference_pulls_to_complete,
    reference_schedule,
    reference_shared,
    session_outcomes,
    simulate_pulls_to_complete,
    simulate_schedule,
    simulate_shared,
    split_sessions,
)
from gamesim.games.gacha.tasks import TASKS
from tests.conftest import assert_same_mean

Z = 4.5
ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def seed() -> int:
    """A fresh seed each run: stochastic tests must pass for any seed."""
    return int(np.random.SeedSequence().entropy % (2**32))


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
# Exact solver: hand calculations and brute force
# ---------------------------------------------------------------------------


def test_pmf_hand_calculations() -> None:
    # 50 pulls empty the default bag: exactly its one God Chance chip
    np.testing.assert_allclose(exact_god_chance_pmf([50]), [0, 1], atol=1e-15)
    np.testing.assert_allclose(exact_god_chance_pmf([100]), [0, 0, 1], atol=1e-15)
    # one pull: 1/50
    np.testing.assert_allclose(exact_god_chance_pmf([1]), [49 / 50, 1 / 50], atol=1e-15)
    # 49 pulls: the chip is among them unless it is the last one left
    np.testing.assert_allclose(exact_god_chance_pmf([49]), [1 / 50, 49 / 50], atol=1e-15)
    # 51 pulls: one chip from the first bag, then 1 pull of the remade bag
    np.testing.assert_allclose(exact_god_chance_pmf([51]), [0, 49 / 50, 1 / 50], atol=1e-15)
    # two single pulls: a God Chance on pull 1 (1/50) remakes the bag, so pull 2 is 1/50
    # again; otherwise pull 2 sees 49 chips with the God Chance chip: 1/49.
    p2 = (1 / 50) * (1 / 50)
    p1 = (1 / 50) * (49 / 50) + (49 / 50) * (1 / 49)
    np.testing.assert_allclose(exact_god_chance_pmf([1, 1]), [1 - p1 - p2, p1, p2], atol=1e-15)
    # at least one God Chance: 1/50 + 49/50 * 1/49 = 2/50 (no God Chance: 49/50 * 48/49)
    pmf = exact_god_chance_pmf([1, 1])
    assert math.isclose(pmf[1:].sum(), 2 / 50)
    assert math.isclose(pmf @ np.arange(3), 1 / 50 + (1 / 50) ** 2 + (49 / 50) * (1 / 49))


def _enumerate_pmf(sessions: list[int], bag: BagConfig, k_dist: dict[int, float] | None
                   ) -> dict[int, float]:
    """Brute force over every chip order: the bag as a tuple of chips, one chip drawn at a
    time (every chip in the bag equally likely), memoised on (session, pulls left, bag,
    God Chance chips drawn since the bag was made)."""
    full = (0,) * bag.n_god_chance + (1,) * bag.n_sr + (2,) * bag.n_n

    def creations() -> list[tuple[tuple[int, ...], float]]:
        if k_dist is None:
            return [(full, 1.0)]
        out = []
        for k, pk in k_dist.items():
            subsets = list(itertools.combinations(range(len(full)), k))
            for sub in subsets:
                rest = tuple(c for i, c in enumerate(full) if i not in sub)
                out.append((rest, pk / len(subsets)))
        return out

    def mix(parts: list[tuple[dict[int, float], float, int]]) -> dict[int, float]:
        acc: dict[int, float] = defaultdict(float)
        for dist, w, shift in parts:
            for g, p in dist.items():
                acc[g + shift] += w * p
        return dict(acc)

    @functools.lru_cache(maxsize=None)
    def run(j: int, b: tuple[int, ...], gd: int) -> dict[int, float]:
        if j == len(sessions):
            return {0: 1.0}
        return pull(j, sessions[j], b, gd)

    @functools.lru_cache(maxsize=None)
    def pull(j: int, left: int, b: tuple[int, ...], gd: int) -> dict[int, float]:
        if left == 0:  # end of session
            if len(b) == 0 or gd >= bag.n_god_chance:
                return mix([(run(j + 1, nb, 0), r, 0) for nb, r in creations()])
            return run(j + 1, b, gd)
        if len(b) == 0:  # empty mid-session: remake and keep pulling
            return mix([(pull(j, left, nb, 0), r, 0) for nb, r in creations()])
        parts = []
        for i in range(len(b)):
            c = b[i]
            parts.append((pull(j, left - 1, b[:i] + b[i + 1:], gd + (c == 0)), 1 / len(b), int(c == 0)))
        return mix(parts)

    return mix([(run(0, b0, 0), r0, 0) for b0, r0 in creations()])


@pytest.mark.parametrize("bag", [BagConfig(1, 1, 2), BagConfig(2, 1, 1)])
@pytest.mark.parametrize("sessions", [[1, 1, 1, 1, 1], [2, 3], [3, 3, 3], [5], [1, 4, 2], [4, 1]])
@pytest.mark.parametrize("doubtful", [None, DoubtfulConfig((1, 2))])
def test_pmf_matches_enumeration(bag: BagConfig, sessions: list[int], doubtful: DoubtfulConfig | None) -> None:
    k_dist = None if doubtful is None else dict(zip(doubtful.k_values, doubtful.probabilities))
    brute = _enumerate_pmf(sessions, bag, k_dist)
    pmf = exact_god_chance_pmf(sessions, bag=bag, doubtful=doubtful)
    assert math.isclose(pmf.sum(), 1.0)
    expect = np.zeros(max(max(brute) + 1, pmf.size))
    for g, p in brute.items():
        expect[g] = p
    got = np.zeros_like(expect)
    got[: pmf.size] = pmf
    np.testing.assert_allclose(got, expect, atol=1e-12)


def test_pmf_sums_to_one_and_counted() -> None:
    for ses in ([1] * 100, [10] * 10, [37, 37, 26], [60] * 3):
        assert math.isclose(exact_god_chance_pmf(ses).sum(), 1.0)
        assert math.isclose(exact_god_chance_pmf(ses, doubtful=DoubtfulConfig()).sum(), 1.0)
    # counted splits the expectation between players
    ses = [10, 1] * 10
    e = lambda pmf: pmf @ np.arange(pmf.size)  # noqa: E731
    tot = e(exact_god_chance_pmf(ses))
    a = e(exact_god_chance_pmf(ses, counted=[True, False] * 10))
    b = e(exact_god_chance_pmf(ses, counted=[False, True] * 10))
    assert math.isclose(a + b, tot)


def test_coupon_collector_against_enumeration() -> None:
    for n in (1, 2, 3, 4):
        for g in range(7):
            hits = sum(len(set(seq)) == n for seq in itertools.product(range(n), repeat=g))
            assert math.isclose(coupon_collector_probability(g, n), hits / n**g, abs_tol=1e-14)
    gs = np.arange(40)
    n = 5
    formula = sum((-1) ** j * math.comb(n, j) * (1 - j / n) ** gs for j in range(n + 1))
    np.testing.assert_allclose(coupon_collector_probability(gs, n), formula, atol=1e-13)


def test_completion_curve_and_pulls_to_complete() -> None:
    ses = [10] * 30
    curve = exact_completion_curve(ses)
    assert np.all(np.diff(curve) >= -1e-15)
    assert math.isclose(curve[-1], exact_completion_probability(ses), rel_tol=1e-10)
    assert math.isclose(curve[9], exact_completion_probability(ses[:10]), rel_tol=1e-10)
    # single pulls: the God Chance chip's position in a bag of 50 is uniform (mean 25.5
    # pulls per God Chance, the bag is remade when it is drawn); coupon collector mean
    # for 5 characters is 5 * H_5 God Chances.
    h5 = 5 * sum(1 / i for i in range(1, 6))
    assert math.isclose(exact_pulls_to_complete(1)["mean"], 25.5 * h5, rel_tol=1e-9)
    # sessions of 50: exactly one God Chance per session
    r = exact_pulls_to_complete(50, quantiles=(0.5, 0.9))
    assert math.isclose(r["mean"], 50 * h5, rel_tol=1e-9)
    cc = coupon_collector_probability(np.arange(200), 5)
    assert r["q50"] == 50 * int(np.argmax(cc >= 0.5))
    assert r["q90"] == 50 * int(np.argmax(cc >= 0.9))
    # expected characters owned: one session of 50 pulls = 1 God Chance = 1 character
    assert math.isclose(exact_expected_characters_owned([50]), 1.0)


# ---------------------------------------------------------------------------
# Monte Carlo vs exact
# ---------------------------------------------------------------------------


def _assert_mean(x: np.ndarray, exact_mean: float, exact_var: float) -> None:
    se = math.sqrt(exact_var / x.size)
    assert abs(x.mean() - exact_mean) <= Z * se + 1e-12, (x.mean(), exact_mean, se)


def _assert_prop(x: np.ndarray, p: float) -> None:
    se = math.sqrt(max(p * (1 - p), 1e-12) / x.size)
    assert abs(x.mean() - p) <= Z * se + 1e-12, (x.mean(), p, se)


@pytest.mark.parametrize("sessions, doubtful", [
    ([1] * 100, None),
    ([10] * 10, None),
    ([37, 37, 26], None),
    ([60] * 3, None),
    ([10] * 10, DoubtfulConfig()),
    ([37, 37, 26], DoubtfulConfig((3, 4), (0.25, 0.75))),
])
def test_monte_carlo_vs_exact(sessions: list[int], doubtful: DoubtfulConfig | None, seed: int) -> None:
    n = 100_000
    df = simulate_schedule(sessions, n, rng=seed, doubtful=doubtful)
    pmf = exact_god_chance_pmf(sessions, doubtful=doubtful)
    g = np.arange(pmf.size)
    mean = pmf @ g
    _assert_mean(df.god_chances.to_numpy(), mean, pmf @ g**2 - mean**2)
    _assert_prop(df.complete.to_numpy(), exact_completion_probability(sessions, doubtful=doubtful))
    # characters owned: E and Var from the exact law of the owned count
    owned_mean = exact_expected_characters_owned(sessions, doubtful=doubtful)
    assert abs(df.characters_owned.mean() - owned_mean) <= Z * df.characters_owned.std() / math.sqrt(n) + 1e-12


def test_shared_vs_exact(seed: int) -> None:
    sched = [(1, 10), (2, 1)] * 10
    n = 100_000
    df = simulate_shared(sched, n, rng=seed, stop_at_completion=False)
    ses = [m for _, m in sched]
    for i in (1, 2):
        counted = [p == i for p, _ in sched]
        pmf = exact_god_chance_pmf(ses, counted=counted)
        g = np.arange(pmf.size)
        mean = pmf @ g
        _assert_mean(df[f"god_chances_p{i}"].to_numpy(), mean, pmf @ g**2 - mean**2)
        _assert_prop(df[f"complete_p{i}"].to_numpy(), exact_completion_probability(ses, counted=counted))


@pytest.mark.parametrize("size, doubtful", [(10, None), (1, None), (37, DoubtfulConfig())])
def test_pulls_to_complete_vs_exact(size: int, doubtful: DoubtfulConfig | None, seed: int) -> None:
    n = 20_000
    df = simulate_pulls_to_complete(size, n, max_pulls=20_000, rng=seed, doubtful=doubtful)
    ex = exact_pulls_to_complete(size, doubtful=doubtful, max_pulls=20_000)
    x = df.pulls_to_complete.to_numpy()
    assert not np.isnan(x).any()  # P(censored) is astronomically small here
    assert abs(x.mean() - ex["mean"]) <= Z * x.std(ddof=1) / math.sqrt(n)
    # P(T <= exact q50) >= 0.5 > P(T <= q50 - size): check both with binomial SEs
    for q in (0.5, 0.9):
        qv = ex[f"q{round(100 * q)}"]
        se = math.sqrt(q * (1 - q) / n)
        assert (x <= qv).mean() >= q - Z * se
        assert (x <= qv - size).mean() <= q + Z * se


def test_censoring() -> None:
    df = simulate_pulls_to_complete(10, 2000, max_pulls=30, rng=0)
    # 3 sessions of 10 pulls give at most 3 God Chances: never 5 characters
    assert df.pulls_to_complete.isna().all()
    ex = exact_pulls_to_complete(10, max_pulls=30)
    assert ex["completed"] == 0.0


# ---------------------------------------------------------------------------
# Vectorized vs plain-Python reference (Overdrive: no exact oracle)
# ---------------------------------------------------------------------------


def _two_sample(a: pd.Series, b: pd.Series) -> None:
    assert_same_mean(a, b, z=Z, label=str(a.name))


@pytest.mark.parametrize("sessions, doubtful, overdrive", [
    ([10] * 5, None, 10),
    ([1] * 30 + [10] * 3, DoubtfulConfig(), 10),
    ([25, 25], None, 3),
    ([10] * 5, None, None),
])
def test_vectorized_vs_reference(sessions: list[int], doubtful: DoubtfulConfig | None,
                                 overdrive: int | None, seed: int) -> None:
    ss = np.random.SeedSequence(seed).spawn(2)
    vec = simulate_schedule(sessions, 100_000, rng=ss[0], doubtful=doubtful, overdrive_pulls=overdrive)
    ref = reference_schedule(sessions, 3_000, rng=ss[1], doubtful=doubtful, overdrive_pulls=overdrive)
    for col in ("god_chances", "characters_owned", "sr_drawn", "pulls", "complete"):
        _two_sample(vec[col].astype(float), ref[col].astype(float))


def test_shared_and_ptc_vs_reference_with_overdrive(seed: int) -> None:
    ss = np.random.SeedSequence(seed).spawn(4)
    sched = [(1, 10), (2, 5)] * 4
    vec = simulate_shared(sched, 100_000, rng=ss[0], overdrive_pulls=10, stop_at_completion=False)
    ref = reference_shared(sched, 3_000, rng=ss[1], overdrive_pulls=10)
    for col in ("god_chances_p1", "god_chances_p2", "pulls_p1", "pulls_p2", "characters_owned_p2"):
        _two_sample(vec[col].astype(float), ref[col].astype(float))
    v = simulate_pulls_to_complete(10, 50_000, rng=ss[2], overdrive_pulls=10)
    r = reference_pulls_to_complete(10, 600, rng=ss[3], overdrive_pulls=10)
    _two_sample(v.pulls_to_complete, r.pulls_to_complete)


# ---------------------------------------------------------------------------
# Reproducibility and invariants
# ---------------------------------------------------------------------------


def test_reproducible() -> None:
    kw = dict(doubtful=DoubtfulConfig(), overdrive_pulls=10)
    pd.testing.assert_frame_equal(simulate_schedule([10] * 10, 5000, rng=7, **kw),
                                  simulate_schedule([10] * 10, 5000, rng=7, **kw))
    pd.testing.assert_frame_equal(simulate_shared([(1, 10), (2, 3)] * 5, 5000, rng=7, **kw),
                                  simulate_shared([(1, 10), (2, 3)] * 5, 5000, rng=7, **kw))
    pd.testing.assert_frame_equal(simulate_shared([(1, 10), (2, 3)] * 40, 5000, rng=7, **kw),
                                  simulate_shared([(1, 10), (2, 3)] * 40, 5000, rng=7, **kw))
    pd.testing.assert_frame_equal(simulate_pulls_to_complete(10, 3000, rng=7, **kw),
                                  simulate_pulls_to_complete(10, 3000, rng=7, **kw))
    a = simulate_schedule([10] * 10, 5000, rng=7)
    b = simulate_schedule([10] * 10, 5000, rng=8)
    assert not a.equals(b)


def test_chunking_matches_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamesim.games.gacha import sim
    monkeypatch.setattr(sim, "CHUNK_SIZE", 1000)
    df = simulate_schedule([60, 60], 2500, rng=1)
    assert len(df) == 2500
    assert (df.god_chances >= 2).all()  # 120 pulls span more than two full bags


@pytest.mark.parametrize("overdrive", [None, 10])
def test_invariants(overdrive: int | None) -> None:
    n_chars = 4
    ses = [1] * 20 + [60, 37]
    df = simulate_schedule(ses, 20_000, rng=3, n_characters=n_chars, overdrive_pulls=overdrive,
                           doubtful=DoubtfulConfig())
    assert (df.god_chances <= df.pulls).all()
    assert (df.sr_drawn + df.god_chances <= df.pulls).all()
    assert (df.characters_owned <= np.minimum(df.god_chances, n_chars)).all()
    assert (df.complete == (df.characters_owned == n_chars)).all()
    if overdrive is None:
        assert (df.pulls == sum(ses)).all()
    else:
        assert ((df.pulls - sum(ses)) % overdrive == 0).all()
    ptc = simulate_pulls_to_complete(7, 5000, rng=3, overdrive_pulls=overdrive)
    done = ptc.pulls_to_complete.dropna()
    assert (done % 7 == 0).all()
    assert (ptc.god_chances[ptc.pulls_to_complete.notna()] >= 5).all()


def test_no_god_chance_chip() -> None:
    df = simulate_schedule([10] * 10, 1000, rng=0, bag=BagConfig(0, 5, 45))
    assert (df.god_chances == 0).all()
    np.testing.assert_allclose(exact_god_chance_pmf([10] * 10, bag=BagConfig(0, 5, 45)), [1.0])


# ---------------------------------------------------------------------------
# Tasks
# ---------------------------------------------------------------------------


def test_registered_tasks_and_exact_keys() -> None:
    game = get_game("gacha")
    assert set(game.tasks) == {"schedule", "pulls_to_complete", "money", "shared"}
    rng = np.random.default_rng(0)
    for task in game.tasks.values():
        p = task.defaults()
        task.check(p)
        metrics = task.metrics_for(p)
        out = task.simulate(p, 500, rng=rng)
        assert set(out) == {m.name for m in metrics}
        assert all(v.shape == (500,) for v in out.values())
        ex = task.exact(p)
        assert ex and {k.split(":")[0] for k in ex} <= {m.name for m in metrics}
        ex_od = task.exact(task.defaults(overdrive=True))  # no exact Overdrive model
        assert set(ex_od) <= {"pulls:mean", "money_spent:mean", "purchases:mean"}
    money = TASKS["money"]
    assert money.exact(money.defaults())["pulls:mean"] == 37
    assert money.exact(money.defaults(one_session=True))["pulls:mean"] == 37
    zero = money.simulate(money.defaults(money=1), 10, rng=rng)
    assert (zero["pulls"] == 0).all() and (zero["god_chances"] == 0).all()
    zero = money.simulate(money.defaults(money=1, one_session=True), 10, rng=rng)
    assert (zero["pulls"] == 0).all() and (zero["god_chances"] == 0).all()


@pytest.mark.parametrize("task, overrides, key", [
    ("schedule", dict(bag_god_chance=0, bag_sr=0, bag_n=0), "bag_total"),
    ("schedule", dict(bag_total=49), "bag_total"),
    ("schedule", dict(bag_n=-1), "bag_n"),
    ("schedule", dict(doubtful=True, doubtful_k=[3, 50]), "doubtful_k"),
    ("schedule", dict(doubtful_k=[]), "doubtful_k"),
    ("schedule", dict(sessions=[10, 0]), "sessions"),
    ("pulls_to_complete", dict(max_pulls=0), "max_pulls"),
    ("money", dict(bundles=[[0, 1]]), "bundles"),
    ("money", dict(money=-1), "money"),
    ("money", dict(money=25.0), "money"),
    ("money", dict(money=10**6), "money"),
    ("money", dict(objective="most"), "objective"),
    ("money", dict(one_session="no"), "one_session"),
    ("shared", dict(schedule=[[1, 10], [3, 1]]), "schedule"),
    ("shared", dict(n_players=5), "n_players"),
    ("shared", dict(n_rounds=10**6), "n_rounds"),
    ("shared", dict(stop_at_completion=1), "stop_at_completion"),
    ("schedule", dict(bag_n=10**21), "bag_n"),
    ("schedule", dict(bag_n=44.0), "bag_n"),
    ("schedule", dict(n_characters=10**9), "n_characters"),
    ("schedule", dict(overdrive=True, n_characters=1), "overdrive_pulls"),
    ("schedule", dict(total_pulls=10**9), "total_pulls"),
    ("schedule", dict(session_size=True), "session_size"),
    ("pulls_to_complete", dict(max_pulls=-10), "max_pulls"),
    ("pulls_to_complete", dict(session_size=1, max_pulls=10**6), "max_pulls"),
])
def test_task_check_errors(task: str, overrides: dict, key: str) -> None:
    t = TASKS[task]
    with pytest.raises(ParamError) as err:
        t.check(t.defaults(**overrides))
    assert err.value.key == key
    assert key in str(err.value)


def test_task_bag_total_ok() -> None:
    t = TASKS["schedule"]
    t.check(t.defaults(bag_total=50))


def test_benchmark_quick() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_gacha.py"), "--quick",
                        "--trials", "5000", "--ref-trials", "50"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "pulls/s" in r.stdout and "speedup" in r.stdout
    # both baselines' ratios and the bare-draw overhead (issue 10)
    for line in ("random-module plain Python", "numpy-scalar reference", "bare draws time"):
        assert r.stdout.count(line) == 2, line


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


# ---------------------------------------------------------------------------
# Shared bag: コンスリート ends the game
# ---------------------------------------------------------------------------


def test_shared_hand_computed_first_completion() -> None:
    """「いずれかのラウンド中にURキャラカードを全て集めたスレイヤーは直ちにゲームに勝利します」.
    One character, a bag of 1 God Chance + 1 N chip, players 1 then 2 pull one chip each:
    player 1 wins with 1/2; otherwise the chip is the last one in the bag and player 2
    draws it: 1/2. Without the stop, player 2 would also "complete" after player 1's win
    (the bag is remade: 1/2), 1/2 * 1/2 + 1/2 = 3/4."""
    bag = BagConfig(1, 0, 1)
    ex = exact_shared([(1, 1), (2, 1)], bag=bag, n_characters=1)
    assert math.isclose(ex["complete_p1"], 0.5) and math.isclose(ex["complete_p2"], 0.5)
    assert math.isclose(ex["nobody_completes"], 0.0, abs_tol=1e-15)
    assert math.isclose(ex["god_chances_p2"], 0.5)
    keep = exact_shared([(1, 1), (2, 1)], bag=bag, n_characters=1, stop_at_completion=False)
    assert math.isclose(keep["complete_p2"], 0.75) and math.isclose(keep["god_chances_p2"], 0.75)


def test_exact_shared_consistent() -> None:
    sch = [(1, 10), (2, 5)] * 15
    stop = exact_shared(sch)
    keep = exact_shared(sch, stop_at_completion=False)
    # the first completion happens at the same time in both readings
    assert math.isclose(stop["nobody_completes"], keep["nobody_completes"], rel_tol=1e-12)
    assert math.isclose(stop["complete_p1"] + stop["complete_p2"] + stop["nobody_completes"], 1.0)
    ses = [m for _, m in sch]
    for i in (1, 2):
        counted = [p == i for p, _ in sch]
        assert math.isclose(keep[f"complete_p{i}"], exact_completion_probability(ses, counted=counted))
        assert math.isclose(keep[f"god_chances_p{i}"], exact_expected_god_chances(ses, counted=counted))
        assert stop[f"complete_p{i}"] < keep[f"complete_p{i}"]


@pytest.mark.parametrize("overdrive", [None, 10])
def test_shared_stop_vs_exact_and_reference(overdrive: int | None, seed: int) -> None:
    sch = [(1, 10), (2, 10)] * 20
    n = 100_000
    df = simulate_shared(sch, n, rng=seed, overdrive_pulls=overdrive)
    assert ((df.winner == 1) == df.complete_p1).all() and ((df.winner == 2) == df.complete_p2).all()
    assert not (df.complete_p1 & df.complete_p2).any()
    if overdrive is None:
        ex = exact_shared(sch)
        for i in (1, 2):
            _assert_prop(df[f"complete_p{i}"].to_numpy(), ex[f"complete_p{i}"])
            x = df[f"god_chances_p{i}"].to_numpy(float)
            assert abs(x.mean() - ex[f"god_chances_p{i}"]) <= Z * x.std(ddof=1) / math.sqrt(n)
        _assert_prop((df.winner == 0).to_numpy(), ex["nobody_completes"])
    else:  # no exact Overdrive model: the first player to complete under the scalar reference
        ss = np.random.SeedSequence(seed).spawn(1)[0]
        gen = np.random.default_rng(ss)
        from gamesim.games.gacha.reference import ReferenceGame
        wins = []
        for _ in range(3000):
            g = ReferenceGame(2, gen, BagConfig(), 5, None, overdrive)
            w = 0
            for p, m in sch:
                g.pull(p, m)
                if len(g.owned[p - 1]) == 5:
                    w = p
                    break
            wins.append(w)
        wins = pd.Series(wins, dtype=float)
        for i in (0, 1, 2):
            _two_sample((df.winner == i).astype(float).rename(f"winner={i}"), (wins == i).astype(float))


def test_shared_task_metrics() -> None:
    t = TASKS["shared"]
    p = t.defaults(n_rounds=40)
    names = {m.name for m in t.metrics_for(p)}
    assert names == {"god_chances_p1", "complete_p1", "god_chances_p2", "complete_p2", "nobody_completes"}
    ex = t.exact(p)
    assert math.isclose(ex["complete_p1:proportion"] + ex["complete_p2:proportion"]
                        + ex["nobody_completes:proportion"], 1.0)
    out = t.simulate(p, 1000, rng=0)
    assert not (out["complete_p1"] & out["complete_p2"]).any()


# ---------------------------------------------------------------------------
# Overdrive is normal play (every player has a navi card)
# ---------------------------------------------------------------------------


def test_builtin_study_plays_normal_mode() -> None:
    """「ナビキャラカードの決定: …各スレイヤーに1枚ずつ配ります」: every player has a navi card;
    エキスパートモード (「全てのスレイヤーが「ナビキャラカード」を使用できません」) is the variant.
    The built-in study defaults to Overdrive on; expert mode is shown beside it."""
    from gamesim.core.scenario import load_scenario
    sc = load_scenario(ROOT / "scenarios" / "gacha_god_chance.toml")
    seen = set()
    for part in sc.parts:
        for cell in part.cells():
            seen.add(cell["overdrive"])
            if "overdrive" not in part.grid:
                assert cell["overdrive"] is True, part.name
    assert seen == {True, False}


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
