"""Tables and plots for reports, built from the tidy results table.

Notebooks call these instead of defining helpers in cells, so every report
shows estimates the same way: the estimate, its 95% interval and ``n``; exact
values (where the game has an exact solver) beside or under them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from gamesim.core.stats import Estimate

__all__ = [
    "setup_plots",
    "format_interval",
    "format_value",
    "show_value",
    "show_text",
    "scenario_spelling",
    "select",
    "has_parts",
    "lead_metrics",
    "varied_dims",
    "setting_text",
    "whole_numbers",
    "scenario_part",
    "estimate_of",
    "interval_table",
    "plot_estimates",
    "run_summary",
    "DataSetUse",
    "data_sets",
    "data_set_lines",
]

#: Fonts with Japanese glyphs, in order of preference (rule and skill names are Japanese).
CJK_FONTS: tuple[str, ...] = ("IPAexGothic", "IPAGothic", "Noto Sans CJK JP", "Droid Sans Fallback")


def setup_plots(**rc: Any) -> list[str]:
    """Matplotlib settings for reports, with a Japanese font as per-glyph fallback.

    Parameters
    ----------
    **rc
        Extra ``matplotlib.rcParams`` (e.g. ``figure.figsize=(8, 4)``).

    Returns
    -------
    list of str
        The font family list now in force: ``DejaVu Sans`` then the first CJK
        font of :data:`CJK_FONTS` the machine has (none if it has none, in which
        case Japanese labels show as boxes; ``scripts/setup.sh`` installs one).
    """
    import glob

    import matplotlib
    from matplotlib import font_manager

    known = {f.name for f in font_manager.fontManager.ttflist}
    if not known.intersection(CJK_FONTS):
        # fonts installed after matplotlib built its cache are not known yet
        for pattern in ("ipaexg*.ttf", "ipag*.ttf", "NotoSansCJK*.tt[cf]", "DroidSansFallback*.ttf"):
            for path in glob.glob(f"/usr/share/fonts/**/{pattern}", recursive=True):
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
        known = {f.name for f in font_manager.fontManager.ttflist}
    family = ["DejaVu Sans"] + [f for f in CJK_FONTS if f in known][:1]
    matplotlib.rcParams.update({"figure.dpi": 110, "font.size": 9, "font.family": family, **rc})
    return family


def _decimals(values: Sequence[Any], digits: int) -> int:
    """``digits``, or more where a finite value that is not 0 would print as 0 with ``digits`` decimals:
    then enough to show two significant figures of the smallest such value."""
    tiny = [abs(float(v)) for v in values if v is not None and not pd.isna(v) and math.isfinite(float(v))
            and float(v) != 0 and round(float(v), digits) == 0]
    return max(digits, 1 - math.floor(math.log10(min(tiny)))) if tiny else digits


def format_value(v: float, *, digits: int = 3) -> str:
    """One number with ``digits`` decimal places (more where it would otherwise print as 0 without being 0,
    as in :func:`format_interval`); ``nan`` as an en dash."""
    if v is None or pd.isna(v):
        return "–"
    return f"{float(v):.{_decimals([v], digits)}f}"


def format_interval(estimate: float, low: float, high: float, *, digits: int = 3, n: int | None = None,
                    short: bool = False) -> str:
    """``"0.512 [0.500, 0.524]"``; infinite bounds print as ``inf``.

    Parameters
    ----------
    estimate, low, high : float
        Point estimate and interval bounds.
    digits : int, default 3
        Decimal places. Where a value that is not 0 would print as 0 with them (the upper bound of a
        proportion never seen in 40,000 trials, 0.000096), all three numbers get the decimals that
        show two significant figures of the smallest one, ``"0.000000 [0.000000, 0.000096]"``: an
        interval never reads ``[0.000, 0.000]`` when it is not. Likewise where the two bounds differ
        but would print the same (a proportion near 1: 20,000 wins out of 20,000 give
        ``[0.999808, 1]``), all three get the fewest decimals that tell the bounds apart,
        ``"1.0000 [0.9998, 1.0000]"`` rather than ``"1.000 [1.000, 1.000]"``.
    n : int, optional
        The sample size. Given, an interval infinite at both ends (a mean whose
        trials all gave the same value: such a sample cannot measure its own
        spread) reads ``"no spread: all 2,000 values equal 8.000"``; so does an
        interval infinite on one side and collapsed on the other (all values at a
        known bound of the metric, e.g. ``0.000 [0.000, inf]`` for wounds that
        were all 0).
    short : bool, default False
        For table cells: such a sample reads ``"8.000 (all equal)"``, as short as an interval.
    """

    digits = _decimals((estimate, low, high), digits)
    if low is not None and high is not None and math.isfinite(low) and math.isfinite(high) and low < high:
        while digits < 15 and f"{low:.{digits}f}" == f"{high:.{digits}f}":  # the fewest that tell them apart
            digits += 1

    def f(v: float) -> str:
        if v is None or (isinstance(v, float) and math.isnan(v)):
            return "–"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return f"{v:.{digits}f}"

    if n is not None and low is not None and high is not None and not math.isnan(estimate) \
            and (math.isinf(low) or math.isinf(high)) and low <= estimate <= high \
            and (math.isinf(low) or low == estimate) and (math.isinf(high) or high == estimate):
        return f"{f(estimate)} (all equal)" if short else f"no spread: all {int(n):,} values equal {f(estimate)}"
    return f"{f(estimate)} [{f(low)}, {f(high)}]"


def show_value(v: Any) -> Any:
    """A cell or parameter value for display: tuples as JSON-like lists, NA as an en dash, numpy scalars as Python."""
    import json

    if isinstance(v, (tuple, list, np.ndarray)):
        return json.dumps(np.asarray(v).tolist() if isinstance(v, np.ndarray) else v)
    if v is None or (not isinstance(v, (str, bool)) and pd.isna(v)):
        return "–"
    if isinstance(v, np.generic):
        return v.item()
    return v


def show_text(v: Any) -> str:
    """A cell or parameter value as a report's text shows it: as a scenario file writes it.

    Parameters
    ----------
    v : any
        A value from the results or the scenario.

    Returns
    -------
    str
        ``true``/``false`` for booleans (TOML's spelling, so a value copied from a report into a
        scenario file is valid), lists as JSON, NA as an en dash, anything else ``str`` of
        :func:`show_value`.
    """
    import json

    s = show_value(v)
    return json.dumps(s) if isinstance(s, (bool, np.bool_)) else str(s)


def setting_text(row: Any, names: Sequence[str]) -> str:
    """A setting in plain words, ``"session_size = 1, hp = 20"``: each name with its value as a scenario writes it
    (:func:`show_text`). Plain text: escape it (:func:`gamesim.core.sanitize.safe_markdown`) before Markdown."""
    return ", ".join(f"{k} = {show_text(row[k])}" for k in names)


def whole_numbers(values: Any) -> bool:
    """Whether ``values`` are all finite whole numbers (players, cards, HP), so that an axis over them ticks at whole
    numbers only; False for an empty sequence or any value that is not a number."""
    xs = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(float)
    return bool(xs.size and np.all(np.isfinite(xs)) and np.all(xs == np.round(xs)))


def varied_dims(frame: pd.DataFrame, dims: list[str]) -> list[str]:
    """The dimensions among ``dims`` whose values differ between the rows of ``frame`` (a sentence names only those).

    Parameters
    ----------
    frame : pandas.DataFrame
        Rows of results (one column per dimension).
    dims : list of str
        Candidate dimensions, in the order to keep.

    Returns
    -------
    list of str
        Those with more than one value, values compared as shown (:func:`show_value`, JSON-spelled).
    """
    import json

    return [d for d in dims if frame[d].map(lambda v: json.dumps(show_value(v))).nunique() > 1]


def scenario_spelling(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` for display with every boolean label and cell written ``true``/``false``, as in a scenario file.

    Parameters
    ----------
    df : pandas.DataFrame
        A table to show (its index, columns and cells may hold booleans).

    Returns
    -------
    pandas.DataFrame
        ``df`` itself where it holds no boolean; else a copy with each boolean in the index (every
        level), the column labels and the cells replaced by :func:`show_text`'s ``"true"``/``"false"``.
    """
    def fix(v: Any) -> Any:
        return show_text(v) if isinstance(v, (bool, np.bool_)) else v

    def has_bools(index: pd.Index) -> bool:
        if isinstance(index, pd.MultiIndex):
            return any(isinstance(x, (bool, np.bool_)) for t in index for x in t)
        return any(isinstance(x, (bool, np.bool_)) for x in index)

    def fixed(index: pd.Index) -> pd.Index:
        if isinstance(index, pd.MultiIndex):
            return pd.MultiIndex.from_tuples([tuple(fix(x) for x in t) for t in index], names=index.names)
        return pd.Index([fix(x) for x in index], name=index.name)

    cols = [c for c in df.columns if df[c].dtype == bool or (df[c].dtype == object
                                                              and df[c].map(lambda v: isinstance(v, bool)).any())]
    index_bools, column_bools = has_bools(df.index), has_bools(df.columns)
    if not (cols or index_bools or column_bools):
        return df
    out = df.copy()
    for c in cols:
        out[c] = out[c].map(fix).astype(object)
    if index_bools:
        out.index = fixed(out.index)
    if column_bools:
        out.columns = fixed(out.columns)
    return out


