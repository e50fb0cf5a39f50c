"""Tests of the one-draw-per-bag schedule kernel of :func:`gamesim.games.gacha.sim.run_schedule`.

Oracles: the exact dynamic programme (:mod:`gamesim.games.gacha.exact`), exact
enumeration of small bags, the identity E[SR drawn] = (pulls - E[God Chances]) *
n_sr / (n_sr + n_n) (every non-God-Chance chip drawn is SR with that probability), and
two-sample tests against the chip-by-chip reference. Fresh seeds every run.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import hypergeom

from gamesim.games.gacha import sim
from gamesim.games.gacha.exact import (
    exact_completion_probability,
    exact_expected_characters_owned,
    exact_god_chance_pmf,
)
from gamesim.games.gacha.reference import reference_schedule
from gamesim.games.gacha.rules import BagConfig, DoubtfulConfig
from tests.conftest import assert_count, assert_same_mean

Z = 4.5


@pytest.fixture
def seed() -> int:
    return int(np.random.SeedSequence().generate_state(1)[0])


def _alias_pmf(prob: np.ndarray, alias: np.ndarray, k: int) -> np.ndarray:
    """The law an alias table samples: outcome j w.p. prob[j]/k, alias[j] w.p. (1 - prob[j])/k."""
    rows = prob.size // k
    out = np.zeros((rows, k))
    for r in range(rows):
        for j in range(k):
            out[r, j] += prob[r * k + j] / k
            out[r, alias[r * k + j]] += (1.0 - prob[r * k + j]) / k
    return out


def test_alias_tables_reproduce_the_law() -> None:
    rng = np.random.default_rng(0)
    pmf = rng.random((20, 7)) ** 3
    pmf[3, 2:] = 0.0  # zeros
    pmf[4] = 0.0
    pmf[4, 5] = 1.0  # a point mass
    pmf /= pmf.sum(axis=1, keepdims=True)
    prob, alias = sim._alias_table(pmf)
    np.testing.assert_allclose(_alias_pmf(prob, alias, 7), pmf, atol=1e-14)


def test_guide_table_is_the_inverse_cdf() -> None:
    """Every pure bin gives the inverse CDF at both its ends; the CDF rows are the SR law."""
    cy = sim._cycles(BagConfig(), None)
    g = cy.sr_guide
    o = np.arange(50)[:, None]
    pmf = hypergeom.pmf(np.arange(6)[None, :], 49, 5, o)
    np.testing.assert_allclose(g.cdf, np.cumsum(pmf, axis=1)[:, :5], atol=1e-14)
    q = g.q.reshape(50, g.bins)
    lo = np.arange(g.bins) / g.bins
    hi = np.nextafter(np.arange(1, g.bins + 1) / g.bins, 0)
    for r in range(50):
        at_lo = (g.cdf[r][None, :] <= lo[:, None]).sum(axis=1)
        at_hi = (g.cdf[r][None, :] <= hi[:, None]).sum(axis=1)
        pure = q[r] >= 0
        assert (q[r][pure] == at_lo[pure]).all() and (q[r][pure] == at_hi[pure]).all()
        assert (at_lo[~pure] != at_hi[~pure]).all()  # a bin is marked only where the CDF steps inside it
    # draws, ambiguous bins included, equal the inverse CDF of their uniform
    u = np.random.default_rng(5).random(200_000)
    rows = np.random.default_rng(6).integers(0, 50, u.size)
    got = sim._guide_draw(u, rows * g.bins, g)
    want = (g.cdf[rows] <= u[:, None]).sum(axis=1)
    np.testing.assert_array_equal(got, want)


def test_alias_draw_frequencies(seed: int) -> None:
    pmf = np.array([[0.5, 0.25, 0.125, 0.125], [0.0, 0.0, 1.0, 0.0]])
    prob, alias = sim._alias_table(pmf)
    n = 200_000
    gen = np.random.default_rng(seed)
    x = sim._alias_draw(gen.random(n), np.zeros(n, dtype=np.int64), 4, prob, alias)
    freq = np.bincount(x, minlength=4) / n
    assert np.all(np.abs(freq - pmf[0]) <= Z * np.sqrt(pmf[0] * (1 - pmf[0]) / n) + 1e-12)
    y = sim._alias_draw(gen.random(n), np.ones(n, dtype=np.int64), 4, prob, alias)
    assert (y == 2).all()


def _enumerated_cycles(bag: BagConfig, k_values: tuple[int, ...]) -> dict[tuple[int, int, int], Fraction]:
    """(X, God Chance chips of a complete cycle, chips in bag) by enumerating every removal and order."""
    chips = [0] * bag.n_god_chance + [1] * (bag.n_sr + bag.n_n)
    law: dict[tuple[int, int, int], Fraction] = {}
    for k in k_values:
        perms = list(itertools.permutations(range(len(chips))))
        w = Fraction(1, len(k_values) * len(perms))
        for perm in perms:  # the first k positions are removed, the rest is the drawing order
            order = [chips[i] for i in perm[k:]]
            cap = len(order)
            gc_in = sum(1 for c in order if c == 0)
            if bag.n_god_chance == 0:
                key = (1, 0, cap)
            elif gc_in < bag.n_god_chance:
                key = (cap, gc_in, cap)
            else:
                key = (max(i + 1 for i, c in enumerate(order) if c == 0), gc_in, cap)
            law[key] = law.get(key, Fraction(0)) + w
    return law


@pytest.mark.parametrize("bag, doubtful", [
    (BagConfig(1, 2, 3), None),
    (BagConfig(2, 1, 3), None),
    (BagConfig(2, 2, 2), DoubtfulConfig((1, 2))),
    (BagConfig(1, 1, 4), DoubtfulConfig((0, 3))),
    (BagConfig(0, 2, 3), DoubtfulConfig((1, 2))),
])
def test_cycle_table_matches_enumeration(bag: BagConfig, doubtful: DoubtfulConfig | None) -> None:
    cy = sim._cycles(bag, doubtful)
    pmf = _alias_pmf(cy.prob, cy.alias, cy.x.size)[0]
    got: dict[tuple[int, int, int], float] = {}
    for i in range(cy.x.size):
        key = (int(cy.x[i]), int(cy.gc[i]), int(cy.cap[i]))
        got[key] = got.get(key, 0.0) + pmf[i]
    want = _enumerated_cycles(bag, (0,) if doubtful is None else doubtful.k_values)
    assert set(k for k, v in got.items() if v > 1e-15) == set(want)
    for key, p in want.items():
        assert math.isclose(got[key], float(p), abs_tol=1e-14), key


CASES = [
    ([1] * 300, BagConfig(), None, 5),
    ([1] * 100 + [10] * 10, BagConfig(), None, 5),
    ([10] * 10, BagConfig(), None, 5),
    ([37, 37, 26], BagConfig(), DoubtfulConfig(), 5),
    ([37, 37, 26], BagConfig(), DoubtfulConfig((3, 4), (0.25, 0.75)), 5),
    ([0, 60, 0, 60, 7], BagConfig(), None, 4),
    ([130], BagConfig(), DoubtfulConfig(), 5),
    ([10] * 10, BagConfig(2, 5, 43), None, 5),
    ([1] * 30 + [25, 25], BagConfig(3, 4, 13), DoubtfulConfig((1, 5)), 3),
    ([5] * 20, BagConfig(2, 0, 8), DoubtfulConfig((2,)), 6),
    ([1] * 40, BagConfig(1, 3, 0), None, 2),
]


def _check_vs_exact(df, sessions, bag, doubtful, n_chars) -> None:  # type: ignore[no-untyped-def]
    n = len(df["god_chances"])
    pmf = exact_god_chance_pmf(sessions, bag=bag, doubtful=doubtful)
    g = np.arange(pmf.size)
    mean = float(pmf @ g)
    var = float(pmf @ g**2 - mean**2)
    gc = np.asarray(df["god_chances"])
    assert abs(gc.mean() - mean) <= Z * math.sqrt(var / n) + 1e-12, (gc.mean(), mean)
    freq = np.bincount(gc, minlength=pmf.size)
    assert freq.size == pmf.size, "a God Chance count the exact law says is impossible"
    for k in np.flatnonzero(pmf > 1e-3):
        assert_count(freq[k], n, float(pmf[k]), z=Z, label=f"{k} God Chances")
    pc = exact_completion_probability(sessions, bag=bag, n_characters=n_chars, doubtful=doubtful)
    comp = np.asarray(df["complete"], dtype=float)
    assert abs(comp.mean() - pc) <= Z * math.sqrt(max(pc * (1 - pc), 1e-12) / n) + 1e-12
    own = np.asarray(df["characters_owned"], dtype=float)
    eo = exact_expected_characters_owned(sessions, bag=bag, n_characters=n_chars, doubtful=doubtful)
    # The sample's spread understates the true one where missing a character is rare (a few games in
    # 100,000: one seed saw 1 where 7 were expected). The Bhatia-Davis bound, var <= (max - mean)(mean - min)
    # with the exact mean and the values' range 0..n_chars, bounds the true variance whatever the seed.
    sd = max(own.std(), math.sqrt(max((n_chars - eo) * eo, 0.0)), 1e-3)
    assert abs(own.mean() - eo) <= Z * sd / math.sqrt(n) + 1e-12, (own.mean(), eo)
    # every chip drawn that is no God Chance chip is SR with probability n_sr / (n_sr + n_n)
    total = sum(sessions)
    esr = (total - mean) * bag.n_sr / (bag.n_sr + bag.n_n)
    sr = np.asarray(df["sr_drawn"], dtype=float)
    assert abs(sr.mean() - esr) <= Z * max(sr.std(), 1e-3) / math.sqrt(n) + 1e-12, (sr.mean(), esr)
    assert (np.asarray(df["pulls"]) == total).all()
    assert (sr + gc <= total).all()


@pytest.mark.parametrize("sessions, bag, doubtful, n_chars", CASES)
def test_kernel_vs_exact(sessions, bag, doubtful, n_chars, seed: int) -> None:  # type: ignore[no-untyped-def]
    r = sim.run_schedule(sessions, 100_000, rng=seed, bag=bag, doubtful=doubtful, n_characters=n_chars)
    _check_vs_exact(r, sessions, bag, doubtful, n_chars)


def test_fallback_paths_vs_exact(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Large-configuration fallbacks: hypergeometric SR, card-by-card owned counts, searchsorted ends."""
    monkeypatch.setattr(sim, "_ALIAS_MAX", 10)
    monkeypatch.setattr(sim, "_GUIDE_MAX", 10)
    monkeypatch.setattr(sim, "_END_TABLE_MAX", 10)
    sim._cycles.cache_clear()
    try:
        for sessions, bag, doubtful, n_chars in (CASES[1], CASES[3], CASES[8]):
            r = sim.run_schedule(sessions, 50_000, rng=seed, bag=bag, doubtful=doubtful, n_characters=n_chars)
            assert sim._cycles(bag, doubtful).sr_guide is None
            _check_vs_exact(r, sessions, bag, doubtful, n_chars)
    finally:
        sim._cycles.cache_clear()


