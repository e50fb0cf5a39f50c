"""The card lists of ぱんつぁーへくせん as data (TOML), validated at load.

The rulebook (``shared/seeds/panzer_hexen_rules_ja.txt``) describes each card kind's fields but
shows the cards only as pictures, so every number here is data a designer pastes in. The built-in
file :file:`data/illustrative.toml` is an **ILLUSTRATIVE** set (invented numbers in the ranges the
card frames suggest, not the printed cards); a scenario points at its own file with the task
parameter ``data`` (a path).

A file has five card lists (tables of arrays), each card a table of these fields:

``[[witches]]`` (ウィッチカード)
    ``name``, ``priority`` (優先順値, 1..99, distinct), ``attack``, ``defence``, ``range``
    (攻撃/防御/レンジ, 0..20), ``ability`` (特殊能力, one of :data:`ABILITIES`).
``[[neuroi]]`` (ネウロイカード)
    ``name``, ``attack``, ``defence``, ``range``, ``vp`` (勝利点, 0..20).
``[[strikers]]`` / ``[[guns]]`` (施策カード・機材: ストライカーユニット / 銃器)
    ``name``, ``cost`` (発言力コスト, 0..20), ``attack``, ``defence`` (修整値, 0..20), ``vp``.
``[[policies]]`` (その他の施策カード)
    ``name``, ``cost``, ``vp``, ``effect`` (効果, one of :data:`EFFECTS`).

Any card may carry a free-text ``note``. Top-level keys: ``title``, ``source``, ``illustrative``
(bool). Every problem raises :class:`DataError`, one line naming the file, the card and the field,
e.g. ``illustrative.toml: neuroi "N07": unknown field 'hp'; allowed: attack, defence, name, note,
range, vp``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gamesim.core.datafile import FieldChecks, source_label
from gamesim.core.validate import Instance, ParamTypeError, Unchecked, validate_params

__all__ = [
    "DataError", "Witch", "Neuroi", "Equipment", "Policy", "CardSet", "ABILITIES", "EFFECTS",
    "DATA_DIR", "BUILTIN_DATA", "parse_cards", "load_cards", "without",
]

DATA_DIR: Path = Path(__file__).resolve().parent / "data"
#: Name of the built-in ILLUSTRATIVE card file (``data = "illustrative"`` in a scenario).
BUILTIN_DATA: str = "illustrative"
MAX_VALUE = 20
MAX_CARDS = 64

#: 特殊能力 kinds (kept simple): ``none``; ``mana_plus``: +1 魔力 whenever an action gives 魔力;
#: ``voice_plus``: +1 発言力 whenever 会議 gives 発言力; ``evade``: once per fight the witch is not
#: hit (被弾を防ぐ, the text's example of an ability).
ABILITIES: tuple[str, ...] = ("none", "mana_plus", "voice_plus", "evade")
#: 施策 効果 kinds (for the executing player, to the end of the game): ``none``; ``meeting_plus``:
#: 会議 gives +1 発言力; ``training_plus``: 訓練 gives +1 魔力; ``attack_plus`` / ``defence_plus``: +1
#: attack / defence in every fight; ``discount``: every policy costs 1 less (not below 0).
EFFECTS: tuple[str, ...] = ("none", "meeting_plus", "training_plus", "attack_plus", "defence_plus", "discount")

_WITCH_KEYS = frozenset({"name", "priority", "attack", "defence", "range", "ability", "note"})
_NEUROI_KEYS = frozenset({"name", "attack", "defence", "range", "vp", "note"})
_EQUIP_KEYS = frozenset({"name", "cost", "attack", "defence", "vp", "note"})
_POLICY_KEYS = frozenset({"name", "cost", "vp", "effect", "note"})
_TOP_KEYS = frozenset({"title", "source", "illustrative", "witches", "neuroi", "strikers", "guns", "policies"})


class DataError(ValueError):
    """A card file that cannot be used (one line naming file, card and field)."""


@dataclass(frozen=True)
class Witch:
    """A witch card (ウィッチカード): 優先順値, 攻撃/防御/レンジ, 特殊能力."""

    name: str
    priority: int
    attack: int
    defence: int
    range: int
    ability: str = "none"


@dataclass(frozen=True)
class Neuroi:
    """A ネウロイ card: 攻撃/防御/レンジ and the VP for destroying it."""

    name: str
    attack: int
    defence: int
    range: int
    vp: int


@dataclass(frozen=True)
class Equipment:
    """An equipment policy (機材): ``kind`` "striker" or "gun", 発言力 cost, attack/defence modifiers, VP."""

    name: str
    kind: str
    cost: int
    attack: int
    defence: int
    vp: int


@dataclass(frozen=True)
class Policy:
    """A policy card that is not equipment: 発言力 cost, VP and an effect kind (:data:`EFFECTS`)."""

    name: str
    cost: int
    vp: int
    effect: str = "none"


@dataclass(frozen=True)
class CardSet:
    """A validated card file.

    Attributes
    ----------
    witches, neuroi : tuple
        The witch and ネウロイ cards, in file order.
    equipment : tuple of Equipment
        Strikers first, then guns (file order within each).
    policies : tuple of Policy
        The other policy cards.
    source : str
        File name (for messages).
    illustrative : bool
        True for invented numbers (the built-in set).
    title : str
        The file's ``title`` ("" where it has none).
    """

    witches: tuple[Witch, ...]
    neuroi: tuple[Neuroi, ...]
    equipment: tuple[Equipment, ...]
    policies: tuple[Policy, ...]
    source: str = "<data>"
    illustrative: bool = False
    title: str = ""

    @property
    def n_witches(self) -> int:
        """Witch cards in the set (a seat's witch index is below this)."""
        return len(self.witches)

    @property
    def all_policies(self) -> tuple[Equipment | Policy, ...]:
        """Every policy card (施策): equipment first, then the others; a policy's id is its index here."""
        return self.equipment + self.policies

    def witch_index(self, name: str) -> int:
        """Index of the witch called ``name`` (DataError naming the known witches otherwise)."""
        for i, w in enumerate(self.witches):
            if w.name == name:
                return i
        raise DataError(f"{self.source}: no witch {name!r}; witches: {', '.join(w.name for w in self.witches)}")

    def card_names(self) -> tuple[str, ...]:
        """Names of every ネウロイ and policy card (the cards a study may remove)."""
        return tuple(c.name for c in self.neuroi) + tuple(c.name for c in self.all_policies)


_check = FieldChecks(DataError)
_err, _int, _str, _choice = _check.fail, _check.integer, _check.string, _check.choice


def _cards(src: str, raw: dict[str, Any], key: str, allowed: frozenset[str], lo: int) -> list[tuple[str, dict]]:
    items = raw.get(key)
    if not isinstance(items, list) or not all(isinstance(c, dict) for c in items):
        raise _err(src, f"{key}: missing or not a list of tables ([[{key}]])")
    if not lo <= len(items) <= MAX_CARDS:
        raise _err(src, f"{key}: {len(items)} cards, must be {lo}..{MAX_CARDS}")
    out = []
    for i, c in enumerate(items):
        name = c.get("name")
        label = f'{key} "{name}"' if isinstance(name, str) and name else f"{key}[{i}]"
        where = f"{src}: {label}"
        _check.keys(where, c, allowed)
        for k in sorted(allowed - {"note", "ability", "effect"}):
            if k not in c:
                raise _err(where, f"missing field {k!r}")
        _str(where, "name", c["name"])
        if "note" in c:
            _str(where, "note", c["note"])
        out.append((where, c))
    return out


@validate_params(raw=Unchecked("a parsed card file: every problem is a DataError naming the card and field"),
                 source=Unchecked("any label, used only in messages"))
def parse_cards(raw: Any, *, source: str = "<data>") -> CardSet:
    """Validate a parsed card file (a TOML table) and return its :class:`CardSet`.

    Parameters
    ----------
    raw : dict
        The parsed TOML (``tomllib.loads``).
    source : str, default "<data>"
        Name used in messages.

    Returns
    -------
    CardSet

    Raises
    ------
    DataError
        One line naming the source, card and field: an unknown field or ability/effect kind, a
        missing field, a value of the wrong type or out of range, duplicate names or 優先順値, or
        a card list of the wrong size (witches 2..64, the others 1..64).
    """
    source = source_label(source)  # it starts every message: one line whatever it holds
    if not isinstance(raw, dict):
        raise DataError(f"{source}: not a table of card lists")
    for k in raw:
        if k not in _TOP_KEYS:
            raise DataError(f"{source}: unknown top-level key {k!r}; allowed: {', '.join(sorted(_TOP_KEYS))}")
    illustrative = raw.get("illustrative", False)
    if not isinstance(illustrative, bool):
        raise DataError(f"{source}: illustrative = {illustrative!r}, must be true or false")
    title = raw.get("title", "")
    if not isinstance(title, str) or not title.isprintable():
        raise DataError(f"{source}: title = {title!r:.60}, must be one line of text")
    witches = []
    for where, c in _cards(source, raw, "witches", _WITCH_KEYS, 2):
        witches.append(Witch(c["name"], _int(where, "priority", c["priority"], 1, 99),
                             *(_int(where, f, c[f], 0, MAX_VALUE) for f in ("attack", "defence", "range")),
                             _choice(where, "ability", c.get("ability", "none"), ABILITIES)))
    neuroi = [Neuroi(c["name"], *(_int(w, f, c[f], 0, MAX_VALUE) for f in ("attack", "defence", "range", "vp")))
              for w, c in _cards(source, raw, "neuroi", _NEUROI_KEYS, 1)]
    equipment = [Equipment(c["name"], kind, *(_int(w, f, c[f], 0, MAX_VALUE) for f in ("cost", "attack", "defence", "vp")))
                 for key, kind in (("strikers", "striker"), ("guns", "gun"))
                 for w, c in _cards(source, raw, key, _EQUIP_KEYS, 1)]
    policies = [Policy(c["name"], _int(w, "cost", c["cost"], 0, MAX_VALUE), _int(w, "vp", c["vp"], 0, MAX_VALUE),
                       _choice(w, "effect", c.get("effect", "none"), EFFECTS))
                for w, c in _cards(source, raw, "policies", _POLICY_KEYS, 1)]
    names = [c.name for c in witches] + [c.name for c in neuroi] + [c.name for c in equipment] + [c.name for c in policies]
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise DataError(f"{source}: card name {n!r} used twice (names identify cards)")
        seen.add(n)
    prios = [w.priority for w in witches]
    if len(set(prios)) != len(prios):
        dup = next(w for i, w in enumerate(witches) if w.priority in prios[:i])
        raise DataError(f'{source}: witches "{dup.name}": priority = {dup.priority} used twice (優先順値 settle '
                        "collisions, so they must be distinct)")
    return CardSet(tuple(witches), tuple(neuroi), tuple(equipment), tuple(policies), source, illustrative, title)


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime: float) -> CardSet:
    p = Path(path)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{p.name}: not valid TOML ({exc})") from None
    return parse_cards(raw, source=p.name)


