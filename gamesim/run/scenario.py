"""Scenario files: a designer's question, its parameter grid and its precision.

A scenario is a TOML file under ``scenarios/``::

    name = "gacha_god_chance"          # optional, defaults to the file stem
    title = "How hard is コンスリート?"
    game = "gacha"
    question = "How often does a player complete the set ...?"
    notes = "Our reading of the rulebook ..."   # optional, shown in the report
    notebook = "../notebooks/gacha_god_chance.ipynb"   # relative to this file
    seed = 20181124                    # optional; fresh entropy (recorded) if absent
    n_trials = 20000                   # trials per grid cell
    chunk_size = 5000                  # trials per saved chunk

    [params]                           # fixed parameters for every part that takes them
    n_characters = 5

    [[parts]]                          # one sweep: a task over a Cartesian grid
    name = "completion"
    task = "schedule"
    findings = ["complete"]            # optional: the metrics the report's Findings lead with
    params = { doubtful = false }
    grid = { session_size = [1, 10, 50], total_pulls = [50, 100, 200] }

    [precision]                        # optional: add chunks until the CI is narrow enough
    metric = "complete"
    half_width = 0.01
    max_trials = 200000

Everything is checked once at load; any problem raises :class:`ScenarioError`
naming the file, the key, the value and what is allowed.

Data files: a task parameter declared ``file=True`` (e.g. gacha_game's ``data``, a
card list) names a file the simulator reads. Its path is resolved here, once, from
the scenario file's folder (for a scenario given as a dict: ``base_dir``, default
the current directory) to an absolute path, so ``run``, ``report``, the Python API
and every notebook read the same file whatever their working directory; its bytes
are checked (readable, UTF-8, at most :data:`MAX_DATA_FILE_BYTES`) and their
SHA-256 enters :meth:`Scenario.content_hash`: an edited card list is a new question,
never answered from chunks of the old one.
"""

from __future__ import annotations

import copy
import datetime
import functools
import hashlib
import itertools
import json
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gamesim.core.registry import CheckFn, Game, Param, ParamError, Task, all_games
from gamesim.core.tablecheck import check_keys, is_int_value, is_number_value

__all__ = [
    "CASE",
    "ScenarioError",
    "Case",
    "Compare",
    "DataFile",
    "DataFileResolver",
    "Part",
    "Precision",
    "Scenario",
    "load_scenario",
    "read_scenario_source",
    "check_param_value",
    "param_columns",
    "shipped_notebook_dirs",
    "NOTEBOOK_ENV",
]

_TOP_KEYS = {
    "name": "a string",
    "title": "a string",
    "game": "a registered game name",
    "question": "a string",
    "notes": "a string",
    "notebook": "a path to a .ipynb file shipped with gamesim (notebooks/ or gamesim/report/notebooks/), relative to the "
    "scenario file (optional: without it the generic report)",
    "seed": "a non-negative integer",
    "n_trials": "an integer >= 1",
    "chunk_size": "an integer >= 1",
    "params": "a table of fixed parameters",
    "parts": "an array of tables [[parts]]",
    "precision": "a table with metric, half_width, max_trials",
    "compare": "a table with baseline (a case name, or {parameter = value}), optional metrics, crn, "
               "pairs (\"baseline\" or \"all\") and better (\"higher\" or \"lower\")",
    "distributions": "true or false (whole distributions of integer-valued metrics; default true)",
    "events": "a list of event metrics such as \"at_least(wounds, 2)\", \"at_most(x, 300)\", \"between(x, 1, 3)\"",
    "target": "a table of design targets (read by `gamesim search`, see docs/targets.md; ignored by run and report)",
    "sensitivity": "a table of sensitivity settings (read by `gamesim search`, see docs/targets.md)",
}
_PART_KEYS = {"name", "task", "params", "grid", "cases", "n_trials", "title", "question", "findings"}
_COMPARE_KEYS = {"baseline", "metrics", "crn", "pairs", "better"}
#: Column name of the case dimension in results (a part with ``cases``).
CASE = "case"
_PRECISION_KEYS = {"metric", "half_width", "max_trials"}


class ScenarioError(ValueError):
    """A scenario file that cannot be used, with a message naming file and key.

    The CLI prints the message (no traceback) and exits with status 2.
    """


@dataclass(frozen=True)
class Case:
    """One variant of a part: parameter values that move together.

    Attributes
    ----------
    name : str
        The case's label (the ``case`` column of results); from the case's own
        ``name`` key, or built from its parameters (``"bag_god_chance=2, bag_n=43"``).
    params : dict
        Parameter values set by this case (checked against the task).
    """

    name: str
    params: dict[str, Any]


@dataclass(frozen=True)
class Compare:
    """A comparison of variants against a baseline (the scenario's ``[compare]`` table).

    Attributes
    ----------
    dimension : str
        ``"case"`` (the baseline is a case name) or the swept parameter the
        comparison runs along (``baseline = { bag_n = 44 }``).
    baseline : object
        The baseline's case name or parameter value.
    metrics : tuple of str or None
        Metrics compared (``None``: every metric).
    crn : bool
        Whether compared cells share random numbers (common random numbers: the
        cells that differ only in ``dimension`` draw chunk ``k`` from the same
        child seed), which makes differences more precise; the reported
        intervals use the pairing either way.
    pairs : {"baseline", "all"}
        ``"baseline"``: every value against the baseline; ``"all"``: every pair of
        values along ``dimension``. Either way the differences of one family
        (part, metric, other dimensions) get Holm-adjusted decisions.
    better : {"higher", "lower"}
        Which direction of the metric is better, for the ranking.
    """

    dimension: str
    baseline: Any
    metrics: tuple[str, ...] | None
    crn: bool
    pairs: str = "baseline"
    better: str = "higher"


@dataclass(frozen=True)
class DataFile:
    """A data file a scenario's cells read (a ``file=True`` parameter's value).

    Attributes
    ----------
    key : str
        The first scenario key naming it (``params.data``, ``parts[0].grid.data[1]``).
    value : str
        The value as written in the scenario (a path, relative or absolute).
    path : pathlib.Path
        The absolute path read (relative values resolved from the scenario file's folder).
    sha256 : str
        Hex SHA-256 of the file's bytes at load time.
    """

    key: str
    value: str
    path: Path
    sha256: str


