"""The package version, in a module that imports nothing.

Every layer records it (the tidy results' ``gamesim_version`` column, a scenario's fingerprint,
the CLI's ``--version``); ``gamesim.__version__`` is this value. Keep it equal to ``version`` in
``pyproject.toml``.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
