"""Equilibrium of the one-round bid as a zero-sum matrix game (linear programming).

Each round both players bid a hand card at once: a simultaneous-move game. For a
payoff the designer chooses, the round is solved as a two-player zero-sum matrix
game with :func:`scipy.optimize.linprog` (HiGHS). The default payoff is, for
player *i*, ``territory won + fund_weight * net funds change - bankrupt_penalty *
[bankrupt]`` and the matrix entry is player 0's utility minus player 1's, so the
game is zero-sum by construction.

Solving it at every state ``(own funds, opponent funds, own locked card,
opponent locked card)`` gives a state-dependent mixed strategy
(:func:`equilibrium_table`), which the ``equilibrium`` policy plays in whole
games. This is a *myopic* equilibrium (one round looked at, with the designer's
payoff); it is not the equilibrium of the whole game.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import Float, ParamTypeError, Unchecked, validate_params

from .rules import FUNDS, LOCK, N_HAND, PARAMS, QftnwParams, _legal_bids, _resolve_bids

__all__ = ["MatrixGameSolution", "solve_matrix_game", "round_payoff_matrix", "equilibrium_table",
           "start_equilibrium"]


class MatrixGameSolution(tuple):
    """``(row_strategy, col_strategy, value)`` of a zero-sum matrix game."""

    __slots__ = ()

    def __new__(cls, x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], v: float):
        return super().__new__(cls, (x, y, v))

    @property
    def row(self) -> npt.NDArray[np.float64]:
        """Row player's (maximiser's) equilibrium mixed strategy, shape (n_rows,)."""
        return self[0]

    @property
    def col(self) -> npt.NDArray[np.float64]:
        """Column player's (minimiser's) equilibrium mixed strategy, shape (n_cols,)."""
        return self[1]

    @property
    def value(self) -> float:
        """Value of the game to the row player."""
        return self[2]


def _maximin(a: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], float]:
    """Row player's maximin strategy of payoff matrix ``a`` (rows maximise)."""
    from scipy.optimize import linprog  # here, not at import: sweep workers start without scipy

    m, n = a.shape
    # variables x_1..x_m, v ; minimise -v ; for every column j: v - sum_i a_ij x_i <= 0
    c = np.zeros(m + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    b_ub = np.zeros(n)
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if not res.success:
        # HiGHS can stop with an unknown status on payoffs of large magnitude (a designer's weight near
        # 1e6: QftNW spa, fund_weight -522937). The maximin strategy is the same for any increasing affine
        # map of the payoffs, so the game is solved again scaled to [0, 1] and its value mapped back.
        lo, hi = float(a.min()), float(a.max())
        if hi > lo and (lo, hi) != (0.0, 1.0):
            x, v = _maximin((a - lo) / (hi - lo))
            return x, v * (hi - lo) + lo
        raise RuntimeError(f"linprog failed: {res.message}")  # a finite matrix game always has a solution
    x = np.clip(res.x[:m], 0.0, None)
    return x / x.sum(), float(res.x[-1])


#: Largest payoff matrix :func:`solve_matrix_game` accepts (rows and columns).
MAX_MATRIX: int = 1000


#: A payoff weight of the designer's round payoff: finite, |x| <= 1e6.
WEIGHT = Float(-1e6, 1e6)


@validate_params(a=Unchecked("array-like, converted once and checked in the body (2-D, finite, size)"))
def solve_matrix_game(a: npt.ArrayLike) -> MatrixGameSolution:
    """Solve a two-player zero-sum matrix game by linear programming.

    Parameters
    ----------
    a : array_like of float, shape (n_rows, n_cols)
        Payoff to the row player (who maximises); the column player receives ``-a``.

    Returns
    -------
    MatrixGameSolution
        ``(row_strategy, col_strategy, value)``: equilibrium mixed strategies (each sums to 1)
        and the value of the game to the row player.

    Raises
    ------
    ParamError
        (``ValueError``; ``ParamTypeError``, also a ``TypeError``, for non-numbers) if ``a`` is not
        a non-empty 2-D finite matrix (``nan`` and ``inf`` are refused up front, never passed to
        ``linprog``) or has more than :data:`MAX_MATRIX` (1000) rows or columns.

    Notes
    -----
    Row LP: maximise ``v`` subject to ``sum_i x_i a_ij >= v`` for every column ``j``,
    ``sum x = 1``, ``x >= 0`` (von Neumann's minimax theorem); the column strategy is the row
    strategy of ``-a.T``. Solved with :func:`scipy.optimize.linprog` (``method="highs"``).

    Examples
    --------
    >>> rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    >>> x, y, v = solve_matrix_game(rps)
    >>> np.round(x, 6).tolist(), round(v, 9)
    ([0.333333, 0.333333, 0.333333], 0.0)
    """
    try:
        arr = np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError):
        raise ParamTypeError("a", a, "a non-empty 2-D array of finite numbers") from None
    if isinstance(a, (str, bytes)) or arr.ndim != 2 or arr.size == 0 or not np.isfinite(arr).all():
        raise ParamError("a", a, "a non-empty 2-D array of finite numbers (no nan or inf)")
    if max(arr.shape) > MAX_MATRIX:
        raise ParamError("a", f"array of shape {arr.shape}", f"at most {MAX_MATRIX} rows and columns")
    x, v = _maximin(arr)
    y, w = _maximin(-arr.T)
    return MatrixGameSolution(x, y, 0.5 * (v - w))


