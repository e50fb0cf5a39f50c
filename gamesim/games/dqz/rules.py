"""Pure rules core of dqz: attack expressions, strategy cards, monster skills, experience, inn.

Nothing here draws random numbers: chance points (dice of the game master, card
draws) are resolved by the callers, :mod:`gamesim.games.dqz.sim` (vectorized)
and :mod:`gamesim.games.dqz.reference` (one battle at a time), from the same
functions and constants.

Source: ``shared/seeds/dqz_rules_ja.txt``, sections さくせんカード, えんざんカード,
こうげきカード, 手札, バトル, とくぎ (とくぎキーワード) and 宿屋. Our reading of every
ambiguous point is in ``docs/rules/dqz.md``.

The game's parameters are :class:`DqzParams` (formerly ``BattleConfig``: party, decks, policy
and rule readings, checked once when built), with :class:`DamageRule` and the policy names
(:data:`POLICIES`) it checks and builds; :func:`gamesim.games.dqz.sim.simulate` takes one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction
from typing import Literal

import numpy as np
import numpy.typing as npt

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Bool,
    Choice,
    Constraint,
    Int,
    IntList,
    Optional,
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
    "CARD_VALUES",
    "MAX_PARTY",
    "MAX_CARDS",
    "MAX_HP",
    "N_PER_VALUE_DEFAULT",
    "HAND_SIZE_DEFAULT",
    "OPERATORS",
    "OP_CODES",
    "Strategy",
    "STRATEGY_NAMES",
    "STRATEGY_DECK_DEFAULT",
    "Timing",
    "Skill",
    "SKILL_INFO",
    "SkillUse",
    "Monster",
    "StrategyPlay",
    "parse_strategy",
    "parse_skill",
    "parse_skills",
    "round_half_away",
    "exact_value",
    "attack_value",
    "damage_from_value",
    "RESIST_ROUNDINGS",
    "triggers_multiple",
    "experience_split",
    "focus_target",
    "inn_refill",
    "effective_value",
    "POLICIES",
    "PolicyName",
    "DamageRule",
    "MAX_HAND",
    "MAX_PER_VALUE",
    "MAX_STRATEGY",
    "MAX_INN_EVERY",
    "MAX_TURNS",
    "DqzParams",
]

#: Attack card values (こうげきカード 1-5).
CARD_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5)
#: Cards of each value in the attack deck (各数字10枚ずつ, 計50枚).
N_PER_VALUE_DEFAULT: int = 10
#: Hand size when joining the party and at the inn (手札を3枚; 宿屋: 最高3枚まで).
HAND_SIZE_DEFAULT: int = 3
#: Largest party (the rulebook plays 3-5): cards in one expression.
MAX_PARTY: int = 5
#: Largest attack deck a public function accepts (cards; 5 x the largest ``n_per_value``, 40).
MAX_CARDS: int = 200
#: Largest monster HP a public function accepts.
MAX_HP: int = 10**9
#: Operator cards (えんざんカード), in canonical order; codes 0..3.
OPERATORS: str = "+-*/"
OP_CODES: dict[str, int] = {"+": 0, "-": 1, "*": 2, "/": 3, "×": 2, "÷": 3, "＋": 0, "－": 1, "−": 1}


class Exact(Constraint):
    """A declared constraint: an exact number, a :class:`fractions.Fraction` or an integer (never a
    float, not even ``2.0``, and never a bool); the value is passed on unchanged.

    Raises
    ------
    ParamTypeError
        (at call time) For anything else.
    """

    def check(self, name: str, value: object, args: dict) -> object:
        if isinstance(value, Fraction) or is_int(value):
            return value
        raise ParamTypeError(name, value, "a fractions.Fraction or an integer")


#: Declared constraints shared by the public functions (:func:`validate_params`).
EXACT = Exact()
#: Cards per player (a hand size) or in the deck.
CARDS = Int(0, MAX_CARDS)
#: Hand sizes of the party, hero first.
HAND_SIZES = IntList(0, MAX_CARDS, min_len=0, max_len=MAX_PARTY)


class Strategy(IntEnum):
    """さくせんカード (strategy cards); the value is the index in ``strategy_deck`` lists."""

    MINNA_GANBARE = 0  # みんながんばれ: chosen operator first, as in parentheses
    GANGAN_IKOUZE = 1  # ガンガンいこうぜ: chosen attack card doubled
    INOCHI_DAIJINI = 2  # いのちだいじに: this turn's attack cards return to hand
    JUMON_SETSUYAKU = 3  # じゅもんせつやく: an extra "+" right after the hero's card
    ORE_NI_MAKASERO = 4  # おれにまかせろ: the hero's card +3


STRATEGY_NAMES: dict[Strategy, str] = {
    Strategy.MINNA_GANBARE: "みんながんばれ",
    Strategy.GANGAN_IKOUZE: "ガンガンいこうぜ",
    Strategy.INOCHI_DAIJINI: "いのちだいじに",
    Strategy.JUMON_SETSUYAKU: "じゅもんせつやく",
    Strategy.ORE_NI_MAKASERO: "おれにまかせろ",
}
_STRATEGY_ALIASES: dict[str, Strategy] = {}
for _s, _ja in STRATEGY_NAMES.items():
    _STRATEGY_ALIASES[_ja] = _s
    _STRATEGY_ALIASES[_s.name.lower()] = _s
    _STRATEGY_ALIASES[_s.name.lower().replace("_", "")] = _s

#: Strategy deck composition (cards of each kind, in :class:`Strategy` order). The rulebook
#: gives no count; two of each is our assumption (a parameter).
STRATEGY_DECK_DEFAULT: tuple[int, ...] = (2, 2, 2, 2, 2)


class Timing(IntEnum):
    """When a skill acts: 【先制】 before the party's attack, [攻撃終了後] after it (monster alive),
    [攻撃時] while the damage is computed, or passive."""

    PRE = 0
    POST = 1
    ATTACK = 2


class Skill(IntEnum):
    """とくぎキーワード (monster skill keywords), rulebook section とくぎ."""

    HAGESHII_HONOO = 0  # はげしいほのお: value multiple of 5 -> everyone discards 1
    KAEN_NO_IKI = 1  # かえんのいき: multiple of 3
    HI_NO_IKI = 2  # ひのいき: multiple of 4
    IONAZUN = 3  # イオナズン: 2D6 = s -> discard a card s (else any 2); s >= 6 nothing
    BEGIRAMA = 4  # ベギラマ: 1D6 = 1 -> everyone discards 1
    GIRA = 5  # ギラ: 1D6 = 1 -> the hero discards 1
    DOKU = 6  # どくこうげき: cards equal to 1D6 count value-1 in the next attack
    MAHI = 7  # まひこうげき: the 1D6-th player's card counts 0 in the next attack
    RARIHO = 8  # ラリホー・あまいいき: the 1D6-th player's card counts 1
    BUTSURI_MUKOU = 9  # 物理攻撃無効: damage = value x (-1)
    SHUCHU = 10  # 集中攻撃: the player with fewest cards discards 1
    TSUKON = 11  # つうこんのいちげき: who plays the 1D6 value discards 1 more
    JUMON_TAISEI = 12  # 呪文耐性：高: damage halved (rounded up) when a strategy card was used
    FUSHIGI_ODORI = 13  # ふしぎなおどり: the 1D6-th stocked strategy card back to the deck
    MAHOTON = 14  # マホトーン: 1D6 odd -> no strategy card drawn or used
    ZARAKI = 15  # ザラキ: cards equal to 1D6 unusable in the next attack
    BEHOIMI = 16  # ベホイミ: heal 2D6
    HOIMI = 17  # ホイミ: heal 1D6
    NAKAMA = 18  # なかまをよぶ: the next battle follows without the inn


@dataclass(frozen=True)
class _SkillInfo:
    ja: str
    timings: tuple[Timing, ...]
    default: Timing
    multiple: int = 0  # for the multiple-of-k skills


SKILL_INFO: dict[Skill, _SkillInfo] = {
    Skill.HAGESHII_HONOO: _SkillInfo("はげしいほのお", (Timing.POST,), Timing.POST, 5),
    Skill.KAEN_NO_IKI: _SkillInfo("かえんのいき", (Timing.POST,), Timing.POST, 3),
    Skill.HI_NO_IKI: _SkillInfo("ひのいき", (Timing.POST,), Timing.POST, 4),
    Skill.IONAZUN: _SkillInfo("イオナズン", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.BEGIRAMA: _SkillInfo("ベギラマ", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.GIRA: _SkillInfo("ギラ", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.DOKU: _SkillInfo("どくこうげき", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.MAHI: _SkillInfo("まひこうげき", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.RARIHO: _SkillInfo("ラリホー・あまいいき", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.BUTSURI_MUKOU: _SkillInfo("物理攻撃無効", (Timing.ATTACK,), Timing.ATTACK),
    Skill.SHUCHU: _SkillInfo("集中攻撃", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.TSUKON: _SkillInfo("つうこんのいちげき", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.JUMON_TAISEI: _SkillInfo("呪文耐性：高", (Timing.ATTACK,), Timing.ATTACK),
    Skill.FUSHIGI_ODORI: _SkillInfo("ふしぎなおどり", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.MAHOTON: _SkillInfo("マホトーン", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.ZARAKI: _SkillInfo("ザラキ", (Timing.PRE, Timing.POST), Timing.PRE),
    Skill.BEHOIMI: _SkillInfo("ベホイミ", (Timing.POST,), Timing.POST),
    Skill.HOIMI: _SkillInfo("ホイミ", (Timing.POST,), Timing.POST),
    Skill.NAKAMA: _SkillInfo("なかまをよぶ", (Timing.PRE, Timing.POST), Timing.PRE),
}
_SKILL_ALIASES: dict[str, Skill] = {}
for _k, _info in SKILL_INFO.items():
    _SKILL_ALIASES[_info.ja] = _k
    _SKILL_ALIASES[_k.name.lower()] = _k
_SKILL_ALIASES.update({"ラリホー": Skill.RARIHO, "あまいいき": Skill.RARIHO, "呪文耐性:高": Skill.JUMON_TAISEI,
                       "呪文耐性": Skill.JUMON_TAISEI})
_TIMING_ALIASES = {"pre": Timing.PRE, "先制": Timing.PRE, "【先制】": Timing.PRE, "post": Timing.POST,
                   "攻撃終了後": Timing.POST, "[攻撃終了後]": Timing.POST, "attack": Timing.ATTACK,
                   "攻撃時": Timing.ATTACK}


@dataclass(frozen=True)
class SkillUse:
    """One skill of a monster with its timing.

    Attributes
    ----------
    skill : Skill
    timing : Timing
        Must be one of ``SKILL_INFO[skill].timings``.
    """

    skill: Skill
    timing: Timing

    def __post_init__(self) -> None:
        if not isinstance(self.skill, Skill):
            raise ParamTypeError("skill", self.skill, "a Skill")
        if not isinstance(self.timing, Timing):
            raise ParamTypeError("timing", self.timing, "a Timing")
        if self.timing not in SKILL_INFO[self.skill].timings:
            raise ValueError(f"{SKILL_INFO[self.skill].ja}: timing {self.timing.name} not allowed; "
                             f"allowed: {[t.name for t in SKILL_INFO[self.skill].timings]}")

    def __str__(self) -> str:
        return f"{SKILL_INFO[self.skill].ja}@{self.timing.name.lower()}"


@validate_params(text=Unchecked("a skill keyword, parsed in the body (its errors name 'skill')"))
def parse_skill(text: str) -> SkillUse:
    """Parse ``"ザラキ@pre"``, ``"ザラキ@攻撃終了後"``, ``"kaen_no_iki"`` into a :class:`SkillUse`.

    Parameters
    ----------
    text : str
        Skill keyword (Japanese, or the :class:`Skill` name in lower case) and an
        optional ``@timing`` (``pre``/``先制``, ``post``/``攻撃終了後``, ``attack``).
        Without a timing the skill's default is used (【先制】 where both are allowed).

    Returns
    -------
    SkillUse

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``text`` is not a string.
    ValueError
        For an unknown keyword or timing, or a timing the keyword does not allow.
    """
    if not isinstance(text, str):
        raise ParamTypeError("skill", text, "a skill keyword string such as 'ザラキ@pre'")
    name, _, timing = text.strip().partition("@")
    name = name.strip()
    skill = _SKILL_ALIASES.get(name, _SKILL_ALIASES.get(name.lower()))
    if skill is None:
        raise ValueError(f"unknown skill {name!r}; known: {', '.join(i.ja for i in SKILL_INFO.values())}")
    if not timing:
        return SkillUse(skill, SKILL_INFO[skill].default)
    t = _TIMING_ALIASES.get(timing.strip().lower(), _TIMING_ALIASES.get(timing.strip()))
    if t is None:
        raise ValueError(f"unknown timing {timing!r}; use pre/先制, post/攻撃終了後 or attack")
    return SkillUse(skill, t)


#: Unchecked body of :func:`parse_skill` (:func:`parse_skills`, per entry).
_parse_skill = parse_skill.__wrapped__


@validate_params(text=Unchecked("a keyword string or a list of keywords, parsed in the body (errors name 'skills')"))
def parse_skills(text: str | Iterable[str | SkillUse]) -> tuple[SkillUse, ...]:
    """Parse a comma-separated skill list (``"かえんのいき, ザラキ@post"``) or a sequence.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) If ``text`` is neither a string nor an iterable, or an entry not a string.
    ParamError
        (a ``ValueError``) For more than 64 entries.
    ValueError
        As :func:`parse_skill`, or when the same keyword appears twice.
    """
    if not isinstance(text, (str, Iterable)):
        raise ParamTypeError("skills", text, "a comma-separated string or a list of skill keywords")
    items = [s for s in text.replace("、", ",").split(",")] if isinstance(text, str) else list(text)
    if len(items) > 64:
        raise ParamError("skills", text, "at most 64 entries")
    out = [s if isinstance(s, SkillUse) else _parse_skill(s) for s in items if not (isinstance(s, str) and not s.strip())]
    seen = [u.skill for u in out]
    if len(set(seen)) != len(seen):
        raise ValueError(f"a skill keyword appears twice in {text!r}")
    return tuple(out)


@dataclass(frozen=True)
class Monster:
    """A monster card: name, level, HP and skills with their timing.

    Attributes
    ----------
    name : str
    level : int
        Experience: cards each living player draws on a win (>= 0).
    hp : int
        Hit points (>= 1).
    skills : tuple of SkillUse

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for ``hp`` not an integer in 1..MAX_HP (10**9), ``level`` not
        an integer in 0..200.
    ValueError
        For an unknown or duplicated skill.
    """

    name: str
    level: int
    hp: int
    skills: tuple[SkillUse, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ParamTypeError("name", self.name, "a string")
        object.__setattr__(self, "hp", check_int("hp", self.hp, min=1, max=MAX_HP))
        object.__setattr__(self, "level", check_int("level", self.level, min=0, max=MAX_CARDS))
        object.__setattr__(self, "skills", parse_skills(self.skills))

    def has(self, skill: Skill, timing: Timing | None = None) -> bool:
        """Whether the monster has ``skill`` (with ``timing`` if given)."""
        return any(u.skill == skill and (timing is None or u.timing == timing) for u in self.skills)

    @property
    def multiples(self) -> tuple[int, ...]:
        """The k of its multiple-of-k discard skills (はげしいほのお 5, かえんのいき 3, ひのいき 4)."""
        return tuple(SKILL_INFO[u.skill].multiple for u in self.skills if SKILL_INFO[u.skill].multiple)


@dataclass(frozen=True)
class StrategyPlay:
    """A strategy card used in one attack, with its target.

    Attributes
    ----------
    kind : Strategy
    target : int or None
        みんながんばれ: index of the operator (0 = between the first and second card);
        ガンガンいこうぜ: index of the attack card in play order; others: None.
    """

    kind: Strategy
    target: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Strategy):
            raise ParamTypeError("kind", self.kind, "a Strategy")
        if self.target is not None:
            check_int("target", self.target, min=0, max=200)


@validate_params(strategy=Unchecked("None, a StrategyPlay, a kind, a name or (name, target): parsed in the body"))
def parse_strategy(strategy: StrategyPlay | Strategy | str | tuple | None) -> StrategyPlay | None:
    """Normalise a ``strategy`` argument: ``None``, a :class:`StrategyPlay`, a kind, its name
    (``"みんながんばれ"`` or ``"minna_ganbare"``) or a ``(name, target)`` pair.

    Raises
    ------
    ParamTypeError, ParamError
        For a kind or target that is not an integer in range.
    ValueError
        For an unknown name, or a missing/extra target.
    """
    if strategy is None or isinstance(strategy, StrategyPlay):
        sp = strategy
    else:
        target = None
        if isinstance(strategy, tuple):
            strategy, target = strategy
        if isinstance(strategy, str):
            kind = _STRATEGY_ALIASES.get(strategy, _STRATEGY_ALIASES.get(strategy.lower()))
            if kind is None:
                raise ValueError(f"unknown strategy card {strategy!r}; known: {', '.join(STRATEGY_NAMES.values())}")
        else:
            kind = Strategy(check_int("strategy", strategy, min=0, max=len(Strategy) - 1))
        sp = StrategyPlay(kind, None if target is None else check_int("strategy target", target, min=0, max=MAX_PARTY))
    if sp is None:
        return None
    needs = sp.kind in (Strategy.MINNA_GANBARE, Strategy.GANGAN_IKOUZE)
    if needs and sp.target is None:
        raise ValueError(f"{STRATEGY_NAMES[sp.kind]} needs a target index")
    if not needs and sp.target is not None:
        raise ValueError(f"{STRATEGY_NAMES[sp.kind]} takes no target")
    return sp


#: Unchecked body of :func:`parse_strategy` (:func:`attack_value`).
_parse_strategy = parse_strategy.__wrapped__


@validate_params(x=EXACT)
def round_half_away(x: Fraction) -> int:
    """Round a rational to the nearest integer, halves away from zero (四捨五入).

    Parameters
    ----------
    x : fractions.Fraction

    Returns
    -------
    int
        E.g. 27/2 -> 14, -27/2 -> -14, 20/3 -> 7.

    Raises
    ------
    ParamTypeError
        If ``x`` is not a Fraction or an integer (a float such as ``2.5`` is refused: it
        is not exact).
    """
    n, d = x.numerator, x.denominator  # d > 0
    q = (2 * abs(n) + d) // (2 * d)
    return q if n >= 0 else -q


#: Unchecked body of :func:`round_half_away` (callers pass a Fraction or an int).
_round_half_away = round_half_away.__wrapped__


@validate_params(cards=Unchecked("1 to 200 integers or Fractions: checked in the body, with the operators"),
                 operators=Unchecked("as many as the cards less one: a relation, checked in the body"),
                 paren=Optional(Int(0)))
def exact_value(cards: Sequence[int | Fraction], operators: Sequence[str], *, paren: int | None = None) -> Fraction:
    """Exact rational value of ``c0 op0 c1 op1 ...`` with × ÷ before + −, left to right.

    Parameters
    ----------
    cards : sequence of int or Fraction, length n >= 1
        Operand values in play order (already modified by skills and strategy cards).
    operators : sequence of str, length n - 1
        ``"+"``, ``"-"``, ``"*"``, ``"/"`` (``×``, ``÷``, full-width ``＋``/``－`` accepted).
    paren : int, optional
        Index of the operator evaluated first, as if in parentheses (みんながんばれ).

    Returns
    -------
    fractions.Fraction

    Raises
    ------
    ValueError
        On division by zero, an unknown operator, or lengths that do not match.
    ParamTypeError, ParamError
        If ``cards`` is not a list of 1 to 200 integers or Fractions (a float such as
        ``2.5`` or a bool is refused, never converted), or ``paren`` is not an integer.
    """
    if (isinstance(cards, (str, bytes)) or not isinstance(cards, (Sequence, np.ndarray))
            or not all(isinstance(c, Fraction) or is_int(c) for c in cards)):
        raise ParamTypeError("cards", cards, "a list of integers or Fractions")
    if not 1 <= len(cards) <= 200:
        raise ParamError("cards", cards, "a list of 1 to 200 integers or Fractions")
    vals = [Fraction(c) for c in cards]
    ops = [OP_CODES.get(o) for o in operators]
    if any(o is None for o in ops):
        raise ValueError(f"unknown operator in {operators!r}; use + - * /")
    if len(vals) < 1 or len(ops) != len(vals) - 1:
        raise ValueError(f"{len(vals)} cards need {max(len(vals) - 1, 0)} operators, got {len(ops)}")
    if paren is not None:
        if not 0 <= paren < len(ops):
            raise ValueError(f"paren = {paren}, must index an operator (0..{len(ops) - 1})")
        a, b, o = vals[paren], vals[paren + 1], ops[paren]
        vals[paren:paren + 2] = [_apply(a, o, b)]
        del ops[paren]
    total = Fraction(0)
    term = vals[0]
    for o, v in zip(ops, vals[1:]):
        if o in (0, 1):
            total += term
            term = v if o == 0 else -v
        else:
            term = _apply(term, o, v)
    return total + term


#: Unchecked body of :func:`exact_value` (:func:`attack_value`, the reference's plays).
_exact_value = exact_value.__wrapped__


def _apply(a: Fraction, o: int, b: Fraction) -> Fraction:
    if o == 0:
        return a + b
    if o == 1:
        return a - b
    if o == 2:
        return a * b
    if b == 0:
        raise ValueError("division by zero (÷0 is not a legal play)")
    return a / b


@validate_params(cards=IntList(0, 5, min_len=1, max_len=MAX_PARTY),
                 operators=Unchecked("a string or list of operators, as many as the cards less one: checked in the body"),
                 strategy=Unchecked("parsed by parse_strategy in the body"))
def attack_value(cards: Sequence[int], operators: Sequence[str] | str, *, strategy: StrategyPlay | str | tuple | None = None) -> int:
    """攻撃値: the value of the party's expression, rounded half away from zero at the end.

    Parameters
    ----------
    cards : sequence of int, length n >= 1
        Attack card values in play order, the hero's first (already modified by
        skills, e.g. 0 under まひこうげき).
    operators : sequence of str or str, length n - 1
        Operators between consecutive cards, e.g. ``["+", "*", "/"]`` or ``"+*/"``.
    strategy : StrategyPlay, str or (str, int) tuple, optional
        The strategy card used this turn: みんながんばれ ``("minna_ganbare", op_index)``
        evaluates that operator first; ガンガンいこうぜ ``("gangan_ikouze", card_index)``
        doubles that card; おれにまかせろ adds 3 to the hero's card; じゅもんせつやく requires
        ``operators[0] == "+"`` (its fixed "+"); いのちだいじに does not change the value.

    Returns
    -------
    int
        The rounded value (may be 0 or negative).

    Raises
    ------
    ParamError
        (a ``ValueError``; ``ParamTypeError``, also a ``TypeError``, for a wrong type) for card
        values outside 0..5 (0 = a card counted 0 by まひこうげき) or non-integers, more than 5
        cards, operators that are unknown or whose count is not ``len(cards) - 1``.
    ValueError
        On division by zero, an unknown strategy, or a strategy target out of range.

    Notes
    -----
    Rulebook sections バトル (端数は最後に四捨五入), えんざんカード and さくせんカード. Exact
    rational arithmetic (:class:`fractions.Fraction`).

    Examples
    --------
    >>> attack_value([5, 4, 3, 2], "+*/")
    11
    >>> attack_value([5, 4, 3, 2], "+*/", strategy=("minna_ganbare", 0))
    14
    """
    cv = cards
    if isinstance(operators, str):
        ops = list(operators)
    elif isinstance(operators, Sequence) and all(isinstance(o, str) for o in operators):
        ops = list(operators)
    else:
        raise ParamTypeError("operators", operators, "a string or a list of operator strings (+ - * /)")
    if any(o not in OP_CODES for o in ops) or len(ops) != len(cv) - 1:
        raise ParamError("operators", operators, f"{len(cv) - 1} operators, each one of + - * / (× ÷ accepted)")
    vals = [Fraction(c) for c in cv]
    sp = _parse_strategy(strategy)
    paren = None
    if sp is not None:
        if sp.kind == Strategy.MINNA_GANBARE:
            if not 0 <= sp.target < len(ops):  # type: ignore[operator]
                raise ValueError(f"みんながんばれ target {sp.target} is not an operator index")
            paren = sp.target
        elif sp.kind == Strategy.GANGAN_IKOUZE:
            if not 0 <= sp.target < len(vals):  # type: ignore[operator]
                raise ValueError(f"ガンガンいこうぜ target {sp.target} is not a card index")
            vals[sp.target] *= 2  # type: ignore[index]
        elif sp.kind == Strategy.ORE_NI_MAKASERO:
            vals[0] += 3
        elif sp.kind == Strategy.JUMON_SETSUYAKU:
            if not ops or OP_CODES.get(ops[0]) != 0:
                raise ValueError("じゅもんせつやく: the first operator (right after the hero's card) must be '+'")
    return _round_half_away(_exact_value(vals, ops, paren=paren))


#: Unchecked body of :func:`attack_value` (:func:`~gamesim.games.dqz.exact.enumerate_plays`, the reference).
_attack_value = attack_value.__wrapped__


#: Orders of the 呪文耐性：高 halving (see :func:`damage_from_value`): ``"at_end"`` halves the exact
#: value and rounds once, up (端数は最後に; the default), ``"value_first"`` rounds the attack value
#: first (四捨五入), then halves and rounds up.
RESIST_ROUNDINGS: tuple[str, ...] = ("at_end", "value_first")


def _ceil_half(x: Fraction) -> int:
    """``x / 2`` rounded up in magnitude (端数切り上げ), sign kept: 31/5 -> 4, 62/5 -> 7, -7 -> -4."""
    n, d = abs(x.numerator), x.denominator
    h = (n + 2 * d - 1) // (2 * d)
    return h if x >= 0 else -h


@validate_params(value=EXACT, physical_immune=Bool(), spell_resistant=Bool(), strategy_used=Bool(),
                 negative_heals=Bool(), resist_rounding=Choice(RESIST_ROUNDINGS))
def damage_from_value(value: int | Fraction, *, physical_immune: bool = False, spell_resistant: bool = False,
                      strategy_used: bool = False, negative_heals: bool = False,
                      resist_rounding: str = "at_end") -> int:
    """Damage dealt to the monster by an attack value.

    Parameters
    ----------
    value : int or fractions.Fraction
        The attack value: the rounded value (int) or the exact, unrounded value of the
        expression (:func:`exact_value`, a Fraction). It is rounded here, once, at the end
        (四捨五入, halves away from zero); an int is its own exact value.
    physical_immune : bool, default False
        物理攻撃無効: damage is ``value x (-1)``.
    spell_resistant : bool, default False
        呪文耐性：高: with a strategy card used, damage halved, rounded up (in magnitude).
    strategy_used : bool, default False
    negative_heals : bool, default False
        Our rule parameter: a negative damage raises the monster's HP (HP を増減させる);
        by default it does nothing (ノーダメージ).
    resist_rounding : {"at_end", "value_first"}, default "at_end"
        Order of the 呪文耐性 halving. ``"at_end"`` (the rulebook's 端数は **最後に**): the exact
        value is halved and rounded once, up (62/5 -> 31/5 -> 7). ``"value_first"``: the value is
        rounded first (62/5 -> 12), then halved and rounded up (6). Both agree for an int value.

    Returns
    -------
    int
        HP removed (negative = healed, only with ``negative_heals``).

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) For a value that is not an int or Fraction, or a flag that is not a bool.
    ParamError
        (a ``ValueError``) For an unknown ``resist_rounding``.

    Notes
    -----
    Rulebook (``dqz_rules_ja.txt``): バトル 「端数は **最後に** 四捨五入する」, とくぎ 物理攻撃無効
    「[攻撃時]攻撃値×(-1)がダメージとなる」 and 呪文耐性：高 「[攻撃時]さくせんを使用したとき、ダメージが
    1/2(端数切り上げ)となる」; reading in ``docs/rules/dqz.md``.

    Examples
    --------
    >>> damage_from_value(21, physical_immune=True)
    0
    >>> damage_from_value(-22, physical_immune=True)
    22
    >>> damage_from_value(Fraction(62, 5), spell_resistant=True, strategy_used=True)
    7
    >>> damage_from_value(Fraction(62, 5), spell_resistant=True, strategy_used=True, resist_rounding="value_first")
    6
    """
    x = value if isinstance(value, Fraction) else Fraction(int(value))
    d = -x if physical_immune else x
    halve = spell_resistant and strategy_used
    if not halve or resist_rounding == "value_first":
        d = Fraction(_round_half_away(d))
    if d < 0 and not negative_heals:
        d = Fraction(0)
    if halve:
        return _ceil_half(d)
    return int(d)


#: Unchecked body of :func:`damage_from_value` (the reference's plays).
_damage_from_value = damage_from_value.__wrapped__


@validate_params(value=Int(), multiples=IntList(1, min_len=0), nonpositive=Bool())
def triggers_multiple(value: int, multiples: Iterable[int], *, nonpositive: bool = False) -> bool:
    """Whether an attack value sets off a multiple-of-k skill (はげしいほのお 5, かえんのいき 3, ひのいき 4).

    Parameters
    ----------
    value : int
        The rounded attack value.
    multiples : sequence of int
        The k of the monster's skills (each >= 1).
    nonpositive : bool, default False
        Whether 0 and negative values count as multiples. The rulebook (とくぎ, はげしいほのお:
        「攻撃値が5の倍数だったとき」) says nothing about them; by default only 5, 10, ... count.

    Raises
    ------
    ParamTypeError
        (a ``TypeError``) For a non-integer value or k, ``multiples`` not a sequence or
        ``nonpositive`` not a bool.
    ParamError
        (a ``ValueError``) For a k below 1.

    Examples
    --------
    >>> triggers_multiple(15, [5]), triggers_multiple(0, [5]), triggers_multiple(0, [5], nonpositive=True)
    (True, False, True)
    """
    if value <= 0 and not nonpositive:
        return False
    return any(value % k == 0 for k in multiples)


#: Unchecked body of :func:`triggers_multiple` (the reference, per play).
_triggers_multiple = triggers_multiple.__wrapped__


@validate_params(level=CARDS, n_living=Int(0, MAX_PARTY), deck_left=CARDS)
def experience_split(level: int, n_living: int, deck_left: int) -> list[int]:
    """Cards each living player draws on a win (経験値), one each in turn order until the deck runs out.

    Parameters
    ----------
    level : int
        Monster level (cards per player).
    n_living : int
        Living players, in turn order from the hero.
    deck_left : int
        Cards in the attack deck.

    Returns
    -------
    list of int, length n_living

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for non-integers, ``level`` or ``deck_left`` outside 0..200,
        ``n_living`` outside 0..5.

    Examples
    --------
    The rulebook's example (deck 8, 5 players, level 2):

    >>> experience_split(2, 5, 8)
    [2, 2, 2, 1, 1]
    """
    total = min(level * n_living, deck_left)
    if n_living == 0:
        return []
    q, r = divmod(total, n_living)
    return [q + (1 if i < r else 0) for i in range(n_living)]


@validate_params(hand_sizes=HAND_SIZES)
def focus_target(hand_sizes: Sequence[int]) -> int | None:
    """集中攻撃: the living player with the fewest cards, ties to the one nearest the hero.

    Parameters
    ----------
    hand_sizes : sequence of int
        Cards per player in turn order (hero first); players with 0 cards are dead and skipped.

    Returns
    -------
    int or None
        Index of the target, or None if everyone is dead.

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for more than 5 hands or sizes not integers in 0..200.

    Examples
    --------
    >>> focus_target([3, 4, 2, 2])
    2
    """
    best = None
    for i, h in enumerate(hand_sizes):
        if h > 0 and (best is None or h < hand_sizes[best]):
            best = i
    return best


@validate_params(hand_sizes=HAND_SIZES, deck_left=CARDS, hand_size=CARDS)
def inn_refill(hand_sizes: Sequence[int], deck_left: int, hand_size: int = HAND_SIZE_DEFAULT) -> list[int]:
    """宿屋: cards each player draws to refill to ``hand_size``, hero first, while the deck lasts.

    Players holding more keep their cards (our reading: nobody discards voluntarily).

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for more than 5 hands, or sizes, ``deck_left`` or
        ``hand_size`` not integers in 0..200.

    Examples
    --------
    The rulebook's example: four players hold 47 cards, the fifth gets the last 3.

    >>> inn_refill([12, 12, 12, 11, 0], 3)
    [0, 0, 0, 0, 3]
    """
    left = deck_left
    out = []
    for h in hand_sizes:
        k = min(max(hand_size - h, 0), left)
        out.append(k)
        left -= k
    return out


@validate_params(card=Int(1, 5), slot=Int(0, MAX_PARTY - 1), poison=Optional(Int(0, 6)),
                 paralysed=Optional(Int(0, MAX_PARTY)), asleep=Optional(Int(0, MAX_PARTY)))
def effective_value(card: int, slot: int, *, poison: int | None = None, paralysed: int | None = None,
                    asleep: int | None = None) -> int:
    """Value a card counts for in this attack under どくこうげき, まひこうげき, ラリホー.

    Parameters
    ----------
    card : int
        Face value 1-5.
    slot : int
        The player's position in the party (0 = hero).
    poison : int, optional
        どくこうげき die: cards of this value count value - 1.
    paralysed, asleep : int, optional
        Party position (0-based) whose card counts 0 (まひ) or 1 (ラリホー).

    Returns
    -------
    int

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for ``card`` not an integer 1..5, ``slot`` not 0..4, or a
        modifier out of range.
    """
    v = card - 1 if poison is not None and card == poison else card
    if asleep is not None and slot == asleep:
        v = 1
    if paralysed is not None and slot == paralysed:
        v = 0
    return v


#: Unchecked body of :func:`effective_value` (the exact enumeration and the reference, per card).
_effective_value = effective_value.__wrapped__


# ---------------------------------------------------------------------------
# The game's parameters (one frozen object per game: docs/architecture.md)
# ---------------------------------------------------------------------------

#: Party policy names (``policy=`` everywhere; the solver is :class:`gamesim.games.dqz.policies.PlaySolver`).
PolicyName = Literal["max_damage", "exact_kill", "avoid_trigger", "random"]
POLICIES: tuple[str, ...] = ("max_damage", "exact_kill", "avoid_trigger", "random")

_I64 = np.int64


@dataclass(frozen=True)
class DamageRule:
    """How an attack value becomes damage, and which values set off a skill.

    Attributes
    ----------
    physical_immune : bool
        物理攻撃無効 (damage = -value).
    spell_resistant : bool
        呪文耐性：高 (halved, rounded up, when a strategy card was used).
    negative_heals : bool
        Negative damage heals the monster (rule parameter; default off).
    multiples : tuple of int
        k of the monster's multiple-of-k skills.
    resist_rounding : {"at_end", "value_first"}, default "at_end"
        Order of the 呪文耐性：高 halving (see :func:`gamesim.games.dqz.rules.damage_from_value`).
    multiple_nonpositive : bool, default False
        Whether values <= 0 set off the multiple-of-k skills (the rulebook does not say so).

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``/``TypeError``) for a flag that is not a bool, ``multiples`` not up to three
        integers 1..100, or an unknown ``resist_rounding``.
    """

    physical_immune: bool = False
    spell_resistant: bool = False
    negative_heals: bool = False
    multiples: tuple[int, ...] = ()
    resist_rounding: str = "at_end"
    multiple_nonpositive: bool = False

    def __post_init__(self) -> None:
        for name in ("physical_immune", "spell_resistant", "negative_heals", "multiple_nonpositive"):
            check_bool(name, getattr(self, name))
        object.__setattr__(self, "multiples", tuple(check_int_list("multiples", list(self.multiples), min=1, max=100,
                                                                   min_len=0, max_len=3)))
        check_choice("resist_rounding", self.resist_rounding, RESIST_ROUNDINGS)

    @staticmethod
    def of(monster: Monster, negative_heals: bool = False, *, resist_rounding: str = "at_end",
           multiple_nonpositive: bool = False) -> "DamageRule":
        """The rule of a monster."""
        return DamageRule(monster.has(Skill.BUTSURI_MUKOU), monster.has(Skill.JUMON_TAISEI), bool(negative_heals),
                          tuple(sorted(monster.multiples)), resist_rounding, bool(multiple_nonpositive))

    def damage(self, values: npt.NDArray[np.integer], strategy_used: npt.ArrayLike,
               halves: npt.NDArray[np.integer] | None = None) -> npt.NDArray[np.int64]:
        """Vectorized :func:`gamesim.games.dqz.rules.damage_from_value`.

        ``values`` are the rounded attack values; ``halves`` (needed for 呪文耐性：高 with
        ``resist_rounding = "at_end"``) half the exact values rounded up in magnitude
        (:attr:`gamesim.games.dqz.exact.ValueTable.half`).
        """
        d = -values.astype(_I64) if self.physical_immune else values.astype(_I64)
        if not self.negative_heals:
            d = np.maximum(d, 0)
        if self.spell_resistant:
            if self.resist_rounding == "at_end":
                if halves is None:
                    raise ValueError("resist_rounding = 'at_end' needs the exact halves")
                half = -halves.astype(_I64) if self.physical_immune else halves.astype(_I64)
                if not self.negative_heals:
                    half = np.maximum(half, 0)
            else:
                h = (np.abs(d) + 1) // 2
                half = np.where(d > 0, h, -h)
            d = np.where(np.asarray(strategy_used, dtype=bool), half, d)
        return d

    def triggers(self, values: npt.NDArray[np.integer]) -> npt.NDArray[np.bool_]:
        """Whether each value sets off a multiple-of-k skill (values <= 0 only with ``multiple_nonpositive``)."""
        out = np.zeros(np.shape(values), dtype=bool)
        for k in self.multiples:
            out |= (values % k) == 0
        if not self.multiple_nonpositive:
            out &= np.asarray(values) > 0
        return out


#: Largest hand size, cards per value, strategy cards per kind, inn period and turn cap a
#: :class:`DqzParams` accepts (bigger values would exhaust memory or time).
MAX_HAND: int = 20
MAX_PER_VALUE: int = 40
MAX_STRATEGY: int = 20
MAX_INN_EVERY: int = 1000
MAX_TURNS: int = 10_000


@dataclass(frozen=True)
class DqzParams:
    """Everything a battle simulation needs besides the monsters and the trial count.

    Formerly ``BattleConfig``, a name still importable from :mod:`.config`, :mod:`.sim` and the
    package (the same class). Every field is checked once, when the object is built.

    Attributes
    ----------
    party_size : int, default 3
        Players, 3-5 in the rulebook (1-5 accepted).
    hand_size : int, default 3
        Cards per player at the start and after the inn (cards).
    n_per_value : int, default 10
        Attack cards of each value 1..5 (deck = 5 x this; cards).
    strategy_deck : tuple of int, default (2, 2, 2, 2, 2)
        Strategy cards of each kind, in :class:`Strategy` order (cards).
    policy : str, default "max_damage"
        One of :data:`POLICIES`.
    negative_heals : bool, default False
        Negative damage heals the monster.
    inn_every : int, default 1
        Stay at the inn before battle j when ``j % inn_every == 0`` (j >= 1; 0 = never);
        never right after a battle whose monster called a companion (なかまをよぶ).
    max_turns : int, default 200
        Safety cap: a battle still running after this many turns is a loss (turns, 1..10,000).
    hero_passes : bool, default False
        When the hero (player 0) is しぼう (no cards), does the first living player in turn
        order take over the hero's strategy cards (draw, stock, use)? The rulebook's reading
        (default False): a しぼう player cannot take part in the battle (手札が0枚のプレイヤーは
        "しぼう"状態にあり、バトルに参加できない), so no strategy card is taken or used while
        the hero is しぼう. Seat-based skills (ギラ, まひ/ラリホー counting) keep counting from
        player 0 either way.
    resist_rounding : {"at_end", "value_first"}, default "at_end"
        Order of the 呪文耐性：高 halving (see :func:`damage_from_value`).
    heal_cap : bool, default True
        ホイミ/ベホイミ restore HP up to the monster's starting HP (回復する), never above it.
        False: no cap (the reading before this change).
    multiple_nonpositive : bool, default False
        Whether attack values <= 0 set off the multiple-of-k skills (はげしいほのお ...).

    Raises
    ------
    ParamTypeError, ParamError
        (``ValueError``; ``ParamTypeError``, a ``TypeError``, for a wrong type) for any field
        of the wrong type or out of range: ``party_size`` 1..5, ``hand_size`` 0..20,
        ``n_per_value`` 0..40, five ``strategy_deck`` counts 0..20, ``inn_every`` 0..1000,
        ``max_turns`` 1..10,000, hands that do not fit in the deck.
    """

    party_size: int = 3
    hand_size: int = HAND_SIZE_DEFAULT
    n_per_value: int = N_PER_VALUE_DEFAULT
    strategy_deck: tuple[int, ...] = STRATEGY_DECK_DEFAULT
    policy: str = "max_damage"
    negative_heals: bool = False
    inn_every: int = 1
    max_turns: int = 200
    hero_passes: bool = False
    resist_rounding: str = "at_end"
    heal_cap: bool = True
    multiple_nonpositive: bool = False

    def __post_init__(self) -> None:
        check_int("party_size", self.party_size, min=1, max=MAX_PARTY)
        check_int("hand_size", self.hand_size, min=0, max=MAX_HAND)
        check_int("n_per_value", self.n_per_value, min=0, max=MAX_PER_VALUE)
        if self.party_size * self.hand_size > 5 * self.n_per_value:
            raise ParamError("hand_size", self.hand_size, f"at most {5 * self.n_per_value // self.party_size} "
                             f"({self.party_size} players x hand_size cards must fit in the deck of "
                             f"{5 * self.n_per_value})")
        sd = check_int_list("strategy_deck", self.strategy_deck, min=0, max=MAX_STRATEGY, min_len=5, max_len=5)
        object.__setattr__(self, "strategy_deck", tuple(sd))
        check_choice("policy", self.policy, POLICIES)
        check_bool("negative_heals", self.negative_heals)
        check_int("inn_every", self.inn_every, min=0, max=MAX_INN_EVERY)
        check_int("max_turns", self.max_turns, min=1, max=MAX_TURNS)
        check_bool("hero_passes", self.hero_passes)
        check_choice("resist_rounding", self.resist_rounding, RESIST_ROUNDINGS)
        check_bool("heal_cap", self.heal_cap)
        check_bool("multiple_nonpositive", self.multiple_nonpositive)

    def rule(self, monster: Monster) -> DamageRule:
        """The :class:`DamageRule` of ``monster`` under these parameters.

        Parameters
        ----------
        monster : Monster
            The monster fought.

        Returns
        -------
        DamageRule
        """
        return DamageRule.of(monster, self.negative_heals, resist_rounding=self.resist_rounding,
                             multiple_nonpositive=self.multiple_nonpositive)
