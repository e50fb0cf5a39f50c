"""The analysis layer: what reads and steers runs.

Modules
-------
:mod:`~gamesim.analysis.target`
    The ``[target]`` table of a scenario: :class:`~gamesim.analysis.target.Constraint`,
    :class:`~gamesim.analysis.target.Target`, ``load_target_scenario``, ``parse_values``.
:mod:`~gamesim.analysis.search`
    ``search``: the target search (decision statistics, the evaluator, bisection and the staged
    grid, the result and its presentation).
:mod:`~gamesim.analysis.sensitivity`
    ``sensitivity``: one-at-a-time and factorial sensitivity of a metric.

The comparison and distribution estimators the sweep computes from chunk moments
(paired differences, ratios, ranks) are :mod:`gamesim.core.analysis`, a primitive below the run
layer, since the sweep itself uses them. This layer imports the core and the run layer
(:mod:`gamesim.run`), never the report, the API or the command line. The old names
``gamesim.core.target``, ``gamesim.core.search`` and ``gamesim.core.sensitivity`` are these
modules themselves. This package's ``__init__`` imports nothing.
"""
