"""Reports: execute a study notebook on a results file, write HTML and PDF.

The study notebook (``notebooks/<study>.ipynb``) is executed with papermill,
which injects ``results_path`` and ``scenario_path`` into its cell tagged
``parameters``. The executed notebook is exported to HTML by nbconvert with code
cells hidden (a report is for designers), then printed to PDF by WeasyPrint,
which needs only the pango libraries of the base machine: no LaTeX, and no
browser downloaded at run time.

The printer fetches nothing (docs/security.md): WeasyPrint's URL fetcher serves
only the ``data:`` URLs of the pictures gamesim embedded and refuses ``file:``,
``http(s):`` and every other scheme, so no local file (``/etc/passwd``,
``/dev/zero``) and no network address reaches or stalls a PDF; PDF attachments
(``<link rel=attachment>``, ``<a rel=attachment>``) are dropped; an HTML page over
:data:`MAX_HTML_BYTES` is refused and printing stops after ``timeout_s`` seconds.

The executed notebook, the HTML and the PDF of one report are written under
temporary names unique to the run and renamed together at the end (with Ctrl-C
and SIGTERM held back for those few renames), so an interrupted report leaves
the previous complete set, or nothing, never a truncated PDF or a new HTML beside
an old PDF.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import signal
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gamesim.core.signals import signals_held

__all__ = ["GENERIC_NOTEBOOK", "MAX_HTML_BYTES", "PDF_TIMEOUT_S", "ReportError", "execute_notebook",
           "notebook_to_html", "html_to_pdf", "render_report"]

#: The largest HTML page printed to PDF. The biggest built-in report is about 6 MB (its
#: plots are embedded PNGs); a page 30 times larger is not a report gamesim made.
MAX_HTML_BYTES = 200 * 2**20

#: Seconds WeasyPrint may spend printing one page set before the PDF is given up. The
#: built-in reports print in 5-40 s on one core.
PDF_TIMEOUT_S = 600.0


#: The report every scenario gets when it names no study notebook of its own.
GENERIC_NOTEBOOK = Path(__file__).resolve().parent / "notebooks" / "generic_report.ipynb"


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
        If ``notebook`` is not a Jupyter notebook (unreadable, not JSON, not of the notebook format;
        one line naming the file), or if a cell raises: the message names the notebook and the
        error, and the partly executed notebook is left at ``output`` for inspection.
    """
    import papermill as pm

    logging.getLogger("papermill").setLevel(logging.ERROR)  # not "Passed unknown parameter" for each parameter
    nb = _load_notebook(notebook)
    output.parent.mkdir(parents=True, exist_ok=True)
    try:
        pm.execute_notebook(
            nb,
            str(output),
            parameters=parameters,
            kernel_name="python3",
            language="python",
            progress_bar=False,
            # the output notebook is written once, at the end (also when a cell fails), not after every
            # cell: a study notebook of 30 cells holding 10 MB of figures spent 3-4 s rewriting it
            request_save_on_cell_execute=False,
            cwd=str(cwd or notebook.parent),
            # the kernel only talks to us on loopback; keep its start-up warnings, and the ZMQ errors of
            # a kernel shut down mid-cell by Ctrl-C, off the console (cell errors still come back)
            extra_arguments=["--IPKernelApp.log_level=CRITICAL"],
        )
    except pm.PapermillExecutionError as exc:
        raise ReportError(f"{notebook}: cell {exc.exec_count} raised {exc.ename}: {exc.evalue} (see {output})") from None
    return output


