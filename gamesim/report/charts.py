"""Report figures as Vega-Altair charts: one spec, interactive in the HTML and a static image in the PDF.

One figure per metric *group* (all metrics of a part, as small multiples), so a
report's figure count grows with its parts, not with metrics x parts:

* :func:`estimates_chart`: every metric of a part, one panel each, estimates
  with 95% bars, one series per combination of the other swept dimensions,
  exact values as lines (numeric x) or ticks (categorical x);
* :func:`compare_chart`: the paired differences of a part (variant - baseline),
  one panel per metric, a line at 0;
* :func:`distribution_chart`: P(X >= k) of every integer metric of a part,
  one small multiple per cell (at most ``max_cells`` cells, spread over the
  sweep), with 95% bands and the exact curve where the game has one (a dashed
  black line, named in the legend).

In the HTML each chart is live (vega-embed, bundled offline by vl-convert): hover
a point for its value, interval and n; click a legend entry to show one series
(shift-click for several). The PDF gets the same spec drawn by vl-convert as a
JPEG, with no browser. :func:`chart_html` writes both into one ``<figure>``.

Charts read a :class:`gamesim.core.api.Results` (duck-typed: ``frame``,
``comparisons``, ``distributions``, ``dims``, ``rows``, ``metrics``,
``primary_statistic``); this module never imports the API.
"""

from __future__ import annotations

import base64
import html
import itertools
import json
import math
import re
from typing import Any

import numpy as np
import pandas as pd

from gamesim.report.present import format_interval, lead_metrics, show_text, whole_numbers

__all__ = ["metric_groups", "estimates_chart", "compare_chart", "distribution_chart", "chart_html", "chart_picture",
           "x_and_series"]

#: Legend entries of a distribution figure: the Monte Carlo curve (with its shaded band) and the exact one.
MC_CURVE, EXACT_CURVE = "Monte Carlo estimate (solid; shaded: 95% band)", "exact (dashed; the game's exact solver)"
CURVE_COLOURS = ["#4c78a8", "black"]
#: Panel size (CSS pixels) of one small multiple.
PANEL_W, PANEL_H = 200, 130
#: Colours: Tableau 10 up to ten series, Tableau 20 beyond.
_SCHEMES = ((10, "tableau10"), (20, "tableau20"))


def _alt() -> Any:
    import altair as alt

    alt.data_transformers.disable_max_rows()
    return alt


def _numeric(values: pd.Series) -> bool:
    vals = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return bool(vals) and all(isinstance(v, (int, float, np.integer, np.floating))
                              and not isinstance(v, (bool, np.bool_)) for v in vals)


def x_and_series(dims: list[str], rows: pd.DataFrame, x: str | None = None) -> tuple[str | None, list[str], bool]:
    """The dimension on the horizontal axis, the others (one series per combination), and whether x is numeric.

    Default x: the numeric swept dimension with most values, else the swept one with most values (as
    categories); ``None`` when nothing is swept.
    """
    first = rows.drop_duplicates("cell")
    n_values = {d: first[d].map(show_text).nunique() for d in dims}
    if x is None:
        numeric = [d for d in dims if _numeric(first[d]) and n_values[d] > 1]
        cands = numeric or [d for d in dims if n_values[d] > 1]
        x = max(cands, key=lambda d: n_values[d]) if cands else None
    elif x not in dims:
        raise KeyError(f"x = {x!r} is not a swept dimension: {', '.join(dims)}")
    others = [d for d in dims if d != x]
    return x, others, x is not None and _numeric(first[x])


def _integer_axis(alt: Any, xs: pd.Series) -> Any:
    """The axis of a numeric swept dimension: where every value is a whole number (players, cards, HP), ticks at
    whole numbers only (at the swept values themselves when there are few), never 3.0, 3.2, 3.4 between them."""
    if not whole_numbers(xs):
        return alt.Axis()
    vals = np.unique(xs.to_numpy(float))
    if vals.size <= 12:
        return alt.Axis(values=[int(v) for v in vals], format="d")
    return alt.Axis(tickMinStep=1, format="d")


