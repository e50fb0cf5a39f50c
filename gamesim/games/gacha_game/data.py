"""Card lists and tracks of ガッチャ ~God Chance~ as data (TOML), validated at load.

The rulebook shows the action, event, boss and navi cards, the quest track and the
rate-battle / Saturday table as pictures only; :file:`data/illustrative.toml` holds an
invented, clearly labelled stand-in set that a designer replaces with the real lists
(or copies and points a scenario at with the task parameter ``data``).

Every problem raises :class:`DataError` naming the file, the card and the field, e.g.
``illustrative.toml: action "ヨフカシ".top.pulse: unknown icon; allowed: pulls, money, ...``.

Source: ``shared/seeds/gacha_god_chance_rules_ja.txt``, sections 内容物, ゲームの準備,
アイコンの詳細, 土曜ガチャの例, クエスト処理の例.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gamesim.core.datafile import FieldChecks
from gamesim.core.validate import Instance, Unchecked, validate_params
from gamesim.games.gacha.rules import BagConfig

__all__ = [
    "TRIGGERS",
    "ROUND_TABLES",
    "Icon",
    "ICON_NAMES",
    "DataError",
    "GameData",
    "DATA_DIR",
    "BUILTIN_DATA",
    "load_data",
    "resolve_data_path",
]

#: Folder of the built-in data files.
DATA_DIR: Path = Path(__file__).resolve().parent / "data"
#: Name of the built-in (illustrative) data set; ``data = "illustrative"`` in a scenario.
BUILTIN_DATA: str = "illustrative"


class Icon(IntEnum):
    """Effect icons (アイコンの詳細), index into an effect vector, in resolution order."""

    START_SLAYER = 0  #: 「スタートスレイヤーになる。」 (handled in turn step ④)
    MONEY = 1  #: 👑:○ マネーアイコン
    RATE = 2  #: ★:○ レートアイコン
    BOSS_APPEAR = 3  #: 🐱:1 ボス出現アイコン
    QUEST = 4  #: 👣:○ クエストアイコン
    ATTACK = 5  #: 💥 ボス攻撃アイコン(通常)
    ATTACK_CRITICAL = 6  #: 💥 ボス攻撃アイコン(クリティカル)
    ATTACK_DOUBLE = 7  #: 💥 ボス攻撃アイコン(ダブル)
    PULLS = 8  #: 🎰:○ 平日ガチャアイコン


#: Icon names as written in data files, indexed by :class:`Icon`.
ICON_NAMES: tuple[str, ...] = tuple(i.name.lower() for i in Icon)
N_ICONS = len(Icon)
_QUEST_SQUARE_ICONS = ("pulls", "money", "quest", "rate")
_EVENT_KINDS = ("start_dash", "weekly", "climax")
_BOSS_PLACES = ("deck", "bottom", "aside")
#: Tables a round-scoped effect (``round = { ... }`` on an event or boss card) may replace.
ROUND_TABLES: tuple[str, ...] = ("paid_rates", "saturday", "bag")
#: Chip triggers a navi or event card may carry (SR chip ●, N chip ●: はずれ but for some cards).
TRIGGERS: tuple[str, ...] = ("on_sr", "on_n")
_TRIGGER_PER = ("pull", "session")
#: Largest value of one icon on a card (keeps every loop bounded).
MAX_ICON_VALUE = 60


class DataError(ValueError):
    """A card list or track file that cannot be used (names file, card and field)."""


@dataclass(frozen=True, eq=False)
class GameData:
    """Compiled card lists and tracks (arrays indexed by card id).

    Attributes
    ----------
    source : str
        File the data came from.
    illustrative : bool
        Whether the file says its cards are invented stand-ins.
    title : str
        The file's ``title`` ("" where it has none; listed last among the fields).
    characters : tuple of str
        UR characters (= God Chance cards), e.g. 5.
    paid_rates : tuple of (int, int)
        課金ガチャ rates ``(money, pulls)``.
    start_money : int
    bag : tuple of 3 int
        Default bag ``(god_chance, sr, n)``.
    action_names : tuple of str, length n_action (copies expanded)
    action_effects : ndarray of int64, shape (n_action, 2, N_ICONS)
        Top (0) and bottom (1) effects.
    event_names, event_kind : tuple of str
    event_effects : ndarray, shape (n_event, N_ICONS)
    event_bag : ndarray, shape (n_event, 3); ``-1`` rows = no bag change
    boss_names : tuple of str
    boss_health : ndarray, shape (n_boss,)
    boss_effects : ndarray, shape (n_boss, N_ICONS)
    boss_first : ndarray of bool, shape (n_boss,)
    boss_place : tuple of str ("deck", "bottom", "aside")
    navi_names : tuple of str (each one of ``characters``)
    navi_character : ndarray, shape (n_navi,), index into ``characters``
    navi_weekday, navi_overdrive : ndarray, shape (n_navi, N_ICONS)
    quest_stop, quest_lap : ndarray of bool, shape (n_squares,)
    quest_icons : ndarray, shape (n_squares, N_ICONS) (pulls, money, quest, rate)
    quest_lap_pulls : ndarray, shape (n_squares,)
    rate_length : int
    rate_columns : ndarray, shape (rate_length + 1,)
    saturday : ndarray, shape (n_columns, 4)
        Pulls per leader by column and number of tied leaders (1..4).
    navi_trigger, event_trigger : ndarray, shape (n_navi or n_event, 2, N_ICONS)
        Chip triggers (:data:`TRIGGERS`): the effect gained when a session draws SR chips
        (``[:, 0]``, ``on_sr``) or N chips (``[:, 1]``, ``on_n``); zeros: no trigger.
    navi_trigger_pull, event_trigger_pull : ndarray of bool, shape (n_navi or n_event, 2)
        True: the effect once per chip drawn (``per = "pull"``); False: once per session
        that draws at least one (``per = "session"``).
    paid_rate_sets : tuple of rate tuples
        課金ガチャ rate sets; 0 = ``paid_rates``, then those of round-scoped effects.
    saturday_sets : ndarray, shape (n_sets, n_columns, 4)
        Saturday tables; 0 = ``saturday``, then those of round-scoped effects.
    event_round : ndarray, shape (n_event, 2)
        Rate set and Saturday table in force during the event's round (0 = the default).
    boss_round : ndarray, shape (n_boss, 2)
        Rate set and Saturday table a boss card puts in force, from its use to the round's
        end (-1: no change).
    boss_bag : ndarray, shape (n_boss, 3)
        Bag a boss card puts in force when used (remade at once), ``-1`` rows: no change.
    navi_round : ndarray, shape (n_navi, 2)
        Rate set and Saturday table a navi card's ``overdrive_round`` puts in force when its
        Overdrive fires, until the round ends (-1: no change).
    navi_bag : ndarray, shape (n_navi, 3)
        Bag a navi card's ``overdrive_round`` puts in force (remade at once), ``-1`` rows: no change.
    """

    source: str
    illustrative: bool
    characters: tuple[str, ...]
    paid_rates: tuple[tuple[int, int], ...]
    start_money: int
    bag: tuple[int, int, int]
    action_names: tuple[str, ...]
    action_effects: npt.NDArray[np.int64]
    event_names: tuple[str, ...]
    event_kind: tuple[str, ...]
    event_effects: npt.NDArray[np.int64]
    event_bag: npt.NDArray[np.int64]
    boss_names: tuple[str, ...]
    boss_health: npt.NDArray[np.int64]
    boss_effects: npt.NDArray[np.int64]
    boss_first: npt.NDArray[np.bool_]
    boss_place: tuple[str, ...]
    navi_names: tuple[str, ...]
    navi_character: npt.NDArray[np.int64]
    navi_weekday: npt.NDArray[np.int64]
    navi_overdrive: npt.NDArray[np.int64]
    quest_stop: npt.NDArray[np.bool_]
    quest_lap: npt.NDArray[np.bool_]
    quest_icons: npt.NDArray[np.int64]
    quest_lap_pulls: npt.NDArray[np.int64]
    rate_length: int
    rate_columns: npt.NDArray[np.int64]
    saturday: npt.NDArray[np.int64]
    navi_trigger: npt.NDArray[np.int64]
    navi_trigger_pull: npt.NDArray[np.bool_]
    event_trigger: npt.NDArray[np.int64]
    event_trigger_pull: npt.NDArray[np.bool_]
    paid_rate_sets: tuple[tuple[tuple[int, int], ...], ...]
    saturday_sets: npt.NDArray[np.int64]
    event_round: npt.NDArray[np.int64]
    boss_round: npt.NDArray[np.int64]
    boss_bag: npt.NDArray[np.int64]
    navi_round: npt.NDArray[np.int64]
    navi_bag: npt.NDArray[np.int64]
    title: str = ""

    @property
    def has_boss_round(self) -> bool:
        """Whether some boss card changes a table for the rest of the round when used."""
        return bool((self.boss_round >= 0).any() or (self.boss_bag >= 0).any())

    @property
    def has_navi_round(self) -> bool:
        """Whether some navi card's Overdrive changes a table for the rest of the round."""
        return bool((self.navi_round >= 0).any() or (self.navi_bag >= 0).any())

    @property
    def round_bags(self) -> list[tuple[int, int, int]]:
        """Every bag a game can make: the default, then those of events, boss and navi cards."""
        rows = self.event_bag.tolist() + self.boss_bag.tolist() + self.navi_bag.tolist()
        return list(dict.fromkeys([tuple(self.bag)] + [tuple(b) for b in rows if b[0] >= 0]))

    @property
    def has_triggers(self) -> bool:
        """Whether some card reacts to SR or N chips (the simulator then tracks them apart)."""
        return bool(self.navi_trigger.any() or self.event_trigger.any())

    @property
    def n_characters(self) -> int:
        """UR characters to collect."""
        return len(self.characters)

    def events_of(self, kind: str) -> npt.NDArray[np.int64]:
        """Event ids of one kind (``start_dash``, ``weekly``, ``climax``)."""
        return np.array([i for i, k in enumerate(self.event_kind) if k == kind], dtype=np.int64)

    @property
    def boss_deck(self) -> npt.NDArray[np.int64]:
        """Boss ids shuffled into the raid boss deck."""
        return np.array([i for i, p in enumerate(self.boss_place) if p == "deck"], dtype=np.int64)

    @property
    def boss_bottom(self) -> npt.NDArray[np.int64]:
        """Boss ids put face up at the bottom of the deck (in file order)."""
        return np.array([i for i, p in enumerate(self.boss_place) if p == "bottom"], dtype=np.int64)