def select(results: pd.DataFrame, *, part: str, metric: str, statistic: str | None = None, **where: Any) -> pd.DataFrame:
    """Rows of one part and metric (and statistic, and parameter values).

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy results.
    part, metric : str
        Part name and metric name.
    statistic : str, optional
        ``"proportion"``, ``"mean"``, ``"q50"`` ...; default: every statistic.
    **where
        Parameter column equalities, e.g. ``doubtful=True``.

    Returns
    -------
    pandas.DataFrame
        A copy of the matching rows.

    Raises
    ------
    KeyError
        If nothing matches (the message lists the parts and metrics present).
    """
    m = (results["part"] == part) & (results["metric"] == metric)
    if statistic is not None:
        m &= results["statistic"] == statistic
    for k, v in where.items():
        m &= results[k] == v
    out = results[m].copy()
    if out.empty:
        raise KeyError(
            f"no rows for part={part!r}, metric={metric!r}, statistic={statistic!r}, {where}; "
            f"parts: {sorted(results['part'].unique())}, metrics: {sorted(results['metric'].unique())}"
        )
    return out


def lead_metrics(results: Any, part: str) -> tuple[list[str], list[str]]:
    """A part's metrics split into the ones its scenario is about and the others.

    Parameters
    ----------
    results : gamesim.core.api.Results
        The results, with their scenario (without one, nothing is named).
    part : str
        A part of ``results``.

    Returns
    -------
    (list of str, list of str)
        The lead metrics the part reports and every other metric of the part in declared order. The
        lead: the part's ``findings`` key, in its order; without one, the ``[precision]`` metric, then the
        ``[compare]`` metrics where the part is compared (the metrics the scenario's own rules name). The
        report's Findings show the lead first and its figures put it first.
    """
    metrics = results.metrics(part)
    spec = scenario_part(results, part)
    named: list[str] = list(spec.findings) if spec is not None else []
    sc = getattr(results, "scenario", None)
    if spec is not None and not named and sc is not None:
        if sc.precision is not None:
            named.append(sc.precision.metric)
        cmp_ = sc.compare
        if cmp_ is not None and cmp_.metrics and cmp_.dimension in spec.dim_values():
            named += list(cmp_.metrics)
    lead = [m for m in dict.fromkeys(named) if m in metrics]
    return lead, [m for m in metrics if m not in lead]


