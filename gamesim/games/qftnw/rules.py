"""Pure rules core of Quest for the New World (QftNW, クエストフォーザニューワールド).

Everything here is deterministic: no function draws random numbers. The batch
simulator (:mod:`gamesim.games.qftnw.sim`), the exact truncated solver
(:mod:`gamesim.games.qftnw.exact`), the equilibrium solver
(:mod:`gamesim.games.qftnw.equilibrium`) and the scalar reference
(:mod:`gamesim.games.qftnw.reference`) all implement the reading of the rules
documented in ``docs/rules/qftnw.md``.

Source: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``,
sections ``#29 クエストフォーザニューワールド`` (original, with 上級ルール),
``QftNW スパ帝国版ルール`` (Spa-Empire edition) and ``QftNW スパ帝国版ルール ver.2``.
Every difference between the editions is a field of :class:`QftnwParams`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Literal, NamedTuple

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Bool,
    Choice,
    Instance,
    Int,
    IntList,
    Optional,
    Ref,
    Unchecked,
    check_bool,
    check_choice,
    check_int,
    validate_params,
)

__all__ = [
    "EDITIONS",
    "WIN_CONDITIONS",
    "HAND",
    "N_HAND",
    "N_TYPES_DEFAULT",
    "N_COPIES_DEFAULT",
    "TIE_FLOORS",
    "TRANSFERS",
    "MAX_FUND_CAP",
    "MAX_COPIES",
    "MAX_ROUNDS",
    "Cond",
    "QftnwParams",
    "edition_params",
    "bid_winner",
    "resolve_bids",
    "legal_bids",
    "next_lock",
    "choose_type_most",
    "choose_type",
    "NAMINGS",
    "bankruptcy_transfer",
    "win_condition",
    "round_winner",
    "type_letter",
    "RoundOutcome",
    "play_round",
]

Edition = Literal["original", "spa", "v2"]
#: Edition keys: ``original`` = #29 クエストフォーザニューワールド, ``spa`` = スパ帝国版ルール,
#: ``v2`` = スパ帝国版ルール ver.2.
EDITIONS: tuple[str, ...] = ("original", "spa", "v2")
#: Win-condition labels, in the rulebook's order (also the label priority).
WIN_CONDITIONS: tuple[str, ...] = ("three", "straight5", "straight3")
#: Hand cards 1..5 (手札). Every card can be bid again next round.
HAND: tuple[int, ...] = (1, 2, 3, 4, 5)
N_HAND: int = 5
#: Territory types A..G (領地カード) and copies of each.
N_TYPES_DEFAULT: int = 7
N_COPIES_DEFAULT: int = 5
#: Tie readings (``tie_floor``) and bankruptcy penalties (``transfer``).
TIE_FLOORS: tuple[str, ...] = ("each", "both")
TRANSFERS: tuple[str, ...] = ("discard_all", "one_discard_rest_to_opponent")
#: Largest fund cap / gain, copies per type (and n_of_a_kind), and round cap accepted.
MAX_FUND_CAP: int = 20
MAX_COPIES: int = 100
MAX_ROUNDS: int = 100_000


class Cond(IntEnum):
    """Win condition codes (0 = none / unfinished)."""

    NONE = 0
    THREE = 1  #: 同じ領地カードを3枚揃える
    STRAIGHT5 = 2  #: 5枚続きのストレート (A and G not connected)
    STRAIGHT3 = 3  #: 相手が持っていない3枚続きのストレート


def type_letter(t: int) -> str:
    """Territory type index 0.. as its letter ``"A"..``."""
    return chr(ord("A") + int(t))


@dataclass(frozen=True)
class QftnwParams:
    """Every tunable rule of QftNW, with the original edition's defaults.

    Build edition rule sets with :func:`edition_params`; the fields are the
    edition differences and the numbers a designer would tune.

    Parameters
    ----------
    edition : {"original", "spa", "v2"}, default "original"
        Label only (the rules are the other fields).
    advanced : bool, default False
        上級ルール (original): deck top visible; a hand card cannot be bid two rounds
        running; a tie lifts the restriction.
    start_funds : int, default 5
        Funds at the start (資金ダイス 5の目), units: funds.
    reset_funds : int, default 5
        Both players' funds after a bankruptcy (双方資金を5に戻し).
    fund_cap : int, default 6
        Funds cap (上限6, a six-sided die).
    gain : int, default 1
        Funds gained by winning with a card exactly one higher (+1 original, +2 Spa editions).
    tie_floor : {"each", "both"}, default "each"
        ``"each"``: a tie never takes a player below 1 (original: 引き分けで資金は0にならない).
        ``"both"``: the Spa editions' literal text (双方資金1で引き分けても資金は減らない), their
        default in :func:`edition_params`: the tie costs nothing only when both are at 1;
        otherwise both lose 1 and a player at 1 goes bankrupt.
    transfer : {"discard_all", "one_discard_rest_to_opponent"}, default "discard_all"
        Bankruptcy penalty on the named type: original sends all cards of that type to the deck
        bottom; Spa editions send one there and give the rest to the opponent.
    straight3 : bool, default True
        Whether the three-card straight none of whose types the opponent holds wins
        (original and Spa; not ver.2).
    n_types : int, default 7
        Territory types (A..G).
    n_copies : int, default 5
        Cards per type (deck of ``n_types * n_copies``).
    n_of_a_kind : int, default 3
        Same-type cards that win (同じ領地カードを3枚).
    long_straight : int, default 5
        Length of the winning straight (5枚続き; no wrap).
    short_straight : int, default 3
        Length of the opponent-free straight (3枚続き).
    max_rounds : int, default 2000
        Cap on rounds; a game not over by then is reported unfinished.

    Raises
    ------
    ValueError
        If a value is out of range (see :meth:`validate`).
    """

    edition: str = "original"
    advanced: bool = False
    start_funds: int = 5
    reset_funds: int = 5
    fund_cap: int = 6
    gain: int = 1
    tie_floor: str = "each"
    transfer: str = "discard_all"
    straight3: bool = True
    n_types: int = N_TYPES_DEFAULT
    n_copies: int = N_COPIES_DEFAULT
    n_of_a_kind: int = 3
    long_straight: int = 5
    short_straight: int = 3
    max_rounds: int = 2000

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Check types and ranges once at the boundary (``gamesim.core.validate`` rules).

        Raises
        ------
        ParamError
            (a ``ValueError``; ``ParamTypeError``, also a ``TypeError``, for a wrong type such as
            ``2.5`` or ``True`` for an integer or ``"no"`` for a bool) naming the field: ``edition``
            unknown; ``advanced``/``straight3`` not bools; ``fund_cap`` not in 1..20 (the equilibrium policy solves one LP per funds pair);
            ``start_funds``/``reset_funds`` not in ``1..fund_cap``; ``gain`` not in 0..20;
            ``tie_floor``/``transfer`` unknown; ``n_types`` not in 1..26; ``n_copies`` not in 1..100;
            ``n_of_a_kind`` not in 2..100; straights not in 2..26; ``max_rounds`` not in 1..100,000.
        """
        check_choice("edition", self.edition, EDITIONS)
        check_bool("advanced", self.advanced)
        check_int("fund_cap", self.fund_cap, min=1, max=MAX_FUND_CAP)
        check_int("start_funds", self.start_funds, min=1, max=self.fund_cap)
        check_int("reset_funds", self.reset_funds, min=1, max=self.fund_cap)
        check_int("gain", self.gain, min=0, max=MAX_FUND_CAP)
        check_choice("tie_floor", self.tie_floor, TIE_FLOORS)
        check_choice("transfer", self.transfer, TRANSFERS)
        check_bool("straight3", self.straight3)
        check_int("n_types", self.n_types, min=1, max=26)
        check_int("n_copies", self.n_copies, min=1, max=MAX_COPIES)
        check_int("n_of_a_kind", self.n_of_a_kind, min=2, max=MAX_COPIES)
        check_int("long_straight", self.long_straight, min=2, max=26)
        check_int("short_straight", self.short_straight, min=2, max=26)
        check_int("max_rounds", self.max_rounds, min=1, max=MAX_ROUNDS)

    @property
    def n_cards(self) -> int:
        """Territory cards in the game (35 by default)."""
        return self.n_types * self.n_copies


