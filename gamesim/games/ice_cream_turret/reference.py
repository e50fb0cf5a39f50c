"""Plain-Python scalar reference of Ice Cream Turret: one game at a time, with the rules core.

Independent of the vectorized kernels of :mod:`.sim`: it replays games with the pure
functions of :mod:`.rules` (tuples, lists, ``sorted``), so the tests can compare the two
implementations (cell for cell on boards, and in distribution on whole games).

The deck is a list of counts per value; the next card is drawn uniformly from the cards
left (the same model as the simulator: a well-shuffled deck). ``uniform`` is any
zero-argument function returning floats in [0, 1): ``numpy.random.Generator.random`` in
:func:`reference_simulate`, ``random.Random().random`` in the benchmark baseline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from gamesim.core.rng import RngLike
from gamesim.core.validate import Choice, Instance, Int, ParamTypeError, Rng, Unchecked, validate_params

from .rules import (  # the unchecked bodies: the inner loop of the plain-Python baseline
    BOARD,
    COLS,
    CRUSH,
    EMPTY,
    N_VALUES,
    PARAMS,
    ROWS,
    Board,
    IceCreamParams,
    _column_height as column_height,
    _has_crush as has_crush,
    _initial_deck as initial_deck,
    _is_game_over as is_game_over,
    _legal_columns as legal_columns,
    _place as place,
    _rebuild_deck as rebuild_deck,
    _resolve as resolve,
)

__all__ = ["REFERENCE_POLICIES", "greedy_keys", "lookahead_values", "reference_game", "reference_simulate",
           "draw_card", "advance_state", "State"]

#: Policies the reference implements (rollouts are vectorized only).
REFERENCE_POLICIES: tuple[str, ...] = ("random", "greedy", "lookahead")
_OVER = -1e6
_WIN = 1e6

Uniform = Callable[[], float]


class State:
    """One game's state (plain Python): board tuple, deck and discard count lists, counters."""

    __slots__ = ("board", "deck", "disc", "card", "cycle", "placed", "score", "max_chain", "chain_waves",
                 "clears", "cleared", "status")

    def __init__(self, p: IceCreamParams):
        self.board: Board = (EMPTY,) * (ROWS * COLS)
        self.deck: list[int] = list(initial_deck(p))
        self.disc: list[int] = [0] * N_VALUES
        self.card = 0
        self.cycle = 1
        self.placed = self.score = self.max_chain = self.chain_waves = self.clears = self.cleared = 0
        self.status = 0

    def clone(self) -> State:
        s = State.__new__(State)
        for k in self.__slots__:
            v = getattr(self, k)
            setattr(s, k, list(v) if isinstance(v, list) else v)
        return s


def draw_card(deck: list[int], u: float) -> int:
    """Remove and return the card at position ``floor(u * total)`` of the counts ``deck`` (values in order)."""
    r = int(u * sum(deck))
    for v, c in enumerate(deck):
        if r < c:
            deck[v] -= 1
            return v
        r -= c
    raise ValueError("empty deck")


def advance_state(s: State, col: int, p: IceCreamParams, uniform: Uniform | None) -> Any:
    """Place the card in hand into ``col`` and apply the rules (as :func:`.sim.advance`); draw if ``uniform``."""
    b, row = place(s.board, col, s.card)
    res = resolve(b, p, pos=row * COLS + col)
    s.board = res.board
    for v in range(N_VALUES):
        s.disc[v] += res.removed[v]
    s.score += res.score
    s.clears += res.waves > 0
    s.chain_waves += max(res.waves - 1, 0)
    s.max_chain = max(s.max_chain, res.waves)
    s.cleared += res.n_removed
    s.placed += 1
    if is_game_over(res):
        s.status = 2
        return res
    crush = has_crush(s.board)
    if p.mode == "normal" and p.extra_win == "immediate" and s.cycle > p.n_cycles and not crush:
        s.status = 1
        return res
    if p.deck_out == "empty_draw":
        _deck_out(s, p)
        if s.status:
            return res
    if s.placed >= p.max_placements:
        s.status = 3
        return res
    if uniform is not None:
        s.card = draw_card(s.deck, uniform())
        if p.deck_out == "last_card":
            _deck_out(s, p)
    return res


def _deck_out(s: State, p: IceCreamParams) -> None:
    """If the deck is empty: the win check of the last cycle, else the next deck (as :func:`.sim.deck_out`)."""
    if sum(s.deck):
        return
    if p.mode == "normal" and s.cycle >= p.n_cycles and not has_crush(s.board):
        s.status = 1
        return
    s.deck = list(rebuild_deck(p, s.disc, s.cycle + 1))
    s.disc = [0] * N_VALUES
    s.cycle += 1
    if sum(s.deck) == 0:
        s.status = 4


