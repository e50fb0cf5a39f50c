"""End to end: `gamesim report` on a small QftNW scenario executes the study notebook."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.slow
def test_qftnw_report_executes_notebook_and_writes_html_and_pdf(tmp_path):
    proc = run_cli("report", "tests/data/qftnw_small.toml", "--out-dir", str(tmp_path), "--quiet", timeout=600)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "qftnw_small.html").read_text(encoding="utf-8")
    pdf = (tmp_path / "qftnw_small.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
    for text in ("Does the Quest for the New World report pipeline work end to end?", "seed entropy",
                 "gamesim version", "Rules and variant modelled", "95%", "data:image/png;base64",
                 "Game length distribution", "one-round equilibrium", "Check against exact enumeration"):
        assert text in html, text
    assert "load_results(" not in html, "code cells must be hidden"
    assert "import numpy" not in html, "code cells must be hidden"
    assert "Traceback" not in html and "Error" not in html.split("<body")[1][:200]
