"""Shared pieces of the spec-driven strict-API property tests (issue 9, points 4 and 5).

A game's test module lists, per public function, an :class:`Arg` for every argument: how to
draw a valid value and how to draw an invalid one. The tests then draw calls mixing valid,
invalid and default arguments and check that valid calls return and invalid ones are
refused quickly with a :class:`gamesim.core.registry.ParamError` naming the parameter.

For a function declared with :func:`gamesim.core.validate.validate_params`, the arguments
are drawn from the declaration itself (:func:`declared_arg`, :func:`draw_declared_call`,
:func:`check_declared_call`, issue 25 point 2): only what a declaration cannot say (an
``Unchecked`` argument, a ``Pair``'s items, examples of an ``Instance``) is written by hand.
"""

from __future__ import annotations

import inspect
import math
import time
from dataclasses import dataclass
from collections.abc import Iterable, Mapping
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamesim.core.registry import ParamError
from gamesim.core.validate import (
    Bool,
    Choice,
    Constraint,
    Float,
    FloatList,
    Instance,
    Int,
    IntList,
    Optional,
    Ref,
    Rng,
    declared_params,
)


@dataclass(frozen=True)
class Arg:
    """One argument: how to draw a valid value, and how to draw an invalid one."""

    good: st.SearchStrategy
    bad: st.SearchStrategy
    keyword: bool = True
    #: The parameter name a refusal carries when it is not the argument's own (a parser's).
    key: str | None = None


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


#: A refusal must come back within this many CPU-seconds of the test's process: an argument that would
#: hang (10**9 games) is refused before any work, so a refusal costs milliseconds. Measured as CPU time
#: (``time.process_time``), not wall time, and generous (a first call may import scipy, about 1 s), so
#: a loaded machine cannot fail it; a simulation of the refused size would take minutes.
FAST_S = 5.0


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
    """Call ``fn``, expect a ``ValueError`` or ``TypeError`` within :data:`FAST_S` CPU-seconds, return it."""
    t0 = time.process_time()
    with pytest.raises((ValueError, TypeError)) as exc:
        fn(*args, **kwargs)
    assert time.process_time() - t0 < FAST_S, "refusal too slow"
    return exc.value


def refused_with_key(call: Callable[[], Any], key: str) -> None:
    """Call ``call()``, expect a ``ParamError`` whose ``key`` is ``key`` within :data:`FAST_S` CPU-seconds."""
    t0 = time.process_time()
    with pytest.raises(ParamError) as info:
        call()
    assert time.process_time() - t0 < FAST_S, "refusal too slow"
    assert info.value.key == key, str(info.value)


def refused_names(fn: Callable[..., Any], name: str, *args: Any, **kwargs: Any) -> None:
    """Call ``fn``, expect a ``ParamError`` or ``TypeError`` whose message names ``name``."""
    with pytest.raises((ParamError, TypeError)) as exc:
        fn(*args, **kwargs)
    assert name in str(exc.value)



# ---------------------------------------------------------------------------
# Strategies drawn from a validate_params declaration (issue 25 point 2)
# ---------------------------------------------------------------------------

#: Valid integers are drawn in [min, min + SMALL] so that accepted calls stay fast.
SMALL = 30


def _resolve(bound: Any, context: dict[str, Any]) -> Any:
    return bound.resolve(context) if isinstance(bound, Ref) else bound


def _list_bad(elem_bad: st.SearchStrategy, elem_good: st.SearchStrategy, lo_len: int, hi_len: int | None
              ) -> st.SearchStrategy:
    """Invalid sequences: a bad element anywhere, a wrong length, a string, None, a scalar."""
    n = max(lo_len, 1)
    one_bad = st.tuples(st.lists(elem_good, min_size=n - 1, max_size=n - 1), elem_bad, st.integers(0, n - 1)).map(
        lambda t: t[0][:t[2]] + [t[1]] + t[0][t[2]:])
    options = [one_bad, st.sampled_from(["abc", None, 3, 2.5])]
    if lo_len > 0:
        options.append(st.lists(elem_good, max_size=lo_len - 1))
    if hi_len is not None:
        # a list one longer than allowed; a long one built by repetition (Hypothesis cannot draw
        # lists of more than a few thousand items, e.g. gacha's 10,000 sessions)
        if hi_len < 1000:
            options.append(st.lists(elem_good, min_size=hi_len + 1, max_size=hi_len + 2))
        else:
            options.append(elem_good.map(lambda v: [v] * (hi_len + 1)))
    return st.one_of(options)


