"""Event metrics: at_least / at_most / between as proportions everywhere a metric name goes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gamesim.core.events import add_events, exact_event, parse_event, with_events
from gamesim.core.registry import get_game
from gamesim.core.scenario import ScenarioError, load_scenario
from gamesim.core.sweep import run_sweep
from gamesim.games.godtear import wounds_pmf


def test_parse_and_evaluate():
    ev = parse_event(" at_least( wounds ,2 )")
    assert ev.name == "at_least(wounds, 2)" and (ev.lo, ev.hi) == (2.0, math.inf)
    assert parse_event("at_most(pulls_to_complete, 300)").name == "at_most(pulls_to_complete, 300)"
    b = parse_event("between(x, 1, 2.5)")
    assert b.name == "between(x, 1, 2.5)"
    x = np.array([0, 1, 2, 3, np.nan])
    assert ev.evaluate(x).tolist() == [False, False, True, True, True]  # censored counts as +inf
    assert parse_event("at_most(x, 1)").evaluate(x).tolist() == [True, True, False, False, False]
    assert b.evaluate(x).tolist() == [False, True, True, False, False]
    for bad, msg in (("at_least(wounds)", "not understood"), ("between(x, 3, 1)", "lo = 3 > hi = 1"),
                     ("at_most(x, 1, 2)", "one number"), ("between(x, 1)", "two numbers"), ("most(x, 1)", "not")):
        with pytest.raises(ValueError, match=msg):
            parse_event(bad)
    with pytest.raises(KeyError, match="does not return"):
        add_events({"y": x}, ["at_least(x, 1)"])


def test_exact_event_from_the_godtear_pmf():
    task = with_events(get_game("godtear").tasks["damage_roll"], ["at_least(wounds, 2)", "between(wounds, 1, 2)"])
    p = task.defaults(damage=3, protection=4)
    pmf = wounds_pmf(3, 4)
    ex = task.exact(p)
    assert ex["at_least(wounds, 2):proportion"] == pytest.approx(sum(pmf[2:]), abs=1e-15)
    assert ex["between(wounds, 1, 2):proportion"] == pytest.approx(sum(pmf[1:3]), abs=1e-15)
    assert math.isnan(exact_event(parse_event("at_least(other, 1)"), ex))
    out = task.simulate(p, 20000, rng=np.random.default_rng())
    q = ex["at_least(wounds, 2):proportion"]
    assert abs(out["at_least(wounds, 2)"].mean() - q) <= 4.5 * math.sqrt(q * (1 - q) / 20000)
    assert [m.name for m in task.metrics_for(p)][-2:] == ["at_least(wounds, 2)", "between(wounds, 1, 2)"]


SCENARIO = """
game = "godtear"
n_trials = 4000
chunk_size = 2000
events = ["between(wounds, 1, 2)"]
[[parts]]
name = "dmg"
task = "damage_roll"
cases = [{ name = "A", damage = 3 }, { name = "B", damage = 4 }]
params = { protection = 4 }
[compare]
baseline = "A"
metrics = ["at_least(wounds,2)", "at_most(wounds, 0)"]
[precision]
metric = "at_least( wounds, 2 )"
half_width = 0.02
"""


def test_events_in_tables_compare_and_precision(write_scenario, tmp_path):
    res = run_sweep(load_scenario(write_scenario(SCENARIO)), cache_root=tmp_path, progress=False)
    t = res.table
    ev = t[t["metric"].isin(["at_least(wounds, 2)", "at_most(wounds, 0)", "between(wounds, 1, 2)"])]
    assert len(ev) == 6 and (ev["statistic"] == "proportion").all()
    for _, r in ev.iterrows():  # exact values from the exact PMF, the estimate within 4.5 SE
        se = math.sqrt(r["exact"] * (1 - r["exact"]) / r["n"])
        assert abs(r["estimate"] - r["exact"]) <= 4.5 * se
    assert ev.loc[ev["metric"] == "at_least(wounds, 2)", "target_met"].notna().all()
    c = res.comparisons
    assert set(c["metric"]) == {"at_least(wounds, 2)", "at_most(wounds, 0)"}
    d = c[c["statistic"] == "difference"]
    for _, r in d.iterrows():
        assert r["ci_low"] <= r["exact"] <= r["ci_high"] or abs(r["estimate"] - r["exact"]) <= 4.5 * r["se"]
    with pytest.raises(ScenarioError, match="must read a numeric metric"):
        load_scenario(write_scenario(SCENARIO.replace('events = ["between(wounds, 1, 2)"]', 'events = ["at_least(nope, 1)"]')))
    with pytest.raises(ScenarioError, match="not understood"):
        load_scenario(write_scenario(SCENARIO.replace('events = ["between(wounds, 1, 2)"]', 'events = ["at_least(wounds)"]')))


def test_event_as_a_target_constraint(write_scenario):
    # P(at least 2 wounds) against protection 4, searched over damage 2..6 by simulation (no exact
    # shortcut): the exact values 0, 0.0046, 0.0579, 0.1917, 0.3783 put 4, 5, 6 inside [0.05, 0.5]
    from gamesim.core.search import search

    body = """
game = "godtear"
n_trials = 1000
[[parts]]
name = "dmg"
task = "damage_roll"
params = { protection = 4 }
[target]
params = { damage = { min = 2, max = 6 } }
max_trials = 16000
use_exact = false
[[target.constraints]]
metric = "at_least(wounds,2)"
low = 0.05
high = 0.5
"""
    res = search(write_scenario(body))
    t = res.settings.set_index("damage")
    assert t.loc[2, "status"] == "infeasible" and t.loc[5, "status"] == "feasible" and t.loc[6, "status"] == "feasible"
    assert t.loc[3, "status"] in {"infeasible", "undecided"}  # damage 4 (0.0579) is too near the bound to assert
