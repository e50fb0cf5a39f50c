"""The target-search report: a self-contained HTML page (and PDF) of a search and its sensitivity run.

:func:`write_report` writes the page ``gamesim search`` leaves in ``reports/``;
:func:`render_search_report` runs the generic search notebook instead. Both are importable
from :mod:`gamesim.core.search` too.
"""

from __future__ import annotations

import datetime
import html
import math
from pathlib import Path
from typing import Any

import pandas as pd

from gamesim.analysis.search import SearchResult
from gamesim.analysis.target import load_target_scenario
from gamesim.core.sanitize import plain_text, safe_markdown
from gamesim.core.version import __version__
from gamesim.report.page import finish_page
from gamesim.report.present import data_set_lines, scenario_spelling, setting_text, show_text
from gamesim.report.render import execute_notebook, html_to_pdf, notebook_to_html
from gamesim.run.results import atomic_write
from gamesim.run.scenario import ScenarioError

__all__ = ["write_report", "render_search_report", "search_findings_markdown", "decision_rule_markdown",
           "settings_overview", "status_matrix", "search_run_table", "search_rules_markdown"]


def _plain_title(text: str) -> str:
    """A scenario title on one line, without markup (for the page title and heading)."""
    return " ".join(plain_text(text).split())


def _fig_html(fig: Any, caption: str) -> str:
    """A matplotlib figure as an embedded PNG (nothing fetched) with its caption; the figure is closed."""
    import base64
    import io

    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode()
    return (f'<figure class="gamesim-search-figure">'
            f'<img src="data:image/png;base64,{data}" alt="{html.escape(caption)}"/>'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


#: The search page's own styles, after the study reports' (:data:`gamesim.report.page.PRINT_CSS`); the ``gamesim``
#: id keeps them in the PDF (:func:`gamesim.report.page.printable` drops every other style).
_SEARCH_CSS = """<style id="gamesim-search-css">
body { max-width: 60em; margin: 0 auto; padding: 0 1em; font-size: 10pt; line-height: 1.4; }
figure.gamesim-search-figure { margin: 0.6em 0; } figure.gamesim-search-figure img { max-width: 100%; height: auto; }
table { margin: 0.3em 0; } thead { border-bottom: 1px solid #444; } th, td { text-align: right; padding: 1px 4px; }
tbody tr:nth-child(odd) { background: #f5f5f5; } div.gamesim-note { font-size: 9pt; color: #333; }
a.anchor-link { visibility: hidden; margin-left: 0.25em; }
h1:hover > a.anchor-link, h2:hover > a.anchor-link, h3:hover > a.anchor-link { visibility: visible; }
</style>
"""


def _num(v: float) -> str:
    return f"{v:.4g}"


def _value_text(rec: dict[str, Any], c: Any) -> str:
    """A constraint's value at a setting: ``0.009 [0.00432, 0.0187]``, ``0.5 (exact)`` or why there is none."""
    return SearchResult.table_value(rec, c) or _no_value(rec.get("basis"))


def _how(rec: dict[str, Any]) -> str:
    """How a setting's values were obtained, for a sentence: `` (sampled, n = 1,000 trials)``; nothing when exact."""
    return "" if rec["basis"] == "exact" else f" ({rec['basis']}, n = {int(rec['n']):,} trials)"


def _no_value(basis: Any) -> str:
    """Why a setting shows no value: decided by inference, or not looked at."""
    return "not simulated (inferred)" if basis == "inferred" else "not evaluated"


def _searched_part(result: SearchResult) -> Any:
    """The scenario part the target searches."""
    sc = result.scenario
    return next((p for p in sc.parts if p.name == result.target.part), sc.parts[0])


def _positions(result: SearchResult) -> list[int] | None:
    """Each settings row's index in the searched values (one searched parameter), else None."""
    if len(result.param_names) != 1:
        return None
    values = list(result.target.params[0].values)
    return [values.index(v) for v in result.settings[result.param_names[0]]]


def _ranges(result: SearchResult, rows: pd.DataFrame) -> str:
    """``rows``' values of the one searched parameter, in box order: numbers as runs (``6–22, 25–80``: values
    consecutive in the box), other values one by one; at most 8 items, then how many more."""
    values = list(result.target.params[0].values)
    idx = sorted(values.index(v) for v in rows[result.param_names[0]])
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        runs: list[list[int]] = []
        for i in idx:
            if runs and i == runs[-1][1] + 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        items = [show_text(values[a]) if a == b else f"{show_text(values[a])}–{show_text(values[b])}"
                 for a, b in runs]
    else:
        items = [show_text(values[i]) for i in idx]
    if len(items) > 8:
        items = items[:8] + [f"and {len(items) - 8} more"]
    return ", ".join(items)


def _code(text: str) -> str:
    """``text`` (a stranger's value) as inline code in Markdown, on one line."""
    t = " ".join(safe_markdown(text).split()).replace("`", "'")
    return f"`{t}`"


def search_findings_markdown(result: SearchResult, *, heading: str = "##") -> str:
    """The search's Findings as Markdown: what was found, first, in plain words.

    The recommended setting with its values (or, where none is feasible and a constraint's values lie on
    one side of its band everywhere, which side and the closest setting); for one searched parameter,
    which values are feasible, infeasible, undecided or not evaluated (as ranges of the box); what
    "inferred" means where the
    bisection inferred settings; the search's warnings; ILLUSTRATIVE data first where the searched part
    runs on it. Every string from the scenario is escaped (:func:`gamesim.core.sanitize.safe_markdown`).

    Parameters
    ----------
    result : SearchResult
        What :func:`gamesim.analysis.search.search` returned.
    heading : str, default "##"
        The Markdown heading marks of the section.

    Returns
    -------
    str
        Markdown: the heading, a short note on how to read it, one bullet per finding.
    """
    t = result.target
    names = result.param_names
    df = result.settings
    lines = [f"{heading} Findings", "",
             f"*Every number is an estimate with its interval at {100 * (1 - result.alpha_interval):.4g}% (the level "
             "each decision is taken at), or an exact value.*", ""]
    lines += [f"- {line}" for line in data_set_lines(_Run(result), illustrative_only=True)]
    rec = result.recommended
    if rec is not None:
        vals = "; ".join(f"{safe_markdown(c.metric)} {_value_text(rec, c)} (target: {_target_text(c)})"
                         for c in t.constraints)
        lines.append(f"- **Recommended ({t.prefer}):** {_code(setting_text(rec, names))}: {vals}{_how(rec)}.")
    else:
        reach = result.out_of_reach()
        if not reach:
            lines.append(f"- **No setting was shown to meet the target** with up to {t.max_trials:,} trials per "
                         "setting.")
        for c, side, r in reach:
            lines.append(f"- **Out of reach in this box:** {safe_markdown(c.metric)} is {side} the target "
                         f"({_target_text(c)}) at every setting simulated; the closest is {_value_text(r, c)}{_how(r)} "
                         f"at {_code(setting_text(r, names))}. More trials will not change that: widen the searched "
                         "range or change another rule.")
    counts = result.counts()
    total = len(df)
    label = {"feasible": "Feasible", "infeasible": "Infeasible",
             "undecided": f"Undecided at {t.max_trials:,} trials", "not evaluated": "Not evaluated"}
    for status in ("feasible", "infeasible", "undecided", "not evaluated"):
        k = counts.get(status, 0)
        if not k:
            continue
        rows = df[df["status"] == status]
        where = f": {safe_markdown(names[0])} {safe_markdown(_ranges(result, rows))}" if len(names) == 1 else ""
        extra = {"undecided": " (their intervals still straddle a bound: more trials, `max_trials`, or a wider "
                              "band would decide them)",
                 "not evaluated": " (skipped by the staged grid: their neighbours on the coarse grid were "
                                  "decided)"}.get(status, "")
        lines.append(f"- **{label[status]}** ({k:,} of {total:,} settings){where}{extra}.")
    if rec is not None and t.prefer != "closest" and len(result.frontier) > 1:
        shown = [_code(setting_text(r, names)) for r in result.frontier.head(8).to_dict("records")]
        more = f" and {len(result.frontier) - 8} more" if len(result.frontier) > 8 else ""
        lines.append(f"- **Pareto-{t.prefer} feasible settings** (none beaten on every parameter): "
                     + ", ".join(shown) + more + ".")
    inferred = int((df["basis"] == "inferred").sum())
    if inferred:
        mono = "; ".join(f"{safe_markdown(c.metric)} {c.monotone} in {safe_markdown(names[0])}"
                         for c in t.constraints if c.monotone)
        lines.append(f"- **Inferred** ({inferred:,} settings): decided from the settings around them by the declared "
                     f"monotonicity ({mono}), not simulated one by one.")
    lines += [f"- **Warning:** {' '.join(safe_markdown(n).split())}" for n in result.notes]
    return "\n".join(lines)


def _target_text(c: Any) -> str:
    """A constraint's band in words: ``at most 0.02``, ``at least 0.5``, ``between 0.45 and 0.55``."""
    if math.isinf(c.low):
        return f"at most {c.high:g}"
    if math.isinf(c.high):
        return f"at least {c.low:g}"
    return f"between {c.low:g} and {c.high:g}"


def _figure_caption(result: SearchResult) -> str:
    if _positions(result) is not None and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                              for v in result.target.params[0].values):
        return ("Each simulated or exact setting's value with its interval (the decision level) against the target "
                "band (shaded); the ticks at the bottom give every setting's status, inferred ones included.")
    names = result.param_names
    shown = f"{names[0]} across" if len(names) == 1 else f"{names[0]} across, {names[-1]} up" + (
        f"; over {', '.join(names[1:-1])}, the worst status" if len(names) > 2 else "")
    return f"Every setting's status ({shown}); the star marks the recommended setting."


