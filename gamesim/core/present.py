"""Moved: the report tables and plots helper is :mod:`gamesim.report.present` (reports are a layer of their own, :mod:`gamesim.report`).

This name stays for notebooks and scripts written against it.
"""

from gamesim.report.present import *  # noqa: F401,F403
from gamesim.report.present import __all__  # noqa: F401
