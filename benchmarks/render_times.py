"""Wall and CPU time of rendering each built-in study from results already swept (issue #19: <= 30 s).

Usage::

    .venv/bin/python benchmarks/render_times.py REPORTS_DIR OUT_DIR NAME [NAME ...]

``REPORTS_DIR`` holds ``<NAME>.parquet`` (and its companions) from ``gamesim report`` / ``gamesim run``;
each study's notebook (or the generic one) is executed, exported to HTML and printed to PDF into
``OUT_DIR`` with the functions the CLI calls, one study after another, and one Markdown row per study
is printed: notebook wall (CPU), HTML wall, PDF wall, render wall, render CPU (this process and its
children: the kernel and its picture helper), PDF pages and figures.
"""
import sys, time, resource, json, tomllib
from pathlib import Path
from gamesim.report.render import execute_notebook, notebook_to_html, html_to_pdf, GENERIC_NOTEBOOK
root = Path(__file__).resolve().parent.parent; src = Path(sys.argv[1]); out = Path(sys.argv[2]); out.mkdir(exist_ok=True)
names = sys.argv[3:]
def cpu():
    a = resource.getrusage(resource.RUSAGE_SELF); b = resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime
print("| study | notebook wall (CPU) s | HTML wall s | PDF wall s | render wall s | render CPU s | pages | figures |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for name in names:
    scen = root / "scenarios" / f"{name}.toml"
    if not scen.is_file():
        scen = root / "scenarios" / "examples" / f"{name}.toml"
    raw = tomllib.loads(scen.read_text())
    nb = (scen.parent / raw["notebook"]).resolve() if "notebook" in raw else GENERIC_NOTEBOOK
    w0, c0 = time.perf_counter(), cpu()
    execute_notebook(nb, out / f"{name}.ipynb", {"results_path": str(src / f"{name}.parquet"), "scenario_path": str(scen)})
    w1, c1 = time.perf_counter(), cpu()
    notebook_to_html(out / f"{name}.ipynb", out / f"{name}.html")
    w2 = time.perf_counter()
    html_to_pdf(out / f"{name}.html", out / f"{name}.pdf")
    w3, c3 = time.perf_counter(), cpu()
    lay = json.loads((out / f"{name}.layout.json").read_text())
    print(f"| {name} | {w1-w0:.1f} ({c1-c0:.1f}) | {w2-w1:.1f} | {w3-w2:.1f} | {w3-w0:.1f} | {c3-c0:.1f} | {lay['pages']} | {lay['figures']} |", flush=True)