@validate_params(board=BOARD, card=Int(1, CRUSH), p=PARAMS)
def greedy_keys(board: Board, card: int, p: IceCreamParams) -> list[float]:
    """Greedy value of each column (as :func:`.policies.greedy_keys_batch`), ``-inf`` for a full column.

    Raises
    ------
    ParamTypeError, ParamError
        If ``board`` is not 15 integer cells in 0..10, ``card`` not an integer 1..10 or
        ``p`` not an IceCreamParams.
    """
    keys = []
    for c in range(COLS):
        if column_height(board, c) >= ROWS:
            keys.append(-np.inf)
            continue
        b, row = place(board, c, card)
        res = resolve(b, p, pos=row * COLS + c)
        if is_game_over(res):
            keys.append(_OVER)
            continue
        hmax = max(column_height(res.board, k) for k in range(COLS))
        keys.append(100.0 * res.n_removed - 10.0 * hmax - row)
    return keys


#: Unchecked body of :func:`greedy_keys` (every step of a greedy or lookahead game).
_greedy_keys = greedy_keys.__wrapped__


@validate_params(s=Instance(State, "a State"), p=PARAMS)
def lookahead_values(s: State, p: IceCreamParams) -> list[float]:
    """One-card expectimax value of each column (as :func:`.policies.lookahead_values_batch`).

    Raises
    ------
    ParamTypeError
        If ``s`` is not a :class:`State` or ``p`` not an IceCreamParams.
    """
    vals = []
    for c in range(COLS):
        if column_height(s.board, c) >= ROWS:
            vals.append(-np.inf)
            continue
        h = s.clone()
        res = advance_state(h, c, p, None)
        if h.status == 2:
            vals.append(_OVER)
            continue
        if h.status == 1:
            vals.append(_WIN)
            continue
        v = 100.0 * res.n_removed
        total = sum(h.deck)
        for val in range(1, N_VALUES):
            if h.deck[val]:
                v += h.deck[val] / total * max(_greedy_keys(h.board, val, p))
        vals.append(v)
    return vals


#: Unchecked body of :func:`lookahead_values` (every step of a lookahead game).
_lookahead_values = lookahead_values.__wrapped__


def _pick(values: Sequence[float], uniform: Uniform) -> int:
    best = max(values)
    ties = [i for i, v in enumerate(values) if v >= best - 1e-9 * max(1.0, abs(best))]
    return ties[int(uniform() * len(ties))]


POLICY = Choice(REFERENCE_POLICIES)


@validate_params(p=PARAMS, policy=POLICY, uniform=Unchecked("a callable: checked in the body"))
def reference_game(p: IceCreamParams, policy: str, uniform: Uniform) -> dict[str, int]:
    """Play one game; returns the per-game values of :func:`.sim.run_games` (``status`` ... ``crush_left``).

    Raises
    ------
    ParamTypeError, ParamError
        If ``p`` is not an IceCreamParams, ``policy`` not one of :data:`REFERENCE_POLICIES`
        or ``uniform`` not callable.
    """
    if not callable(uniform):
        raise ParamTypeError("uniform", uniform, "a callable returning floats in [0, 1)")
    s = State(p)
    s.card = draw_card(s.deck, uniform())
    if p.deck_out == "last_card":
        _deck_out(s, p)
    while s.status == 0:
        if policy == "random":
            col = _pick([0.0 if c in legal_columns(s.board) else -np.inf for c in range(COLS)], uniform)
        elif policy == "greedy":
            col = _pick(_greedy_keys(s.board, s.card, p), uniform)
        else:
            col = _pick(_lookahead_values(s, p), uniform)
        advance_state(s, col, p, uniform)
    return {"status": s.status, "cycle": s.cycle, "placed": s.placed, "score": s.score, "max_chain": s.max_chain,
            "chain_waves": s.chain_waves, "clears": s.clears, "cleared": s.cleared,
            "crush_left": sum(1 for v in s.board if v == CRUSH)}


#: Unchecked body of :func:`reference_game` (:func:`reference_simulate`, once per game).
_reference_game = reference_game.__wrapped__


@validate_params(p=PARAMS, policy=POLICY, n_games=Int(1, 100_000), rng=Rng())
def reference_simulate(p: IceCreamParams, policy: str, n_games: int, *, rng: RngLike = None
                       ) -> dict[str, np.ndarray]:
    """``n_games`` games with the scalar reference; same keys as :func:`.sim.run_games`.

    Parameters
    ----------
    p : IceCreamParams
    policy : {"random", "greedy", "lookahead"}
    n_games : int
        1..100,000 (plain Python: about a millisecond per greedy game).
    rng : int, SeedSequence, Generator or None

    Raises
    ------
    ParamError, ParamTypeError
        For ``p`` not an IceCreamParams, an unknown policy, ``n_games`` out of range or a bad ``rng``.
    """
    rows = [_reference_game(p, policy, rng.random) for _ in range(n_games)]
    out = {k: np.array([r[k] for r in rows]) for k in rows[0]}
    out["won"] = out["status"] == 1
    out["game_over"] = out["status"] == 2
    out["capped"] = out["status"] == 3
    return out
