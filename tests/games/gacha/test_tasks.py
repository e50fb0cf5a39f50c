"""Tests of gacha's tasks and benchmark smoke run.

Golden values come from mathematics (hand derivations, brute-force enumeration),
never from a seeded run. Stochastic tests compare estimates with exact values (or
two independent simulators) at 4.5 standard errors, so they pass for any seed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.gacha.tasks import TASKS

ROOT = Path(__file__).resolve().parents[3]


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
    ("shared", dict(n_players=3), "schedule"),  # the default schedule gives player 3 no session
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


@pytest.mark.slow  # the benchmark script run end to end
def test_benchmark_quick() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_gacha.py"), "--quick",
                        "--trials", "5000", "--ref-trials", "50"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "pulls/s" in r.stdout and "speedup" in r.stdout
    # both baselines' ratios and the bare-draw overhead (issue 10)
    for line in ("random-module plain Python", "numpy-scalar reference", "bare draws time"):
        assert r.stdout.count(line) == 2, line
