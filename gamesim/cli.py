"""The ``gamesim`` command: list games and scenarios, run sweeps, render reports.

Examples
--------
::

    gamesim list
    gamesim run scenarios/gacha_god_chance.toml --n-jobs 2
    gamesim report                                  # every built-in scenario
    gamesim report scenarios/gacha_god_chance.toml --backend dask --scheduler tcp://host:8786

User errors (bad scenario file, bad option value) print one line naming the
file, key, value and what is allowed, and exit with status 2; an interrupted
sweep exits with 130 after its finished chunks are saved (run again to resume).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from gamesim.core.machine import available_cores
from gamesim.core.signals import signals_held
from gamesim.core.version import __version__

__all__ = ["main", "builtin_scenarios"]

EXIT_USAGE = 2
EXIT_FAILED = 1
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class _Terminated(KeyboardInterrupt):
    """Raised in the main thread by SIGTERM so a sweep stops as cleanly as on Ctrl-C."""


def _on_sigterm(signum: int, frame: Any) -> None:
    _quiet_interrupt_hooks()
    raise _Terminated()


def _on_sigint(signum: int, frame: Any) -> None:
    """Ctrl-C: as Python's default (KeyboardInterrupt), but first silence the log lines of
    libraries that notice the interrupted kernel or workers before our one line is printed."""
    _quiet_interrupt_hooks()
    raise KeyboardInterrupt


def _shutdown_workers() -> None:
    """Stop loky's reusable worker processes now (they would otherwise idle for minutes)."""
    try:
        from joblib.externals.loky import reusable_executor

        executor = getattr(reusable_executor, "_executor", None)
        if executor is not None:
            executor.shutdown(wait=False, kill_workers=True)
    except Exception:  # noqa: BLE001 - best effort on the way out
        pass


def _quiet_interrupt_hooks() -> None:
    """After Ctrl-C/SIGTERM, nothing but our one line: silence late tracebacks of
    background threads (e.g. a notebook kernel's ZMQ channels) and of interpreter exit, and
    warnings about the work abandoned (joblib's "tasks have been successfully executed but not
    used": chunks done but not yet saved, which the next run computes again)."""
    import logging
    import threading
    import warnings

    threading.excepthook = lambda args: None
    sys.unraisablehook = lambda unraisable: None
    logging.disable(logging.CRITICAL)
    warnings.simplefilter("ignore")


#: Warning filters for the resource trackers of loky and multiprocessing: processes of their own, started with
#: the first pool, that warn on the console about semaphores of an interrupted or killed process which they
#: then remove themselves ("There appear to be 1 leaked semlock objects ..."). The command's one line says what
#: happened; these lines are kept off the console.
_TRACKER_WARNINGS = ("ignore::UserWarning:joblib.externals.loky.backend.resource_tracker",
                     "ignore::UserWarning:multiprocessing.resource_tracker")


def _quiet_resource_trackers() -> None:
    """Start the resource trackers (when a pool first needs one) with :data:`_TRACKER_WARNINGS`.

    A tracker's interpreter options are copied from this process's ``sys.warnoptions`` when it starts,
    so the filters are added there (this process's own warning filters stay as they are)."""
    for option in _TRACKER_WARNINGS:
        if option not in sys.warnoptions:
            sys.warnoptions.append(option)


def _repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


def builtin_scenarios() -> list[Path]:
    """The built-in scenario files: the studies ``scenarios/*.toml`` then the shipped examples
    ``scenarios/examples/*.toml``, from ``./scenarios`` if that folder exists, else from the
    gamesim source tree."""
    for folder in (Path.cwd() / "scenarios", _repo_root() / "scenarios"):
        if folder.is_dir():
            return sorted(folder.glob("*.toml")) + sorted((folder / "examples").glob("*.toml"))
    return []


def _largest_tables_first(paths: list[Path]) -> list[Path]:
    """The built-in studies in the order ``gamesim report`` sweeps them: largest results table first.

    A report renders while the next studies are swept; the last study's report renders alone at the
    end, on one core. The size of the table (cells x metrics) stands for the report's work, so the big
    reports (qftnw_editions, gacha_game) render beside later sweeps and a small one comes last. Ties
    keep the files' order; a file that does not load keeps its place at the front (the sweep then
    reports its error first).
    """
    from gamesim.run.scenario import load_scenario

    def rows(path: Path) -> float:
        total = 0
        try:
            for part in load_scenario(path).parts:
                cells = part.cells()
                if cells:
                    total += len(cells) * len(part.task.metrics_for(cells[0]))
        except Exception:  # noqa: BLE001 - the sweep reports it, in the usual words
            return float("inf")
        return float(total)

    return sorted(paths, key=lambda p: -rows(p))


