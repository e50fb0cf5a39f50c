"""Reports: findings, charts, the generic report and the HTML/PDF renderer.

A room of its own above the analyses: it reads :class:`gamesim.core.api.Results`
objects (duck-typed, never imported at run time) and tidy result tables, and is
imported by the API and the CLI, never the other way round. Submodules are
imported on use, so ``import gamesim.report`` costs nothing.
"""
