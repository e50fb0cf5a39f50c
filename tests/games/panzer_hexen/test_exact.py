"""Exact tests of the combat rule and the calculators on hand-built fights (panzer_hexen_rules_ja.txt {2:出撃})."""

from __future__ import annotations

import itertools
import math

import pytest

from gamesim.core.registry import ParamError
from gamesim.games.panzer_hexen.data import Equipment, Neuroi, Witch, load_cards
from gamesim.games.panzer_hexen.exact import combat_table, fight_cost, policy_efficiency
from gamesim.games.panzer_hexen.rules import Fight, fight, min_mana, policy_cost


@pytest.mark.parametrize("args, expected", [
    # the witch outranges it: she strikes first; a hit ends the fight, no counter-attack
    ((5, 1, 3, 9, 5, 1), Fight(True, False)),
    # she outranges it and misses: it strikes back and hits (9 >= 1)
    ((4, 1, 3, 9, 5, 1), Fight(False, True)),
    # ... and misses too (2 < 3): nothing happens
    ((4, 3, 3, 2, 5, 1), Fight(False, False)),
    # it outranges her and hits: she drops out before striking
    ((9, 2, 1, 2, 1, 2), Fight(False, True)),
    # it outranges her and misses (attack 2 < defence 3): she strikes and hits
    ((9, 3, 1, 2, 1, 2), Fight(True, False)),
    # equal range: simultaneous, a 相討ち
    ((5, 2, 2, 2, 5, 2), Fight(True, True)),
    # attack equal to defence is a hit (以上)
    ((5, 6, 2, 5, 6, 2), Fight(False, False)),
    ((6, 5, 2, 5, 6, 2), Fight(True, True)),
])
def test_fight_on_hand_built_cases(args: tuple[int, ...], expected: Fight) -> None:
    assert fight(*args) == expected


def test_evade_prevents_the_hit() -> None:
    assert fight(9, 0, 1, 9, 1, 2, evade=True) == Fight(True, False)
    assert fight(0, 0, 2, 9, 9, 2, evade=True) == Fight(False, False)


def _brute(a: int, d: int, r: int, na: int, nd: int, nr: int, evade: bool, clean: bool) -> int:
    for total in range(0, 12):
        for x in range(total + 1):
            f = fight(a + x, d + total - x, r, na, nd, nr, evade=evade)
            if f.destroyed and (not clean or not f.hit):
                return total
    raise AssertionError("no win within 40")


def test_min_mana_matches_enumeration_of_every_split() -> None:
    for a, d, r, na, nd, nr in itertools.product(range(3), range(3), range(1, 3), range(4), range(4), range(1, 3)):
        for evade, clean in itertools.product((False, True), repeat=2):
            split = min_mana(a, d, r, na, nd, nr, evade=evade, clean=clean)
            assert sum(split) == _brute(a, d, r, na, nd, nr, evade, clean)
            f = fight(a + split[0], d + split[1], r, na, nd, nr, evade=evade)
            assert f.destroyed and (not clean or not f.hit)


def test_fight_cost_with_equipment_and_budget() -> None:
    w = Witch("w", 1, 3, 2, 1)
    n = Neuroi("n", 4, 5, 2, 2)
    c = fight_cost(w, n, budget=4)  # it strikes first: 3 to defence (2 + 3 > 4), 2 to attack (3 + 2 >= 5)
    assert (c.clean, c.clean_split, c.any) == (5, (2, 3), 5) and not c.clean_within_budget
    assert c.vp_per_mana == 0.4
    s = Equipment("s", "striker", 3, 0, 2, 1)
    g = Equipment("g", "gun", 3, 2, 0, 1)
    c = fight_cost(w, n, striker=s, gun=g, budget=0)  # 5/4 against 4/5: 1 to defence (4 >= 4 would hit)
    assert (c.clean, c.clean_split, c.clean_within_budget, c.vp_per_mana) == (1, (0, 1), False, 2.0)
    assert fight_cost(w, n, striker=s, gun=g, defence_plus=1).clean == 0
    assert fight_cost(w, n, striker=s, gun=g, defence_plus=1).vp_per_mana == math.inf
    assert fight_cost(w, n, striker=s, attack_plus=1, budget=2).clean == 2
    with pytest.raises(ParamError):
        fight_cost(w, n, striker=g)
    with pytest.raises(ParamError):
        fight_cost(w, n, budget=2.0)


def test_policy_cost_reading() -> None:
    assert policy_cost(5, owner=1, player=1, counters=2) == 3
    assert policy_cost(5, owner=0, player=1, counters=2) == 6
    assert policy_cost(5, owner=-1, player=1, counters=0) == 5
    assert policy_cost(1, owner=1, player=1, counters=3, discounts=1) == 0


def test_combat_table_is_consistent_with_fight_cost() -> None:
    cards = load_cards()
    t = combat_table(cards, budget=2)
    assert len(t) == len(cards.witches) * len(cards.neuroi)
    assert (t.clean_best <= t.clean_bare).all()
    assert (t.beatable_bare == (t.clean_bare <= 2)).all()
    need = t[~t.beatable_bare & (t.enough_strikers != "")]
    row = need.iloc[0]
    w = cards.witches[cards.witch_index(row.witch)]
    n = next(x for x in cards.neuroi if x.name == row.neuroi)
    s = next(e for e in cards.equipment if e.name == row.enough_strikers.split(",")[0])
    assert fight_cost(w, n, striker=s).clean <= 2 < fight_cost(w, n).clean


def test_policy_efficiency_sorted() -> None:
    t = policy_efficiency(load_cards())
    assert len(t) == 48 and t.vp_per_voice.is_monotonic_decreasing
    assert t.vp_per_voice.iloc[0] == max(c.vp / c.cost for c in load_cards().all_policies)
