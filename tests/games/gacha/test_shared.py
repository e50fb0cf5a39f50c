"""Tests of gacha's shared bag (コンスリート ends the game) and of Overdrive as normal play.

Golden values come from mathematics (hand derivations, brute-force enumeration),
never from a seeded run. Stochastic tests compare estimates with exact values (or
two independent simulators) at 4.5 standard errors, so they pass for any seed.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gamesim.games.gacha import (
    BagConfig,
    exact_completion_probability,
    exact_expected_god_chances,
    exact_shared,
    simulate_shared,
)
from gamesim.games.gacha.tasks import TASKS
from tests.games.gacha.helpers import _assert_prop, _two_sample

Z = 4.5
ROOT = Path(__file__).resolve().parents[3]


# ---------------------------------------------------------------------------
# Shared bag: コンスリート ends the game
# ---------------------------------------------------------------------------


def test_shared_hand_computed_first_completion() -> None:
    """「いずれかのラウンド中にURキャラカードを全て集めたスレイヤーは直ちにゲームに勝利します」.
    One character, a bag of 1 God Chance + 1 N chip, players 1 then 2 pull one chip each:
    player 1 wins with 1/2; otherwise the chip is the last one in the bag and player 2
    draws it: 1/2. Without the stop, player 2 would also "complete" after player 1's win
    (the bag is remade: 1/2), 1/2 * 1/2 + 1/2 = 3/4."""
    bag = BagConfig(1, 0, 1)
    ex = exact_shared([(1, 1), (2, 1)], bag=bag, n_characters=1)
    assert math.isclose(ex["complete_p1"], 0.5) and math.isclose(ex["complete_p2"], 0.5)
    assert math.isclose(ex["nobody_completes"], 0.0, abs_tol=1e-15)
    assert math.isclose(ex["god_chances_p2"], 0.5)
    keep = exact_shared([(1, 1), (2, 1)], bag=bag, n_characters=1, stop_at_completion=False)
    assert math.isclose(keep["complete_p2"], 0.75) and math.isclose(keep["god_chances_p2"], 0.75)


def test_exact_shared_consistent() -> None:
    sch = [(1, 10), (2, 5)] * 15
    stop = exact_shared(sch)
    keep = exact_shared(sch, stop_at_completion=False)
    # the first completion happens at the same time in both readings
    assert math.isclose(stop["nobody_completes"], keep["nobody_completes"], rel_tol=1e-12)
    assert math.isclose(stop["complete_p1"] + stop["complete_p2"] + stop["nobody_completes"], 1.0)
    ses = [m for _, m in sch]
    for i in (1, 2):
        counted = [p == i for p, _ in sch]
        assert math.isclose(keep[f"complete_p{i}"], exact_completion_probability(ses, counted=counted))
        assert math.isclose(keep[f"god_chances_p{i}"], exact_expected_god_chances(ses, counted=counted))
        assert stop[f"complete_p{i}"] < keep[f"complete_p{i}"]


@pytest.mark.parametrize("overdrive", [None, 10])
def test_shared_stop_vs_exact_and_reference(overdrive: int | None, seed: int) -> None:
    sch = [(1, 10), (2, 10)] * 20
    n = 100_000
    df = simulate_shared(sch, n, rng=seed, overdrive_pulls=overdrive)
    assert ((df.winner == 1) == df.complete_p1).all() and ((df.winner == 2) == df.complete_p2).all()
    assert not (df.complete_p1 & df.complete_p2).any()
    if overdrive is None:
        ex = exact_shared(sch)
        for i in (1, 2):
            _assert_prop(df[f"complete_p{i}"].to_numpy(), ex[f"complete_p{i}"])
            x = df[f"god_chances_p{i}"].to_numpy(float)
            assert abs(x.mean() - ex[f"god_chances_p{i}"]) <= Z * x.std(ddof=1) / math.sqrt(n)
        _assert_prop((df.winner == 0).to_numpy(), ex["nobody_completes"])
    else:  # no exact Overdrive model: the first player to complete under the scalar reference
        ss = np.random.SeedSequence(seed).spawn(1)[0]
        gen = np.random.default_rng(ss)
        from gamesim.games.gacha.reference import ReferenceGame
        wins = []
        for _ in range(3000):
            g = ReferenceGame(2, gen, BagConfig(), 5, None, overdrive)
            w = 0
            for p, m in sch:
                g.pull(p, m)
                if len(g.owned[p - 1]) == 5:
                    w = p
                    break
            wins.append(w)
        wins = pd.Series(wins, dtype=float)
        for i in (0, 1, 2):
            _two_sample((df.winner == i).astype(float).rename(f"winner={i}"), (wins == i).astype(float))


def test_shared_task_metrics() -> None:
    t = TASKS["shared"]
    p = t.defaults(n_rounds=40)
    names = {m.name for m in t.metrics_for(p)}
    assert names == {"god_chances_p1", "complete_p1", "god_chances_p2", "complete_p2", "nobody_completes"}
    ex = t.exact(p)
    assert math.isclose(ex["complete_p1:proportion"] + ex["complete_p2:proportion"]
                        + ex["nobody_completes:proportion"], 1.0)
    out = t.simulate(p, 1000, rng=0)
    assert not (out["complete_p1"] & out["complete_p2"]).any()


# ---------------------------------------------------------------------------
# Overdrive is normal play (every player has a navi card)
# ---------------------------------------------------------------------------


def test_builtin_study_plays_normal_mode() -> None:
    """「ナビキャラカードの決定: …各スレイヤーに1枚ずつ配ります」: every player has a navi card;
    エキスパートモード (「全てのスレイヤーが「ナビキャラカード」を使用できません」) is the variant.
    The built-in study defaults to Overdrive on; expert mode is shown beside it."""
    from gamesim.core.scenario import load_scenario
    sc = load_scenario(ROOT / "scenarios" / "gacha_god_chance.toml")
    seen = set()
    for part in sc.parts:
        for cell in part.cells():
            seen.add(cell["overdrive"])
            if "overdrive" not in part.grid:
                assert cell["overdrive"] is True, part.name
    assert seen == {True, False}
