"""The unit of work of a sweep: one chunk of trials, run and summarised in the worker.

Kept apart from :mod:`gamesim.run.sweep` so that a joblib or Dask worker imports
only what a chunk needs (numpy, pyarrow, the registry and the game), not pandas,
scipy or the sweep's bookkeeping: worker start-up is part of every parallel run.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.events import add_events
from gamesim.core.registry import get_game
from gamesim.core.rng import child_seed
from gamesim.core.summary import ColumnSummary, summarize_column

__all__ = ["CHUNK_META", "run_chunk", "run_chunk_summary", "encode_chunk", "summarize_chunk", "watch_parent"]

#: Parquet schema-metadata key of a chunk file (entropy, spawn key, rows).
CHUNK_META = b"gamesim_chunk"


def run_chunk(
    game: str,
    task: str,
    params: Mapping[str, Any],
    n_trials: int,
    entropy: int,
    key: tuple[int, ...],
    tag: tuple[int, ...] | None = None,
    events: tuple[str, ...] = (),
) -> tuple[tuple[int, ...], dict[str, npt.NDArray[Any]]]:
    """Run one chunk of trials.

    Parameters
    ----------
    game, task : str
        Registered game and task names (looked up in the worker).
    params : Mapping
        The cell's resolved parameters.
    n_trials : int
        Trials in this chunk.
    entropy : int
        Root seed entropy of the run.
    key : tuple of int
        Spawn key ``(part, seed group, chunk)``; the chunk's generator is
        ``default_rng(SeedSequence(entropy, spawn_key=key))``. The seed group is
        the cell index, or, with common random numbers, an index shared by the
        cells being compared (:meth:`gamesim.run.scenario.Part.seed_groups`).
    tag : tuple of int, optional
        Returned instead of ``key`` (the sweep passes the chunk's file key
        ``(part, cell, chunk)``).
    events : tuple of str, default ()
        Event metrics (``"at_least(wounds, 2)"``...; :mod:`gamesim.core.events`)
        added as boolean arrays right after the task runs, before the chunk is
        summarised.

    Returns
    -------
    (tuple of int, dict of str to ndarray)
        ``tag`` (or ``key``) and the per-trial metric values, each of shape
        ``(n_trials,)``.
    """
    t = get_game(game).tasks[task]
    rng = np.random.default_rng(child_seed(entropy, key))
    out = t.simulate(dict(params), n_trials, rng=rng)
    if events:  # derived per-trial booleans, before anything is summarised
        out = add_events(out, events)
    return (key if tag is None else tag), {k: np.asarray(v) for k, v in out.items()}


def encode_chunk(arrays: Mapping[str, npt.NDArray[Any]], entropy: int, key: tuple[int, ...]) -> tuple[bytes, int]:
    """A chunk's parquet file content (page checksums; entropy, key and rows in its metadata).

    Returns
    -------
    (bytes, int)
        The file's bytes and its row count.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = {k: np.asarray(v) for k, v in arrays.items()}
    rows = len(next(iter(cols.values()))) if cols else 0
    meta = {"entropy": str(entropy), "key": list(key), "rows": rows}
    table = pa.Table.from_arrays([_arrow(v) for v in cols.values()], names=list(cols))
    table = table.replace_schema_metadata({CHUNK_META: json.dumps(meta).encode()})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, write_page_checksum=True)
    return sink.getvalue().to_pybytes(), rows


def _arrow(v: npt.NDArray[Any]) -> Any:
    """A numpy column as an Arrow array, from its buffer (``pa.array`` would import pandas in the worker)."""
    import pyarrow as pa

    a = np.ascontiguousarray(v.ravel())
    if a.dtype.kind == "b":
        return pa.Array.from_buffers(pa.bool_(), a.size, [None, pa.py_buffer(np.packbits(a, bitorder="little"))])
    if a.dtype.kind in "iuf" and a.dtype.byteorder in "=|":
        return pa.Array.from_buffers(pa.from_numpy_dtype(a.dtype), a.size, [None, pa.py_buffer(a)])
    return pa.array(a)


def summarize_chunk(arrays: Mapping[str, npt.NDArray[Any]]) -> dict[str, ColumnSummary]:
    """Every metric column of a chunk reduced to its :class:`~gamesim.core.summary.ColumnSummary`."""
    return {name: summarize_column(v) for name, v in arrays.items()}


def run_chunk_summary(
    game: str,
    task: str,
    params: Mapping[str, Any],
    n_trials: int,
    entropy: int,
    key: tuple[int, ...],
    tag: tuple[int, ...],
    events: tuple[str, ...] = (),
) -> tuple[tuple[int, ...], bytes, int, dict[str, ColumnSummary]]:
    """Run one chunk and summarise it where it ran (the unit of work a sweep sends to workers).

    Parameters are those of :func:`run_chunk` (event metrics are added before the
    chunk is summarised, so they are metrics like any other); ``tag`` is the chunk's file key
    ``(part, cell, chunk)`` and names it in the file's metadata.

    Returns
    -------
    (tuple of int, bytes, int, dict of str to ColumnSummary)
        ``tag``, the chunk file's content (:func:`encode_chunk`, written to the
        chunk store by the main process so an interrupted sweep resumes), its row
        count and the per-metric summaries.
    """
    _, arrays = run_chunk(game, task, params, n_trials, entropy, key, events=events)
    blob, rows = encode_chunk(arrays, entropy, tag)
    return tag, blob, rows, summarize_chunk(arrays)


def watch_parent(owner: int) -> None:
    """Worker initializer: exit as soon as the sweep's process (``owner``) is gone.

    loky worker processes would otherwise outlive a parent killed by ``SIGKILL``
    for minutes (until their idle timeout). :func:`gamesim.run.sweep.compute_backend` passes this as
    the loky executor's initializer with the sweep's pid: each worker starts one
    daemon thread that polls its parent pid twice a second and calls ``os._exit``
    once it is no longer ``owner`` (the worker was re-parented).

    It lives here, with what a worker runs, because a worker imports the initializer's module before
    its first chunk: from :mod:`gamesim.run.sweep` it imported pandas, pyarrow and scipy too (0.3-0.4 s
    of every worker's start).

    Parameters
    ----------
    owner : int
        Process id of the sweep's process (``os.getpid()`` there).
    """
    if os.getpid() == owner:
        return

    def watch() -> None:
        while os.getppid() == owner:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="gamesim-parent-watch", daemon=True).start()
