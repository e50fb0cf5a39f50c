"""Scenario and data files from strangers: what they cannot make gamesim do (docs/security.md).

One test per attack or failure case: a scenario naming a notebook outside the project,
markup and URLs in its text, local files and attachments pulled into the PDF, an
interrupted report, and two runs of one scenario at once. The end-to-end report is
rendered once for the module (a tiny Godtear scenario, a few seconds of CPU).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import nbformat
import pytest

import gamesim.report.render as report
from gamesim.report.render import ReportError, html_to_pdf, render_report
from gamesim.core.sanitize import plain_text, safe_markdown
from gamesim.core.scenario import ScenarioError, load_scenario
from tests.conftest import ROOT, run_cli
from tests.reliability.conftest import one_error_line, scenario_text

SECRET = "SECRET-MARKER-5b1e0c"

#: Markup a stranger may put in any text key. Every one must come out inert.
ATTACKS = [
    "<script>alert('xss')</script>",
    "<img src=x onerror=\"alert('xss')\">",
    "<iframe src='https://example.invalid/'></iframe>",
    "<link rel='attachment' href='file:///etc/passwd'>",
    "<a rel='attachment' href='file:///etc/passwd'>passwd</a>",
    "<svg onload=alert(1)></svg>",
    "<style>body { background: url(file:///etc/passwd) }</style>",
    "<object data='file:///etc/passwd'></object><embed src='file:///etc/passwd'>",
    "<b onclick='alert(1)'>bold</b>",
    "[click](javascript:alert(1))",
    "![img](file:///dev/zero)",
    "[nested [label] text](file:///etc/passwd)",
    "[x](<file:///etc/passwd>)",
    "<file:///etc/passwd>",
    "<http://example.invalid/x.png>",
    "see http://example.invalid/x.png",
    "[ref]\n\n[ref]: file:///etc/passwd",
    "> [ref]: file:///etc/passwd\n\n[ref]",
    "- [ref]: javascript:alert(1)\n\n[ref]",
    "[a][ref]\n\n[ref]: http://example.invalid/",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "&#91;x&#93;&#40;javascript:alert(1)&#41;",
    "<scr<script>ipt>alert(1)</script>",
    "<!-- <script>alert(1)</script> -->",
]

#: What must not appear in rendered text: an element that runs, fetches, embeds or links, an event
#: handler, or any URL attribute (a URL left as plain words is inert).
ACTIVE = re.compile(r"<\s*(script|iframe|link|img|a|svg|style|object|embed|meta|base|form|input)\b|\son\w+\s*=|"
                    r"href\s*=|src\s*=|data\s*=", re.IGNORECASE)


def _markdown_to_html(text: str) -> str:
    """The report's Markdown renderer: nbconvert's mistune, raw HTML and every URL scheme allowed."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    return markdown2html_mistune(text)


# ---------------------------------------------------------------------------
# 1. a scenario is data, never code
# ---------------------------------------------------------------------------

def _new_notebook():  # type: ignore[no-untyped-def]
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def _evil_notebook(path: Path, marker: Path) -> Path:
    """A notebook that writes ``marker`` when executed (the stranger's code)."""
    nb = _new_notebook()
    params = nbformat.v4.new_code_cell('results_path = ""\nscenario_path = ""')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(f"open({str(marker)!r}, 'w').write('ran')")]
    nbformat.write(nb, str(path))
    return path


