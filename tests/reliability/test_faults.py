"""Fault injection (issue 9): every case named in the issue, each with its specific outcome.

Chunks and manifests are damaged on disk, results files corrupted, names collided,
sizes exaggerated; each test asserts the exit code, the one-line message naming the
file or key, that the damaged chunk is recomputed, and that the final table is the
one an undamaged run gives.
"""

from __future__ import annotations

import errno
import json
import math
import shutil
import threading

import numpy as np
import pandas as pd
import pytest

from gamesim.core import results as results_mod
from gamesim.core.results import ResultsError, load_results, save_results
from gamesim.core.scenario import MAX_NAME_LENGTH, ScenarioError, load_scenario
from gamesim.core.sweep import MIN_TARGET_TRIALS, ChunkStore, run_sweep

from .conftest import one_error_line, scenario_text

# ---------------------------------------------------------------------------
# 1. precision targets are never met by a degenerate interval
# ---------------------------------------------------------------------------

PRECISION = """
name = "prec"
game = "godtear"
seed = 5
n_trials = 20
chunk_size = 20
[[parts]]
name = "wounds"
task = "damage_roll"
params = { protection = 1 }
grid = { damage = [0, 1] }
[precision]
metric = "wounds"
half_width = 5.0
max_trials = 400
"""


def test_zero_variance_first_chunk_never_meets_the_target(tmp_path, scen):
    sc = load_scenario(scen(PRECISION))
    t = run_sweep(sc, cache_root=tmp_path / "c", progress=False).table
    rows = t[(t.metric == "wounds") & (t.statistic == "mean")].set_index("damage")
    # damage 0: every trial deals 0 wounds; an all-equal sample bounds nothing, so the
    # target (however loose) is never met and the cell runs to max_trials
    zero = rows.loc[0]
    assert zero.n == 400 and not bool(zero.target_met)
    # wounds are >= 0 (the metric declares bounds = (0, inf)): the interval is [0, inf),
    # never the degenerate [0, 0] the issue saw
    assert zero.ci_low == 0 and zero.ci_high == math.inf
    # damage 1: a 20-trial pilot would already be "narrow enough" for half_width 5; the
    # two-stage plan still asks for about 200 informative values, so n stays above the minimum
    one = rows.loc[1]
    assert one.n >= MIN_TARGET_TRIALS and bool(one.target_met)
    assert (t.n >= 1).all()


def test_single_trial_cell_never_reports_a_zero_width_interval(tmp_path, scen):
    sc = load_scenario(scen(PRECISION.replace("n_trials = 20", "n_trials = 1").split("[precision]")[0]))
    t = run_sweep(sc, cache_root=tmp_path / "c", progress=False).table
    assert (t.n == 1).all()
    assert ((t.ci_high - t.ci_low) > 0).all(), t[["metric", "statistic", "ci_low", "ci_high"]]
    wounds = t[(t.metric == "wounds") & (t.statistic == "mean")]
    assert (wounds.ci_low >= 0).all() and (wounds.ci_high == math.inf).all()  # one trial bounds nothing above


# ---------------------------------------------------------------------------
# 2. two scenarios with one name
# ---------------------------------------------------------------------------


def test_metric_bounds_give_a_finite_rule_of_three_interval_for_all_equal_samples():
    """A declared finite range gives a finite, non-degenerate interval; the default gives an infinite one."""
    from gamesim.core.registry import Metric
    from gamesim.core.sweep import summarize_metric

    zeros = np.zeros(200)
    est = summarize_metric(Metric("w", "mean", bounds=(0.0, 4.0)), zeros)["mean"]
    p = 1 - 0.025 ** (1 / 200)  # Clopper-Pearson upper bound for 0 "other" values in 200 trials
    assert est.ci_low == 0 and est.ci_high == pytest.approx(4 * p) and est.ci_high > 0
    free = summarize_metric(Metric("w", "mean"), zeros)["mean"]
    assert free.ci_low == -math.inf and free.ci_high == math.inf


def test_report_refuses_two_files_with_one_name(scen, cli, tmp_path):
    a = scen(scenario_text("same"), "a.toml")
    b = scen(scenario_text("same", seed=12), "b.toml")
    code, _, err = cli("report", a, b, "--out-dir", tmp_path / "out", "--quiet")
    line = one_error_line(err)
    assert code == 2 and str(a) in line and str(b) in line and "'same'" in line
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.parquet"))


# ---------------------------------------------------------------------------
# 3. chunk integrity
# ---------------------------------------------------------------------------