def declared_arg(c: Constraint, context: dict[str, Any], examples: dict[type, list[Any]]) -> Arg:
    """Good and bad strategies for one declared argument (bounds resolved against ``context``).

    ``Int`` -> integers in range (Python and numpy) vs floats (2.9, 3.0, nan), bools, strings,
    None, a list and integers out of range; ``Float`` -> finite floats in range vs nan, inf,
    out of range, bools, strings; ``Bool`` -> True/False vs 0, 1, "no", None; ``Choice`` ->
    the values vs other strings, None, numbers; ``IntList``/``FloatList`` -> lists of good
    elements of an allowed length vs one bad element, a wrong length, a string, None;
    ``Instance`` -> the ``examples`` of its class vs None, numbers, strings; ``Rng`` -> seeds,
    Generators, None vs bools, floats, strings, negative seeds; ``Optional`` -> None or the
    inner good values vs the inner bad ones. ``Unchecked`` and ``Pair`` (whose items the body
    checks) need a hand-written :class:`Arg`: this raises ``LookupError`` for them.
    """
    if isinstance(c, Int):
        lo, hi = _resolve(c.min, context), _resolve(c.max, context)
        base = lo if lo is not None else (hi - SMALL if hi is not None else -SMALL)
        top = base + SMALL if hi is None else min(hi, base + SMALL)
        good = st.integers(base, top)
        out = [NOT_INT, st.just(2.9), st.sampled_from([float(base), float(top)])]
        if hi is not None:
            out.append(st.integers(hi + 1, hi + 10**12))
        if lo is not None:
            out.append(st.integers(lo - 10**6, lo - 1))
        return Arg(st.one_of(good, good.map(np.int64)), st.one_of(out))
    if isinstance(c, Float):
        lo, hi = _resolve(c.min, context), _resolve(c.max, context)
        good = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
        out = [st.just(math.nan), st.booleans(), st.text(max_size=3), st.none()]
        if not c.allow_inf:
            out.append(st.sampled_from([math.inf, -math.inf]))
        if hi is not None:
            out.append(st.floats(min_value=hi, exclude_min=True, allow_nan=False, allow_infinity=False))
        if lo is not None:
            out.append(st.floats(max_value=lo, exclude_max=True, allow_nan=False, allow_infinity=False))
        return Arg(good, st.one_of(out))
    if isinstance(c, Bool):
        return Arg(st.one_of(st.booleans(), st.booleans().map(np.bool_)),
                   st.sampled_from([0, 1, "no", "yes", None, 1.0]))
    if isinstance(c, Choice):
        vals = c.values
        return Arg(st.sampled_from(vals), st.one_of(
            st.text(max_size=4).filter(lambda v: v not in vals), st.none(), st.just(2.5), st.just(True)))
    if isinstance(c, (IntList, FloatList)):
        lo, hi = _resolve(c.min, context), _resolve(c.max, context)
        lo_len, hi_len = _resolve(c.min_len, context), _resolve(c.max_len, context)
        top_len = lo_len + 3 if hi_len is None else min(hi_len, lo_len + 3)
        if isinstance(c, FloatList):
            elem = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
            elem_bad = st.one_of(st.just(math.nan), st.just(True), st.just("x"), st.none())
        else:
            base = lo if lo is not None else 0
            elem = st.integers(base, base + 3 if hi is None else min(hi, base + 3))
            elem_bad = st.one_of(st.just(1.5), st.just(2.0), st.just(True), st.just("x"), st.none())
        if hi is not None:
            elem_bad = st.one_of(elem_bad, st.just(hi + 1))
        if lo is not None:
            elem_bad = st.one_of(elem_bad, st.just(lo - 1))
        return Arg(st.lists(elem, min_size=lo_len, max_size=top_len), _list_bad(elem_bad, elem, lo_len, hi_len))
    if isinstance(c, Instance):
        cls = c.cls if isinstance(c.cls, type) else c.cls[0]
        if not examples.get(cls):
            raise LookupError(f"no example of {cls.__name__} for an Instance argument")
        return Arg(st.sampled_from(examples[cls]), st.sampled_from([None, 0, 2.5, "x", (1, 2)]))
    if isinstance(c, Rng):
        return Arg(st.one_of(st.none(), st.integers(0, 2**63), st.integers(0, 2**32).map(np.random.default_rng)),
                   st.sampled_from([True, False, 2.5, "x", -1]))
    if isinstance(c, Optional):
        inner = declared_arg(c.inner, context, examples)
        return Arg(st.one_of(st.none(), inner.good), inner.bad.filter(lambda v: v is not None))
    raise LookupError(f"{type(c).__name__} needs a hand-written Arg")


