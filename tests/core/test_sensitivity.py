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


# --------------------------------------------------------------------------- continuous ranges: SALib Sobol'
def _sim_smooth(params, n_trials, *, rng):
    """y = a + 0.5 b^2 + small noise: S_a = ST_a = (1/12) / (1/12 + 16/45) for a ~ U(0,1), b ~ U(0,2)."""
    rng = np.random.default_rng(rng)
    y = params["a"] + 0.5 * params["b"] ** 2 + 0.01 * rng.standard_normal(n_trials)
    return {"y": y}


@pytest.fixture(scope="module")
def smooth_game():
    from gamesim.core import registry
    from gamesim.core.registry import Game, Metric, Param, Task, register_game

    game = register_game(Game(
        "smooth_sobol_test", "synthetic smooth function (tests only)",
        {"f": Task("f", _sim_smooth, (Metric("y", "mean"),),
                   (Param("a", "float", 0.5, min=0.0, max=1.0), Param("b", "float", 1.0, min=0.0, max=2.0),
                    Param("k", "int", 1, min=0, max=5)))}))
    yield game
    registry._REGISTRY.pop(game.name, None)


def _smooth(**sens):
    return {"game": "smooth_sobol_test", "n_trials": 50, "chunk_size": 50,
            "parts": [{"name": "f", "task": "f"}],
            "sensitivity": {"metric": "y", "params": {"a": {"min": 0.0, "max": 1.0}, "b": {"min": 0.0, "max": 2.0}},
                            **sens}}


def test_continuous_ranges_use_salib_sobol(smooth_game):
    res = sensitivity(_smooth(n_base=512), seed=5)
    assert res.method == "sobol (SALib)" and res.n_points == 512 * 4
    va, vb = 1 / 12, 16 / 45  # Var(a), Var(0.5 b^2): closed forms
    got = res.indices.set_index("parameter")
    for k, s in (("a", va / (va + vb)), ("b", vb / (va + vb))):
        # additive function: S = ST; SALib's bootstrap half-width plus the design's own error
        assert got.loc[k, "first_order"] == pytest.approx(s, abs=0.02), k
        assert got.loc[k, "total"] == pytest.approx(s, abs=0.02), k
        assert got.loc[k, "total_low"] <= got.loc[k, "total"] <= got.loc[k, "total_high"]
    assert list(res.indices["parameter"]) == ["b", "a"]
    # OAT at the ends of the ranges, paired: b from 1 to 2 adds 0.5 * (4 - 1) = 1.5 exactly (same noise)
    row = res.oat[(res.oat["parameter"] == "b") & (res.oat["side"] == "high")].iloc[0]
    assert row["estimate"] == pytest.approx(1.5, abs=1e-9)
    assert "SALib Sobol'" in res.summary()
    assert res.plot() is not None


def test_continuous_ranges_mixed_with_levels_refused(smooth_game):
    sc = _smooth()
    sc["sensitivity"]["params"]["k"] = [0, 1, 2]
    with pytest.raises(ScenarioError, match=r"sensitivity.params.a = .*needs every parameter continuous"):
        sensitivity(sc)
    sc = _smooth(n_base=48)
    with pytest.raises(ScenarioError, match="sensitivity.n_base = 48, must be a power of 2"):
        sensitivity(sc)
    sc = _smooth()
    sc["sensitivity"]["params"]["a"] = {"min": 0.5, "max": 0.5}
    with pytest.raises(ScenarioError, match="must have min < max"):
        sensitivity(sc)
    sc = _smooth()
    sc["sensitivity"]["params"]["b"] = {"min": 0.0, "max": 3.0}
    with pytest.raises(ScenarioError, match=r"sensitivity.params.b\[1\] = 3.0"):
        sensitivity(sc)
