"""Vectorized batch kernels of Ice Cream Turret (axis 0 = game): the board, the deck and one placement.

Boards are ``int8`` arrays of shape ``(n, 15)`` (viewed as ``(n, 5, 3)``: row 0 at the
bottom; flat cell ``row * 3 + col``; 0 empty, 1..9 ice cream, 10 crush ice), the same
layout as :mod:`.rules`. All games of a chunk place one card per step, in lockstep; games
that end leave the batch (their results are written out and the arrays compacted).
:mod:`.policies` (which looks ahead with these kernels) and :mod:`.sim` (which plays whole
games with a policy) both import this module; neither imports the other's callers back.
The deck is kept as *counts per value* (``(n, 11)``): drawing the top card of a
well-shuffled deck is drawing uniformly from the cards left, so a count vector is an exact
model of 山を積む and needs no shuffles. The discard pile (捨て札, which the rules let the
player consult at any time) is also a count vector; when the deck runs out it becomes the
next deck with that cycle's new cards.

Clearing is found line by line with lookup tables (no matrix products, so no BLAS threads):
each column's 5 cells are encoded as a base-11 number and looked up in a table of the
cells its clearing windows cover (every run of >= 3 cells that is all equal, or distinct
numbers forming a block of consecutive bits, so 9 and 1 never connect); each row and
3-cell diagonal in a table of 3-cell contents. Crush ice clears when one of its 8
neighbours clears (a shifted-OR dilation); gravity is a stable sort of each column. Waves
repeat on the boards that still clear.

:mod:`.reference` replays the same rules one game at a time in plain Python and the tests
compare the two (cell for cell on random boards, and in distribution on whole games).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import Bool, Constraint, Instance, Int, ParamTypeError, Rng, Unchecked, validate_params

from .rules import (
    COLS,
    CRUSH,
    LINE_KIND,
    LINES,
    MAX_CYCLES,
    N_CELLS,
    N_VALUES,
    ROWS,
    PARAMS,
    IceCreamParams,
    _cycle_additions,
    _multi_line_bonus,
)

__all__ = [
    "CHUNK_SIZE", "MAX_GAMES", "STATUS", "GameBatch", "Tables", "tables", "resolve_batch", "advance",
    "new_games", "GAME_KEYS", "rowsum", "heights", "draw", "place_batch", "deck_out", "IntArray", "BOARD_BATCH",
]

#: Games simulated at once (the greedy policy resolves 3 boards per game and step).
CHUNK_SIZE: int = 20_000
#: Most games one call of :func:`run_games` accepts.
MAX_GAMES: int = 10_000_000
#: ``status`` codes: 0 running, 1 won, 2 game over, 3 cut off at ``max_placements``,
#: 4 stalled (a rebuilt deck was empty: impossible with the rulebook's cards).
STATUS: tuple[str, ...] = ("running", "won", "game_over", "capped", "stalled")
#: Per-game outputs of :func:`run_games`.
GAME_KEYS: tuple[str, ...] = ("status", "won", "game_over", "capped", "cycle", "placed", "score",
                              "max_chain", "chain_waves", "clears", "cleared", "crush_left")


@dataclass(frozen=True)
class Tables:
    """Constant arrays of the vectorized kernels for one parameter set."""

    col: np.ndarray          # (11**5,) uint8 column content -> cleared-cell bits | longest run << 5
    tri: np.ndarray          # (11**3,) int8 3-cell content -> 0 none, 1 equal, 2 consecutive
    diag: np.ndarray         # (6, 3) flat cells of the 3-cell diagonals
    cell_diag: np.ndarray    # (15, 2) the diagonals through each cell (6 = none)
    line_bonus: np.ndarray   # (15,) bonus by number of lines cleared in a wave
    run_bonus: np.ndarray    # (6,) bonus by longest scoring run of a column
    add: np.ndarray          # (MAX_CYCLES + 3, 11) int16 new cards per cycle
    strip_crush: np.ndarray  # (MAX_CYCLES + 3,) bool: crush removed from discards at rebuild
    thru: np.ndarray         # (15, 14) cells of the lines through each cell: column, row, 2 diagonals
    thru_diag: np.ndarray    # (15, 2) int32 1 where that diagonal exists (its cells in thru are padding else)
    thru_w: np.ndarray       # (15, 4) int32 weight of the cell itself in the codes of its column, row, diagonals (0: none)


def _digits(L: int) -> np.ndarray:
    """Every content of ``L`` cells (values 0..10): shape (11**L, L), column k = the cell weighted 11**k."""
    codes = np.arange(N_VALUES ** L)
    return np.stack([(codes // N_VALUES ** k) % N_VALUES for k in range(L)], axis=1)


def _kind(v: np.ndarray) -> np.ndarray:
    """Clear kind of window contents ``v`` (n, L): 0 none, 1 all equal, 2 distinct consecutive (vectorized)."""
    L = v.shape[1]
    num = ((v > 0) & (v < CRUSH)).all(axis=1)
    eq = (v == v[:, :1]).all(axis=1)
    bits = np.bitwise_or.reduce(np.left_shift(1, v), axis=1)
    con = bits == np.left_shift((1 << L) - 1, v.min(axis=1))
    return np.where(num & eq, 1, np.where(num & con, 2, 0)).astype(np.int8)


@lru_cache(maxsize=2)
def _line_tables(equal_runs_score: bool) -> tuple[np.ndarray, np.ndarray]:
    """Lookup tables of every column content (5 cells) and every row/diagonal content (3 cells).

    Column entry: bits 0-4 the cells cleared by any clearing window of the column, bits 5-7
    the length of its longest scoring window (consecutive; any with ``equal_runs_score``).
    Checked against :func:`.rules.resolve` in the tests.
    """
    v = _digits(ROWS)
    col = np.zeros(v.shape[0], np.int32)
    longest = np.zeros(v.shape[0], np.int32)
    for L in (3, 4, 5):
        for start in range(ROWS - L + 1):
            k = _kind(v[:, start:start + L])
            col |= np.where(k > 0, ((1 << L) - 1) << start, 0)
            scoring = (k > 0) if equal_runs_score else (k == 2)
            longest = np.maximum(longest, np.where(scoring, L, 0))
    col |= longest << 5
    return col.astype(np.uint8), _kind(_digits(3))


@lru_cache(maxsize=64)
def tables(p: IceCreamParams) -> Tables:
    """The kernel tables of ``p`` (cached)."""
    col, tri = _line_tables(p.equal_runs_score)
    diag = np.array([line for line, kind in zip(LINES, LINE_KIND) if kind == "diagonal"], np.intp)
    cell_diag = np.full((N_CELLS, 2), len(diag), np.intp)
    for i in range(N_CELLS):
        through = [j for j, d in enumerate(diag) if i in d]
        cell_diag[i, :len(through)] = through
    lb = np.array([_multi_line_bonus(k, p.line_bonus) for k in range(15)], np.int32)
    rb = np.array([0, 0, 0, 0, 1, 2], np.int32)
    n_rows = MAX_CYCLES + 3
    add = np.array([_cycle_additions(p, c) if c >= 1 else (0,) * N_VALUES for c in range(n_rows)], np.int16)
    strip = np.array([p.mode == "normal" and c > p.n_cycles for c in range(n_rows)])
    thru = np.zeros((N_CELLS, 14), np.intp)
    thru_diag = np.zeros((N_CELLS, 2), np.int32)
    thru_w = np.zeros((N_CELLS, 4), np.int32)
    for i in range(N_CELLS):
        r, c = divmod(i, COLS)
        thru[i, :5] = [k * COLS + c for k in range(ROWS)]
        thru[i, 5:8] = [r * COLS + k for k in range(COLS)]
        thru_w[i, :2] = N_VALUES ** r, N_VALUES ** c
        for j, dj in enumerate(cell_diag[i]):
            if dj < len(diag):
                thru[i, 8 + 3 * j:11 + 3 * j] = diag[dj]
                thru_diag[i, j] = 1
                thru_w[i, 2 + j] = N_VALUES ** list(diag[dj]).index(i)
    for a in (col, tri, diag, cell_diag, lb, rb, add, strip, thru, thru_diag, thru_w):
        a.setflags(write=False)
    return Tables(col, tri, diag, cell_diag, lb, rb, add, strip, thru, thru_diag, thru_w)


def rowsum(a: np.ndarray) -> np.ndarray:
    """Sum over axis 1 of a narrow 2-D array, as adds of its columns (numpy's reduce along a
    short axis costs far more per row); integer and bool inputs give int32."""
    out = a[:, 0].astype(np.int32)
    for j in range(1, a.shape[1]):
        out += a[:, j]
    return out


def heights(board: np.ndarray) -> np.ndarray:
    """(m, 3) int32 cards per column of boards (m, 15) (gravity holds: non-empty cells)."""
    b3 = board.reshape(-1, ROWS, COLS) != 0
    out = b3[:, 0, :].astype(np.int32)
    for r in range(1, ROWS):
        out += b3[:, r, :]
    return out


def _gravity(b: np.ndarray) -> np.ndarray:
    """Cards fall to the bottom of their column (stable: order kept). ``b``: (m, 15) -> (m, 15)."""
    v = b.reshape(-1, ROWS, COLS)
    order = np.argsort(v == 0, axis=1, kind="stable")
    return np.take_along_axis(v, order, axis=1).reshape(-1, N_CELLS)


def _codes(b: np.ndarray, t: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Base-11 codes of boards ``b`` (m, 15): columns (m, 3), rows (m, 5), diagonals (m, 6)."""
    x = b.astype(np.int32).reshape(-1, ROWS, COLS)
    cc = x[:, 0, :] + 11 * x[:, 1, :] + 121 * x[:, 2, :] + 1331 * x[:, 3, :] + 14641 * x[:, 4, :]
    rr = x[:, :, 0] + 11 * x[:, :, 1] + 121 * x[:, :, 2]
    xf = x.reshape(-1, N_CELLS)
    d = t.diag
    dd = xf[:, d[:, 0]] + 11 * xf[:, d[:, 1]] + 121 * xf[:, d[:, 2]]
    return cc, rr, dd


