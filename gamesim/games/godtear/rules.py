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
from gamesim.core.validate import ParamTypeError, check_choice, check_int, check_int_list

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


def _int(name: str, value: Any, lo: int | None, hi: int | None) -> int:
    """:func:`check_int` with a fast path for plain ints (these run inside the exact solver)."""
    if type(value) is int and (lo is None or value >= lo) and (hi is None or value <= hi):
        return value
    return check_int(name, value, min=lo, max=hi)


def _token(name: str, value: Any) -> int:
    return _int(name, value, -1, 1)


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
    ValueError
        If ``gained`` is not -1 or 1, or ``current`` not in {-1, 0, 1}.

    Notes
    -----
    Rulebook 状態効果: 「1つのモデルが同じ種類の状態トークンを複数持つことはない…単純に
    無視される。…相殺する逆面のトークンをモデルが得る場合、それら両方のトークンが取り除かれる。」
    """
    _token("current", current)
    _token("gained", gained)
    if gained not in (-1, 1) or current not in (-1, 0, 1):
        raise ValueError(f"add_token({current!r}, {gained!r}): current in {{-1, 0, 1}}, gained in {{-1, 1}}")
    if current == 0:
        return gained
    if current == gained:
        return current
    return 0


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
            object.__setattr__(self, k, _token(f"Status.{k}", getattr(self, k)))
            if getattr(self, k) not in (-1, 0, 1):
                raise ValueError(f"Status.{k} = {getattr(self, k)!r}, must be -1 (blight), 0 or 1 (boon)")

    def gain(self, kind: str, token: int) -> Status:
        """This status after gaining a boon (+1) or blight (-1) of ``kind`` (:func:`add_token`)."""
        return replace(self, **{kind: add_token(getattr(self, kind), token)})

    def expire(self, kind: str) -> Status:
        """This status with the token of ``kind`` used up (removed)."""
        return replace(self, **{kind: 0})


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

    Notes
    -----
    状態効果: 「次に成功判定を行う際、ダイスを1つ追加／1つ減らし、その後期限を迎える」.
    """
    return max(0, _int("n_dice", n_dice, 0, MAX_ROLL_DICE) + _token("token", token))


def is_success(total: int, dodge: int) -> bool:
    """Success roll (成功判定): the skill succeeds when the pips total >= the target's dodge (回避).

    Raises
    ------
    TypeError, ValueError
        If ``total`` is not an integer in ``0 .. MAX_ROLL_DICE * MAX_FACE_PIPS`` or ``dodge``
        not an integer in ``-1 .. MAX_PIPS + 1`` (a dodge with a blight may be -1).
    """
    return _int("total", total, 0, MAX_ROLL_DICE * MAX_FACE_PIPS) >= _int("dodge", dodge, -1, MAX_PIPS + 1)


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
    """
    w = max(_int("total", total, 0, MAX_ROLL_DICE * MAX_FACE_PIPS) - max(_int("protection", protection, -1, MAX_PIPS + 1), 0), 0)
    return w if remaining_health is None else min(w, max(_int("remaining_health", remaining_health, 0, MAX_HEALTH), 0))


# ---------------------------------------------------------------------------
# Skills, targets and one use of a skill against one target
# ---------------------------------------------------------------------------

HitEffect = Literal["none", "dodge_blight", "protection_blight", "accuracy_boon_self", "damage_boon_self"]
#: Success effects (成功効果) a skill may have, for pricing: a blight given to the target,
#: or a boon to the attacker itself.
HIT_EFFECTS: tuple[str, ...] = ("none", "dodge_blight", "protection_blight", "accuracy_boon_self",
                                "damage_boon_self")


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
        object.__setattr__(self, "accuracy", _int("accuracy", self.accuracy, 0, MAX_DICE))
        if self.damage is not None:
            object.__setattr__(self, "damage", _int("damage", self.damage, 0, MAX_DICE))
        check_choice("hit_effect", self.hit_effect, HIT_EFFECTS)
        if int(self.accuracy) < 0 or (self.damage is not None and int(self.damage) < 0):
            raise ValueError(f"Skill({self.accuracy!r}, {self.damage!r}): dice must be >= 0")
        if self.hit_effect not in HIT_EFFECTS:
            raise ValueError(f"hit_effect = {self.hit_effect!r}, must be one of {', '.join(HIT_EFFECTS)}")


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
        rows = tuple((_int("accuracy", a, 0, MAX_DICE), None if d is None else _int("damage", d, 0, MAX_DICE))
                     for a, d in self.rows)
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
        if not 1 <= _int("models_in_hex", models_in_hex, None, None) <= len(self.rows):
            raise ValueError(f"models_in_hex = {models_in_hex!r}, must be 1..{len(self.rows)}")
        a, d = self.rows[int(models_in_hex) - 1]
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
        object.__setattr__(self, "dodge", _int("dodge", self.dodge, 0, MAX_PIPS))
        object.__setattr__(self, "protection", _int("protection", self.protection, 0, MAX_PIPS))
        object.__setattr__(self, "health", _int("health", self.health, 1, MAX_HEALTH))
        if int(self.health) < 1:
            raise ValueError(f"health = {self.health!r}, must be >= 1")


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
        object.__setattr__(self, "wounds", _int("wounds", self.wounds, 0, MAX_HEALTH))
        _instance("attacker", self.attacker, Status, "a Status")
        _instance("target", self.target, Status, "a Status")

    def knocked_out(self, health: int) -> bool:
        """Whether the target is knocked out (打倒: wounds == health)."""
        return self.wounds >= health


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
        damage roll.

    Returns
    -------
    DuelState
        After the use: tokens used are expired in order, the success effect applied,
        wounds added (capped at health).

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
    _instance("state", state, DuelState, "a DuelState")
    _instance("skill", skill, Skill, "a Skill")
    _instance("target", target, Target, "a Target")
    if state.knocked_out(target.health):
        return state
    if not is_success(success_total, target.dodge + state.target.dodge):
        return DuelState(state.wounds, state.attacker.expire("accuracy"), state.target.expire("dodge"))
    att, tgt = after_success(state, skill)
    if skill.damage is None:
        return DuelState(state.wounds, att, tgt)
    prot = target.protection + tgt.protection
    w = wounds_dealt(int(damage_total or 0), prot, target.health - state.wounds)
    return DuelState(state.wounds + w, att.expire("damage"), tgt.expire("protection"))


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
    TypeError
        If ``n_dice`` is not an integer or ``die`` not a :class:`DieSpec`.
    ValueError
        If ``n_dice`` is outside ``0 .. MAX_ROLL_DICE`` (200).

    Notes
    -----
    Exact integer convolution of the face counts: ``counts^{*n} / n_faces^n``.
    """
    return _roll_outcomes(_int("n_dice", n_dice, 0, MAX_ROLL_DICE), _instance("die", die, DieSpec, "a DieSpec"))


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
    """
    _instance("state", state, DuelState, "a DuelState")
    _instance("skill", skill, Skill, "a Skill")
    _instance("target", target, Target, "a Target")
    _instance("die", die, DieSpec, "a DieSpec")
    if state.knocked_out(target.health):
        return [(state, Fraction(1))]
    acc = dice_after_token(skill.accuracy, state.attacker.accuracy)
    out: dict[DuelState, Fraction] = {}
    for s_tot, ps in roll_outcomes(acc, die):
        if not is_success(s_tot, target.dodge + state.target.dodge) or skill.damage is None:
            nxt = resolve_use(state, skill, target, s_tot, 0)
            out[nxt] = out.get(nxt, Fraction(0)) + ps
            continue
        att, _ = after_success(state, skill)
        for d_tot, pd_ in roll_outcomes(dice_after_token(skill.damage, att.damage), die):
            nxt = resolve_use(state, skill, target, s_tot, d_tot)
            out[nxt] = out.get(nxt, Fraction(0)) + ps * pd_
    return list(out.items())


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
    """
    event = TallyEvent(check_choice("event", _int("event", event, None, None), list(TallyEvent)))
    faction = Faction(check_choice("faction", _int("faction", faction, None, None), list(Faction)))
    return TALLY_STEPS[event] + (1 if event in FACTION_BONUS[faction] else 0)


