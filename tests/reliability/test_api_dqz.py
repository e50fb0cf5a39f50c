"""Property tests of the dqz public API (issue 9, points 4 and 5).

Random well-typed and ill-typed arguments: a public function either returns a result of the
documented type (only when every argument is valid: nothing is silently coerced, truncated or
clipped) or raises a ``ValueError``/``TypeError`` (``ParamError``) naming the parameter; a refusal
is fast, however large the size asked for. Validity is decided here by an independent oracle
written from the documented limits (docs/rules/dqz.md, "Argument checks and limits").
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamesim.core.registry import ParamError
from gamesim.games.dqz import (
    attack_value,
    best_attack_value,
    damage_from_value,
    experience_split,
    focus_target,
    hand_distribution,
    inn_refill,
    simulate_battle,
    simulate_run,
    triggers_multiple,
    value_table,
)
from tests.reliability import api_support
from tests.reliability.api_support import refused_fast


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


def _is_int(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def junk_or(valid: st.SearchStrategy) -> st.SearchStrategy:
    """The shared junk, plus (None, 3.0): what a confused dqz caller passes."""
    return api_support.junk_or(valid, also=(None, 3.0))


@SETTINGS
@given(cards=st.lists(junk_or(st.integers(0, 5)), min_size=0, max_size=7),
       ops=st.one_of(st.text(alphabet="+-*/x", max_size=6), st.lists(st.sampled_from(["+", "-", "*", "/", "^", 1]),
                                                                       max_size=6)))
def test_attack_value_strict(cards: list, ops: object) -> None:
    valid_cards = 1 <= len(cards) <= 5 and all(_is_int(c) and 0 <= c <= 5 for c in cards)
    valid_ops = all(isinstance(o, str) and o in "+-*/" for o in ops) and len(ops) == len(cards) - 1
    if not (valid_cards and valid_ops):
        err = refused_fast(attack_value, cards, ops)
        if not valid_cards:
            assert isinstance(err, ParamError) and "cards" in str(err)
        return
    try:
        v = attack_value(cards, ops)
    except ValueError as exc:  # division by zero: the only refusal of valid arguments
        assert "division by zero" in str(exc)
        return
    assert type(v) is int


def test_attack_value_issue_examples() -> None:
    err = refused_fast(attack_value, [5, 6], "+")  # cards are 1-5: 6 is not a card
    assert "cards = [5, 6]" in str(err)
    refused_fast(attack_value, [5, 2.0], "+")
    refused_fast(attack_value, [True, 2], "+")
    refused_fast(attack_value, [5, 3], "+", strategy=("gangan_ikouze", 1.5))


@SETTINGS
@given(hands=st.lists(st.lists(junk_or(st.integers(1, 5)), max_size=4), min_size=0, max_size=7))
def test_best_attack_value_strict(hands: list) -> None:
    valid = len(hands) <= 5 and all(_is_int(c) and 1 <= c <= 5 for h in hands for c in h)
    if not valid:
        err = refused_fast(best_attack_value, hands)
        assert isinstance(err, ParamError) and "hands" in str(err)
        return
    if not any(hands):
        refused_fast(best_attack_value, hands)  # nobody alive
        return
    v = best_attack_value(hands)
    assert type(v) is int
    assert best_attack_value([[5], [5]]) == 25


def test_best_attack_value_issue_example() -> None:
    err = refused_fast(best_attack_value, [[2.5], [5]])
    assert "hands[0]" in str(err) or "hands" in str(err)


@SETTINGS
@given(value=st.one_of(st.integers(-100, 100), st.fractions(max_denominator=20).filter(lambda f: abs(f) < 100),
                       st.floats(allow_nan=True), st.booleans(), st.text(max_size=2)),
       flags=st.lists(junk_or(st.booleans()), min_size=4, max_size=4),
       order=junk_or(st.sampled_from(["at_end", "value_first"])))
def test_damage_from_value_strict(value: object, flags: list, order: object) -> None:
    valid = ((_is_int(value) or isinstance(value, Fraction)) and all(isinstance(f, bool) for f in flags)
             and order in ("at_end", "value_first") and isinstance(order, str))
    kw = dict(physical_immune=flags[0], spell_resistant=flags[1], strategy_used=flags[2], negative_heals=flags[3],
              resist_rounding=order)
    if not valid:
        refused_fast(damage_from_value, value, **kw)
        return
    d = damage_from_value(value, **kw)
    assert type(d) is int
    if not flags[3]:
        assert d >= 0


@SETTINGS
@given(level=junk_or(st.integers(0, 10)), n_living=junk_or(st.integers(0, 5)), deck=junk_or(st.integers(0, 50)),
       sizes=st.lists(junk_or(st.integers(0, 10)), max_size=6), value=junk_or(st.integers(-30, 30)))
def test_small_rules_strict(level: object, n_living: object, deck: object, sizes: list, value: object) -> None:
    ok = _is_int(level) and 0 <= level <= 200 and _is_int(n_living) and 0 <= n_living <= 5 and _is_int(deck) \
        and 0 <= deck <= 200
    if ok:
        split = experience_split(level, n_living, deck)
        assert sum(split) == min(level * n_living, deck) and len(split) == n_living
    else:
        refused_fast(experience_split, level, n_living, deck)
    sizes_ok = len(sizes) <= 5 and all(_is_int(s) and 0 <= s <= 200 for s in sizes)
    if sizes_ok:
        focus_target(sizes)
        if _is_int(deck) and 0 <= deck <= 200:
            assert sum(inn_refill(sizes, deck)) <= deck
    else:
        refused_fast(focus_target, sizes)
        refused_fast(inn_refill, sizes, 10)
    if _is_int(value):
        assert triggers_multiple(value, [5]) == (value > 0 and value % 5 == 0)
    else:
        refused_fast(triggers_multiple, value, [5])


POLICY = st.sampled_from(["max_damage", "exact_kill", "avoid_trigger", "random"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(data=st.data(), all_valid=st.booleans())
def test_simulate_battle_strict(data: st.DataObject, all_valid: bool) -> None:
    def draw(valid: st.SearchStrategy) -> object:
        return data.draw(valid if all_valid else junk_or(valid))

    party, hand, npv = draw(st.integers(1, 3)), draw(st.integers(0, 3)), draw(st.integers(1, 10))
    deck = data.draw(st.lists(st.integers(0, 3), min_size=5, max_size=5) if all_valid
                     else st.one_of(st.lists(st.integers(0, 3), min_size=5, max_size=5),
                                    st.lists(junk_or(st.integers(0, 3)), max_size=6)))
    policy, turns, hero = draw(POLICY), draw(st.integers(1, 20)), draw(st.booleans())
    order, cap, n = draw(st.sampled_from(["at_end", "value_first"])), draw(st.booleans()), draw(st.integers(0, 3))
    kw = dict(party_size=party, hand_size=hand, n_per_value=npv, strategy_deck=deck, policy=policy, max_turns=turns,
              hero_passes=hero, resist_rounding=order, heal_cap=cap)
    valid = (_is_int(n) and 0 <= n <= 10**7 and _is_int(party) and 1 <= party <= 5 and _is_int(hand)
             and 0 <= hand <= 20 and _is_int(npv) and 0 <= npv <= 40 and party * hand <= 5 * npv
             and isinstance(deck, list) and len(deck) == 5 and all(_is_int(x) and 0 <= x <= 20 for x in deck)
             and isinstance(policy, str) and policy in ("max_damage", "exact_kill", "avoid_trigger", "random")
             and _is_int(turns) and 1 <= turns <= 10_000 and isinstance(hero, bool) and isinstance(cap, bool)
             and isinstance(order, str) and order in ("at_end", "value_first"))
    if not valid:
        refused_fast(simulate_battle, n, monster="スライム", **kw)
        return
    mon = data.draw(st.sampled_from(["スライム", "まほうつかい", "くさったしたい", "ホイミスライム"]))
    df = simulate_battle(n, monster=mon, rng=1, **kw)
    assert isinstance(df, pd.DataFrame) and len(df) == n
    assert (df["turns"] <= turns).all()


def test_sizes_that_would_hang_are_refused_fast() -> None:
    for kw in (dict(n_battles=10**12), dict(n_battles=5, hand_size=10**9, n_per_value=10**9),
               dict(n_battles=5, max_turns=10**9), dict(n_battles=5, strategy_deck=[10**9] * 5)):
        n = kw.pop("n_battles")
        err = refused_fast(simulate_battle, n, party_size=3, monster="スライム", **kw)
        assert isinstance(err, ParamError)
    refused_fast(simulate_run, 5, party_size=3, monsters=["スライム"] * 10**4)
    refused_fast(simulate_battle, 5, party_size=3, monster={"hp": 10**12})
    refused_fast(hand_distribution, 5, 20)  # C(24, 4) ** 5 deals
    refused_fast(value_table, 6)
    refused_fast(simulate_battle, 5, party_size=3, monster="スライム", rng=2.5)
    refused_fast(simulate_battle, 5, party_size=3, monster="スライム", rng=True)


# ---------------------------------------------------------------------------
# The game's Params and the common entry point (issue 25: one shape per game)
# ---------------------------------------------------------------------------


def test_dqz_params_and_simulate_strict() -> None:
    import gamesim.games.dqz as dqz

    assert dqz.DqzParams() == dqz.BattleConfig(3)  # one class, two names
    for kw, name in [({"party_size": 2.5}, "party_size"), ({"party_size": 6}, "party_size"),
                     ({"policy": "bold"}, "policy"), ({"heal_cap": "no"}, "heal_cap"),
                     ({"hand_size": 30}, "hand_size")]:
        assert name in str(refused_fast(dqz.DqzParams, **kw))
    p = dqz.DqzParams()
    assert "params" in str(refused_fast(dqz.simulate, None, 10))
    assert "n_games" in str(refused_fast(dqz.simulate, p, 2.5))
    assert "n_games" in str(refused_fast(dqz.simulate, p, 10**9))
    assert "monsters" in str(refused_fast(dqz.simulate, p, 10, monsters="スライム"))
    assert "monsters" in str(refused_fast(dqz.simulate, p, 10, monsters=[]))
    assert "rng" in str(refused_fast(dqz.simulate, p, 10, rng=True))
    r = dqz.simulate(p, 7, rng=1, monsters=["スライム", {"hp": 5}])
    assert all(v.shape[0] == 7 for v in r.values())
