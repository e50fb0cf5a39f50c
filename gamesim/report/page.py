"""The report page: one self-contained HTML file that loads nothing from the network.

:func:`finish_page` takes the HTML nbconvert exported and

* drops every ``<script src=...>`` and ``<link href=...>`` that points off the page
  (nbconvert's lab template loads require.js and MathJax from a CDN; reports
  typeset no formulas), so the file is the same offline and online;
* adds the print stylesheet (A4, tables that wrap inside the page, the live charts
  hidden and their pictures shown) and the screen stylesheet;
* adds a table of contents at the top, built from the page's section headings;
* appends one script: vega-embed with Vega-Lite and Vega, bundled by vl-convert
  (no download), which draws every chart live, makes each section collapsible
  (click its heading) and every long table sortable (click a column heading) and
  filterable (a box above it).

WeasyPrint runs no script: the PDF shows each chart's static picture and every
section expanded.
"""

from __future__ import annotations

import functools
import hashlib
import html
import os
import re
from pathlib import Path

__all__ = ["finish_page", "external_urls", "printable", "chart_bundle", "PRINT_CSS", "PDF_BASE_CSS"]

#: Print and screen styles. Fonts with Japanese glyphs follow DejaVu (rule names are quoted in Japanese).
PRINT_CSS = """<style id="gamesim-css">
@page { size: A4; margin: 14mm 12mm; }
@media print { body { font-size: 10pt; } .gamesim-vega, .gamesim-filter, .gamesim-toggle { display: none !important; } }
img, tr, figure, .jp-RenderedImage, .jp-RenderedText { break-inside: avoid; }
/* nbconvert keeps every output whole on a page (.jp-OutputArea-child: avoid-page), so a long Findings
   list or section moved to the next page and left the page before half empty; outputs break like text */
@media print { .jp-OutputArea-child { break-inside: auto; } }
.jp-Cell:empty, .jp-Cell.jp-mod-noOutputs { display: none; }
body, .jp-RenderedHTMLCommon, .jp-RenderedText, table, code, pre {
  font-family: "DejaVu Sans", "Noto Sans", "IPAexGothic", "IPAGothic", "Noto Sans CJK JP",
    "Droid Sans Fallback", sans-serif;
}
code, pre { font-family: "DejaVu Sans Mono", "IPAexGothic", "Noto Sans Mono CJK JP", "Droid Sans Fallback", monospace; }
img { max-width: 100%; height: auto; }
/* a figure is never taller than a page (it would be cut off at the bottom) */
img.gamesim-static { max-height: 245mm; width: auto; object-fit: contain; }
/* tables never wider than the page: cells wrap (between words) instead of running off the right edge */
table { font-size: 8pt; max-width: 100%; border-collapse: collapse; }
table[border] { border: 0; }
.jp-RenderedHTMLCommon td, .jp-RenderedHTMLCommon th { white-space: normal; overflow-wrap: anywhere; padding: 1px 3px; }
table.gamesim-table { font-size: 7.5pt; }
h1, h2, h3, h4, p.gamesim-caption { break-after: avoid; page-break-after: avoid; }
p.gamesim-series, figcaption { font-size: 8pt; color: #555; }
figure.gamesim-figure { margin: 0.5em 0; }
figure.gamesim-live img.gamesim-static { display: none; }
nav.gamesim-toc { font-size: 9pt; border: 1px solid #ddd; padding: 0.3em 1em; margin: 0.5em 0; }
nav.gamesim-toc ol { margin: 0.2em 0; padding-left: 1.5em; }
details.gamesim-appendix > summary { cursor: pointer; font-weight: bold; }
@media print { details.gamesim-appendix.gamesim-noprint > :not(summary) { display: none; } }
.gamesim-collapsed { display: none !important; }
h2.gamesim-collapsible { cursor: pointer; }
h2.gamesim-collapsible::before { content: "▾ "; color: #888; }
h2.gamesim-collapsible.gamesim-closed::before { content: "▸ "; }
@media print { h2.gamesim-collapsible::before { content: none; } }
input.gamesim-filter { font-size: 8pt; margin: 0.2em 0; width: 16em; }
th.gamesim-sortable { cursor: pointer; }
.vega-embed { max-width: 100%; overflow-x: auto; }
</style>
"""

