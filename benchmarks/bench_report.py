"""Time report rendering against the sweep: a 100-cell generic report, or the built-in studies.

Usage::

    .venv/bin/python benchmarks/bench_report.py [--n-trials 2000] [--n-jobs 2]
    .venv/bin/python benchmarks/bench_report.py --studies [NAME ...] [--out-dir DIR] [--n-jobs 1]
    .venv/bin/python benchmarks/bench_report.py --pictures [SCENARIO] [--repeat 3]

``--pictures`` draws every chart picture of one report (default: the generic report of
``tests/data/qftnw_small.toml``, 26 charts) with gamesim's drawing function
(:func:`gamesim.report.drawing.draw_jpeg`: vl-convert's PNG, Pillow's JPEG) and with vl-convert's
own JPEG, and its stages alone (Vega's SVG, the PNG), in CPU seconds of this process, each chart
best of ``--repeat`` with the methods alternating, summed over the charts.

It then draws the same pictures in a process of their own twice over, with the machine's fonts and
with the helpers' fonts (:func:`gamesim.report.drawing.picture_fonts`), CPU user + sys, best of
``--repeat``.

``--studies`` times every built-in study (``scenarios/*.toml``, or the NAMEs given) stage by
stage, each stage in its own process, in CPU seconds (user + sys of that process and the
processes it waited for, e.g. the notebook's kernel): the sweep (``gamesim run``; skipped
from saved chunks when ``--out-dir`` already holds them, then its CPU is that of reading
them), executing the study notebook (papermill), writing the HTML (nbconvert and the page
script) and printing the PDF (WeasyPrint). It prints one Markdown table with the PDF's pages
and figures beside the times. Goal (issue #19): rendering (notebook + HTML + PDF) of one
study within 30 s.

Writes a gacha scenario with 100 cells (two cases x 5 session sizes x 10 pull
counts, a [compare] table, whole distributions) into a temporary folder, runs
``gamesim run`` (the sweep) and then ``gamesim report`` (which finds the results
up to date and only renders: papermill executes the generic notebook, nbconvert
writes the HTML, WeasyPrint the PDF), and prints both wall times and what the
report adds to the sweep. Goal (issue #8): the report adds no more than 30 s on
2 cores.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCENARIO = """
title = "Benchmark: 100 cells"
game = "gacha"
question = "How long does the generic report of a 100-cell sweep take?"
seed = 1
n_trials = {n}
chunk_size = {n}
[[parts]]
name = "hundred"
task = "schedule"
cases = [{{ name = "1 GC", bag_god_chance = 1, bag_n = 44 }}, {{ name = "2 GC", bag_god_chance = 2, bag_n = 43 }}]
grid = {{ session_size = [1, 2, 5, 10, 20], total_pulls = [20, 40, 60, 80, 100, 120, 140, 160, 180, 200] }}
[compare]
baseline = "1 GC"
metrics = ["complete"]
"""


def _gamesim(*args: str) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gamesim.cli", *args, "--quiet"], check=True)
    return time.perf_counter() - t0


ROOT = Path(__file__).resolve().parent.parent


def _cpu(cmd: list[str]) -> tuple[float, float]:
    """Run ``cmd``; its CPU seconds (user + sys, with the processes it waited for) and wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def _stage(argv: list[str]) -> None:
    """One rendering stage in this process: ``notebook NB RESULTS SCENARIO OUT.ipynb``, ``html IPYNB OUT.html
    TITLE`` or ``pdf HTML OUT.pdf``."""
    from gamesim.report.render import execute_notebook, html_to_pdf, notebook_to_html

    what, *rest = argv
    if what == "notebook":
        nb, results, scenario, out = map(Path, rest)
        execute_notebook(nb, out, {"results_path": str(results.resolve()), "scenario_path": str(scenario.resolve())})
    elif what == "html":
        notebook_to_html(Path(rest[0]), Path(rest[1]), title=rest[2])
    elif what == "pdf":
        html_to_pdf(Path(rest[0]), Path(rest[1]))
    else:
        raise SystemExit(f"unknown stage {what!r}")