#: A status as one mark in the table of two searched parameters.
_MARKS = {"feasible": "✓", "infeasible": "✗", "undecided": "?", "not evaluated": "·"}


def status_matrix(result: SearchResult) -> pd.DataFrame | None:
    """Two searched parameters as a table: one row per value of the second (largest first, as the figure reads),
    one column per value of the first; each cell the status mark (✓ feasible, ✗ infeasible, ? undecided,
    · not evaluated), after the value of the one constraint where there is one and it was simulated or exact.

    Parameters
    ----------
    result : SearchResult

    Returns
    -------
    pandas.DataFrame or None
        None unless exactly two parameters were searched, with at most 25 values each.
    """
    names = result.param_names
    if len(names) != 2 or any(len(p.values) > 25 for p in result.target.params):
        return None
    (xn, xs), (yn, ys) = ((p.name, list(p.values)) for p in result.target.params)
    cons = result.target.constraints
    cells: dict[tuple[int, int], str] = {}
    for rec in result.settings.to_dict("records"):
        text = _MARKS[rec["status"]]
        if len(cons) == 1 and not math.isnan(rec[f"{cons[0].label}: estimate"]):
            text = f"{_num(rec[f'{cons[0].label}: estimate'])} {text}"
        cells[(ys.index(rec[yn]), xs.index(rec[xn]))] = text
    rows = {show_text(ys[i]): [cells.get((i, j), "") for j in range(len(xs))] for i in reversed(range(len(ys)))}
    out = pd.DataFrame.from_dict(rows, orient="index", columns=[show_text(x) for x in xs])
    out.index.name, out.columns.name = yn, xn
    return out


