"""Moved: the generic report is :mod:`gamesim.report.generic` (reports are a layer of their own, :mod:`gamesim.report`).

This name stays for notebooks and scripts written against it.
"""

from gamesim.report.generic import *  # noqa: F401,F403
from gamesim.report.generic import __all__  # noqa: F401
