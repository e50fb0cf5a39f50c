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
Chunks are run by :func:`gamesim.core.sweep.run_chunk`, the sweep engine's own
worker, with the same seeding.
"""

from __future__ import annotations

import itertools
import math
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from gamesim.core.registry import ParamError, Task
from gamesim.core.rng import root_seed_sequence
from gamesim.core.scenario import (
    Scenario,
    ScenarioError,
    DataFileResolver,
    check_param_value,
    load_scenario,
    read_scenario_source,
)
from gamesim.core.stats import Estimate, mean_estimate, proportion_estimate, quantile_estimate

__all__ = [
    "Constraint",
    "SearchParam",
    "Target",
    "SearchResult",
    "load_target_scenario",
    "search",
    "decide",
    "constraint_decision",
    "search_cli",
    "check_report_path",
    "ReportPathError",
    "render_search_report",
    "write_report",
    "STATUSES",
]

#: Status of a setting in a search result.
STATUSES = ("feasible", "infeasible", "undecided", "not evaluated")
#: Largest parameter box a search accepts (settings).
MAX_SETTINGS = 20_000
#: Largest ``max_trials`` per setting.
MAX_TRIALS = 10_000_000
#: Largest settings x ``max_trials`` (the trials a search could keep in memory in the worst case).
MAX_BOX_TRIALS = 200_000_000
_TARGET_KEYS = {
    "part": "the name of a part of the scenario (optional with one part)",
    "params": "a table of parameter -> {min, max[, step]} or a list of values",
    "constraints": "an array of tables [[target.constraints]] with metric and low/high or value/tolerance",
    "alpha": "a number in (0, 0.5]",
    "n_start": "an integer >= 2",
    "max_trials": f"an integer >= n_start and <= {MAX_TRIALS}",
    "method": "'auto', 'bisect' or 'grid'",
    "prefer": "'closest', 'smallest' or 'largest'",
    "coarse": "an integer >= 2 (coarse grid points per parameter of a staged search)",
    "use_exact": "true or false",
    "familywise": "true or false (alpha bounds the chance of any wrong decision over the whole box)",
}
_CONSTRAINT_KEYS = {"metric", "statistic", "low", "high", "value", "tolerance", "monotone"}


@dataclass(frozen=True)
class Constraint:
    """One condition on a metric: ``low <= statistic(metric) <= high``.

    Attributes
    ----------
    metric : str
        A metric of the part's task.
    statistic : str
        ``"proportion"``, ``"mean"`` or a quantile ``"q50"``.
    low, high : float
        Bounds (``-inf``/``inf`` for a one-sided target), inclusive.
    monotone : {"increasing", "decreasing"} or None
        Declared direction of the metric along the (single) searched parameter;
        enables the noisy bisection.
    """

    metric: str
    statistic: str
    low: float
    high: float
    monotone: Literal["increasing", "decreasing"] | None = None

    @property
    def label(self) -> str:
        """``"0.45 <= complete <= 0.55"`` style text."""
        name = self.metric if self.statistic in ("proportion", "mean") else f"{self.metric} {self.statistic}"
        if math.isinf(self.low):
            return f"{name} <= {self.high:g}"
        if math.isinf(self.high):
            return f"{name} >= {self.low:g}"
        return f"{self.low:g} <= {name} <= {self.high:g}"

    @property
    def centre(self) -> float:
        """The target's centre (the finite bound for a one-sided target)."""
        if math.isinf(self.low):
            return self.high
        if math.isinf(self.high):
            return self.low
        return 0.5 * (self.low + self.high)


@dataclass(frozen=True)
class SearchParam:
    """A searched rule parameter and its candidate values (sorted for numbers)."""

    name: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Target:
    """A validated ``[target]`` table (see the module docstring for the keys)."""

    part: str
    params: tuple[SearchParam, ...]
    constraints: tuple[Constraint, ...]
    alpha: float = 0.05
    n_start: int = 2000
    max_trials: int = 64_000
    method: Literal["auto", "bisect", "grid"] = "auto"
    prefer: Literal["closest", "smallest", "largest"] = "closest"
    coarse: int = 5
    use_exact: bool = True
    familywise: bool = False

    def looks(self) -> list[int]:
        """Trials per setting at each look: doubling from ``n_start``, ending at ``max_trials``."""
        out = [self.n_start]
        while out[-1] < self.max_trials:
            out.append(min(2 * out[-1], self.max_trials))
        return out


# --------------------------------------------------------------------------- loading
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def load_target_scenario(
    source: str | Path | Mapping[str, Any], *, target: Mapping[str, Any] | None = None
) -> tuple[Scenario, Target | None, dict[str, Any] | None]:
    """Load a scenario with optional ``[target]`` and ``[sensitivity]`` tables.

    Parameters
    ----------
    source : str, pathlib.Path or Mapping
        A ``.toml`` file or the same content as a dict.
    target : Mapping, optional
        A ``[target]`` table given separately (overrides the file's).

    Returns
    -------
    (Scenario, Target or None, dict or None)
        The scenario (without the two tables), the validated target and the raw
        ``[sensitivity]`` table (validated by :mod:`gamesim.core.sensitivity`).

    Raises
    ------
    ScenarioError
        If the file is missing or invalid, or a key of ``[target]`` is unknown,
        of the wrong type or out of range; the message names the file, the key
        (``target.params.bag_n.min``), the value and what is allowed.
    """
    raw, where, path = read_scenario_source(source)
    if path is not None:
        raw.setdefault("name", path.stem)
    raw_target = raw.pop("target", None)
    raw_sens = raw.pop("sensitivity", None)
    if target is not None:
        raw_target = dict(target)
    if raw_target is not None and isinstance(raw.get("events", []), list):  # event metrics in constraints
        from gamesim.core.scenario import events_in

        raw_target, names = events_in(where, raw_target)
        if names:
            raw["events"] = list(raw.get("events", [])) + names
    try:
        scenario = load_scenario(raw, base_dir=None if isinstance(source, Mapping) else Path(source).parent)
    except ScenarioError as exc:
        msg = str(exc)
        if msg.startswith("<scenario dict>") and where != "<scenario dict>":
            msg = where + msg[len("<scenario dict>"):]
        raise ScenarioError(msg) from None
    if not isinstance(source, Mapping):
        object.__setattr__(scenario, "path", Path(source))
    tgt = None if raw_target is None else parse_target(raw_target, scenario, where=where)
    if raw_sens is not None and not isinstance(raw_sens, dict):
        raise ScenarioError(f"{where}: sensitivity = {raw_sens!r}, must be a table")
    return scenario, tgt, raw_sens


def _part_of(scenario: Scenario, name: Any, where: str, key: str):
    names = [p.name for p in scenario.parts]
    if name is None:
        if len(names) != 1:
            raise ScenarioError(f"{where}: {key} is missing, must be one of the parts: {', '.join(names)}")
        return scenario.parts[0]
    if name not in names:
        raise ScenarioError(f"{where}: {key} = {name!r}, must be one of the parts: {', '.join(names)}")
    part = scenario.parts[names.index(name)]
    if part.cases or any(len(v) != 1 for v in part.grid.values()):
        raise ScenarioError(
            f"{where}: {key} = {name!r}: the part has cases or a grid of several values; a searched part must "
            "fix every other parameter (put them in its params)"
        )
    return part


