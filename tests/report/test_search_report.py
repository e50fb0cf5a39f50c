"""The target-search report (`gamesim search`): read like a study report, answers from the exact solver, a PDF
that keeps its styles, a band drawn where the target is, and no trial simulated that the report does not show."""

from __future__ import annotations

import json
import math
import re

import pytest

from gamesim.core.registry import get_game
from gamesim.core.search import search
from gamesim.report.page import external_urls, printable
from gamesim.report.search_report import search_findings_markdown, settings_overview, status_matrix

from ..conftest import MAX_PAGES

#: A stranger's title and question: markup, a script, a link to a local file.
_ATTACK = '<img src=x onerror="alert(1)">Godtear <script>alert(2)</script>[see](file:///etc/passwd) **damage**'


def _exact_ko(accuracy: int, damage: int) -> float:
    task = get_game("godtear").tasks["knockout"]
    return task.exact(task.defaults(accuracy=accuracy, damage=damage, dodge=3, protection=2, health=5, uses=2))[
        "knockout:proportion"]


def _scenario(tmp_path, params: str, constraint: str, prefer: str = "smallest", extra: str = ""):
    path = tmp_path / "target.toml"
    path.write_text(f'''name = "search_report_test"
title = {json.dumps(_ATTACK)}
question = {json.dumps("Which damage? " + _ATTACK)}
game = "godtear"
seed = 5
n_trials = 500
chunk_size = 500
[[parts]]
name = "ko"
task = "knockout"
params = {{ dodge = 3, protection = 2, health = 5, uses = 2, accuracy = 5 }}
[target]
part = "ko"
prefer = "{prefer}"
{extra}
[target.params]
{params}
[[target.constraints]]
{constraint}
''', encoding="utf-8")
    return path


def _text(fragment: str) -> str:
    """The words of an HTML fragment: inline tags dropped, block tags a space."""
    inline = re.sub(r"</?(?:code|strong|em|b|i)\b[^>]*>", "", fragment)
    return " ".join(re.sub(r"<[^>]+>", " ", inline).split())


def test_search_report_opens_with_the_exact_answer_and_prints_within_the_page(tmp_path, capsys):
    """`gamesim search --pdf` on a stranger's scenario: Findings first, stating the recommended damage and the
    feasible range the exact solver gives; every section a study report has; nothing fetched, nothing active;
    the PDF keeps the page's styles (a picture no wider than the page) and stays within the reading budget."""
    from gamesim.cli import main

    scen = _scenario(tmp_path, "damage = { min = 1, max = 14 }",
                     'metric = "knockout"\nlow = 0.5\nmonotone = "increasing"')
    out = tmp_path / "out" / "s.search.html"
    assert main(["search", str(scen), "--out", str(out), "--pdf"]) == 0
    page = out.read_text(encoding="utf-8")
    feasible = [d for d in range(1, 15) if _exact_ko(5, d) >= 0.5]
    assert feasible and feasible == list(range(feasible[0], 15))  # the solver agrees with the declared direction

    order = [page.find(s) for s in ('id="findings"', "<img", 'id="settings"', 'id="Rules-and-variant-modelled"',
                                    'id="produced"')]
    assert -1 not in order and order == sorted(order), order
    findings = _text(page[order[0]:order[1]])
    assert f"Recommended (smallest): damage = {feasible[0]}:" in findings, findings
    assert f"knockout {_exact_ko(5, feasible[0]):.4g} (exact) (target: at least 0.5)" in findings, findings
    span = f"{feasible[0]}–14" if feasible[0] < 14 else "14"
    assert f"Feasible ({len(feasible)} of 14 settings): damage {span}." in findings, findings
    produced = _text(page[order[4]:])
    for fact in ("seed entropy (reproduce with --seed) 5", "gamesim version", "scenario hash", "method bisect",
                 "trials simulated 0"):  # every value came from the exact solver
        assert fact in produced, fact

    assert external_urls(page) == []
    assert not re.search(r"<script>alert|onerror|<img src=\"?x|href=\"?file:", page), "a scenario string went live"
    assert "Godtear" in page and "<strong>damage</strong>" in page  # its text and harmless formatting stay
    printed = printable(page)
    assert 'id="gamesim-search-css"' in printed and "img { max-width: 100%" in printed
    layout = json.loads(out.with_suffix(".layout.json").read_text(encoding="utf-8"))
    assert layout["pages"] <= MAX_PAGES and layout["clipped_tables"] == []
    assert f"Recommended (smallest): damage = {feasible[0]}" in capsys.readouterr().out


