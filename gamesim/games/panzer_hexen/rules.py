"""Rules of ぱんつぁーへくせん: parameters, the combat rule, costs and the round procedure, pure.

Source: ``shared/seeds/panzer_hexen_rules_ja.txt`` (sections {0:施策} … {5:通信}, 未実行イベント and
the end of the game). What the text gives is modelled exactly:

- 交戦 (combat) has no dice: the side with the larger レンジ strikes first, equal レンジ strike at
  once (相討ち possible); a strike hits iff attack >= defence (攻撃側の攻撃力が防御側の防御力以上); the
  hit side drops out (so a first strike that hits draws no counter-attack). A witch may use one
  striker unit and one gun that are not 失調 (their modifiers add), and each 魔力 spent adds 1 to
  attack or defence for that fight; used equipment becomes 失調.
- 消耗 witches neither fight nor gain 魔力 (the text's 「失調状態のウィッチ」 in {2:出撃}, {3:訓練} and
  {5:通信} means 消耗: a slip, since 失調 is the equipment state).
- Policy cost: own 担当 policy less its counters, another player's 担当 policy +1 (that player then
  gains the counters as 発言力).

Everything the text leaves open is a field of :class:`PanzerParams` with a declared default, listed
in ``docs/rules/panzer_hexen.md``. The functions here draw no random numbers; the batch simulator
(:mod:`.sim`) and the plain-Python reference (:mod:`.reference`) both follow them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

from gamesim.core.registry import ParamError
from gamesim.core.validate import Bool, Int, check_bool, check_choice, check_int, validate_params

__all__ = [
    "Action", "PanzerParams", "ACTION_NAMES", "BONUS_ACTIONS", "Fight", "fight", "min_mana", "ambush_hit",
    "ambush_mana", "policy_cost",
]


class Action(IntEnum):
    """The six actions (アクションカード), in the order a round resolves them."""

    POLICY = 0  #: 施策
    REST = 1  #: 休息/整備
    SORTIE = 2  #: 出撃
    TRAINING = 3  #: 訓練
    MEETING = 4  #: 会議
    COMMS = 5  #: 通信


ACTION_NAMES: tuple[str, ...] = ("policy", "rest", "sortie", "training", "meeting", "comms")
#: The four actions with an アクションボーナスカード (第一実行者ボーナス), as the text's action sections give them.
BONUS_ACTIONS: frozenset[int] = frozenset({Action.REST, Action.TRAINING, Action.MEETING, Action.COMMS})

Decks = Literal["mixed", "by_kind"]
Collision = Literal["all_act", "first_only"]
PriorityOrder = Literal["high_first", "low_first"]
CommsOption = Literal["take_charge", "open_voice", "counter"]
TeamScore = Literal["sum", "min"]


@dataclass(frozen=True)
class PanzerParams:
    """Every rule of a game, the open procedures as declared defaults (OPEN = not in the text).

    Parameters
    ----------
    n_players : int, default 3
        2..5 (the text).
    start_voice, start_mana : int, default 2, 1
        OPEN (set-up). 発言力 and 魔力 each player starts with. 0..20.
    start_neuroi : int, default 1
        OPEN (set-up). ネウロイ in play at the start, per player. 0..5.
    start_charge : int, default 2
        OPEN. 担当施策 dealt to each player at the start (face up, in play). 0..5.
    start_open : int, default 2
        OPEN (set-up). Policies in play at the start that are nobody's 担当. 0..10.
    start_counters : int, default 1
        OPEN. Counters on a 担当 policy when it is dealt (or taken with 通信's ``take_charge``). 0..9.
    counter_gain : int, default 1
        OPEN. Counters each unexecuted 担当 policy gains at the end of every round. 0..3.
    max_counters : int, default 3
        OPEN. Counters a policy can hold. 0..9.
    decks : {"mixed", "by_kind"}, default "mixed"
        OPEN (set-up). The two 山札: the remaining ネウロイ and policy cards shuffled together and
        dealt alternately into two decks (``mixed``, the reading the 通信 text's 「含まれていた場合」 and
        「全てネウロイカードだった場合」 suggest), or one ネウロイ deck and one policy deck (``by_kind``).
    collision : {"all_act", "first_only"}, default "all_act"
        OPEN. Players choose actions at once; actions resolve in number order 0..5. ``all_act``:
        every player who chose an action performs it, in 優先順値 order, the first getting the
        bonus; ``first_only``: only the first in 優先順値 order performs it (the others' action is lost).
    priority_order : {"high_first", "low_first"}, default "high_first"
        OPEN. Whether the higher 優先順値 acts first.
    bonus : bool, default True
        Study switch: False removes every 第一実行者ボーナス (to measure what it is worth).
    comms_option : {"take_charge", "open_voice", "counter"}, default "take_charge"
        OPEN (the text is cut off after 「以下の3つから1つを選びます」): what a revealed policy does.
        ``take_charge``: it enters play as the revealer's 担当 with ``start_counters`` counters;
        ``open_voice``: it enters play unassigned and the revealer gains 1 発言力 per policy;
        ``counter``: it enters play unassigned and each of the revealer's unexecuted 担当 policies
        gains 1 counter per policy revealed (up to ``max_counters``).
    unexecuted_events : bool, default True
        The text's 未実行イベント of 休息/整備 and 通信 (False: off, a study switch).
    end_cards : int, default 10
        The text: the game ends at the end of a round in which a player has this many executed
        policies + destroyed ネウロイ. 1..60.
    max_rounds : int, default 60
        Safety cap (not a rule): a game still running after this many rounds ends there
        (``truncated``). 1..500.
    teams : bool, default False
        The 4-player 2VS2 variant (seats 0+2 against 1+3); needs ``n_players = 4``.
    team_score : {"sum", "min"}, default "sum"
        OPEN (2VS2 scoring is not in the text): a team scores the sum of its VP, or its weaker
        player's VP.

    Raises
    ------
    ParamError, ParamTypeError
        For a value of the wrong type or out of range, or ``teams`` without 4 players.
    """

    n_players: int = 3
    start_voice: int = 2
    start_mana: int = 1
    start_neuroi: int = 1
    start_charge: int = 2
    start_open: int = 2
    start_counters: int = 1
    counter_gain: int = 1
    max_counters: int = 3
    decks: Decks = "mixed"
    collision: Collision = "all_act"
    priority_order: PriorityOrder = "high_first"
    bonus: bool = True
    comms_option: CommsOption = "take_charge"
    unexecuted_events: bool = True
    end_cards: int = 10
    max_rounds: int = 60
    teams: bool = False
    team_score: TeamScore = "sum"

    def __post_init__(self) -> None:
        check_int("n_players", self.n_players, min=2, max=5)
        check_int("start_voice", self.start_voice, min=0, max=20)
        check_int("start_mana", self.start_mana, min=0, max=20)
        check_int("start_neuroi", self.start_neuroi, min=0, max=5)
        check_int("start_charge", self.start_charge, min=0, max=5)
        check_int("start_open", self.start_open, min=0, max=10)
        check_int("start_counters", self.start_counters, min=0, max=9)
        check_int("counter_gain", self.counter_gain, min=0, max=3)
        check_int("max_counters", self.max_counters, min=0, max=9)
        check_choice("decks", self.decks, ("mixed", "by_kind"))
        check_choice("collision", self.collision, ("all_act", "first_only"))
        check_choice("priority_order", self.priority_order, ("high_first", "low_first"))
        check_bool("bonus", self.bonus)
        check_choice("comms_option", self.comms_option, ("take_charge", "open_voice", "counter"))
        check_bool("unexecuted_events", self.unexecuted_events)
        check_int("end_cards", self.end_cards, min=1, max=60)
        check_int("max_rounds", self.max_rounds, min=1, max=500)
        check_bool("teams", self.teams)
        check_choice("team_score", self.team_score, ("sum", "min"))
        if self.teams and self.n_players != 4:
            raise ParamError("teams", self.teams, "false unless n_players = 4 (2VS2 is a 4-player variant)")


@dataclass(frozen=True)
class Fight:
    """The result of one 交戦: ``destroyed`` (the ネウロイ is 撃破) and ``hit`` (the witch is 被弾 → 消耗)."""

    destroyed: bool
    hit: bool


#: Declared constraints shared by the rules' public functions (:func:`validate_params`): a fight
#: statistic (attack, defence or レンジ after modifiers and 魔力), a cost or a count, 0..200.
STAT = Int(0, 200)
FIGHT = dict(w_attack=STAT, w_defence=STAT, w_range=STAT, n_attack=STAT, n_defence=STAT, n_range=STAT,
             evade=Bool())


@validate_params(**FIGHT)
def fight(w_attack: int, w_defence: int, w_range: int, n_attack: int, n_defence: int, n_range: int, *,
          evade: bool = False) -> Fight:
    """Resolve one 交戦 of a witch against a ネウロイ (the text's {2:出撃}, no dice).

    Parameters
    ----------
    w_attack, w_defence, w_range : int
        The witch's attack and defence after equipment, effects and 魔力, and her レンジ. >= 0.
    n_attack, n_defence, n_range : int
        The ネウロイ's. >= 0.
    evade : bool, default False
        The witch's 特殊能力 ``evade``: she is not hit in this fight.

    Returns
    -------
    Fight
        The larger レンジ strikes first; a hit (attack >= defence) makes the other side drop out
        before it strikes back. Equal レンジ: both strike at once (相討ち possible).

    Raises
    ------
    ParamError, ParamTypeError
        For a non-integer or negative value, or ``evade`` not a bool.

    Examples
    --------
    >>> fight(3, 2, 3, 9, 9, 1)   # she strikes first and misses (3 < 9); it hits back (9 >= 2)
    Fight(destroyed=False, hit=True)
    >>> fight(5, 2, 3, 9, 5, 1)   # she strikes first and hits: no counter-attack
    Fight(destroyed=True, hit=False)
    """
    w_hits = w_attack >= n_defence
    n_hits = n_attack >= w_defence and not evade
    if w_range > n_range:
        return Fight(w_hits, (not w_hits) and n_hits)
    if w_range < n_range:
        return Fight((not n_hits) and w_hits, n_hits)
    return Fight(w_hits, n_hits)


@validate_params(**FIGHT, clean=Bool())
def min_mana(w_attack: int, w_defence: int, w_range: int, n_attack: int, n_defence: int, n_range: int, *,
             evade: bool = False, clean: bool = True) -> tuple[int, int]:
    """The least 魔力 that wins a fight, and how to split it (to attack, to defence).

    Parameters
    ----------
    w_attack, w_defence, w_range, n_attack, n_defence, n_range : int
        As in :func:`fight`, before 魔力.
    evade : bool, default False
        The witch's ``evade`` ability.
    clean : bool, default True
        True: destroy the ネウロイ without being hit; False: destroy it, hit or not (equal レンジ:
        a 相討ち counts as a win).

    Returns
    -------
    (int, int)
        ``(to_attack, to_defence)``; their sum is the minimum. Attack needs ``n_defence -
        w_attack`` more (if positive). Defence is needed only where the ネウロイ's strike lands
        before or with hers and matters: when it strikes first (larger レンジ) always, at equal
        レンジ only for a clean win; it needs ``n_attack - w_defence + 1`` more.

    Raises
    ------
    ParamError, ParamTypeError
        As :func:`fight`, or ``clean`` not a bool.
    """
    to_a = max(0, n_defence - w_attack)
    need_d = 0 if evade else max(0, n_attack - w_defence + 1)
    if w_range > n_range:
        return to_a, 0
    if w_range < n_range or clean:
        return to_a, need_d
    return to_a, 0


#: Unchecked body of :func:`min_mana`, for trusted callers (the exact tables' inner loops).
_min_mana = min_mana.__wrapped__


@validate_params(w_defence=STAT, n_attack=STAT, evade=Bool())
def ambush_hit(w_defence: int, n_attack: int, *, evade: bool = False) -> bool:
    """未実行イベント of 通信: a ネウロイ attacks a witch one-sidedly; is she hit? (``n_attack >= w_defence``).

    Parameters
    ----------
    w_defence : int
        The witch's defence (after equipment and 魔力), 0..200.
    n_attack : int
        The ネウロイ's attack, 0..200.
    evade : bool, default False
        The witch evades (回避): she is never hit.

    Returns
    -------
    bool

    Raises
    ------
    ParamError, ParamTypeError
        For a non-integer or negative value.
    """
    return (not evade) and n_attack >= w_defence


@validate_params(w_defence=STAT, n_attack=STAT, evade=Bool())
def ambush_mana(w_defence: int, n_attack: int, *, evade: bool = False) -> int:
    """魔力 a witch must spend on defence not to be hit by a one-sided attack (0 with ``evade``).

    Parameters
    ----------
    w_defence : int
        The witch's defence (after equipment and 魔力), 0..200.
    n_attack : int
        The ネウロイ's attack, 0..200.
    evade : bool, default False
        The witch evades (回避): she is never hit.

    Returns
    -------
    int

    Raises
    ------
    ParamError, ParamTypeError
        For a non-integer or negative value.
    """
    return 0 if evade else max(0, n_attack - w_defence + 1)


@validate_params(cost=STAT, owner=Int(-1, 4), player=Int(0, 4), counters=STAT, discounts=STAT)
def policy_cost(cost: int, *, owner: int, player: int, counters: int, discounts: int = 0) -> int:
    """発言力 ``player`` pays to execute a policy ({0:施策}).

    Parameters
    ----------
    cost : int
        The card's コスト. >= 0.
    owner : int
        The seat whose 担当 policy it is, or -1 for nobody's.
    player : int
        The executing seat. >= 0.
    counters : int
        Counters on the policy. >= 0.
    discounts : int, default 0
        The player's executed ``discount`` policies (each −1).

    Returns
    -------
    int
        ``cost - counters`` for one's own 担当 policy, ``cost + 1`` for another player's, ``cost``
        for nobody's; then less ``discounts``; never below 0.

    Raises
    ------
    ParamError, ParamTypeError
        For a non-integer or out-of-range value.
    """
    if owner == player:
        c = cost - counters
    elif owner >= 0:
        c = cost + 1
    else:
        c = cost
    return max(0, c - discounts)