@validate_params(edition=Choice(EDITIONS), advanced=Bool())
def edition_params(edition: str = "original", *, advanced: bool = False, **overrides: object) -> QftnwParams:
    """The rule set of an edition, with optional overrides.

    Parameters
    ----------
    edition : {"original", "spa", "v2"}, default "original"
        ``original``: #29 クエストフォーザニューワールド (gain +1, all cards of the named type to the deck
        bottom, three-card straight wins). ``spa``: スパ帝国版ルール (gain +2, one card to the deck
        bottom and the rest to the opponent, three-card straight wins). ``v2``: スパ帝国版ルール
        ver.2 (as ``spa`` but the three-card straight does not win: its 勝利条件 list omits it,
        although its introduction says 「また相手が持っていない3枚ストレートでも勝ち」; pass
        ``straight3=True`` for the other reading). Tie floor: ``"each"`` for the original
        (引き分けで資金は0にならない), ``"both"`` for the Spa editions (their literal text,
        双方資金1で引き分けても資金は減らない).
    advanced : bool, default False
        上級ルール. The rulebook gives them for the original; they can be combined with any
        edition here.
    **overrides
        Any other :class:`QftnwParams` field. ``None`` values are ignored (edition default kept).

    Returns
    -------
    QftnwParams

    Raises
    ------
    ParamError
        (``ValueError``; ``ParamTypeError``, also a ``TypeError``, for a wrong type) unknown
        edition, unknown field, or a value of the wrong type or out of range
        (:meth:`QftnwParams.validate`).
    """
    base: dict[str, object] = {"edition": edition, "advanced": advanced}
    if edition == "original":
        base.update(gain=1, transfer="discard_all", straight3=True, tie_floor="each")
    else:
        base.update(gain=2, transfer="one_discard_rest_to_opponent", straight3=(edition == "spa"), tie_floor="both")
    fields = set(QftnwParams.__dataclass_fields__)
    for k, v in overrides.items():
        if k not in fields:
            raise ParamError(k, v, "a known rule parameter (unknown rule parameter " + repr(k) + "; known: "
                             + ", ".join(sorted(fields)) + ")")
        if v is not None:
            base[k] = v
    if "reset_funds" not in overrides or overrides["reset_funds"] is None:
        base.setdefault("reset_funds", base.get("start_funds", 5))
    return QftnwParams(**base)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# One round: bids and funds
