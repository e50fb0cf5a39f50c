"""Tests of gacha's exact solver: hand calculations and brute-force enumeration.

Golden values come from mathematics (hand derivations, brute-force enumeration),
never from a seeded run. Stochastic tests compare estimates with exact values (or
two independent simulators) at 4.5 standard errors, so they pass for any seed.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import defaultdict

import numpy as np
import pytest

from gamesim.games.gacha import (
    BagConfig,
    DoubtfulConfig,
    coupon_collector_probability,
    exact_completion_curve,
    exact_completion_probability,
    exact_expected_characters_owned,
    exact_god_chance_pmf,
    exact_pulls_to_complete,
)


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
