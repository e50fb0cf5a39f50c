"""Player policies for Ice Cream Turret, vectorized over games.

Every policy has ``choose(g, p, rng) -> cols``: for a :class:`~.sim.GameBatch` of running
games, one legal column per game (``int64``, shape ``(m,)``). What a player may know: the
board, the card in hand, and the composition of the deck (the discard pile may be
consulted at any time, 捨て札はいつでも参照できる, and the cards in play are known), but
not the order of the deck: the next card is face down (山からアイスクリームカードを1枚めくり).

- ``random``: a uniformly random legal column.
- ``greedy``: the column that clears the most cards now (crush ice included); ties
  broken by the lowest tallest column after the clears, then the lowest landing row,
  then uniformly at random. A placement that ends the game ranks last.
- ``lookahead``: one-card expectimax. For each column, the expected greedy value of the
  best reply to the *next* card, averaged over the composition of the deck after the
  placement (the rebuilt deck when this card empties it); the next card is not shown by
  the rules, so its distribution is what the player can see.
- ``rollout[:k[:horizon]]``: Monte Carlo. For each column, ``k`` rollouts of
  ``horizon`` further greedy placements with cards drawn from the deck the player knows
  (common random numbers: the j-th rollout of every column draws with the same uniforms);
  the column with the best mean rollout value wins (game over -1e6 + cards placed, win +1e6,
  otherwise the greedy scale: +100 per card cleared, -10 per card of the tallest column at
  the end). All rollouts of all games run as one batch.

The scalar versions of ``random``, ``greedy`` and ``lookahead`` are in :mod:`.reference`
(:func:`~.reference.greedy_keys`, :func:`~.reference.lookahead_values`); the tests check
that both give the same values on the same states.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from gamesim.core.registry import ParamError
from gamesim.core.validate import Bool, Instance, Rng, Unchecked, check_choice, check_int, validate_params

from .rules import COLS, CRUSH, N_VALUES, PARAMS, ROWS, IceCreamParams
from .kernels import (BOARD_BATCH, GameBatch, IntArray, _advance, _any_clear, _resolve_batch, _through_codes,
                      heights, rowsum, tables)

__all__ = ["POLICY_NAMES", "OVER", "WIN", "Policy", "RandomPolicy", "GreedyPolicy", "LookaheadPolicy",
           "RolloutPolicy", "make_policy", "greedy_keys_batch", "lookahead_values_batch", "pick"]

POLICY_NAMES: tuple[str, ...] = ("random", "greedy", "lookahead", "rollout")
#: Value of a placement that ends the game (greedy keys and rollouts).
OVER: float = -1e6
#: Value of a won game (lookahead and rollouts).
WIN: float = 1e6
#: Largest ``k`` and ``horizon`` of the rollout policy.
MAX_ROLLOUTS: int = 256
MAX_HORIZON: int = 200


class Policy(Protocol):
    """What :func:`~.sim.run_games` calls."""

    name: str

    def choose(self, g: GameBatch, p: IceCreamParams, rng: np.random.Generator) -> np.ndarray: ...


def pick(values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Argmax of each row of ``values`` (m, 3), ties broken uniformly at random; ``-inf`` = illegal."""
    best = values.max(axis=1, keepdims=True)
    tie = values >= best - 1e-9 * np.maximum(1.0, np.abs(best))
    u = rng.random(values.shape) * tie
    return u.argmax(axis=1).astype(np.int64)


def _over(res: dict[str, np.ndarray]) -> np.ndarray:
    return rowsum(res["board"][:, (ROWS - 1) * COLS:] != 0) > 0  # a card in row 5


