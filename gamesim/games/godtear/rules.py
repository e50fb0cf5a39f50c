"""Pure rules core of Godtear's dice and combat (no random numbers drawn here).

Source: ``shared/seeds/godtear_rulebook_ja.txt``, sections モデルのスキルを使う (skills:
成功判定 success roll, ダメージ判定 damage roll), 状態効果 (boons 強化 and blights 弱体),
打倒 (knock-out), 戦況表 (the tally reference card) and シナリオ (生命 and 変化 end-phase
dice). Our reading, with every ambiguity, is in ``docs/rules/godtear.md``.

Everything here is a pure function of a state and a roll outcome. Chance points
list their outcomes with exact probabilities (:func:`roll_outcomes`,
:func:`use_outcomes`), which the exact solvers (:mod:`.exact`) combine and the
plain-Python reference (:mod:`.reference`) replays one die at a time.

The simulator's parameters are :class:`GodtearParams` (skill, target, counted and simulated
uses, starting tokens, die: the knock-out chain, checked once when built);
:func:`gamesim.games.godtear.sim.simulate` takes one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import IntEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Choice,
    Instance,
    Int,
    Optional,
    ParamTypeError,
    Unchecked,
    check_choice,
    check_int,
    check_int_list,
    validate_params,
)

__all__ = [
    "MAX_ACTIONS",
    "MAX_MODELS",
    "MAX_DICE",
    "MAX_ROLL_DICE",
    "MAX_PIPS",
    "MAX_HEALTH",
    "MAX_USES",
    "MAX_FACE_PIPS",
    "MAX_FACE_COUNT",
    "DieSpec",
    "GODTEAR_DIE",
    "Token",
    "TokenKind",
    "TOKEN_KINDS",
    "Status",
    "Skill",
    "FollowerSkill",
    "Target",
    "DuelState",
    "HitEffect",
    "HIT_EFFECTS",
    "TargetKind",
    "TARGET_KINDS",
    "Faction",
    "FACTIONS",
    "TallyEvent",
    "TALLY_STEPS",
    "FACTION_BONUS",
    "add_token",
    "dice_after_token",
    "is_success",
    "wounds_dealt",
    "resolve_use",
    "after_success",
    "roll_outcomes",
    "use_outcomes",
    "tally_steps",
    "knockout_steps",
    "default_health",
    "life_new_objectives",
    "change_moves",
    "GodtearParams",
]

#: Most actions of one activation, and most models in a target unit (the simulator and the reference check both).
MAX_ACTIONS = 10
MAX_MODELS = 100


# ---------------------------------------------------------------------------
# Size limits of the public functions (issue 9: refused up front, never a hang)
# ---------------------------------------------------------------------------

#: Most dice of a skill's accuracy or damage (a token may add one more to a roll).
MAX_DICE = 40
#: Most dice in one roll for the roll functions (roll_pmf, roll_outcomes, sample_rolls...).
MAX_ROLL_DICE = 200
#: Largest dodge or protection (pips).
MAX_PIPS = 200
#: Largest health of a target (wounds).
MAX_HEALTH = 60
#: Most uses of a skill in the knock-out chain and simulators.
MAX_USES = 1000
#: Most pips on one face of a custom die (DieSpec counts has at most MAX_FACE_PIPS + 1 entries).
MAX_FACE_PIPS = 6
#: Most faces showing one pip value on a custom die.
MAX_FACE_COUNT = 100


#: Declared constraints shared by the public functions (:func:`validate_params`).
TOKEN = Int(-1, 1)
#: A roll's pips total: at most MAX_ROLL_DICE dice of MAX_FACE_PIPS pips.
TOTAL = Int(0, MAX_ROLL_DICE * MAX_FACE_PIPS)
ROLL_DICE = Int(0, MAX_ROLL_DICE)
#: A skill's accuracy or damage dice.
DICE = Int(0, MAX_DICE)
PIPS = Int(0, MAX_PIPS)
HEALTH = Int(1, MAX_HEALTH)
USES = Int(0, MAX_USES)
#: One die's pips (the end-phase rolls).
FACE = Int(0, MAX_FACE_PIPS)


def _instance(name: str, value: Any, cls: type, what: str) -> Any:
    if not isinstance(value, cls):
        raise ParamTypeError(name, value, what)
    return value


# ---------------------------------------------------------------------------
# The die
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DieSpec:
    """A Godtear-style die: how many faces show 0, 1, 2, ... pips.

    Parameters
    ----------
    counts : tuple of int, default (2, 3, 1)
        ``counts[v]`` = number of faces showing ``v`` pips. The Godtear die has two blank
        faces, three with one pip and one with two (issue 3; the seed text shows the
        faces only as pictures). Every face is equally likely.

    Raises
    ------
    TypeError
        If ``counts`` is not a sequence of integers (a float, even ``2.0``, a bool).
    ValueError
        If a count is negative or above ``MAX_FACE_COUNT`` (100), there are more
        than ``MAX_FACE_PIPS + 1`` (7) entries, or there is no face at all.

    Examples
    --------
    >>> DieSpec().n_faces, DieSpec().max_pips
    (6, 2)
    """

    counts: tuple[int, ...] = (2, 3, 1)

    def __post_init__(self) -> None:
        c = tuple(check_int_list("counts", self.counts, min=0, max=MAX_FACE_COUNT, max_len=MAX_FACE_PIPS + 1))
        if not c or any(x < 0 for x in c) or sum(c) < 1:
            raise ValueError(f"counts = {self.counts!r}, must be non-negative face counts with at least one face")
        # trailing zero counts carry no faces: drop them so equal dice compare equal
        while len(c) > 1 and c[-1] == 0:
            c = c[:-1]
        object.__setattr__(self, "counts", c)

    @property
    def n_faces(self) -> int:
        """Number of faces (6 for the Godtear die)."""
        return sum(self.counts)

    @property
    def max_pips(self) -> int:
        """Largest face value (2 for the Godtear die)."""
        return len(self.counts) - 1

    @property
    def face_values(self) -> tuple[int, ...]:
        """The pips of every face, e.g. ``(0, 0, 1, 1, 1, 2)``."""
        return tuple(v for v, c in enumerate(self.counts) for _ in range(c))

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        """Exact probability of each pip value, ``counts[v] / n_faces``."""
        return tuple(Fraction(c, self.n_faces) for c in self.counts)


#: The Godtear die: faces 0, 0, 1, 1, 1, 2.
GODTEAR_DIE = DieSpec()
DIE = Instance(DieSpec, "a DieSpec")


# ---------------------------------------------------------------------------
# Status tokens (状態効果)
# ---------------------------------------------------------------------------


class Token(IntEnum):
    """Net state of one kind of status token: a blight (弱体), none, or a boon (強化)."""

    BLIGHT = -1
    NONE = 0
    BOON = 1


TokenKind = Literal["accuracy", "damage", "dodge", "protection", "speed"]
#: The five kinds of status token (移動 speed, 回避 dodge, 防御 protection, 精度 accuracy, ダメージ damage).
TOKEN_KINDS: tuple[str, ...] = ("accuracy", "damage", "dodge", "protection", "speed")


@validate_params(current=TOKEN, gained=TOKEN)
def add_token(current: int, gained: int) -> int:
    """The token state after a model (or unit) gains a boon or blight of one kind.

    Parameters
    ----------
    current : {-1, 0, 1}
        Present state of that kind: blight, none, boon.
    gained : {-1, 1}
        The token gained: blight or boon.

    Returns
    -------
    int
        ``gained`` if there was none; ``current`` if the same token is already held
        (a model holds at most one token of a kind: the new one is ignored); 0 if the
        opposite token was held (the two cancel and both are removed).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``current`` or ``gained`` is not an integer (``1.0``, ``True``).
    ParamError
        (a ``ValueError``) If ``gained`` is not -1 or 1, or ``current`` not in {-1, 0, 1}.

    Notes
    -----
    Rulebook 状態効果: 「1つのモデルが同じ種類の状態トークンを複数持つことはない…単純に
    無視される。…相殺する逆面のトークンをモデルが得る場合、それら両方のトークンが取り除かれる。」
    """
    if gained == 0:  # {-1, 1}: a gap in the range, checked here
        raise ParamError("gained", gained, "-1 (a blight) or 1 (a boon)")
    if current == 0:
        return gained
    if current == gained:
        return current
    return 0


#: Unchecked body of :func:`add_token` (:meth:`Status.gain`, inside the solvers).
_add_token = add_token.__wrapped__


@dataclass(frozen=True)
class Status:
    """Status tokens held by one champion or follower unit, each kind -1, 0 or +1.

    Parameters
    ----------
    accuracy, damage, dodge, protection, speed : {-1, 0, 1}, default 0
        Blight (-1), none (0) or boon (+1) of each kind. Boons and blights expire when
        used: accuracy at the holder's next success roll, damage at its next damage
        roll, dodge when it next *receives* a success roll, protection when it next
        receives a damage roll, speed at its next move (rulebook 状態効果).

    Raises
    ------
    ValueError
        If a field is not -1, 0 or 1.
    """

    accuracy: int = 0
    damage: int = 0
    dodge: int = 0
    protection: int = 0
    speed: int = 0

    def __post_init__(self) -> None:
        for k in TOKEN_KINDS:
            object.__setattr__(self, k, check_int(f"Status.{k}", getattr(self, k), min=-1, max=1))

    def gain(self, kind: str, token: int) -> Status:
        """This status after gaining a boon (+1) or blight (-1) of ``kind`` (:func:`add_token`)."""
        return replace(self, **{kind: _add_token(getattr(self, kind), token)})

    def expire(self, kind: str) -> Status:
        """This status with the token of ``kind`` used up (removed)."""
        return replace(self, **{kind: 0})


@validate_params(n_dice=ROLL_DICE, token=TOKEN)
def dice_after_token(n_dice: int, token: int) -> int:
    """Dice rolled for a success or damage roll holding an accuracy/damage token.

    Parameters
    ----------
    n_dice : int
        The skill's accuracy (精度) or damage (ダメージ), in dice.
    token : {-1, 0, 1}
        Blight removes one die, boon adds one.

    Returns
    -------
    int
        ``max(0, n_dice + token)``: never below 0 dice.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If an argument is not an integer.
    ParamError
        (a ``ValueError``) If ``n_dice`` is outside ``0 .. MAX_ROLL_DICE`` or ``token`` not in {-1, 0, 1}.

    Notes
    -----
    状態効果: 「次に成功判定を行う際、ダイスを1つ追加／1つ減らし、その後期限を迎える」.
    """
    return max(0, n_dice + token)


#: Unchecked body of :func:`dice_after_token` (the solvers and the reference).
_dice_after_token = dice_after_token.__wrapped__


@validate_params(total=TOTAL, dodge=Int(-1, MAX_PIPS + 1))
def is_success(total: int, dodge: int) -> bool:
    """Success roll (成功判定): the skill succeeds when the pips total >= the target's dodge (回避).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If an argument is not an integer.
    ParamError
        (a ``ValueError``) If ``total`` is outside ``0 .. MAX_ROLL_DICE * MAX_FACE_PIPS`` or ``dodge``
        outside ``-1 .. MAX_PIPS + 1`` (a dodge with a blight may be -1).
    """
    return total >= dodge


#: Unchecked body of :func:`is_success` (the solvers and the reference).
_is_success = is_success.__wrapped__


@validate_params(total=TOTAL, protection=Int(-1, MAX_PIPS + 1), remaining_health=Optional(Int(0, MAX_HEALTH)))
def wounds_dealt(total: int, protection: int, remaining_health: int | None = None) -> int:
    """Wounds from a damage roll (ダメージ判定).

    Parameters
    ----------
    total : int
        Pips rolled on the damage dice (ダメージの総量).
    protection : int
        Target's protection (防御) for this roll; a value below 0 (a blight on 0) counts
        as 0.
    remaining_health : int or None, default None
        Health left (health - wounds). ``None``: no cap.

    Returns
    -------
    int
        ``min(max(total - protection, 0), remaining_health)``: excess wounds are lost
        (打倒: 「体力を超えて与えられようとする傷トークンは、単純に失われる」).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If an argument is not an integer (or ``None`` for ``remaining_health``).
    ParamError
        (a ``ValueError``) If ``total`` is outside ``0 .. MAX_ROLL_DICE * MAX_FACE_PIPS``,
        ``protection`` outside ``-1 .. MAX_PIPS + 1`` or ``remaining_health`` outside ``0 .. MAX_HEALTH``.
    """
    w = max(total - max(protection, 0), 0)
    return w if remaining_health is None else min(w, remaining_health)


#: Unchecked body of :func:`wounds_dealt` (the solvers and the reference).
_wounds_dealt = wounds_dealt.__wrapped__


# ---------------------------------------------------------------------------
# Skills, targets and one use of a skill against one target
# ---------------------------------------------------------------------------

HitEffect = Literal["none", "dodge_blight", "protection_blight", "accuracy_boon_self", "damage_boon_self"]
#: Success effects (成功効果) a skill may have, for pricing: a blight given to the target,
#: or a boon to the attacker itself.
HIT_EFFECTS: tuple[str, ...] = ("none", "dodge_blight", "protection_blight", "accuracy_boon_self",
                                "damage_boon_self")
HIT_EFFECT = Choice(HIT_EFFECTS)


@dataclass(frozen=True)
class Skill:
    """A champion's (or one follower row's) attacking skill.

    Parameters
    ----------
    accuracy : int
        精度: dice for the success roll (>= 0).
    damage : int or None
        ダメージ: dice for the damage roll; ``None`` = the skill has no damage roll
        (then damage boons/blights do not apply and are not used up).
    hit_effect : str, default "none"
        Success effect (成功効果), resolved after a successful success roll and before
        the damage roll: ``"dodge_blight"`` / ``"protection_blight"`` (the target gains
        that blight), ``"accuracy_boon_self"`` / ``"damage_boon_self"`` (the attacker
        gains that boon), or ``"none"``.

    Raises
    ------
    TypeError
        If a dice count is not an integer (``2.5``, ``True``).
    ValueError
        For dice outside ``0 .. MAX_DICE`` (40) or an unknown ``hit_effect``.
    """

    accuracy: int
    damage: int | None
    hit_effect: str = "none"

    def __post_init__(self) -> None:
        object.__setattr__(self, "accuracy", check_int("accuracy", self.accuracy, min=0, max=MAX_DICE))
        if self.damage is not None:
            object.__setattr__(self, "damage", check_int("damage", self.damage, min=0, max=MAX_DICE))
        check_choice("hit_effect", self.hit_effect, HIT_EFFECTS)


@dataclass(frozen=True)
class FollowerSkill:
    """A small-follower unit's skill: one stat row per number of its models in the hex.

    Parameters
    ----------
    rows : sequence of (accuracy, damage)
        Row ``i`` (0-based) is used when ``i + 1`` models of the unit stand in the
        user's hex (1, 2 or 3; モデルのスキルを使う: 「1体だけで…1行目、2体いるなら2行目、
        3体いる場合は3行目」).
    hit_effect : str, default "none"
        As :class:`Skill`.

    Raises
    ------
    ValueError
        If there is not 1 to 3 rows or a row is invalid.
    """

    rows: tuple[tuple[int, int | None], ...]
    hit_effect: str = "none"

    def __post_init__(self) -> None:
        if isinstance(self.rows, (str, bytes)) or not all(
            isinstance(r, (tuple, list)) and len(r) == 2 for r in self.rows
        ):
            raise ParamTypeError("rows", self.rows, "1 to 3 (accuracy, damage) pairs")
        rows = tuple((check_int("accuracy", a, min=0, max=MAX_DICE),
                      None if d is None else check_int("damage", d, min=0, max=MAX_DICE)) for a, d in self.rows)
        if not 1 <= len(rows) <= 3:
            raise ValueError(f"rows = {self.rows!r}: a follower card has 1 to 3 rows")
        for a, d in rows:
            Skill(a, d, self.hit_effect)
        object.__setattr__(self, "rows", rows)

    def row(self, models_in_hex: int) -> Skill:
        """The :class:`Skill` used with ``models_in_hex`` (1..3) models of the unit in the hex.

        Raises
        ------
        ValueError
            If ``models_in_hex`` is not 1..len(rows).
        """
        a, d = self.rows[check_int("models_in_hex", models_in_hex, min=1, max=len(self.rows)) - 1]
        return Skill(a, d, self.hit_effect)


@dataclass(frozen=True)
class Target:
    """Stat line of the model a skill is used against.

    Parameters
    ----------
    dodge : int
        回避: pips the success roll must reach.
    protection : int
        防御: subtracted from the damage roll.
    health : int
        体力: knocked out at wounds == health (>= 1).

    Raises
    ------
    TypeError
        If a stat is not an integer.
    ValueError
        If ``dodge`` or ``protection`` is outside ``0 .. MAX_PIPS`` (200; tokens are
        kept apart, in :class:`Status`) or ``health`` outside ``1 .. MAX_HEALTH`` (60).
    """

    dodge: int
    protection: int
    health: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "dodge", check_int("dodge", self.dodge, min=0, max=MAX_PIPS))
        object.__setattr__(self, "protection", check_int("protection", self.protection, min=0, max=MAX_PIPS))
        object.__setattr__(self, "health", check_int("health", self.health, min=1, max=MAX_HEALTH))


@dataclass(frozen=True)
class DuelState:
    """One attacker against one target: wounds and both sides' relevant tokens.

    Parameters
    ----------
    wounds : int, default 0
        Wounds on the target (傷トークン).
    attacker : Status, default Status()
        Attacker's tokens (accuracy and damage are used).
    target : Status, default Status()
        Target's tokens (dodge and protection are used).
    """

    wounds: int = 0
    attacker: Status = Status()
    target: Status = Status()

    def __post_init__(self) -> None:
        object.__setattr__(self, "wounds", check_int("wounds", self.wounds, min=0, max=MAX_HEALTH))
        _instance("attacker", self.attacker, Status, "a Status")
        _instance("target", self.target, Status, "a Status")

    def knocked_out(self, health: int) -> bool:
        """Whether the target is knocked out (打倒: wounds == health)."""
        return self.wounds >= health


SKILL = Instance(Skill, "a Skill")
TARGET = Instance(Target, "a Target")
STATUS = Instance(Status, "a Status")
STATE = Instance(DuelState, "a DuelState")


@validate_params(state=STATE, skill=SKILL, target=TARGET, success_total=TOTAL, damage_total=Optional(TOTAL))
def resolve_use(state: DuelState, skill: Skill, target: Target, success_total: int,
                damage_total: int | None) -> DuelState:
    """One use of ``skill`` against ``target`` given the pips rolled (rules steps 2-5).

    Parameters
    ----------
    state : DuelState
        Before the use. A knocked-out target is returned unchanged.
    skill : Skill
        The skill used.
    target : Target
        The target's printed stats (tokens are in ``state``).
    success_total : int
        Pips on the success dice (``dice_after_token(skill.accuracy, attacker.accuracy)`` dice).
    damage_total : int or None
        Pips on the damage dice; ignored when the success roll fails or the skill has no
        damage roll (``None`` counts as 0).

    Returns
    -------
    DuelState
        After the use: tokens used are expired in order, the success effect applied,
        wounds added (capped at health).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``state``, ``skill`` or ``target`` has the wrong type, or a total is
        not an integer.
    ParamError
        (a ``ValueError``) If a total is outside ``0 .. MAX_ROLL_DICE * MAX_FACE_PIPS``.

    Notes
    -----
    Order (モデルのスキルを使う, steps 2-5; 状態効果 for expiry):

    1. success roll: the attacker's accuracy token and the target's dodge token are used
       and expire; success iff ``total >= dodge + dodge_token``;
    2. on failure the action ends: the damage tokens are *not* used (no damage roll);
    3. on success the success effect (成功効果) is resolved, so a protection blight given
       here already counts for this use's damage roll;
    4. damage roll: attacker's damage token and the target's protection token are used
       and expire; wounds = total - (protection + token), at least 0, at most the health
       left.
    """
    if state.knocked_out(target.health):
        return state
    if not _is_success(success_total, target.dodge + state.target.dodge):
        return DuelState(state.wounds, state.attacker.expire("accuracy"), state.target.expire("dodge"))
    att, tgt = _after_success(state, skill)
    if skill.damage is None:
        return DuelState(state.wounds, att, tgt)
    prot = target.protection + tgt.protection
    w = _wounds_dealt(damage_total or 0, prot, target.health - state.wounds)
    return DuelState(state.wounds + w, att.expire("damage"), tgt.expire("protection"))


#: Unchecked body of :func:`resolve_use` (:func:`use_outcomes` and the reference, per roll).
_resolve_use = resolve_use.__wrapped__


@validate_params(state=STATE, skill=SKILL)
def after_success(state: DuelState, skill: Skill) -> tuple[Status, Status]:
    """Attacker's and target's tokens after a successful success roll and its success effect.

    Parameters
    ----------
    state : DuelState
        Before the success roll.
    skill : Skill

    Returns
    -------
    (Status, Status)
        Attacker (accuracy token expired, maybe a self boon gained) and target (dodge
        token expired, maybe a blight gained), ready for the damage roll.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``state`` is not a DuelState or ``skill`` not a Skill.
    """
    att, tgt = state.attacker.expire("accuracy"), state.target.expire("dodge")
    eff = skill.hit_effect
    if eff == "dodge_blight":
        tgt = tgt.gain("dodge", -1)
    elif eff == "protection_blight":
        tgt = tgt.gain("protection", -1)
    elif eff == "accuracy_boon_self":
        att = att.gain("accuracy", 1)
    elif eff == "damage_boon_self":
        att = att.gain("damage", 1)
    return att, tgt


#: Unchecked body of :func:`after_success` (:func:`resolve_use`, :func:`use_outcomes`, the reference).
_after_success = after_success.__wrapped__


@validate_params(n_dice=ROLL_DICE, die=DIE)
def roll_outcomes(n_dice: int, die: DieSpec = GODTEAR_DIE) -> tuple[tuple[int, Fraction], ...]:
    """Every total of ``n_dice`` dice with its exact probability (a chance point).

    Parameters
    ----------
    n_dice : int
        Dice rolled (>= 0; 0 dice total 0 with probability 1).
    die : DieSpec, default GODTEAR_DIE

    Returns
    -------
    tuple of (int, Fraction)
        ``(total, probability)`` for totals ``0 .. n_dice * die.max_pips`` with non-zero
        probability; probabilities sum to exactly 1.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``n_dice`` is not an integer or ``die`` not a :class:`DieSpec`.
    ParamError
        (a ``ValueError``) If ``n_dice`` is outside ``0 .. MAX_ROLL_DICE`` (200).

    Notes
    -----
    Exact integer convolution of the face counts: ``counts^{*n} / n_faces^n``.
    """
    return _roll_outcomes(n_dice, die)


@lru_cache(maxsize=4096)
def _roll_outcomes(n: int, die: DieSpec) -> tuple[tuple[int, Fraction], ...]:
    """The cached kernel of :func:`roll_outcomes` (arguments checked there)."""
    ways = [1]
    for _ in range(n):
        new = [0] * (len(ways) + die.max_pips)
        for t, w in enumerate(ways):
            if w:
                for v, c in enumerate(die.counts):
                    new[t + v] += w * c
        ways = new
    denom = die.n_faces**n
    return tuple((t, Fraction(w, denom)) for t, w in enumerate(ways) if w)


@validate_params(state=STATE, skill=SKILL, target=TARGET, die=DIE)
def use_outcomes(state: DuelState, skill: Skill, target: Target, die: DieSpec = GODTEAR_DIE
                 ) -> list[tuple[DuelState, Fraction]]:
    """Every state after one use of ``skill`` against ``target``, with exact probabilities.

    Parameters
    ----------
    state, skill, target
        As :func:`resolve_use`.
    die : DieSpec, default GODTEAR_DIE

    Returns
    -------
    list of (DuelState, Fraction)
        Distinct next states; probabilities sum to 1.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If an argument has the wrong type.
    """
    if state.knocked_out(target.health):
        return [(state, Fraction(1))]
    acc = _dice_after_token(skill.accuracy, state.attacker.accuracy)
    out: dict[DuelState, Fraction] = {}
    for s_tot, ps in _roll_outcomes(acc, die):
        if not _is_success(s_tot, target.dodge + state.target.dodge) or skill.damage is None:
            nxt = _resolve_use(state, skill, target, s_tot, 0)
            out[nxt] = out.get(nxt, Fraction(0)) + ps
            continue
        att, _ = _after_success(state, skill)
        for d_tot, pd_ in _roll_outcomes(_dice_after_token(skill.damage, att.damage), die):
            nxt = _resolve_use(state, skill, target, s_tot, d_tot)
            out[nxt] = out.get(nxt, Fraction(0)) + ps * pd_
    return list(out.items())


#: Unchecked body of :func:`use_outcomes` (the exact solvers, once per state).
_use_outcomes = use_outcomes.__wrapped__


# ---------------------------------------------------------------------------
# Knock-out and the tally (戦況表)
# ---------------------------------------------------------------------------

TargetKind = Literal["champion", "small_follower", "large_follower"]
TARGET_KINDS: tuple[str, ...] = ("champion", "small_follower", "large_follower")


class Faction(IntEnum):
    """Champion factions (勢力) and what earns their bonus step on the tally."""

    NONE = 0
    SLAYER = 1  # 殺戮: knocking out an enemy champion
    MAELSTROM = 2  # 大渦: knocking out enemy followers
    SHAPER = 3  # 創造: planting a banner (誇示)
    GUARDIAN = 4  # 守護: a banner on an objective hex at the end phase


#: Faction names as used in scenario files.
FACTIONS: dict[str, Faction] = {"none": Faction.NONE, "slayer": Faction.SLAYER, "maelstrom": Faction.MAELSTROM,
                                "shaper": Faction.SHAPER, "guardian": Faction.GUARDIAN}


class TallyEvent(IntEnum):
    """Achievements that move the turn token along the tally (戦況表)."""

    CHAMPION_KO = 0  # 敵の勇者を打倒した: 4
    SMALL_FOLLOWER_KO = 1  # 敵の小型従者を打倒した: 1
    LARGE_FOLLOWER_KO = 2  # 敵の大型従者を打倒した: 2
    PLANT_BANNER = 3  # 戦略フェイズに誇示アクションを行った: 1
    BANNER_END_PHASE = 4  # 目標ヘックス上に味方の軍旗が置かれている (end phase): 4


#: Base steps per event (reference card 戦況表; 概要).
TALLY_STEPS: dict[TallyEvent, int] = {
    TallyEvent.CHAMPION_KO: 4,
    TallyEvent.SMALL_FOLLOWER_KO: 1,
    TallyEvent.LARGE_FOLLOWER_KO: 2,
    TallyEvent.PLANT_BANNER: 1,
    TallyEvent.BANNER_END_PHASE: 4,
}

#: Which faction earns +1 step on which events (reference card: 「(…は+1マス)」).
FACTION_BONUS: dict[Faction, frozenset[TallyEvent]] = {
    Faction.NONE: frozenset(),
    Faction.SLAYER: frozenset({TallyEvent.CHAMPION_KO}),
    Faction.MAELSTROM: frozenset({TallyEvent.SMALL_FOLLOWER_KO, TallyEvent.LARGE_FOLLOWER_KO}),
    Faction.SHAPER: frozenset({TallyEvent.PLANT_BANNER}),
    Faction.GUARDIAN: frozenset({TallyEvent.BANNER_END_PHASE}),
}


#: A tally event or a faction, by value (both enums are 0..4, contiguous: an ``Int`` range; a
#: float such as ``1.0`` is refused like any other non-integer).
EVENT = Int(min(TallyEvent), max(TallyEvent))
FACTION = Int(min(Faction), max(Faction))


@validate_params(event=EVENT, faction=FACTION)
def tally_steps(event: TallyEvent, faction: Faction = Faction.NONE) -> int:
    """Steps the turn token moves for one achievement.

    Parameters
    ----------
    event : TallyEvent
    faction : Faction, default Faction.NONE
        Faction of the champion whose warband achieved it.

    Returns
    -------
    int
        Base steps (champion 4, small follower 1, large follower 2, plant banner 1,
        banner on an objective at the end phase 4) plus 1 when the faction's bonus applies.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``event`` or ``faction`` is not an integer (an enum member is one).
    ParamError
        (a ``ValueError``) If it is not the value of a member.
    """
    event = TallyEvent(event)
    return TALLY_STEPS[event] + (1 if event in FACTION_BONUS[Faction(faction)] else 0)


#: Unchecked body of :func:`tally_steps` (:func:`knockout_steps`).
_tally_steps = tally_steps.__wrapped__


class _UnknownKind(ParamError, KeyError):
    """An unknown target kind: a ValueError (ParamError) that old ``except KeyError`` callers still catch."""

    def __str__(self) -> str:
        return ValueError.__str__(self)


_KO_EVENT = {"champion": TallyEvent.CHAMPION_KO, "small_follower": TallyEvent.SMALL_FOLLOWER_KO,
             "large_follower": TallyEvent.LARGE_FOLLOWER_KO}


@validate_params(target_kind=Unchecked("checked in the body: its error is also a KeyError, for old callers"),
                 faction=FACTION)
def knockout_steps(target_kind: str, faction: Faction = Faction.NONE) -> int:
    """Tally steps for knocking out one model of ``target_kind`` (see :func:`tally_steps`).

    Raises
    ------
    ParamError
        (a ``ValueError``) For an unknown ``target_kind`` (also a ``KeyError`` for old callers)
        or ``faction``.
    ParamTypeError
        (a ``TypeError``) If ``faction`` is not an integer.
    """
    if target_kind not in _KO_EVENT:
        raise _UnknownKind("target_kind", target_kind, "one of " + ", ".join(repr(k) for k in _KO_EVENT))
    return _tally_steps(_KO_EVENT[target_kind], faction)


@validate_params(target_kind=Choice(TARGET_KINDS))
def default_health(target_kind: str) -> int | None:
    """Health when the card does not say: 1 for a small follower, else unknown (None).

    Raises
    ------
    ParamError
        (a ``ValueError``) For an unknown ``target_kind``.

    Notes
    -----
    Issue 3 / 従者: followers have 1 health each unless the card says otherwise; the
    rulebook prints no champion or large-follower cards.
    """
    return 1 if target_kind == "small_follower" else None


# ---------------------------------------------------------------------------
# Scenario end-phase dice (シナリオ: 生命, 変化)
# ---------------------------------------------------------------------------


@validate_params(roll=FACE)
def life_new_objectives(roll: int) -> int:
    """生命: the turn's loser rolls one die and places that result + 2 new objective hexes.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``roll`` is not an integer.
    ParamError
        (a ``ValueError``) If ``roll`` is outside ``0 .. MAX_FACE_PIPS``.
    """
    return roll + 2


@validate_params(roll=FACE)
def change_moves(roll: int) -> int:
    """変化: the turn's loser rolls one die and moves that many objective hexes by one hex.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``roll`` is not an integer.
    ParamError
        (a ``ValueError``) If ``roll`` is outside ``0 .. MAX_FACE_PIPS``.
    """
    return roll



# ---------------------------------------------------------------------------
# The simulator's parameters (one frozen object per game: docs/architecture.md)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GodtearParams:
    """Everything :func:`gamesim.games.godtear.sim.simulate` needs besides the trial count.

    The knock-out chain of :func:`gamesim.games.godtear.sim.run_knockout`: one skill used
    again and again on one target, wounds carried over. The defaults are the ``knockout``
    task's illustrative stat line (the rulebook prints no cards).

    Parameters
    ----------
    skill : Skill, default Skill(4, 4)
        The skill used once per use (accuracy and damage in dice).
    target : Target, default Target(2, 1, 5)
        Dodge and protection (pips) and health (wounds) of the target.
    uses : int, default 2
        Uses counted for ``knockout`` and ``wounds``, 0..:data:`MAX_USES` (1000).
    max_uses : int or None, default None
        Uses simulated for ``uses_to_knockout``, ``max(uses, 1)``..:data:`MAX_USES`;
        ``None`` = ``max(uses, 50)`` (as :func:`~gamesim.games.godtear.sim.run_knockout`).
    attacker : Status, default Status()
        The attacker's tokens before the first use (accuracy, damage).
    target_status : Status, default Status()
        The target's tokens before the first use (dodge, protection).
    die : DieSpec, default GODTEAR_DIE
        The die rolled.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``skill``, ``target``, ``attacker``, ``target_status`` or ``die``
        has the wrong type, or ``uses`` / ``max_uses`` is not an integer (``2.5``, ``True``).
    ParamError
        (a ``ValueError``) If ``uses`` or ``max_uses`` is out of range.

    Notes
    -----
    Checked once, here; :func:`~gamesim.games.godtear.sim.run_knockout` checks its arguments
    again (it is public too) and, with the trial count, the work bound
    ``n_trials x max_uses``. A whole activation (:func:`~gamesim.games.godtear.sim.run_activation`)
    and the end phase (:func:`~gamesim.games.godtear.sim.run_end_phase`) keep their own
    arguments: they are other questions on the same dice, not variants of this one.
    """

    skill: Skill = Skill(4, 4)
    target: Target = Target(2, 1, 5)
    uses: int = 2
    max_uses: int | None = None
    attacker: Status = Status()
    target_status: Status = Status()
    die: DieSpec = GODTEAR_DIE

    def __post_init__(self) -> None:
        _instance("skill", self.skill, Skill, "a Skill")
        _instance("target", self.target, Target, "a Target")
        _instance("attacker", self.attacker, Status, "a Status")
        _instance("target_status", self.target_status, Status, "a Status")
        _instance("die", self.die, DieSpec, "a DieSpec")
        object.__setattr__(self, "uses", check_int("uses", self.uses, min=0, max=MAX_USES))
        if self.max_uses is not None:
            object.__setattr__(self, "max_uses", check_int("max_uses", self.max_uses, min=max(self.uses, 1),
                                                           max=MAX_USES))
