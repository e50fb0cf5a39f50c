"""Stale results and small boundary checks: data files in the question, consistent result sets,
target-search safety, and the argument checks of the Python API.

Each test states the case it guards against (issue: shared scenario and card files are never
answered from stale results). Sizes are tiny: a few hundred trials, a handful of chunks.
"""

from __future__ import annotations

import errno
import hashlib
import math
import os
import re
import signal
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import gamesim
from gamesim.core.api import Results, results_set_problem
from gamesim.core.registry import ParamError, get_game
from gamesim.core.results import ResultsError, load_results, run_id
from gamesim.core.scenario import ScenarioError, load_scenario
from gamesim.games.gacha_game.data import DATA_DIR

from .conftest import one_error_line

ROOT = Path(__file__).resolve().parents[2]
TARGET_GACHA = ROOT / "scenarios" / "targets" / "gacha_bag_n.toml"

#: A tiny whole-game gacha_game scenario reading a card file named by a relative path.
GG = """
name = "gg"
game = "gacha_game"
seed = 5
n_trials = 200
chunk_size = 100
[params]
data = "{data}"
[[parts]]
name = "p"
task = "game"
grid = {{ n_players = [2] }}
"""


def _cards(folder: Path, *, bag: str | None = None, name: str = "cards.toml") -> Path:
    """A copy of the built-in illustrative cards; ``bag`` replaces every bag (start and event bags)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (DATA_DIR / "illustrative.toml").read_text(encoding="utf-8")
    if bag is not None:
        text, n = re.subn(r"(?m)^bag = \[[^\]]*\]", f"bag = {bag}", text)
        assert n >= 1
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _gg(folder: Path, data: str = "cards.toml") -> Path:
    path = folder / "gg.toml"
    path.write_text(GG.format(data=data), encoding="utf-8")
    return path


def _consolete(results: Path) -> pd.Series:
    df, _ = load_results(results)
    return df[(df["metric"] == "consolete") & (df["statistic"] == "proportion")].iloc[0]


def _chunks_line(out: str) -> tuple[int, int]:
    m = re.search(r"\((\d+) chunks run, (\d+) reused", out)
    assert m, out
    return int(m.group(1)), int(m.group(2))


# --------------------------------------------------------------------------- data files are part of the question
def test_edited_data_file_recomputes_chunks_and_gives_new_numbers(cli, tmp_path):
    """Edit the card file, run again: its chunks are recomputed and the numbers follow the new cards.

    A bag of 50 God Chance chips, 0 SR and 1 N (every bag, also the event cards' bags) makes
    nearly every pull a God Chance: コンスリート in every game, where the illustrative cards give
    it in a minority of games.
    """
    cards = _cards(tmp_path / "study")
    path = _gg(tmp_path / "study")
    out = tmp_path / "out"
    code, so, err = cli("run", path, "--out-dir", out)
    assert code == 0, err
    assert _chunks_line(so) == (2, 0)
    before = _consolete(out / "gg.parquet")
    assert before["estimate"] < 0.6
    code, so, err = cli("run", path, "--out-dir", out)  # unchanged: every chunk reused
    assert code == 0 and _chunks_line(so) == (0, 2), err

    _cards(tmp_path / "study", bag="[50, 0, 1]")
    code, so, err = cli("run", path, "--out-dir", out)
    assert code == 0, err
    assert _chunks_line(so) == (2, 0)  # not "0 chunks run, 2 reused" with the old numbers
    after = _consolete(out / "gg.parquet")
    assert after["n"] == 200 and after["estimate"] >= 0.99 and after["ci_low"] > before["ci_high"]
    assert after["scenario_hash"] != before["scenario_hash"]
    _, meta = load_results(out / "gg.parquet")

    assert meta["data_files"] == [{"key": "params.data", "value": "cards.toml", "path": str(cards.resolve()),
                                   "sha256": hashlib.sha256(cards.read_bytes()).hexdigest()}]


def test_same_relative_data_path_in_two_folders_gives_each_its_own_results(cli, tmp_path, monkeypatch):
    """Two folders, one scenario name, one relative ``data`` path, one out-dir: each its own cards."""
    import gamesim.report.render as report

    a_cards, b_cards = _cards(tmp_path / "a"), _cards(tmp_path / "b", bag="[50, 0, 1]")
    a, b = _gg(tmp_path / "a"), _gg(tmp_path / "b")
    out = tmp_path / "out"
    seen = []

    def fake_render(notebook, res, scenario_path, out_dir, name, title=None):
        seen.append((_consolete(res), load_results(res)[0]["data"].iloc[0]))
        return out_dir / f"{name}.html", out_dir / f"{name}.pdf"

    monkeypatch.setattr(report, "render_report", fake_render)
    monkeypatch.chdir(tmp_path)  # neither folder is the working directory
    for path in (a, b):
        code, so, err = cli("report", path, "--out-dir", out)
        assert code == 0, err
        assert "up to date" not in so
    (ra, data_a), (rb, data_b) = seen
    assert data_a == str(a_cards.resolve()) and data_b == str(b_cards.resolve())
    assert ra["estimate"] < 0.6 and rb["estimate"] >= 0.99


def test_data_path_resolves_from_the_scenario_folder_whatever_the_working_directory(tmp_path, monkeypatch):
    cards = _cards(tmp_path / "study" / "cards")
    path = _gg(tmp_path / "study", data="cards/cards.toml")
    _cards(tmp_path / "elsewhere" / "cards", bag="[50, 0, 1]")  # a decoy where the cwd would look
    for cwd in (tmp_path / "elsewhere", tmp_path / "study", tmp_path):
        monkeypatch.chdir(cwd)
        sc = load_scenario(path)
        assert sc.parts[0].cells()[0]["data"] == str(cards.resolve())
        assert [d.path for d in sc.data_files] == [cards.resolve()]
    # a scenario given as a dict: relative to base_dir
    raw = {"game": "gacha_game", "n_trials": 10, "params": {"data": "cards/cards.toml"},
           "parts": [{"name": "p", "task": "game", "grid": {"n_players": [2]}}]}
    assert load_scenario(raw, base_dir=tmp_path / "study").data_files[0].path == cards.resolve()


def test_study_notebook_reads_the_card_file_the_sweep_read(tmp_path, monkeypatch):
    """The gacha_game study notebook's own line that picks the card file, run from another folder
    (the kernel's working directory is the notebook's): the resolved absolute path, no re-resolving."""
    import json

    nb = json.loads((ROOT / "notebooks" / "gacha_game.ipynb").read_text(encoding="utf-8"))
    lines = [ln for c in nb["cells"] if c["cell_type"] == "code" for ln in "".join(c["source"]).splitlines()
             if ln.startswith("data = ")]
    assert len(lines) == 1
    cards = _cards(tmp_path / "study")
    path = _gg(tmp_path / "study")
    monkeypatch.chdir(ROOT / "notebooks")
    scope = {"sc": load_scenario(path)}
    exec(lines[0], scope)
    assert scope["data"] == str(cards.resolve())


def test_run_summary_names_each_data_file_with_its_hash(cli, tmp_path):
    from gamesim.core.present import run_summary

    cards = _cards(tmp_path)
    out = tmp_path / "out"
    assert cli("run", _gg(tmp_path), "--out-dir", out, "--quiet")[0] == 0
    res = Results.load(out / "gg.parquet")
    table = run_summary(res.frame, res.meta)

    row = "data file cards.toml"  # as the scenario names it: the folders of the machine that ran it are not shown
    assert table.loc[row, "value"] == "sha256 " + hashlib.sha256(cards.read_bytes()).hexdigest()[:16]
    assert not any(str(tmp_path) in str(k) + str(v) for k, v in table["value"].items())
    res.meta["data_files"][0]["value"] = str(cards.resolve())  # an absolute path: its file name only
    assert "data file cards.toml" in run_summary(res.frame, res.meta).index
    other = {**res.meta["data_files"][0], "value": "/elsewhere/cards.toml", "sha256": "0" * 64}
    both = run_summary(res.frame, {**res.meta, "data_files": [res.meta["data_files"][0], other]}).index
    assert f"data file {cards.resolve()}" in both and "data file /elsewhere/cards.toml" in both  # one name, two files


@pytest.mark.parametrize("content, what", [(b"bag = [1, 5, 44]\n# \xff\xfe\n", "not UTF-8"),
                                           (None, "no such file")])
def test_unusable_data_file_exits_2_naming_the_file(cli, tmp_path, content, what):
    if content is not None:
        (tmp_path / "cards.toml").write_bytes(content)
    code, _, err = cli("run", _gg(tmp_path), "--out-dir", tmp_path / "out", "--quiet")
    line = one_error_line(err)
    assert code == 2 and "cards.toml" in line and what in line and "params.data" in line


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_data_file_exits_2_naming_the_file(cli, tmp_path):
    cards = _cards(tmp_path)
    cards.chmod(0)
    try:
        code, _, err = cli("run", _gg(tmp_path), "--out-dir", tmp_path / "out", "--quiet")
    finally:
        cards.chmod(0o644)
    line = one_error_line(err)
    assert code == 2 and "cards.toml" in line and "cannot read" in line


# --------------------------------------------------------------------------- companions carry the run id
def _run_seed(cli, scen_path: Path, out: Path, seed: int, fmt: str = "parquet") -> Path:
    code, _, err = cli("run", scen_path, "--out-dir", out, "--seed", seed, "--format", fmt, "--quiet")
    assert code == 0, err
    return out / f"small.{fmt}"


def test_companion_of_another_run_is_refused_and_report_recomputes(scen, cli, tmp_path, monkeypatch):
    import gamesim.report.render as report

    path, out = scen(), tmp_path / "out"
    main = _run_seed(cli, path, out, 11)
    dist = out / "small.dist.parquet"
    assert dist.is_file()
    old_dist = dist.read_bytes()
    old_meta = load_results(dist)[1]
    main = _run_seed(cli, path, out, 12)
    assert results_set_problem(main) is None
    assert load_results(dist)[1]["run_id"] == run_id(load_results(main)[1]) != old_meta["run_id"]
    dist.write_bytes(old_dist)  # an old seed's distributions beside the new results
    problem = results_set_problem(main)
    assert problem is not None and "small.dist.parquet" in problem
    with pytest.raises(ResultsError, match="small.dist.parquet"):
        Results.load(main)

    rendered = []
    monkeypatch.setattr(report, "render_report", lambda nb, res, sp, od, name, title=None:
                        rendered.append(Results.load(res)) or (od / "x.html", od / "x.pdf"))
    code, so, err = cli("report", path, "--out-dir", out, "--seed", 12)
    assert code == 0, err
    assert "up to date" not in so and "small.dist.parquet" in err
    res = rendered[0]
    assert res.meta["seed_entropy"] == "12" and load_results(dist)[1]["run_id"] == res.meta["run_id"]
    assert results_set_problem(main) is None


def test_interrupted_save_leaves_a_set_that_is_recognised(scen, cli, tmp_path, monkeypatch):
    """Disk full while writing the main file: the new companions beside the old main file are caught."""
    import gamesim.core.results as results_mod

    path, out = scen(), tmp_path / "out"
    main = _run_seed(cli, path, out, 11)
    real = results_mod.atomic_write

    def full_on_main(p, write):
        if Path(p).name == "small.parquet":
            raise OSError(errno.ENOSPC, "No space left on device", str(p))
        return real(p, write)

    monkeypatch.setattr(results_mod, "atomic_write", full_on_main)
    code, _, err = cli("run", path, "--out-dir", out, "--seed", 12, "--quiet")
    assert code == 1 and "small.parquet" in one_error_line(err)
    monkeypatch.undo()
    problem = results_set_problem(main)
    assert problem is not None and "small.dist.parquet" in problem
    with pytest.raises(ResultsError):
        Results.load(main)


def test_csv_companion_of_another_run_is_refused(scen, cli, tmp_path):
    path, out = scen(), tmp_path / "out"
    main = _run_seed(cli, path, out, 11, "csv")
    old = (out / "small.dist.csv").read_bytes()
    _run_seed(cli, path, out, 12, "csv")
    assert results_set_problem(main) is None
    res = Results.load(main)
    assert len(res.distributions) > 0 and res.meta["seed_entropy"] == "12"
    (out / "small.dist.csv").write_bytes(old)
    with pytest.raises(ResultsError, match="small.dist.csv"):
        Results.load(main)
    (out / "small.csv").write_bytes((out / "small.csv").read_bytes().replace(b"\n", b"\r\n", 1))
    assert "small.csv" in results_set_problem(main)


# --------------------------------------------------------------------------- search
def _gacha_exact(n: int) -> float:
    task = get_game("gacha").tasks["schedule"]
    return task.exact(task.defaults(session_size=1, total_pulls=200, bag_n=n))["complete:proportion"]


def test_wrong_monotone_warns_and_falls_back_to_the_grid():
    """``monotone = "increasing"`` on a decreasing metric: a warning, and every truly feasible
    setting is still found (exact solver: decisions are exact)."""
    from gamesim.core.search import search

    target = {"params": {"bag_n": {"min": 10, "max": 80}},
              "constraints": [{"metric": "complete", "low": 0.45, "high": 0.55, "monotone": "increasing"}]}
    with pytest.warns(UserWarning, match="contradict the declared monotonicity"):
        res = search(TARGET_GACHA, target=target)
    assert res.method != "bisect" and "inferred" not in set(res.settings["basis"])
    truth = {n for n in range(10, 81) if 0.45 <= _gacha_exact(n) <= 0.55}
    got = set(res.settings.loc[res.settings["status"] == "feasible", "bag_n"])
    assert truth and got == truth
    assert any("monotonicity" in n for n in res.notes)


def test_wrong_monotone_with_sampling_never_labels_feasible_settings_infeasible():
    from gamesim.core.search import search

    target = {"params": {"bag_n": {"min": 24, "max": 40, "step": 2}}, "use_exact": False, "alpha": 0.001,
              "n_start": 1000, "max_trials": 4000,
              "constraints": [{"metric": "complete", "low": 0.40, "high": 0.60, "monotone": "increasing"}]}
    with pytest.warns(UserWarning, match="monotonicity"):
        res = search(TARGET_GACHA, target=target, seed=None)
    assert res.method == "grid"
    for row in res.settings.itertuples():
        p = _gacha_exact(int(row.bag_n))
        if 0.40 < p < 0.60:
            assert row.status != "infeasible", (row.bag_n, p)


def test_right_monotone_still_bisects_without_warning():
    from gamesim.core.search import search

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = search(TARGET_GACHA)
    assert res.method == "bisect"


def test_search_ctrl_c_is_one_line_and_exit_130(cli, monkeypatch, tmp_path):
    import logging
    import sys
    import threading

    import gamesim.core.search as search_mod

    # the CLI silences late tracebacks and log lines after Ctrl-C: restore them for the other tests
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)

    def interrupted(*a, **k):
        os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, delivered mid-search
        time.sleep(5)
        raise AssertionError("SIGINT was not delivered")

    monkeypatch.setattr(search_mod, "search", interrupted)
    code, _, err = cli("search", TARGET_GACHA, "--out", tmp_path / "s.html")
    logging.disable(logging.NOTSET)
    line = one_error_line(err)
    assert code == 130 and "interrupted" in line
    assert not (tmp_path / "s.html").exists()


@pytest.mark.parametrize("kind", ["folder", "under_a_file", "pdf_folder"])
def test_search_out_is_checked_before_any_work(cli, monkeypatch, tmp_path, kind):
    import gamesim.core.search as search_mod

    monkeypatch.setattr(search_mod, "search", lambda *a, **k: pytest.fail("the search ran"))
    extra = []
    if kind == "folder":
        out = tmp_path / "reports"
        out.mkdir()
    elif kind == "under_a_file":
        (tmp_path / "afile").write_text("x")
        out = tmp_path / "afile" / "s.html"
    else:
        out = tmp_path / "s.html"
        (tmp_path / "s.pdf").mkdir()
        extra = ["--pdf"]
    code, _, err = cli("search", TARGET_GACHA, "--out", out, *extra)
    line = one_error_line(err)
    assert code == 2 and "--out" in line


# --------------------------------------------------------------------------- small items
SMALL_DICT = {"name": "tiny", "game": "godtear", "seed": 1, "n_trials": 20,
              "parts": [{"name": "w", "task": "damage_roll", "params": {"damage": 2}, "grid": {"protection": [0]}}]}


def test_api_n_jobs_far_too_large_is_refused_in_one_line(tmp_path):
    with pytest.raises(ParamError, match=r"^n_jobs = 1000000, must be an integer >= 1 and <= 1024$"):
        gamesim.sweep(SMALL_DICT, n_jobs=10**6, cache_root=tmp_path, progress=False)
    assert not any(tmp_path.iterdir())


def test_api_n_jobs_above_the_cores_is_capped_with_a_warning(tmp_path, monkeypatch):
    import gamesim.core.api as api

    monkeypatch.setattr(api, "available_cores", lambda: 1)
    with pytest.warns(UserWarning, match="n_jobs = 64 is more than the 1 CPU cores here; using 1"):
        res = gamesim.sweep(SMALL_DICT, n_jobs=64, cache_root=tmp_path, progress=False)
    assert res.meta["n_jobs"] == 1


@pytest.mark.parametrize("kw", [{"fresh": "yes"}, {"progress": "no"}, {"fresh": 1}, {"progress": None}])
def test_api_non_bool_flags_are_refused(tmp_path, kw):
    with pytest.raises(TypeError, match=f"^{next(iter(kw))} = .*, must be true or false"):
        gamesim.sweep(SMALL_DICT, cache_root=tmp_path, **kw)
    assert not any(tmp_path.iterdir())


def test_results_save_to_a_folder_is_refused(tmp_path):
    res = gamesim.sweep(SMALL_DICT, cache_root=tmp_path / "c", progress=False)
    folder = tmp_path / "res"
    folder.mkdir()
    with pytest.raises(ResultsError, match="is a folder"):
        res.save(folder)
    assert list(folder.iterdir()) == [] and not list(tmp_path.glob("res.*"))


@pytest.mark.parametrize("values", [[math.inf, 1.0], [1.0, -math.inf], np.array([np.inf])])
def test_estimate_refuses_infinite_values(values):
    with pytest.raises(ValueError, match=r"must be finite") as info:
        gamesim.estimate(values)
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match=r"must be finite"):
        gamesim.estimate(values, quantile=0.5)


def test_disk_full_message_names_the_file_being_written(scen, cli, tmp_path, monkeypatch):
    """The OS names no file for a failed write or fsync: the message still does (docs/reliability.md)."""
    import gamesim.core.results as results_mod

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results_mod.os, "fsync", full)
    code, _, err = cli("run", scen(), "--out-dir", tmp_path / "out", "--quiet")
    line = one_error_line(err)
    assert code == 1 and "no space left" in line
    m = re.search(r"writing (\S+);", line)
    assert m and str(tmp_path / "out") in m.group(1)  # the first file written: the chunk manifest
    assert Path(m.group(1)).suffix in (".json", ".parquet")


@pytest.mark.parametrize("grid", [[2, 3], [3, 2]])
def test_precision_metric_check_does_not_depend_on_grid_order(tmp_path, grid):
    cards = _cards(tmp_path)
    raw = {"game": "gacha_game", "n_trials": 10, "params": {"data": str(cards)},
           "parts": [{"name": "p", "task": "game", "grid": {"n_players": grid}}],
           "precision": {"metric": "win_seat3", "half_width": 0.1}}
    assert load_scenario(raw).precision.metric == "win_seat3"  # a metric of the 3-player cells
    raw["precision"]["metric"] = "win_seat4"  # no cell has a fourth seat
    with pytest.raises(ScenarioError, match="precision.metric = 'win_seat4'"):
        load_scenario(raw)


def test_an_edited_source_or_builtin_data_file_changes_the_cache_key(tmp_path, monkeypatch):
    """The chunk key carries the code: editing a simulator or a built-in card list never reuses old chunks."""
    import shutil

    import gamesim.core.fingerprint as fp
    from gamesim.core.scenario import load_scenario

    pkg = tmp_path / "gamesim"
    shutil.copytree(Path(fp.__file__).resolve().parent.parent, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(fp, "_PACKAGE", pkg)
    sc = load_scenario(ROOT / "tests" / "data" / "godtear_small.toml")
    keys = []
    for edit in (None, "games/godtear/sim.py", "games/gacha_game/data/illustrative.toml"):
        if edit:
            with open(pkg / edit, "a", encoding="utf-8") as fh:
                fh.write("\n# edited\n")
        fp.code_fingerprint.cache_clear()
        keys.append(sc.content_hash(1))
    fp.code_fingerprint.cache_clear()
    assert len(set(keys)) == 3


@pytest.mark.parametrize("parse", ["panzer_hexen.parse_cards", "mech_arena.parse_weapons", "kami_no_ikari.parse_board"])
def test_a_data_file_label_with_a_newline_still_gives_one_line(parse):
    """The three games that read data files name the file first in every message; a label holding a newline
    (parse_board's was drawn by the strict-API test and broke its message in two) is quoted."""
    import importlib

    game, name = parse.split(".")
    fn = getattr(importlib.import_module(f"gamesim.games.{game}"), name)
    with pytest.raises(Exception) as err:
        fn([], source="cards\nfile")
    assert "\n" not in str(err.value) and "'cards\\nfile'" in str(err.value)
