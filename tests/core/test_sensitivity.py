"""Sensitivity: variance indices from closed forms, OAT effects against the exact solver."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import get_game
from gamesim.core.scenario import ScenarioError
from gamesim.core.sensitivity import sensitivity, variance_indices

TARGETS = Path(__file__).resolve().parents[2] / "scenarios" / "targets"


def test_variance_indices_additive_closed_form():
    # f(i, j) = a_i + b_j: S_i = ST_i = Var(a) / (Var(a) + Var(b))
    a, b = np.array([0.0, 1.0, 2.0]), np.array([0.0, 3.0])
    f = a[:, None] + b[None, :]
    s, st = variance_indices(f)
    va, vb = a.var(), b.var()
    assert s == pytest.approx([va / (va + vb), vb / (va + vb)])
    assert st == pytest.approx(s)


def test_variance_indices_pure_interaction():
    # f = x * y with centred levels: no main effects, all variance is interaction
    x = np.array([-1.0, 1.0])
    s, st = variance_indices(x[:, None] * x[None, :])
    assert s == pytest.approx([0.0, 0.0]) and st == pytest.approx([1.0, 1.0])


def test_variance_indices_constant_is_nan():
    s, st = variance_indices(np.ones((2, 3)))
    assert np.isnan(s).all() and np.isnan(st).all()


def _godtear(**sens):
    return {
        "game": "godtear", "n_trials": 3000, "chunk_size": 3000,
        "parts": [{"name": "ko", "task": "knockout",
                   "params": {"accuracy": 5, "damage": 5, "dodge": 3, "protection": 2, "health": 5, "uses": 2}}],
        "sensitivity": {"metric": "knockout", "params": {"damage": [3, 5, 7], "dodge": [2, 3, 4]}, **sens},
    }


def _exact(**kw):
    task = get_game("godtear").tasks["knockout"]
    base = dict(accuracy=5, damage=5, dodge=3, protection=2, health=5, uses=2)
    base.update(kw)
    return task.exact(task.defaults(**base))["knockout:proportion"]


def test_exact_oat_and_indices():
    res = sensitivity(_godtear())
    assert res.basis == "exact" and res.noise_ratio == 0
    row = res.oat[(res.oat["parameter"] == "damage") & (res.oat["side"] == "high")].iloc[0]
    assert row["estimate"] == pytest.approx(_exact(damage=7) - _exact(damage=5), abs=1e-12)
    f = np.array([[_exact(damage=d, dodge=g) for g in (2, 3, 4)] for d in (3, 5, 7)])
    s, st = variance_indices(f)
    got = res.indices.set_index("parameter")
    assert got.loc["damage", "first_order"] == pytest.approx(s[0])
    assert got.loc["dodge", "total"] == pytest.approx(st[1])
    assert res.indices["parameter"].iloc[0] == ("damage" if st[0] >= st[1] else "dodge")


def test_sampled_oat_within_standard_errors_of_exact():
    res = sensitivity(_godtear(use_exact=False, n_boot=50), seed=None)
    assert res.basis == "sampled"
    for r in res.oat.itertuples():
        exact = _exact(**{r.parameter: r.level}) - _exact()
        assert abs(r.estimate - exact) <= 4.5 * r.se + 1e-12, (r.parameter, r.level, r.estimate, exact)
        assert r.n == 3000
    # the bootstrap intervals are intervals
    ind = res.indices
    assert (ind["total_low"] <= ind["total_high"]).all()


def test_tornado_renders():
    import matplotlib

    matplotlib.use("Agg")
    res = sensitivity(_godtear())
    assert res.plot() is not None and len(res.table()) == 2


@pytest.mark.parametrize("patch, message", [
    ({"metric": "kills"}, "sensitivity.metric = 'kills'"),
    ({"params": {"damage": [5]}}, "at least 2 levels"),
    ({"params": {"damage": [5, 99]}}, r"sensitivity.params.damage\[1\] = 99"),
    ({"n_trials": 1}, "sensitivity.n_trials = 1"),
    ({"bogus": 1}, "unknown key sensitivity.bogus"),
])
def test_sensitivity_errors(patch, message):
    sc = _godtear()
    sc["sensitivity"].update(patch)
    with pytest.raises(ScenarioError, match=message):
        sensitivity(sc)


def test_builtin_target_scenarios_have_valid_sensitivity():
    from gamesim.core.search import load_target_scenario
    from gamesim.core.sensitivity import parse_sensitivity

    files = sorted(TARGETS.glob("*.toml"))
    assert len(files) == 4
    for f in files:
        sc, tgt, raw = load_target_scenario(f)
        assert tgt is not None and raw is not None
        parse_sensitivity(raw, sc, where=str(f))