def parse_values(where: str, key: str, spec: Any, task: Task, name: str, *, max_values: int = MAX_SETTINGS,
                 folder: Path | None = None) -> tuple:
    """Validate a parameter range (``{min, max[, step]}``) or list of values.

    ``folder``: for a data-file parameter (``Param.file``), the folder relative paths are read
    from (the scenario file's); the values become absolute paths, as in the scenario loader.

    Returns
    -------
    tuple
        The candidate values, sorted for numbers, each checked against the
        task's declaration of ``name``.

    Raises
    ------
    ScenarioError
        Unknown parameter, malformed range, too many values (> ``max_values``),
        or a value the task does not allow.
    """
    known = {p.name: p for p in task.params}
    if name not in known:
        raise ScenarioError(f"{where}: unknown parameter {key} for task {task.name!r}; allowed: {', '.join(known)}")
    p = known[name]
    if isinstance(spec, dict):
        bad = set(spec) - {"min", "max", "step"}
        if bad:
            raise ScenarioError(f"{where}: unknown key {key}.{sorted(bad)[0]}; allowed keys: max, min, step")
        lo, hi, step = spec.get("min"), spec.get("max"), spec.get("step")
        if p.kind == "int":
            step = 1 if step is None else step
            for k, v in (("min", lo), ("max", hi), ("step", step)):
                if not _is_int(v):
                    raise ScenarioError(f"{where}: {key}.{k} = {v!r}, must be an integer")
            if step < 1 or hi < lo:
                raise ScenarioError(f"{where}: {key} = {spec!r}, must have min <= max and step >= 1")
            count = (hi - lo) // step + 1
            if count > max_values:
                raise ScenarioError(f"{where}: {key} = {spec!r} gives {count} values, must give <= {max_values}")
            values: list[Any] = list(range(lo, hi + 1, step))
        elif p.kind == "float":
            for k, v in (("min", lo), ("max", hi), ("step", step)):
                if not _is_num(v):
                    raise ScenarioError(f"{where}: {key}.{k} = {v!r}, must be a number (a float range needs step)")
            if step <= 0 or hi < lo:
                raise ScenarioError(f"{where}: {key} = {spec!r}, must have min <= max and step > 0")
            count = math.floor((hi - lo) / step + 1e-9) + 1
            if count > max_values:
                raise ScenarioError(f"{where}: {key} = {spec!r} gives {count} values, must give <= {max_values}")
            values = [round(lo + i * step, 12) for i in range(count)]
        else:
            raise ScenarioError(
                f"{where}: {key} = {spec!r}: a range needs an int or float parameter ({name} is {p.kind}); "
                "give a list of values"
            )
    elif isinstance(spec, list) and spec:
        if len(spec) > max_values:
            raise ScenarioError(f"{where}: {key} has {len(spec)} values, must have <= {max_values}")
        values = list(spec)
    else:
        raise ScenarioError(f"{where}: {key} = {spec!r}, must be {{min, max[, step]}} or a non-empty list of values")
    out = []
    files = DataFileResolver(where, folder.resolve()) if p.file and folder is not None else None
    for j, v in enumerate(values):
        try:
            v = check_param_value(p, v)
        except ParamError as exc:
            raise ScenarioError(f"{where}: {key}[{j}] = {v!r}, must be {exc.allowed}") from None
        out.append(files.resolve(f"{key}[{j}]", v) if files is not None and isinstance(v, str) else v)
    if all(_is_num(v) for v in out):
        out = sorted(set(out))
    return tuple(out)


def parse_target(raw: Mapping[str, Any], scenario: Scenario, *, where: str = "<scenario dict>") -> Target:
    """Validate a ``[target]`` table against a loaded scenario.

    Raises
    ------
    ScenarioError
        Naming the key, the value and what is allowed (see
        :func:`load_target_scenario`).
    """
    if not isinstance(raw, Mapping):
        raise ScenarioError(f"{where}: target = {raw!r}, must be a table")
    for k in raw:
        if k not in _TARGET_KEYS:
            raise ScenarioError(f"{where}: unknown key target.{k}; allowed keys: {', '.join(_TARGET_KEYS)}")

    def fail(key: str) -> ScenarioError:
        return ScenarioError(f"{where}: target.{key} = {raw.get(key)!r}, must be {_TARGET_KEYS[key]}")

    part = _part_of(scenario, raw.get("part"), where, "target.part")
    task = part.task
    rp = raw.get("params")
    if not isinstance(rp, dict) or not rp:
        raise fail("params")
    params = tuple(
        SearchParam(k, parse_values(where, f"target.params.{k}", v, task, k,
                                    folder=scenario.path.parent if scenario.path is not None else Path.cwd()))
        for k, v in rp.items()
    )
    size = math.prod(len(p.values) for p in params)
    if size > MAX_SETTINGS:
        raise ScenarioError(f"{where}: target.params spans {size} settings, must span <= {MAX_SETTINGS}")
    cell = part.cells()[0]
    metrics = {m.name: m for m in task.metrics_for(cell)}
    rc = raw.get("constraints")
    if not isinstance(rc, list) or not rc or not all(isinstance(c, dict) for c in rc):
        raise fail("constraints")
    constraints = []
    for i, c in enumerate(rc):
        at = f"target.constraints[{i}]"
        for k in c:
            if k not in _CONSTRAINT_KEYS:
                raise ScenarioError(f"{where}: unknown key {at}.{k}; allowed keys: {', '.join(sorted(_CONSTRAINT_KEYS))}")
        m = c.get("metric")
        if m not in metrics:
            raise ScenarioError(f"{where}: {at}.metric = {m!r}, must be a metric of task {task.name!r}: "
                                f"{', '.join(metrics)}")
        metric = metrics[m]
        allowed_stats = (["proportion"] if metric.kind == "proportion" else ["mean"]) + [
            f"q{round(q * 100):d}" for q in metric.quantiles]
        stat = c.get("statistic", allowed_stats[0])
        if stat not in allowed_stats:
            raise ScenarioError(f"{where}: {at}.statistic = {stat!r}, must be one of {', '.join(allowed_stats)}")
        if "value" in c or "tolerance" in c:
            if "low" in c or "high" in c:
                raise ScenarioError(f"{where}: {at}: give low/high or value/tolerance, not both")
            val, tol = c.get("value"), c.get("tolerance")
            if not _is_num(val):
                raise ScenarioError(f"{where}: {at}.value = {val!r}, must be a number")
            if not _is_num(tol) or tol < 0:
                raise ScenarioError(f"{where}: {at}.tolerance = {tol!r}, must be a number >= 0")
            lo, hi = float(val - tol), float(val + tol)
        else:
            lo, hi = c.get("low", -math.inf), c.get("high", math.inf)
            for k, v in (("low", lo), ("high", hi)):
                if k in c and not _is_num(v):
                    raise ScenarioError(f"{where}: {at}.{k} = {v!r}, must be a number")
            if "low" not in c and "high" not in c:
                raise ScenarioError(f"{where}: {at}: needs low and/or high, or value and tolerance")
            if lo > hi:
                raise ScenarioError(f"{where}: {at}.low = {lo!r}, must be <= high = {hi!r}")
        mono = c.get("monotone")
        if mono not in (None, "increasing", "decreasing"):
            raise ScenarioError(f"{where}: {at}.monotone = {mono!r}, must be 'increasing' or 'decreasing'")
        constraints.append(Constraint(m, stat, float(lo), float(hi), mono))

    alpha = raw.get("alpha", 0.05)
    if not _is_num(alpha) or not 0 < alpha <= 0.5:
        raise fail("alpha")
    n_start = raw.get("n_start", scenario.n_trials)
    if not _is_int(n_start) or n_start < 2 or n_start > MAX_TRIALS:
        raise ScenarioError(f"{where}: target.n_start = {n_start!r}, must be an integer >= 2 and <= {MAX_TRIALS}")
    max_trials = raw.get("max_trials", 16 * n_start)
    if not _is_int(max_trials) or max_trials < n_start or max_trials > MAX_TRIALS:
        raise fail("max_trials")
    if size * max_trials > MAX_BOX_TRIALS:
        raise ScenarioError(
            f"{where}: target: {size} settings x max_trials {max_trials} = {size * max_trials} trials, must be "
            f"<= {MAX_BOX_TRIALS} (fewer settings or a smaller max_trials): the worst case must fit in memory"
        )
    method = raw.get("method", "auto")
    if method not in ("auto", "bisect", "grid"):
        raise fail("method")
    if method == "bisect" and (len(params) != 1 or any(c.monotone is None for c in constraints)):
        raise ScenarioError(
            f"{where}: target.method = 'bisect' needs one searched parameter and monotone set on every constraint"
        )
    prefer = raw.get("prefer", "closest")
    if prefer not in ("closest", "smallest", "largest"):
        raise fail("prefer")
    coarse = raw.get("coarse", 5)
    if not _is_int(coarse) or coarse < 2:
        raise fail("coarse")
    use_exact = raw.get("use_exact", True)
    if not isinstance(use_exact, bool):
        raise fail("use_exact")
    familywise = raw.get("familywise", False)
    if not isinstance(familywise, bool):
        raise fail("familywise")
    return Target(part.name, params, tuple(constraints), float(alpha), n_start, max_trials, method, prefer,
                  coarse, use_exact, familywise)


