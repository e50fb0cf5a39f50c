"""What the machine offers this process: the CPU cores it may run on."""

from __future__ import annotations

import os

__all__ = ["available_cores"]


def available_cores() -> int:
    """CPU cores this process may run on (its affinity where the OS tells it, else every core); at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)
