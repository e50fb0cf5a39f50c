"""Moved: the HTML/PDF renderer is :mod:`gamesim.report.render` (reports are a layer of their own, :mod:`gamesim.report`).

This name stays for notebooks and scripts written against it.
"""

from gamesim.report.render import *  # noqa: F401,F403
from gamesim.report.render import __all__  # noqa: F401
