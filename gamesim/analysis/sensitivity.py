"""Which rule matters most: one-at-a-time effects and a discrete variance-based index.

A scenario's ``[sensitivity]`` table (or :func:`sensitivity` in Python) names a
metric and, for each rule parameter, the levels to try::

    [sensitivity]
    part = "completion"        # optional with one part
    metric = "complete"
    statistic = "proportion"   # optional: the metric's primary statistic
    n_trials = 4000            # trials per setting
    params = { bag_n = [30, 44, 60], bag_sr = [2, 5, 8] }

Two views, both on the same random numbers (every setting draws chunk ``k``
from the same child seed: common random numbers, so differences are paired):

* **One-at-a-time (OAT)**: from the default setting (the part's parameters),
  each parameter moved alone to its lowest and highest level; the effect is the
  paired difference of the metric with its 95% interval
  (:func:`gamesim.core.analysis.paired_difference`). Shown as a tornado plot.
* **Global, discrete variance-based index** (the documented discrete analogue
  of Sobol indices; SALib's Sobol sampler needs continuous inputs, rule
  settings are discrete): over the full factorial of the levels (each level
  equally likely, parameters independent), with ``f`` the metric's value per
  setting, the first-order index ``S_i = Var(E[f | x_i]) / Var(f)`` and the
  total index ``ST_i = E[Var(f | x_~i)] / Var(f)``, computed exactly on the
  factorial from the estimated (or exact) cell values. Intervals: a bootstrap
  over trials that resamples the same trial indices in every cell (respecting
  the common random numbers). The estimated cell values include sampling noise,
  which adds about ``mean(se^2)`` to ``Var(f)``; the summary reports that ratio.
* **Global, continuous parameters: SALib's Sobol' indices.** When every
  parameter is a float given as a range ``{min, max}`` (no ``step``), the
  inputs are uniform on the box and the indices are SALib's
  (``SALib.sample.sobol`` Saltelli design with ``n_base x (d + 2)`` points,
  ``SALib.analyze.sobol`` first-order and total indices with bootstrap
  intervals). Mixing continuous ranges with discrete levels is refused (give a
  ``step`` to treat a float parameter as levels).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from gamesim.core.analysis import paired_difference
from gamesim.core.rng import root_seed_sequence
from gamesim.run.scenario import Scenario, ScenarioError
from gamesim.core.tablecheck import check_keys
from gamesim.analysis.target import load_target_scenario, parse_values, searched_part

__all__ = ["SensitivitySpec", "SensitivityResult", "parse_sensitivity", "sensitivity", "sensitivity_run",
           "variance_indices", "MAX_FACTORIAL"]

#: Largest full factorial of levels (settings) a sensitivity run accepts.
MAX_FACTORIAL = 729
_KEYS = {"part", "metric", "statistic", "n_trials", "params", "n_boot", "use_exact", "n_base"}
#: Largest number of model runs (settings) of a Sobol' design, ``n_base x (parameters + 2)``.
MAX_SOBOL_POINTS = 4096


@dataclass(frozen=True)
class SensitivitySpec:
    """A validated ``[sensitivity]`` table."""

    part: str
    metric: str
    statistic: str
    params: dict[str, tuple[Any, ...]]
    n_trials: int
    n_boot: int = 200
    use_exact: bool = True
    #: Continuous ranges ``{min, max}`` of float parameters (then every parameter is continuous and
    #: the global index is SALib's Sobol'); ``params`` holds ``(min, max)`` for the OAT view.
    continuous: bool = False
    n_base: int = 64


def parse_sensitivity(raw: Mapping[str, Any], scenario: Scenario, *, where: str = "<scenario dict>"
                      ) -> SensitivitySpec:
    """Validate a ``[sensitivity]`` table against a loaded scenario.

    Raises
    ------
    ScenarioError
        Unknown key, unknown metric or parameter, a level the task refuses, a
        parameter with fewer than 2 levels, a factorial over
        :data:`MAX_FACTORIAL` settings, or ``n_trials``/``n_boot`` out of range;
        the message names the key, the value and what is allowed.
    """
    if not isinstance(raw, Mapping):
        raise ScenarioError(f"{where}: sensitivity = {raw!r}, must be a table")
    check_keys(raw, sorted(_KEYS), where=where, at="sensitivity", error=ScenarioError)
    part = searched_part(scenario, raw.get("part"), where, "sensitivity.part")
    cell = part.cells()[0]
    metrics = {m.name: m for m in part.task.metrics_for(cell)}
    metric = raw.get("metric")
    if metric not in metrics:
        raise ScenarioError(f"{where}: sensitivity.metric = {metric!r}, must be a metric of task "
                            f"{part.task.name!r}: {', '.join(metrics)}")
    primary = "proportion" if metrics[metric].kind == "proportion" else "mean"
    stat = raw.get("statistic", primary)
    if stat != primary:
        raise ScenarioError(f"{where}: sensitivity.statistic = {stat!r}, must be {primary!r}")
    rp = raw.get("params")
    if not isinstance(rp, dict) or not rp:
        raise ScenarioError(f"{where}: sensitivity.params = {rp!r}, must be a table of parameter -> levels")
    params = {}
    known = {p.name: p for p in part.task.params}
    cont = {k for k, v in rp.items() if isinstance(v, dict) and "step" not in v and k in known
            and known[k].kind == "float"}
    if cont and len(cont) < len(rp):
        k = sorted(cont)[0]
        raise ScenarioError(
            f"{where}: sensitivity.params.{k} = {rp[k]!r}: a continuous range (SALib Sobol') needs every parameter "
            f"continuous; give step or a list of levels for the discrete analogue "
            f"(discrete: {', '.join(sorted(set(rp) - cont))})")
    for k in sorted(cont):
        v = rp[k]
        # v has no step (that would make the range discrete), so only min and max pass here
        check_keys(v, ["max", "min", "step"], where=where, at=f"sensitivity.params.{k}", error=ScenarioError,
                   report="smallest")
        for b in ("min", "max"):
            x = v.get(b)
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
                raise ScenarioError(f"{where}: sensitivity.params.{k}.{b} = {x!r}, must be a number")
        if not v["min"] < v["max"]:
            raise ScenarioError(f"{where}: sensitivity.params.{k} = {v!r}, must have min < max")
        params[k] = parse_values(where, f"sensitivity.params.{k}", [v["min"], v["max"]], part.task, k)
    for k, v in rp.items():
        if k in cont:
            continue
        vals = parse_values(where, f"sensitivity.params.{k}", v, part.task, k, max_values=MAX_FACTORIAL)
        if len(vals) < 2:
            raise ScenarioError(f"{where}: sensitivity.params.{k} = {v!r}, must have at least 2 levels")
        params[k] = vals
    params = {k: params[k] for k in rp}  # the file's order
    nb0 = raw.get("n_base", 64)
    if (not isinstance(nb0, int) or isinstance(nb0, bool) or nb0 < 2 or nb0 & (nb0 - 1)
            or nb0 * (len(params) + 2) > MAX_SOBOL_POINTS):
        raise ScenarioError(f"{where}: sensitivity.n_base = {nb0!r}, must be a power of 2 >= 2 with "
                            f"n_base x (parameters + 2) <= {MAX_SOBOL_POINTS}")
    size = nb0 * (len(params) + 2) if cont else math.prod(len(v) for v in params.values())
    if not cont and size > MAX_FACTORIAL:
        raise ScenarioError(f"{where}: sensitivity.params spans {size} settings, must span <= {MAX_FACTORIAL}")
    n = raw.get("n_trials", scenario.n_trials)
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 1_000_000:
        raise ScenarioError(f"{where}: sensitivity.n_trials = {n!r}, must be an integer in 2..1000000")
    if size * n > 20_000_000:  # every setting's values are kept for the bootstrap
        raise ScenarioError(f"{where}: sensitivity: {size} settings x {n} trials, must be <= 20000000 trials")
    nb = raw.get("n_boot", 200)
    if not isinstance(nb, int) or isinstance(nb, bool) or not 0 <= nb <= 5000:
        raise ScenarioError(f"{where}: sensitivity.n_boot = {nb!r}, must be an integer in 0..5000")
    if part.task.check is not None:
        from gamesim.core.registry import ParamError

        oat = [{**{k: cell[k] for k in params}, k: lvl} for k, v in params.items() for lvl in (v[0], v[-1])]
        for setting in [dict(zip(params, combo)) for combo in itertools.product(*params.values())] + oat:
            c = dict(cell)
            c.update(setting)
            combo = tuple(setting.values())
            try:
                part.task.check(c)
            except ParamError as exc:
                raise ScenarioError(f"{where}: sensitivity setting {dict(zip(params, combo))}: {exc}") from None
    use_exact = raw.get("use_exact", True)
    if not isinstance(use_exact, bool):
        raise ScenarioError(f"{where}: sensitivity.use_exact = {use_exact!r}, must be true or false")
    return SensitivitySpec(part.name, metric, stat, params, n, nb, use_exact, bool(cont), nb0)


def variance_indices(values: npt.ArrayLike) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """First-order and total variance-based indices of a function on a full factorial.

    Parameters
    ----------
    values : array_like, shape (L_1, ..., L_d)
        The function's value at every combination of levels (levels equally
        likely, parameters independent).

    Returns
    -------
    (ndarray, ndarray), each shape (d,)
        ``S_i = Var(E[f|x_i]) / Var(f)`` and ``ST_i = E[Var(f|x_~i)] / Var(f)``;
        ``nan`` when ``Var(f) = 0``.

    Notes
    -----
    The discrete analogue of Sobol's indices (Sobol 1993; Saltelli et al. 2010):
    with independent uniform levels, the ANOVA decomposition of ``f`` on the
    factorial is exact, so the indices are computed exactly rather than sampled.
    """
    f = np.asarray(values, dtype=np.float64)
    d = f.ndim
    var = f.var()
    first, total = np.full(d, np.nan), np.full(d, np.nan)
    if var <= 0:
        return first, total
    for i in range(d):
        others = tuple(j for j in range(d) if j != i)
        first[i] = f.mean(axis=others).var() / var if others else 1.0
        total[i] = f.var(axis=i).mean() / var
    return first, total


@dataclass
class SensitivityResult:
    """What :func:`sensitivity` returns.

    Attributes
    ----------
    oat : pandas.DataFrame
        One row per parameter and moved level: ``parameter, default, level,
        n, estimate, se, ci_low, ci_high`` (paired difference of the metric
        against the default setting, 95% interval), ``exact`` (from the exact
        solver where it covers both settings).
    indices : pandas.DataFrame
        One row per parameter: ``parameter, levels, first_order, first_low,
        first_high, total, total_low, total_high, oat_range`` sorted by
        ``total`` (the ranking).
    spec : SensitivitySpec
    noise_ratio : float
        ``mean(se^2) / Var(f)`` over the factorial: how much sampling noise
        inflates the variance the indices are shares of (0 with exact values).
    basis : str
        ``"exact"``, ``"sampled"`` or ``"mixed"``.
    seed_entropy : int
    method : str
        ``"discrete factorial"`` (exact variance decomposition over the levels)
        or ``"sobol (SALib)"`` (continuous ranges).
    n_points : int
        Settings of the Sobol' design (0 for the factorial).
    """

    oat: pd.DataFrame
    indices: pd.DataFrame
    spec: SensitivitySpec
    noise_ratio: float
    basis: str
    seed_entropy: int
    method: str = "discrete factorial"
    n_points: int = 0

    def table(self, digits: int = 3) -> pd.DataFrame:
        """The ranking: parameters by total index, with intervals and the OAT range."""
        df = self.indices.copy()

        def iv(e: float, lo: float, hi: float) -> str:
            if math.isnan(e):
                return "n/a"
            return f"{e:.{digits}f}" if math.isnan(lo) else f"{e:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"

        return pd.DataFrame({
            "parameter": df["parameter"],
            "levels": df["levels"],
            "first order S": [iv(*r) for r in df[["first_order", "first_low", "first_high"]].to_numpy()],
            "total ST": [iv(*r) for r in df[["total", "total_low", "total_high"]].to_numpy()],
            "OAT range": df["oat_range"].map(lambda v: f"{v:.{digits}g}"),
        })

    def summary(self) -> str:
        """Plain-text ranking and what the indices mean."""
        s = self.spec
        top = self.indices["parameter"].iloc[0] if len(self.indices) else "-"
        over = (", ".join(f"{k} in [{v[0]:g}, {v[-1]:g}]" for k, v in s.params.items()) if s.continuous
                else ", ".join(f"{k} in {list(v)}" for k, v in s.params.items()))
        how = (f"global index: SALib Sobol' (Saltelli design, {self.n_points} points, base {s.n_base})"
               if s.continuous else "global index: exact variance decomposition over the full factorial")
        return (f"Sensitivity of {s.metric} ({s.statistic}) over {over}; {s.n_trials} trials per setting "
                f"({self.basis}), common random numbers; {how}."
                + f"\nMost influential: {top}. Noise share of Var(f): {self.noise_ratio:.3g}.")

    def plot(self) -> Any:
        """Tornado plot: each parameter's OAT effects (lowest and highest level) with 95% intervals.

        Returns
        -------
        matplotlib.figure.Figure
        """
        import matplotlib.pyplot as plt

        order = list(self.indices.sort_values("oat_range")["parameter"])
        fig, ax = plt.subplots(figsize=(7, 0.6 * len(order) + 1.5))
        for y, p in enumerate(order):
            rows = self.oat[self.oat["parameter"] == p]
            for _, r in rows.iterrows():
                col = "tab:blue" if r["side"] == "high" else "tab:orange"
                ax.barh(y, r["estimate"], color=col, alpha=0.6)
                ax.errorbar(r["estimate"], y, xerr=[[r["estimate"] - r["ci_low"]], [r["ci_high"] - r["estimate"]]],
                            color="k", capsize=3)
                ax.text(r["estimate"], y + 0.25, str(r["level"]), fontsize=7, ha="center")
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks(range(len(order)), order)
        ax.set_xlabel(f"change in {self.spec.metric} from the default (95% paired interval)")
        ax.set_title("One-at-a-time effects (orange: lowest level, blue: highest)", fontsize=9)
        fig.tight_layout()
        return fig


def sensitivity(scenario: str | Path | Mapping[str, Any] | Scenario, spec: Mapping[str, Any] | None = None, *,
                seed: int | None = None) -> SensitivityResult:
    """Rank rule parameters by their effect on a metric (see the module docstring).

    Parameters
    ----------
    scenario : path, mapping or Scenario
        A scenario (file or dict) with a ``[sensitivity]`` table, or a scenario
        plus ``spec``.
    spec : Mapping, optional
        The ``[sensitivity]`` table (overrides the file's).
    seed : int, optional
        Root seed (overrides the scenario's); fresh entropy if neither.

    Returns
    -------
    SensitivityResult

    Raises
    ------
    ScenarioError
        For an invalid scenario or table (see :func:`parse_sensitivity`).
    ValueError
        Without a ``[sensitivity]`` table, or for a negative seed.
    """
    if isinstance(scenario, Scenario):
        sc, raw = scenario, spec
    else:
        sc, _, raw = load_target_scenario(scenario)
        raw = spec if spec is not None else raw
    if raw is None:
        raise ValueError("no [sensitivity] table: give one in the scenario or spec=")
    where = str(sc.path) if sc.path is not None else "<scenario dict>"
    return sensitivity_run(sc, parse_sensitivity(raw, sc, where=where), seed=seed)


def sensitivity_run(sc: Scenario, spec: SensitivitySpec, *, seed: int | None = None) -> SensitivityResult:
    """Run a validated sensitivity spec (see :func:`sensitivity`)."""
    from gamesim.run.sweep import run_chunk
    from gamesim.core.validate import check_int

    if seed is not None:
        check_int("seed", seed, min=0)
    entropy = int(root_seed_sequence(sc.seed if seed is None else seed).entropy)
    part = next(p for p in sc.parts if p.name == spec.part)
    task = part.task
    base = part.cells()[0]
    kind = next(m.kind for m in task.metrics_for(base) if m.name == spec.metric)
    key = f"{spec.metric}:{spec.statistic}"
    names = list(spec.params)
    cache: dict[tuple, tuple[npt.NDArray[np.float64] | None, float]] = {}
    chunk = min(sc.chunk_size, spec.n_trials)

    def evaluate(setting: Mapping[str, Any]) -> tuple[npt.NDArray[np.float64] | None, float]:
        cell = dict(base)
        cell.update(setting)
        tkey = tuple((k, repr(cell[k])) for k in sorted(cell))
        if tkey in cache:
            return cache[tkey]
        ex = dict(task.exact(cell)) if task.exact is not None and spec.use_exact else {}
        if key in ex:
            cache[tkey] = (None, float(ex[key]))
            return cache[tkey]
        parts = []
        for k in range(-(-spec.n_trials // chunk)):  # same child seed for every setting: CRN
            _, arrays = run_chunk(sc.game.name, task.name, cell, chunk, entropy, (0, 0, k),
                                  events=getattr(task, "events", ()))
            parts.append(np.asarray(arrays[spec.metric], dtype=np.float64))
        vals = np.concatenate(parts)[: spec.n_trials]
        if np.isnan(vals).any():
            raise ScenarioError(f"sensitivity.metric = {spec.metric!r} has censored trials (nan) at {setting}: "
                                "its mean is not estimable; choose another metric")
        cache[tkey] = (vals, float(vals.mean()))
        return cache[tkey]

    # one-at-a-time, around the default
    default = {k: base[k] for k in names}
    y0, v0 = evaluate(default)
    rows = []
    for k in names:
        levels = spec.params[k]
        for side, lvl in (("low", levels[0]), ("high", levels[-1])):
            y, v = evaluate({**default, k: lvl})
            if y is None and y0 is None:
                d = {"n": 0, "estimate": v - v0, "se": 0.0, "ci_low": v - v0, "ci_high": v - v0}
                exact = v - v0
            elif y is not None and y0 is not None:
                est, _ = paired_difference(y, y0, kind=kind)
                d, exact = est.as_dict(), math.nan
            else:  # one side exact, the other sampled: difference of the sampled mean to the exact value
                ys = y if y is not None else y0
                sign = 1 if y is not None else -1
                m, se = ys.mean(), ys.std(ddof=1) / math.sqrt(ys.size)
                e = sign * (m - (v0 if y is not None else v))
                d = {"n": ys.size, "estimate": e, "se": se, "ci_low": e - 1.96 * se, "ci_high": e + 1.96 * se}
                exact = math.nan
            rows.append({"parameter": k, "default": default[k], "side": side, "level": lvl, **d, "exact": exact})
    oat = pd.DataFrame(rows)

    if spec.continuous:
        return _sobol(spec, names, evaluate, oat, entropy)
    # global: full factorial
    combos = list(itertools.product(*(spec.params[k] for k in names)))
    shape = tuple(len(spec.params[k]) for k in names)
    evals = [evaluate(dict(zip(names, c))) for c in combos]
    values = np.array([v for _, v in evals]).reshape(shape)
    first, total = variance_indices(values)
    sampled = [y for y, _ in evals if y is not None]
    basis = "exact" if not sampled else ("sampled" if len(sampled) == len(evals) else "mixed")
    f_lo = np.full(len(names), np.nan)
    f_hi, t_lo, t_hi = f_lo.copy(), f_lo.copy(), f_lo.copy()
    noise = 0.0
    if sampled and spec.n_boot > 0:
        n = min(y.size for y in sampled)
        Y = np.vstack([y[:n] if y is not None else np.full(n, v) for y, v in evals])  # (cells, n)
        ses = np.array([y[:n].std(ddof=1) / math.sqrt(n) for y in sampled])
        var = values.var()
        noise = float(np.mean(ses**2) / var) if var > 0 else math.inf
        rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(1,)))
        boots_f, boots_t = [], []
        for _ in range(spec.n_boot):
            idx = rng.integers(0, n, n)  # the same trials in every cell: keeps the CRN pairing
            b = Y[:, idx].mean(axis=1).reshape(shape)
            bf, bt = variance_indices(b)
            boots_f.append(bf)
            boots_t.append(bt)
        bf, bt = np.array(boots_f), np.array(boots_t)
        f_lo, f_hi = np.nanpercentile(bf, 2.5, axis=0), np.nanpercentile(bf, 97.5, axis=0)
        t_lo, t_hi = np.nanpercentile(bt, 2.5, axis=0), np.nanpercentile(bt, 97.5, axis=0)
    oat_range = [float(oat[oat["parameter"] == k]["estimate"].abs().max()) for k in names]
    ind = pd.DataFrame({"parameter": names, "levels": [str(list(spec.params[k])) for k in names],
                        "first_order": first, "first_low": f_lo, "first_high": f_hi,
                        "total": total, "total_low": t_lo, "total_high": t_hi, "oat_range": oat_range})
    ind = ind.sort_values(["total", "oat_range"], ascending=False, na_position="last").reset_index(drop=True)
    return SensitivityResult(oat, ind, spec, noise, basis, entropy)


def _sobol(spec: SensitivitySpec, names: list[str], evaluate: Any, oat: pd.DataFrame, entropy: int
           ) -> SensitivityResult:
    """Sobol' indices of continuous parameters with SALib (Saltelli's design, Jansen's estimators).

    The design has ``n_base x (d + 2)`` points (``calc_second_order=False``);
    each point is simulated with ``n_trials`` trials on the same child seeds
    (common random numbers). Intervals: SALib's bootstrap over the design's
    rows (``n_boot`` resamples, 95%); they do not include the Monte Carlo noise
    of each point's value, whose share of the variance is ``noise_ratio``.
    """
    from SALib.analyze import sobol as sobol_analyze
    from SALib.sample import sobol as sobol_sample

    problem = {"num_vars": len(names), "names": names,
               "bounds": [[float(spec.params[k][0]), float(spec.params[k][-1])] for k in names]}
    seeds = np.random.SeedSequence(entropy, spawn_key=(2,)).generate_state(2)
    X = sobol_sample.sample(problem, spec.n_base, calc_second_order=False, seed=int(seeds[0]))
    evals = [evaluate({k: float(x) for k, x in zip(names, row)}) for row in X]
    Y = np.array([v for _, v in evals], dtype=np.float64)
    sampled = [y for y, _ in evals if y is not None]
    basis = "exact" if not sampled else ("sampled" if len(sampled) == len(evals) else "mixed")
    var = Y.var()
    noise = 0.0
    if sampled:
        ses = np.array([y.std(ddof=1) / math.sqrt(y.size) for y in sampled])
        noise = float(np.mean(ses**2) / var) if var > 0 else math.inf
    nan = np.full(len(names), np.nan)
    if var > 0:
        r = sobol_analyze.analyze(problem, Y, calc_second_order=False, num_resamples=max(spec.n_boot, 2),
                                  conf_level=0.95, seed=int(seeds[1]))
        first, f_conf, total, t_conf = (np.asarray(r[k], dtype=np.float64) for k in ("S1", "S1_conf", "ST",
                                                                                      "ST_conf"))
        if spec.n_boot == 0:
            f_conf = t_conf = nan
    else:
        first = total = f_conf = t_conf = nan
    oat_range = [float(oat[oat["parameter"] == k]["estimate"].abs().max()) for k in names]
    ind = pd.DataFrame({"parameter": names,
                        "levels": [f"[{spec.params[k][0]:g}, {spec.params[k][-1]:g}] continuous" for k in names],
                        "first_order": first, "first_low": first - f_conf, "first_high": first + f_conf,
                        "total": total, "total_low": total - t_conf, "total_high": total + t_conf,
                        "oat_range": oat_range})
    ind = ind.sort_values(["total", "oat_range"], ascending=False, na_position="last").reset_index(drop=True)
    return SensitivityResult(oat, ind, spec, noise, basis, entropy, method="sobol (SALib)", n_points=len(X))
