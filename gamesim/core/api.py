"""Moved: this is :mod:`gamesim.api` (the Python API, on top of every layer, beside :mod:`gamesim.cli`).

The old name stays for code written against it, with no deprecation warning: importing it gives
the moved module itself (the same object, put in :data:`sys.modules` under this name too), so
``gamesim.core.api.Results`` is ``gamesim.api.Results`` and monkeypatches reach the module.
"""

import sys

from gamesim import api as _module

sys.modules[__name__] = _module
