"""Field checks for a game's data file (card lists, weapon tables): one line naming file, entry and field.

A game's data module reads a TOML file into plain tables and checks each field with these
helpers, bound to its own error class once::

    _check = FieldChecks(DataError)
    _check.integer("weapons.toml: mech 'A'", "armour", raw["armour"], 0, 9)
    # DataError: weapons.toml: mech 'A': armour = 12, must be an integer in [0, 9]

``where`` starts every message: the file name and the entry (``"cards.toml: neuroi[2]"``).
This module imports nothing from gamesim. (Scenario files have their own loader,
:mod:`gamesim.run.scenario`, whose key checks are :mod:`gamesim.core.tablecheck`.)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

__all__ = ["FieldChecks", "source_label"]


def source_label(source: Any) -> str:
    """A data file's label (the ``source`` of a parse function: its file name) as shown at the start of a message.

    Parameters
    ----------
    source : any
        The label a caller gave, used only in messages (usually a file name, a ``str``).

    Returns
    -------
    str
        ``str(source)``, or its ``repr`` when it holds a character that is not printable (a newline, a
        tab), so that a message starting with it stays one line.
    """
    label = str(source)
    return label if label.isprintable() else repr(label)


class FieldChecks:
    """The checks of a data file's fields, raising ``error`` with a one-line message.

    Parameters
    ----------
    error : type of Exception
        The game's error class (e.g. ``gamesim.games.mech_arena.data.DataError``), called with
        the message ``"<where>: <what>"``.
    """

    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def fail(self, where: str, what: str) -> Exception:
        """The error ``"<where>: <what>"`` (returned, for the caller to raise)."""
        return self.error(f"{where}: {what}")

    def integer(self, where: str, field: str, v: Any, lo: int, hi: int) -> int:
        """``v`` if it is an ``int`` (not a ``bool``) in ``[lo, hi]``.

        Raises
        ------
        error
            ``"<where>: <field> = <v>, must be an integer in [lo, hi]"``.
        """
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise self.fail(where, f"{field} = {v!r}, must be an integer in [{lo}, {hi}]")
        return v

    def boolean(self, where: str, field: str, v: Any) -> bool:
        """``v`` if it is a ``bool``.

        Raises
        ------
        error
            ``"<where>: <field> = <v>, must be true or false"``.
        """
        if not isinstance(v, bool):
            raise self.fail(where, f"{field} = {v!r}, must be true or false")
        return v

    def string(self, where: str, field: str, v: Any) -> str:
        """``v`` if it is a string with a non-blank character.

        Raises
        ------
        error
            ``"<where>: <field> = <v>, must be a non-empty string"``.
        """
        if not isinstance(v, str) or not v.strip():
            raise self.fail(where, f"{field} = {v!r}, must be a non-empty string")
        return v

    def choice(self, where: str, field: str, v: Any, allowed: Iterable[str]) -> str:
        """``v`` if it is one of the strings ``allowed``.

        Raises
        ------
        error
            ``"<where>: <field> = <v>, unknown <field>; allowed: <a>, <b>, ..."``.
        """
        allowed = tuple(allowed)
        if v not in allowed or not isinstance(v, str):
            raise self.fail(where, f"{field} = {v!r}, unknown {field}; allowed: {', '.join(allowed)}")
        return v

    def keys(self, where: str, raw: Mapping[str, Any], allowed: Collection[str]) -> None:
        """Refuse a field of ``raw`` not in ``allowed`` (the first in the table's order).

        Raises
        ------
        error
            ``"<where>: unknown field '<k>'; allowed: <sorted allowed fields>"``.
        """
        for k in raw:
            if k not in allowed:
                raise self.fail(where, f"unknown field {k!r}; allowed: {', '.join(sorted(allowed))}")