@validate_params(board=BOARD_BATCH, card=IntArray(1, CRUSH), p=PARAMS, return_resolution=Bool())
def greedy_keys_batch(board: np.ndarray, card: np.ndarray, p: IceCreamParams,
                      *, return_resolution: bool = False) -> Any:
    """Greedy value of each column for boards ``board`` (m, 15) and cards ``card`` (m,): (m, 3) float.

    ``100 × cards cleared − 10 × tallest column after the clears − landing row``, ``OVER`` for a
    placement that ends the game, ``-inf`` for a full column. With ``return_resolution``, also
    the :func:`~.sim.resolve_batch` result of the ``3 m`` candidates (row ``3 i + col``, with
    ``pos``) when every column of every board is open, else ``None``.

    Raises
    ------
    ParamTypeError, ParamError
        For boards that are not an integer (m, 15) array of values 0..10, cards that are
        not integers 1..10 of shape (m,) (the length, a relation with ``board``, is checked in
        the body), ``p`` not an IceCreamParams or ``return_resolution`` not a bool.
    """
    m = board.shape[0]
    if card.shape != (m,):
        raise ParamError("card", f"<{type(card).__name__} {card.dtype} {card.shape}>",
                         f"an integer ndarray of shape ({m},), values 1..{CRUSH}")
    t = tables(p)
    h = heights(board)  # (m, 3)
    hr = h.ravel()  # candidate 3 i + c: the height of column c of board i
    cols = np.tile(np.arange(COLS), m)
    legal = hr < ROWS
    keys = np.full(m * COLS, -np.inf)
    res = None
    if legal.any():
        li = np.arange(m * COLS) if legal.all() else np.flatnonzero(legal)
        src = li // COLS
        pos = hr[li] * COLS + cols[li]
        pb = board[src]
        pb[np.arange(li.size), pos] = card[src]
        res = _resolve_batch(pb, p, t, pos=pos)
        res["pos"] = pos
        hc = h[src]  # heights after the placement: +1 in its column, recounted where something cleared
        hc[np.arange(li.size), cols[li]] += 1
        cl = np.flatnonzero(res["waves"])
        if cl.size:
            hc[cl] = heights(res["board"][cl])
        hmax = np.maximum(np.maximum(hc[:, 0], hc[:, 1]), hc[:, 2])
        k = 100.0 * res["n_removed"] - 10.0 * hmax - pos // COLS
        keys[li] = np.where(_over(res), OVER, k)
    if return_resolution:
        return keys.reshape(m, COLS), (res if legal.all() else None)
    return keys.reshape(m, COLS)


#: Unchecked body of :func:`greedy_keys_batch` (the policies' inner loops).
_greedy_keys_batch = greedy_keys_batch.__wrapped__

#: The card values 1..10, as the last axis of :func:`_best_greedy_keys`.
_VALUES = np.arange(1, N_VALUES, dtype=np.int32)


def _best_greedy_keys(board: np.ndarray, want: np.ndarray, p: IceCreamParams, t: Any) -> np.ndarray:
    """Best greedy key of every next card: ``max`` over columns of :func:`greedy_keys_batch`.

    ``board`` (n, 15): stable boards of running games (no card in row 5); ``want`` (n, 11)
    bool: the card values asked for (column 0 unused). Returns (n, 11) float, column ``v``
    the value of card ``v`` where asked for (``-inf`` elsewhere). The same keys as
    :func:`greedy_keys_batch` called once per value, found faster: a placement that clears
    nothing has the key ``-10 × tallest column − landing row`` (``OVER`` in row 5), known
    from the heights; whether a card clears is looked up on the lines through its cell for
    all ten values at once (the cell is empty before, so its value adds ``v × 11**k`` to a
    line's code); only the placements that clear are resolved.
    """
    n = board.shape[0]
    h = heights(board)  # (n, 3)
    legal = h < ROWS
    cols = np.arange(COLS)
    pos = np.where(legal, h * COLS + cols, 0)  # (n, 3) the landing cell of each column
    codes = _through_codes(board, pos, t)  # 4 arrays (n, 3): the lines through each landing cell, empty now
    w = t.thru_w[pos][..., None] * _VALUES  # (n, 3, 4, 10) what each value adds to the 4 codes (0: no diagonal)
    hit = _any_clear(*(code[..., None] + w[:, :, j] for j, code in enumerate(codes)), t)  # (n, 3, 10)
    hit &= legal[..., None] & want[:, None, 1:]
    # no clear: the card lands on row h and the tallest column is max(h + 1, the others)
    top = np.maximum(h + 1, h.max(axis=1, keepdims=True))
    k0 = np.where(legal, np.where(h == ROWS - 1, OVER, -10.0 * top - h), -np.inf)  # (n, 3)
    keys = np.repeat(k0[..., None], N_VALUES - 1, axis=2)  # (n, 3, 10)
    i, c, v = np.nonzero(hit)
    if i.size:
        pb = board[i]
        cell = pos[i, c]
        pb[np.arange(i.size), cell] = v + 1
        res = _resolve_batch(pb, p, t)  # the boards were stable: only runs through the new card clear
        k = 100.0 * res["n_removed"] - 10.0 * heights(res["board"]).max(axis=1) - cell // COLS
        keys[i, c, v] = np.where(_over(res), OVER, k)
    out = np.full((n, N_VALUES), -np.inf)
    out[:, 1:] = np.where(want[:, 1:], keys.max(axis=1), -np.inf)
    return out


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name or len(name) > 100 or not name.isprintable():
        raise ParamError("name", name, "a printable label of 1 to 100 characters")


