"""Tidy results on disk: one parquet file per scenario, next to its report.

The table (columns in :class:`gamesim.run.sweep.SweepResult`) is written with
the run's metadata (seed entropy, scenario hash, version, timing, backend) in
the parquet schema metadata under the key ``gamesim``, so a results file alone
says how to reproduce it.

Files are written atomically (:func:`atomic_write`): a temporary file with a
name unique to the process and call, flushed and ``fsync``-ed, then renamed over
the destination; a crash, a full disk or a concurrent run leaves either the old
file or the new one, never a half-written one, and no stray temporary file.

A results set is the main file and its companions (``X.compare.*``, ``X.dist.*``, and
``X.meta.json`` for CSV; :func:`results_paths`); :func:`results_set_problem` checks that they come
from one run. :class:`gamesim.api.Results` loads and saves sets through these functions (and
re-exports the two names).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["TIDY_COLUMNS", "ResultsError", "save_results", "load_results", "atomic_write", "lists_to_tuples", "run_id",
           "file_sha256", "results_paths", "results_set_problem"]

_META_KEY = b"gamesim"

#: The columns of the tidy results table (:attr:`gamesim.run.sweep.SweepResult.table`) that are
#: not parameters: the labels of a row (``scenario``, ``part``, ``task``, ``cell``, ``case``,
#: ``metric``, ``statistic``), its estimate (:class:`~gamesim.core.stats.Estimate`'s ``n``,
#: ``estimate``, ``se``, ``ci_low``, ``ci_high``), ``exact``, ``n_chunks``, ``spawn_key``,
#: ``target_met``, and the run's ``seed_entropy``, ``scenario_hash`` and ``gamesim_version``.
#: Every other column is a parameter of the cell. The one list: the sweep
#: (:func:`gamesim.run.sweep.run_sweep`, which types the parameter columns) and
#: :meth:`gamesim.api.Results.dims` both read it.
TIDY_COLUMNS: frozenset[str] = frozenset(
    {"scenario", "part", "task", "cell", "case", "metric", "statistic", "n", "estimate", "se", "ci_low", "ci_high",
     "exact", "n_chunks", "spawn_key", "target_met", "seed_entropy", "scenario_hash", "gamesim_version"}
)


class ResultsError(ValueError):
    """A results file that cannot be written or read; the message names the file."""


def atomic_write(path: str | Path, write: Callable[[IO[bytes]], Any], *, durable: bool = True) -> Path:
    """Write ``path`` atomically: unique temporary file, fsync, rename.

    Parameters
    ----------
    path : str or pathlib.Path
        Destination file; its folder must exist.
    write : callable
        Called with the temporary file opened in binary mode; writes the content.
    durable : bool, default True
        ``fsync`` the file before the rename and its folder after it, so that the new content
        survives an operating-system crash or a power cut. With ``False`` the write is still
        atomic for any process (a killed process leaves the old content or the new, never part
        of it) but a power cut may leave the file empty or old: for files that are checked
        before use and recomputed when damaged (the sweep's chunk files), where the two
        ``fsync`` calls cost more than the rest of the write.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    TypeError
        If ``durable`` is not a bool.
    IsADirectoryError
        If ``path`` is a folder (nothing is written).
    OSError
        If writing fails (e.g. a full disk); the temporary file is removed and
        the previous content of ``path``, if any, is left untouched. The
        error's ``filename`` is set (the destination, when the failing call
        named none), so a message can say which file was being written.
    """
    if not isinstance(durable, bool):
        raise TypeError(f"durable = {durable!r}, must be True or False")
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path}: is a folder, not a file")
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:12]}.tmp")
    try:
        with open(tmp, "wb") as fh:
            write(fh)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if exc.filename is None:  # a failed write() or fsync() names no file: name the destination
            raise OSError(exc.errno or errno.EIO, exc.strerror or str(exc), str(path)) from exc
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if not durable:
        return path
    with contextlib.suppress(OSError):  # make the rename itself durable (best effort)
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return path


def save_results(table: pd.DataFrame, path: str | Path, meta: dict[str, Any]) -> Path:
    """Write a tidy results table and its run metadata to parquet.

    Parameters
    ----------
    table : pandas.DataFrame
        Tidy results (one row per part, cell, metric and statistic).
    path : str or pathlib.Path
        Destination ``.parquet`` file; parent folders are created.
    meta : dict
        JSON-serialisable run metadata (``seed_entropy`` as a string: it can
        exceed 64 bits).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    ResultsError
        If ``path`` is an existing folder (nothing is written, no temporary file
        is left).
    OSError
        If writing fails; the previous file, if any, is left untouched.
    """
    path = Path(path)
    if path.is_dir():
        raise ResultsError(f"{path}: is a folder; give a results file name such as {path / 'results.parquet'}")
    path.parent.mkdir(parents=True, exist_ok=True)
    arrow = pa.Table.from_pandas(table, preserve_index=False)
    merged = dict(arrow.schema.metadata or {})
    merged[_META_KEY] = json.dumps(meta, default=str).encode()
    arrow = arrow.replace_schema_metadata(merged)
    return atomic_write(path, lambda fh: pq.write_table(arrow, fh))


def load_results(path: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Read a results file written by :func:`save_results`.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.parquet`` file.

    Returns
    -------
    (pandas.DataFrame, dict)
        The tidy table and the run metadata (empty dict if absent). List-valued
        parameters come back as tuples (nested for pairs), as the sweep made
        them: hashable, so they can be grouped and filtered on.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ResultsError
        If the file is empty, truncated or otherwise not a readable results file
        (the message names it; ``gamesim report`` regenerates such a file).
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such results file")
    try:
        arrow = pq.read_table(path)
        raw = (arrow.schema.metadata or {}).get(_META_KEY)
        meta = json.loads(raw) if raw else {}
        if not isinstance(meta, dict):
            raise ValueError("metadata is not a JSON object")
        return lists_to_tuples(arrow.to_pandas()), meta
    except (OSError, ValueError, pa.ArrowException) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ResultsError(f"{path}: not a readable results file ({msg})") from None


def lists_to_tuples(df: pd.DataFrame) -> pd.DataFrame:
    """Turn list cells (numpy arrays or lists, as parquet list columns read back) into tuples, in place.

    Returns
    -------
    pandas.DataFrame
        ``df`` itself.
    """

    def conv(v: Any) -> Any:
        if isinstance(v, np.ndarray):
            return tuple(conv(x) for x in v.tolist())
        if isinstance(v, list):
            return tuple(conv(x) for x in v)
        return v

    for c in df.columns:
        if df[c].dtype == object and df[c].map(lambda v: isinstance(v, (np.ndarray, list))).any():
            df[c] = df[c].map(conv)
    return df


def run_id(meta: dict[str, Any]) -> str:
    """The identity of a run: its scenario hash (scenario, data files, seed, version) and seed entropy.

    Every file of one results set (the main table and its ``.compare`` / ``.dist``
    companions) carries it, so a companion left by another run is recognised.

    Returns
    -------
    str
        ``"<scenario_hash[:16]>-<seed_entropy>"``; ``""`` when the metadata has neither.
    """
    h, e = meta.get("scenario_hash"), meta.get("seed_entropy")
    if h is None and e is None:
        return ""
    return f"{str(h)[:16]}-{e}"


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes (read in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def results_paths(path: str | Path) -> dict[str, Path]:
    """The files of one results set: ``X.parquet`` and its ``X.compare.*`` and ``X.dist.*`` companions.

    Parameters
    ----------
    path : str or pathlib.Path
        The main results file (``.parquet`` or ``.csv``).

    Returns
    -------
    dict
        ``{"results": ..., "compare": ..., "distributions": ..., "meta": ...}``
        (``meta`` is the JSON side file written with CSV results).
    """
    p = Path(path)
    stem, suffix = p.with_suffix(""), p.suffix or ".parquet"
    return {
        "results": p,
        "compare": Path(f"{stem}.compare{suffix}"),
        "distributions": Path(f"{stem}.dist{suffix}"),
        "meta": Path(f"{stem}.meta.json"),
    }


def results_set_problem(path: str | Path) -> str | None:
    """Why a results set on disk is not one consistent set, or ``None`` when it is.

    Each file of a set is written with the run id (:func:`run_id`:
    scenario and data-file hash plus seed entropy) of the run, and the main file
    (CSV: its ``.meta.json``, written last) records the SHA-256 of every companion
    written with it. A companion from another run (a disk-full or killed save, a
    run with another seed) is caught here, never used.

    Parameters
    ----------
    path : str or pathlib.Path
        The main results file (``.parquet`` or ``.csv``).

    Returns
    -------
    str or None
        One line naming the file that does not belong (or cannot be read).
    """
    files = results_paths(path)
    main = files["results"]
    try:
        if main.suffix == ".csv":
            if not files["meta"].is_file():
                for key in ("compare", "distributions"):
                    if files[key].is_file():
                        return f"{files[key]}: cannot be checked against {main.name}: {files['meta'].name} is missing"
                return None  # a bare table (no metadata, no companions)
            meta = json.loads(files["meta"].read_text(encoding="utf-8"))
            if not isinstance(meta, dict):
                return f"{files['meta']}: not a JSON object"
            want = meta.get("results_sha256")
            if want is not None and file_sha256(main) != want:
                return f"{main}: does not match {files['meta'].name} (written by another run)"
        else:
            meta = load_results(main)[1]
    except (OSError, ValueError, ResultsError) as exc:
        return str(exc).splitlines()[0]
    rid = run_id(meta)
    recorded = meta.get("companions")
    for key in ("compare", "distributions"):
        f = files[key]
        if isinstance(recorded, dict):
            if key not in recorded:
                continue  # not written with these results: never read (Results.load skips it)
            if not f.is_file():
                return f"{f}: missing (written with {main.name}, run {rid})"
            if file_sha256(f) != recorded[key]:
                return f"{f}: not the file written with {main.name} (run {rid}): a leftover of another run"
        elif f.is_file() and f.suffix == ".parquet":  # files written before run ids: compare the runs
            try:
                other = run_id(load_results(f)[1])
            except ResultsError as exc:
                return str(exc)
            if other != rid:
                return f"{f}: from run {other or '?'}, not {main.name}'s run {rid}: a leftover of another run"
    return None