@pytest.mark.parametrize("where", ["relative", "absolute", "dotdot_from_notebooks"])
def test_scenario_cannot_name_a_strangers_notebook(tmp_path, cli, where):
    marker = tmp_path / "marker.txt"
    (tmp_path / "shared").mkdir()
    nb = _evil_notebook(tmp_path / "evil.ipynb", marker)
    shipped = ROOT / "notebooks"
    value = {"relative": "../evil.ipynb", "absolute": str(nb),
             # starts in the shipped folder, ".." climbs out of it
             "dotdot_from_notebooks": str(shipped) + "/.." * (len(shipped.parts) - 1) + str(nb)}[where]
    path = tmp_path / "shared" / "their.toml"
    path.write_text(f"notebook = {json.dumps(value)}\n" + scenario_text("their"), encoding="utf-8")
    code, _, err = cli("report", path, "--out-dir", tmp_path / "out", "--quiet")
    line = one_error_line(err)
    assert code == 2
    assert str(path) in line and "notebook" in line and repr(value) in line and "--notebook PATH" in line
    assert not marker.exists()
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("their*"))


def test_symlink_out_of_a_shipped_folder_is_refused(tmp_path, monkeypatch):
    import gamesim.core.scenario as scenario

    shipped = tmp_path / "shipped"
    shipped.mkdir()
    marker = tmp_path / "marker.txt"
    evil = _evil_notebook(tmp_path / "evil.ipynb", marker)
    (shipped / "study.ipynb").symlink_to(evil)
    _evil_notebook(shipped / "own.ipynb", marker)
    monkeypatch.setattr(scenario, "shipped_notebook_dirs", lambda: (shipped.resolve(),))
    monkeypatch.delenv(scenario.NOTEBOOK_ENV, raising=False)
    body = scenario_text("s")
    with pytest.raises(ScenarioError, match=r"notebook = '.*study.ipynb', must be a .ipynb file shipped"):
        load_scenario({"notebook": str(shipped / "study.ipynb"), **_toml(body)})
    # the folder's own notebook is accepted, through any path that lands in it
    sc = load_scenario({"notebook": "shipped/../shipped/own.ipynb", **_toml(body)}, base_dir=tmp_path)
    assert sc.notebook == (shipped / "own.ipynb").resolve()
    assert not marker.exists()


def _toml(text: str) -> dict:
    import tomllib

    return tomllib.loads(text)


def test_python_api_refuses_a_strangers_notebook_before_any_work(tmp_path, monkeypatch):
    import gamesim
    from gamesim.core.scenario import NOTEBOOK_ENV

    monkeypatch.delenv(NOTEBOOK_ENV, raising=False)
    _evil_notebook(tmp_path / "evil.ipynb", tmp_path / "marker.txt")
    path = tmp_path / "their.toml"
    path.write_text('notebook = "evil.ipynb"\n' + scenario_text("their"), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"their.toml: notebook = 'evil.ipynb', must be a .ipynb file shipped"):
        gamesim.sweep(path, cache_root=tmp_path / "cache", progress=False)
    assert not (tmp_path / "cache").exists()
    # the project's own notebooks stay usable from scenario files
    assert load_scenario(ROOT / "tests" / "data" / "gacha_small.toml").notebook == \
        (ROOT / "notebooks" / "gacha_god_chance.ipynb").resolve()


def test_notebook_option_with_several_scenarios_or_a_missing_file_is_refused(tmp_path, cli):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(scenario_text("a"), encoding="utf-8")
    b.write_text(scenario_text("b"), encoding="utf-8")
    code, _, err = cli("report", a, b, "--notebook", tmp_path / "x.ipynb", "--out-dir", tmp_path, "--quiet")
    assert code == 2 and "exactly one scenario" in one_error_line(err)
    code, _, err = cli("report", a, "--notebook", tmp_path / "x.ipynb", "--out-dir", tmp_path, "--quiet")
    assert code == 2 and "no such .ipynb file" in one_error_line(err)
    assert os.environ.get("GAMESIM_NOTEBOOK") is None


# ---------------------------------------------------------------------------
# 2. text is text
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("attack", ATTACKS)
def test_safe_markdown_leaves_nothing_active(attack):
    out = safe_markdown(f"before {attack} after")
    html = _markdown_to_html(out)
    assert not ACTIVE.search(html), (out, html)
    assert "before" in html and "after" in html


