"""Checks shared by every reader of a TOML table: unknown keys, integers and numbers.

A scenario file, its ``[target]``, ``[sensitivity]``, ``[precision]`` and ``[compare]``
tables, and each part, refuse a key they do not know with the same one-line message::

    scenarios/x.toml: unknown key parts[0].gird; allowed keys: cases, grid, name, ...

This module imports nothing from gamesim; the caller passes its own error class
(:class:`gamesim.run.scenario.ScenarioError` for scenario files).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Literal

__all__ = ["check_keys", "is_int_value", "is_number_value"]


def is_int_value(v: Any) -> bool:
    """Whether ``v`` is an integer as a TOML table holds one: an ``int``, not a ``bool``."""
    return isinstance(v, int) and not isinstance(v, bool)


def is_number_value(v: Any) -> bool:
    """Whether ``v`` is a finite number as a TOML table holds one: an ``int`` (not a ``bool``) or a ``float``."""
    return (is_int_value(v) or isinstance(v, float)) and math.isfinite(v)


def check_keys(
    keys: Iterable[Any],
    allowed: Sequence[str],
    *,
    where: str,
    at: str = "",
    error: type[Exception] = ValueError,
    report: Literal["first", "smallest"] = "first",
) -> None:
    """Refuse a key of a table that is not in ``allowed``, with one line naming it and the allowed keys.

    Parameters
    ----------
    keys : iterable of str
        The table's keys (a mapping iterates over them).
    allowed : sequence of str
        The allowed keys, listed in the message in this order (pass ``sorted(...)`` for an
        alphabetical list).
    where : str
        The file (or ``"<scenario dict>"``) the table comes from; starts the message.
    at : str, default ""
        The table's dotted path (``"target"``, ``"parts[0]"``); the key is named ``<at>.<key>``.
        Empty for the top level, where the key is named by its ``repr``.
    error : type of Exception, default ValueError
        The class raised, called with the message.
    report : {"first", "smallest"}, default "first"
        Which unknown key the message names when there are several: the first in the
        table's order, or the smallest in sorted order.

    Raises
    ------
    error
        ``"<where>: unknown key <at>.<key>; allowed keys: <a>, <b>, ..."`` for an unknown key.
    """
    allowed_set = set(allowed)
    bad = [k for k in keys if k not in allowed_set]
    if not bad:
        return
    k = sorted(bad)[0] if report == "smallest" else bad[0]
    name = f"{at}.{k}" if at else repr(k)
    raise error(f"{where}: unknown key {name}; allowed keys: {', '.join(allowed)}")
