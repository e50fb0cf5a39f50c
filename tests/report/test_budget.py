"""The reading budget of every built-in report: a PDF a designer reads in a minute, not 200 pages."""

from __future__ import annotations

import pytest

from tests.conftest import MAX_FIGURES, MAX_PAGES, OVER_BUDGET, REPORT_SCENARIOS


@pytest.mark.slow
@pytest.mark.parametrize("scenario", REPORT_SCENARIOS)
def test_report_pdf_within_the_reading_budget(scenario, report_of):
    rendered = report_of(scenario)
    lay = rendered.layout
    within = lay["pages"] <= MAX_PAGES and lay["figures"] <= MAX_FIGURES
    if not within and rendered.name in OVER_BUDGET:
        pytest.xfail(f"{rendered.name}: {lay['pages']} pages, {lay['figures']} figures: {OVER_BUDGET[rendered.name]}")
    assert within, lay
    assert lay["clipped_tables"] == [], lay["clipped_tables"]
