"""ガッチャ ~God Chance~ as a whole game: exact rules (boss attack, quests, Saturday, paid gacha, last dance)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from gamesim.core.registry import ParamError, get_game
from gamesim.games.gacha.rules import best_bundle_mix
from gamesim.games.gacha_game import (
    Attack,
    attack_result,
    exact_attack,
    last_dance_chances,
    load_data,
    paid_tables,
    quest_move,
    saturday_pulls,
)


@pytest.fixture(scope="module")
def data():
    return load_data()


# ---------------------------------------------------------------------------
# exact rules
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("health", range(1, 15))
def test_boss_attack_exact_from_the_die(health):
    h = health
    # closed forms, independent of attack_result
    normal_p = Fraction(max(0, 7 - h), 6)
    normal_e = Fraction(sum(min(r, h) for r in range(1, 7)), 6)
    crit_p = Fraction(max(1, 7 - h), 6)
    crit_e = Fraction(sum(min(r, h) for r in range(1, 6)) + 6, 6)
    double_p = Fraction(sum(1 for r in range(1, 7) if 2 * r >= h), 6)
    double_e = Fraction(sum(min(2 * r, h) for r in range(1, 7)), 6)
    assert exact_attack(Attack.NORMAL, h) == (normal_e, normal_p)
    assert exact_attack(Attack.CRITICAL, h) == (crit_e, crit_p)
    assert exact_attack(Attack.DOUBLE, h) == (double_e, double_p)


def test_boss_attack_examples():
    assert attack_result(Attack.NORMAL, 4, 3) == (3, False)  # health 4 -> 1, 3 pulls
    assert attack_result(Attack.NORMAL, 4, 5) == (4, True)  # excess damage lost
    assert attack_result(Attack.CRITICAL, 12, 6) == (6, True)  # a 6 wins any boss, counts as 6
    assert attack_result(Attack.CRITICAL, 2, 6) == (6, True)
    assert attack_result(Attack.CRITICAL, 12, 5) == (5, False)
    assert attack_result(Attack.DOUBLE, 12, 5) == (10, False)
    assert attack_result(Attack.DOUBLE, 7, 4) == (7, True)
    with pytest.raises(ParamError, match="roll = 7"):
        attack_result(Attack.NORMAL, 3, 7)
    with pytest.raises(ParamError, match="health = 0"):
        attack_result(Attack.NORMAL, 0, 3)


@pytest.mark.parametrize("kind", ["normal", "critical", "double"])
def test_boss_attack_task_matches_exact(kind):
    task = get_game("gacha_game").tasks["boss_attack"]
    for h in (1, 3, 6, 9):
        params = task.defaults(kind=kind, health=h)
        n = 20000
        out = task.simulate(params, n, rng=np.random.default_rng())
        ex = task.exact(params)
        for metric, stat in (("pulls", "mean"), ("captured", "proportion")):
            x = np.asarray(out[metric], float)
            se = max(x.std(ddof=1), 1e-9) / math.sqrt(n)
            exact = ex[f"{metric}:{stat}"]
            if se < 1e-8:
                assert abs(x.mean() - exact) < 1e-12
            else:
                assert abs(x.mean() - exact) <= 4.5 * se, (kind, h, metric)


def test_quest_pattern_1_lap_bonus(data):
    # 周回数 3, 👣2 over the lap-bonus square (10): 3 x 3 = 9 pulls
    q = quest_move(data, 8, 3, 2)
    assert (q.pos, q.laps, q.pulls) == (10, 3, 9)
    for laps in range(0, 7):
        assert quest_move(data, 9, laps, 1).pulls == 3 * laps


def test_quest_pattern_2_stop_then_bonus(data):
    # 👣2 with 🛑 one square ahead: move 1, then the bonus 👣1 and 🎰1
    assert data.quest_stop[4] and not data.quest_stop[3]
    q = quest_move(data, 3, 0, 2)
    assert q.pos == 5 and q.pulls == 1 and q.laps == 0


def test_quest_lap_counter_and_passing_bonuses(data):
    q = quest_move(data, 11, 2, 1)  # onto the start square: 周回数 + 1
    assert (q.pos, q.laps) == (0, 3)
    q = quest_move(data, 0, 0, 3)  # squares 1 (🎰1), 2, 3 (👑1)
    assert (q.pos, q.pulls, q.money) == (3, 1, 1)
    assert quest_move(data, 0, 0, 0) == quest_move(data, 0, 0, 0)
    with pytest.raises(ParamError, match="pos = 12"):
        quest_move(data, 12, 0, 1)


def test_saturday_patterns(data):
    # pattern ①: one leader, in column 1 -> 6 pulls
    assert data.rate_columns[3] == 1
    assert saturday_pulls(data, [3, 1, 0, 0]) == [6, 0, 0, 0]
    # pattern ②: two leaders in column 2 -> 6 each
    assert data.rate_columns[5] == 2
    assert saturday_pulls(data, [5, 2, 5]) == [6, 0, 6]
    assert saturday_pulls(data, [0, 0]) == [0, 0]  # nobody moved: column 0
    with pytest.raises(ParamError):
        saturday_pulls(data, [13, 0])


def test_paid_gacha_rulebook_examples_and_milp():
    pulls, cost = paid_tables(((2, 1), (10, 12), (15, 25)), 150)
    assert (pulls[8], pulls[10], pulls[25]) == (4, 12, 37)
    assert (cost[8], cost[10], cost[25]) == (8, 10, 25)
    rates = ((2, 1), (10, 12), (15, 25))
    for m in range(0, 151):
        mix = best_bundle_mix(m, rates)
        assert (pulls[m], cost[m]) == (mix.pulls, mix.money_spent), m


def test_last_dance_chances():
    assert last_dance_chances([3, 1, 0], [2, 2, 0], [5, 6, 1]) == [2, 2, 0]
    assert last_dance_chances([0, 0], [0, 0], [0, 0]) == [3, 3]  # ties at 0: everybody first
    with pytest.raises(ValueError):
        last_dance_chances([1], [1, 2], [0])
