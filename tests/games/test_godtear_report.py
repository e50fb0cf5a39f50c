"""Godtear study end to end: `gamesim report` on a small scenario executes the real notebook."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.slow
def test_godtear_report_html_and_pdf(tmp_path):
    proc = run_cli("report", "tests/data/godtear_small.toml", "--out-dir", str(tmp_path), "--quiet", timeout=600)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "godtear_small.html").read_text(encoding="utf-8")
    pdf = (tmp_path / "godtear_small.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
    for text in ("Does the Godtear report pipeline work end to end?", "seed entropy", "gamesim version",
                 "Rules and variant modelled", "95%", "data:image/png;base64", "P(success)",
                 "Knock-out curves", "smallest stat line", "Answer.", "One activation", "Illustrative",
                 "Exact fractions"):
        assert text in html, text
    # code cells are hidden
    assert "load_results(" not in html and "select(res" not in html, "code cells must be hidden"
    assert "Traceback" not in html and "Error" not in html.split("<body")[1][:200]
