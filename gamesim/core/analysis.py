"""Comparisons of variants (paired, for common random numbers) and whole distributions.

Two things a designer asks after "how often?":

- *How much better is variant B than A?* :func:`paired_difference` and
  :func:`paired_ratio` take the per-trial values of two cells whose trial ``i``
  are paired (drawn with the same random numbers, or simply matched by index)
  and give the difference ``B - A`` (and ratio ``B / A``) with a 95% interval
  that uses the pairing: a Student-t interval on the per-trial differences for
  means, Tango's score interval for paired proportions, the score interval of
  Nam-Blackwelder / Tang-Tang-Chan for the ratio of paired proportions and
  Fieller's interval for the ratio of paired means. The formulas live in
  :mod:`gamesim.core.stats` as functions of the paired 2x2 table or the pairs'
  moments. A ratio whose baseline never happened is not dropped: it comes back
  with the note ``"not estimable (baseline 0 in n trials)"`` and the interval
  the data still give (``[lower, inf)``).
- *What does the whole distribution look like?* :func:`distribution_table`
  tabulates an integer-valued metric's probability mass function with the
  "at least k" and "at most k" views (as AnyDice and icepool show them), each
  probability with its Wilson 95% interval, over the metric's whole support
  where it is finite and known (values never seen get rows with count 0), and
  a simultaneous 95% band for the "at least"/"at most" curves (DKW).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from gamesim.core.stats import (
    CONFIDENCE,
    Estimate,
    dkw_half_width,
    mean_estimate_from_moments,
    paired_mean_ratio,
    paired_proportion_difference,
    paired_proportion_ratio,
    proportion_estimate,
    wilson_bounds,
)
from gamesim.core.summary import Moments, PairMoments, pair_moments

__all__ = [
    "paired_difference",
    "paired_difference_from_moments",
    "paired_ratio",
    "paired_ratio_from_moments",
    "paired_table",
    "rank_cases",
    "unpaired_half_width",
    "unpaired_half_width_from_moments",
    "distribution_table_from_counts",
    "wilson_interval",
    "distribution_table",
    "exact_pmf",
    "with_exact_columns",
    "MAX_DISTINCT_VALUES",
]

#: A metric with more distinct values than this in a cell is not tabulated as a PMF.
MAX_DISTINCT_VALUES = 200


def _pair(x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(x, dtype=np.float64).ravel()
    b = np.asarray(y, dtype=np.float64).ravel()
    if a.size != b.size:
        raise ValueError(f"paired samples must have the same length, got {a.size} and {b.size}")
    if a.size < 2:
        raise ValueError(f"a paired comparison needs at least 2 pairs, got {a.size}")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("paired samples contain nan (censored trials); compare their quantiles instead")
    return a, b


def paired_difference(
    variant: npt.ArrayLike, baseline: npt.ArrayLike, *, kind: str, confidence: float = CONFIDENCE
) -> tuple[Estimate, float]:
    """Difference ``mean(variant) - mean(baseline)`` of paired samples, with a paired 95% interval.

    Parameters
    ----------
    variant, baseline : array_like, shape (n,)
        Per-trial values; trial ``i`` of one is paired with trial ``i`` of the
        other (common random numbers, or any matching of independent trials).
        Booleans (or 0/1) for ``kind="proportion"``.
    kind : {"proportion", "mean"}
        ``"proportion"``: Tango's score interval from the paired 2x2 table
        (:func:`gamesim.core.stats.paired_proportion_difference`; never a point,
        even at 0/n or n/n).
        ``"mean"``: Student-t interval on the per-trial differences.
    confidence : float, default 0.95

    Returns
    -------
    (Estimate, float)
        The difference (``n`` = pairs, ``se`` from the per-trial differences)
        and the correlation between the paired samples (``nan`` when one sample
        is constant): the gain from common random numbers shows in it.

    Raises
    ------
    ValueError
        Unequal lengths, fewer than 2 pairs, ``nan`` values, or an unknown kind.
    """
    a, b = _pair(variant, baseline)
    return paired_difference_from_moments(pair_moments(a, b), kind=kind, confidence=confidence)


def _corr(pm: PairMoments) -> float:
    """Pearson correlation of the pairs (``nan`` when one sample is constant), as ``np.corrcoef``."""
    if pm.x.constant or pm.y.constant:
        return math.nan
    vx, vy = pm.x.var(), pm.y.var()
    if not (vx > 0 and vy > 0):
        return math.nan
    return float(min(1.0, max(-1.0, pm.cov() / math.sqrt(vx) / math.sqrt(vy))))


def paired_difference_from_moments(
    pm: PairMoments, *, kind: str, confidence: float = CONFIDENCE
) -> tuple[Estimate, float]:
    """:func:`paired_difference` from the pairs' sufficient statistics.

    Parameters
    ----------
    pm : gamesim.core.summary.PairMoments
        Moments of both samples and of the differences, the cross product and,
        for 0/1 values, the paired 2x2 table (merged chunk by chunk by a sweep).
    kind : {"proportion", "mean"}
    confidence : float, default 0.95

    Returns
    -------
    (Estimate, float)
        As :func:`paired_difference`.

    Raises
    ------
    ValueError
        Fewer than 2 pairs, censored values, an unknown kind, or ``kind="proportion"``
        on values other than 0/1.
    """
    n = pm.n
    if pm.has_nan:
        raise ValueError("paired samples contain nan (censored trials); compare their quantiles instead")
    if n < 2:
        raise ValueError(f"a paired comparison needs at least 2 pairs, got {n}")
    corr = _corr(pm)
    se = pm.d.std(ddof=1) / math.sqrt(n)
    if kind == "mean":
        return mean_estimate_from_moments(pm.d, confidence=confidence), corr
    if kind != "proportion":
        raise ValueError(f"kind = {kind!r}, must be 'proportion' or 'mean'")
    if pm.table is None:
        raise ValueError("kind = 'proportion' needs 0/1 values")
    est = paired_proportion_difference(*pm.table, confidence=confidence)
    return Estimate(est.n, est.estimate, se, est.ci_low, est.ci_high), corr


def paired_table(variant: npt.ArrayLike, baseline: npt.ArrayLike) -> tuple[int, int, int, int]:
    """The paired 2x2 table of two boolean (0/1) samples.

    Parameters
    ----------
    variant, baseline : array_like of bool, shape (n,)
        Paired per-trial outcomes (non-zero counts as success).

    Returns
    -------
    (int, int, int, int)
        ``(n11, n10, n01, n00)``: both succeed, variant only, baseline only, neither.
    """
    ia = np.asarray(variant).astype(bool).ravel()
    ib = np.asarray(baseline).astype(bool).ravel()
    n11 = int(np.sum(ia & ib))
    n10 = int(np.sum(ia & ~ib))
    n01 = int(np.sum(~ia & ib))
    return n11, n10, n01, ia.size - n11 - n10 - n01


def paired_ratio(
    variant: npt.ArrayLike, baseline: npt.ArrayLike, *, kind: str = "mean", confidence: float = CONFIDENCE
) -> tuple[Estimate, str] | None:
    """Ratio ``mean(variant) / mean(baseline)`` of paired non-negative samples.

    Parameters
    ----------
    variant, baseline : array_like, shape (n,)
        Paired per-trial values, all ``>= 0`` (counts, proportions' 0/1).
    kind : {"mean", "proportion"}, default "mean"
        ``"proportion"``: score interval from the paired 2x2 table
        (:func:`gamesim.core.stats.paired_proportion_ratio`). ``"mean"``: Fieller's
        interval from the pairs' moments (:func:`gamesim.core.stats.paired_mean_ratio`).
    confidence : float, default 0.95

    Returns
    -------
    (Estimate, str) or None
        The ratio and a note: ``""``, or ``"not estimable (baseline 0 in n
        trials)"`` (estimate ``nan``, interval ``[lower, inf)``) where the baseline
        never happened; ``None`` only where a ratio makes no sense (a negative value).

    Raises
    ------
    ValueError
        As :func:`paired_difference`, or an unknown kind.
    """
    a, b = _pair(variant, baseline)
    return paired_ratio_from_moments(pair_moments(a, b), kind=kind, confidence=confidence)


def paired_ratio_from_moments(
    pm: PairMoments, *, kind: str = "mean", confidence: float = CONFIDENCE
) -> tuple[Estimate, str] | None:
    """:func:`paired_ratio` from the pairs' sufficient statistics (see :func:`paired_difference_from_moments`).

    Parameters
    ----------
    pm : gamesim.core.summary.PairMoments
        The pairs' moments and, for 0/1 values, their 2x2 table.
    kind : {"mean", "proportion"}, default "mean"
    confidence : float, default 0.95

    Returns
    -------
    (Estimate, str) or None
        As :func:`paired_ratio`.

    Raises
    ------
    ValueError
        Fewer than 2 pairs, censored values, an unknown kind, or ``kind="proportion"``
        on values other than 0/1.
    """
    if pm.has_nan or pm.n < 2:
        raise ValueError("a paired ratio needs at least 2 pairs without nan")
    if pm.x.vmin < 0 or pm.y.vmin < 0:
        return None
    if kind == "proportion":
        if pm.table is None:
            raise ValueError("kind = 'proportion' needs 0/1 values")
        return paired_proportion_ratio(*pm.table, confidence=confidence)
    if kind != "mean":
        raise ValueError(f"kind = {kind!r}, must be 'proportion' or 'mean'")
    n = pm.n
    return paired_mean_ratio(
        n, float(pm.x.total), float(pm.y.total), _sum_sq(pm.x), _sum_sq(pm.y),
        float(pm.sxy) if pm.x.exact and pm.y.exact else pm.comoment() + pm.x.total * pm.y.total / n,
        confidence=confidence,
    )


def _sum_sq(m: Moments) -> float:
    """``sum(x**2)`` of a sample from its moments (exact integers where the sample is integral)."""
    if m.exact:
        return float(m.s2)  # type: ignore[arg-type]
    return m.m2 + m.total * m.total / m.n


def unpaired_half_width(variant: npt.ArrayLike, baseline: npt.ArrayLike, *, kind: str) -> float:
    """Half-width the difference's interval would have from two independent samples of these sizes.

    The Newcombe (proportions) or Welch-style MOVER (means) interval built from
    each sample's own interval, ignoring the pairing: what the comparison would
    cost without common random numbers. Used to report how much the pairing
    narrows the interval.
    """
    a, b = _pair(variant, baseline)
    return unpaired_half_width_from_moments(pair_moments(a, b), kind=kind)


def unpaired_half_width_from_moments(pm: PairMoments, *, kind: str) -> float:
    """:func:`unpaired_half_width` from the pairs' sufficient statistics."""
    from gamesim.core.stats import difference_estimate

    if kind == "proportion":
        ea = proportion_estimate(int(round(pm.x.total)), pm.n)
        eb = proportion_estimate(int(round(pm.y.total)), pm.n)
    else:
        ea, eb = mean_estimate_from_moments(pm.x), mean_estimate_from_moments(pm.y)
    return difference_estimate(ea, eb).half_width