def test_one_sided_band_is_shaded_from_its_bound_to_the_edge():
    """A target `knockout >= 0.5`: the shaded band runs from 0.5 to the top of the axes (it used to cover the
    whole axes: a band drawn to 1e300 overflowed the drawing)."""
    import matplotlib

    matplotlib.use("Agg")
    sc = {"game": "godtear", "n_trials": 500,
          "parts": [{"name": "ko", "task": "knockout",
                     "params": {"dodge": 3, "protection": 2, "health": 5, "uses": 2, "accuracy": 5}}],
          "target": {"params": {"damage": {"min": 1, "max": 14}},
                     "constraints": [{"metric": "knockout", "low": 0.5}]}}
    fig = search(sc).plot()
    ax = fig.axes[0]
    band = [p for p in ax.patches if p.get_label() == "target band"]
    assert len(band) == 1
    y0, y1 = ax.get_ylim()
    lo, hi = band[0].get_y(), band[0].get_y() + band[0].get_height()
    assert lo == pytest.approx(0.5) and hi == pytest.approx(y1) and y0 < 0.5 < y1
    sc["target"]["params"] = {"damage": [5, 6, 7]}  # three players, three damages: ticks 5, 6, 7, never 5.25
    ax = search(sc).plot().axes[0]
    x0, x1 = ax.get_xlim()
    assert [t for t in ax.get_xticks() if x0 <= t <= x1] == [5, 6, 7]


def test_bisection_simulates_no_setting_it_does_not_show(bernoulli_oracle):
    """prefer = smallest ranks settings by position: a setting feasible by inference is not simulated for an
    estimate nobody reads (it was: half of a search's trials), and every simulated setting shows its values."""
    sc = {"game": bernoulli_oracle, "n_trials": 200, "chunk_size": 200,
          "parts": [{"name": "b", "task": "draw"}],
          "target": {"params": {"p": {"min": 0.0, "max": 1.0, "step": 0.02}}, "prefer": "smallest",
                     "n_start": 200, "max_trials": 800,
                     "constraints": [{"metric": "hit", "low": 0.3, "monotone": "increasing"}]}}
    res = search(sc)
    df = res.settings
    assert res.method == "bisect" and (df["basis"] == "inferred").sum() > 20
    est = df["hit >= 0.3: estimate"]
    assert not df[(df["n"] > 0) & est.isna()].size, df[(df["n"] > 0) & est.isna()]
    assert res.trials_used == int(df["n"].sum())
    assert res.recommended is not None and res.recommended["basis"] == "sampled"

    overview = settings_overview(res)  # runs of settings with no values of their own: one row each
    assert len(overview) < len(df)
    covered = 0
    for row in overview.itertuples():
        a, _, b = str(row.p).partition("–")
        k = round((float(b or a) - float(a)) / 0.02) + 1
        covered += k
        if k > 1:
            assert row.n == 0 and getattr(row, "_5") in ("not simulated (inferred)", "not evaluated")
    assert covered == len(df)


def test_two_parameters_print_a_value_and_status_table(tmp_path):
    """Two searched parameters: a table of the exact value and status mark per setting (as the figure reads:
    the second parameter's largest value first), the one-row-per-setting table only in the HTML."""
    from gamesim.report.search_report import write_report

    sc = {"game": "godtear", "n_trials": 500, "title": "two", "name": "two",
          "parts": [{"name": "ko", "task": "knockout",
                     "params": {"dodge": 3, "protection": 2, "health": 5, "uses": 2}}],
          "target": {"params": {"accuracy": {"min": 2, "max": 6}, "damage": {"min": 3, "max": 8}},
                     "constraints": [{"metric": "knockout", "low": 0.5}], "prefer": "smallest"}}
    res = search(sc)
    m = status_matrix(res)
    assert m is not None and m.shape == (6, 5) and list(m.index) == ["8", "7", "6", "5", "4", "3"]
    for a in range(2, 7):
        for d in range(3, 9):
            v = _exact_ko(a, d)
            assert m.loc[str(d), str(a)] == f"{v:.4g} {'✓' if v >= 0.5 else '✗'}", (a, d)
    page = write_report(res, tmp_path / "two.html").read_text(encoding="utf-8")
    rows = page.count("<tr")
    assert rows >= 30 + 6 and printable(page).count("<tr") < rows - 25  # the 30-row table is not printed
    assert "Every setting, one row each: 30 rows (in the HTML report; not printed)" in page


