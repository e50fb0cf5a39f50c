"""The generic report: findings first, then every part, metric, comparison and distribution of any scenario.

:func:`render` displays (in a notebook, through IPython's display machinery):

1. the scenario's title, question and notes;
2. **Findings**: sentences generated from the results (:mod:`gamesim.report.findings`);
3. how the results were produced, and the rules and variant modelled;
4. one section per part: its question, task, swept and fixed settings, cases;
   ONE figure of every metric as small multiples (:func:`gamesim.report.charts.estimates_chart`),
   one of the paired comparisons, one of the whole distributions of the integer metrics of widest
   range (:func:`distribution_metrics`: at most two, one in a study of more than six parts; every
   distribution is in the results), the exact curve drawn over the Monte Carlo one where the game
   has a PMF, with a box that reads P(X ≥ k) of any cell at any k (:mod:`gamesim.report.picker`),
   and P(X ≥ k) of every cell for each ``at_least`` event; then, folded
   away in an appendix (``<details>``), the table of every cell of every metric and
   comparison (also in the CSV/parquet results).

All text comes from the scenario (title, question, notes, parameters: each through
:func:`gamesim.core.sanitize.safe_markdown`) and the registry (task and metric docs),
never from a built-in study's wording, so a designer's own scenario gets a complete
report. The generic notebook (``gamesim/report/notebooks/generic_report.ipynb``) calls it, and every
built-in study notebook calls it
before its own analysis.

Each figure is followed by a line naming the series it draws, so the HTML says in
words what the picture shows.
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

from gamesim.report.present import run_summary, scenario_part, scenario_spelling, setting_text, show_text, varied_dims
from gamesim.core.sanitize import safe_markdown

if TYPE_CHECKING:  # pragma: no cover
    from gamesim.api import Results

__all__ = ["render", "table_id", "distribution_metrics", "APPENDIX_PRINT_ROWS", "MAX_DISTRIBUTION_METRICS",
           "MAX_PANELS_PER_FIGURE"]

#: A part's appendix (its per-cell tables) is printed in the PDF up to this many table rows; longer ones are
#: in the HTML (folded) and the CSV/parquet results only, so a study's PDF stays within its reading budget.
APPENDIX_PRINT_ROWS = 12


#: Metric panels in one estimates figure at most (six rows of four fit a page).
MAX_PANELS_PER_FIGURE = 24

#: Metrics whose whole distribution a part's figure draws at most (those of widest range; every one is tabulated).
MAX_DISTRIBUTION_METRICS = 2


def distribution_metrics(results: Results, part: str, *,
                         max_metrics: int = MAX_DISTRIBUTION_METRICS) -> tuple[list[str], list[str]]:
    """The metrics of ``part`` whose P(X ≥ k) the report draws, and every metric with a tabulated distribution.

    Drawn: at most ``max_metrics`` metrics taking more than two values (a 0/1 metric's distribution is its
    proportion, already in the estimates figure), those of widest range (most distinct values over the
    part's cells) first, shown in declared order. Both lists are in declared order.
    """
    dist = results.distributions
    if dist.empty or part not in set(dist["part"]):
        return [], []
    d = dist[dist["part"] == part]
    n_values = d.groupby("metric", sort=False)["value"].nunique()
    order = {m: i for i, m in enumerate(results.metrics(part))}
    tabulated = sorted(n_values.index, key=lambda m: order.get(m, len(order)))
    wide = [m for m in tabulated if n_values[m] > 2]
    chosen = set(sorted(wide, key=lambda m: (-n_values[m], order.get(m, len(order))))[:max_metrics])
    return [m for m in tabulated if m in chosen], tabulated


def untabulated_cells(results: Results, part: str, metrics: list[str]) -> list[str]:
    """Labels of the cells of ``part`` with no distribution table for any of ``metrics``.

    A sweep tabulates a cell's distribution while it counts the cell's distinct values (at most
    :data:`gamesim.core.summary.MAX_COUNTED_VALUES`; over
    :data:`gamesim.core.analysis.MAX_DISTINCT_VALUES` of them the table is thinned, not dropped); the
    report names the cells left without one instead of leaving them out of the figure silently. Their
    quantiles are in the estimates tables.
    """
    have = _dist_cells(results, part, metrics)
    return [lab for c, lab in _cell_names(results, part).items() if c not in have]


def _thinned_cells(results: Results, part: str, metrics: list[str]) -> list[str]:
    """Labels of the cells of ``part`` whose distribution table of one of ``metrics`` is thinned."""
    thinned = _dist_cells(results, part, metrics, thinned=True)
    return [lab for c, lab in _cell_names(results, part).items() if c in thinned]


def _cell_names(results: Results, part: str) -> dict[int, str]:
    """Each cell of ``part`` named by its settings in a sentence: ``session_size = 1``, ``case = a, hp = 20``
    (the panels' short labels, ``1`` or ``a | 20``, say nothing outside their figure)."""
    from gamesim.report.charts import _cell_labels

    dims = results.dims(part)
    if not dims:
        return _cell_labels(results, part)
    rows = results.part_frame(part).drop_duplicates("cell")
    return {int(r["cell"]): setting_text(r, dims) for r in rows.to_dict("records")}


def _dist_cells(results: Results, part: str, metrics: list[str], *, thinned: bool = False) -> set[int]:
    """The cells of ``part`` with a distribution table of one of ``metrics`` (only thinned ones: ``thinned``)."""
    dist = results.distributions
    d = dist[(dist["part"] == part) & dist["metric"].isin(metrics)]
    if thinned:
        d = d[d["thinned"].fillna(False).astype(bool)] if "thinned" in d else d.iloc[0:0]
    return set(int(c) for c in d["cell"])


def table_id(part: str, metric: str, kind: str = "metric") -> str:
    """The HTML id of a report table: ``gamesim-<kind>-<part>-<metric>`` (unsafe characters as ``_``)."""
    clean = re.sub(r"[^0-9A-Za-z_-]", "_", f"{part}-{metric}")
    return f"gamesim-{kind}-{clean}"


def _md(text: str) -> None:
    from IPython.display import Markdown, display

    display(Markdown(text))


def _html(text: str) -> None:
    from IPython.display import HTML, display

    display(HTML(text))


def _table_html(df: pd.DataFrame, tid: str, before: str = "") -> str:
    return before + scenario_spelling(df).to_html(table_id=tid, classes="gamesim-table", border=0, escape=True)


def _table(df: pd.DataFrame, tid: str, before: str = "") -> None:
    """One output: ``before`` (a heading or caption, HTML) and the table, so no page break falls between them."""
    _html(_table_html(df, tid, before))


def _figure(chart: Any, caption: str, series_what: str = "", series: list[str] | None = None,
            series_title: str = "") -> None:
    """One chart (live in the HTML, a picture in the PDF) and the line naming the series it draws."""
    from gamesim.report.charts import chart_html

    drawer = _DRAWING[-1] if _DRAWING else None
    out = chart_html(chart, caption, drawer=drawer[0] if drawer else None)
    if series:
        named = f" ({html.escape(series_title)})" if series_title else ""
        out += (f'<p class="gamesim-series">{html.escape(series_what)}{named}: '
                + "; ".join(html.escape(str(s)) for s in series) + "</p>")
    if drawer is None:
        _html(out)
        return
    from IPython.display import HTML, display

    handle = display(HTML(out), display_id=True)  # its picture is filled in when drawn (see render)
    drawer[1].append((handle, out))


#: The picture drawer of the report being rendered, and its figures waiting for their pictures.
_DRAWING: list[tuple[Any, list[tuple[Any, str]]]] = []


@contextlib.contextmanager
def _pictures_in_background() -> Iterator[None]:
    """While the report is built, its chart pictures are drawn in helper processes
    (:class:`gamesim.report.pictures.PictureDrawer`); at the end every figure is shown again with its
    picture (the notebook keeps only that output: the figures are display updates)."""
    from gamesim.report.charts import fill_pictures
    from gamesim.report.pictures import PictureDrawer

    try:
        from IPython import get_ipython

        live = getattr(get_ipython(), "kernel", None) is not None
    except ImportError:
        live = False
    if not live:  # display updates need a notebook kernel: draw each picture where it is made
        yield
        return
    with PictureDrawer() as drawer:
        figures: list[tuple[Any, str]] = []
        _DRAWING.append((drawer, figures))
        try:
            yield
        finally:
            _DRAWING.pop()
        from IPython.display import HTML

        for handle, out in figures:
            handle.update(HTML(fill_pictures(out, drawer)))


def _value(v: Any) -> str:
    return show_text(v)


def _md_value(v: Any) -> str:
    """A parameter value or case name for a Markdown cell: the scenario's strings are a stranger's text."""
    return safe_markdown(_value(v))


def metric_doc(by_doc: Mapping[str, list[dict[str, Any]]]) -> str:
    """A metric's doc for a part whose cells may describe it differently.

    Parameters
    ----------
    by_doc : mapping of str to list of dict
        Each doc the part's cells give the metric, with the labels (swept dimension -> value) of the
        cells that give it, in the part's order.

    Returns
    -------
    str
        The one doc; or each doc followed by the cells it is for: by the first swept dimension whose
        values tell the docs apart ("... (n_players = 2); ... (n_players = 3, 4)"), or, where no one
        dimension does, by the cells' settings (the first three, then how many more).
    """
    docs = list(by_doc)
    if len(docs) == 1:
        return docs[0]
    dims = list(next(iter(by_doc.values()))[0])
    values = {d: [{show_text(label[d]) for label in by_doc[doc]} for doc in docs] for d in dims}
    apart = next((d for d in dims if sum(len(v) for v in values[d]) == len(set().union(*values[d]))), None)
    out = []
    for doc, labels in by_doc.items():
        if apart is not None:
            where = f"{apart} = {', '.join(dict.fromkeys(show_text(label[apart]) for label in labels))}"
        else:
            where = "; ".join(setting_text(label, dims) for label in labels[:3])
            where += f"; {len(labels) - 3} more cells" if len(labels) > 3 else ""
        out.append(f"{doc} (at {where})")
    return "; ".join(out)


def render(results: Results, *, heading_level: int = 1) -> None:
    """Display the generic report of ``results`` in the running notebook.

    Parameters
    ----------
    results : Results
        With its scenario (for texts and dimension order) where available.
    heading_level : int, default 1
        Markdown level of the report title; sections are one level below.
    """
    from gamesim.report.present import setup_plots
    from gamesim.report.findings import findings_markdown

    setup_plots()  # a study notebook's own matplotlib figures, drawn after this, get the Japanese font too
    sc = results.scenario
    h = ["#" * (heading_level + k) for k in range(4)]
    title = sc.title if sc is not None else str(results.meta.get("scenario", "Results"))
    _md(f"{h[0]} {safe_markdown(title)}")
    if sc is not None and sc.question:
        _md(f"**Question.** {safe_markdown(sc.question)}")
    if sc is not None and sc.notes:
        _md(f"**Notes.** {safe_markdown(sc.notes)}")

    _md(findings_markdown(results, heading=h[1]))

    _md(f"{h[1]} How these results were produced")
    _table(run_summary(results.frame, results.meta), "gamesim-run")
    _md(
        "Every estimate is shown as *estimate [95% confidence interval]* with its number of trials *n*: "
        "Wilson score intervals for proportions, Student-t intervals for means, distribution-free "
        "order-statistic intervals for quantiles. *exact* is the exact solver's value, where the game has "
        "one for the cell. A mean whose trials all gave the same value reads *no spread: all n values equal x*: "
        "such a sample cannot measure its own spread (docs/reliability.md). In the HTML, hover a point for its "
        "values, click a legend entry to show one series (shift-click for more), click a column heading to sort "
        "a table and a section heading to fold it."
    )

    if sc is not None:
        _rules_section(sc, h, results)

    with _pictures_in_background():
        for part in results.parts:
            _part_section(results, part, h)


def _rules_section(sc: Any, h: list[str], results: Results | None = None) -> None:
    game = sc.game
    lines = [f"{h[1]} Rules and variant modelled", "",
             f"- Game: **{game.title}** (`{game.name}`); rulebook `shared/seeds/{game.seed_file}`; "
             f"our reading of it: `{game.rules_doc}`."]
    fixed = sc.raw.get("params", {})
    if fixed:
        lines.append("- Parameters fixed for the whole scenario: " +
                     ", ".join(f"`{k} = {_md_value(v)}`" for k, v in fixed.items()) + ".")
    if sc.precision is not None:
        pr = sc.precision
        lines.append(f"- Precision target: the 95% interval of `{pr.metric}` no wider than ±{pr.half_width:g}, "
                     f"at most {pr.max_trials:,} trials per cell.")
    if results is not None:
        from gamesim.report.present import data_set_lines

        lines.extend(f"- {line}" for line in data_set_lines(results))
    if sc.compare is not None:
        c = sc.compare
        what = (f"case `{_md_value(c.baseline)}`" if c.dimension == "case"
                else f"`{c.dimension} = {_md_value(c.baseline)}`")
        lines.append((f"- Comparison: every pair of {'cases' if c.dimension == 'case' else f'`{c.dimension}` values'}"
                      " (Holm-adjusted over the family)" if c.pairs == "all" else
                      f"- Comparison: every variant against the baseline {what}")
                     + (", with common random numbers (compared cells share their random numbers)"
                        if c.crn else ", with independent random numbers") + ".")
    _md("\n".join(lines))


def _part_section(results: Results, part: str, h: list[str]) -> None:
    from gamesim.report.charts import compare_chart, distribution_chart, estimates_chart, metric_groups, x_and_series

    spec = scenario_part(results, part)
    task_name = results.part_frame(part)["task"].iloc[0]
    heading = spec.title if spec is not None and spec.title else part
    _md(f"{h[1]} {safe_markdown(heading)}" + (f" (part `{safe_markdown(part)}`)" if heading != part else "")
        + f", task `{safe_markdown(str(task_name))}`")
    lines = []
    if spec is not None:
        if spec.question:
            lines.append(f"**Question.** {safe_markdown(spec.question)}")
        if spec.task.doc:
            lines.append(f"*Task.* {' '.join(spec.task.doc.split())}")
        dims = spec.dim_values()
        if dims:
            lines.append("*Swept:* " + "; ".join(
                f"`{d}` ∈ {{{', '.join(_md_value(v) for v in vals)}}}" for d, vals in dims.items()))
        if spec.fixed:
            lines.append("*Fixed for this part:* "
                         + ", ".join(f"`{k} = {_md_value(v)}`" for k, v in spec.fixed.items()))
        n_cells = len(spec.labels())
        lines.append(f"*Cells:* {n_cells}; trials per cell before any precision top-up: {spec.n_trials:,}.")
    _md("\n\n".join(lines))
    if spec is not None and spec.cases:
        # each value as the scenario gives it: a column with a case's default left out stays text, where
        # pandas would make a column of ints with a gap floats (counter_dice = 2 shown as 2.0)
        names = list(dict.fromkeys(k for c in spec.cases for k in c.params))
        rows = [{"case": c.name, **{k: _value(c.params[k]) if k in c.params else "(default)" for k in names}}
                for c in spec.cases]
        _table(pd.DataFrame(rows).set_index("case"), table_id(part, "cases", "cases"),
               '<p class="gamesim-caption"><em>Cases (parameters that move together):</em></p>\n')

    docs: dict[str, str] = {}
    if spec is not None:  # metrics, and their docs, can depend on the cell (one per seat, a rule switch)
        said: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for cell, label in zip(spec.cells(), spec.labels()):
            for m in spec.task.metrics_for(cell):
                if m.doc:
                    said.setdefault(m.name, {}).setdefault(m.doc, []).append(label)
        docs = {name: metric_doc(by_doc) for name, by_doc in said.items()}
    metrics = results.metrics(part)
    frame = results.part_frame(part)
    x, others, _ = x_and_series(results.dims(part), frame)
    series = list(dict.fromkeys(" | ".join(show_text(r[o]) for o in others)
                                for r in frame.drop_duplicates("cell").to_dict("records"))) if others else []
    # one figure for up to MAX_PANELS_PER_FIGURE metrics (each figure costs about a second to draw and a third
    # of a page); more are split by statistic
    groups = metric_groups(results, part, max_panels=MAX_PANELS_PER_FIGURE)
    for k, group in enumerate(groups):
        which = "every metric" if len(groups) == 1 else f"{group[0][1]} metrics (figure {k + 1} of {len(groups)})"
        # wide rows for many panels: four short rows print shorter than six of three
        _figure(estimates_chart(results, part, [m for m, _ in group], columns=4 if len(group) > 6 else 3),
                f"{part}: {which}, estimate and 95% interval" + (f" against {x}" if x else "")
                + ("; lines: exact values" if frame["exact"].notna().any() else ""),
                "Series plotted", series, " | ".join(others))
    capped = frame[frame["target_met"] == False]  # noqa: E712
    if len(capped):  # which cells, by their settings (the Findings say it too)
        swept = varied_dims(frame, results.dims(part)) or results.dims(part)
        where = "; ".join(", ".join(f"{safe_markdown(d)} = {_md_value(r[d])}" for d in swept)
                          for _, r in capped.drop_duplicates("cell").iterrows())
        _md(f"*Precision target not met (trial cap reached) at {where}.*")

    comp = results.comparisons
    compared = []
    if not comp.empty and part in set(comp["part"]):
        c0 = comp[comp["part"] == part].iloc[0]
        compared = list(pd.unique(comp.loc[comp["part"] == part, "metric"]))
        bases = pd.unique(comp.loc[comp["part"] == part, "baseline"].map(str))
        heading = (f"Comparison of every pair ({safe_markdown(str(c0['dimension']))}; decisions Holm-adjusted "
                   "over the family in the appendix tables)" if len(bases) > 1 else
                   f"Comparison with the baseline ({safe_markdown(str(c0['dimension']))} = "
                   f"{_md_value(c0['baseline'])})")
        _md(f"{h[2]} {heading}\n\n"
            "Differences are *variant − baseline*; intervals use the pairing of trials "
            + ("(common random numbers: trial *i* of both cells used the same random numbers)."
               if bool(c0["crn"]) else "(trials matched by index; the cells used independent random numbers).")
            + " Blue: higher, red: lower, grey: no detectable difference (the interval contains 0). The tables "
              "in the appendix give the ratio, the correlation of the pairs and the paired half-width against "
              "the half-width two independent samples of the same size would give.")
        _figure(compare_chart(results, part), f"{part}: paired differences, variant − baseline, 95% intervals")

    from gamesim.report.findings import MANY_PARTS
    from gamesim.report.picker import event_lines, picker_html

    events = event_lines(results, part)
    # a study of many parts draws one distribution per part (the widest), so it stays within its pages
    drawn, tabulated = distribution_metrics(results, part, max_metrics=1 if len(results.parts) > MANY_PARTS
                                            else MAX_DISTRIBUTION_METRICS)
    if drawn:
        dist = results.distributions
        exact = ("at_least_exact" in dist
                 and dist.loc[(dist["part"] == part) & dist["metric"].isin(drawn), "at_least_exact"].notna().any())
        rest = [m for m in tabulated if m not in drawn]
        _md(f"{h[2]} Whole distributions\n\n"
            f"P(X ≥ k) of {', '.join(f'`{safe_markdown(m)}`' for m in drawn)} (the integer metrics of widest "
            "range), with 95% Wilson bands, one panel per cell; hover a point for P(X ≥ k) with its interval"
            + ("; the dashed black line is the exact curve from the game's exact solver" if exact else "")
            + ". "
            + (f"The distributions of {', '.join(f'`{safe_markdown(m)}`' for m in rest)} are tabulated too. "
               if rest else "")
            + "The probability mass function, P(X ≥ k) and P(X ≤ k) of every cell, with the case and parameter "
              "columns, are in the `.dist` results table and `Results.distribution(metric, **settings)`; in the "
              "HTML, the box below the figure reads P(X ≥ k) of any cell at any k.")
        missing = untabulated_cells(results, part, drawn)
        if missing:
            from gamesim.core.summary import MAX_COUNTED_VALUES

            _md(f"Not drawn (more than {MAX_COUNTED_VALUES:,} distinct values, so no distribution table; their "
                f"quantiles are in the tables): {'; '.join(safe_markdown(m) for m in missing)}.")
        thinned = _thinned_cells(results, part, drawn)
        if thinned:
            from gamesim.core.analysis import MAX_DISTINCT_VALUES

            _md(f"Drawn at {MAX_DISTINCT_VALUES} evenly spaced k (more distinct values than that; each point is "
                f"exact at its k): {'; '.join(safe_markdown(m) for m in thinned)}.")
        _figure(distribution_chart(results, part, drawn), f"{part}: P(X ≥ k) per cell"
                + ("; solid with shaded band: Monte Carlo, dashed: exact" if exact else ""))
        _html(picker_html(results, part))
    if events:
        _md("\n\n".join(events))

    # the appendix: every cell of every metric and comparison, folded in the HTML
    level = len(h[2]) + 1
    blocks = []
    n_rows = 0
    for metric in metrics:
        heading = f"<code>{html.escape(metric)}</code>" + (f": {html.escape(docs[metric])}" if docs.get(metric) else "")
        tab = results.table(metric, part=part)
        n_rows += len(tab)
        blocks.append(_table_html(tab, table_id(part, metric), f"<h{level}>{heading}</h{level}>\n"))
    for metric in compared:
        tab = results.compare(metric, part=part).drop(columns=["part", "metric"])
        keys = [k for k in tab.columns if k not in results.COMPARE_VALUE_COLUMNS]
        n_rows += len(tab)
        caption = f'<p class="gamesim-caption"><code>{html.escape(metric)}</code>: variant − baseline</p>\n'
        blocks.append(_table_html(tab.set_index(keys), table_id(part, metric, "compare"), caption))
    printed = n_rows <= APPENDIX_PRINT_ROWS
    summary = (f"Every cell: {len(metrics)} metric table(s)"
               + (f" and {len(compared)} comparison table(s)" if compared else "")
               + f", {n_rows} rows" + ("" if printed else " (in the HTML report and the results files; not printed)"))
    _html(f'<details class="gamesim-appendix{"" if printed else " gamesim-noprint"}">'
          f"<summary>{html.escape(summary)}</summary>\n" + "\n".join(blocks) + "</details>")
