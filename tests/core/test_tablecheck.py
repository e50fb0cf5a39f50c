"""One check of unknown keys for every TOML table, and one set of data-file field checks.

The messages are pinned in full: they are what a designer reads, and every table (scenario top
level, parts, [precision], [compare], [target], its constraints and ranges, [sensitivity])
must keep the wording it had when each wrote its own check.
"""

from __future__ import annotations

import pytest

from gamesim.core.datafile import FieldChecks
from gamesim.core.scenario import ScenarioError, load_scenario
from gamesim.core.search import load_target_scenario
from gamesim.core.sensitivity import parse_sensitivity
from gamesim.core.tablecheck import check_keys, is_int_value, is_number_value


class _Err(ValueError):
    pass


def test_check_keys_names_first_unknown_key_and_allowed_list() -> None:
    check_keys({"a": 1, "b": 2}, ["a", "b"], where="f.toml", error=_Err)  # all known: no error
    with pytest.raises(_Err) as info:
        check_keys({"a": 1, "zz": 2, "c": 3}, ["b", "a"], where="f.toml", at="parts[0]", error=_Err)
    assert str(info.value) == "f.toml: unknown key parts[0].zz; allowed keys: b, a"


def test_check_keys_top_level_uses_repr_and_smallest_when_asked() -> None:
    with pytest.raises(ValueError, match=r"^f: unknown key 'x'; allowed keys: a$"):
        check_keys(["x"], ["a"], where="f")
    with pytest.raises(_Err, match=r"^f: unknown key r.b; allowed keys: max, min, step$"):
        check_keys(["z", "b"], ["max", "min", "step"], where="f", at="r", error=_Err, report="smallest")
    with pytest.raises(_Err, match=r"^f: unknown key r.z; "):
        check_keys(["z", "b"], ["max", "min", "step"], where="f", at="r", error=_Err)


@pytest.mark.parametrize("v, is_int, is_num", [
    (1, True, True), (True, False, False), (1.5, False, True), (float("nan"), False, False),
    (float("inf"), False, False), ("1", False, False), (None, False, False),
])
def test_toml_number_predicates(v, is_int, is_num) -> None:
    assert is_int_value(v) is is_int
    assert is_number_value(v) is is_num


_GODTEAR = {"game": "godtear", "n_trials": 100, "chunk_size": 100,
            "parts": [{"name": "ko", "task": "knockout", "params": {"dodge": 3, "protection": 2, "health": 5,
                                                                     "uses": 2}}]}


def _raw(**extra):
    out = {k: (list(v) if isinstance(v, list) else v) for k, v in _GODTEAR.items()}
    out["parts"] = [dict(p) for p in _GODTEAR["parts"]]
    out.update(extra)
    return out


def _message(fn) -> str:
    with pytest.raises(ScenarioError) as info:
        fn()
    return str(info.value)


def test_scenario_tables_keep_their_messages() -> None:
    from gamesim.core.scenario import _TOP_KEYS

    assert _message(lambda: load_scenario(_raw(colour=1))) == (
        f"<scenario dict>: unknown key 'colour'; allowed keys: {', '.join(_TOP_KEYS)}")
    raw = _raw()
    raw["parts"][0]["colour"] = 1
    assert _message(lambda: load_scenario(raw)) == (
        "<scenario dict>: unknown key parts[0].colour; allowed keys: "
        "cases, findings, grid, n_trials, name, params, question, task, title")
    assert _message(lambda: load_scenario(_raw(precision={"metric": "knockout", "width": 1}))) == (
        "<scenario dict>: unknown key precision.width; allowed keys: half_width, max_trials, metric")
    assert _message(lambda: load_scenario(_raw(compare={"base": 1}))) == (
        "<scenario dict>: unknown key compare.base; allowed keys: baseline, better, crn, metrics, pairs")


def test_target_and_sensitivity_tables_keep_their_messages() -> None:
    target = {"params": {"damage": [3, 5]}, "constraints": [{"metric": "knockout", "low": 0.5}]}
    msg = _message(lambda: load_target_scenario(_raw(target={**target, "nope": 1})))
    assert msg.startswith("<scenario dict>: unknown key target.nope; allowed keys: part, params, constraints, alpha,")
    bad = {**target, "constraints": [{"metric": "knockout", "low": 0.5, "lo": 1}]}
    assert _message(lambda: load_target_scenario(_raw(target=bad))) == (
        "<scenario dict>: unknown key target.constraints[0].lo; allowed keys: "
        "high, low, metric, monotone, statistic, tolerance, value")
    bad = {**target, "params": {"damage": {"min": 1, "max": 3, "z": 1, "by": 2}}}
    assert _message(lambda: load_target_scenario(_raw(target=bad))) == (
        "<scenario dict>: unknown key target.params.damage.by; allowed keys: max, min, step")
    sc, _, _ = load_target_scenario(_raw())
    assert _message(lambda: parse_sensitivity({"metric": "knockout", "bogus": 1}, sc, where="s.toml")) == (
        "s.toml: unknown key sensitivity.bogus; allowed keys: metric, n_base, n_boot, n_trials, params, part, "
        "statistic, use_exact")


def test_field_checks_messages() -> None:
    check = FieldChecks(_Err)
    assert check.integer("f.toml: mech 'A'", "armour", 3, 0, 9) == 3
    assert check.boolean("w", "x", False) is False
    assert check.string("w", "name", "ok") == "ok"
    assert check.choice("w", "kind", "gun", ("striker", "gun")) == "gun"
    check.keys("w", {"a": 1}, {"a", "b"})
    cases = [
        (lambda: check.integer("f.toml: mech 'A'", "armour", 12, 0, 9),
         "f.toml: mech 'A': armour = 12, must be an integer in [0, 9]"),
        (lambda: check.integer("w", "n", True, 0, 9), "w: n = True, must be an integer in [0, 9]"),
        (lambda: check.integer("w", "n", 2.0, 0, 9), "w: n = 2.0, must be an integer in [0, 9]"),
        (lambda: check.boolean("w", "x", 1), "w: x = 1, must be true or false"),
        (lambda: check.string("w", "name", "  "), "w: name = '  ', must be a non-empty string"),
        (lambda: check.choice("w", "kind", "tank", ("striker", "gun")),
         "w: kind = 'tank', unknown kind; allowed: striker, gun"),
        (lambda: check.keys("w", {"a": 1, "q": 2}, {"b", "a"}), "w: unknown field 'q'; allowed: a, b"),
    ]
    for fn, message in cases:
        with pytest.raises(_Err) as info:
            fn()
        assert str(info.value) == message
    assert str(check.fail("w", "what")) == "w: what" and isinstance(check.fail("w", "x"), _Err)
