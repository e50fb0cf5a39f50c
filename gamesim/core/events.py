"""Event metrics: questions such as "at least 2 wounds" asked as proportions.

An *event* is a boolean derived from one metric's per-trial values:

- ``at_least(wounds, 2)``: ``wounds >= 2``;
- ``at_most(pulls_to_complete, 300)``: ``pulls_to_complete <= 300``;
- ``between(x, lo, hi)``: ``lo <= x <= hi`` (both ends included).

Its name is usable wherever a metric name is (results tables, ``[compare]``,
``[precision]``, ``[target]`` constraints, the Python API). The event is computed
from the per-trial array right after the task runs (:func:`add_events`, called
by :func:`gamesim.run.chunks.run_chunk`, in the sweep worker), before the chunk is summarised, so it
is a metric like any other from then on: a proportion with a Wilson interval,
paired 2x2 tables for comparisons, exact values where the task gives its
metric's probability mass function (exact keys ``"<metric>:pmf=<k>"``).

A censored trial (``nan``: the event behind the metric did not happen within the
cap) counts as ``+inf``: it is "at least k" for every ``k`` and never "at most k".
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import Metric, Task

__all__ = ["Event", "parse_event", "looks_like_event", "add_events", "exact_event", "EventTask", "with_events"]

_NUM = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_PATTERN = re.compile(
    rf"^\s*(at_least|at_most|between)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*({_NUM})\s*(?:,\s*({_NUM})\s*)?\)\s*$"
)


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


@dataclass(frozen=True)
class Event:
    """A boolean event on one metric's per-trial values.

    Attributes
    ----------
    kind : {"at_least", "at_most", "between"}
    metric : str
        The metric the event reads (a ``mean`` metric of the task).
    lo, hi : float
        Inclusive bounds (``-inf``/``inf`` where open).
    """

    kind: Literal["at_least", "at_most", "between"]
    metric: str
    lo: float
    hi: float

    @property
    def name(self) -> str:
        """Canonical name, e.g. ``"at_least(wounds, 2)"`` (the results' ``metric`` column)."""
        if self.kind == "at_least":
            return f"at_least({self.metric}, {_fmt(self.lo)})"
        if self.kind == "at_most":
            return f"at_most({self.metric}, {_fmt(self.hi)})"
        return f"between({self.metric}, {_fmt(self.lo)}, {_fmt(self.hi)})"

    def evaluate(self, values: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """``lo <= value <= hi`` per trial, shape of ``values``; ``nan`` (censored) counts as ``+inf``."""
        x = np.asarray(values, dtype=np.float64)
        x = np.where(np.isnan(x), np.inf, x)
        return (x >= self.lo) & (x <= self.hi)

    def metric_for(self, base: Metric) -> Metric:
        """The proportion metric this event adds next to ``base``."""
        what = {"at_least": f"{self.metric} >= {_fmt(self.lo)}", "at_most": f"{self.metric} <= {_fmt(self.hi)}",
                "between": f"{_fmt(self.lo)} <= {self.metric} <= {_fmt(self.hi)}"}[self.kind]
        return Metric(self.name, "proportion", doc=f"event: {what} ({base.doc})" if base.doc else f"event: {what}")


def looks_like_event(name: Any) -> bool:
    """Whether ``name`` is written as an event call (``at_least(`` ...), valid or not."""
    return isinstance(name, str) and re.match(r"^\s*(at_least|at_most|between)\s*\(", name) is not None


def parse_event(name: str) -> Event:
    """Parse ``"at_least(wounds, 2)"``, ``"at_most(x, 300)"`` or ``"between(x, 1, 3)"``.

    Parameters
    ----------
    name : str
        The event as written; spaces are free.

    Returns
    -------
    Event

    Raises
    ------
    ValueError
        One line naming the text and the allowed forms: bad syntax, a number that
        is not finite, ``at_least``/``at_most`` with two numbers, ``between``
        with one, or ``between`` with ``lo > hi``.
    """
    allowed = "at_least(<metric>, <number>), at_most(<metric>, <number>) or between(<metric>, <lo>, <hi>)"
    m = _PATTERN.match(name) if isinstance(name, str) else None
    if m is None:
        raise ValueError(f"event {name!r} is not understood, must be {allowed}")
    kind, metric, a, b = m.groups()
    x = float(a)
    if kind == "between":
        if b is None:
            raise ValueError(f"event {name!r}: between needs two numbers, must be {allowed}")
        y = float(b)
        if x > y:
            raise ValueError(f"event {name!r}: lo = {_fmt(x)} > hi = {_fmt(y)}, must be lo <= hi")
        return Event("between", metric, x, y)
    if b is not None:
        raise ValueError(f"event {name!r}: {kind} takes one number, must be {allowed}")
    return Event("at_least", metric, x, math.inf) if kind == "at_least" else Event("at_most", metric, -math.inf, x)


def add_events(
    arrays: Mapping[str, npt.NDArray[Any]], events: Iterable[str]
) -> dict[str, npt.NDArray[Any]]:
    """The task's per-trial arrays with one boolean array per event added.

    Parameters
    ----------
    arrays : mapping of str to ndarray, each shape (n_trials,)
        What a task's ``simulate`` returned.
    events : iterable of str
        Event names (:func:`parse_event`); each one's metric must be in ``arrays``.

    Returns
    -------
    dict of str to ndarray
        ``arrays`` plus ``{event.name: bool array (n_trials,)}``.

    Raises
    ------
    ValueError
        A name that does not parse.
    KeyError
        An event on a metric the task did not return.
    """
    out = dict(arrays)
    for name in events:
        ev = parse_event(name)
        if ev.metric not in arrays:
            raise KeyError(f"event {name!r} reads metric {ev.metric!r}, which the task does not return")
        out[ev.name] = ev.evaluate(arrays[ev.metric])
    return out


def exact_event(event: Event, exact: Mapping[str, float]) -> float:
    """Exact probability of ``event`` from a task's exact values, or ``nan``.

    Parameters
    ----------
    event : Event
    exact : mapping
        A task's exact values; the metric's probability mass function is given as
        keys ``"<metric>:pmf=<k>"`` (``k`` an integer value, the value's probability).

    Returns
    -------
    float
        ``sum(P(k) for lo <= k <= hi)``, plus the censored mass ``1 - sum(P)`` (the PMF of a
        capped metric, e.g. uses until a knock-out within ``max_uses``, sums to less than 1;
        a censored trial counts as ``+inf``) where ``hi`` is ``+inf``; ``nan`` where the task
        gives no PMF.
    """
    prefix = f"{event.metric}:pmf="
    pmf = {float(k[len(prefix):]): float(v) for k, v in exact.items() if k.startswith(prefix)}
    if not pmf:
        return math.nan
    inside = float(sum(p for k, p in pmf.items() if event.lo <= k <= event.hi))
    if event.hi == math.inf:
        inside += max(0.0, 1.0 - float(sum(pmf.values())))
    return min(inside, 1.0)


@dataclass(frozen=True)
class EventTask(Task):
    """A registered task with event metrics added (what a scenario's parts hold when it asks for events).

    ``events`` are the canonical event names; ``simulate``, ``metrics`` and
    ``exact`` include them. The sweep engine passes ``events`` to
    :func:`gamesim.run.sweep.run_chunk`, which looks the base task up by name.
    """

    events: tuple[str, ...] = ()


def with_events(task: Task, events: Iterable[str]) -> Task:
    """``task`` with the given events added as proportion metrics.

    Parameters
    ----------
    task : Task
        A registered task (or an :class:`EventTask`: events are merged).
    events : iterable of str
        Event names whose metric is one of the task's ``mean`` metrics.

    Returns
    -------
    Task
        ``task`` itself without events; otherwise an :class:`EventTask`.

    Raises
    ------
    ValueError
        A name that does not parse, or whose metric is not a ``mean`` metric of the task
        (the message lists the allowed metrics).
    """
    base = task
    old: tuple[str, ...] = ()
    if isinstance(task, EventTask):
        old = task.events
        base = Task(**{f.name: getattr(task, f.name) for f in dataclasses.fields(Task)})
    parsed = [parse_event(e) for e in (*old, *events)]
    if not parsed:
        return task
    names: list[str] = []
    evs: list[Event] = []
    for ev in parsed:
        if ev.name not in names:
            names.append(ev.name)
            evs.append(ev)

    def metrics(params: Mapping[str, Any]) -> tuple[Metric, ...]:
        ms = base.metrics_for(params)
        by = {m.name: m for m in ms}
        for ev in evs:
            if ev.metric not in by or by[ev.metric].kind != "mean":
                allowed = ", ".join(m.name for m in ms if m.kind == "mean") or "none"
                raise ValueError(f"event {ev.name!r}: {ev.metric!r} is not a numeric metric of task "
                                 f"{base.name!r}; allowed: {allowed}")
        return ms + tuple(ev.metric_for(by[ev.metric]) for ev in evs)

    def simulate(params: Mapping[str, Any], n_trials: int, *, rng: Any = None) -> dict[str, npt.NDArray[Any]]:
        return add_events(base.simulate(params, n_trials, rng=np.random.default_rng(rng)), names)

    exact = None
    if base.exact is not None:
        base_exact = base.exact

        def exact(params: Mapping[str, Any]) -> dict[str, float]:
            ex = dict(base_exact(params))
            for ev in evs:
                v = exact_event(ev, ex)
                if not math.isnan(v):
                    ex[f"{ev.name}:proportion"] = v
            return ex

    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(Task)}
    fields.update(simulate=simulate, metrics=metrics, exact=exact)
    return EventTask(**fields, events=tuple(names))
