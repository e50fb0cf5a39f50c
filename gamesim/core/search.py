"""Moved: this is :mod:`gamesim.analysis.search` (the analysis layer, :mod:`gamesim.analysis`).

The old name stays for code written against it, with no deprecation warning: importing it gives
the moved module itself (the same object, put in :data:`sys.modules` under this name too), so
``gamesim.core.search.<name>`` reads, and monkeypatches, what ``gamesim.analysis.search`` holds.
"""

import sys

from gamesim.analysis import search as _module

sys.modules[__name__] = _module
