"""Argument checks for public functions, with the scenario loader's rules.

Every public function of a game validates its arguments once, at the boundary,
with these helpers (kernels trust their inputs). The rules are the scenario
loader's (:func:`gamesim.run.scenario.check_param_value`):

- an integer parameter takes a Python ``int`` or a numpy integer, never a
  ``bool`` and never a float (not even ``3.0``: nothing is truncated or rounded);
- a boolean parameter takes ``True``/``False`` (or ``numpy.bool_``) only, never
  ``"no"`` or ``0``;
- a number parameter takes an int or a finite float (``nan`` and ``inf`` are
  refused unless asked for);
- bounds are inclusive and checked for every element of a sequence.

A wrong type raises :class:`ParamTypeError` (a ``TypeError``); a value out of
range or not among the choices raises :class:`~gamesim.core.errors.ParamError`
(a ``ValueError``). Both name the parameter, the value and what is allowed, and
both are ``ParamError`` instances, so one ``except ParamError`` catches either.

Examples
--------
>>> check_int("uses", 2, min=1, max=1000)
2
>>> check_int("uses", 2.9, min=1)
Traceback (most recent call last):
...
gamesim.core.validate.ParamTypeError: uses = 2.9, must be an integer >= 1
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import numpy as np

from gamesim.core.errors import ParamError

__all__ = [
    "ParamTypeError",
    "is_int",
    "check_int",
    "check_float",
    "check_bool",
    "check_choice",
    "check_int_list",
    "check_float_list",
    "check_rng",
    "Ref",
    "Constraint",
    "Int",
    "Float",
    "Bool",
    "Choice",
    "IntList",
    "FloatList",
    "Instance",
    "Pair",
    "Rng",
    "Optional",
    "Unchecked",
    "validate_params",
    "declared_params",
]


class ParamTypeError(ParamError, TypeError):
    """An argument of the wrong type (e.g. ``2.5`` or ``True`` for an integer).

    A subclass of both :class:`~gamesim.core.errors.ParamError` (so of
    ``ValueError``) and ``TypeError``: callers may catch either.
    """


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integer in the loader's sense: ``int`` or numpy integer, not bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_number(value: Any) -> bool:
    return is_int(value) or isinstance(value, (float, np.floating))


def _bounds(min: float | None, max: float | None) -> str:
    parts = []
    if min is not None:
        parts.append(f">= {min:g}")
    if max is not None:
        parts.append(f"<= {max:g}")
    return " and ".join(parts)


def _allowed(kind: str, min: float | None, max: float | None) -> str:
    b = _bounds(min, max)
    return f"{kind} {b}" if b else kind


def check_int(name: str, value: Any, *, min: int | None = None, max: int | None = None) -> int:
    """Check an integer argument and return it as a Python ``int``.

    Parameters
    ----------
    name : str
        The parameter's name, for the message.
    value : object
        The argument.
    min, max : int, optional
        Inclusive bounds. Give ``max`` for every size that drives memory or time,
        so a huge value is refused up front instead of hanging.

    Returns
    -------
    int

    Raises
    ------
    ParamTypeError
        If ``value`` is not an integer (a float, even an integral one, a bool, a string).
    ParamError
        If ``value`` is out of bounds.
    """
    if type(value) is int and (min is None or value >= min) and (max is None or value <= max):
        return value  # the common case first: checks in hot constructors (dataclasses) stay cheap
    if not is_int(value):
        raise ParamTypeError(name, value, _allowed("an integer", min, max))
    v = int(value)
    if (min is not None and v < min) or (max is not None and v > max):
        raise ParamError(name, value, _allowed("an integer", min, max))
    return v


def check_float(
    name: str,
    value: Any,
    *,
    min: float | None = None,
    max: float | None = None,
    allow_inf: bool = False,
) -> float:
    """Check a real-number argument and return it as a Python ``float``.

    Parameters
    ----------
    name : str
        The parameter's name, for the message.
    value : object
        An ``int`` or ``float`` (numpy scalars too); never a bool.
    min, max : float, optional
        Inclusive bounds.
    allow_inf : bool, default False
        Whether ``inf``/``-inf`` are allowed (``nan`` never is).

    Returns
    -------
    float

    Raises
    ------
    ParamTypeError
        If ``value`` is not a number.
    ParamError
        If it is ``nan`` (or infinite without ``allow_inf``) or out of bounds.
    """
    if not _is_number(value):
        raise ParamTypeError(name, value, _allowed("a finite number" if not allow_inf else "a number (not nan)", min, max))
    v = float(value)
    if (math.isnan(v) or (math.isinf(v) and not allow_inf)
            or (min is not None and v < min) or (max is not None and v > max)):
        raise ParamError(name, value, _allowed("a finite number" if not allow_inf else "a number (not nan)", min, max))
    return v


def check_bool(name: str, value: Any) -> bool:
    """Check a boolean argument (``True``/``False`` only, numpy ``bool_`` too).

    Raises
    ------
    ParamTypeError
        For anything else (``0``, ``1``, ``"no"``, ``None``).
    """
    if not isinstance(value, (bool, np.bool_)):
        raise ParamTypeError(name, value, "true or false (a bool)")
    return bool(value)


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """Check that ``value`` is one of ``choices`` and return it.

    Raises
    ------
    ParamError
        If it is not (bools never match integer choices).
    """
    options = tuple(choices)
    is_bool = isinstance(value, (bool, np.bool_))
    ok = any(is_bool == isinstance(c, bool) and bool(value == c) for c in options)
    if not ok:
        raise ParamError(name, value, "one of " + ", ".join(repr(c) for c in options))
    return value


def check_int_list(
    name: str,
    value: Any,
    *,
    min: int | None = None,
    max: int | None = None,
    min_len: int = 1,
    max_len: int | None = None,
) -> list[int]:
    """Check a sequence of integers (every element bounded) and return it as a list.

    Parameters
    ----------
    name : str
        The parameter's name, for the message.
    value : sequence of int or 1-D integer ndarray
        The argument; a string or a mapping is not a sequence here.
    min, max : int, optional
        Inclusive bounds for every element.
    min_len, max_len : int, optional
        Allowed length (default: at least one element).

    Returns
    -------
    list of int

    Raises
    ------
    ParamTypeError
        If ``value`` is not a sequence of integers.
    ParamError
        If an element is out of bounds or the length is not allowed.
    """
    return _check_list(name, value, check_int, "integers", min, max, min_len, max_len)


def check_float_list(
    name: str,
    value: Any,
    *,
    min: float | None = None,
    max: float | None = None,
    min_len: int = 1,
    max_len: int | None = None,
) -> list[float]:
    """Check a sequence of finite numbers (every element bounded) and return it as a list of floats.

    Raises
    ------
    ParamTypeError
        If ``value`` is not a sequence of numbers.
    ParamError
        If an element is ``nan``/infinite or out of bounds, or the length is not allowed.
    """
    return _check_list(name, value, check_float, "numbers", min, max, min_len, max_len)


def _check_list(
    name: str, value: Any, check: Any, what: str, lo: Any, hi: Any, min_len: int, max_len: int | None
) -> list[Any]:
    length = f"{min_len}" + (f" to {max_len}" if max_len is not None else " or more")
    allowed = f"a list of {length} {what}" + (f" with every element {_bounds(lo, hi)}" if _bounds(lo, hi) else "")
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ParamTypeError(name, value, allowed)
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise ParamTypeError(name, value, allowed)
    if len(value) < min_len or (max_len is not None and len(value) > max_len):
        raise ParamError(name, value, allowed)
    out = []
    for i, v in enumerate(value):
        try:
            out.append(check(f"{name}[{i}]", v, min=lo, max=hi))
        except ParamTypeError:
            raise ParamTypeError(name, value, allowed) from None
        except ParamError:
            raise ParamError(name, value, allowed) from None
    return out


def check_rng(rng: Any) -> np.random.Generator:
    """Normalise an ``rng`` argument (int >= 0, SeedSequence, Generator or None) with ``np.random.default_rng``.

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    ParamTypeError
        For a bool, a float, a string or another type numpy does not take.
    ParamError
        For a value numpy refuses (e.g. a negative seed).
    """
    allowed = "an int >= 0, a SeedSequence, a Generator or None"
    if isinstance(rng, (bool, np.bool_, float, str, bytes)):
        raise ParamTypeError("rng", rng, allowed)
    try:
        return np.random.default_rng(rng)
    except TypeError:
        raise ParamTypeError("rng", rng, allowed) from None
    except ValueError:
        raise ParamError("rng", rng, allowed) from None



# ---------------------------------------------------------------------------
# Declared constraints: one declaration per public function (issue 25 point 2)
# ---------------------------------------------------------------------------


class Ref:
    """A bound taken from another (already checked) argument: ``getattr(args[arg], attr) + offset``.

    For bounds that depend on the rules object, e.g. ``Int(1, Ref("p", "fund_cap"))``: funds in
    ``1..p.fund_cap``. The referenced argument must be declared *before* the one that uses it
    (:func:`validate_params` checks in declaration order and refuses a forward reference).

    Parameters
    ----------
    arg : str
        The other parameter's name.
    attr : str, optional
        Attribute of that argument (``None``: the argument itself).
    offset : int, default 0
        Added to the value (``Ref("p", "n_types", -1)``: the last type index).
    """

    __slots__ = ("arg", "attr", "offset")

    def __init__(self, arg: str, attr: str | None = None, offset: int = 0):
        self.arg, self.attr, self.offset = arg, attr, offset

    def resolve(self, args: dict[str, Any]) -> Any:
        """The bound, from the checked arguments so far."""
        v = args[self.arg]
        if self.attr is not None:
            v = getattr(v, self.attr)
        return v + self.offset if self.offset else v

    def __repr__(self) -> str:
        tail = f".{self.attr}" if self.attr else ""
        return f"Ref({self.arg}{tail}{self.offset:+d})" if self.offset else f"Ref({self.arg}{tail})"


def _res(bound: Any, args: dict[str, Any]) -> Any:
    return bound.resolve(args) if isinstance(bound, Ref) else bound


class Constraint:
    """Base class: what one argument of a public function must be.

    ``check(name, value, args)`` returns the value the body receives (normalised: ``int`` for an
    ``Int``, ``float`` for a ``Float``, ``list`` for a list) or raises the same
    :class:`~gamesim.core.errors.ParamError` / :class:`ParamTypeError` as the ``check_*``
    function it wraps. ``args`` holds the arguments checked so far (for :class:`Ref` bounds).
    """

    #: Names of the arguments this constraint's bounds refer to.
    refs: tuple[str, ...] = ()

    def check(self, name: str, value: Any, args: dict[str, Any]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _compiled(self) -> Callable[[str, Any, dict[str, Any]], Any]:
        """The check as the decorator calls it (subclasses may return a faster equivalent)."""
        return self.check

    def _set_refs(self, *bounds: Any) -> None:
        self.refs = tuple(b.arg for b in bounds if isinstance(b, Ref))

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if k != "refs" and v is not None)
        return f"{type(self).__name__}({fields})"


class Int(Constraint):
    """An integer in ``[min, max]`` (:func:`check_int`); bounds may be :class:`Ref`."""

    def __init__(self, min: int | Ref | None = None, max: int | Ref | None = None):
        self.min, self.max = min, max
        self._set_refs(min, max)

    def check(self, name: str, value: Any, args: dict[str, Any]) -> int:
        return check_int(name, value, min=_res(self.min, args), max=_res(self.max, args))

    def _compiled(self) -> Callable[[str, Any, dict[str, Any]], Any]:
        if self.refs:
            return self.check
        lo, hi = self.min, self.max

        def fixed(name: str, value: Any, args: dict[str, Any]) -> int:
            if type(value) is int and (lo is None or value >= lo) and (hi is None or value <= hi):
                return value  # the common case, as check_int would return it
            return check_int(name, value, min=lo, max=hi)

        return fixed


class Float(Constraint):
    """A finite number in ``[min, max]`` (:func:`check_float`; ``allow_inf`` lets ``inf`` in)."""

    def __init__(self, min: float | Ref | None = None, max: float | Ref | None = None, *, allow_inf: bool = False):
        self.min, self.max, self.allow_inf = min, max, allow_inf
        self._set_refs(min, max)

    def check(self, name: str, value: Any, args: dict[str, Any]) -> float:
        return check_float(name, value, min=_res(self.min, args), max=_res(self.max, args), allow_inf=self.allow_inf)


class Bool(Constraint):
    """``True`` or ``False`` only (:func:`check_bool`)."""

    def check(self, name: str, value: Any, args: dict[str, Any]) -> bool:
        return check_bool(name, value)


class Choice(Constraint):
    """One of ``values`` (:func:`check_choice`); the value is passed on unchanged."""

    def __init__(self, values: Iterable[Any]):
        self.values = tuple(values)

    def check(self, name: str, value: Any, args: dict[str, Any]) -> Any:
        return check_choice(name, value, self.values)


class IntList(Constraint):
    """A sequence of integers, each in ``[min, max]``, of length ``min_len..max_len`` (:func:`check_int_list`)."""

    def __init__(self, min: int | Ref | None = None, max: int | Ref | None = None, *,
                 min_len: int | Ref = 1, max_len: int | Ref | None = None):
        self.min, self.max, self.min_len, self.max_len = min, max, min_len, max_len
        self._set_refs(min, max, min_len, max_len)

    def check(self, name: str, value: Any, args: dict[str, Any]) -> list[int]:
        return check_int_list(name, value, min=_res(self.min, args), max=_res(self.max, args),
                              min_len=_res(self.min_len, args), max_len=_res(self.max_len, args))


class FloatList(IntList):
    """A sequence of finite numbers, each in ``[min, max]`` (:func:`check_float_list`)."""

    def check(self, name: str, value: Any, args: dict[str, Any]) -> list[float]:
        return check_float_list(name, value, min=_res(self.min, args), max=_res(self.max, args),
                                min_len=_res(self.min_len, args), max_len=_res(self.max_len, args))


class Instance(Constraint):
    """An instance of ``cls`` (:class:`ParamTypeError` otherwise, with ``allowed`` as the message)."""

    def __init__(self, cls: type | tuple[type, ...], allowed: str | None = None):
        self.cls = cls
        self.allowed = allowed or ("a " + getattr(cls, "__name__", str(cls)))

    def check(self, name: str, value: Any, args: dict[str, Any]) -> Any:
        if not isinstance(value, self.cls):
            raise ParamTypeError(name, value, self.allowed)
        return value


class Pair(Constraint):
    """A sequence of exactly two items (not a string); the items are the body's to check.

    ``types`` restricts the sequence types (default: any ``Sequence``), ``allowed`` is the message.
    A :class:`~gamesim.core.errors.ParamError` (not a type error), as the hand-written checks raised.
    """

    def __init__(self, allowed: str, types: type | tuple[type, ...] = Sequence):
        self.allowed, self.types = allowed, types

    def check(self, name: str, value: Any, args: dict[str, Any]) -> Any:
        if isinstance(value, (str, bytes)) or not isinstance(value, self.types) or len(value) != 2:
            raise ParamError(name, value, self.allowed)
        return value


class Rng(Constraint):
    """A seed, SeedSequence, Generator or None, normalised to a Generator (:func:`check_rng`)."""

    def check(self, name: str, value: Any, args: dict[str, Any]) -> np.random.Generator:
        return check_rng(value)


class Optional(Constraint):
    """``None`` (passed on), or a value meeting ``inner``."""

    def __init__(self, inner: Constraint):
        self.inner = inner
        self.refs = inner.refs

    def check(self, name: str, value: Any, args: dict[str, Any]) -> Any:
        return None if value is None else self.inner.check(name, value, args)


class Unchecked(Constraint):
    """Declared but not checked by the decorator, with the reason (checked in the body, or trusted).

    For what one constraint cannot say: a relation between arguments, a parser's input, a
    callable. The strict-API tests need an explicit strategy for every ``Unchecked`` argument.
    """

    def __init__(self, reason: str):
        self.reason = reason

    def check(self, name: str, value: Any, args: dict[str, Any]) -> Any:
        return value


F = TypeVar("F", bound=Callable[..., Any])

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def validate_params(**constraints: Constraint) -> Callable[[F], F]:
    """Declare a public function's argument constraints once; check them at every call.

    The decorated function checks its arguments (defaults included) in declaration order with
    the ``check_*`` rules above (same errors, same messages), then runs its body with the
    normalised values. The body itself is unchecked: trusted callers (kernels, inner loops)
    call it as ``func.__wrapped__`` (usually through a module alias such as
    ``_bid_winner = bid_winner.__wrapped__``), so no logic is written twice. The declaration
    is stored as ``func.__gamesim_params__`` (a dict, in declaration order) for the strict-API
    tests, which draw good and bad arguments from it.

    Parameters
    ----------
    **constraints : Constraint
        One per named parameter of the function (``Int``, ``Float``, ``Bool``, ``Choice``,
        ``IntList``, ``FloatList``, ``Instance``, ``Pair``, ``Rng``, ``Optional`` or, with the
        reason, ``Unchecked``). Parameters named ``_...``, ``*args`` and ``**kwargs`` are exempt.
        A bound may be a :class:`Ref` to an argument declared earlier.

    Returns
    -------
    callable
        The decorator.

    Raises
    ------
    TypeError
        At decoration: a parameter left undeclared, a constraint for no parameter, or a
        :class:`Ref` to an argument not declared before it.

    Notes
    -----
    Checks that relate arguments beyond a :class:`Ref` bound stay explicit in the body, after
    the declared ones. Cost: one dict of the arguments per call; the positional and keyword
    calls are bound without :meth:`inspect.Signature.bind`, which is used only for the rest
    (e.g. ``**kwargs``).

    Examples
    --------
    >>> @validate_params(uses=Int(1, 1000), label=Choice(("a", "b")))
    ... def spend(uses, label="a"):
    ...     return uses * 2
    >>> spend(3)
    6
    >>> spend(2.5)
    Traceback (most recent call last):
    ...
    gamesim.core.validate.ParamTypeError: uses = 2.5, must be an integer >= 1 and <= 1000
    >>> spend.__wrapped__(2.5)  # the unchecked body, for trusted callers
    5.0
    >>> spend.__gamesim_params__["uses"]
    Int(min=1, max=1000)
    """

    def decorate(func: F) -> F:
        sig = inspect.signature(func)
        params = sig.parameters
        named = [n for n, p in params.items()
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and not n.startswith("_")]
        missing = [n for n in named if n not in constraints]
        extra = [n for n in constraints if n not in params]
        if missing or extra:
            raise TypeError(f"validate_params on {func.__qualname__}: undeclared {missing}, unknown {extra}")
        seen: set[str] = set()
        for n, c in constraints.items():
            if not isinstance(c, Constraint):
                raise TypeError(f"validate_params on {func.__qualname__}: {n} = {c!r} is not a Constraint")
            bad = [r for r in c.refs if r not in seen]
            if bad:
                raise TypeError(f"validate_params on {func.__qualname__}: {n} refers to {bad}, not declared before it")
            seen.add(n)
        checks = tuple((n, c._compiled()) for n, c in constraints.items() if not isinstance(c, Unchecked))
        pos_names = tuple(n for n, p in params.items() if p.kind in _POSITIONAL)
        kw_names = tuple(n for n, p in params.items() if p.kind == p.KEYWORD_ONLY)
        defaults = {n: p.default for n, p in params.items() if p.default is not p.empty}
        simple = not any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY) for p in params.values())
        n_pos = len(pos_names)

        kw_defaults = {n: defaults[n] for n in kw_names if n in defaults}
        exact = simple and len(kw_defaults) == len(kw_names)  # every keyword-only parameter has a default

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if exact and not kwargs and len(args) == n_pos:  # the common call: every positional argument
                vals = dict(zip(pos_names, args))
                if kw_defaults:
                    vals.update(kw_defaults)
                for n, check in checks:
                    vals[n] = check(n, vals[n], vals)
                if kw_names:
                    return func(*[vals[n] for n in pos_names], **{n: vals[n] for n in kw_names})
                return func(*[vals[n] for n in pos_names])
            if simple and len(args) <= n_pos and (not kwargs or all(
                    k in params and k not in pos_names[:len(args)] for k in kwargs)):
                vals = dict(zip(pos_names, args))
                vals.update(kwargs)
                if len(vals) < len(params):
                    for n in params:
                        if n not in vals:
                            if n not in defaults:
                                return func(*args, **kwargs)  # Python's own "missing argument" error
                            vals[n] = defaults[n]
                for n, check in checks:
                    vals[n] = check(n, vals[n], vals)
                return func(*[vals[n] for n in pos_names], **{n: vals[n] for n in kw_names})
            try:
                bound = sig.bind(*args, **kwargs)
            except TypeError:
                return func(*args, **kwargs)  # Python's own message for a wrong call
            bound.apply_defaults()
            vals = bound.arguments
            for n, check in checks:
                vals[n] = check(n, vals[n], vals)
            return func(*bound.args, **bound.kwargs)

        wrapper.__gamesim_params__ = dict(constraints)  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def declared_params(func: Callable[..., Any]) -> dict[str, Constraint] | None:
    """The constraints :func:`validate_params` stored on ``func`` (``None`` if it has none)."""
    return getattr(func, "__gamesim_params__", None)