def _line_codes(b: np.ndarray, t: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lookups of boards ``b`` (m, 15): column entries (m, 3), row kinds (m, 5), diagonal kinds (m, 6)."""
    cc, rr, dd = _codes(b, t)
    return t.col[cc].astype(np.int32), t.tri[rr], t.tri[dd]


def _through_codes(b: np.ndarray, pos: np.ndarray, t: Tables) -> tuple[np.ndarray, ...]:
    """Base-11 codes of the lines through cell ``pos`` of boards ``b`` (m, 15); ``pos`` (m,) or (m, k).

    Returns four int32 arrays of ``pos``'s shape: the column's code (5 cells), the row's and the two
    diagonals' (3 cells; 0, no clear, for a diagonal the cell is not on).
    """
    # the 14 cells of the lines through pos, gathered from the flat boards
    rows = (np.arange(b.shape[0]) * N_CELLS).reshape((-1,) + (1,) * pos.ndim)
    x = b.reshape(-1)[rows + t.thru[pos]].astype(np.int32)
    has = t.thru_diag[pos]  # a missing diagonal's cells in thru are padding: its code is set to 0
    return (x[..., 0] + 11 * x[..., 1] + 121 * x[..., 2] + 1331 * x[..., 3] + 14641 * x[..., 4],
            x[..., 5] + 11 * x[..., 6] + 121 * x[..., 7],
            (x[..., 8] + 11 * x[..., 9] + 121 * x[..., 10]) * has[..., 0],
            (x[..., 11] + 11 * x[..., 12] + 121 * x[..., 13]) * has[..., 1])


def _any_clear(col: np.ndarray, row: np.ndarray, diag0: np.ndarray, diag1: np.ndarray, t: Tables) -> np.ndarray:
    """Whether any of the lines with these codes (same shapes, see :func:`_through_codes`) has a clearing run."""
    hit = (t.col[col] & 31) != 0
    hit |= t.tri[row] != 0
    hit |= t.tri[diag0] != 0
    hit |= t.tri[diag1] != 0
    return hit


def _clears_through(b: np.ndarray, pos: np.ndarray, t: Tables) -> np.ndarray:
    """Whether boards ``b`` (m, 15) have a clearing run through cell ``pos`` (m,) (the lines through it only)."""
    return _any_clear(*_through_codes(b, pos, t), t)


def _dilate(c3: np.ndarray) -> np.ndarray:
    """Cells with a marked 8-neighbour: ``c3`` (m, 5, 3) bool -> (m, 5, 3) bool (縦・横・斜めに隣接)."""
    pad = np.zeros((c3.shape[0], ROWS + 2, COLS + 2), bool)
    pad[:, 1:-1, 1:-1] = c3
    out = np.zeros_like(c3)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                out |= pad[:, 1 + dr:1 + dr + ROWS, 1 + dc:1 + dc + COLS]
    return out


class IntArray(Constraint):
    """A declared constraint: an integer ndarray of ``ndim`` dimensions (``width`` columns when
    given), every value in ``[min, max]`` (O(1) checks plus one min/max pass).

    The batch functions' arrays; a relation with another argument (a batch's length) stays in
    the body. The value is passed on unchanged.

    Raises
    ------
    ParamTypeError
        (at call time) If the value is not such an ndarray (a list, floats, bools).
    ParamError
        (at call time) If a value is out of range.
    """

    def __init__(self, min: int, max: int, *, ndim: int = 1, width: int | None = None, what: str = "values"):
        self.min, self.max, self.ndim, self.width, self.what = min, max, ndim, width, what

    def check(self, name: str, value: object, args: dict) -> np.ndarray:
        if (not isinstance(value, np.ndarray) or value.ndim != self.ndim or value.dtype.kind not in "iu"
                or (self.width is not None and value.shape[-1] != self.width)):
            shape = "(m,)" if self.ndim == 1 else f"(m, {self.width})"
            raise ParamTypeError(name, f"<{type(value).__name__} {getattr(value, 'dtype', '')} "
                                 f"{getattr(value, 'shape', '')}>", f"an integer ndarray of shape {shape}")
        if value.size and (int(value.min()) < self.min or int(value.max()) > self.max):
            raise ParamError(name, f"<array with values {int(value.min())}..{int(value.max())}>",
                             f"{self.what} {self.min}..{self.max}")
        return value


#: Declared constraints of the batch functions: a batch of boards, shape (m, 15), cells 0..10.
BOARD_BATCH = IntArray(0, CRUSH, ndim=2, width=N_CELLS, what="cells")
TABLES = Unchecked("trusted: tables(p) or None, a cache the simulator passes")


@validate_params(board=BOARD_BATCH, p=PARAMS, t=TABLES,
                 pos=Unchecked("trusted: the cells the caller placed in, shape (m,), or None"))
def resolve_batch(board: npt.NDArray[np.int8], p: IceCreamParams, t: Tables | None = None,
                  pos: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Resolve every board of a batch: clear, fall and chain until stable.

    Parameters
    ----------
    board : ndarray of int8, shape (m, 15)
        Boards just after a placement (flat layout of :mod:`.rules`). Not modified.
    p : IceCreamParams
        The rules (crush cascade, score-attack bonuses).
    t : Tables, optional
        ``tables(p)``.
    pos : ndarray of int, shape (m,), optional
        The cell each board's last card was placed in, on a board that was stable before:
        the first wave is then looked for on the lines through that cell only (any new run
        must contain the new card), a cheap filter before the full search.

    Returns
    -------
    dict
        ``board`` (m, 15) int8 stable boards; ``removed`` (m, 11) int16 cards cleared by
        value; ``n_removed`` (m,) int32; ``waves`` (m,) int32 waves that cleared (chain
        length); ``score`` (m,) int32 score-attack points; ``first`` (m, 15) bool cells
        cleared by the first wave.

    Notes
    -----
    Kernel: the declaration checks the array's type, shape and value range
    (:data:`BOARD_BATCH`); boards are trusted to obey gravity. Each line's content is
    encoded as a base-11 number and looked up: a column (5 cells) in a table of its
    cleared cells and longest run, a row or diagonal (3 cells) in a table of clear kinds.

    Raises
    ------
    ParamTypeError, ParamError
        For a board batch that is not an integer (m, 15) array of values 0..10, or ``p``
        not an IceCreamParams.
    """
    t = tables(p) if t is None else t
    m = board.shape[0]
    out = board.copy()
    removed = np.zeros((m, N_VALUES), np.int16)
    waves = np.zeros(m, np.int32)
    score = np.zeros(m, np.int32)
    first = np.zeros((m, N_CELLS), bool)
    act = np.arange(m)
    b = out
    wave = 0
    rbits = (1 << np.arange(ROWS))[None, :, None]
    if pos is not None and m:
        hit = _clears_through(b, pos, t)
        act = np.flatnonzero(hit)
        b = b[act]
    while act.size:
        cm, rk, dk = _line_codes(b, t)
        cbits = cm & 31
        hit = (cbits[:, 0] | cbits[:, 1] | cbits[:, 2]) != 0
        hit |= (rk[:, 0] | rk[:, 1] | rk[:, 2] | rk[:, 3] | rk[:, 4]) != 0
        hit |= (dk[:, 0] | dk[:, 1] | dk[:, 2] | dk[:, 3] | dk[:, 4] | dk[:, 5]) != 0
        if not hit.all():
            act, b, cm, cbits, rk, dk = act[hit], b[hit], cm[hit], cbits[hit], rk[hit], dk[hit]
            if not act.size:
                break
        wave += 1
        a = act.size
        c3 = (cbits[:, None, :] & rbits) > 0  # (a, 5, 3) cells cleared by column windows
        c3 |= (rk > 0)[:, :, None]
        cells = c3.reshape(a, N_CELLS)
        dhit = dk > 0
        for j in range(t.diag.shape[0]):
            cells[:, t.diag[j]] |= dhit[:, j, None]
        b3 = b.reshape(a, ROWS, COLS)
        crush = b3 == CRUSH
        gone3 = c3 | (crush & _dilate(c3))
        if p.crush_cascade:
            while True:
                more = crush & ~gone3 & _dilate(gone3 & crush)
                if not more.any():
                    break
                gone3 |= more
        gone = gone3.reshape(a, N_CELLS)
        if wave == 1:
            first[act] = gone
        n_lines = rowsum(cbits > 0) + rowsum(rk > 0) + rowsum(dhit)
        pts = t.line_bonus[n_lines] + rowsum(t.run_bonus[cm >> 5])
        if wave >= 2:
            pts = pts + 2
        score[act] += pts
        waves[act] += 1
        flat = (np.arange(a)[:, None] * N_VALUES + b)[gone]
        removed[act] += np.bincount(flat, minlength=a * N_VALUES).reshape(a, N_VALUES).astype(np.int16)
        b = np.where(gone, np.int8(0), b)
        b = _gravity(b)
        out[act] = b
    n_removed = np.zeros(m, np.int32)
    cleared = np.flatnonzero(waves)
    if cleared.size:
        n_removed[cleared] = rowsum(removed[cleared])
        score[cleared] += ~out[cleared].any(axis=1)  # 全消し: the board is empty after the clears
    return {"board": out, "removed": removed, "n_removed": n_removed,
            "waves": waves, "score": score, "first": first}