def test_safe_markdown_keeps_formatting_and_text():
    html = _markdown_to_html(safe_markdown("**bold** <b>b</b> <i>i</i> `code` 95% CI [0.1, 0.2] a < b > c & d"))
    for part in ("<strong>bold</strong>", "<b>b</b>", "<i>i</i>", "<code>code</code>", "[0.1, 0.2]",
                 "a &lt; b", "&amp; d"):
        assert part in html, html
    assert plain_text("T <script>alert(1)</script><b>x</b> &amp; y") == "T x & y"


def test_study_notebooks_show_scenario_text_through_the_sanitizer():
    """Every Markdown cell output of a shipped notebook that shows scenario text passes it through safe_markdown."""
    raw_text = re.compile(r"\{(sc|scenario|part|parts\[part\])\.(title|question|notes)\b|\+ *sc\.notes")
    paths = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "gamesim" / "notebooks").glob("*.ipynb"))
    seen = 0
    for path in paths:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for line in "".join(cell["source"]).splitlines():
                shown = re.search(r"\b(sc|scenario|part|parts\[part\])\.(title|question|notes)", line)
                if "Markdown(" in line and shown:
                    seen += 1
                    assert not raw_text.search(line), f"{path.name}: {line.strip()}"
                    assert "safe_markdown(" in line, f"{path.name}: {line.strip()}"
    # the study notebooks show the title, question or notes in several places (8 when this was written):
    # the check must find some, or it would pass without looking at anything
    assert seen >= 5, seen


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """One report of a scenario whose every text key is an attack, rendered with a notebook named at the keyboard.

    The scenario itself names a stranger's notebook (refused without ``--notebook``); the
    person at the keyboard names their own, which records that it ran and shows the generic
    report (the kernel loads the scenario too, so it must accept the chosen notebook).
    """
    d = tmp_path_factory.mktemp("attacked")
    secret = d / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    mine_marker, evil_marker = d / "mine_ran.txt", d / "evil_ran.txt"
    _evil_notebook(d / "evil.ipynb", evil_marker)
    nb = _new_notebook()
    params = nbformat.v4.new_code_cell('results_path = ""\nscenario_path = ""')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(
        f"import gamesim\nopen({str(mine_marker)!r}, 'w').write('ran')\n"
        "gamesim.Results.load(results_path, scenario_path).report()")]
    nbformat.write(nb, str(d / "mine.ipynb"))
    f = secret.as_uri()
    text = {
        "title": "Attack <script>alert('title')</script><iframe src='https://example.invalid'></iframe>",
        "question": f"Q <img src='{f}' onerror=\"alert('q')\"> <img src='file:///dev/zero'> [c]({f})",
        "notes": f"<link rel='attachment' href='{f}'><a rel='attachment' href='{f}'>att</a> ![z]({f}) "
                 f"<style>*{{background:url({f})}}</style><b>kept</b>",
    }
    body = scenario_text("attack").replace('name = "attack"', 'name = "attack"\n' + "\n".join(
        f"{k} = {json.dumps(v)}" for k, v in text.items()) + '\nnotebook = "evil.ipynb"')
    body = body.replace('name = "wounds"', 'name = "wounds"\ntitle = "Part <svg onload=alert(3)>"\n'
                        f'question = "PQ <img src=\'{f}\'>"')
    scenario = d / "attack.toml"
    scenario.write_text(body, encoding="utf-8")
    refused = run_cli("report", str(scenario), "--out-dir", str(d / "out"), "--quiet", timeout=120)
    proc = run_cli("report", str(scenario), "--notebook", str(d / "mine.ipynb"), "--out-dir", str(d / "out"),
                   "--quiet", timeout=600)
    return {"dir": d, "refused": refused, "proc": proc, "mine": mine_marker, "evil": evil_marker,
            "html": (d / "out" / "attack.html"), "pdf": (d / "out" / "attack.pdf")}