#: The PDF's base styles, in place of the notebook template's stylesheets (about 260 kB of JupyterLab theme
#: written for the screen). WeasyPrint matched every element against every rule of those: about half of the time
#: it took to print a report. :data:`PRINT_CSS` follows it.
PDF_BASE_CSS = """<style id="gamesim-pdf-base">
body { margin: 0; font-size: 10pt; line-height: 1.35; color: #000; background: #fff; }
h1 { font-size: 17pt; margin: 0.5em 0 0.3em; } h2 { font-size: 13.5pt; margin: 0.9em 0 0.3em; }
h3 { font-size: 11.5pt; margin: 0.8em 0 0.25em; } h4, h5 { font-size: 10.5pt; margin: 0.6em 0 0.2em; }
p { margin: 0.35em 0; } ul, ol { margin: 0.3em 0; padding-left: 1.6em; } li { margin: 0.08em 0; }
code { background: #f2f2f2; padding: 0 2px; font-size: 90%; } pre { white-space: pre-wrap; margin: 0.3em 0; }
table { margin: 0.3em 0; } thead { border-bottom: 1px solid #444; }
th, td { text-align: right; vertical-align: middle; padding: 1px 3px; } th { font-weight: bold; }
tbody tr:nth-child(odd) { background: #f5f5f5; }
a { color: #1a4f8b; text-decoration: none; } a.anchor-link { display: none; }
summary { font-weight: bold; margin: 0.3em 0; } .jp-InputArea, .jp-InputPrompt, .jp-OutputPrompt { display: none; }
</style>
"""

#: Every ``<style>`` element of a page (template styles hold no ``</``).
_STYLE = re.compile(r"<style\b[^>]*>.*?</style\s*>", re.I | re.S)
#: Every ``<script>`` element with its content (chart specs and the page script are escaped: no ``</`` inside).
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script\s*>", re.I | re.S)


#: An appendix too long to print (``gamesim-noprint``): its summary line is kept, its tables are not.
_NOPRINT = re.compile(r"(<details class=\"gamesim-appendix gamesim-noprint\">\s*<summary>.*?</summary>).*?(</details>)",
                      re.S)


def printable(page: str) -> str:
    """The page as the PDF printer reads it: no scripts (the printer runs none; the chart specs and the
    script bundle are most of the page's bytes), and the notebook template's screen stylesheets replaced by
    :data:`PDF_BASE_CSS`. gamesim's own styles (every ``<style>`` naming a ``gamesim`` class: print rules,
    the picker hidden in print) stay. The tables of an appendix too long to print are left out (only its
    summary line is printed, as before).

    Parameters
    ----------
    page : str
        A report page made by :func:`finish_page`.

    Returns
    -------
    str
        HTML for WeasyPrint.
    """
    page = _SCRIPT.sub("", page)
    page = _STYLE.sub(lambda m: m.group(0) if "gamesim" in m.group(0) else "", page)
    page = _NOPRINT.sub(r"\1\2", page)  # hidden in print anyway: the printer need not lay them out
    return page.replace('<style id="gamesim-css">', PDF_BASE_CSS + '<style id="gamesim-css">', 1)


