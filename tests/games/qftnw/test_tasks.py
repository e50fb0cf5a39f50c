"""Tests of QftNW's task, registry, benchmark and the greedy policy's fast paths.

Golden values come from mathematics (hand derivations from the rulebook, closed-form
matrix games, exact enumeration), never from a seeded run. Stochastic tests compare
estimates with exact values, or two independent simulators, at 4.5 standard errors,
so they pass for any seed (fresh seed per run).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.qftnw import edition_params, reference_simulate, simulate
from gamesim.games.qftnw.tasks import TASKS, default_params
from gamesim.games.qftnw.vecrules import win_condition_vec
from tests.conftest import assert_same_mean
from tests.games.qftnw.helpers import ORIG, V2

Z = 4.5
ROOT = Path(__file__).resolve().parents[3]


# ---------------------------------------------------------------------------
# Task, registry, benchmark
# ---------------------------------------------------------------------------


def test_game_registered() -> None:
    g = get_game("qftnw")
    assert set(g.tasks) == {"game"}
    assert g.rules_doc == "docs/rules/qftnw.md"


def test_task_simulate_shapes_and_exact(seed: int) -> None:
    t = TASKS["game"]
    prm = default_params(edition="spa", advanced=True, policy0="greedy", policy1="equilibrium")
    t.check(prm)
    out = t.simulate(prm, 500, rng=np.random.default_rng(seed))
    assert {m.name for m in t.metrics} == set(out)
    for k, v in out.items():
        assert v.shape == (500,), k
    assert t.exact(prm) == {}
    ex = t.exact(default_params(edition="v2", max_rounds=2, policy0="cautious", policy1="greedy"))
    assert ex["p0_wins:proportion"] + ex["p1_wins:proportion"] + ex["unfinished:proportion"] == pytest.approx(1)


@pytest.mark.parametrize("overrides, key", [
    (dict(start_funds=7), "start_funds"),
    (dict(fund_cap=4), "start_funds"),
    (dict(reset_funds=9), "reset_funds"),
    (dict(policy0="bluffer"), "policy0"),
    (dict(policy1="mixed:1,2"), "policy1"),
    (dict(mixed_probs=[0, 0, 0, 0, 0]), "mixed_probs"),
    (dict(mixed_probs=[1, 1]), "mixed_probs"),
])
def test_task_check_errors(overrides: dict, key: str) -> None:
    t = TASKS["game"]
    with pytest.raises(ParamError) as err:
        t.check(default_params(**overrides))
    assert err.value.key == key


@pytest.mark.slow  # the benchmark script run end to end
def test_benchmark_quick() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_qftnw.py"), "--quick"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "games/s" in r.stdout and "speedup" in r.stdout
    assert "plain Python (random module)" in r.stdout and "numpy reference" in r.stdout


def test_greedy_mask_table_matches_direct_check(seed: int) -> None:
    from gamesim.games.qftnw.policies import _card_value_batch
    from gamesim.games.qftnw.vecrules import presence_mask

    rng = np.random.default_rng(seed)
    for p in (ORIG, V2, edition_params("spa", n_of_a_kind=2, short_straight=2)):
        hs = rng.integers(0, 3, size=(2000, 7)) * (rng.random((2000, 7)) < 0.4)
        ho = rng.integers(0, 3, size=(2000, 7)) * (rng.random((2000, 7)) < 0.4)
        t = rng.integers(-1, 7, 2000)
        ok = (win_condition_vec(hs, ho, p) == 0) & (win_condition_vec(ho, hs, p) == 0)  # reachable: no winner yet
        hs, ho, t = hs[ok], ho[ok], t[ok]
        fast = _card_value_batch(t, hs, ho, p, (presence_mask(hs), presence_mask(ho)))
        np.testing.assert_array_equal(fast, _card_value_batch(t, hs, ho, p, None))


def test_many_types_use_the_direct_win_check(seed: int) -> None:
    # 12 types: no presence-mask table; the simulator and greedy fall back to the direct check
    kw = dict(edition="original", advanced=True, n_types=12, n_copies=3, policies=("greedy", "uniform"))
    v = simulate(4000, rng=seed, **kw)
    r = reference_simulate(600, rng=seed + 1, **kw)
    for col in ("rounds", "bankruptcies"):
        assert_same_mean(v[col], r[col], z=Z, label=col)
