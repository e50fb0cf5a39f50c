"""The algorithms of the target search, and :func:`search`, which picks one.

A noisy bisection (:func:`_bisect_1d`) for one searched parameter whose constraints all declare
``monotone`` (with :func:`_monotone_contradictions` checking the declaration against the decided
settings), the staged grid otherwise (:func:`_staged_grid`: coarse grid, boundary zone,
precision top-ups), and every setting solved exactly where the game's exact solver covers the box.
The decision rule is in the Notes of :func:`search` and in :mod:`gamesim.analysis.search`.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gamesim.analysis.search.decisions import decide
from gamesim.analysis.search.evaluator import _Evaluator
from gamesim.analysis.search.result import SearchResult, _recommend
from gamesim.analysis.target import Constraint, Target, load_target_scenario, parse_target
from gamesim.core.rng import root_seed_sequence
from gamesim.run.scenario import Scenario

__all__ = ["search"]


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
    progress: bool = False,
    cache_root: str | Path | None = None,
    fresh: bool = False,
) -> SearchResult:
    """Find the settings of rule parameters that hit a target on metrics.

    Parameters
    ----------
    scenario : path, mapping or Scenario
        A scenario file or dict with a ``[target]`` table (or a scenario and
        ``target``).
    target : Mapping or Target, optional
        The ``[target]`` table (see :mod:`gamesim.analysis.search`); overrides the file's.
    seed : int, optional
        Root seed (overrides the scenario's ``seed``); with neither, fresh
        entropy is drawn and recorded in ``seed_entropy``.
    rng : int, SeedSequence, Generator or None
        Alternative to ``seed``: a seed source normalised by
        ``np.random.default_rng``; its first draw becomes the root entropy.
    crn : bool, default True
        Common random numbers: every setting draws chunk ``k`` from the same
        child seed. ``False`` gives each setting its own stream.
    progress : bool, default False
        Show the trials simulated so far (count and rate) on standard error while the search runs
        (``gamesim search`` does); the bar is removed when the search ends.
    cache_root : str or pathlib.Path, optional
        Save every simulated chunk under ``<cache_root>/<name>-search-<hash12>/`` as it completes (the
        sweep's chunk store: checked before use, recomputed when damaged), so a search run again after an
        interruption resumes with the same answer; the hash covers the scenario, its data files, gamesim's
        code, the seed, the searched box, the part, ``crn`` and the chunk size. Without a seed (``seed`` or the
        scenario's) the first run's entropy is kept there, as a sweep's. Default: nothing saved (``gamesim
        search`` saves under the report's folder, ``.chunks``). Not with ``rng``.
    fresh : bool, default False
        Discard the chunks saved for this search first.

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
        For a non-bool ``crn``, ``progress`` or ``fresh``, or a non-integer seed.

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
    check_bool("progress", progress)
    check_bool("fresh", fresh)
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
    store = None
    if seed is None and rng is not None:
        if cache_root is not None:
            raise ValueError("cache_root needs a seed (seed= or the scenario's) or none, not rng: saved chunks are "
                             "keyed by the seed")
        entropy = int(np.random.default_rng(rng).integers(0, 2**63))
    elif cache_root is not None:
        store = _search_store(sc, tgt, sc.seed if seed is None else seed, crn, Path(cache_root), fresh)
        entropy = store.entropy
    else:
        entropy = int(root_seed_sequence(sc.seed if seed is None else seed).entropy)
    ev = _Evaluator(sc, tgt, entropy, crn=crn, progress=progress, store=store)
    try:  # the progress bar is closed however the search ends (Ctrl-C: its line ends before the message)
        return _run(ev, sc, tgt, entropy, where)
    except BaseException:
        ev.bar.leave = True  # interrupted: the bar's last state stays on its own line, above the message
        raise
    finally:
        ev.bar.close()
        ev.bar_out.end_line()
        if store is not None:
            store.save()  # the chunks saved so far are listed in the manifest: an interrupted search resumes


def _search_store(sc: Scenario, tgt: Target, seed: int | None, crn: bool, root: Path, fresh: bool) -> Any:
    """The chunk store of one search (folder named by what its chunks depend on), opened with its entropy."""
    import hashlib
    import json

    from gamesim.run.sweep import ChunkStore

    chunk = min(sc.chunk_size, tgt.n_start)
    what = {"scenario": sc.content_hash(seed), "part": tgt.part, "crn": crn, "chunk": chunk,
            "box": [[p.name, list(p.values)] for p in tgt.params]}
    digest = hashlib.sha256(json.dumps(what, sort_keys=True, default=str).encode()).hexdigest()
    folder = root / f"{sc.name}-search-{digest[:12]}"
    store = ChunkStore(folder, summaries=False)  # the search reads its chunks back whole (ChunkStore.take)
    if fresh:
        store.discard()
    store.open(seed, {"scenario": sc.name, "search_hash": digest, "what": "target search chunks"})
    return store


def _run(ev: _Evaluator, sc: Scenario, tgt: Target, entropy: int, where: str) -> SearchResult:
    """The search itself, on an evaluator (:func:`search` checks the arguments and closes its progress bar)."""
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
            warnings.warn(msg, UserWarning, stacklevel=3)  # the caller of search()
            notes.append(msg)
            ev.depth = 1
            ev.decided_at.clear()
            ev.last_look.clear()
            method = ""
    if method == "bisect":
        for i, rec in recs.items():  # the end settings, sampled for the check above: their own values are shown
            if (rec["basis"] == "inferred" and i in ev.decided_at
                    and all(math.isnan(c["estimate"]) for c in rec["cons"])):
                own = ev.decided_at[i]  # its own intervals decide it too where they agree with the inference
                recs[i] = dict(rec, basis=own["basis"] if own["status"] == rec["status"] else "inferred",
                               cons=[dict(g, decision=r["decision"]) for g, r in zip(own["cons"], rec["cons"])])
        for i, rec in recs.items():  # feasible by inference: give them values to show and rank
            if rec["basis"] == "inferred" and rec["status"] == "feasible":
                if i in ev.decided_at and ev.decided_at[i]["basis"] != "exact":
                    continue  # sampled here (one bound decided here): its own values are shown
                if tgt.prefer != "closest" and ev.needs_sampling(i):
                    continue  # smallest/largest rank by position: a first-look estimate would be simulated unused
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
                        entropy, notes, chunks_reused=ev.reused)
