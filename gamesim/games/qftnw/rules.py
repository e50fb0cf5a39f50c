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

__all__ = [
    "EDITIONS",
    "WIN_CONDITIONS",
    "HAND",
    "N_HAND",
    "N_TYPES_DEFAULT",
    "N_COPIES_DEFAULT",
    "Cond",
    "QftnwParams",
    "edition_params",
    "bid_winner",
    "resolve_bids",
    "legal_bids",
    "next_lock",
    "choose_type_most",
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
        ``"each"``: a tie never takes a player below 1 (original: 引き分けで資金は0にならない; the
        issue's reading for all editions). ``"both"``: the Spa editions' literal text
        (双方資金1で引き分けても資金は減らない): the tie costs nothing only when both are at 1;
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
        """Check ranges once at the boundary.

        Raises
        ------
        ValueError
            ``edition`` unknown; ``fund_cap < 1``; ``start_funds``/``reset_funds`` not in
            ``1..fund_cap``; ``gain < 0``; ``tie_floor``/``transfer`` unknown; ``n_types`` not in
            1..26; ``n_copies < 1``; ``n_of_a_kind < 2``; straights ``< 2``; ``max_rounds < 1``.
        """
        def bad(name: str, allowed: str) -> ValueError:
            return ValueError(f"{name} = {getattr(self, name)!r}, must be {allowed}")

        if self.edition not in EDITIONS:
            raise bad("edition", f"one of {EDITIONS}")
        if self.fund_cap < 1:
            raise bad("fund_cap", ">= 1")
        if not 1 <= self.start_funds <= self.fund_cap:
            raise bad("start_funds", f"in 1..fund_cap ({self.fund_cap})")
        if not 1 <= self.reset_funds <= self.fund_cap:
            raise bad("reset_funds", f"in 1..fund_cap ({self.fund_cap})")
        if self.gain < 0:
            raise bad("gain", ">= 0")
        if self.tie_floor not in ("each", "both"):
            raise bad("tie_floor", "'each' or 'both'")
        if self.transfer not in ("discard_all", "one_discard_rest_to_opponent"):
            raise bad("transfer", "'discard_all' or 'one_discard_rest_to_opponent'")
        if not 1 <= self.n_types <= 26:
            raise bad("n_types", "in 1..26")
        if self.n_copies < 1:
            raise bad("n_copies", ">= 1")
        if self.n_of_a_kind < 2:
            raise bad("n_of_a_kind", ">= 2")
        if self.long_straight < 2 or self.short_straight < 2:
            raise bad("long_straight" if self.long_straight < 2 else "short_straight", ">= 2")
        if self.max_rounds < 1:
            raise bad("max_rounds", ">= 1")

    @property
    def n_cards(self) -> int:
        """Territory cards in the game (35 by default)."""
        return self.n_types * self.n_copies


def edition_params(edition: str = "original", *, advanced: bool = False, **overrides: object) -> QftnwParams:
    """The rule set of an edition, with optional overrides.

    Parameters
    ----------
    edition : {"original", "spa", "v2"}, default "original"
        ``original``: #29 クエストフォーザニューワールド (gain +1, all cards of the named type to the deck
        bottom, three-card straight wins). ``spa``: スパ帝国版ルール (gain +2, one card to the deck
        bottom and the rest to the opponent, three-card straight wins). ``v2``: スパ帝国版ルール
        ver.2 (as ``spa`` but the three-card straight does not win).
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
    ValueError
        Unknown edition, unknown field, or a value out of range.
    """
    if edition not in EDITIONS:
        raise ValueError(f"edition = {edition!r}, must be one of {EDITIONS}")
    base: dict[str, object] = {"edition": edition, "advanced": bool(advanced)}
    if edition == "original":
        base.update(gain=1, transfer="discard_all", straight3=True)
    else:
        base.update(gain=2, transfer="one_discard_rest_to_opponent", straight3=(edition == "spa"))
    fields = set(QftnwParams.__dataclass_fields__)
    for k, v in overrides.items():
        if k not in fields:
            raise ValueError(f"unknown rule parameter {k!r}; known: {', '.join(sorted(fields))}")
        if v is not None:
            base[k] = v
    if "reset_funds" not in overrides or overrides["reset_funds"] is None:
        base.setdefault("reset_funds", base.get("start_funds", 5))
    return QftnwParams(**base)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# One round: bids and funds
# ---------------------------------------------------------------------------


def bid_winner(a: int, b: int) -> int:
    """Who wins the bid: 0 (card ``a``), 1 (card ``b``) or -1 (tie).

    Higher wins, except 1 beats 5 (1は5に勝つ).

    Parameters
    ----------
    a, b : int
        Bids of players 0 and 1, in 1..5.
    """
    if a == b:
        return -1
    if a == 1 and b == 5:
        return 0
    if a == 5 and b == 1:
        return 1
    return 0 if a > b else 1


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
    """
    w = bid_winner(a, b)
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


def legal_bids(lock: int, advanced: bool) -> tuple[int, ...]:
    """Hand cards a player may bid.

    Parameters
    ----------
    lock : int
        The card bid last round under 上級ルール (0 = none, e.g. after a tie or at the start).
    advanced : bool
        上級ルール in force (同じ手札は続けて使えない).
    """
    if not advanced or lock == 0:
        return HAND
    return tuple(c for c in HAND if c != lock)


def next_lock(bid: int, winner: int, advanced: bool) -> int:
    """The card locked for next round (上級ルール): the bid, or 0 after a tie or without the rule."""
    if not advanced or winner < 0:
        return 0
    return int(bid)


# ---------------------------------------------------------------------------
# Bankruptcy and territories
# ---------------------------------------------------------------------------


def choose_type_most(hold: Sequence[int]) -> int:
    """The type the bankrupt holds most of, ties to the earliest letter; -1 if none held."""
    best, bt = 0, -1
    for t, c in enumerate(hold):
        if c > best:
            best, bt = c, t
    return bt


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


def _has_run(pres: Sequence[bool], length: int) -> bool:
    run = 0
    for x in pres:
        run = run + 1 if x else 0
        if run >= length:
            return True
    return False


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
    """
    if c0 and c1:
        w = 1 - bankrupt if bankrupt >= 0 else (taker if taker >= 0 else 0)
        return w, (c0, c1)[w]
    if c0:
        return 0, c0
    if c1:
        return 1, c1
    return -1, 0


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
        ``namers[i](bankrupt_holdings) -> type`` is how player ``i`` names a type when the
        *other* player goes bankrupt.

    Returns
    -------
    RoundOutcome

    Notes
    -----
    遊び方 order: bids resolved and funds changed; bankruptcy at funds <= 0 (both reset, the
    opponent names a type, penalty per ``p.transfer``) **before** the territory is taken
    (破産処理は領地の獲得の前に行う); the bid winner takes the card, or on a tie it goes face down
    to the deck bottom (after any bankruptcy cards); win conditions checked at round end
    (both satisfied: the player who did not go bankrupt wins).
    """
    w, g0, g1 = resolve_bids(a, b, f0, f1, p)
    h = [tuple(hold0), tuple(hold1)]
    bankrupt = 0 if g0 <= 0 else (1 if g1 <= 0 else -1)
    to_bottom: list[int] = []
    n0, n1 = g0, g1
    if bankrupt >= 0:
        other = 1 - bankrupt
        n0 = n1 = p.reset_funds
        t = namers[other](h[bankrupt])
        hb, ho, k = bankruptcy_transfer(h[bankrupt], h[other], t, p)
        h[bankrupt], h[other] = hb, ho
        to_bottom.extend([t] * k)
    if w >= 0:
        hw = list(h[w])
        hw[flip] += 1
        h[w] = tuple(hw)
    else:
        to_bottom.append(flip)
    c0 = win_condition(h[0], h[1], p)
    c1 = win_condition(h[1], h[0], p)
    winner, cond = round_winner(c0, c1, bankrupt, w)
    return RoundOutcome(w, bankrupt, h[0], h[1], n0, n1, g0, g1, tuple(to_bottom),
                        next_lock(a, w, p.advanced), next_lock(b, w, p.advanced), winner, cond)


def with_overrides(p: QftnwParams, **kw: object) -> QftnwParams:
    """``dataclasses.replace`` that re-validates."""
    return replace(p, **kw)
