"""The Findings section: sentences generated from the results, never written by hand.

Every report opens with it. For each part it states, from the tidy results only:

* the headline estimates with their 95% intervals and n (one cell), or the lowest
  and highest cell (the worst and best case) of each metric;
* the swept setting that moves each metric most (the largest sensitivity: the
  largest change of the estimate between two values of one setting, the other
  settings held fixed);
* every paired comparison, one sentence per variant and metric: "B is higher
  than A by x [lo, hi]" or "no detectable difference at n = ..." (the 95%
  interval of the difference contains 0);
* agreement with the exact values, where the game has an exact solver.

Nothing here can go stale: change the scenario or the seed and the sentences
change with the numbers. Text that comes from a scenario file (part titles, case
names, parameter values) goes through :func:`gamesim.core.sanitize.safe_markdown`.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd

from gamesim.core.sanitize import safe_markdown
from gamesim.report.present import format_interval, lead_metrics, scenario_part, show_text, show_value, varied_dims

__all__ = ["findings_markdown", "comparison_sentences", "ranking_sentences", "MAX_METRICS"]

#: Metrics described per part in the Findings (the rest are in the part's own section, and said to be).
MAX_METRICS = 4
#: A study of more parts than this gets :data:`FEW_METRICS` per part, so its Findings stay about two pages.
MANY_PARTS, FEW_METRICS = 6, 2


def _txt(v: Any) -> str:
    """A value from the results or the scenario, safe to put in Markdown."""
    return safe_markdown(show_text(v))


def _where(row: pd.Series, dims: list[str]) -> str:
    return ", ".join(f"{safe_markdown(d)} = {_txt(row[d])}" for d in dims)


def _interval(row: pd.Series, digits: int = 3) -> str:
    return format_interval(float(row["estimate"]), float(row["ci_low"]), float(row["ci_high"]), digits=digits,
                           n=int(row["n"]))


def _precision_sentence(results: Any, part: str, dims: list[str]) -> str | None:
    """Whether the ``[precision]`` target was met in the part's cells, naming those where it was not."""
    sc = results.scenario
    if sc is None or sc.precision is None:
        return None
    f = results.part_frame(part)
    if "target_met" not in f.columns or f["target_met"].isna().all():
        return None
    pr = sc.precision
    rows = f[(f["metric"] == pr.metric) & f["target_met"].notna()].drop_duplicates("cell")
    if rows.empty:
        return None
    missed = rows[rows["target_met"] == False]  # noqa: E712 (a column of True/False/None)
    what = f"Precision target (95% interval of **{safe_markdown(pr.metric)}** within ±{pr.half_width:g})"
    if missed.empty:
        return f"{what}: met in every one of the {len(rows)} cells."
    swept = varied_dims(rows, dims) or dims
    where = "; ".join(_where(r, swept) for _, r in missed.head(6).iterrows())
    more = f" and {len(missed) - 6} more" if len(missed) > 6 else ""
    # every trial of the cell gave the same value and the metric has no known range: no number of trials makes
    # the interval finite (docs/reliability.md), so the cap was reached however large it was
    flat = missed[(missed["se"].astype(float) == 0) & ~(missed["ci_high"].astype(float) < math.inf)]
    why = (" (every trial there gave the same value; while that holds, a mean with no known range has no finite "
           "interval, however many trials are run)" if len(flat) == len(missed) else "")
    return (f"{what}: met in {len(rows) - len(missed)} of {len(rows)} cells; not within {pr.max_trials:,} trials "
            f"(the cap) at {where}{more}{why}.")


#: Families of a ranking described per part in the Findings (one sentence each).
MAX_RANKINGS = 4