def _resolve_scenario(arg: str) -> Path:
    """A path as given, or the name of a built-in scenario (``gacha_god_chance``)."""
    p = Path(arg)
    if p.suffix == ".toml" or p.exists():
        return p
    for s in builtin_scenarios():
        if s.stem == arg:
            return s
    return p


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--n-jobs", type=int, default=None, metavar="N",
                        help="parallel workers (default: the CPU cores available to this process)")
    common.add_argument(
        "--backend", choices=("loky", "threading", "dask"), default="loky", help="joblib backend (default loky)"
    )
    common.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="Dask scheduler address (with --backend dask); without it a LocalCluster of --n-jobs workers is started",
    )
    common.add_argument("--seed", type=int, help="root seed, overriding the scenario's `seed`")
    common.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    common.add_argument("--fresh", action="store_true", help="ignore chunks saved by an earlier run of this scenario")
    common.add_argument(
        "--out-dir", type=Path, default=Path("reports"), help="folder for results and reports (default reports/)"
    )
    common.add_argument(
        "--no-wait", action="store_true",
        help="if another gamesim is running the same scenario into the same --out-dir, stop (exit 2) "
             "instead of waiting for it",
    )

    ap = argparse.ArgumentParser(
        prog="gamesim",
        description="Monte Carlo balance analysis for tabletop games: sweeps, exact solvers, reports.",
    )
    ap.add_argument("--version", action="version", version=f"gamesim {__version__}")
    sub = ap.add_subparsers(dest="command", required=True)
    lst = sub.add_parser("list", help="list games, their tasks with every parameter (default, range, units), "
                         "and the built-in scenarios")
    lst.add_argument("game", nargs="?", help="only this game")
    new = sub.add_parser("new", help="print a commented scenario template for a game's task (runs as is)")
    new.add_argument("game", help="a game name (see gamesim list)")
    new.add_argument("task", help="one of the game's tasks")
    run = sub.add_parser("run", parents=[common], help="run a scenario's sweep and write its tidy results (parquet)")
    run.add_argument("scenario", help="scenario .toml file (or the name of a built-in one)")
    run.add_argument("--out", type=Path, help="results file (default OUT_DIR/<scenario>.parquet)")
    run.add_argument("--format", choices=("parquet", "csv"), default="parquet",
                     help="results format (default parquet; csv writes list values as JSON and the run "
                          "metadata to <name>.meta.json)")
    rep = sub.add_parser(
        "report", parents=[common], help="run a scenario if needed, then render its HTML and PDF report"
    )
    rep.add_argument("scenario", nargs="*", help="scenario files (default: every built-in scenario)")
    rep.add_argument(
        "--notebook", type=Path, metavar="PATH",
        help="execute this notebook for the report (one scenario only); a scenario file itself may name only "
             "the notebooks shipped with gamesim (docs/security.md)",
    )
    srch = sub.add_parser("search", help="find the rule settings that hit a scenario's [target] "
                          "(and rank parameters by its [sensitivity]); writes an HTML report")
    srch.add_argument("scenario", type=Path, help="scenario .toml file with a [target] table")
    srch.add_argument("--seed", type=int, help="root seed (overrides the scenario's)")
    srch.add_argument("--out", type=Path, help="report file (default reports/<scenario>.search.html)")
    srch.add_argument("--pdf", action="store_true", help="also write a PDF next to the HTML")
    srch.add_argument("--fresh", action="store_true",
                      help="discard the chunks saved by an earlier run of this search (in .chunks beside the report)")
    return ap


def _param_line(p: Any) -> str:
    """One parameter for ``gamesim list``: name, kind, default, range or choices, doc (with units)."""
    from gamesim.run.scenario import _describe_allowed

    default = "(not set)" if p.default is None else _toml_value(p.default)
    return f"{p.name} = {default}  [{_describe_allowed(p)}]  {p.doc}".rstrip()