def draw_declared_call(fn: Callable[..., Any], data: st.DataObject, examples: dict[type, list[Any]],
                       special: dict[str, Arg] | None = None, *, good_weight: int = 3
                       ) -> tuple[tuple[Any, ...], dict[str, Any], list[str]]:
    """Draw one call of a declared function: each argument valid, invalid or left at its default.

    Arguments are drawn in declaration order; a :class:`~gamesim.core.validate.Ref` bound is
    resolved against the (valid) value drawn for the argument it names, or, when that one was
    drawn invalid, against a valid stand-in. ``special`` (by parameter name) replaces the
    declared strategies; it is required for ``Unchecked`` and ``Pair`` arguments (the test fails
    otherwise, so an argument cannot be left untested). Arguments go positionally or by
    keyword at random.

    Returns
    -------
    (args, kwargs, bad)
        The call, and the names a refusal may carry (empty: a valid call).
    """
    decl = declared_params(fn)
    if decl is None:
        pytest.fail(f"{fn.__module__}.{fn.__qualname__} has no validate_params declaration")
    special = special or {}
    params = inspect.signature(fn).parameters
    context: dict[str, Any] = {}
    values: dict[str, Any] = {}
    bad: list[str] = []
    for name, c in decl.items():
        try:
            arg = special[name] if name in special else declared_arg(c, context, examples)
        except LookupError as exc:
            pytest.fail(f"{fn.__qualname__}({name}=...): {exc}; give it in special")
        has_default = params[name].default is not params[name].empty
        options = ["good"] * good_weight + (["bad"] if not arg.bad.is_empty else []) + (["default"] if has_default else [])
        mode = data.draw(st.sampled_from(options), label=f"{name} mode")
        if mode == "default":
            context[name] = params[name].default
            continue
        if mode == "bad":
            values[name] = data.draw(arg.bad, label=name)
            bad.append(arg.key or name)
            context[name] = data.draw(arg.good, label=f"{name} stand-in")
        else:
            values[name] = context[name] = data.draw(arg.good, label=name)
    args: list[Any] = []
    kwargs = dict(values)
    if not data.draw(st.booleans(), label="by keyword"):
        for name, p in params.items():
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or name not in kwargs:
                break
            args.append(kwargs.pop(name))
    return tuple(args), kwargs, bad


def check_declared_call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], bad: list[str]) -> Any:
    """A valid call returns; an invalid one raises a ``ParamError`` naming one of ``bad``, fast."""
    if not bad:
        return fn(*args, **kwargs)
    t0 = time.process_time()
    with pytest.raises(ParamError) as exc:
        fn(*args, **kwargs)
    assert time.process_time() - t0 < FAST_S, "refusal too slow"
    assert exc.value.key in bad, f"{exc.value!r} names none of {bad}"
    return exc.value


def check_all_declared(where: str, functions: Mapping[str, Callable[..., Any]], *named: Iterable[str]) -> None:
    """Every function of ``functions`` (name -> function) carries a ``validate_params`` declaration, and
    every name in ``named`` (e.g. a test file's ``SPECIAL`` and ``BY_HAND`` tables) is one of them."""
    undeclared = [n for n, f in functions.items() if declared_params(f) is None]
    assert not undeclared, f"{where}: no validate_params declaration on {undeclared}"
    for names in named:
        assert set(names) <= set(functions), f"{where}: {sorted(set(names) - set(functions))} are not its functions"


def check_declared_strict(fn: Callable[..., Any], data: Any, examples: dict[type, list[Any]],
                          special: dict[str, Arg] | None = None, *, returns_value: bool = False,
                          one_line: bool = False) -> None:
    """One call of ``fn`` drawn from its declaration (``special`` overriding some arguments), checked by
    :func:`check_declared_call`; with ``one_line`` a refusal's message is one line naming the value
    (``key = value, ...``), with ``returns_value`` a valid call returns something (not ``None``)."""
    args, kwargs, bad = draw_declared_call(fn, data, examples, special)
    out = check_declared_call(fn, args, kwargs, bad)
    if bad and one_line:
        assert " = " in str(out) and "\n" not in str(out), str(out)
    if not bad and returns_value:
        assert out is not None


def public_functions(module: Any) -> dict[str, Callable[..., Any]]:
    """The functions a game package exports (its ``__all__``), by name."""
    return {n: getattr(module, n) for n in module.__all__ if inspect.isfunction(getattr(module, n))}


def declared_api_tests(where: str, functions: Mapping[str, Callable[..., Any]], examples: dict[type, list[Any]],
                       special: Mapping[str, dict[str, Arg]], *,
                       special_for: Callable[[str, Callable[..., Any]], dict[str, Arg]] | None = None,
                       by_hand: Mapping[str, str] | None = None, max_examples: int = 12,
                       returns_value: bool = False, one_line: bool = False) -> tuple[Callable[..., Any], ...]:
    """A game's two strict-API tests generated from its declarations, for its test file to bind::

        test_every_public_function_is_declared, test_declared_function_strict = declared_api_tests(...)

    ``functions``: the game's public functions by name; ``special``: per function, the arguments a
    declaration cannot say (:class:`Arg` by parameter), or ``special_for(name, fn)`` computing them;
    ``by_hand``: functions tested by hand instead (left out of the generated calls). The first test is
    :func:`check_all_declared`; the second, parametrized by function name, draws ``max_examples`` calls
    each and checks them with :func:`check_declared_strict` (``returns_value``, ``one_line``).
    """
    by_hand = by_hand or {}

    def test_every_public_function_is_declared() -> None:
        check_all_declared(where, functions, special, by_hand)

    @pytest.mark.parametrize("name", [n for n in functions if n not in by_hand])
    @settings(max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(data=st.data())
    def test_declared_function_strict(name: str, data: st.DataObject) -> None:
        fn = functions[name]
        arg_for = special_for(name, fn) if special_for is not None else special.get(name)
        check_declared_strict(fn, data, examples, arg_for, returns_value=returns_value, one_line=one_line)

    return test_every_public_function_is_declared, test_declared_function_strict
