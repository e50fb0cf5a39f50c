"""Shared fixtures: paths, and writing scenario files into a temporary folder."""

from __future__ import annotations

import contextlib
import html as html_lib
import io
import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "gacha_god_chance.ipynb"


def pytest_configure(config):
    """Give Ctrl-C back to the tests when pytest was started with SIGINT ignored; one picture helper per report.

    A shell starts a background job (``pytest ... &``) with SIGINT ignored; Python then installs no
    KeyboardInterrupt handler, and an ignored signal stays ignored in every process started from it.
    The tests that press Ctrl-C (on a sweep, a report, a search, the publishing renames) would see
    nothing happen. A handler (unlike "ignored") is reset to the default in child processes.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # One chart-picture helper per report, as in `gamesim report`'s side-by-side render workers: the test
    # workers already keep every core busy, and a second helper costs 0.6 CPU-s to start for each of the
    # ~25 reports the suite renders (tests/report/test_pictures.py sets its own counts).
    os.environ.setdefault("GAMESIM_PICTURE_HELPERS", "1")


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


def fake_render_report(notebook: Path, results: Path, scenario_path: Path, out_dir: Path, name: str, *,
                       title: str | None = None) -> tuple[Path, Path]:
    """Stand-in for :func:`gamesim.report.render.render_report` (monkeypatch it in) where a test is about
    the command, not the page: writes ``<name>.html``/``.pdf`` naming the notebook, results file and the
    process that wrote them. Module-level, so report worker processes can run it too."""
    html, pdf = out_dir / f"{name}.html", out_dir / f"{name}.pdf"
    html.write_text(json.dumps({"notebook": str(notebook), "results": str(results), "pid": os.getpid()}),
                    encoding="utf-8")
    pdf.write_bytes(b"%PDF-fake")
    return html, pdf


#: Small versions of the built-in studies (same notebooks, few trials) and a shipped example: the reports the
#: report tests render, once per session each (see :func:`report_of`).
REPORT_SCENARIOS = ("tests/data/gacha_small.toml", "tests/data/dqz_small.toml", "tests/data/gacha_game_small.toml",
                    "tests/data/godtear_small.toml", "tests/data/qftnw_small.toml",
                    "tests/data/godtear_hit_tables_small.toml", "tests/data/kami_small.toml",
                    "tests/data/mech_small.toml", "tests/data/panzer_small.toml",
                    "scenarios/examples/gacha_two_god_chance_chips.toml")

#: Text every study report must show (findings, run table, rules section, intervals, pictures).
COMMON_REPORT_TEXTS = ("Findings", "seed entropy", "gamesim version", "Rules and variant modelled", "95%",
                       "data:image/jpeg;base64")


@dataclass
class Rendered:
    """One ``gamesim report`` run: its folder, the HTML page, the PDF bytes and the PDF layout summary."""

    scenario: Path
    out_dir: Path
    name: str
    html: str
    pdf: bytes
    layout: dict
    stdout: str


@pytest.fixture(scope="session")
def report_of(tmp_path_factory):
    """``report_of(scenario) -> Rendered``: ``gamesim report`` run once per test session and scenario.

    ``scenario`` is a path (relative to the repository root or absolute). Every report test inspects
    the same rendering: under pytest-xdist the workers share one folder per scenario (the first to ask
    renders it under a file lock, the others read it), so each built-in study and own scenario is
    rendered once per session. A worker that would wait for another's rendering renders a report of
    :data:`REPORT_SCENARIOS` nobody has started instead, so both cores stay busy. Asserts the command
    succeeded and wrote an HTML page and a PDF.
    """
    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the session's folder, shared by its workers
    cache: dict[str, Rendered] = {}
    from filelock import Timeout

    def folder(path: Path) -> Path:
        import hashlib

        return base / f"report-{path.stem}-{hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:8]}"

    def render(path: Path, out: Path) -> None:  # with out's lock held
        done = out / "done.json"
        if not done.is_file():
            out.mkdir(parents=True, exist_ok=True)
            # the command's own entry point, in this worker: its imports (pandas, the notebook and PDF
            # libraries) are paid once per worker, not once per report (tests/reliability start it as
            # a separate process)
            from gamesim.cli import main

            stdout, stderr = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                code = main(["report", str(path), "--out-dir", str(out), "--quiet"])
            assert code == 0, stderr.getvalue()
            done.write_text(json.dumps({"stdout": stdout.getvalue()}), encoding="utf-8")

    def render_another() -> bool:
        """While another worker renders the report asked for, render one nobody has started (no idle core)."""
        for other in REPORT_SCENARIOS:
            path = ROOT / other
            out = folder(path)
            if (out / "done.json").is_file():
                continue
            try:
                with FileLock(str(out) + ".lock", timeout=0):
                    render(path, out)
                return True
            except Timeout:
                continue
        return False

    def get(scenario: str | Path) -> Rendered:
        path = Path(scenario) if Path(scenario).is_absolute() else ROOT / scenario
        key = str(path.resolve())
        if key not in cache:
            name = path.stem
            out = folder(path)
            while True:
                try:
                    with FileLock(str(out) + ".lock", timeout=0):
                        render(path, out)
                    break
                except Timeout:
                    if not render_another():
                        with FileLock(str(out) + ".lock"):  # wait for the other worker's rendering
                            render(path, out)
                        break
            done = out / "done.json"
            pdf = (out / f"{name}.pdf").read_bytes()
            assert pdf.startswith(b"%PDF") and len(pdf) > 20_000
            layout = json.loads((out / f"{name}.layout.json").read_text(encoding="utf-8"))
            cache[key] = Rendered(path, out, name, (out / f"{name}.html").read_text(encoding="utf-8"), pdf, layout,
                                  json.loads(done.read_text(encoding="utf-8"))["stdout"])
        return cache[key]

    return get


def check_report(rendered: Rendered, texts: tuple[str, ...] = (), code: tuple[str, ...] = ()) -> str:
    """Check a rendered study report (see :func:`report_of`): returns its HTML.

    Asserts ``COMMON_REPORT_TEXTS`` and ``texts`` in the HTML; no code (``load_results(`` and
    ``code``) and no traceback or error in it.
    """
    html = rendered.html
    for text in COMMON_REPORT_TEXTS + texts:
        assert text in html, text
    for snippet in ("load_results(",) + code:
        assert snippet not in html, f"code cells must be hidden ({snippet!r} in the report)"
    assert "Traceback" not in html and "Error" not in html.split("<body")[1][:200]
    check_page(rendered)
    return html


#: The reading budget of a report's PDF.
MAX_PAGES, MAX_FIGURES = 40, 60

#: Reports whose PDF is known to exceed the budget, and why (tests/report/test_budget.py marks them xfail).
#: Empty: every report the tests render is within it.
OVER_BUDGET: dict[str, str] = {}


def _text(fragment: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def check_page(rendered: Rendered) -> None:
    """What every report page must be: offline, within the reading budget, tables on the page, findings complete.

    Asserts: nothing loaded from elsewhere (no ``http(s)://`` or ``file:`` in a ``src``/``href``/``import``);
    at most ``MAX_PAGES`` PDF pages and ``MAX_FIGURES`` figures (except ``OVER_BUDGET``); no table wider than
    the page; a Findings section before every other section, with one sentence per compared variant stating
    each metric's conclusion (higher, lower, or no detectable difference) as the comparisons table says.
    """
    from gamesim.core.api import Results
    from gamesim.report.page import external_urls

    page = rendered.html
    assert external_urls(page) == [], external_urls(page)[:5]
    lay = rendered.layout
    if rendered.name not in OVER_BUDGET:
        assert lay["pages"] <= MAX_PAGES and lay["figures"] <= MAX_FIGURES, lay
    assert lay["clipped_tables"] == [], lay["clipped_tables"]
    start = page.index('<h2 id="Findings"')
    assert start < page.index("<h2", page.index("<h1")) + 1, "Findings must be the first section"
    findings = page[start:page.index("<h2", start + 10)]
    items = re.findall(r"<li>(.*?)</li>", findings, re.S)
    res = Results.load(rendered.out_dir / f"{rendered.name}.parquet", rendered.scenario)
    comp = res.comparisons
    if comp.empty:
        return
    comp = comp[comp["statistic"] == "difference"]
    for (metric, variant), g in comp.groupby(["metric", comp["variant"].map(str)], sort=False):
        shown = variant if g["dimension"].iloc[0] == "case" else f"{g['dimension'].iloc[0]} = {variant}"
        said = [li for li in items if _text(li).startswith(f"{shown} against ")]
        assert len(said) == 1, (variant, [_text(li) for li in items])
        # the sentence's clauses: "higher in ...", "lower in ...", "the same result in every paired trial in ...",
        # "no detectable difference in ..."
        kinds = r"higher|lower|the same result in every paired trial|no detectable difference"
        clauses = dict(re.findall(rf"({kinds}) in (.*?)(?=; (?:{kinds}) in |\.$)", said[0].strip()))
        m = f"<strong>{html_lib.escape(metric)}</strong>"
        n_up, n_down = int((g["ci_low"] > 0).sum()), int((g["ci_high"] < 0).sum())
        n_same = int(((g["estimate"] == 0) & (g["se"] == 0) & g["crn"].astype(bool) & g["correlation"].notna()).sum())
        for count, word in ((n_up, "higher"), (n_down, "lower"), (n_same, "the same result in every paired trial"),
                            (len(g) - n_up - n_down - n_same, "no detectable difference")):
            if count == 0:
                assert m not in clauses.get(word, ""), (metric, word, said[0])
            elif len(g) == 1:
                assert m in clauses.get(word, ""), (metric, word, said[0])
            else:
                assert f"{m} (in {count} of {len(g)} settings" in clauses.get(word, ""), (metric, word, count, said[0])


def quick_and_slow(values: list, quick: tuple[int, ...] = (0,)) -> list:
    """Parameters of a simulator-against-reference comparison: ``values[i]`` for ``i`` in ``quick`` run in the
    development loop (``pytest -m "not slow"``), every other one is marked ``slow`` (the README's test command
    runs them all). A tuple value is spread over the parametrized names."""
    out = []
    for i, v in enumerate(values):
        args = v if isinstance(v, tuple) else (v,)
        out.append(pytest.param(*args) if i in quick else pytest.param(*args, marks=pytest.mark.slow))
    return out


def assert_proportion(x, p: float, *, z: float = 4.5, label: str = "") -> None:  # type: ignore[no-untyped-def]
    """Assert the 0/1 outcomes ``x`` are consistent with the exact proportion ``p`` (two-sided, ``z`` SD).

    The count of successes against its exact binomial law, at the two-sided tail probability of ``z``
    standard deviations (6.8e-6 for 4.5). A normal band of ``z`` standard errors is far too narrow for
    ``p`` near 0 or 1: p = 1.6e-7 in 100,000 trials gives one success in 1.6% of runs, which is 7.7
    standard errors from ``p``.
    """
    import numpy as np

    x = np.asarray(x, dtype=float).ravel()
    assert np.isin(x, (0.0, 1.0)).all(), f"{label}: not 0/1 outcomes"
    assert_count(int(x.sum()), x.size, p, z=z, label=label)


def assert_count(k: int, n: int, p: float, *, z: float = 4.5, label: str = "") -> None:
    """Assert ``k`` successes in ``n`` trials are consistent with the exact probability ``p``: the exact
    binomial law at the two-sided tail probability of ``z`` standard deviations (see :func:`assert_proportion`)."""
    from scipy import stats

    k, n = int(round(k)), int(n)
    alpha = 2 * stats.norm.sf(z)
    lo, hi = stats.binom.ppf(alpha / 2, n, p), stats.binom.isf(alpha / 2, n, p)
    assert lo <= k <= hi, f"{label}: {k}/{n} successes, exact p = {p:.3g}: outside [{lo:.0f}, {hi:.0f}]"


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


@pytest.fixture
def bernoulli_oracle():
    """A synthetic game ``draw`` whose one metric ``hit`` is Bernoulli(``p``), registered for one test: its name.

    For the target-search tests, whose truth is known exactly (the feasible ``p`` are those in the band).
    """
    import numpy as np

    from gamesim.core import registry
    from gamesim.core.registry import Game, Metric, Param, Task, register_game

    def draw(params, n_trials, *, rng):  # type: ignore[no-untyped-def]
        return {"hit": np.random.default_rng(rng).random(n_trials) < params["p"]}

    game = register_game(Game("bernoulli_oracle_fixture", "synthetic Bernoulli oracle (tests only)",
                              {"draw": Task("draw", draw, (Metric("hit", "proportion"),),
                                            (Param("p", "float", 0.5, min=0.0, max=1.0),))}))
    yield game.name
    registry._REGISTRY.pop(game.name, None)


def interrupt_while_the_bar_draws(monkeypatch, chunk_function: str, at: int = 2) -> None:
    """Ctrl-C at the worst moment for a progress bar: at call ``at`` of ``gamesim.run.sweep.<chunk_function>``
    the bar's text is drawn and tqdm is made to believe it never drew it (as when Ctrl-C lands inside its draw),
    then KeyboardInterrupt is raised. The bars of ``gamesim.run.sweep.tqdm`` show at once (no delay)."""
    import gamesim.run.sweep as sweep_module

    real, made = sweep_module.tqdm, []

    def bar(*a, **kw):  # type: ignore[no-untyped-def]
        kw["delay"] = 0
        made.append(real(*a, **kw))
        return made[-1]

    real_chunk, calls = getattr(sweep_module, chunk_function), {"n": 0}

    def chunk(*a, **kw):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == at:
            made[0].refresh()  # the bar's text is on the line...
            made[0].last_print_t = made[0].start_t - 1  # ...and tqdm believes it never drew it
            raise KeyboardInterrupt
        return real_chunk(*a, **kw)

    monkeypatch.setattr(sweep_module, "tqdm", bar)
    monkeypatch.setattr(sweep_module, chunk_function, chunk)
