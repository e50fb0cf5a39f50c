"""Tidy results on disk: one parquet file per scenario, next to its report.

The table (columns in :class:`gamesim.core.sweep.SweepResult`) is written with
the run's metadata (seed entropy, scenario hash, version, timing, backend) in
the parquet schema metadata under the key ``gamesim``, so a results file alone
says how to reproduce it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["save_results", "load_results", "lists_to_tuples"]

_META_KEY = b"gamesim"


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
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrow = pa.Table.from_pandas(table, preserve_index=False)
    merged = dict(arrow.schema.metadata or {})
    merged[_META_KEY] = json.dumps(meta, default=str).encode()
    tmp = path.with_suffix(".parquet.tmp")
    pq.write_table(arrow.replace_schema_metadata(merged), tmp)
    tmp.replace(path)
    return path


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
    """
    arrow = pq.read_table(path)
    raw = (arrow.schema.metadata or {}).get(_META_KEY)
    meta = json.loads(raw) if raw else {}
    return lists_to_tuples(arrow.to_pandas()), meta


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
