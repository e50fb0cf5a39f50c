"""gamesim: Monte Carlo balance analysis for tabletop game designers.

Fast vectorized simulators, exact solvers, joblib/dask parameter sweeps and
notebook reports. Every estimate carries its sample size and a confidence
interval, and every run records the seed entropy it can be reproduced from.

The Python API, for a question asked in a notebook cell::

    import gamesim
    res = gamesim.sweep("scenarios/gacha_god_chance.toml")   # or a dict with the same keys
    res.table("complete"); res.plot("complete"); res.compare(); res.to_frame()
    gamesim.estimate(per_trial_values)                         # raw arrays -> estimate with 95% CI

``gamesim.all_games()`` returns the registered games with their tasks (each game's
package is ``gamesim.games.<name>``, e.g. ``gamesim.games.gacha``);
``gamesim.load_scenario`` validates a scenario file or dict.
"""

from __future__ import annotations

from typing import Any

from gamesim.core.version import __version__

__all__ = [
    "__version__",
    "sweep",
    "search",
    "sensitivity",
    "load_scenario",
    "Results",
    "estimate",
    "all_games",
    "proportion_estimate",
    "mean_estimate",
    "quantile_estimate",
    "Estimate",
]

_LAZY = {
    "sweep": ("gamesim.api", "sweep"),
    "search": ("gamesim.analysis.search", "search"),
    "sensitivity": ("gamesim.analysis.sensitivity", "sensitivity"),
    "Results": ("gamesim.api", "Results"),
    "estimate": ("gamesim.api", "estimate"),
    "load_scenario": ("gamesim.run.scenario", "load_scenario"),
    "proportion_estimate": ("gamesim.core.stats", "proportion_estimate"),
    "mean_estimate": ("gamesim.core.stats", "mean_estimate"),
    "quantile_estimate": ("gamesim.core.stats", "quantile_estimate"),
    "Estimate": ("gamesim.core.stats", "Estimate"),
}


def all_games() -> dict[str, Any]:
    """The registered games by name (each with ``.tasks``, ``.title``, ``.rules_doc``)."""
    from gamesim.core.registry import all_games

    return all_games()


def __getattr__(name: str) -> Any:
    # imported on first use, so `import gamesim` (and worker start-up) stays light
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'gamesim' has no attribute {name!r}")
