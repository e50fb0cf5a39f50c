"""Shared fixtures: paths, and writing scenario files into a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "gacha_god_chance.ipynb"


@pytest.fixture
def write_scenario(tmp_path):
    """Write a scenario TOML (body without the notebook line) and return its path."""

    def write(body: str, name: str = "scen.toml") -> Path:
        path = tmp_path / name
        path.write_text(f'notebook = "{NOTEBOOK.as_posix()}"\n' + body, encoding="utf-8")
        return path

    return write


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``python -m gamesim.cli ARGS`` in a subprocess and capture its output."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run(
        [sys.executable, "-m", "gamesim.cli", *args],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


#: Text every study report must show (run table, rules section, intervals, plots).
COMMON_REPORT_TEXTS = ("seed entropy", "gamesim version", "Rules and variant modelled", "95%", "data:image/png;base64")


def check_report(out_dir: Path, scenario: str, texts: tuple[str, ...] = (), code: tuple[str, ...] = ()) -> str:
    """Run ``gamesim report SCENARIO`` into ``out_dir`` and check the HTML and PDF it writes.

    Asserts: exit 0; a PDF over 20 kB; ``COMMON_REPORT_TEXTS`` and ``texts`` in the HTML;
    no code (``load_results(`` and ``code``) and no traceback or error in it. Returns the HTML.
    """
    proc = run_cli("report", scenario, "--out-dir", str(out_dir), "--quiet", timeout=600)
    assert proc.returncode == 0, proc.stderr
    name = Path(scenario).stem
    html = (out_dir / f"{name}.html").read_text(encoding="utf-8")
    pdf = (out_dir / f"{name}.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
    for text in COMMON_REPORT_TEXTS + texts:
        assert text in html, text
    for snippet in ("load_results(",) + code:
        assert snippet not in html, f"code cells must be hidden ({snippet!r} in the report)"
    assert "Traceback" not in html and "Error" not in html.split("<body")[1][:200]
    return html


def assert_same_mean(a, b, *, z: float = 4.5, label: str = "") -> None:  # type: ignore[no-untyped-def]
    """Assert two independent samples are consistent with one distribution (two-sided, ``z`` SD).

    For 0/1 outcomes Fisher's exact test on the 2x2 table, at the two-sided tail
    probability of ``z`` standard deviations (6.8e-6 for 4.5): exact, so rare events
    with few or no successes in a small sample are judged correctly. Otherwise a z-test
    on the means with the variance pooled under the null hypothesis (both samples from
    one distribution), so a small sample with no spread does not shrink the standard
    error to nothing.
    """
    import numpy as np
    from scipy import stats

    a, b = np.asarray(a, dtype=float).ravel(), np.asarray(b, dtype=float).ravel()
    if np.isin(a, (0.0, 1.0)).all() and np.isin(b, (0.0, 1.0)).all():
        ka, kb = int(a.sum()), int(b.sum())
        p = stats.fisher_exact([[ka, a.size - ka], [kb, b.size - kb]]).pvalue
        assert p >= 2 * stats.norm.sf(z), f"{label}: {ka}/{a.size} vs {kb}/{b.size}, Fisher p = {p:.2e}"
        return
    pooled = np.concatenate([a, b]).var(ddof=1)
    se = float(np.sqrt(pooled * (1.0 / a.size + 1.0 / b.size)))
    assert abs(a.mean() - b.mean()) <= z * se + 1e-12, f"{label}: {a.mean()} vs {b.mean()} (SE {se:.3g})"