@validate_params(data=Instance((str, Path), f'"{BUILTIN_DATA}" or a path to a .toml card file'))
def load_cards(data: str | Path = BUILTIN_DATA) -> CardSet:
    """Load and validate a card file.

    Parameters
    ----------
    data : str or Path, default "illustrative"
        ``"illustrative"`` for the built-in ILLUSTRATIVE file, or a path to a TOML file in its format.

    Returns
    -------
    CardSet

    Raises
    ------
    ParamTypeError
        If ``data`` is neither a string nor a path.
    DataError
        If the file is missing, not TOML, or fails validation (see :func:`parse_cards`).
    """
    if isinstance(data, str) and not data:  # the empty string, which the declaration lets in
        raise ParamTypeError("data", data, f'"{BUILTIN_DATA}" or a path to a .toml card file')
    p = DATA_DIR / "illustrative.toml" if data == BUILTIN_DATA else Path(data)
    if not p.is_file():
        raise DataError(f"{p}: no such card file")
    return _load_cached(str(p.resolve()), p.stat().st_mtime)


@validate_params(cards=Instance(CardSet, "a CardSet"),
                 name=Unchecked("a ネウロイ or policy card of cards: a DataError in the body otherwise"))
def without(cards: CardSet, name: str) -> CardSet:
    """The card set less the ネウロイ or policy card called ``name`` (a study's removed card).

    Parameters
    ----------
    cards : CardSet
        The card set.
    name : str
        A ネウロイ or policy card (機材 or other) of ``cards``.

    Returns
    -------
    CardSet

    Raises
    ------
    ParamTypeError
        If ``cards`` is not a CardSet.
    DataError
        If no ネウロイ or policy card has that name, or removing it would leave a list empty.
    """
    if not isinstance(name, str) or name not in cards.card_names():
        raise DataError(f"{cards.source}: no ネウロイ or policy card {name!r} to remove")
    neuroi = tuple(c for c in cards.neuroi if c.name != name)
    equipment = tuple(c for c in cards.equipment if c.name != name)
    policies = tuple(c for c in cards.policies if c.name != name)
    if not neuroi or not policies or not any(e.kind == "striker" for e in equipment) \
            or not any(e.kind == "gun" for e in equipment):
        raise DataError(f"{cards.source}: removing {name!r} would leave a card list empty")
    return CardSet(cards.witches, neuroi, equipment, policies, cards.source, cards.illustrative, cards.title)
