"""Pure rules of ガッチャ ~God Chance~ as a whole game (no random numbers drawn here).

Chance points list their outcomes (the d6 of a boss attack); everything else is a pure
function of a state. The batch simulator (:mod:`.sim`) and the plain-Python reference
(:mod:`.reference`) implement the same reading, documented in ``docs/rules/gacha_game.md``;
the bag itself (ガチャ袋, God Chance, 課金ガチャ rates) is the one of
:mod:`gamesim.games.gacha.rules`, reused here.

Source: ``shared/seeds/gacha_god_chance_rules_ja.txt``, sections アイコンの詳細 (ボス攻撃,
クエスト, レート, 土曜ガチャ), 課金ガチャの例, ラストダンス.

The game's parameters are :class:`GachaGameParams` (formerly ``GameConfig``: the card data,
the slayers and their policies, the modes and readings, checked once when built), with the
names it checks (:data:`POLICIES`, :data:`BOSS_USES`, :data:`BOSS_TARGETS`);
:func:`gamesim.games.gacha_game.sim.simulate` takes one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Bool,
    Instance,
    Int,
    IntList,
    ParamTypeError,
    Ref,
    Unchecked,
    check_bool,
    check_choice,
    check_int,
    check_int_list,
    validate_params,
)
from .data import BUILTIN_DATA, GameData, Icon, load_data

__all__ = [
    "POLICIES",
    "BOSS_USES",
    "BOSS_TARGETS",
    "GachaGameParams",
    "N_ROUNDS",
    "N_TURNS",
    "HAND_SIZE",
    "DIE_FACES",
    "MAX_QUEST_CHAIN",
    "MAX_MONEY_TABLE",
    "Attack",
    "attack_result",
    "attack_outcomes",
    "exact_attack",
    "attack_tables",
    "QuestResult",
    "quest_move",
    "saturday_pulls",
    "saturday_pulls_of",
    "paid_tables",
    "last_dance_chances",
]

#: Rounds in a game (これを4回繰り返して).
N_ROUNDS = 4
#: Weekday turns per round (ターンを5回行います).
N_TURNS = 5
#: Action cards dealt to each slayer (5枚ずつ).
HAND_SIZE = 5
#: Faces of the die (サイコロ：1個).
DIE_FACES = 6
#: Most chained quest moves (👣 bonuses that move again) resolved for one 👣 icon.
MAX_QUEST_CHAIN = 64
#: Largest money for which the 課金ガチャ table is precomputed (money above is capped).
MAX_MONEY_TABLE = 2000
#: Policy names (task parameter ``policy``; the strategies are in :mod:`.policies`).
POLICIES: tuple[str, ...] = ("random", "greedy_pulls", "money_then_paid", "quest_rusher", "boss_hunter", "lookahead",
                             "paid_plan")
#: Readings of ボスカードの使用 (parameter ``boss_use``): usable until the round ends, or once.
BOSS_USES: tuple[str, ...] = ("round", "once")
#: Which raid boss an attack hits (parameter ``boss_target``): the attacker's choice, or the first.
BOSS_TARGETS: tuple[str, ...] = ("choose", "first")


class Attack(IntEnum):
    """Boss attack icons (💥)."""

    NORMAL = 0  #: ボス攻撃アイコン(通常)
    CRITICAL = 1  #: ボス攻撃アイコン(クリティカル)
    DOUBLE = 2  #: ボス攻撃アイコン(ダブル)


#: A compiled card list.
DATA = Instance(GameData, "a GameData (from load_data)")
#: An attack kind (Attack or its int value; a bool or 1.0 is refused).
KIND = Int(0, 2)
#: A raid boss's remaining health.
HEALTH = Int(1, 10_000)


@validate_params(kind=KIND, health=HEALTH, roll=Int(1, DIE_FACES))
def attack_result(kind: Attack | int, health: int, roll: int) -> tuple[int, bool]:
    """Pulls gained and whether the boss is captured, for one attack with die ``roll``.

    Parameters
    ----------
    kind : Attack
        Normal, critical or double attack.
    health : int
        The raid boss's remaining health (体力), >= 1.
    roll : int
        The die, 1..6.

    Returns
    -------
    (int, bool)
        ``(pulls, captured)``: pulls = health removed (critical 6: counted as 6).

    Raises
    ------
    ValueError
        If ``kind``, ``health`` or ``roll`` is out of range.

    Notes
    -----
    ボス攻撃アイコン(通常): ダイス目の値をダメージ…減らした体力の数値分、ガチャを引きます。
    体力が0になったら、そのカードを表向きで獲得します。残っていた体力以上のダメージは無効.
    (クリティカル): ダイス目が6のとき、レイドボスの体力に関係なく、そのカードを獲得できます。
    減らした体力は6として扱います. (ダブル): ダイス目の…2倍をダメージ.
    """
    damage = 2 * roll if kind == Attack.DOUBLE else roll
    removed = min(damage, health)
    if kind == Attack.CRITICAL and roll == DIE_FACES:
        return DIE_FACES, True
    return removed, removed >= health


_attack_result = attack_result.__wrapped__


@validate_params(kind=KIND, health=HEALTH)
def attack_outcomes(kind: Attack | int, health: int) -> list[tuple[int, Fraction, int, bool]]:
    """The chance point of one attack: ``(roll, probability, pulls, captured)`` per die face.

    Parameters
    ----------
    kind : Attack
    health : int
        Remaining health, >= 1.

    Returns
    -------
    list of (int, Fraction, int, bool)
        Six outcomes with probability 1/6 each.
    """
    return [(r, Fraction(1, DIE_FACES), *_attack_result(kind, health, r)) for r in range(1, DIE_FACES + 1)]


_attack_outcomes = attack_outcomes.__wrapped__


@validate_params(kind=KIND, health=HEALTH)
def exact_attack(kind: Attack | int, health: int) -> tuple[Fraction, Fraction]:
    """Exact expected pulls and capture probability of one attack on a boss with ``health``.

    Parameters
    ----------
    kind : Attack
    health : int
        Remaining health, >= 1.

    Returns
    -------
    (Fraction, Fraction)
        ``(E[pulls], P(captured))``. E.g. normal, health 3: E = (1+2+3+3+3+3)/6 = 5/2,
        P = 4/6.
    """
    outs = _attack_outcomes(kind, health)
    return sum((p * pulls for _, p, pulls, _c in outs), Fraction(0)), sum(
        (p for _, p, _pl, c in outs if c), Fraction(0))


_exact_attack = exact_attack.__wrapped__


@validate_params(max_health=Int(1, 10_000))
def attack_tables(max_health: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Expected pulls and capture probability per attack kind and health.

    Parameters
    ----------
    max_health : int
        Largest health tabulated, >= 1.

    Returns
    -------
    (ndarray, ndarray), each float64 of shape (3, max_health + 1)
        ``[kind, health]``; column 0 (no boss) is 0.
    """
    return _attack_tables(max_health)


