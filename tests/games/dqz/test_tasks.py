"""Tests of dqz's tasks, benchmark smoke run and the play solver on large parties.

Golden values come from the rulebook's worked examples and from mathematics
(Fraction arithmetic, brute-force enumeration, the exact deal enumeration), never
from a seeded run. Stochastic tests compare at 4.5 standard errors, so they pass for
any seed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.dqz import DamageRule, PlaySolver
from gamesim.games.dqz.reference import _choose, reference_plays
from gamesim.games.dqz.tasks import TASKS

ROOT = Path(__file__).resolve().parents[3]


# ---------------------------------------------------------------------------
# Tasks
# ---------------------------------------------------------------------------


def test_registered_tasks_and_checks() -> None:
    game = get_game("dqz")
    assert set(game.tasks) == {"battle", "run"}
    t = TASKS["battle"]
    p = t.defaults(hp=30)
    t.check(p)
    t.check(t.defaults())  # the defaults (a bestiary monster) are valid on their own
    with pytest.raises(ParamError):
        t.check(t.defaults(monster="custom"))  # custom needs hp
    with pytest.raises(ParamError):
        t.check(t.defaults(hp=30, skills="メラゾーマ"))
    with pytest.raises(ParamError):
        t.check(t.defaults(hp=30, strategy_deck=[1, 2]))
    with pytest.raises(ParamError):
        t.check(t.defaults(hp=30, party_size=5, hand_size=11))
    out = t.simulate(p, 500, rng=np.random.default_rng(1))
    assert set(out) == {m.name for m in t.metrics_for(p)}
    assert all(v.shape == (500,) for v in out.values())
    ex = t.exact(p)
    assert 0 <= ex["one_turn_kill:proportion"] <= 1 and ex["first_turn_damage:mean"] > 0
    assert t.exact(t.defaults(hp=30, party_size=4)) == {}
    r = TASKS["run"]
    rp = r.defaults()
    r.check(rp)
    with pytest.raises(ParamError):
        r.check(r.defaults(monsters="ゾーマ"))
    ro = r.simulate(rp, 200, rng=np.random.default_rng(2))
    assert all(v.shape == (200,) for v in ro.values())


@pytest.mark.slow  # the benchmark script run end to end
def test_benchmark_quick() -> None:
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_dqz.py"), "--quick"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "battles/s" in r.stdout and "speedup" in r.stdout and "calls/s" in r.stdout
    assert "plain Python, random module" in r.stdout and "numpy-scalar reference" in r.stdout


def test_play_solver_large_parties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rule = DamageRule(False, False, False, (5,))
    solver = PlaySolver(rule)
    for n in (4, 5):
        for _ in range(2):
            masks = np.array([[int(1 << rng.integers(0, 5)) | int(1 << rng.integers(0, 5)) for _ in range(n)]])
            values = tuple(tuple(v + 1 for v in range(5) if m >> v & 1) for m in masks[0])
            plays = reference_plays(values, 0, -1, -1, rule)
            best = _choose(plays, "max_damage", 10**6)
            avoid = _choose(plays, "avoid_trigger", 10**6)
            res = solver.solve(n, 0, -1, -1, masks)[0]
            for kind in range(6):
                assert res[kind, 0] == best[kind][0]
                if avoid[kind][0] >= (1 << 40):  # a play that sets off no multiple-of-5 skill exists
                    assert (1 << 40) | res[kind, 4] == avoid[kind][0]
                else:
                    assert res[kind, 4] < 0


def test_no_legal_play_without_strategy_detected() -> None:
    # poison 1 and four players holding only 1s (counting 0): with all four operators forced,
    # someone divides by zero, so the solver reports no legal play (the last player then sits out)
    solver = PlaySolver(DamageRule())
    res = solver.solve(5, 1, -1, -1, np.array([[16, 1, 1, 1, 1]]))
    assert res[0, 0, 0] < 0
    assert not any(k == 0 for k, *_ in reference_plays(((5,), (1,), (1,), (1,), (1,)), 1, -1, -1, DamageRule()))
    assert solver.solve(4, 1, -1, -1, np.array([[16, 1, 1, 1]]))[0, 0, 0] >= 0
