"""Design targets: find the rule settings that hit a designer's target, with honest decisions.

A scenario with a ``[target]`` table (or :func:`search` in Python) names one
part of the scenario, the rule parameters to search over and constraints on
metrics::

    [target]
    part = "completion"          # optional when the scenario has one part
    alpha = 0.05                 # error rate per reported setting (see Notes)
    n_start = 2000               # trials at the first look (default: n_trials)
    max_trials = 64000           # trials per setting at the last look
    method = "auto"              # "auto", "bisect" or "grid"
    prefer = "closest"           # "closest", "smallest" or "largest"
    [target.params]
    bag_n = { min = 10, max = 120 }            # integers, step 1 (or give step)
    # float: { min = 0.1, max = 0.9, step = 0.1 }; any kind: a list of values
    [[target.constraints]]
    metric = "complete"
    low = 0.45                   # and/or high; or value = 0.5, tolerance = 0.05
    high = 0.55
    monotone = "decreasing"      # optional: the metric falls as the parameter rises

Every setting is reported **feasible**, **infeasible**, **undecided** (its
intervals still straddle a bound at ``max_trials``) or **not evaluated** (a
staged grid skipped it: every coarse setting around it was decided the same
way); never guessed.

Decision rule (Notes of :func:`search`): each setting is looked at after
``n_1 < n_2 < ... < n_K`` trials (doubling from ``n_start`` to ``max_trials``);
at every look each sampled constraint gets a two-sided interval at confidence
``1 - alpha / (K m)`` (``m`` sampled constraints; Wilson for proportions,
Student-t for means). A constraint is met when its interval lies inside
``[low, high]`` and violated when the interval lies outside it; a setting is
feasible when every constraint is met, infeasible when one is violated. By
Bonferroni over the ``K m`` intervals (``K m D`` in a bisection of ``D``
levels), a setting whose true value violates the
target is declared feasible with probability at most ``alpha`` (and a truly
feasible one declared infeasible with at most ``alpha``), whatever the
stopping. Where the game's exact solver covers a cell (``Task.exact``), its
value is used and the decision is exact.

Random numbers: every setting draws chunk ``k`` from the same child seed
``(0, 0, k)`` of the run's root seed (common random numbers), so neighbouring
settings are compared on the same dice and the boundary is located with less
noise; a look that adds trials extends the same stream (no trial is wasted).
Chunks are run by :func:`gamesim.run.sweep.run_chunk`, the sweep engine's own
worker, with the same seeding.

Modules, one concern each (every name is importable from this package, and from its old name
``gamesim.core.search``, which is this package):

:mod:`~gamesim.analysis.search.decisions`
    the intervals and the met / violated / undecided and feasible / infeasible decisions;
:mod:`~gamesim.analysis.search.evaluator`
    per-setting data, sequential looks, exact values, common random numbers;
:mod:`~gamesim.analysis.search.algorithms`
    bisection, the staged grid, and :func:`search`, which picks one;
:mod:`~gamesim.analysis.search.result`
    :class:`SearchResult` (summary, table, plot) and the recommendation.

The ``[target]`` table is parsed by :mod:`gamesim.analysis.target`.
"""

from __future__ import annotations

from typing import Any

from gamesim.analysis.search.algorithms import (  # noqa: F401
    _bisect_1d,
    _monotone_contradictions,
    _neighbours_zone,
    _signature,
    _staged_grid,
    search,
)
from gamesim.analysis.search.decisions import STATUSES, _interval, constraint_decision, decide  # noqa: F401
from gamesim.analysis.search.evaluator import _Evaluator  # noqa: F401
from gamesim.analysis.search.result import SearchResult, _recommend  # noqa: F401
from gamesim.analysis.target import (  # noqa: F401  (the [target] names stay importable from here)
    MAX_BOX_TRIALS,
    MAX_SETTINGS,
    MAX_TRIALS,
    Constraint,
    SearchParam,
    Target,
    load_target_scenario,
    parse_target,
    parse_values,
)
from gamesim.core.registry import ParamError  # noqa: F401  (importable from here as before the split)
from gamesim.run.scenario import Scenario, ScenarioError  # noqa: F401

__all__ = [
    "Constraint",
    "SearchParam",
    "Target",
    "SearchResult",
    "load_target_scenario",
    "search",
    "decide",
    "constraint_decision",
    "STATUSES",
]


# The search report and the `gamesim search` command sit in the layers above (the report layer and
# the CLI); their names stay importable from here, imported on first use so that this module
# imports neither.
_MOVED = {
    "write_report": "gamesim.report.search_report",
    "render_search_report": "gamesim.report.search_report",
    "ReportPathError": "gamesim.cli",
    "check_report_path": "gamesim.cli",
    "search_cli": "gamesim.cli",
}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        import importlib

        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