# --------------------------------------------------------------------------- decisions
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


class _Evaluator:
    """Per-setting data with sequential looks, exact values and common random numbers."""

    def __init__(self, scenario: Scenario, target: Target, entropy: int, *, crn: bool = True):
        from gamesim.core.sweep import run_chunk

        self._run_chunk = run_chunk
        self.scenario = scenario
        self.target = target
        self.part = next(p for p in scenario.parts if p.name == target.part)
        self.task = self.part.task
        self.base = self.part.cells()[0]
        self.entropy = entropy
        self.crn = crn
        self.looks = target.looks()
        self.chunk = min(scenario.chunk_size, target.n_start)
        self.settings = list(itertools.product(*(p.values for p in target.params)))
        self.index = {s: i for i, s in enumerate(self.settings)}
        self.data: dict[int, dict[str, list[npt.NDArray[Any]]]] = {}
        self.n: dict[int, int] = {}
        self.exact: dict[int, dict[str, float]] = {}
        self.decided_at: dict[int, dict[str, Any]] = {}
        self.last_look: dict[int, int] = {}
        self.kept = {c.metric for c in target.constraints}
        #: Decisions a setting's label can rest on (bisection: one midpoint per level of the search, see
        #: :func:`_bisect_1d`); the intervals are split over them too.
        self.depth = 1
        self.metric_kind = {m.name: m.kind for m in self.task.metrics_for(self.base)}

    def cell(self, i: int) -> dict[str, Any]:
        cell = dict(self.base)
        cell.update({p.name: v for p, v in zip(self.target.params, self.settings[i])})
        return cell

    def check(self, where: str) -> None:
        if self.task.check is None:
            return
        for i in range(len(self.settings)):
            try:
                self.task.check(self.cell(i))
            except ParamError as exc:
                raise ScenarioError(
                    f"{where}: target setting {dict(zip([p.name for p in self.target.params], self.settings[i]))}: "
                    f"{exc.key} = {exc.value!r}, must be {exc.allowed}"
                ) from None

    def exact_of(self, i: int) -> dict[str, float]:
        if i not in self.exact:
            ex: dict[str, float] = {}
            if self.target.use_exact and self.task.exact is not None:
                ex = {k: float(v) for k, v in dict(self.task.exact(self.cell(i))).items()}
            self.exact[i] = ex
        return self.exact[i]

    def needs_sampling(self, i: int) -> bool:
        ex = self.exact_of(i)
        return any(f"{c.metric}:{c.statistic}" not in ex for c in self.target.constraints)

    def alpha_interval(self) -> float:
        m = max(1, len(self.target.constraints))
        family = len(self.settings) if self.target.familywise else 1
        return self.target.alpha / (len(self.looks) * m * family * self.depth)

    def ensure(self, i: int, n: int) -> None:
        have = self.n.get(i, 0)
        if have >= n:
            return
        store = self.data.setdefault(i, {})
        cell = self.cell(i)
        for k in range(have // self.chunk, -(-n // self.chunk)):
            key = (0, 0 if self.crn else i, k)
            _, arrays = self._run_chunk(self.scenario.game.name, self.task.name, cell, self.chunk, self.entropy, key,
                                       events=getattr(self.task, "events", ()))
            for name, arr in arrays.items():
                if name in self.kept:  # only the constrained metrics are kept in memory
                    store.setdefault(name, []).append(arr)
        self.n[i] = -(-n // self.chunk) * self.chunk

    def at_look(self, i: int, look: int) -> dict[str, Any]:
        """Evaluate setting ``i`` with ``looks[look]`` trials (exact values where known)."""
        ex = self.exact_of(i)
        n = self.looks[look]
        conf = 1 - self.alpha_interval()
        out: dict[str, Any] = {"n": 0, "cons": []}
        for c in self.target.constraints:
            key = f"{c.metric}:{c.statistic}"
            if key in ex:
                v = ex[key]
                out["cons"].append({"estimate": v, "ci_low": v, "ci_high": v, "exact": v, "n": 0,
                                    "decision": constraint_decision(v, v, c.low, c.high)})
                continue
            self.ensure(i, n)
            vals = np.concatenate(self.data[i][c.metric])[:n]
            est = _interval(vals, self.metric_kind[c.metric], c.statistic, conf)
            out["n"] = n
            out["cons"].append({"estimate": est.estimate, "ci_low": est.ci_low, "ci_high": est.ci_high,
                                "exact": math.nan, "n": n,
                                "decision": constraint_decision(est.ci_low, est.ci_high, c.low, c.high)})
        out["status"] = decide([c["decision"] for c in out["cons"]])
        out["basis"] = "exact" if out["n"] == 0 else "sampled"
        if look >= self.last_look.get(i, -1):  # the report shows the setting's largest look
            self.last_look[i] = look
            self.decided_at[i] = out
        return out

    def sequential(self, i: int, *, start_look: int = 0, stop_look: int | None = None) -> dict[str, Any]:
        """Looks ``start_look ..`` until the setting is decided or the budget is spent."""
        last = len(self.looks) - 1 if stop_look is None else stop_look
        res = self.at_look(i, start_look)
        look = start_look
        while res["status"] == "undecided" and res["n"] > 0 and look < last:
            look += 1
            res = self.at_look(i, look)
        return res

    def side(self, i: int, ci: int, bound: Literal["low", "high"]) -> int:
        """Sequential side decision of constraint ``ci``'s metric against one bound.

        +1: the value is >= the bound (low) / > the bound (high); -1: below it
        (< low / <= high); 0: undecided at max_trials.
        """
        c = self.target.constraints[ci]
        b = c.low if bound == "low" else c.high
        look = self.last_look.get(i, 0)  # data already drawn is used (same K looks, same levels)
        while True:
            res = self.at_look(i, look)
            r = res["cons"][ci]
            if bound == "low":
                if r["ci_low"] >= b:
                    return 1
                if r["ci_high"] < b:
                    return -1
            else:
                if r["ci_low"] > b:
                    return 1
                if r["ci_high"] <= b:
                    return -1
            if res["n"] == 0 or look == len(self.looks) - 1:
                return 0
            look += 1


# --------------------------------------------------------------------------- results
@dataclass
class SearchResult:
    """What :func:`search` returns.

    Attributes
    ----------
    settings : pandas.DataFrame
        One row per setting of the box: the searched parameters, ``status``
        (one of :data:`STATUSES`), ``basis`` (``exact``, ``sampled``,
        ``inferred`` from a monotone bisection, or ``-`` when not evaluated),
        ``n`` (trials used at the setting's last look, 0 for exact or inferred),
        and per constraint ``<label>: estimate / ci_low / ci_high / exact /
        decision``. Intervals are at the decision level ``1 - alpha_interval``.
    recommended : dict or None
        The recommended setting's row (see ``prefer``), or ``None``.
    frontier : pandas.DataFrame
        With ``prefer`` smallest/largest: the Pareto-minimal (maximal) feasible
        settings; otherwise every feasible setting.
    target : Target
    scenario : Scenario
    method : str
        ``"bisect"``, ``"grid"`` (staged) or ``"exact"`` (every setting solved exactly).
    trials_used : int
        Trials simulated, over all settings (each setting's data is reused by
        later looks, so this is the sum of per-setting trials).
    alpha_interval : float
        One minus the confidence level of each interval.
    seed_entropy : int
        Root entropy; pass ``seed=`` to reproduce.
    """

    settings: pd.DataFrame
    recommended: dict[str, Any] | None
    frontier: pd.DataFrame
    target: Target
    scenario: Scenario
    method: str
    trials_used: int
    alpha_interval: float
    seed_entropy: int
    notes: list[str] = field(default_factory=list)

    @property
    def param_names(self) -> list[str]:
        """The searched parameters, in order."""
        return [p.name for p in self.target.params]

    def counts(self) -> dict[str, int]:
        """Settings per status."""
        return {s: int((self.settings["status"] == s).sum()) for s in STATUSES}

    def summary(self) -> str:
        """A few lines of plain text: the decision rule, the counts and the recommendation."""
        t = self.target
        lines = [
            f"Target: {' and '.join(c.label for c in t.constraints)}  over "
            + ", ".join(f"{p.name} in [{p.values[0]} .. {p.values[-1]}] ({len(p.values)} values)" for p in t.params),
            f"Method: {self.method}; looks at {t.looks()} trials; each interval at "
            f"{100 * (1 - self.alpha_interval):.4g}% (alpha = {t.alpha:g} "
            + ("over the whole box, Bonferroni over settings x looks x constraints"
               if t.familywise else "per setting, Bonferroni over looks x constraints")
            + (f" x {math.ceil(math.log2(len(self.settings) + 1))} bisection levels" if self.method == "bisect" else "")
            + f"); trials used: {self.trials_used}",
            "Settings: " + ", ".join(f"{k} {v}" for k, v in self.counts().items()),
        ]
        if self.recommended is None:
            lines.append("No setting shown feasible at this budget.")
        else:
            r = self.recommended
            vals = ", ".join(f"{k} = {r[k]}" for k in self.param_names)
            lines.append(f"Recommended ({t.prefer}): {vals}  [{r['status']}, {r['basis']}, n = {r['n']}]")
            for c in t.constraints:
                lab = c.label
                e, lo, hi = r[f"{lab}: estimate"], r[f"{lab}: ci_low"], r[f"{lab}: ci_high"]
                lines.append(f"  {lab}: {e:.4g} [{lo:.4g}, {hi:.4g}]" + (
                    "" if math.isnan(r[f"{lab}: exact"]) else f" (exact {r[f'{lab}: exact']:.6g})"))
        lines.extend(self.notes)
        return "\n".join(lines)

    def table(self, *, status: str | None = None, digits: int = 4) -> pd.DataFrame:
        """The settings with ``estimate [ci_low, ci_high]`` text per constraint.

        Parameters
        ----------
        status : str, optional
            Keep only settings with this status.
        digits : int, default 4
            Significant digits shown.
        """
        df = self.settings if status is None else self.settings[self.settings["status"] == status]
        out = df[self.param_names + ["status", "basis", "n"]].copy()
        for c in self.target.constraints:
            lab = c.label

            def fmt(row: pd.Series, lab: str = lab) -> str:
                e = row[f"{lab}: estimate"]
                if isinstance(e, float) and math.isnan(e):
                    return ""
                if row[f"{lab}: ci_low"] == row[f"{lab}: ci_high"]:
                    return f"{e:.{digits}g} (exact)"
                return f"{e:.{digits}g} [{row[f'{lab}: ci_low']:.{digits}g}, {row[f'{lab}: ci_high']:.{digits}g}]"

            out[lab] = df.apply(fmt, axis=1) if len(df) else []
        return out.reset_index(drop=True)

    def plot(self, ax: Any = None) -> Any:
        """The feasible region: 1-D metric vs parameter with the target band; 2-D a status map.

        Returns
        -------
        matplotlib.figure.Figure
        """
        import matplotlib.pyplot as plt

        colors = {"feasible": "tab:green", "infeasible": "tab:red", "undecided": "tab:orange",
                  "not evaluated": "lightgrey"}
        names = self.param_names
        df = self.settings
        if len(names) == 1 and all(_is_num(v) for v in df[names[0]]):
            cons = self.target.constraints
            fig, axes = plt.subplots(len(cons), 1, figsize=(7, 3.2 * len(cons)), squeeze=False)
            for c, ax_ in zip(cons, axes[:, 0]):
                lab = c.label
                lo = -1e300 if math.isinf(c.low) else c.low
                hi = 1e300 if math.isinf(c.high) else c.high
                ax_.axhspan(lo, hi, color="tab:green", alpha=0.12, label="target band")
                for st, col in colors.items():
                    d = df[(df["status"] == st) & df[f"{lab}: estimate"].notna()]
                    if d.empty:
                        continue
                    err = np.vstack([d[f"{lab}: estimate"] - d[f"{lab}: ci_low"],
                                     d[f"{lab}: ci_high"] - d[f"{lab}: estimate"]])
                    ax_.errorbar(d[names[0]], d[f"{lab}: estimate"], yerr=np.abs(err), fmt="o", color=col,
                                 ms=4, capsize=2, label=st)
                ok = df[f"{lab}: estimate"].notna()
                if ok.any():
                    ys = pd.concat([df.loc[ok, f"{lab}: ci_low"], df.loc[ok, f"{lab}: ci_high"]])
                    ys = ys[np.isfinite(ys)]
                    finite = [b for b in (c.low, c.high) if math.isfinite(b)]
                    vals = list(ys) + finite
                    pad = 0.05 * (max(vals) - min(vals) or 1)
                    ax_.set_ylim(min(vals) - pad, max(vals) + pad)
                import matplotlib.transforms as mtransforms

                rug = mtransforms.blended_transform_factory(ax_.transData, ax_.transAxes)
                for st, col in colors.items():
                    d = df[df["status"] == st]
                    ax_.scatter(d[names[0]], np.full(len(d), 0.02), marker="|", color=col, transform=rug, s=60)
                xv = [float(v) for v in self.target.params[0].values]  # the whole box, not only sampled points
                xpad = 0.02 * (max(xv) - min(xv) or 1)
                ax_.set_xlim(min(xv) - xpad, max(xv) + xpad)
                ax_.set_xlabel(names[0] + "  (ticks at the bottom: every setting's status, inferred ones included)")
                ax_.set_ylabel(f"{c.metric} ({c.statistic})")
                ax_.set_title(lab)
                ax_.legend(fontsize=7)
            fig.tight_layout()
            return fig
        # 2-D (or more: the first two parameters, the worst status over the rest)
        x, y = names[0], names[-1] if len(names) > 1 else names[0]
        xs, ys = list(self.target.params[0].values), list(self.target.params[-1].values)
        rank = {s: i for i, s in enumerate(("feasible", "undecided", "not evaluated", "infeasible"))}
        grid = np.full((len(ys), len(xs)), -1)
        for _, row in df.iterrows():
            i, j = ys.index(row[y]), xs.index(row[x])
            grid[i, j] = max(grid[i, j], rank[row["status"]])
        from matplotlib.colors import ListedColormap

        cmap = ListedColormap([colors["feasible"], colors["undecided"], colors["not evaluated"], colors["infeasible"]])
        fig, ax_ = plt.subplots(figsize=(1.0 + 0.45 * len(xs), 1.0 + 0.4 * len(ys)))
        ax_.imshow(grid, origin="lower", cmap=cmap, vmin=0, vmax=3, aspect="auto")
        ax_.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=90 if len(xs) > 12 else 0)
        ax_.set_yticks(range(len(ys)), [str(v) for v in ys])
        ax_.set_xlabel(x)
        ax_.set_ylabel(y)
        if self.recommended is not None:
            ax_.plot(xs.index(self.recommended[x]), ys.index(self.recommended[y]), "k*", ms=12, label="recommended")
        from matplotlib.patches import Patch

        ax_.legend(handles=[Patch(color=colors[s], label=s) for s in ("feasible", "undecided", "not evaluated",
                                                                        "infeasible")],
                   fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        ax_.set_title(" and ".join(c.label for c in self.target.constraints), fontsize=9)
        fig.tight_layout()
        return fig


# --------------------------------------------------------------------------- algorithms
def _bisect_1d(ev: _Evaluator) -> dict[int, dict[str, Any]]:
    """Noisy bisection on one monotone parameter: each bound's crossing located by bisection.

    For each constraint and each finite bound, the side of the bound (above /
    below / undecided) is decided at a midpoint with sequential sampling; a
    decided side is propagated to every setting beyond it by the declared
    monotonicity, an undecided one splits the search into both halves.
    """
    n_set = len(ev.settings)
    m = len(ev.target.constraints)
    sides: list[dict[str, list[int | None]]] = [{"low": [None] * n_set, "high": [None] * n_set} for _ in range(m)]
    source: dict[int, bool] = {}

    for ci, c in enumerate(ev.target.constraints):
        order = list(range(n_set)) if c.monotone == "increasing" else list(range(n_set))[::-1]
        for bound in ("low", "high"):
            b = c.low if bound == "low" else c.high
            arr = sides[ci][bound]
            if math.isinf(b):
                for i in range(n_set):
                    arr[i] = (1 if b < 0 else -1)
                continue
            stack = [(0, n_set - 1)]
            while stack:
                lo, hi = stack.pop()
                if lo > hi:
                    continue
                mid = (lo + hi) // 2
                i = order[mid]
                s = ev.side(i, ci, bound)
                source[i] = True
                arr[i] = s
                if s == 1:  # metric increases along `order`: every later one is above too
                    for j in range(mid + 1, hi + 1):
                        arr[order[j]] = 1
                    stack.append((lo, mid - 1))
                elif s == -1:
                    for j in range(lo, mid):
                        arr[order[j]] = -1
                    stack.append((mid + 1, hi))
                else:
                    stack.append((lo, mid - 1))
                    stack.append((mid + 1, hi))
    out: dict[int, dict[str, Any]] = {}
    for i in range(n_set):
        decs = []
        for ci in range(m):
            sl, sh = sides[ci]["low"][i], sides[ci]["high"][i]
            if sl == -1 or sh == 1:
                decs.append("violated")
            elif sl == 1 and sh == -1:
                decs.append("met")
            else:
                decs.append("undecided")
        if i in ev.decided_at:
            rec = dict(ev.decided_at[i])
            rec["cons"] = [dict(r, decision=d) for r, d in zip(rec["cons"], decs)]
            rec["status"] = decide(decs)
            if rec["status"] != ev.decided_at[i]["status"]:  # e.g. one bound decided here, the other inferred
                rec["basis"] = "inferred"
        else:
            rec = {"n": 0, "cons": [{"estimate": math.nan, "ci_low": math.nan, "ci_high": math.nan, "exact": math.nan,
                                     "n": 0, "decision": d} for d in decs], "status": decide(decs)}
            rec["basis"] = "inferred"
        out[i] = rec
    return out


def _monotone_contradictions(ev: _Evaluator) -> list[str]:
    """Constraints whose declared ``monotone`` the directly decided settings contradict.

    The two end settings are evaluated at the first look (common random numbers, so
    they are compared on the same dice), then every pair of settings with their own
    intervals (sampled or exact, not inferred) is checked: under ``increasing`` a
    setting whose interval lies wholly above that of a *larger* setting contradicts
    it (``decreasing``: below). Without this check a wrong declaration silently
    labels the truly feasible settings infeasible by inference.

    Returns
    -------
    list of str
        One phrase per contradicted constraint, naming the two settings and values.
    """
    n_set = len(ev.settings)
    for i in sorted({0, n_set - 1}):
        if i not in ev.decided_at:
            ev.at_look(i, 0)
    name = ev.target.params[0].name
    out = []
    for ci, c in enumerate(ev.target.constraints):
        if c.monotone is None:
            continue
        pts = sorted((i, rec["cons"][ci]) for i, rec in ev.decided_at.items())
        found = None
        for a, (i, ra) in enumerate(pts):
            for j, rb in pts[a + 1:]:
                wrong = (ra["ci_low"] > rb["ci_high"]) if c.monotone == "increasing" else (ra["ci_high"] < rb["ci_low"])
                if wrong:
                    found = (i, ra, j, rb)
                    break
            if found:
                break
        if found:
            i, ra, j, rb = found
            out.append(f"{c.metric} declared {c.monotone}, but {c.metric} = {ra['estimate']:.4g} at {name} = "
                       f"{ev.settings[i][0]} and {rb['estimate']:.4g} at {name} = {ev.settings[j][0]}")
    return out


def _signature(rec: dict[str, Any], constraints: Sequence[Constraint]) -> Any:
    """``"infeasible"`` plus, per constraint, on which side of the band it lies; else the status.

    Two infeasible corners with values below and above a band are different:
    the band may pass between them.
    """
    if rec["status"] != "infeasible":
        return rec["status"]
    sides = []
    for c, r in zip(constraints, rec["cons"]):
        sides.append("below" if r["ci_high"] < c.low else "above" if r["ci_low"] > c.high else "in/undecided")
    return ("infeasible", *sides)


def _neighbours_zone(shape: tuple[int, ...], coarse_idx: list[list[int]], status: dict[tuple[int, ...], str]
                     ) -> set[tuple[int, ...]]:
    """Fine cells whose enclosing coarse corners are not all infeasible on the same side of every band."""
    zone = set()
    for fine in itertools.product(*(range(n) for n in shape)):
        brackets = []
        for d, f in enumerate(fine):
            ci = coarse_idx[d]
            k = int(np.searchsorted(ci, f))
            brackets.append([ci[k]] if k < len(ci) and ci[k] == f else [ci[max(k - 1, 0)], ci[min(k, len(ci) - 1)]])
        corners = {status[c] for c in itertools.product(*brackets)}
        if len(corners) > 1 or corners & {"undecided", "feasible"}:
            zone.add(fine)
    return zone


def _staged_grid(ev: _Evaluator) -> tuple[dict[int, dict[str, Any]], list[str]]:
    shape = tuple(len(p.values) for p in ev.target.params)
    unravel = list(itertools.product(*(range(n) for n in shape)))
    flat = {pos: i for i, pos in enumerate(unravel)}
    notes: list[str] = []
    out: dict[int, dict[str, Any]] = {}
    # Stage 1: coarse grid, first look, common random numbers.
    coarse_idx = [sorted({int(round(x)) for x in np.linspace(0, n - 1, min(n, ev.target.coarse))}) for n in shape]
    status: dict[tuple[int, ...], Any] = {}
    for pos in itertools.product(*coarse_idx):
        out[flat[pos]] = ev.at_look(flat[pos], 0)
        status[pos] = _signature(out[flat[pos]], ev.target.constraints)
    # Stage 2: the boundary zone at the first look.
    zone = _neighbours_zone(shape, coarse_idx, status)
    for pos in sorted(zone):
        if flat[pos] not in out:
            out[flat[pos]] = ev.at_look(flat[pos], 0)
    # Stage 3: precision top-ups (doubling) for every evaluated setting still undecided.
    for i, rec in list(out.items()):
        if rec["status"] == "undecided" and rec["n"] > 0:
            out[i] = ev.sequential(i, start_look=1) if len(ev.looks) > 1 else rec
    skipped = len(unravel) - len(out)
    if skipped:
        notes.append(f"{skipped} settings not evaluated: the coarse settings around each were all infeasible, "
                     "on the same side of every band (a feasible pocket smaller than the coarse spacing would be "
                     "missed: raise coarse, up to the number of values, to evaluate every setting).")
    return out, notes


def search(
    scenario: str | Path | Mapping[str, Any] | Scenario,
    target: Mapping[str, Any] | Target | None = None,
    *,
    seed: int | None = None,
    rng: Any = None,
    crn: bool = True,
) -> SearchResult:
    """Find the settings of rule parameters that hit a target on metrics.

    Parameters
    ----------
    scenario : path, mapping or Scenario
        A scenario file or dict with a ``[target]`` table (or a scenario and
        ``target``).
    target : Mapping or Target, optional
        The ``[target]`` table (see the module docstring); overrides the file's.
    seed : int, optional
        Root seed (overrides the scenario's ``seed``); with neither, fresh
        entropy is drawn and recorded in ``seed_entropy``.
    rng : int, SeedSequence, Generator or None
        Alternative to ``seed``: a seed source normalised by
        ``np.random.default_rng``; its first draw becomes the root entropy.
    crn : bool, default True
        Common random numbers: every setting draws chunk ``k`` from the same
        child seed. ``False`` gives each setting its own stream.

    Returns
    -------
    SearchResult

    Raises
    ------
    ScenarioError
        For an invalid scenario or target (the message names the key, the value
        and what is allowed), or a searched setting the task refuses.
    ValueError
        For a negative seed, or no target.
    TypeError
        For a non-bool ``crn`` or a non-integer seed.

    Notes
    -----
    Methods: with one searched parameter and every constraint declaring
    ``monotone``, a noisy bisection (``bisect``) locates each bound's crossing;
    settings beyond a decided midpoint are *inferred* by monotonicity. Otherwise
    a staged grid: (1) the coarse grid (``coarse`` points per parameter) at
    ``n_start`` trials with common random numbers, (2) every setting whose
    enclosing coarse settings are not all infeasible on the same side of every band, at ``n_start``, (3) every
    undecided setting topped up by doubling to ``max_trials``. When every
    constraint has an exact value for every setting (``Task.exact``), every
    setting is solved exactly (``exact``).

    Error rate: ``alpha`` per reported setting (Bonferroni over the ``K`` looks
    and ``m`` constraints: each interval at ``1 - alpha/(K m)``). The bisection
    also splits over its ``D = ceil(log2(settings + 1))`` levels (a setting's
    label rests on at most one midpoint decision per level): intervals at
    ``1 - alpha/(K m D)``, so an inferred setting too is wrongly declared
    feasible with probability at most ``alpha``, provided the declared
    monotonicity holds. The recommended setting is always decided on its own
    intervals (an inferred one is sampled sequentially first).
    """
    from gamesim.core.validate import check_bool, check_int

    check_bool("crn", crn)
    if isinstance(scenario, Scenario):
        if target is None:
            raise ValueError("target is required with a loaded Scenario")
        sc = scenario
        tgt = target if isinstance(target, Target) else parse_target(target, sc)
    else:
        sc, tgt, _ = load_target_scenario(scenario, target=None if isinstance(target, Target) else target)
        if isinstance(target, Target):
            tgt = target
    if tgt is None:
        raise ValueError("no target: give a [target] table in the scenario or target=")
    where = str(sc.path) if sc.path is not None else "<scenario dict>"
    if seed is not None:
        check_int("seed", seed, min=0)
    if seed is None and rng is not None:
        entropy = int(np.random.default_rng(rng).integers(0, 2**63))
    else:
        entropy = int(root_seed_sequence(sc.seed if seed is None else seed).entropy)
    ev = _Evaluator(sc, tgt, entropy, crn=crn)
    ev.check(where)
    n_set = len(ev.settings)
    notes: list[str] = []
    method = ""
    if tgt.method != "grid" and len(tgt.params) == 1 and all(c.monotone for c in tgt.constraints):
        method = "bisect"
        ev.depth = max(1, math.ceil(math.log2(n_set + 1)))
        recs = _bisect_1d(ev)
        contradicted = _monotone_contradictions(ev)
        if contradicted:
            msg = ("warning: the decided settings contradict the declared monotonicity ("
                   + "; ".join(contradicted) + f"): {tgt.params[0].name} searched on the grid instead, "
                   "nothing inferred")
            warnings.warn(msg, UserWarning, stacklevel=2)
            notes.append(msg)
            ev.depth = 1
            ev.decided_at.clear()
            ev.last_look.clear()
            method = ""
    if method == "bisect":
        for i, rec in recs.items():  # feasible by inference: give them values to show and rank
            if rec["basis"] == "inferred" and rec["status"] == "feasible":
                if i in ev.decided_at and ev.decided_at[i]["basis"] != "exact":
                    continue  # sampled here (one bound decided here): its own values are shown
                got = ev.at_look(i, 0)
                if got["basis"] == "exact":
                    recs[i] = got
                elif tgt.prefer == "closest":  # first-look estimate for the ranking; the status stays inferred
                    recs[i] = dict(rec, cons=[dict(g, decision=r["decision"]) for g, r in zip(got["cons"],
                                                                                              rec["cons"])])
    elif (tgt.use_exact and ev.task.exact is not None and not ev.needs_sampling(0)
          and not any(ev.needs_sampling(i) for i in range(n_set))):
        method = "exact"
        recs = {i: ev.at_look(i, 0) for i in range(n_set)}
    else:
        method = "grid"
        recs, grid_notes = _staged_grid(ev)
        notes += grid_notes
    def table_of(recs: dict[int, dict[str, Any]]) -> pd.DataFrame:
        rows = []
        for i, s in enumerate(ev.settings):
            row: dict[str, Any] = dict(zip([p.name for p in tgt.params], s))
            rec = recs.get(i)
            if rec is None:
                row.update(status="not evaluated", basis="-", n=0)
                cons = [{"estimate": math.nan, "ci_low": math.nan, "ci_high": math.nan, "exact": math.nan,
                         "decision": "not evaluated"}] * len(tgt.constraints)
            else:
                row.update(status=rec["status"], basis=rec["basis"],
                           n=int(ev.n.get(i, 0)) if rec["basis"] != "exact" else 0)
                cons = rec["cons"]
            for c, r in zip(tgt.constraints, cons):
                for k in ("estimate", "ci_low", "ci_high", "exact", "decision"):
                    row[f"{c.label}: {k}"] = r[k]
            rows.append(row)
        return pd.DataFrame(rows)

    df = table_of(recs)
    recommended, frontier = _recommend(df, tgt)
    # A recommended setting that is feasible only by inference (first-look estimate, not decisive) is
    # sampled sequentially on its own, and its direct decision replaces the inferred one; repeat until
    # the recommendation stands on its own intervals.
    while recommended is not None and recommended["basis"] == "inferred":
        i = ev.index[tuple(recommended[p.name] for p in tgt.params)]
        recs[i] = ev.sequential(i, start_look=min(1, len(ev.looks) - 1))
        df = table_of(recs)
        recommended, frontier = _recommend(df, tgt)
    return SearchResult(df, recommended, frontier, tgt, sc, method, int(sum(ev.n.values())), ev.alpha_interval(),
                        entropy, notes)


def _recommend(df: pd.DataFrame, tgt: Target) -> tuple[dict[str, Any] | None, pd.DataFrame]:
    names = [p.name for p in tgt.params]
    feas = df[df["status"] == "feasible"]
    if feas.empty:
        return None, feas
    pos = np.array([[tgt.params[d].values.index(v) for d, v in enumerate(row)] for row in feas[names].itertuples(
        index=False)])
    if tgt.prefer in ("smallest", "largest"):
        sign = 1 if tgt.prefer == "smallest" else -1
        p = sign * pos
        keep = [i for i in range(len(p)) if not any((p[j] <= p[i]).all() and (p[j] < p[i]).any()
                                                     for j in range(len(p)))]
        frontier = feas.iloc[keep]
        best = min(keep, key=lambda i: (p[i].sum(), tuple(p[i])))
        return feas.iloc[best].to_dict(), frontier.reset_index(drop=True)
    score = np.zeros(len(feas))
    # Two-sided bands have a centre to aim for; one-sided constraints only need to be met (aiming at
    # their bound would recommend the least safe setting), unless no constraint is two-sided.
    two_sided = [c for c in tgt.constraints if math.isfinite(c.low) and math.isfinite(c.high)]
    for c in two_sided or tgt.constraints:
        width = (c.high - c.low) if math.isfinite(c.high - c.low) and c.high > c.low else 1.0
        score += np.abs(feas[f"{c.label}: estimate"].to_numpy(dtype=float) - c.centre) / width
    best = int(np.nanargmin(score)) if np.isfinite(score).any() else 0
    return feas.iloc[best].to_dict(), feas.reset_index(drop=True)


# --------------------------------------------------------------------------- report and CLI
def _fig_html(fig: Any) -> str:
    import base64
    import io

    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return f'<img src="data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()}"/>'


_REPORT_CSS = ("@page { size: A4; margin: 1.5cm } body { font-family: sans-serif; font-size: 10pt } "
               "img { max-width: 100%; height: auto } pre { white-space: pre-wrap; word-break: break-word; "
               "font-size: 8.5pt } table { border-collapse: collapse; font-size: 8.5pt } "
               "th, td { padding: 1px 6px; border-bottom: 1px solid #ddd; text-align: right }")


def write_report(result: SearchResult, path: str | Path, *, sensitivity: Any = None, pdf: bool = False) -> Path:
    """Write the search (and sensitivity) report as a self-contained HTML file (and PDF).

    Parameters
    ----------
    result : SearchResult
    path : str or pathlib.Path
        The ``.html`` file to write (folders created).
    sensitivity : SensitivityResult, optional
        Adds the ranking table and the tornado plot.
    pdf : bool, default False
        Also write ``<path>.pdf`` with :func:`gamesim.report.render.html_to_pdf`.

    Returns
    -------
    pathlib.Path
        The HTML file.
    """
    import html

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    sc = result.scenario
    parts = [f"<h1>{html.escape(sc.title)}</h1>", f"<p>{html.escape(sc.question)}</p>",
             "<h2>Target search</h2>", f"<pre>{html.escape(result.summary())}</pre>",
             _fig_html(result.plot())]
    if result.recommended is not None:
        rec = result.recommended
        row = {k: rec[k] for k in result.param_names}
        row.update(status=rec["status"], basis=rec["basis"], n=rec["n"])
        for c in result.target.constraints:
            e, lo, hi, ex = (rec[f"{c.label}: {k}"] for k in ("estimate", "ci_low", "ci_high", "exact"))
            row[c.label] = (f"{e:.4g} (exact)" if not math.isnan(ex) else
                            f"{e:.4g} [{lo:.4g}, {hi:.4g}]" if not math.isnan(e) else "inferred (not sampled)")
        parts += [f"<h3>Recommended setting ({html.escape(result.target.prefer)})</h3>",
                  f"<p>Intervals at {100 * (1 - result.alpha_interval):.4g}% (the decision level).</p>",
                  pd.DataFrame([row]).to_html(index=False)]
    if not result.frontier.empty and result.target.prefer != "closest":
        parts += [f"<h3>Pareto-{result.target.prefer} feasible settings</h3>",
                  result.frontier[result.param_names].to_html(index=False)]
    parts += ["<h3>Every setting</h3>", result.table().to_html(index=False)]
    if sensitivity is not None:
        parts += ["<h2>Sensitivity</h2>", f"<pre>{html.escape(sensitivity.summary())}</pre>",
                  sensitivity.table().to_html(index=False), _fig_html(sensitivity.plot())]
    parts.append(f"<p>seed entropy {result.seed_entropy}</p>")
    body = "\n".join(parts)
    from gamesim.core.results import atomic_write

    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(sc.title)}</title>"
            f"<style>{_REPORT_CSS}</style></head><body>{body}</body></html>").encode("utf-8")
    atomic_write(path, lambda fh: fh.write(page))  # Ctrl-C or a full disk: the old report or none
    if pdf:
        from gamesim.report.render import html_to_pdf

        html_to_pdf(path, path.with_suffix(".pdf"))
    return path


