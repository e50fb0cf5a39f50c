"""What the benchmark scripts share: best-of-N CPU time, and one scalar source run twice.

Imported by the ``bench_*.py`` scripts (run as ``python benchmarks/bench_<game>.py``, so this
folder is on ``sys.path``; a script loaded from its path adds the folder itself). Never imported by
the package.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

__all__ = ["best_cpu", "build_scalar", "positive_int"]


def positive_int(text: str) -> int:
    """An argparse ``type`` for counts such as ``--chunk``: an integer of at least 1, or a one-line usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: must be an integer of at least 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: must be at least 1")
    return value


def best_cpu(fn: Callable[[], Any], repeat: int) -> float:
    """Best CPU time (``time.process_time``, seconds) of ``repeat`` calls of ``fn``."""
    best = float("inf")
    for _ in range(repeat):
        c0 = time.process_time()
        fn()
        best = min(best, time.process_time() - c0)
    return best


def build_scalar(source: str, *, numba: bool, helpers: Iterable[str] = (), entry: str = "play_games",
                 namespace: dict[str, Any] | None = None) -> Callable[..., Any]:
    """The function ``entry`` of ``source``: plain Python drawing from ``random.random``, or compiled.

    ``source`` (our own text, never a scenario's) calls ``rnd()`` for a uniform in [0, 1). With
    ``numba=True`` the functions named in ``helpers`` and ``entry`` are compiled with ``numba.njit``
    and ``rnd`` is numba's ``np.random.random``: the same algorithm, run twice.

    Raises
    ------
    ImportError
        With ``numba=True`` when numba is not installed (``pip install -e ".[bench]"``).
    """
    ns: dict[str, Any] = {"min": min, "max": max, "abs": abs, "int": int, "range": range, "np": np,
                          **(namespace or {})}
    if not numba:
        ns["rnd"] = random.random
        exec(source, ns)  # noqa: S102 - our own source text, run twice (plain and numba)
        return ns[entry]
    import numba as nb

    @nb.njit(cache=False)
    def rnd() -> float:
        return np.random.random()

    ns["rnd"] = rnd
    exec(source, ns)  # noqa: S102
    for name in helpers:
        ns[name] = nb.njit(ns[name])
    return nb.njit(ns[entry])
