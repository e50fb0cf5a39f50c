"""Property tests of the dqz public API (issue 9, points 4 and 5).

Random well-typed and ill-typed arguments: a public function either returns a result of the
documented type (only when every argument is valid: nothing is silently coerced, truncated or
clipped) or raises a ``ValueError``/``TypeError`` (``ParamError``) naming the parameter; a refusal
is fast, however large the size asked for. Validity is decided here by an independent oracle
written from the documented limits (docs/rules/dqz.md, "Argument checks and limits").

``test_declared_function_strict`` draws the calls of every public function from its
``validate_params`` declaration (issue 25 point 2): a function without one fails, and only what a
declaration cannot say is written here (:data:`SPECIAL`: parsers, nested hands, arrays, fields
checked by :class:`DqzParams`, relations between arguments, sizes kept small).
"""

from __future__ import annotations


import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.dqz as dqz
from gamesim.core.registry import ParamError
from gamesim.games.dqz import (
    attack_value,
    best_attack_value,
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
from tests.reliability.api_support import Arg, declared_api_tests, public_functions, int_arg, refused_fast


#: 40 examples (60 before the declared functions' calls were generated too: their refusals are drawn there).
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


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



# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

EXAMPLES: dict[type, list[object]] = {
    dqz.DqzParams: [dqz.DqzParams(), dqz.DqzParams(party_size=2, hand_size=2, max_turns=20, policy="random")],
    dqz.DamageRule: [dqz.DamageRule(), dqz.DamageRule(physical_immune=True),
                     dqz.DamageRule(spell_resistant=True, multiples=(5,))],
}
_NOTHING = st.nothing()
_NAMES = st.sampled_from(["スライム", "まほうつかい", "くさったしたい", "ホイミスライム"])
_MONSTER = Arg(_NAMES, st.sampled_from(["nope", 3, None]))
_MONSTERS = Arg(st.lists(_NAMES, min_size=1, max_size=2), st.sampled_from([[], 3, None]))
_BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "no", None]))


def _small(lo: int, hi: int, bad_hi: int) -> Arg:
    """Valid values narrower than declared (relations, work); the bad ones as declared."""
    return Arg(st.integers(lo, hi), int_arg(lo, bad_hi).bad)


#: The DqzParams fields simulate_battle / simulate_run take as keywords (checked when the
#: DqzParams is built): small, and the hands always fit in the deck.
_FIELDS = {
    "party_size": Arg(st.integers(1, 3), st.sampled_from([0, 6, 2.5, True, None])),
    "policy": Arg(POLICY, st.sampled_from(["bold", 3, None])),
    "hand_size": Arg(st.integers(0, 3), st.sampled_from([21, -1, 2.5, None])),
    "n_per_value": Arg(st.integers(2, 10), st.sampled_from([41, -1, 2.5, None])),
    "strategy_deck": Arg(st.lists(st.integers(0, 3), min_size=5, max_size=5), st.sampled_from([[1] * 4, [21] * 5, None])),
    "negative_heals": _BOOL, "hero_passes": _BOOL, "heal_cap": _BOOL, "multiple_nonpositive": _BOOL,
    "max_turns": Arg(st.integers(1, 20), st.sampled_from([0, 10_001, 2.5, None])),
    "resist_rounding": Arg(st.sampled_from(["at_end", "value_first"]), st.sampled_from(["x", None])),
    "inn_every": Arg(st.integers(0, 3), st.sampled_from([-1, 1001, 2.5, None])),
}
_EXACT = Arg(st.one_of(st.integers(-50, 50), st.fractions(max_denominator=20).filter(lambda f: abs(f) < 100)),
             st.sampled_from([2.5, 3.0, True, "3", None]))
#: Hands of the exact functions: up to 3 players, at least one card (the bad ones fail at hands[0]).
_HANDS = Arg(st.lists(st.lists(st.integers(1, 5), min_size=1, max_size=2), min_size=1, max_size=3),
             st.sampled_from([[[2.5]], [[6]], [[True]], [[0], [1]]]), key="hands[0]")
_OPS = Arg(st.just("+-*/"), st.sampled_from([3, None, "^"]))
#: Three cards and two operators (no division: a division by zero is a plain ValueError of valid arguments).
_THREE_OPS = Arg(st.lists(st.sampled_from("+-*"), min_size=2, max_size=2), _NOTHING)

