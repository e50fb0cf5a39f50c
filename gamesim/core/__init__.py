"""What every study shares: seeding, estimates, sweeps, scenarios and results.

Modules: :mod:`~gamesim.core.rng`, :mod:`~gamesim.core.stats`,
:mod:`~gamesim.core.registry`, :mod:`~gamesim.core.scenario`,
:mod:`~gamesim.core.sweep`, :mod:`~gamesim.core.results`. Reports are in
:mod:`gamesim.report`. The layers these modules form, and what each may import,
are in docs/architecture.md (enforced by tests/core/test_architecture.py).
"""
