"""Shared pieces of the spec-driven strict-API property tests (issue 9, points 4 and 5).

A game's test module lists, per public function, an :class:`Arg` for every argument: how to
draw a valid value and how to draw an invalid one. The tests then draw calls mixing valid,
invalid and default arguments and check that valid calls return and invalid ones are
refused quickly with a :class:`gamesim.core.registry.ParamError` naming the parameter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from hypothesis import strategies as st


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
