"""The Python API: a sweep in one call, and its results as tables, plots and comparisons.

The same engine, chunk cache and seeding as the ``gamesim`` command, for a
designer asking a question in a notebook cell::

    import gamesim
    res = gamesim.sweep({
        "game": "gacha", "n_trials": 20000, "seed": 1,
        "parts": [{"name": "bags", "task": "schedule",
                   "cases": [{"name": "1 chip", "bag_god_chance": 1, "bag_n": 44},
                             {"name": "2 chips", "bag_god_chance": 2, "bag_n": 43}],
                   "grid": {"total_pulls": [100, 200]}}],
        "compare": {"baseline": "1 chip", "metrics": ["complete"]},
    })
    res.table("complete")          # estimate [95% CI], n and exact value per cell
    res.plot("complete")           # CI bars and exact curves (a Vega-Altair chart)
    res.compare("complete")        # differences with paired intervals
    res.to_frame()                 # the tidy table
    res.report()                   # every part, metric, comparison and distribution

:class:`Results` is also what the generic report notebook renders, so a
scenario's report and a notebook cell show the same thing.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd

from gamesim.report.present import format_interval, format_value, run_summary, show_text, show_value
from gamesim.run.results import results_paths, results_set_problem
from gamesim.run.scenario import Scenario, load_scenario
from gamesim.core.machine import available_cores
from gamesim.core.stats import Estimate, mean_estimate, proportion_estimate, quantile_estimate

__all__ = ["Results", "sweep", "estimate", "results_paths", "results_set_problem"]

ResultsFormat = Literal["parquet", "csv"]


#: Largest ``n_jobs`` accepted by :func:`sweep` (also with a Dask scheduler).
MAX_N_JOBS = 1024


def _csv_ready(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    for c in out.columns:
        if out[c].dtype == object and out[c].map(lambda v: isinstance(v, tuple)).any():
            out[c] = out[c].map(lambda v: json.dumps(v) if isinstance(v, tuple) else v)
    return out


def estimate(values: npt.ArrayLike, *, kind: Literal["auto", "proportion", "mean"] = "auto",
             quantile: float | None = None) -> Estimate:
    """Per-trial values from any simulator, turned into an estimate with its 95% interval.

    The one-liner for low-level simulators that return raw arrays::

        gamesim.estimate(sim.simulate_schedule([10] * 10, 500, rng=1)["complete"])

    Parameters
    ----------
    values : array_like, shape (n_trials,)
        One value per trial: booleans (or 0/1 with ``kind="proportion"``) for
        an event, numbers for a count or amount (``nan`` = censored, allowed
        only with ``quantile``).
    kind : {"auto", "proportion", "mean"}, default "auto"
        ``"auto"``: a proportion for boolean arrays, a mean otherwise.
    quantile : float, optional
        If given, the ``quantile`` (e.g. ``0.5``) with its order-statistic
        interval instead of the mean.

    Returns
    -------
    Estimate
        ``n``, ``estimate``, ``se``, ``ci_low``, ``ci_high``: Wilson interval
        for proportions, Student-t for means, distribution-free for quantiles.

    Raises
    ------
    ValueError
        Empty input, a non-numeric array, an infinite value, non-0/1 values for
        a proportion, ``nan`` in a mean, an unknown ``kind`` or a quantile
        outside ``(0, 1)``.
    """
    a = np.asarray(values).ravel()
    if a.size == 0:
        raise ValueError("values is empty: an estimate needs at least one trial")
    if a.dtype.kind not in "biuf":
        raise ValueError(f"values have dtype {a.dtype}, must be booleans or numbers")
    if a.dtype.kind == "f" and np.isinf(a).any():
        k = int(np.flatnonzero(np.isinf(a))[0])
        raise ValueError(f"values[{k}] = {a[k]}, must be finite (nan = censored is allowed only with quantile)")
    if quantile is not None:
        return quantile_estimate(a, quantile)
    if kind == "auto":
        kind = "proportion" if a.dtype == bool else "mean"
    if kind == "proportion":
        x = a.astype(np.float64)
        if not np.isin(x, (0.0, 1.0)).all():
            raise ValueError("values for a proportion must be booleans or 0/1")
        return proportion_estimate(int(x.sum()), x.size)
    if kind == "mean":
        x = a.astype(np.float64)
        if np.isnan(x).any():
            raise ValueError("values contain nan (censored trials): ask for a quantile instead of the mean")
        return mean_estimate(x)
    raise ValueError(f"kind = {kind!r}, must be 'auto', 'proportion' or 'mean'")


class _Estimate(NamedTuple):
    """One statistic of one cell, as :meth:`Results.table` prints it."""

    estimate: float
    ci_low: float
    ci_high: float
    n: int
    exact: float | None


@dataclass
class Results:
    """The results of a sweep: tidy table, paired comparisons, whole distributions, run metadata.

    Build with :func:`sweep` or :meth:`Results.load`. Tables and plots cover
    every swept dimension of a part (cases and grid keys): nothing is dropped
    or averaged.

    Attributes
    ----------
    frame : pandas.DataFrame
        The tidy results (see :class:`gamesim.run.sweep.SweepResult`).
    comparisons : pandas.DataFrame
        Paired comparisons (empty without ``[compare]``).
    distributions : pandas.DataFrame
        PMF / at-least / at-most rows of integer-valued metrics.
    meta : dict
        Run metadata (seed entropy, hash, version, backend, timing).
    scenario : Scenario or None
        The scenario, when known (needed for dimension order and texts).
    """

    frame: pd.DataFrame
    comparisons: pd.DataFrame = field(default_factory=pd.DataFrame)
    distributions: pd.DataFrame = field(default_factory=pd.DataFrame)
    meta: dict[str, Any] = field(default_factory=dict)
    scenario: Scenario | None = None

    # ------------------------------------------------------------------ I/O
    @classmethod
    def load(cls, path: str | Path, scenario: str | Path | Scenario | None = None) -> Results:
        """Read results written by ``gamesim run`` / :meth:`save` (parquet or CSV).

        Parameters
        ----------
        path : str or pathlib.Path
            The main results file; its ``.compare`` and ``.dist`` companions are
            read when they were written with it (same run id, recorded SHA-256;
            see :func:`results_set_problem`).
        scenario : path or Scenario, optional
            The scenario the results come from (default: the path recorded in the
            results' metadata, if it still exists).

        Raises
        ------
        FileNotFoundError
            If ``path`` does not exist.
        gamesim.run.results.ResultsError
            If a companion (or CSV metadata) file belongs to another run (see
            :func:`results_set_problem`): run the sweep again.
        """
        from gamesim.run.results import ResultsError, lists_to_tuples, load_results

        files = results_paths(path)
        if not files["results"].is_file():
            raise FileNotFoundError(f"{files['results']}: no such results file")
        problem = results_set_problem(files["results"])
        if problem is not None:
            raise ResultsError(f"{problem}; run the sweep again (gamesim run / gamesim report)")
        if files["results"].suffix == ".csv":
            frame = pd.read_csv(files["results"])
            meta = json.loads(files["meta"].read_text(encoding="utf-8")) if files["meta"].is_file() else {}
        else:
            frame, meta = load_results(files["results"])
        recorded = meta.get("companions")

        def companion(key: str) -> pd.DataFrame:
            f = files[key]
            if not f.is_file() or (isinstance(recorded, dict) and key not in recorded):
                return pd.DataFrame()
            return pd.read_csv(f) if f.suffix == ".csv" else load_results(f)[0]

        comparisons, dists = companion("compare"), companion("distributions")
        if scenario is None and meta.get("scenario_path") and Path(meta["scenario_path"]).is_file():
            scenario = meta["scenario_path"]
        if scenario is not None and not isinstance(scenario, Scenario):
            scenario = load_scenario(scenario)
        return cls(lists_to_tuples(frame), lists_to_tuples(comparisons), dists, meta, scenario)

    def save(self, path: str | Path, *, format: ResultsFormat = "parquet") -> list[Path]:
        """Write the results (and comparisons and distributions, if any) next to each other.

        Parameters
        ----------
        path : str or pathlib.Path
            The main file; its suffix is replaced by ``.parquet`` or ``.csv``.
        format : {"parquet", "csv"}, default "parquet"
            Parquet keeps list-valued parameters as lists and the metadata in the
            schema; CSV writes lists as JSON text and the metadata to
            ``<name>.meta.json``.

        Returns
        -------
        list of pathlib.Path
            The files written.

        Notes
        -----
        The companions are written first, each carrying the run id
        (:func:`gamesim.run.results.run_id`), then the main file (CSV: then
        ``<name>.meta.json``) with the SHA-256 of every companion: the main
        file is the commit point, so an interrupted save leaves a set that
        :func:`results_set_problem` (and :meth:`load`, and ``gamesim report``)
        recognises as inconsistent, never one silently mixing two runs.

        Raises
        ------
        ValueError
            For an unknown format.
        gamesim.run.results.ResultsError
            If ``path`` is a folder (nothing is written).
        OSError
            If writing fails (the message names the file).
        """
        from gamesim.run.results import ResultsError, atomic_write, file_sha256, run_id, save_results

        if format not in ("parquet", "csv"):
            raise ValueError(f"format = {format!r}, must be 'parquet' or 'csv'")
        if Path(path).is_dir():
            raise ResultsError(f"{path}: is a folder; give a results file name such as "
                               f"{Path(path) / ('results.' + format)}")
        files = results_paths(Path(path).with_suffix("." + format))
        for f in files.values():
            if f.is_dir():
                raise ResultsError(f"{f}: is a folder; give another results file name")
        files["results"].parent.mkdir(parents=True, exist_ok=True)
        meta = dict(self.meta)
        meta["run_id"] = run_id(meta)
        meta.pop("companions", None)
        meta.pop("results_sha256", None)

        def write(df: pd.DataFrame, target: Path, m: dict[str, Any]) -> None:
            if format == "parquet":
                save_results(df, target, m)
            else:
                atomic_write(target, lambda fh: fh.write(_csv_ready(df).to_csv(index=False).encode("utf-8")))

        written: list[Path] = []
        digests: dict[str, str] = {}
        for key, df in (("compare", self.comparisons), ("distributions", self.distributions)):
            target = files[key]
            if df.empty:
                target.unlink(missing_ok=True)  # no stale companion from an earlier run
                continue
            write(df, target, meta)
            digests[key] = file_sha256(target)
            written.append(target)
        main_meta = dict(meta, companions=digests)
        write(self.frame, files["results"], main_meta)
        written.insert(0, files["results"])
        if format == "csv":
            main_meta["results_sha256"] = file_sha256(files["results"])
            blob = json.dumps(main_meta, indent=2, default=str).encode("utf-8")
            atomic_write(files["meta"], lambda fh: fh.write(blob))
            written.append(files["meta"])
        return written

    # ------------------------------------------------------------ structure
    def to_frame(self, which: Literal["results", "compare", "distributions"] = "results") -> pd.DataFrame:
        """A copy of the tidy results (or of the comparisons or distributions table)."""
        return {"results": self.frame, "compare": self.comparisons, "distributions": self.distributions}[which].copy()

    def _index(self) -> dict[str, Any]:
        """Lookups of :attr:`frame` built once per frame: its parts, each part's rows and metrics, and each
        (part, metric)'s rows in cell order. A report asks for them hundreds of times, and filtering the whole
        frame each time cost seconds; rebuilt when :attr:`frame` is replaced (pandas' copy-on-write keeps the
        cached frames from changing under a caller who edits what they were given)."""
        return self._built_once("_index_cache", self.frame, self._build_index)

    def _built_once(self, name: str, table: pd.DataFrame, build: Callable[[pd.DataFrame], Any]) -> Any:
        """``build(table)``, kept under ``name`` until ``table`` is replaced by another object."""
        hit = self.__dict__.get(name)
        if hit is not None and hit[0] is table:
            return hit[1]
        value = build(table)
        self.__dict__[name] = (table, value)
        return value

    @staticmethod
    def _build_index(frame: pd.DataFrame) -> dict[str, Any]:
        parts = list(pd.unique(frame["part"]))
        by_part = {p: g for p, g in frame.groupby("part", sort=False, observed=True)}
        rows = {}
        metrics = {}
        for p, g in by_part.items():
            metrics[p] = list(pd.unique(g["metric"]))
            for m, gm in g.groupby("metric", sort=False, observed=True):
                rows[(p, m)] = gm.sort_values(["cell"], kind="stable")
        return {"parts": parts, "by_part": by_part, "metrics": metrics, "rows": rows,
                "all_metrics": list(pd.unique(frame["metric"]))}

    def _distribution_index(self) -> dict[tuple[Any, Any], pd.DataFrame]:
        """:attr:`distributions` by (part, metric), built once per table (a report asks for each metric's
        rows, and a mask over the whole table each time cost it half a second)."""
        return self._built_once("_dist_cache", self.distributions, lambda d: {} if d.empty else {
            (p, m): g for (p, m), g in d.groupby(["part", "metric"], sort=False, observed=True)})

    def part_frame(self, part: str) -> pd.DataFrame:
        """The tidy rows of one part (empty if there is no such part)."""
        got = self._index()["by_part"].get(part)
        return got if got is not None else self.frame.iloc[0:0]

    @property
    def parts(self) -> list[str]:
        """Part names, in scenario order."""
        return list(self._index()["parts"])

    def metrics(self, part: str | None = None) -> list[str]:
        """Metric names (of one part, or of all), in the order the tasks declare them."""
        index = self._index()
        return list(index["all_metrics"] if part is None else index["metrics"].get(part, []))

    def dims(self, part: str) -> list[str]:
        """The swept dimensions of a part: ``case`` (if it has cases) then its grid keys.

        Without the scenario, the parameter columns that vary between the part's cells.
        """
        if self.scenario is not None:
            for p in self.scenario.parts:
                if p.name == part:
                    return p.dims
        from gamesim.run.results import TIDY_COLUMNS

        rows = self.part_frame(part)
        # ``case`` is a dimension; every other tidy column that is not a parameter is not
        return [c for c in rows.columns
                if (c == "case" or c not in TIDY_COLUMNS) and rows[c].nunique(dropna=True) > 1]

    def _part_of(self, metric: str, part: str | None) -> str:
        if metric not in self._index()["all_metrics"]:
            raise KeyError(f"no metric {metric!r}; metrics: {', '.join(self.metrics())}")
        if part is not None:
            if part not in self.parts:
                raise KeyError(f"no part {part!r}; parts: {', '.join(self.parts)}")
            return part
        having = [p for p in self.parts if metric in self.metrics(p)]
        if len(having) > 1:
            raise KeyError(f"metric {metric!r} is in several parts ({', '.join(having)}): pass part=...")
        return having[0]

    def rows(self, metric: str, *, part: str | None = None, statistic: str | None = None) -> pd.DataFrame:
        """Tidy rows of one metric of one part (one statistic, or all), in cell order."""
        part = self._part_of(metric, part)
        r = self._index()["rows"].get((part, metric))
        if r is None:
            r = self.frame.iloc[0:0]
        if statistic is not None:
            r = r[r["statistic"] == statistic]
            if r.empty:
                raise KeyError(f"no statistic {statistic!r} for {part}/{metric}")
        return r

    def primary_statistic(self, metric: str, *, part: str | None = None) -> str:
        """The statistic plotted and compared: ``proportion`` or ``mean``, else the first quantile."""
        stats = list(pd.unique(self.rows(metric, part=part)["statistic"]))
        for s in ("proportion", "mean"):
            if s in stats:
                return s
        return stats[0]

    # --------------------------------------------------------------- tables
    def table(self, metric: str, *, part: str | None = None, digits: int = 3) -> pd.DataFrame:
        """Every cell's estimates of one metric: ``estimate [95% CI]`` per statistic, n and exact values.

        Parameters
        ----------
        metric : str
            A metric name.
        part : str, optional
            The part (needed only if several parts have the metric).
        digits : int, default 3
            Decimal places.

        Returns
        -------
        pandas.DataFrame
            One row per cell (indexed by every swept dimension of the part, in
            order; a part with one cell has the index ``part``); columns
            ``<statistic> [95% CI]`` for each statistic, ``n`` and ``exact
            <statistic>`` where the game has an exact value for some cell.
            Strings, ready to display; a cell whose trials all gave one value reads
            ``"8.000 (all equal)"`` (its n is in the ``n`` column).

        Raises
        ------
        KeyError
            Unknown metric or part, or a metric in several parts without ``part``.
        """
        part = self._part_of(metric, part)
        rows = self.rows(metric, part=part)
        dims = self.dims(part)
        out: dict[str, list[Any]] = {}
        first = rows.drop_duplicates("cell")
        cells = first["cell"].tolist()
        index_cols = dims or ["part"]
        for d in index_cols:
            out[d] = [_show(v) for v in first[d].tolist()]
        # each statistic's row per cell, from the columns as lists (a pandas groupby per table cost
        # a report about a second)
        by_stat: dict[Any, dict[Any, _Estimate]] = {}
        for stat, c, *values in zip(*(rows[k].tolist() for k in ("statistic", "cell", *_Estimate._fields))):
            by_stat.setdefault(stat, {})[c] = _Estimate(*values)
        stats = list(by_stat)
        for stat in stats:
            sub = by_stat[stat]
            out[f"{stat} [95% CI]"] = [
                format_interval(sub[c].estimate, sub[c].ci_low, sub[c].ci_high, digits=digits, n=int(sub[c].n),
                                short=True)
                if c in sub else "–"
                for c in cells
            ]
        out["n"] = [f"{int(v):,}" for v in first["n"].tolist()]
        for stat in stats:
            sub = by_stat[stat]
            if any(not pd.isna(r.exact) for r in sub.values()):
                out[f"exact {stat}"] = [
                    "–" if c not in sub else format_value(sub[c].exact, digits=digits)
                    for c in cells
                ]
        return pd.DataFrame(out).set_index(index_cols)

    def ranking(self, metric: str | None = None, *, better: str | None = None) -> pd.DataFrame:
        """The best value of the compared dimension and those indistinguishable from it (Holm, family-wise 5%).

        Parameters
        ----------
        metric : str, optional
            One metric (an event name such as ``"at_least(wounds, 2)"`` works too); default all.
        better : {"higher", "lower"}, optional
            Default: the scenario's ``[compare] better`` (``"higher"``).

        Returns
        -------
        pandas.DataFrame
            See :func:`gamesim.core.analysis.rank_cases`.

        Raises
        ------
        KeyError
            If there are no comparisons.
        """
        from gamesim.core.analysis import rank_cases

        if self.comparisons.empty:
            raise KeyError("no comparisons: add a [compare] table (pairs = \"all\" to rank every pair)")
        cmp_ = self.scenario.compare if self.scenario is not None else None
        out = rank_cases(self.frame, self.comparisons, better=better or (cmp_.better if cmp_ else "higher"))
        return out if metric is None else out[out["metric"] == metric].reset_index(drop=True)

    def compare(self, metric: str | None = None, *, part: str | None = None, digits: int = 3) -> pd.DataFrame:
        """Paired comparisons against the baseline: difference and ratio with 95% intervals.

        Parameters
        ----------
        metric : str, optional
            One compared metric (default: all).
        part : str, optional
            One part (default: all compared parts).
        digits : int, default 3

        Returns
        -------
        pandas.DataFrame
            One row per compared cell and metric: the variant, the other swept
            dimensions, ``difference [95% CI]`` (variant - baseline),
            ``ratio [95% CI]`` (where both means are positive), ``n`` (pairs),
            ``exact`` (the exact difference, where known), ``corr.`` (the
            correlation of the paired trials) and ``half-width paired / indep.``
            (the interval's half-width, and the half-width two independent
            samples of the same size would give).

        Raises
        ------
        KeyError
            If the results have no comparisons (no ``[compare]`` table) or none
            for that metric/part.
        """
        c = self.comparisons
        if c.empty:
            raise KeyError("no comparisons: add a [compare] table (baseline, metrics) to the scenario")
        if metric is not None:
            c = c[c["metric"] == metric]
        if part is not None:
            c = c[c["part"] == part]
        if c.empty:
            raise KeyError(f"no comparisons for metric={metric!r}, part={part!r}")
        fixed = {"scenario", "part", "metric", "statistic", "dimension", "baseline", "variant", "cell",
                 "baseline_cell", "crn", "correlation", "n", "estimate", "se", "ci_low", "ci_high", "exact",
                 "unpaired_half_width", "note", "p_value", "family_size", "ci_low_adj", "ci_high_adj", "p_holm",
                 "different"}
        others = [k for k in c.columns if k not in fixed]
        records = []
        several = c["baseline"].astype(str).nunique() > 1  # [compare] pairs = "all"
        for (p, m, _, cell), g in c.groupby(["part", "metric", "baseline_cell", "cell"], sort=False):
            d = g[g["statistic"] == "difference"].iloc[0]
            rec: dict[str, Any] = {"part": p, "metric": m, d["dimension"]: _show(d["variant"])}
            if several:
                rec["vs"] = _show(d["baseline"])
            for k in others:
                if pd.notna(d[k]) if not isinstance(d[k], tuple) else True:
                    rec[k] = _show(d[k])
            rec["difference [95% CI]"] = format_interval(d["estimate"], d["ci_low"], d["ci_high"], digits=digits,
                                                         n=int(d["n"]))
            if pd.notna(d.get("p_holm")) and pd.notna(d.get("family_size")) and int(d["family_size"]) > 1:
                rec["Holm-adjusted"] = (f"{'different' if bool(d['different']) else 'not different'} "
                                        f"(p = {float(d['p_holm']):.2g}, {int(d['family_size'])} in family)")
            r = g[g["statistic"] == "ratio"]
            rec["ratio [95% CI]"] = (
                format_interval(r.iloc[0]["estimate"], r.iloc[0]["ci_low"], r.iloc[0]["ci_high"], digits=digits)
                if len(r) else "–"
            )
            if len(r) and isinstance(r.iloc[0].get("note"), str) and r.iloc[0]["note"]:
                rec["ratio [95% CI]"] = f"{r.iloc[0]['note']} [{format_value(r.iloc[0]['ci_low'], digits=digits)}, inf)"
            rec["n"] = f"{int(d['n']):,}"
            rec["exact"] = format_value(d["exact"], digits=digits)
            rec["corr."] = "–" if pd.isna(d["correlation"]) else f"{d['correlation']:.3f}"
            hw = (d["ci_high"] - d["ci_low"]) / 2
            rec["half-width paired / indep."] = (
                f"{format_value(hw, digits=digits)} / {format_value(d['unpaired_half_width'], digits=digits)}"
                if pd.notna(d["unpaired_half_width"]) else "–"
            )
            records.append(rec)
        out = pd.DataFrame(records)
        return out.fillna("–")

    #: Columns of :meth:`compare` that are results, not the compared cell's dimensions.
    COMPARE_VALUE_COLUMNS = ("difference [95% CI]", "Holm-adjusted", "ratio [95% CI]", "n", "exact", "corr.",
                             "half-width paired / indep.")

    def distribution(self, metric: str, *, part: str | None = None, cell: int | None = None,
                     **settings: Any) -> pd.DataFrame:
        """Whole distribution rows (PMF, at least k, at most k, each with a Wilson 95% interval).

        Parameters
        ----------
        metric : str
            An integer-valued metric.
        part : str, optional
            The part (needed only if several parts have the metric).
        cell : int, optional
            One cell by number.
        **settings
            Swept settings selecting cells by value, e.g. ``case="2 chips", session_size=10``
            (lists as lists).

        Returns
        -------
        pandas.DataFrame
            One row per cell and value ``k``: ``part``, ``metric``, ``cell``, every
            swept dimension of the part (``case`` and the grid keys), ``value``,
            ``count``, ``n``, ``censored`` and ``pmf``, ``at_least``, ``at_most``
            each with ``_low``/``_high`` 95% bounds (pointwise Wilson), the
            simultaneous 95% band of the whole curve (``at_least_band_low`` ...,
            DKW), ``thinned`` (a cell of more than 200 distinct values has rows at 200
            evenly spaced ``k`` only, each exact at its ``k``:
            :func:`gamesim.core.analysis.distribution_table`) and, where the game gives the
            metric's exact PMF, ``pmf_exact``, ``at_least_exact``, ``at_most_exact``.

        Raises
        ------
        KeyError
            If the metric has no tabulated distribution (not integer-valued, more than
            :data:`gamesim.core.summary.MAX_COUNTED_VALUES` distinct values, or
            ``distributions = false``), a setting is not a
            swept dimension of the part, or nothing matches.
        """
        part = self._part_of(metric, part)
        if self.distributions.empty:
            raise KeyError(f"no distributions were tabulated for {metric!r}")
        d = self._distribution_index().get((part, metric), self.distributions.iloc[0:0])
        if cell is not None:
            d = d[d["cell"] == cell]
        if d.empty:
            from gamesim.core.summary import MAX_COUNTED_VALUES

            raise KeyError(f"no distribution for {part}/{metric} (not integer-valued, or more than "
                           f"{MAX_COUNTED_VALUES:,} distinct values)")
        dims = self.dims(part)
        unknown = [k for k in settings if k not in dims]
        if unknown:
            raise KeyError(f"{unknown[0]!r} is not a swept setting of part {part!r}; "
                           f"swept: {', '.join(dims) or 'none'}")
        cells = self.part_frame(part).drop_duplicates("cell")[["cell", *dims]]
        d = d.drop(columns=[c for c in dims if c in d.columns]).merge(cells, on="cell", how="left")
        for k, v in settings.items():
            want = json.dumps(_show(list(v) if isinstance(v, tuple) else v))
            d = d[d[k].map(lambda x: json.dumps(_show(x))) == want]
        if d.empty:  # say which values each named setting takes
            have = "; ".join(f"{k}: {', '.join(dict.fromkeys(show_text(x) for x in cells[k]))}" for k in settings)
            raise KeyError(f"no cell of {part}/{metric} has {settings}; {have}")
        front = ["part", "metric", "cell", *dims]
        return d[front + [c for c in d.columns if c not in front]].reset_index(drop=True)

    # ---------------------------------------------------------------- plots
    def plot(self, metric: str | None = None, *, part: str | None = None, statistic: str | None = None,
             x: str | None = None) -> Any:
        """Estimates with 95% intervals, one series per combination of the other swept dimensions.

        Parameters
        ----------
        metric : str, optional
            A metric name; default: every metric of ``part``, one panel each (the report's figure).
        part : str, optional
            The part (needed only if several parts have the metric, or without ``metric``).
        statistic : str, optional
            Default: the metric's proportion or mean (or first quantile).
        x : str, optional
            The swept dimension on the horizontal axis; default: the numeric one
            with most values (else the one with most values, as categories).

        Returns
        -------
        altair.FacetChart
            A Vega-Altair chart (shown live in a notebook; ``.save("x.png")`` or
            ``.save("x.html")`` to keep it). Exact values, where the game has them,
            are drawn as lines (ticks on a categorical axis) in the series' colour;
            hover a point for its interval and n, click a legend entry to isolate a series.
        """
        from gamesim.report.charts import estimates_chart

        if metric is None:
            if part is None:
                raise KeyError(f"pass metric=... or part=...; parts: {', '.join(self.parts)}")
            if part not in self.parts:
                raise KeyError(f"no part {part!r}; parts: {', '.join(self.parts)}")
            return estimates_chart(self, part, x=x, statistic=statistic)
        part = self._part_of(metric, part)
        return estimates_chart(self, part, [metric], x=x, statistic=statistic)

    def plot_compare(self, part: str | None = None) -> Any:
        """Forest plot of the paired differences (variant - baseline) with 95% intervals, a panel per metric.

        Parameters
        ----------
        part : str, optional
            Default: the first compared part.

        Returns
        -------
        altair.FacetChart

        Raises
        ------
        KeyError
            If the results have no comparisons (for that part).
        """
        from gamesim.report.charts import compare_chart

        if self.comparisons.empty:
            raise KeyError("no comparisons: add a [compare] table to the scenario")
        return compare_chart(self, part or str(self.comparisons["part"].iloc[0]))

    def plot_distribution(self, metric: str | None = None, *, part: str | None = None,
                          metrics: list[str] | None = None,
                          view: Literal["pmf", "at_least", "at_most"] = "at_least", max_cells: int = 12,
                          band: Literal["pointwise", "simultaneous"] = "pointwise", **settings: Any) -> Any:
        """A part's whole distributions, one small multiple per cell: P(X >= k), P(X <= k) or the PMF, with 95% bands.

        The exact curve, where the game gives the metric's PMF, is drawn over each panel
        (dashed black; the legend names both curves).

        Parameters
        ----------
        metric : str, optional
            One metric (default: every tabulated metric of ``part``, or ``metrics``).
        part : str, optional
            Default: the metric's part, else the first part with distributions.
        metrics : list of str, optional
            Several metrics of the part.
        view : {"pmf", "at_least", "at_most"}, default "at_least"
        max_cells : int, default 12
            Cells drawn per metric at most, spread over the sweep (every cell is in
            :meth:`distribution`).
        band : {"pointwise", "simultaneous"}, default "pointwise"
            Shaded: each k's own Wilson 95% interval, or the simultaneous 95% band of the whole
            curve (DKW; ``at_least``/``at_most`` only). The chart's title says which.
        **settings
            Draw only the cells with these swept settings, as :meth:`distribution`
            (e.g. ``session_size=10``).

        Returns
        -------
        altair.FacetChart or altair.VConcatChart

        Raises
        ------
        KeyError
            If no distribution was tabulated (for that part), or a setting is not swept or matches
            no cell.
        ValueError
            ``band="simultaneous"`` with ``view="pmf"`` or results without band columns; an unknown view or band.
        """
        from gamesim.report.charts import distribution_chart

        d = self.distributions
        if metric is not None:
            part = self._part_of(metric, part)
            metrics = [metric]
        if d.empty or (part is not None and part not in set(d["part"])):
            raise KeyError(f"no distributions tabulated{'' if part is None else f' for part {part!r}'}")
        part = part or str(d["part"].iloc[0])
        cells = None
        if settings:
            names = metrics or list(pd.unique(d.loc[d["part"] == part, "metric"]))
            cells = sorted({int(c) for m in names for c in self.distribution(m, part=part, **settings)["cell"]})
        return distribution_chart(self, part, metrics, max_cells=max_cells, view=view, band=band, cells=cells)

    # --------------------------------------------------------------- report
    def report(self, *, heading_level: int = 1) -> None:
        """Display every part, metric, comparison and distribution (the generic report).

        For a notebook cell; the generic report notebook calls exactly this, and
        every built-in study notebook calls it first. See
        :func:`gamesim.report.generic.render`.
        """
        from gamesim.report.generic import render

        render(self, heading_level=heading_level)


_show = show_value


def sweep(
    scenario: str | Path | Mapping[str, Any] | Scenario,
    *,
    n_jobs: int = 1,
    seed: int | None = None,
    progress: bool = True,
    backend: Literal["loky", "threading", "dask"] = "loky",
    scheduler: str | None = None,
    cache_root: str | Path = "reports/.chunks",
    fresh: bool = False,
    inline_below_s: float | None = None,
) -> Results:
    """Run (or resume) a scenario's sweep and return its :class:`Results`.

    The same engine, chunk cache and seeding as ``gamesim run``: the same
    scenario and seed give the same results from the command line and from
    Python, for any ``n_jobs`` and backend.

    Parameters
    ----------
    scenario : path, mapping or Scenario
        A scenario file, a dict with the same keys (no TOML file needed), or a
        loaded :class:`~gamesim.run.scenario.Scenario`.
    n_jobs : int, default 1
        Parallel workers.
    seed : int, optional
        Overrides the scenario's ``seed``; with neither, fresh entropy is drawn
        and recorded in ``Results.meta["seed_entropy"]``.
    progress : bool, default True
        A tqdm progress bar (chunks done / planned).
    backend : {"loky", "threading", "dask"}, default "loky"
    scheduler : str, optional
        Dask scheduler address (with ``backend="dask"``).
    cache_root : path, default "reports/.chunks"
        Where finished chunks are kept (an interrupted sweep resumes from them).
    fresh : bool, default False
        Discard chunks of this scenario version saved earlier.
    inline_below_s : float, optional
        Run the chunks in this process, starting no workers, while those left would take less than
        this many CPU-seconds, judged from the first chunk run here (``gamesim run`` passes 3.0 unless
        ``--n-jobs`` is given; see :func:`gamesim.run.sweep.run_sweep`). Same results either way.
        ``None`` (default): every chunk goes to the ``n_jobs`` workers.

    Returns
    -------
    Results

    Raises
    ------
    gamesim.run.scenario.ScenarioError
        For an invalid scenario (the message names the key, value and what is allowed).
    ValueError
        For ``n_jobs < 1`` or ``> MAX_N_JOBS``, a non-integer ``n_jobs`` or seed,
        a negative seed, a non-bool ``progress`` or ``fresh``, or a bad
        backend/scheduler combination (one line naming the argument).

    Warns
    -----
    UserWarning
        When ``n_jobs`` is more than the CPU cores here (local workers only): it
        is capped to the cores, as ``gamesim run`` does.
    """
    import datetime as dt
    import platform

    from gamesim.core.version import __version__
    from gamesim.run.results import run_id
    from gamesim.run.sweep import run_sweep
    from gamesim.core.validate import check_int

    from gamesim.core.validate import check_bool, check_float

    check_int("n_jobs", n_jobs, min=1, max=MAX_N_JOBS)
    check_bool("progress", progress)
    check_bool("fresh", fresh)
    if inline_below_s is not None:
        check_float("inline_below_s", inline_below_s, min=0.0)
    if seed is not None:
        check_int("seed", seed, min=0)
    cpus = available_cores()
    if scheduler is None and n_jobs > cpus:  # local workers only: more than the cores just thrash
        warnings.warn(f"n_jobs = {n_jobs} is more than the {cpus} CPU cores here; using {cpus}", stacklevel=2)
        n_jobs = cpus
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    started = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    res = run_sweep(sc, n_jobs=n_jobs, backend=backend, scheduler=scheduler, seed=seed, cache_root=cache_root,
                    progress=progress, fresh=fresh, inline_below_s=inline_below_s)
    meta = {
        "scenario": sc.name,
        "scenario_path": str(sc.path) if sc.path is not None else None,
        "scenario_hash": res.scenario_hash,
        "seed_entropy": str(res.seed_entropy),
        "gamesim_version": __version__,
        "started_utc": started,
        "seconds": round(res.seconds, 3),
        "n_jobs": n_jobs,
        "backend": backend,
        "scheduler": scheduler,
        "chunks_run": res.chunks_run,
        "chunks_reused": res.chunks_reused,
        "chunks_in_process": res.chunks_in_process,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "data_files": [{"key": d.key, "value": d.value, "path": str(d.path), "sha256": d.sha256}
                       for d in sc.data_files],
    }
    meta["run_id"] = run_id(meta)
    return Results(res.table, res.comparisons, res.distributions, meta, sc)


def summary_table(results: Results) -> pd.DataFrame:
    """The run summary (seed entropy, version, cells, trials, backend, wall time) of :class:`Results`."""
    return run_summary(results.frame, results.meta)

