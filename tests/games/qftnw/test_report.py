"""End to end: `gamesim report` on a small QftNW scenario executes the study notebook."""

from __future__ import annotations

import pytest

from tests.conftest import check_report


@pytest.mark.slow
def test_qftnw_report_executes_notebook_and_writes_html_and_pdf(report_of):
    check_report(
        report_of("tests/data/qftnw_small.toml"),
        ("Does the Quest for the New World report pipeline work end to end?", "Game length distribution",
         "one-round equilibrium", "Check against exact enumeration",
         "ver.2 with and without the three-card straight", "under the two tie readings", "tie_floor",
         "by its naming rule"),
        code=("import numpy",),
    )
