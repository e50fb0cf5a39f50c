"""Unit tests of gamesim.report.page on small hand-written pages (no notebook is run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamesim.report import page as pg

#: A page shaped like nbconvert's lab template: CDN scripts and stylesheet, a MathJax config, a module
#: script importing from a CDN, the template's own styles, two sections and a long appendix.
TEMPLATE_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>t</title>
<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"></script>
<script src="//cdn.jsdelivr.net/npm/mathjax@2/MathJax.js"></script>
<link rel="stylesheet" href="https://cdn.example.org/theme.css"/>
<script type="text/x-mathjax-config">MathJax.Hub.Config({tex2jax: {}});</script>
<script type="module">const m = await import("https://cdn.jsdelivr.net/npm/mermaid@10/dist/mermaid.esm.min.mjs");</script>
<style type="text/css">.jp-Cell { padding: 5px; } /* the template's theme */</style>
<style>.jp-RenderedHTML { color: #111; }</style>
</head>
<body class="jp-Notebook">
<main>
<h1 id="Report">Report<a class="anchor-link" href="#Report">¶</a></h1>
<h2 id="Findings">Findings<a class="anchor-link" href="#Findings">¶</a></h2>
<p>Two chips win <b>more</b>.</p>
<h2 id="Costs-and-odds">Costs &amp; odds<a class="anchor-link" href="#Costs-and-odds">¶</a></h2>
<a href="https://example.org/rules">the rules</a>
<style>.gamesim-picker { display: none; }</style>
<details class="gamesim-appendix gamesim-noprint"><summary>Appendix: every cell (400 rows)</summary>
<table class="gamesim-table"><tr><td>APPENDIX-ROW</td></tr></table>
</details>
<details class="gamesim-appendix"><summary>Printed appendix</summary><table><tr><td>KEPT-ROW</td></tr></table>
</details>
</main>
</body></html>
"""


def test_external_urls_finds_loads_not_links() -> None:
    urls = pg.external_urls(TEMPLATE_PAGE)
    assert "https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js" in urls
    assert "//cdn.jsdelivr.net/npm/mathjax@2/MathJax.js" in urls
    assert "https://cdn.example.org/theme.css" in urls
    assert "https://cdn.jsdelivr.net/npm/mermaid@10/dist/mermaid.esm.min.mjs" in urls
    assert "https://example.org/rules" not in urls  # a link is not a load
    assert pg.external_urls('<img src="data:image/png;base64,AAAA"><a href="#x">x</a>') == []
    assert pg.external_urls("<style>@import 'https://f.example/a.css'; b { background: url(//x.example/i.png) }"
                            "</style>") == ["//x.example/i.png", "https://f.example/a.css"]


def test_finish_page_loads_nothing_and_adds_the_toc() -> None:
    out = pg.finish_page(TEMPLATE_PAGE, bundle="/* bundle */")
    assert pg.external_urls(out) == []
    assert "x-mathjax-config" not in out and "mermaid" not in out
    assert '<a href="https://example.org/rules">' in out  # links stay
    toc = '<nav class="gamesim-toc"><b>Contents</b><ol><li><a href="#Findings">Findings</a></li>' \
          '<li><a href="#Costs-and-odds">Costs &amp; odds</a></li></ol></nav>'
    assert "<main>" + toc in out  # first thing in <main>: h2 sections only, labels escaped once
    assert out.count('<style id="gamesim-css">') == 1 and out.index('<style id="gamesim-css">') < out.index("</head>")
    assert out.count('<script id="gamesim-page-js">/* bundle */</script>') == 1
    assert out.index('<script id="gamesim-page-js">') > out.index("</main>")