def clip_label(n_chars: int) -> str:
    """A Vega ``labelExpr`` showing labels of more than ``n_chars`` characters cut, with an ellipsis.

    Labels are cut here rather than by Vega's pixel ``labelLimit`` alone: Vega cuts a label that is
    too wide by measuring it again and again (a binary search over its length), and in vl-convert
    that measuring was most of a faceted figure's drawing time (a 24-panel figure with eight long
    case names: 1.1 s; 0.56 s with the labels cut first; 0.4 s with Vega's limit then off, as on
    the axes: ``labelLimit=0``). Legends and panel headers keep a pixel limit as a guard. The data
    and the tooltips keep the whole label.
    """
    return f"length(datum.label) > {n_chars} ? substring(datum.label, 0, {n_chars - 1}) + '\u2026' : datum.label"


def _color(alt: Any, series: list[str], title: str) -> Any:
    """The series' colours and legend, in the scenario's order (its cases, then grid values), not alphabetical."""
    n_series = len(series)
    scheme = next((s for n, s in _SCHEMES if n_series <= n), "tableau20")
    return alt.Color("series:N", title=title or None, scale=alt.Scale(scheme=scheme), sort=series,
                     legend=alt.Legend(labelLimit=240, labelExpr=clip_label(40), symbolLimit=40,
                                       columns=1 if n_series <= 16 else 2))


def _finite(a: Any) -> np.ndarray:
    a = pd.to_numeric(pd.Series(a), errors="coerce").to_numpy(float)
    return np.where(np.isfinite(a), a, np.nan)


#: Panels per estimates figure at most (four rows of three fit an A4 page).
MAX_PANELS = 12


def metric_groups(results: Any, part: str, *, max_panels: int = MAX_PANELS) -> list[list[tuple[str, str]]]:
    """A part's metrics grouped for figures: by primary statistic (proportions share a 0-1 scale), in
    declared order (the metrics the part's ``findings`` key names first), each group cut into as few runs
    of at most ``max_panels`` as it needs, of even length (26 metrics: 13 + 13, not 24 + 2); items are
    ``(metric, statistic)``. Where every metric fits one figure, the named metrics lead it, whatever their
    statistic (``findings = ["turns", "won"]``: a mean, then a proportion), and the rest follow by statistic."""
    by_stat: dict[str, list[tuple[str, str]]] = {}
    lead, others = lead_metrics(results, part)
    items = [(m, results.primary_statistic(m, part=part)) for m in lead + others]
    for item in items:
        by_stat.setdefault(item[1], []).append(item)
    groups = []
    if len(items) <= max_panels:  # one figure: the named metrics first, in the key's order, then the rest by statistic
        return [items[:len(lead)] + [item for v in by_stat.values() for item in v if item[0] not in lead]]
    for same_stat in by_stat.values():
        size = math.ceil(len(same_stat) / math.ceil(len(same_stat) / max_panels))
        for i in range(0, len(same_stat), size):
            groups.append(same_stat[i:i + size])
    return groups