def decision_rule_markdown(result: SearchResult) -> str:
    """One paragraph: how each setting was decided (looks, interval level, the Bonferroni split).

    Parameters
    ----------
    result : SearchResult

    Returns
    -------
    str
        Markdown (no scenario text in it: numbers and the method only).
    """
    t = result.target
    split = ["looks", "constraints"] + (["settings"] if t.familywise else []) + (
        ["bisection levels"] if result.method == "bisect" else [])
    how = {"bisect": "a noisy bisection along the searched parameter (the metric declared monotone)",
           "grid": "a staged grid (a coarse grid first, then the settings between decided neighbours)",
           "exact": "the game's exact solver at every setting (no sampling)"}.get(result.method, result.method)
    if result.method == "exact":
        return (f"Searched by {how}. A setting is **feasible** when every constraint's exact value lies inside its "
                "band, **infeasible** otherwise: no sampling error.")
    return (f"Searched by {how}. Each sampled setting is looked at after {', '.join(f'{n:,}' for n in t.looks())} "
            f"trials (the trials of earlier looks are kept) until it is decided. A setting is **feasible** when every "
            f"constraint's interval lies inside its band, **infeasible** when one lies wholly outside, **undecided** "
            f"when one still straddles a bound after the last look. Each interval is at "
            f"{100 * (1 - result.alpha_interval):.4g}%: alpha = {t.alpha:g} "
            + ("for the whole box" if t.familywise else "per setting")
            + f", split over the {' x '.join(split)} (Bonferroni), so a setting is wrongly declared feasible or "
            f"infeasible with probability at most {t.alpha:g}.")


