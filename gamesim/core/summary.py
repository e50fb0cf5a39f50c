"""Mergeable summaries of per-trial values: what a sweep keeps of a chunk instead of the chunk.

A sweep worker runs a chunk of trials and reduces every metric column to a
:class:`ColumnSummary` (sufficient statistics and value counts); the main process
merges the chunks' summaries of a cell with :func:`merge_columns`, always in
chunk order, and never holds a whole cell. Every estimate the tidy results carry
is computed from the merged summary:

- proportions from the count of true values (exact);
- means from ``n``, the sum and the sum of squares: exact integers when every
  value is an integer (the common case: counts, pips, wounds), so the mean is the
  same float numpy's ``mean`` gives and the variance is the correctly rounded
  value of the exact one; otherwise float sums and squared deviations about each
  chunk's mean, combined with Chan's parallel formula;
- quantiles and whole distributions from the value counts (kept while a cell has
  at most :data:`MAX_COUNTED_VALUES` distinct values).

Paired comparisons need trial ``i`` of one cell next to trial ``i`` of another:
:func:`pair_moments` reduces two aligned chunks to a :class:`PairMoments`
(both samples' moments, the differences' moments, the cross product and, for
0/1 values, the paired 2x2 table), merged with :func:`merge_pairs`.

This module imports numpy only, so that sweep workers start fast.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "MAX_COUNTED_VALUES",
    "Moments",
    "ColumnSummary",
    "PairMoments",
    "moments",
    "summarize_column",
    "merge_moments",
    "merge_columns",
    "order_statistic",
    "pair_moments",
    "merge_pairs",
    "CellAccumulator",
]

#: A cell keeps the counts of its distinct values while it has at most this many
#: (quantiles and whole distributions come from them); a chunk with more drops them.
MAX_COUNTED_VALUES = 4096

#: Integer sums are computed in int64 only where they cannot overflow.
_INT64_SAFE = 2.0**62


@dataclass(frozen=True)
class Moments:
    """Sufficient statistics of a sample of finite numbers, mergeable exactly.

    Attributes
    ----------
    n : int
        Values.
    s1, s2 : int or None
        Exact sum and sum of squares when every value is an integer, else ``None``.
    total : float
        Sum (float; equal to ``s1`` when exact).
    m2 : float
        Sum of squared deviations about the mean (float path; ``nan`` when exact:
        use :meth:`var`).
    vmin, vmax : float
        Smallest and largest value (``nan`` when ``n == 0``).
    """

    n: int
    s1: int | None
    s2: int | None
    total: float
    m2: float
    vmin: float
    vmax: float

    @property
    def exact(self) -> bool:
        """Whether the sums are exact integers."""
        return self.s1 is not None

    def mean(self) -> float:
        """The sample mean (for integer data: the float numpy's ``mean`` returns, sum below 2**53)."""
        if self.n == 0:
            return math.nan
        if self.s1 is not None:
            return float(self.s1) / self.n if abs(self.s1) < 2**53 else float(Fraction(self.s1, self.n))
        return self.total / self.n

    def sum_sq_dev(self) -> float:
        """Sum of squared deviations about the mean (exact, then rounded, for integer data)."""
        if self.s1 is not None and self.s2 is not None:
            return float(Fraction(self.n * self.s2 - self.s1 * self.s1, self.n)) if self.n else math.nan
        return self.m2

    def var(self, ddof: int = 1) -> float:
        """Sample variance with ``ddof`` (``nan`` when ``n <= ddof``)."""
        if self.n <= ddof:
            return math.nan
        if self.s1 is not None and self.s2 is not None:
            return float(Fraction(self.n * self.s2 - self.s1 * self.s1, self.n * (self.n - ddof)))
        return self.m2 / (self.n - ddof)

    def std(self, ddof: int = 1) -> float:
        """Sample standard deviation."""
        v = self.var(ddof)
        return math.sqrt(v) if v >= 0 else math.nan

    @property
    def constant(self) -> bool:
        """Whether every value is the same (or there is at most one)."""
        return self.n <= 1 or self.vmin == self.vmax


_EMPTY = Moments(0, 0, 0, 0.0, 0.0, math.nan, math.nan)


def _is_integral(a: npt.NDArray[Any]) -> bool:
    if a.dtype.kind in "biu":
        return True
    return bool(a.size == 0 or (np.all(np.isfinite(a)) and np.all(a == np.trunc(a))))


def moments(x: npt.ArrayLike) -> Moments:
    """The :class:`Moments` of finite values ``x`` (shape ``(n,)``; bool, int or float)."""
    a = np.asarray(x).ravel()
    n = int(a.size)
    if n == 0:
        return _EMPTY
    if a.dtype.kind == "b":
        a = a.view(np.uint8)
    vmin, vmax = float(a.min()), float(a.max())
    if _is_integral(a):
        big = max(abs(vmin), abs(vmax))
        if big * big * n < _INT64_SAFE:
            i = a.astype(np.int64, copy=False)
            s1, s2 = int(i.sum()), int(np.dot(i, i))
        else:  # exact but slow: Python integers
            ints = [int(v) for v in a.tolist()]
            s1, s2 = sum(ints), sum(v * v for v in ints)
        return Moments(n, s1, s2, float(s1), math.nan, vmin, vmax)
    f = a.astype(np.float64, copy=False)
    total = float(f.sum())
    dev = f - total / n
    return Moments(n, None, None, total, _sum_of_products(dev, dev), vmin, vmax)


def _sum_of_products(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    """``sum(x * y)`` by numpy's pairwise summation: the same bits whatever the thread count.

    Not ``np.dot``: the BLAS splits a long dot product over its threads, and the rounding then depends on how
    many it has (one in a loky worker, one per core in the command's process), so a chunk summarised in a
    worker and the same chunk summarised in the main process would differ in the last bits.
    """
    return float(np.add.reduce(x * y))


def merge_moments(a: Moments, b: Moments) -> Moments:
    """Moments of the concatenation of two samples (exact when both are; else Chan's formula)."""
    if a.n == 0:
        return b
    if b.n == 0:
        return a
    n = a.n + b.n
    vmin, vmax = min(a.vmin, b.vmin), max(a.vmax, b.vmax)
    if a.s1 is not None and b.s1 is not None and a.s2 is not None and b.s2 is not None:
        s1 = a.s1 + b.s1
        return Moments(n, s1, a.s2 + b.s2, float(s1), math.nan, vmin, vmax)
    ma, mb = a.total / a.n, b.total / b.n
    delta = mb - ma
    m2 = a.sum_sq_dev() + b.sum_sq_dev() + delta * delta * a.n * b.n / n
    return Moments(n, None, None, math.fsum((a.total, b.total)), m2, vmin, vmax)


@dataclass(frozen=True)
class ColumnSummary:
    """What a cell keeps of one metric column: mergeable, exact where the values allow.

    Attributes
    ----------
    n : int
        Trials.
    n_nan : int
        Trials whose value is ``nan`` (censored: the event did not happen within the cap).
    n_true : int
        Trials whose value is true as a boolean (``nan`` counts as true, as numpy casts it).
    moments : Moments
        Of the non-``nan`` values.
    values, counts : ndarray or None
        The distinct non-``nan`` values (sorted, float64) and how often each occurs;
        ``None`` when there are more than :data:`MAX_COUNTED_VALUES` of them.
    """

    n: int
    n_nan: int
    n_true: int
    moments: Moments
    values: npt.NDArray[np.float64] | None = field(repr=False)
    counts: npt.NDArray[np.int64] | None = field(repr=False)


def summarize_column(x: npt.ArrayLike) -> ColumnSummary:
    """Reduce one chunk's per-trial values (shape ``(n,)``) to a :class:`ColumnSummary`."""
    a = np.asarray(x).ravel()
    n = int(a.size)
    n_true = int(np.count_nonzero(a)) if a.dtype.kind != "f" else int(np.count_nonzero(a.astype(bool)))
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        n_nan = int(nan.sum())
        fin = a[~nan] if n_nan else a
    else:
        n_nan, fin = 0, a
    values: npt.NDArray[np.float64] | None
    counts: npt.NDArray[np.int64] | None
    if fin.dtype.kind == "b":
        c1 = int(np.count_nonzero(fin))
        keep = [(0.0, fin.size - c1), (1.0, c1)]
        keep = [(v, c) for v, c in keep if c]
        values = np.array([v for v, _ in keep], dtype=np.float64)
        counts = np.array([c for _, c in keep], dtype=np.int64)
    else:
        u, c = np.unique(fin, return_counts=True)
        values, counts = (u.astype(np.float64), c.astype(np.int64)) if u.size <= MAX_COUNTED_VALUES else (None, None)
    return ColumnSummary(n, n_nan, n_true, moments(fin), values, counts)


def _merge_counts(
    parts: Sequence[tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]] | None:
    vals = np.concatenate([v for v, _ in parts])
    cnts = np.concatenate([c for _, c in parts])
    u, inv = np.unique(vals, return_inverse=True)
    if u.size > MAX_COUNTED_VALUES:
        return None
    out = np.zeros(u.size, dtype=np.int64)
    np.add.at(out, inv, cnts)
    return u, out


def merge_columns(parts: Iterable[ColumnSummary]) -> ColumnSummary:
    """Merge the summaries of a cell's chunks, in chunk order, into the cell's summary.

    Parameters
    ----------
    parts : iterable of ColumnSummary
        The chunks' summaries, in chunk order (the order fixes the float path's rounding,
        so results do not depend on the order chunks finished in).

    Returns
    -------
    ColumnSummary
        Equal to :func:`summarize_column` of the concatenated values: exactly for
        counts, value counts and integer moments; to rounding for float moments.

    Raises
    ------
    ValueError
        If ``parts`` is empty.
    """
    parts = list(parts)
    if not parts:
        raise ValueError("no chunk summaries to merge")
    m = parts[0].moments
    for p in parts[1:]:
        m = merge_moments(m, p.moments)
    counted = [(p.values, p.counts) for p in parts]
    merged = None
    if all(v is not None and c is not None for v, c in counted):
        merged = _merge_counts(counted)  # type: ignore[arg-type]
    return ColumnSummary(
        sum(p.n for p in parts), sum(p.n_nan for p in parts), sum(p.n_true for p in parts), m,
        None if merged is None else merged[0], None if merged is None else merged[1],
    )


def order_statistic(s: ColumnSummary, k: int) -> float:
    """The ``k``-th smallest value (0-based) of the summarised sample, ``nan`` counted as ``+inf``.

    Raises
    ------
    ValueError
        If the summary has no value counts (too many distinct values) or ``k`` is out of range.
    """
    if not 0 <= k < s.n:
        raise ValueError(f"k = {k}, must be in [0, {s.n})")
    if s.values is None or s.counts is None:
        raise ValueError("no value counts (more than MAX_COUNTED_VALUES distinct values)")
    finite = s.n - s.n_nan
    if k >= finite:
        return math.inf
    cum = np.cumsum(s.counts)
    return float(s.values[int(np.searchsorted(cum, k, side="right"))])


@dataclass(frozen=True)
class PairMoments:
    """Sufficient statistics of paired samples ``(x_i, y_i)``, mergeable exactly.

    Attributes
    ----------
    x, y, d : Moments
        Of the variant's values, the baseline's values and the differences ``x - y``.
    sxy : int or float
        Exact ``sum(x * y)`` when both are integers, else the co-moment
        ``sum((x - mean x) (y - mean y))`` (float path).
    table : tuple of int or None
        For 0/1 values: ``(both, only_x, only_y, neither)``.
    has_nan : bool
        Whether any value is ``nan`` (censored trials: not compared).
    """

    x: Moments
    y: Moments
    d: Moments
    sxy: float | int
    table: tuple[int, int, int, int] | None
    has_nan: bool = False

    @property
    def n(self) -> int:
        """Pairs."""
        return self.x.n

    def comoment(self) -> float:
        """``sum((x - mean x)(y - mean y))`` (exact, then rounded, for integer data)."""
        if self.x.s1 is not None and self.y.s1 is not None:
            n = self.n
            return float(Fraction(n * int(self.sxy) - self.x.s1 * self.y.s1, n)) if n else math.nan
        return float(self.sxy)

    def cov(self, ddof: int = 1) -> float:
        """Sample covariance."""
        return self.comoment() / (self.n - ddof) if self.n > ddof else math.nan


def pair_moments(x: npt.ArrayLike, y: npt.ArrayLike) -> PairMoments:
    """Reduce aligned paired values (shape ``(n,)`` each) to a :class:`PairMoments`.

    Raises
    ------
    ValueError
        If the lengths differ.
    """
    a, b = np.asarray(x).ravel(), np.asarray(y).ravel()
    if a.size != b.size:
        raise ValueError(f"paired samples must have the same length, got {a.size} and {b.size}")
    nan = bool((a.dtype.kind == "f" and np.isnan(a).any()) or (b.dtype.kind == "f" and np.isnan(b).any()))
    if nan:
        return PairMoments(_EMPTY, _EMPTY, _EMPTY, 0, None, True)
    if a.dtype.kind == "b":
        a = a.view(np.uint8)
    if b.dtype.kind == "b":
        b = b.view(np.uint8)
    mx, my = moments(a), moments(b)
    table = None
    if a.size and mx.vmin >= 0 and mx.vmax <= 1 and my.vmin >= 0 and my.vmax <= 1 and mx.exact and my.exact:
        both = int(np.count_nonzero(a & b)) if a.dtype.kind != "f" else int(np.count_nonzero((a == 1) & (b == 1)))
        only_x, only_y = int(mx.s1) - both, int(my.s1) - both  # type: ignore[arg-type]
        table = (both, only_x, only_y, int(a.size) - both - only_x - only_y)
    big = max(abs(mx.vmin), abs(mx.vmax)) * max(abs(my.vmin), abs(my.vmax)) if a.size else 0.0
    if mx.exact and my.exact and (big + max(abs(mx.vmin), abs(mx.vmax), abs(my.vmin), abs(my.vmax)) ** 2) * a.size < _INT64_SAFE:
        ia, ib = a.astype(np.int64, copy=False), b.astype(np.int64, copy=False)
        return PairMoments(mx, my, moments(ia - ib), int(np.dot(ia, ib)), table)
    # float path (non-integer values, or integers too large for exact int64 sums)
    mx, my = _as_float(mx, a), _as_float(my, b)
    fa, fb = a.astype(np.float64, copy=False), b.astype(np.float64, copy=False)
    n = fa.size
    co = _sum_of_products(fa - fa.mean(), fb - fb.mean()) if n else 0.0
    return PairMoments(mx, my, moments(fa - fb), co, table)


def _as_float(m: Moments, a: npt.NDArray[Any]) -> Moments:
    """``m`` on the float path (so that a pair's co-moment and its moments merge alike)."""
    if not m.exact or m.n == 0:
        return m
    f = a.astype(np.float64)
    dev = f - float(f.sum()) / m.n
    return Moments(m.n, None, None, float(f.sum()), _sum_of_products(dev, dev), m.vmin, m.vmax)


def merge_pairs(a: PairMoments, b: PairMoments) -> PairMoments:
    """Statistics of the concatenated pairs of two :class:`PairMoments` (``a`` first)."""
    if a.has_nan or b.has_nan:
        return PairMoments(_EMPTY, _EMPTY, _EMPTY, 0, None, True)
    if a.n == 0:
        return b
    if b.n == 0:
        return a
    x, y, d = merge_moments(a.x, b.x), merge_moments(a.y, b.y), merge_moments(a.d, b.d)
    table = None
    if a.table is not None and b.table is not None:
        table = tuple(u + v for u, v in zip(a.table, b.table, strict=True))  # type: ignore[assignment]
    if x.exact and y.exact:
        sxy: float | int = int(a.sxy) + int(b.sxy)
    else:
        n = a.n + b.n
        dx = b.x.total / b.n - a.x.total / a.n
        dy = b.y.total / b.n - a.y.total / a.n
        sxy = a.comoment() + b.comoment() + dx * dy * a.n * b.n / n
    return replace(a, x=x, y=y, d=d, sxy=sxy, table=table)  # type: ignore[arg-type]


class CellAccumulator:
    """A cell's chunk summaries, merged as they arrive (in any order) without holding the chunks.

    Counts and value counts are merged at once (they are exact, so order does not
    matter); each chunk's :class:`Moments` (a few numbers) are kept and merged in
    chunk order by :meth:`result`, so float sums round the same way whatever
    order the chunks finished in. Value counts of up to 32 chunks wait and are merged
    together (one sort instead of one per chunk). Memory per metric: at most
    3 x :data:`MAX_COUNTED_VALUES` value counts (the merged ones and the waiting
    ones) plus a few numbers per chunk.

    Parameters
    ----------
    split : int, default 0
        First chunk of a second stage (two-stage precision rule): the value counts
        of chunks ``split ..`` are kept apart from those before, so that
        :meth:`result` can merge the second stage alone.
    """

    #: Chunks whose value counts wait to be merged together (fewer if they hold many values).
    _MERGE_CHUNKS = 32

    def __init__(self, split: int = 0) -> None:
        self._split = split
        self._light: dict[int, dict[str, ColumnSummary]] = {}
        # value counts of chunks before ``split`` and of chunks from ``split`` on, kept apart
        # so that the chunks from ``split`` on (a two-stage rule's second stage) have their own
        self._counts: tuple[dict[str, Any], dict[str, Any]] = ({}, {})
        # value counts of chunks added since the last merge, per bucket and metric: merged in one
        # ``np.unique`` every few chunks rather than one per chunk (the command's process merges
        # while workers run, on the same cores)
        self._pending: tuple[dict[str, list[Any]], dict[str, list[Any]]] = ({}, {})
        # distinct values waiting per bucket and metric (the sum of the waiting value counts' sizes)
        self._waiting_values: tuple[dict[str, int], dict[str, int]] = ({}, {})
        self._seen = [False, False]

    def __contains__(self, k: int) -> bool:
        return k in self._light

    def add(self, k: int, summaries: dict[str, ColumnSummary]) -> None:
        """Add chunk ``k``'s per-metric summaries (a chunk already added is ignored)."""
        if k in self._light:
            return
        b = int(k >= self._split)
        counts, pending, sizes = self._counts[b], self._pending[b], self._waiting_values[b]
        for name, s in summaries.items():
            have = counts.get(name, ()) if self._seen[b] else ()
            if s.values is None or s.counts is None or have is None:
                counts[name] = None
                pending.pop(name, None)
                sizes.pop(name, None)
            elif have == ():
                counts[name] = (s.values, s.counts)
            else:
                waiting = pending.setdefault(name, [])
                waiting.append((s.values, s.counts))
                sizes[name] = size = sizes.get(name, 0) + s.values.size
                if len(waiting) >= self._MERGE_CHUNKS or size >= MAX_COUNTED_VALUES:
                    counts[name] = _merge_counts([have, *waiting])
                    del pending[name], sizes[name]
        self._seen[b] = True
        self._light[k] = {name: ColumnSummary(s.n, s.n_nan, s.n_true, s.moments, None, None)
                          for name, s in summaries.items()}

    def _merged(self, b: int, name: str) -> Any:
        """Bucket ``b``'s value counts of metric ``name`` with every pending chunk merged in (or None)."""
        counts, waiting = self._counts[b], self._pending[b].pop(name, None)
        self._waiting_values[b].pop(name, None)
        if waiting and counts.get(name) is not None:
            counts[name] = _merge_counts([counts[name], *waiting])
        return counts.get(name)

    def result(self, n_chunks: int, first: int = 0) -> dict[str, ColumnSummary]:
        """The merged summary of chunks ``first .. n_chunks-1`` per metric.

        Parameters
        ----------
        n_chunks : int
            Chunks of the cell (all of ``0 .. n_chunks-1`` must have been added).
        first : int, default 0
            First chunk merged: 0, or the ``split`` the accumulator was made with.

        Raises
        ------
        ValueError
            If the chunks added are not exactly ``0 .. n_chunks-1``, ``first`` is
            neither 0 nor the split, or no chunk is left to merge.
        """
        if sorted(self._light) != list(range(n_chunks)):
            raise ValueError(f"chunks {sorted(self._light)} summarised, expected 0..{n_chunks - 1}")
        if first not in (0, self._split) or first >= n_chunks:
            raise ValueError(f"first = {first}, must be 0 or {self._split} and below {n_chunks}")
        buckets = [b for b, lo, hi in ((0, 0, self._split), (1, self._split, n_chunks))
                   if max(lo, first) < min(hi, n_chunks)]
        out: dict[str, ColumnSummary] = {}
        for name in self._light[first]:
            merged = merge_columns(self._light[k][name] for k in range(first, n_chunks))
            parts = [self._merged(b, name) for b in buckets]
            counted = None if any(c is None for c in parts) else (
                parts[0] if len(parts) == 1 else _merge_counts(parts))
            out[name] = replace(merged, values=None if counted is None else counted[0],
                                counts=None if counted is None else counted[1])
        return out
