"""The weapon lists of Mech Arena 2013 (メックアリーナ2013) as data (TOML), validated at load.

Everything the 2013 text gives about the seven mechs is in :file:`data/weapons_2013.toml`:
one table per mech, the Japanese names, and per weapon the rulebook line (``text``) with its
numbers as fields (気力 gain and cost, distance change, 判定 level, armour and HP damage, stun,
heat, combos, フィンガーフレア). A scenario may point at its own file with the task parameter
``weapons`` (a path), e.g. to try a changed weapon.

Every problem raises :class:`DataError`, one line naming the file, the mech, the weapon and the
field, e.g. ``weapons_2013.toml: mech "レオ" weapon "ミサイル": unknown field 'dmg'; allowed: ...``.

Source: ``shared/seeds/gimmick_warehouse_qftnw_icecream_kaminoikari_mecharena_ja.txt``, section
「メックアリーナ2013 新機体」; our reading of each line: ``docs/rules/mech_arena.md``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gamesim.core.datafile import FieldChecks, source_label
from gamesim.core.validate import Instance, Unchecked, validate_params

__all__ = [
    "DataError",
    "Effect",
    "Step",
    "Weapon",
    "Mech",
    "WeaponSet",
    "DATA_DIR",
    "BUILTIN_WEAPONS",
    "parse_weapons",
    "load_weapons",
    "resolve_weapons_path",
]

#: Folder of the built-in data files.
DATA_DIR: Path = Path(__file__).resolve().parent / "data"
#: Name of the built-in weapon file (``weapons = "2013"`` in a scenario).
BUILTIN_WEAPONS: str = "2013"

#: Bounds that keep every loop of the engine small.
MAX_STEPS = 3
MAX_TIMES = 3
MAX_OPTIONS = 2
MAX_WEAPONS = 8
MAX_MECHS = 16
MAX_DICE = 8
MAX_VALUE = 9

_EFFECT_INT = ("armour", "hp", "move", "ki")
_EFFECT_BOOL = ("stun", "melee", "protect")
_EFFECT_KEYS = frozenset(_EFFECT_INT + _EFFECT_BOOL + ("set_distance",))
_STEP_KEYS = frozenset({"if_distance", "check", "times", "hit", "miss", "any_hit"})
_WEAPON_KEYS = frozenset({
    "text", "assumed", "same_as", "ki", "ki_cost", "min_distance", "max_distance", "move", "heat", "melee_dice",
    "special", "max_dice", "combo_after", "combo_check", "combo_melee_dice", "no_counter_if_stunned", "options",
    "steps",
})
_MECH_KEYS = frozenset({"key", "note", "weapons"})
_TOP_KEYS = frozenset({"title", "source", "mechs"})
SPECIALS = ("finger_flare", "fire_burst")


class DataError(ValueError):
    """A weapon file that cannot be used (one line naming file, mech, weapon and field)."""


@dataclass(frozen=True)
class Effect:
    """What a step does on success (or failure): applied in the order of the fields.

    Attributes
    ----------
    melee : bool
        格闘: an HP-damage check with the weapon's dice against the defender, then the
        defender's counter-attack (反撃).
    armour, hp : int
        装甲ダメージ / HPダメージ dealt to the opponent.
    stun : bool
        スタン: the opponent loses its next turn.
    set_distance : int or None
        距離をNにする.
    move : int
        距離±N (after ``set_distance``), clamped to the track.
    ki : int
        Extra 気力 for the user (マッスルポーズ: 判定2で更に気力+1).
    protect : bool
        次の相手のターンでダメージを受けない.
    """

    melee: bool = False
    armour: int = 0
    hp: int = 0
    stun: bool = False
    set_distance: int | None = None
    move: int = 0
    ki: int = 0
    protect: bool = False


NO_EFFECT = Effect()


@dataclass(frozen=True)
class Step:
    """One 判定 (or an automatic effect) of a weapon.

    Attributes
    ----------
    lo, hi : int
        The step happens only if the distance is in ``[lo, hi]`` when it is reached.
    check : int
        0: no check (``hit`` always applies); 1 or 2: 判定1 / 判定2.
    times : int
        Independent repetitions ({…}を2回).
    hit, miss : tuple of Effect
        One effect per option of the weapon (a single effect repeated when there is no choice).
    any_hit : Effect
        Applied once if any repetition succeeded (ローリングショット).
    """

    lo: int
    hi: int
    check: int
    times: int
    hit: tuple[Effect, ...]
    miss: tuple[Effect, ...]
    any_hit: Effect


@dataclass(frozen=True)
class Weapon:
    """One weapon of a mech (fields as in the data file; see its header)."""

    name: str
    text: str
    assumed: bool
    ki: int
    ki_cost: int
    min_distance: int
    max_distance: int
    move: int
    heat: bool
    melee_dice: int
    special: str | None
    max_dice: int
    combo_after: int | None
    combo_check: int | None
    combo_melee_dice: int | None
    no_counter_if_stunned: bool
    options: tuple[str, ...]
    steps: tuple[Step, ...]

    @property
    def n_options(self) -> int:
        """Choices a player makes when using it: the dice count of フィンガーフレア, else the options."""
        if self.special == "finger_flare":
            return self.max_dice
        return max(1, len(self.options))


@dataclass(frozen=True)
class Mech:
    """A mech: its Japanese name, ASCII key, and weapons in card order."""

    name: str
    key: str
    note: str
    weapons: tuple[Weapon, ...]


@dataclass(frozen=True)
class WeaponSet:
    """All mechs of a weapon file.

    Attributes
    ----------
    source : str
        File name the data came from.
    title : str
    mechs : tuple of Mech
    """

    source: str
    title: str
    mechs: tuple[Mech, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """Japanese mech names, in file order."""
        return tuple(m.name for m in self.mechs)

    @property
    def keys(self) -> tuple[str, ...]:
        """ASCII mech keys, in file order."""
        return tuple(m.key for m in self.mechs)

    def index(self, mech: str) -> int:
        """Index of a mech given by Japanese name or key.

        Raises
        ------
        DataError
            If no mech has that name or key; the message lists them.
        """
        for i, m in enumerate(self.mechs):
            if mech in (m.name, m.key):
                return i
        raise DataError(f"{self.source}: no mech {mech!r}; mechs: {', '.join(self.keys)} "
                        f"({', '.join(self.names)})")


_check = FieldChecks(DataError)
_err, _int, _bool, _str, _keys = _check.fail, _check.integer, _check.boolean, _check.string, _check.keys


def _effect(where: str, field: str, raw: Any) -> Effect:
    if not isinstance(raw, dict):
        raise _err(where, f"{field} = {raw!r}, must be a table of effects, e.g. {{ armour = 1 }}")
    for k in raw:
        if k not in _EFFECT_KEYS:
            raise _err(where, f"{field}.{k}: unknown effect {k!r}; allowed: {', '.join(sorted(_EFFECT_KEYS))}")
    kw: dict[str, Any] = {}
    for k in ("armour", "hp", "ki"):
        if k in raw:
            kw[k] = _int(where, f"{field}.{k}", raw[k], 0, MAX_VALUE)
    if "move" in raw:
        kw["move"] = _int(where, f"{field}.move", raw["move"], -MAX_VALUE, MAX_VALUE)
    if "set_distance" in raw:
        kw["set_distance"] = _int(where, f"{field}.set_distance", raw["set_distance"], 0, MAX_VALUE)
    for k in _EFFECT_BOOL:
        if k in raw:
            kw[k] = _bool(where, f"{field}.{k}", raw[k])
    return Effect(**kw)


def _effects(where: str, field: str, raw: Any, n_options: int) -> tuple[Effect, ...]:
    if raw is None:
        return (NO_EFFECT,) * n_options
    if isinstance(raw, list):
        if len(raw) != n_options or n_options < 2:
            raise _err(where, f"{field}: a list of effects needs one per option (options: {n_options})")
        return tuple(_effect(where, f"{field}[{i}]", e) for i, e in enumerate(raw))
    return (_effect(where, field, raw),) * n_options


def _step(where: str, i: int, raw: Any, n_options: int) -> Step:
    field = f"steps[{i}]"
    if not isinstance(raw, dict):
        raise _err(where, f"{field} = {raw!r}, must be a table")
    for k in raw:
        if k not in _STEP_KEYS:
            raise _err(where, f"{field}.{k}: unknown field {k!r}; allowed: {', '.join(sorted(_STEP_KEYS))}")
    lo, hi = 0, MAX_VALUE * 11
    if "if_distance" in raw:
        d = raw["if_distance"]
        if not isinstance(d, list) or len(d) != 2:
            raise _err(where, f"{field}.if_distance = {d!r}, must be [lo, hi]")
        lo = _int(where, f"{field}.if_distance[0]", d[0], 0, 99)
        hi = _int(where, f"{field}.if_distance[1]", d[1], lo, 99)
    check = _int(where, f"{field}.check", raw.get("check", 0), 0, 2)
    times = _int(where, f"{field}.times", raw.get("times", 1), 1, MAX_TIMES)
    if check == 0 and ("miss" in raw or "any_hit" in raw or times > 1):
        raise _err(where, f"{field}: miss, any_hit and times need a check (check = 1 or 2)")
    if "hit" not in raw:
        raise _err(where, f"{field}.hit: missing (the effect of the step)")
    hit = _effects(where, f"{field}.hit", raw["hit"], n_options)
    miss = _effects(where, f"{field}.miss", raw.get("miss"), n_options)
    any_hit = _effect(where, f"{field}.any_hit", raw["any_hit"]) if "any_hit" in raw else NO_EFFECT
    return Step(lo, hi, check, times, hit, miss, any_hit)


def _weapon(where: str, name: str, raw: dict[str, Any], slots: dict[str, int]) -> Weapon:
    _keys(where, raw, _WEAPON_KEYS - {"same_as"})
    special = raw.get("special")
    if special is not None and special not in SPECIALS:
        raise _err(where, f"special = {special!r}; allowed: {', '.join(SPECIALS)}")
    options: tuple[str, ...] = ()
    if "options" in raw:
        o = raw["options"]
        if not isinstance(o, list) or not 2 <= len(o) <= MAX_OPTIONS or not all(isinstance(x, str) for x in o):
            raise _err(where, f"options = {o!r}, must be a list of {MAX_OPTIONS} names")
        options = tuple(o)
    n_opt = max(1, len(options))
    steps_raw = raw.get("steps", [])
    if not isinstance(steps_raw, list) or len(steps_raw) > MAX_STEPS:
        raise _err(where, f"steps must be a list of at most {MAX_STEPS} tables")
    if special is not None and steps_raw:
        raise _err(where, f"steps: a {special} weapon has no steps")
    steps = tuple(_step(where, i, s, n_opt) for i, s in enumerate(steps_raw))
    max_dice = 0
    if special == "finger_flare":
        max_dice = _int(where, "max_dice", raw.get("max_dice"), 1, MAX_DICE)
        if options:
            raise _err(where, "options: フィンガーフレア's choice is its dice count (max_dice)")
    elif "max_dice" in raw:
        raise _err(where, "max_dice: only a finger_flare weapon has max_dice")
    combo_after = None
    if "combo_after" in raw:
        c = _str(where, "combo_after", raw["combo_after"])
        if c not in slots or c == name:
            raise _err(where, f"combo_after = {c!r}, must name another weapon of the same mech")
        combo_after = slots[c]
        if "combo_check" not in raw and "combo_melee_dice" not in raw:
            raise _err(where, "combo_after needs combo_check or combo_melee_dice")
    elif "combo_check" in raw or "combo_melee_dice" in raw:
        raise _err(where, "combo_check / combo_melee_dice need combo_after")
    mind = _int(where, "min_distance", raw.get("min_distance", 0), 0, 99)
    return Weapon(
        name=name,
        text=_str(where, "text", raw.get("text")),
        assumed=_bool(where, "assumed", raw.get("assumed", False)),
        ki=_int(where, "ki", raw.get("ki", 0), 0, MAX_VALUE),
        ki_cost=_int(where, "ki_cost", raw.get("ki_cost", 0), 0, MAX_VALUE),
        min_distance=mind,
        max_distance=_int(where, "max_distance", raw.get("max_distance", 99), mind, 99),
        move=_int(where, "move", raw.get("move", 0), -MAX_VALUE, MAX_VALUE),
        heat=_bool(where, "heat", raw.get("heat", False)),
        melee_dice=_int(where, "melee_dice", raw.get("melee_dice", 3), 1, MAX_DICE),
        special=special,
        max_dice=max_dice,
        combo_after=combo_after,
        combo_check=(_int(where, "combo_check", raw["combo_check"], 1, 2) if "combo_check" in raw else None),
        combo_melee_dice=(_int(where, "combo_melee_dice", raw["combo_melee_dice"], 1, MAX_DICE)
                          if "combo_melee_dice" in raw else None),
        no_counter_if_stunned=_bool(where, "no_counter_if_stunned", raw.get("no_counter_if_stunned", False)),
        options=options,
        steps=steps,
    )


@validate_params(raw=Unchecked("a parsed weapon file: every problem is a DataError naming the mech and field"),
                 source=Unchecked("any label, used only in messages"))
def parse_weapons(raw: Any, source: str = "<data>") -> WeaponSet:
    """Validate a parsed weapon file and compile it to a :class:`WeaponSet`.

    Parameters
    ----------
    raw : dict
        The parsed TOML (``tomllib.load``), in the format of :file:`data/weapons_2013.toml`.
    source : str, default "<data>"
        Name used in error messages (the file name).

    Returns
    -------
    WeaponSet

    Raises
    ------
    DataError
        One line naming ``source``, the mech, the weapon and the field: an unknown field or
        effect, a value of the wrong type or out of range, a ``same_as`` naming no mech or a
        mech without that weapon (or itself a ``same_as``), a ``combo_after`` naming no weapon
        of the same mech, duplicate mech keys, too many weapons.
    """
    source = source_label(source)  # it starts every message: one line whatever it holds
    if not isinstance(raw, dict):
        raise _err(source, f"the data must be a table of tables, got {type(raw).__name__}")
    _keys(source, raw, _TOP_KEYS)
    mechs_raw = raw.get("mechs")
    if not isinstance(mechs_raw, dict) or not mechs_raw:
        raise _err(source, "[mechs.\"<name>\"] tables are missing")
    if len(mechs_raw) > MAX_MECHS:
        raise _err(source, f"{len(mechs_raw)} mechs, at most {MAX_MECHS}")
    for mname, m in mechs_raw.items():
        if not isinstance(m, dict):
            raise _err(source, f"mech {mname!r} must be a table")
    mechs = []
    seen_keys: set[str] = set()
    for mname, m in mechs_raw.items():
        where = f"{source}: mech \"{mname}\""
        _keys(where, m, _MECH_KEYS)
        key = _str(where, "key", m.get("key"))
        if not key.isascii() or not key.replace("_", "").isalnum():
            raise _err(where, f"key = {key!r}, must be ASCII letters, digits and _")
        if key in seen_keys or key in mechs_raw:
            raise _err(where, f"key = {key!r} is used twice")
        seen_keys.add(key)
        wraw = m.get("weapons")
        if not isinstance(wraw, dict) or not wraw:
            raise _err(where, "weapons: missing (one table per weapon)")
        if len(wraw) > MAX_WEAPONS:
            raise _err(where, f"{len(wraw)} weapons, at most {MAX_WEAPONS}")
        slots = {w: i for i, w in enumerate(wraw)}
        weapons = []
        for wname, w in wraw.items():
            wwhere = f"{where} weapon \"{wname}\""
            if not isinstance(w, dict):
                raise _err(wwhere, "must be a table")
            if "same_as" in w:
                _keys(wwhere, w, frozenset({"same_as"}))
                other = w["same_as"]
                if not isinstance(other, str) or other not in mechs_raw or other == mname:
                    raise _err(wwhere, f"same_as = {other!r}, must name another mech")
                ow = mechs_raw[other].get("weapons", {}).get(wname) if isinstance(mechs_raw[other], dict) else None
                if not isinstance(ow, dict) or "same_as" in ow:
                    raise _err(wwhere, f"same_as = {other!r}: that mech defines no weapon {wname!r}")
                w = ow
                if "combo_after" in w:
                    raise _err(wwhere, f"same_as = {other!r}: a combo weapon cannot be shared")
            weapons.append(_weapon(wwhere, wname, w, slots))
        mechs.append(Mech(name=mname, key=key, note=str(m.get("note", "")), weapons=tuple(weapons)))
    title = raw.get("title", source)
    if not isinstance(title, str):
        raise _err(source, f"title = {title!r}, must be a string")
    return WeaponSet(source=source, title=title, mechs=tuple(mechs))


def resolve_weapons_path(weapons: str | Path) -> Path:
    """The file a ``weapons`` parameter names: ``"2013"`` (built in) or a path to a TOML file.

    Raises
    ------
    DataError
        If the file does not exist.
    """
    if str(weapons) == BUILTIN_WEAPONS:
        return DATA_DIR / "weapons_2013.toml"
    p = Path(weapons)
    if not p.is_file():
        raise DataError(f"weapons = {str(weapons)!r}: no such file (give \"{BUILTIN_WEAPONS}\" or a path "
                        "to a .toml weapon file)")
    return p.resolve()


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime: float) -> WeaponSet:
    with open(path, "rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as exc:
            raise DataError(f"{Path(path).name}: not valid TOML: {exc}") from exc
    return parse_weapons(raw, Path(path).name)


@validate_params(weapons=Instance((str, Path), f'"{BUILTIN_WEAPONS}" or a path to a .toml weapon file'))
def load_weapons(weapons: str | Path = BUILTIN_WEAPONS) -> WeaponSet:
    """Load and validate a weapon file.

    Parameters
    ----------
    weapons : str or Path, default "2013"
        ``"2013"`` for the built-in file :file:`data/weapons_2013.toml`, or a path to a TOML
        file in its format.

    Returns
    -------
    WeaponSet

    Raises
    ------
    ParamTypeError
        If ``weapons`` is neither a string nor a path.
    DataError
        If the file is missing, not TOML, or fails validation (see :func:`parse_weapons`).
    """
    p = resolve_weapons_path(weapons)
    return _load_cached(str(p), p.stat().st_mtime)