def settings_overview(result: SearchResult) -> pd.DataFrame:
    """Every setting, with runs of settings decided without simulation grouped (one searched parameter).

    Parameters
    ----------
    result : SearchResult

    Returns
    -------
    pandas.DataFrame
        The columns of :meth:`SearchResult.table`, values as a scenario writes them; with one searched
        parameter, consecutive settings of the same status that have no value of their own (inferred,
        not evaluated) are one row whose parameter cell reads ``6–14`` and whose ``n`` is 0.
    """
    table = result.table()
    shown = scenario_spelling(table)
    pos = _positions(result)
    if pos is None:
        return shown
    cons = [c.label for c in result.target.constraints]
    rows: list[dict[str, Any]] = []
    name = result.param_names[0]
    values = list(result.target.params[0].values)
    order = sorted(range(len(table)), key=lambda i: pos[i])
    for i in order:
        r = table.iloc[i]
        bare = all(not str(r[c]) for c in cons)
        last = rows[-1] if rows else None
        if (bare and last is not None and last["_bare"] and last["status"] == r["status"]
                and last["basis"] == r["basis"] and last["_to"] == pos[i] - 1):
            last["_to"] = pos[i]
            continue
        rows.append({"_from": pos[i], "_to": pos[i], "_bare": bare, **shown.iloc[i].to_dict()})
    for row in rows:
        if row["_to"] > row["_from"]:
            row[name] = f"{show_text(values[row['_from']])}–{show_text(values[row['_to']])}"
        if row["_bare"]:
            for c in cons:
                row[c] = _no_value(row["basis"])
    return pd.DataFrame(rows).drop(columns=["_from", "_to", "_bare"]).reset_index(drop=True)


