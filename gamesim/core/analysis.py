"""Comparisons of variants (paired, for common random numbers) and whole distributions.

Two things a designer asks after "how often?":

- *How much better is variant B than A?* :func:`paired_difference` and
  :func:`paired_ratio` take the per-trial values of two cells whose trial ``i``
  are paired (drawn with the same random numbers, or simply matched by index)
  and give the difference ``B - A`` (and ratio ``B / A``) with a 95% interval
  that uses the pairing: a Student-t interval on the per-trial differences for
  means, Newcombe's hybrid score interval for paired proportions (method 10 of
  Newcombe 1998, the MOVER interval with the phi correlation of the 2x2 table)
  for proportions, and a delta-method interval on the log scale for ratios.
- *What does the whole distribution look like?* :func:`distribution_table`
  tabulates an integer-valued metric's probability mass function with the
  "at least k" and "at most k" views (as AnyDice and icepool show them), each
  probability with its Wilson 95% interval.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats as sps

from gamesim.core.stats import (
    CONFIDENCE,
    Estimate,
    mean_estimate_from_moments,
    proportion_estimate,
)
from gamesim.core.summary import PairMoments, pair_moments

__all__ = [
    "paired_difference",
    "paired_difference_from_moments",
    "paired_ratio",
    "paired_ratio_from_moments",
    "unpaired_half_width",
    "unpaired_half_width_from_moments",
    "distribution_table_from_counts",
    "wilson_interval",
    "distribution_table",
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
        ``"proportion"``: Newcombe's paired hybrid score interval (MOVER with
        the phi coefficient of the paired 2x2 table; Newcombe 1998, method 10).
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
    both, only_a, only_b, neither = pm.table
    pa_ = proportion_estimate(both + only_a, n, confidence=confidence)
    pb_ = proportion_estimate(both + only_b, n, confidence=confidence)
    den = (both + only_a) * (neither + only_b) * (both + only_b) * (neither + only_a)
    phi = (both * neither - only_a * only_b) / math.sqrt(den) if den > 0 else 0.0
    p1, l1, u1 = pa_.estimate, pa_.ci_low, pa_.ci_high
    p2, l2, u2 = pb_.estimate, pb_.ci_low, pb_.ci_high
    diff = p1 - p2
    lo = diff - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    hi = diff + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return Estimate(n, diff, se, max(-1.0, lo), min(1.0, hi)), corr


def paired_ratio(
    variant: npt.ArrayLike, baseline: npt.ArrayLike, *, confidence: float = CONFIDENCE
) -> Estimate | None:
    """Ratio ``mean(variant) / mean(baseline)`` of paired non-negative samples.

    Parameters
    ----------
    variant, baseline : array_like, shape (n,)
        Paired per-trial values, all ``>= 0`` (counts, proportions' 0/1).
    confidence : float, default 0.95

    Returns
    -------
    Estimate or None
        The ratio with a delta-method interval on the log scale that uses the
        covariance of the pairs; ``None`` where a ratio makes no sense (a
        negative value, or either mean equal to 0).

    Raises
    ------
    ValueError
        As :func:`paired_difference`.
    """
    a, b = _pair(variant, baseline)
    return paired_ratio_from_moments(pair_moments(a, b), confidence=confidence)


def paired_ratio_from_moments(pm: PairMoments, *, confidence: float = CONFIDENCE) -> Estimate | None:
    """:func:`paired_ratio` from the pairs' sufficient statistics (see :func:`paired_difference_from_moments`)."""
    if pm.has_nan or pm.n < 2:
        raise ValueError("a paired ratio needs at least 2 pairs without nan")
    if pm.x.vmin < 0 or pm.y.vmin < 0:
        return None
    ma, mb = pm.x.mean(), pm.y.mean()
    if ma <= 0 or mb <= 0:
        return None
    n = pm.n
    var_log = (pm.x.var() / ma**2 + pm.y.var() / mb**2 - 2 * pm.cov() / (ma * mb)) / n
    se_log = math.sqrt(max(var_log, 0.0))
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    r = ma / mb
    return Estimate(n, r, r * se_log, r * math.exp(-z * se_log), r * math.exp(z * se_log))


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
    kk = np.asarray(k, dtype=np.float64)
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    p = kk / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def distribution_table(values: npt.ArrayLike, *, max_distinct: int = MAX_DISTINCT_VALUES) -> pd.DataFrame | None:
    """The probability mass function of an integer-valued metric, with "at least" and "at most" views.

    Parameters
    ----------
    values : array_like, shape (n,)
        Per-trial values. ``nan`` marks a right-censored trial (the event did
        not happen within the cap): it counts towards every "at least k" and no
        "at most k", and has no PMF row.
    max_distinct : int, default 200
        Above this many distinct values the metric is not tabulated.

    Returns
    -------
    pandas.DataFrame or None
        One row per observed value ``k``, sorted, with columns ``value``,
        ``count``, ``n``, ``censored``, ``pmf``, ``pmf_low``, ``pmf_high``,
        ``at_least``, ``at_least_low``, ``at_least_high``, ``at_most``,
        ``at_most_low``, ``at_most_high`` (probabilities with Wilson 95%
        intervals); ``None`` if a finite value is not an integer or there are
        too many distinct values.
    """
    a = np.asarray(values, dtype=np.float64).ravel()
    n = a.size
    if n == 0:
        return None
    finite = a[~np.isnan(a)]
    if finite.size and (not np.all(np.isfinite(finite)) or not np.all(finite == np.round(finite))):
        return None
    vals, counts = np.unique(finite, return_counts=True)
    return distribution_table_from_counts(vals, counts, n, max_distinct=max_distinct)


def distribution_table_from_counts(
    values: npt.ArrayLike, counts: npt.ArrayLike, n: int, *, max_distinct: int = MAX_DISTINCT_VALUES
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

    Returns
    -------
    pandas.DataFrame or None
        As :func:`distribution_table`.
    """
    vals = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.int64)
    if vals.size and (not np.all(np.isfinite(vals)) or not np.all(vals == np.round(vals))):
        return None
    if vals.size > max_distinct or vals.size == 0:
        return None
    censored = n - int(counts.sum())
    at_most = np.cumsum(counts)
    at_least = n - at_most + counts
    out = pd.DataFrame({"value": vals.astype(np.int64), "count": counts.astype(np.int64)})
    out["n"] = n
    out["censored"] = censored
    for name, k in (("pmf", counts), ("at_least", at_least), ("at_most", at_most)):
        lo, hi = wilson_interval(k, n)
        out[name] = k / n
        out[f"{name}_low"] = lo
        out[f"{name}_high"] = hi
    return out
