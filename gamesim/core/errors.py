"""The error every layer raises for a bad parameter value, at the bottom of the import graph.

:class:`ParamError` is raised by the validation helpers (:mod:`gamesim.core.validate`), the
registry's parameter checks, every game's boundary checks and the scenario loader, so it lives
in a module that imports nothing from gamesim: the seeding helpers (:mod:`gamesim.core.rng`)
can then validate without depending on the registry. It stays importable as
``gamesim.core.registry.ParamError``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ParamError"]


class ParamError(ValueError):
    """A parameter value outside what a task allows.

    Parameters
    ----------
    key : str
        Parameter name as written in the scenario file (e.g. ``"bag_n"``).
    value : object
        The offending value.
    allowed : str
        Human-readable description of what is allowed (e.g. ``"an integer >= 1"``).

    Notes
    -----
    The scenario loader catches this and prefixes the file name, so the user sees
    ``scenarios/x.toml: params.bag_n = -1, must be an integer >= 0``.
    """

    def __init__(self, key: str, value: Any, allowed: str):
        self.key = key
        self.value = value
        self.allowed = allowed
        super().__init__(f"{key} = {value!r}, must be {allowed}")