#: Page behaviour: live charts, collapsible sections, sortable and filterable tables (no library beyond vega-embed).
_PAGE_JS = r"""
(function () {
  function charts() {
    document.querySelectorAll("figure.gamesim-figure").forEach(function (fig) {
      var el = fig.querySelector(".gamesim-vega"), spec = fig.querySelector("script.gamesim-spec");
      if (!el || !spec) { return; }
      vegaEmbed(el, JSON.parse(spec.textContent), {actions: false, renderer: "svg"})
        .then(function () { fig.classList.add("gamesim-live"); })
        .catch(function (err) { console.error("gamesim chart: " + err); });
    });
  }
  function unitOf(h) { return h.closest(".jp-OutputArea-child") || h.closest(".jp-Cell") || h; }
  function collapsible() {
    document.querySelectorAll("h2").forEach(function (h) {
      if (h.closest("nav")) { return; }
      h.classList.add("gamesim-collapsible");
      h.title = "click to fold or unfold this section";
      h.addEventListener("click", function (ev) {
        if (ev.target.tagName === "A") { return; }
        var closed = h.classList.toggle("gamesim-closed");
        var unit = unitOf(h), el = unit.nextElementSibling;
        while (el && !el.querySelector("h1, h2")) {
          el.classList.toggle("gamesim-collapsed", closed);
          el = el.nextElementSibling;
        }
      });
    });
  }
  function cellValue(td) {
    var t = td.textContent.trim(), v = parseFloat(t.replace(/,/g, ""));
    return isNaN(v) ? t : v;
  }
  function tables() {
    document.querySelectorAll("table").forEach(function (tab) {
      var body = tab.tBodies[0];
      if (!body || body.rows.length < 6 || !tab.tHead) { return; }
      var head = tab.tHead.rows[tab.tHead.rows.length - 1];
      Array.prototype.forEach.call(head.cells, function (th, i) {
        th.classList.add("gamesim-sortable");
        th.title = "click to sort";
        th.addEventListener("click", function () {
          var asc = th.dataset.order !== "asc";
          th.dataset.order = asc ? "asc" : "desc";
          var rows = Array.prototype.slice.call(body.rows);
          rows.sort(function (a, b) {
            var x = a.cells[i] ? cellValue(a.cells[i]) : "", y = b.cells[i] ? cellValue(b.cells[i]) : "";
            var c = (typeof x === "number" && typeof y === "number") ? x - y : String(x).localeCompare(String(y));
            return asc ? c : -c;
          });
          rows.forEach(function (r) { body.appendChild(r); });
        });
      });
      var box = document.createElement("input");
      box.type = "search"; box.className = "gamesim-filter"; box.placeholder = "filter rows";
      box.addEventListener("input", function () {
        var q = box.value.toLowerCase();
        Array.prototype.forEach.call(body.rows, function (r) {
          r.style.display = r.textContent.toLowerCase().indexOf(q) >= 0 ? "" : "none";
        });
      });
      tab.parentNode.insertBefore(box, tab);
    });
  }
  charts(); collapsible(); tables();
})();
"""

_EXTERNAL_TAG = re.compile(
    r"<script\b[^>]*\bsrc\s*=\s*['\"](?:https?:)?//[^'\"]*['\"][^>]*>\s*</script>"
    r"|<link\b[^>]*\bhref\s*=\s*['\"](?:https?:)?//[^'\"]*['\"][^>]*/?>",
    re.I | re.S,
)
_MATHJAX_CONFIG = re.compile(r"<script\b[^>]*type=\"text/x-mathjax-config\"[^>]*>.*?</script>", re.I | re.S)
# inline scripts of the template that import from a CDN when the page has a diagram (mermaid): reports have none
_CDN_SCRIPT = re.compile(r"<script\b[^>]*>(?:(?!</script>).)*?\bimport\(\s*['\"](?:https?:)?//"
                         r"(?:(?!</script>).)*</script>",
                         re.I | re.S)
_HEADING = re.compile(r"<h([12]) id=\"([^\"]+)\">(.*?)(?:<a class=\"anchor-link\"[^>]*>.*?</a>)?</h\1>", re.S)


