"""The lower layers every study shares: errors, checks, seeding, estimates, the registry.

Modules
-------
base (import nothing of gamesim)
    :mod:`~gamesim.core.errors`, :mod:`~gamesim.core.version`, :mod:`~gamesim.core.lazy`,
    :mod:`~gamesim.core.sanitize`, :mod:`~gamesim.core.fingerprint`,
    :mod:`~gamesim.core.tablecheck`, :mod:`~gamesim.core.datafile`.
primitives
    :mod:`~gamesim.core.validate` (boundary checks), :mod:`~gamesim.core.rng` (seeding),
    :mod:`~gamesim.core.stats` (estimates and intervals), :mod:`~gamesim.core.summary`
    (per-chunk moments and counts), :mod:`~gamesim.core.analysis` (comparison and distribution
    estimators from those moments).
registry
    :mod:`~gamesim.core.registry` (games, tasks, params, metrics), :mod:`~gamesim.core.events`
    (event metrics declared in a scenario).

Above the core: the games (:mod:`gamesim.games`), the run layer (:mod:`gamesim.run`: scenario,
chunks, sweep, results), the analysis layer (:mod:`gamesim.analysis`: target, search,
sensitivity), the reports (:mod:`gamesim.report`), and on top :mod:`gamesim.api` and
:mod:`gamesim.cli`. The modules that moved out of this folder keep their old names here
(``gamesim.core.sweep`` is :mod:`gamesim.run.sweep` itself, ``gamesim.core.api`` is
:mod:`gamesim.api`, ...). The layers, and what each may import, are in docs/architecture.md
(enforced by tests/core/test_architecture.py).
"""
