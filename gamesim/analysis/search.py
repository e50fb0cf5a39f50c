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
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from gamesim.core.registry import ParamError
from gamesim.core.rng import root_seed_sequence
from gamesim.run.scenario import Scenario, ScenarioError
from gamesim.core.stats import Estimate, mean_estimate, proportion_estimate, quantile_estimate
from gamesim.core.tablecheck import is_number_value as _is_num
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

#: Status of a setting in a search result.
STATUSES = ("feasible", "infeasible", "undecided", "not evaluated")
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
        from gamesim.run.sweep import run_chunk

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