@pytest.mark.slow  # renders a report (the attacked fixture)
def test_scenario_notebook_refused_until_named_at_the_keyboard(attacked):
    refused, proc = attacked["refused"], attacked["proc"]
    assert refused.returncode == 2, refused.stderr
    assert "notebook = 'evil.ipynb'" in one_error_line(refused.stderr)
    assert proc.returncode == 0, proc.stderr
    assert attacked["mine"].read_text() == "ran"  # the notebook named with --notebook ran
    assert not attacked["evil"].exists()  # the one the file named never did


@pytest.mark.slow  # renders a report (the attacked fixture)
def test_report_html_has_no_strangers_markup(attacked):
    html = attacked["html"].read_text(encoding="utf-8")
    # the page's own script (vega-embed bundled by vl-convert, and gamesim's page code) is no scenario text
    assert html.count('<script id="gamesim-page-js">') == 1
    html = re.sub(r'<script id="gamesim-page-js">.*?</script>', "", html, flags=re.S)
    assert not re.search(r"\son\w+\s*=", html, re.I)  # no event handler anywhere on the page
    for word in ("<iframe", "<link", "<svg", "<object", "<embed", SECRET, "file:///dev/zero",
                 attacked["dir"].joinpath("secret.txt").as_uri()):
        assert word.lower() not in html.lower(), word
    # the page's own scripts (nbconvert's template) carry none of the scenario's text
    for script in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S | re.I):
        assert "alert(" not in script
    # no <script> and no URL at all in what the scenario's text became
    outputs = re.findall(r'data-mime-type="text/markdown"[^>]*>(.*?)</div>', html, re.S)
    # nbconvert's own heading anchors (href="#...") are the only links a Markdown output may hold
    outputs = [re.sub(r'<a class="anchor-link" href="#[^"]*">¶</a>', "", o) for o in outputs]
    assert len(outputs) > 5 and not any(ACTIVE.search(o) for o in outputs), outputs
    assert "Attack" in html and "kept" in html and "PQ" in html  # the text itself is shown


def _pdf_bytes(pdf: Path) -> bytes:
    """The PDF with every Flate stream decompressed appended, so content inside streams can be searched."""
    data = pdf.read_bytes()
    parts = [data]
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        # a decompressor object stops at the end of the zlib stream and leaves the end-of-line before
        # "endstream" as unused data; stripping "\r\n" instead also stripped the Adler-32 checksum's last
        # byte whenever it was 0x0a or 0x0d (about 1 stream in 128: the PDF's date changes the bytes)
        try:
            parts.append(zlib.decompressobj().decompress(m.group(1)))
        except zlib.error:
            pass
    return b"\n".join(parts)


@pytest.mark.slow  # renders a report (the attacked fixture)
def test_report_pdf_has_no_attachment_and_no_local_file(attacked):
    pdf = attacked["pdf"].read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")
    content = _pdf_bytes(attacked["pdf"])
    assert b"/EmbeddedFile" not in content and b"/FileAttachment" not in content
    assert SECRET.encode() not in content


# ---------------------------------------------------------------------------
# 3. the PDF printer fetches nothing
# ---------------------------------------------------------------------------

def _png_data_uri() -> str:
    import base64
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _hostile_page(folder: Path) -> Path:
    """Raw HTML (no sanitizer in between) reaching for local files, the network and attachments."""
    secret = folder / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    (folder / "secret.css").write_text(f"body::before {{ content: '{SECRET}' }}", encoding="utf-8")
    u = secret.as_uri()
    page = folder / "page.html"
    page.write_text(f"""<html><head>
<link rel="attachment" href="{u}" title="env">
<link rel="stylesheet" href="{(folder / 'secret.css').as_uri()}">
<link rel="stylesheet" href="secret.css">
<style>div.bg {{ background: url({u}); }}</style>
</head><body><p>visible text</p>
<img src="file:///dev/zero"> <img src="{u}"> <img src="secret.txt"> <img src="http://127.0.0.1:9/x.png">
<a rel="attachment" href="{u}">attached</a> <iframe src="{u}"></iframe> <object data="{u}"></object>
<div class="bg">bg</div> <img src="{_png_data_uri()}">
</body></html>""", encoding="utf-8")
    return page