def _run(path, root, **kw):
    return run_sweep(load_scenario(path), cache_root=root, progress=False, **kw)


def _copy_other_chunk(d):
    shutil.copyfile(d / "p0-c1-k2.parquet", d / "p0-c0-k1.parquet")


def _short_chunk(d):
    store = ChunkStore(d)  # a valid chunk file of the right key and entropy, but 10 rows
    store.open(11, {})
    store.write((0, 0, 1), {"wounds": np.zeros(10, np.int64), "any_wound": np.zeros(10, bool)})


def _truncate(d):
    f = d / "p0-c0-k1.parquet"
    f.write_bytes(f.read_bytes()[: f.stat().st_size // 2])


def _bit_flip(d):
    f = d / "p0-c0-k1.parquet"
    b = bytearray(f.read_bytes())
    b[len(b) // 3] ^= 0x10
    f.write_bytes(bytes(b))


def _empty_file(d):
    (d / "p0-c0-k1.parquet").write_bytes(b"")


@pytest.mark.parametrize("damage", [_copy_other_chunk, _short_chunk, _truncate, _bit_flip, _empty_file])
def test_damaged_chunk_is_discarded_and_recomputed(scen, tmp_path, capsys, damage):
    path = scen()
    clean = _run(path, tmp_path / "clean").table
    first = _run(path, tmp_path / "c")
    damage(first.cache_dir)
    capsys.readouterr()
    again = _run(path, tmp_path / "c")
    err = capsys.readouterr().err
    warnings = [ln for ln in err.splitlines() if "p0-c0-k1.parquet" in ln]
    assert len(warnings) == 1 and warnings[0].startswith("gamesim: warning:") and "recomputing" in warnings[0], err
    assert "Traceback" not in err
    assert again.chunks_run == 1 and again.chunks_reused == 8
    pd.testing.assert_frame_equal(again.table, clean)
    # the recomputed chunk is recorded: a third run reuses everything silently
    third = _run(path, tmp_path / "c")
    assert third.chunks_run == 0 and "warning" not in capsys.readouterr().err


def test_manifest_records_rows_and_hash_of_every_chunk(scen, tmp_path):
    res = _run(scen(), tmp_path / "c")
    manifest = json.loads((res.cache_dir / "manifest.json").read_text())
    assert manifest["seed_entropy"] == str(res.seed_entropy)
    assert len(manifest["chunks"]) == 9
    import hashlib

    for name, entry in manifest["chunks"].items():
        assert entry["rows"] == 100
        assert entry["sha256"] == hashlib.sha256((res.cache_dir / name).read_bytes()).hexdigest()


@pytest.mark.parametrize("content", [b"", b"{not json", b'{"seed_entropy": "x"}', b"[]"])
def test_empty_or_corrupt_manifest_does_not_block_later_runs(scen, tmp_path, capsys, content):
    path = scen()
    first = _run(path, tmp_path / "c")
    (first.cache_dir / "manifest.json").write_bytes(content)
    capsys.readouterr()
    again = _run(path, tmp_path / "c")
    err = capsys.readouterr().err
    assert "manifest.json" in err and err.count("\n") == 1 and "Traceback" not in err
    assert again.chunks_run == 0
    pd.testing.assert_frame_equal(again.table, first.table)
    json.loads((first.cache_dir / "manifest.json").read_text())  # rewritten whole


def test_manifest_write_failure_leaves_no_partial_manifest(scen, tmp_path, monkeypatch):
    path = scen()

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results_mod.os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space"):
        _run(path, tmp_path / "c")
    d = next((tmp_path / "c").iterdir())
    assert not (d / "manifest.json").exists() and not list(d.glob("*.tmp"))
    monkeypatch.undo()
    res = _run(path, tmp_path / "c")  # the next run is not blocked
    pd.testing.assert_frame_equal(res.table, _run(path, tmp_path / "clean").table)


def test_unseeded_run_with_manifest_deleted_never_mixes_entropies(scen, tmp_path, capsys):
    path = scen(scenario_text(seed=None))
    first = _run(path, tmp_path / "c")
    other = _run(path, tmp_path / "other")  # the same scenario with other fresh entropy
    assert other.seed_entropy != first.seed_entropy
    d = first.cache_dir
    (d / "manifest.json").unlink()
    (d / "p0-c2-k2.parquet").unlink()
    shutil.copyfile(other.cache_dir / "p0-c1-k0.parquet", d / "p0-c1-k0.parquet")  # a foreign chunk
    capsys.readouterr()
    again = _run(path, tmp_path / "c")
    err = capsys.readouterr().err
    assert again.seed_entropy == first.seed_entropy  # recovered from the chunks themselves
    assert "p0-c1-k0.parquet" in err and "entropy" in err
    assert again.chunks_run == 2
    pd.testing.assert_frame_equal(again.table, first.table)


# ---------------------------------------------------------------------------
# 5. size limits (core and CLI)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edit,key",
    [
        (("chunk_size = 100", "chunk_size = 1000000000"), "chunk_size"),
        (("n_trials = 300", "n_trials = 100000000000"), "n_trials"),
        (("grid = { protection = [0, 1, 3] }", "grid = { protection = [0, 1, 3] }\nn_trials = 99999999999"),
         "parts[0].n_trials"),
        (("grid = { protection = [0, 1, 3] }",
          "grid = { protection = " + str(list(range(81))) + ", die_blank = " + str(list(range(101)))
          + ", die_one = " + str(list(range(1, 20))) + " }"), "parts[0].grid"),
    ],
)
def test_sizes_that_would_exhaust_memory_are_refused(scen, cli, tmp_path, edit, key):
    path = scen(scenario_text().replace(*edit))
    code, _, err = cli("run", path, "--out-dir", tmp_path, "--quiet")
    line = one_error_line(err)
    assert code == 2 and str(path) in line and key in line, line


def test_precision_max_trials_cap(scen):
    with pytest.raises(ScenarioError, match=r"precision\.max_trials = 20000000000"):
        load_scenario(scen(scenario_text() + "[precision]\nmetric='wounds'\nhalf_width=0.1\nmax_trials=20000000000\n"))


def test_n_jobs_far_above_the_cores_is_capped_with_a_note(scen, cli, tmp_path):
    code, _, err = cli("run", scen(), "--out-dir", tmp_path, "--quiet", "--n-jobs", "1000")
    assert code == 0
    notes = [ln for ln in err.splitlines() if "--n-jobs 1000" in ln]
    assert len(notes) == 1 and "CPU cores" in notes[0]
    _, meta = load_results(tmp_path / "small.parquet")
    assert meta["n_jobs"] < 1000


@pytest.mark.parametrize("exc", [MemoryError(), OverflowError("int too large to convert"), RecursionError("deep")])
def test_memory_overflow_recursion_errors_are_one_line(scen, cli, tmp_path, monkeypatch, exc):
    import gamesim.core.sweep as sweep

    def boom(*a, **k):
        raise exc

    monkeypatch.setattr(sweep, "run_sweep", boom)
    code, _, err = cli("run", scen(), "--out-dir", tmp_path, "--quiet")
    line = one_error_line(err)
    assert code == 2 and "docs/reliability.md" in line


def test_disk_full_is_one_line_with_the_resume_hint(scen, cli, tmp_path, monkeypatch):
    import gamesim.core.sweep as sweep

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "x.parquet"))

    monkeypatch.setattr(sweep, "run_sweep", full)
    code, _, err = cli("run", scen(), "--out-dir", tmp_path, "--quiet")
    line = one_error_line(err)
    assert code == 1 and "no space left" in line and "x.parquet" in line and "resume" in line


