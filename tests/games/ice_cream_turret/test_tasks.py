"""Tests of Ice Cream Turret's argument validation, tasks and benchmark smoke run.

Rule tests use hand-drawn boards (top row first; ``.`` empty, ``C`` crush ice) whose outcome
follows from the rulebook text. The vectorized kernels are compared cell for cell with the
scalar rules core on random boards and states, and whole games in distribution with the
plain-Python reference (two-sample tests at 4.5 SD, fresh seeds: they pass for any seed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.ice_cream_turret import (
    IceCreamParams,
    board_from_rows,
    cycle_additions,
    legal_columns,
    make_policy,
    place,
    reference_simulate,
    resolve,
    resolve_batch,
    run_games,
)
from gamesim.games.ice_cream_turret.rules import ROWS
from tests.games.ice_cream_turret.helpers import _batch, _random_states

ROOT = Path(__file__).resolve().parents[3]
P = IceCreamParams()
SA = IceCreamParams(mode="score_attack")


# ---------------------------------------------------------------------------
# Validation and tasks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("kw,exc", [
    (dict(copies_7=2.0), TypeError), (dict(copies_7=True), TypeError), (dict(copies_7=-1), ValueError),
    (dict(n_cycles=0), ValueError), (dict(n_cycles=10**6), ValueError), (dict(mode="hard"), ValueError),
    (dict(base_copies=0), ValueError), (dict(crush_cascade=1), TypeError), (dict(max_placements=10**9), ValueError),
    (dict(extra_win="never"), ValueError), (dict(line_bonus="x"), ValueError), (dict(deck_out="x"), ValueError),
])
def test_params_refuse_bad_values(kw: dict, exc: type) -> None:
    with pytest.raises(exc) as info:
        IceCreamParams(**kw)
    assert isinstance(info.value, ParamError)
    assert next(iter(kw)) in str(info.value)


def test_public_functions_validate() -> None:
    with pytest.raises(ParamError, match="n_games"):
        run_games(P, "greedy", 0)
    with pytest.raises(TypeError, match="n_games"):
        run_games(P, "greedy", 10.0)
    with pytest.raises(ParamError, match="n_games"):
        run_games(P, "greedy", 10**9)
    with pytest.raises(ParamError, match="policy"):
        run_games(P, "smart", 10)
    with pytest.raises(ParamError):
        make_policy("rollout:0")
    with pytest.raises(ParamError, match="policy"):
        reference_simulate(P, "rollout", 3)


def test_tasks_registered_and_checked() -> None:
    game = get_game("ice_cream_turret")
    assert set(game.tasks) == {"solitaire", "score_attack"}
    t = game.tasks["solitaire"]
    params = t.defaults(copies_7=8)
    t.check(params)
    out = t.simulate(params, 50, rng=np.random.default_rng(1))
    assert out["won"].dtype == bool and out["cycle_reached"].shape == (50,)
    sa = game.tasks["score_attack"]
    out = sa.simulate(sa.defaults(policy="random"), 50, rng=np.random.default_rng(1))
    assert (out["score"] >= 0).all()


@pytest.mark.slow  # the benchmark script run end to end
def test_benchmark_quick_runs() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_ice_cream_turret.py"), "--quick"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "random module" in proc.stdout and "numpy-scalar reference" in proc.stdout
    assert "[lookahead]" in proc.stdout


def test_rules_functions_validate() -> None:
    with pytest.raises(ParamError, match="cycle"):
        cycle_additions(P, 0)
    with pytest.raises(TypeError, match="cycle"):
        cycle_additions(P, 2.0)
    with pytest.raises(ValueError):
        board_from_rows(["12"])
    with pytest.raises(ValueError):
        board_from_rows(["..."] * 6)
    with pytest.raises(ValueError, match="value"):
        place(board_from_rows(["..."]), 0, 11)


def test_resolve_with_placed_cell_equals_full_search(seed: int) -> None:
    # the first-wave filter (lines through the placed card) on stable boards gives the full result
    from gamesim.games.ice_cream_turret.sim import place_batch

    rng = np.random.default_rng(seed)
    states = _random_states(rng, 2000, SA)
    g = _batch(states)
    cols = rng.integers(0, 3, size=g.size)
    ok = g.heights()[np.arange(g.size), cols] < ROWS
    pb, pos = place_batch(g.board[ok], cols[ok], g.card[ok])
    full = resolve_batch(pb, SA)
    fast = resolve_batch(pb, SA, pos=pos)
    for k in full:
        np.testing.assert_array_equal(full[k], fast[k], err_msg=k)
    assert full["waves"].sum() > 40  # about 130 expected: the comparison does cover clears


def test_scalar_resolve_with_placed_cell_equals_full_search(seed: int) -> None:
    # the same first-wave filter in the scalar rules core (used by the reference and the benchmark's plain loop)
    rng = np.random.default_rng(seed)
    n_clear = 0
    for s in _random_states(rng, 600, P):
        for c in legal_columns(s.board):
            b, row = place(s.board, c, s.card)
            full = resolve(b, P)
            assert resolve(b, P, pos=row * 3 + c) == full
            n_clear += full.waves > 0
    assert n_clear > 40  # the comparison does cover clears