@dataclass(frozen=True)
class Part:
    """One sweep inside a scenario: a task over cases times a Cartesian grid.

    Attributes
    ----------
    name : str
        Unique within the scenario; a column of the tidy results.
    task : Task
        The registered task.
    fixed : dict
        Parameters fixed for every cell (scenario ``[params]`` the task accepts,
        overridden by the part's own ``params``).
    grid : dict of str to list
        Swept parameters, in file order; cells are their Cartesian product.
    n_trials : int
        Trials per cell before any precision top-up (the pilot of the two-stage precision rule).
    title : str
        Optional display title.
    cases : tuple of Case
        Variants whose parameters move together; empty when the part has none.
        Cells are ``cases x grid`` (the case varies slowest).
    question : str
        Optional question this part answers (shown in the report).
    findings : tuple of str
        Metrics the report's Findings section shows first for this part, in this order (the metrics the
        question is about); empty: the task's first metrics.
    """

    name: str
    task: Task
    fixed: dict[str, Any]
    grid: dict[str, list[Any]]
    n_trials: int
    title: str = ""
    cases: tuple[Case, ...] = ()
    question: str = ""
    findings: tuple[str, ...] = ()

    @property
    def dims(self) -> list[str]:
        """The part's swept dimensions: ``"case"`` (if it has cases), then the grid keys."""
        return ([CASE] if self.cases else []) + list(self.grid)

    def dim_values(self) -> dict[str, list[Any]]:
        """Each swept dimension's values, in order (case names for ``"case"``)."""
        out: dict[str, list[Any]] = {CASE: [c.name for c in self.cases]} if self.cases else {}
        out.update(self.grid)
        return out

    def labels(self) -> list[dict[str, Any]]:
        """For each cell, its value of every swept dimension (same order as :meth:`cells`)."""
        vals = self.dim_values()
        keys = list(vals)
        return [dict(zip(keys, combo)) for combo in itertools.product(*(vals[k] for k in keys))]

    def cells(self) -> list[dict[str, Any]]:
        """Every cell as a fully resolved parameter dict (defaults filled in).

        Returns
        -------
        list of dict
            In row-major order of ``cases`` then ``grid`` (the last grid key varies
            fastest); cell ``i`` of this list is cell index ``i`` in chunk files.
        """
        base = self.task.defaults(**self.fixed)
        keys = list(self.grid)
        out = []
        for case in self.cases or (Case("", {}),):
            for combo in itertools.product(*(self.grid[k] for k in keys)):
                cell = dict(base)
                cell.update(case.params)
                cell.update(zip(keys, combo))
                out.append(cell)
        return out

    def seed_groups(self, dimension: str | None) -> list[int]:
        """For each cell, the index its random numbers are drawn by.

        Parameters
        ----------
        dimension : str or None
            With common random numbers along ``dimension`` (a dimension of this
            part), cells that differ only in it share an index: the position of
            their other dimensions' values in the product of those dimensions.
            ``None`` (or a dimension the part does not sweep): every cell its own
            index, the cell index.

        Returns
        -------
        list of int
            One index per cell, same order as :meth:`cells`.
        """
        vals = self.dim_values()
        if dimension is None or dimension not in vals:
            return list(range(len(self.labels())))
        others = [k for k in vals if k != dimension]
        index = {combo: i for i, combo in enumerate(itertools.product(*(range(len(vals[k])) for k in others)))}
        out = []
        keys = list(vals)
        for combo in itertools.product(*(range(len(vals[k])) for k in keys)):
            pos = dict(zip(keys, combo))
            out.append(index[tuple(pos[k] for k in others)])
        return out


@dataclass(frozen=True)
class Precision:
    """Precision target: top up cells until the metric's CI half-width <= target.

    Attributes
    ----------
    metric : str
        A metric name of at least one part's task.
    half_width : float
        Target half-width of the 95% interval, in the metric's units (> 0).
    max_trials : int
        Trial cap per cell; the cell is reported with whatever precision it has
        at the cap.
    """

    metric: str
    half_width: float
    max_trials: int


