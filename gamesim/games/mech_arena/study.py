"""The Mech Arena 2013 study's own analysis: the matchup matrix and the Findings, from tidy results.

Everything here reads the tidy results table of a run of ``scenarios/mech_arena.toml`` (or any
scenario with the same part kinds): a ``duel`` part swept over ``mech_a`` × ``mech_b`` gives the
matchup matrix; a ``league`` part with ``cases`` (one assumed base rule changed per case) gives the
sensitivity findings. A finding is stated as holding "under every tried setting" only when the
95% interval of every case supports it; otherwise the cases where it fails are named. No
number is written here: every sentence is computed from the table it is given.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from gamesim.core.validate import ParamTypeError

from .data import WeaponSet, load_weapons

__all__ = ["matchup_matrix", "sensitivity_table", "findings", "plot_matchups"]


def _check_frame(res: Any) -> pd.DataFrame:
    if not isinstance(res, pd.DataFrame) or not {"part", "metric", "statistic", "estimate"} <= set(res.columns):
        raise ParamTypeError("res", type(res).__name__, "a tidy results DataFrame (gamesim.core.results.load_results)")
    return res


def _label(ws: WeaponSet, key: str) -> str:
    try:
        return ws.mechs[ws.index(key)].name
    except ValueError:
        return str(key)


def _fmt(r: Any, digits: int = 2) -> str:
    return f"{r.estimate:.{digits}f} [{r.ci_low:.{digits}f}, {r.ci_high:.{digits}f}]"


def _duel_parts(res: pd.DataFrame) -> list[str]:
    if "mech_a" not in res.columns or "mech_b" not in res.columns:
        return []
    out = []
    for part, d in res[(res.task == "duel") & (res.metric == "a_won")].groupby("part", sort=False):
        if d.mech_a.nunique() > 1 and d.mech_b.nunique() > 1:
            out.append(str(part))
    return out


def matchup_matrix(res: pd.DataFrame, *, part: str | None = None, weapons: WeaponSet | None = None) -> pd.DataFrame:
    """P(mech A wins) as ``estimate [95% CI]``, rows mech A, columns mech B.

    Parameters
    ----------
    res : DataFrame
        Tidy results.
    part : str, optional
        The duel part swept over ``mech_a`` × ``mech_b`` (default: the first such part).
    weapons : WeaponSet, optional
        For the Japanese names (default: the built-in 2013 file).

    Returns
    -------
    DataFrame of str
        Empty if the results hold no such part.

    Raises
    ------
    ParamTypeError
        If ``res`` is not a tidy results table.
    """
    res = _check_frame(res)
    ws = weapons or load_weapons()
    parts = _duel_parts(res) if part is None else [part]
    if not parts:
        return pd.DataFrame()
    d = res[(res.part == parts[0]) & (res.metric == "a_won") & (res.statistic == "proportion")]
    order = [k for k in ws.keys if k in set(d.mech_a)] + sorted(set(d.mech_a) - set(ws.keys))
    cols = [k for k in ws.keys if k in set(d.mech_b)] + sorted(set(d.mech_b) - set(ws.keys))
    cells = {(r.mech_a, r.mech_b): _fmt(r) for r in d.itertuples()}
    table = pd.DataFrame([[cells.get((a, b), "") for b in cols] for a in order],
                         index=[_label(ws, a) for a in order], columns=[_label(ws, b) for b in cols])
    table.index.name = "mech A \\ mech B"
    return table


def _league_cases(res: pd.DataFrame) -> pd.DataFrame:
    if "case" not in res.columns:
        return res.iloc[0:0]
    d = res[(res.task == "league") & res.case.notna() & (res.statistic == "mean")]
    return d


def sensitivity_table(res: pd.DataFrame, *, weapons: WeaponSet | None = None) -> pd.DataFrame:
    """League scores and the other league metrics per case: ``estimate [95% CI]``.

    Raises
    ------
    ParamTypeError
        If ``res`` is not a tidy results table.
    """
    res = _check_frame(res)
    ws = weapons or load_weapons()
    d = _league_cases(res)
    if d.empty:
        return pd.DataFrame()
    cases = list(dict.fromkeys(d.case))
    metrics = list(dict.fromkeys(d.metric))
    cells = {(r.case, r.metric): _fmt(r, 1 if r.metric == "turns" else 2) for r in d.itertuples()}
    names = {m: (_label(ws, m[len("score_"):]) if m.startswith("score_") else m) for m in metrics}
    t = pd.DataFrame([[cells.get((c, m), "") for m in metrics] for c in cases], index=cases,
                     columns=[names[m] for m in metrics])
    t.index.name = "base-rule setting"
    return t


def findings(res: pd.DataFrame, compare: pd.DataFrame | None = None, *, weapons: WeaponSet | None = None
             ) -> list[str]:
    """The Findings of the study, as Markdown sentences computed from the results.

    Parameters
    ----------
    res : DataFrame
        Tidy results of the run.
    compare : DataFrame, optional
        The paired comparisons (``<name>.compare.parquet``), for the value of the combos.
    weapons : WeaponSet, optional
        For the mechs' names (default: the built-in 2013 file).

    Returns
    -------
    list of str
        Each a sentence with its numbers and intervals; a conclusion is said to hold under
        every tried setting only when every case's interval supports it.

    Raises
    ------
    ParamTypeError
        If ``res`` (or ``compare``) is not a results table.
    """
    res = _check_frame(res)
    ws = weapons or load_weapons()
    out: list[str] = []
    parts = _duel_parts(res)
    if parts:
        d = res[(res.part == parts[0]) & (res.metric == "a_won") & (res.statistic == "proportion")]
        off = d[d.mech_a != d.mech_b]
        if len(off):
            strong = off[off.ci_low > 0.5]
            best = off.loc[off.estimate.idxmax()]
            n = int(off.n.min())
            out.append(
                f"**Matchups** (part `{parts[0]}`, declared base rules, n = {n:,} duels per cell): in "
                f"{len(strong)} of {len(off)} matchups of different mechs, mech A's 95% interval lies above 1/2 "
                f"(mech A moving first or second by a coin toss); the most one-sided is "
                f"{_label(ws, best.mech_a)} against {_label(ws, best.mech_b)}, {_fmt(best)}.")
    lg = _league_cases(res)
    if not lg.empty:
        cases = list(dict.fromkeys(lg.case))
        n_cases = len(cases)
        part = str(lg.part.iloc[0])
        scores = lg[lg.metric.str.startswith("score_")]
        keys = list(dict.fromkeys(m[len("score_"):] for m in scores.metric))
        top = scores.loc[scores.groupby("case").estimate.idxmax()]
        top_count = top.metric.value_counts()
        leader = str(top_count.index[0])[len("score_"):]
        out.append(
            f"**Strongest mech** (part `{part}`, {n_cases} base-rule settings, league rounds of every ordered "
            f"matchup): {_label(ws, leader)} has the highest score in {int(top_count.iloc[0])} of {n_cases} "
            "settings" + ("" if int(top_count.iloc[0]) == n_cases else
                           " (elsewhere: " + ", ".join(f"{_label(ws, m[len('score_'):])} under '{c}'"
                                                        for c, m in top.set_index("case").metric.items()
                                                        if m != f"score_{leader}") + ")") + ".")
        above, below, mixed = [], [], []
        for k in keys:
            s = scores[scores.metric == f"score_{k}"]
            if (s.ci_low > 0.5).all():
                above.append(_label(ws, k))
            elif (s.ci_high < 0.5).all():
                below.append(_label(ws, k))
            else:
                parts_ = []
                for word, sel in (("above 1/2", s.ci_low > 0.5), ("below 1/2", s.ci_high < 0.5),
                                  ("not clearly above or below 1/2", ~((s.ci_low > 0.5) | (s.ci_high < 0.5)))):
                    if sel.any():
                        parts_.append(f"{word} under {', '.join(repr(c) for c in s[sel].case)}")
                mixed.append(f"{_label(ws, k)} ({'; '.join(parts_)})")
        out.append("**Holds under every tried setting:** " + "; ".join(
            x for x in (("scores above 1/2: " + ", ".join(above)) if above else "",
                        ("scores below 1/2: " + ", ".join(below)) if below else "") if x)
                   + (". " if above or below else "no mech is clearly above or below 1/2 in every setting. ")
                   + ("**Depends on the assumptions:** " + "; ".join(mixed) + "." if mixed else ""))
        fw = lg[lg.metric == "first_won"]
        if len(fw):
            edge = fw[fw.ci_low > 0.5].case.tolist()
            none = fw[fw.ci_low <= 0.5].case.tolist()
            d0 = fw[fw.case == cases[0]].iloc[0]
            out.append(
                f"**First player:** share of games won by the mech moving first, {_fmt(d0)} under "
                f"'{cases[0]}'; the interval lies above 1/2 in {len(edge)} of {n_cases} settings"
                + (" (every one)." if not none else f"; not under: {', '.join(none)}."))
        st = lg[lg.metric == "stalemate"]
        if len(st):
            any_st = st[st.estimate > 0]
            out.append(
                "**Stalemates** (no winner after max_turns): "
                + ("none in any game of any setting." if any_st.empty else
                   "seen only under " + ", ".join(f"'{r.case}' ({_fmt(r, 3)})" for r in any_st.itertuples())
                   + f"; none in the other {n_cases - len(any_st)} settings."))
        tu = lg[lg.metric == "turns"]
        if len(tu):
            lo, hi = tu.loc[tu.estimate.idxmin()], tu.loc[tu.estimate.idxmax()]
            out.append(f"**Game length:** mean turns per game (both mechs) range from {_fmt(lo, 1)} ('{lo.case}') "
                       f"to {_fmt(hi, 1)} ('{hi.case}').")
        base = scores[scores.case == cases[0]].set_index("metric").estimate
        moves = []
        for c in cases[1:]:
            v = scores[scores.case == c].set_index("metric").estimate
            moves.append((float(np.abs(v - base).sum()), c))
        moves.sort(reverse=True)
        if moves:
            out.append("**Which assumption moves the mechs' scores most** (sum over mechs of |score − "
                       f"'{cases[0]}'|): " + ", ".join(f"'{c}' {m:.2f}" for m, c in moves[:4])
                       + "; least: " + ", ".join(f"'{c}' {m:.2f}" for m, c in moves[-3:]) + ".")
    if compare is not None:
        if not isinstance(compare, pd.DataFrame) or "variant" not in compare.columns:
            raise ParamTypeError("compare", type(compare).__name__, "a comparisons DataFrame")
        combo = compare[compare.variant.astype(str).str.contains("combos off", regex=False)]
        rows = []
        for k in ("leo", "nerva"):
            r = combo[combo.metric == f"score_{k}"]
            if len(r):
                r0 = r.iloc[0]
                sign = ("lower" if r0.ci_high < 0 else "higher" if r0.ci_low > 0 else "not clearly different")
                rows.append(f"{_label(ws, k)} {r0.estimate:+.3f} [{r0.ci_low:+.3f}, {r0.ci_high:+.3f}] ({sign})")
        if rows:
            out.append("**Combos:** league score with the combos switched off minus with them (paired, common "
                       "random numbers): " + "; ".join(rows) + ".")
    return out


def plot_matchups(res: pd.DataFrame, *, part: str | None = None, weapons: WeaponSet | None = None) -> Any:
    """A heat map of P(mech A wins) (rows A, columns B); returns the matplotlib Axes (or None).

    Raises
    ------
    ParamTypeError
        If ``res`` is not a tidy results table.
    """
    res = _check_frame(res)
    ws = weapons or load_weapons()
    parts = _duel_parts(res) if part is None else [part]
    if not parts:
        return None
    import matplotlib.pyplot as plt

    d = res[(res.part == parts[0]) & (res.metric == "a_won") & (res.statistic == "proportion")]
    order = [k for k in ws.keys if k in set(d.mech_a)]
    cols = [k for k in ws.keys if k in set(d.mech_b)]
    grid = d.pivot(index="mech_a", columns="mech_b", values="estimate").reindex(index=order, columns=cols)
    fig, ax = plt.subplots(figsize=(6.5, 5.2))
    im = ax.imshow(grid.to_numpy(float), vmin=0, vmax=1, cmap="RdBu")
    ax.set_xticks(range(len(cols)), cols, rotation=45)
    ax.set_yticks(range(len(order)), order)
    ax.set_xlabel("mech B")
    ax.set_ylabel("mech A")
    for i in range(len(order)):
        for j in range(len(cols)):
            v = grid.iat[i, j]
            if np.isfinite(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(im, ax=ax, label="P(mech A wins)")
    ax.set_title("Matchup matrix (greedy players)")
    fig.tight_layout()
    return ax
