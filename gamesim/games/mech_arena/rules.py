"""Mech Arena 2013 (メックアリーナ2013): parameters and the pure rules core of a duel.

Source: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``, sections
「メックアリーナ2013 追加・変更点」 and 「メックアリーナ2013 新機体」. That text gives the weapon lists
(:mod:`.data`) and the 2013 changes: the same weapon cannot be used twice in a row, even across a
stun (同じ武器を続けて使えない); 転倒 is gone; a mech whose armour is stripped loses a turn
(装甲を削り切られると1ターン動けなくなる); the HP-damage check of 格闘 rolls 3 dice (5 for
アトミックスープレックス, 4 for デュアルブレード after リボルバー).

**Base rules assumed, not from the rulebook.** The base game (the 2012 issue) is not in the text:
what 判定N means, how 格闘 deals HP damage and how the counter-attack (反撃) works, the distance
track, the starting armour / HP / 気力, the 気力 cap, turn order and what stun does. Each is a field
of :class:`MechParams` with a declared default (table in ``docs/rules/mech_arena.md``), so every
result can be re-run under another reading.

Everything here is pure: :func:`action_outcomes` lists the chance outcomes of one action with
their probabilities (explicit chance, as in OpenSpiel), and the plain-Python reference samples
from that list; the vectorized simulator (:mod:`.sim`) implements the same laws over arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from math import comb
from typing import Literal

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Instance,
    Int,
    Pair,
    ParamTypeError,
    Ref,
    Unchecked,
    check_bool,
    check_choice,
    check_int,
    is_int,
    validate_params,
)

from .data import NO_EFFECT, Effect, Mech, Weapon

__all__ = [
    "MAX_TURNS", "MAX_DISTANCE", "FACE_SUCCESS", "HP_VALUE", "Side", "Outcome",
    "MechParams", "DuelState", "Action",
    "check_probability", "hp_check_probability", "counter_hit_probability",
    "initial_state", "legal_actions", "action_outcomes", "start_turn", "skip_turn", "end_turn",
    "expected_score", "is_over",
]

#: Largest ``max_turns`` accepted (turns of both mechs before a game is called a stalemate).
MAX_TURNS: int = 1000
#: Largest track length accepted.
MAX_DISTANCE: int = 9
#: A die counts as a success (4・5・6) with this probability.
FACE_SUCCESS: float = 0.5
#: Value of one HP of damage in armour points, for the greedy player's score.
HP_VALUE: float = 3.0

CheckReading = Literal["n_dice", "one_die"]
HpCheck = Literal["beat_armour", "any_six"]
ArmourOnStrip = Literal["stay", "reset"]
First = Literal["random", "a", "b"]


class Side(IntEnum):
    """The two mechs of a duel: mech A (``mech_a``) and mech B."""

    A = 0
    B = 1


class Outcome(IntEnum):
    """How a duel ended."""

    A_WON = 0
    B_WON = 1
    STALEMATE = 2  #: still running after ``max_turns`` turns


@dataclass(frozen=True)
class MechParams:
    """Every base rule of the duel: the 2013 text's rules, and the assumed base game.

    The 2013 changes (``no_repeat``, ``strip_skip``) come from the text and default to it; they are
    parameters only so a study can switch them off. Every other field is a **base rule assumed,
    not from the rulebook** (the 2012 base game is not in the seed text); the defaults are our
    declared reading, see ``docs/rules/mech_arena.md``.

    Parameters
    ----------
    check_reading : {"n_dice", "one_die"}, default "n_dice"
        Assumed. 判定N: ``n_dice`` rolls N dice and succeeds if any shows 4–6 (判定1 1/2,
        判定2 3/4); ``one_die`` rolls one die and succeeds on 6−N or more (判定1 1/3, 判定2 1/2).
        Either way 判定2 is the easier check, as the text's combos require (ロケットジャンプ
        becomes 判定2 after ロケットランチャー).
    hp_check : {"beat_armour", "any_six"}, default "beat_armour"
        Assumed. The HP-damage check of 格闘 (3 dice, the 2013 text): ``beat_armour`` deals 1 HP
        if more dice show 4–6 than the defender has armour; ``any_six`` deals 1 HP if any die
        shows a 6 (armour plays no part).
    counter_dice : int, default 1
        Assumed. 反撃: after a 格闘 the defender rolls this many dice, each 4–6 dealing 1 armour
        damage to the attacker (unless the weapon says 反撃を受けない). 0..5.
    start_armour : int, default 3
        Assumed. Armour (装甲, formerly ストライク) at the start. 1..9.
    start_hp : int, default 2
        Assumed. HP (formerly アウト) at the start; a mech at 0 HP has lost. 1..9.
    start_ki : int, default 0
        Assumed. 気力 at the start. 0..max_ki.
    max_ki : int, default 5
        Assumed. 気力上限 (the text says ヴォルガ's exception to it was removed). 4..9 (マイクロミサイル
        costs 4).
    max_distance : int, default 3
        Assumed. The distance track runs 0..max_distance; moves are clamped to it. 1..MAX_DISTANCE.
    start_distance : int, default 2
        Assumed. Distance at the start. 0..max_distance.
    first : {"random", "a", "b"}, default "random"
        Assumed. Who takes the first turn (a coin toss by default); turns then alternate.
    no_repeat : bool, default True
        2013 text: a weapon cannot be used on two turns of the mech in a row, a lost turn in
        between does not reset it (スタンした場合でも「同じ武器を続けて使えない」).
    strip_skip : bool, default True
        2013 text: a mech whose armour is brought to 0 loses its next turn.
    armour_on_strip : {"stay", "reset"}, default "stay"
        Assumed. After its armour is stripped a mech stays at 0 armour (``stay``), or gets its
        starting armour back when its next turn comes (``reset``, lost or not).
    max_turns : int, default 60
        Turns (both mechs, lost turns included) before a running game is called a stalemate.
        1..MAX_TURNS.
    combos : bool, default True
        A study switch, not a rule: False ignores every weapon's combo (ロケットジャンプ stays 判定1,
        デュアルブレード keeps 3 dice), to measure what the combos are worth.

    Raises
    ------
    ParamError, ParamTypeError
        For a value of the wrong type or out of range (checked in ``__post_init__``).
    """

    check_reading: CheckReading = "n_dice"
    hp_check: HpCheck = "beat_armour"
    counter_dice: int = 1
    start_armour: int = 3
    start_hp: int = 2
    start_ki: int = 0
    max_ki: int = 5
    max_distance: int = 3
    start_distance: int = 2
    first: First = "random"
    no_repeat: bool = True
    strip_skip: bool = True
    armour_on_strip: ArmourOnStrip = "stay"
    max_turns: int = 60
    combos: bool = True

    def __post_init__(self) -> None:
        check_choice("check_reading", self.check_reading, ("n_dice", "one_die"))
        check_choice("hp_check", self.hp_check, ("beat_armour", "any_six"))
        check_int("counter_dice", self.counter_dice, min=0, max=5)
        check_int("start_armour", self.start_armour, min=1, max=9)
        check_int("start_hp", self.start_hp, min=1, max=9)
        check_int("max_ki", self.max_ki, min=4, max=9)
        check_int("start_ki", self.start_ki, min=0, max=self.max_ki)
        check_int("max_distance", self.max_distance, min=1, max=MAX_DISTANCE)
        check_int("start_distance", self.start_distance, min=0, max=self.max_distance)
        check_choice("first", self.first, ("random", "a", "b"))
        check_bool("no_repeat", self.no_repeat)
        check_bool("strip_skip", self.strip_skip)
        check_choice("armour_on_strip", self.armour_on_strip, ("stay", "reset"))
        check_int("max_turns", self.max_turns, min=1, max=MAX_TURNS)
        check_bool("combos", self.combos)


#: Declared constraints shared by the public functions (:func:`validate_params`): the rules, and
#: the two mechs of a duel (a tuple of two: that both are Mechs is checked in the body,
#: :func:`_check_mechs`, as the state's heat counters per weapon, :func:`_check_state`).
PARAMS = Instance(MechParams, "a MechParams")
MECHS = Pair("a pair (Mech, Mech)", tuple)


#: An action: (weapon slot, option). The option is 0 for a weapon without a choice, the
#: direction (0 close, 1 away) for a choice weapon, and the dice count minus 1 for フィンガーフレア.
Action = tuple[int, int]


@dataclass(frozen=True)
class DuelState:
    """The state of one duel (hashable, immutable). Pairs are indexed by :class:`Side`.

    Attributes
    ----------
    distance : int
        Position on the track, 0..max_distance.
    turn : int
        Turns played so far (lost turns included).
    to_move : int
        Side whose turn it is.
    armour, hp, ki : (int, int)
    last : (int, int)
        Weapon slot each mech used last (-1: none); with ``no_repeat`` it cannot be used now.
    prev : (int, int)
        Weapon slot each mech used on its own previous turn (-1: none or a lost turn); combos.
    skip : (bool, bool)
        The mech loses its next turn (stunned, or armour stripped).
    skip_stun : (bool, bool)
        That lost turn is (also) a stun.
    stunned_last : (bool, bool)
        The mech's previous turn was lost to a stun (クロー: 前のターンに相手がスタンしていれば).
    protect : (bool, bool)
        The mech takes no damage during the opponent's next turn.
    strip_pending : (bool, bool)
        ``armour_on_strip = "reset"``: armour comes back at the mech's next turn.
    heat : (tuple of bool, tuple of bool)
        発熱カウンター per weapon slot.
    winner : int
        -1 while running; the side that won.
    """

    distance: int
    turn: int
    to_move: int
    armour: tuple[int, int]
    hp: tuple[int, int]
    ki: tuple[int, int]
    last: tuple[int, int] = (-1, -1)
    prev: tuple[int, int] = (-1, -1)
    skip: tuple[bool, bool] = (False, False)
    skip_stun: tuple[bool, bool] = (False, False)
    stunned_last: tuple[bool, bool] = (False, False)
    protect: tuple[bool, bool] = (False, False)
    strip_pending: tuple[bool, bool] = (False, False)
    heat: tuple[tuple[bool, ...], tuple[bool, ...]] = ((), ())
    winner: int = -1


#: A duel state (:func:`validate_params`).
STATE = Instance(DuelState, "a DuelState")


@validate_params(level=Int(1, 2), p=PARAMS)
def check_probability(level: int, p: MechParams) -> float:
    """Probability that a 判定 of ``level`` (1 or 2) succeeds under ``p.check_reading``.

    Parameters
    ----------
    level : int
        1 or 2 (判定1, 判定2).
    p : MechParams

    Returns
    -------
    float
        ``n_dice``: ``1 - 2**-level`` (1/2, 3/4); ``one_die``: ``(level + 1) / 6`` (1/3, 1/2).

    Raises
    ------
    ParamError
        If ``level`` is not 1 or 2, or ``p`` is not a MechParams.
    """
    return _check_p(level, p)


def _check_p(level: int, p: MechParams) -> float:
    if level == 0:
        return 1.0
    if p.check_reading == "n_dice":
        return 1.0 - 0.5**level
    return (level + 1) / 6.0


@validate_params(n_dice=Int(1, 8), armour=Int(0, 9), p=PARAMS)
def hp_check_probability(n_dice: int, armour: int, p: MechParams) -> float:
    """Probability that the HP-damage check of a 格闘 deals 1 HP.

    Parameters
    ----------
    n_dice : int
        Dice rolled (3 by the 2013 text; 5 for アトミックスープレックス, 4 for デュアルブレード's combo). 1..8.
    armour : int
        The defender's armour at the check (used by ``beat_armour``). 0..9.
    p : MechParams

    Returns
    -------
    float
        ``beat_armour``: P(Binomial(n_dice, 1/2) > armour); ``any_six``: 1 − (5/6)**n_dice.

    Raises
    ------
    ParamError
        For an argument of the wrong type or out of range.
    """
    return _hp_p(n_dice, armour, p)


def _hp_p(n: int, armour: int, p: MechParams) -> float:
    if p.hp_check == "any_six":
        return 1.0 - (5.0 / 6.0) ** n
    return sum(comb(n, j) for j in range(armour + 1, n + 1)) / 2.0**n


@validate_params(n=Int(0, 9), k=Int(0, Ref("n")))
def counter_hit_probability(k: int, n: int) -> float:
    """P(exactly ``k`` of ``n`` counter-attack dice show 4–6) = C(n, k) / 2**n.

    Parameters
    ----------
    k : int
        Dice showing 4–6, 0..n.
    n : int
        Counter-attack dice, 0..9.

    Returns
    -------
    float

    Raises
    ------
    ParamError
        If ``n`` is not in 0..9 or ``k`` not in 0..n.
    """
    return comb(n, k) / 2.0**n


@validate_params(p=PARAMS, mechs=MECHS, first=Int(0, 1))
def initial_state(p: MechParams, mechs: tuple[Mech, Mech], first: int) -> DuelState:
    """The state at the start of a duel.

    Parameters
    ----------
    p : MechParams
    mechs : (Mech, Mech)
        Mech A and mech B (their weapon counts size the heat counters).
    first : int
        Side taking the first turn (0 or 1); ``p.first`` is applied by the callers.

    Returns
    -------
    DuelState

    Raises
    ------
    ParamError
        For an argument of the wrong type or value.
    """
    _check_mechs(mechs)
    return DuelState(
        distance=p.start_distance, turn=0, to_move=first, armour=(p.start_armour,) * 2, hp=(p.start_hp,) * 2,
        ki=(p.start_ki,) * 2, heat=(tuple(False for _ in mechs[0].weapons), tuple(False for _ in mechs[1].weapons)),
    )


def _check_mechs(mechs: tuple[object, object]) -> tuple[Mech, Mech]:
    # the items of the declared pair (MECHS)
    if not all(isinstance(m, Mech) for m in mechs):
        raise ParamTypeError("mechs", mechs, "a pair (Mech, Mech)")
    return mechs  # type: ignore[return-value]


def _check_state(s: DuelState, mechs: tuple[Mech, Mech]) -> DuelState:
    # the declared state's relation to the mechs: a heat counter per weapon
    if len(s.heat) != 2 or any(len(s.heat[i]) != len(mechs[i].weapons) for i in (0, 1)):
        raise ParamError("s", s, "a DuelState of these mechs (heat counters per weapon)")
    return s


def _usable(w: Weapon, slot: int, s: DuelState, side: int, p: MechParams) -> bool:
    return (not (p.no_repeat and s.last[side] == slot) and s.ki[side] >= w.ki_cost
            and w.min_distance <= s.distance <= w.max_distance and not s.heat[side][slot])


@validate_params(p=PARAMS, mechs=MECHS, s=STATE)
def legal_actions(s: DuelState, mechs: tuple[Mech, Mech], p: MechParams) -> list[Action]:
    """The actions the side to move may take: every usable weapon with each of its options.

    A weapon is usable unless it was the mech's last weapon (``no_repeat``), costs more 気力 than
    the mech has, is outside its distance limits (距離1以上でのみ使用可能) or carries a heat
    counter (発熱).

    Parameters
    ----------
    s : DuelState
    mechs : (Mech, Mech)
    p : MechParams

    Returns
    -------
    list of (slot, option)
        Possibly empty (the mech then passes); never empty for the seven mechs of the 2013 file.

    Raises
    ------
    ParamError
        For an argument of the wrong type.
    """
    _check_state(s, _check_mechs(mechs))
    return _legal(s, mechs, p)


def _legal(s: DuelState, mechs: tuple[Mech, Mech], p: MechParams) -> list[Action]:
    side = s.to_move
    return [(i, o) for i, w in enumerate(mechs[side].weapons) if _usable(w, i, s, side, p) for o in range(w.n_options)]


# ---------------------------------------------------------------------------------------------
# Resolution with explicit chance: a small mutable work state, copied at every chance branch.
# ---------------------------------------------------------------------------------------------

class _W:
    __slots__ = ("d", "armour", "hp", "ki", "skip", "skip_stun", "protect", "strip")

    def __init__(self, s: DuelState):
        self.d = s.distance
        self.armour = list(s.armour)
        self.hp = list(s.hp)
        self.ki = list(s.ki)
        self.skip = list(s.skip)
        self.skip_stun = list(s.skip_stun)
        self.protect = list(s.protect)
        self.strip = list(s.strip_pending)

    def copy(self) -> _W:
        w = _W.__new__(_W)
        w.d = self.d
        for k in ("armour", "hp", "ki", "skip", "skip_stun", "protect", "strip"):
            setattr(w, k, list(getattr(self, k)))
        return w


def _armour_damage(w: _W, target: int, dmg: int, p: MechParams) -> None:
    if dmg <= 0 or w.armour[target] <= 0:
        return
    w.armour[target] = max(0, w.armour[target] - dmg)
    if w.armour[target] == 0:
        if p.strip_skip:
            w.skip[target] = True
        if p.armour_on_strip == "reset":
            w.strip[target] = True


Branches = list[tuple[float, _W]]


def _melee(branches: Branches, me: int, n_dice: int, counter: bool, p: MechParams) -> Branches:
    op = 1 - me
    out: Branches = []
    for pr, w in branches:
        if w.protect[op]:
            hits = [(1.0, w)]
        else:
            ph = _hp_p(n_dice, w.armour[op], p)
            hits = []
            if ph > 0:
                w1 = w.copy()
                w1.hp[op] -= 1
                hits.append((ph, w1))
            if ph < 1:
                hits.append((1.0 - ph, w))
        for ph, wh in hits:
            if counter and wh.hp[op] > 0 and p.counter_dice > 0:
                for k in range(p.counter_dice + 1):
                    wc = wh.copy()
                    _armour_damage(wc, me, k, p)
                    out.append((pr * ph * comb(p.counter_dice, k) / 2.0**p.counter_dice, wc))
            else:
                out.append((pr * ph, wh))
    return out


def _apply(branches: Branches, e: Effect, me: int, n_dice: int, counter: bool, p: MechParams) -> Branches:
    if e == NO_EFFECT:
        return branches
    op = 1 - me
    if e.melee:
        branches = _melee(branches, me, n_dice, counter, p)
    for _, w in branches:
        if not w.protect[op]:
            _armour_damage(w, op, e.armour, p)
            w.hp[op] -= e.hp
        if e.stun:
            w.skip[op] = True
            w.skip_stun[op] = True
        if e.set_distance is not None:
            w.d = min(e.set_distance, p.max_distance)
        w.d = min(max(w.d + e.move, 0), p.max_distance)
        w.ki[me] = min(w.ki[me] + e.ki, p.max_ki)
        if e.protect:
            w.protect[me] = True
    return branches


def _branch_check(branches: Branches, q: float) -> tuple[Branches, Branches]:
    hit: Branches = []
    miss: Branches = []
    for pr, w in branches:
        if q > 0:
            hit.append((pr * q, w.copy() if q < 1 else w))
        if q < 1:
            miss.append((pr * (1 - q), w))
    return hit, miss


@validate_params(p=PARAMS, mechs=MECHS, s=STATE,
                 action=Unchecked("one of the legal actions of s: checked in the body"))
def action_outcomes(s: DuelState, action: Action, mechs: tuple[Mech, Mech], p: MechParams
                    ) -> list[tuple[float, DuelState]]:
    """Every chance outcome of the side to move using ``action``, with its probability.

    The order of resolution (our reading of each line, ``docs/rules/mech_arena.md``): 気力 cost
    and gain, the weapon's distance change (距離-1), then its steps in order, each only if the
    distance is in its range *now*; an effect applies 格闘 (HP-damage check, then the counter-
    attack), armour and HP damage, stun, distance, 気力, protection. フィンガーフレア: P(no 1) = (5/6)^k,
    then Binomial(k, 3/5) armour damage (the dice showing 2–6, of which 4–6); a 1 costs the user
    1 HP, or sets its armour to 1 at HP 1. ファイアバースト: removes every heat counter and, at
    distance 1 or less, rolls one die per counter removed (each 4–6 = 1 armour). Damage to a
    protected mech (次の相手のターンでダメージを受けない) is ignored. Armour brought to 0 costs the next
    turn (``strip_skip``). The turn is not ended here (see :func:`end_turn`).

    Parameters
    ----------
    s : DuelState
    action : (int, int)
        ``(slot, option)``, one of :func:`legal_actions`.
    mechs : (Mech, Mech)
    p : MechParams

    Returns
    -------
    list of (float, DuelState)
        Probabilities summing to 1 (outcomes may repeat).

    Raises
    ------
    ParamError
        For an argument of the wrong type, or an action that is not legal in ``s``.
    """
    _check_state(s, _check_mechs(mechs))
    if (not isinstance(action, tuple) or len(action) != 2 or not all(is_int(v) for v in action)
            or (int(action[0]), int(action[1])) not in _legal(s, mechs, p)):
        raise ParamError("action", action, f"one of the legal actions {_legal(s, mechs, p)}")
    return _outcomes(s, (int(action[0]), int(action[1])), mechs, p)


#: The body of :func:`action_outcomes` (its legality checks included), for :func:`expected_score`.
_action_outcomes = action_outcomes.__wrapped__


def _outcomes(s: DuelState, action: Action, mechs: tuple[Mech, Mech], p: MechParams) -> list[tuple[float, DuelState]]:
    me = s.to_move
    op = 1 - me
    slot, opt = action
    wpn = mechs[me].weapons[slot]
    w0 = _W(s)
    w0.ki[me] = min(w0.ki[me] - wpn.ki_cost + wpn.ki, p.max_ki)
    w0.d = min(max(w0.d + wpn.move, 0), p.max_distance)
    combo = p.combos and wpn.combo_after is not None and s.prev[me] == wpn.combo_after
    n_dice = wpn.combo_melee_dice if combo and wpn.combo_melee_dice else wpn.melee_dice
    counter = not (wpn.no_counter_if_stunned and s.stunned_last[op])
    heat = list(s.heat[me])
    branches: Branches = [(1.0, w0)]
    if wpn.special == "finger_flare":
        k = opt + 1
        q0 = (5.0 / 6.0) ** k
        out: Branches = []
        w1 = w0.copy()
        if w1.hp[me] == 1:
            w1.armour[me] = 1
        else:
            w1.hp[me] -= 1
        out.append((1.0 - q0, w1))
        for j in range(k + 1):
            wj = w0.copy()
            if not wj.protect[op]:
                _armour_damage(wj, op, j, p)
            out.append((q0 * comb(k, j) * 0.6**j * 0.4 ** (k - j), wj))
        branches = out
    elif wpn.special == "fire_burst":
        n = sum(heat)
        heat = [False] * len(heat)
        if w0.d <= 1 and n > 0:
            out = []
            for j in range(n + 1):
                wj = w0.copy()
                if not wj.protect[op]:
                    _armour_damage(wj, op, j, p)
                out.append((comb(n, j) / 2.0**n, wj))
            branches = out
    for st in wpn.steps:
        level = wpn.combo_check if combo and wpn.combo_check and st.check > 0 else st.check
        q = _check_p(level, p)
        nxt: Branches = []
        for pr, w in branches:
            if not st.lo <= w.d <= st.hi:
                nxt.append((pr, w))
                continue
            # each repetition: hit or miss; track whether any hit for any_hit
            reps: list[tuple[float, _W, bool]] = [(pr, w, False)]
            for _ in range(st.times):
                new: list[tuple[float, _W, bool]] = []
                for pr2, w2, anyh in reps:
                    hit, miss = _branch_check([(pr2, w2)], q)
                    for ph, wh in _apply(hit, st.hit[opt], me, n_dice, counter, p):
                        new.append((ph, wh, True))
                    for pm, wm in _apply(miss, st.miss[opt], me, n_dice, counter, p):
                        new.append((pm, wm, anyh))
                reps = new
            for pr2, w2, anyh in reps:
                if anyh:
                    nxt.extend(_apply([(pr2, w2)], st.any_hit, me, n_dice, counter, p))
                else:
                    nxt.append((pr2, w2))
        branches = nxt
    if wpn.heat:
        heat[slot] = True
    heat_t = tuple(heat)
    result = []
    for pr, w in branches:
        if pr <= 0:
            continue
        both_heat = (heat_t, s.heat[1]) if me == 0 else (s.heat[0], heat_t)
        winner = me if w.hp[op] <= 0 else -1
        result.append((pr, replace(
            s, distance=w.d, armour=(w.armour[0], w.armour[1]), hp=(max(w.hp[0], 0), max(w.hp[1], 0)),
            ki=(w.ki[0], w.ki[1]), skip=(w.skip[0], w.skip[1]), skip_stun=(w.skip_stun[0], w.skip_stun[1]),
            protect=(w.protect[0], w.protect[1]), strip_pending=(w.strip[0], w.strip[1]), heat=both_heat,
            last=_set(s.last, me, slot), prev=_set(s.prev, me, slot), stunned_last=_set(s.stunned_last, me, False),
            winner=winner)))
    return result


def _set(t: tuple, i: int, v: object) -> tuple:  # type: ignore[type-arg]
    return (v, t[1]) if i == 0 else (t[0], v)


@validate_params(s=STATE, p=PARAMS)
def start_turn(s: DuelState, p: MechParams) -> DuelState:
    """The start of the mover's turn: its protection ends; stripped armour comes back (``reset``).

    Parameters
    ----------
    s : DuelState
    p : MechParams

    Returns
    -------
    DuelState

    Raises
    ------
    ParamError
        If ``s`` is not a DuelState or ``p`` not a MechParams.
    """
    me = s.to_move
    armour = s.armour
    strip = s.strip_pending
    if s.strip_pending[me]:
        armour = _set(armour, me, p.start_armour)
        strip = _set(strip, me, False)
    return replace(s, protect=_set(s.protect, me, False), armour=armour, strip_pending=strip)


@validate_params(s=STATE)
def skip_turn(s: DuelState) -> DuelState:
    """The mover loses this turn (stunned or stripped): no weapon, combos broken, stun remembered.

    Parameters
    ----------
    s : DuelState

    Returns
    -------
    DuelState

    Raises
    ------
    ParamError
        If ``s`` is not a DuelState.
    """
    me = s.to_move
    return replace(s, skip=_set(s.skip, me, False), skip_stun=_set(s.skip_stun, me, False),
                   stunned_last=_set(s.stunned_last, me, s.skip_stun[me]), prev=_set(s.prev, me, -1))


@validate_params(s=STATE)
def end_turn(s: DuelState) -> DuelState:
    """Count the turn and pass it to the other mech.

    Parameters
    ----------
    s : DuelState

    Returns
    -------
    DuelState

    Raises
    ------
    ParamError
        If ``s`` is not a DuelState.
    """
    return replace(s, turn=s.turn + 1, to_move=1 - s.to_move)


@validate_params(s=STATE, p=PARAMS)
def is_over(s: DuelState, p: MechParams) -> bool:
    """Whether the duel has ended: a mech at 0 HP, or ``max_turns`` turns played (stalemate).

    Parameters
    ----------
    s : DuelState
    p : MechParams

    Returns
    -------
    bool

    Raises
    ------
    ParamError
        If ``s`` is not a DuelState or ``p`` not a MechParams.
    """
    return s.winner >= 0 or s.turn >= p.max_turns


@validate_params(p=PARAMS, mechs=MECHS, s=STATE,
                 action=Unchecked("one of the legal actions of s: checked by action_outcomes"))
def expected_score(s: DuelState, action: Action, mechs: tuple[Mech, Mech], p: MechParams) -> float:
    """The greedy player's score of an action: expected damage per 気力 spent.

    ``E[armour dealt + HP_VALUE * HP dealt - armour taken - HP_VALUE * HP taken] / (1 + ki_cost)``
    over :func:`action_outcomes` (armour taken: counter-attacks, HP taken: フィンガーフレア).

    Parameters
    ----------
    s, action, mechs, p
        As :func:`action_outcomes`.

    Returns
    -------
    float

    Raises
    ------
    ParamError
        As :func:`action_outcomes`.
    """
    outs = _action_outcomes(s, action, mechs, p)
    return _score(s, outs, mechs[s.to_move].weapons[int(action[0])].ki_cost)


def _score(s: DuelState, outs: list[tuple[float, DuelState]], ki_cost: int) -> float:
    me = s.to_move
    op = 1 - me
    v = 0.0
    for pr, t in outs:
        v += pr * ((s.armour[op] - t.armour[op]) + HP_VALUE * (s.hp[op] - t.hp[op])
                   - (s.armour[me] - t.armour[me]) - HP_VALUE * (s.hp[me] - t.hp[me]))
    return v / (1 + ki_cost)
