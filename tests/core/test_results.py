"""Unit tests of gamesim.core.results: the tidy results file on disk.

Every expected value comes from the construction of the test (the table and metadata written),
never from a run's output.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gamesim.core.results import (
    ResultsError,
    atomic_write,
    file_sha256,
    lists_to_tuples,
    load_results,
    run_id,
    save_results,
)


def _tidy() -> pd.DataFrame:
    """A small tidy table: list-valued parameters (a flat one and pairs), ints, floats and strings."""
    return pd.DataFrame({
        "part": ["a", "a", "b"],
        "cell": [0, 1, 0],
        "sessions": [[5, 5], [10], [2, 3, 4]],
        "pairs": [[[1, 2], [3, 4]], [[5, 6]], []],
        "metric": ["p_win", "p_win", "mean_rounds"],
        "stat": ["mean", "mean", "mean"],
        "value": [0.25, 0.5, 7.125],
        "n_trials": [200, 200, 100],
    })


META = {"seed_entropy": str(2**70 + 3), "scenario_hash": "ab" * 32, "version": "0.0.test",
        "backend": "process", "elapsed_s": 1.5, "nested": {"k": [1, 2]}}


def test_save_load_round_trip(tmp_path: Path) -> None:
    path = save_results(_tidy(), tmp_path / "deep" / "folder" / "results.parquet", META)
    assert path == tmp_path / "deep" / "folder" / "results.parquet" and path.is_file()  # parents created
    table, meta = load_results(path)
    assert meta == META  # a seed entropy wider than 64 bits survives as a string
    assert list(table.columns) == list(_tidy().columns)
    assert table["sessions"].tolist() == [(5, 5), (10,), (2, 3, 4)]  # lists come back as tuples
    assert table["pairs"].tolist() == [((1, 2), (3, 4)), ((5, 6),), ()]  # pairs as nested tuples
    hash(tuple(table["pairs"]))  # hashable: can be grouped and filtered on
    assert table["value"].tolist() == [0.25, 0.5, 7.125]  # exact in binary: no tolerance needed
    assert table["n_trials"].tolist() == [200, 200, 100]
    assert table["part"].tolist() == ["a", "a", "b"]
    assert table.groupby("sessions").size().to_dict() == {(5, 5): 1, (10,): 1, (2, 3, 4): 1}


def test_metadata_not_json_native_is_stored_as_text(tmp_path: Path) -> None:
    path = save_results(_tidy(), tmp_path / "r.parquet", {"where": tmp_path})
    assert load_results(path)[1] == {"where": str(tmp_path)}


def test_file_without_gamesim_metadata_reads_with_empty_meta(tmp_path: Path) -> None:
    path = tmp_path / "plain.parquet"
    pd.DataFrame({"x": [1, 2]}).to_parquet(path)
    table, meta = load_results(path)
    assert meta == {} and table["x"].tolist() == [1, 2]


def test_overwrite_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "results.parquet"
    save_results(_tidy(), path, META)
    save_results(_tidy().iloc[:1], path, {"seed_entropy": "1"})
    table, meta = load_results(path)
    assert len(table) == 1 and meta == {"seed_entropy": "1"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.parquet"]


def test_atomic_write_failure_keeps_old_content_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "f.bin"
    atomic_write(path, lambda fh: fh.write(b"old"))
    assert path.read_bytes() == b"old"

    def half_then_fail(fh) -> None:  # type: ignore[no-untyped-def]
        fh.write(b"half-written")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError) as exc:
        atomic_write(path, half_then_fail)
    assert exc.value.filename == str(path)  # the error names the file being written
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]

    def interrupted(fh) -> None:  # type: ignore[no-untyped-def]
        fh.write(b"x")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # an interrupt (Ctrl-C) also cleans up
        atomic_write(path, interrupted)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.bin"]


def test_a_folder_is_refused_and_nothing_written(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(ResultsError, match="is a folder"):
        save_results(_tidy(), folder, META)
    with pytest.raises(IsADirectoryError):
        atomic_write(folder, lambda fh: fh.write(b"x"))
    assert list(folder.iterdir()) == [] and [p.name for p in tmp_path.iterdir()] == ["out"]


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such results file"):
        load_results(tmp_path / "absent.parquet")
    empty = tmp_path / "empty.parquet"
    empty.write_bytes(b"")
    with pytest.raises(ResultsError, match="empty.parquet: not a readable results file"):
        load_results(empty)
    good = save_results(_tidy(), tmp_path / "good.parquet", META)
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(ResultsError, match="cut.parquet"):
        load_results(cut)


def test_metadata_that_is_not_an_object_is_refused(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrow = pa.table({"x": [1]}).replace_schema_metadata({b"gamesim": json.dumps([1, 2]).encode()})
    path = tmp_path / "list_meta.parquet"
    pq.write_table(arrow, path)
    with pytest.raises(ResultsError, match="metadata is not a JSON object"):
        load_results(path)


def test_lists_to_tuples_in_place() -> None:
    df = pd.DataFrame({"a": [np.array([1, 2]), [3, [4, 5]], 6], "b": ["x", "y", "z"], "c": [1.0, 2.0, 3.0]})
    out = lists_to_tuples(df)
    assert out is df
    assert df["a"].tolist() == [(1, 2), (3, (4, 5)), 6]
    assert df["b"].tolist() == ["x", "y", "z"] and df["c"].tolist() == [1.0, 2.0, 3.0]


def test_run_id() -> None:
    h = "0123456789abcdef" * 4
    assert run_id({"scenario_hash": h, "seed_entropy": "42"}) == "0123456789abcdef-42"
    assert run_id({}) == ""
    assert run_id({"version": "1"}) == ""
    assert run_id({"seed_entropy": 7}) == "None-7"  # one of the two is enough to name a run
    assert run_id({"scenario_hash": h}) == "0123456789abcdef-None"
    # two runs of one scenario differ by their seed; two scenarios at one seed by their hash
    assert run_id({"scenario_hash": h, "seed_entropy": 1}) != run_id({"scenario_hash": h, "seed_entropy": 2})
    assert run_id({"scenario_hash": "a" * 16, "seed_entropy": 1}) != run_id({"scenario_hash": "b" * 16,
                                                                              "seed_entropy": 1})


def test_file_sha256(tmp_path: Path) -> None:
    data = bytes(range(256)) * 5000  # > 1 MiB: read in more than one block
    path = tmp_path / "blob"
    path.write_bytes(data)
    assert file_sha256(path) == hashlib.sha256(data).hexdigest()