# ---------------------------------------------------------------------------


#: Declared constraints shared by the rules' public functions (:func:`validate_params`).
PARAMS = Instance(QftnwParams, "a QftnwParams (see edition_params)")
BID = Int(1, N_HAND)
FUNDS = Int(1, Ref("p", "fund_cap"))
LOCK = Int(0, N_HAND)
PLAYER_OR_NONE = Int(-1, 1)
#: Territory counts of one player: ``p.n_types`` integers in 0..``p.n_cards``.
HOLD = IntList(0, Ref("p", "n_cards"), min_len=Ref("p", "n_types"), max_len=Ref("p", "n_types"))


@validate_params(a=BID, b=BID)
def bid_winner(a: int, b: int) -> int:
    """Who wins the bid: 0 (card ``a``), 1 (card ``b``) or -1 (tie).

    Higher wins, except 1 beats 5 (1は5に勝つ).

    Parameters
    ----------
    a, b : int
        Bids of players 0 and 1, in 1..5.

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) for a bid that is not an integer 1..5.
    """
    if a == b:
        return -1
    if a == 1 and b == 5:
        return 0
    if a == 5 and b == 1:
        return 1
    return 0 if a > b else 1


#: Unchecked body of :func:`bid_winner`, for trusted callers.
_bid_winner = bid_winner.__wrapped__


