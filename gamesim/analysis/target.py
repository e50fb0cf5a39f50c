"""The ``[target]`` table of a scenario: its keys, checks and the validated :class:`Target`.

Read by :mod:`gamesim.analysis.search` (which searches the target) and by
:mod:`gamesim.analysis.sensitivity` (which shares the part and parameter-range checks and the loader
of a scenario with ``[target]`` and ``[sensitivity]`` tables); the keys are described in
:mod:`gamesim.analysis.search`. Every name here is importable from :mod:`gamesim.analysis.search` too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from gamesim.core.registry import ParamError, Task
from gamesim.run.scenario import (
    DataFileResolver,
    Part,
    Scenario,
    ScenarioError,
    check_param_value,
    load_scenario,
    read_scenario_source,
)
from gamesim.core.tablecheck import check_keys, is_int_value, is_number_value

__all__ = [
    "Constraint",
    "SearchParam",
    "Target",
    "MAX_SETTINGS",
    "MAX_TRIALS",
    "MAX_BOX_TRIALS",
    "load_target_scenario",
    "parse_target",
    "parse_values",
    "searched_part",
]

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
_is_int = is_int_value
_is_num = is_number_value


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
        ``[sensitivity]`` table (validated by :mod:`gamesim.analysis.sensitivity`).

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
        from gamesim.run.scenario import events_in

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


def searched_part(scenario: Scenario, name: Any, where: str, key: str) -> Part:
    """The part a ``[target]`` or ``[sensitivity]`` table names, checked to fix every other parameter.

    Parameters
    ----------
    scenario : Scenario
    name : str or None
        The table's ``part`` value; ``None`` is allowed when the scenario has one part.
    where : str
        The file the table comes from (starts an error message).
    key : str
        The key's dotted name (``"target.part"``) for the error message.

    Returns
    -------
    Part

    Raises
    ------
    ScenarioError
        If ``name`` is missing with several parts, is not a part, or names a part with
        cases or a grid of several values.
    """
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
        check_keys(spec, ["max", "min", "step"], where=where, at=key, error=ScenarioError, report="smallest")
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
    check_keys(raw, list(_TARGET_KEYS), where=where, at="target", error=ScenarioError)

    def fail(key: str) -> ScenarioError:
        return ScenarioError(f"{where}: target.{key} = {raw.get(key)!r}, must be {_TARGET_KEYS[key]}")

    part = searched_part(scenario, raw.get("part"), where, "target.part")
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
        check_keys(c, sorted(_CONSTRAINT_KEYS), where=where, at=at, error=ScenarioError)
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
