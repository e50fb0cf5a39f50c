"""The run layer: a scenario file becomes cells, cells become chunks, chunks become tidy tables.

Modules
-------
:mod:`~gamesim.run.scenario`
    ``load_scenario``: a scenario file (data, never code) -> :class:`~gamesim.run.scenario.Scenario`
    (parts, cells, seed, precision target, comparisons).
:mod:`~gamesim.run.chunks`
    One chunk of one cell (what a joblib or Dask worker process runs): the task through the
    registry, the event metrics, the chunk's summary.
:mod:`~gamesim.run.sweep`
    ``run_sweep``: cells x chunks over joblib / Dask, cached chunk files, the tidy tables
    (results, comparisons, distributions).
:mod:`~gamesim.run.results`
    The tidy results on disk (parquet / CSV, run ids, atomic writes) and
    :data:`~gamesim.run.results.TIDY_COLUMNS`, the columns of the tidy table that are not
    parameters.

This layer imports the core (``gamesim.core``) only, and reaches the games only through the
registry (:func:`gamesim.core.registry.all_games`). The old names ``gamesim.core.scenario``,
``gamesim.core.chunks``, ``gamesim.core.sweep`` and ``gamesim.core.results`` are these modules
themselves. This package's ``__init__`` imports nothing, so importing one module of it costs only
that module. The layers are in docs/architecture.md (enforced by tests/core/test_architecture.py).
"""