@validate_params(p=PARAMS, a=BID, b=BID, f0=FUNDS, f1=FUNDS)
def resolve_bids(a: int, b: int, f0: int, f1: int, p: QftnwParams) -> tuple[int, int, int]:
    """Round winner and funds after the bids (before any bankruptcy reset).

    Parameters
    ----------
    a, b : int
        Bids of players 0 and 1 (1..5).
    f0, f1 : int
        Funds before the round (>= 1).
    p : QftnwParams

    Returns
    -------
    (winner, f0, f1) : tuple of int
        ``winner`` 0, 1 or -1 (tie). Funds may be <= 0 (bankruptcy, 破産).

    Notes
    -----
    遊び方: the higher card's player gains ``p.gain`` (cap ``p.fund_cap``) if it is exactly one
    above and won, and loses the difference if it is two or more above, whether it won or lost
    (5 against 1 loses the round and 4 funds). Tie: both lose 1 under ``p.tie_floor``.

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) for bids not integers 1..5, funds not integers
        1..``fund_cap``, or ``p`` not a :class:`QftnwParams`.
    """
    w = _bid_winner(a, b)
    if w < 0:
        if p.tie_floor == "each":
            return -1, max(f0 - 1, 1), max(f1 - 1, 1)
        if f0 == 1 and f1 == 1:
            return -1, f0, f1
        return -1, f0 - 1, f1 - 1
    d = abs(a - b)
    hi = 0 if a > b else 1
    fs = [f0, f1]
    if d == 1:
        if hi == w:
            fs[hi] = min(fs[hi] + p.gain, p.fund_cap)
    else:
        fs[hi] -= d
    return w, fs[0], fs[1]


_resolve_bids = resolve_bids.__wrapped__


@validate_params(lock=LOCK, advanced=Bool())
def legal_bids(lock: int, advanced: bool) -> tuple[int, ...]:
    """Hand cards a player may bid.

    Parameters
    ----------
    lock : int
        The card bid last round under 上級ルール (0 = none, e.g. after a tie or at the start).
    advanced : bool
        上級ルール in force (同じ手札は続けて使えない).

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) for ``lock`` not an integer 0..5 or ``advanced`` not a bool.
    """
    if not advanced or lock == 0:
        return HAND
    return tuple(c for c in HAND if c != lock)


_legal_bids = legal_bids.__wrapped__


@validate_params(bid=BID, winner=PLAYER_OR_NONE, advanced=Bool())
def next_lock(bid: int, winner: int, advanced: bool) -> int:
    """The card locked for next round (上級ルール): the bid, or 0 after a tie or without the rule.

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) for ``bid`` not 1..5, ``winner`` not -1..1, ``advanced`` not a bool.
    """
    if not advanced or winner < 0:
        return 0
    return int(bid)


_next_lock = next_lock.__wrapped__


# ---------------------------------------------------------------------------
# Bankruptcy and territories
# ---------------------------------------------------------------------------


@validate_params(hold=IntList(0, 1000, min_len=1, max_len=26),
                 hold_namer=Optional(IntList(0, 1000, min_len=1, max_len=26)))
def choose_type_most(hold: Sequence[int], hold_namer: Sequence[int] | None = None) -> int:
    """The type the bankrupt holds most of, ties to the earliest letter; -1 if none held.

    ``hold_namer`` (the naming player's own holdings) is accepted for the namer protocol of
    :func:`play_round` and ignored (but, if given, checked like ``hold``).

    Raises
    ------
    ParamTypeError, ParamError
        If ``hold`` is not a list of 1 to 26 integer counts in 0..1000 (``1.5`` and ``True``
        are refused, never compared as numbers).
    """
    best, bt = 0, -1
    for t, c in enumerate(hold):
        if c > best:
            best, bt = c, t
    return bt