def scenario_part(results: Any, part: str) -> Any:
    """The scenario's :class:`~gamesim.run.scenario.Part` named ``part`` (its title, question, findings), or
    ``None`` for results without a scenario or a part the scenario does not have."""
    sc = getattr(results, "scenario", None)
    return next((p for p in sc.parts if p.name == part), None) if sc is not None else None


def has_parts(results: pd.DataFrame, *parts: str) -> bool:
    """Whether every named part has rows in the tidy results: a study notebook's section test.

    A notebook shows the section of a question only when the scenario asked it (a designer's
    own scenario may leave any part out) and the sweep wrote its rows.

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy results (a ``part`` column).
    *parts : str
        Part names; at least one.

    Returns
    -------
    bool
        ``True`` when each of ``parts`` has at least one row.

    Raises
    ------
    TypeError
        If no part is named, or a name is not a string.
    """
    if not parts or not all(isinstance(p, str) for p in parts):
        raise TypeError(f"has_parts needs one or more part names (strings), got {parts!r}")
    present = set(results["part"].unique())
    return all(p in present for p in parts)


def estimate_of(row: Any) -> Estimate:
    """The :class:`~gamesim.core.stats.Estimate` of one tidy-results row."""
    return Estimate(int(row["n"]), float(row["estimate"]), float(row["se"]), float(row["ci_low"]), float(row["ci_high"]))


