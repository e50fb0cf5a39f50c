"""Tests of Godtear's tasks, scenarios and benchmark smoke run.

Golden values come from mathematics (the rulebook's worked examples, brute-force
enumeration of faces, closed forms) and from icepool, an independent exact dice
library used here only as a test oracle. Stochastic tests compare estimates with
exact values (or two independent simulators) at 4.5 standard errors, with a fresh
seed per run, so they pass for any seed.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.core.scenario import load_scenario
from gamesim.games.godtear import Skill
from gamesim.games.godtear.tasks import TASKS

ROOT = Path(__file__).resolve().parents[3]


# ---------------------------------------------------------------------------
# Tasks and scenarios
# ---------------------------------------------------------------------------


def test_registered_tasks_and_exact_keys() -> None:
    game = get_game("godtear")
    assert set(game.tasks) == {"success_roll", "damage_roll", "knockout", "activation", "end_phase"}
    rng = np.random.default_rng(0)
    for task in game.tasks.values():
        p = task.defaults()
        task.check(p)
        out = task.simulate(p, 400, rng=rng)
        names = {m.name for m in task.metrics_for(p)}
        assert set(out) == names
        assert all(np.asarray(v).shape == (400,) for v in out.values())
        ex = task.exact(p)
        assert ex and {k.split(":")[0] for k in ex} <= names
    act = TASKS["activation"]
    assert act.exact(act.defaults(n_models=3, skill1_targets=2)) == {}
    # follower rows: the row of models_in_hex is used
    p = act.defaults(skill1_rows=[[1, 1], [2, 2], [5, 6]], models_in_hex=3, actions=1)
    from gamesim.games.godtear.tasks import activation_actions
    assert activation_actions(p) == [(Skill(5, 6), 1)]
    # faction bonus in the tally metric
    p = act.defaults(faction="maelstrom", dodge=0, protection=0, skill1_damage=6)
    ex = act.exact(p)
    assert math.isclose(ex["tally_steps:mean"], 2 * ex["knockouts:mean"])


@pytest.mark.parametrize("task, overrides, key", [
    ("success_roll", dict(accuracy_token=2), "accuracy_token"),
    ("success_roll", dict(die_blank=0, die_one=0, die_two=0), "die_two"),
    ("damage_roll", dict(health=0), "health"),
    ("knockout", dict(max_uses=1, uses=3), "max_uses"),
    ("knockout", dict(hit_effect="fireball"), "hit_effect"),
    ("activation", dict(target_kind="champion"), "health"),
    ("activation", dict(target_kind="champion", health=5, n_models=2, skill1_targets=1), "n_models"),
    ("activation", dict(n_models=2, skill1_targets=3), "skill1_targets"),
    ("activation", dict(skill1_rows=[[1, 1]], models_in_hex=2), "models_in_hex"),
    ("activation", dict(faction="elves"), "faction"),
    ("end_phase", dict(rule="death"), "rule"),
])
def test_task_check_errors(task: str, overrides: dict, key: str) -> None:
    t = TASKS[task]
    with pytest.raises(ParamError) as err:
        t.check(t.defaults(**overrides))
    assert err.value.key == key


@pytest.mark.parametrize("path", ["scenarios/godtear_hit_tables.toml", "scenarios/godtear_knockout.toml",
                                  "tests/data/godtear_small.toml"])
def test_scenarios_load(path: str) -> None:
    sc = load_scenario(ROOT / path)
    assert sc.game.name == "godtear"
    assert sum(len(p.cells()) for p in sc.parts) > 0


@pytest.mark.slow  # the benchmark script run end to end
def test_benchmark_quick() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_godtear.py"), "--quick"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "rolls/s" in r.stdout and "icepool" in r.stdout
    # both baselines' ratios (issue 10): the random-module loop and the numpy-scalar reference
    assert "plain Python (random module)" in r.stdout and "numpy-scalar reference" in r.stdout