_choose_type_most = choose_type_most.__wrapped__


#: How a player names the bankrupt opponent's type (see :func:`choose_type`).
NAMINGS: tuple[str, ...] = ("most", "spoil", "take")


def _plus(hold: Sequence[int], u: int) -> list[int]:
    h = list(hold)
    h[u] += 1
    return h


@validate_params(naming=Choice(NAMINGS), p=PARAMS, hold_bankrupt=HOLD, hold_namer=HOLD)
def choose_type(hold_bankrupt: Sequence[int], hold_namer: Sequence[int], p: QftnwParams,
                naming: str = "most") -> int:
    """The type a player names when the opponent goes bankrupt, under a naming rule.

    Parameters
    ----------
    hold_bankrupt, hold_namer : sequence of int, shape (n_types,)
        Territory counts of the bankrupt and of the naming player, before the penalty.
    p : QftnwParams
    naming : {"most", "spoil", "take"}, default "most"
        ``"most"``: the type the bankrupt holds most of. ``"spoil"``: the type whose penalty leaves
        the bankrupt the fewest *winning draws* (types u such that one more card of u would meet a
        win condition against the namer's holdings after the penalty), i.e. it breaks the
        bankrupt's near win. ``"take"``: the type best for the namer's own win after the penalty:
        first a type with which the namer meets a condition at once (Spa editions: cards received;
        any edition: an opponent-free three-card straight freed), then the most winning draws of
        its own. Ties (all rules): most held by the bankrupt, then the earliest letter. Judged on
        the holdings after the penalty, before the face-up card is taken.

    Returns
    -------
    int
        The named type, or -1 when the bankrupt holds nothing.

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) for an unknown naming, holdings that are not ``n_types``
        integer counts, or ``p`` not a :class:`QftnwParams`.

    Notes
    -----
    The rulebook leaves the choice to the opponent (対戦相手は破産者の領地カードを1種類選んで /
    1種類指定する); reading in ``docs/rules/qftnw.md``.
    """
    if naming == "most":
        return _choose_type_most(hold_bankrupt)
    best_key: tuple | None = None
    bt = -1
    T = len(hold_bankrupt)
    for t, c in enumerate(hold_bankrupt):
        if c <= 0:
            continue
        hb, hn, _ = _bankruptcy_transfer(hold_bankrupt, hold_namer, t, p)
        if naming == "spoil":
            threat = sum(1 for u in range(T) if _win_condition(_plus(hb, u), hn, p))
            key: tuple = (-threat, c)
        else:
            now = _win_condition(hn, hb, p) > 0
            chances = sum(1 for u in range(T) if _win_condition(_plus(hn, u), hb, p))
            key = (int(now), chances, c)
        if best_key is None or key > best_key:
            best_key, bt = key, t
    return bt