def search_run_table(result: SearchResult) -> pd.DataFrame:
    """How the search's results were produced: target, box, method, looks, level, trials, seed, version, hash.

    Parameters
    ----------
    result : SearchResult

    Returns
    -------
    pandas.DataFrame
        One ``value`` column (text), indexed by what it is.
    """
    t = result.target
    sc = result.scenario
    part = _searched_part(result)
    info = {
        "target": " and ".join(c.label for c in t.constraints),
        "searched": "; ".join(f"{p.name} in {show_text(p.values[0])} .. {show_text(p.values[-1])} ({len(p.values)} "
                              "values)" for p in t.params),
        "part (task)": f"{part.name} ({part.task.name})",
        "method": result.method,
        "looks (trials per setting)": ("none (exact values)" if result.method == "exact"
                                       else ", ".join(f"{n:,}" for n in t.looks())),
        "interval level": f"{100 * (1 - result.alpha_interval):.4g}%",
        "trials simulated": f"{result.trials_used:,}" + (
            f" ({result.chunks_reused:,} chunks of them saved by an earlier run of this search and reused)"
            if result.chunks_reused else ""),
        "seed entropy (reproduce with --seed)": str(result.seed_entropy),
        "gamesim version": __version__,
        "scenario hash": sc.content_hash(result.seed_entropy)[:16],
        "written (UTC)": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    return pd.DataFrame({"value": list(info.values())}, index=list(info.keys()))


class _Run:
    """The searched part's scenario, as :func:`gamesim.report.present.data_sets` reads a run's results."""

    def __init__(self, result: SearchResult):
        import dataclasses

        self.scenario = dataclasses.replace(result.scenario, parts=(_searched_part(result),))
        self.meta: dict[str, Any] = {}


def search_rules_markdown(result: SearchResult, *, heading: str = "##") -> str:
    """The rules section: the game, its rulebook and our reading, the searched part's fixed parameters, its data.

    Parameters
    ----------
    result : SearchResult
    heading : str, default "##"
        The Markdown heading marks of the section.

    Returns
    -------
    str
        Markdown (scenario strings escaped).
    """
    sc = result.scenario
    game = sc.game
    part = _searched_part(result)
    lines = [f"{heading} Rules and variant modelled", "",
             f"- Game: **{game.title}** (`{game.name}`); rulebook `shared/seeds/{game.seed_file}`; "
             f"our reading of it: `{game.rules_doc}`."]
    fixed = {k: v for k, v in part.fixed.items() if k not in result.param_names}
    if fixed:
        lines.append(f"- Fixed in part {_code(part.name)} (task `{part.task.name}`): "
                     + ", ".join(_code(f"{k} = {show_text(v)}") for k, v in fixed.items())
                     + "; every other parameter at its default (`gamesim list`).")
    lines += [f"- {line}" for line in data_set_lines(_Run(result))]
    return "\n".join(lines)


def _settings_html(result: SearchResult) -> list[str]:
    """The settings section: one searched parameter, every setting (runs grouped); two, a value-and-status
    table; more, the settings with values of their own. Where that is not every row, every row follows in an
    appendix of the HTML page that is not printed (the PDF's reading budget)."""
    overview = settings_overview(result)
    if len(result.param_names) == 1:
        return [_table_html(overview)]
    matrix = status_matrix(result)
    if matrix is not None:
        value = (f"the value of {result.target.constraints[0].label} and " if len(result.target.constraints) == 1
                 else "")
        printed = [f'<p class="gamesim-caption">Each cell: {html.escape(value)}the status (✓ feasible, '
                   "✗ infeasible, ? undecided, · not evaluated).</p>", _table_html(matrix, index=True)]
    else:
        shown = overview[overview["basis"].isin(["sampled", "exact"])]
        printed = [f'<p class="gamesim-caption">The {len(shown):,} settings with values of their own (sampled or '
                   f"exact); the other {len(overview) - len(shown):,} were inferred or not evaluated.</p>",
                   _table_html(shown)]
    appendix = (f'<details class="gamesim-appendix gamesim-noprint"><summary>Every setting, one row each: '
                f"{len(overview):,} rows (in the HTML report; not printed)</summary>{_table_html(overview)}</details>")
    return printed + [appendix]


def _table_html(df: pd.DataFrame, *, index: bool = False) -> str:
    return df.to_html(index=index, escape=True, border=0, classes="gamesim-table")


def write_report(result: SearchResult, path: str | Path, *, sensitivity: Any = None, pdf: bool = False) -> Path:
    """Write the search (and sensitivity) report as a self-contained HTML file (and PDF).

    The page reads like a study report (:mod:`gamesim.report.page`): Findings first
    (:func:`search_findings_markdown`), the feasible region as a figure, every setting
    (:func:`settings_overview`), the sensitivity ranking, the rules and data, and how the
    results were produced (:func:`search_run_table`); the study reports' styles, table of
    contents and foldable sections; nothing fetched. Scenario strings are escaped.

    Parameters
    ----------
    result : SearchResult
    path : str or pathlib.Path
        The ``.html`` file to write (folders created).
    sensitivity : SensitivityResult, optional
        Adds the ranking table and the tornado plot.
    pdf : bool, default False
        Also write ``<path>.pdf`` with :func:`gamesim.report.render.html_to_pdf`.

    Returns
    -------
    pathlib.Path
        The HTML file.

    Raises
    ------
    gamesim.report.render.ReportError
        If the PDF cannot be printed (no WeasyPrint, a page too large).
    OSError
        If a file cannot be written (the previous one is left as it was).
    """
    from nbconvert.filters.markdown_mistune import markdown2html_mistune  # the study reports' Markdown renderer

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    sc = result.scenario

    def md(text: str) -> str:
        return markdown2html_mistune(text)

    def h2(anchor: str, text: str) -> str:
        return f'<h2 id="{anchor}">{html.escape(text)}</h2>'

    findings = search_findings_markdown(result).split("\n", 1)[1]  # the heading is written with its anchor
    parts = [md(f"# {safe_markdown(' '.join(sc.title.split()))}"),  # as the study notebooks show a title
             md(f"**Question.** {safe_markdown(sc.question)}") if sc.question else "",
             h2("findings", "Findings"), md(findings),
             _fig_html(result.plot(), _figure_caption(result)),
             f'<div class="gamesim-note">{md(decision_rule_markdown(result))}</div>',
             h2("settings", "Every setting"), *_settings_html(result)]
    if sensitivity is not None:
        parts += [h2("sensitivity", "Sensitivity: which rule matters most?"),
                  md(safe_markdown(sensitivity.summary())), _table_html(sensitivity.table()),
                  _fig_html(sensitivity.plot(), "One-at-a-time effects of each parameter on "
                                                f"{sensitivity.spec.metric}, with 95% paired intervals.")]
    parts += [md(search_rules_markdown(result)),
              h2("produced", "How these results were produced"), _table_html(search_run_table(result), index=True)]
    body = "\n".join(p for p in parts if p)
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(_plain_title(sc.title))}</title>"
            f"{_SEARCH_CSS}</head><body>{body}</body></html>")
    data = finish_page(page).encode("utf-8")
    atomic_write(path, lambda fh: fh.write(data))  # Ctrl-C or a full disk: the old report or none
    if pdf:
        html_to_pdf(path, path.with_suffix(".pdf"))
    return path