@dataclass(frozen=True)
class RandomPolicy:
    """A uniformly random legal column."""

    name: str = "random"

    def __post_init__(self) -> None:
        _check_name(self.name)

    def choose(self, g: GameBatch, p: IceCreamParams, rng: np.random.Generator) -> np.ndarray:
        legal = g.heights() < ROWS
        return pick(np.where(legal, 0.0, -np.inf), rng)


@dataclass(frozen=True)
class GreedyPolicy:
    """Most cards cleared now, then the lowest stack (see the module docstring)."""

    name: str = "greedy"

    def __post_init__(self) -> None:
        _check_name(self.name)

    def choose(self, g: GameBatch, p: IceCreamParams, rng: np.random.Generator) -> np.ndarray:
        return pick(_greedy_keys_batch(g.board, g.card, p), rng)

    def choose_resolved(self, g: GameBatch, p: IceCreamParams, rng: np.random.Generator
                        ) -> tuple[np.ndarray, dict[str, np.ndarray] | None]:
        """As :meth:`choose`, plus the resolution of the chosen placements (for :func:`~.sim.advance`)."""
        keys, res = _greedy_keys_batch(g.board, g.card, p, return_resolution=True)
        cols = pick(keys, rng)
        if res is None:
            return cols, None
        sel = np.arange(g.size) * COLS + cols
        return cols, {k: v[sel] for k, v in res.items()}


@validate_params(g=Instance(GameBatch, "a GameBatch (from new_games)"), p=PARAMS, rng=Rng())
def lookahead_values_batch(g: GameBatch, p: IceCreamParams, rng: np.random.Generator) -> np.ndarray:
    """One-card expectimax value of each column (m, 3) for running games ``g``.

    For column ``c``: ``OVER`` if the placement ends the game, ``WIN`` if it wins; otherwise
    ``100 × cards cleared + E[max over columns of the greedy key of the next card]``, the
    expectation over the deck left after the placement (the rebuilt deck if it emptied).
    ``rng`` is not used for the values themselves (``advance`` does not draw here).

    Raises
    ------
    ParamTypeError, ParamError
        For ``g`` not a GameBatch, ``p`` not an IceCreamParams or ``rng`` not seed material.
    """
    m = g.size
    t = tables(p)
    legal = g.heights() < ROWS
    vals = np.full((m, COLS), -np.inf)
    rows, cols = np.nonzero(legal)
    if not rows.size:
        return vals
    h = g.take(rows)
    res = _advance(h, cols.astype(np.int64), p, rng, t=t, draw_next=False)
    v = 100.0 * res["n_removed"].astype(float)
    v = np.where(h.status == 1, WIN, v)
    v = np.where(h.status == 2, OVER, v)
    live = np.flatnonzero(h.status == 0)
    if live.size:
        deck = h.deck[live].astype(float)
        prob = deck / deck.sum(axis=1, keepdims=True)
        best = _best_greedy_keys(h.board[live], prob > 0, p, t)
        exp = np.zeros(live.size)
        for val in range(1, N_VALUES):
            s = np.flatnonzero(prob[:, val] > 0)
            if s.size:
                exp[s] += prob[s, val] * best[s, val]
        v[live] = v[live] + exp
    vals[rows, cols] = v
    return vals


#: Unchecked body of :func:`lookahead_values_batch` (:class:`LookaheadPolicy`, every step).
_lookahead_values_batch = lookahead_values_batch.__wrapped__