def interval_table(
    rows: pd.DataFrame,
    index: str | Sequence[str],
    columns: str | None = None,
    *,
    digits: int = 3,
    exact: bool = True,
) -> pd.DataFrame:
    """Pivot estimates into ``"est [low, high]"`` strings, with n and exact values.

    Parameters
    ----------
    rows : pandas.DataFrame
        Rows of one metric and statistic (see :func:`select`); with an ``n`` column, a cell
        whose trials all gave one value reads ``"9.00 (all equal)"`` (not ``[-inf, inf]``).
    index : str or sequence of str
        Parameter column(s) for the table rows.
    columns : str, optional
        Parameter column for the table columns; without it the table has one
        column ``estimate [95% CI]`` plus ``n`` and (if any) ``exact``.
    digits : int, default 3
        Decimal places.
    exact : bool, default True
        Add the exact value (in parentheses with ``columns``, as its own column
        without) where the rows have one.

    Returns
    -------
    pandas.DataFrame
        Strings, ready to display; boolean settings in the index and column labels read
        ``true``/``false`` (:func:`scenario_spelling`).
    """
    rows = rows.copy()
    ns = rows["n"] if "n" in rows else [None] * len(rows)  # with n, a sample without spread says so
    rows["shown"] = [
        format_interval(e, lo, hi, digits=digits, n=None if k is None or pd.isna(k) else int(k), short=True)
        for e, lo, hi, k in zip(rows["estimate"], rows["ci_low"], rows["ci_high"], ns)
    ]
    has_exact = exact and "exact" in rows and rows["exact"].notna().any()
    if columns is None:
        cols = ([index] if isinstance(index, str) else list(index)) + ["shown", "n"]
        out = rows[cols + (["exact"] if has_exact else [])].rename(columns={"shown": "estimate [95% CI]"})
        if has_exact:
            out["exact"] = out["exact"].map(lambda v: format_value(v, digits=digits))
        return scenario_spelling(out.set_index(index))
    if has_exact:
        rows["shown"] = [
            s if pd.isna(x) else f"{s} ({format_value(x, digits=digits)})" for s, x in zip(rows["shown"], rows["exact"])
        ]
    return scenario_spelling(rows.pivot_table(index=index, columns=columns, values="shown", aggfunc="first"))


