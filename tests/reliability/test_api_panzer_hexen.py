"""Property tests of the ぱんつぁーへくせん public API.

For every public function and class of :mod:`gamesim.games.panzer_hexen`: a call whose arguments
are all of the right type and in range returns; a call with any argument of the wrong type (a
float such as ``2.0`` for a count, a bool for an int, a string for a card) or out of range raises
a ``ParamError`` (or the card file's ``DataError``) naming the parameter, quickly and before any
work: nothing is silently truncated.
"""

from __future__ import annotations

import time
import tomllib
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.panzer_hexen as ph
from gamesim.core.registry import ParamError
from gamesim.games.panzer_hexen.sim import MAX_GAMES
from tests.reliability.api_support import NOT_INT, Arg, call, draw_call, int_arg, pos

CARDS = ph.load_cards()
P0 = ph.PanzerParams()
RAW = tomllib.loads((ph.data.DATA_DIR / "illustrative.toml").read_text(encoding="utf-8"))
BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "no", None, 1.0]))
RNG = Arg(st.integers(0, 2**32 - 1), st.sampled_from([True, 2.5, "1", -1]))
PARAMS = Arg(st.sampled_from([P0, ph.PanzerParams(n_players=2, max_rounds=20)]),
             st.sampled_from([None, "p", {"n_players": 3}, 3]), keyword=False)
STAT = int_arg(0, 200, 12)
WITCH = Arg(st.sampled_from(CARDS.witches), st.sampled_from([None, "W01", 3, CARDS.neuroi[0]]), keyword=False)
NEUROI = Arg(st.sampled_from(CARDS.neuroi), st.sampled_from([None, "N01", CARDS.witches[0]]), keyword=False)
CARDSET = Arg(st.just(CARDS), st.sampled_from([None, "illustrative", 3, RAW]), keyword=False)


def _choice(options: list[Any], bad: list[Any]) -> Arg:
    return Arg(st.sampled_from(options), st.sampled_from(bad))


PLAIN = dict(
    n_players=int_arg(2, 5), start_voice=int_arg(0, 20), start_mana=int_arg(0, 20), start_neuroi=int_arg(0, 5),
    start_charge=int_arg(0, 5), start_open=int_arg(0, 10), start_counters=int_arg(0, 9),
    counter_gain=int_arg(0, 3), max_counters=int_arg(0, 9),
    decks=_choice(["mixed", "by_kind"], ["x", 1, None]), collision=_choice(["all_act", "first_only"], ["all", None]),
    priority_order=_choice(["high_first", "low_first"], ["high", 0]), bonus=BOOL,
    comms_option=_choice(["take_charge", "open_voice", "counter"], ["draw", None]), unexecuted_events=BOOL,
    end_cards=int_arg(1, 60), max_rounds=int_arg(1, 500), teams=BOOL, team_score=_choice(["sum", "min"], ["max", 1]),
)
FIGHT = {"w_attack": pos(STAT), "w_defence": pos(STAT), "w_range": pos(STAT), "n_attack": pos(STAT),
         "n_defence": pos(STAT), "n_range": pos(STAT), "evade": BOOL}

