"""The Findings of the Panzer Hexen study (``scenarios/panzer_hexen.toml``), computed from its results.

Every sentence carries its numbers with 95% intervals; the card data is ILLUSTRATIVE (invented
numbers), and the first sentence says so. Used by ``notebooks/panzer_hexen.ipynb``.
"""

from __future__ import annotations

import pandas as pd

from gamesim.core.validate import ParamTypeError

from .rules import ACTION_NAMES

__all__ = ["findings"]

_JA = dict(zip(ACTION_NAMES, ("施策", "休息/整備", "出撃", "訓練", "会議", "通信")))


def _fmt(r: pd.Series, digits: int = 2) -> str:
    return f"{r.estimate:.{digits}f} [{r.ci_low:.{digits}f}, {r.ci_high:.{digits}f}]"


def _rows(res: pd.DataFrame, part: str, metric: str) -> pd.DataFrame:
    return res[(res.part == part) & (res.metric == metric) & res.statistic.isin(["mean", "proportion"])]


def findings(res: pd.DataFrame, compare: pd.DataFrame | None = None, *, illustrative: bool = True) -> list[str]:
    """The Findings as Markdown sentences.

    Parameters
    ----------
    res : DataFrame
        Tidy results of a run of ``scenarios/panzer_hexen.toml`` (parts ``players``, ``witches``,
        ``variants``, ``rollout``; any may be missing).
    compare : DataFrame, optional
        The paired comparisons (``<name>.compare.parquet``).
    illustrative : bool, default True
        Whether the run's card file is ILLUSTRATIVE (the built-in one is): the first sentence then
        says the numbers are about an invented card set. False for a file of the printed cards.

    Returns
    -------
    list of str

    Raises
    ------
    ParamTypeError
        If ``res`` (or ``compare``) is not a DataFrame with the tidy columns, or ``illustrative`` is
        not a bool.
    """
    need = {"part", "metric", "statistic", "estimate", "ci_low", "ci_high"}
    if not isinstance(res, pd.DataFrame) or not need <= set(res.columns):
        raise ParamTypeError("res", type(res).__name__, "a tidy results DataFrame")
    if compare is not None and not isinstance(compare, pd.DataFrame):
        raise ParamTypeError("compare", type(compare).__name__, "a DataFrame or None")
    if not isinstance(illustrative, bool):
        raise ParamTypeError("illustrative", type(illustrative).__name__, "True or False")
    out = ["**ILLUSTRATIVE card data**: the rulebook shows the cards only as pictures, so every witch, ネウロイ and "
           "policy number here is invented; what follows describes the rules' structure on that invented set, not "
           "the printed game."] if illustrative else []
    if "players" in set(res.part):
        g3 = lambda m: _rows(res, "players", m).query("policy == 'greedy' and n_players == 3")  # noqa: E731
        share = {a: g3(f"share_{a}") for a in ACTION_NAMES}
        win = {a: g3(f"winner_share_{a}") for a in ACTION_NAMES}
        if all(len(share[a]) and len(win[a]) for a in ACTION_NAMES):
            used = max(ACTION_NAMES, key=lambda a: share[a].estimate.iloc[0])
            out.append(f"Greedy players (3) use {_JA[used]} most: {_fmt(share[used].iloc[0])} of all actions. "
                       + "; ".join(f"{_JA[a]} {_fmt(share[a].iloc[0])} of all vs {_fmt(win[a].iloc[0])} of the "
                                   "winners'" for a in ACTION_NAMES) + ".")
            over = [a for a in ACTION_NAMES if win[a].ci_low.iloc[0] > share[a].ci_high.iloc[0]]
            under = [a for a in ACTION_NAMES if win[a].ci_high.iloc[0] < share[a].ci_low.iloc[0]]
            if over:
                out.append("Winners use " + ", ".join(_JA[a] for a in over) + " more than players on average "
                           "(intervals apart); less: "
                           + (", ".join(_JA[a] for a in under) or "none") + ".")
        rounds = _rows(res, "players", "rounds")
        if len(rounds):
            for pol, d in rounds.groupby("policy", sort=False):
                out.append(f"Game length ({pol} players), rounds by player count: "
                           + "; ".join(f"{int(r.n_players)}: {_fmt(r, 1)}" for _, r in d.sort_values("n_players")
                                       .iterrows()) + ".")
        src = {k: g3(k) for k in ("vp_neuroi", "vp_equipment", "vp_policy")}
        if all(len(v) for v in src.values()):
            out.append("VP per player (3 greedy players): ネウロイ " + _fmt(src["vp_neuroi"].iloc[0])
                       + ", equipment " + _fmt(src["vp_equipment"].iloc[0]) + ", other policies "
                       + _fmt(src["vp_policy"].iloc[0]) + ".")
    w = _rows(res, "witches", "seat0_score")
    if len(w):
        n = int(w.n_players.iloc[0]) if "n_players" in w else 3
        fair = 1 / n
        hi = w[w.ci_low > fair].sort_values("estimate", ascending=False)
        lo = w[w.ci_high < fair].sort_values("estimate")
        out.append(f"Witch balance (seat 0's win share with that witch, fair share 1/{n} = {fair:.2f}): above fair "
                   + (", ".join(f"{r.seat0_witch} {_fmt(r)}" for _, r in hi.iterrows()) or "none")
                   + "; below fair " + (", ".join(f"{r.seat0_witch} {_fmt(r)}" for _, r in lo.iterrows()) or "none")
                   + f"; {len(w) - len(hi) - len(lo)} witches' intervals contain the fair share.")
    b = _rows(res, "variants", "winner_bonus_share")
    if len(b) and "case" in b:
        d = b[b.case == "declared defaults"]
        if len(d):
            out.append(f"First-actor bonus: the winner takes {_fmt(d.iloc[0])} of a game's bonuses (3 players: an "
                       "even split would be 0.33).")
    if compare is not None and len(compare):
        c = compare[(compare.statistic == "difference") & (compare.variant == "no first-actor bonus")]
        parts = [f"{m} {r.estimate:+.2f} [{r.ci_low:+.2f}, {r.ci_high:+.2f}]" for m in ("rounds", "winner_vp",
                 "vp_policy") for _, r in c[c.metric == m].iterrows()]
        if parts:
            out.append("Without the bonuses (paired differences): " + "; ".join(parts) + ".")
        moved = compare[(compare.statistic == "difference") & (compare.metric == "winner_vp")
                        & ((compare.ci_low > 0) | (compare.ci_high < 0))]
        if len(moved):
            out.append("Changes that move the winner's VP (interval excludes 0): " + "; ".join(
                f"{r.variant} {r.estimate:+.2f} [{r.ci_low:+.2f}, {r.ci_high:+.2f}]" for _, r in moved.iterrows())
                + ".")
    r = _rows(res, "rollout", "seat0_score")
    if len(r):
        out.append(f"A rollout player in seat 0 against two greedy players wins {_fmt(r.iloc[0])} (fair 0.33).")
    return out
