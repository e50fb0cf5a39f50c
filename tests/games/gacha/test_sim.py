"""Tests of gacha's simulator: Monte Carlo vs exact, vs the plain-Python reference, reproducibility and invariants.

Golden values come from mathematics (hand derivations, brute-force enumeration),
never from a seeded run. Stochastic tests compare estimates with exact values (or
two independent simulators) at 4.5 standard errors, so they pass for any seed.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from gamesim.games.gacha import (
    BagConfig,
    DoubtfulConfig,
    exact_completion_probability,
    exact_expected_characters_owned,
    exact_god_chance_pmf,
    exact_pulls_to_complete,
    reference_pulls_to_complete,
    reference_schedule,
    reference_shared,
    simulate_pulls_to_complete,
    simulate_schedule,
    simulate_shared,
)
from tests.games.gacha.helpers import _assert_mean, _assert_prop, _two_sample

Z = 4.5


# ---------------------------------------------------------------------------
# Monte Carlo vs exact
# ---------------------------------------------------------------------------


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
    cap = 2000
    v = simulate_pulls_to_complete(10, 50_000, rng=ss[2], overdrive_pulls=10, max_pulls=cap)
    r = reference_pulls_to_complete(10, 600, rng=ss[3], overdrive_pulls=10, max_pulls=cap)
    # A game not complete within the cap is censored (NaN; about 1 in 50,000 here, so the
    # large sample sometimes holds one): compare the censoring rate, and the mean of the
    # pulls truncated at the cap (the restricted mean), which both samples define.
    for x in (v, r):
        x["censored"] = x.pulls_to_complete.isna().astype(float)
        x["pulls_within_cap"] = x.pulls_to_complete.fillna(float(cap))
    for col in ("censored", "pulls_within_cap", "god_chances"):
        _two_sample(v[col].astype(float), r[col].astype(float))


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