#: Unchecked body of :func:`resolve_batch` (the simulator's and the policies' inner loops).
_resolve_batch = resolve_batch.__wrapped__


@dataclass
class GameBatch:
    """State of ``m`` games (struct of arrays, axis 0 = game).

    Attributes
    ----------
    board : (m, 15) int8
    deck : (m, 11) int16 cards left in the deck, by value (the card in hand excluded)
    disc : (m, 11) int16 discard pile, by value
    card : (m,) int8 the card drawn and to be placed now
    cycle : (m,) int16 deck cycle (1 = the first deck; > n_cycles = play on for crush ice)
    placed, score, chain_waves, clears, cleared : (m,) int32 counters
    max_chain : (m,) int16 longest chain (waves of one placement)
    status : (m,) int8 :data:`STATUS` code
    gid : (m,) int64 index of the game in the caller's output
    """

    board: np.ndarray
    deck: np.ndarray
    disc: np.ndarray
    card: np.ndarray
    cycle: np.ndarray
    placed: np.ndarray
    score: np.ndarray
    chain_waves: np.ndarray
    clears: np.ndarray
    cleared: np.ndarray
    max_chain: np.ndarray
    status: np.ndarray
    gid: np.ndarray

    def take(self, idx: np.ndarray) -> GameBatch:
        """The games ``idx`` (copies), in that order (repeats allowed)."""
        return GameBatch(**{f.name: getattr(self, f.name)[idx] for f in fields(self)})

    def copy(self) -> GameBatch:
        """A deep copy."""
        return GameBatch(**{f.name: getattr(self, f.name).copy() for f in fields(self)})

    @property
    def size(self) -> int:
        """Number of games."""
        return int(self.board.shape[0])

    def heights(self) -> np.ndarray:
        """(m, 3) cards per column."""
        return heights(self.board)