def test_finish_page_without_charts_needs_no_bundle_and_one_section_has_no_toc(monkeypatch: pytest.MonkeyPatch
                                                                               ) -> None:
    monkeypatch.setattr(pg, "chart_bundle", lambda: pytest.fail("a page without charts needs no bundle"))
    page = '<html><head></head><body><main><h2 id="a">A</h2><p>x</p></main></body></html>'
    out = pg.finish_page(page)
    assert "<nav" not in out  # one section: no table of contents
    assert "collapsible(); tables();" in out and "charts(); " not in out
    escaped = pg.finish_page(page, bundle='var s = "</script>";')
    assert '"<\\/script>"' in escaped and escaped.count("</script>") == 1  # the bundle cannot end the element


def test_printable_drops_scripts_template_styles_and_long_appendix_tables() -> None:
    out = pg.printable(pg.finish_page(TEMPLATE_PAGE, bundle="/* bundle */"))
    assert "<script" not in out
    assert ".jp-Cell { padding: 5px; }" not in out and ".jp-RenderedHTML { color: #111; }" not in out
    assert ".gamesim-picker { display: none; }" in out  # a style naming a gamesim class stays
    assert out.count('<style id="gamesim-css">') == 1
    assert out.index(pg.PDF_BASE_CSS) < out.index('<style id="gamesim-css">')  # the PDF base goes first
    assert '<details class="gamesim-appendix gamesim-noprint"><summary>Appendix: every cell (400 rows)</summary>' \
           '</details>' in out
    assert "APPENDIX-ROW" not in out
    assert "KEPT-ROW" in out and "<summary>Printed appendix</summary>" in out  # printed appendices stay whole
    assert "Two chips win <b>more</b>." in out


@pytest.fixture
def fresh_bundle_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    """An empty process cache and disk cache; the process cache is emptied again afterwards, so no other
    test sees the fake bundle."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    pg.chart_bundle.cache_clear()
    yield tmp_path
    pg.chart_bundle.cache_clear()


def test_chart_bundle_is_made_once(monkeypatch: pytest.MonkeyPatch, fresh_bundle_cache: Path) -> None:
    import vl_convert

    calls: list[str] = []

    def fake_bundle(script: str) -> str:
        calls.append(script)
        return "/* vega */" + script

    monkeypatch.setattr(vl_convert, "javascript_bundle", fake_bundle)
    first = pg.chart_bundle()
    assert len(calls) == 1 and first == "/* vega */" + calls[0] and "charts(); collapsible(); tables();" in first
    assert pg.chart_bundle() == first and len(calls) == 1  # kept in the process
    files = list((fresh_bundle_cache / "gamesim").glob("vega-bundle-*.js"))
    assert len(files) == 1 and files[0].read_text(encoding="utf-8") == first  # and on disk, no temporary left
    assert [p.name for p in (fresh_bundle_cache / "gamesim").iterdir()] == [files[0].name]
    pg.chart_bundle.cache_clear()  # a new process: read from the disk cache, not bundled again
    assert pg.chart_bundle() == first and len(calls) == 1
    page = pg.finish_page('<html><body><script class="gamesim-spec">{}</script></body></html>')
    assert '<script id="gamesim-page-js">' + first + "</script>" in page and len(calls) == 1


def test_chart_bundle_unwritable_cache_still_bundles(monkeypatch: pytest.MonkeyPatch,
                                                      fresh_bundle_cache: Path) -> None:
    import vl_convert

    (fresh_bundle_cache / "gamesim").write_text("a file where the cache folder should be")
    calls: list[str] = []
    monkeypatch.setattr(vl_convert, "javascript_bundle", lambda s: calls.append(s) or "/* made */")
    assert pg.chart_bundle() == "/* made */" and len(calls) == 1
    assert pg.chart_bundle() == "/* made */" and len(calls) == 1


def test_toc_links_an_id_with_markup_characters_once_escaped() -> None:
    page = ('<html><head></head><body><main><h1 id="T">T</h1>'
            '<h2 id="A-&amp;-B">A &amp; B</h2><h2 id="C">C</h2></main></body></html>')
    out = pg.finish_page(page, bundle="")
    assert '<a href="#A-&amp;-B">A &amp; B</a>' in out  # the id as the page holds it, not escaped twice
