"""Registration of games and their sweepable tasks.

A *task* is one Monte Carlo experiment a scenario can sweep: a function that
runs ``n_trials`` independent trials for one parameter cell and returns one
value per trial for every metric it declares. The sweep engine, the scenario
validator and ``gamesim list`` only ever see games through this module.

Every game registers itself in its package ``__init__`` with
:func:`register_game`; :func:`all_games` imports every package under
``gamesim/games/`` so that the registry is complete wherever it is used
(including joblib and Dask worker processes).
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy.typing as npt

from gamesim.core.errors import ParamError

__all__ = [
    "Param",
    "DataLabel",
    "Metric",
    "Task",
    "Game",
    "ParamError",
    "register_game",
    "get_game",
    "all_games",
    "builtin_game_packages",
]

@functools.lru_cache(maxsize=1)
def builtin_game_packages() -> tuple[str, ...]:
    """Names of the game packages under ``gamesim/games/`` (each registers itself on import).

    Listed once per process (the folder is scanned on the first call).
    """
    import gamesim.games

    return tuple(sorted(m.name for m in pkgutil.iter_modules(gamesim.games.__path__) if m.ispkg))

ParamKind = Literal["int", "float", "bool", "str", "int_list", "int_pairs", "float_list"]
MetricKind = Literal["proportion", "mean"]


@dataclass(frozen=True)
class DataLabel:
    """What a data file (or built-in data set) a task reads says about itself, for reports.

    Parameters
    ----------
    title : str
        The file's ``title`` (its name where it has none).
    illustrative : bool
        Whether the file marks its data ILLUSTRATIVE (``illustrative = true``): invented stand-ins
        for data the rulebook shows only as pictures, not the printed game's. True where any part of
        it is (``note`` then says which part).
    note : str, default ""
        One line on which part is ILLUSTRATIVE where only some is (e.g. the board lines the text
        does not give); empty otherwise.
    remedy : str, default ""
        How a designer puts the real data in, for the report's warning (e.g. "set hp, level and
        skills"); empty: point the parameter at a file with the real data.
    """

    title: str
    illustrative: bool
    note: str = ""
    remedy: str = ""


@dataclass(frozen=True)
class Param:
    """One tunable rule or setting of a task, with its default and allowed range.

    Parameters
    ----------
    name : str
        Key used in scenario files and as the tidy-results column name.
    kind : {"int", "float", "bool", "str", "int_list", "int_pairs", "float_list"}
        Value type. ``int_list`` is a list of integers (e.g. a schedule of session
        sizes); ``int_pairs`` a list of ``[a, b]`` integer pairs (e.g. rate bundles
        ``[[2, 1], [10, 12]]``).
    default : object
        Value used when the scenario does not set it. ``None`` means "off"/"not set"
        and is allowed only when ``optional`` is true.
    doc : str
        One line for ``gamesim list`` and the report's parameter table (with units).
    min, max : float, optional
        Inclusive bounds for numbers, or for every element of a list kind.
    choices : tuple, optional
        Allowed values for ``str`` (or numeric) kinds.
    optional : bool
        Whether ``None`` (TOML: leave the key out) is a valid value.
    file : bool
        Whether a ``str`` value names a data file the task reads (e.g. a card list). The
        scenario loader resolves a relative path from the scenario file's folder to an
        absolute one, and the file's SHA-256 enters the scenario's content hash, the
        results' metadata and the report. A value without a folder or suffix that is
        no file there (a built-in name such as ``"illustrative"``) passes unchanged.
    describe : callable, optional
        For a parameter whose value names data (a data file, a built-in set, a bestiary entry):
        ``describe(value, cell) -> DataLabel | None`` gives the title of the data the value names
        and whether it is ILLUSTRATIVE, so that every report says which data it ran on; ``cell`` is
        the cell's whole parameter mapping (other parameters may replace the data, e.g. a monster's
        ``hp``); ``None`` where the value names no data (e.g. ``monster = "custom"``). Raises the
        game's data error for a file that cannot be read.
    """

    name: str
    kind: ParamKind
    default: Any
    doc: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] | None = None
    optional: bool = False
    file: bool = False
    describe: Callable[[Any, Mapping[str, Any]], DataLabel | None] | None = None


@dataclass(frozen=True)
class Metric:
    """A per-trial output of a task and how the sweep summarises it.

    Parameters
    ----------
    name : str
        Column name of the per-trial value (e.g. ``"complete"``).
    kind : {"proportion", "mean"}
        ``proportion``: per-trial values are booleans, summarised as a proportion
        with a Wilson 95% interval. ``mean``: numeric values, summarised as a mean
        with standard error and t interval.
    quantiles : tuple of float
        Extra quantiles to report (e.g. ``(0.5, 0.9)``), each with an
        order-statistic confidence interval. Per-trial ``NaN`` means "did not
        happen within the cap" and is treated as +infinity (right-censored) for
        quantiles; for ``mean`` metrics with quantiles and NaN values, the mean
        row is omitted.
    doc : str
        One line with units, for reports.
    bounds : (float, float), default (-inf, inf)
        The range every per-trial value of a ``mean`` metric is known to lie in (e.g.
        ``(0, inf)`` for a count). Used only when a sample cannot measure its own spread
        (``n == 1`` or all values equal): the interval is then the rule-of-three bound of
        :func:`gamesim.core.stats.mean_estimate`, finite only where the range is.
    """

    name: str
    kind: MetricKind
    quantiles: tuple[float, ...] = ()
    doc: str = ""
    bounds: tuple[float, float] = (-float("inf"), float("inf"))


SimulateFn = Callable[..., Mapping[str, npt.NDArray[Any]]]
ExactFn = Callable[[Mapping[str, Any]], Mapping[str, float]]
CheckFn = Callable[[Mapping[str, Any]], None]


@dataclass(frozen=True)
class Task:
    """A sweepable Monte Carlo experiment.

    Parameters
    ----------
    name : str
        Task name used in scenario files (``task = "schedule"``).
    simulate : callable
        ``simulate(params, n_trials, *, rng) -> Mapping[str, ndarray]``.
        ``params`` is the fully resolved parameter dict (defaults filled in,
        validated); ``rng`` a ``numpy.random.Generator``. Returns, for every
        declared metric, an array of shape ``(n_trials,)``.
    metrics : tuple of Metric, or callable
        What ``simulate`` returns. A callable ``metrics(params) -> tuple[Metric, ...]``
        is allowed where the metric set depends on the parameters (e.g. one
        ``god_chances_p{i}`` per player); use :meth:`metrics_for`.
    params : tuple of Param
        Every parameter the task accepts.
    exact : callable, optional
        ``exact(params) -> Mapping[str, float]`` with keys ``"<metric>:<statistic>"``
        (statistic one of ``proportion``, ``mean``, ``q50``, ``q90`` ...) giving the
        exact value from mathematics, or an empty mapping where the cell is outside
        what the exact solver covers. Written to the ``exact`` column of results.
    check : callable, optional
        Cross-parameter validation ``check(params) -> None`` raising
        :class:`ParamError` (e.g. bag chip counts that do not add up).
    doc : str
        One paragraph: the question the task answers and the rules it models.
    """

    name: str
    simulate: SimulateFn
    metrics: tuple[Metric, ...] | Callable[[Mapping[str, Any]], tuple[Metric, ...]]
    params: tuple[Param, ...]
    exact: ExactFn | None = None
    check: CheckFn | None = None
    doc: str = ""

    def metrics_for(self, params: Mapping[str, Any]) -> tuple[Metric, ...]:
        """The metrics ``simulate`` returns for this (resolved) parameter cell."""
        return self.metrics(params) if callable(self.metrics) else self.metrics

    def defaults(self, **overrides: Any) -> dict[str, Any]:
        """The resolved parameter dict: every parameter's default, updated with ``overrides``.

        Raises
        ------
        KeyError
            If an override is not a parameter of the task.
        """
        out = {p.name: p.default for p in self.params}
        for k, v in overrides.items():
            if k not in out:
                raise KeyError(f"{k!r} is not a parameter of task {self.name!r}")
            out[k] = v
        return out

    def param(self, name: str) -> Param:
        """Return the :class:`Param` called ``name`` (``KeyError`` if unknown)."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


