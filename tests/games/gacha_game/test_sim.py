"""ガッチャ ~God Chance~ as a whole game: the game loop, simulator vs reference, exact results on deterministic cards."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.gacha_game import load_data, make_config, quest_move, reference_games, simulate_games
from gamesim.games.gacha_game.data import DATA_DIR
from gamesim.games.gacha_game.sim import SOURCES
from tests.conftest import assert_same_mean, quick_and_slow
from tests.games.gacha_game.helpers import _check_invariants, _deterministic_data

ILLU = DATA_DIR / "illustrative.toml"


@pytest.fixture(scope="module")
def data():
    return load_data()


# ---------------------------------------------------------------------------
# the game loop
# ---------------------------------------------------------------------------


CONFIGS = [
    dict(),
    dict(n_players=2, policy="random", expert=True, doubtful=True),
    dict(n_players=3, policy="money_then_paid", policy_seat1="boss_hunter"),
    dict(n_players=4, policy="quest_rusher", boss_refill=True, navi_seat1="みやび"),
    dict(n_players=3, policy="boss_hunter", remove_action="レイド参戦", remove_boss="スライム"),
    dict(n_players=4, policy="lookahead"),
    dict(n_players=2, policy="greedy_pulls", policy_seat1="lookahead", doubtful=True),
    dict(n_players=3, policy="paid_plan", policy_seat1="money_then_paid"),
    dict(n_players=2, policy="paid_plan", doubtful=True, expert=True),
    # the other reading of every ambiguous passage at once
    dict(n_players=3, policy="boss_hunter", policy_seat1="lookahead", last_dance_zero_first=False,
         last_dance_consolete=False, boss_use="once", boss_target="first"),
    dict(n_players=4, policy="random", policy_seat1="boss_hunter", boss_refill=True),
]


@pytest.mark.parametrize("kw", quick_and_slow(CONFIGS, quick=(1,)))  # the quick loop: two players, random
def test_simulator_agrees_with_reference(kw):
    cfg = make_config(**kw)
    s = simulate_games(cfg, 6000, rng=np.random.default_rng())
    r = reference_games(cfg, 1500, rng=np.random.default_rng())
    _check_invariants(s, cfg)
    _check_invariants(r, cfg)
    label = str(kw)
    assert_same_mean(s["consolete_round"] > 0, r["consolete_round"] > 0, label=label + " consolete")
    assert_same_mean(s["ld_decides"], r["ld_decides"], label=label + " ld_decides")
    assert_same_mean(s["ur"].sum(1), r["ur"].sum(1), label=label + " ur")
    assert_same_mean(s["win"][:, 0], r["win"][:, 0], label=label + " win seat 1")
    assert_same_mean(s["god_chances"], r["god_chances"], label=label + " god chances")
    assert_same_mean(s["bosses"], r["bosses"], label=label + " bosses")
    assert_same_mean(s["ld_god_chances"], r["ld_god_chances"], label=label + " last-dance God Chances")
    for k, src in enumerate(SOURCES):
        assert_same_mean(s["pulls"][:, k], r["pulls"][:, k], label=f"{label} pulls_{src}")
        assert_same_mean(s["gc_by_source"][:, k], r["gc_by_source"][:, k], label=f"{label} God Chance chips {src}")


def test_reproducible_and_navi_seat1():
    cfg = make_config(navi_seat1="カナ・ピスタクラン")
    a = simulate_games(cfg, 300, rng=7)
    b = simulate_games(cfg, 300, rng=7)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    assert (a["navi"][:, 0] == cfg.data.navi_names.index("カナ・ピスタクラン")).all()


def test_seats_are_symmetric_but_for_turn_order():
    """With every slayer random, win shares sum to 1 and each is a probability."""
    r = simulate_games(make_config(policy="random", n_players=3), 2000, rng=np.random.default_rng())
    share = r["win"].mean(axis=0)
    assert abs(share.sum() - 1) < 1e-9 and (share > 0.15).all()


@pytest.mark.parametrize("kw,match", [
    (dict(n_players=5), "n_players = 5"),
    (dict(n_players=1), "n_players = 1"),
    (dict(policy="smart"), "policy = 'smart'"),
    (dict(navi_seat1="みやび", expert=True), "navi_seat1"),
    (dict(navi_seat1="nobody"), "navi_seat1 = 'nobody'"),
    (dict(doubtful=True, doubtful_k=[50]), "doubtful_k"),
])
def test_config_validation(kw, match):
    with pytest.raises(ParamError, match=match):
        make_config(**kw)


def test_config_type_errors():
    with pytest.raises(TypeError, match="n_players"):
        make_config(n_players=3.0)
    with pytest.raises(TypeError, match="expert"):
        make_config(expert=1)
    with pytest.raises(ParamError, match="n_games = 0"):
        simulate_games(make_config(), 0)
    with pytest.raises(ParamError, match="n_games"):
        simulate_games(make_config(), 10**9)


def test_game_task_metrics():
    task = get_game("gacha_game").tasks["game"]
    params = task.defaults(n_players=3)
    task.check(params)
    names = [m.name for m in task.metrics_for(params)]
    assert "win_seat3" in names and "win_seat4" not in names and "win_navi5" in names
    out = task.simulate(params, 300, rng=np.random.default_rng())
    assert set(names) <= set(out)
    np.testing.assert_allclose(out["win_seat1"] + out["win_seat2"] + out["win_seat3"], 1.0)
    np.testing.assert_allclose(sum(out[f"win_navi{j}"] for j in range(1, 6)), 1.0)
    assert (out["consolete_r1"] <= out["consolete_r2"]).all() and (out["consolete_r4"] == out["consolete"]).all()
    expert = task.defaults(expert=True)
    assert not any(m.name.startswith("win_navi") for m in task.metrics_for(expert))


def test_remove_action_and_boss():
    cfg = make_config(remove_action="ヨフカシ", remove_boss="スライム")
    assert "ヨフカシ" not in cfg.data.action_names and len(cfg.data.action_names) == 28
    assert cfg.data.boss_place[cfg.data.boss_names.index("スライム")] == "aside"
    assert len(load_data().action_names) == 30  # the cached data is untouched
    r = simulate_games(cfg, 300, rng=np.random.default_rng())
    assert (r["bosses"] <= 12).all()
    with pytest.raises(ParamError, match="remove_action = 'nope'"):
        make_config(remove_action="nope")
    with pytest.raises(ParamError, match="remove_boss"):
        make_config(remove_boss="魔術王 ケレゲンハイト_x")
    with pytest.raises(ParamError, match="n_players = 4"):
        make_config(remove_action="デイリーログイン", data=_small_deck())


def _small_deck():
    from gamesim.games.gacha_game.data import parse_data
    import tomllib
    raw = tomllib.loads(ILLU.read_text(encoding="utf-8"))
    for a in raw["action"]:
        if a["name"] == "デイリーログイン":
            a["copies"] = 10
        else:
            a["copies"] = 1
    raw["action"] = raw["action"][:11]
    return parse_data(raw, "small.toml")


@pytest.mark.slow  # the benchmark script run end to end
def test_benchmark_smoke(capsys):
    import importlib.util

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_gacha_game.py"
    spec = importlib.util.spec_from_file_location("bench_gacha_game", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main(["--quick", "--games", "300", "--ref-games", "20"])
    out = capsys.readouterr().out
    assert "games/s" in out and out.count("x** |") == 2 and out.count("x |") >= 2


@pytest.mark.parametrize("n_players", [2, 4])
def test_whole_game_exact_with_deterministic_cards(n_players):
    """A game whose only randomness is the ラストダンス: every slayer earns 👑5 a round, buys
    課金ガチャ on Sunday (6 → 3 pulls, 5 → 2 pulls keeping 1: 3 + 2 + 3 + 2 = 10 pulls each), never
    draws a God Chance chip, never moves on the quest or rate tracks, and so ties for first in
    all three ラストダンス categories: 3 God Chances each, E[UR] = 5 (1 - (4/5)^3) = 2.44."""
    cfg = make_config(n_players=n_players, data=_deterministic_data())
    for r in (simulate_games(cfg, 4000, rng=np.random.default_rng()),
              reference_games(cfg, 500, rng=np.random.default_rng())):
        k = SOURCES.index("paid")
        assert (r["pulls"][:, k] == 10 * n_players).all()
        assert (np.delete(r["pulls"], k, axis=1) == 0).all()
        assert (r["consolete_round"] == 0).all() and r["last_dance"].all()
        assert (r["god_chances"] == 3 * n_players).all()
        ur = r["ur"].ravel().astype(float)
        exact = 5 * (1 - 0.8 ** 3)
        # UR count after 3 draws: values 1, 2, 3 with P = 1/25, 12/25, 12/25
        var = (1 * 1 + 4 * 12 + 9 * 12) / 25 - exact ** 2
        se = math.sqrt(var / r["ur"].shape[0])  # per seat column, seats independent: use one column
        for s in range(n_players):
            assert abs(r["ur"][:, s].mean() - exact) <= 4.5 * se
        assert set(np.unique(ur)) <= {1.0, 2.0, 3.0}
        np.testing.assert_allclose(r["win"].sum(axis=1), 1.0)


def test_quest_tables_are_linear_in_laps(data):
    from gamesim.games.gacha_game.policies import quest_tables

    base, units = quest_tables(data)
    for pos in range(len(data.quest_stop)):
        for k in (0, 1, 2, 5):
            for laps in (0, 2, 7):
                assert quest_move(data, pos, laps, k).pulls == base[pos, k] + laps * units[pos, k]


def test_held_effects_rows_and_a_strong_boss():
    """Win share when a card is held: one row per card, and a boss card made much stronger
    (🎰40 instead of 👑2) must show a clearly larger holder advantage than the original."""
    import tomllib

    from gamesim.games.gacha_game.data import parse_data
    from gamesim.games.gacha_game.study import held_effects

    cfg = make_config()
    rows = held_effects(cfg, 20000, rng=np.random.default_rng())
    assert sorted(r["card"] for r in rows if r["kind"] == "boss") == sorted(cfg.data.boss_names)
    assert sorted(r["card"] for r in rows if r["kind"] == "action") == sorted(set(cfg.data.action_names))
    for r in rows:
        if r["card"] == "魔術王 ケレゲンハイト":  # set aside: never held
            assert r["n"] == 0 and math.isnan(r["diff"])
        elif r["n"] == 0:  # e.g. ウングリュック at the deck's bottom: only 🐱 reveals bosses (boss_refill = false)
            assert r["kind"] == "boss" and math.isnan(r["diff"])
        else:
            assert -1 <= r["ci_low"] <= r["diff"] <= r["ci_high"] <= 1
    assert all(r["n"] > 0 for r in rows if r["kind"] == "action" or r["card"] == "スライム")
    raw = tomllib.loads(ILLU.read_text(encoding="utf-8"))
    for b in raw["boss"]:
        if b["name"] == "スライム":
            b["effect"] = {"pulls": 40}
    strong = held_effects(make_config(data=parse_data(raw, "strong.toml")), 20000, rng=np.random.default_rng())
    before = next(r for r in rows if r["card"] == "スライム")
    after = next(r for r in strong if r["card"] == "スライム")
    assert after["ci_low"] > before["ci_high"]


def test_held_flag_is_validated():
    with pytest.raises(Exception, match="held"):
        simulate_games(make_config(), 10, rng=0, held=1)


def test_paid_plan_tables_follow_the_per_purchase_programme():
    """paid_plan buys one bundle per Sunday turn as gacha.purchase.best_purchase_plan says:
    with a fresh bag, 25 money -> 10→12 first, then 15→25 (25 → 37 pulls in two sessions;
    best_purchase_plan(25).describe() == "10→12, 15→25"), 10 -> 10→12, 8 -> 2→1 (four times:
    8 → 4), 1 -> pass."""
    from gamesim.games.gacha_game.policies import paid_plan_tables

    rates = ((2, 1), (10, 12), (15, 25))
    act, cls = paid_plan_tables((1, 5, 44), None, rates)
    fresh = cls[0, 0]
    assert rates[act[25, fresh]] == (10, 12) and rates[act[10, fresh]] == (10, 12)
    assert rates[act[8, fresh]] == (2, 1) and act[1, fresh] == -1
    # after the 10→12 purchase without the God Chance chip: 12 drawn, 15 money left
    assert rates[act[15, cls[12, 0]]] == (15, 25)


def _task_on(gd, **kw):
    """``game`` task parameters playing with the data set ``gd`` (a GameData, not a path)."""
    task = get_game("gacha_game").tasks["game"]
    params = task.defaults(**kw)
    params["data"] = gd
    return task, params


def test_shared_win_and_outright_wins_exact():
    """Shared wins on the deterministic-card game with 2 slayers: each ends with 1, 2 or 3 UR
    cards (P = 1/25, 12/25, 12/25, independently), so P(shared win) = (1 + 144 + 144)/625 =
    289/625 and P(seat 1 wins outright) = (12 + 12 * 13)/625 = 168/625, while the split share
    of seat 1 is 1/2 by symmetry. The split share hides the ties; shared_win shows them."""
    task, params = _task_on(_deterministic_data(), n_players=2)
    n = 6000
    out = task.simulate(params, n, rng=np.random.default_rng())
    names = {m.name for m in task.metrics_for(task.defaults(n_players=2))}
    assert {"shared_win", "n_winners_1", "n_winners_2", "win_outright_seat1", "win_outright_seat2"} <= names
    for key, p in (("shared_win", 289 / 625), ("n_winners_2", 289 / 625), ("n_winners_1", 336 / 625),
                   ("win_outright_seat1", 168 / 625), ("win_outright_seat2", 168 / 625)):
        x = np.asarray(out[key], float)
        assert abs(x.mean() - p) <= 4.5 * math.sqrt(p * (1 - p) / n), key
    np.testing.assert_array_equal(out["n_winners_1"] + out["n_winners_2"], 1)
    # split share: 1 for an outright win, 1/2 for a shared one
    np.testing.assert_allclose(out["win_seat1"], out["win_outright_seat1"] + 0.5 * out["shared_win"])