def test_untabulated_cycle_loop_vs_exact(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The cycle loop without the (pulls so far, outcome) table, as used for long schedules."""
    monkeypatch.setattr(sim, "_STATE_TABLE_MAX", 0)
    for sessions, bag, doubtful, n_chars in (CASES[1], CASES[4], CASES[5]):
        r = sim.run_schedule(sessions, 50_000, rng=seed, bag=bag, doubtful=doubtful, n_characters=n_chars)
        _check_vs_exact(r, sessions, bag, doubtful, n_chars)


def test_old_path_still_used_for_large_bags(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    monkeypatch.setattr(sim, "_CYCLE_BAG_MAX", 10)
    called = []
    monkeypatch.setattr(sim, "_schedule_cycles", lambda *a, **k: called.append(1))
    r = sim.run_schedule([10] * 10, 50_000, rng=seed)
    assert not called
    _check_vs_exact(r, [10] * 10, BagConfig(), None, 5)


@pytest.mark.parametrize("sessions, bag, doubtful", [
    ([1] * 30 + [10] * 3, BagConfig(), DoubtfulConfig()),
    ([3, 0, 12, 40], BagConfig(0, 5, 45), DoubtfulConfig()),
    ([20] * 4, BagConfig(3, 2, 10), DoubtfulConfig((2, 6))),
])
def test_kernel_vs_reference(sessions, bag, doubtful, seed: int) -> None:  # type: ignore[no-untyped-def]
    """Whole per-trial law (SR counts and owned counts included) against the chip-by-chip reference."""
    ss = np.random.SeedSequence(seed).spawn(2)
    vec = sim.simulate_schedule(sessions, 100_000, rng=ss[0], bag=bag, doubtful=doubtful, n_characters=4)
    ref = reference_schedule(sessions, 3_000, rng=ss[1], bag=bag, doubtful=doubtful, n_characters=4)
    for col in ("god_chances", "characters_owned", "sr_drawn", "pulls", "complete"):
        assert_same_mean(vec[col].astype(float), ref[col].astype(float), z=Z, label=col)
    for col in ("god_chances", "sr_drawn"):  # second moments too
        assert_same_mean(vec[col].astype(float) ** 2, ref[col].astype(float) ** 2, z=Z, label=col + "^2")


def test_edge_cases_and_reproducibility() -> None:
    empty = sim.run_schedule([], 10, rng=0)
    assert (empty["god_chances"] == 0).all() and (empty["pulls"] == 0).all()
    zero = sim.run_schedule([0, 0], 5, rng=0)
    assert (zero["sr_drawn"] == 0).all()
    none = sim.run_schedule([10], 0, rng=0)
    assert none["god_chances"].shape == (0,)
    a = sim.run_schedule([1] * 50, 3000, rng=11, doubtful=DoubtfulConfig())
    b = sim.run_schedule([1] * 50, 3000, rng=11, doubtful=DoubtfulConfig())
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    # a whole bag is always drawn by 50 pulls: exactly one God Chance per full bag
    full = sim.run_schedule([50, 50], 2000, rng=1)
    assert (full["god_chances"] == 2).all() and (full["sr_drawn"] == 10).all()
    with pytest.raises(ValueError, match=r"sessions = \[10, -1\]"):
        sim.run_schedule([10, -1], 10, rng=0)
    with pytest.raises(ValueError, match="n_characters"):
        sim.run_schedule([10], 10, rng=0, n_characters=0)
    with pytest.raises(ValueError, match="n_trials"):
        sim.run_schedule([10], -1, rng=0)


def _owned_law(n: int, g: int) -> np.ndarray:
    """P(c distinct of n cards after g uniform draws) = C(n, c) c! S(g, c) / n**g (Stirling numbers)."""
    s = [[Fraction(0)] * (g + 1) for _ in range(g + 1)]
    s[0][0] = Fraction(1)
    for i in range(1, g + 1):
        for c in range(1, i + 1):
            s[i][c] = c * s[i - 1][c] + s[i - 1][c - 1]
    return np.array([float(math.comb(n, c) * math.factorial(c) * s[g][c] / Fraction(n) ** g) if c <= g else 0.0
                     for c in range(n + 1)])


@pytest.mark.parametrize("guide_max, alias_max", [(None, None), (10, None), (10, 10)])
def test_owned_count_paths_vs_exact(  # type: ignore[no-untyped-def]
        monkeypatch: pytest.MonkeyPatch, seed: int, guide_max, alias_max) -> None:
    """Each sampler of the characters owned (guide table, alias table, card by card) against the exact law."""
    if guide_max is not None:
        monkeypatch.setattr(sim, "_GUIDE_MAX", guide_max)
    if alias_max is not None:
        monkeypatch.setattr(sim, "_ALIAS_MAX", alias_max)
    n, per = 5, 40_000
    gs = np.array([0, 1, 3, 7, 12, 25])
    g = np.repeat(gs, per)
    got = sim._owned_counts(g, np.random.default_rng(seed), n)
    for i, gi in enumerate(gs.tolist()):
        counts = np.bincount(got[i * per:(i + 1) * per], minlength=n + 1)
        p = _owned_law(n, gi)
        assert counts.size == n + 1
        for j in range(n + 1):
            assert_count(counts[j], per, float(p[j]), z=Z, label=f"{gi} God Chances, {j} owned")