# ---------------------------------------------------------------------------
# 7. results files, --out, temp names, names and grids
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"", b"PAR1 this is not parquet", None])
def test_corrupt_results_file_is_regenerated_by_report(scen, cli, tmp_path, monkeypatch, content):
    import gamesim.report.render as report

    path, out = scen(), tmp_path / "out"
    assert cli("run", path, "--out-dir", out, "--quiet")[0] == 0
    results = out / "small.parquet"
    good, _ = load_results(results)
    if content is None:  # truncated mid-file
        results.write_bytes(results.read_bytes()[:-100])
    else:
        results.write_bytes(content)
    with pytest.raises(ResultsError, match="small.parquet"):
        load_results(results)
    rendered = []

    def fake_render(notebook, res, scenario_path, out_dir, name, title=None):
        rendered.append(load_results(res)[0])  # the report reads a whole, regenerated file
        return out_dir / f"{name}.html", out_dir / f"{name}.pdf"

    monkeypatch.setattr(report, "render_report", fake_render)
    code, _, err = cli("report", path, "--out-dir", out, "--quiet")
    assert code == 0, err
    assert "small.parquet" in err and "regenerating" in err and "Traceback" not in err
    pd.testing.assert_frame_equal(rendered[0], good)


def test_out_pointing_at_a_folder_is_refused_without_temp_files(scen, cli, tmp_path):
    folder = tmp_path / "results_dir"
    folder.mkdir()
    code, _, err = cli("run", scen(), "--out", folder, "--out-dir", tmp_path, "--quiet")
    line = one_error_line(err)
    assert code == 2 and str(folder) in line
    assert list(folder.iterdir()) == [] and not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))
    with pytest.raises(ResultsError, match="is a folder"):
        save_results(pd.DataFrame({"a": [1]}), folder, {})
    assert list(folder.iterdir()) == []


