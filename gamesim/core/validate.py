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

import math
from collections.abc import Iterable, Sequence
from typing import Any

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
    allowed = _allowed("an integer", min, max)
    if not is_int(value):
        raise ParamTypeError(name, value, allowed)
    v = int(value)
    if (min is not None and v < min) or (max is not None and v > max):
        raise ParamError(name, value, allowed)
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
    allowed = _allowed("a finite number" if not allow_inf else "a number (not nan)", min, max)
    if not _is_number(value):
        raise ParamTypeError(name, value, allowed)
    v = float(value)
    if math.isnan(v) or (math.isinf(v) and not allow_inf):
        raise ParamError(name, value, allowed)
    if (min is not None and v < min) or (max is not None and v > max):
        raise ParamError(name, value, allowed)
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
