"""End to end: the gacha_game study notebook (generic report first, then the held-card view)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import check_report


@pytest.mark.slow
def test_gacha_game_report_html_and_pdf(report_of):
    html = check_report(report_of("tests/data/gacha_game_small.toml"),
                        ("Does the gacha_game report pipeline work end to end?", "Which card is strongest when held?",
                         "Boss cards: holders", "Action cards: holders", "no 連撃"))
    # the held tables carry n and an interval for every card shown
    assert len(re.findall(r"[+-]\d\.\d{3} \[[+-]\d\.\d{3}, [+-]\d\.\d{3}\]", html)) >= 10
