"""Registration and tasks of Mech Arena 2013: the registry sees the game, tasks run and check their params."""

from __future__ import annotations

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.mech_arena.data import DATA_DIR


def test_registered_with_its_tasks() -> None:
    g = get_game("mech_arena")
    assert set(g.tasks) == {"duel", "league"} and g.rules_doc == "docs/rules/mech_arena.md"
    for t in g.tasks.values():
        docs = {p.name: p.doc for p in t.params}
        for k in ("check_reading", "hp_check", "counter_dice", "start_armour", "start_hp", "max_distance"):
            assert docs[k].startswith("ASSUMED base rule"), k


def test_duel_task_runs_with_every_metric() -> None:
    t = get_game("mech_arena").tasks["duel"]
    params = t.defaults(mech_a="leo", mech_b="ネルヴァ", policy_a="random")
    t.check(params)
    out = t.simulate(params, 40, rng=np.random.default_rng(0))
    assert {m.name for m in t.metrics_for(params)} == set(out)
    assert all(v.shape == (40,) for v in out.values())
    assert np.all(out["a_won"] + out["b_won"] + out["stalemate"] == 1)


@pytest.mark.parametrize(("start_hp", "max_turns"), [(1, 60), (3, 8), (9, 1000)])
def test_duel_bounds_are_the_cells_own_range(start_hp: int, max_turns: int) -> None:
    """HP left lies in 0..start_hp and turns in 1..max_turns: the bounds that size the distribution tables and
    the rule-of-three interval are the cell's, and every game stays inside them (HP only goes down)."""
    t = get_game("mech_arena").tasks["duel"]
    params = t.defaults(mech_a="jaeger", mech_b="volga", policy_a="random", start_hp=start_hp, max_turns=max_turns)
    bounds = {m.name: m.bounds for m in t.metrics_for(params)}
    assert bounds["a_hp_left"] == bounds["b_hp_left"] == (0, start_hp)
    assert bounds["turns"] == (1, max_turns)
    out = t.simulate(params, 400, rng=np.random.default_rng(2))
    for name in ("a_hp_left", "b_hp_left", "turns"):
        lo, hi = bounds[name]
        assert lo <= out[name].min() and out[name].max() <= hi, name
    # a cell not checked yet (the metric list is also asked for then) gets the defaults' bounds
    odd = {m.name: m.bounds for m in t.metrics_for(dict(params, start_hp=True, max_turns=2.5))}
    assert odd["a_hp_left"] == (0, 2) and odd["turns"] == (1, 60)


def test_league_scores_are_zero_sum() -> None:
    t = get_game("mech_arena").tasks["league"]
    params = t.defaults(policy="random", max_turns=40)
    out = t.simulate(params, 3, rng=np.random.default_rng(1))
    scores = np.column_stack([v for k, v in out.items() if k.startswith("score_")])
    assert scores.shape == (3, 7)
    # every game hands out one point (a stalemate half each): the mean score is exactly 1/2
    assert np.allclose(scores.mean(axis=1), 0.5)
    assert {m.name for m in t.metrics_for(params)} == set(out)


def test_checks_name_the_parameter(tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = get_game("mech_arena").tasks["duel"]
    with pytest.raises(ParamError) as info:
        t.check(t.defaults(mech_a="gundam"))
    assert info.value.key == "mech_a" and "oscar" in str(info.value)
    with pytest.raises(ParamError) as info:
        t.check(t.defaults(max_distance=2, start_distance=3))
    assert info.value.key == "start_distance"
    bad = tmp_path / "w.toml"
    bad.write_text((DATA_DIR / "weapons_2013.toml").read_text(encoding="utf-8").replace(
        "max_dice = 5", "max_dice = 5\ndice = 5"), encoding="utf-8")
    with pytest.raises(ParamError) as info:
        t.check(t.defaults(weapons=str(bad)))
    assert info.value.key == "weapons" and 'weapon "フィンガーフレア"' in str(info.value) and "'dice'" in str(info.value)