def plot_estimates(
    ax: Any,
    rows: pd.DataFrame,
    x: str,
    *,
    group: str | None = None,
    label: Callable[[Any], str] | None = None,
    exact_curves: dict[Any, tuple[Sequence[float], Sequence[float]]] | None = None,
    marker: str = "o",
) -> Any:
    """Monte Carlo estimates with 95% error bars, exact curves drawn underneath.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    rows : pandas.DataFrame
        Rows of one metric and statistic.
    x : str
        Parameter column on the horizontal axis.
    group : str, optional
        Parameter column giving one series per value.
    label : callable, optional
        ``label(group_value) -> str`` for the legend.
    exact_curves : dict, optional
        ``{group_value: (xs, ys)}`` exact curves (solid lines, drawn first, same
        colour as the series); with ``group=None`` use the key ``None``.
    marker : str, default "o"
        Marker of the Monte Carlo points.

    Returns
    -------
    matplotlib.axes.Axes
    """
    groups = [None] if group is None else list(pd.unique(rows[group]))
    for i, g in enumerate(groups):
        sub = rows if g is None else rows[rows[group] == g]
        sub = sub.sort_values(x)
        color = f"C{i % 10}"
        name = (label(g) if label else f"{group} = {g}") if g is not None else None
        if exact_curves and g in exact_curves:
            xs, ys = exact_curves[g]
            ax.plot(xs, ys, "-", color=color, alpha=0.45, lw=1.5)
        est = sub["estimate"].to_numpy(float)
        lo = np.clip(est - sub["ci_low"].to_numpy(float), 0, None)
        hi = np.clip(sub["ci_high"].to_numpy(float) - est, 0, None)
        ax.errorbar(sub[x], est, yerr=[lo, hi], fmt=marker, ms=4, capsize=2, color=color, label=name)
    if whole_numbers(rows[x]):  # no ticks between them
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if group is not None or exact_curves:
        handles, labels = ax.get_legend_handles_labels()
        if exact_curves:
            from matplotlib.lines import Line2D

            handles.append(Line2D([], [], color="grey", alpha=0.6, lw=1.5))
            labels.append("exact")
        ax.legend(handles, labels, fontsize=8)
    ax.grid(alpha=0.3)
    return ax


def run_summary(results: pd.DataFrame, meta: dict[str, Any]) -> pd.DataFrame:
    """One-column table of how the results were produced (for the report header).

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy results.
    meta : dict
        Run metadata from :func:`gamesim.core.results.load_results`.

    Returns
    -------
    pandas.DataFrame
        Seed entropy, scenario hash, one row per data file read (as the scenario names it, or its
        file name where the scenario gives an absolute path, and its SHA-256 prefix), gamesim
        version, trials per cell (min-max), cells, backend, wall time.
    """
    n = results.groupby(["part", "cell"])["n"].max()
    files = [d for d in meta.get("data_files") or [] if isinstance(d, dict)]
    names = [_data_file_name(d) for d in files]
    # two files of one name in different folders (absolute paths): each by its whole path
    names = [nm if names.count(nm) == 1 else str(d.get("value") or d.get("path", "?")) for nm, d in zip(names, files)]
    info = {
        "seed entropy (reproduce with --seed)": meta.get("seed_entropy", results["seed_entropy"].iloc[0]),
        "gamesim version": meta.get("gamesim_version", results["gamesim_version"].iloc[0]),
        "scenario hash": str(meta.get("scenario_hash", results["scenario_hash"].iloc[0]))[:16],
        # every data file the cells read (its SHA-256 enters the scenario hash): as the scenario names it, and
        # the hash prefix (an absolute path shows its file name only: a report is shared beyond its folders)
        **{f"data file {nm}": f"sha256 {str(d.get('sha256', '?'))[:16]}" for nm, d in zip(names, files)},
        "parameter cells": int(n.size),
        "trials per cell (n)": f"{int(n.min()):,} – {int(n.max()):,}" if n.min() != n.max() else f"{int(n.min()):,}",
        "total trials": f"{int(n.sum()):,}",
        "backend / n_jobs": _backend_text(meta),
        "sweep wall time (s)": meta.get("seconds", "?"),
        "run started (UTC)": meta.get("started_utc", "?"),
    }
    return pd.DataFrame({"value": [str(v) for v in info.values()]}, index=list(info.keys()))