def wilson_interval(
    k: npt.ArrayLike, n: int, *, confidence: float = CONFIDENCE
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Wilson score intervals for many proportions ``k / n`` at once.

    The closed form of the Wilson score interval (the same interval as
    ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``, checked
    against it in the tests), vectorized so a whole PMF's intervals cost one
    numpy expression instead of one scipy call per value.

    Parameters
    ----------
    k : array_like of int
        Successes, each in ``[0, n]``.
    n : int
        Trials, ``>= 1``.
    confidence : float, default 0.95

    Returns
    -------
    (ndarray, ndarray)
        Lower and upper bounds, shape of ``k``, float64.
    """
    return wilson_bounds(k, n, confidence=confidence)


def distribution_table(
    values: npt.ArrayLike,
    *,
    max_distinct: int = MAX_DISTINCT_VALUES,
    support: tuple[float, float] | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame | None:
    """The probability mass function of an integer-valued metric, with "at least" and "at most" views.

    Parameters
    ----------
    values : array_like, shape (n,)
        Per-trial values. ``nan`` marks a right-censored trial (the event did
        not happen within the cap): it counts towards every "at least k" and no
        "at most k", and has no PMF row.
    max_distinct : int, default 200
        Most rows per table. With more distinct values the rows are thinned: ``k`` runs over (up to)
        ``max_distinct`` integers evenly spaced from the smallest to the largest value, and every
        column is still exact at its ``k`` (``count`` and ``pmf`` are those of ``X = k``; ``at_least``
        and ``at_most`` count every trial), so P(X ≥ k) can be read and drawn at a resolution of
        (largest − smallest) / ``max_distinct``. Column ``thinned`` says so.
    support : (float, float), optional
        The range the metric's values are known to lie in (a task's
        ``Metric.bounds``). Where both ends are finite integers the table has one
        row for every integer in it, values never seen included (count 0, Wilson
        interval ``[0, ~3.8/n]``), so a rare value's row does not appear only when
        it happened to be seen. Otherwise the rows are the observed values.
    confidence : float, default 0.95

    Returns
    -------
    pandas.DataFrame or None
        One row per value ``k``, sorted, with columns ``value``, ``count``,
        ``n``, ``censored``, ``pmf``, ``pmf_low``, ``pmf_high``, ``at_least``,
        ``at_least_low``, ``at_least_high``, ``at_most``, ``at_most_low``,
        ``at_most_high`` (probabilities with **pointwise** Wilson 95% intervals:
        each row holds its truth 95% of the time), ``at_least_band_low``,
        ``at_least_band_high``, ``at_most_band_low``, ``at_most_band_high`` (the
        **simultaneous** 95% band: the whole curve lies inside it 95% of the
        time; DKW, :func:`gamesim.core.stats.dkw_half_width`, clipped to
        ``[0, 1]``), ``band_half_width`` and ``full_support`` (whether rows cover
        the whole known support) and ``thinned`` (rows at selected ``k`` only, see
        ``max_distinct``). ``None`` if a finite value is not an integer or lies outside
        ``support``.
    """
    a = np.asarray(values, dtype=np.float64).ravel()
    n = a.size
    if n == 0:
        return None
    finite = a[~np.isnan(a)]
    if finite.size and (not np.all(np.isfinite(finite)) or not np.all(finite == np.round(finite))):
        return None
    vals, counts = np.unique(finite, return_counts=True)
    return distribution_table_from_counts(
        vals, counts, n, max_distinct=max_distinct, support=support, confidence=confidence
    )


def distribution_table_from_counts(
    values: npt.ArrayLike,
    counts: npt.ArrayLike,
    n: int,
    *,
    max_distinct: int = MAX_DISTINCT_VALUES,
    support: tuple[float, float] | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame | None:
    """:func:`distribution_table` from value counts (e.g. merged chunk by chunk by a sweep).

    Parameters
    ----------
    values : array_like, shape (k,)
        The distinct finite values, sorted ascending.
    counts : array_like of int, shape (k,)
        How often each occurred.
    n : int
        Trials, censored ones (``nan``) included: ``n - sum(counts)`` are censored.
    max_distinct : int, default 200
    support : (float, float), optional
        As :func:`distribution_table`: rows for the whole finite integer support.
    confidence : float, default 0.95

    Returns
    -------
    pandas.DataFrame or None
        As :func:`distribution_table`.
    """
    vals = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.int64)
    if n == 0:
        return None
    if vals.size and (not np.all(np.isfinite(vals)) or not np.all(vals == np.round(vals))):
        return None
    full = False
    if support is not None:
        lo_s, hi_s = float(support[0]), float(support[1])
        if math.isfinite(lo_s) and math.isfinite(hi_s) and lo_s == round(lo_s) and hi_s == round(hi_s):
            if vals.size and (vals[0] < lo_s or vals[-1] > hi_s):
                return None
            grid = np.arange(int(lo_s), int(hi_s) + 1, dtype=np.float64)
            if grid.size <= max_distinct:
                full_counts = np.zeros(grid.size, dtype=np.int64)
                full_counts[np.searchsorted(grid, vals)] = counts
                vals, counts, full = grid, full_counts, True
    if vals.size == 0:
        return None
    censored = n - int(counts.sum())
    thinned = vals.size > max_distinct
    if thinned:  # k on an even grid from the smallest to the largest value; every column stays exact at its k
        grid = np.unique(np.round(np.linspace(vals[0], vals[-1], max_distinct)))
        at = np.searchsorted(vals, grid, side="left")  # < vals.size: the grid ends at the largest value
        below = np.concatenate([[0], np.cumsum(counts)])[at]  # trials with a value < k
        counts = np.where(vals[at] == grid, counts[at], 0)
        vals = grid
        at_most = below + counts
    else:
        at_most = np.cumsum(counts)
    at_least = n - at_most + counts
    # the columns first, the frame once (inserting 20 columns one by one cost 16 ms a table, most of a
    # small sweep's summary)
    size = vals.size
    cols: dict[str, Any] = {"value": vals.astype(np.int64), "count": counts.astype(np.int64),
                            "n": np.full(size, n, dtype=np.int64), "censored": np.full(size, censored, dtype=np.int64)}
    for name, k in (("pmf", counts), ("at_least", at_least), ("at_most", at_most)):
        lo, hi = wilson_interval(k, n, confidence=confidence)
        cols[name] = k / n
        cols[f"{name}_low"] = lo
        cols[f"{name}_high"] = hi
    eps = dkw_half_width(n, confidence=confidence)
    for name in ("at_least", "at_most"):
        cols[f"{name}_band_low"] = np.clip(cols[name] - eps, 0.0, 1.0)
        cols[f"{name}_band_high"] = np.clip(cols[name] + eps, 0.0, 1.0)
    cols["band_half_width"] = np.full(size, eps, dtype=np.float64)
    cols["full_support"] = np.full(size, full, dtype=bool)
    cols["thinned"] = np.full(size, thinned, dtype=bool)
    return pd.DataFrame(cols)


def exact_pmf(exact: Mapping[str, float], metric: str) -> dict[int, float]:
    """A metric's exact probability mass function from a task's exact values, or ``{}``.

    Parameters
    ----------
    exact : mapping of str to float
        A task's exact values (:attr:`gamesim.core.registry.Task.exact`); the PMF is
        given as keys ``"<metric>:pmf=<k>"`` with ``k`` an integer value.
    metric : str

    Returns
    -------
    dict of int to float
        ``{k: P(X = k)}`` for every ``k`` the task lists. The probabilities may sum to
        less than 1: the rest is the probability of a censored trial (``nan``, the event
        did not happen within the cap).

    Raises
    ------
    ValueError
        If a key's ``k`` is not an integer, or a probability lies outside ``[0, 1]``.
    """
    prefix = f"{metric}:pmf="
    out: dict[int, float] = {}
    for key, p in exact.items():
        if not key.startswith(prefix):
            continue
        k = float(key[len(prefix):])
        if k != round(k) or not 0.0 <= float(p) <= 1.0 + 1e-9:
            raise ValueError(f"exact value {key!r} = {p!r}: needs an integer k and a probability in [0, 1]")
        out[int(k)] = float(p)
    return out


def with_exact_columns(dist: pd.DataFrame, pmf: Mapping[int, float]) -> pd.DataFrame:
    """A distribution table (:func:`distribution_table`) with the exact curves beside the estimated ones.

    Parameters
    ----------
    dist : pandas.DataFrame
        One cell's table: a ``value`` column, one row per ``k``.
    pmf : mapping of int to float
        The exact PMF (:func:`exact_pmf`); mass missing from it is censored (``nan``, counted as
        ``+inf`` as in the estimated table: in every "at least k", no "at most k").

    Returns
    -------
    pandas.DataFrame
        A copy with ``pmf_exact`` (0 where ``k`` is not listed), ``at_least_exact`` (1 minus the exact
        mass below ``k``) and ``at_most_exact`` (the exact mass up to ``k``), float64; ``dist``
        itself where ``pmf`` is empty.
    """
    if not pmf:
        return dist
    ks = np.array(sorted(pmf), dtype=np.float64)
    ps = np.array([pmf[int(k)] for k in ks], dtype=np.float64)
    cum = np.concatenate([[0.0], np.cumsum(ps)])
    v = dist["value"].to_numpy(np.float64)
    out = dist.copy()
    out["pmf_exact"] = [float(pmf.get(int(k), 0.0)) for k in v]
    below = cum[np.searchsorted(ks, v, side="left")]
    upto = cum[np.searchsorted(ks, v, side="right")]
    out["at_least_exact"] = np.clip(1.0 - below, 0.0, 1.0)
    out["at_most_exact"] = np.clip(upto, 0.0, 1.0)
    return out


def rank_cases(table: pd.DataFrame, comparisons: pd.DataFrame, *, better: str = "higher") -> pd.DataFrame:
    """The best value of the compared dimension, and the values indistinguishable from it, per family.

    Parameters
    ----------
    table : pandas.DataFrame
        A sweep's tidy results (:attr:`gamesim.run.sweep.SweepResult.table`).
    comparisons : pandas.DataFrame
        Its comparisons (:func:`gamesim.run.sweep.comparison_table`) with ``p_holm``
        and ``different`` columns; with ``[compare] pairs = "all"`` every pair is there.
    better : {"higher", "lower"}, default "higher"
        Which direction of the metric is better.

    Returns
    -------
    pandas.DataFrame
        One row per compared cell and metric: ``part, metric, dimension, value``,
        the other dimensions' values, ``cell, n, estimate, ci_low, ci_high``,
        ``rank`` (1 = best point estimate), ``best`` (bool), ``p_holm_vs_best``
        (Holm-adjusted p-value of its paired difference with the best; ``nan`` for
        the best itself or where that pair was not compared) and
        ``indistinguishable_from_best``: ``True`` for the best and for every value
        whose difference with it is not significant at the family-wise 5% level
        (``pd.NA`` where that pair was not compared, e.g. two variants under
        ``pairs = "baseline"``). Empty when there are no comparisons.

    Raises
    ------
    ValueError
        If ``better`` is not ``"higher"`` or ``"lower"``.
    """
    if better not in ("higher", "lower"):
        raise ValueError(f"better = {better!r}, must be 'higher' or 'lower'")
    if comparisons.empty:
        return pd.DataFrame()
    d = comparisons[comparisons["statistic"] == "difference"]
    dim = str(d["dimension"].iloc[0])
    out: list[dict[str, object]] = []
    primary = table[table["statistic"].isin(["proportion", "mean"])]
    by_metric = {key: g for key, g in primary.groupby(["part", "metric"], sort=False)}
    for (part, metric), g in d.groupby(["part", "metric"], sort=False):
        fam_cols = [c for c in g.columns if c not in _COMPARISON_FIXED and g[c].notna().any()]
        families = g.groupby([g[c].astype(str) for c in fam_cols], sort=False) if fam_cols else [((), g)]
        rows_pm = by_metric.get((part, metric))
        for _, fam in families:
            cells = sorted(set(fam["cell"]) | set(fam["baseline_cell"]))
            t = rows_pm[rows_pm["cell"].isin(cells)] if rows_pm is not None else primary.iloc[:0]
            if t.empty:
                continue
            t = t.sort_values("estimate", ascending=better == "lower", kind="stable")
            best = int(t["cell"].iloc[0])
            value_of = {int(r.cell): r.variant for r in fam.itertuples()}
            value_of.update({int(r.baseline_cell): r.baseline for r in fam.itertuples()})
            # the family's first row of each (cell, baseline cell) pair, in the family's order
            first_row: dict[tuple[int, int], int] = {}
            for i, (fc, fb) in enumerate(zip(fam["cell"], fam["baseline_cell"])):
                first_row.setdefault((int(fc), int(fb)), i)
            p_col, diff_col = fam["p_holm"].to_numpy(), fam["different"].to_numpy()
            for rank, r in enumerate(t.itertuples(), start=1):
                c = int(r.cell)
                hits = [i for i in (first_row.get((c, best)), first_row.get((best, c))) if i is not None]
                at = min(hits) if hits else None
                p_holm = float(p_col[at]) if at is not None else math.nan
                same = True if c == best else (bool(not diff_col[at]) if at is not None else pd.NA)
                row: dict[str, object] = {"part": part, "metric": metric, "dimension": dim, "value": value_of.get(c)}
                row.update({k: fam[k].iloc[0] for k in fam_cols})
                row.update({"cell": c, "n": int(r.n), "estimate": r.estimate, "ci_low": r.ci_low,
                            "ci_high": r.ci_high, "rank": rank, "best": c == best,
                            "p_holm_vs_best": p_holm if c != best else math.nan,
                            "indistinguishable_from_best": same})
                out.append(row)
    res = pd.DataFrame(out)
    if not res.empty:
        res["indistinguishable_from_best"] = res["indistinguishable_from_best"].astype("boolean")
    return res


#: Columns of a comparisons table that are not the other dimensions of the compared cells.
_COMPARISON_FIXED = frozenset(
    {"scenario", "part", "metric", "statistic", "dimension", "baseline", "variant", "cell", "baseline_cell", "crn",
     "correlation", "n", "estimate", "se", "ci_low", "ci_high", "exact", "unpaired_half_width", "note", "p_value",
     "family_size", "ci_low_adj", "ci_high_adj", "p_holm", "different"}
)