def render_search_report(scenario: str | Path, out_dir: str | Path, *, seed: int | None = None,
                         pdf: bool = True) -> tuple[Path, Path | None]:
    """Execute the generic search notebook for a target scenario and export it to HTML (and PDF).

    Parameters
    ----------
    scenario : str or pathlib.Path
        A scenario file with a ``[target]`` (and optional ``[sensitivity]``) table.
    out_dir : str or pathlib.Path
        Folder for ``<name>.search.ipynb``, ``.html`` and ``.pdf``.
    seed : int, optional
        Root seed (default: the scenario's, or fresh entropy shown in the report).
    pdf : bool, default True
        Also write the PDF (:func:`gamesim.report.render.html_to_pdf`).

    Returns
    -------
    (pathlib.Path, pathlib.Path or None)
        The HTML and PDF files.

    Raises
    ------
    ScenarioError
        For an invalid scenario or target (checked before the notebook runs).
    gamesim.report.render.ReportError
        If a notebook cell fails.
    """
    from importlib.resources import files

    from gamesim.report.render import execute_notebook, html_to_pdf, notebook_to_html

    scenario = Path(scenario).resolve()
    sc, tgt, _ = load_target_scenario(scenario)
    if tgt is None:
        raise ScenarioError(f"{scenario}: no [target] table: nothing to search")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    notebook = Path(str(files("gamesim.report.notebooks") / "search_report.ipynb"))
    executed = execute_notebook(notebook, out / f"{sc.name}.search.ipynb",
                                {"scenario_path": str(scenario), "seed": seed}, cwd=out)
    html = notebook_to_html(executed, out / f"{sc.name}.search.html", title=sc.title)
    return html, (html_to_pdf(html, out / f"{sc.name}.search.pdf") if pdf else None)


