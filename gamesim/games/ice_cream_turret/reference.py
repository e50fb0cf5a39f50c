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

from gamesim.core.registry import ParamError
from gamesim.core.rng import RngLike, as_generator
from gamesim.core.validate import ParamTypeError, check_choice, check_int

from .rules import (
    COLS,
    CRUSH,
    EMPTY,
    N_VALUES,
    ROWS,
    Board,
    IceCreamParams,
    _column_height as column_height,  # unchecked: the inner loop of the plain-Python baseline
    _legal_columns as legal_columns,
    _place as place,
    _resolve as resolve,
    _check_params,
    check_board,
    has_crush,
    initial_deck,
    is_game_over,
    rebuild_deck,
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


def greedy_keys(board: Board, card: int, p: IceCreamParams) -> list[float]:
    """Greedy value of each column (as :func:`.policies.greedy_keys_batch`), ``-inf`` for a full column.

    Raises
    ------
    ParamTypeError, ParamError
        If ``board`` is not 15 integer cells in 0..10, ``card`` not an integer 1..10 or
        ``p`` not an IceCreamParams.
    """
    return _greedy_keys(check_board(board), check_int("card", card, min=1, max=CRUSH), _check_params(p))


def _greedy_keys(board: Board, card: int, p: IceCreamParams) -> list[float]:
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


def lookahead_values(s: State, p: IceCreamParams) -> list[float]:
    """One-card expectimax value of each column (as :func:`.policies.lookahead_values_batch`).

    Raises
    ------
    ParamTypeError
        If ``s`` is not a :class:`State` or ``p`` not an IceCreamParams.
    """
    if not isinstance(s, State):
        raise ParamTypeError("s", s, "a State")
    return _lookahead_values(s, _check_params(p))


def _lookahead_values(s: State, p: IceCreamParams) -> list[float]:
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


def _pick(values: Sequence[float], uniform: Uniform) -> int:
    best = max(values)
    ties = [i for i, v in enumerate(values) if v >= best - 1e-9 * max(1.0, abs(best))]
    return ties[int(uniform() * len(ties))]


def reference_game(p: IceCreamParams, policy: str, uniform: Uniform) -> dict[str, int]:
    """Play one game; returns the per-game values of :func:`.sim.run_games` (``status`` ... ``crush_left``).

    Raises
    ------
    ParamTypeError, ParamError
        If ``p`` is not an IceCreamParams, ``policy`` not one of :data:`REFERENCE_POLICIES`
        or ``uniform`` not callable.
    """
    _check_params(p)
    check_choice("policy", policy, REFERENCE_POLICIES)
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
        For an unknown policy or ``n_games`` out of range.
    """
    check_choice("policy", policy, REFERENCE_POLICIES)
    n_games = check_int("n_games", n_games, min=1, max=100_000)
    if not isinstance(p, IceCreamParams):
        raise ParamError("p", p, "an IceCreamParams")
    gen = as_generator(rng)
    rows = [reference_game(p, policy, gen.random) for _ in range(n_games)]
    out = {k: np.array([r[k] for r in rows]) for k in rows[0]}
    out["won"] = out["status"] == 1
    out["game_over"] = out["status"] == 2
    out["capped"] = out["status"] == 3
    return out
