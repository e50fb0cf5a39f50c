"""Tests of dqz's exact solvers and of the policies' play solver against brute force.

Golden values come from the rulebook's worked examples and from mathematics
(Fraction arithmetic, brute-force enumeration, the exact deal enumeration), never
from a seeded run. Stochastic tests compare at 4.5 standard errors, so they pass for
any seed.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from gamesim.games.dqz import (
    DamageRule,
    PlaySolver,
    Strategy,
    achievable_values,
    best_attack_value,
    enumerate_plays,
    eval_expressions,
    exact_value,
    hand_distribution,
    round_half_away,
    value_table,
)
from gamesim.games.dqz.policies import KILL_FLAG
from gamesim.games.dqz.reference import _choose, reference_plays


# ---------------------------------------------------------------------------
# Exact solvers
# ---------------------------------------------------------------------------


def test_vectorized_rationals_match_fractions(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for n in range(1, 6):
        vals = rng.integers(0, 11, size=(400, n))
        ops = rng.integers(0, 4, size=(400, n - 1))
        for paren in range(-1, n - 1):
            got, ok = eval_expressions(vals, ops, paren=paren)
            for i in range(vals.shape[0]):
                try:
                    want = round_half_away(exact_value(list(vals[i]), ["+-*/"[o] for o in ops[i]],
                                                       paren=None if paren < 0 else paren))
                except ValueError:
                    assert not ok[i]
                    continue
                assert ok[i] and got[i] == want


def test_value_table_matches_brute_force() -> None:
    hands = [[1, 4], [2, 5], [3, 1]]
    for mods in [dict(), dict(poison=1), dict(paralysed=1), dict(asleep=0, poison=4)]:
        tab = value_table(3, mods.get("poison", 0), mods.get("paralysed", -1), mods.get("asleep", -1))
        for vi, var in enumerate(tab.variants):
            kind = None if var.kind == 0 else Strategy(var.kind - 1)
            brute = enumerate_plays(hands, strategy=kind, **{k: v for k, v in mods.items()})
            want = {(cards, sp.target if sp is not None and sp.target is not None else -1, v)
                    for cards, _, sp, v in brute}
            got = set()
            for cards in itertools.product(*[sorted(h) for h in hands]):
                t = sum((c - 1) * 5 ** (2 - i) for i, c in enumerate(cards))
                ok = tab.valid[vi, t]
                for v in tab.values[vi, t][ok]:
                    got.add((cards, var.target, int(v)))
            want_v = {w for w in want if w[1] == var.target}
            assert got == want_v, (mods, var)


def test_best_attack_value_matches_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(30):
        n = int(rng.integers(1, 5))
        hands = [list(rng.integers(1, 6, size=int(rng.integers(1, 4)))) for _ in range(n)]
        assert best_attack_value(hands) == max(achievable_values(hands))
    assert best_attack_value([[5], [4], [3], [2]]) == 22  # 5×4＋3÷2 = 21.5 -> 22
    assert max(achievable_values([[5], [4], [3], [2]])) == 22
    assert best_attack_value([[5, 5, 5]] * 5) == max(achievable_values([[5]] * 5))
    assert best_attack_value([[1, 2], [], [3]]) == max(achievable_values([[1, 2], [3]]))  # しぼう sits out


def test_best_attack_value_errors() -> None:
    with pytest.raises(ValueError):
        best_attack_value([[], []])
    with pytest.raises(ValueError):
        best_attack_value([[6]])
    with pytest.raises(ValueError):
        best_attack_value([[1], [2], [3]], operators="+")
    with pytest.raises(ValueError):
        best_attack_value([[1], [2]], operators="%")
    assert best_attack_value([[1], [2], [3]], operators="+-") == max(
        achievable_values([[1], [2], [3]], operators="+-"))


def test_hand_distribution_sums_to_one() -> None:
    d = hand_distribution(2, 3)
    assert math.isclose(sum(p for _, p in d), 1.0)
    # P(hero holds three 5s) = C(10,3)/C(50,3)
    p = sum(pr for hands, pr in d if hands[0] == (0, 0, 0, 0, 3))
    assert math.isclose(p, math.comb(10, 3) / math.comb(50, 3))


# ---------------------------------------------------------------------------
# Policies: vectorized solver against the brute-force reference choice
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rule", [DamageRule(), DamageRule(False, True, True, (4, 5))])
def test_play_solver_batch_equals_one_situation_at_a_time(rule: DamageRule, seed: int) -> None:
    """Many situations solved in one call (grouped by slot sizes, every kind at once) give each
    row what a fresh solver gives that row alone (checked against brute force below)."""
    rng = np.random.default_rng(seed)
    for n in (2, 4, 5):
        masks = rng.integers(1, 32, size=(60, n))
        masks[rng.random((60, n)) < 0.3] = 1 << int(rng.integers(0, 5))  # repeated slots and situations
        poison, para, sleep = int(rng.integers(0, 4)), int(rng.integers(-1, n)), int(rng.integers(-1, n))
        batch = PlaySolver(rule).solve(n, poison, para, sleep, masks)
        assert batch.shape == (60, 6, 8) and (batch[:, :, 0] >= 0).any()
        for i in range(60):
            one = PlaySolver(rule).solve(n, poison, para, sleep, masks[i:i + 1])[0]
            np.testing.assert_array_equal(batch[i], one)



@pytest.mark.parametrize("rule", [DamageRule(), DamageRule(True, False, False, (3,)), DamageRule(False, True, True, (4, 5))])
def test_play_solver_matches_brute_force(rule: DamageRule, seed: int) -> None:
    rng = np.random.default_rng(seed)
    solver = PlaySolver(rule)
    for _ in range(40):
        n = int(rng.integers(1, 4))
        masks = rng.integers(1, 32, size=(1, n))
        poison = int(rng.integers(0, 6))
        para = int(rng.integers(-1, n))
        sleep = int(rng.integers(-1, n))
        hp = int(rng.integers(1, 40))
        values = tuple(tuple(v + 1 for v in range(5) if m >> v & 1) for m in masks[0])
        plays = reference_plays(values, poison, para, sleep, rule)
        if not any(k == 0 for k, *_ in plays):
            continue
        res = solver.solve(n, poison, para, sleep, masks)[0]
        kill = solver.kill_plays(n, poison, para, sleep, masks, np.array([hp]))[0]
        for policy in ("max_damage", "avoid_trigger", "exact_kill"):
            per = _choose(plays, policy, hp)
            for kind in range(6):
                if kind not in per:
                    assert res[kind, 0] < 0
                    continue
                if policy == "max_damage":
                    assert res[kind, 0] == per[kind][0]
                elif per[kind][0] >= KILL_FLAG:
                    assert kill[kind, 0] == per[kind][0]
                elif policy == "avoid_trigger" and per[kind][0] >= (1 << 40):
                    assert (1 << 40) | res[kind, 4] == per[kind][0]
                # the decoded play has the same cards and value
                if policy == "max_damage":
                    t = res[kind, 2]
                    cards = tuple(int((t // 5 ** (n - 1 - i)) % 5 + 1) for i in range(n))
                    assert cards == per[kind][1]
                    tab = value_table(n, poison, para, sleep)
                    assert tab.values[res[kind, 1], t, res[kind, 3]] == per[kind][2]
