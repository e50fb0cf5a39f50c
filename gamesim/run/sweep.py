"""Parameter sweeps: grid cells x chunks of trials through ``joblib.Parallel``.

A scenario's parts are expanded into cells (the Cartesian product of each part's
grid) and every cell into chunks of ``chunk_size`` trials. Chunk ``k`` of cell
``c`` of part ``p`` always draws its random numbers from the child seed at spawn
key ``(p, c, k)`` of the run's root ``SeedSequence`` (:mod:`gamesim.core.rng`),
so the results are identical whatever ``n_jobs``, backend (loky, threading, a
Dask cluster) or order the chunks run in.

Every finished chunk is written to disk (parquet, atomically) the moment it
comes back, under a cache folder keyed by the scenario's content hash: an
interrupted sweep (Ctrl-C, ``kill``) resumes where it stopped, loses no finished
chunk, and never mixes chunks from another version of the scenario or of
gamesim.

With a precision target the sweep uses a two-stage rule: the part's
``n_trials`` are a pilot; from it alone each cell's second stage is planned
once (enough trials for the half-width by the pilot's variance, and for about
200 informative values; :func:`gamesim.core.stats.two_stage_trials`), run as
fresh chunks, and the cell's results come from the second stage alone, so the
interval keeps its fixed-``n`` coverage (docs/reliability.md). The plan
depends only on the chunks' contents, so it too is reproducible.

Chunks are summarised where they are computed: the worker runs the chunk, adds
its event metrics (:mod:`gamesim.core.events`), and returns the chunk's file
content and, per metric, mergeable sufficient statistics and value counts
(:mod:`gamesim.core.summary`); the main process writes the file, merges the
summaries and computes every estimate from them, so it never holds a whole cell.
The pilot's merged summary plans the second stage; the second stage's chunks
have their own merged summary, which the results come from. Paired comparisons
stream the two cells' chunk files side by side, one chunk at a time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import joblib
import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import TqdmWarning

from gamesim.core.version import __version__
from gamesim.core.analysis import (
    _COMPARISON_FIXED,
    _sum_sq,
    distribution_table_from_counts,
    exact_pmf,
    with_exact_columns,
    paired_difference_from_moments,
    paired_ratio_from_moments,
    rank_cases,
    unpaired_half_width_from_moments,
)
from gamesim.run.chunks import CHUNK_META, encode_chunk, run_chunk, run_chunk_summary, summarize_chunk, watch_parent
from gamesim.core.registry import Metric
from gamesim.run.results import TIDY_COLUMNS, atomic_write
from gamesim.core.rng import root_seed_sequence
from gamesim.run.scenario import Scenario, param_columns
from gamesim.core.stats import (
    CONFIDENCE,
    Estimate,
    holm_adjust,
    mean_estimate_from_moments,
    paired_difference_p_value,
    proportion_estimate,
    quantile_estimate_from_order_statistics,
    two_stage_trials,
)
from gamesim.core.summary import (
    CellAccumulator,
    ColumnSummary,
    PairMoments,
    merge_pairs,
    order_statistic,
    pair_moments,
    summarize_column,
)

with warnings.catch_warnings():
    # in a notebook kernel without ipywidgets tqdm.auto falls back to the text bar with a TqdmWarning, which a
    # report's notebook (the search notebook runs sweeps) would print into the page, with a path of this machine
    warnings.simplefilter("ignore", TqdmWarning)
    from tqdm.auto import tqdm

__all__ = [
    "Backend",
    "SweepResult",
    "ChunkStore",
    "ChunkError",
    "MIN_TARGET_TRIALS",
    "compute_backend",
    "run_sweep",
    "summarize_metric",
    "summary_estimates",
    "cell_pair_moments",
    "run_chunk",
    "crn_dimension",
    "comparison_table",
]

Backend = Literal["loky", "threading", "dask"]
BACKENDS: tuple[str, ...] = ("loky", "threading", "dask")

#: dask config key whose default (MALLOC_TRIM_THRESHOLD_=65536 in every worker)
#: made numpy-heavy chunks 7-12x slower here; cleared before a LocalCluster starts.
_DASK_MALLOC_KEY = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"


@dataclass(frozen=True)
class SweepResult:
    """What :func:`run_sweep` returns.

    Attributes
    ----------
    table : pandas.DataFrame
        The tidy results: one row per (part, cell, metric, statistic) with columns
        ``scenario, part, task, cell, <parameters>, metric, statistic, n, estimate,
        se, ci_low, ci_high, exact, n_chunks, spawn_key, target_met, seed_entropy,
        scenario_hash, gamesim_version``. ``target_met`` is set on the rows of the
        precision target's metric (its proportion or mean): whether the interval
        half-width reached the target (False: the cell stopped at ``max_trials``).
    seed_entropy : int
        Root entropy: rerun with ``--seed <seed_entropy>`` to reproduce.
    scenario_hash : str
        Content hash the chunk cache is keyed by.
    cache_dir : pathlib.Path
        Where the chunks are.
    chunks_run, chunks_reused : int
        Chunks computed by this call and chunks found on disk from an earlier
        (possibly interrupted) run.
    seconds : float
        Wall-clock time of this call.
    comparisons : pandas.DataFrame
        With a ``[compare]`` table: one row per compared cell, metric and
        statistic (``difference``, ``ratio``) against its baseline cell, with
        paired 95% intervals (see :func:`comparison_table`); empty otherwise.
    distributions : pandas.DataFrame
        Whole distributions of integer-valued metrics, one row per part, cell,
        metric and value (see :func:`gamesim.core.analysis.distribution_table`), with the
        cell's ``case`` and parameter columns, and ``pmf_exact``, ``at_least_exact``,
        ``at_most_exact`` where the task's exact values give the metric's PMF (keys
        ``"<metric>:pmf=<k>"``, :func:`gamesim.core.analysis.with_exact_columns`).
    rankings : pandas.DataFrame
        With ``[compare]``: the best value of the compared dimension per part,
        metric and other dimensions, and which values are indistinguishable from it
        at the family-wise 5% level (Holm; :func:`gamesim.core.analysis.rank_cases`).
    chunks_in_process : int
        Of ``chunks_run``, the chunks run in the calling process (``inline_below_s``: a sweep too small
        for workers), not by the backend's workers.
    """

    table: pd.DataFrame
    seed_entropy: int
    scenario_hash: str
    cache_dir: Path
    chunks_run: int
    chunks_reused: int
    seconds: float
    comparisons: pd.DataFrame = field(default_factory=pd.DataFrame)
    distributions: pd.DataFrame = field(default_factory=pd.DataFrame)
    rankings: pd.DataFrame = field(default_factory=pd.DataFrame)
    chunks_in_process: int = 0


class BarStream:
    """Standard error for the progress bar, remembering whether the bar's line is left open.

    Ctrl-C can land while the bar is being drawn, after its text and before tqdm notes that it drew it: tqdm's
    ``close`` then leaves the line as it is, and the command's one-line message would run on after the bar's
    text. The sweep (:func:`run_sweep`) and the target search end such a line themselves.

    Parameters
    ----------
    fp : file
        The stream the bar writes to (standard error).
    """

    def __init__(self, fp: Any):
        self.fp = fp
        self.open = False

    def write(self, s: str) -> int:
        if s:
            self.open = not s.endswith(("\n", "\r"))  # a bar line cleared with "\r" leaves the cursor at its start
        return self.fp.write(s)

    def flush(self) -> None:
        self.fp.flush()

    def end_line(self) -> None:
        """After the bar's ``close``: end its line where tqdm left it open (Ctrl-C while it was drawn)."""
        if self.open:
            self.write("\n")
            self.flush()

    def __getattr__(self, name: str) -> Any:  # isatty, encoding...: the stream's own
        return getattr(self.fp, name)


