"""One package per game; each registers its tasks in :mod:`gamesim.core.registry`."""
