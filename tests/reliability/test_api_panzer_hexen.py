"""Property tests of the ぱんつぁーへくせん public API.

For every public function and class of :mod:`gamesim.games.panzer_hexen`: a call whose arguments
are all of the right type and in range returns; a call with any argument of the wrong type (a
float such as ``2.0`` for a count, a bool for an int, a string for a card) or out of range raises
a ``ParamError`` (or the card file's ``DataError``) naming the parameter, quickly and before any
work: nothing is silently truncated.

``test_declared_function_strict`` draws its calls from the functions' ``validate_params``
declarations (issue 25 point 2): every public function must carry one (a new function without
it fails), and only what a declaration cannot say is written here (:data:`SPECIAL`). The data
classes (:class:`PanzerParams`) check in ``__post_init__`` and keep a hand-written spec (``PLAIN``).
"""

from __future__ import annotations

import tomllib
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gamesim.games.panzer_hexen as ph
from gamesim.core.registry import ParamError
from gamesim.core.validate import declared_params
from tests.reliability.api_support import (
    Arg,
    call,
    declared_api_tests,
    public_functions,
    declared_arg,
    draw_call,
    int_arg,
    refused_fast,
    refused_with_key,
)

CARDS = ph.load_cards()
P0 = ph.PanzerParams()
RAW = tomllib.loads((ph.data.DATA_DIR / "illustrative.toml").read_text(encoding="utf-8"))
BOOL = Arg(st.booleans(), st.sampled_from([0, 1, "no", None, 1.0]))
PARAMS = [P0, ph.PanzerParams(n_players=2, max_rounds=20)]
#: Valid values for ``Instance`` arguments.
EXAMPLES = {ph.PanzerParams: PARAMS, ph.CardSet: [CARDS], ph.Witch: list(CARDS.witches),
            ph.Neuroi: list(CARDS.neuroi)}


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


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(data=st.data())
def test_params_accept_valid_and_refuse_everything_else(data: st.DataObject) -> None:
    # a data class: it checks in __post_init__, not by a declaration
    values, bad = draw_call(ph.PanzerParams, PLAIN, data)
    if bad:
        with pytest.raises(ParamError) as info:
            call(ph.PanzerParams, PLAIN, values)
        assert info.value.key in bad or info.value.key == "teams", str(info.value)
        return
    try:
        assert isinstance(call(ph.PanzerParams, PLAIN, values), ph.PanzerParams)
    except ParamError as exc:  # the one cross-field rule: 2VS2 needs 4 players
        assert exc.key == "teams" and values.get("teams") and values.get("n_players", 3) != 4, str(exc)


def test_card_file_errors_are_data_errors() -> None:
    # what the parsers refuse is a DataError (a ValueError naming the file and card), not a ParamError,
    # so these stay explicit: SPECIAL draws only valid raw tables and card names
    for bad in ("/no/such/file.toml", "printed"):
        with pytest.raises(ph.DataError):
            ph.load_cards(bad)
    for raw in (None, 3, {}, {"witches": []}, dict(RAW, extra=1)):
        with pytest.raises(ph.DataError):
            ph.parse_cards(raw)
    for name in ("W01", "", 3, None):
        with pytest.raises(ph.DataError):
            ph.without(CARDS, name)
    with pytest.raises(ph.DataError):  # the reference loads a card file itself
        ph.reference_simulate(P0, 1, cards="/no/such.toml")
    assert "cards" in str(refused_fast(ph.simulate, P0, 1, cards="/no/such.toml"))  # simulate names the argument


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
    # the documented limits, pinned here (the generated tests take them from the declarations)
    (lambda: ph.fight(1, 1, 201, 1, 1, 1), "w_range"),
    (lambda: ph.ambush_mana(1, 201), "n_attack"),
    (lambda: ph.policy_cost(201, owner=0, player=0, counters=0), "cost"),
    (lambda: ph.policy_cost(3, owner=0, player=5, counters=0), "player"),
    (lambda: ph.fight_cost(CARDS.witches[0], CARDS.neuroi[0], attack_plus=21), "attack_plus"),
    (lambda: ph.combat_table(CARDS, budget=201), "budget"),
    (lambda: ph.simulate(P0, 10, chunk_size=10**6 + 1), "chunk_size"),
    (lambda: ph.simulate(P0, 10, rollout_k=65), "rollout_k"),
    (lambda: ph.simulate(P0, 10, rollout_horizon=21), "rollout_horizon"),
    (lambda: ph.reference_simulate(P0, 100_001), "n_games"),
    (lambda: ph.reference_game(P0, CARDS, ["greedy"] * 3, np.random.default_rng(0), seat0=len(CARDS.witches)),
     "seat0"),
])
def test_examples_are_refused_naming_the_parameter(call: Callable[[], Any], key: str) -> None:
    refused_with_key(call, key)