def estimates_chart(results: Any, part: str, metrics: list[str] | None = None, *, x: str | None = None,
                    statistic: str | None = None, columns: int = 3) -> Any:
    """Estimates of a part's metrics with 95% intervals, one panel per metric.

    Parameters
    ----------
    results : gamesim.core.api.Results
    part : str
    metrics : list of str, optional
        Default: every metric of the part, in declared order.
    x : str, optional
        The swept dimension on the horizontal axis (default: see :func:`x_and_series`).
    statistic : str, optional
        Default: each metric's proportion or mean (else its first quantile).
    columns : int, default 3
        Panels per row.

    Returns
    -------
    altair.FacetChart
        Data columns ``metric`` (``"name (statistic)"``), ``x``, ``series``,
        ``estimate``, ``ci_low``, ``ci_high`` (NaN where infinite), ``exact``,
        ``n``, ``shown`` (the interval as printed in the tables).
    """
    alt = _alt()
    metrics = metrics or results.metrics(part)
    dims = results.dims(part)
    frame = results.part_frame(part)
    frame = frame[frame["metric"].isin(metrics)]
    x, others, numeric = x_and_series(dims, frame, x)
    blocks = []
    for metric in metrics:
        stat = statistic or results.primary_statistic(metric, part=part)
        rows = results.rows(metric, part=part, statistic=stat)
        blocks.append(rows.assign(metric=f"{metric} ({stat})"))
    rows = pd.concat(blocks, ignore_index=True)
    est, lo, hi, n = (rows[c].astype(float).to_numpy() for c in ("estimate", "ci_low", "ci_high", "n"))
    df = pd.DataFrame({
        "metric": rows["metric"].to_numpy(),
        "x": ((rows[x].astype(float) if numeric else rows[x].map(show_text)).to_numpy() if x else part),
        "series": (rows[others].apply(lambda col: col.map(show_text)).agg(" | ".join, axis=1).to_numpy()
                   if others else part),
        "estimate": est, "ci_low": _finite(lo), "ci_high": _finite(hi), "exact": _finite(rows["exact"]),
        "n": n.astype(int),
        "shown": [format_interval(e, a, b, n=int(k)) for e, a, b, k in zip(est, lo, hi, n)],
    })
    n_series = df["series"].nunique()
    sel = alt.selection_point(fields=["series"], bind="legend")
    x_enc = (alt.X("x:Q", title=x, scale=alt.Scale(zero=False), axis=_integer_axis(alt, df["x"])) if numeric
             else alt.X("x:N", title=x, sort=list(pd.unique(df["x"])),
                        axis=alt.Axis(labelAngle=-30, labelLimit=0, labelExpr=clip_label(22))))
    enc = {"x": x_enc, "color": _color(alt, list(pd.unique(df["series"])), " | ".join(others)),
           "opacity": alt.condition(sel, alt.value(1.0), alt.value(0.12))}
    if not numeric and n_series > 1:
        enc["xOffset"] = alt.XOffset("series:N")
    base = alt.Chart(df).encode(**enc)
    tip = [alt.Tooltip("metric:N"), alt.Tooltip("series:N", title=" | ".join(others) or "part"),
           alt.Tooltip("x", title=x or "part"), alt.Tooltip("shown:N", title="estimate [95% CI]"),
           alt.Tooltip("n:Q", format=","), alt.Tooltip("exact:Q", format=".4f")]
    layers = [base.mark_rule().encode(y=alt.Y("ci_low:Q", title=None, scale=alt.Scale(zero=False)), y2="ci_high:Q")]
    if numeric:
        layers.append(base.mark_line(strokeWidth=0.8, strokeDash=[2, 2]).encode(y="estimate:Q"))
    layers.append(base.mark_point(filled=True, size=28).encode(y="estimate:Q", tooltip=tip).add_params(sel))
    if df["exact"].notna().any():
        ex = base.transform_filter("isValid(datum.exact)")
        layers.append(ex.mark_line(strokeWidth=2, opacity=0.45).encode(y="exact:Q", opacity=alt.value(0.45))
                      if numeric else ex.mark_tick(thickness=2, opacity=0.6).encode(y="exact:Q"))
    chart = alt.layer(*layers).properties(width=PANEL_W, height=PANEL_H)
    return (chart.facet(facet=alt.Facet("metric:N", title=None, sort=list(pd.unique(df["metric"])),
                                        header=alt.Header(labelFontSize=11, labelLimit=280, labelExpr=clip_label(44))),
                        columns=min(columns, df["metric"].nunique()))
            .resolve_scale(y="independent"))