@validate_params(p=PARAMS, hold_bankrupt=HOLD, hold_other=HOLD, t=Int(-1, Ref("p", "n_types", -1)))
def bankruptcy_transfer(hold_bankrupt: Sequence[int], hold_other: Sequence[int], t: int,
                        p: QftnwParams) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Apply the bankruptcy penalty on type ``t`` (the opponent's choice).

    Parameters
    ----------
    hold_bankrupt, hold_other : sequence of int, shape (n_types,)
        Territory counts of the bankrupt and of the opponent.
    t : int
        Named type (-1 = the bankrupt holds nothing: no effect).
    p : QftnwParams

    Returns
    -------
    (hold_bankrupt, hold_other, to_deck) : tuple
        New counts and the number of type-``t`` cards put on the deck bottom.

    Notes
    -----
    Original (破産): all cards of that type to the deck bottom face down. Spa editions: one card
    to the deck bottom, the rest to the opponent (1枚を捨て、残りを相手に渡す).

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) for holdings that are not ``n_types`` integer counts, ``t``
        not an integer in -1..n_types-1, or ``p`` not a :class:`QftnwParams`.
    """
    hb, ho = list(hold_bankrupt), list(hold_other)
    if t < 0 or hb[t] == 0:
        return tuple(hb), tuple(ho), 0
    c = hb[t]
    hb[t] = 0
    if p.transfer == "discard_all":
        return tuple(hb), tuple(ho), c
    ho[t] += c - 1
    return tuple(hb), tuple(ho), 1


_bankruptcy_transfer = bankruptcy_transfer.__wrapped__


def _has_run(pres: Sequence[bool], length: int) -> bool:
    run = 0
    for x in pres:
        run = run + 1 if x else 0
        if run >= length:
            return True
    return False


@validate_params(p=PARAMS, hold_self=HOLD, hold_opp=HOLD)
def win_condition(hold_self: Sequence[int], hold_opp: Sequence[int], p: QftnwParams) -> int:
    """The first win condition (rulebook order) a player satisfies, as a :class:`Cond` code.

    Parameters
    ----------
    hold_self, hold_opp : sequence of int, shape (n_types,)
        Territory counts of the player and of the opponent.
    p : QftnwParams

    Returns
    -------
    int
        ``Cond.THREE`` (``n_of_a_kind`` of one type), ``Cond.STRAIGHT5`` (``long_straight``
        consecutive types, A and G not connected), ``Cond.STRAIGHT3`` (``short_straight``
        consecutive types none of which the opponent holds; only if ``p.straight3``), or
        ``Cond.NONE``.

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) for holdings that are not ``n_types`` integer counts
        0..``n_cards``, or ``p`` not a :class:`QftnwParams`.
    """
    if max(hold_self) >= p.n_of_a_kind:
        return int(Cond.THREE)
    pres = [c > 0 for c in hold_self]
    if _has_run(pres, p.long_straight):
        return int(Cond.STRAIGHT5)
    if p.straight3:
        L = p.short_straight
        for j in range(p.n_types - L + 1):
            if all(pres[j:j + L]) and not any(hold_opp[j + k] > 0 for k in range(L)):
                return int(Cond.STRAIGHT3)
    return int(Cond.NONE)


_win_condition = win_condition.__wrapped__


@validate_params(c0=Int(0, len(Cond) - 1), c1=Int(0, len(Cond) - 1), bankrupt=PLAYER_OR_NONE, taker=PLAYER_OR_NONE)
def round_winner(c0: int, c1: int, bankrupt: int, taker: int) -> tuple[int, int]:
    """Game winner at round end from both players' conditions.

    Parameters
    ----------
    c0, c1 : int
        :class:`Cond` codes of players 0 and 1.
    bankrupt : int
        The player who went bankrupt this round, or -1.
    taker : int
        The player who took the territory this round, or -1 (tie).

    Returns
    -------
    (winner, cond) : tuple of int
        ``winner`` -1 if nobody satisfies a condition. If both do, the player who did not go
        bankrupt wins (その他のルール). Both satisfying without a bankruptcy cannot happen under
        these rules (only the territory taker's holdings grow); the taker then wins.

    Raises
    ------
    ParamTypeError, ParamError
        If ``c0``/``c1`` are not :class:`Cond` codes 0..3 or ``bankrupt``/``taker`` not
        integers -1..1.
    """
    if c0 and c1:
        w = 1 - bankrupt if bankrupt >= 0 else (taker if taker >= 0 else 0)
        return w, (c0, c1)[w]
    if c0:
        return 0, c0
    if c1:
        return 1, c1
    return -1, 0


_round_winner = round_winner.__wrapped__


class RoundOutcome(NamedTuple):
    """Everything one round changes (see :func:`play_round`)."""

    bid_winner: int  #: 0, 1, or -1 for a tie
    bankrupt: int  #: the player who went bankrupt, or -1
    hold0: tuple[int, ...]
    hold1: tuple[int, ...]
    f0: int  #: funds after the round (after any reset)
    f1: int
    min_f0: int  #: funds after the bids, before any reset (<= 0: bankrupt)
    min_f1: int
    to_bottom: tuple[int, ...]  #: territory types put on the deck bottom, in order
    lock0: int  #: locked card next round (上級ルール), 0 = none
    lock1: int
    winner: int  #: game winner at round end, or -1
    cond: int  #: :class:`Cond` code of the game winner's condition


@validate_params(p=PARAMS, hold0=HOLD, hold1=HOLD, f0=FUNDS, f1=FUNDS, a=BID, b=BID,
                 flip=Int(0, Ref("p", "n_types", -1)),
                 namers=Unchecked("callables, called as given (a trusted hook of the simulators)"))
def play_round(hold0: Sequence[int], hold1: Sequence[int], f0: int, f1: int, a: int, b: int, flip: int,
               p: QftnwParams, namers: tuple[Callable[[tuple[int, ...]], int],
                                          Callable[[tuple[int, ...]], int]] = (choose_type_most, choose_type_most)
               ) -> RoundOutcome:
    """Resolve one round after the bids, in the rulebook's order.

    Parameters
    ----------
    hold0, hold1 : sequence of int, shape (n_types,)
        Territory counts before the round.
    f0, f1 : int
        Funds before the round.
    a, b : int
        Bids of players 0 and 1 (legal cards 1..5).
    flip : int
        Type of the face-up territory card (場に出ている領地カード).
    p : QftnwParams
    namers : pair of callables, default (choose_type_most, choose_type_most)
        ``namers[i](bankrupt_holdings, own_holdings) -> type`` is how player ``i`` names a type
        when the *other* player goes bankrupt (e.g. a policy's ``name_type_one`` with ``p``).

    Returns
    -------
    RoundOutcome

    Raises
    ------
    ParamError
        (``ValueError``/``TypeError``) for holdings that are not ``n_types`` integer counts, funds not
        in 1..``fund_cap``, bids not 1..5, ``flip`` not a type index, or ``p`` not a
        :class:`QftnwParams`.

    Notes
    -----
    遊び方 order: bids resolved and funds changed; bankruptcy at funds <= 0 (both reset, the
    opponent names a type, penalty per ``p.transfer``) **before** the territory is taken
    (破産処理は領地の獲得の前に行う); the bid winner takes the card, or on a tie it goes face down
    to the deck bottom (after any bankruptcy cards); win conditions checked at round end
    (both satisfied: the player who did not go bankrupt wins).
    """
    w, g0, g1 = _resolve_bids(a, b, f0, f1, p)
    h = [tuple(hold0), tuple(hold1)]
    bankrupt = 0 if g0 <= 0 else (1 if g1 <= 0 else -1)
    to_bottom: list[int] = []
    n0, n1 = g0, g1
    if bankrupt >= 0:
        other = 1 - bankrupt
        n0 = n1 = p.reset_funds
        t = namers[other](h[bankrupt], h[other])
        hb, ho, k = _bankruptcy_transfer(h[bankrupt], h[other], t, p)
        h[bankrupt], h[other] = hb, ho
        to_bottom.extend([t] * k)
    if w >= 0:
        hw = list(h[w])
        hw[flip] += 1
        h[w] = tuple(hw)
    else:
        to_bottom.append(flip)
    c0 = _win_condition(h[0], h[1], p)
    c1 = _win_condition(h[1], h[0], p)
    winner, cond = _round_winner(c0, c1, bankrupt, w)
    return RoundOutcome(w, bankrupt, h[0], h[1], n0, n1, g0, g1, tuple(to_bottom),
                        _next_lock(a, w, p.advanced), _next_lock(b, w, p.advanced), winner, cond)


_play_round = play_round.__wrapped__


def with_overrides(p: QftnwParams, **kw: object) -> QftnwParams:
    """``dataclasses.replace`` that re-validates."""
    return replace(p, **kw)
