"""Shared pieces of the spec-driven strict-API property tests (issue 9, points 4 and 5).

A game's test module lists, per public function, an :class:`Arg` for every argument: how to
draw a valid value and how to draw an invalid one. The tests then draw calls mixing valid,
invalid and default arguments and check that valid calls return and invalid ones are
refused quickly with a :class:`gamesim.core.registry.ParamError` naming the parameter.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import strategies as st

from gamesim.core.registry import ParamError


@dataclass(frozen=True)
class Arg:
    """One argument: how to draw a valid value, and how to draw an invalid one."""

    good: st.SearchStrategy
    bad: st.SearchStrategy
    keyword: bool = True


#: Values that are not integers: floats (integral ones too: 3.0 is not an integer here),
#: bools, strings, None and lists.
NOT_INT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, 5).map(float),
    st.booleans(),
    st.text(max_size=3),
    st.none(),
    st.just([1]),
)


def int_arg(lo: int, hi: int, small: int | None = None, keyword: bool = True) -> Arg:
    """An integer in [lo, hi]; valid draws stay in [lo, small] so accepted calls are fast."""
    top = hi if small is None else min(small, hi)
    bad = st.one_of(NOT_INT, st.integers(hi + 1, hi + 10**12), st.integers(lo - 10**6, lo - 1),
                    st.sampled_from([10**21, 10**30]))
    return Arg(st.integers(lo, top), bad, keyword)


def pos(arg: Arg) -> Arg:
    """The same argument, passed positionally."""
    return Arg(arg.good, arg.bad, keyword=False)


def call(fn: Callable[..., Any], spec: dict[str, Arg], values: dict[str, Any]) -> Any:
    """Call ``fn`` with ``values``: positional arguments in spec order, the rest by keyword."""
    args = [values[k] for k, a in spec.items() if not a.keyword and k in values]
    kw = {k: v for k, v in values.items() if spec[k].keyword}
    return fn(*args, **kw)


def draw_call(fn: Callable[..., Any], spec: dict[str, Arg], data: st.DataObject, *,
              good_weight: int = 3) -> tuple[dict[str, Any], list[str]]:
    """Draw the arguments of one call of ``fn``: each valid, invalid or left at its default.

    Returns the argument values and the names of the invalid ones (empty: a valid call).
    Required and positional arguments are never left out; an argument with no invalid
    values is drawn valid instead.
    """
    params = inspect.signature(fn).parameters
    required = {k for k, p in params.items() if p.default is p.empty and k in spec}
    values: dict[str, Any] = {}
    bad: list[str] = []
    for k, arg in spec.items():
        options = ["good"] * good_weight + ["bad"] + (["default"] if k not in required else [])
        mode = data.draw(st.sampled_from(options), label=k)
        if mode == "default" or (mode == "bad" and arg.bad.is_empty):
            if k in required or not arg.keyword:
                values[k] = data.draw(arg.good, label=k)
            continue
        if mode == "bad":
            bad.append(k)
        values[k] = data.draw(arg.bad if mode == "bad" else arg.good, label=k)
    return values, bad


#: A refusal must come back well within this many seconds.
FAST_S = 0.5


def junk_or(valid: st.SearchStrategy, also: tuple[Any, ...] = ()) -> st.SearchStrategy:
    """A valid value two times in three, else anything a confused caller might pass where a
    small value is expected: floats (nan, inf), bools, short strings, huge or negative
    integers, a list, and the values in ``also``."""
    junk = st.one_of(
        st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.text(max_size=3),
        st.integers(min_value=-10**12, max_value=10**12), st.just([1]),
        *(st.just(v) for v in also),
    )
    return st.one_of(valid, valid, junk)


def refused_fast(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> BaseException:
    """Call ``fn``, expect a ``ValueError`` or ``TypeError`` within :data:`FAST_S`, return it."""
    t0 = time.perf_counter()
    with pytest.raises((ValueError, TypeError)) as exc:
        fn(*args, **kwargs)
    assert time.perf_counter() - t0 < FAST_S, "refusal too slow"
    return exc.value


def refused_names(fn: Callable[..., Any], name: str, *args: Any, **kwargs: Any) -> None:
    """Call ``fn``, expect a ``ParamError`` or ``TypeError`` whose message names ``name``."""
    with pytest.raises((ParamError, TypeError)) as exc:
        fn(*args, **kwargs)
    assert name in str(exc.value)
