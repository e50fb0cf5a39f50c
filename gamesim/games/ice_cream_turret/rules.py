"""Ice Cream Turret (アイスクリームタレット): the pure rules core.

Source: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``,
section ``#28 アイスクリームタレット``; our reading, with every quoted passage, is
``docs/rules/ice_cream_turret.md``.

Board layout (shared with the vectorized simulator): a board is 15 cells, flat index
``row * 3 + col`` with ``row = 0`` the bottom row and ``row = 4`` the top (the 5th row,
5段目), ``col`` 0..2. Cell values: ``0`` empty, ``1..9`` ice cream cards, ``10``
(:data:`CRUSH`) crush ice (クラッシュアイス). Cards always rest on the bottom of their
column (gravity), so a column is a stack.

Everything here is a pure function on tuples; it draws no random numbers. The
scalar reference (:mod:`.reference`) replays games with these functions and the
tests compare them, cell for cell, with the vectorized kernels of :mod:`.sim`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Choice,
    Instance,
    Int,
    IntList,
    Optional,
    ParamTypeError,
    Unchecked,
    check_bool,
    check_choice,
    check_int,
    is_int,
    validate_params,
)

__all__ = [
    "ROWS", "COLS", "N_CELLS", "EMPTY", "CRUSH", "N_VALUES", "MAX_CYCLES", "MAX_PLACEMENTS",
    "LINES", "LINE_KIND", "WINDOWS", "WINDOW_LINE", "WINDOWS_THROUGH", "NEIGHBOURS",
    "IceCreamParams", "Resolution", "Board",
    "cell", "board_from_rows", "board_to_rows", "column_height", "legal_columns", "place",
    "WindowKind", "window_kind", "find_clears", "gravity", "resolve", "is_game_over", "has_crush",
    "cycle_additions", "initial_deck", "rebuild_deck", "multi_line_bonus", "BOARD", "PARAMS",
]

#: Board height (段) and width (列).
ROWS: int = 5
COLS: int = 3
N_CELLS: int = ROWS * COLS
#: Empty cell value.
EMPTY: int = 0
#: Cell value of a crush ice card (クラッシュアイス); ice cream cards are 1..9.
CRUSH: int = 10
#: Size of a per-value count vector (index 0 unused, 1..9 ice cream, 10 crush ice).
N_VALUES: int = 11
#: Largest ``n_cycles`` accepted (deck cycles before the win check).
MAX_CYCLES: int = 20
#: Largest ``max_placements`` accepted (cards placed before a game is cut off).
MAX_PLACEMENTS: int = 100_000

Board = tuple[int, ...]


def cell(row: int, col: int) -> int:
    """Flat index of ``(row, col)``; row 0 is the bottom row."""
    return row * COLS + col


def _build_lines() -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    lines: list[tuple[int, ...]] = []
    kinds: list[str] = []
    for r in range(ROWS):  # 横: rows, left to right
        lines.append(tuple(cell(r, c) for c in range(COLS)))
        kinds.append("row")
    for c in range(COLS):  # 縦: columns, bottom to top
        lines.append(tuple(cell(r, c) for r in range(ROWS)))
        kinds.append("column")
    for r in range(ROWS - 2):  # 斜め: the 3-cell diagonals, bottom to top
        lines.append(tuple(cell(r + k, k) for k in range(3)))
        kinds.append("diagonal")
        lines.append(tuple(cell(r + k, 2 - k) for k in range(3)))
        kinds.append("diagonal")
    return tuple(lines), tuple(kinds)


#: The 14 lines (5 rows, 3 columns, 6 three-cell diagonals), each a tuple of flat cells in order.
LINES, LINE_KIND = _build_lines()


def _build_windows() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    wins: list[tuple[int, ...]] = []
    owner: list[int] = []
    for li, line in enumerate(LINES):
        for length in range(3, len(line) + 1):
            for start in range(len(line) - length + 1):
                wins.append(line[start:start + length])
                owner.append(li)
    return tuple(wins), tuple(owner)


#: Every contiguous run of >= 3 cells of a line (29 windows: 20 of 3 cells, 6 of 4, 3 of 5).
WINDOWS, WINDOW_LINE = _build_windows()


def _build_neighbours() -> tuple[tuple[int, ...], ...]:
    out = []
    for i in range(N_CELLS):
        r, c = divmod(i, COLS)
        out.append(tuple(cell(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                         if (dr or dc) and 0 <= r + dr < ROWS and 0 <= c + dc < COLS))
    return tuple(out)


#: The 8-neighbourhood (縦・横・斜めに隣接) of every cell.
NEIGHBOURS: tuple[tuple[int, ...], ...] = _build_neighbours()

#: For every cell, the windows (indices into WINDOWS) that contain it.
WINDOWS_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w, cells in enumerate(WINDOWS) if i in cells) for i in range(N_CELLS))

Mode = Literal["normal", "score_attack"]
ExtraWin = Literal["immediate", "deck_end"]
DeckOut = Literal["empty_draw", "last_card"]
LineBonus = Literal["cap", "double"]


@dataclass(frozen=True)
class IceCreamParams:
    """Every tunable rule of Ice Cream Turret, with the rulebook's values as defaults.

    Parameters
    ----------
    mode : {"normal", "score_attack"}, default "normal"
        ``normal``: the solitaire (勝利条件). ``score_attack``: スコアアタック (crush ice in
        the first deck, 8s added in cycle 3, no 9s, decks rebuilt with no additions after
        the last addition until game over; bonuses scored).
    base_copies : int, default 4
        Copies of each of 1..6 in the first deck (始め方: 各4枚). 0..12.
    copies_7, copies_8, copies_9 : int, default 4
        Copies of 7, 8 and 9 added when their cycle starts (2巡目 7, 4巡目 8, 5巡目 9 in
        normal mode; 2巡目 7 and 3巡目 8 in score attack, where 9s are never used). 0..12.
    crush_count : int, default 4
        Crush ice cards added (3巡目 in normal mode, in the first deck in score attack). 0..12.
    crush_cycle : int or None, default None
        Cycle whose deck receives the crush ice; ``None`` = the rulebook's (3 normal, 1
        score attack). 1..MAX_CYCLES.
    n_cycles : int, default 5
        Normal mode: the win is checked when the deck of this cycle runs out (5巡目).
        Additions scheduled after it never happen. Score attack: ignored. 1..MAX_CYCLES.
    crush_cascade : bool, default False
        False: crush ice clears only next to a clearing ice cream card. True: a clearing
        crush ice also takes its crush-ice neighbours with it.
    extra_win : {"immediate", "deck_end"}, default "immediate"
        Normal mode after the last cycle (crush ice left): win as soon as the board holds
        no crush ice (``immediate``), or only when a rebuilt deck runs out (``deck_end``).
    deck_out : {"empty_draw", "last_card"}, default "empty_draw"
        When the deck has run out (山が切れた時): ``empty_draw``, after its last card has been
        placed, when the next card is to be drawn (the win check of 5巡目 and the rebuild see
        the board and discards after that placement); ``last_card``, the moment its last card
        is turned: the win check (won without placing that card) and the rebuild happen
        then, and the cards the last card clears join the next discard pile.
    line_bonus : {"cap", "double"}, default "cap"
        Score attack, 4 or more lines cleared at once: +4 like 3 lines (``cap``) or
        doubling per extra line (+8, +16, ``double``).
    equal_runs_score : bool, default False
        Score attack: whether 4 or 5 equal cards in a column earn the 4枚続き/5枚続き bonus
        (default: only consecutive numbers, 続き数字).
    max_placements : int, default 3000
        Cards placed before a game still running is cut off (reported as ``capped``).
        1..MAX_PLACEMENTS.

    Raises
    ------
    ParamError, ParamTypeError
        For a value of the wrong type or out of range (checked in ``__post_init__``).
    """

    mode: Mode = "normal"
    base_copies: int = 4
    copies_7: int = 4
    copies_8: int = 4
    copies_9: int = 4
    crush_count: int = 4
    crush_cycle: int | None = None
    n_cycles: int = 5
    crush_cascade: bool = False
    extra_win: ExtraWin = "immediate"
    deck_out: DeckOut = "empty_draw"
    line_bonus: LineBonus = "cap"
    equal_runs_score: bool = False
    max_placements: int = 3000

    def __post_init__(self) -> None:
        check_choice("mode", self.mode, ("normal", "score_attack"))
        for name in ("base_copies", "copies_7", "copies_8", "copies_9", "crush_count"):
            check_int(name, getattr(self, name), min=0, max=12)
        if self.crush_cycle is not None:
            check_int("crush_cycle", self.crush_cycle, min=1, max=MAX_CYCLES)
        check_int("n_cycles", self.n_cycles, min=1, max=MAX_CYCLES)
        check_bool("crush_cascade", self.crush_cascade)
        check_choice("extra_win", self.extra_win, ("immediate", "deck_end"))
        check_choice("deck_out", self.deck_out, ("empty_draw", "last_card"))
        check_choice("line_bonus", self.line_bonus, ("cap", "double"))
        check_bool("equal_runs_score", self.equal_runs_score)
        check_int("max_placements", self.max_placements, min=1, max=MAX_PLACEMENTS)
        if self.base_copies == 0:
            raise ParamError("base_copies", self.base_copies, "an integer >= 1 (the first deck needs cards)")

    @property
    def crush_at(self) -> int:
        """The cycle whose deck receives the crush ice."""
        if self.crush_cycle is not None:
            return self.crush_cycle
        return 3 if self.mode == "normal" else 1


#: Declared constraints shared by the public functions (:func:`validate_params`): the rules
#: object, and a board of 15 integer cells in 0..10 (flat, bottom row first; the body gets a list).
PARAMS = Instance(IceCreamParams, "an IceCreamParams")
BOARD = IntList(EMPTY, CRUSH, min_len=N_CELLS, max_len=N_CELLS)
#: A deck cycle: any integer >= 1 (constant time, so no maximum is needed).
CYCLE = Int(1)
COL = Int(0, COLS - 1)


@validate_params(p=PARAMS, cycle=CYCLE)
def cycle_additions(p: IceCreamParams, cycle: int) -> tuple[int, ...]:
    """New cards added to the deck of ``cycle`` (cycle 1 = the first deck), as 11 counts.

    Normal mode (山が切れたら): cycle 1 holds 1..6 × ``base_copies``; cycle 2 adds
    ``copies_7`` 7s, cycle ``crush_cycle`` (3) ``crush_count`` crush ice, cycle 4
    ``copies_8`` 8s, cycle 5 ``copies_9`` 9s; nothing is added after ``n_cycles``.
    Score attack (スコアアタック): crush ice in cycle ``crush_cycle`` (1), 7s in 2, 8s in 3,
    no 9s, nothing later.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``p`` is not an IceCreamParams or ``cycle`` not an integer.
    ParamError
        (a ``ValueError``) If ``cycle`` is below 1.
    """
    add = [0] * N_VALUES
    if cycle == 1:
        for v in range(1, 7):
            add[v] = p.base_copies
    if p.mode == "normal":
        if cycle > p.n_cycles:
            return tuple(add)
        sched = {2: (7, p.copies_7), 4: (8, p.copies_8), 5: (9, p.copies_9)}
    else:
        sched = {2: (7, p.copies_7), 3: (8, p.copies_8)}
    if cycle in sched:
        v, k = sched[cycle]
        add[v] += k
    if cycle == p.crush_at:
        add[CRUSH] += p.crush_count
    return tuple(add)


#: Unchecked body of :func:`cycle_additions` (the decks and the kernels' tables).
_cycle_additions = cycle_additions.__wrapped__


@validate_params(p=PARAMS)
def initial_deck(p: IceCreamParams) -> tuple[int, ...]:
    """Counts of the first deck (cycle 1).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``p`` is not an IceCreamParams.
    """
    return _cycle_additions(p, 1)


#: Unchecked body of :func:`initial_deck` (the scalar reference).
_initial_deck = initial_deck.__wrapped__


@validate_params(p=PARAMS, discards=IntList(0, 10_000, min_len=N_VALUES, max_len=N_VALUES), next_cycle=CYCLE)
def rebuild_deck(p: IceCreamParams, discards: Sequence[int], next_cycle: int) -> tuple[int, ...]:
    """The deck of ``next_cycle``: the discards plus that cycle's new cards (捨て札を集め、新たなカードを加えて).

    In normal mode after the last cycle (``next_cycle > n_cycles``) the crush ice in the
    discards is removed from the game (捨て札からクラッシュアイスを全て取り除いて).

    Raises
    ------
    ParamTypeError, ParamError
        If ``p`` is not an IceCreamParams, ``discards`` not 11 integer counts in 0..10 000 or
        ``next_cycle`` not an integer >= 1.
    """
    add = _cycle_additions(p, next_cycle)
    out = [d + a for d, a in zip(discards, add)]
    if p.mode == "normal" and next_cycle > p.n_cycles:
        out[CRUSH] = 0
    return tuple(out)


#: Unchecked body of :func:`rebuild_deck` (the scalar reference).
_rebuild_deck = rebuild_deck.__wrapped__


@validate_params(rows=Unchecked("a drawing, parsed in the body (its errors name the row or symbol)"))
def board_from_rows(rows: Sequence[Sequence[int | str]]) -> Board:
    """A board from a drawing, top row first, e.g. ``["...", "12.", "345"]`` or lists of ints.

    Strings: ``.`` empty, ``1``-``9`` ice cream, ``C`` crush ice. At most 5 rows of 3;
    missing rows at the top are empty. Gravity is applied (cards float down).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``rows`` is not a list of rows, or a cell is neither an integer nor
        a symbol (``1.5``, ``True``).
    ValueError
        For a row that is not 3 cells, more than 5 rows, or an unknown symbol.
    """
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise ParamTypeError("rows", rows, f"a list of at most {ROWS} rows of {COLS} cells")
    if len(rows) > ROWS:
        raise ValueError(f"rows = {len(rows)}, must be at most {ROWS}")
    cells = [EMPTY] * N_CELLS
    for k, row in enumerate(reversed(list(rows))):
        if len(row) != COLS:
            raise ValueError(f"row {row!r}: must have {COLS} cells")
        for c, x in enumerate(row):
            if isinstance(x, str):
                if x in ".0 ":
                    v = EMPTY
                elif x in "Cc*":
                    v = CRUSH
                elif x.isdigit():
                    v = int(x)
                else:
                    raise ValueError(f"unknown cell symbol {x!r}")
            elif is_int(x):
                v = int(x)
            else:  # 1.5, True, None: never truncated
                raise ParamTypeError("rows", rows, f"cells that are integers 0..{CRUSH} or one of '.', '1'-'9', 'C'")
            if not 0 <= v <= CRUSH:
                raise ValueError(f"cell value {v}, must be 0..{CRUSH}")
            cells[cell(k, c)] = v
    return _gravity(tuple(cells))


@validate_params(board=BOARD)
def board_to_rows(board: Board) -> list[str]:
    """Inverse of :func:`board_from_rows` (top row first, ``.``/digits/``C``).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``board`` is not a sequence of 15 integers (a float such as ``7.0``, a bool).
    ParamError
        (a ``ValueError``) If a cell is outside 0..:data:`CRUSH`.
    """
    sym = {EMPTY: ".", CRUSH: "C"}
    return ["".join(sym.get(board[cell(r, c)], str(board[cell(r, c)])) for c in range(COLS))
            for r in reversed(range(ROWS))]


@validate_params(board=BOARD, col=COL)
def column_height(board: Board, col: int) -> int:
    """Cards in column ``col``.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``board`` is not a sequence of 15 integers or ``col`` not an integer.
    ParamError
        (a ``ValueError``) If a cell is outside 0..:data:`CRUSH` or ``col`` outside 0..2.
    """
    return sum(1 for r in range(ROWS) if board[cell(r, col)] != EMPTY)


#: Unchecked body of :func:`column_height` (the rules' and the reference's inner loops).
_column_height = column_height.__wrapped__


@validate_params(board=BOARD)
def legal_columns(board: Board) -> list[int]:
    """Columns that are not full (置けるのは3×5の空間).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``board`` is not a sequence of 15 integers (a float such as ``7.0``, a bool).
    ParamError
        (a ``ValueError``) If a cell is outside 0..:data:`CRUSH`.
    """
    return [c for c in range(COLS) if _column_height(board, c) < ROWS]


#: Unchecked body of :func:`legal_columns` (the scalar reference).
_legal_columns = legal_columns.__wrapped__


@validate_params(board=BOARD, col=COL, value=Int(1, CRUSH))
def place(board: Board, col: int, value: int) -> tuple[Board, int]:
    """Drop ``value`` into column ``col`` (上から落ちて): returns the new board and the row it lands on.

    Raises
    ------
    ParamTypeError
        If ``board`` is not 15 integer cells, or ``col``/``value`` is not an integer
        (``7.0`` and ``True`` are refused, never truncated).
    ParamError
        (a ``ValueError``) If ``col``/``value`` or a cell is out of range.
    ValueError
        If the column is full (not a legal choice: a relation of ``board`` and ``col``).
    """
    h = _column_height(board, col)
    if h >= ROWS:
        raise ValueError(f"column {col} is full")
    b = list(board)
    b[cell(h, col)] = value
    return tuple(b), h


#: Unchecked body of :func:`place` (the scalar reference's inner loop).
_place = place.__wrapped__


class WindowKind(IntEnum):
    """What a window of 3 to 5 cells clears (an ``int``: the reference stores it as 0, 1, 2)."""

    #: No clear (an empty cell or crush ice in it, or numbers neither equal nor consecutive).
    NONE = 0
    #: All equal (同じ数字).
    EQUAL = 1
    #: Distinct consecutive numbers in any order (続き数字).
    CONSECUTIVE = 2


@validate_params(values=IntList(EMPTY, CRUSH, min_len=3, max_len=ROWS))
def window_kind(values: Sequence[int]) -> WindowKind:
    """``NONE`` (0) = no clear, ``EQUAL`` (1) = all equal (同じ数字), ``CONSECUTIVE`` (2) = distinct
    consecutive numbers in any order (続き数字).

    Empty cells and crush ice never take part (crush ice is not a number); 9 and 1 do not
    connect (端の数字同士は繋がらない).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``values`` is not a sequence of integers.
    ParamError
        (a ``ValueError``) If it is not 3 to 5 values in 0..:data:`CRUSH`.
    """
    if any(v == EMPTY or v == CRUSH for v in values):
        return WindowKind.NONE
    if all(v == values[0] for v in values):
        return WindowKind.EQUAL
    s = sorted(values)
    if all(s[i + 1] - s[i] == 1 for i in range(len(s) - 1)):
        return WindowKind.CONSECUTIVE
    return WindowKind.NONE


#: Unchecked body of :func:`window_kind` (:func:`find_clears`, :func:`resolve`).
_window_kind = window_kind.__wrapped__


@validate_params(board=BOARD)
def find_clears(board: Board) -> list[tuple[int, WindowKind]]:
    """Every clearing window: ``(window index into WINDOWS, kind)``, kind ``WindowKind.EQUAL`` (1) or
    ``WindowKind.CONSECUTIVE`` (2).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``board`` is not a sequence of 15 integers (a float such as ``7.0``, a bool).
    ParamError
        (a ``ValueError``) If a cell is outside 0..:data:`CRUSH`.
    """
    out = []
    for w, cells in enumerate(WINDOWS):
        k = _window_kind([board[i] for i in cells])
        if k:
            out.append((w, k))
    return out


#: Unchecked body of :func:`find_clears` (:func:`resolve`'s waves).
_find_clears = find_clears.__wrapped__


@validate_params(board=BOARD)
def gravity(board: Board) -> Board:
    """Cards fall to the bottom of their column, keeping their order (消えるとその上にあったアイスは下に落ちる).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``board`` is not a sequence of 15 integers (a float such as ``7.0``, a bool).
    ParamError
        (a ``ValueError``) If a cell is outside 0..:data:`CRUSH`.
    """
    b = [EMPTY] * N_CELLS
    for c in range(COLS):
        stack = [board[cell(r, c)] for r in range(ROWS) if board[cell(r, c)] != EMPTY]
        for r, v in enumerate(stack):
            b[cell(r, c)] = v
    return tuple(b)


#: Unchecked body of :func:`gravity` (:func:`board_from_rows`, :func:`resolve`'s waves).
_gravity = gravity.__wrapped__


@validate_params(n_lines=Int(0, N_CELLS), rule=Choice(("cap", "double")))
def multi_line_bonus(n_lines: int, rule: LineBonus = "cap") -> int:
    """Score attack bonus for ``n_lines`` lines cleared in one wave (2ライン +2, 3ライン +4).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``n_lines`` is not an integer.
    ParamError
        (a ``ValueError``) If ``n_lines`` is outside 0..15 or ``rule`` unknown.
    """
    if n_lines < 2:
        return 0
    if rule == "cap":
        return 2 if n_lines == 2 else 4
    return 2 ** (n_lines - 1)


#: Unchecked body of :func:`multi_line_bonus` (:func:`resolve`, the kernels' tables).
_multi_line_bonus = multi_line_bonus.__wrapped__


@dataclass(frozen=True)
class Resolution:
    """What one placement's clearing did.

    Attributes
    ----------
    board : tuple of int
        The stable board after every wave and fall.
    removed : tuple of int
        Cards cleared, by value (11 counts; they go to the discard pile).
    waves : int
        Waves that cleared something (1 = a plain clear, 2+ = chains, 連鎖).
    score : int
        Score-attack bonus points earned (全消し, 4/5枚続き, 2/3ライン, 連鎖).
    first_wave : frozenset of int
        Cells cleared by the first wave (before any fall).
    """

    board: Board
    removed: tuple[int, ...]
    waves: int
    score: int
    first_wave: frozenset[int]

    @property
    def n_removed(self) -> int:
        """Cards cleared in all (ice cream and crush ice)."""
        return sum(self.removed)


@validate_params(board=BOARD, p=PARAMS, pos=Optional(Int(0, N_CELLS - 1)))
def resolve(board: Board, p: IceCreamParams = IceCreamParams(), *, pos: int | None = None) -> Resolution:
    """Clear, fall and chain until the board is stable (the clearing rules of 遊び方).

    Each wave: every clearing window of every line (rows, columns, 3-cell diagonals;
    equal numbers or distinct consecutive numbers, >= 3 cells) is found on the same board
    and all their cells clear together (複数のライン…同時に消える); crush ice next to a
    clearing ice cream card (8 neighbours) clears with it; the cards above fall; repeat
    while anything clears (落ちた結果並びができればそれも消える).

    Score attack points per wave: 2 lines +2, 3 lines +4 (``line_bonus`` beyond), a line
    whose longest clearing consecutive run is 4 cards +1, 5 cards +2, each wave after the
    first +2 (連鎖); +1 if the board ends empty after a clear (全消し).

    ``pos``: the cell the last card was placed in, on a board that was stable before the
    placement. Any new run then contains that card, so only the windows through ``pos``
    are checked first and, if none clears, the board is returned as it is (the filter of
    :func:`.sim.resolve_batch`; the tests check that it gives the full search's result).

    Raises
    ------
    ParamTypeError, ParamError
        If ``board`` is not 15 integer cells in 0..10, ``p`` is not an IceCreamParams or
        ``pos`` is not None or a cell index 0..14.
    """
    if pos is not None and not any(_window_kind([board[i] for i in WINDOWS[w]]) for w in WINDOWS_THROUGH[pos]):
        return Resolution(tuple(board), (0,) * N_VALUES, 0, 0, frozenset())
    removed = [0] * N_VALUES
    waves = 0
    score = 0
    first: frozenset[int] = frozenset()
    b = list(board)
    while True:
        clears = _find_clears(tuple(b))
        if not clears:
            break
        waves += 1
        cells: set[int] = set()
        lines: set[int] = set()
        longest: dict[int, int] = {}
        for w, k in clears:
            cells.update(WINDOWS[w])
            li = WINDOW_LINE[w]
            lines.add(li)
            if k == 2 or p.equal_runs_score:
                longest[li] = max(longest.get(li, 0), len(WINDOWS[w]))
        crush = {i for i in range(N_CELLS) if b[i] == CRUSH and any(j in cells for j in NEIGHBOURS[i])}
        if p.crush_cascade:
            grew = True
            while grew:
                more = {i for i in range(N_CELLS) if b[i] == CRUSH and i not in crush
                        and any(j in crush for j in NEIGHBOURS[i])}
                grew = bool(more)
                crush |= more
        gone = cells | crush
        if waves == 1:
            first = frozenset(gone)
        score += _multi_line_bonus(len(lines), p.line_bonus)
        score += sum(1 if n == 4 else 2 if n >= 5 else 0 for n in longest.values())
        if waves >= 2:
            score += 2
        for i in gone:
            removed[b[i]] += 1
            b[i] = EMPTY
        b = list(_gravity(tuple(b)))
    if waves and all(v == EMPTY for v in b):
        score += 1
    return Resolution(tuple(b), tuple(removed), waves, score, first)


#: Unchecked body of :func:`resolve` (the scalar reference's inner loop).
_resolve = resolve.__wrapped__


@validate_params(res=Instance(Resolution, "a Resolution (from resolve)"))
def is_game_over(res: Resolution) -> bool:
    """Whether a placement that resolved as ``res`` ends the game: a card remains in row 5.

    アイスが5段目まで積み重なるとゲームオーバー。ただし置いた瞬間に消えればセーフ. The board is
    stable before every placement, so any clear of the first wave runs through the placed
    card and takes it: "the card placed in row 5 clears at once" and "row 5 is empty after
    all chains" are the same test (``docs/rules/ice_cream_turret.md``; checked in the tests).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``res`` is not a :class:`Resolution`.
    """
    return any(res.board[cell(ROWS - 1, c)] != EMPTY for c in range(COLS))


#: Unchecked body of :func:`is_game_over` (the scalar reference).
_is_game_over = is_game_over.__wrapped__


@validate_params(board=BOARD)
def has_crush(board: Board) -> bool:
    """Whether crush ice remains on the board.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``board`` is not a sequence of 15 integers (a float such as ``7.0``, a bool).
    ParamError
        (a ``ValueError``) If a cell is outside 0..:data:`CRUSH`.
    """
    return CRUSH in board


#: Unchecked body of :func:`has_crush` (the scalar reference).
_has_crush = has_crush.__wrapped__