def draw(g: GameBatch, rows: np.ndarray, rng: np.random.Generator, u: np.ndarray | None = None) -> None:
    """Draw the next card of games ``rows`` uniformly from their decks (the deck is well shuffled).

    ``u``: the uniforms to use, one per game of ``g`` (common random numbers); default fresh ones.
    """
    if not rows.size:
        return
    d = g.deck[rows]
    total = rowsum(d)
    uu = rng.random(rows.size) if u is None else u[rows]
    r = (uu * total).astype(np.int64)
    v = rowsum(np.cumsum(d, axis=1) <= r[:, None])
    g.card[rows] = v
    g.deck[rows, v] -= 1


@validate_params(p=PARAMS, n=Int(1, MAX_GAMES), rng=Rng(), t=TABLES)
def new_games(p: IceCreamParams, n: int, *, rng: np.random.Generator, t: Tables | None = None) -> GameBatch:
    """``n`` fresh games: empty boards, the first deck (1..6 ×4, plus score-attack crush ice), first card drawn.

    Raises
    ------
    ParamTypeError, ParamError
        For ``n`` not an integer in 1..MAX_GAMES, ``p`` not an IceCreamParams or ``rng`` not
        seed material.
    """
    t = tables(p) if t is None else t
    z = np.zeros(n, np.int32)
    g = GameBatch(board=np.zeros((n, N_CELLS), np.int8), deck=np.tile(t.add[1], (n, 1)),
                  disc=np.zeros((n, N_VALUES), np.int16), card=np.zeros(n, np.int8),
                  cycle=np.ones(n, np.int16), placed=z.copy(), score=z.copy(), chain_waves=z.copy(),
                  clears=z.copy(), cleared=z.copy(), max_chain=np.zeros(n, np.int16),
                  status=np.zeros(n, np.int8), gid=np.arange(n, dtype=np.int64))
    draw(g, np.arange(n), rng)
    if p.deck_out == "last_card":
        deck_out(g, p, t)
    return g