def external_urls(page: str) -> list[str]:
    """Every URL the page would load from elsewhere: ``src``/``href`` of scripts, links, images, frames.

    Plain ``<a href>`` links to the web are not loads and are not listed; ``href="#..."`` anchors and
    ``data:`` URIs stay on the page.
    """
    found = re.findall(r"<(?:script|img|iframe|link|source|video|audio|embed|object)\b[^>]*?\b(?:src|href|data)"
                       r"\s*=\s*['\"]((?:https?:)?//[^'\"]+|file:[^'\"]+)['\"]", page, re.I)
    found += re.findall(r"url\(\s*['\"]?((?:https?:)?//[^)'\"]+)", page, re.I)
    found += re.findall(r"@import\s+['\"]((?:https?:)?//[^'\"]+)", page, re.I)
    found += re.findall(r"\bimport\(\s*['\"]((?:https?:)?//[^'\"]+)", page, re.I)
    return found


def _toc(page: str) -> str:
    items = []
    for level, hid, text in _HEADING.findall(page):
        if level == "2":
            label = re.sub(r"<[^>]+>", "", text).strip()
            items.append(f'<li><a href="#{html.escape(html.unescape(hid), quote=True)}">{html.escape(html.unescape(label))}</a></li>')
    if len(items) < 2:
        return ""
    return '<nav class="gamesim-toc"><b>Contents</b><ol>' + "".join(items) + "</ol></nav>"


@functools.lru_cache(maxsize=1)
def chart_bundle() -> str:
    """vega-embed, Vega-Lite and Vega with this page's script, bundled by vl-convert (nothing downloaded).

    Bundling takes vl-convert about 1.5 s and gives the same text for the same vl-convert version and
    script, so it is kept: in this process, and as a file in the user's cache folder
    (``$XDG_CACHE_HOME/gamesim`` or ``~/.cache/gamesim``) named by the vl-convert version and the
    script's SHA-256; a cache file that cannot be read or written is ignored (the bundle is made again).

    Returns
    -------
    str
        JavaScript.
    """
    import vl_convert as vlc

    key = hashlib.sha256(_PAGE_JS.encode("utf-8")).hexdigest()[:16]
    version = getattr(vlc, "__version__", "") or vlc.get_vegalite_versions()[-1]
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gamesim"
    path = root / f"vega-bundle-{re.sub(r'[^0-9A-Za-z.]+', '_', str(version))}-{key}.js"
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        pass
    bundle = vlc.javascript_bundle(_PAGE_JS)
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(bundle, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
    return bundle


def finish_page(page: str, *, bundle: str | None = None) -> str:
    """Make an nbconvert HTML page self-contained and interactive (see the module docstring).

    Parameters
    ----------
    page : str
        The exported HTML.
    bundle : str, optional
        The vega-embed JavaScript bundle (default: :func:`vl_convert.javascript_bundle`
        with this page's script, fetched nothing: vl-convert carries it). Only pages
        with charts get it.

    Returns
    -------
    str
        The page; :func:`external_urls` of it is empty.
    """
    page = _EXTERNAL_TAG.sub("", page)
    page = _MATHJAX_CONFIG.sub("", page)
    page = _CDN_SCRIPT.sub("", page)
    page = page.replace("</head>", PRINT_CSS + "</head>", 1)
    toc = _toc(page)
    if toc:  # first thing on the page, outside every notebook output (those hold only the notebook's text)
        m = re.search(r"<main\b[^>]*>", page) or re.search(r"<body\b[^>]*>", page)
        if m:
            page = page[: m.end()] + toc + page[m.end():]
    if bundle is None:
        if "gamesim-spec" in page:
            bundle = chart_bundle()
        else:
            bundle = _PAGE_JS.replace("charts(); ", "")
    script = '<script id="gamesim-page-js">' + bundle.replace("</script", "<\\/script") + "</script>"
    i = page.rfind("</body>")
    return page[:i] + script + page[i:] if i >= 0 else page + script