def test_concurrent_writers_use_unique_temp_names(tmp_path):
    target = tmp_path / "r.parquet"
    tables = [pd.DataFrame({"x": np.full(2000, i)}) for i in range(8)]
    errors: list[BaseException] = []

    def write(i):
        try:
            for _ in range(5):
                save_results(tables[i], target, {"writer": i})
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    df, meta = load_results(target)  # whole: one writer's table and its own metadata
    pd.testing.assert_frame_equal(df, tables[meta["writer"]])
    assert [p.name for p in tmp_path.iterdir()] == ["r.parquet"]


BAD_NAMES = ["tab\there", "new\nline", "nul\x00char", "x" * (MAX_NAME_LENGTH + 1), " padded"]


@pytest.mark.parametrize("bad", BAD_NAMES, ids=["tab", "newline", "nul", "too_long", "padded"])
@pytest.mark.parametrize("where", ["scenario", "part"])
def test_bad_names_are_refused(scen, cli, tmp_path, bad, where):
    text = scenario_text()
    escaped = json.dumps(bad)  # a TOML basic string with \t, \n, \u0000 escapes
    text = text.replace('name = "small"', f"name = {escaped}") if where == "scenario" else text.replace(
        'name = "wounds"', f"name = {escaped}")
    path = scen(text)
    code, _, err = cli("run", path, "--out-dir", tmp_path, "--quiet")
    line = one_error_line(err)
    assert code == 2 and str(path) in line and ("parts[0].name" if where == "part" else " name = ") in line
    assert "\x00" not in line and "\t" not in line


def test_duplicate_grid_values_are_an_error(scen, cli, tmp_path):
    path = scen(scenario_text().replace("[0, 1, 3]", "[0, 1, 1]"))
    code, _, err = cli("run", path, "--out-dir", tmp_path, "--quiet")
    line = one_error_line(err)
    assert code == 2 and "parts[0].grid.protection[2] = 1" in line and "twice" in line


def test_a_key_in_both_part_params_and_grid_is_an_error(scen, cli, tmp_path):
    path = scen(scenario_text().replace("params = { damage = 2 }", "params = { damage = 2, protection = 4 }"))
    code, _, err = cli("run", path, "--out-dir", tmp_path, "--quiet")
    line = one_error_line(err)
    assert code == 2 and "parts[0].params.protection" in line and "parts[0].grid.protection" in line


def test_chunk_files_are_not_fsynced_and_the_manifest_is(scen, tmp_path, monkeypatch):
    """Chunk files skip the two fsync calls (they are checked before use); manifest.json keeps them."""
    import os
    from pathlib import Path

    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to name the file an fsync is for")
    synced: list[str] = []
    real = results_mod.os.fsync

    def record(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(results_mod.os, "fsync", record)
    res = _run(scen(), tmp_path / "c")
    assert res.chunks_run > 1 and len(list(res.cache_dir.glob("*.parquet"))) == res.chunks_run
    assert synced and not [p for p in synced if p.endswith(".parquet") or ".parquet." in p]
    assert any("manifest.json" in p for p in synced)  # its temporary file, before the rename


def test_atomic_write_without_durability_still_replaces_whole(tmp_path, monkeypatch):
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")

    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(results_mod.os, "fsync", broken)
    results_mod.atomic_write(target, lambda fh: fh.write(b"new"), durable=False)  # no fsync called
    assert target.read_bytes() == b"new"
    with pytest.raises(OSError, match="Input/output") as info:  # durable: the fsync fails, the old file stays
        results_mod.atomic_write(target, lambda fh: fh.write(b"newer"))
    assert info.value.filename == str(target) and target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]  # no temporary file left

    def half(fh):
        fh.write(b"par")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        results_mod.atomic_write(target, half, durable=False)
    assert target.read_bytes() == b"new" and [p.name for p in tmp_path.iterdir()] == ["f.bin"]
    for bad in (1, None, "yes"):
        with pytest.raises(TypeError, match=r"durable = .*must be True or False"):
            results_mod.atomic_write(target, lambda fh: fh.write(b"x"), durable=bad)
