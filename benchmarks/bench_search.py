"""Search cost (trials used) of the target search against a plain full grid at the same precision.

Usage::

    .venv/bin/python benchmarks/bench_search.py [--seed 1]

For each example the target search (noisy bisection or staged grid, with
sequential looks) is run once, and compared, in the same run, with

* **full grid**: every setting of the box simulated at ``max_trials`` (the
  precision the search allows itself at its last look), which is what a plain
  sweep at that precision costs; its trials are counted, not run (only the
  count matters, and it is ``settings x max_trials``);
* **full grid, sequential**: every setting evaluated with the same sequential
  decision rule (``method = "grid"`` with a coarse grid as fine as the box),
  i.e. the saving of sequential stopping alone, without bisection or staging.

It prints trials used, the ratio to the full grid, wall time, the settings per
status, and, for the Godtear example (sampled on purpose, ``use_exact =
false``), how many decided settings disagree with the exact solver (should be 0).
"""

from __future__ import annotations

import argparse
import copy
import time

from gamesim.core.registry import get_game
from gamesim.core.search import search

GODTEAR_SAMPLED = {
    "name": "godtear_sampled", "game": "godtear", "n_trials": 1000, "chunk_size": 1000,
    "parts": [{"name": "ko", "task": "knockout", "params": {"dodge": 3, "protection": 2, "health": 5, "uses": 2}}],
    "target": {"use_exact": False, "n_start": 1000, "max_trials": 32000, "coarse": 4,
               "params": {"accuracy": {"min": 1, "max": 10}, "damage": {"min": 1, "max": 10}},
               "constraints": [{"metric": "knockout", "value": 0.5, "tolerance": 0.1}]},
}


def _examples() -> dict[str, dict]:
    out = {}
    for name in ("dqz_monster_hp", "qftnw_funds"):
        import tomllib

        raw = tomllib.loads(open(f"scenarios/targets/{name}.toml", encoding="utf-8").read())
        raw.pop("sensitivity", None)
        out[name] = raw
    out["godtear_sampled (2-D, exact known)"] = GODTEAR_SAMPLED
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'example':38s} {'method':18s} {'trials':>10s} {'/ full grid':>11s} {'seconds':>8s}  statuses")
    for name, raw in _examples().items():
        res = search(raw, seed=args.seed)
        n_set = len(res.settings)
        full = n_set * res.target.max_trials
        print(f"{name:38s} {'full grid':18s} {full:10d} {1.0:11.3f} {'-':>8s}  {n_set} settings x "
              f"{res.target.max_trials}")
        rows = []
        seq = copy.deepcopy(raw)
        seq["target"]["method"] = "grid"
        seq["target"]["coarse"] = max(len(p.values) for p in res.target.params)
        for label, scn in ((f"search ({res.method})", raw), ("full grid, sequential", seq)):
            t0 = time.perf_counter()
            r = search(scn, seed=args.seed)
            dt = time.perf_counter() - t0
            rows.append(r)
            counts = ", ".join(f"{k} {v}" for k, v in r.counts().items() if v)
            print(f"{'':38s} {label:18s} {r.trials_used:10d} {r.trials_used / full:11.3f} {dt:8.2f}  {counts}")
        if name.startswith("godtear"):
            task = get_game("godtear").tasks["knockout"]
            for label, r in zip(("search", "full grid, sequential"), rows):
                wrong = 0
                for row in r.settings.itertuples():
                    v = task.exact(task.defaults(accuracy=int(row.accuracy), damage=int(row.damage), dodge=3,
                                                 protection=2, health=5, uses=2))["knockout:proportion"]
                    inside = 0.4 <= v <= 0.6
                    wrong += (row.status == "feasible" and not inside) or (row.status == "infeasible" and inside)
                print(f"{'':38s} {label}: decided settings contradicting the exact solver: {wrong}")


if __name__ == "__main__":
    main()