class _UnknownKind(ParamError, KeyError):
    """An unknown target kind: a ValueError (ParamError) that old ``except KeyError`` callers still catch."""

    def __str__(self) -> str:
        return ValueError.__str__(self)


_KO_EVENT = {"champion": TallyEvent.CHAMPION_KO, "small_follower": TallyEvent.SMALL_FOLLOWER_KO,
             "large_follower": TallyEvent.LARGE_FOLLOWER_KO}


def knockout_steps(target_kind: str, faction: Faction = Faction.NONE) -> int:
    """Tally steps for knocking out one model of ``target_kind`` (see :func:`tally_steps`).

    Raises
    ------
    ValueError
        For an unknown ``target_kind`` (a ``ParamError``, also a ``KeyError`` for old callers).
    """
    if target_kind not in _KO_EVENT:
        raise _UnknownKind("target_kind", target_kind, "one of " + ", ".join(repr(k) for k in _KO_EVENT))
    return tally_steps(_KO_EVENT[target_kind], faction)


def default_health(target_kind: str) -> int | None:
    """Health when the card does not say: 1 for a small follower, else unknown (None).

    Notes
    -----
    Issue 3 / 従者: followers have 1 health each unless the card says otherwise; the
    rulebook prints no champion or large-follower cards.
    """
    check_choice("target_kind", target_kind, TARGET_KINDS)
    return 1 if target_kind == "small_follower" else None


# ---------------------------------------------------------------------------
# Scenario end-phase dice (シナリオ: 生命, 変化)
# ---------------------------------------------------------------------------


def life_new_objectives(roll: int) -> int:
    """生命: the turn's loser rolls one die and places that result + 2 new objective hexes.

    Raises
    ------
    TypeError, ValueError
        If ``roll`` is not an integer in ``0 .. MAX_FACE_PIPS``.
    """
    return _int("roll", roll, 0, MAX_FACE_PIPS) + 2


def change_moves(roll: int) -> int:
    """変化: the turn's loser rolls one die and moves that many objective hexes by one hex.

    Raises
    ------
    TypeError, ValueError
        If ``roll`` is not an integer in ``0 .. MAX_FACE_PIPS``.
    """
    return _int("roll", roll, 0, MAX_FACE_PIPS)



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