def _data_file_name(d: dict[str, Any]) -> str:
    """A data file of the run's metadata as the report names it: the scenario's value where it is relative
    (``weapons_buff.toml``), else the file's name (the folders of the machine that ran it are left out)."""
    from pathlib import Path

    value = d.get("value")
    if isinstance(value, str) and value and not Path(value).is_absolute():
        return value
    return Path(str(value or d.get("path", "?"))).name


def _backend_text(meta: dict[str, Any]) -> str:
    """The run table's backend line: the settings, and where the chunks really ran when not in the workers (a
    sweep too small to start workers for runs in gamesim's own process; a rerun reuses saved chunks)."""
    text = f"{meta.get('backend', '?')} / {meta.get('n_jobs', '?')}"
    ran, here = meta.get("chunks_run"), meta.get("chunks_in_process")
    if not isinstance(ran, int) or not isinstance(here, int):
        return text  # results written before these were recorded
    if ran == 0:
        return text + " (every chunk reused from an earlier run)"
    if here == ran:
        return text + " (not used: the sweep was small enough to run in gamesim's own process)"
    if here:
        return text + f" ({here:,} of {ran:,} chunks in gamesim's own process)"
    return text


@dataclass(frozen=True)
class DataSetUse:
    """Data the cells of a scenario read (a data file, a built-in set, bestiary entries), as a report names it.

    Attributes
    ----------
    param : str
        The parameter whose values name it (e.g. ``"board"``, ``"monster"``).
    values : tuple of str
        Its values as shown: built-in names (``"illustrative"``, ``"ドラゴン"``) or file names.
    parts : tuple of str
        The scenario parts whose cells read it (scenario order).
    title : str
        The data's title (see :class:`gamesim.core.registry.DataLabel`); "" where it could not be read.
    illustrative : bool
        Whether the data is (partly) ILLUSTRATIVE.
    note : str
        Which part is ILLUSTRATIVE where only some is; or why the data could not be read now, or that
        a file has changed since the run.
    remedy : str
        How to put the real data in ("" : point the parameter at a file with the real data).
    """

    param: str
    values: tuple[str, ...]
    parts: tuple[str, ...]
    title: str
    illustrative: bool
    note: str
    remedy: str = ""


def data_sets(results: Any) -> list[DataSetUse]:
    """Every data set the scenario's cells read, with its title and ILLUSTRATIVE flag.

    Parameters
    ----------
    results : gamesim.core.api.Results
        Results with their scenario (none without one).

    Returns
    -------
    list of DataSetUse
        One per parameter and label (values with the same label, e.g. several bestiary monsters,
        together), in the order the parts first read them; values that name no data (``monster =
        "custom"``) are left out. A file whose SHA-256 differs from the one recorded in the
        results' metadata says so in ``note`` (its title is then today's file's, not necessarily
        the run's); one that cannot be read now says that, and the report still renders.
    """
    from pathlib import Path

    sc = getattr(results, "scenario", None)
    if sc is None:
        return []
    recorded = {str(d.get("path")): d.get("sha256") for d in (getattr(results, "meta", {}) or {}).get("data_files") or []
                if isinstance(d, dict)}
    groups: dict[tuple[str, Any], tuple[list[str], list[str]]] = {}
    by_file: dict[tuple[str, str], Any] = {}  # a file's label depends on the file alone: read and hashed once
    for part in sc.parts:
        params = [p for p in part.task.params if p.describe is not None]
        for cell in part.cells() if params else ():
            for prm in params:
                value = cell.get(prm.name, prm.default)
                if value is None:
                    continue
                path = Path(str(value))
                key = (prm.name, str(value))
                if prm.file and key in by_file:
                    label = by_file[key]
                else:
                    label = _label_now(prm, value, cell, path, recorded)
                    if prm.file:
                        by_file[key] = label
                if label is None:
                    continue
                values, parts = groups.setdefault((prm.name, label), ([], []))
                shown = path.name if prm.file and path.is_absolute() else str(value)
                if shown not in values:
                    values.append(shown)
                if part.name not in parts:
                    parts.append(part.name)
    return [DataSetUse(name, tuple(values), tuple(parts), label.title, label.illustrative, label.note, label.remedy)
            for (name, label), (values, parts) in groups.items()]