@dataclass(frozen=True)
class LookaheadPolicy:
    """One-card expectimax over the known deck composition (see :func:`lookahead_values_batch`)."""

    name: str = "lookahead"

    def __post_init__(self) -> None:
        _check_name(self.name)

    def choose(self, g: GameBatch, p: IceCreamParams, rng: np.random.Generator) -> np.ndarray:
        return pick(_lookahead_values_batch(g, p, rng), rng)


@dataclass(frozen=True)
class RolloutPolicy:
    """Monte Carlo rollouts: ``k`` playouts of ``horizon`` placements per column.

    Parameters
    ----------
    k : int, default 16
        Rollouts per column (1..MAX_ROLLOUTS).
    horizon : int, default 1
        Placements after the candidate one (0..MAX_HORIZON).
    playout : {"greedy", "lookahead"}, default "greedy"
        The policy that plays the rollouts (lookahead playouts cost about 30 times more).

    Raises
    ------
    ParamError, ParamTypeError
        For ``k``, ``horizon`` or ``playout`` out of range.
    """

    k: int = 16
    horizon: int = 1
    playout: str = "greedy"
    name: str = "rollout"

    def __post_init__(self) -> None:
        _check_name(self.name)
        check_int("k", self.k, min=1, max=MAX_ROLLOUTS)
        check_int("horizon", self.horizon, min=0, max=MAX_HORIZON)
        check_choice("playout", self.playout, ("greedy", "lookahead"))

    def choose(self, g: GameBatch, p: IceCreamParams, rng: np.random.Generator) -> np.ndarray:
        m = g.size
        t = tables(p)
        legal = g.heights() < ROWS
        rows, cols = np.nonzero(legal)
        rep = np.repeat(np.arange(rows.size), self.k)
        h = g.take(rows[rep])
        c0 = cols[rep].astype(np.int64)
        # common random numbers: rollout j of a game draws with the same uniforms whatever the column
        u = rng.random((m, self.k, self.horizon + 1))[rows[rep], np.tile(np.arange(self.k), rows.size)]
        start_cleared = h.cleared.copy()
        _advance(h, c0, p, rng, t=t, u=u[:, 0])
        for step in range(self.horizon):
            live = np.flatnonzero(h.status == 0)
            if not live.size:
                break
            sub = h.take(live)
            un = u[live, step + 1]
            if self.playout == "greedy":
                cols_g, resolved = GreedyPolicy().choose_resolved(sub, p, rng)
                _advance(sub, cols_g, p, rng, t=t, resolved=resolved, u=un)
            else:
                _advance(sub, LookaheadPolicy().choose(sub, p, rng), p, rng, t=t, u=un)
            for name in ("board", "deck", "disc", "card", "cycle", "placed", "score", "chain_waves", "clears",
                         "cleared", "max_chain", "status"):
                getattr(h, name)[live] = getattr(sub, name)
        value = 100.0 * (h.cleared - start_cleared) - 10.0 * h.heights().max(axis=1)
        value = np.where(h.status == 2, OVER + h.placed, value)
        value = np.where(h.status == 1, WIN, value)
        mean = np.bincount(rep, weights=value, minlength=rows.size) / self.k
        vals = np.full((m, COLS), -np.inf)
        vals[rows, cols] = mean
        return pick(vals, rng)


@validate_params(spec=Unchecked("a spec string, parsed in the body (its errors name 'policy')"))
def make_policy(spec: str) -> Policy:
    """A policy from its name: ``random``, ``greedy``, ``lookahead``, ``rollout[:k[:horizon]]``.

    Raises
    ------
    ParamError
        For an unknown name or rollout numbers that are not integers in range.
    """
    if not isinstance(spec, str):
        raise ParamError("policy", spec, "a string: random, greedy, lookahead or rollout[:k[:horizon]]")
    name, _, rest = spec.partition(":")
    if name == "random" and not rest:
        return RandomPolicy()
    if name == "greedy" and not rest:
        return GreedyPolicy()
    if name == "lookahead" and not rest:
        return LookaheadPolicy()
    if name == "rollout":
        parts = rest.split(":") if rest else []
        try:
            nums = [int(x) for x in parts]
        except ValueError:
            nums = None
        if nums is not None and len(nums) <= 2:
            return RolloutPolicy(*nums)
    raise ParamError("policy", spec, "random, greedy, lookahead or rollout[:k[:horizon]] "
                     f"(k 1..{MAX_ROLLOUTS}, horizon 0..{MAX_HORIZON})")

