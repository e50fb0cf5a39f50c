"""The study's own analysis (matchup matrix, sensitivity table, Findings) on small real runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gamesim.core.stats import mean_estimate, proportion_estimate
from gamesim.games.mech_arena.study import findings, matchup_matrix, sensitivity_table

ROOT = Path(__file__).resolve().parents[3]


def _row(**kw) -> dict:  # type: ignore[no-untyped-def]
    return kw


def _frame() -> pd.DataFrame:
    rows = []
    for a, b, k in (("oscar", "leo", 150), ("leo", "oscar", 50), ("oscar", "oscar", 100), ("leo", "leo", 100)):
        e = proportion_estimate(k, 200)
        rows.append(_row(part="m", task="duel", case=None, mech_a=a, mech_b=b, metric="a_won",
                         statistic="proportion", n=200, estimate=e.estimate, ci_low=e.ci_low, ci_high=e.ci_high))
    rng = np.random.default_rng(0)
    for case, shift in (("declared defaults", 0.0), ("HP 1", 0.25)):
        for metric, centre in (("score_oscar", 0.7 - shift), ("score_leo", 0.3 + shift), ("first_won", 0.6),
                               ("stalemate", 0.0), ("turns", 15.0)):
            x = np.clip(rng.normal(centre, 0.05, 40), 0, 1 if metric != "turns" else 99) if centre else np.zeros(40)
            e = mean_estimate(x)
            rows.append(_row(part="s", task="league", case=case, mech_a=None, mech_b=None, metric=metric,
                             statistic="mean", n=40, estimate=e.estimate, ci_low=e.ci_low, ci_high=e.ci_high))
    return pd.DataFrame(rows)


def test_findings_say_what_holds_under_every_setting() -> None:
    res = _frame()
    text = findings(res)
    assert any("1 of 2 matchups" in t and "オスカーII against レオ" in t for t in text), text
    holds = next(t for t in text if t.startswith("**Holds"))
    # oscar is above 1/2 and leo below by default, the other way round under 'HP 1': neither holds everywhere
    assert "no mech is clearly above or below 1/2 in every setting" in holds
    assert "オスカーII (above 1/2 under 'declared defaults'; below 1/2 under 'HP 1')" in holds
    assert any("lies above 1/2 in 2 of 2 settings (every one)" in t for t in text)
    assert any("none in any game of any setting" in t for t in text)
    m = matchup_matrix(res)
    assert m.shape == (2, 2) and m.loc["オスカーII", "レオ"].startswith("0.75 [")
    assert sensitivity_table(res).shape == (2, 5)
    with pytest.raises(TypeError):
        findings("results")  # type: ignore[arg-type]


@pytest.mark.slow
def test_benchmark_smoke() -> None:
    pytest.importorskip("numba")
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_mech_arena.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "(c) numba-compiled scalar loop" in out.stdout and "games/s" in out.stdout
