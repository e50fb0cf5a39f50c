"""Modules imported on first use, so that sweep workers start without pandas or scipy.

A worker process imports every game package (:func:`gamesim.core.registry.all_games`);
most game modules need pandas or scipy only in functions a chunk never calls
(reference implementations, exact tables). They bind ``pd = lazy_module("pandas")``
instead of importing it, under ``if not TYPE_CHECKING`` so type checkers still see
the real module.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["lazy_module"]


class _LazyModule(ModuleType):
    """A stand-in that imports the named module on the first attribute access."""

    def __getattr__(self, attr: str) -> Any:
        return getattr(importlib.import_module(self.__name__), attr)


def lazy_module(name: str) -> Any:
    """A module object for ``name`` whose import happens on first attribute access.

    Parameters
    ----------
    name : str
        Absolute module name, e.g. ``"pandas"``.

    Returns
    -------
    module
        ``pd = lazy_module("pandas"); pd.DataFrame`` imports pandas there, once
        (the real module is cached in ``sys.modules`` as usual).
    """
    return _LazyModule(name)