def ranking_sentences(results: Any, part: str) -> list[str]:
    """With ``[compare] pairs = "all"``: per compared metric (and values of the other dimensions), the values
    of the compared dimension in rank order, the best, and those indistinguishable from it.

    Parameters
    ----------
    results : gamesim.core.api.Results
    part : str

    Returns
    -------
    list of str
        Markdown sentences (at most :data:`MAX_RANKINGS`): "**metric**, lower is better: 1. edition = spa
        (estimate [interval], n = trials), 2. ... ; best spa, and original is indistinguishable from it (Holm, family-wise
        5%)." Empty without an all-pairs comparison of the part.
    """
    sc = results.scenario
    if sc is None or sc.compare is None or sc.compare.pairs != "all" or results.comparisons.empty:
        return []
    rk = results.ranking()
    rk = rk[rk["part"] == part]
    if rk.empty:
        return []
    fixed = {"part", "metric", "dimension", "value", "cell", "n", "estimate", "ci_low", "ci_high", "rank", "best",
             "p_holm_vs_best", "indistinguishable_from_best"}
    others = [c for c in rk.columns if c not in fixed]
    lead, rest = lead_metrics(results, part)
    order_of = {m: i for i, m in enumerate(lead + rest)}  # the metrics the scenario is about first
    rk = rk.assign(_order=rk["metric"].map(lambda m: order_of.get(m, len(order_of))))
    rk = rk.sort_values("_order", kind="stable")
    out = []
    for _, fam in rk.groupby(["_order", "metric"] + others, sort=False, dropna=False):
        fam = fam.sort_values("rank")
        dim = safe_markdown(str(fam["dimension"].iloc[0]))
        at = ", ".join(f"{safe_markdown(o)} = {_txt(fam[o].iloc[0])}" for o in others)
        order = ", ".join(f"{int(r['rank'])}. {dim} = {_txt(r['value'])} ({_ranked_interval(r)})"
                          for _, r in fam.head(6).iterrows()) + (f", and {len(fam) - 6} more" if len(fam) > 6 else "")
        best = fam[fam["best"]]
        ties = fam[(~fam["best"]) & (fam["indistinguishable_from_best"] == True)]  # noqa: E712 (pd.NA: not compared)
        tie_text = (f"{', '.join(_txt(v) for v in ties['value'])} "
                    f"{'is' if len(ties) == 1 else 'are'} indistinguishable from it" if len(ties)
                    else "no other value is indistinguishable from it")
        out.append(f"**{safe_markdown(str(fam['metric'].iloc[0]))}**, {sc.compare.better} is better"
                   + (f" (at {at})" if at else "") + f": {order}; best {_txt(best['value'].iloc[0])}, and "
                   f"{tie_text} (Holm, family-wise 5%).")
        if len(out) == MAX_RANKINGS:
            break
    return out


def _ranked_interval(row: pd.Series) -> str:
    """A ranked value's interval and n (a sample without spread already says its n)."""
    text = _interval(row)
    return text if "no spread" in text else f"{text}, n = {int(row['n']):,}"


def _headline(results: Any, part: str, metric: str, dims: list[str]) -> str:
    stat = results.primary_statistic(metric, part=part)
    rows = results.rows(metric, part=part, statistic=stat)
    swept = varied_dims(rows, dims)
    name = f"**{safe_markdown(metric)}** ({stat})"
    if len(rows) == 1:
        r = rows.iloc[0]
        return f"{name}: {_interval(r)}" + ("" if "no spread" in _interval(r) else f", n = {int(r['n']):,}") + "."
    lo = rows.loc[rows["estimate"].astype(float).idxmin()]
    hi = rows.loc[rows["estimate"].astype(float).idxmax()]
    if float(lo["estimate"]) == float(hi["estimate"]):
        return f"{name}: {format_interval(float(lo['estimate']), lo['ci_low'], lo['ci_high'], n=int(lo['n']))} " \
               f"in every one of the {len(rows)} cells."
    out = (f"{name}: lowest {_interval(lo)} at {_where(lo, swept)}; highest {_interval(hi)} at {_where(hi, swept)} "
           f"({len(rows)} cells).")
    sens = _sensitivity(rows, swept)
    if sens is not None and len(swept) > 1:
        d, size = sens
        out += f" Most sensitive to {safe_markdown(d)} (up to {size:.3g} between two of its values)."
    elif sens is not None:
        out += f" Up to {sens[1]:.3g} apart across {safe_markdown(sens[0])}."
    return out