def render_search_report(scenario: str | Path, out_dir: str | Path, *, seed: int | None = None,
                         pdf: bool = True) -> tuple[Path, Path | None]:
    """Execute the generic search notebook for a target scenario and export it to HTML (and PDF).

    Parameters
    ----------
    scenario : str or pathlib.Path
        A scenario file with a ``[target]`` (and optional ``[sensitivity]``) table.
    out_dir : str or pathlib.Path
        Folder for ``<name>.search.ipynb``, ``.html`` and ``.pdf``.
    seed : int, optional
        Root seed (default: the scenario's, or fresh entropy shown in the report).
    pdf : bool, default True
        Also write the PDF (:func:`gamesim.report.render.html_to_pdf`).

    Returns
    -------
    (pathlib.Path, pathlib.Path or None)
        The HTML and PDF files.

    Raises
    ------
    ScenarioError
        For an invalid scenario or target (checked before the notebook runs).
    gamesim.report.render.ReportError
        If a notebook cell fails.
    """
    from importlib.resources import files

    scenario = Path(scenario).resolve()
    sc, tgt, _ = load_target_scenario(scenario)
    if tgt is None:
        raise ScenarioError(f"{scenario}: no [target] table: nothing to search")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    notebook = Path(str(files("gamesim.report.notebooks") / "search_report.ipynb"))
    executed = execute_notebook(notebook, out / f"{sc.name}.search.ipynb",
                                {"scenario_path": str(scenario), "seed": seed}, cwd=out)
    html = notebook_to_html(executed, out / f"{sc.name}.search.html", title=sc.title)
    return html, (html_to_pdf(html, out / f"{sc.name}.search.pdf") if pdf else None)