def test_pdf_printer_fetches_only_data_urls(tmp_path):
    import resource

    page = _hostile_page(tmp_path)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    pdf = html_to_pdf(page, tmp_path / "page.pdf")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
    assert grown_mb < 300, grown_mb  # /dev/zero was not read (it filled 3.6 GB before)
    content = _pdf_bytes(pdf)
    assert b"/EmbeddedFile" not in content and b"/FileAttachment" not in content
    assert SECRET.encode() not in content
    assert content.count(b"/Subtype /Image") == 1  # the embedded data: picture, and nothing else
    assert pdf.read_bytes().rstrip().endswith(b"%%EOF")
    assert not list(tmp_path.glob(".*tmp*"))


def test_detector_finds_an_attachment_when_the_default_fetcher_is_used(tmp_path):
    """The checks above can fail: WeasyPrint's own fetcher does embed the local file."""
    import weasyprint

    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    out = tmp_path / "open.pdf"
    weasyprint.HTML(string=f'<link rel="attachment" href="{secret.as_uri()}"><p>x</p>').write_pdf(str(out))
    content = _pdf_bytes(out)
    assert b"/EmbeddedFile" in content and SECRET.encode() in content


def test_pdf_printer_refuses_an_oversized_page_and_gives_up_after_its_time(tmp_path, monkeypatch):
    page = tmp_path / "page.html"
    page.write_text("<p>" + "word " * 20000 + "</p>", encoding="utf-8")
    monkeypatch.setattr(report, "MAX_HTML_BYTES", 1000)
    with pytest.raises(ReportError, match=r"page.html: 100,00\d bytes, larger than the 1,000 bytes"):
        html_to_pdf(page, tmp_path / "page.pdf")
    monkeypatch.setattr(report, "MAX_HTML_BYTES", 10**9)
    with pytest.raises(ReportError, match="longer than 0.01 s"):
        html_to_pdf(page, tmp_path / "page.pdf", timeout_s=0.01)
    assert not (tmp_path / "page.pdf").exists() and not list(tmp_path.glob(".*tmp*"))


# ---------------------------------------------------------------------------
# 5. HTML and PDF are one set; the executed notebook is never shared
# ---------------------------------------------------------------------------

@pytest.fixture
def quick_render(tmp_path, monkeypatch):
    """render_report with the notebook execution replaced by writing a small executed notebook
    (the kernel is tested above); HTML export and PDF printing are real."""
    used: list[Path] = []

    def fake_execute(notebook, output, parameters, *, cwd=None):
        used.append(Path(output))
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("")
        cell.outputs = [nbformat.v4.new_output("display_data", data={"text/markdown": "report body"})]
        nb.cells = [cell]
        nbformat.write(nb, str(output))
        return Path(output)

    monkeypatch.setattr(report, "execute_notebook", fake_execute)
    out = tmp_path / "out"

    def render(run: str) -> tuple[Path, Path]:
        return render_report(tmp_path / "nb.ipynb", tmp_path / "r.parquet", tmp_path / "s.toml", out, "demo",
                             title=run)

    render.used = used  # type: ignore[attr-defined]
    render.out = out  # type: ignore[attr-defined]
    return render


def _titles(out: Path) -> tuple[str, str]:
    html = (out / "demo.html").read_text(encoding="utf-8")
    pdf = (out / "demo.pdf").read_bytes()
    assert pdf.rstrip().endswith(b"%%EOF")
    t_html = re.search(r"<title>(.*?)</title>", html).group(1)  # type: ignore[union-attr]
    found = re.search(rb"/Title\s*\((.*?)\)", _pdf_bytes(out / "demo.pdf"))
    assert found is not None
    t_pdf = found.group(1).decode()
    return t_html, t_pdf


