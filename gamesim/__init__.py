"""gamesim: Monte Carlo balance analysis for tabletop game designers.

Fast vectorized simulators, exact solvers, joblib/dask parameter sweeps and
notebook reports. Every estimate carries its sample size and a confidence
interval, and every run records the seed entropy it can be reproduced from.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