@dataclass(frozen=True)
class Scenario:
    """A validated scenario file. Build it with :func:`load_scenario`.

    Attributes
    ----------
    path : pathlib.Path or None
        The file it was loaded from (``None`` for a scenario given as a dict).
    name, title, question, notes : str
        Identification and the text shown in the report.
    game : Game
        The registered game.
    notebook : pathlib.Path or None
        Absolute path of the study's own notebook (one shipped with gamesim, or
        the one its user named with ``--notebook``), or ``None``: the report is
        then the generic one every scenario gets.
    seed : int or None
        Root seed; ``None`` draws fresh entropy at run time (then recorded).
    n_trials, chunk_size : int
        Default trials per cell and trials per saved chunk.
    parts : tuple of Part
    precision : Precision or None
    compare : Compare or None
        Variant comparison (``[compare]``), or ``None``.
    distributions : bool
        Whether whole distributions of integer-valued metrics are tabulated.
    raw : dict
        The parsed TOML (for hashing and the report).
    data_files : tuple of DataFile
        Every data file a cell reads (``file=True`` parameters), with its SHA-256.
    """

    path: Path | None
    name: str
    title: str
    question: str
    notes: str
    game: Game
    notebook: Path | None
    seed: int | None
    n_trials: int
    chunk_size: int
    parts: tuple[Part, ...]
    precision: Precision | None
    raw: dict[str, Any] = field(repr=False)
    compare: Compare | None = None
    distributions: bool = True
    data_files: tuple[DataFile, ...] = ()

    def content_hash(self, seed: int | None) -> str:
        """SHA-256 of everything that determines the results.

        Parameters
        ----------
        seed : int or None
            The seed the run will use (``--seed`` overrides the file's).

        Returns
        -------
        str
            Hex digest over the parsed scenario (minus text-only keys), the seed,
            gamesim's version, the fingerprint of its code and built-in data
            (:func:`gamesim.core.fingerprint.code_fingerprint`) and the SHA-256 of
            every data file, by the value naming it: chunks from a different
            scenario version, data-file content or code are never mixed. The folder a data file
            lies in does not enter: a moved project folder keeps its chunks.
        """
        from gamesim.core.version import __version__
        from gamesim.core.fingerprint import code_fingerprint

        content = {k: v for k, v in self.raw.items() if k not in {"title", "question", "notes", "notebook", "seed"}}
        doc: dict[str, Any] = {"scenario": content, "seed": seed, "version": __version__, "code": code_fingerprint()}
        if self.data_files:
            doc["data_files"] = {d.value: d.sha256 for d in self.data_files}
        blob = json.dumps(doc, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()


def _describe_allowed(p: Param) -> str:
    """What a parameter accepts, in words."""
    kinds = {
        "int": "an integer",
        "float": "a number",
        "bool": "true or false",
        "str": "a string",
        "int_list": "a list of integers",
        "float_list": "a list of numbers",
        "int_pairs": "a list of [integer, integer] pairs",
    }
    s = kinds[p.kind]
    bounds = []
    if p.min is not None:
        bounds.append(f">= {p.min:g}")
    if p.max is not None:
        bounds.append(f"<= {p.max:g}")
    if bounds:
        s += (" with every element " if p.kind.endswith(("list", "pairs")) else " ") + " and ".join(bounds)
    if p.choices is not None:
        s += " in {" + ", ".join(repr(c) for c in p.choices) + "}"
    if p.optional:
        s += " (or leave the key out)"
    return s


_is_int = is_int_value
_is_num = is_number_value


def check_param_value(p: Param, value: Any) -> Any:
    """Check one parameter value against its :class:`Param` and normalise it.

    Parameters
    ----------
    p : Param
        The declaration.
    value : object
        Value as parsed from TOML (or given in Python).

    Returns
    -------
    object
        The value, with tuples turned into lists and ints into floats for
        ``float`` kinds.

    Raises
    ------
    ParamError
        If the type, a bound or the choices do not match; the message says what
        is allowed.
    """
    allowed = _describe_allowed(p)
    if value is None:
        if p.optional:
            return None
        raise ParamError(p.name, value, allowed)
    if p.kind == "int":
        ok = _is_int(value)
        elems = [value]
    elif p.kind == "float":
        ok = _is_num(value)
        elems = [value]
        value = float(value) if ok else value
    elif p.kind == "bool":
        return value if isinstance(value, bool) else _raise(p, value, allowed)
    elif p.kind == "str":
        ok = isinstance(value, str)
        elems = []
    elif p.kind in ("int_list", "float_list"):
        check = _is_int if p.kind == "int_list" else _is_num
        ok = isinstance(value, (list, tuple)) and len(value) > 0 and all(check(v) for v in value)
        elems = list(value) if ok else []
        value = list(value) if ok else value
    elif p.kind == "int_pairs":
        ok = (
            isinstance(value, (list, tuple))
            and len(value) > 0
            and all(isinstance(v, (list, tuple)) and len(v) == 2 and all(_is_int(x) for x in v) for v in value)
        )
        elems = [x for v in value for x in v] if ok else []
        value = [list(v) for v in value] if ok else value
    else:  # pragma: no cover - Param kinds are a closed set
        raise ValueError(f"unknown parameter kind {p.kind!r}")
    if not ok:
        _raise(p, value, allowed)
    for e in elems:
        if (p.min is not None and e < p.min) or (p.max is not None and e > p.max):
            _raise(p, value, allowed)
    if p.choices is not None and value not in p.choices:
        _raise(p, value, allowed)
    return value


def _raise(p: Param, value: Any, allowed: str) -> Any:
    raise ParamError(p.name, value, allowed)


#: Longest scenario or part name (characters).
MAX_NAME_LENGTH = 100
#: Largest ``chunk_size``: the trials of one chunk are held in memory at once, per
#: metric and inside the simulator (e.g. a dice array of dice x trials).
MAX_CHUNK_SIZE = 1_000_000
#: Largest trial count per cell (``n_trials``, ``parts[i].n_trials``,
#: ``precision.max_trials``): bounds a cell's run time (its chunks are summarised where they run,
#: so memory stays flat; a chunk's trials are held at once, see ``MAX_CHUNK_SIZE``).
MAX_TRIALS = 10_000_000
#: Most grid cells in one part.
MAX_CELLS = 100_000
#: Largest data file a ``file=True`` parameter may name (bytes); card lists are a few kB.
MAX_DATA_FILE_BYTES = 16 * 1024 * 1024


class DataFileResolver:
    """Resolves and fingerprints the data files a scenario's ``file=True`` parameters name.

    Parameters
    ----------
    where : str
        The scenario's name in messages (its file, or ``<scenario dict>``).
    folder : pathlib.Path
        The folder relative paths are read from (the scenario file's).

    Attributes
    ----------
    found : dict of pathlib.Path to DataFile
        Every file resolved so far, fingerprinted once.
    """

    def __init__(self, where: str, folder: Path):
        self.where = where
        self.folder = folder
        self.found: dict[Path, DataFile] = {}

    def resolve(self, key: str, value: str) -> str:
        """The absolute path of a data-file value (a built-in name unchanged), fingerprinted once.

        Raises
        ------
        ScenarioError
            Naming the key and the file: missing, a folder, unreadable, too large or not UTF-8.
        """
        given = Path(value)
        cand = given if given.is_absolute() else self.folder / given
        head = f"{self.where}: {key} = {value!r}"
        try:
            is_file, exists = cand.is_file(), cand.exists()
        except (OSError, ValueError) as exc:  # a NUL byte, a name too long for the file system
            raise ScenarioError(f"{head}: not a usable file name ({exc})") from None
        if not is_file:
            if exists:
                raise ScenarioError(f"{head}: {cand} is not a regular file; give a data file")
            if given.is_absolute() or given.suffix or len(given.parts) > 1 or not value.isprintable():
                shown = str(cand) if str(cand).isprintable() else repr(str(cand))
                raise ScenarioError(f"{head}: no such file {shown} (a relative path is read from the scenario "
                                    f"file's folder, {self.folder})")
            return value  # a built-in name (e.g. "illustrative"): the task checks it
        path = cand.resolve()
        if path not in self.found:
            try:
                size = path.stat().st_size
                if size > MAX_DATA_FILE_BYTES:
                    raise ScenarioError(f"{head}: {path} has {size:,} bytes, must have at most "
                                        f"{MAX_DATA_FILE_BYTES:,} (size limit, see docs/reliability.md)")
                blob = path.read_bytes()
            except OSError as exc:
                raise ScenarioError(f"{head}: cannot read {path} ({exc.strerror or type(exc).__name__})") from None
            try:
                blob.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ScenarioError(f"{head}: {path} is not UTF-8 text (byte 0x{blob[exc.start]:02x} at offset "
                                    f"{exc.start}); save it as UTF-8") from None
            self.found[path] = DataFile(key, value, path, hashlib.sha256(blob).hexdigest())
        return str(path)


def _toml_text(value: Any, *, string: Callable[[str], str] = repr) -> str:
    """``value`` as a scenario file spells it: ``true``/``false``, dates as written, lists and inline
    tables of those, numbers as Python writes them.

    Parameters
    ----------
    value : Any
        A value read from, or to be written into, a scenario file.
    string : callable, default repr
        How a string is written: ``repr`` (single quotes, TOML's literal string) in error messages;
        ``gamesim new`` passes a writer of TOML basic strings.

    Returns
    -------
    str
        E.g. ``true``, ``[20, true, 60]``, ``{ many = true, "a b" = [1.5] }``, ``2024-01-01``.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_text(v, string=string) for v in value) + "]"
    if isinstance(value, dict):
        items = [f"{k if _BARE_KEY.fullmatch(str(k)) else json.dumps(str(k), ensure_ascii=False)} = "
                 f"{_toml_text(v, string=string)}" for k, v in value.items()]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    if isinstance(value, (datetime.date, datetime.time)):  # datetime.datetime is a date
        return value.isoformat()
    return repr(value)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _fail(where: str, key: str, value: Any, allowed: str) -> ScenarioError:
    """The one-line error of a bad value: ``"<file>: <key path> = <value>, must be <what is allowed>"``, the
    value spelled as in the file (:func:`_toml_text`: ``seed = true``, not Python's ``True``)."""
    return ScenarioError(f"{where}: {key} = {_toml_text(value)}, must be {allowed}")


def _check_name(where: str, key: str, name: str) -> None:
    """Names become file names, table values and report headings: printable, short."""
    if len(name) > MAX_NAME_LENGTH or not name.isprintable() or name != name.strip():
        raise ScenarioError(
            f"{where}: {key} = {name[:120]!r}{'...' if len(name) > 120 else ''}, must be a printable name of at most "
            f"{MAX_NAME_LENGTH} characters (no tab, newline or NUL; no leading or trailing space)"
        )


def _check_size(where: str, key: str, value: Any, cap: int) -> None:
    """Refuse sizes that would exhaust memory or run for days, before anything starts."""
    if _is_int(value) and value > cap:
        raise ScenarioError(f"{where}: {key} = {_toml_text(value)}, must be an integer <= {cap:,} (size limit, see "
                            "docs/reliability.md)")


def _check_grid_values(where: str, key: str, values: list[Any]) -> None:
    """A grid value listed twice would be two identical cells: an error, not a silent duplicate."""
    seen: set[tuple[str, str]] = set()
    for j, v in enumerate(values):
        ident = (type(v).__name__, json.dumps(v, sort_keys=True, default=repr))
        if ident in seen:
            raise ScenarioError(f"{where}: {key}[{j}] = {v!r} is listed twice; each grid value must be unique")
        seen.add(ident)


def read_scenario_source(source: str | Path | Mapping[str, Any]) -> tuple[dict[str, Any], str, Path | None]:
    """The raw content of a scenario file (parsed TOML) or a copy of a scenario dict, unvalidated.

    Returns
    -------
    (dict, str, pathlib.Path or None)
        The raw tables, the name used in messages (the path, or ``<scenario dict>``)
        and the path (``None`` for a dict).

    Raises
    ------
    ScenarioError
        If the file is missing, not UTF-8, not valid TOML or nested too deeply.
    """
    if isinstance(source, Mapping):
        return copy.deepcopy(dict(source)), "<scenario dict>", None
    path = Path(source)
    where = str(path)
    if not path.is_file():
        raise ScenarioError(f"{where}: no such scenario file")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{where}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{where}: not UTF-8 text: {exc}") from None
    except RecursionError:
        raise ScenarioError(f"{where}: not a usable scenario: arrays or tables nested too deeply") from None
    return raw, where, path


def load_scenario(source: str | Path | Mapping[str, Any], *, base_dir: str | Path | None = None) -> Scenario:
    """Load and validate a scenario: a TOML file, or the same content as a dict.

    Parameters
    ----------
    source : str, pathlib.Path or Mapping
        The ``.toml`` file, or a mapping with the keys a scenario file has (for
        notebooks: ``{"game": "gacha", "n_trials": 2000, "parts": [...]}``); a
        mapping without ``name`` is called ``"scenario"``.
    base_dir : str or pathlib.Path, optional
        For a mapping only: the folder a ``notebook`` path and data-file paths
        (``file=True`` parameters such as gacha_game's ``data``) are relative to
        (default: the current directory). A file's paths are relative to its folder.

    Returns
    -------
    Scenario
        ``path`` is ``None`` for a mapping.

    Raises
    ------
    ScenarioError
        If the file is missing or not valid TOML, or any key is unknown, of the
        wrong type or out of range (including a task's cross-parameter checks,
        e.g. chip counts that do not add up), or a data file is missing,
        unreadable, larger than :data:`MAX_DATA_FILE_BYTES` or not UTF-8, or if ``notebook`` names a file
        that is not a notebook shipped with gamesim (:func:`shipped_notebook_dirs`;
        ``..``, absolute paths and symlinks are resolved first). The message names
        the file (or ``<scenario dict>``), the key path
        (``parts[0].grid.session_size``), the value and what is allowed.

    Notes
    -----
    A scenario is data, never code. When the environment variable
    ``GAMESIM_NOTEBOOK`` is set (``gamesim report X.toml --notebook PATH`` sets it:
    the person at the keyboard chose that notebook), that path is the scenario's
    ``notebook`` and the file's ``notebook`` key is not used.
    """
    raw, where, path = read_scenario_source(source)
    if path is None:
        folder = Path(base_dir) if base_dir is not None else Path.cwd()
        stem = "scenario"
    else:
        folder = path.parent
        stem = path.stem

    fail = functools.partial(_fail, where)

    files = DataFileResolver(where, folder.resolve())

    check_keys(raw, list(_TOP_KEYS), where=where, error=ScenarioError)

    def get_str(key: str, default: str | None = None) -> str:
        v = raw.get(key, default)
        if not isinstance(v, str):
            if v is None:
                raise ScenarioError(f"{where}: missing key {key!r} ({_TOP_KEYS[key]})")
            raise fail(key, v, _TOP_KEYS[key])
        return v

    def get_int(key: str, default: int | None, lo: int) -> int | None:
        v = raw.get(key, default)
        if v is None:
            return None
        if not _is_int(v) or v < lo:
            raise fail(key, v, f"an integer >= {lo}")
        return v

    name = get_str("name", stem)
    if not name or any(c in name for c in "/\\ "):
        raise fail("name", name, "a non-empty string without spaces or slashes")
    _check_name(where, "name", name)
    games = all_games()
    game_name = get_str("game")
    if game_name not in games:
        raise fail("game", game_name, "one of: " + ", ".join(sorted(games)))
    game = games[game_name]
    seed = get_int("seed", None, 0)
    n_trials = get_int("n_trials", None, 1)
    if n_trials is None:
        raise ScenarioError(f"{where}: missing key 'n_trials' ({_TOP_KEYS['n_trials']})")
    chunk_size = get_int("chunk_size", min(n_trials, 10_000), 1)
    _check_size(where, "n_trials", n_trials, MAX_TRIALS)
    _check_size(where, "chunk_size", chunk_size, MAX_CHUNK_SIZE)
    notebook = _scenario_notebook(raw, where, folder, fail, get_str, os.environ.get(NOTEBOOK_ENV) or None)

    fixed_all = raw.get("params", {})
    if not isinstance(fixed_all, dict):
        raise fail("params", fixed_all, _TOP_KEYS["params"])
    raw_parts = raw.get("parts")
    if not isinstance(raw_parts, list) or not raw_parts or not all(isinstance(p, dict) for p in raw_parts):
        raise fail("parts", raw_parts, "a non-empty array of tables [[parts]], each with name, task and grid")

    used_fixed: set[str] = set()
    parts: list[Part] = []
    seen: set[str] = set()
    for i, rp in enumerate(raw_parts):
        parts.append(_parse_part(where, f"parts[{i}]", rp, game, fixed_all, used_fixed, seen, n_trials, files))

    for k in fixed_all:
        if k not in used_fixed:
            accepted = sorted({p.name for part in parts for p in part.task.params})
            raise ScenarioError(
                f"{where}: unknown parameter params.{k}: no part's task takes it; allowed: {', '.join(accepted)}"
            )

    parts = _with_events(where, raw, parts)
    for i, part in enumerate(parts):  # after the events: a findings key may name an event metric
        if part.findings and not set(part.findings) <= set(names := _metric_names([part])):
            raise fail(f"parts[{i}].findings", list(part.findings),
                       f"a list of metrics of task {part.task.name!r}: {', '.join(names)}")

    precision = _parse_precision(where, raw, parts, n_trials)
    compare = _parse_compare(where, raw.get("compare"), parts)
    distributions = raw.get("distributions", True)
    if not isinstance(distributions, bool):
        raise fail("distributions", distributions, _TOP_KEYS["distributions"])

    return Scenario(
        path=path,
        name=name,
        title=get_str("title", name),
        question=get_str("question", ""),
        notes=get_str("notes", ""),
        game=game,
        notebook=notebook,
        seed=seed,
        n_trials=n_trials,
        chunk_size=chunk_size,
        parts=tuple(parts),
        precision=precision,
        raw=raw,
        compare=compare,
        distributions=distributions,
        data_files=tuple(files.found.values()),
    )


def _parse_part(where: str, at: str, rp: dict[str, Any], game: Game, fixed_all: Mapping[str, Any],
                used_fixed: set[str], seen: set[str], n_trials: int, files: DataFileResolver) -> Part:
    """One ``[[parts]]`` table ``rp`` (at key path ``at``) of a scenario: its task, parameters, grid and cases,
    each value checked, and the task's cross-parameter checks run on every cell. Adds the scenario-wide
    ``params`` the part's task takes to ``used_fixed``, and its name to ``seen`` (the names of the parts
    before it, which it must not repeat).

    Raises
    ------
    ScenarioError
        As :func:`load_scenario`, naming ``at`` in the key path.
    """

    fail = functools.partial(_fail, where)

    check_keys(rp, sorted(_PART_KEYS), where=where, at=at, error=ScenarioError)
    pname = rp.get("name")
    if not isinstance(pname, str) or not pname:
        raise fail(f"{at}.name", pname, "a non-empty string")
    _check_name(where, f"{at}.name", pname)
    if pname in seen:
        raise fail(f"{at}.name", pname, "unique among parts")
    seen.add(pname)
    tname = rp.get("task")
    if tname not in game.tasks:
        raise fail(f"{at}.task", tname, f"a task of game {game.name!r}: " + ", ".join(game.tasks))
    task = game.tasks[tname]
    known = {p.name: p for p in task.params}
    fixed: dict[str, Any] = {}
    for k, v in fixed_all.items():
        if k in known:
            used_fixed.add(k)
            fixed[k] = _checked(where, f"params.{k}", known[k], v, files)
    own = rp.get("params", {})
    if not isinstance(own, dict):
        raise fail(f"{at}.params", own, "a table of parameters")
    for k, v in own.items():
        if k not in known:
            raise ScenarioError(
                f"{where}: unknown parameter {at}.params.{k} for task {tname!r}; allowed: {', '.join(known)}"
            )
        fixed[k] = _checked(where, f"{at}.params.{k}", known[k], v, files)
    grid_raw = rp.get("grid", {})
    if not isinstance(grid_raw, dict):
        raise fail(f"{at}.grid", grid_raw, "a table of parameter -> list of values")
    grid: dict[str, list[Any]] = {}
    for k, vals in grid_raw.items():
        if k not in known:
            raise ScenarioError(
                f"{where}: unknown parameter {at}.grid.{k} for task {tname!r}; allowed: {', '.join(known)}"
            )
        if not isinstance(vals, list) or not vals:
            raise fail(f"{at}.grid.{k}", vals, f"a non-empty list, each value {_describe_allowed(known[k])}")
        grid[k] = [_checked(where, f"{at}.grid.{k}[{j}]", known[k], v, files) for j, v in enumerate(vals)]
        _check_grid_values(where, f"{at}.grid.{k}", grid[k])
        if k in own:
            raise ScenarioError(f"{where}: {at}.params.{k} and {at}.grid.{k} both set {k!r}; keep one of them")
        fixed.pop(k, None)
    cases = _parse_cases(where, at, rp.get("cases"), known, grid, own, tname, files)
    for case in cases:
        for k in case.params:
            fixed.pop(k, None)
    part_trials = rp.get("n_trials", n_trials)
    if not _is_int(part_trials) or part_trials < 1:
        raise fail(f"{at}.n_trials", part_trials, "an integer >= 1")
    _check_size(where, f"{at}.n_trials", part_trials, MAX_TRIALS)
    n_cells = math.prod(len(v) for v in grid.values()) * max(1, len(cases))
    if n_cells > MAX_CELLS:
        raise ScenarioError(f"{where}: {at}.grid has {n_cells:,} cells{' (with its cases)' if cases else ''}, must "
                            f"have at most {MAX_CELLS:,} (size limit, see docs/reliability.md)")
    title = rp.get("title", "")
    if not isinstance(title, str):
        raise fail(f"{at}.title", title, "a string")
    pquestion = rp.get("question", "")
    if not isinstance(pquestion, str):
        raise fail(f"{at}.question", pquestion, "a string")
    findings = rp.get("findings", [])
    if isinstance(findings, str):
        findings = [findings]
    if (not isinstance(findings, list) or not all(isinstance(m, str) and m for m in findings)
            or len(set(findings)) != len(findings)):
        raise fail(f"{at}.findings", rp.get("findings"), "a list of different metric names of the part's task")
    part = Part(pname, task, fixed, grid, part_trials, title, tuple(cases), pquestion, tuple(findings))
    if task.check is not None:
        per_case = math.prod(len(v) for v in grid.values())  # cells are in case order, then the grid's
        cells = part.cells()
        for i, cell in enumerate(cells):
            try:
                task.check(cell)
            except ParamError as exc:
                j = i // per_case
                notes = []  # a default, or a fixed value, that a swept setting rules out: say so, and where
                if exc.key in grid:
                    src = f"{at}.grid.{exc.key}"
                elif cases and exc.key in cases[j].params:
                    src = f"{at}.cases[{j}].{exc.key}"
                elif exc.key in own:
                    src = f"{at}.params.{exc.key}"
                elif exc.key in fixed_all:
                    src = f"params.{exc.key}"
                else:
                    src = exc.key
                    notes.append("the task's default, not set in the file")
                swept = {k: v for k, v in part.labels()[i].items() if k not in (CASE, exc.key)}
                if exc.key not in grid and swept and _ruled_out_in_some_cells(task.check, cells, i, exc.key):
                    notes.append("at " + ", ".join(f"{k} = {_toml_text(v)}" for k, v in swept.items()))
                raise fail(src + (f" ({'; '.join(notes)})" if notes else ""), exc.value, exc.allowed) from None
    return part


def _same_value(a: Any, b: Any) -> bool:
    """Whether two values read from a scenario are the same setting: equal, and ``true`` never the same as ``1``."""
    return bool(a == b) and isinstance(a, bool) == isinstance(b, bool)


def _ruled_out_in_some_cells(check: CheckFn, cells: list[dict[str, Any]], failed: int, key: str) -> bool:
    """Whether the value of ``key`` that failed ``check`` in cell ``failed`` passes in another cell with the
    same value of ``key`` (another swept setting rules it out), so that the error should name the cell."""
    value = cells[failed][key]
    for i, cell in enumerate(cells):
        if i == failed or not _same_value(cell.get(key), value):
            continue
        try:
            check(cell)
        except ParamError as other:
            if other.key != key:
                return True
        else:
            return True
    return False


def _parse_precision(where: str, raw: Mapping[str, Any], parts: list[Part], n_trials: int) -> Precision | None:
    """The scenario's ``[precision]`` table (``None`` without one).

    Raises
    ------
    ScenarioError
        As :func:`load_scenario`.
    """
    if "precision" not in raw:
        return None

    fail = functools.partial(_fail, where)

    pr = raw["precision"]
    if not isinstance(pr, dict):
        raise fail("precision", pr, _TOP_KEYS["precision"])
    check_keys(pr, sorted(_PRECISION_KEYS), where=where, at="precision", error=ScenarioError)
    metric = pr.get("metric")
    all_metrics = _metric_names(parts)
    if metric not in all_metrics:
        raise fail("precision.metric", metric, "a metric of the scenario's tasks: " + ", ".join(all_metrics))
    hw = pr.get("half_width")
    if not _is_num(hw) or hw <= 0:
        raise fail("precision.half_width", hw, "a number > 0 (the 95% interval half-width, in the metric's units)")
    cap = pr.get("max_trials", min(10 * n_trials, MAX_TRIALS))
    if not _is_int(cap) or cap < 1:
        raise fail("precision.max_trials", cap, "an integer >= 1")
    _check_size(where, "precision.max_trials", cap, MAX_TRIALS)
    return Precision(metric, float(hw), cap)


#: Environment variable naming the notebook the person at the keyboard chose (``gamesim report
#: X.toml --notebook PATH`` sets it for its own process and the notebook's kernel). A file cannot set
#: it, so a scenario's ``notebook`` key can never make gamesim run a notebook nobody chose.
NOTEBOOK_ENV = "GAMESIM_NOTEBOOK"


def shipped_notebook_dirs() -> tuple[Path, ...]:
    """The folders whose notebooks a scenario file may name.

    Returns
    -------
    tuple of pathlib.Path
        Resolved: the package's own ``gamesim/report/notebooks/`` and, in a source checkout
        (a ``pyproject.toml`` beside the package), the repository's ``notebooks/``.

    Notes
    -----
    A scenario is data, never code: a scenario from a colleague or a forum post must
    not make gamesim execute a notebook that came with it. Any other notebook runs
    only when its user names it (``gamesim report X.toml --notebook PATH``), as
    papermill runs only the notebook its user names.
    """
    pkg = Path(__file__).resolve().parent.parent
    dirs = [pkg / "report" / "notebooks"]
    repo = pkg.parent
    if (repo / "pyproject.toml").is_file() and (repo / "notebooks").is_dir():
        dirs.append((repo / "notebooks").resolve())
    return tuple(dirs)


def _scenario_notebook(raw: Mapping[str, Any], where: str, folder: Path, fail: Any, get_str: Any,
                       chosen: str | None) -> Path | None:
    """The scenario's ``notebook``: a shipped notebook, or the one its user named (``chosen``)."""
    if chosen is not None:  # named at the keyboard: it replaces whatever the file says
        if "notebook" in raw:
            get_str("notebook")
        return Path(chosen).resolve()
    if "notebook" not in raw:
        return None
    nb_rel = get_str("notebook")
    dirs = shipped_notebook_dirs()
    allowed = (f"a .ipynb file shipped with gamesim (in {' or '.join(str(d) for d in dirs)}), relative to "
               f"{folder}; a scenario file cannot name another notebook: to run one, name it yourself with "
               f"`gamesim report {where} --notebook PATH`")
    if "\x00" in nb_rel:
        raise fail("notebook", nb_rel, allowed)
    notebook = (folder / nb_rel).resolve()  # follows symlinks and "..": checked where it really lands
    if notebook.suffix != ".ipynb" or not notebook.is_file() \
            or not any(notebook.is_relative_to(d) for d in dirs):
        raise fail("notebook", nb_rel, allowed)
    return notebook


def _event_names(node: Any) -> list[str]:
    """Every string written as an event call anywhere in a (nested) TOML value, keys included."""
    from gamesim.core.events import looks_like_event

    if isinstance(node, str):
        return [node] if looks_like_event(node) else []
    if isinstance(node, dict):
        return [n for k, v in node.items() for n in (_event_names(k) + _event_names(v))]
    if isinstance(node, (list, tuple)):
        return [n for v in node for n in _event_names(v)]
    return []


def _canonical_events(where: str, node: Any) -> Any:
    """``node`` with every event name (values and keys) in its canonical spelling."""
    from gamesim.core.events import looks_like_event, parse_event

    def canon(v: Any) -> Any:
        if not looks_like_event(v):
            return v
        try:
            return parse_event(v).name
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None

    if isinstance(node, dict):
        return {canon(k): _canonical_events(where, v) for k, v in node.items()}
    if isinstance(node, list):
        return [_canonical_events(where, v) for v in node]
    return canon(node)


def events_in(where: str, node: Any) -> tuple[Any, list[str]]:
    """A TOML value with its event names in canonical spelling, and those names.

    For tables read apart from the scenario (``[target]`` in :mod:`gamesim.analysis.search`):
    their events go into the scenario's ``events`` list before it is loaded.

    Raises
    ------
    ScenarioError
        An event name that does not parse (the message names ``where``).
    """
    canon = _canonical_events(where, node)
    return canon, _event_names(canon)


def _with_events(where: str, raw: dict[str, Any], parts: list[Part]) -> list[Part]:
    """Parts whose tasks carry the event metrics the scenario asks for.

    Events are those listed in ``events`` and any event name written in
    ``[precision]``, ``[compare]`` or ``[target]``; each is added to the parts
    whose task has its metric (as a ``mean`` metric).
    """
    from gamesim.core.events import parse_event, with_events

    listed = raw.get("events", [])
    if not isinstance(listed, list) or not all(isinstance(e, str) for e in listed):
        raise _fail(where, "events", listed, _TOP_KEYS["events"])
    for key in ("precision", "compare", "target"):  # one spelling everywhere: "at_least(wounds, 2)"
        if key in raw:
            raw[key] = _canonical_events(where, raw[key])
    names = list(listed) + [n for key in ("precision", "compare", "target") for n in _event_names(raw.get(key))]
    if not names:
        return parts
    events = []
    for name in names:
        try:
            events.append(parse_event(name))
        except ValueError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
    out = []
    used = set()
    for part in parts:
        cell = part.cells()[0]
        numeric = {m.name for m in part.task.metrics_for(cell) if m.kind == "mean"}
        mine = [e.name for e in events if e.metric in numeric]
        used.update(mine)
        out.append(replace(part, task=with_events(part.task, mine)) if mine else part)
    for e in events:
        if e.name not in used:
            allowed = sorted({m.name for p in parts for m in p.task.metrics_for(p.cells()[0]) if m.kind == "mean"})
            raise ScenarioError(f"{where}: event {e.name!r} reads {e.metric!r}, must read a numeric metric of "
                                f"the scenario's tasks: {', '.join(allowed) or 'none'}")
    return out


def _case_label(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, (list, tuple)) else str(value)


def _parse_cases(
    where: str, at: str, raw_cases: Any, known: Mapping[str, Param], grid: Mapping[str, Any], own: Mapping[str, Any],
    tname: str, files: DataFileResolver | None = None,
) -> list[Case]:
    """Validate a part's ``cases``: a list of tables of parameters (plus an optional ``name``)."""
    if raw_cases is None:
        return []
    allowed = "a non-empty list of tables of parameters, e.g. [{name = \"A\", bag_n = 44}, {bag_n = 43}]"
    if not isinstance(raw_cases, list) or not raw_cases or not all(isinstance(c, dict) for c in raw_cases):
        raise _fail(where, f"{at}.cases", raw_cases, allowed)
    out: list[Case] = []
    for j, rc in enumerate(raw_cases):
        params: dict[str, Any] = {}
        for k, v in rc.items():
            if k == "name":
                continue
            if k not in known:
                raise ScenarioError(
                    f"{where}: unknown parameter {at}.cases[{j}].{k} for task {tname!r}; allowed: name, {', '.join(known)}"
                )
            if k in grid:
                raise ScenarioError(
                    f"{where}: {at}.cases[{j}].{k} is also swept in {at}.grid.{k}; set it in one place only"
                )
            params[k] = _checked(where, f"{at}.cases[{j}].{k}", known[k], v, files)
        label = rc.get("name")
        if label is None:
            label = ", ".join(f"{k}={_case_label(v)}" for k, v in params.items()) or "defaults"
        elif not isinstance(label, str) or not label.strip():
            raise ScenarioError(f"{where}: {at}.cases[{j}].name = {_toml_text(label)}, must be a non-empty string")
        else:
            _check_name(where, f"{at}.cases[{j}].name", label)
        if any(c.name == label for c in out):
            raise ScenarioError(f"{where}: {at}.cases[{j}].name = {_toml_text(label)}, must be unique among the part's cases")
        out.append(Case(label, params))
    return out


def _parse_compare(where: str, rc: Any, parts: list[Part]) -> Compare | None:
    """Validate the ``[compare]`` table against the parts' dimensions."""
    if rc is None:
        return None
    if not isinstance(rc, dict):
        raise _fail(where, "compare", rc, _TOP_KEYS["compare"])
    check_keys(rc, sorted(_COMPARE_KEYS), where=where, at="compare", error=ScenarioError)
    base = rc.get("baseline")
    # a swept value written as the baseline itself (baseline = "greedy" or 5): the message says how to name it
    named = [d for p in parts for d, vals in p.grid.items()
             if not isinstance(base, (dict, list)) and any(_same_value(v, base) for v in vals)]
    hint = f" (to compare against that value write baseline = {{ {named[0]} = {_toml_text(base)} }})" if named else ""
    if isinstance(base, str):
        dimension, value = CASE, base
    elif isinstance(base, dict) and len(base) == 1:
        (dimension, value), = base.items()
    else:
        example = next((f"{{ {d} = {_toml_text(vals[0])} }}" for p in parts for d, vals in p.grid.items()),
                       "{ bag_n = 44 }")
        raise ScenarioError(
            (f"{where}: compare.baseline is missing; give" if base is None else
             f"{where}: compare.baseline = {_toml_text(base)}, must be")
            + f" a case name (a string) or a table with one swept parameter, e.g. {example}"
            + (" (with pairs = \"all\" too: it names the dimension whose values are compared)"
               if rc.get("pairs") == "all" else "") + hint
        )
    having = [p for p in parts if dimension in p.dim_values()]
    if not having:
        swept = sorted({d for p in parts for d in p.dims})
        what = "no part has cases" if dimension == CASE else f"no part sweeps {dimension!r}"
        raise ScenarioError(
            f"{where}: compare.baseline = {base!r}: {what}; swept dimensions: {', '.join(swept) or 'none'}{hint}"
        )
    for p in having:
        values = p.dim_values()[dimension]
        if not any(_same_value(value, v) for v in values):
            raise ScenarioError(
                f"{where}: compare.baseline = {_toml_text(base)}, must be one of the "
                f"{'cases' if dimension == CASE else dimension + ' values'} of part {_toml_text(p.name)}: "
                f"{', '.join(map(_toml_text, values))}"
            )
    metrics = rc.get("metrics")
    if metrics is not None:
        names = _metric_names(having)
        if isinstance(metrics, str):
            metrics = [metrics]
        if not isinstance(metrics, list) or not metrics or any(m not in names for m in metrics):
            raise ScenarioError(
                f"{where}: compare.metrics = {_toml_text(rc.get('metrics'))}, must be a list of metrics of the compared "
                f"parts: {', '.join(names)}"
            )
        metrics = tuple(metrics)
    crn = rc.get("crn", True)
    if not isinstance(crn, bool):
        raise ScenarioError(f"{where}: compare.crn = {_toml_text(crn)}, must be true or false")
    pairs = rc.get("pairs", "baseline")
    if pairs not in ("baseline", "all"):
        raise ScenarioError(f"{where}: compare.pairs = {_toml_text(pairs)}, must be \"baseline\" or \"all\"")
    better = rc.get("better", "higher")
    if better not in ("higher", "lower"):
        raise ScenarioError(f"{where}: compare.better = {_toml_text(better)}, must be \"higher\" or \"lower\"")
    return Compare(dimension, value, metrics, crn, pairs, better)


def _metric_names(parts: list[Part]) -> list[str]:
    """Every metric some cell of ``parts`` reports, sorted.

    Over every cell, not the first: a task's metrics can depend on the cell (gacha_game's
    ``win_seat3`` exists only with 3 or more players), and the answer must not depend on
    the order of a grid's values. Cells without the metric are skipped by the precision
    top-up and have no comparison rows for it.
    """
    names: set[str] = set()
    for part in parts:
        for cell in part.cells():
            names.update(m.name for m in part.task.metrics_for(cell))
    return sorted(names)


def _checked(where: str, key: str, p: Param, value: Any, files: DataFileResolver | None = None) -> Any:
    try:
        value = check_param_value(p, value)
    except ParamError as exc:
        raise _fail(where, key, value, exc.allowed) from None
    if p.file and files is not None and isinstance(value, str):
        value = files.resolve(key, value)
    return value


def _as_tuple(v: Any) -> Any:
    return tuple(_as_tuple(x) for x in v) if isinstance(v, (list, tuple)) else v


def param_columns(cell: Mapping[str, Any]) -> dict[str, Any]:
    """A cell's parameters as tidy-table values.

    List-valued parameters become tuples (nested for pairs): hashable, so results
    can be grouped and filtered by them, and stored as list columns in parquet.
    """
    return {k: _as_tuple(v) for k, v in cell.items()}

