"""Plain-Python, one-trial-at-a-time reference of the ガッチャ gacha rules.

The bag is literally a Python list of chips and chips are drawn one at a time
(``rng.integers(len(bag))`` then ``pop``). Overdrive is processed in the
rulebook's depth-first order (「ただちに」: the navi's extra pulls happen before
the remaining God Chances of the session are resolved), which the vectorized
simulator replaces by the equivalent breadth-first order; the tests compare the
two. Slow on purpose: it is the tests' independent formulation and the
benchmark's plain-Python baseline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from gamesim.core.lazy import lazy_module
from gamesim.core.rng import RngLike

from gamesim.core.validate import Int, Optional, Rng, validate_params

from .rules import (
    CONFIG,
    MAX_PLAYERS,
    MAX_PULLS,
    SCHEDULE,
    SESSION_SIZE,
    SESSIONS,
    BagConfig,
    Chip,
    DoubtfulConfig,
    _check_config,
    _check_max_pulls,
    _check_schedule,
)

if TYPE_CHECKING:
    import pandas as pd
else:  # imported on first use: sweep workers never need it
    pd = lazy_module("pandas")

#: Most trials of the (slow, one-trial-at-a-time) reference in one call.
MAX_REFERENCE_TRIALS: int = 1_000_000

__all__ = ["ReferenceGame", "reference_shared", "reference_schedule", "reference_pulls_to_complete"]

_GC, _SR, _N = int(Chip.GOD_CHANCE), int(Chip.SR), int(Chip.N)


class ReferenceGame:
    """One table: a shared bag and each player's collection.

    Parameters
    ----------
    n_players : int
        Players (numbered 1..n_players in :meth:`pull`).
    rng : numpy.random.Generator
    bag : BagConfig
    n_characters : int
    doubtful : DoubtfulConfig or None
    overdrive_pulls : int or None
    """

    def __init__(self, n_players: int, rng: np.random.Generator, bag: BagConfig, n_characters: int,
                 doubtful: DoubtfulConfig | None, overdrive_pulls: int | None):
        self.rng = rng
        self.cfg = bag
        self.n_characters = n_characters
        self.doubtful = doubtful
        self.overdrive_pulls = overdrive_pulls
        self.owned = [set() for _ in range(n_players)]
        self.god_chances = [0] * n_players
        self.pulls = [0] * n_players
        self.sr_drawn = 0
        self.bag: list[int] = []
        self.hidden: list[int] = []
        self.gc_drawn = 0
        self.make_bag()

    def make_bag(self) -> None:
        """ガチャ袋作成: every chip back in the bag, then 疑惑の運営モード removals."""
        c = self.cfg
        self.bag = [_GC] * c.n_god_chance + [_SR] * c.n_sr + [_N] * c.n_n
        self.hidden = []
        self.gc_drawn = 0
        if self.doubtful is not None:
            ks, ps = self.doubtful.k_values, self.doubtful.probabilities
            k = ks[int(self.rng.choice(len(ks), p=ps))]
            for _ in range(k):
                self.hidden.append(self.bag.pop(int(self.rng.integers(len(self.bag)))))

    def pull(self, player: int, m: int) -> None:
        """Player ``player`` (1-based) pulls ``m`` chips, then resolves God Chances."""
        p = player - 1
        got = 0
        for _ in range(m):
            if not self.bag:
                self.make_bag()
            chip = self.bag.pop(int(self.rng.integers(len(self.bag))))
            if chip == _GC:
                got += 1
                self.gc_drawn += 1
            elif chip == _SR:
                self.sr_drawn += 1
        self.pulls[p] += m
        if not self.bag or self.gc_drawn >= self.cfg.n_god_chance:
            self.make_bag()
        for _ in range(got):
            self.god_chances[p] += 1
            card = int(self.rng.integers(self.n_characters))
            self.owned[p].add(card)
            if self.overdrive_pulls is not None and card == 0:
                self.pull(player, self.overdrive_pulls)  # Overdrive: immediately, depth-first


#: Trials of the scalar reference.
N_REFERENCE_TRIALS = Int(0, MAX_REFERENCE_TRIALS)


@validate_params(schedule=SCHEDULE, n_players=Optional(Int(1, MAX_PLAYERS)), n_trials=N_REFERENCE_TRIALS, **CONFIG,
                 rng=Rng())
def reference_shared(
    schedule: Sequence[tuple[int, int]],
    n_trials: int,
    *,
    n_players: int | None = None,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> pd.DataFrame:
    """Scalar reference of :func:`gamesim.games.gacha.sim.simulate_shared`.

    Parameters
    ----------
    schedule, n_trials, n_players, rng, bag, n_characters, doubtful, overdrive_pulls
        As in :func:`~gamesim.games.gacha.sim.simulate_shared`.

    Returns
    -------
    pandas.DataFrame
        Columns ``god_chances_p{i}``, ``complete_p{i}``, ``characters_owned_p{i}``,
        ``pulls_p{i}`` and ``sr_drawn`` (all players).

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`~gamesim.games.gacha.sim.simulate_shared`; ``n_trials`` at most
        :data:`MAX_REFERENCE_TRIALS`.

    Notes
    -----
    Everyone pulls the whole schedule (no stop at the first completion).
    """
    sched, n_players = _check_schedule(schedule, n_players)
    _check_config(bag, n_characters, doubtful, overdrive_pulls)
    gen = rng
    rows = []
    for _ in range(n_trials):
        g = ReferenceGame(n_players, gen, bag, n_characters, doubtful, overdrive_pulls)
        for p, m in sched:
            g.pull(p, m)
        row: dict[str, int | bool] = {}
        for i in range(n_players):
            row[f"god_chances_p{i + 1}"] = g.god_chances[i]
            row[f"complete_p{i + 1}"] = len(g.owned[i]) == n_characters
            row[f"characters_owned_p{i + 1}"] = len(g.owned[i])
            row[f"pulls_p{i + 1}"] = g.pulls[i]
        row["sr_drawn"] = g.sr_drawn
        rows.append(row)
    cols = [f"{c}_p{i + 1}" for i in range(n_players)
            for c in ("god_chances", "complete", "characters_owned", "pulls")] + ["sr_drawn"]
    return pd.DataFrame(rows, columns=cols)


_reference_shared = reference_shared.__wrapped__


@validate_params(sessions=SESSIONS, n_trials=N_REFERENCE_TRIALS, **CONFIG, rng=Rng())
def reference_schedule(
    sessions: Sequence[int],
    n_trials: int,
    *,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> pd.DataFrame:
    """Scalar reference of :func:`gamesim.games.gacha.sim.simulate_schedule`.

    Returns
    -------
    pandas.DataFrame
        Columns ``god_chances``, ``complete``, ``characters_owned``, ``sr_drawn``, ``pulls``.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`reference_shared`.
    """
    df = _reference_shared([(1, m) for m in sessions], n_trials, n_players=1, rng=rng, bag=bag,
                          n_characters=n_characters, doubtful=doubtful, overdrive_pulls=overdrive_pulls)
    return pd.DataFrame({
        "god_chances": df["god_chances_p1"], "complete": df["complete_p1"],
        "characters_owned": df["characters_owned_p1"], "sr_drawn": df["sr_drawn"],
        "pulls": df["pulls_p1"],
    })


@validate_params(session_size=SESSION_SIZE, n_trials=N_REFERENCE_TRIALS,
                 max_pulls=MAX_PULLS, **CONFIG, rng=Rng())
def reference_pulls_to_complete(
    session_size: int,
    n_trials: int,
    *,
    max_pulls: int = 2000,
    rng: RngLike = None,
    bag: BagConfig = BagConfig(),
    n_characters: int = 5,
    doubtful: DoubtfulConfig | None = None,
    overdrive_pulls: int | None = None,
) -> pd.DataFrame:
    """Scalar reference of :func:`gamesim.games.gacha.sim.simulate_pulls_to_complete`.

    Returns
    -------
    pandas.DataFrame
        ``pulls_to_complete`` (float, NaN if censored) and ``god_chances``.

    Raises
    ------
    ParamTypeError, ParamError
        As :func:`~gamesim.games.gacha.sim.simulate_pulls_to_complete`; ``n_trials`` at
        most :data:`MAX_REFERENCE_TRIALS`.
    """
    _check_max_pulls(max_pulls, session_size)
    _check_config(bag, n_characters, doubtful, overdrive_pulls)
    gen = rng
    n_sessions = max_pulls // session_size if bag.n_god_chance > 0 else 0
    ptc, gcs = [], []
    for _ in range(n_trials):
        g = ReferenceGame(1, gen, bag, n_characters, doubtful, overdrive_pulls)
        res = float("nan")
        for j in range(1, n_sessions + 1):
            g.pull(1, session_size)
            if len(g.owned[0]) == n_characters:
                res = float(j * session_size)
                break
        ptc.append(res)
        gcs.append(g.god_chances[0])
    return pd.DataFrame({"pulls_to_complete": np.array(ptc), "god_chances": np.array(gcs, dtype=np.int64)})
