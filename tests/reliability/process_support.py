"""Functions that report worker processes run in the process tests (importable by a spawned worker)."""

from __future__ import annotations

import signal
import time


def stubborn_report(seconds: float) -> None:
    """A report that ignores Ctrl-C and SIGTERM for ``seconds`` (as one stuck in its clean-up)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(seconds)
