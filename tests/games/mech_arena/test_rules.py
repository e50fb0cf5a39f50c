"""Rules core of Mech Arena 2013 on hand-built states: each case follows from a line of the 2013 text
(weapon lines quoted in docs/rules/mech_arena.md) under the declared base rules (MechParams defaults)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gamesim.core.registry import ParamError
from gamesim.games.mech_arena import (
    DuelState,
    MechParams,
    action_outcomes,
    end_turn,
    initial_state,
    legal_actions,
    load_weapons,
    reference_game,
    skip_turn,
    start_turn,
)

WS = load_weapons()
P = MechParams()


def mechs(a: str, b: str):  # type: ignore[no-untyped-def]
    return (WS.mechs[WS.index(a)], WS.mechs[WS.index(b)])


def slot(mech: str, name: str) -> int:
    return [w.name for w in WS.mechs[WS.index(mech)].weapons].index(name)


def state(a: str, b: str, **kw) -> DuelState:  # type: ignore[no-untyped-def]
    s = initial_state(P, mechs(a, b), 0)
    return replace(s, **kw)


def dist(outs, f):  # type: ignore[no-untyped-def]
    """Probability of each value of f(state) over the outcomes."""
    d: dict = {}
    for pr, t in outs:
        d[f(t)] = d.get(f(t), 0.0) + pr
    return {k: pytest.approx(v) for k, v in d.items()}


def test_outcomes_sum_to_one_for_every_legal_action_of_random_states() -> None:
    rng = np.random.default_rng(0)
    for a in WS.keys:
        for b in ("oscar", "cocalias"):
            s = initial_state(P, mechs(a, b), 0)
            for _ in range(12):
                s = start_turn(s, P)
                if s.skip[s.to_move]:
                    s = end_turn(skip_turn(s))
                    continue
                acts = legal_actions(s, mechs(a, b), P)
                assert acts
                outs = None
                for act in acts:
                    outs = action_outcomes(s, act, mechs(a, b), P)
                    assert sum(pr for pr, _ in outs) == pytest.approx(1.0)
                    for _, t in outs:
                        assert 0 <= t.distance <= P.max_distance and min(t.hp) >= 0 and min(t.armour) >= 0
                        assert max(t.ki) <= P.max_ki and min(t.ki) >= 0
                pr = [x for x, _ in outs]
                s = end_turn(outs[int(rng.choice(len(outs), p=np.array(pr) / sum(pr)))][1])
                if s.winner >= 0:
                    break


def test_uppercut_closes_strikes_and_bounces_back() -> None:
    # アッパーカット: 気力+1。距離-1。距離0なら格闘、距離+2。 At distance 1 and full armour (3), the 3-die
    # HP check cannot beat 3 armour; the counter (1 die) strips 1 armour with probability 1/2.
    s = state("oscar", "leo", distance=1)
    outs = action_outcomes(s, (slot("oscar", "アッパーカット"), 0), mechs("oscar", "leo"), P)
    assert dist(outs, lambda t: (t.distance, t.ki[0], t.hp[1])) == {(2, 1, 2): 1.0}
    assert dist(outs, lambda t: t.armour[0]) == {3: 0.5, 2: 0.5}
    # at armour 0 the HP check needs one of 3 dice at 4-6: 7/8
    outs = action_outcomes(replace(s, armour=(3, 0)), (slot("oscar", "アッパーカット"), 0), mechs("oscar", "leo"), P)
    assert dist(outs, lambda t: t.hp[1]) == {1: 7 / 8, 2: 1 / 8}


def test_body_check_and_the_check_readings() -> None:
    # ボディチェック: 判定2。成功なら距離を0にし装甲ダメージ1。失敗なら距離-1
    s = state("oscar", "leo", distance=3)
    act = (slot("oscar", "ボディチェック"), 0)
    outs = action_outcomes(s, act, mechs("oscar", "leo"), P)
    assert dist(outs, lambda t: (t.distance, t.armour[1])) == {(0, 2): 0.75, (2, 3): 0.25}
    one = MechParams(check_reading="one_die")
    outs = action_outcomes(s, act, mechs("oscar", "leo"), one)
    assert dist(outs, lambda t: (t.distance, t.armour[1])) == {(0, 2): 0.5, (2, 3): 0.5}


def test_distance_limits_cost_and_no_repeat() -> None:
    m = mechs("jaeger", "leo")
    at0 = {a[0] for a in legal_actions(state("jaeger", "leo", distance=0), m, P)}
    assert slot("jaeger", "スナイパーガン") not in at0  # 距離1以上でのみ使用可能
    assert slot("jaeger", "マイクロミサイル") not in at0  # 気力4消費, 気力 0
    rich = state("jaeger", "leo", distance=2, ki=(4, 0), last=(slot("jaeger", "ハンドガン"), -1))
    acts = {a[0] for a in legal_actions(rich, m, P)}
    assert slot("jaeger", "マイクロミサイル") in acts and slot("jaeger", "ハンドガン") not in acts
    assert slot("jaeger", "ハンドガン") in {a[0] for a in legal_actions(rich, m, replace(P, no_repeat=False))}
    # スニーク offers both directions
    assert (slot("jaeger", "スニーク"), 0) in legal_actions(rich, m, P)
    assert (slot("jaeger", "スニーク"), 1) in legal_actions(rich, m, P)


def test_a_lost_turn_keeps_the_no_repeat_rule_and_breaks_combos() -> None:
    m = mechs("leo", "oscar")
    s = state("leo", "oscar", last=(1, -1), prev=(1, -1), skip=(True, False), skip_stun=(True, False))
    t = skip_turn(s)
    assert t.last == (1, -1) and t.prev == (-1, -1) and t.stunned_last == (True, False) and t.skip == (False, False)
    assert 1 not in {a[0] for a in legal_actions(t, m, P)}  # スタンした場合でも同じ武器を続けて使えない


def test_stripping_the_armour_costs_the_next_turn() -> None:
    # イオンガン 判定1で{装甲ダメージ1、スタン}: on armour 1 a hit strips the armour too
    s = state("uranus", "leo", armour=(3, 1))
    outs = action_outcomes(s, (slot("uranus", "イオンガン"), 0), mechs("uranus", "leo"), P)
    assert dist(outs, lambda t: (t.armour[1], t.skip[1], t.skip_stun[1])) == {(0, True, True): 0.5,
                                                                              (1, False, False): 0.5}
    off = replace(P, strip_skip=False)
    s2 = state("leo", "oscar", armour=(3, 1), distance=3)
    outs = action_outcomes(s2, (slot("leo", "ロケットランチャー"), 0), mechs("leo", "oscar"), off)
    assert dist(outs, lambda t: (t.armour[1], t.skip[1])) == {(0, False): 0.75, (1, False): 0.25}
    reset = replace(P, armour_on_strip="reset")
    outs = action_outcomes(s2, (slot("leo", "ロケットランチャー"), 0), mechs("leo", "oscar"), reset)
    t = end_turn(next(t for _, t in outs if t.armour[1] == 0))
    assert start_turn(t, reset).armour[1] == 3  # comes back when its (lost) turn comes


def test_finger_flare_self_damage_and_the_hp1_rule() -> None:
    m = mechs("uranus", "leo")
    ff = slot("uranus", "フィンガーフレア")
    outs = action_outcomes(state("uranus", "leo", distance=2), (ff, 1), m, P)  # 2 dice
    assert dist(outs, lambda t: (t.hp[0], t.armour[1], t.distance)) == {
        (1, 3, 1): 11 / 36, (2, 3, 1): 4 / 36, (2, 2, 1): 12 / 36, (2, 1, 1): 9 / 36}
    # HPが1の時に自爆した場合、HPダメージは受けず、代わりに装甲が1になる
    outs = action_outcomes(state("uranus", "leo", hp=(1, 2), armour=(0, 3)), (ff, 0), m, P)
    assert dist(outs, lambda t: (t.hp[0], t.armour[0])) == {(1, 1): 1 / 6, (1, 0): 5 / 6}


def test_claw_takes_no_counter_after_a_stun() -> None:
    m = mechs("uranus", "leo")
    cl = (slot("uranus", "クロー"), 0)
    s = state("uranus", "leo", distance=1)
    assert dist(action_outcomes(s, cl, m, P), lambda t: t.armour[0]) == {3: 0.5, 2: 0.5}
    s2 = replace(s, stunned_last=(False, True))
    assert dist(action_outcomes(s2, cl, m, P), lambda t: t.armour[0]) == {3: 1.0}


def test_combos() -> None:
    # ロケットジャンプ: 判定1, 判定2 after ロケットランチャー on the previous turn
    m = mechs("leo", "oscar")
    rj = (slot("leo", "ロケットジャンプ"), 0)
    s = state("leo", "oscar", distance=3)
    assert dist(action_outcomes(s, rj, m, P), lambda t: (t.armour[1], t.distance)) == {(2, 0): 0.5, (3, 2): 0.5}
    s2 = replace(s, prev=(slot("leo", "ロケットランチャー"), -1), last=(slot("leo", "ロケットランチャー"), -1))
    assert dist(action_outcomes(s2, rj, m, P), lambda t: (t.armour[1], t.distance)) == {(2, 0): 0.75, (3, 2): 0.25}
    assert dist(action_outcomes(s2, rj, m, replace(P, combos=False)), lambda t: t.armour[1]) == {2: 0.5, 3: 0.5}
    # デュアルブレード: 4 attack dice after リボルバー: P(HP) at armour 2 = P(Bin(4,1/2) >= 3) = 5/16
    n = mechs("nerva", "oscar")
    db = (slot("nerva", "デュアルブレード"), 0)
    s3 = state("nerva", "oscar", distance=1, armour=(3, 2), prev=(slot("nerva", "リボルバー"), -1))
    assert dist(action_outcomes(s3, db, n, replace(P, counter_dice=0)), lambda t: t.hp[1]) == {1: 5 / 16,
                                                                                               2: 11 / 16}
    s4 = replace(s3, prev=(-1, -1))
    assert dist(action_outcomes(s4, db, n, replace(P, counter_dice=0)), lambda t: t.hp[1]) == {1: 1 / 8, 2: 7 / 8}


def test_protection_and_rolling_shot() -> None:
    m = mechs("nerva", "oscar")
    rs = (slot("nerva", "ローリングショット"), 0)
    s = state("nerva", "oscar", ki=(2, 0))
    outs = action_outcomes(s, rs, m, P)
    assert dist(outs, lambda t: (t.armour[1], t.protect[0], t.ki[0])) == {
        (1, True, 0): 0.25, (2, True, 0): 0.5, (3, False, 0): 0.25}
    prot = replace(s, protect=(False, True))
    assert dist(action_outcomes(prot, rs, m, P), lambda t: t.armour[1]) == {3: 1.0}


def test_heat_and_fire_burst() -> None:
    m = mechs("cocalias", "oscar")
    cl = (slot("cocalias", "コークスレーザー"), 0)
    t = action_outcomes(state("cocalias", "oscar"), cl, m, P)[0][1]
    assert t.heat[0][slot("cocalias", "コークスレーザー")]
    heat = tuple(i in (0, 1) for i in range(6))
    s = state("cocalias", "oscar", distance=1, heat=(heat, (False,) * 5))
    assert slot("cocalias", "コークスレーザー") not in {a[0] for a in legal_actions(s, m, P)}
    outs = action_outcomes(s, (slot("cocalias", "ファイアバースト"), 0), m, P)
    assert dist(outs, lambda t: (t.armour[1], any(t.heat[0]))) == {(3, False): 0.25, (2, False): 0.5,
                                                                    (1, False): 0.25}
    far = replace(s, distance=2)
    assert dist(action_outcomes(far, (slot("cocalias", "ファイアバースト"), 0), m, P), lambda t: t.armour[1]) == {3: 1}


def test_atomic_suplex_five_dice_then_two_armour_and_stun() -> None:
    m = mechs("volga", "oscar")
    su = (slot("volga", "アトミックスープレックス"), 0)
    s = state("volga", "oscar", distance=1, ki=(3, 0))
    outs = action_outcomes(s, su, m, replace(P, counter_dice=0))
    # the 5-die check meets armour 3 (4 or 5 of 5 at 4-6: 6/32), then 2 armour and stun
    assert dist(outs, lambda t: (t.hp[1], t.armour[1], t.skip[1], t.ki[0], t.distance)) == {
        (1, 1, True, 0, 0): 6 / 32, (2, 1, True, 0, 0): 26 / 32}


def test_micro_missile_readings_differ_between_mechs() -> None:
    # イェーガー: 判定2でHPダメージ1、距離+1 (distance +1 always); ネルヴァ: 判定2で{HPダメージ1、距離+1}
    j = action_outcomes(state("jaeger", "oscar", ki=(4, 0), distance=1), (slot("jaeger", "マイクロミサイル"), 0),
                        mechs("jaeger", "oscar"), P)
    assert dist(j, lambda t: (t.hp[1], t.distance)) == {(1, 2): 0.75, (2, 2): 0.25}
    n = action_outcomes(state("nerva", "oscar", ki=(4, 0), distance=1), (slot("nerva", "マイクロミサイル"), 0),
                        mechs("nerva", "oscar"), P)
    assert dist(n, lambda t: (t.hp[1], t.distance)) == {(1, 2): 0.75, (2, 1): 0.25}


def test_a_kill_ends_the_game_and_games_terminate() -> None:
    s = state("jaeger", "oscar", ki=(4, 0), hp=(2, 1))
    outs = action_outcomes(s, (slot("jaeger", "マイクロミサイル"), 0), mechs("jaeger", "oscar"), P)
    assert dist(outs, lambda t: t.winner) == {0: 0.75, -1: 0.25}
    rng = np.random.default_rng(3)
    for _ in range(5):
        r = reference_game(MechParams(max_turns=20), mechs("leo", "leo"), ("random", "random"), rng)
        assert r["turns"] <= 20 and (r["winner"] == 2) == (min(r["hp_a"], r["hp_b"]) > 0)


def test_params_are_checked() -> None:
    with pytest.raises(ParamError, match="start_distance"):
        MechParams(max_distance=2, start_distance=3)
    with pytest.raises(ParamError, match="counter_dice"):
        MechParams(counter_dice=1.0)
    with pytest.raises(ParamError, match="action"):
        action_outcomes(state("jaeger", "oscar", distance=0), (slot("jaeger", "スナイパーガン"), 0),
                        mechs("jaeger", "oscar"), P)
