"""Reports: execute a study notebook on a results file, write HTML and PDF.

The study notebook (``notebooks/<study>.ipynb``) is executed with papermill,
which injects ``results_path`` and ``scenario_path`` into its cell tagged
``parameters``. The executed notebook is exported to HTML by nbconvert with code
cells hidden (a report is for designers), then printed to PDF by WeasyPrint,
which needs only the pango libraries of the base machine: no LaTeX, and no
browser downloaded at run time. WeasyPrint is given a URL fetcher that serves
only ``data:`` and local ``file:`` URLs, so a report never waits on the network.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

__all__ = ["GENERIC_NOTEBOOK", "ReportError", "execute_notebook", "notebook_to_html", "html_to_pdf", "render_report"]


#: The report every scenario gets when it names no study notebook of its own.
GENERIC_NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "generic_report.ipynb"


class ReportError(RuntimeError):
    """The study notebook failed to execute or the report could not be written."""


def execute_notebook(notebook: Path, output: Path, parameters: dict[str, Any], *, cwd: Path | None = None) -> Path:
    """Execute ``notebook`` with papermill, injecting ``parameters``.

    Parameters
    ----------
    notebook : pathlib.Path
        The study notebook; one cell tagged ``parameters`` holds the defaults.
    output : pathlib.Path
        Where the executed notebook is written.
    parameters : dict
        Values injected after the ``parameters`` cell (e.g. ``results_path``).
    cwd : pathlib.Path, optional
        Working directory of the kernel (default: the notebook's folder).

    Returns
    -------
    pathlib.Path
        ``output``.

    Raises
    ------
    ReportError
        If a cell raises; the message names the notebook and the error, and the
        partly executed notebook is left at ``output`` for inspection.
    """
    import papermill as pm

    logging.getLogger("papermill").setLevel(logging.WARNING)
    output.parent.mkdir(parents=True, exist_ok=True)
    try:
        pm.execute_notebook(
            str(notebook),
            str(output),
            parameters=parameters,
            kernel_name="python3",
            progress_bar=False,
            cwd=str(cwd or notebook.parent),
            # the kernel only talks to us on loopback; keep its start-up warnings, and the ZMQ errors of
            # a kernel shut down mid-cell by Ctrl-C, off the console (cell errors still come back)
            extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
        )
    except pm.PapermillExecutionError as exc:
        raise ReportError(f"{notebook}: cell {exc.exec_count} raised {exc.ename}: {exc.evalue} (see {output})") from None
    return output


def notebook_to_html(executed: Path, html_path: Path, *, title: str | None = None) -> Path:
    """Export an executed notebook to a standalone HTML page without code cells.

    Parameters
    ----------
    executed : pathlib.Path
        Executed ``.ipynb``.
    html_path : pathlib.Path
        Destination ``.html``.
    title : str, optional
        HTML document title.

    Returns
    -------
    pathlib.Path
        ``html_path``: one self-contained page (:func:`gamesim.report.page.finish_page`): pictures are
        ``data:`` URIs, the chart library is inlined, nothing is loaded from the network.
    """
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(str(executed), as_version=4)
    if title:
        nb.metadata["title"] = title
    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb)
    from gamesim.report.page import finish_page

    html_path.write_text(finish_page(body), encoding="utf-8")
    return html_path


def _offline_fetcher() -> Any:
    """A WeasyPrint URL fetcher serving only ``data:`` and ``file:`` URLs."""
    import weasyprint
    from weasyprint import urls

    if hasattr(urls, "URLFetcher"):  # WeasyPrint >= 66: a fetcher object
        return urls.URLFetcher(allowed_protocols=("data", "file"), timeout=5)

    def fetch(url: str, *args: Any, **kwargs: Any) -> Any:
        if url.startswith(("data:", "file:")):
            return weasyprint.default_url_fetcher(url, *args, **kwargs)
        raise ValueError(f"not fetched (reports are offline): {url}")

    return fetch


def html_to_pdf(html_path: Path, pdf_path: Path) -> Path:
    """Print an HTML report to PDF with WeasyPrint (offline).

    Parameters
    ----------
    html_path : pathlib.Path
        The report page.
    pdf_path : pathlib.Path
        Destination ``.pdf``.

    Returns
    -------
    pathlib.Path
        ``pdf_path``.

    Raises
    ------
    ReportError
        If WeasyPrint (or its pango libraries) is not available.
    """
    try:
        import weasyprint
    except (ImportError, OSError) as exc:  # OSError: missing pango shared libraries
        raise ReportError(f"PDF needs WeasyPrint and the pango libraries: {exc}") from None
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    doc = weasyprint.HTML(filename=str(html_path), url_fetcher=_offline_fetcher()).render()
    doc.write_pdf(str(pdf_path))
    stats = {"pages": len(doc.pages), "figures": _count_figures(html_path.read_text(encoding="utf-8")),
             "clipped_tables": _clipped_tables(doc)}
    pdf_path.with_suffix(".layout.json").write_text(json.dumps(stats, indent=1), encoding="utf-8")
    return pdf_path


def _count_figures(page: str) -> int:
    """Pictures in the page: one per chart (its static image) plus every other embedded image."""
    return len(re.findall(r"<img\b", page))


def _clipped_tables(doc: Any) -> list[dict[str, Any]]:
    """``<table>`` elements laid out wider than their page's content box (their right part would be cut off).

    Only real tables count: the notebook template lays some blocks out as CSS tables (a Markdown
    cell's input area), which hold no data.
    """
    out = []
    for number, page in enumerate(doc.pages, start=1):
        box = page._page_box
        right = box.content_box_x() + box.width

        def walk(b: Any) -> None:
            name = type(b).__name__
            element = getattr(b, "element", None)
            if name in ("TableBox", "InlineTableBox") and element is not None and element.tag == "table":
                end = b.position_x + b.margin_width()
                if end > right + 1.0:
                    tid = element.get("id")
                    out.append({"page": number, "id": tid, "overflow_px": round(end - right, 1)})
                return
            for child in getattr(b, "children", []) or []:
                walk(child)

        walk(box)
    return out


def render_report(
    notebook: Path, results_path: Path, scenario_path: Path, out_dir: Path, name: str, *, title: str | None = None
) -> tuple[Path, Path]:
    """Execute a study notebook on a results file and write ``<name>.html`` and ``.pdf``.

    Parameters
    ----------
    notebook : pathlib.Path
        The study notebook.
    results_path : pathlib.Path
        Tidy results parquet (:func:`gamesim.core.results.save_results`).
    scenario_path : pathlib.Path
        The scenario file the results come from.
    out_dir : pathlib.Path
        Report folder; the executed notebook is kept there as ``<name>.ipynb``.
    name : str
        Report base name (the scenario's name).
    title : str, optional
        Document title.

    Returns
    -------
    (pathlib.Path, pathlib.Path)
        The HTML and PDF paths.

    Raises
    ------
    ReportError
        If the notebook fails or the PDF cannot be written.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    executed = execute_notebook(
        notebook,
        out_dir / f"{name}.ipynb",
        {"results_path": str(results_path.resolve()), "scenario_path": str(scenario_path.resolve())},
    )
    html = notebook_to_html(executed, out_dir / f"{name}.html", title=title)
    pdf = html_to_pdf(html, out_dir / f"{name}.pdf")
    return html, pdf