def _sensitivity(rows: pd.DataFrame, swept: list[str]) -> tuple[str, float] | None:
    """The swept dimension whose values move the estimate most, the others held fixed, and by how much."""
    best: tuple[str, float] | None = None
    keyed = rows.assign(**{f"_k_{d}": rows[d].map(lambda v: json.dumps(show_value(v))) for d in swept})
    for d in swept:
        others = [f"_k_{o}" for o in swept if o != d]
        groups = keyed.groupby(others, sort=False) if others else [(None, keyed)]
        size = max(float(g["estimate"].max() - g["estimate"].min()) for _, g in groups)
        if best is None or size > best[1]:
            best = (d, size)
    return best


def comparison_sentences(results: Any, part: str) -> list[str]:
    """One sentence per compared variant of ``part`` (Markdown), stating the conclusion for every metric.

    "*B* against *A*: higher in **m1** by x [lo, hi]; lower in **m2** by ...; no detectable difference
    in **m3**, **m4** at n = ...". Higher and lower mean the 95% interval of the paired difference
    (variant - baseline) excludes 0. Where the cells are paired on common random numbers, their
    trials vary, and every paired difference is 0 (the variant changed no trial's result, e.g. two
    policies that choose alike against this monster), it says so: "the same result in every paired trial in **m5**",
    rather than "no detectable difference", which reads as too few trials. A metric compared in
    several settings (the other swept dimensions) says in how many of them: "higher in **m1** in 4
    of 6 settings, by x [..] to y [..]".
    """
    comp = results.comparisons
    if comp.empty or part not in set(comp["part"]):
        return []
    c = comp[(comp["part"] == part) & (comp["statistic"] == "difference")]
    out = []
    dims = [d for d in results.dims(part) if d in c.columns]

    def one(r: pd.Series) -> str:
        return format_interval(float(abs(r["estimate"])), *sorted((abs(r["ci_low"]), abs(r["ci_high"]))))

    for _, gv in c.groupby([c["baseline"].map(show_text), c["variant"].map(show_text)], sort=False):
        first = gv.iloc[0]
        dim = str(first["dimension"])
        base = f"*{_txt(first['baseline'])}*" if dim == "case" else f"{safe_markdown(dim)} = {_txt(first['baseline'])}"
        var = f"*{_txt(first['variant'])}*" if dim == "case" else f"{safe_markdown(dim)} = {_txt(first['variant'])}"
        clauses: dict[str, list[str]] = {"higher": [], "lower": [], "same": [], "none": []}
        n_of: dict[str, set[int]] = {"same": set(), "none": set()}
        for metric, g in gv.groupby("metric", sort=False):
            m = f"**{safe_markdown(str(metric))}**"
            other = [d for d in dims if d != dim and g[d].map(show_text).nunique() > 1]
            higher, lower = g[g["ci_low"] > 0], g[g["ci_high"] < 0]
            none = g[(g["ci_low"] <= 0) & (g["ci_high"] >= 0)]
            # every paired difference 0 where the trials vary (a correlation exists): the variant changed no trial's
            # result (not merely too few trials to tell); a metric that never varies in either cell is not news
            same = none[(none["estimate"] == 0) & (none["se"] == 0) & none["crn"].eq(True)
                        & none["correlation"].notna()]
            none = none.drop(same.index)
            n_of["none"].update(int(v) for v in none["n"])
            n_of["same"].update(int(v) for v in same["n"])
            if len(g) == 1:
                r = g.iloc[0]
                where = f" ({_where(r, other)})" if other else ""
                key = "higher" if len(higher) else "lower" if len(lower) else "same" if len(same) else "none"
                clauses[key].append(f"{m} by {one(r)}{where}" if key in ("higher", "lower") else f"{m}{where}")
                continue
            for key, sub in (("higher", higher), ("lower", lower)):
                if len(sub):
                    lo = sub.loc[sub["estimate"].abs().idxmin()]
                    hi = sub.loc[sub["estimate"].abs().idxmax()]
                    by = one(lo) if len(sub) == 1 else f"{one(lo)} to {one(hi)}"
                    clauses[key].append(f"{m} (in {len(sub)} of {len(g)} settings, by {by})")
            for key, sub in (("same", same), ("none", none)):
                if len(sub):
                    clauses[key].append(f"{m} (in {len(sub)} of {len(g)} settings)")
        said = [f"higher in {', '.join(clauses['higher'])}" if clauses["higher"] else "",
                f"lower in {', '.join(clauses['lower'])}" if clauses["lower"] else ""]
        for key, text in (("same", "the same result in every paired trial in"),
                          ("none", "no detectable difference in")):
            if clauses[key]:
                ns = sorted(n_of[key])
                n_txt = f"{ns[0]:,}" if len(ns) == 1 else f"{ns[0]:,} to {ns[-1]:,}"
                said.append(f"{text} {', '.join(clauses[key])} at n = {n_txt} pairs")
        out.append(f"{var} against {base}: " + "; ".join(x for x in said if x) + ".")
    return out


