"""The import graph of ``gamesim``: no cycles, and every import goes down (or across) the layers.

Every module of the package is parsed with :mod:`ast` (nothing is imported), including imports
inside functions; imports under ``if TYPE_CHECKING:`` are left out (they never run). The layers,
from the bottom up, and what each may import, are in :data:`LAYERS` and in docs/architecture.md.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "gamesim"

#: The layers from the bottom up: a module may import modules of its own layer or of a layer
#: below, never above. Names are module prefixes (``gamesim.report`` covers the package; the
#: longest matching prefix wins). ``games`` sit beside ``run``: a game imports the core only, and
#: the run layer reaches the games only through the registry (which imports them by name at run
#: time). The folders show the layers: ``core/`` holds 0-2, ``games/`` 3, ``run/`` 4,
#: ``analysis/`` 5, ``report/`` 6, and ``api.py``/``cli.py`` 7. The old ``core.<name>`` of a moved
#: module (:data:`SHIMS`) is the moved module itself, so it sits in that module's layer.
LAYERS: dict[str, tuple[str, ...]] = {
    # 0. errors, version and the helpers that import nothing from gamesim
    "base": ("gamesim.core.errors", "gamesim.core.version", "gamesim.core.lazy", "gamesim.core.sanitize",
             "gamesim.core.fingerprint", "gamesim.core.tablecheck", "gamesim.core.datafile",
             "gamesim.core.machine", "gamesim.core.signals"),
    # 1. validation, seeding, estimates (analysis.py holds the comparison and distribution estimators,
    #    which the sweep computes from chunk moments: it imports stats and summary only)
    "primitives": ("gamesim.core.validate", "gamesim.core.rng", "gamesim.core.stats", "gamesim.core.summary",
                   "gamesim.core.analysis", "gamesim.core.frames",
                   "gamesim.core.batching", "gamesim.core.samplers"),
    # 2. games and tasks as the engine sees them, and the event metrics a scenario declares
    "registry": ("gamesim.core.registry", "gamesim.core.events"),
    # 3. the games (each imports the layers 0-2 only)
    "games": ("gamesim.games",),
    # 4. scenario -> chunks -> sweep -> results (gamesim/run/, and the old core/ names)
    "run": ("gamesim.run", "gamesim.core.scenario", "gamesim.core.chunks", "gamesim.core.sweep",
            "gamesim.core.results"),
    # 5. what reads and steers runs: target search, sensitivity (gamesim/analysis/, and the old core/ names)
    "analysis": ("gamesim.analysis", "gamesim.core.target", "gamesim.core.search", "gamesim.core.sensitivity"),
    # 6. tables, plots, pages and notebooks (the core/ names are shims kept for old imports)
    "report": ("gamesim.report", "gamesim.core.report", "gamesim.core.generic_report", "gamesim.core.present"),
    # 7. the Python API and the command line
    "api": ("gamesim.api", "gamesim.core.api", "gamesim.cli", "gamesim"),
}

#: Old names of moved modules: ``gamesim.core.<name>`` *is* the module it names here (the shim puts
#: the moved module in ``sys.modules`` under the old name), with no deprecation warning.
SHIMS: dict[str, str] = {
    "gamesim.core.scenario": "gamesim.run.scenario",
    "gamesim.core.chunks": "gamesim.run.chunks",
    "gamesim.core.sweep": "gamesim.run.sweep",
    "gamesim.core.results": "gamesim.run.results",
    "gamesim.core.target": "gamesim.analysis.target",
    "gamesim.core.search": "gamesim.analysis.search",
    "gamesim.core.sensitivity": "gamesim.analysis.sensitivity",
    "gamesim.core.api": "gamesim.api",
}
_RANK = {name: i for i, name in enumerate(LAYERS)}

#: Imports allowed across the rules above, each with its reason.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("gamesim.core.registry", "gamesim.games"): (
        "the registry lists the game packages (pkgutil over gamesim.games.__path__); gamesim/games/__init__.py "
        "imports nothing (checked below)"),
}

#: Games a game may import (one game built on another's rules).
GAME_DEPENDS: dict[str, set[str]] = {"gacha_game": {"gacha"}}


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            for stmt in node.body:
                skip.update(id(n) for n in ast.walk(stmt))
    return skip


def import_graph() -> dict[str, dict[str, int]]:
    """``{module: {imported gamesim module: line}}`` for every module of the package."""
    mods = _modules()
    graph: dict[str, dict[str, int]] = {}
    for name, (path, is_pkg) in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = _type_checking_nodes(tree)
        edges: dict[str, int] = {}
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_pkg else name.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                # `from pkg import sub` imports the submodule; `from mod import name` the module
                targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in mods else module for a in node.names]
            for t in targets:
                while t and t not in mods and "." in t:  # `import a.b.c` of a name inside a module
                    t = t.rsplit(".", 1)[0]
                if t in mods and t != name:
                    edges.setdefault(t, node.lineno)
        graph[name] = edges
    return graph


def layer_of(module: str) -> str:
    """The layer a module belongs to (the longest matching prefix in :data:`LAYERS`)."""
    best, best_len = None, -1
    for layer, prefixes in LAYERS.items():
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best_len:
                best, best_len = layer, len(p)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/core/test_architecture.py "
                             "and to docs/architecture.md")
    return best


def _cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _game(module: str) -> tuple[str, str] | None:
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["gamesim", "games"]:
        return parts[2], ".".join(parts[3:])
    return None


def violations(graph: dict[str, dict[str, int]]) -> list[str]:
    """Every import that breaks the layering, as ``module:line -> module (why)``."""
    bad = []
    for src, edges in sorted(graph.items()):
        for dst, line in sorted(edges.items()):
            if (src, dst) in EXCEPTIONS:
                continue
            ls, ld = layer_of(src), layer_of(dst)
            where = f"{src}:{line} -> {dst}"
            if _RANK[ld] > _RANK[ls] and not (ls == "games" and ld == "games"):
                if not (ls == "run" and ld == "games"):  # caught below with a clearer message
                    bad.append(f"{where} (upward: {ls} imports {ld})")
            gs, gd = _game(src), _game(dst)
            if ls == "games" and ld == "run":
                bad.append(f"{where} (a game imports the run layer)")
            if ld == "games" and ls != "games":
                bad.append(f"{where} (only the registry reaches the games)")
            if gs and gd and gs[0] != gd[0] and gd[0] not in GAME_DEPENDS.get(gs[0], set()):
                bad.append(f"{where} (a game imports another game)")
            if gs and gd and gs[0] == gd[0] and gs[1].split(".")[-1] == "reference" and gd[1] == "sim":
                bad.append(f"{where} (a reference imports its simulator: it must replay the rules on its own)")
            if gs and gd and gs[0] == gd[0] and gs[1] == "rules" and gd[1] not in ("data",):
                bad.append(f"{where} (rules.py is a game's bottom: it imports only data.py of its game)")
    return bad


@pytest.fixture(scope="module")
def package_graph() -> dict[str, dict[str, int]]:  # built by the worker that runs this file, not at collection
    return import_graph()


def test_graph_sees_the_package(package_graph) -> None:
    # the walk must find real edges, including imports inside functions
    assert len(package_graph) > 80
    assert "gamesim.core.stats" in package_graph["gamesim.core.analysis"]
    assert "gamesim.report.render" in package_graph["gamesim.cli"]  # imported inside main()
    assert "gamesim.games.gacha.kernels" in package_graph["gamesim.games.gacha.purchase"]  # inside a function


def test_no_import_cycles(package_graph) -> None:
    assert _cycles(package_graph) == []


def test_no_upward_imports(package_graph) -> None:
    assert violations(package_graph) == []


def test_every_module_has_a_layer(package_graph) -> None:
    for module in package_graph:
        layer_of(module)


def test_exceptions_are_still_needed(package_graph) -> None:
    # an exception whose import is gone must be deleted, so the list only shrinks
    for src, dst in EXCEPTIONS:
        assert dst in package_graph[src], f"{src} -> {dst} no longer imported: remove it from EXCEPTIONS"


def test_games_package_imports_nothing(package_graph) -> None:
    assert package_graph["gamesim.games"] == {}


def test_layer_packages_import_nothing(package_graph) -> None:
    # importing one module of a layer costs that module only (sweep workers start light)
    for pkg in ("gamesim.core", "gamesim.run", "gamesim.analysis"):
        assert package_graph[pkg] == {}, pkg


def test_the_tree_shows_the_layers(package_graph) -> None:
    # every real module of core/ is in layers 0-2; run/ and analysis/ hold their layers only
    for module in package_graph:
        if module.startswith("gamesim.core.") and module not in SHIMS:
            assert _RANK[layer_of(module)] <= _RANK["registry"] or layer_of(module) == "report", module
        for folder in ("run", "analysis"):
            if module.startswith(f"gamesim.{folder}."):
                assert layer_of(module) == folder, module


@pytest.mark.parametrize(("old", "new"), sorted(SHIMS.items()))
def test_shims_are_the_moved_modules(old: str, new: str, package_graph) -> None:
    # the shim imports only what it aliases, sits in its layer, and *is* it once imported
    assert package_graph[old] == {new: package_graph[old][new]}
    assert layer_of(old) == layer_of(new)
    import importlib
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert importlib.import_module(old) is importlib.import_module(new)
    parent, _, leaf = old.rpartition(".")
    assert getattr(importlib.import_module(parent), leaf) is importlib.import_module(new)


@pytest.mark.parametrize(
    ("src", "dst", "reason"),
    [
        ("gamesim.core.stats", "gamesim.run.sweep", "upward"),
        ("gamesim.games.godtear.sim", "gamesim.run.scenario", "a game imports the run layer"),
        ("gamesim.analysis.search", "gamesim.report.render", "upward"),
        ("gamesim.games.godtear.reference", "gamesim.games.godtear.sim", "a reference imports its simulator"),
        ("gamesim.games.qftnw.rules", "gamesim.games.qftnw.sim", "rules.py is a game's bottom"),
        ("gamesim.games.godtear.sim", "gamesim.games.qftnw.rules", "a game imports another game"),
        ("gamesim.run.sweep", "gamesim.games.gacha.sim", "only the registry reaches the games"),
    ],
)
def test_checker_catches(src: str, dst: str, reason: str, package_graph) -> None:
    graph = {k: dict(v) for k, v in package_graph.items()}
    graph[src][dst] = 1
    assert any(reason in v for v in violations(graph) if v.startswith(f"{src}:1 -> {dst}"))


def test_cycle_finder_catches_a_planted_cycle(package_graph) -> None:
    graph = {k: dict(v) for k, v in package_graph.items()}
    graph["gamesim.core.rng"]["gamesim.run.sweep"] = 1  # sweep imports rng
    assert ["gamesim.core.rng", "gamesim.run.sweep"] in [[c for c in comp if c in ("gamesim.core.rng",
                                                                                  "gamesim.run.sweep")]
                                                         for comp in _cycles(graph)]