class ReportPathError(ValueError):
    """A report file that cannot be written (a folder, an unwritable place); one line naming it."""


def check_report_path(path: str | Path, *, pdf: bool = False) -> Path:
    """Check, before any work, that the search report (and its PDF) can be written at ``path``.

    Parameters
    ----------
    path : str or pathlib.Path
        The ``.html`` file to write.
    pdf : bool, default False
        Whether ``<path>.pdf`` is written too.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    ReportPathError
        If ``path`` (or the PDF's path) is a folder, its parent is a file, or the
        folder it would be written in cannot be created or written to.
    """
    path = Path(path)
    targets = [path] + ([path.with_suffix(".pdf")] if pdf else [])
    for t in targets:
        if t.is_dir():
            raise ReportPathError(f"--out {t}: is a folder; give a report file such as {t / 'search.html'}")
        if t.exists() and not os.access(t, os.W_OK):
            raise ReportPathError(f"--out {t}: the file is not writable")
    folder = path.parent
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ReportPathError(f"--out {path}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ReportPathError(f"--out {path}: cannot write in {existing} (permission denied)")
    return path


def search_cli(scenario: str | Path, *, seed: int | None = None, out: str | Path | None = None,
               pdf: bool = False) -> int:
    """``gamesim search SCENARIO``: run the target search (and ``[sensitivity]``), print and write the report.

    Returns
    -------
    int
        0 on success (the CLI's exit status).

    Raises
    ------
    ScenarioError
        For an invalid scenario or target, before any work.
    ReportPathError
        If the report cannot be written where asked, before any work.
    """
    from gamesim.core.sensitivity import parse_sensitivity, sensitivity_run

    sc, tgt, raw_sens = load_target_scenario(scenario)
    if tgt is None:
        raise ScenarioError(f"{scenario}: no [target] table: nothing to search")
    out = Path(out) if out is not None else Path("reports") / f"{sc.name}.search.html"
    check_report_path(out, pdf=pdf)
    with warnings.catch_warnings():  # the contradiction is printed in the summary below, once
        warnings.simplefilter("ignore", UserWarning)
        res = search(sc, tgt, seed=seed)
    print(res.summary())
    print(res.table().to_string(index=False, max_rows=60))
    sens = None
    if raw_sens is not None:
        spec = parse_sensitivity(raw_sens, sc, where=str(scenario))
        sens = sensitivity_run(sc, spec, seed=res.seed_entropy if seed is None else seed)
        print(sens.summary())
        print(sens.table().to_string(index=False))
    write_report(res, out, sensitivity=sens, pdf=pdf)
    print(f"wrote {out}")
    return 0
