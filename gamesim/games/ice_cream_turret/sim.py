"""Vectorized batch simulator of Ice Cream Turret (axis 0 = game): whole games under a policy.

:func:`run_games` plays games in chunks of :data:`CHUNK_SIZE`, one card per step in lockstep,
with the kernels of :mod:`.kernels` (boards, deck counts, clearing waves; described there) and
a policy of :mod:`.policies`. The kernels' public names are importable from here too.

:mod:`.reference` replays the same rules one game at a time in plain Python and the tests
compare the two (cell for cell on random boards, and in distribution on whole games).

Random streams (:func:`run_games`, :class:`gamesim.core.rng.KeyedStreams`): the card drawn
at placement ``s`` comes from its own stream keyed ``(draw, s)``, one uniform per game of
the chunk (game ``i`` reads number ``i`` whether or not the others still play), and the
policy's choices (tie-breaks, rollouts) at placement ``s`` from another, keyed
``(policy, s)``. A rule change that ends some games sooner, or a policy that draws more
numbers, then leaves every other game's cards on the same numbers, so variants compared
with common random numbers stay paired card by card.

Entry point shared by every game: :func:`simulate` ``(params, n_games, *, rng=None)`` takes an
:class:`~gamesim.games.ice_cream_turret.rules.IceCreamParams` and returns :func:`run_games`'s
arrays (policy ``"greedy"`` unless given); :func:`run_games` keeps its signature.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gamesim.core.batching import chunk_spans
from gamesim.core.rng import KeyedStreams, RngLike
from gamesim.core.validate import Int, ParamTypeError, Rng, Unchecked, validate_params

from .kernels import (
    BOARD_BATCH,
    CHUNK_SIZE,
    GAME_KEYS,
    MAX_GAMES,
    STATUS,
    GameBatch,
    IntArray,
    Tables,
    _advance,
    _new_games,
    advance,
    deck_out,
    draw,
    heights,
    new_games,
    place_batch,
    resolve_batch,
    rowsum,
    tables,
)
from .policies import make_policy
from .rules import CRUSH, PARAMS, IceCreamParams

__all__ = [
    "CHUNK_SIZE", "MAX_GAMES", "STATUS", "GameBatch", "Tables", "tables", "resolve_batch", "advance",
    "new_games", "run_games", "simulate", "GAME_KEYS", "rowsum", "heights", "draw", "place_batch", "deck_out",
    "IntArray", "BOARD_BATCH",
]


#: Sources of randomness of :func:`run_games`: the first element of a stream key.
_DRAW, _POLICY = 0, 1

#: Declared constraints of the entry points.
GAMES = Int(1, MAX_GAMES)
CHUNK = Int(1, 1_000_000)
POLICY = Unchecked("a name, parsed by make_policy (errors name 'policy'), or an object with choose: "
                   "checked in the body")


@validate_params(p=PARAMS, policy=POLICY, n_games=GAMES, rng=Rng(), chunk_size=CHUNK)
def run_games(p: IceCreamParams, policy: Any, n_games: int, *, rng: RngLike = None,
              chunk_size: int = CHUNK_SIZE) -> dict[str, np.ndarray]:
    """Play ``n_games`` whole games with one policy, vectorized.

    Parameters
    ----------
    p : IceCreamParams
        The rules (mode, deck composition, readings).
    policy : str or policy object
        ``"random"``, ``"greedy"``, ``"lookahead"``, ``"rollout[:k[:horizon]]"`` or an object
        with ``choose(g, p, rng) -> cols`` (see :mod:`.policies`).
    n_games : int
        Games to play, 1..MAX_GAMES.
    rng : int, SeedSequence, Generator or None
        Randomness (deck order, random choices, rollouts).
    chunk_size : int, default CHUNK_SIZE
        Games per chunk (memory bound), 1..1,000,000.

    Returns
    -------
    dict of ndarray, each shape (n_games,)
        ``status`` (int8 :data:`STATUS` code), ``won``/``game_over``/``capped`` (bool),
        ``cycle`` (deck cycle reached; 6+ = played on after the 5th deck), ``placed``
        (cards placed), ``score`` (score-attack points), ``max_chain`` (longest chain, waves),
        ``chain_waves`` (waves after the first, summed over the game), ``clears``
        (placements that cleared), ``cleared`` (cards cleared), ``crush_left`` (crush ice
        on the final board).

    Raises
    ------
    ParamError, ParamTypeError
        For ``p`` not an IceCreamParams, ``n_games`` or ``chunk_size`` out of range or not
        integers, a bad ``rng`` or an unknown policy.
    """
    pol = make_policy(policy) if isinstance(policy, str) else policy
    if not callable(getattr(pol, "choose", None)):
        raise ParamTypeError("policy", policy, "a policy name (random, greedy, lookahead, rollout[:k[:horizon]]) "
                             "or a policy object with a choose method")
    gen = rng
    t = tables(p)
    out = {
        "status": np.zeros(n_games, np.int8), "cycle": np.zeros(n_games, np.int16),
        "placed": np.zeros(n_games, np.int32), "score": np.zeros(n_games, np.int32),
        "max_chain": np.zeros(n_games, np.int16), "chain_waves": np.zeros(n_games, np.int32),
        "clears": np.zeros(n_games, np.int32), "cleared": np.zeros(n_games, np.int32),
        "crush_left": np.zeros(n_games, np.int16),
    }
    for start, stop in chunk_spans(n_games, chunk_size):
        n = stop - start
        streams = KeyedStreams(gen)
        g = _new_games(p, n, rng=streams(_DRAW, 0), t=t)
        g.gid += start
        reuse = hasattr(pol, "choose_resolved")
        step = 0
        while g.size:
            step += 1
            pgen = streams(_POLICY, step)
            u = streams(_DRAW, step).random(int(g.gid[-1]) - start + 1)[g.gid - start]  # one per game, by game
            if reuse:
                cols, resolved = pol.choose_resolved(g, p, pgen)
                _advance(g, cols, p, pgen, t=t, resolved=resolved, u=u)
            else:
                _advance(g, pol.choose(g, p, pgen), p, pgen, t=t, u=u)
            done = g.status != 0
            if done.any():
                d = g.take(np.flatnonzero(done))
                for k in ("status", "cycle", "placed", "score", "max_chain", "chain_waves", "clears", "cleared"):
                    out[k][d.gid] = getattr(d, k)
                out["crush_left"][d.gid] = (d.board == CRUSH).sum(axis=1)
                g = g.take(np.flatnonzero(~done))
    out["won"] = out["status"] == 1
    out["game_over"] = out["status"] == 2
    out["capped"] = out["status"] == 3
    return out


#: Unchecked body of :func:`run_games` (:func:`simulate`).
_run_games = run_games.__wrapped__


@validate_params(params=PARAMS, n_games=GAMES, rng=Rng(), policy=POLICY, chunk_size=CHUNK)
def simulate(params: IceCreamParams, n_games: int, *, rng: RngLike = None, policy: Any = "greedy",
             chunk_size: int = CHUNK_SIZE) -> dict[str, np.ndarray]:
    """Play ``n_games`` whole games under ``params``: every game's common entry point.

    Delegates to :func:`run_games` (the same random streams: identical arrays for the same
    ``rng``).

    Parameters
    ----------
    params : IceCreamParams
        The rules (mode, deck composition, readings).
    n_games : int
        Games to play, 1..MAX_GAMES.
    rng : int, SeedSequence, Generator or None, keyword-only, default None
        Randomness (deck order, random choices, rollouts).
    policy : str or policy object, keyword-only, default "greedy"
        As :func:`run_games` (the ``game`` task's default player).
    chunk_size : int, keyword-only, default CHUNK_SIZE
        Games per chunk (memory bound), 1..1,000,000.

    Returns
    -------
    dict of ndarray, each shape (n_games,)
        As :func:`run_games`.

    Raises
    ------
    ParamError, ParamTypeError
        As :func:`run_games` (``params`` not an IceCreamParams included).
    """
    return _run_games(params, policy, n_games, rng=rng, chunk_size=chunk_size)
