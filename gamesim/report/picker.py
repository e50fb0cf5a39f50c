"""Reading P(X >= k) off a report: a small offline picker for the HTML and sentences for the text.

* :func:`picker_data`: per metric and cell of a part, the tabulated ``k`` with
  P(X >= k), its pointwise Wilson 95% interval, the simultaneous 95% band of the
  whole curve (DKW) and the exact value where the game gives its PMF: the rows of
  :meth:`gamesim.core.api.Results.distribution`, nothing recomputed.
* :func:`picker_html`: the widget: choose a metric, a cell (its case and
  parameters) and a ``k``, read P(X >= k) with its interval. Its script is inline
  (:data:`READ_JS` plus the DOM glue), loads nothing, and runs in any browser; the
  PDF leaves the widget out (print shows the figure and the tables instead).
* :func:`event_lines`: for each ``at_least(metric, k)`` (or ``at_most``) event metric
  of a part (a ``k`` the scenario names), P(metric >= k) per cell as a sentence.

Reads a :class:`gamesim.core.api.Results` duck-typed (``distributions``,
``distribution``, ``dims``, ``metrics``, ``rows``); never imports the API.
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

import numpy as np
import pandas as pd

from gamesim.report.present import format_interval, format_value, show_text

__all__ = ["picker_data", "picker_html", "event_lines", "READ_JS", "MAX_EVENT_CELLS"]

#: Cells listed per event sentence at most (the rest are in the tables and the results files).
MAX_EVENT_CELLS = 12
#: Rows (cell x k) one part's picker carries at most, about 1 MB of JSON in the page; cells beyond it are left
#: out of the picker (it says how many) and stay in the ``.dist`` results table.
MAX_PICKER_ROWS = 20_000

#: The reading rule, a pure function (tested on its own): the row of the smallest tabulated value >= k.
#: Between two tabulated values no trial was seen (or the support has no value), so the estimate and its
#: Wilson interval there are the next tabulated row's; the exact value is given only at tabulated k.
READ_JS = r"""
function gamesimRead(cell, k) {
  var ks = cell.k, i = 0;
  if (!ks.length) { return null; }
  while (i < ks.length && ks[i] < k) { i++; }
  var note = "";
  if (i === ks.length) { i = ks.length - 1; note = "above the largest tabulated value; showing k = " + ks[i]; }
  else if (ks[i] !== k) {
    note = (i === 0 ? "below the smallest tabulated value" : "not a tabulated value") + "; showing k = " + ks[i];
  }
  return {k: ks[i], p: cell.p[i], lo: cell.lo[i], hi: cell.hi[i], blo: cell.blo[i], bhi: cell.bhi[i],
          exact: cell.exact ? cell.exact[i] : null, n: cell.n, note: note};
}
"""

_GLUE_JS = r"""
(function () {
  var root = document.getElementById(__PICKER_ID__);
  var data = JSON.parse(root.querySelector("script.gamesim-picker-data").textContent);
  var ms = root.querySelector("select.gamesim-pick-metric"), cs = root.querySelector("select.gamesim-pick-cell");
  var kin = root.querySelector("input.gamesim-pick-k"), out = root.querySelector("output");
  function f(x) { return x === null || x === undefined ? "–" : Number(x).toFixed(4); }
  function fill(sel, items) {
    sel.innerHTML = "";
    items.forEach(function (t, i) { var o = document.createElement("option"); o.value = i; o.textContent = t; sel.appendChild(o); });
  }
  function cells() { return data.metrics[ms.value].cells; }
  function metricChanged() {
    fill(cs, cells().map(function (c) { return c.label; }));
    var left = data.metrics[ms.value].left_out;
    if (left) {
      var o = document.createElement("option"); o.disabled = true;
      o.textContent = "(" + left + " more cells: in the .dist results table)"; cs.appendChild(o);
    }
    var c0 = cells()[0]; kin.min = c0.k[0]; kin.max = c0.k[c0.k.length - 1];
    if (kin.value === "") { kin.value = c0.k[Math.floor(c0.k.length / 2)]; }
    show();
  }
  function show() {
    var m = data.metrics[ms.value], c = cells()[cs.value], k = parseFloat(kin.value);
    if (isNaN(k)) { out.textContent = "type an integer k"; return; }
    var r = gamesimRead(c, k);
    var s = "P(" + m.name + " ≥ " + r.k + ") = " + f(r.p) + " [" + f(r.lo) + ", " + f(r.hi) + "] (Wilson 95%, n = "
      + r.n.toLocaleString("en") + "); whole-curve 95% band (DKW) [" + f(r.blo) + ", " + f(r.bhi) + "]";
    if (r.exact !== null) { s += "; exact " + f(r.exact); }
    if (r.note) { s += " (k = " + k + " is " + r.note + ")"; }
    out.textContent = s;
  }
  fill(ms, data.metrics.map(function (m) { return m.name; }));
  ms.addEventListener("change", function () { kin.value = ""; metricChanged(); });
  cs.addEventListener("change", show);
  kin.addEventListener("input", show);
  metricChanged();
})();
"""

_CSS = ("<style>.gamesim-picker{border:1px solid #ddd;padding:0.3em 0.6em;margin:0.4em 0;font-size:9pt}"
        ".gamesim-picker select,.gamesim-picker input{font-size:9pt;margin-right:0.6em;max-width:28em}"
        ".gamesim-picker output{display:block;margin-top:0.3em;font-family:monospace}"
        "@media print{.gamesim-picker{display:none!important}}</style>")

_ids = itertools.count()


def _label(row: pd.Series, dims: list[str]) -> str:
    return ", ".join(f"{d} = {show_text(row[d])}" for d in dims) or "(one cell)"


def _num(a: Any) -> list[float | None]:
    v = pd.to_numeric(pd.Series(a), errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    return [None if not math.isfinite(x) else round(x, 6) for x in v.tolist()]


def picker_data(results: Any, part: str, *, max_rows: int = MAX_PICKER_ROWS) -> dict[str, Any]:
    """What the picker of one part reads: every tabulated metric, every cell, every k.

    Parameters
    ----------
    results : gamesim.core.api.Results
    part : str
    max_rows : int, default :data:`MAX_PICKER_ROWS`
        Rows (cells x k over all metrics) carried at most; the cells after it are counted in
        ``"left_out"`` (each metric keeps at least its first cell).

    Returns
    -------
    dict
        ``{"part": part, "dims": [...], "metrics": [{"name": metric, "cells": [cell, ...],
        "left_out": int}, ...]}``;
        a cell is ``{"cell": int, "label": "case = ..., <dim> = ...", "n": int, "k": [...],
        "p", "lo", "hi"`` (P(X >= k) and its pointwise Wilson 95% bounds), ``"blo", "bhi"``
        (the simultaneous DKW band), ``"exact"`` (list, or ``None`` where the game gives no PMF)``}``,
        rounded to 6 decimals, taken from :meth:`Results.distribution` rows.

    Raises
    ------
    KeyError
        If the part has no tabulated distribution.
    """
    d = results.distributions
    if d.empty or part not in set(d["part"]):
        raise KeyError(f"no distributions tabulated for part {part!r}")
    dims = list(results.dims(part))
    metrics = []
    room = int(max_rows)
    for metric in pd.unique(d.loc[d["part"] == part, "metric"]):
        rows = results.distribution(metric, part=part).sort_values(["cell", "value"], kind="stable")
        cells: list[dict[str, Any]] = []
        left_out = 0
        cols = {c: _num(rows[c]) for c in ("at_least", "at_least_low", "at_least_high", "at_least_band_low",
                                               "at_least_band_high", "at_least_exact") if c in rows}
        values = rows["value"].astype(int).tolist()
        n = rows["n"].astype(int).tolist()
        for cell, at in rows.reset_index(drop=True).groupby("cell", sort=True).indices.items():
            a, b = int(at[0]), int(at[-1]) + 1  # rows are sorted by cell: each cell's rows are contiguous
            if b - a > room and cells:
                left_out += 1
                continue
            room -= b - a
            ex = cols.get("at_least_exact")
            exact = ex[a:b] if ex is not None and any(v is not None for v in ex[a:b]) else None
            cells.append({
                "cell": int(cell), "label": _label(rows.iloc[a], dims), "n": n[a],
                "k": values[a:b], "p": cols["at_least"][a:b], "lo": cols["at_least_low"][a:b],
                "hi": cols["at_least_high"][a:b], "blo": cols["at_least_band_low"][a:b],
                "bhi": cols["at_least_band_high"][a:b], "exact": exact,
            })
        metrics.append({"name": str(metric), "cells": cells, "left_out": left_out})
    return {"part": part, "dims": dims, "metrics": metrics}


def picker_html(results: Any, part: str) -> str:
    """The picker of one part as one HTML block (style, data, inline script; nothing loaded).

    Returns
    -------
    str
        ``<div class="gamesim-picker">`` with a metric and a cell ``<select>``, a ``k`` input and an
        ``<output>`` that reads "P(metric ≥ k) = p [lo, hi] (Wilson 95%, n = ...); whole-curve 95% band
        (DKW) [lo, hi]; exact x". Hidden in print.

    Raises
    ------
    KeyError
        If the part has no tabulated distribution.
    """
    data = json.dumps(picker_data(results, part), separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    data = data.replace("</", "<\\/")
    pid = f"gamesim-picker-{next(_ids)}"
    glue = _GLUE_JS.replace("__PICKER_ID__", json.dumps(pid))
    return (f'{_CSS}<div class="gamesim-picker" id="{pid}"><b>Read P(X ≥ k):</b> '
            '<label>metric <select class="gamesim-pick-metric"></select></label>'
            '<label>cell <select class="gamesim-pick-cell"></select></label>'
            '<label>k <input class="gamesim-pick-k" type="number" step="1"/></label>'
            '<output>(needs JavaScript)</output>'
            f'<script type="application/json" class="gamesim-picker-data">{data}</script>'
            f"<script>{READ_JS}{glue}</script></div>")


def event_lines(results: Any, part: str, *, max_cells: int = MAX_EVENT_CELLS) -> list[str]:
    """One Markdown line per ``at_least(metric, k)`` or ``at_most(metric, k)`` event of a part, per cell.

    Parameters
    ----------
    results : gamesim.core.api.Results
    part : str
    max_cells : int, default :data:`MAX_EVENT_CELLS`
        Cells named per line at most (the line then says how many are left out).

    Returns
    -------
    list of str
        ``"P(wounds ≥ 2): dodge = 1: 0.512 [0.472, 0.552] (exact 0.508); ..."``, with n where the cells'
        n differ; empty where the part has no such event. Names come from the scenario: escaped with
        :func:`gamesim.core.sanitize.safe_markdown`.
    """
    from gamesim.core.events import looks_like_event, parse_event
    from gamesim.core.sanitize import safe_markdown

    dims = list(results.dims(part))
    lines = []
    for name in results.metrics(part):
        if not looks_like_event(name):
            continue
        ev = parse_event(name)
        if ev.kind == "between":
            continue
        rows = results.rows(name, part=part, statistic="proportion")
        parts = []
        for _, r in rows.head(max_cells).iterrows():
            shown = format_interval(float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"]), n=int(r["n"]))
            ex = "" if pd.isna(r["exact"]) else f" (exact {format_value(float(r['exact']))})"
            parts.append(f"{_label(r, dims)}: {shown}{ex}")
        more = f"; {len(rows) - max_cells} more cells in the tables" if len(rows) > max_cells else ""
        ns = sorted(set(int(v) for v in rows["n"]))
        n_txt = f"n = {ns[0]:,} per cell" if len(ns) == 1 else f"n = {ns[0]:,} to {ns[-1]:,} per cell"
        k = ev.lo if ev.kind == "at_least" else ev.hi
        k = int(k) if float(k).is_integer() else k
        sign = "≥" if ev.kind == "at_least" else "≤"
        lines.append(safe_markdown(f"P({ev.metric} {sign} {k}), 95% Wilson intervals, {n_txt}: "
                                   + "; ".join(parts) + more + "."))
    return lines