_check = FieldChecks(DataError)
_err, _int, _bool, _name = _check.fail, _check.integer, _check.boolean, _check.string


def _effect(where: str, field: str, raw: Any, allowed: tuple[str, ...] = ICON_NAMES) -> npt.NDArray[np.int64]:
    """An effect table ``{icon = value}`` as a vector indexed by :class:`Icon`."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise _err(where, f"{field} = {raw!r}, must be a table of icons, e.g. {{ pulls = 2 }}")
    vec = np.zeros(N_ICONS, dtype=np.int64)
    for k, v in raw.items():
        if k not in allowed:
            raise _err(where, f"{field}.{k}: unknown icon {k!r}; allowed: {', '.join(allowed)}")
        vec[Icon[k.upper()]] = _int(where, f"{field}.{k}", v, 0, MAX_ICON_VALUE)
    return vec


def _triggers(where: str, raw: dict[str, Any]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The chip triggers ``on_sr`` / ``on_n`` of a card: effects (2, N_ICONS) and per-pull flags (2,)."""
    eff = np.zeros((len(TRIGGERS), N_ICONS), dtype=np.int64)
    per_pull = np.ones(len(TRIGGERS), dtype=bool)
    for k in raw:
        if k.startswith("on_") and k not in TRIGGERS:
            raise _err(where, f"{k}: unknown trigger {k!r}; allowed: {', '.join(TRIGGERS)}")
    for j, t in enumerate(TRIGGERS):
        tr = raw.get(t)
        if tr is None:
            continue
        if not isinstance(tr, dict):
            raise _err(where, f"{t} = {tr!r}, must be a table {{ per = \"pull\" or \"session\", effect = {{ ... }} }}")
        _keys(f"{where}: {t}", tr, {"per", "effect"})
        per = tr.get("per", "pull")
        if per not in _TRIGGER_PER:
            raise _err(where, f"{t}.per = {per!r}, must be one of {', '.join(_TRIGGER_PER)}")
        eff[j] = _effect(where, f"{t}.effect", tr.get("effect"))
        if eff[j, Icon.START_SLAYER]:
            raise _err(where, f"{t}.effect.start_slayer: not allowed in a trigger")
        per_pull[j] = per == "pull"
    return eff, per_pull