def _exact_agreement(results: Any, part: str) -> str | None:
    f = results.part_frame(part)
    rows = f[f["exact"].notna()]
    rows = rows[rows["statistic"].isin(["proportion", "mean"])]
    if rows.empty:
        return None
    inside = ((rows["ci_low"] <= rows["exact"]) & (rows["exact"] <= rows["ci_high"])).sum()
    se = rows["se"].astype(float).where(rows["se"].astype(float) > 0)
    z = ((rows["estimate"] - rows["exact"]).abs() / se).dropna()
    worst = f"; the largest gap is {z.max():.2f} standard errors" if len(z) else ""
    return (f"Exact values: {inside} of {len(rows)} estimates with an exact value have it inside their 95% interval "
            f"(about 95% expected){worst}.")


def findings_markdown(results: Any, *, heading: str = "##", part_headings: dict[str, str] | None = None) -> str:
    """The Findings section of ``results`` as Markdown.

    Parameters
    ----------
    results : gamesim.core.api.Results
        The results (with their scenario, for part titles and dimension order).
    heading : str, default "##"
        Markdown heading marks of the section; parts are bold lines under it.
    part_headings : dict, optional
        ``{part: title}`` (default: the scenario's part titles, else the part names).

    Returns
    -------
    str
        The section: per part, one bullet per metric (the part's ``findings`` metrics, in their
        order, where the scenario names them; else the first :data:`MAX_METRICS` metrics,
        :data:`FEW_METRICS` in a study of more than :data:`MANY_PARTS` parts; the rest counted, and
        named when they are few), one per comparison sentence, and the
        agreement with exact values.
    """
    sc = results.scenario
    titles = dict(part_headings or {})
    if sc is not None:
        for p in sc.parts:
            titles.setdefault(p.name, p.title or p.name)
    lines = [f"{heading} Findings", "",
             "*Generated from the results of this run: every number is an estimate with its 95% interval; "
             "\"higher\" and \"lower\" mean the 95% interval of the paired difference excludes 0.*", ""]
    from gamesim.report.present import data_set_lines

    for line in data_set_lines(results, illustrative_only=True):  # invented data first: it qualifies every number
        lines += [line, ""]
    per_part = MAX_METRICS if len(results.parts) <= MANY_PARTS else FEW_METRICS
    for part in results.parts:
        dims = results.dims(part)
        title = safe_markdown(str(titles.get(part, part)))
        spec = scenario_part(results, part)
        question = spec.question if spec is not None else None
        lines.append(f"**{title}**" + (f": {safe_markdown(question)}" if question else ""))
        lines.append("")
        lead, others = lead_metrics(results, part)  # lead: the part's findings key, the metrics its question is about
        metrics = lead + others
        # a findings key is the designer's choice, shown as it is; the metrics of a precision rule or comparison
        # come first within the usual number (a comparison of eleven metrics would fill the Findings)
        shown = lead if spec is not None and spec.findings else metrics[:per_part]
        for metric in shown:
            lines.append("- " + _headline(results, part, metric, dims))
        more = metrics[len(shown):]  # shown is a prefix of metrics (the named ones lead)
        if more:
            lines.append(f"- {len(more)} more metrics" + (": " + ", ".join(safe_markdown(m) for m in more)
                                                          if len(more) <= MAX_METRICS else "")
                         + " (in this part's section).")
        prec = _precision_sentence(results, part, dims)
        if prec:
            lines.append("- " + prec)
        for s in ranking_sentences(results, part) + comparison_sentences(results, part):
            lines.append("- " + s)
        ex = _exact_agreement(results, part)
        if ex:
            lines.append("- " + ex)
        lines.append("")
    return "\n".join(lines)