def test_records() -> None:
    assert isinstance(ph.load_cards(), ph.CardSet) and issubclass(ph.DataError, ValueError)
    assert isinstance(ph.fight(1, 1, 1, 1, 1, 1), ph.Fight)
    assert isinstance(ph.fight_cost(CARDS.witches[0], CARDS.neuroi[0]), ph.FightCost)
    w, n = CARDS.witches[0], CARDS.neuroi[0]
    assert isinstance(w, ph.Witch) and isinstance(n, ph.Neuroi)
    assert isinstance(CARDS.equipment[0], ph.Equipment) and isinstance(CARDS.policies[0], ph.Policy)


# ---------------------------------------------------------------------------
# Generated from the declarations (issue 25 point 2)
# ---------------------------------------------------------------------------

_NOTHING = st.nothing()


def _narrow(fn: Callable[..., Any], name: str, good: st.SearchStrategy) -> Arg:
    """The declared bad values of ``fn``'s ``name``, with valid values narrower than declared (fast calls)."""
    return Arg(good, declared_arg(declared_params(fn)[name], {}, EXAMPLES).bad)


CARDS_ARG = Arg(st.sampled_from(["illustrative", CARDS]), st.sampled_from([3, None, 2.5]))
#: A small card set for combat_table (every witch x ネウロイ x equipment pair: 0.1 s with CARDS).
SMALL_CARDS = ph.CardSet(CARDS.witches[:2], CARDS.neuroi[:3],
                         tuple([e for e in CARDS.equipment if e.kind == "striker"][:2]
                               + [e for e in CARDS.equipment if e.kind == "gun"][:2]), CARDS.policies[:2], "small")
SEAT0_WITCH = Arg(st.sampled_from([None, "W01", "W11"]), st.sampled_from(["W99", 3, "", b"W01"]))

#: What the declarations cannot say, by function and parameter: ``Unchecked`` arguments (checked
#: in the body, or a parser's input whose errors are DataErrors, tested above), the equipment's
#: kind, and valid values narrower than declared where a large one is slow (games to play).
SPECIAL: dict[str, dict[str, Arg]] = {
    "combat_table": {"cards": _narrow(ph.combat_table, "cards", st.just(SMALL_CARDS))},
    "fight_cost": {
        "striker": Arg(st.sampled_from([None] + [e for e in CARDS.equipment if e.kind == "striker"]),
                       st.sampled_from(["S01", 3, next(e for e in CARDS.equipment if e.kind == "gun")])),
        "gun": Arg(st.sampled_from([None] + [e for e in CARDS.equipment if e.kind == "gun"]),
                   st.sampled_from(["G01", 3, next(e for e in CARDS.equipment if e.kind == "striker")])),
    },
    "load_cards": {"data": Arg(st.sampled_from(["illustrative", ph.data.DATA_DIR / "illustrative.toml"]),
                               st.sampled_from([3, None, "", b"illustrative"]))},
    "parse_cards": {"raw": Arg(st.just(RAW), _NOTHING), "source": Arg(st.text(max_size=5), _NOTHING)},
    "without": {"name": Arg(st.sampled_from(["N01", "S03", "G12", "P24"]), _NOTHING)},
    "simulate": {
        "n_games": _narrow(ph.simulate, "n_games", st.integers(1, 8)),
        "cards": Arg(CARDS_ARG.good, st.one_of(CARDS_ARG.bad, st.just("/no/such.toml"))),
        # one name for every seat: a list's length must be params.n_players, drawn before it
        "policies": Arg(st.sampled_from(["random", "greedy"]),
                        st.sampled_from(["nope", 3, None, ["random"], ("greedy",) * 6, ("greedy", "nope", "nope")])),
        "seat0_witch": SEAT0_WITCH,
        "chunk_size": _narrow(ph.simulate, "chunk_size", st.integers(1, 8)),
    },
    "reference_simulate": {
        "n_games": _narrow(ph.reference_simulate, "n_games", st.integers(1, 2)),
        "cards": CARDS_ARG,
        "policies": Arg(st.sampled_from(["random", "greedy"]), st.sampled_from(["rollout", 3, None])),
        "seat0_witch": SEAT0_WITCH,
    },
    "reference_game": {
        "p": Arg(st.just(ph.PanzerParams(n_players=2, max_rounds=20)), st.sampled_from([None, 3, "p"])),
        "rng": Arg(st.integers(0, 99).map(np.random.default_rng), st.sampled_from([None, 3, "r"])),
        "policies": Arg(st.sampled_from([("random", "greedy"), ["greedy", "greedy"]]),
                        st.sampled_from([("random",), "random", ("rollout", "random"), None, ("greedy",) * 3])),
    },
}

#: Public functions tested by hand instead (none: every one has a declaration the tests draw from).
BY_HAND: dict[str, str] = {}


test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(
    "gamesim.games.panzer_hexen", public_functions(ph), EXAMPLES, SPECIAL,
    by_hand=BY_HAND, max_examples=12, returns_value=True)
