"""Decision statistics of the target search: one interval per constraint, one status per setting.

A constraint is *met* when its interval lies inside the target band, *violated* when it lies wholly
outside it, *undecided* otherwise (:func:`constraint_decision`); a setting is *feasible* when every
constraint is met and *infeasible* when one is violated (:func:`decide`). The intervals are Wilson
(proportions), Student-t (means) or distribution-free (quantiles), from :mod:`gamesim.core.stats`,
at the confidence the evaluator (:mod:`gamesim.analysis.search.evaluator`) asks for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.stats import Estimate, mean_estimate, proportion_estimate, quantile_estimate

__all__ = ["STATUSES", "constraint_decision", "decide"]

#: Status of a setting in a search result.
STATUSES = ("feasible", "infeasible", "undecided", "not evaluated")


def _interval(values: npt.NDArray[Any], kind: str, statistic: str, confidence: float) -> Estimate:
    if statistic == "proportion":
        x = np.asarray(values, dtype=bool)
        return proportion_estimate(int(x.sum()), x.size, confidence=confidence)
    x = np.asarray(values, dtype=np.float64)
    if statistic == "mean":
        if np.isnan(x).any():  # censored trials: the mean is not estimable
            return Estimate(x.size, math.nan, math.nan, -math.inf, math.inf)
        return mean_estimate(x, confidence=confidence)
    return quantile_estimate(x, int(statistic[1:]) / 100, confidence=confidence)


def constraint_decision(ci_low: float, ci_high: float, low: float, high: float) -> str:
    """Decide one constraint from an interval.

    Parameters
    ----------
    ci_low, ci_high : float
        The interval (equal for an exact value).
    low, high : float
        The target band, inclusive.

    Returns
    -------
    {"met", "violated", "undecided"}
        ``met`` if the interval lies inside ``[low, high]``, ``violated`` if it
        lies wholly outside it, ``undecided`` otherwise.
    """
    if ci_high < low or ci_low > high:
        return "violated"
    if ci_low >= low and ci_high <= high:
        return "met"
    return "undecided"


def decide(decisions: Sequence[str]) -> str:
    """Combine constraint decisions: feasible if all met, infeasible if one is violated, else undecided."""
    if any(d == "violated" for d in decisions):
        return "infeasible"
    if all(d == "met" for d in decisions):
        return "feasible"
    return "undecided"