def _raw_scenario(path: Path) -> dict[str, Any]:
    """The parsed TOML of a built-in scenario file, unvalidated (empty if it cannot be read)."""
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def _list(game_filter: str | None) -> int:
    from gamesim.core.registry import all_games

    games = all_games()
    if game_filter is not None and game_filter not in games:
        print(f"gamesim: error: unknown game {game_filter!r}; games: {', '.join(sorted(games))}", file=sys.stderr)
        return EXIT_USAGE
    for game in games.values():
        if game_filter is not None and game.name != game_filter:
            continue
        print(f"{game.name}: {game.title}  (rules: {game.rules_doc}; rulebook: {game.seed_file})")
        for task in game.tasks.values():
            doc = " ".join(task.doc.split())
            print(f"  task {task.name}: {doc}")
            print("    params:")
            for p in task.params:
                print(f"      {_param_line(p)}")
            metrics = task.metrics if not callable(task.metrics) else task.metrics_for(task.defaults())
            print("    metrics:" + (" (for the default parameters; they depend on them)" if callable(task.metrics) else ""))
            for m in metrics:
                q = f", quantiles {', '.join(f'q{round(x * 100)}' for x in m.quantiles)}" if m.quantiles else ""
                print(f"      {m.name} ({m.kind}{q})  {m.doc}".rstrip())
    shown = [s for s in builtin_scenarios() if game_filter is None or _raw_scenario(s).get("game") == game_filter]
    if shown:
        print("scenarios:" if game_filter is None else f"scenarios of {game_filter}:")
        for s in shown:
            print(f"  {s}")
    print("(gamesim new GAME TASK > my.toml writes a scenario template that runs as is)")
    return 0


