"""The result of a target search and its presentation: the settings table, the summary, the plot, the recommendation.

:class:`SearchResult` is what :func:`gamesim.analysis.search.search` returns (its ``summary``,
``table`` and ``plot`` present it); :func:`_recommend` picks the recommended setting and the
frontier from the settings table (by ``prefer``). The HTML/PDF search report is in the report
layer (:mod:`gamesim.report.search_report`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from gamesim.analysis.search.decisions import STATUSES
from gamesim.analysis.target import Target
from gamesim.core.tablecheck import is_number_value as _is_num
from gamesim.run.scenario import Scenario

__all__ = ["SearchResult"]


@dataclass
class SearchResult:
    """What :func:`search` returns.

    Attributes
    ----------
    settings : pandas.DataFrame
        One row per setting of the box: the searched parameters, ``status``
        (one of :data:`STATUSES`), ``basis`` (``exact``, ``sampled``,
        ``inferred`` from a monotone bisection, or ``-`` when not evaluated),
        ``n`` (trials simulated at the setting's last look; 0 for an exact setting and for an inferred one,
        except an inferred feasible setting under ``prefer = "closest"``, sampled at the first look for
        the estimate that ranks it),
        and per constraint ``<label>: estimate / ci_low / ci_high / exact /
        decision``. Intervals are at the decision level ``1 - alpha_interval``.
    recommended : dict or None
        The recommended setting's row (see ``prefer``), or ``None``.
    frontier : pandas.DataFrame
        With ``prefer`` smallest/largest: the Pareto-minimal (maximal) feasible
        settings; otherwise every feasible setting.
    target : Target
    scenario : Scenario
    method : str
        ``"bisect"``, ``"grid"`` (staged) or ``"exact"`` (every setting solved exactly).
    trials_used : int
        Trials simulated, over all settings (each setting's data is reused by
        later looks, so this is the sum of per-setting trials).
    alpha_interval : float
        One minus the confidence level of each interval.
    seed_entropy : int
        Root entropy; pass ``seed=`` to reproduce.
    notes : list of str
        Warnings of the search (e.g. a declared monotonicity the decided settings contradict).
    chunks_reused : int
        Chunks read back from the search's saved chunks (``cache_root``: an interrupted search resumed)
        instead of simulated.
    """

    settings: pd.DataFrame
    recommended: dict[str, Any] | None
    frontier: pd.DataFrame
    target: Target
    scenario: Scenario
    method: str
    trials_used: int
    alpha_interval: float
    seed_entropy: int
    notes: list[str] = field(default_factory=list)
    chunks_reused: int = 0

    @property
    def param_names(self) -> list[str]:
        """The searched parameters, in order."""
        return [p.name for p in self.target.params]

    def counts(self) -> dict[str, int]:
        """Settings per status."""
        return {s: int((self.settings["status"] == s).sum()) for s in STATUSES}

    def out_of_reach(self) -> list[tuple[Any, str, dict[str, Any]]]:
        """The constraints that no simulated or solved setting comes near: their value is on one side of the band
        at every such setting.

        Returns
        -------
        list of (constraint, str, dict)
            Per such constraint: the constraint, ``"below"`` or ``"above"`` (where every value lies against its
            band) and the setting's row whose value is closest to the band (its estimate, or its exact value
            where the game has one). Empty where the search found a feasible setting, or where each
            constraint's values reach its band somewhere (the settings then fail by the other constraints
            or by their intervals).
        """
        if self.recommended is not None:
            return []
        out: list[tuple[Any, str, dict[str, Any]]] = []
        measured = self.settings[self.settings["basis"].isin(["sampled", "exact"])]
        for c in self.target.constraints:
            lab = c.label
            value = measured[f"{lab}: exact"].where(measured[f"{lab}: exact"].notna(), measured[f"{lab}: estimate"])
            rows, value = measured[value.notna()], value[value.notna()]
            if rows.empty:
                continue
            if (value < c.low).all():
                out.append((c, "below", rows.loc[value.idxmax()].to_dict()))
            elif (value > c.high).all():
                out.append((c, "above", rows.loc[value.idxmin()].to_dict()))
        return out

    def summary(self) -> str:
        """A few lines of plain text: the decision rule, the counts and the recommendation."""
        t = self.target
        lines = [
            f"Target: {' and '.join(c.label for c in t.constraints)}  over "
            + ", ".join(f"{p.name} in [{p.values[0]} .. {p.values[-1]}] ({len(p.values)} values)" for p in t.params),
            f"Method: {self.method}; looks at {t.looks()} trials; each interval at "
            f"{100 * (1 - self.alpha_interval):.4g}% (alpha = {t.alpha:g} "
            + ("over the whole box, Bonferroni over settings x looks x constraints"
               if t.familywise else "per setting, Bonferroni over looks x constraints")
            + (f" x {math.ceil(math.log2(len(self.settings) + 1))} bisection levels" if self.method == "bisect" else "")
            + f"); trials used: {self.trials_used}",
            "Settings: " + ", ".join(f"{k} {v}" for k, v in self.counts().items()),
        ]

        def setting(r: dict[str, Any]) -> str:
            return ", ".join(f"{k} = {r[k]}" for k in self.param_names)

        if self.recommended is None:
            reach = self.out_of_reach()
            lines.append("No setting shown feasible at this budget." if not reach else "No setting is feasible:")
            for c, side, r in reach:
                lines.append(f"  {c.label}: {c.metric} is {side} the band at every setting simulated; closest "
                             f"{self.table_value(r, c)} at {setting(r)}  [{r['basis']}, n = {r['n']}]")
        else:
            r = self.recommended
            lines.append(f"Recommended ({t.prefer}): {setting(r)}  [{r['status']}, {r['basis']}, n = {r['n']}]")
            for c in t.constraints:
                lab = c.label
                e, lo, hi = r[f"{lab}: estimate"], r[f"{lab}: ci_low"], r[f"{lab}: ci_high"]
                lines.append(f"  {lab}: {e:.4g} [{lo:.4g}, {hi:.4g}]" + (
                    "" if math.isnan(r[f"{lab}: exact"]) else f" (exact {r[f'{lab}: exact']:.6g})"))
        lines.extend(self.notes)
        return "\n".join(lines)

    @staticmethod
    def table_value(row: Any, constraint: Any, *, digits: int = 4) -> str:
        """A constraint's value at one setting (a row of ``settings``): ``"0.027 [0.01547, 0.04672]"``,
        ``"0.5 (exact)"`` where the game's exact solver gave it, ``""`` where the setting has none."""
        lab = constraint.label
        e, ex = row[f"{lab}: estimate"], row.get(f"{lab}: exact", math.nan)
        if isinstance(ex, float) and not math.isnan(ex):  # the game's exact solver, not a sample
            return f"{ex:.{digits}g} (exact)"
        if isinstance(e, float) and math.isnan(e):
            return ""
        # a sampled interval may collapse to one value (a quantile among ties): it is still shown
        return f"{e:.{digits}g} [{row[f'{lab}: ci_low']:.{digits}g}, {row[f'{lab}: ci_high']:.{digits}g}]"

    def table(self, *, status: str | None = None, digits: int = 4) -> pd.DataFrame:
        """The settings with ``estimate [ci_low, ci_high]`` text per constraint.

        Parameters
        ----------
        status : str, optional
            Keep only settings with this status.
        digits : int, default 4
            Significant digits shown.
        """
        df = self.settings if status is None else self.settings[self.settings["status"] == status]
        out = df[self.param_names + ["status", "basis", "n"]].copy()
        for c in self.target.constraints:
            out[c.label] = df.apply(lambda row, c=c: self.table_value(row, c, digits=digits), axis=1) if len(df) else []
        return out.reset_index(drop=True)

    def plot(self, ax: Any = None) -> Any:
        """The feasible region: 1-D metric vs parameter with the target band; 2-D a status map.

        Returns
        -------
        matplotlib.figure.Figure
        """
        import matplotlib.pyplot as plt

        colors = {"feasible": "tab:green", "infeasible": "tab:red", "undecided": "tab:orange",
                  "not evaluated": "lightgrey"}
        names = self.param_names
        df = self.settings
        if len(names) == 1 and all(_is_num(v) for v in df[names[0]]):
            cons = self.target.constraints
            fig, axes = plt.subplots(len(cons), 1, figsize=(7, 3.2 * len(cons)), squeeze=False)
            for c, ax_ in zip(cons, axes[:, 0]):
                lab = c.label
                for st, col in colors.items():
                    d = df[(df["status"] == st) & df[f"{lab}: estimate"].notna()]
                    if d.empty:
                        continue
                    err = np.vstack([d[f"{lab}: estimate"] - d[f"{lab}: ci_low"],
                                     d[f"{lab}: ci_high"] - d[f"{lab}: estimate"]])
                    ax_.errorbar(d[names[0]], d[f"{lab}: estimate"], yerr=np.abs(err), fmt="o", color=col,
                                 ms=4, capsize=2, label=st)
                ok = df[f"{lab}: estimate"].notna()
                if ok.any():
                    ys = pd.concat([df.loc[ok, f"{lab}: ci_low"], df.loc[ok, f"{lab}: ci_high"]])
                    ys = ys[np.isfinite(ys)]
                    finite = [b for b in (c.low, c.high) if math.isfinite(b)]
                    vals = list(ys) + finite
                    pad = 0.05 * (max(vals) - min(vals) or 1)
                    ax_.set_ylim(min(vals) - pad, max(vals) + pad)
                # the band within the axes: a one-sided band's infinite end stops at the axes' edge (an
                # axhspan to +-1e300 overflowed the drawing and shaded the whole axes)
                y0, y1 = ax_.get_ylim()
                lo, hi = max(c.low, y0), min(c.high, y1)
                if lo < hi:
                    ax_.axhspan(lo, hi, color="tab:green", alpha=0.12, label="target band", zorder=0)
                ax_.set_ylim(y0, y1)
                import matplotlib.transforms as mtransforms

                rug = mtransforms.blended_transform_factory(ax_.transData, ax_.transAxes)
                for st, col in colors.items():
                    d = df[df["status"] == st]
                    ax_.scatter(d[names[0]], np.full(len(d), 0.02), marker="|", color=col, transform=rug, s=60)
                xv = [float(v) for v in self.target.params[0].values]  # the whole box, not only sampled points
                xpad = 0.02 * (max(xv) - min(xv) or 1)
                ax_.set_xlim(min(xv) - xpad, max(xv) + xpad)
                if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                       for v in self.target.params[0].values):
                    from matplotlib.ticker import MaxNLocator

                    ax_.xaxis.set_major_locator(MaxNLocator(integer=True))  # 2, 3, 4 players: no 2.25
                ax_.set_xlabel(names[0] + "  (ticks at the bottom: every setting's status, inferred ones included)")
                ax_.set_ylabel(f"{c.metric} ({c.statistic})")
                ax_.set_title(lab)
                ax_.legend(fontsize=7)
            fig.tight_layout()
            return fig
        # 2-D (or more: the first two parameters, the worst status over the rest)
        x, y = names[0], names[-1] if len(names) > 1 else names[0]
        xs, ys = list(self.target.params[0].values), list(self.target.params[-1].values)
        rank = {s: i for i, s in enumerate(("feasible", "undecided", "not evaluated", "infeasible"))}
        grid = np.full((len(ys), len(xs)), -1)
        for _, row in df.iterrows():
            i, j = ys.index(row[y]), xs.index(row[x])
            grid[i, j] = max(grid[i, j], rank[row["status"]])
        from matplotlib.colors import ListedColormap

        cmap = ListedColormap([colors["feasible"], colors["undecided"], colors["not evaluated"], colors["infeasible"]])
        fig, ax_ = plt.subplots(figsize=(1.0 + 0.45 * len(xs), 1.0 + 0.4 * len(ys)))
        ax_.imshow(grid, origin="lower", cmap=cmap, vmin=0, vmax=3, aspect="auto")
        ax_.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=90 if len(xs) > 12 else 0)
        ax_.set_yticks(range(len(ys)), [str(v) for v in ys])
        ax_.set_xlabel(x)
        ax_.set_ylabel(y)
        if self.recommended is not None:
            ax_.plot(xs.index(self.recommended[x]), ys.index(self.recommended[y]), "k*", ms=12, label="recommended")
        from matplotlib.patches import Patch

        ax_.legend(handles=[Patch(color=colors[s], label=s) for s in ("feasible", "undecided", "not evaluated",
                                                                        "infeasible")],
                   fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        ax_.set_title(" and ".join(c.label for c in self.target.constraints), fontsize=9)
        fig.tight_layout()
        return fig


def _recommend(df: pd.DataFrame, tgt: Target) -> tuple[dict[str, Any] | None, pd.DataFrame]:
    names = [p.name for p in tgt.params]
    feas = df[df["status"] == "feasible"]
    if feas.empty:
        return None, feas
    pos = np.array([[tgt.params[d].values.index(v) for d, v in enumerate(row)] for row in feas[names].itertuples(
        index=False)])
    if tgt.prefer in ("smallest", "largest"):
        sign = 1 if tgt.prefer == "smallest" else -1
        p = sign * pos
        keep = [i for i in range(len(p)) if not any((p[j] <= p[i]).all() and (p[j] < p[i]).any()
                                                     for j in range(len(p)))]
        frontier = feas.iloc[keep]
        best = min(keep, key=lambda i: (p[i].sum(), tuple(p[i])))
        return feas.iloc[best].to_dict(), frontier.reset_index(drop=True)
    score = np.zeros(len(feas))
    # Two-sided bands have a centre to aim for; one-sided constraints only need to be met (aiming at
    # their bound would recommend the least safe setting), unless no constraint is two-sided.
    two_sided = [c for c in tgt.constraints if math.isfinite(c.low) and math.isfinite(c.high)]
    for c in two_sided or tgt.constraints:
        width = (c.high - c.low) if math.isfinite(c.high - c.low) and c.high > c.low else 1.0
        score += np.abs(feas[f"{c.label}: estimate"].to_numpy(dtype=float) - c.centre) / width
    best = int(np.nanargmin(score)) if np.isfinite(score).any() else 0
    return feas.iloc[best].to_dict(), feas.reset_index(drop=True)
