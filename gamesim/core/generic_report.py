"""The generic report: every part, metric, comparison and distribution of any scenario.

:func:`render` displays (in a notebook, through IPython's display machinery)
one section per part with its title and question, a table per metric with
``estimate [95% CI]``, n and exact values over every swept dimension, a plot per
metric, the paired comparisons, and whole distributions. All text comes from the
scenario (title, question, notes, parameters) and the registry (task and metric
docs), never from a built-in study's wording, so a designer's own scenario gets
a complete report. The generic notebook (``gamesim/notebooks/generic_report.ipynb``)
calls it, and every built-in study notebook calls it before its own analysis.

Each plot is followed by a line naming the series it draws (taken from the
plot's own legend), so the HTML says in words what the picture shows.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from gamesim.core.sanitize import safe_markdown

if TYPE_CHECKING:  # pragma: no cover
    from gamesim.core.api import Results

__all__ = ["render", "table_id"]


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


def _table(df: pd.DataFrame, tid: str, before: str = "") -> None:
    """One output: ``before`` (a heading or caption, HTML) and the table, so no page break falls between them."""
    _html(before + df.to_html(table_id=tid, classes="gamesim-table", border=0, escape=True))


def _show_fig(ax: Any, what: str) -> None:
    import matplotlib.pyplot as plt

    fig = ax.figure
    legend = ax.get_legend()
    labels = [t.get_text() for t in legend.get_texts()] if legend is not None else []
    title = legend.get_title().get_text() if legend is not None else ""
    fig.tight_layout()
    plt.show()
    plt.close(fig)
    if labels:
        items = "; ".join(html.escape(str(lab)) for lab in labels)
        named = f" ({html.escape(title)})" if title else ""
        _html(f'<p class="gamesim-series">{html.escape(what)}{named}: {items}</p>')


def _value(v: Any) -> str:
    from gamesim.core.api import _show

    return str(_show(v))


def _md_value(v: Any) -> str:
    """A parameter value or case name for a Markdown cell: the scenario's strings are a stranger's text."""
    return safe_markdown(_value(v))


def render(results: Results, *, heading_level: int = 1) -> None:
    """Display the generic report of ``results`` in the running notebook.

    Parameters
    ----------
    results : Results
        With its scenario (for texts and dimension order) where available.
    heading_level : int, default 1
        Markdown level of the report title; sections are one level below.
    """
    from gamesim.core.present import setup_plots

    setup_plots()
    sc = results.scenario
    h = ["#" * (heading_level + k) for k in range(4)]
    title = sc.title if sc is not None else str(results.meta.get("scenario", "Results"))
    _md(f"{h[0]} {safe_markdown(title)}")
    if sc is not None and sc.question:
        _md(f"**Question.** {safe_markdown(sc.question)}")
    if sc is not None and sc.notes:
        _md(f"**Notes.** {safe_markdown(sc.notes)}")

    _md(f"{h[1]} How these results were produced")
    from gamesim.core.api import summary_table

    _table(summary_table(results), "gamesim-run")
    _md(
        "Every estimate is shown as *estimate [95% confidence interval]* with its number of trials *n*: "
        "Wilson score intervals for proportions, Student-t intervals for means, distribution-free "
        "order-statistic intervals for quantiles. *exact* is the exact solver's value, where the game has "
        "one for the cell."
        + (" An interval with an infinite end (*inf*) belongs to a mean whose trials all gave the same value: "
           "such a sample cannot measure its own spread, so the interval is not collapsed to that value "
           "(docs/reliability.md)."
           if np.isinf(pd.to_numeric(results.frame["ci_low"], errors="coerce")).any()
           or np.isinf(pd.to_numeric(results.frame["ci_high"], errors="coerce")).any() else "")
    )

    if sc is not None:
        _rules_section(sc, h)

    for part in results.parts:
        _part_section(results, part, h)


def _rules_section(sc: Any, h: list[str]) -> None:
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
    if sc.compare is not None:
        c = sc.compare
        what = (f"case `{_md_value(c.baseline)}`" if c.dimension == "case"
                else f"`{c.dimension} = {_md_value(c.baseline)}`")
        lines.append(f"- Comparison: every variant against the baseline {what}"
                     + (", with common random numbers (compared cells share their random numbers)"
                        if c.crn else ", with independent random numbers") + ".")
    _md("\n".join(lines))


def _part_section(results: Results, part: str, h: list[str]) -> None:
    sc = results.scenario
    spec = next((p for p in sc.parts if p.name == part), None) if sc is not None else None
    task_name = results.frame.loc[results.frame["part"] == part, "task"].iloc[0]
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
        rows = [{"case": c.name, **{k: _value(v) for k, v in c.params.items()}} for c in spec.cases]
        _md("*Cases (parameters that move together):*")
        _table(pd.DataFrame(rows).fillna("(default)").set_index("case"), table_id(part, "cases", "cases"))

    docs = {}
    if spec is not None:
        for cell in spec.cells():  # metrics can depend on the cell (e.g. one per seat)
            for m in spec.task.metrics_for(cell):
                docs.setdefault(m.name, m.doc)
    capped = results.frame[(results.frame["part"] == part) & (results.frame["target_met"] == False)]  # noqa: E712
    for metric in results.metrics(part):
        level = len(h[2])
        heading = f"<code>{html.escape(metric)}</code>" + (f": {html.escape(docs[metric])}" if docs.get(metric) else "")
        _table(results.table(metric, part=part), table_id(part, metric), f"<h{level}>{heading}</h{level}>\n")
        if len(capped) and metric in set(capped["metric"]):
            cells = sorted(set(capped.loc[capped["metric"] == metric, "cell"]))
            _md(f"*Precision target not met (trial cap reached) in cells {', '.join(map(str, cells))}.*")
        ax = results.plot(metric, part=part)
        _show_fig(ax, f"Series plotted for {metric}")

    comp = results.comparisons
    if not comp.empty and part in set(comp["part"]):
        c0 = comp[comp["part"] == part].iloc[0]
        _md(f"{h[2]} Comparison with the baseline "
            f"({safe_markdown(str(c0['dimension']))} = {_md_value(c0['baseline'])})\n\n"
            "Differences are *variant − baseline*; intervals use the pairing of trials "
            + ("(common random numbers: trial *i* of both cells used the same random numbers)."
               if bool(c0["crn"]) else "(trials matched by index; the cells used independent random numbers).")
            + " The last column gives the paired half-width against the half-width two independent "
              "samples of the same size would give.")
        for metric in pd.unique(comp.loc[comp["part"] == part, "metric"]):
            tab = results.compare(metric, part=part).drop(columns=["part", "metric"])
            keys = [k for k in tab.columns if k not in results.COMPARE_VALUE_COLUMNS]
            caption = f'<p class="gamesim-caption"><code>{html.escape(metric)}</code>: variant − baseline</p>\n'
            _table(tab.set_index(keys), table_id(part, metric, "compare"), caption)
            ax = results.plot_compare(metric, part=part)
            _show_fig(ax, f"Comparisons plotted for {metric}")

    dist = results.distributions
    if not dist.empty and part in set(dist["part"]):
        _md(f"{h[2]} Whole distributions\n\n"
            "P(X ≥ k) for every integer-valued metric, with 95% Wilson bands; the probability mass "
            "function and P(X ≤ k) of every cell are in the `.dist` results table.")
        for metric in pd.unique(dist.loc[dist["part"] == part, "metric"]):
            ax = results.plot_distribution(metric, part=part)
            _show_fig(ax, f"Distributions plotted for {metric}")
