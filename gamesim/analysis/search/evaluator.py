"""The evaluator of the target search: per-setting data, sequential looks, exact values, common random numbers.

:class:`_Evaluator` holds, for every setting of the searched box, the trials drawn so far (only the
constrained metrics are kept), the game's exact values where its solver covers the setting, and the
decision at each look (:mod:`gamesim.analysis.search.decisions`). Chunk ``k`` of a setting is drawn
from child seed ``(0, 0, k)`` of the run's root seed (``(0, i, k)`` without common random numbers)
by :func:`gamesim.run.sweep.run_chunk`, the sweep's own worker.
"""

from __future__ import annotations

import itertools
import math
import sys
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from gamesim.analysis.search.decisions import _interval, constraint_decision, decide
from gamesim.analysis.target import Target
from gamesim.core.registry import ParamError
from gamesim.run.scenario import Scenario, ScenarioError

__all__: list[str] = []

class _Evaluator:
    """Per-setting data with sequential looks, exact values and common random numbers."""

    def __init__(self, scenario: Scenario, target: Target, entropy: int, *, crn: bool = True, progress: bool = False,
                 store: Any = None):
        from gamesim.run.sweep import BarStream, run_chunk, tqdm

        self._run_chunk = run_chunk
        #: Where each simulated chunk is saved as it completes (a :class:`gamesim.run.sweep.ChunkStore` opened with
        #: this ``entropy``), so an interrupted search resumes; None: kept in memory only.
        self.store = store
        self.reused = 0
        #: Trials simulated so far, on the terminal (a search's total is not known in advance: the count and rate)
        self.bar_out = BarStream(sys.stderr)
        self.bar = tqdm(desc=f"{scenario.name} search", unit=" trials", unit_scale=True, delay=0.5,
                        disable=not progress, leave=False, file=self.bar_out)
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
            saved = (0, i, k)  # the chunk's file: setting i's k-th chunk (its random numbers: ``key``)
            arrays = self.store.take(saved, self.chunk, sorted(self.kept)) if self.store is not None else None
            if arrays is not None:
                self.reused += 1
            else:
                _, arrays = self._run_chunk(self.scenario.game.name, self.task.name, cell, self.chunk, self.entropy,
                                           key, events=getattr(self.task, "events", ()))
                if self.store is not None:
                    self.store.write(saved, arrays)
            for name, arr in arrays.items():
                if name in self.kept:  # only the constrained metrics are kept in memory
                    store.setdefault(name, []).append(arr)
            self.bar.update(self.chunk)
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
