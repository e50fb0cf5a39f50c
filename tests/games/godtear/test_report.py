"""Godtear study end to end: `gamesim report` on a small scenario executes the real notebook."""

from __future__ import annotations

import pytest

from tests.conftest import check_report


@pytest.mark.slow
def test_godtear_report_html_and_pdf(report_of):
    check_report(
        report_of("tests/data/godtear_small.toml"),
        ("Does the Godtear report pipeline work end to end?", "P(success)", "Knock-out curves", "smallest stat line",
         "Answer.", "One activation", "Illustrative", "Exact fractions"),
        code=("select(res",),
    )