@dataclass(frozen=True)
class Game:
    """A game: its tasks and where its rules come from.

    Parameters
    ----------
    name : str
        Scenario key ``game = "gacha"``.
    title : str
        Display title, e.g. ``"ガッチャ ~God Chance~"``.
    tasks : Mapping[str, Task]
        Tasks by name.
    seed_file : str
        Rulebook file under ``shared/seeds/``.
    rules_doc : str
        Path of our rule reading, e.g. ``docs/rules/gacha.md``.
    """

    name: str
    title: str
    tasks: Mapping[str, Task] = field(default_factory=dict)
    seed_file: str = ""
    rules_doc: str = ""


_REGISTRY: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Add ``game`` to the registry (idempotent for the same name) and return it."""
    _REGISTRY[game.name] = game
    return game


def all_games() -> dict[str, Game]:
    """Import every built-in game package and return the registry, by name.

    A game package that fails to import is left out with a ``RuntimeWarning``
    naming it and the error, so one broken game does not take the others down;
    :func:`get_game` on that game raises the import error itself.
    """
    for name in builtin_game_packages():
        try:
            importlib.import_module(f"gamesim.games.{name}")
        except Exception as exc:  # noqa: BLE001 - reported, and re-raised by get_game
            warnings.warn(f"game package gamesim.games.{name} failed to import: {exc!r}", RuntimeWarning, stacklevel=2)
    return dict(_REGISTRY)


def get_game(name: str) -> Game:
    """Return the registered game ``name``.

    Raises
    ------
    KeyError
        If no game of that name is registered; the message lists the known games.
    Exception
        Whatever importing the game's package raises, if it is broken.
    """
    game = _REGISTRY.get(name)
    if game is not None:  # a sweep asks once per chunk: no folder scan, no other game's import
        return game
    if name in builtin_game_packages():
        importlib.import_module(f"gamesim.games.{name}")  # raises the game's own import error
        if name in _REGISTRY:
            return _REGISTRY[name]
    games = all_games()
    if name not in games:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(games))}")
    return games[name]

