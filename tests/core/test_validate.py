"""Argument checks shared by every public function: the scenario loader's rules."""

import math

import numpy as np
import pytest

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    ParamTypeError,
    check_bool,
    check_choice,
    check_float,
    check_float_list,
    check_int,
    check_int_list,
)


def test_int_accepts_python_and_numpy_integers():
    assert check_int("n", 3, min=0) == 3
    assert type(check_int("n", np.int64(3))) is int


@pytest.mark.parametrize("bad", [2.5, 3.0, True, "3", None, np.float64(2.0)])
def test_int_refuses_other_types_naming_the_parameter(bad):
    with pytest.raises(TypeError, match=r"uses = .*must be an integer >= 1"):
        check_int("uses", bad, min=1)


def test_int_bounds_are_inclusive_and_named():
    assert check_int("k", 10, min=1, max=10) == 10
    with pytest.raises(ValueError, match=r"k = 11, must be an integer >= 1 and <= 10"):
        check_int("k", 11, min=1, max=10)
    with pytest.raises(ParamError):
        check_int("k", 0, min=1)


def test_type_errors_are_also_param_errors():
    assert issubclass(ParamTypeError, ParamError) and issubclass(ParamTypeError, TypeError)


def test_float_refuses_nan_inf_and_bools():
    assert check_float("p", 1) == 1.0
    for bad in (math.nan, math.inf):
        with pytest.raises(ValueError):
            check_float("p", bad)
    assert check_float("tol", math.inf, allow_inf=True) == math.inf
    with pytest.raises(TypeError):
        check_float("p", False)
    with pytest.raises(ValueError, match=">= 0"):
        check_float("tol", -1.0, min=0)


def test_bool_is_strict():
    assert check_bool("advanced", np.bool_(True)) is True
    for bad in ("no", 0, 1, None):
        with pytest.raises(TypeError, match="advanced"):
            check_bool("advanced", bad)


def test_choice_does_not_confuse_bools_and_ints():
    assert check_choice("mode", "a", ("a", "b")) == "a"
    assert check_choice("k", 1, (1, 2)) == 1
    with pytest.raises(ValueError, match="one of 1, 2"):
        check_choice("k", True, (1, 2))
    with pytest.raises(ValueError):
        check_choice("mode", "c", ("a", "b"))


def test_lists_check_every_element_and_the_length():
    assert check_int_list("cards", (1, 5), min=1, max=5) == [1, 5]
    assert check_int_list("s", np.array([1, 2])) == [1, 2]
    with pytest.raises(ValueError, match="cards"):
        check_int_list("cards", [5, 6], min=1, max=5)
    with pytest.raises(TypeError, match="cards"):
        check_int_list("cards", [2.5], min=1)
    with pytest.raises(TypeError):
        check_int_list("cards", "15")
    with pytest.raises(ValueError):
        check_int_list("cards", [], min=1)
    with pytest.raises(ValueError):
        check_int_list("cards", [1, 2, 3], max_len=2)
    assert check_float_list("w", [0.5, 1]) == [0.5, 1.0]
    with pytest.raises(ValueError):
        check_float_list("w", [math.nan])


# ---------------------------------------------------------------------------
# validate_params: declared constraints (issue 25 point 2)
# ---------------------------------------------------------------------------

from gamesim.core.validate import (  # noqa: E402
    Bool,
    Choice,
    Float,
    Instance,
    Int,
    IntList,
    Optional,
    Pair,
    Ref,
    Rng,
    Unchecked,
    declared_params,
    validate_params,
)


class _Rules:
    cap = 6
    n = 3


@validate_params(p=Instance(_Rules, "a _Rules"), f=Int(1, Ref("p", "cap")), hold=IntList(0, 9, min_len=Ref("p", "n"),
                 max_len=Ref("p", "n")), w=Float(-1, 1), flag=Bool(), kind=Choice(("a", "b")),
                 extra=Optional(Int(0)), pair=Pair("a pair"), rng=Rng(), hook=Unchecked("trusted"))
def _declared(p, f, hold, w=0.5, *, flag=False, kind="a", extra=None, pair=(1, 2), rng=None, hook=None, **more):
    return p, f, hold, w, flag, kind, extra, pair, rng, hook, more


def test_validate_params_checks_and_normalises_like_the_check_functions():
    p = _Rules()
    out = _declared(p, np.int64(6), np.array([1, 2, 3]), 1, flag=np.bool_(True), rng=3)
    assert type(out[1]) is int and out[2] == [1, 2, 3] and type(out[3]) is float and out[4] is True
    assert isinstance(out[8], np.random.Generator)
    assert _declared(p, 2, [0, 0, 0], more=1)[-1] == {"more": 1}  # the bind path (**kwargs)
    assert _declared(f=2, hold=[0, 0, 0], p=p)[1] == 2  # all by keyword
    for kw, key, err in [(dict(f=7), "f", ParamError), (dict(f=2.0), "f", ParamTypeError),
                         (dict(hold=[1, 2]), "hold", ParamError), (dict(hold=[1, True, 2]), "hold", ParamTypeError),
                         (dict(w=math.nan), "w", ParamError), (dict(flag=0), "flag", ParamTypeError),
                         (dict(kind="c"), "kind", ParamError), (dict(extra=-1), "extra", ParamError),
                         (dict(pair="ab"), "pair", ParamError), (dict(rng=2.5), "rng", ParamTypeError),
                         (dict(p=None), "p", ParamTypeError)]:
        args = {**dict(p=p, f=2, hold=[0, 0, 0]), **kw}
        with pytest.raises(err) as info:
            _declared(**args)
        assert type(info.value) is err and info.value.key == key
    with pytest.raises(ParamError, match=r"^f = 7, must be an integer >= 1 and <= 6$"):
        _declared(p, 7, [0, 0, 0])  # the message check_int writes


def test_validate_params_exposes_the_body_and_the_declaration():
    assert _declared.__wrapped__(None, 2.5, "x")[:3] == (None, 2.5, "x")  # unchecked
    decl = declared_params(_declared)
    assert list(decl) == ["p", "f", "hold", "w", "flag", "kind", "extra", "pair", "rng", "hook"]
    assert declared_params(len) is None


def test_validate_params_keeps_pythons_call_errors():
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'hold'"):
        _declared(_Rules(), 2)
    with pytest.raises(TypeError, match="multiple values"):
        _declared(_Rules(), 2, [0, 0, 0], f=3)


def test_validate_params_refuses_an_incomplete_declaration():
    with pytest.raises(TypeError, match="undeclared"):
        validate_params(a=Int())(lambda a, b: a)
    with pytest.raises(TypeError, match="unknown"):
        validate_params(a=Int(), c=Int())(lambda a: a)
    with pytest.raises(TypeError, match="not declared before"):
        validate_params(a=Int(0, Ref("b")), b=Int())(lambda a, b: a)