def test_findings_of_an_unmet_target_say_so():
    sc = {"game": "godtear", "n_trials": 500,
          "parts": [{"name": "ko", "task": "knockout",
                     "params": {"dodge": 3, "protection": 2, "health": 5, "uses": 2, "accuracy": 1}}],
          "target": {"params": {"damage": {"min": 1, "max": 3}}, "constraints": [{"metric": "knockout", "low": 0.99}]}}
    from gamesim.report.search_report import search_findings_markdown

    res = search(sc)
    assert all(not _exact_ko(1, d) >= 0.99 for d in (1, 2, 3)) and res.recommended is None
    text = search_findings_markdown(res)
    # every exact value is below the band: the Findings say so and name the closest setting (more trials cannot help)
    best = max((1, 2, 3), key=lambda d: _exact_ko(1, d))
    assert "**Out of reach in this box:** knockout is below the target (at least 0.99)" in text, text
    assert f"the closest is {_exact_ko(1, best):.4g} (exact) at `damage = {best}`" in text, text  # exact: no n
    assert "**Infeasible** (3 of 3 settings)" in text
    assert not math.isnan(res.alpha_interval)


def test_progress_shows_the_trials_simulated_and_clears(capsys, bernoulli_oracle, monkeypatch):
    """`gamesim search` shows the trials simulated so far while it runs (a long search is not silent), and the
    bar is gone at the end; the results do not depend on it."""
    import gamesim.run.sweep as sweep_module

    shown = []
    real = sweep_module.tqdm

    def spy(*a, **kw):  # the bar as created, without its half-second delay
        kw["delay"] = 0
        bar = real(*a, **kw)
        shown.append((kw["disable"], bar))
        return bar

    monkeypatch.setattr(sweep_module, "tqdm", spy)
    sc = {"game": bernoulli_oracle, "n_trials": 200, "chunk_size": 200, "seed": 3,
          "parts": [{"name": "b", "task": "draw"}],
          "target": {"params": {"p": [0.2, 0.5]}, "n_start": 200, "max_trials": 800,
                     "constraints": [{"metric": "hit", "low": 0.3}]}}
    quiet, loud = search(sc), search(sc, progress=True)
    assert quiet.settings.equals(loud.settings)
    assert [d for d, _ in shown] == [True, False] and shown[1][1].n == loud.trials_used > 0
    assert " trials" in capsys.readouterr().err


def test_interrupted_progress_line_is_ended_before_the_message(bernoulli_oracle, monkeypatch):
    """Ctrl-C while the bar is drawn (after its text, before tqdm notes it drew it): tqdm's close leaves the line
    open, so the search ends it itself; the command's one-line message then starts its own line."""
    import io

    import gamesim.analysis.search.evaluator as evaluator_module
    from tests.conftest import interrupt_while_the_bar_draws

    err = io.StringIO()
    monkeypatch.setattr(evaluator_module.sys, "stderr", err)
    interrupt_while_the_bar_draws(monkeypatch, "run_chunk")
    sc = {"game": bernoulli_oracle, "n_trials": 100, "chunk_size": 100, "seed": 1,
          "parts": [{"name": "b", "task": "draw"}],
          "target": {"params": {"p": [0.2, 0.5]}, "n_start": 100, "max_trials": 800,
                     "constraints": [{"metric": "hit", "low": 0.3}]}}
    with pytest.raises(KeyboardInterrupt):
        search(sc, progress=True)
    text = err.getvalue()
    assert " trials" in text and text.endswith("\n"), repr(text)


@pytest.mark.parametrize(("ps", "side", "closest"), [([0.02, 0.2], "below", 0.2), ([0.8, 0.98], "above", 0.8),
                                                       ([0.1, 0.9], None, None)])
def test_a_target_out_of_reach_says_which_side_and_the_closest_setting(bernoulli_oracle, ps, side, closest):
    """No setting feasible: where every simulated value lies on one side of the band, the Findings (and the
    summary) say so and name the closest setting, since more trials would not help; values on both sides of
    the band say nothing of the kind."""
    sc = {"game": bernoulli_oracle, "n_trials": 200, "chunk_size": 200,
          "parts": [{"name": "b", "task": "draw"}],
          "target": {"params": {"p": ps}, "n_start": 200, "max_trials": 400,
                     "constraints": [{"metric": "hit", "low": 0.45, "high": 0.55}]}}
    res = search(sc)
    assert res.recommended is None and res.counts()["infeasible"] == len(ps)
    reach = res.out_of_reach()
    text = search_findings_markdown(res)
    if side is None:
        assert reach == [] and "Out of reach" not in text and "No setting was shown to meet the target" in text
        return
    ((c, got_side, row),) = reach
    est = res.settings["0.45 <= hit <= 0.55: estimate"]
    assert got_side == side and row["p"] == closest
    assert row["0.45 <= hit <= 0.55: estimate"] == (est.max() if side == "below" else est.min())
    assert f"**Out of reach in this box:** hit is {side} the target (between 0.45 and 0.55)" in text, text
    assert f"(sampled, n = {int(row['n']):,} trials) at `p = {closest:g}`" in text  # the closest value with its n
    assert "No setting was shown" not in text
    assert f"hit is {side} the band at every setting simulated; closest" in res.summary()