def compare_chart(results: Any, part: str, *, columns: int = 2) -> Any:
    """Paired differences (variant - baseline) with 95% intervals, one panel per compared metric.

    Returns
    -------
    altair.FacetChart
        Rows: one per compared setting (``setting``: variant and the other swept values).
    """
    alt = _alt()
    c = results.comparisons
    c = c[(c["part"] == part) & (c["statistic"] == "difference")]
    if c.empty:
        raise KeyError(f"no comparisons for part {part!r}")
    dims = [d for d in results.dims(part) if d in c.columns and d != str(c["dimension"].iloc[0])]
    dims = [d for d in dims if c[d].map(show_text).nunique() > 1]
    all_pairs = c["baseline"].map(show_text).nunique() > 1  # [compare] pairs = "all": name both sides

    def pair(r: Any) -> str:
        return f"{show_text(r['variant'])} − {show_text(r['baseline'])}" if all_pairs else show_text(r["variant"])

    records = c.to_dict("records")
    df = pd.DataFrame({
        "metric": c["metric"].astype(str).to_numpy(),
        "setting": [" | ".join([pair(r)] + [show_text(r[d]) for d in dims]) for r in records],
        "estimate": c["estimate"].astype(float).to_numpy(),
        "ci_low": _finite(c["ci_low"]), "ci_high": _finite(c["ci_high"]),
        "exact": _finite(c["exact"]), "n": c["n"].astype(int).to_numpy(),
        "shown": [format_interval(float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"]), n=int(r["n"]))
                  for r in records],
    })
    df["verdict"] = np.where(df["ci_low"] > 0, "higher",
                             np.where(df["ci_high"] < 0, "lower", "no detectable difference"))
    lo = np.nanmin(np.r_[df["ci_low"], df["estimate"], 0.0])
    hi = np.nanmax(np.r_[df["ci_high"], df["estimate"], 0.0])
    pad = 0.05 * (hi - lo) if hi > lo else 1.0  # all zero: a readable axis around 0
    xs = alt.Scale(domain=[float(lo - pad), float(hi + pad)]) if hi <= lo else alt.Scale(zero=True, nice=True)
    order = list(pd.unique(df["setting"]))
    # the axis title goes above the labels, not beside them: Vega measures Japanese labels narrower than
    # they are drawn, so a title beside them would be drawn over them
    base = alt.Chart(df).encode(y=alt.Y("setting:N", sort=order, title=" | ".join(["variant − baseline" if all_pairs else "variant"] + dims),
                                        axis=alt.Axis(labelLimit=0, labelExpr=clip_label(36), titleAngle=0,
                                                      titleAnchor="end", titleAlign="right", titleBaseline="bottom",
                                                      titleX=0, titleY=-4)))
    tip = [alt.Tooltip("setting:N"), alt.Tooltip("shown:N", title="difference [95% CI]"),
           alt.Tooltip("verdict:N"), alt.Tooltip("n:Q", format=","), alt.Tooltip("exact:Q", format=".4f")]
    color = alt.Color("verdict:N", scale=alt.Scale(domain=["higher", "lower", "no detectable difference"],
                                                   range=["#1f77b4", "#d62728", "#7f7f7f"]), title=None)
    layers = [
        alt.Chart().mark_rule(color="grey").encode(x=alt.datum(0)),
        base.mark_rule().encode(x=alt.X("ci_low:Q", scale=xs, title="variant − baseline"), x2="ci_high:Q",
                                color=color),
        base.mark_point(filled=True, size=30).encode(x="estimate:Q", color=color, tooltip=tip),
    ]
    if df["exact"].notna().any():
        layers.append(base.transform_filter("isValid(datum.exact)").mark_tick(color="black", thickness=2)
                      .encode(x="exact:Q"))
    height = max(40, 14 * len(order))
    chart = alt.layer(*layers, data=df).properties(width=260, height=height)
    # panels in the order of the estimates chart: the metrics the scenario names, then the task's order (a facet
    # sorts by name otherwise)
    compared = set(df["metric"])
    lead, others = lead_metrics(results, part)
    panels = [m for m in lead + others if m in compared]
    panels += [m for m in pd.unique(df["metric"]) if m not in panels]
    return (chart.facet(facet=alt.Facet("metric:N", title=None, sort=panels), columns=min(columns, len(panels)))
            .resolve_scale(x="independent"))


def distribution_chart(results: Any, part: str, metrics: list[str] | None = None, *, max_cells: int = 12,
                       columns: int = 6, view: str = "at_least", band: str = "pointwise",
                       cells: list[int] | None = None) -> Any:
    """P(X >= k) of a part's integer metrics, one small multiple per cell, with 95% bands.

    Parameters
    ----------
    results : gamesim.core.api.Results
    part : str
    metrics : list of str, optional
        Default: every metric of the part with a tabulated distribution.
    max_cells : int, default 12
        Cells drawn per metric at most, evenly spread over the cell order (every
        cell is in :meth:`Results.distribution` and the ``.dist`` results table).
    columns : int, default 6
    view : {"at_least", "at_most", "pmf"}, default "at_least"
    band : {"pointwise", "simultaneous"}, default "pointwise"
        Shaded: each k's Wilson 95% interval, or the simultaneous 95% band of the whole curve (DKW,
        columns ``<view>_band_low/high``); the title says which.
    cells : list of int, optional
        Only these cells (default: every cell; at most ``max_cells`` drawn).

    Returns
    -------
    altair.VConcatChart or altair.FacetChart
        One faceted chart per metric, stacked. Hover a point for P(X >= k) with
        its interval. Where the game gives the metric's exact PMF (the dist table's
        ``<view>_exact`` column, :func:`gamesim.core.analysis.with_exact_columns`) the exact
        curve is drawn over the Monte Carlo one as a dashed black line; the legend
        names both (:data:`MC_CURVE`, :data:`EXACT_CURVE`).
    """
    alt = _alt()
    words = {"pmf": "P(X = k)", "at_least": "P(X ≥ k)", "at_most": "P(X ≤ k)"}
    if view not in words:
        raise ValueError(f"view = {view!r}, must be one of {', '.join(words)}")
    if band not in ("pointwise", "simultaneous"):
        raise ValueError(f"band = {band!r}, must be 'pointwise' or 'simultaneous'")
    d = results.distributions
    lo_col, hi_col = f"{view}_low", f"{view}_high"
    if band == "simultaneous":
        if view == "pmf" or f"{view}_band_low" not in d.columns:
            raise ValueError(f"band = 'simultaneous' needs view 'at_least' or 'at_most' and results with band "
                             f"columns, got view = {view!r}")
        lo_col, hi_col = f"{view}_band_low", f"{view}_band_high"
    shaded = ("shaded: simultaneous 95% band (DKW)" if band == "simultaneous"
              else "shaded: pointwise 95% intervals (Wilson)")
    d = d[d["part"] == part]
    metrics = metrics or list(pd.unique(d["metric"]))
    # P(X >= x) between two values k_i < x <= k_(i+1) is P(X >= k_(i+1)): the step is drawn before the point
    step = "step-before" if view == "at_least" else "step-after"
    labels = _cell_labels(results, part)
    charts = []
    for metric in metrics:
        g = d[d["metric"] == metric]
        if cells is not None:
            g = g[g["cell"].isin(cells)]
        shown = list(pd.unique(g["cell"]))
        if len(shown) > max_cells:
            shown = [shown[i] for i in np.unique(np.round(np.linspace(0, len(shown) - 1, max_cells)).astype(int))]
        g = g[g["cell"].isin(shown)].sort_values(["cell", "value"])
        df = pd.DataFrame({"cell": g["cell"].map(lambda c: labels.get(int(c), f"cell {c}")).to_numpy(),
                           "k": g["value"].astype(float).to_numpy(), "p": g[view].astype(float).to_numpy(),
                           "lo": _finite(g[lo_col]), "hi": _finite(g[hi_col]),
                           "n": g["n"].astype(int).to_numpy() if "n" in g else 0})
        has_exact = f"{view}_exact" in g and g[f"{view}_exact"].notna().any()
        if has_exact:
            df["exact"] = _finite(g[f"{view}_exact"])
        df["shown"] = [format_interval(p, lo, hi) for p, lo, hi in zip(df["p"], df["lo"], df["hi"])]
        base = alt.Chart(df).encode(x=alt.X("k:Q", title=f"{metric} = k"))
        tip = [alt.Tooltip("cell:N"), alt.Tooltip("k:Q"), alt.Tooltip("shown:N", title=f"{words[view]} [95% CI]"),
               alt.Tooltip("n:Q", format=",")]
        # the legend says which curve is which: the Monte Carlo estimate (its band shaded) and the exact one
        curves = [MC_CURVE] + ([EXACT_CURVE] if has_exact else [])
        color = alt.Color("curve:N", title=None, scale=alt.Scale(domain=curves, range=CURVE_COLOURS[:len(curves)]),
                          legend=alt.Legend(orient="top", labelLimit=400, symbolType="stroke", symbolStrokeWidth=2,
                                            symbolOpacity=1))
        mc = base.transform_calculate(curve=json.dumps(MC_CURVE))
        band_y = alt.Y("lo:Q", title=words[view], scale=alt.Scale(domain=[0, 1]))
        layers = [mc.mark_area(opacity=0.25, interpolate=step).encode(y=band_y, y2="hi:Q", color=color),
                  mc.mark_line(interpolate=step, strokeWidth=1.2).encode(y="p:Q", color=color),
                  mc.mark_point(filled=True, size=12, opacity=0.6).encode(y="p:Q", color=color, tooltip=tip)]
        if has_exact:
            tip_ex = tip + [alt.Tooltip("exact:Q", format=".4f", title=f"exact {words[view]}")]
            layers.append(base.transform_filter("isValid(datum.exact)").transform_calculate(curve=json.dumps(EXACT_CURVE))
                          .mark_line(interpolate=step, strokeDash=[3, 2], strokeWidth=1.3)
                          .encode(y="exact:Q", color=color, tooltip=tip_ex))
        n_cells = df["cell"].nunique()
        total = d.loc[d["metric"] == metric, "cell"].nunique() if cells is None else len(set(cells))
        title = f"{metric}: {words[view]}" + (f" (panels: {' | '.join(results.dims(part))})" if results.dims(part) else "")
        if len(shown) < total:
            title += f" ({len(shown)} of {total} cells, spread over the sweep)"
        title += f"; {shaded}"
        chart = alt.layer(*layers).properties(width=105, height=70)
        charts.append(chart.facet(facet=alt.Facet("cell:N", title=None, sort=list(pd.unique(df["cell"])),
                                                   header=alt.Header(labelLimit=0, labelFontSize=9,
                                                                     labelExpr=clip_label(22))),
                                  columns=min(columns, n_cells), title=title))
    return charts[0] if len(charts) == 1 else alt.vconcat(*charts)


def _cell_labels(results: Any, part: str) -> dict[int, str]:
    rows = results.part_frame(part).drop_duplicates("cell")
    dims = results.dims(part)
    if not dims:
        return {int(c): part for c in rows["cell"]}
    return {int(r["cell"]): " | ".join(show_text(r[d]) for d in dims) for r in rows.to_dict("records")}


def chart_picture(chart: Any, *, scale: float = 1.25) -> bytes:
    """The chart (an Altair chart, or its Vega-Lite spec as a dict) drawn as a JPEG (no browser).

    Parameters
    ----------
    chart : altair chart or dict
    scale : float, default 1.25
        Pixels per CSS pixel of the chart.

    Returns
    -------
    bytes
        The JPEG file (quality :data:`~gamesim.report.drawing.JPEG_QUALITY`, white background), drawn by
        :func:`gamesim.report.drawing.draw_jpeg` (vl-convert, then Pillow).

    Raises
    ------
    TypeError, ValueError
        As :func:`~gamesim.report.drawing.draw_jpeg`: a bad ``scale``, or a spec vl-convert cannot draw.
    """
    from gamesim.report.drawing import draw_jpeg

    return draw_jpeg(chart if isinstance(chart, dict) else chart.to_dict(), scale)


_ids = itertools.count()


def chart_html(chart: Any, caption: str = "", *, drawer: Any = None) -> str:
    """One ``<figure>``: the live chart's spec (drawn by the page's vega-embed) and its static picture (JPEG).

    The page shows the live chart and hides the picture once vega-embed has drawn it; print (the
    PDF) shows the picture only. The picture is a ``data:`` URI, so the file stands alone.

    Parameters
    ----------
    chart : altair chart
    caption : str, default ""
    drawer : gamesim.report.pictures.PictureDrawer, optional
        Draw the picture there, in the background: the figure then holds a placeholder that
        :func:`fill_pictures` replaces with the picture. Default: drawn here, now.
    """
    # one spec for both: the schema check of a big spec costs about as much as drawing it, and the
    # tests check every chart kind against the schema
    spec = chart.to_dict(validate=False)
    if drawer is not None:
        pic = f"{_PENDING}{drawer.submit(spec)}@"
    else:
        pic = base64.b64encode(chart_picture(spec)).decode("ascii")
    data = json.dumps(spec, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    fid = f"gamesim-chart-{next(_ids)}"
    cap = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return (f'<figure class="gamesim-figure" id="{fid}">'
            f'<div class="gamesim-vega"></div>'
            f'<script type="application/json" class="gamesim-spec">{data}</script>'
            f'<img class="gamesim-static" alt="{html.escape(caption or "chart")}" src="data:image/jpeg;base64,{pic}"/>'
            f"{cap}</figure>")


#: The placeholder of a picture still being drawn (``<_PENDING><key>@``): not base64, never in a finished page.
_PENDING = "gamesim-pending-picture-"
_PENDING_RE = re.compile(re.escape(_PENDING) + r"(\d+)@")


def fill_pictures(text: str, drawer: Any) -> str:
    """``text`` with every picture placeholder of :func:`chart_html` replaced by its picture from ``drawer``
    (waiting for the ones still being drawn)."""
    return _PENDING_RE.sub(lambda m: drawer.picture(int(m.group(1))), text)
