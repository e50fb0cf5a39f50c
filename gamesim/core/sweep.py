"""Moved: this is :mod:`gamesim.run.sweep` (the run layer, :mod:`gamesim.run`).

The old name stays for code written against it, with no deprecation warning: importing it gives
the moved module itself (the same object, put in :data:`sys.modules` under this name too), so
``gamesim.core.sweep.<name>`` reads, and monkeypatches, what ``gamesim.run.sweep`` holds.
"""

import sys

from gamesim.run import sweep as _module

sys.modules[__name__] = _module
