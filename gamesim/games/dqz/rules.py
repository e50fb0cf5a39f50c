"""Pure rules core of dqz: attack expressions, strategy cards, monster skills, experience, inn.

Nothing here draws random numbers: chance points (dice of the game master, card
draws) are resolved by the callers, :mod:`gamesim.games.dqz.sim` (vectorized)
and :mod:`gamesim.games.dqz.reference` (one battle at a time), from the same
functions and constants.

Source: ``shared/seeds/dqz_rules_ja.txt``, sections さくせんカード, えんざんカード,
こうげきカード, 手札, バトル, とくぎ (とくぎキーワード) and 宿屋. Our reading of every
ambiguous point is in ``docs/rules/dqz.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction

__all__ = [
    "CARD_VALUES",
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
    "triggers_multiple",
    "experience_split",
    "focus_target",
    "inn_refill",
    "effective_value",
]

#: Attack card values (こうげきカード 1-5).
CARD_VALUES: tuple[int, ...] = (1, 2, 3, 4, 5)
#: Cards of each value in the attack deck (各数字10枚ずつ, 計50枚).
N_PER_VALUE_DEFAULT: int = 10
#: Hand size when joining the party and at the inn (手札を3枚; 宿屋: 最高3枚まで).
HAND_SIZE_DEFAULT: int = 3
#: Operator cards (えんざんカード), in canonical order; codes 0..3.
OPERATORS: str = "+-*/"
OP_CODES: dict[str, int] = {"+": 0, "-": 1, "*": 2, "/": 3, "×": 2, "÷": 3, "＋": 0, "－": 1, "−": 1}


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
        if self.timing not in SKILL_INFO[self.skill].timings:
            raise ValueError(f"{SKILL_INFO[self.skill].ja}: timing {self.timing.name} not allowed; "
                             f"allowed: {[t.name for t in SKILL_INFO[self.skill].timings]}")

    def __str__(self) -> str:
        return f"{SKILL_INFO[self.skill].ja}@{self.timing.name.lower()}"


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
    ValueError
        For an unknown keyword or timing, or a timing the keyword does not allow.
    """
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


def parse_skills(text: str | Iterable[str | SkillUse]) -> tuple[SkillUse, ...]:
    """Parse a comma-separated skill list (``"かえんのいき, ザラキ@post"``) or a sequence.

    Raises
    ------
    ValueError
        As :func:`parse_skill`, or when the same keyword appears twice.
    """
    items = [s for s in text.replace("、", ",").split(",")] if isinstance(text, str) else list(text)
    out = [s if isinstance(s, SkillUse) else parse_skill(s) for s in items if not (isinstance(s, str) and not s.strip())]
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
    ValueError
        For ``hp < 1``, ``level < 0`` or a duplicated skill.
    """

    name: str
    level: int
    hp: int
    skills: tuple[SkillUse, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.hp < 1:
            raise ValueError(f"monster {self.name!r}: hp = {self.hp}, must be >= 1")
        if self.level < 0:
            raise ValueError(f"monster {self.name!r}: level = {self.level}, must be >= 0")
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


def parse_strategy(strategy: StrategyPlay | Strategy | str | tuple | None) -> StrategyPlay | None:
    """Normalise a ``strategy`` argument: ``None``, a :class:`StrategyPlay`, a kind, its name
    (``"みんながんばれ"`` or ``"minna_ganbare"``) or a ``(name, target)`` pair.

    Raises
    ------
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
            kind = Strategy(strategy)
        sp = StrategyPlay(kind, None if target is None else int(target))
    if sp is None:
        return None
    needs = sp.kind in (Strategy.MINNA_GANBARE, Strategy.GANGAN_IKOUZE)
    if needs and sp.target is None:
        raise ValueError(f"{STRATEGY_NAMES[sp.kind]} needs a target index")
    if not needs and sp.target is not None:
        raise ValueError(f"{STRATEGY_NAMES[sp.kind]} takes no target")
    return sp


def round_half_away(x: Fraction) -> int:
    """Round a rational to the nearest integer, halves away from zero (四捨五入).

    Parameters
    ----------
    x : fractions.Fraction

    Returns
    -------
    int
        E.g. 27/2 -> 14, -27/2 -> -14, 20/3 -> 7.
    """
    n, d = x.numerator, x.denominator  # d > 0
    q = (2 * abs(n) + d) // (2 * d)
    return q if n >= 0 else -q


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
    """
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
    ValueError
        On division by zero, bad lengths, unknown operators or strategy, or a strategy
        target out of range.

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
    ops = list(operators)
    vals = [Fraction(int(c)) for c in cards]
    sp = parse_strategy(strategy)
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
    return round_half_away(exact_value(vals, ops, paren=paren))


def damage_from_value(value: int, *, physical_immune: bool = False, spell_resistant: bool = False,
                      strategy_used: bool = False, negative_heals: bool = False) -> int:
    """Damage dealt to the monster by an attack value.

    Parameters
    ----------
    value : int
        Rounded attack value.
    physical_immune : bool, default False
        物理攻撃無効: damage is ``value x (-1)``.
    spell_resistant : bool, default False
        呪文耐性：高: with a strategy card used, damage halved, rounded up (in magnitude).
    strategy_used : bool, default False
    negative_heals : bool, default False
        Our rule parameter: a negative damage raises the monster's HP (HP を増減させる);
        by default it does nothing (ノーダメージ).

    Returns
    -------
    int
        HP removed (negative = healed, only with ``negative_heals``).

    Examples
    --------
    >>> damage_from_value(21, physical_immune=True)
    0
    >>> damage_from_value(-22, physical_immune=True)
    22
    """
    d = -value if physical_immune else value
    if d < 0 and not negative_heals:
        d = 0
    if spell_resistant and strategy_used and d != 0:
        h = (abs(d) + 1) // 2
        d = h if d > 0 else -h
    return d


def triggers_multiple(value: int, multiples: Iterable[int]) -> bool:
    """Whether an attack value sets off a multiple-of-k skill (0 counts as a multiple)."""
    return any(value % k == 0 for k in multiples)


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


def inn_refill(hand_sizes: Sequence[int], deck_left: int, hand_size: int = HAND_SIZE_DEFAULT) -> list[int]:
    """宿屋: cards each player draws to refill to ``hand_size``, hero first, while the deck lasts.

    Players holding more keep their cards (our reading: nobody discards voluntarily).

    Examples
    --------
    The rulebook's example: four players hold 47 cards, the fifth gets the last 3.

    >>> inn_refill([12, 12, 12, 11, 0], 3)
    [0, 0, 0, 0, 3]
    """
    out = []
    left = deck_left
    for h in hand_sizes:
        k = min(max(hand_size - h, 0), left)
        out.append(k)
        left -= k
    return out


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
    """
    v = card - 1 if poison is not None and card == poison else card
    if asleep is not None and slot == asleep:
        v = 1
    if paralysed is not None and slot == paralysed:
        v = 0
    return v
