"""Compare the tidy results of this checkout with those of an older commit, same scenario, same seed.

Usage::

    .venv/bin/python benchmarks/compare_tidy.py scenarios/godtear_knockout.toml [more.toml ...]
        [--ref cf70cb8] [--n-trials 20000] [--chunk-size 5000] [--n-jobs 1]

The older commit is exported with ``git archive`` into a temporary folder (no
worktree is registered). Each scenario is copied, with every ``n_trials``
capped at ``--n-trials`` and every ``chunk_size`` set to ``--chunk-size`` (so
cells have several chunks), into each tree's own ``scenarios/`` folder (so
relative data and notebook paths resolve as in the original) and swept there
by a fresh interpreter started in that tree, with the scenario's seed (or
``--seed``). The copies are removed afterwards.

Prints, per scenario and table (``table``, ``comparisons``, ``distributions``):
whether the tables have the same shape and labels, how many numeric values are
bit-identical, and for the others the largest absolute and relative difference
with the column it occurs in.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent

RUN = r"""
import json, sys
from pathlib import Path
from gamesim.core.scenario import load_scenario
from gamesim.core.sweep import run_sweep
src, out, seed, n_jobs = sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
import gamesim
assert Path(gamesim.__file__).resolve().is_relative_to(Path.cwd().resolve()), gamesim.__file__
res = run_sweep(load_scenario(src), seed=None if seed == "none" else int(seed), n_jobs=n_jobs,
                cache_root=out / "chunks", progress=False)
for name in ("table", "comparisons", "distributions"):
    df = getattr(res, name).copy()
    for c in df.columns:
        if df[c].dtype == object:
            df[c] = df[c].map(lambda v: json.dumps(v) if isinstance(v, (list, tuple)) else v)
    df.to_pickle(out / f"{name}.pkl")
"""


def shrink(text: str, n_trials: int, chunk: int) -> str:
    """The scenario with every n_trials capped and every chunk_size set."""
    text = re.sub(r"(?m)^(\s*n_trials\s*=\s*)(\d[\d_]*)", lambda m: f"{m[1]}{min(int(m[2].replace('_', '')), n_trials)}", text)
    return re.sub(r"(?m)^(\s*chunk_size\s*=\s*)(\d[\d_]*)", lambda m: f"{m[1]}{chunk}", text)


def run(tree: Path, scenario: Path, text: str, out: Path, seed: str, n_jobs: int) -> None:
    rel = scenario.resolve().relative_to(ROOT)
    copy = tree / rel.parent / f"_cmp_{scenario.stem}.toml"
    copy.write_text(text, encoding="utf-8")
    out.mkdir(parents=True)
    try:
        subprocess.run([sys.executable, "-c", RUN, str(copy), str(out), seed, str(n_jobs)], cwd=tree, check=True)
    finally:
        copy.unlink()


def compare(name: str, old: pd.DataFrame, new: pd.DataFrame) -> bool:
    if old.empty and new.empty:
        print(f"  {name}: both empty")
        return True
    if list(old.columns) != list(new.columns) or old.shape != new.shape:
        print(f"  {name}: DIFFERENT SHAPE old {old.shape} new {new.shape}; "
              f"columns only old {sorted(set(old.columns) - set(new.columns))}, "
              f"only new {sorted(set(new.columns) - set(old.columns))}")
        return False
    old, new = old.reset_index(drop=True), new.reset_index(drop=True)
    num = [c for c in old.columns if pd.api.types.is_float_dtype(old[c]) and pd.api.types.is_float_dtype(new[c])]
    other = [c for c in old.columns if c not in num]
    same_labels = all(old[c].astype(str).equals(new[c].astype(str)) for c in other)
    a = old[num].to_numpy(dtype=np.float64)
    b = new[num].to_numpy(dtype=np.float64)
    same = (a == b) | (np.isnan(a) & np.isnan(b)) | ((a == b) & np.isinf(a))
    n_diff = int((~same).sum())
    print(f"  {name}: {old.shape[0]} rows; labels/integers identical: {same_labels}; "
          f"float values bit-identical: {int(same.sum())}/{same.size}")
    if n_diff:
        with np.errstate(invalid="ignore", divide="ignore"):
            absd = np.where(same, 0.0, np.abs(a - b))
            reld = np.where(same, 0.0, absd / np.maximum(np.abs(a), np.abs(b)))
        for j, c in enumerate(num):
            k = int((~same[:, j]).sum())
            if k:
                stats = old.loc[~same[:, j], "statistic"].value_counts().to_dict() if "statistic" in old else {}
                print(f"    {c}: {k} differ, max |diff| {np.nanmax(absd[:, j]):.3g}, max rel {np.nanmax(reld[:, j]):.3g}"
                      f"  (rows by statistic: {json.dumps(stats)})")
    return same_labels


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="+", type=Path)
    ap.add_argument("--ref", default="cf70cb8", help="older commit to compare with (default cf70cb8)")
    ap.add_argument("--n-trials", type=int, default=20_000)
    ap.add_argument("--chunk-size", type=int, default=5_000)
    ap.add_argument("--seed", default=None, help="override the scenarios' seeds")
    ap.add_argument("--n-jobs", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="compare_tidy-") as tmp:
        old_tree = Path(tmp) / "old"
        old_tree.mkdir()
        archive = subprocess.run(["git", "archive", args.ref], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old_tree)], input=archive, check=True)
        print(f"old: {args.ref} (git archive), new: {ROOT} working tree; n_trials <= {args.n_trials:,}, "
              f"chunk_size {args.chunk_size:,}, n_jobs {args.n_jobs}")
        for sc in args.scenarios:
            text = shrink(sc.read_text(encoding="utf-8"), args.n_trials, args.chunk_size)
            seed = args.seed or (re.search(r"(?m)^seed\s*=\s*(\d+)", text) or [None, "2026"])[1]
            print(f"{sc} (seed {seed})")
            outs = {}
            for label, tree in (("old", old_tree), ("new", ROOT)):
                outs[label] = Path(tmp) / f"{sc.stem}-{label}"
                run(tree, sc, text, outs[label], seed, args.n_jobs)
            for name in ("table", "comparisons", "distributions"):
                old = pd.read_pickle(outs["old"] / f"{name}.pkl")
                new = pd.read_pickle(outs["new"] / f"{name}.pkl")
                drop = [c for c in ("scenario_hash", "gamesim_version") if c in old.columns]
                compare(name, old.drop(columns=drop), new.drop(columns=drop))


if __name__ == "__main__":
    main()
