"""The weapon file of Mech Arena 2013 and its loader: the text's numbers, and one-line errors."""

from __future__ import annotations

import copy
import tomllib

import pytest

from gamesim.games.mech_arena.data import DATA_DIR, DataError, load_weapons, parse_weapons

RAW = tomllib.loads((DATA_DIR / "weapons_2013.toml").read_text(encoding="utf-8"))
WS = load_weapons()


def weapon(mech: str, name: str):  # type: ignore[no-untyped-def]
    m = WS.mechs[WS.index(mech)]
    return next(w for w in m.weapons if w.name == name)


def test_seven_mechs_with_their_weapons_in_card_order() -> None:
    assert WS.names == ("オスカーII", "イェーガースナイパーII", "レオ", "ヴォルガII", "ウラヌス", "ネルヴァ", "コカリアス")
    assert [w.name for w in WS.mechs[WS.index("leo")].weapons] == [
        "ショットガン", "ロケットランチャー", "ロケットジャンプ", "ブレード", "ミサイル"]
    assert [len(m.weapons) for m in WS.mechs] == [5, 5, 5, 5, 6, 6, 6]


def test_numbers_of_the_text() -> None:
    su = weapon("volga", "アトミックスープレックス")
    assert (su.ki_cost, su.max_distance, su.move, su.melee_dice) == (3, 1, -1, 5)
    assert su.steps[0].hit[0].armour == 2 and su.steps[0].hit[0].stun and su.steps[0].hit[0].melee
    ff = weapon("uranus", "フィンガーフレア")
    assert ff.special == "finger_flare" and ff.max_dice == 5 and ff.n_options == 5 and ff.move == -1
    rj = weapon("leo", "ロケットジャンプ")
    assert rj.combo_after == 1 and rj.combo_check == 2 and rj.steps[0].check == 1 and rj.n_options == 2
    db = weapon("nerva", "デュアルブレード")
    assert db.combo_after == 1 and db.combo_melee_dice == 4
    sg = weapon("leo", "ショットガン")
    assert [(s.lo, s.times) for s in sg.steps] == [(2, 1), (0, 2)] and sg.ki == 1
    assert weapon("jaeger", "スナイパーガン").min_distance == 1
    assert weapon("cocalias", "コークスレーザー").heat and not weapon("cocalias", "ファイアバースト").heat
    rs = weapon("nerva", "ローリングショット")
    assert rs.ki_cost == 2 and rs.steps[0].times == 2 and rs.steps[0].any_hit.protect


def test_shared_and_assumed_weapons() -> None:
    assert weapon("leo", "ブレード") == weapon("jaeger", "ブレード")
    assert weapon("cocalias", "マイクロミサイル") == weapon("jaeger", "マイクロミサイル")
    assumed = sorted({w.name for m in WS.mechs for w in m.weapons if w.assumed})
    assert assumed == ["ダッシュ", "ボディスラム", "ミサイル"]
    # every rulebook weapon keeps its line of text verbatim
    assert weapon("oscar", "ボディチェック").text == "判定2。成功なら距離を0にし装甲ダメージ1。失敗なら距離-1"


def _broken(edit) -> str:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(RAW)
    edit(raw)
    with pytest.raises(DataError) as info:
        parse_weapons(raw, "w.toml")
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith("w.toml")
    return msg


def _set(mech: str, wpn: str, key: str, value: object):  # type: ignore[no-untyped-def]
    def edit(raw: dict) -> None:  # type: ignore[type-arg]
        raw["mechs"][mech]["weapons"][wpn][key] = value
    return edit


@pytest.mark.parametrize("mech, wpn, key, value, words", [
    ("レオ", "ミサイル", "dmg", 1, ["unknown field 'dmg'"]),
    ("オスカーII", "ボディチェック", "ki", 1.5, ["ki = 1.5"]),
    ("オスカーII", "ボディチェック", "ki", True, ["ki = True"]),
    ("オスカーII", "ボディチェック", "move", 10, ["move = 10"]),
    ("ウラヌス", "フィンガーフレア", "max_dice", 0, ["max_dice = 0"]),
    ("レオ", "ロケットジャンプ", "combo_after", "ブレードX", ["combo_after"]),
    ("ネルヴァ", "リボルバー", "special", "laser", ["special = 'laser'"]),
    ("ネルヴァ", "リボルバー", "steps", [{"check": 3, "hit": {"armour": 1}}], ["steps[0].check = 3"]),
    ("ネルヴァ", "リボルバー", "steps", [{"check": 2, "hit": {"armor": 1}}], ["unknown effect 'armor'"]),
    ("ネルヴァ", "リボルバー", "steps", [{"hit": {"armour": 1}, "miss": {"move": 1}}], ["need a check"]),
])
def test_a_bad_field_is_one_line_naming_mech_weapon_and_field(mech, wpn, key, value, words) -> None:  # type: ignore[no-untyped-def]
    msg = _broken(_set(mech, wpn, key, value))
    assert f'mech "{mech}"' in msg and f'weapon "{wpn}"' in msg
    for w in words:
        assert w in msg, msg


def test_other_broken_files() -> None:
    assert "unknown field 'colour'" in _broken(lambda r: r["mechs"]["レオ"].__setitem__("colour", "red"))
    assert "must name another mech" in _broken(
        lambda r: r["mechs"]["レオ"]["weapons"]["ブレード"].__setitem__("same_as", "ジム"))
    assert "defines no weapon" in _broken(
        lambda r: r["mechs"]["レオ"]["weapons"].__setitem__("ハンマー", {"same_as": "オスカーII"}))
    assert "used twice" in _broken(lambda r: r["mechs"]["レオ"].__setitem__("key", "oscar"))
    assert "unknown field 'mech'" in _broken(lambda r: r.__setitem__("mech", {}))
    with pytest.raises(DataError, match="no such file"):
        load_weapons("/nonexistent/weapons.toml")


def test_a_scenario_can_point_at_its_own_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = (DATA_DIR / "weapons_2013.toml").read_text(encoding="utf-8").replace(
        'steps = [{ check = 2, hit = { armour = 1 } }]\n\n[mechs."レオ".weapons."ロケットジャンプ"]',
        'steps = [{ check = 2, hit = { armour = 2 } }]\n\n[mechs."レオ".weapons."ロケットジャンプ"]')
    f = tmp_path / "mine.toml"
    f.write_text(text, encoding="utf-8")
    ws = load_weapons(str(f))
    assert ws.source == "mine.toml"
    assert ws.mechs[ws.index("leo")].weapons[1].steps[0].hit[0].armour == 2
    assert WS.mechs[WS.index("leo")].weapons[1].steps[0].hit[0].armour == 1
