"""End to end: the dqz study notebook runs on a small scenario and gives HTML and PDF reports."""

from __future__ import annotations

import pytest

from tests.conftest import check_report


@pytest.mark.slow
def test_dqz_report_html_and_pdf(report_of):
    check_report(report_of("tests/data/dqz_small.toml"), ("Does the dqz report pipeline work end to end?", "ILLUSTRATIVE",
                                                           "Rule readings, both ways", "role passes to the next player",
                                                           "round, then halve", "no cap", "0 and negatives count",
                                                           "resist_rounding = value_first"))
