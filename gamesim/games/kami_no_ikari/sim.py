"""Vectorized batch simulator of 神の怒り: whole games, axis 0 = game, in chunks.

:func:`simulate` deals ``n_games`` games chunk by chunk (memory stays flat) and plays them in
lockstep with the kernels of :mod:`.engine` and the players of :mod:`.policies`: every step
each running game's mover draws (step A), chooses a line and a card or the smoking room (B),
and plays it (C); games that end keep their final state. Two random streams, spawned from the
``rng`` given: one for the cards (deal and draws), one for the players' choices, so changing a
player does not change the deal (common random numbers across policies for the first hands).

:mod:`.reference` plays the same rules one game at a time in plain Python and the tests
compare the two in distribution (game length, scores, winning seat).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from gamesim.core.batching import chunk_spans
from gamesim.core.rng import RngLike
from gamesim.core.validate import Bool, Int, ParamTypeError, Rng, Unchecked, validate_params

from .engine import Chooser, deal, play, scores_batch, tables
from .policies import make_policy
from .rules import PARAMS, KamiParams

__all__ = ["CHUNK_SIZE", "MAX_GAMES", "GAME_KEYS", "simulate"]

#: Games simulated at once (a greedy step holds about 25 actions × 5 numbers per game).
CHUNK_SIZE: int = 20_000
#: Most games one call of :func:`simulate` accepts.
MAX_GAMES: int = 10_000_000
#: Per-game outputs of :func:`simulate`.
GAME_KEYS: tuple[str, ...] = ("scores", "top", "winner", "turns", "collapse", "trigger", "trigger_change", "mate",
                              "mate_seat", "road", "smoke", "smoke_forced", "smoke_chosen", "first_seat")


def _resolve_policies(policies: object, n_players: int) -> list[Chooser]:
    if isinstance(policies, str) or callable(getattr(policies, "choose", None)):
        policies = [policies] * n_players
    if not isinstance(policies, Sequence) or len(policies) != n_players:
        raise ParamTypeError("policies", policies, f"a policy name or a sequence of {n_players} (one per seat)")
    out = []
    for spec in policies:
        if callable(getattr(spec, "choose", None)):
            out.append(spec)
        else:
            out.append(make_policy(spec))
    return out


@validate_params(params=PARAMS, n_games=Int(1, MAX_GAMES), chunk_size=Int(1, 1_000_000), rotate=Bool(),
                 policies=Unchecked("one player (a name or a policy object) or one per seat of params: checked "
                                    "in the body"),
                 rng=Rng())
def simulate(params: KamiParams, n_games: int, *, rng: RngLike = None, policies: object = "greedy",
             rotate: bool = False, chunk_size: int = CHUNK_SIZE) -> dict[str, npt.NDArray[np.generic]]:
    """Play ``n_games`` whole games of 神の怒り, vectorized.

    Parameters
    ----------
    params : KamiParams
        The rules (player count, board, readings).
    n_games : int
        Games to play, 1..MAX_GAMES.
    rng : int, SeedSequence, Generator or None
        Randomness; two child streams are spawned from it (cards; players' choices).
    policies : str, policy object, or sequence of them, default "greedy"
        One player for every seat, or one per seat in seat order (seat 0 = the start player):
        ``"random"``, ``"greedy"``, ``"chicken:d"``, ``"rollout:k"`` (see :mod:`.policies`).
    rotate : bool, default False
        Rotate the players round the table: in game ``g`` the ``i``-th player sits at seat
        ``(i + g) % n_players``, so each player starts equally often.
    chunk_size : int, default CHUNK_SIZE
        Games per chunk (memory bound), 1..1,000,000.

    Returns
    -------
    dict of ndarray
        ``scores`` (n, P) int32 hand values; ``top`` (n, P) bool winning seats (several on a
        shared tie); ``winner`` (n,) int8 the winning seat, -1 for a shared tie; ``turns`` (n,)
        moves made; ``collapse`` (n,) bool ended by a tower's 5th card (else the deck ran out);
        ``trigger`` (n,) int8 the seat that placed it (-1); ``trigger_change`` (n,) int16 its own
        hand value change on that move; ``mate``/``mate_seat`` (n,) int8 the 摩天 tower and
        the seat that placed the counter (-1 none); ``road`` (n,) int8 index into
        :data:`.rules.ROAD_PAIRS` (-1 none); ``smoke``, ``smoke_forced``, ``smoke_chosen``
        (n, P) int8 smoking-room cards (all; with no line possible; with a line free);
        ``first_seat`` (n,) int8 the seat of the first player of ``policies``.

    Raises
    ------
    ParamError, ParamTypeError
        For ``params`` not a KamiParams, ``n_games``/``chunk_size`` out of range, ``rotate``
        not a bool, or an unknown policy or a wrong number of them.

    Notes
    -----
    Rulebook: ``#27 神の怒り プロトタイプ``; readings in ``docs/rules/kami_no_ikari.md``.
    """
    p = params
    P = p.n_players
    choosers = _resolve_policies(policies, P)
    deck_rng, pol_rng = rng.spawn(2)  # rng: a Generator (the declaration's Rng)
    t = tables(p)
    out: dict[str, np.ndarray] = {
        "scores": np.zeros((n_games, P), np.int32), "top": np.zeros((n_games, P), bool),
        "winner": np.zeros(n_games, np.int8), "turns": np.zeros(n_games, np.int16),
        "collapse": np.zeros(n_games, bool), "trigger": np.zeros(n_games, np.int8),
        "trigger_change": np.zeros(n_games, np.int16), "mate": np.zeros(n_games, np.int8),
        "mate_seat": np.zeros(n_games, np.int8), "road": np.zeros(n_games, np.int8),
        "smoke": np.zeros((n_games, P), np.int8), "smoke_forced": np.zeros((n_games, P), np.int8),
        "smoke_chosen": np.zeros((n_games, P), np.int8), "first_seat": np.zeros(n_games, np.int8),
    }
    for start, stop in chunk_spans(n_games, chunk_size):
        n = stop - start
        g = np.arange(start, start + n)
        b = deal(n, t, deck_rng)
        shift = (g % P) if rotate else np.zeros(n, np.int64)
        # seat s is played by policy (s - shift) % P
        seat_chooser = (np.arange(P)[None, :] - shift[:, None]) % P
        play(b, t, choosers, seat_chooser, deck_rng, pol_rng)
        sc = scores_batch(b, t)
        best = sc.max(axis=1, keepdims=True)
        top = sc == best
        if t.later_seat:
            last = P - 1 - top[:, ::-1].argmax(axis=1)
            top = np.arange(P)[None, :] == last[:, None]
        winner = np.where(top.sum(axis=1) == 1, top.argmax(axis=1), -1)
        sl = slice(start, start + n)
        out["scores"][sl] = sc
        out["top"][sl] = top
        out["winner"][sl] = winner
        out["turns"][sl] = b.turn
        out["collapse"][sl] = b.trigger >= 0
        out["trigger"][sl] = b.trigger
        out["trigger_change"][sl] = b.trigger_change
        out["mate"][sl] = b.mate
        out["mate_seat"][sl] = b.mate_seat
        out["road"][sl] = b.road
        out["smoke"][sl] = b.smoke
        out["smoke_forced"][sl] = b.smoke_forced
        out["smoke_chosen"][sl] = b.smoke_chosen
        out["first_seat"][sl] = shift
    return out