def _load_notebook(notebook: Path) -> Any:
    """``notebook`` read and checked as a Jupyter notebook (nbformat 4), its cells given ids where they have none.

    A notebook written by hand may lack the cell ids of nbformat 4.5: they are added here (what nbformat's
    ``normalize`` does, without its warning), as Jupyter would on saving.

    Raises
    ------
    ReportError
        One line naming the file: unreadable, not UTF-8 JSON, or not of the notebook format.
    """
    import nbformat
    from nbformat.validator import normalize
    from nbformat.warnings import MissingIDFieldWarning

    try:
        raw = json.loads(Path(notebook).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReportError(f"{notebook}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise ReportError(f"{notebook}: not a Jupyter notebook (not UTF-8 JSON: {str(exc).splitlines()[0]})") from None
    if not isinstance(raw, dict) or raw.get("nbformat") != 4:
        found = raw.get("nbformat") if isinstance(raw, dict) else type(raw).__name__
        raise ReportError(f"{notebook}: not a Jupyter notebook of format 4 (nbformat = {found!r})")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MissingIDFieldWarning)
            _, raw = normalize(raw)
        nb = nbformat.from_dict(raw)
        nbformat.validate(nb)
    except Exception as exc:  # noqa: BLE001 - nbformat raises ValidationError and KeyError/TypeError for odd JSON
        raise ReportError(f"{notebook}: not a valid Jupyter notebook ({str(exc).splitlines()[0]})") from None
    return nb


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

    from gamesim.core.sanitize import plain_text

    nb = nbformat.read(str(executed), as_version=4)
    if title:
        nb.metadata["title"] = plain_text(title)  # the page's <title>: a scenario's text, as plain text
    exporter = HTMLExporter(exclude_input=True, exclude_input_prompt=True, exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(nb)
    from gamesim.report.page import finish_page

    html_path.write_text(finish_page(body), encoding="utf-8")
    return html_path


def _refuse(url: str) -> Exception:
    scheme = url.split(":", 1)[0][:20] if ":" in url else "(relative)"
    return ValueError(f"not fetched: reports print only the pictures gamesim embedded (data: URLs), not {scheme}: URLs")


def _offline_fetcher() -> Any:
    """A WeasyPrint URL fetcher serving ``data:`` URLs only.

    ``file:`` URLs would put local files into the PDF (``<img src="file:///dev/zero">``
    filled 3.6 GB in 9 s; ``<link rel="attachment" href="file:///proc/self/environ">``
    attached the environment); ``http(s):`` would make printing wait on, and report to,
    the network. WeasyPrint skips a refused resource with a warning (silenced here).
    """
    import weasyprint
    from weasyprint import urls

    if hasattr(urls, "URLFetcher"):  # WeasyPrint >= 66: a fetcher object

        class DataOnlyFetcher(urls.URLFetcher):
            def fetch(self, url: str, headers: Any = None) -> Any:
                if not url[:5].lower() == "data:":
                    raise _refuse(url)
                return super().fetch(url, headers)

        return DataOnlyFetcher(allowed_protocols=("data",), timeout=5, allow_redirects=False)

    def fetch(url: str, *args: Any, **kwargs: Any) -> Any:
        if url[:5].lower() == "data:":
            return weasyprint.default_url_fetcher(url, *args, **kwargs)
        raise _refuse(url)

    return fetch


class _PrintTimeout(BaseException):
    """Raised by the alarm; a BaseException, so no ``except Exception`` inside WeasyPrint swallows it."""


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`_PrintTimeout` in the main thread after ``seconds`` (no limit elsewhere,
    where signals cannot be used)."""
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _PrintTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def html_to_pdf(html_path: Path, pdf_path: Path, *, timeout_s: float | None = PDF_TIMEOUT_S,
                layout_path: Path | None = None) -> Path:
    """Print an HTML report to PDF with WeasyPrint, fetching nothing.

    Parameters
    ----------
    html_path : pathlib.Path
        The report page.
    pdf_path : pathlib.Path
        Destination ``.pdf``. It is written under a temporary name beside it and
        renamed when complete, so it is never left truncated.
    timeout_s : float or None, default :data:`PDF_TIMEOUT_S`
        Give up printing after this many seconds (main thread only; ``None``: no limit).

    layout_path : pathlib.Path, optional
        Where the layout summary goes (default: ``pdf_path`` with suffix ``.layout.json``): JSON with
        ``pages``, ``figures`` (pictures in the page) and ``clipped_tables`` (each ``<table>`` laid
        out wider than its page: page number, id, overflow in CSS pixels), read by the report tests.
    Returns
    -------
    pathlib.Path
        ``pdf_path``.

    Raises
    ------
    ReportError
        If WeasyPrint (or its pango libraries) is not available, the page is larger
        than :data:`MAX_HTML_BYTES`, or printing takes longer than ``timeout_s``.

    Notes
    -----
    Only ``data:`` URLs are fetched (:func:`_offline_fetcher`); ``file:``, ``http(s):``
    and relative URLs are skipped, and PDF attachments (``<link rel=attachment>``,
    ``<a rel=attachment>``) are dropped before writing.
    """
    try:
        import weasyprint
    except (ImportError, OSError) as exc:  # OSError: missing pango shared libraries
        raise ReportError(f"PDF needs WeasyPrint and the pango libraries: {exc}") from None
    size = html_path.stat().st_size
    if size > MAX_HTML_BYTES:
        raise ReportError(f"{html_path}: {size:,} bytes, larger than the {MAX_HTML_BYTES:,} bytes a report page may "
                          "have to be printed to PDF")
    logging.getLogger("weasyprint").setLevel(logging.CRITICAL)  # refused URLs are logged as errors
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    text = html_path.read_text(encoding="utf-8")
    from gamesim.report.page import printable

    printed = printable(text)
    tmp = _tmp_name(pdf_path)
    try:
        with _time_limit(timeout_s):
            # from a string with no base URL: a relative URL resolves to nothing, never to a local file
            doc = weasyprint.HTML(string=printed, base_url=None, url_fetcher=_offline_fetcher()).render()
            _drop_attachments(doc)
            doc.write_pdf(str(tmp), attachments=None)
        os.replace(tmp, pdf_path)
        stats = {"pages": len(doc.pages), "figures": _count_figures(text), "clipped_tables": _clipped_tables(doc)}
        (layout_path or pdf_path.with_suffix(".layout.json")).write_text(json.dumps(stats, indent=1), encoding="utf-8")
    except _PrintTimeout:
        raise ReportError(f"{html_path}: printing to PDF took longer than {timeout_s:g} s; gave up") from None
    finally:
        tmp.unlink(missing_ok=True)
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
            element = getattr(b, "element", None)
            if type(b).__name__ in ("TableBox", "InlineTableBox") and element is not None and element.tag == "table":
                end = b.position_x + b.margin_width()
                if end > right + 1.0:
                    out.append({"page": number, "id": element.get("id"), "overflow_px": round(end - right, 1)})
                return
            for child in getattr(b, "children", []) or []:
                walk(child)

        walk(box)
    return out


def _drop_attachments(doc: Any) -> None:
    """Remove every file attachment from a rendered WeasyPrint document: ``<link rel=attachment>``
    (document metadata) and ``<a rel=attachment>`` (page links of type ``attachment``)."""
    meta = getattr(doc, "metadata", None)
    if meta is not None and getattr(meta, "attachments", None):
        meta.attachments = []
    for page in getattr(doc, "pages", []):
        links = getattr(page, "links", None)
        if links:
            page.links = [link for link in links if not (link and link[0] == "attachment")]


def _tmp_name(final: Path) -> Path:
    """A temporary name beside ``final``, unique to this call (hidden, same folder: renamed in place)."""
    return final.with_name(f".{final.stem}.{os.getpid()}-{secrets.token_hex(4)}.tmp{final.suffix}")


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
        Report folder; the executed notebook is kept there as ``<name>.ipynb``
        (``<name>.failed.ipynb`` when a cell fails). Every file is first written under
        a temporary name unique to this call and the three are renamed together at
        the end: an interrupted call leaves the previous complete set.
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
    final = {"ipynb": out_dir / f"{name}.ipynb", "html": out_dir / f"{name}.html", "pdf": out_dir / f"{name}.pdf",
             "layout": out_dir / f"{name}.layout.json"}
    tmp = {k: _tmp_name(v) for k, v in final.items()}
    try:
        try:
            execute_notebook(
                notebook,
                tmp["ipynb"],
                {"results_path": str(results_path.resolve()), "scenario_path": str(scenario_path.resolve())},
            )
        except ReportError as exc:  # keep the partly executed notebook for inspection, under a fixed name
            failed = out_dir / f"{name}.failed.ipynb"
            if tmp["ipynb"].is_file():
                os.replace(tmp["ipynb"], failed)
            raise ReportError(str(exc).replace(str(tmp["ipynb"]), str(failed))) from None
        notebook_to_html(tmp["ipynb"], tmp["html"], title=title)
        html_to_pdf(tmp["html"], tmp["pdf"], layout_path=tmp["layout"])
        if not tmp["pdf"].read_bytes()[-1024:].rstrip().endswith(b"%%EOF"):
            raise ReportError(f"{tmp['pdf']}: the PDF printer wrote an incomplete file")
        with signals_held():  # publish the set: PDF, then notebook, then HTML (the page a designer opens)
            for key in ("layout", "pdf", "ipynb", "html"):
                os.replace(tmp[key], final[key])
    finally:
        for path in tmp.values():
            path.unlink(missing_ok=True)
    return final["html"], final["pdf"]