#: Unchecked body of :func:`new_games` (the simulator, once per chunk).
_new_games = new_games.__wrapped__


def place_batch(board: np.ndarray, cols: np.ndarray, card: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Drop ``card`` into ``cols``: new boards (copy) and the flat cell each card landed in."""
    h = heights(board)[np.arange(board.shape[0]), cols]
    pos = h * COLS + cols
    out = board.copy()
    out[np.arange(board.shape[0]), pos] = card
    return out, pos


@validate_params(g=Instance(GameBatch, "a GameBatch (from new_games)"), cols=IntArray(0, COLS - 1), p=PARAMS,
                 rng=Rng(), t=TABLES, draw_next=Bool(),
                 resolved=Unchecked("trusted: the policy's resolve_batch result of these placements, or None"),
                 u=Unchecked("trusted: one uniform per game of g, or None"))
def advance(g: GameBatch, cols: np.ndarray, p: IceCreamParams, rng: np.random.Generator, *,
            t: Tables | None = None, draw_next: bool = True,
            resolved: dict[str, np.ndarray] | None = None, u: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Play one placement in every game of ``g`` (all running; ``cols`` legal), in place.

    Places the card in hand, resolves, scores, checks game over (then, in normal mode,
    the extended-play win), rebuilds the deck when it ran out (or wins at the end of the
    last cycle: :func:`deck_out`), cuts off games at ``max_placements`` and draws the next
    card (``draw_next``; with the uniforms ``u``, one per game, if given; with
    ``deck_out = "last_card"`` the deck-out step follows the draw instead). ``resolved``: the
    placement's :func:`resolve_batch` result with ``pos``, when the policy has computed it already. Returns the :func:`resolve_batch` result of the
    placement (with ``pos``).

    Raises
    ------
    ParamTypeError, ParamError
        For ``g`` not a GameBatch, ``p`` not an IceCreamParams, ``rng`` not seed material,
        ``draw_next`` not a bool, or ``cols`` not an integer array of shape ``(g.size,)`` with
        values 0..2 (the shape, a relation with ``g``, is checked in the body).
    """
    if cols.shape != (g.board.shape[0],):
        raise ParamError("cols", f"<{type(cols).__name__} {cols.dtype} {cols.shape}>",
                         f"an integer ndarray of shape ({g.board.shape[0]},), values 0..{COLS - 1}")
    t = tables(p) if t is None else t
    if resolved is None:
        placed_board, pos = place_batch(g.board, cols, g.card)
        res = _resolve_batch(placed_board, p, t, pos=pos)
    else:
        res, pos = resolved, resolved["pos"]
    g.board = res["board"]
    g.disc += res["removed"]
    g.score += res["score"]
    w = res["waves"]
    g.clears += w > 0
    g.chain_waves += np.maximum(w - 1, 0)
    np.maximum(g.max_chain, w.astype(np.int16), out=g.max_chain)
    g.cleared += res["n_removed"]
    g.placed += 1
    top = rowsum(g.board[:, (ROWS - 1) * COLS:]) != 0  # a card in row 5 (5段目)
    g.status[top] = 2
    if p.mode == "normal" and p.extra_win == "immediate":
        no_crush = rowsum(g.board == CRUSH) == 0
        g.status[(g.status == 0) & (g.cycle > p.n_cycles) & no_crush] = 1
    if p.deck_out == "empty_draw":
        deck_out(g, p, t)
    run = g.status == 0
    g.status[run & (g.placed >= p.max_placements)] = 3
    if draw_next:
        draw(g, np.flatnonzero(g.status == 0), rng, u)
        if p.deck_out == "last_card":
            deck_out(g, p, t)
    res["pos"] = pos
    return res


#: Unchecked body of :func:`advance` (the simulator's and the policies' inner loops).
_advance = advance.__wrapped__


def deck_out(g: GameBatch, p: IceCreamParams, t: Tables) -> None:
    """The running games of ``g`` whose deck is empty: the win check, else the next deck (山が切れたら), in place.

    Normal mode: at the end of cycle ``n_cycles`` or later, no crush ice on the board wins
    (勝利条件). Otherwise the discards plus the next cycle's new cards become the deck
    (crush ice taken out of the discards after the last cycle); an empty new deck stalls
    the game. Called after the placement (``deck_out = "empty_draw"``) or after the draw
    (``"last_card"``: the card in hand is the deck's last).
    """
    out = (g.status == 0) & (rowsum(g.deck) == 0)
    if not out.any():
        return
    if p.mode == "normal":
        won = out & (g.cycle >= p.n_cycles) & (rowsum(g.board == CRUSH) == 0)
        g.status[won] = 1
        out &= ~won
    rows = np.flatnonzero(out)
    if rows.size:
        nxt = np.minimum(g.cycle[rows].astype(np.intp) + 1, t.add.shape[0] - 1)
        d = g.disc[rows] + t.add[nxt]
        d[t.strip_crush[nxt], CRUSH] = 0
        g.deck[rows] = d
        g.disc[rows] = 0
        g.cycle[rows] += 1
        stalled = rowsum(d) == 0
        g.status[rows[stalled]] = 4