def _toml_value(v: Any) -> str:
    """A Python value written as TOML (:func:`gamesim.run.scenario._toml_text`, strings as basic strings)."""
    from gamesim.run.scenario import _toml_text

    return _toml_text(v, string=lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"')


def _template_grids(game: Any, task: Any) -> list[tuple[str, list[Any]]]:
    """Candidate grids for a template, best first: integer parameters the built-in studies sweep for
    this task (their first three values), then every integer parameter (its default and the next value)."""
    ints = {p.name: p for p in task.params if p.kind == "int" and p.default is not None and p.choices is None}
    out: list[tuple[str, list[Any]]] = []
    for path in builtin_scenarios():
        raw = _raw_scenario(path)
        if raw.get("game") != game.name:
            continue
        for part in raw.get("parts", []):
            if part.get("task") != task.name or not isinstance(part.get("grid"), dict):
                continue
            for key, values in part["grid"].items():
                if key in ints and isinstance(values, list) and len(values) > 1 \
                        and all(type(v) is int for v in values):
                    out.append((key, values[:3]))
    for p in ints.values():
        out.append((p.name, [p.default, p.default + 1] if p.max is None or p.default + 1 <= p.max
                    else [p.default - 1, p.default]))
    return out


def _changes_results(task: Any, name: str, values: list[Any], n_trials: int = 64) -> bool:
    """Whether sweeping ``name`` over ``values`` changes the task's output (same seed for every value),
    so that a template never sweeps a parameter the default settings ignore."""
    import numpy as np

    outputs = []
    for v in values:
        try:
            out = task.simulate(task.defaults(**{name: v}), n_trials, rng=np.random.default_rng(0))
        except Exception:  # noqa: BLE001 - a candidate that cannot run is skipped
            return False
        outputs.append({k: np.asarray(a) for k, a in out.items()})
    first = outputs[0]
    return any(set(o) != set(first) or any(not np.array_equal(o[k], first[k], equal_nan=True) for k in first)
               for o in outputs[1:])


def _new(game_name: str, task_name: str) -> int:
    """Print a commented scenario template for one task that runs as is."""
    from gamesim.core.registry import all_games
    from gamesim.run.scenario import ScenarioError, load_scenario

    games = all_games()
    if game_name not in games:
        print(f"gamesim: error: unknown game {game_name!r}; games: {', '.join(sorted(games))}", file=sys.stderr)
        return EXIT_USAGE
    game = games[game_name]
    if task_name not in game.tasks:
        print(f"gamesim: error: unknown task {task_name!r} of game {game_name!r}; tasks: {', '.join(game.tasks)}",
              file=sys.stderr)
        return EXIT_USAGE
    task = game.tasks[task_name]
    metrics = task.metrics_for(task.defaults())
    first = metrics[0]
    grid_line = "grid = {}                 # e.g. { parameter = [value1, value2] }"
    for name, values in _template_grids(game, task):
        try:
            load_scenario({"game": game.name, "n_trials": 1,
                           "parts": [{"name": "main", "task": task.name, "grid": {name: values}}]})
        except ScenarioError:
            continue
        if not _changes_results(task, name, values):
            continue
        grid_line = f"grid = {{ {name} = {_toml_value(values)} }}   # one cell per value (Cartesian product)"
        break
    lines = [
        f"# A scenario for {game.title}, task {task.name!r} (written by `gamesim new {game.name} {task.name}`).",
        f"# Task: {' '.join(task.doc.split())}",
        f"# Rules as modelled: {game.rules_doc}. Run: gamesim report THIS_FILE.toml",
        "",
        f'title = "My {game.name} {task.name} study"',
        f'game = "{game.name}"',
        f'question = "How does {first.name} change with the parameters below?"',
        'notes = "What this variant models, for the report."',
        "# Report: the generic one; for a study notebook of your own, run "
        "`gamesim report THIS_FILE.toml --notebook my_study.ipynb` (the `notebook` key names only gamesim's own)",
        "seed = 1                  # remove to draw fresh entropy (recorded in the results)",
        "n_trials = 2000           # trials per cell",
        "chunk_size = 1000         # trials per saved chunk (unit of parallel work and of resume)",
        "",
        "[params]                  # fixed for every part; every parameter with its default:",
    ]
    for p in task.params:
        lines.append(f"# {_param_line(p)}")
    lines += ["", "[[parts]]", 'name = "main"', f'task = "{task.name}"']
    lines.append(grid_line)
    lines += [
        "# cases = [{ name = \"A\", parameter = 1 }, { name = \"B\", parameter = 2 }]   # variants that move together",
        "",
        "# [compare]                # differences against a baseline, with paired intervals",
        "# baseline = \"A\"          # a case name, or { parameter = value } of a swept parameter",
        f'# metrics = ["{first.name}"]',
        "",
        "# [precision]              # top cells up until the 95% interval is narrow enough",
        f'# metric = "{first.name}"',
        "# half_width = 0.01",
        "# max_trials = 50000",
        "",
        "# Metrics of this task:",
    ]
    for m in metrics:
        lines.append(f"#   {m.name} ({m.kind})  {m.doc}".rstrip())
    print("\n".join(lines))
    return 0


def _run_one(
    path: Path, args: argparse.Namespace, out: Path | None, *, reuse: bool, fmt: str = "parquet"
) -> tuple[Any, Path]:
    """Load, sweep (resuming from the chunk cache) and save one scenario."""
    from gamesim.api import Results, results_set_problem, sweep
    from gamesim.run.results import ResultsError, load_results
    from gamesim.run.scenario import load_scenario
    from gamesim.run.sweep import INLINE_BELOW_S

    scenario = load_scenario(path)
    out = (out or args.out_dir / f"{scenario.name}.parquet").with_suffix("." + fmt)
    seed = scenario.seed if args.seed is None else args.seed
    if reuse and not args.fresh and out.is_file():
        try:
            _, meta = load_results(out)
        except ResultsError as exc:  # zero-byte or corrupt: regenerate it
            print(f"gamesim: warning: {exc}; regenerating it", file=sys.stderr)
            meta = {}
        if meta.get("scenario_hash") == scenario.content_hash(seed):
            problem = results_set_problem(out)  # a companion of another run: recompute (chunks are reused)
            if problem is None:
                if not args.quiet:
                    print(f"{scenario.name}: results up to date in {out}")
                return scenario, out
            print(f"gamesim: warning: {problem}; writing the results again", file=sys.stderr)
    res: Results = sweep(
        scenario,
        backend=None,  # type: ignore[arg-type]  # main() holds the joblib backend open for every scenario
        seed=args.seed,
        cache_root=args.out_dir / ".chunks",
        progress=not args.quiet,
        fresh=args.fresh,
        inline_below_s=INLINE_BELOW_S if getattr(args, "inline", False) else None,
    )
    res.meta.update({"n_jobs": args.n_jobs, "backend": args.backend, "scheduler": args.scheduler})
    written = res.save(out, format=fmt)  # type: ignore[arg-type]
    if not args.quiet:
        extra = f" (+ {', '.join(p.name for p in written[1:])})" if len(written) > 1 else ""
        print(
            f"{scenario.name}: {len(res.frame)} result rows -> {out}{extra} "
            f"({res.meta['chunks_run']} chunks run, {res.meta['chunks_reused']} reused, {res.meta['seconds']:.1f} s, "
            f"seed entropy {res.meta['seed_entropy']})"
        )
    return scenario, out


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gamesim`` command; returns the exit status."""
    args = _parser().parse_args(argv)
    _quiet_resource_trackers()
    from gamesim.report.render import ReportError
    from gamesim.run.results import ResultsError
    from gamesim.run.scenario import NOTEBOOK_ENV, ScenarioError

    def error(msg: str, code: int) -> int:
        print(f"gamesim: error: {msg}", file=sys.stderr)
        return code

    if args.command in ("list", "new"):
        try:
            return _list(args.game) if args.command == "list" else _new(args.game, args.task)
        except BrokenPipeError:  # `gamesim list | head`
            sys.stderr.close()
            return 0
    if args.command == "search":
        if args.seed is not None and args.seed < 0:
            return error(f"--seed = {args.seed}, must be a non-negative integer", EXIT_USAGE)
        previous_sigint = _install_sigterm()
        try:
            if args.out is not None:
                check_report_path(args.out, pdf=args.pdf)  # before any work: a bad --out fails in a second
            return search_cli(args.scenario, seed=args.seed, out=args.out, pdf=args.pdf, fresh=args.fresh)
        except (ScenarioError, ReportPathError) as exc:
            return error(str(exc), EXIT_USAGE)
        except OSError as exc:  # e.g. a full disk while writing the report (the old report is kept)
            return error(str(exc), EXIT_FAILED)
        except KeyboardInterrupt as exc:
            _quiet_interrupt_hooks()
            # every chunk simulated so far is saved (beside the report, in .chunks): the same command resumes
            again = "run the same command again to resume the search"
            if isinstance(exc, _Terminated):
                return error(f"terminated; {again}", EXIT_TERMINATED)
            return error(f"interrupted; {again}", EXIT_INTERRUPTED)
        finally:
            _restore_sigterm(previous_sigint)
    if args.n_jobs is not None and args.n_jobs < 1:
        return error(f"--n-jobs = {args.n_jobs}, must be >= 1", EXIT_USAGE)
    if args.seed is not None and args.seed < 0:
        return error(f"--seed = {args.seed}, must be a non-negative integer", EXIT_USAGE)
    if args.scheduler and args.backend != "dask":
        return error("--scheduler needs --backend dask", EXIT_USAGE)
    if args.command == "run" and args.out is not None and args.out.is_dir():
        return error(f"--out {args.out} is a folder; give a results file such as {args.out / 'results.parquet'}",
                     EXIT_USAGE)
    cpus = available_cores()
    # --n-jobs not given: a sweep small enough to finish before workers would have started runs in this
    # process (gamesim.core.sweep.INLINE_BELOW_S); with --n-jobs, every chunk goes to the workers asked for
    args.inline = args.n_jobs is None and args.backend == "loky"
    if args.n_jobs is None:
        args.n_jobs = cpus
    if args.scheduler is None and args.n_jobs > cpus:  # local workers only: more than the cores just thrash
        print(f"gamesim: note: --n-jobs {args.n_jobs} is more than the {cpus} CPU cores here; using {cpus}",
              file=sys.stderr)
        args.n_jobs = cpus
    from gamesim.run.sweep import ChunkError, compute_backend

    previous_sigterm = _install_sigterm()
    previous_notebook = os.environ.get(NOTEBOOK_ENV)
    stack = contextlib.ExitStack()
    try:
        if args.command == "run":
            path = _resolve_scenario(args.scenario)
            with _scenario_locks([path], args), compute_backend(args.backend, args.n_jobs, args.scheduler):
                _run_one(path, args, args.out, reuse=False, fmt=args.format)
            return 0
        if args.notebook is not None:
            if len(args.scenario) != 1:
                return error(f"--notebook {args.notebook} needs exactly one scenario file, got {len(args.scenario)}",
                             EXIT_USAGE)
            if args.notebook.suffix != ".ipynb" or not args.notebook.is_file():
                return error(f"--notebook {args.notebook}: no such .ipynb file", EXIT_USAGE)
            # chosen at the keyboard: the scenario's (and the kernel's) load_scenario use it
            os.environ[NOTEBOOK_ENV] = str(args.notebook.resolve())
        paths = [_resolve_scenario(s) for s in args.scenario] or _largest_tables_first(builtin_scenarios())
        if not paths:
            return error("no scenario given and no built-in scenarios/ folder found", EXIT_USAGE)
        paths, clash = _distinct_names(paths)
        if clash:
            return error(clash, EXIT_USAGE)
        from gamesim.report.render import GENERIC_NOTEBOOK, render_report

        locks = _scenario_locks(paths, args)
        stack.enter_context(locks)
        # several scenarios: their reports render in worker processes, side by side and while the next
        # scenarios are swept (a report is the same as one rendered alone: same results file, same notebook)
        with _Renderers(min(args.n_jobs, cpus, len(paths))) as renderer:  # local processes, whatever the cluster
            with compute_backend(args.backend, args.n_jobs, args.scheduler):
                for path in paths:
                    scenario, results = _run_one(path, args, None, reuse=True)
                    notebook = scenario.notebook or GENERIC_NOTEBOOK
                    if not args.quiet:
                        print(f"{scenario.name}: executing {notebook.name} ...", flush=True)
                    renderer.submit((scenario.name, path, "target" in scenario.raw), render_report, notebook,
                                    results, path, args.out_dir, scenario.name, title=scenario.title)
                    for tag, (html, pdf) in renderer.finished():
                        _print_report(tag, html, pdf, args)
            for tag, (html, pdf) in renderer.finished(wait=True):
                _print_report(tag, html, pdf, args)
        return 0
    except ScenarioError as exc:
        return error(str(exc), EXIT_USAGE)
    except _Busy as exc:
        return error(str(exc), EXIT_USAGE)
    except ReportError as exc:
        if "raised KeyboardInterrupt" in str(exc):  # Ctrl-C reached the notebook kernel too
            return error("interrupted; run the same command again to finish the report", EXIT_INTERRUPTED)
        return error(str(exc), EXIT_FAILED)
    except (ResultsError, ChunkError) as exc:
        return error(str(exc), EXIT_FAILED)
    except MemoryError:
        return error("out of memory; lower chunk_size, n_trials or --n-jobs (limits: docs/reliability.md)",
                     EXIT_USAGE)
    except (OverflowError, RecursionError) as exc:
        what = "a number too large" if isinstance(exc, OverflowError) else "a structure nested too deeply"
        return error(f"{what} ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else '-'}); "
                     "check the scenario's values against the limits in docs/reliability.md", EXIT_USAGE)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):  # disk full: whole chunks and the manifest are kept
            where = f" writing {exc.filename}" if exc.filename else ""
            return error(f"no space left on the device{where}; free some space and run the same command "
                         "again to resume (finished chunks are kept)", EXIT_FAILED)
        return error(str(exc), EXIT_FAILED)
    except ValueError as exc:  # e.g. an unreachable --scheduler
        return error(str(exc), EXIT_FAILED)
    except KeyboardInterrupt as exc:
        _quiet_interrupt_hooks()
        _shutdown_workers()
        if isinstance(exc, _Terminated):
            return error("terminated; finished chunks are saved, run the same command again to resume",
                         EXIT_TERMINATED)
        return error(
            "interrupted; finished chunks are saved, run the same command again to resume", EXIT_INTERRUPTED
        )
    except Exception as exc:  # a process killed by the OS (e.g. out of memory): a worker or the report's kernel
        if type(exc).__name__ == "TerminatedWorkerError":
            return error("a worker process was killed (out of memory?); lower chunk_size or --n-jobs "
                         "(limits: docs/reliability.md), then run again to resume", EXIT_FAILED)
        if type(exc).__name__ == "DeadKernelError":
            return error(f"the report notebook's kernel died ({exc}); run the same command again", EXIT_FAILED)
        raise
    finally:
        stack.close()
        if previous_notebook is None:
            os.environ.pop(NOTEBOOK_ENV, None)
        else:
            os.environ[NOTEBOOK_ENV] = previous_notebook
        _restore_sigterm(previous_sigterm)


def _print_report(tag: tuple[str, Path, bool], html: Path, pdf: Path, args: argparse.Namespace) -> None:
    name, path, has_target = tag
    if not args.quiet:
        print(f"{name}: report -> {html} and {pdf}", flush=True)
        if has_target:  # read by `gamesim search` only
            print(f"{name}: this scenario has a [target] table, which report ignores; "
                  f"`gamesim search {path}` runs the target search and writes its report", flush=True)


def _render_worker_init(owner: int) -> None:
    """Report worker initializer: exit with ``owner`` (the command's process); while idle, ignore Ctrl-C
    (the command answers it) and exit quietly on SIGTERM; one chart-picture helper per report (the
    kernels it starts read :data:`gamesim.report.pictures.HELPERS_ENV`): the cores are shared with the
    other reports and the sweeps."""
    from gamesim.report.pictures import HELPERS_ENV
    from gamesim.run.chunks import watch_parent

    os.environ.setdefault(HELPERS_ENV, "1")

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda signum, frame: os._exit(EXIT_TERMINATED))
    watch_parent(owner)


#: The signal that stopped this report worker's render (empty while none did).
_RENDER_STOPPED: list[int] = []

#: Seconds an interrupted command waits for its report workers to clean up before it kills them.
RENDER_STOP_WAIT_S = 60.0


def _render_stop(signum: int, frame: Any) -> None:
    """A report worker's Ctrl-C/SIGTERM while it renders: stop once (later signals are ignored,
    so the report's own clean-up of its temporary files runs to the end)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _quiet_interrupt_hooks()
    _RENDER_STOPPED.append(signum)
    raise _Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _render_task(fn: Any, fargs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run one report in a worker, stopping on Ctrl-C or SIGTERM as the command does.

    A worker stopped by a signal exits once the report has cleaned up, instead of waiting for the
    next report: an idle worker that got the same signal exited at once, possibly holding the
    pool's queue lock, so waiting would hang this worker and the command that joins it."""
    previous = {signal.SIGINT: signal.signal(signal.SIGINT, _render_stop),
                signal.SIGTERM: signal.signal(signal.SIGTERM, _render_stop)}
    try:
        return fn(*fargs, **kwargs)
    finally:
        if _RENDER_STOPPED:
            sys.stderr.flush()
            os._exit(EXIT_TERMINATED if _RENDER_STOPPED[0] == signal.SIGTERM else EXIT_INTERRUPTED)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class _Renderers:
    """Reports rendered side by side: ``n`` worker processes (started on first use), or in this
    process when ``n == 1``. :meth:`submit` queues one report; :meth:`finished` yields the reports done
    so far, in submission order (all of them with ``wait=True``), re-raising a report's exception."""

    def __init__(self, n: int) -> None:
        self.n = max(1, n)
        self.pool: Any = None
        self.pending: list[tuple[Any, Any]] = []

    def __enter__(self) -> _Renderers:
        return self

    def submit(self, tag: Any, fn: Any, *fargs: Any, **kwargs: Any) -> None:
        if self.n == 1:
            self.pending.append((tag, fn(*fargs, **kwargs)))
            return
        if self.pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # spawn: the command's process has worker and progress threads that fork would copy half-way
            self.pool = ProcessPoolExecutor(self.n, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_render_worker_init, initargs=(os.getpid(),))
        with signals_held():  # the pool may start a worker now: cut off, its start-up prints a traceback
            job = self.pool.submit(_render_task, fn, fargs, kwargs)
        self.pending.append((tag, job))

    def finished(self, wait: bool = False) -> Iterator[tuple[Any, Any]]:
        while self.pending:
            tag, job = self.pending[0]
            if self.pool is not None:
                if not wait and not job.done():
                    return
                job = job.result()
            self.pending.pop(0)
            yield tag, job

    def __exit__(self, *exc: Any) -> None:
        if self.pool is None:
            return
        if exc[0] is not None:  # interrupted or failed: stop the reports still running (they clean up)
            for _, job in self.pending:
                job.cancel()
            procs = list(getattr(self.pool, "_processes", {}).values())
            for proc in procs:
                with contextlib.suppress(OSError):
                    proc.terminate()
            # a worker that cannot finish its clean-up is not waited for forever (its exit is seen on its
            # sentinel: the pool's own thread reaps it)
            from multiprocessing.connection import wait

            running = {proc.sentinel: proc for proc in procs}  # an exited worker's sentinel is ready at once
            deadline = time.monotonic() + RENDER_STOP_WAIT_S
            while running and (left := deadline - time.monotonic()) > 0:
                for sentinel in wait(list(running), left):
                    running.pop(sentinel)  # type: ignore[call-overload]
            for proc in running.values():
                with contextlib.suppress(OSError):
                    proc.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


def _install_sigterm() -> Any:
    """SIGTERM raises :class:`_Terminated` in the main thread (so chunks and manifest are saved);
    SIGINT raises KeyboardInterrupt after silencing late log lines. Returns the previous handlers."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, _on_sigterm)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, _on_sigint)
    return previous


def _restore_sigterm(previous: Any) -> None:
    if previous is not None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class _Busy(Exception):
    """Another gamesim holds a scenario's lock and ``--no-wait`` was given."""


@contextlib.contextmanager
def _scenario_locks(paths: list[Path], args: argparse.Namespace) -> Any:
    """Hold ``<out-dir>/.<name>.lock`` for every scenario while it is run and reported.

    Two runs of one scenario into one out-dir would share its chunk cache, results and
    report files; the second one waits here (one line says so) or, with ``--no-wait``,
    raises :class:`_Busy`. Locks are taken in name order, so two commands never wait on
    each other.
    """
    from filelock import FileLock, Timeout

    from gamesim.run.scenario import load_scenario

    names = sorted({load_scenario(p).name for p in paths})
    with contextlib.ExitStack() as stack:
        if names:
            args.out_dir.mkdir(parents=True, exist_ok=True)
        for name in names:
            lock_path = args.out_dir / f".{name}.lock"
            lock = FileLock(str(lock_path))
            try:
                lock.acquire(timeout=0)
            except Timeout:
                if args.no_wait:
                    raise _Busy(f"{name}: another gamesim is running this scenario into {args.out_dir} "
                                f"(lock {lock_path}); not waiting (--no-wait)") from None
                print(f"gamesim: {name}: another gamesim is running this scenario into {args.out_dir}; "
                      f"waiting for it to finish (lock {lock_path})", file=sys.stderr, flush=True)
                lock.acquire()
            stack.callback(lock.release)
        yield


def _distinct_names(paths: list[Path]) -> tuple[list[Path], str | None]:
    """Scenario files with pairwise different names (results and reports are keyed by name).

    The same file given twice is kept once; two files with one name give an error
    message naming both.
    """
    from gamesim.run.scenario import load_scenario

    seen: dict[str, Path] = {}
    out: list[Path] = []
    for path in paths:
        name = load_scenario(path).name
        prev = seen.get(name)
        if prev is None:
            seen[name] = path
            out.append(path)
        elif prev.resolve() != path.resolve():
            return out, (f"{prev} and {path} have the same scenario name {name!r}; their results and reports "
                         "would overwrite each other: give one of them another `name`")
    return out, None


# --------------------------------------------------------------------------- gamesim search
class ReportPathError(ValueError):
    """A report file that cannot be written (a folder, an unwritable place); one line naming it."""


def check_report_path(path: str | Path, *, pdf: bool = False) -> Path:
    """Check, before any work, that the search report (and its PDF) can be written at ``path``.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.html`` file to write.
    pdf : bool, default False
        Whether ``<path>.pdf`` is written too.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    ReportPathError
        If ``path`` (or the PDF's path) is a folder, its parent is a file, or the
        folder it would be written in cannot be created or written to.
    """
    path = Path(path)
    targets = [path] + ([path.with_suffix(".pdf")] if pdf else [])
    for t in targets:
        if t.is_dir():
            raise ReportPathError(f"--out {t}: is a folder; give a report file such as {t / 'search.html'}")
        if t.exists() and not os.access(t, os.W_OK):
            raise ReportPathError(f"--out {t}: the file is not writable")
    folder = path.parent
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ReportPathError(f"--out {path}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ReportPathError(f"--out {path}: cannot write in {existing} (permission denied)")
    return path


def search_cli(scenario: str | Path, *, seed: int | None = None, out: str | Path | None = None,
               pdf: bool = False, fresh: bool = False) -> int:
    """``gamesim search SCENARIO``: run the target search (and ``[sensitivity]``), print and write the report.

    Every simulated chunk is saved under ``.chunks`` in the report's folder as it completes, so the same
    command resumes an interrupted search (``fresh``: discard them first).

    Returns
    -------
    int
        0 on success (the CLI's exit status).

    Raises
    ------
    ScenarioError
        For an invalid scenario or target, before any work.
    ReportPathError
        If the report cannot be written where asked, before any work.
    """
    import warnings

    from gamesim.run.scenario import ScenarioError
    from gamesim.analysis.search import search
    from gamesim.analysis.sensitivity import parse_sensitivity, sensitivity_run
    from gamesim.analysis.target import load_target_scenario
    from gamesim.report.search_report import settings_overview, write_report

    sc, tgt, raw_sens = load_target_scenario(scenario)
    if tgt is None:
        raise ScenarioError(f"{scenario}: no [target] table: nothing to search")
    out = Path(out) if out is not None else Path("reports") / f"{sc.name}.search.html"
    check_report_path(out, pdf=pdf)
    with warnings.catch_warnings():  # the contradiction is printed in the summary below, once
        warnings.simplefilter("ignore", UserWarning)
        res = search(sc, tgt, seed=seed, progress=True, cache_root=out.parent / ".chunks", fresh=fresh)
    if res.chunks_reused:
        print(f"{sc.name}: resumed: {res.chunks_reused} saved chunks reused")
    print(res.summary())
    print(settings_overview(res).to_string(index=False, max_rows=60))
    sens = None
    if raw_sens is not None:
        spec = parse_sensitivity(raw_sens, sc, where=str(scenario))
        sens = sensitivity_run(sc, spec, seed=res.seed_entropy if seed is None else seed)
        print(sens.summary())
        print(sens.table().to_string(index=False))
    write_report(res, out, sensitivity=sens, pdf=pdf)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