def _warn(msg: str) -> None:
    """One-line warning on stderr (chunk and manifest repairs)."""
    print(f"gamesim: warning: {msg}", file=sys.stderr, flush=True)


class ChunkError(RuntimeError):
    """A chunk file that cannot be read; the message names it."""


class ChunkStore:
    """Finished chunks of one scenario version, one parquet file each, with integrity checks.

    Parameters
    ----------
    root : pathlib.Path
        Cache folder of this scenario version (created if missing).
    summaries : bool, default True
        Keep each chunk's per-metric summaries (the sweep's tables are merged from them). The target
        search reads its chunks back whole (:meth:`take`) and keeps none: ``False`` spares it summarising
        every chunk it writes or finds.

    Attributes
    ----------
    entropy : int or None
        Root seed entropy of the chunks (set by :meth:`open`).
    reused : int
        Chunks found valid on disk (not written by this store).

    Notes
    -----
    Integrity (issue 9):

    - every chunk file is written to a temporary name unique to the process
      and renamed, so a killed process leaves a whole chunk or none (it is not
      ``fsync``-ed: a chunk that an operating-system crash or power cut left
      empty or partly written fails the checks below and is recomputed;
      ``manifest.json`` is ``fsync``-ed);
    - every chunk carries in its parquet metadata its seed entropy, its spawn key
      and its row count, and is written with parquet page checksums;
    - ``manifest.json`` (written atomically) records the run's entropy and, per
      chunk, its row count and SHA-256.

    A chunk is used only if it reads back whole, its key and entropy are this
    run's, its row count is the planned one and its hash matches the manifest
    (when the manifest has it). Anything else (a truncated or bit-flipped file,
    another chunk copied over it, a chunk of another entropy) is deleted with a
    one-line warning naming it, and recomputed.
    """

    _NAME = re.compile(r"p(\d+)-c(\d+)-k(\d+)\.parquet$")
    _META = CHUNK_META
    _SAVE_EVERY_S = 2.0

    def __init__(self, root: Path, *, summaries: bool = True):
        self.root = Path(root)
        self.summaries = summaries
        self.root.mkdir(parents=True, exist_ok=True)
        self.manifest_path = self.root / "manifest.json"
        self.entropy: int | None = None
        self.reused = 0
        self._info: dict[str, Any] = {}
        self._entries: dict[str, dict[str, Any]] = {}
        self._ok: dict[tuple[int, ...], int] = {}  # verified this run: key -> rows
        self._cells: dict[tuple[int, int], CellAccumulator] = {}  # merged chunk summaries per (part, cell)
        #: per part, the first chunk of a second stage (two-stage precision rule): its value counts are kept apart
        self.splits: dict[int, int] = {}
        self._dirty = False
        self._saved_at = 0.0

    def discard(self) -> None:
        """Delete every file of the folder (``--fresh``): chunks, manifest and temporary files; call before
        :meth:`open`."""
        for f in self.root.glob("*"):
            if f.is_file():
                f.unlink()

    # -- manifest -------------------------------------------------------------------------

    def open(self, seed: int | None, info: Mapping[str, Any]) -> int:
        """Read (or repair) the manifest and fix the run's seed entropy.

        Parameters
        ----------
        seed : int or None
            The run's seed; ``None`` reuses the entropy of the manifest, else of
            the chunks already on disk, else draws fresh entropy.
        info : mapping
            Descriptive fields stored in the manifest (scenario, hash, version).

        Returns
        -------
        int
            The root seed entropy every chunk of this folder must carry.
        """
        self._info = dict(info)
        manifest: dict[str, Any] | None = None
        if self.manifest_path.exists():
            try:
                manifest = json.loads(self.manifest_path.read_text(encoding="utf-8"))
                if not isinstance(manifest, dict) or not str(manifest.get("seed_entropy", "")).isdigit():
                    raise ValueError("no seed_entropy")
            except (OSError, ValueError) as exc:
                _warn(f"{self.manifest_path}: unreadable manifest ({str(exc).splitlines()[0] if str(exc) else exc!r}); "
                      "rebuilding it from the chunks")
                manifest = None
        if seed is not None:
            entropy = int(root_seed_sequence(seed).entropy)
        elif manifest is not None:
            entropy = int(manifest["seed_entropy"])
        else:
            found = self._entropies_on_disk()
            entropy = found if found is not None else int(root_seed_sequence(None).entropy)
        self.entropy = entropy
        if manifest is not None and int(manifest["seed_entropy"]) == entropy:
            chunks = manifest.get("chunks", {})
            if isinstance(chunks, dict):
                self._entries = {k: v for k, v in chunks.items() if isinstance(v, dict)}
        self._dirty = True
        self.save()
        return entropy

    def _entropies_on_disk(self) -> int | None:
        """The entropy most chunk files on disk carry (manifest lost), or None."""
        counts: dict[int, int] = {}
        for f in self.root.glob("p*-c*-k*.parquet"):
            try:
                meta = json.loads((pq.read_schema(f).metadata or {})[self._META])
                e = int(meta["entropy"])
            except Exception:  # noqa: BLE001 - any unreadable chunk is simply not evidence
                continue
            counts[e] = counts.get(e, 0) + 1
        if not counts:
            return None
        return max(sorted(counts), key=lambda e: counts[e])

    def save(self, *, force: bool = True) -> None:
        """Write ``manifest.json`` atomically if anything changed (at most every 2 s unless ``force``)."""
        if not self._dirty or (not force and time.monotonic() - self._saved_at < self._SAVE_EVERY_S):
            return
        doc = {**self._info, "seed_entropy": str(self.entropy), "chunks": dict(sorted(self._entries.items()))}
        data = json.dumps(doc, indent=1).encode()
        atomic_write(self.manifest_path, lambda fh: fh.write(data))
        self._dirty = False
        self._saved_at = time.monotonic()

    # -- chunks ---------------------------------------------------------------------------

    def path(self, key: tuple[int, ...]) -> Path:
        """File of chunk ``key = (part, cell, chunk)``."""
        p, c, k = key
        return self.root / f"p{p}-c{c}-k{k}.parquet"

    def has(self, key: tuple[int, ...]) -> bool:
        """Whether a file for chunk ``key`` exists (not checked: see :meth:`valid`)."""
        return self.path(key).is_file()

    def valid(self, key: tuple[int, ...], n_rows: int) -> bool:
        """Whether chunk ``key`` is on disk, whole, of this run's entropy and of ``n_rows`` rows.

        A file that fails a check is deleted with a one-line warning naming it
        (the caller then recomputes the chunk).
        """
        return self._verify(key, n_rows)[0]

    def take(self, key: tuple[int, ...], n_rows: int, columns: list[str]) -> dict[str, npt.NDArray[Any]] | None:
        """The ``columns`` of chunk ``key`` where it is valid (see :meth:`valid`), else None (it is to be recomputed).

        The file is read once: its columns come from the bytes just checked.

        Raises
        ------
        ChunkError
            If a chunk verified earlier in this run cannot be read now (:meth:`read_chunk`).
        """
        ok, table = self._verify(key, n_rows)
        if not ok:
            return None
        if table is None:  # written or verified earlier in this run
            return self.read_chunk(key, columns)
        return {c: table.column(c).to_numpy() for c in columns}

    def _verify(self, key: tuple[int, ...], n_rows: int) -> tuple[bool, Any]:
        """:meth:`valid`, with the table read from disk when this call checked it (None otherwise)."""
        if self._ok.get(key) == n_rows:
            return True, None
        f = self.path(key)
        if not f.is_file():
            return False, None
        problem, table = self._check(key, f, n_rows)
        if problem is None:
            self._ok[key] = n_rows
            self.reused += 1
            return True, table
        _warn(f"{f}: {problem}; discarding and recomputing this chunk")
        with contextlib.suppress(OSError):
            f.unlink()
        if self._entries.pop(f.name, None) is not None:
            self._dirty = True
        return False, None

    def _check(self, key: tuple[int, ...], f: Path, n_rows: int) -> tuple[str | None, Any]:
        """What is wrong with chunk file ``f`` (None: nothing) and, when nothing is, its table."""
        try:
            blob = f.read_bytes()
        except OSError as exc:
            return f"unreadable ({exc.strerror or exc})", None
        digest = hashlib.sha256(blob).hexdigest()
        entry = self._entries.get(f.name)
        if entry is not None and entry.get("sha256") != digest:
            return "content does not match the SHA-256 in manifest.json", None
        try:
            table = pq.read_table(pa.BufferReader(blob), page_checksum_verification=True)
            meta = json.loads((table.schema.metadata or {})[self._META])
        except KeyError:
            return "no gamesim chunk metadata (written by another version)", None
        except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for damaged files
            return f"truncated or corrupt ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})", None
        if str(meta.get("entropy")) != str(self.entropy):
            return f"seed entropy {meta.get('entropy')} is not this run's {self.entropy}", None
        if list(meta.get("key", [])) != list(key):
            return f"holds chunk {tuple(meta.get('key', []))}, not {key}", None
        if table.num_rows != n_rows or int(meta.get("rows", -1)) != n_rows:
            return f"{table.num_rows} rows, expected {n_rows}", None
        if entry is None:  # written before the manifest was saved (e.g. killed): record it now
            self._entries[f.name] = {"rows": n_rows, "sha256": digest}
            self._dirty = True
        if self.summaries:  # a chunk from an earlier run: summarise it here, one chunk at a time
            self._cell(key).add(key[2], summarize_chunk({c: table.column(c).to_numpy() for c in table.column_names}))
        return None, table

    def _cell(self, key: tuple[int, ...]) -> CellAccumulator:
        return self._cells.setdefault((key[0], key[1]), CellAccumulator(self.splits.get(key[0], 0)))

    def write(self, key: tuple[int, ...], arrays: Mapping[str, npt.NDArray[Any]]) -> None:
        """Write chunk ``key`` atomically, with its entropy, key and row count, and record its hash and summary."""
        blob, rows = encode_chunk(arrays, int(self.entropy or 0), key)
        self.write_blob(key, blob, rows, summarize_chunk(arrays) if self.summaries else {})

    def write_blob(
        self, key: tuple[int, ...], blob: bytes, rows: int, summaries: Mapping[str, ColumnSummary]
    ) -> None:
        """Write a chunk file made by a worker (:func:`gamesim.run.chunks.encode_chunk`) and record its summary."""
        final = self.path(key)
        # not fsync-ed: a chunk is checked before it is used (see the class notes), and the two fsync calls
        # cost the command's process more than the rest of a chunk's bookkeeping while workers run
        atomic_write(final, lambda fh: fh.write(blob), durable=False)
        if self.summaries:
            self._cell(key).add(key[2], dict(summaries))
        self._entries[final.name] = {"rows": rows, "sha256": hashlib.sha256(blob).hexdigest()}
        self._ok[key] = rows
        self._dirty = True
        self.save(force=False)

    def chunks(self, part: int, cell: int) -> list[int]:
        """Chunk indices on disk for a cell, sorted."""
        ks = []
        for f in self.root.glob(f"p{part}-c{cell}-k*.parquet"):
            m = self._NAME.search(f.name)
            if m:
                ks.append(int(m.group(3)))
        return sorted(ks)

    def cell_summary(self, part: int, cell: int, n_chunks: int, first: int = 0) -> dict[str, ColumnSummary]:
        """The merged per-metric summaries of chunks ``first .. n_chunks-1`` of a cell (all of ``0 .. n_chunks-1``
        verified or written; ``first`` is 0 or the part's entry in :attr:`splits`)."""
        return self._cell((part, cell, 0)).result(n_chunks, first)

    def read_chunk(self, key: tuple[int, ...], columns: list[str] | None = None) -> dict[str, npt.NDArray[Any]]:
        """One chunk's per-trial values (``columns`` only, if given).

        Raises
        ------
        ChunkError
            If the chunk file cannot be read (the message names it).
        """
        f = self.path(key)
        try:
            table = pq.read_table(f, columns=columns)
        except Exception as exc:  # noqa: BLE001
            raise ChunkError(f"{f}: unreadable chunk ({str(exc).splitlines()[0] if str(exc) else exc!r}); "
                             "run the same command again to recompute it") from None
        return {name: table.column(name).to_numpy() for name in table.column_names}

    def read_cell(
        self, part: int, cell: int, n_chunks: int, columns: list[str] | None = None
    ) -> dict[str, npt.NDArray[Any]]:
        """Concatenate chunks ``0 .. n_chunks-1`` of a cell, per metric column (``columns`` only, if given).

        The whole cell in memory: for inspection and tests. The sweep itself works
        from :meth:`cell_summary`, and reads one column of a pilot only where that
        column has too many distinct values for the summary to count them.

        Raises
        ------
        ChunkError
            If a chunk file cannot be read (the message names it; run again to
            recompute it).
        """
        tables = []
        for k in range(n_chunks):
            f = self.path((part, cell, k))
            try:
                tables.append(pq.read_table(f, columns=columns).replace_schema_metadata(None))
            except Exception as exc:  # noqa: BLE001
                raise ChunkError(f"{f}: unreadable chunk ({str(exc).splitlines()[0] if str(exc) else exc!r}); "
                                 "run the same command again to recompute it") from None
        table = pa.concat_tables(tables)
        return {name: table.column(name).to_numpy() for name in table.column_names}


