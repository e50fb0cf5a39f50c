"""ガッチャ ~God Chance~ as a whole game: the data files and their validation."""

from __future__ import annotations


import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.gacha_game import DataError, Icon, load_data
from gamesim.games.gacha_game.data import DATA_DIR
from tests.games.gacha_game.helpers import _write

ILLU = DATA_DIR / "illustrative.toml"


@pytest.fixture(scope="module")
def data():
    return load_data()


# ---------------------------------------------------------------------------
# data files
# ---------------------------------------------------------------------------


def test_illustrative_data_counts_and_label(data):
    assert data.illustrative
    assert "ILLUSTRATIVE" in ILLU.read_text(encoding="utf-8")
    assert len(data.action_names) == 30 and len(data.event_names) == 10
    assert len(data.boss_names) == 14 and len(data.navi_names) == 5
    assert data.characters == ("アメリカ・レオハート", "一ノ瀬 響華", "カナ・ピスタクラン", "レナ・リントヴルム", "みやび")
    # the rulebook's facts kept in the illustrative set
    assert data.navi_overdrive[data.navi_names.index("みやび")][Icon.PULLS] == 10
    assert data.action_effects[data.action_names.index("ヨフカシ"), 0, Icon.START_SLAYER] == 1
    assert data.boss_place[data.boss_names.index("魔術王 ケレゲンハイト")] == "aside"
    assert data.boss_place[data.boss_names.index("魔術神 ウングリュック")] == "bottom"
    assert (data.events_of("start_dash").size, data.events_of("weekly").size, data.events_of("climax").size) == (1, 6, 3)
    assert data.paid_rates == ((2, 1), (10, 12), (15, 25))
    assert data.bag == (1, 5, 44)


def test_unknown_icon_names_card_and_field(tmp_path):
    text = ILLU.read_text(encoding="utf-8").replace("top = { pulls = 3 }", "top = { pullz = 3 }", 1)
    with pytest.raises(DataError, match=r'action "デイリーログイン": top\.pullz: unknown icon'):
        load_data(_write(tmp_path, text))


@pytest.mark.parametrize("old,new,match", [
    ('health = 2\n', 'health = 0\n', r'boss "スライム": health = 0'),
    ('kind = "climax"\neffect = { pulls = 10 }', 'kind = "finale"\neffect = { pulls = 10 }', r'event "CLIMAX: 大感謝祭": kind'),
    ('name = "みやび"\nweekday', 'name = "ミヤビ"\nweekday', r'navi "ミヤビ": name must be one of the characters'),
    ('copies = 4\ntop = { pulls = 3 }', 'copies = 4\ncolor = "red"\ntop = { pulls = 3 }', r"unknown field 'color'"),
    ('top = { money = 4 }', 'top = { money = 2.5 }', r'action "バイト": top\.money = 2\.5'),
    ('[[quest]]            # 1\npulls = 1', '[[quest]]            # 1\nboss_appear = 1', r"quest square 1: boss_appear: unknown icon"),
    ('saturday = [[0, 0, 0, 0], [6,', 'saturday = [[0, 0, 0], [6,', r"rate: saturday\[0\]"),
])
def test_invalid_data_is_a_clear_error(tmp_path, old, new, match):
    text = ILLU.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(DataError, match=match):
        load_data(_write(tmp_path, text.replace(old, new, 1)))


def test_missing_data_file_and_task_param(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        load_data(tmp_path / "nope.toml")
    task = get_game("gacha_game").tasks["game"]
    with pytest.raises(ParamError, match="data = "):
        task.check(task.defaults(data=str(tmp_path / "nope.toml")))


def test_scenario_data_file_is_used(tmp_path):
    """A task pointed at its own data file plays with those cards (here: no money at all)."""
    text = ILLU.read_text(encoding="utf-8")
    import re
    text = re.sub(r"money = \d+", "money = 0", text).replace("start_money = 1", "start_money = 0")
    path = _write(tmp_path, text)
    task = get_game("gacha_game").tasks["game"]
    params = task.defaults(data=str(path))
    task.check(params)
    out = task.simulate(params, 200, rng=np.random.default_rng())
    assert (out["pulls_paid"] == 0).all()
    out0 = task.simulate(task.defaults(), 200, rng=np.random.default_rng())
    assert out0["pulls_paid"].sum() > 0