@lru_cache(maxsize=8)  # behind the declared check: an unhashable argument never reaches the cache
def _attack_tables(max_health: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    e = np.zeros((3, max_health + 1))
    p = np.zeros((3, max_health + 1))
    for k in Attack:
        for h in range(1, max_health + 1):
            ev, pc = _exact_attack(k, h)
            e[k, h], p[k, h] = float(ev), float(pc)
    e.setflags(write=False)
    p.setflags(write=False)
    return e, p


@dataclass(frozen=True)
class QuestResult:
    """The result of one 👣 icon (:func:`quest_move`).

    Attributes
    ----------
    pos : int
        Square of the quest chip after the move (0 = start).
    laps : int
        周回数 after the move.
    pulls, money, rate : int
        Bonuses gained (pulls include 周回数 × lap_pulls).
    """

    pos: int
    laps: int
    pulls: int
    money: int
    rate: int


@validate_params(data=DATA, pos=Unchecked("a square of data's quest track, 0..len(data.quest_stop) - 1: "
                                         "checked in the body"),
                 laps=Int(0, 10_000), steps=Int(0, 10_000))
def quest_move(data: GameData, pos: int, laps: int, steps: int) -> QuestResult:
    """Move a quest chip ``steps`` squares and collect the bonuses of the squares passed.

    Parameters
    ----------
    data : GameData
        The quest track.
    pos : int
        Current square, ``0 <= pos < len(track)``.
    laps : int
        Current 周回数, >= 0.
    steps : int
        The 👣 value, >= 0.

    Returns
    -------
    QuestResult

    Raises
    ------
    ValueError
        If an argument is out of range.

    Notes
    -----
    Reading (docs/rules/gacha_game.md, クエスト): the chip enters the next square ``steps``
    times, stopping on a 🛑 square whatever is left (「進めることができません」); entering a
    周回数 square adds a lap. *After* the move (「チップスを進めた後、通過したボーナスの効果を
    得ます」) the bonuses of every square entered are gained: pulls, money, rate, lap pulls =
    周回数 (after the move) × lap_pulls, and a 👣 bonus moves again (all 👣 bonuses of one
    move add up to one further move), up to :data:`MAX_QUEST_CHAIN` moves. Pattern ①: 周回数 3,
    👣2 passing the lap-bonus square: 9 pulls. Pattern ②: 👣2 with 🛑 one square ahead: move 1,
    then its bonus 👣1 and 🎰1.
    """
    n = len(data.quest_stop)
    pos = check_int("pos", pos, min=0, max=n - 1)
    pulls = money = rate = 0
    move = steps
    for _ in range(MAX_QUEST_CHAIN):
        if move <= 0:
            break
        entered = []
        for _s in range(move):
            pos = (pos + 1) % n
            laps += int(data.quest_lap[pos])
            entered.append(pos)
            if data.quest_stop[pos]:
                break
        lap_units = extra = 0
        for sq in entered:
            ic = data.quest_icons[sq]
            pulls += int(ic[Icon.PULLS])
            money += int(ic[Icon.MONEY])
            rate += int(ic[Icon.RATE])
            extra += int(ic[Icon.QUEST])
            lap_units += int(data.quest_lap_pulls[sq])
        pulls += laps * lap_units
        move = extra
    return QuestResult(pos, laps, pulls, money, rate)


_quest_move = quest_move.__wrapped__


@validate_params(data=DATA, rates=IntList(0, Ref("data", "rate_length"), min_len=1, max_len=4))
def saturday_pulls(data: GameData, rates: Sequence[int]) -> list[int]:
    """Pulls each slayer takes in the 土曜フェイズ (土曜ガチャ).

    Parameters
    ----------
    data : GameData
        The rate track and Saturday table.
    rates : sequence of int
        Each slayer's rate-battle square (0..rate_length), 1 to 4 slayers.

    Returns
    -------
    list of int
        Pulls per slayer: ``saturday[column(top), k - 1]`` for the ``k`` slayers sharing the
        top square, 0 for the others.

    Raises
    ------
    ValueError
        If a rate is out of range or there are not 1..4 slayers.

    Notes
    -----
    土曜ガチャの例: パターン① レートバトル1位が1人で1列目 → 6 pulls; パターン② 1位が2人で2列目
    → each of them 6 pulls. Leaders pull in turn order from the start slayer (the order
    matters only to the bag, see the simulator).
    """
    top = max(rates)
    k = rates.count(top)
    per = int(data.saturday[data.rate_columns[top], k - 1])
    return [per if r == top else 0 for r in rates]


#: :func:`saturday_pulls` without the argument checks, for loops whose rates are checked already
#: (the plain-Python reference evaluates Saturday pulls about a thousand times per game: checking
#: the same validated state each time was two thirds of its run time). ``rates`` must be a list
#: of 1..4 ints in ``0..data.rate_length`` (nothing is checked).
saturday_pulls_of = saturday_pulls.__wrapped__


@validate_params(max_money=Int(0, MAX_MONEY_TABLE),
                 rates=Unchecked("1 to 20 (money, pulls) integer pairs: checked in the body"))
def paid_tables(rates: tuple[tuple[int, int], ...], max_money: int = 400
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Best 課金ガチャ purchase for every amount of money (dynamic programme).

    Parameters
    ----------
    rates : tuple of (int, int)
        ``(money, pulls)`` bundles, each usable any number of times.
    max_money : int, default 400
        Largest money tabulated, 0..:data:`MAX_MONEY_TABLE`.

    Returns
    -------
    (pulls, cost) : two int64 arrays of shape (max_money + 1,)
        ``pulls[m]``: most pulls for at most ``m`` money; ``cost[m]``: the least money that
        buys ``pulls[m]`` pulls. Equals :func:`gamesim.games.gacha.rules.best_bundle_mix`
        (its integer programme; the tests check every ``m`` up to 150).

    Raises
    ------
    ValueError
        If ``max_money`` is out of range or a rate is not a positive pair.

    Notes
    -----
    課金ガチャの例: 8 → 4 pulls, 10 → 12, 25 → 37.
    """
    allowed = "a list of 1 to 20 (money, pulls) integer pairs, each 1..10 000"
    if isinstance(rates, (str, bytes)) or not isinstance(rates, (Sequence, np.ndarray)) or not 1 <= len(rates) <= 20:
        raise ParamTypeError("rates", rates, allowed)
    pairs = []
    for pair in rates:
        if isinstance(pair, (str, bytes)) or not isinstance(pair, (Sequence, np.ndarray)) or len(pair) != 2:
            raise ParamTypeError("rates", rates, allowed)
        c, p = pair
        check_int("rate cost", c, min=1, max=10_000)
        check_int("rate pulls", p, min=1, max=10_000)
        pairs.append((int(c), int(p)))
    return _paid_tables(tuple(pairs), max_money)


@lru_cache(maxsize=16)
def _paid_tables(rates: tuple[tuple[int, int], ...], max_money: int
                 ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    exact = np.full(max_money + 1, -1, dtype=np.int64)  # most pulls spending exactly m
    exact[0] = 0
    for m in range(1, max_money + 1):
        best = -1
        for c, p in rates:
            if c <= m and exact[m - c] >= 0:
                best = max(best, int(exact[m - c]) + p)
        exact[m] = best
    pulls = np.maximum.accumulate(exact)
    cost = np.zeros(max_money + 1, dtype=np.int64)
    for m in range(max_money + 1):
        cost[m] = int(np.flatnonzero(exact[: m + 1] == pulls[m])[0])
    pulls.setflags(write=False)
    cost.setflags(write=False)
    return pulls, cost


#: One count per slayer (1 to 4 slayers).
PER_SLAYER = IntList(0, 10_000, min_len=1, max_len=4)


@validate_params(zero_first=Bool(), laps=PER_SLAYER, bosses=PER_SLAYER, rates=PER_SLAYER)
def last_dance_chances(laps: Sequence[int], bosses: Sequence[int], rates: Sequence[int], *,
                       zero_first: bool = True) -> list[int]:
    """God Chances each slayer gets in the ラストダンス.

    Parameters
    ----------
    laps, bosses, rates : sequence of int
        Per slayer: quest 周回数, boss cards held, rate-battle square.
    zero_first : bool, default True, keyword-only
        Whether a tie at 0 is a first place (the text: 「同率1位が複数人いた場合は、全員が…」).
        False: a first place needs more than 0 (nobody is first in a category where nobody
        has anything).

    Returns
    -------
    list of int
        Number of first places (ties included) per slayer, 0..3.

    Raises
    ------
    ParamTypeError
        If an entry is not an integer (``1.5``, ``True``).
    ParamError
        If an entry is outside 0..10 000, a sequence is empty or longer than 4, or the
        sequences differ in length.
    ParamTypeError
        If ``zero_first`` is not a bool.

    Notes
    -----
    ラストダンス: クエスト周回数 1位, ボスカード保有数 1位, レートバトル 1位; 「同率1位が複数人
    いた場合は、全員が「God Chance」を行います」. Read literally, a tie at 0 (nobody has a boss)
    makes everybody first (``zero_first = True``, the default).
    """
    if not len(laps) == len(bosses) == len(rates):  # a relation: not declarable
        raise ParamError("bosses" if len(bosses) != len(laps) else "rates",
                         bosses if len(bosses) != len(laps) else rates,
                         f"one entry per slayer, as many as laps ({len(laps)})")
    out = [0] * len(laps)
    for seq in (laps, bosses, rates):
        top = max(seq)
        if top == 0 and not zero_first:
            continue
        for i, v in enumerate(seq):
            out[i] += int(v == top)
    return out


_last_dance_chances = last_dance_chances.__wrapped__


# ---------------------------------------------------------------------------
# The game's parameters (one frozen object per game: docs/architecture.md)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class GachaGameParams:
    """A validated set-up of a whole game (formerly ``GameConfig``, still importable under that name).

    Build one directly, or with :func:`gamesim.games.gacha_game.sim.make_config`, which takes
    names (a navi card's, a policy per seat) and card removals and returns one of these.
    ``GachaGameParams()`` is ``make_config()``'s set-up: four ``greedy_pulls`` slayers, the
    illustrative card lists, the rulebook's readings.

    Parameters
    ----------
    data : GameData or None, default None
        Card lists and tracks (:func:`.data.load_data`); ``None`` = the built-in illustrative
        data (:data:`.data.BUILTIN_DATA`).
    n_players : int, default 4
        Slayers, 2..4.
    policies : tuple of str or None, default None
        One policy name per seat (seat 0 = the first start slayer), each from :data:`POLICIES`;
        ``None`` = ``"greedy_pulls"`` for every seat.
    expert : bool, default False
        エキスパートモード: no navi cards (no navi effects, no Overdrive).
    doubtful_k : tuple of int or None, default None
        疑惑の運営モード: chips removed unseen at every bag creation (chips), uniform over the
        tuple (at most 10 entries, each below the smallest round bag); ``None`` = off.
    navi_seat1 : int or None, default None
        Index into ``data.navi_names`` of the navi card given to seat 1 (``None``: all dealt
        at random); unset in expert mode.
    boss_refill : bool, default False
        Reveal the next raid boss when the area empties by a capture.
    last_dance_zero_first : bool, default True
        ラストダンス: a tie at 0 is a first place for everybody.
    last_dance_consolete : bool, default True
        A slayer completing the set during the ラストダンス wins at once.
    boss_use : {"round", "once"}, default "round"
        ボスカードの使用: usable until the round ends, or spent when played.
    boss_target : {"choose", "first"}, default "choose"
        Which raid boss an attack hits.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) For a field of the wrong type (``data`` not a GameData, a float or
        bool for an integer, a non-bool flag).
    ParamError
        (a ``ValueError``) For a value out of range: ``n_players`` outside 2..4, not one known
        policy per seat, a ``doubtful_k`` too large, ``navi_seat1`` outside the navi cards or
        set in expert mode, more slayers than the action cards can deal a hand of
        :data:`HAND_SIZE` to, an unknown ``boss_use`` or ``boss_target``.
    DataError
        If ``data`` is None and the built-in data file is invalid.
    """

    data: GameData = None  # type: ignore[assignment]  # None: the built-in data, set in __post_init__
    n_players: int = 4
    policies: tuple[str, ...] = None  # type: ignore[assignment]  # None: greedy_pulls for every seat
    expert: bool = False
    doubtful_k: tuple[int, ...] | None = None
    navi_seat1: int | None = None
    boss_refill: bool = False
    last_dance_zero_first: bool = True
    last_dance_consolete: bool = True
    boss_use: str = "round"
    boss_target: str = "choose"

    def __post_init__(self) -> None:
        if self.data is None:
            object.__setattr__(self, "data", load_data(BUILTIN_DATA))
        if not isinstance(self.data, GameData):
            raise ParamTypeError("data", self.data, "a GameData (from load_data / make_config)")
        n = check_int("n_players", self.n_players, min=2, max=4)
        if self.policies is None:
            object.__setattr__(self, "policies", ("greedy_pulls",) * n)
        if (not isinstance(self.policies, tuple) or len(self.policies) != n
                or not all(isinstance(x, str) and x in POLICIES for x in self.policies)):
            raise ParamError("policies", self.policies, f"a tuple of {n} names from {', '.join(POLICIES)}")
        check_bool("expert", self.expert)
        if self.doubtful_k is not None:
            check_int_list("doubtful_k", self.doubtful_k, min=0,
                           max=max(0, min(sum(b) for b in self.data.round_bags) - 1), max_len=10)
        if self.navi_seat1 is not None:
            check_int("navi_seat1", self.navi_seat1, min=0, max=len(self.data.navi_names) - 1)
            if self.expert:
                raise ParamError("navi_seat1", self.navi_seat1, "unset in エキスパートモード (expert = true: no navi)")
        if len(self.data.action_names) < HAND_SIZE * n:
            raise ParamError("n_players", n, f"at most {len(self.data.action_names) // HAND_SIZE} with "
                             f"{len(self.data.action_names)} action cards ({HAND_SIZE} each)")
        check_bool("boss_refill", self.boss_refill)
        check_bool("last_dance_zero_first", self.last_dance_zero_first)
        check_bool("last_dance_consolete", self.last_dance_consolete)
        check_choice("boss_use", self.boss_use, BOSS_USES)
        check_choice("boss_target", self.boss_target, BOSS_TARGETS)


#: A game set-up (the message names GachaGameParams by its older name, GameConfig).
CFG = Instance(GachaGameParams, "a GameConfig from make_config(...)")