@contextlib.contextmanager
def compute_backend(backend: Backend = "loky", n_jobs: int = 1, scheduler: str | None = None) -> Iterator[None]:
    """Configure joblib for the duration of a sweep.

    Parameters
    ----------
    backend : {"loky", "threading", "dask"}, default "loky"
        joblib backend. ``"dask"`` connects a ``distributed.Client`` to
        ``scheduler`` or, without one, starts a ``LocalCluster`` of ``n_jobs``
        single-threaded worker processes (with ``MALLOC_TRIM_THRESHOLD_`` left
        unset in workers: the nanny's default made numpy-heavy chunks 7-12x slower).
    n_jobs : int, default 1
        Worker processes for loky/threading and the local cluster.
    scheduler : str, optional
        Address of a running Dask scheduler, e.g. ``"tcp://10.0.0.5:8786"``;
        only with ``backend="dask"``.

    Raises
    ------
    ValueError
        For an unknown backend, or a scheduler given without ``backend="dask"``.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend = {backend!r}, must be one of {', '.join(BACKENDS)}")
    if scheduler is not None and backend != "dask":
        raise ValueError("a scheduler address needs backend='dask'")
    if backend != "dask":
        # loky workers exit with this process, even when it is killed (SIGKILL, SIGTERM)
        extra = {"initializer": watch_parent, "initargs": (os.getpid(),)} if backend == "loky" else {}
        with joblib.parallel_config(backend=backend, n_jobs=n_jobs, **extra):
            yield
        return
    import dask
    from distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        if scheduler is None:
            dask.config.set({_DASK_MALLOC_KEY: None})
            cluster = stack.enter_context(
                LocalCluster(n_workers=max(1, n_jobs), threads_per_worker=1, processes=True, dashboard_address=None)
            )
            client = stack.enter_context(Client(cluster))
        else:
            client = stack.enter_context(Client(scheduler))
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        with joblib.parallel_config(backend="dask", n_jobs=n_workers):
            yield


def summarize_metric(metric: Metric, values: npt.NDArray[Any]) -> dict[str, Estimate]:
    """Summaries of one metric's per-trial values.

    Parameters
    ----------
    metric : Metric
        Declares the kind (``proportion`` or ``mean``) and extra quantiles.
    values : ndarray, shape (n_trials,)
        Booleans for proportions; numbers for means (``nan`` = censored).

    Returns
    -------
    dict of str to Estimate
        Keyed by statistic: ``"proportion"``, or ``"mean"`` (left out when some
        values are censored) plus ``"q50"``, ``"q90"``... for each quantile. The
        same as :func:`summary_estimates` of the values' summary (what a sweep
        computes from its merged chunk summaries).
    """
    a = np.asarray(values)
    ordered: list[npt.NDArray[np.float64]] = []

    def order_stat(k: int) -> float:
        if not ordered:
            ordered.append(np.sort(np.where(np.isnan(a), np.inf, a.astype(np.float64))))
        return float(ordered[0][k])

    return summary_estimates(metric, summarize_column(a), order_stat)


def summary_estimates(
    metric: Metric, s: ColumnSummary, order_stat: Callable[[int], float] | None = None
) -> dict[str, Estimate]:
    """Estimates of one metric from its (merged) :class:`~gamesim.core.summary.ColumnSummary`.

    Parameters
    ----------
    metric : Metric
        Declares the kind and quantiles.
    s : ColumnSummary
        The cell's summary (counts, moments, value counts).
    order_stat : callable, optional
        ``order_stat(k)``: the ``k``-th smallest value (``nan`` as ``+inf``), used for
        quantiles when ``s`` has no value counts (too many distinct values); the
        sweep streams it from the chunk files.

    Returns
    -------
    dict of str to Estimate
        As :func:`summarize_metric`.

    Raises
    ------
    ValueError
        If a quantile is asked of a summary without value counts and no ``order_stat``.
    """
    out: dict[str, Estimate] = {}
    if metric.kind == "proportion":
        out["proportion"] = proportion_estimate(s.n_true, s.n)
    elif s.n_nan == 0:
        # a metric may declare the range of its values (used only for all-equal samples)
        out["mean"] = mean_estimate_from_moments(s.moments, bounds=metric.bounds)
    if metric.quantiles:
        stat: Callable[[int], float]
        if s.values is not None:
            def stat(k: int) -> float:  # the value counts answer exactly
                return order_statistic(s, k)
        elif order_stat is not None:
            stat = order_stat
        else:
            raise ValueError(f"{metric.name}: quantiles need value counts or the values")
        for q in metric.quantiles:
            out[f"q{round(q * 100):d}"] = quantile_estimate_from_order_statistics(s.n, q, stat)
    return out


def _disk_order_statistic(
    store: ChunkStore, part: int, cell: int, n_chunks: int, column: str, first: int = 0
) -> Callable[[int], float]:
    """``k -> k``-th smallest value of a cell's column, streamed from its chunk files (``nan`` as ``+inf``).

    Over chunks ``first .. n_chunks-1`` (``first``: the second stage's first chunk, or 0).

    For columns with too many distinct values to count: an exact radix selection on
    the values' order-preserving 64-bit keys, 16 bits per pass over the chunks, one
    chunk in memory at a time.
    """
    sign = np.uint64(1 << 63)

    def keys(k: int) -> npt.NDArray[np.uint64]:
        x = store.read_chunk((part, cell, k), [column])[column].astype(np.float64)
        bits = np.where(np.isnan(x), np.inf, x).view(np.uint64)
        return np.where(bits & sign, ~bits, bits | sign)

    def select(rank: int) -> float:
        prefix, left = 0, rank
        for shift in (48, 32, 16, 0):
            hist = np.zeros(1 << 16, dtype=np.int64)
            for k in range(first, n_chunks):
                kk = keys(k)
                if shift < 48:
                    kk = kk[(kk >> np.uint64(shift + 16)) == np.uint64(prefix)]
                hist += np.bincount(((kk >> np.uint64(shift)) & np.uint64(0xFFFF)).astype(np.int64), minlength=1 << 16)
            cum = np.cumsum(hist)
            b = int(np.searchsorted(cum, left, side="right"))
            left -= int(cum[b - 1]) if b else 0
            prefix = (prefix << 16) | b
        key = np.array([prefix], dtype=np.uint64)
        bits = np.where(key & sign, key & ~sign, ~key)
        return float(bits.view(np.float64)[0])

    return select


def _chunk_sizes(total: int, size: int) -> list[int]:
    full, rest = divmod(total, size)
    return [size] * full + ([rest] if rest else [])


def run_sweep(
    scenario: Scenario,
    *,
    n_jobs: int = 1,
    backend: Backend | None = "loky",
    scheduler: str | None = None,
    seed: int | None = None,
    cache_root: str | Path = "reports/.chunks",
    progress: bool = True,
    fresh: bool = False,
    inline_below_s: float | None = None,
) -> SweepResult:
    """Run (or resume) every part of a scenario and summarise it as a tidy table.

    Parameters
    ----------
    scenario : Scenario
        A validated scenario (:func:`gamesim.run.scenario.load_scenario`).
    n_jobs : int, default 1
        Parallel workers (joblib ``n_jobs``; workers of the local Dask cluster).
    backend : {"loky", "threading", "dask"} or None, default "loky"
        See :func:`compute_backend`. ``None`` runs in the joblib configuration
        already in force, e.g. inside ``with compute_backend("dask", 4):`` so that
        several sweeps share one cluster (``n_jobs`` and ``scheduler`` are then
        ignored).
    scheduler : str, optional
        Dask scheduler address (with ``backend="dask"``).
    seed : int, optional
        Overrides the scenario's ``seed``. With neither, fresh OS entropy is drawn
        once, recorded in the cache manifest (so a resumed run keeps using it) and
        in the results.
    cache_root : path, default "reports/.chunks"
        Where chunk caches live; each scenario version gets
        ``<cache_root>/<name>-<hash12>/``.
    progress : bool, default True
        Show a tqdm progress bar (chunks done / planned).
    fresh : bool, default False
        Discard chunks of this scenario version already on disk.
    inline_below_s : float, optional
        Run the sweep in this process, without starting worker processes, while the chunks still to
        run would take less than this many CPU-seconds here: the first chunk is run here and timed,
        and the estimate is its CPU time (then the mean of the chunks run here) times the chunks
        left. Starting two workers costs about 3 s of wall time and 4 CPU-seconds (each imports
        numpy, scipy and the game), more than a small sweep takes. ``None`` (default): every chunk
        goes through joblib. Results are the same either way (each chunk's random numbers depend
        only on its position). ``gamesim run`` and ``gamesim report`` pass
        :data:`INLINE_BELOW_S` unless ``--n-jobs`` is given.

    Returns
    -------
    SweepResult

    Raises
    ------
    ValueError
        For a negative seed or a bad backend/scheduler combination.
    KeyboardInterrupt
        Propagated after the chunks finished so far are safely on disk; rerun to
        resume.
    """
    t0 = time.perf_counter()
    seed = scenario.seed if seed is None else seed
    if seed is not None and seed < 0:
        raise ValueError(f"seed = {seed}, must be >= 0")
    digest = scenario.content_hash(seed)
    cache_dir = Path(cache_root) / f"{scenario.name}-{digest[:12]}"
    store = ChunkStore(cache_dir)
    if fresh:
        store.discard()
    info = {"scenario": scenario.name, "scenario_path": str(scenario.path), "scenario_hash": digest,
            "gamesim_version": __version__}
    entropy = store.open(seed, info)  # manifest (repaired if unreadable); chunks of another entropy never mix

    game = scenario.game.name
    cells = [part.cells() for part in scenario.parts]
    groups = [part.seed_groups(crn_dimension(scenario)) for part in scenario.parts]
    planned: dict[tuple[int, int], list[int]] = {
        (p, c): _chunk_sizes(part.n_trials, scenario.chunk_size)
        for p, part in enumerate(scenario.parts)
        for c in range(len(cells[p]))
    }
    if scenario.precision is not None:  # the second stage's value counts are kept apart from the pilot's
        store.splits = {p: len(_chunk_sizes(part.n_trials, scenario.chunk_size)) for p, part in enumerate(scenario.parts)}
    ran = 0
    inline_n, inline_s = 0, 0.0  # chunks run in this process (inline_below_s) and their CPU-seconds

    def chunk_args(job: tuple[int, int, int, int]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The arguments of :func:`run_chunk_summary` for chunk ``k`` (``n`` trials) of cell ``c`` of part ``p``."""
        p, c, k, n = job
        return ((game, scenario.parts[p].task.name, cells[p][c], n, entropy, (p, groups[p][c], k), (p, c, k)),
                {"events": getattr(scenario.parts[p].task, "events", ())})

    bar_out = BarStream(sys.stderr)
    bar = tqdm(total=0, desc=scenario.name, unit="chunk", disable=not progress, leave=True, delay=0.5, file=bar_out)
    try:
        ctx = contextlib.nullcontext() if backend is None else compute_backend(backend, n_jobs, scheduler)
        with ctx, contextlib.ExitStack() as stack:
            parallel: joblib.Parallel | None = None
            while True:
                jobs = [
                    (p, c, k, n)
                    for (p, c), sizes in planned.items()
                    for k, n in enumerate(sizes)
                    if not store.valid((p, c, k), n)
                ]
                bar.total += len(jobs)
                # update(0), not refresh(): a refresh draws the bar before tqdm's delay and without noting it, and
                # tqdm's close then skips the final draw, leaving a sweep shorter than the delay at "12/39"
                bar.update(0)
                while (jobs and parallel is None and inline_below_s is not None
                       and time.monotonic() > _workers_warm_until):
                    # small sweeps run here: starting workers would cost more than the whole sweep
                    if inline_n and inline_s / inline_n * len(jobs) >= inline_below_s:
                        break
                    t_cpu = time.process_time()
                    a, kw = chunk_args(jobs.pop(0))
                    store.write_blob(*run_chunk_summary(*a, **kw))
                    inline_s += time.process_time() - t_cpu
                    inline_n += 1
                    ran += 1
                    bar.update()
                if jobs:
                    if parallel is None:  # one pool of workers for every round of the run
                        parallel = stack.enter_context(joblib.Parallel(return_as="generator_unordered"))
                    tasks = (joblib.delayed(run_chunk_summary)(*a, **kw) for a, kw in map(chunk_args, jobs))
                    for key, blob, rows, summaries in parallel(tasks):
                        store.write_blob(key, blob, rows, summaries)
                        ran += 1
                        bar.update()
                    _note_workers_used()
                if not _top_up(scenario, cells, planned, store):
                    break
    finally:
        bar.close()
        bar_out.end_line()
        store.save()
    reused = store.reused

    table, comparisons, distributions = _tidy(scenario, cells, planned, store, entropy, digest)
    rankings = rank_cases(table, comparisons, better=scenario.compare.better) if scenario.compare else pd.DataFrame()
    return SweepResult(
        table, entropy, digest, cache_dir, ran, reused, time.perf_counter() - t0, comparisons, distributions,
        rankings, chunks_in_process=inline_n,
    )


#: CPU-seconds of chunks left below which ``gamesim run`` / ``gamesim report`` run a sweep in their own process
#: (see ``inline_below_s`` of :func:`run_sweep`): about what starting two loky workers costs on a 2-core machine.
INLINE_BELOW_S = 3.0


#: Until when (``time.monotonic()``) the loky workers of this process are taken to be still running: joblib
#: reuses them for the next sweep until they have idled for 300 s, so a later small sweep need not run here.
_workers_warm_until = 0.0


def _note_workers_used() -> None:
    global _workers_warm_until
    _workers_warm_until = time.monotonic() + 240.0


#: Fewest trials a cell must have before its precision target can count as met,
#: whatever its interval says: a small sample (e.g. 20 trials all 0) says too little
#: about rare outcomes. See docs/reliability.md.
MIN_TARGET_TRIALS = 200


def _target_met(est: Estimate, half_width: float) -> bool:
    """The precision rule: ``n >= MIN_TARGET_TRIALS`` and a finite interval no wider than asked.

    Intervals are never degenerate (:func:`gamesim.core.stats.mean_estimate` gives an
    all-equal sample a rule-of-three interval, infinite when the metric's range is
    unbounded), so a zero-variance sample never meets a target by itself.
    """
    hw = est.half_width
    return bool(est.n >= MIN_TARGET_TRIALS and math.isfinite(hw) and hw <= half_width)


def _plan_stage_two(
    metric: Metric, store: ChunkStore, part: int, cell: int, n_chunks: int, half_width: float, cap: int
) -> int:
    """Second-stage trials for one cell, from its pilot's merged summary (:func:`two_stage_trials`)."""
    s = store.cell_summary(part, cell, n_chunks)[metric.name]
    n0 = s.n
    if metric.kind == "proportion":
        k = s.n_true
        p = k / n0
        return two_stage_trials(n0, math.sqrt(p * (1 - p)), min(k, n0 - k), half_width, cap=cap)
    if s.n_nan:
        return cap
    if s.counts is not None:
        top = int(s.counts.max())
    else:  # too many distinct values to count in the summary: count the pilot's column, read from disk
        x = store.read_cell(part, cell, n_chunks, [metric.name])[metric.name]
        top = int(np.unique(x, return_counts=True)[1].max())
    return two_stage_trials(n0, s.moments.std(ddof=1), n0 - top, half_width, cap=cap)


def _top_up(
    scenario: Scenario,
    cells: list[list[dict[str, Any]]],
    planned: dict[tuple[int, int], list[int]],
    store: ChunkStore,
) -> bool:
    """The two-stage precision rule: plan each cell's second stage from its pilot, once; True if any.

    The pilot is the part's ``n_trials``; the second stage (fresh chunks after the
    pilot's) has the size :func:`gamesim.core.stats.two_stage_trials` plans,
    at most ``max_trials`` (the pilot comes on top). The cell's results then come from the
    second stage alone (:func:`_estimation_data`).
    """
    prec = scenario.precision
    if prec is None:
        return False
    more = False
    for p, part in enumerate(scenario.parts):
        for c, cell in enumerate(cells[p]):
            metric = next((m for m in part.task.metrics_for(cell) if m.name == prec.metric), None)
            if metric is None:
                continue
            sizes = planned[(p, c)]
            n0 = part.n_trials
            if sum(sizes) > n0 or n0 < 2:  # the plan is made once, from the pilot only
                continue
            n2 = _plan_stage_two(metric, store, p, c, len(sizes), prec.half_width, prec.max_trials)
            if n2 < 2:
                continue
            sizes.extend(_chunk_sizes(n2, scenario.chunk_size))
            more = True
    return more


def _estimation_first_chunk(
    scenario: Scenario, p: int, c: int, planned: dict[tuple[int, int], list[int]]
) -> int:
    """The first chunk a cell's results come from: the second stage's where one ran, else 0."""
    n0 = scenario.parts[p].n_trials
    if scenario.precision is not None and sum(planned[(p, c)]) > n0:
        return len(_chunk_sizes(n0, scenario.chunk_size))
    return 0


#: The tidy table's columns that are not parameters (the one list is :data:`gamesim.run.results.TIDY_COLUMNS`).
_FIXED_COLUMNS = TIDY_COLUMNS


def _support(metric: Metric, exact: Mapping[str, float]) -> tuple[float, float]:
    """The metric's known range: its declared bounds, else the values of its exact PMF (keys ``metric:pmf=k``)."""
    lo, hi = metric.bounds
    if math.isfinite(lo) and math.isfinite(hi):
        return lo, hi
    prefix = f"{metric.name}:pmf="
    ks = [float(k[len(prefix):]) for k in exact if k.startswith(prefix)]
    return (min(ks), max(ks)) if ks else (lo, hi)


def crn_dimension(scenario: Scenario) -> str | None:
    """The dimension along which cells share random numbers (``[compare]`` with ``crn``), or ``None``."""
    cmp_ = scenario.compare
    return cmp_.dimension if cmp_ is not None and cmp_.crn else None


def _tidy(
    scenario: Scenario,
    cells: list[list[dict[str, Any]]],
    planned: dict[tuple[int, int], list[int]],
    store: ChunkStore,
    entropy: int,
    digest: str,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The tidy results, comparisons and distributions of a finished sweep."""
    rows: list[dict[str, Any]] = []
    dists: list[pd.DataFrame] = []
    dist_keys: list[dict[str, Any]] = []  # each table's part, cell, metric, case and parameters
    crn = crn_dimension(scenario)
    for p, part in enumerate(scenario.parts):
        labels = part.labels()
        groups = part.seed_groups(crn)
        for c, cell in enumerate(cells[p]):
            n_chunks = len(planned[(p, c)])
            first = _estimation_first_chunk(scenario, p, c, planned)
            data = store.cell_summary(p, c, n_chunks, first)
            exact = dict(part.task.exact(cell)) if part.task.exact is not None else {}
            base = {"scenario": scenario.name, "part": part.name, "task": part.task.name, "cell": c}
            if part.cases:
                base["case"] = labels[c]["case"]
            base.update(param_columns(cell))
            prec = scenario.precision
            for metric in part.task.metrics_for(cell):
                order_stat = _disk_order_statistic(store, p, c, n_chunks, metric.name, first)
                for i, (stat, est) in enumerate(summary_estimates(metric, data[metric.name], order_stat).items()):
                    targeted = prec is not None and metric.name == prec.metric and i == 0
                    rows.append(
                        {
                            **base,
                            "metric": metric.name,
                            "statistic": stat,
                            **est.as_dict(),
                            "exact": float(exact.get(f"{metric.name}:{stat}", math.nan)),
                            "n_chunks": len(planned[(p, c)]),
                            "spawn_key": json.dumps([p, groups[c]]),
                            "target_met": _target_met(est, prec.half_width) if targeted else None,
                        }
                    )
                col = data[metric.name]
                if scenario.distributions and metric.kind == "mean" and col.values is not None:
                    dist = distribution_table_from_counts(col.values, col.counts, col.n,
                                                          support=_support(metric, exact))
                    if dist is not None:  # with the cell's case and parameters, and the exact curve where known
                        dists.append(with_exact_columns(dist, exact_pmf(exact, metric.name)))
                        dist_keys.append({"part": part.name, "cell": c, "metric": metric.name,
                                          **{k: v for k, v in base.items()
                                             if k not in ("scenario", "part", "task", "cell")}})
    df = pd.DataFrame(rows)
    if "case" in df.columns:  # right after the part and cell columns
        df.insert(df.columns.get_loc("cell") + 1, "case", df.pop("case"))
    # Parameters of different parts share the table: keep integers integral and
    # booleans boolean where another part leaves the column empty.
    params = [c for c in df.columns if c not in _FIXED_COLUMNS]
    scalar = [c for c in params if not df[c].map(lambda v: isinstance(v, tuple)).any()]
    df[scalar] = df[scalar].convert_dtypes()
    df["seed_entropy"] = str(entropy)
    df["scenario_hash"] = digest
    df["gamesim_version"] = __version__
    dist_df = _with_keys(dists, dist_keys)
    if not dist_df.empty:
        dist_df.insert(0, "scenario", scenario.name)
        keys = [k for k in df.columns if k in dist_df.columns and (k == "case" or k not in _FIXED_COLUMNS)]
        lead = ["scenario", "part", "cell", *keys, "metric"]
        dist_df = dist_df[lead + [c for c in dist_df.columns if c not in lead]]
    return df, comparison_table(scenario, cells, planned, store, df), dist_df


def _with_keys(tables: list[pd.DataFrame], keys: list[dict[str, Any]]) -> pd.DataFrame:
    """The distribution tables stacked, each row with its table's keys as columns after its own
    (a key replaces a table's column of the same name, as ``DataFrame.assign`` would).

    The tables of one part share their key names: each part's tables are stacked and its keys
    added as columns built from one value per table (pandas infers each column's dtype over the
    part's values), then the parts are stacked as before (a key a part lacks is missing there).
    Adding the keys table by table cost seconds in the main process for hundreds of tables.
    """
    if not tables:
        return pd.DataFrame()
    parts: dict[str, list[int]] = {}
    for i, rec in enumerate(keys):
        parts.setdefault(rec["part"], []).append(i)
    out = []
    for idx in parts.values():
        stacked = pd.concat([tables[i] for i in idx], ignore_index=True)
        rep = np.repeat(np.arange(len(idx)), [len(tables[i]) for i in idx])
        extra = pd.DataFrame({k: [keys[i][k] for i in idx] for k in keys[idx[0]]}).iloc[rep].reset_index(drop=True)
        out.append(pd.concat([stacked.drop(columns=[c for c in stacked.columns if c in extra.columns]), extra], axis=1))
    return pd.concat(out, ignore_index=True)


def comparison_table(
    scenario: Scenario,
    cells: list[list[dict[str, Any]]],
    planned: dict[tuple[int, int], list[int]],
    store: ChunkStore,
    table: pd.DataFrame,
) -> pd.DataFrame:
    """Paired comparisons of every compared cell against its baseline cell.

    For each part that sweeps the ``[compare]`` dimension, each cell is paired
    with the cell that has the baseline value in that dimension and the same
    values in every other dimension; trial ``i`` of one is paired with trial
    ``i`` of the other over the trials both have (with ``crn`` they were drawn
    from the same random numbers).

    Returns
    -------
    pandas.DataFrame
        Columns ``scenario, part, metric, statistic`` (``difference`` or
        ``ratio``), ``dimension, baseline, variant``, the other dimensions'
        values, ``cell, baseline_cell, n`` (pairs), ``estimate, se, ci_low,
        ci_high`` (paired 95% interval), ``exact`` (from the exact values of both
        cells, where the game has them), ``correlation`` (of the paired
        per-trial values), ``unpaired_half_width`` (the half-width two
        independent samples of the same size would give), ``crn`` and ``note``
        (``"not estimable (baseline 0 in n trials)"`` on a ratio row whose
        baseline never happened: estimate ``nan``, interval ``[lower, inf)``). Empty
        without ``[compare]``. Metrics whose values include censored trials
        (``nan``) are not compared.
    """
    cmp_ = scenario.compare
    if cmp_ is None:
        return pd.DataFrame()
    rows: list[dict[str, Any]] = []
    all_pairs = cmp_.pairs == "all"
    # each (part, metric, statistic, cell)'s exact value, first row wins (one pass, not a mask per pair and metric)
    exact_of: dict[tuple[Any, Any, Any, Any], Any] = {}
    if not table.empty:
        for key_, ex_ in zip(zip(table["part"], table["metric"], table["statistic"], table["cell"]), table["exact"]):
            exact_of.setdefault(key_, ex_)
    for p, part in enumerate(scenario.parts):
        vals = part.dim_values()
        if cmp_.dimension not in vals:
            continue
        labels = part.labels()
        others = [d for d in vals if d != cmp_.dimension]
        order = vals[cmp_.dimension]
        family: dict[tuple[Any, ...], list[int]] = {}
        for c, lab in enumerate(labels):
            family.setdefault(tuple(lab[d] for d in others), []).append(c)
        pairs: list[tuple[int, int]] = []  # (baseline cell, variant cell)
        for members in family.values():
            members = sorted(members, key=lambda c: next(i for i, v in enumerate(order)
                                                         if _same(labels[c][cmp_.dimension], v)))
            if all_pairs:
                pairs += [(b, c) for i, b in enumerate(members) for c in members[i + 1:]]
            else:
                b = next(c for c in members if _same(labels[c][cmp_.dimension], cmp_.baseline))
                pairs += [(b, c) for c in members if c != b]
        k = len(order)
        m_family = k * (k - 1) // 2 if all_pairs else k - 1
        for b, c in pairs:
            lab, base_lab = labels[c], labels[b]
            first_v = _estimation_first_chunk(scenario, p, c, planned)
            first_b = _estimation_first_chunk(scenario, p, b, planned)
            names_b = set(store.cell_summary(p, b, len(planned[(p, b)]), first_b))
            compared = [
                metric for metric in part.task.metrics_for(cells[p][c])
                if (cmp_.metrics is None or metric.name in cmp_.metrics) and metric.name in names_b
            ]
            pairs_m = cell_pair_moments(store, (p, c), (p, b), planned[(p, c)], planned[(p, b)],
                                        [m.name for m in compared], first=(first_v, first_b))
            for metric in compared:
                pm = pairs_m[metric.name]
                if pm.n < 2 or pm.has_nan:
                    continue
                stat = "proportion" if metric.kind == "proportion" else "mean"
                exact_v = float(exact_of.get((part.name, metric.name, stat, c), math.nan))
                exact_b = float(exact_of.get((part.name, metric.name, stat, b), math.nan))
                diff, corr = paired_difference_from_moments(pm, kind=metric.kind)
                adj, _ = paired_difference_from_moments(pm, kind=metric.kind,
                                                        confidence=1 - (1 - CONFIDENCE) / m_family)
                _, n10, n01, _ = pm.table if pm.table is not None else (0, 0, 0, 0)
                p_value = paired_difference_p_value(
                    metric.kind, n=pm.n, n10=n10, n01=n01, sum_d=float(pm.d.total), sumsq_d=_sum_sq(pm.d))
                common = {
                    "scenario": scenario.name,
                    "part": part.name,
                    "metric": metric.name,
                    "dimension": cmp_.dimension,
                    "baseline": _label(base_lab[cmp_.dimension]),
                    "variant": _label(lab[cmp_.dimension]),
                    **{d: _label(lab[d]) if d == "case" else param_columns({d: lab[d]})[d] for d in others},
                    "cell": c,
                    "baseline_cell": b,
                    "crn": cmp_.crn,
                    "correlation": corr,
                }
                rows.append({**common, "statistic": "difference", **diff.as_dict(),
                             "exact": exact_v - exact_b,
                             "unpaired_half_width": unpaired_half_width_from_moments(pm, kind=metric.kind),
                             "p_value": p_value, "family_size": m_family,
                             "ci_low_adj": adj.ci_low, "ci_high_adj": adj.ci_high})
                rows[-1]["note"] = ""
                ratio = paired_ratio_from_moments(pm, kind=metric.kind)
                if ratio is not None:  # a baseline that never happened gives a "not estimable" row, not a gap
                    rows.append({**common, "statistic": "ratio", **ratio[0].as_dict(), "note": ratio[1],
                                 "exact": exact_v / exact_b if exact_b > 0 else math.nan,
                                 "unpaired_half_width": math.nan})
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    # Holm within each family: one part, metric and set of other-dimension values
    diff = out["statistic"] == "difference"
    keys = ["part", "metric"] + [d for d in out.columns if d not in _COMPARISON_FIXED]
    out["p_holm"] = math.nan
    for _, idx in out[diff].groupby([out.loc[diff, k].astype(str) for k in keys], sort=False).groups.items():
        out.loc[idx, "p_holm"] = holm_adjust(out.loc[idx, "p_value"].to_numpy())
    out["different"] = pd.Series(pd.NA, index=out.index, dtype="boolean")
    out.loc[diff, "different"] = out.loc[diff, "p_holm"] < 1 - CONFIDENCE
    return out


def cell_pair_moments(
    store: ChunkStore,
    variant: tuple[int, int],
    baseline: tuple[int, int],
    sizes_v: list[int],
    sizes_b: list[int],
    columns: list[str],
    *,
    first: tuple[int, int] = (0, 0),
) -> dict[str, PairMoments]:
    """Paired statistics of two cells over the trials both have: trial ``i`` with trial ``i``.

    Streams the two cells' chunk files side by side (one chunk of each in memory at
    a time, only ``columns`` read) and merges each aligned stretch's
    :func:`~gamesim.core.summary.pair_moments` in trial order.

    Parameters
    ----------
    store : ChunkStore
        The run's chunks.
    variant, baseline : (int, int)
        ``(part, cell)`` of the two cells.
    sizes_v, sizes_b : list of int
        Their planned chunk sizes (chunks ``0..len-1`` are on disk).
    columns : list of str
        Metric names to pair.
    first : (int, int), default (0, 0)
        First chunk of each cell that is paired (a second stage's first chunk):
        trial ``i`` after it in one cell is paired with trial ``i`` after it in the other.

    Returns
    -------
    dict of str to PairMoments
        Per column, over ``min(sum(sizes_v[first_v:]), sum(sizes_b[first_b:]))`` pairs.

    Raises
    ------
    ChunkError
        If a chunk file cannot be read.
    """
    empty = pair_moments(np.zeros(0), np.zeros(0))
    out = {name: empty for name in columns}
    if not columns:
        return out
    m = min(sum(sizes_v[first[0]:]), sum(sizes_b[first[1]:]))

    def stream(cell: tuple[int, int], sizes: list[int], start: int) -> Iterator[dict[str, npt.NDArray[Any]]]:
        for k in range(start, len(sizes)):
            yield store.read_chunk((cell[0], cell[1], k), columns)

    it_v, it_b = stream(variant, sizes_v, first[0]), stream(baseline, sizes_b, first[1])
    buf_v: dict[str, npt.NDArray[Any]] = {}
    buf_b: dict[str, npt.NDArray[Any]] = {}
    done = 0
    while done < m:
        if not buf_v or len(buf_v[columns[0]]) == 0:
            buf_v = next(it_v)
        if not buf_b or len(buf_b[columns[0]]) == 0:
            buf_b = next(it_b)
        take = min(len(buf_v[columns[0]]), len(buf_b[columns[0]]), m - done)
        for name in columns:
            out[name] = merge_pairs(out[name], pair_moments(buf_v[name][:take], buf_b[name][:take]))
        buf_v = {k: v[take:] for k, v in buf_v.items()}
        buf_b = {k: v[take:] for k, v in buf_b.items()}
        done += take
    return out


def _same(a: Any, b: Any) -> bool:
    return bool(a == b) and isinstance(a, bool) == isinstance(b, bool)


def _label(v: Any) -> Any:
    return json.dumps(v) if isinstance(v, (list, tuple)) else v
