"""End to end: the dqz study notebook runs on a small scenario and gives HTML and PDF reports."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.slow
def test_dqz_report_html_and_pdf(tmp_path):
    proc = run_cli("report", "tests/data/dqz_small.toml", "--out-dir", str(tmp_path), "--quiet", timeout=600)
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "dqz_small.html").read_text(encoding="utf-8")
    pdf = (tmp_path / "dqz_small.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
    for text in ("Does the dqz report pipeline work end to end?", "seed entropy", "gamesim version",
                 "Rules and variant modelled", "95%", "data:image/png;base64", "ILLUSTRATIVE"):
        assert text in html, text
    assert "load_results(" not in html, "code cells must be hidden"
    assert "Traceback" not in html
