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