def _bag3(where: str, field: str, b: Any) -> tuple[int, int, int]:
    if not isinstance(b, list) or len(b) != 3:
        raise _err(where, f"{field} = {b!r}, must be [god_chance, sr, n]")
    bb = tuple(_int(where, f"{field}[{j}]", x, 0, 1000) for j, x in enumerate(b))
    if sum(bb) < 1:
        raise _err(where, f"{field} = {b!r}, must hold at least 1 chip")
    return bb  # type: ignore[return-value]


def _round(where: str, raw: Any, field: str = "round") -> dict[str, Any]:
    """A round-scoped effect ``round = { paid_rates = ..., saturday = ..., bag = ... }`` (on a
    navi card: ``overdrive_round``), checked but for the Saturday table's row count (checked
    against the rate track later)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not raw:
        raise _err(where, f"{field} = {raw!r}, must be a table of {', '.join(ROUND_TABLES)}")
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k not in ROUND_TABLES:
            raise _err(where, f"{field}.{k}: unknown table {k!r}; allowed: {', '.join(ROUND_TABLES)}")
        if k == "bag":
            out[k] = _bag3(where, f"{field}.bag", v)
        elif k == "paid_rates":
            if not isinstance(v, list) or not 1 <= len(v) <= 20:
                raise _err(where, f"{field}.paid_rates = {v!r}, must be a list of 1 to 20 [money, pulls] pairs")
            pr = []
            for i, r in enumerate(v):
                if not isinstance(r, list) or len(r) != 2:
                    raise _err(where, f"{field}.paid_rates[{i}] = {r!r}, must be a [money, pulls] pair")
                pr.append((_int(where, f"{field}.paid_rates[{i}][0]", r[0], 1, 1000),
                           _int(where, f"{field}.paid_rates[{i}][1]", r[1], 1, 1000)))
            out[k] = tuple(pr)
        else:
            if not isinstance(v, list) or not v:
                raise _err(where, f"{field}.saturday = {v!r}, must be a list of rows of 4 pull counts")
            rows = []
            for j, row in enumerate(v):
                if not isinstance(row, list) or len(row) != 4:
                    raise _err(where, f"{field}.saturday[{j}] = {row!r}, must be 4 pull counts (1, 2, 3, 4 leaders)")
                rows.append([_int(where, f"{field}.saturday[{j}][{c}]", x, 0, MAX_ICON_VALUE)
                             for c, x in enumerate(row)])
            out[k] = rows
    return out


def _keys(where: str, raw: dict[str, Any], allowed: set[str]) -> None:
    for k in raw:  # the first unknown key; an on_* key of a card that takes triggers is named as a trigger
        if k not in allowed:
            if k.startswith("on_") and set(TRIGGERS) <= allowed:
                raise _err(where, f"{k}: unknown trigger {k!r}; allowed: {', '.join(TRIGGERS)}")
            break
    _check.keys(where, raw, allowed)


def _table_list(fname: str, raw: dict[str, Any], key: str) -> list[dict[str, Any]]:
    items = raw.get(key)
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        raise _err(fname, f"[[{key}]] must be a non-empty array of tables")
    return items


@validate_params(raw=Unchecked("a parsed TOML document: validated by the parser in the body (DataError)"),
                 source=Unchecked("the file name its messages give (not validated)"))
def parse_data(raw: dict[str, Any], source: str = "<data>") -> GameData:
    """Validate a parsed data file and compile it to :class:`GameData`.

    Parameters
    ----------
    raw : dict
        The parsed TOML document.
    source : str
        File name used in error messages.

    Returns
    -------
    GameData

    Raises
    ------
    DataError
        For any unknown key, unknown icon, value out of range, duplicate name, or lists
        that cannot make a game (fewer than 20 action cards, a navi that is not a
        character, no START-DASH / WEEKLY / CLIMAX card, an empty boss deck ...); the
        message names the file, the card and the field.
    """
    fname = source
    if not isinstance(raw, dict):
        raise DataError(f"{fname}: raw = {raw!r:.60}, must be a table (dict) of the data file's sections")
    _keys(fname, raw, {"illustrative", "title", "characters", "paid_rates", "start_money", "bag",
                       "action", "event", "boss", "navi", "quest", "rate"})
    illustrative = _bool(fname, "illustrative", raw.get("illustrative", False))
    title = raw.get("title", "")
    if not isinstance(title, str) or not title.isprintable():
        raise _err(fname, f"title = {title!r:.60}, must be one line of text")
    chars = raw.get("characters")
    if not isinstance(chars, list) or not 1 <= len(chars) <= 10:
        raise _err(fname, f"characters = {chars!r}, must be a list of 1 to 10 names")
    chars = [_name(fname, f"characters[{i}]", c) for i, c in enumerate(chars)]
    if len(set(chars)) != len(chars):
        raise _err(fname, f"characters = {chars!r}, names must be unique")
    rates = raw.get("paid_rates", [[2, 1], [10, 12], [15, 25]])
    if not isinstance(rates, list) or not rates:
        raise _err(fname, f"paid_rates = {rates!r}, must be a non-empty list of [money, pulls] pairs")
    pr = []
    for i, r in enumerate(rates):
        if not isinstance(r, list) or len(r) != 2:
            raise _err(fname, f"paid_rates[{i}] = {r!r}, must be a [money, pulls] pair")
        pr.append((_int(fname, f"paid_rates[{i}][0]", r[0], 1, 1000), _int(fname, f"paid_rates[{i}][1]", r[1], 1, 1000)))
    start_money = _int(fname, "start_money", raw.get("start_money", 1), 0, 1000)
    bag = raw.get("bag", [1, 5, 44])
    if not isinstance(bag, list) or len(bag) != 3:
        raise _err(fname, f"bag = {bag!r}, must be [god_chance, sr, n]")
    bag_t = tuple(_int(fname, f"bag[{i}]", b, 0, 1000) for i, b in enumerate(bag))
    try:
        BagConfig(*bag_t)  # the bag model's own check (gamesim.games.gacha)
    except ValueError as exc:
        raise _err(fname, f"bag = {bag!r}: {exc}") from None

    # action cards
    a_names, a_eff = [], []
    seen: set[str] = set()
    for i, a in enumerate(_table_list(fname, raw, "action")):
        nm = _name(fname, f"action[{i}].name", a.get("name"))
        where = f'{fname}: action "{nm}"'
        if nm in seen:
            raise _err(where, "duplicate name (use copies = n for several copies)")
        seen.add(nm)
        _keys(where, a, {"name", "copies", "top", "bottom"})
        copies = _int(where, "copies", a.get("copies", 1), 1, 30)
        top = _effect(where, "top", a.get("top"))
        bottom = _effect(where, "bottom", a.get("bottom", a.get("top")))
        for _ in range(copies):
            a_names.append(nm)
            a_eff.append(np.stack([top, bottom]))
    if len(a_names) < 20:
        raise _err(fname, f"{len(a_names)} action cards, must be at least 20 (4 slayers x 5 cards)")

    # events
    e_names, e_kind, e_eff, e_bag, e_trig, e_tpull, e_round = [], [], [], [], [], [], []
    for i, e in enumerate(_table_list(fname, raw, "event")):
        nm = _name(fname, f"event[{i}].name", e.get("name"))
        where = f'{fname}: event "{nm}"'
        _keys(where, e, {"name", "kind", "effect", "bag", "round", *TRIGGERS})
        rd = _round(where, e.get("round"))
        if "bag" in rd and e.get("bag") is not None:
            raise _err(where, "round.bag: give the bag once (bag or round.bag)")
        e_round.append((where, rd))
        tr, tp = _triggers(where, e)
        e_trig.append(tr), e_tpull.append(tp)
        kind = e.get("kind")
        if kind not in _EVENT_KINDS:
            raise _err(where, f"kind = {kind!r}, must be one of {', '.join(_EVENT_KINDS)}")
        eff = _effect(where, "effect", e.get("effect"))
        if eff[Icon.START_SLAYER]:
            raise _err(where, "effect.start_slayer: not allowed on an event card")
        b = e.get("bag")
        bb = _bag3(where, "bag", b) if b is not None else rd.get("bag", (-1, -1, -1))
        e_names.append(nm), e_kind.append(kind), e_eff.append(eff), e_bag.append(bb)
    need = {"start_dash": 1, "weekly": 2, "climax": 1}
    for k, n in need.items():
        if e_kind.count(k) < n:
            raise _err(fname, f"{e_kind.count(k)} event cards of kind {k!r}, must be at least {n}")

    # bosses
    b_names, b_health, b_eff, b_first, b_place, b_round = [], [], [], [], [], []
    for i, b in enumerate(_table_list(fname, raw, "boss")):
        nm = _name(fname, f"boss[{i}].name", b.get("name"))
        where = f'{fname}: boss "{nm}"'
        if nm in b_names:
            raise _err(where, "duplicate name")
        _keys(where, b, {"name", "health", "effect", "first", "place", "round"})
        b_round.append((where, _round(where, b.get("round"))))
        b_names.append(nm)
        b_health.append(_int(where, "health", b.get("health"), 1, 60))
        eff = _effect(where, "effect", b.get("effect"))
        if eff[Icon.START_SLAYER]:
            raise _err(where, "effect.start_slayer: not allowed on a boss card")
        b_eff.append(eff)
        b_first.append(_bool(where, "first", b.get("first", False)))
        place = b.get("place", "deck")
        if place not in _BOSS_PLACES:
            raise _err(where, f"place = {place!r}, must be one of {', '.join(_BOSS_PLACES)}")
        b_place.append(place)
    if "deck" not in b_place:
        raise _err(fname, "no boss card with place = \"deck\"")

    # navi
    n_names, n_char, n_wd, n_od, n_trig, n_tpull, n_round = [], [], [], [], [], [], []
    for i, n in enumerate(_table_list(fname, raw, "navi")):
        nm = _name(fname, f"navi[{i}].name", n.get("name"))
        where = f'{fname}: navi "{nm}"'
        if "round" in n:
            raise _err(where, "round: a navi card's round-scoped effect is overdrive_round (it takes hold "
                       "when the Overdrive fires)")
        _keys(where, n, {"name", "weekday", "overdrive", "overdrive_round", *TRIGGERS})
        n_round.append((where, _round(where, n.get("overdrive_round"), "overdrive_round")))
        tr, tp = _triggers(where, n)
        n_trig.append(tr), n_tpull.append(tp)
        if nm not in chars:
            raise _err(where, f"name must be one of the characters: {', '.join(chars)}")
        if nm in n_names:
            raise _err(where, "duplicate name")
        wd = _effect(where, "weekday", n.get("weekday"))
        od = _effect(where, "overdrive", n.get("overdrive"))
        for f, v in (("weekday", wd), ("overdrive", od)):
            if v[Icon.START_SLAYER]:
                raise _err(where, f"{f}.start_slayer: not allowed on a navi card")
        n_names.append(nm), n_char.append(chars.index(nm)), n_wd.append(wd), n_od.append(od)
    if len(n_names) < 4:
        raise _err(fname, f"{len(n_names)} navi cards, must be at least 4 (one per slayer)")

    # quest track
    q_stop, q_lap, q_icons, q_lp = [], [], [], []
    for i, q in enumerate(_table_list(fname, raw, "quest")):
        where = f"{fname}: quest square {i}"
        for k in q:
            if k not in set(_QUEST_SQUARE_ICONS) | {"stop", "lap", "lap_pulls"}:
                raise _err(where, f"{k}: unknown icon or field {k!r} on a quest square; allowed: "
                           f"{', '.join(_QUEST_SQUARE_ICONS)}, lap_pulls, stop, lap")
        q_stop.append(_bool(where, "stop", q.get("stop", False)))
        q_lap.append(_bool(where, "lap", q.get("lap", False)))
        q_icons.append(_effect(where, "bonus", {k: v for k, v in q.items() if k in _QUEST_SQUARE_ICONS},
                               _QUEST_SQUARE_ICONS))
        q_lp.append(_int(where, "lap_pulls", q.get("lap_pulls", 0), 0, MAX_ICON_VALUE))
    if len(q_stop) < 2:
        raise _err(fname, "the quest track must have at least 2 squares")
    if not any(q_lap):
        raise _err(fname, "no quest square has lap = true (周回数アイコン)")

    # rate track
    rate = raw.get("rate")
    if not isinstance(rate, dict):
        raise _err(fname, "[rate] table missing")
    where = f"{fname}: rate"
    _keys(where, rate, {"length", "columns", "saturday"})
    length = _int(where, "length", rate.get("length"), 1, 100)
    cols = rate.get("columns")
    if not isinstance(cols, list) or len(cols) != length + 1:
        raise _err(where, f"columns = {cols!r}, must list a column for each square 0..{length} ({length + 1} values)")
    sat = rate.get("saturday")
    if not isinstance(sat, list) or not sat:
        raise _err(where, f"saturday = {sat!r}, must be a list of rows of 4 pull counts")
    for j, row in enumerate(sat):
        if not isinstance(row, list) or len(row) != 4:
            raise _err(where, f"saturday[{j}] = {row!r}, must be 4 pull counts (1, 2, 3, 4 leaders)")
    sat_arr = np.array([[_int(where, f"saturday[{j}][{k}]", x, 0, MAX_ICON_VALUE) for k, x in enumerate(row)]
                        for j, row in enumerate(sat)], dtype=np.int64)
    col_arr = np.array([_int(where, f"columns[{j}]", c, 0, len(sat) - 1) for j, c in enumerate(cols)], dtype=np.int64)

    # round-scoped effects: rate sets and Saturday tables, 0 = the default
    rate_sets: list[tuple[tuple[int, int], ...]] = [tuple(pr)]
    sat_sets: list[list[list[int]]] = [sat_arr.tolist()]

    def set_ids(w: str, rd: dict[str, Any], none: int, fld: str = "round") -> tuple[int, int]:
        ids = [none, none]
        if "paid_rates" in rd:
            if rd["paid_rates"] not in rate_sets:
                rate_sets.append(rd["paid_rates"])
            ids[0] = rate_sets.index(rd["paid_rates"])
        if "saturday" in rd:
            if len(rd["saturday"]) != len(sat):
                raise _err(w, f"{fld}.saturday: {len(rd['saturday'])} rows, must be {len(sat)} (one per rate column)")
            if rd["saturday"] not in sat_sets:
                sat_sets.append(rd["saturday"])
            ids[1] = sat_sets.index(rd["saturday"])
        return ids[0], ids[1]

    ev_round = [set_ids(w, rd, 0) for w, rd in e_round]
    bs_round = [set_ids(w, rd, -1) for w, rd in b_round]
    bs_bag = [rd.get("bag", (-1, -1, -1)) for _w, rd in b_round]
    nv_round = [set_ids(w, rd, -1, "overdrive_round") for w, rd in n_round]
    nv_bag = [rd.get("bag", (-1, -1, -1)) for _w, rd in n_round]

    return GameData(
        source=str(source), illustrative=illustrative, title=title, characters=tuple(chars), paid_rates=tuple(pr),
        start_money=start_money, bag=bag_t,  # type: ignore[arg-type]
        action_names=tuple(a_names), action_effects=np.array(a_eff, dtype=np.int64),
        event_names=tuple(e_names), event_kind=tuple(e_kind), event_effects=np.array(e_eff, dtype=np.int64),
        event_bag=np.array(e_bag, dtype=np.int64),
        boss_names=tuple(b_names), boss_health=np.array(b_health, dtype=np.int64),
        boss_effects=np.array(b_eff, dtype=np.int64), boss_first=np.array(b_first, dtype=bool),
        boss_place=tuple(b_place),
        navi_names=tuple(n_names), navi_character=np.array(n_char, dtype=np.int64),
        navi_weekday=np.array(n_wd, dtype=np.int64), navi_overdrive=np.array(n_od, dtype=np.int64),
        quest_stop=np.array(q_stop, dtype=bool), quest_lap=np.array(q_lap, dtype=bool),
        quest_icons=np.array(q_icons, dtype=np.int64), quest_lap_pulls=np.array(q_lp, dtype=np.int64),
        rate_length=length, rate_columns=col_arr, saturday=sat_arr,
        navi_trigger=np.array(n_trig, dtype=np.int64), navi_trigger_pull=np.array(n_tpull, dtype=bool),
        event_trigger=np.array(e_trig, dtype=np.int64), event_trigger_pull=np.array(e_tpull, dtype=bool),
        paid_rate_sets=tuple(rate_sets), saturday_sets=np.array(sat_sets, dtype=np.int64),
        event_round=np.array(ev_round, dtype=np.int64).reshape(-1, 2),
        boss_round=np.array(bs_round, dtype=np.int64).reshape(-1, 2),
        boss_bag=np.array(bs_bag, dtype=np.int64).reshape(-1, 3),
        navi_round=np.array(nv_round, dtype=np.int64).reshape(-1, 2),
        navi_bag=np.array(nv_bag, dtype=np.int64).reshape(-1, 3),
    )


def resolve_data_path(data: str | Path) -> Path:
    """The file a ``data`` parameter names: ``"illustrative"`` (built in) or a path.

    Raises
    ------
    DataError
        If the file does not exist.
    """
    if str(data) == BUILTIN_DATA:
        return DATA_DIR / "illustrative.toml"
    p = Path(data)
    if not p.is_file():
        raise DataError(f"data = {str(data)!r}: no such file (give \"{BUILTIN_DATA}\" or a path to a .toml file)")
    return p.resolve()


@lru_cache(maxsize=16)
def _load_cached(path: str, mtime: float) -> GameData:
    with open(path, "rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as exc:
            raise DataError(f"{Path(path).name}: not valid TOML: {exc}") from exc
    return parse_data(raw, Path(path).name)


@validate_params(data=Instance((str, Path), f'"{BUILTIN_DATA}" or a path to a .toml card-list file'))
def load_data(data: str | Path = BUILTIN_DATA) -> GameData:
    """Load and validate a card-list file.

    Parameters
    ----------
    data : str or Path, default "illustrative"
        ``"illustrative"`` for the built-in illustrative set, or a path to a TOML file
        in the format of :file:`gamesim/games/gacha_game/data/illustrative.toml`.

    Returns
    -------
    GameData

    Raises
    ------
    ParamTypeError
        If ``data`` is neither a string nor a path.
    DataError
        If the file is missing, not TOML, or fails validation (see :func:`parse_data`).
    """
    p = resolve_data_path(data)
    return _load_cached(str(p), p.stat().st_mtime)
