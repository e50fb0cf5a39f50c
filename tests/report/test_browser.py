"""Every built-in report opened in a real browser: Debian's headless Chromium, driven by selenium.

The page must load with no console error, request nothing from the network (it is one
self-contained file), and draw every chart with a non-zero size; a screenshot of each is kept
beside the report. ``scripts/setup.sh --test`` installs ``chromium`` and ``chromium-driver`` where
apt-get is allowed; without them this test skips and says so.
"""

from __future__ import annotations

import shutil
import time

import pytest

from tests.conftest import REPORT_SCENARIOS

#: Flags Chromium needs on a machine with no screen, no sandbox and a closed network.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1200,900")


#: How many of a page's heading links ("¶") are visible (not hidden by its styles).
_SHOWN_ANCHORS = ("return Array.from(document.querySelectorAll('a.anchor-link')).filter(function (a) {"
                  " var s = getComputedStyle(a); return s.display !== 'none' && s.visibility !== 'hidden'; }).length")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver_path:
        pytest.skip("Debian's chromium and chromium-driver are not installed (scripts/setup.sh --test installs them "
                    "where apt-get may run as root)")
    webdriver = pytest.importorskip("selenium.webdriver",
                                    reason="selenium is in the test extra: pip install -e .[test]")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    drv = webdriver.Chrome(service=Service(driver_path), options=options)
    yield drv
    drv.quit()


def _requests(drv) -> list[str]:  # type: ignore[no-untyped-def]
    import json

    urls = []
    for entry in drv.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


@pytest.mark.slow
@pytest.mark.parametrize("scenario", REPORT_SCENARIOS)
def test_report_opens_offline_in_chromium(scenario, report_of, browser):
    rendered = report_of(scenario)
    page = rendered.out_dir / f"{rendered.name}.html"
    _requests(browser)  # drop what earlier pages logged
    browser.get_log("browser")
    browser.get(page.resolve().as_uri())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        # counted again each time: a long page may still be parsing when get() returns
        done, n_figures, live = browser.execute_script(
            "return [document.readyState === 'complete',"
            " document.querySelectorAll('figure.gamesim-figure').length,"
            " document.querySelectorAll('figure.gamesim-live').length]")
        if done and live == n_figures:
            break
        time.sleep(0.25)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors[:3]
    # the browser's own pages (chrome://) are not the network
    outside = [u for u in _requests(browser) if u.startswith(("http:", "https:", "ws:", "wss:", "ftp:"))]
    assert not outside, outside[:5]
    assert n_figures > 0 and live == n_figures, (n_figures, live)
    sizes = browser.execute_script(
        "return Array.from(document.querySelectorAll('figure.gamesim-figure .gamesim-vega svg'))"
        ".map(function (s) { var r = s.getBoundingClientRect(); return [r.width, r.height]; })")
    assert len(sizes) == n_figures and all(w > 50 and h > 50 for w, h in sizes), sizes
    # the page's own controls work: a section folds, a long table sorts
    assert browser.execute_script("return document.querySelectorAll('h2.gamesim-collapsible').length") >= 3
    # every P(X >= k) picker has read its first cell (its script ran, offline)
    picks = browser.execute_script("return Array.from(document.querySelectorAll('.gamesim-picker output'))"
                                   ".map(function (o) { return o.textContent; })")
    assert all(p.startswith("P(") and "Wilson 95%" in p for p in picks), picks[:3]
    # a heading's link to itself (the Markdown renderer's "¶") shows only while the heading is hovered
    assert browser.execute_script(_SHOWN_ANCHORS) == 0
    browser.save_screenshot(str(rendered.out_dir / f"{rendered.name}.screenshot.png"))
    assert (rendered.out_dir / f"{rendered.name}.screenshot.png").stat().st_size > 10_000


@pytest.mark.slow
def test_search_report_opens_offline_in_chromium(tmp_path, browser):
    """`gamesim search`'s page in a real browser: no console error, nothing requested from the network, its
    pictures decoded, its sections foldable and its long table filterable, as a study report's."""
    from gamesim.core.search import search
    from gamesim.report.search_report import write_report

    sc = {"game": "godtear", "n_trials": 500, "title": "Browser <b>check</b>", "name": "browser_search",
          "parts": [{"name": "ko", "task": "knockout", "params": {"dodge": 3, "protection": 2, "health": 5}}],
          "target": {"params": {"accuracy": {"min": 1, "max": 8}, "damage": {"min": 2, "max": 9}},
                     "constraints": [{"metric": "knockout", "low": 0.5}], "prefer": "smallest"}}
    page = write_report(search(sc), tmp_path / "browser_search.search.html")
    _requests(browser)
    browser.get_log("browser")
    browser.get(page.resolve().as_uri())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and browser.execute_script("return document.readyState") != "complete":
        time.sleep(0.25)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors[:3]
    outside = [u for u in _requests(browser) if u.startswith(("http:", "https:", "ws:", "wss:", "ftp:"))]
    assert not outside, outside[:5]
    widths = browser.execute_script("return Array.from(document.images).map(function (i) { return i.naturalWidth; })")
    assert widths and all(w > 100 for w in widths), widths
    assert browser.execute_script("return document.querySelectorAll('h2.gamesim-collapsible').length") >= 4
    assert browser.execute_script("return document.querySelectorAll('input.gamesim-filter').length") >= 1
    assert browser.execute_script("return document.querySelector('nav.gamesim-toc') !== null")
    # a heading's link to itself (the Markdown renderer's "¶") shows only while the heading is hovered
    assert browser.execute_script(_SHOWN_ANCHORS) == 0

