"""The Findings read the numbers they state from the results (a small hand-made results table)."""

from __future__ import annotations

import pandas as pd
import pytest

from gamesim.core.registry import ParamError
from gamesim.games.panzer_hexen.study import findings


def _row(part: str, metric: str, est: float, lo: float, hi: float, **dims: object) -> dict:
    return {"part": part, "metric": metric, "statistic": "mean", "estimate": est, "ci_low": lo, "ci_high": hi,
            **dims}


def test_findings_name_the_unbalanced_witches_and_say_illustrative() -> None:
    rows = [_row("witches", "seat0_score", 0.8, 0.75, 0.85, seat0_witch="WA", n_players=3),
            _row("witches", "seat0_score", 0.1, 0.05, 0.15, seat0_witch="WB", n_players=3),
            _row("witches", "seat0_score", 0.33, 0.28, 0.38, seat0_witch="WC", n_players=3),
            _row("rollout", "seat0_score", 0.4, 0.3, 0.5)]
    out = findings(pd.DataFrame(rows))
    assert "ILLUSTRATIVE" in out[0]
    witch = next(s for s in out if s.startswith("Witch balance"))
    assert "above fair WA 0.80 [0.75, 0.85]" in witch and "below fair WB 0.10" in witch
    assert "1 witches' intervals contain" in witch
    assert any("rollout" in s and "0.40 [0.30, 0.50]" in s for s in out)


def test_findings_refuse_a_non_table() -> None:
    with pytest.raises(ParamError):
        findings({"part": []})


@pytest.mark.slow
def test_benchmark_smoke() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, str(root / "benchmarks" / "bench_panzer_hexen.py"), "--quick"],
                         capture_output=True, text=True, timeout=300, cwd=root)
    assert out.returncode == 0, out.stderr
    assert "vectorized (numpy)" in out.stdout and "plain Python" in out.stdout and "games/s" in out.stdout
    lengths = [float(x) for x in out.stdout.split("mean rounds:")[1].split("\n")[0].replace(",", " ").split()
               if x.replace(".", "").isdigit()]
    assert len(lengths) >= 2 and max(lengths) - min(lengths) < 3  # the same game (2,000 / 200 games)