def studies(names: list[str], out_dir: Path | None, n_jobs: int) -> None:
    """Time the sweep and each rendering stage of built-in studies; print a Markdown table."""
    from gamesim.core.scenario import load_scenario
    from gamesim.report.render import GENERIC_NOTEBOOK

    paths = [ROOT / "scenarios" / f"{n}.toml" for n in names] if names else sorted((ROOT / "scenarios").glob("*.toml"))
    py = sys.executable
    me = str(Path(__file__).resolve())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            sc = load_scenario(path)
            out = (out_dir or Path(tmp)) / sc.name
            out.mkdir(parents=True, exist_ok=True)
            results = out / f"{sc.name}.parquet"
            sweep, _ = _cpu([py, "-m", "gamesim.cli", "run", str(path), "--out-dir", str(out), "--out", str(results),
                             "--n-jobs", str(n_jobs), "--quiet"])
            nb = sc.notebook or GENERIC_NOTEBOOK
            stage = Path(tmp) / f"{sc.name}.stage"
            t_nb, w_nb = _cpu([py, me, "--stage", "notebook", str(nb), str(results), str(path), f"{stage}.ipynb"])
            t_html, w_html = _cpu([py, me, "--stage", "html", f"{stage}.ipynb", f"{stage}.html", sc.title])
            t_pdf, w_pdf = _cpu([py, me, "--stage", "pdf", f"{stage}.html", f"{stage}.pdf"])
            lay = json.loads(Path(f"{stage}.layout.json").read_text(encoding="utf-8"))
            render = t_nb + t_html + t_pdf
            rows.append((sc.name, sweep, t_nb, t_html, t_pdf, render, w_nb + w_html + w_pdf, lay["pages"],
                         lay["figures"], "yes" if render <= 30 else "no"))
            print(f"{sc.name}: sweep {sweep:.1f} s, render {render:.1f} s CPU", file=sys.stderr, flush=True)
    print(f"CPU seconds (user + sys); sweep with --n-jobs {n_jobs}")
    print("| study | sweep | notebook | HTML | PDF | render (sum) | render wall | PDF pages | figures | render <= 30 s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        print(f"| {r[0]} | " + " | ".join(f"{v:.1f}" for v in r[1:7]) + f" | {r[7]} | {r[8]} | {r[9]} |")


def pictures(scenario: Path, repeat: int) -> None:
    """Time the drawing of one report's chart pictures, method by method (see the module docstring)."""
    import contextlib
    import io

    import vl_convert as vlc

    import gamesim.report.charts as charts
    from gamesim.api import Results
    from gamesim.report.drawing import JPEG_QUALITY, draw_jpeg

    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "r.parquet"
        subprocess.run([sys.executable, "-m", "gamesim.cli", "run", str(scenario), "--out-dir", tmp,
                        "--out", str(results), "--quiet"], check=True, cwd=ROOT)
        specs: list[dict] = []
        keep = charts.chart_picture
        charts.chart_picture = lambda spec, scale=1.25: specs.append(spec) or b""  # collect, draw nothing
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                Results.load(results, scenario).report()
        finally:
            charts.chart_picture = keep
    methods = {
        "gamesim (vl-convert PNG + Pillow JPEG)": lambda s: draw_jpeg(s),
        "vl-convert JPEG": lambda s: vlc.vegalite_to_jpeg(s, scale=1.25, quality=JPEG_QUALITY),
        "stage: vl-convert PNG only": lambda s: vlc.vegalite_to_png(s, scale=1.25),
        "stage: Vega's SVG only": lambda s: vlc.vegalite_to_svg(s),
    }
    draw_jpeg(specs[0])  # vl-convert's engine started before the clock
    total = dict.fromkeys(methods, 0.0)
    for spec in specs:
        best = dict.fromkeys(methods, float("inf"))
        for _ in range(repeat):
            for name, f in methods.items():
                t0 = time.process_time()
                f(spec)
                best[name] = min(best[name], time.process_time() - t0)
        for name in methods:
            total[name] += best[name]
    base = total["vl-convert JPEG"]
    print(f"{len(specs)} chart pictures of {scenario}, CPU s, each chart best of {repeat}, summed:")
    for name, t in total.items():
        print(f"  {name:42s} {t:6.2f} s  ({t / base:.2f}x vl-convert JPEG)")
    fonts(specs, repeat)


_DRAW_ALL = """
import json, resource, sys
from gamesim.report.drawing import draw_jpeg
specs = json.load(open(sys.argv[1], encoding="utf-8"))
draw_jpeg(specs[0])  # vl-convert's engine and fonts loaded before the clock
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
t0 = cpu()
for spec in specs:
    draw_jpeg(spec)
print(cpu() - t0)
"""


def fonts(specs: list[dict], repeat: int) -> None:
    """The same pictures drawn in a helper-like process with the machine's fonts and with
    :func:`gamesim.report.drawing.picture_fonts` (fonts are read once per process, so each way is its own
    process), alternating, best of ``repeat`` per way, CPU (user + sys) of the drawing alone."""
    import os

    from gamesim.report.drawing import picture_fonts

    with tempfile.TemporaryDirectory() as tmp:
        conf = picture_fonts(tmp)
        if conf is None:
            print("picture fonts: nothing to leave out on this machine (no system Liberation Sans, not Linux, "
                  "or FONTCONFIG_FILE set): no comparison")
            return
        path = Path(tmp) / "specs.json"
        path.write_text(json.dumps(specs), encoding="utf-8")
        ways = {"machine's fonts": dict(os.environ), "picture_fonts (helpers)": {**os.environ, "FONTCONFIG_FILE": str(conf)}}
        best = dict.fromkeys(ways, float("inf"))
        for _ in range(repeat):
            for name, env in ways.items():
                out = subprocess.run([sys.executable, "-c", _DRAW_ALL, str(path)], env=env, check=True, cwd=ROOT,
                                     capture_output=True, text=True).stdout
                best[name] = min(best[name], float(out.split()[-1]))
    base = best["machine's fonts"]
    print(f"the same {len(specs)} pictures (gamesim's drawing) in a process of their own, CPU s (user + sys), "
          f"best of {repeat}:")
    for name, t in best.items():
        print(f"  {name:42s} {t:6.2f} s  ({t / base:.2f}x the machine's fonts)")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--stage":
        _stage(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-trials", type=int, default=2000, help="trials per cell (default 2000)")
    ap.add_argument("--n-jobs", type=int, default=2, help="workers for the sweep (default 2)")
    ap.add_argument("--studies", nargs="*", metavar="NAME", default=None,
                    help="time the built-in studies (all, or these names) stage by stage instead")
    ap.add_argument("--out-dir", type=Path, default=None,
                    help="with --studies: keep results and chunks here (a second run reuses the chunks)")
    ap.add_argument("--pictures", nargs="?", type=Path, const=ROOT / "tests/data/qftnw_small.toml", default=None,
                    metavar="SCENARIO", help="time drawing the chart pictures of this scenario's report instead")
    ap.add_argument("--repeat", type=int, default=3, help="with --pictures: best of this many per chart")
    args = ap.parse_args()
    if args.pictures is not None:
        pictures(args.pictures, args.repeat)
        return
    if args.studies is not None:
        studies(args.studies, args.out_dir, args.n_jobs)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench_100_cells.toml"
        path.write_text(SCENARIO.format(n=args.n_trials), encoding="utf-8")
        out = Path(tmp) / "out"
        sweep_s = _gamesim("run", str(path), "--out-dir", str(out), "--n-jobs", str(args.n_jobs))
        report_s = _gamesim("report", str(path), "--out-dir", str(out), "--n-jobs", str(args.n_jobs))
        html = (out / "bench_100_cells.html").stat().st_size
        pdf = (out / "bench_100_cells.pdf").stat().st_size
    print(f"100 cells x {args.n_trials} trials, --n-jobs {args.n_jobs}")
    print(f"  sweep (gamesim run):                   {sweep_s:6.1f} s")
    print(f"  report on saved results (gamesim report): {report_s:6.1f} s  (HTML {html / 1e6:.1f} MB, PDF {pdf / 1e6:.1f} MB)")
    print(f"  the report adds {report_s:.1f} s to the sweep ({report_s / sweep_s:.2f}x the sweep time); goal <= 30 s")


if __name__ == "__main__":
    main()