def _label_now(prm: Any, value: Any, cell: Any, path: Any, recorded: dict[str, Any]) -> Any:
    """``prm.describe(value, cell)`` as a report shows it: a file that cannot be read now becomes a label saying
    so, and one whose SHA-256 differs from the run's (``recorded``) says it has changed."""
    import dataclasses
    import hashlib

    from gamesim.core.registry import DataLabel

    try:
        label = prm.describe(value, cell)
    except Exception as exc:  # a file gone or broken since the run: say so, do not fail the report
        return DataLabel("", False, "could not be read now: " + (str(exc).splitlines() or [type(exc).__name__])[0])
    if (label is not None and prm.file and path.is_absolute() and path.is_file() and str(value) in recorded
            and recorded[str(value)] != hashlib.sha256(path.read_bytes()).hexdigest()):
        since = "the file has changed since this run (its title is today's)"
        label = dataclasses.replace(label, note="; ".join(x for x in (label.note, since) if x))
    return label


def data_set_lines(results: Any, *, illustrative_only: bool = False) -> list[str]:
    """Markdown lines naming each data set the results ran on (the report's rules section and Findings).

    Parameters
    ----------
    results : gamesim.core.api.Results
        Results with their scenario.
    illustrative_only : bool, default False
        Only the ILLUSTRATIVE data sets, each with a warning that the numbers describe the rules on
        invented data and how to put the real data in (the Findings' first lines).

    Returns
    -------
    list of str
        One Markdown line per data set (no list marker); every title and name from a data file or
        scenario is escaped (:func:`gamesim.core.sanitize.safe_markdown`) and kept on one line.
    """
    from gamesim.core.sanitize import safe_markdown

    def one_line(text: str) -> str:  # a newline would start a paragraph, "#" a heading
        # spaces collapsed again after the sanitizer: a dropped tag leaves its spaces (`*v3 *` is no emphasis)
        return " ".join(safe_markdown(" ".join(text.split())).split())

    sc = getattr(results, "scenario", None)
    n_parts = len(sc.parts) if sc is not None else 0
    lines = []
    for d in data_sets(results):
        if illustrative_only and not d.illustrative:
            continue
        where = ("every part" if len(d.parts) == n_parts and n_parts > 1 else
                 "part " + ", ".join(f"`{one_line(p)}`" for p in d.parts) if n_parts > 1 else "")
        shown = [one_line(v) for v in d.values]
        what = (f"`{d.param} = {shown[0]}`" if len(shown) == 1 else
                f"`{d.param}` = {', '.join(f'`{v}`' for v in shown)}") + (f" ({where})" if where else "")
        title = f"*{one_line(d.title)}*" if one_line(d.title) else "(no title)"
        note = f" {one_line(d.note)}." if d.note.strip() else ""
        remedy = one_line(d.remedy) if d.remedy.strip() else \
            f"point `{d.param}` at a file with the real data to measure the game itself"
        if illustrative_only:
            partly = bool(d.note) and not d.note.startswith("the file has changed")
            lines.append(("**Partly ILLUSTRATIVE data:** " if partly else "**ILLUSTRATIVE data:** ")
                         + f"{what}: {title}.{note} "
                         + ("Results that involve the invented parts describe the rules played on invented data"
                            if partly else "These numbers describe the rules played on that data")
                         + f", not the printed game; {remedy}.")
        else:
            flag = d.illustrative and "ILLUSTRATIVE" not in d.title  # said once, by the title or here
            lines.append(f"Data: {what}: {title}" + (" **(ILLUSTRATIVE)**" if flag else "") + f".{note}")
    return lines
