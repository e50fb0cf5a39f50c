"""神の怒り (Kami no Ikari, "the wrath of god"): the pure rules core.

Source: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``, section
``#27 神の怒り プロトタイプ``; our reading, with every quoted passage, is ``docs/rules/kami_no_ikari.md``.

Five towers, one per number 1..5 (tower ``t`` in code is number ``t + 1``). A *line* joins two
numbers; a worker on the line between ``a`` and ``b`` lets its player put an ``a``-card from
the hand on tower ``b`` or a ``b``-card on tower ``a``. A tower's *height* is the number of cards
on it; the card numbers placed on a tower do not matter for scoring, only how many there are.

Encodings shared with the vectorized simulator (:mod:`.sim`):

- a hand, the deck, the cards placed on the board: counts per number, length 5;
- lines: the board's lines for the player count (:func:`board_lines`), then one slot for the road
  (道コマ) at index ``len(lines)``; ``M = len(lines) + 1`` line slots;
- an action is an integer: ``2 * j + d`` for line slot ``j`` with ``d = 0`` (the ``a``-card on
  tower ``b``, :attr:`Direction.ON_B`) or ``d = 1`` (the ``b``-card on tower ``a``), and
  ``2 * M + v`` for the smoking room (喫煙所) discarding a card of number ``v + 1``;
- a worker's place: a line slot, :attr:`Spot.START` (in front of its player) or
  :attr:`Spot.SMOKING_ROOM`.

Everything here is a pure function on tuples and draws no random numbers: chance (the card
drawn) is listed by :func:`draw_outcomes`. The scalar reference (:mod:`.reference`) replays games
with these functions and the tests compare it with the vectorized kernels.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from gamesim.core.datafile import source_label
from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Bool,
    Choice,
    Instance,
    Int,
    IntList,
    ParamTypeError,
    Unchecked,
    check_bool,
    check_choice,
    check_int,
    check_int_list,
    is_int,
    validate_params,
)

__all__ = [
    "N_NUMBERS", "COPIES", "HAND_SIZE", "MATE_HEIGHT", "END_HEIGHT", "SMOKE_PENALTY", "SET_BONUS",
    "HEIGHT_POINTS", "MAX_TURNS", "BUILTIN_BOARD", "DATA_DIR", "ROAD_PAIRS",
    "Direction", "Spot", "Board", "KamiParams", "KamiState",
    "load_board", "parse_board", "board_lines", "n_actions", "action_code", "decode_action",
    "set_bonus", "card_points", "hand_value", "initial_state", "draw_outcomes", "draw", "turn_start",
    "legal_actions", "apply_action", "final_scores", "winners",
]

#: Numbers (towers) 1..5.
N_NUMBERS: int = 5
#: Cards of each number (1〜5のカード各9枚).
COPIES: int = 9
#: Cards dealt to each player (カードを5枚ずつ配り手札にする).
HAND_SIZE: int = 5
#: Height at which the first tower gets the 摩天カウンター.
MATE_HEIGHT: int = 3
#: Height that ends the game (どれが1つの数字に5枚のカードが置かれたらゲーム終了).
END_HEIGHT: int = 5
#: Points lost per card discarded in the smoking room (喫煙所, −3点).
SMOKE_PENALTY: int = 3
#: Bonus by number of equal cards in hand (3/4/5枚 → +3/+7/+12); index = count.
SET_BONUS: tuple[int, ...] = (0, 0, 0, 3, 7, 12)
#: Points per card in hand by the height of its number's tower (0..5 → 0/0/+1/+2/+3/−1).
HEIGHT_POINTS: tuple[int, ...] = (0, 0, 1, 2, 3, -1)
#: Most turns a game can take: every turn either places a card (at most 4 per tower before
#: one reaches 5) or discards one from a hand, and the deck holds 45 cards.
MAX_TURNS: int = 5 * COPIES + N_NUMBERS * (END_HEIGHT - 1) + 1
#: Name of the built-in (partly ILLUSTRATIVE) board.
BUILTIN_BOARD: str = "illustrative"
#: Folder of the built-in data files.
DATA_DIR: Path = Path(__file__).parent / "data"
#: The ten pairs of different numbers a road can join, as tower indices ``(a, b)``, ``a < b``.
ROAD_PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(N_NUMBERS) for b in range(a + 1, N_NUMBERS))


class Direction(IntEnum):
    """Which way a card goes on the line between ``a`` and ``b``."""

    ON_B = 0  #: an ``a``-card on tower ``b``
    ON_A = 1  #: a ``b``-card on tower ``a``


class Spot(IntEnum):
    """Worker places that are not lines."""

    START = -1          #: in front of its player (before its first move)
    SMOKING_ROOM = -2   #: 喫煙所


# ---------------------------------------------------------------------------
# The board (data file)
# ---------------------------------------------------------------------------

_TOP_KEYS = ("title", "illustrative", "note", "lines")
_LINE_KEYS = ("ends", "min_players", "status", "quote")


@dataclass(frozen=True)
class Board:
    """A board: lines between numbers, each with the smallest player count that has it.

    Attributes
    ----------
    source : str
        File name the board came from.
    title : str
    illustrative : bool
        Whether the file says some lines are invented (ILLUSTRATIVE).
    lines : tuple of (int, int)
        Tower indices ``(a, b)`` (numbers minus one), ``a < b``, in file order, with repeats.
    min_players : tuple of int
        For each line, the smallest player count whose board has it.
    status : tuple of str
        For each line, ``"text"`` (from the rulebook) or ``"illustrative"``.
    """

    source: str
    title: str
    illustrative: bool
    lines: tuple[tuple[int, int], ...]
    min_players: tuple[int, ...]
    status: tuple[str, ...]


def _bad_board(source: str, detail: str) -> ParamError:
    return ParamError("board", source, f"a valid board file ({source_label(source)}: {detail})")


@validate_params(raw=Unchecked("a parsed board file: every problem is a ParamError naming board and the key"),
                 source=Unchecked("any label, used only in messages"))
def parse_board(raw: Any, source: str = "<board>") -> Board:
    """Validate the parsed TOML of a board file.

    Parameters
    ----------
    raw : dict
        The parsed file (see ``data/board_illustrative.toml`` for the format).
    source : str, default "<board>"
        File name for the messages.

    Returns
    -------
    Board

    Raises
    ------
    ParamError
        ``board = '<file>', must be a valid board file (<file>: <key>: <what is wrong>)``: an
        unknown key, a line whose ends are not two different numbers 1..5, a bad
        ``min_players`` or ``status``, or no line at all.
    """
    if not isinstance(raw, dict):
        raise _bad_board(source, "not a table")
    for k in raw:
        if k not in _TOP_KEYS:
            raise _bad_board(source, f"unknown key {k!r} (allowed: {', '.join(_TOP_KEYS)})")
    title = raw.get("title", source)
    illustrative = raw.get("illustrative", False)
    if not isinstance(title, str):
        raise _bad_board(source, "title must be a string")
    if not isinstance(illustrative, bool):
        raise _bad_board(source, "illustrative must be true or false")
    lines_raw = raw.get("lines")
    if not isinstance(lines_raw, list) or not lines_raw:
        raise _bad_board(source, "lines must be a non-empty array of tables [[lines]]")
    lines, mins, status = [], [], []
    for i, ln in enumerate(lines_raw):
        at = f"lines[{i}]"
        if not isinstance(ln, dict):
            raise _bad_board(source, f"{at} must be a table")
        for k in ln:
            if k not in _LINE_KEYS:
                raise _bad_board(source, f"unknown key {at}.{k} (allowed: {', '.join(_LINE_KEYS)})")
        ends = ln.get("ends")
        if (not isinstance(ends, list) or len(ends) != 2 or not all(is_int(e) and 1 <= e <= N_NUMBERS for e in ends)
                or ends[0] == ends[1]):
            raise _bad_board(source, f"{at}.ends = {ends!r}, must be two different numbers 1..5")
        mp = ln.get("min_players", 2)
        if not is_int(mp) or not 2 <= mp <= 4:
            raise _bad_board(source, f"{at}.min_players = {mp!r}, must be 2, 3 or 4")
        st = ln.get("status", "illustrative")
        if st not in ("text", "illustrative"):
            raise _bad_board(source, f"{at}.status = {st!r}, must be 'text' or 'illustrative'")
        q = ln.get("quote", "")
        if not isinstance(q, str):
            raise _bad_board(source, f"{at}.quote must be a string")
        a, b = sorted(int(e) - 1 for e in ends)
        lines.append((a, b))
        mins.append(int(mp))
        status.append(st)
    return Board(source, title, illustrative, tuple(lines), tuple(mins), tuple(status))


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime: float) -> Board:
    name = Path(path).name
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise _bad_board(name, f"not valid TOML: {str(exc).splitlines()[0]}") from None
    return parse_board(raw, name)


@validate_params(board=Instance((str, Path), f'"{BUILTIN_BOARD}" or a path to a board .toml file'))
def load_board(board: str | Path = BUILTIN_BOARD) -> Board:
    """Load and validate a board file.

    Parameters
    ----------
    board : str or Path, default "illustrative"
        ``"illustrative"`` for the built-in board (``data/board_illustrative.toml``: the text's
        lines plus ILLUSTRATIVE ones) or a path to a TOML file in its format.

    Returns
    -------
    Board

    Raises
    ------
    ParamTypeError
        If ``board`` is neither a string nor a path.
    ParamError
        If the file does not exist, is not TOML or fails :func:`parse_board`.
    """
    p = DATA_DIR / "board_illustrative.toml" if str(board) == BUILTIN_BOARD else Path(board)
    if not p.is_file():
        raise ParamError("board", str(board), f'"{BUILTIN_BOARD}" or a path to an existing board .toml file')
    return _load_cached(str(p.resolve()), p.stat().st_mtime)


DeckOut = Literal["end", "play_on"]
Ties = Literal["shared", "later_seat"]


@dataclass(frozen=True)
class KamiParams:
    """Every tunable rule of 神の怒り, with our reading of the rulebook as defaults.

    Parameters
    ----------
    n_players : int, default 4
        Players, 2..4 (プレイ人数:2〜4人). Seat 0 is the start player (くじ引き).
    board : str, default "illustrative"
        The board file (``"illustrative"`` or a path; see :func:`load_board`).
    mate_counter : bool, default True
        Whether the first tower to reach 3 cards gets the 摩天カウンター (doubling its number's
        points). False: no counter and no road (a paired comparison of its value).
    road : bool, default True
        Whether the player who places the 摩天カウンター builds a road (道コマ), a new line.
    collapse_doubled : bool, default True
        Whether the −1 of a card whose tower has 5 cards is doubled (−2) on the 摩天 tower
        (摩天カウンターが置かれている数字は得点が2倍: read literally, every card point doubles).
    deck_out : {"end", "play_on"}, default "end"
        A turn that starts with the deck empty: the game ends there (``end``), or the player
        skips the draw and plays on (``play_on``; a player with an empty hand then ends it).
    ties : {"shared", "later_seat"}, default "shared"
        Equal highest hand values: a shared win (no single winner) or won by the tied player
        latest in turn order.
    smoke_by_choice : bool, default True
        Whether a player may choose the smoking room while a line is free
        (置ける場所が無い/置きたくない場合); False: only when no line is possible.
    board_players : int or None, default None
        Play on the board of this player count (2..4) instead of ``n_players``'s: e.g. a 4-player
        game without the 3-4 line (``board_players = 2``). A design lever, not a rule reading.
    remove_line : int, default -1
        Index (0-based, file order) of one board-file line to leave out; -1 keeps them all. For
        the study of each line's effect.

    Raises
    ------
    ParamError, ParamTypeError
        For a value of the wrong type or out of range, or a board that cannot be loaded
        (checked once, in ``__post_init__``).
    """

    n_players: int = 4
    board: str = BUILTIN_BOARD
    mate_counter: bool = True
    road: bool = True
    collapse_doubled: bool = True
    deck_out: DeckOut = "end"
    ties: Ties = "shared"
    smoke_by_choice: bool = True
    board_players: int | None = None
    remove_line: int = -1

    def __post_init__(self) -> None:
        check_int("n_players", self.n_players, min=2, max=4)
        if not isinstance(self.board, str):
            raise ParamTypeError("board", self.board, f'"{BUILTIN_BOARD}" or a path to a board .toml file')
        for name in ("mate_counter", "road", "collapse_doubled", "smoke_by_choice"):
            check_bool(name, getattr(self, name))
        check_choice("deck_out", self.deck_out, ("end", "play_on"))
        check_choice("ties", self.ties, ("shared", "later_seat"))
        if self.board_players is not None:
            check_int("board_players", self.board_players, min=2, max=4)
        b = load_board(self.board)
        check_int("remove_line", self.remove_line, min=-1, max=len(b.lines) - 1)
        if not self.lines:
            raise ParamError("board", self.board, f"a board with at least one line for {self.n_players} players "
                             "(after remove_line)")

    @property
    def lines(self) -> tuple[tuple[int, int], ...]:
        """The board's lines for this game (tower indices), without the road: those of ``board_players``
        (default ``n_players``), less ``remove_line``."""
        b = load_board(self.board)
        n = self.n_players if self.board_players is None else self.board_players
        return tuple(ln for i, (ln, m) in enumerate(zip(b.lines, b.min_players)) if m <= n and i != self.remove_line)

    @property
    def road_built(self) -> bool:
        """Whether a road can be built at all (counter and road both in play)."""
        return self.mate_counter and self.road


#: Declared constraints shared by the public functions (:func:`validate_params`): the rules, a
#: hand or a pool (5 counts, 0..9 each: one per number 1..5), the towers' heights (5 counts 0..5),
#: the 摩天 tower (-1 none), a count of smoking-room cards, a board's line count.
PARAMS = Instance(KamiParams, "a KamiParams")
COUNTS = IntList(0, COPIES, min_len=N_NUMBERS, max_len=N_NUMBERS)
HEIGHTS = IntList(0, END_HEIGHT, min_len=N_NUMBERS, max_len=N_NUMBERS)
MATE = Int(-1, N_NUMBERS - 1)
CARDS = Int(0, N_NUMBERS * COPIES)
N_LINES = Int(1, 64)


@validate_params(board=Instance(Board, "a Board (see load_board)"), n_players=Int(2, 4))
def board_lines(board: Board, n_players: int) -> tuple[tuple[int, int], ...]:
    """The lines of ``board`` in a game of ``n_players`` (those with ``min_players <= n_players``).

    Parameters
    ----------
    board : Board
        A board (:func:`load_board`).
    n_players : int
        2..4.

    Returns
    -------
    tuple of (int, int)

    Raises
    ------
    ParamTypeError, ParamError
        If ``board`` is not a Board or ``n_players`` not 2..4.
    """
    return tuple(ln for ln, m in zip(board.lines, board.min_players) if m <= n_players)


@validate_params(n_lines=N_LINES)
def n_actions(n_lines: int) -> int:
    """Number of action codes with ``n_lines`` board lines: two per line slot (road included), five smoking-room discards.

    Parameters
    ----------
    n_lines : int
        Board lines (without the road), 1..64.

    Returns
    -------
    int

    Raises
    ------
    ParamTypeError, ParamError
        If ``n_lines`` is not an integer 1..64.
    """
    return 2 * (n_lines + 1) + N_NUMBERS


_n_actions = n_actions.__wrapped__


@validate_params(kind=Choice(("line", "smoke")), n_lines=N_LINES,
                 index=Unchecked("0..2 * n_lines + 1 for a line, 0..4 for smoke: bounds from kind and n_lines, "
                                 "checked in the body"))
def action_code(kind: Literal["line", "smoke"], index: int, n_lines: int) -> int:
    """The integer code of an action.

    Parameters
    ----------
    kind : {"line", "smoke"}
    index : int
        ``"line"``: ``2 * slot + direction`` (slot ``0..n_lines``, the last being the road);
        ``"smoke"``: the tower index ``0..4`` of the card discarded.
    n_lines : int
        Board lines (without the road), 1..64.

    Returns
    -------
    int

    Raises
    ------
    ParamTypeError, ParamError
        For an unknown kind or an index out of range.
    """
    if kind == "line":
        return check_int("index", index, min=0, max=2 * (n_lines + 1) - 1)
    return 2 * (n_lines + 1) + check_int("index", index, min=0, max=N_NUMBERS - 1)


@validate_params(n_lines=N_LINES,
                 code=Unchecked("0..n_actions(n_lines) - 1: a bound from n_lines, checked in the body"))
def decode_action(code: int, n_lines: int) -> tuple[str, int, int]:
    """``("line", slot, direction)`` or ``("smoke", value, 0)`` of an action code (inverse of :func:`action_code`).

    Parameters
    ----------
    code : int
        An action code, 0..``n_actions(n_lines) - 1``.
    n_lines : int
        Board lines (without the road), 1..64.

    Returns
    -------
    tuple of (str, int, int)

    Raises
    ------
    ParamTypeError, ParamError
        If ``code`` is not a valid code for ``n_lines``.
    """
    code = check_int("code", code, min=0, max=_n_actions(n_lines) - 1)
    m2 = 2 * (n_lines + 1)
    if code >= m2:
        return ("smoke", code - m2, 0)
    return ("line", code // 2, code % 2)


# ---------------------------------------------------------------------------
# Scoring (得点計算)
# ---------------------------------------------------------------------------

@validate_params(count=CARDS)
def set_bonus(count: int) -> int:
    """Bonus for ``count`` equal cards in hand: 3/4/5 → +3/+7/+12, fewer → 0 (more than 5 → 12).

    Parameters
    ----------
    count : int
        Equal cards in hand, 0..45.

    Returns
    -------
    int

    Raises
    ------
    ParamTypeError, ParamError
        If ``count`` is not an integer 0..45.
    """
    return SET_BONUS[min(count, 5)]


@validate_params(height=Int(0, END_HEIGHT), mate=Bool(), collapse_doubled=Bool())
def card_points(height: int, mate: bool = False, *, collapse_doubled: bool = True) -> int:
    """Points of one card in hand whose number's tower has ``height`` cards.

    Parameters
    ----------
    height : int
        0..5 (0/1/2/3/4/5 → 0/0/+1/+2/+3/−1).
    mate : bool, default False
        Whether the tower holds the 摩天カウンター (points doubled).
    collapse_doubled : bool, default True
        Whether the −1 at height 5 is doubled too on the 摩天 tower.

    Returns
    -------
    int

    Raises
    ------
    ParamTypeError, ParamError
        If ``height`` is not 0..5 or a flag is not a bool.
    """
    pts = HEIGHT_POINTS[height]
    if mate and (pts > 0 or collapse_doubled):
        pts *= 2
    return pts


#: Unchecked body of :func:`card_points`, for :func:`hand_value`'s loop.
_card_points = card_points.__wrapped__


@validate_params(hand=COUNTS, heights=HEIGHTS, mate=MATE, smoke=CARDS, collapse_doubled=Bool())
def hand_value(hand: tuple[int, ...], heights: tuple[int, ...], mate: int = -1, smoke: int = 0, *,
               collapse_doubled: bool = True) -> int:
    """The value of a hand (手札の価値): set bonuses + card points − 3 per smoking-room card.

    Parameters
    ----------
    hand : sequence of 5 int
        Cards of each number 1..5 in hand (0..9 each).
    heights : sequence of 5 int
        Cards on each tower (0..5).
    mate : int, default -1
        Tower index 0..4 holding the 摩天カウンター, or -1 (none).
    smoke : int, default 0
        Cards this player discarded in the smoking room (0..45).
    collapse_doubled : bool, default True
        See :class:`KamiParams`.

    Returns
    -------
    int
        ``sum(SET_BONUS[c]) + sum(c * points(height)) - 3 * smoke``; the 摩天 number's card points
        are doubled (the set bonus is not: the rulebook doubles 得点 of the number, listed with
        the per-card points).

    Raises
    ------
    ParamTypeError, ParamError
        For counts of the wrong length, type or range.
    """
    v = -SMOKE_PENALTY * smoke
    for t in range(N_NUMBERS):
        c = hand[t]
        v += SET_BONUS[min(c, 5)] + c * _card_points(heights[t], t == mate, collapse_doubled=collapse_doubled)
    return v


#: Unchecked body of :func:`hand_value`, for the exact tables, the reference and the scores.
_hand_value = hand_value.__wrapped__


# ---------------------------------------------------------------------------
# Game state and moves
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class KamiState:
    """One game's state (immutable, hashable).

    Attributes
    ----------
    hands : tuple of tuple of int
        ``hands[seat]``: counts per number.
    deck : tuple of int
        Cards of each number left in the deck (山).
    placed : tuple of int
        Cards of each number placed on the board (visible; what the towers are made of).
    heights : tuple of int
        Cards on each tower.
    workers : tuple of int
        Each seat's worker: a line slot, ``Spot.START`` or ``Spot.SMOKING_ROOM``.
    smoke : tuple of int
        Smoking-room cards of each seat.
    mate : int
        Tower with the 摩天カウンター, -1 before.
    mate_seat : int
        Seat that placed it, -1 before.
    road : tuple of int or None
        Tower indices of the road, once built.
    to_move : int
        Seat whose turn it is.
    turn : int
        Moves made so far (game length in turns at the end).
    drawn : bool
        Whether ``to_move`` has drawn (or skipped the draw) this turn.
    over : bool
    trigger : int
        Seat that placed a tower's 5th card (神の怒り), -1 if the game ended otherwise.
    """

    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    placed: tuple[int, ...] = (0,) * N_NUMBERS
    heights: tuple[int, ...] = (0,) * N_NUMBERS
    workers: tuple[int, ...] = ()
    smoke: tuple[int, ...] = ()
    mate: int = -1
    mate_seat: int = -1
    road: tuple[int, int] | None = None
    to_move: int = 0
    turn: int = 0
    drawn: bool = False
    over: bool = False
    trigger: int = -1


#: A game state (:func:`validate_params`).
STATE = Instance(KamiState, "a KamiState")


@validate_params(hands=Unchecked("2..4 hands of 5 counts with 5 cards each and at most 9 of a number in all "
                                 "(a list of lists, related by the copies): checked in the body"))
def initial_state(hands: tuple[tuple[int, ...], ...]) -> KamiState:
    """The state after the deal: ``hands`` dealt (5 cards each), the rest in the deck, seat 0 to move.

    Parameters
    ----------
    hands : sequence of sequences of 5 int
        One hand per seat (2..4), counts per number 1..5.

    Returns
    -------
    KamiState

    Raises
    ------
    ParamTypeError, ParamError
        If ``hands`` is not 2..4 hands of 5 cards whose counts fit in 9 copies per number.
    """
    if not isinstance(hands, (tuple, list)) or not 2 <= len(hands) <= 4:
        raise ParamTypeError("hands", hands, "2..4 hands of 5 counts")
    hs = tuple(tuple(check_int_list("hands", h, min=0, max=COPIES, min_len=N_NUMBERS, max_len=N_NUMBERS))
               for h in hands)
    if any(sum(h) != HAND_SIZE for h in hs):
        raise ParamError("hands", hands, f"hands of {HAND_SIZE} cards each")
    deck = tuple(COPIES - sum(h[t] for h in hs) for t in range(N_NUMBERS))
    if min(deck) < 0:
        raise ParamError("hands", hands, f"at most {COPIES} cards of a number in all hands")
    n = len(hs)
    return KamiState(hands=hs, deck=deck, workers=(int(Spot.START),) * n, smoke=(0,) * n)


@validate_params(s=STATE)
def draw_outcomes(s: KamiState) -> list[tuple[int, Fraction]]:
    """Chance node of step A: ``(number index, exact probability)`` of the card drawn (uniform over the deck's cards).

    Empty if the deck is empty.

    Parameters
    ----------
    s : KamiState

    Returns
    -------
    list of (int, Fraction)

    Raises
    ------
    ParamTypeError
        If ``s`` is not a KamiState.
    """
    n = sum(s.deck)
    return [(t, Fraction(c, n)) for t, c in enumerate(s.deck) if c] if n else []


@validate_params(s=STATE, p=PARAMS)
def turn_start(s: KamiState, p: KamiParams) -> KamiState:
    """Step A's deck check: the state before the draw, or the ended game if the turn cannot start.

    With the deck empty: ``deck_out = "end"`` ends the game; ``"play_on"`` skips the draw (the
    state comes back with ``drawn = True``), or ends the game if the mover's hand is empty too.

    Parameters
    ----------
    s : KamiState
    p : KamiParams

    Returns
    -------
    KamiState

    Raises
    ------
    ParamTypeError
        For arguments of the wrong type.
    """
    if s.over or s.drawn or sum(s.deck):
        return s
    if p.deck_out == "end" or not sum(s.hands[s.to_move]):
        return replace(s, over=True)
    return replace(s, drawn=True)


#: Unchecked body of :func:`turn_start`, for the reference's game loop.
_turn_start = turn_start.__wrapped__


@validate_params(s=STATE, value=Int(0, N_NUMBERS - 1))
def draw(s: KamiState, value: int) -> KamiState:
    """Step A: the player to move draws a card of tower index ``value`` (0..4) from the deck.

    Parameters
    ----------
    s : KamiState
        Before the draw, game running.
    value : int
        Tower index 0..4 of the card drawn; the deck must hold one.

    Returns
    -------
    KamiState

    Raises
    ------
    ParamTypeError, ParamError
        If the deck holds no such card or the player has drawn already.
    """
    if s.drawn or s.over or not s.deck[value]:  # the state's relation to value: not declarable
        raise ParamError("value", value, "a number left in the deck, drawn once at the start of a turn")
    hands = list(s.hands)
    h = list(hands[s.to_move])
    h[value] += 1
    hands[s.to_move] = tuple(h)
    deck = list(s.deck)
    deck[value] -= 1
    return replace(s, hands=tuple(hands), deck=tuple(deck), drawn=True)


#: The body of :func:`draw` for the reference's game loop (it checks only that the card is in the deck).
_draw = draw.__wrapped__


def _slots(s: KamiState, lines: tuple[tuple[int, int], ...]) -> list[tuple[int, int] | None]:
    return list(lines) + [s.road]


@validate_params(s=STATE, p=PARAMS)
def legal_actions(s: KamiState, p: KamiParams) -> list[int]:
    """Legal action codes of the player to move (after the draw), ascending.

    A line slot ``j`` joining ``a`` and ``b`` is open when it exists (the road once built), no
    other worker stands on it and the mover's worker did not stand on it
    (他のコマがある場所や元いた場所は不可); on it the mover may put an ``a``-card from the hand
    on tower ``b`` (code ``2j``) or a ``b``-card on tower ``a`` (``2j + 1``). A line where the
    mover holds neither card is no place to put the worker (置ける場所が無い). The smoking room,
    discarding a held card of number ``v + 1`` (code ``2M + v``), is legal when no line move is,
    or always with ``smoke_by_choice`` (置きたくない場合).

    Parameters
    ----------
    s : KamiState
        After the draw.
    p : KamiParams

    Returns
    -------
    list of int

    Raises
    ------
    ParamTypeError
        For arguments of the wrong type.
    """
    return _legal_actions(s, p.lines, p.smoke_by_choice)


def _legal_actions(s: KamiState, lines: tuple[tuple[int, int], ...], smoke_by_choice: bool) -> list[int]:
    me = s.to_move
    hand = s.hands[me]
    taken = {w for i, w in enumerate(s.workers) if i != me}
    out = []
    for j, ln in enumerate(_slots(s, lines)):
        if ln is None or j in taken or j == s.workers[me]:
            continue
        a, b = ln
        if hand[a]:
            out.append(2 * j)
        if hand[b]:
            out.append(2 * j + 1)
    if not out or smoke_by_choice:
        m2 = 2 * (len(lines) + 1)
        out.extend(m2 + v for v in range(N_NUMBERS) if hand[v])
    return out


@validate_params(s=STATE, p=PARAMS,
                 action=Unchecked("a legal action of s under p: checked in the body (type and range first)"),
                 road=Unchecked("None or a pair of ROAD_PAIRS, needed only by a move that places the counter: "
                                "checked in the body"))
def apply_action(s: KamiState, action: int, p: KamiParams, road: tuple[int, int] | None = None) -> KamiState:
    """Steps B and C: move the worker and play the card (or go to the smoking room), then pass the turn.

    Parameters
    ----------
    s : KamiState
        After the draw (``s.drawn``), game running.
    action : int
        A code from :func:`legal_actions`.
    p : KamiParams
    road : (int, int) or None
        The road's tower indices ``(a, b)``, ``a < b``, used when this move puts the
        摩天カウンター on a tower (the first to reach 3 cards) and roads are in play.

    Returns
    -------
    KamiState
        With the game over (``trigger`` = the mover) if a tower reached 5 cards; else the next
        seat to move, not yet drawn.

    Raises
    ------
    ParamTypeError, ParamError
        If the action is not legal, the state is not waiting for a move, or the road is missing
        or not a pair of different tower indices when it is needed.
    """
    if s.over or not s.drawn:
        raise ParamError("s", "state", "a running game whose player to move has drawn")
    action = check_int("action", action, min=0, max=_n_actions(len(p.lines)) - 1)
    if action not in _legal_actions(s, p.lines, p.smoke_by_choice):
        raise ParamError("action", action, f"a legal action {_legal_actions(s, p.lines, p.smoke_by_choice)}")
    if road is not None and (not isinstance(road, tuple) or road not in ROAD_PAIRS):
        raise ParamError("road", road, "None or a pair (a, b) of tower indices, 0 <= a < b <= 4")
    return _apply_action(s, action, p, road)


def _apply_action(s: KamiState, action: int, p: KamiParams, road: tuple[int, int] | None) -> KamiState:
    # the move itself, trusted (the reference's game loop); apply_action checks its legality first
    me = s.to_move
    lines = p.lines
    m2 = 2 * (len(lines) + 1)
    hands = list(s.hands)
    h = list(hands[me])
    workers = list(s.workers)
    upd: dict[str, Any] = {}
    if action >= m2:
        h[action - m2] -= 1
        workers[me] = int(Spot.SMOKING_ROOM)
        sm = list(s.smoke)
        sm[me] += 1
        upd["smoke"] = tuple(sm)
    else:
        j, d = divmod(action, 2)
        a, b = _slots(s, lines)[j]  # type: ignore[misc]
        card, tower = (a, b) if d == Direction.ON_B else (b, a)
        h[card] -= 1
        workers[me] = j
        heights = list(s.heights)
        heights[tower] += 1
        placed = list(s.placed)
        placed[card] += 1
        upd["heights"] = tuple(heights)
        upd["placed"] = tuple(placed)
        if p.mate_counter and s.mate < 0 and heights[tower] == MATE_HEIGHT:
            upd["mate"] = tower
            upd["mate_seat"] = me
            if p.road:
                if road is None:
                    raise ParamError("road", road, "a pair (a, b) of tower indices: this move places the 摩天カウンター")
                upd["road"] = road
        if heights[tower] >= END_HEIGHT:
            upd["over"] = True
            upd["trigger"] = me
    hands[me] = tuple(h)
    upd["hands"] = tuple(hands)
    upd["workers"] = tuple(workers)
    upd["turn"] = s.turn + 1
    if not upd.get("over"):
        upd["to_move"] = (me + 1) % len(s.hands)
        upd["drawn"] = False
    return replace(s, **upd)


@validate_params(s=STATE, p=PARAMS)
def final_scores(s: KamiState, p: KamiParams) -> tuple[int, ...]:
    """Each seat's hand value (手札の価値) on the state's board.

    Parameters
    ----------
    s : KamiState
    p : KamiParams

    Returns
    -------
    tuple of int

    Raises
    ------
    ParamTypeError
        For arguments of the wrong type.
    """
    return tuple(_hand_value(h, s.heights, s.mate, sm, collapse_doubled=p.collapse_doubled)
                 for h, sm in zip(s.hands, s.smoke))


@validate_params(scores=IntList(min_len=2, max_len=4), ties=Choice(("shared", "later_seat")))
def winners(scores: tuple[int, ...], ties: Ties = "shared") -> tuple[int, ...]:
    """The winning seats: the highest scores (all of them when ``ties = "shared"``, else the last tied seat).

    Parameters
    ----------
    scores : sequence of int
        One score per seat, 2..4 of them.
    ties : {"shared", "later_seat"}, default "shared"

    Returns
    -------
    tuple of int

    Raises
    ------
    ParamTypeError, ParamError
        If ``scores`` is not 2..4 integers or ``ties`` unknown.
    """
    best = max(scores)
    top = tuple(i for i, x in enumerate(scores) if x == best)
    return top if ties == "shared" else top[-1:]
