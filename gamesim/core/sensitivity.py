"""Moved: this is :mod:`gamesim.analysis.sensitivity` (the analysis layer, :mod:`gamesim.analysis`).

The old name stays for code written against it, with no deprecation warning: importing it gives
the moved module itself (the same object, put in :data:`sys.modules` under this name too), so
``gamesim.core.sensitivity.<name>`` reads, and monkeypatches, what ``gamesim.analysis.sensitivity`` holds.
"""

import sys

from gamesim.analysis import sensitivity as _module

sys.modules[__name__] = _module