SPECIAL: dict[str, dict[str, Arg]] = {
    "get_monster": {"name": Arg(_NAMES, st.sampled_from(["nope", 3, None, ""]))},
    "attack_value": {"cards": Arg(st.lists(st.integers(0, 5), min_size=3, max_size=3),
                                  st.sampled_from([[2.5, 1, 1], [6, 1, 1], [True, 1, 1], [1] * 6, "123"])),
                     "operators": Arg(_THREE_OPS.good, st.sampled_from([["+", "^"], "+", 3, None])),
                     "strategy": Arg(st.sampled_from([None, "inochi_daijini", ("minna_ganbare", 1)]), _NOTHING)},
    "exact_value": {"cards": Arg(st.lists(_EXACT.good, min_size=3, max_size=3),
                                 st.sampled_from([[2.5, 1, 1], [True, 1, 1], [], "abc"])),
                    "operators": _THREE_OPS,
                    # None is valid; an index past the operators is a plain ValueError (a relation)
                    "paren": Arg(st.sampled_from([None, 0, 1]), st.sampled_from([2.5, True, "1", -1]))},
    "round_half_away": {"x": _EXACT},
    "damage_from_value": {"value": _EXACT},
    "parse_skills": {"text": Arg(st.sampled_from(["", "ザラキ@pre", "かえんのいき, ザラキ@post", ["ホイミ"]]),
                                 st.sampled_from([3, None, ["x"] * 65]), key="skills")},
    "best_attack_value": {"hands": _HANDS, "operators": _OPS},
    "enumerate_plays": {"hands": _HANDS, "operators": _OPS,
                        "strategy": Arg(st.sampled_from([None, "minna_ganbare", "inochi_daijini"]), _NOTHING)},
    "achievable_values": {"hands": _HANDS, "operators": _OPS,
                          "strategy": Arg(st.sampled_from([None, "gangan_ikouze"]), _NOTHING)},
    "eval_expressions": {
        "vals": Arg(st.lists(st.integers(-5, 5), min_size=6, max_size=6).map(lambda v: np.array(v).reshape(2, 3)),
                    st.sampled_from([np.ones((2, 3)) * 1.5, "ab", np.full((2, 3), 21)])),
        "ops": Arg(st.lists(st.integers(0, 3), min_size=4, max_size=4).map(lambda v: np.array(v).reshape(2, 2)),
                   st.sampled_from([np.full((2, 2), 4), np.zeros((2, 2)), None])),
        "paren": Arg(st.integers(-1, 1), int_arg(-1, 4).bad)},
    # the deals grow as C(hand_size + 4, 4) ** n_players and the hands must fit in the deck
    "hand_distribution": {"n_players": _small(1, 2, 5), "hand_size": _small(0, 3, 200), "n_per_value": _small(2, 10, 40)},
    "exact_first_turn": {"party_size": _small(1, 2, 5), "hand_size": _small(1, 3, 20), "n_per_value": _small(2, 10, 40)},
    "value_table": {"n": _small(1, 3, 5), "ops": Arg(st.just("+-*/"), st.sampled_from([3, "", "^"]))},
    "best_damage_by_kind": {"masks": Arg(
        st.integers(1, 3).flatmap(lambda n: st.lists(st.integers(1, 31), min_size=n, max_size=n)).map(
            lambda v: np.array([v], dtype=np.int64)),
        st.sampled_from([np.ones((1, 2)), np.zeros((1, 2), np.int64), np.ones((1, 6), np.int64), [[1, 2]]]))},
    "run_battles": {"monsters": Arg(st.lists(_NAMES.map(dqz.get_monster), min_size=1, max_size=2),
                                    st.sampled_from([[], ["スライム"], 3])), "n_runs": _small(0, 5, 10**7)},
    "simulate": {"monsters": Arg(_MONSTERS.good, st.sampled_from([[], "スライム", 3])), "n_games": _small(0, 5, 10**7)},
    "simulate_battle": {**_FIELDS, "monster": _MONSTER, "n_battles": _small(0, 5, 10**7)},
    "simulate_run": {**_FIELDS, "monsters": _MONSTERS, "n_runs": _small(0, 5, 10**7)},
    "reference_battles": {"n_runs": _small(0, 2, 10**6), "party_size": _FIELDS["party_size"], "policy": _FIELDS["policy"],
                          "monsters": _MONSTERS},
}


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.dqz", public_functions(dqz), EXAMPLES, SPECIAL, max_examples=8)
