"""The target-search report: a self-contained HTML page (and PDF) of a search and its sensitivity run.

:func:`write_report` writes the page ``gamesim search`` leaves in ``reports/``;
:func:`render_search_report` runs the generic search notebook instead. Both are importable
from :mod:`gamesim.core.search` too.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from gamesim.run.results import atomic_write
from gamesim.run.scenario import ScenarioError
from gamesim.analysis.search import SearchResult
from gamesim.analysis.target import load_target_scenario
from gamesim.report.render import execute_notebook, html_to_pdf, notebook_to_html

__all__ = ["write_report", "render_search_report"]


def _fig_html(fig: Any) -> str:
    import base64
    import io

    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return f'<img src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}"/>'


_REPORT_CSS = ("@page { size: A4; margin: 1.5cm } body { font-family: sans-serif; font-size: 10pt } "
               "img { max-width: 100%; height: auto } pre { white-space: pre-wrap; word-break: break-word; "
               "font-size: 8.5pt } table { border-collapse: collapse; font-size: 8.5pt } "
               "th, td { padding: 1px 6px; border-bottom: 1px solid #ddd; text-align: right }")


def write_report(result: SearchResult, path: str | Path, *, sensitivity: Any = None, pdf: bool = False) -> Path:
    """Write the search (and sensitivity) report as a self-contained HTML file (and PDF).

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
    """
    import html

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    sc = result.scenario
    parts = [f"<h1>{html.escape(sc.title)}</h1>", f"<p>{html.escape(sc.question)}</p>",
             "<h2>Target search</h2>", f"<pre>{html.escape(result.summary())}</pre>",
             _fig_html(result.plot())]
    if result.recommended is not None:
        rec = result.recommended
        row = {k: rec[k] for k in result.param_names}
        row.update(status=rec["status"], basis=rec["basis"], n=rec["n"])
        for c in result.target.constraints:
            e, lo, hi, ex = (rec[f"{c.label}: {k}"] for k in ("estimate", "ci_low", "ci_high", "exact"))
            row[c.label] = (f"{e:.4g} (exact)" if not math.isnan(ex) else
                            f"{e:.4g} [{lo:.4g}, {hi:.4g}]" if not math.isnan(e) else "inferred (not sampled)")
        parts += [f"<h3>Recommended setting ({html.escape(result.target.prefer)})</h3>",
                  f"<p>Intervals at {100 * (1 - result.alpha_interval):.4g}% (the decision level).</p>",
                  pd.DataFrame([row]).to_html(index=False)]
    if not result.frontier.empty and result.target.prefer != "closest":
        parts += [f"<h3>Pareto-{result.target.prefer} feasible settings</h3>",
                  result.frontier[result.param_names].to_html(index=False)]
    parts += ["<h3>Every setting</h3>", result.table().to_html(index=False)]
    if sensitivity is not None:
        parts += ["<h2>Sensitivity</h2>", f"<pre>{html.escape(sensitivity.summary())}</pre>",
                  sensitivity.table().to_html(index=False), _fig_html(sensitivity.plot())]
    parts.append(f"<p>seed entropy {result.seed_entropy}</p>")
    body = "\n".join(parts)

    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(sc.title)}</title>"
            f"<style>{_REPORT_CSS}</style></head><body>{body}</body></html>").encode("utf-8")
    atomic_write(path, lambda fh: fh.write(page))  # Ctrl-C or a full disk: the old report or none
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