@validate_params(p=PARAMS, fund_weight=WEIGHT, bankrupt_penalty=WEIGHT, f_self=FUNDS, f_opp=FUNDS,
                 lock_self=LOCK, lock_opp=LOCK)
def round_payoff_matrix(f_self: int, f_opp: int, lock_self: int, lock_opp: int, p: QftnwParams, *,
                        fund_weight: float = 1.0, bankrupt_penalty: float = 2.0
                        ) -> tuple[npt.NDArray[np.float64], tuple[int, ...], tuple[int, ...]]:
    """Zero-sum payoff of one round between the legal bids.

    Parameters
    ----------
    f_self, f_opp : int
        Funds of the row player and of the column player (1..fund_cap).
    lock_self, lock_opp : int
        Locked card of each (上級ルール; 0 = none).
    p : QftnwParams
    fund_weight : float, default 1.0
        Value of one fund relative to one territory card.
    bankrupt_penalty : float, default 2.0
        Extra cost of going bankrupt (losing a territory type, funds reset), in territory cards.

    Returns
    -------
    (a, rows, cols)
        ``a`` of shape (len(rows), len(cols)): row player's utility minus column player's, with
        utility ``territory won + fund_weight * (funds after - funds before) - bankrupt_penalty *
        [funds after <= 0]`` (funds before any reset); ``rows``/``cols`` the legal bids.
    """
    rows = _legal_bids(lock_self, p.advanced)
    cols = _legal_bids(lock_opp, p.advanced)
    a = np.zeros((len(rows), len(cols)))
    for i, x in enumerate(rows):
        for j, y in enumerate(cols):
            w, g0, g1 = _resolve_bids(x, y, f_self, f_opp, p)
            u0 = (w == 0) + fund_weight * (g0 - f_self) - bankrupt_penalty * (g0 <= 0)
            u1 = (w == 1) + fund_weight * (g1 - f_opp) - bankrupt_penalty * (g1 <= 0)
            a[i, j] = u0 - u1
    return a, rows, cols


#: Unchecked body of :func:`round_payoff_matrix` (one call per state in :func:`equilibrium_table`).
_round_payoff_matrix = round_payoff_matrix.__wrapped__


@validate_params(p=PARAMS, fund_weight=WEIGHT, bankrupt_penalty=WEIGHT)
def start_equilibrium(p: QftnwParams, *, fund_weight: float = 1.0, bankrupt_penalty: float = 2.0
                      ) -> MatrixGameSolution:
    """Equilibrium of the first round (both at ``start_funds``, no locked card).

    Returns
    -------
    MatrixGameSolution
        Strategies of shape (5,) over bids 1..5 and the value.
    """
    a, _, _ = _round_payoff_matrix(p.start_funds, p.start_funds, 0, 0, p,
                                  fund_weight=fund_weight, bankrupt_penalty=bankrupt_penalty)
    return solve_matrix_game(a)


@lru_cache(maxsize=32)
def _table(key: tuple, p: QftnwParams, fund_weight: float, bankrupt_penalty: float) -> npt.NDArray[np.float64]:
    cap = p.fund_cap
    locks = range(N_HAND + 1) if p.advanced else (0,)
    out = np.zeros((cap + 1, cap + 1, N_HAND + 1, N_HAND + 1, N_HAND))
    out[..., :] = 1.0 / N_HAND  # unreachable states: uniform
    solved: dict[bytes, npt.NDArray[np.float64]] = {}  # many states share a matrix
    for fs in range(1, cap + 1):
        for fo in range(1, cap + 1):
            for ls in locks:
                for lo in locks:
                    a, rows, _ = _round_payoff_matrix(fs, fo, ls, lo, p, fund_weight=fund_weight,
                                                     bankrupt_penalty=bankrupt_penalty)
                    k = a.tobytes() + bytes(rows) + bytes(len(a))
                    if k not in solved:
                        solved[k] = _maximin(a)[0]
                    x = solved[k]
                    probs = np.zeros(N_HAND)
                    for k, c in enumerate(rows):
                        probs[c - 1] = x[k]
                    out[fs, fo, ls, lo] = probs
    out.setflags(write=False)
    return out


@validate_params(p=PARAMS, fund_weight=WEIGHT, bankrupt_penalty=WEIGHT)
def equilibrium_table(p: QftnwParams, *, fund_weight: float = 1.0, bankrupt_penalty: float = 2.0
                      ) -> npt.NDArray[np.float64]:
    """Equilibrium mixed strategy of the one-round game at every state (cached).

    Parameters
    ----------
    p : QftnwParams
        Rules (gain, fund cap, tie floor and 上級ルール matter).
    fund_weight, bankrupt_penalty : float
        The payoff (see :func:`round_payoff_matrix`).

    Returns
    -------
    ndarray of float64, shape (fund_cap + 1, fund_cap + 1, 6, 6, 5), read-only
        ``table[f_self, f_opp, lock_self, lock_opp]`` = probabilities of bids 1..5 (0 on locked
        cards). Without 上級ルール only ``lock = 0`` entries are solved; unreachable entries
        (funds 0) are uniform.

    Notes
    -----
    One LP per state: ``fund_cap**2`` (36) LPs, or ``36 * fund_cap**2`` (1,296) with 上級ルール,
    about 1-4 s, cached per process.
    """
    key = (p.fund_cap, p.gain, p.tie_floor, p.advanced)
    rel = QftnwParams(fund_cap=p.fund_cap, gain=p.gain, tie_floor=p.tie_floor, advanced=p.advanced,
                      start_funds=1, reset_funds=1)
    return _table(key, rel, float(fund_weight), float(bankrupt_penalty))