#: Every public function of panzer_hexen with its arguments (positional ones first, in order).
SPECS: dict[str, tuple[Callable[..., Any], dict[str, Arg]]] = {
    "PanzerParams": (ph.PanzerParams, PLAIN),
    "fight": (ph.fight, FIGHT),
    "min_mana": (ph.min_mana, dict(FIGHT, clean=BOOL)),
    "ambush_hit": (ph.ambush_hit, {"w_defence": pos(STAT), "n_attack": pos(STAT), "evade": BOOL}),
    "ambush_mana": (ph.ambush_mana, {"w_defence": pos(STAT), "n_attack": pos(STAT), "evade": BOOL}),
    "policy_cost": (ph.policy_cost, {"cost": pos(STAT), "owner": int_arg(-1, 4), "player": int_arg(0, 4),
                                     "counters": STAT, "discounts": STAT}),
    "fight_cost": (ph.fight_cost, {
        "witch": WITCH, "neuroi": NEUROI,
        "striker": Arg(st.sampled_from([None] + [e for e in CARDS.equipment if e.kind == "striker"]),
                       st.sampled_from(["S01", 3, CARDS.equipment[12]])),
        "gun": Arg(st.sampled_from([None] + [e for e in CARDS.equipment if e.kind == "gun"]),
                   st.sampled_from(["G01", 3, CARDS.equipment[0]])),
        "attack_plus": int_arg(0, 20), "defence_plus": int_arg(0, 20), "budget": int_arg(0, 200)}),
    "combat_table": (ph.combat_table, {"cards": CARDSET, "budget": int_arg(0, 200)}),
    "policy_efficiency": (ph.policy_efficiency, {"cards": CARDSET}),
    "load_cards": (ph.load_cards, {"data": Arg(st.just("illustrative"), st.sampled_from(
        [3, None, "", "/no/such/file.toml", "printed"]), keyword=False)}),
    "parse_cards": (ph.parse_cards, {"raw": Arg(st.just(RAW), st.sampled_from(
        [None, 3, {}, {"witches": []}, dict(RAW, extra=1)]), keyword=False)}),
    "without": (ph.without, {"cards": CARDSET, "name": Arg(st.sampled_from(["N01", "S03", "G12", "P24"]),
                                                          st.sampled_from(["W01", "", 3, None]), keyword=False)}),
    "simulate": (ph.simulate, {
        "params": PARAMS, "n_games": pos(int_arg(1, MAX_GAMES, 8)), "rng": RNG,
        "cards": Arg(st.sampled_from(["illustrative", CARDS]), st.sampled_from([3, None, "/no/such.toml"])),
        "policies": _choice(["random", "greedy"], ["nope", 3, None, ["random"]]),
        "seat0_witch": _choice([None, "W01", "W11"], ["W99", 3, ""]),
        "rollout_k": int_arg(1, 64), "rollout_horizon": int_arg(1, 20), "chunk_size": int_arg(1, 10**6, 8)}),
    "reference_simulate": (ph.reference_simulate, {
        "p": PARAMS, "n_games": pos(int_arg(1, 100_000, 2)), "rng": RNG,
        "policies": _choice(["random", "greedy"], ["rollout", 3, None]),
        "seat0_witch": _choice([None, "W02"], ["W99", 3])}),
    "reference_game": (ph.reference_game, {
        "p": Arg(st.just(ph.PanzerParams(n_players=2, max_rounds=20)), st.sampled_from([None, 3]), keyword=False),
        "cards": CARDSET,
        "policies": Arg(st.sampled_from([("random", "greedy"), ("greedy", "greedy")]),
                        st.sampled_from([("random",), "random", ("rollout", "random"), None]), keyword=False),
        "rng": Arg(st.integers(0, 99).map(np.random.default_rng), st.sampled_from([None, 3, "r"]), keyword=False),
        "seat0": int_arg(-1, 10)}),
}


@pytest.mark.parametrize("name", list(SPECS))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_public_function_accepts_valid_and_refuses_everything_else(name: str, data: st.DataObject) -> None:
    fn, spec = SPECS[name]
    values, bad = draw_call(fn, spec, data)
    t0 = time.perf_counter()
    if bad:
        with pytest.raises((TypeError, ValueError)) as info:
            call(fn, spec, values)
        assert time.perf_counter() - t0 < 2.0, f"{name} was slow to refuse {bad}"
        assert isinstance(info.value, (ParamError, ph.DataError)), repr(info.value)
        if isinstance(info.value, ParamError):
            assert info.value.key in spec or info.value.key in bad or name == "PanzerParams", str(info.value)
    else:
        try:
            out = call(fn, spec, values)
        except ParamError as exc:  # the one cross-field rule: 2VS2 needs 4 players
            assert name == "PanzerParams" and exc.key == "teams", str(exc)
            return
        assert out is not None
        assert time.perf_counter() - t0 < 20.0, name


@pytest.mark.parametrize("call, key", [
    (lambda: ph.fight(2.0, 1, 1, 1, 1, 1), "w_attack"),  # would have been truncated
    (lambda: ph.fight(True, 1, 1, 1, 1, 1), "w_attack"),
    (lambda: ph.min_mana(1, 1, 1, 1, 1, 1, clean=1), "clean"),
    (lambda: ph.PanzerParams(n_players=6), "n_players"),
    (lambda: ph.PanzerParams(teams=True), "teams"),
    (lambda: ph.PanzerParams(bonus=1), "bonus"),
    (lambda: ph.simulate(P0, 10**12), "n_games"),
    (lambda: ph.simulate(P0, 10, rng=True), "rng"),
    (lambda: ph.simulate(P0, 10, policies=["greedy"] * 2), "policies"),
    (lambda: ph.fight_cost(CARDS.witches[0], CARDS.neuroi[0], gun=CARDS.equipment[0]), "gun"),
    (lambda: ph.policy_cost(3, owner=5, player=0, counters=0), "owner"),
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str) -> None:
    t0 = time.perf_counter()
    with pytest.raises(ParamError) as info:
        call()
    assert time.perf_counter() - t0 < 1.0
    assert info.value.key == key, str(info.value)


def test_records() -> None:
    assert isinstance(ph.load_cards(), ph.CardSet) and issubclass(ph.DataError, ValueError)
    assert isinstance(ph.fight(1, 1, 1, 1, 1, 1), ph.Fight)
    assert isinstance(ph.fight_cost(CARDS.witches[0], CARDS.neuroi[0]), ph.FightCost)
    w, n = CARDS.witches[0], CARDS.neuroi[0]
    assert isinstance(w, ph.Witch) and isinstance(n, ph.Neuroi)
    assert isinstance(CARDS.equipment[0], ph.Equipment) and isinstance(CARDS.policies[0], ph.Policy)
