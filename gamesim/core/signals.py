"""Hold back Ctrl-C and SIGTERM around a step that must not be cut half-way."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["signals_held"]


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold back SIGINT and SIGTERM for a short step, then deliver them.

    Used around the renames that publish a report (:mod:`gamesim.report.render`) and around the
    start of a report worker process (:mod:`gamesim.cli`: a worker whose start-up data was cut off
    prints a traceback). The signals' handlers are swapped for one that only records them
    (blocking the signal in this thread would not do: another thread of the process may take it,
    and Python still runs its handler in the main thread at once). In the main thread only, where
    handlers can be set; elsewhere the step runs as is.

    Yields
    ------
    None
        On leaving, the handlers in place before are restored and each signal received meanwhile
        is raised once, to them.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous[sig] = signal.signal(sig, lambda signum, frame: pending.append(signum))
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(pending):
            signal.raise_signal(sig)  # now, to the handler that was in place