def test_interrupted_pdf_leaves_the_previous_complete_pair(quick_render, monkeypatch):
    quick_render("RUN-A")
    assert _titles(quick_render.out) == ("RUN-A", "RUN-A")

    real_to_pdf = report.html_to_pdf

    def interrupted(html_path, pdf_path, **kw):  # Ctrl-C while WeasyPrint is writing
        real_to_pdf(html_path, pdf_path, **kw)
        Path(pdf_path).write_bytes(Path(pdf_path).read_bytes()[:5000])
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "html_to_pdf", interrupted)
    with pytest.raises(KeyboardInterrupt):
        quick_render("RUN-B")
    assert _titles(quick_render.out) == ("RUN-A", "RUN-A")
    assert sorted(p.name for p in quick_render.out.iterdir()) == ["demo.html", "demo.ipynb", "demo.layout.json", "demo.pdf"]


def test_sigint_while_publishing_is_held_until_the_set_is_complete(quick_render, monkeypatch):
    quick_render("RUN-A")
    real_replace = os.replace
    calls = []

    def replace(src, dst):
        if Path(dst).name == "demo.pdf":  # the first rename that publishes the set
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C between the renames
        calls.append(Path(dst).name)
        real_replace(src, dst)

    monkeypatch.setattr(report.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        quick_render("RUN-B")
    assert calls[-3:] == ["demo.pdf", "demo.ipynb", "demo.html"]
    assert _titles(quick_render.out) == ("RUN-B", "RUN-B")
    assert not list(quick_render.out.glob(".*tmp*"))


def test_executed_notebook_has_a_name_unique_to_each_run(quick_render):
    quick_render("RUN-A")
    quick_render("RUN-B")
    first, second = quick_render.used
    assert first != second and first.parent == second.parent == quick_render.out
    assert first.name != "demo.ipynb" and second.name != "demo.ipynb"
    assert (quick_render.out / "demo.ipynb").is_file()


# ---------------------------------------------------------------------------
# 6. two runs of one scenario into one out-dir
# ---------------------------------------------------------------------------

def _lock(out: Path, name: str):  # type: ignore[no-untyped-def]
    from filelock import FileLock

    out.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(out / f".{name}.lock"))
    lock.acquire(timeout=0)
    return lock


@pytest.mark.parametrize("command", ["run", "report"])
def test_no_wait_refuses_while_another_run_holds_the_scenario(tmp_path, cli, command):
    path = tmp_path / "small.toml"
    path.write_text(scenario_text(), encoding="utf-8")
    out = tmp_path / "out"
    lock = _lock(out, "small")
    try:
        code, _, err = cli(command, path, "--out-dir", out, "--quiet", "--no-wait")
    finally:
        lock.release()
    line = one_error_line(err)
    assert code == 2 and "small" in line and "another gamesim" in line and "--no-wait" in line
    assert not (out / "small.parquet").exists()


def test_second_run_waits_for_the_first_then_runs(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(scenario_text(), encoding="utf-8")
    out = tmp_path / "out"
    lock = _lock(out, "small")
    err_file = tmp_path / "err.txt"
    try:
        with err_file.open("w") as err:
            proc = subprocess.Popen([sys.executable, "-m", "gamesim.cli", "run", str(path), "--out-dir", str(out),
                                     "--quiet"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.time() + 120
        while "waiting" not in err_file.read_text() and time.time() < deadline and proc.poll() is None:
            time.sleep(0.2)
        assert proc.poll() is None, err_file.read_text()
        lines = [ln for ln in err_file.read_text().splitlines() if ln.strip()]
        assert len(lines) == 1 and "another gamesim is running this scenario" in lines[0] and "waiting" in lines[0]
        assert not (out / "small.parquet").exists()
    finally:
        lock.release()
    assert proc.wait(timeout=120) == 0, err_file.read_text()
    assert (out / "small.parquet").is_file()
