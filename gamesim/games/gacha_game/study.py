"""Which action card and which boss card are strongest: win-share difference when held.

For every card, games are compared **within the game** (a paired comparison: same deal,
same dice, same bag): the win share of the slayers who held the card against the win share
of the slayers who did not, in the same game.

- A boss card is *held* by the slayer who owns it at the end of the game (captured and not
  lost: boss cards are never lost). Per game where it was captured: the holder's win share
  minus the mean win share of the other slayers.
- An action card is *held* by a slayer who played it face up at least once (cards are
  reshuffled and redealt every round, and hands are passed, so "dealt" would count nearly
  everyone). Per game where some slayers played it and some did not: the mean win share of
  those who played it minus the mean win share of those who did not.

The estimate is the mean of the per-game differences over the games where the comparison
exists, with ``n`` and a Student-t 95% interval (:func:`gamesim.core.stats.mean_estimate`).
This measures association, not cause: a slayer who captures a boss also gained its capture
pulls, and a card played by a policy is played because it looked good then. The removal
comparisons of the built-in study (``remove_action``, ``remove_boss``) answer the causal
question "how does the game change without the card".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gamesim.core.stats import mean_estimate

from .sim import GameConfig, simulate_games

__all__ = ["held_effects"]


def held_effects(cfg: GameConfig, n_games: int, *, rng: Any = None) -> list[dict[str, Any]]:
    """Win-share difference when a card is held, for every action card and boss card.

    Parameters
    ----------
    cfg : GameConfig
        From :func:`.sim.make_config`.
    n_games : int
        Games to simulate, 1..:data:`.sim.MAX_GAMES`.
    rng : int, SeedSequence, Generator or None, keyword-only
        Randomness, normalized by ``np.random.default_rng``.

    Returns
    -------
    list of dict
        One row per card, strongest first: ``kind`` ("action" or "boss"), ``card`` (name),
        ``n`` (games with a within-game comparison), ``held_share`` (fraction of all games
        where the comparison exists), ``diff`` (mean per-game win-share difference, holders
        minus the others), ``se``, ``ci_low``, ``ci_high`` (95% Student-t). Cards with no
        comparison in any game get ``n = 0`` and NaN values.

    Raises
    ------
    ParamError, ParamTypeError
        If ``n_games`` is not an integer in range.
    """
    r = simulate_games(cfg, n_games, rng=rng, held=True)
    win = r["win"]
    n, P = win.shape
    rows: list[dict[str, Any]] = []

    def row(kind: str, name: str, d: np.ndarray) -> dict[str, Any]:
        out: dict[str, Any] = dict(kind=kind, card=name, n=int(d.size), held_share=d.size / n)
        if d.size:
            e = mean_estimate(d, bounds=(-1.0, 1.0))
            out.update(diff=e.estimate, se=e.se, ci_low=e.ci_low, ci_high=e.ci_high)
        else:
            out.update(diff=np.nan, se=np.nan, ci_low=np.nan, ci_high=np.nan)
        return out

    owner = r["boss_owner"]
    for b, name in enumerate(cfg.data.boss_names):
        g = np.flatnonzero(owner[:, b] >= 0)
        wh = win[g, owner[g, b]]
        rows.append(row("boss", name, wh - (win[g].sum(axis=1) - wh) / (P - 1)))
    played = r["played"]
    for a, name in enumerate(dict.fromkeys(cfg.data.action_names)):
        ids = [i for i, x in enumerate(cfg.data.action_names) if x == name]  # copies share a name
        held = played[:, :, ids].any(axis=2)  # (n, P)
        k = held.sum(axis=1)
        g = np.flatnonzero((k > 0) & (k < P))
        h, w = held[g], win[g]
        d = (w * h).sum(axis=1) / k[g] - (w * ~h).sum(axis=1) / (P - k[g])
        rows.append(row("action", name, d))
    rows.sort(key=lambda x: (x["kind"], -x["diff"] if x["n"] else np.inf))
    return rows
