"""How much do common random numbers narrow a comparison's interval? Measured in one run.

Usage::

    .venv/bin/python benchmarks/bench_crn.py [--n-trials 20000]

For each example comparison it runs the same scenario twice, with ``crn = true``
(compared cells share their random numbers) and ``crn = false`` (independent
streams), and prints, per compared cell, the 95% half-width of the paired
difference in both runs and the correlation of the paired trials. The ratio
``crn / independent`` is what common random numbers buy: 1.0 means nothing (the
simulator's random stream does not line up between the variants), 0.5 means the
same precision for a quarter of the trials.
"""

from __future__ import annotations

import argparse
import tempfile

import pandas as pd

from gamesim.core.api import sweep

EXAMPLES = {
    "gacha: 2 God Chance / 43 N vs 1 / 44 N, P(complete by 200 single pulls)": {
        "game": "gacha", "seed": 1,
        "parts": [{"name": "bags", "task": "schedule", "params": {"session_size": 1, "total_pulls": 200},
                   "cases": [{"name": "1 GC", "bag_god_chance": 1, "bag_n": 44},
                             {"name": "2 GC", "bag_god_chance": 2, "bag_n": 43}]}],
        "compare": {"baseline": "1 GC", "metrics": ["complete"]},
    },
    "gacha: 200 vs 100 single pulls, God Chances": {
        "game": "gacha", "seed": 2,
        "parts": [{"name": "pulls", "task": "schedule", "params": {"session_size": 1},
                   "grid": {"total_pulls": [100, 200]}}],
        "compare": {"baseline": {"total_pulls": 100}, "metrics": ["god_chances"]},
    },
    "gacha: bag_n 45 vs 44, P(complete by 300 single pulls)": {
        "game": "gacha", "seed": 5,
        "parts": [{"name": "bags", "task": "schedule", "params": {"session_size": 1, "total_pulls": 300},
                   "grid": {"bag_n": [44, 45]}}],
        "compare": {"baseline": {"bag_n": 44}, "metrics": ["complete"]},
    },
    "godtear: accuracy 4 vs 3, P(knock-out in 2 uses)": {
        "game": "godtear", "seed": 6,
        "parts": [{"name": "acc", "task": "knockout", "grid": {"accuracy": [3, 4]}}],
        "compare": {"baseline": {"accuracy": 3}, "metrics": ["knockout"]},
    },
    "godtear: protection 1 vs 0, P(knock-out in 2 uses)": {
        "game": "godtear", "seed": 3,
        "parts": [{"name": "prot", "task": "knockout", "grid": {"protection": [0, 1]}}],
        "compare": {"baseline": {"protection": 0}, "metrics": ["knockout"]},
    },
    "dqz: party of 4 vs 3, P(win) against a slime of 40 HP": {
        "game": "dqz", "seed": 4,
        "parts": [{"name": "party", "task": "battle", "params": {"hp": 40}, "grid": {"party_size": [3, 4]}}],
        "compare": {"baseline": {"party_size": 3}, "metrics": ["won"]},
    },
    "dqz: slime of 44 vs 40 HP, P(win), party of 3": {
        "game": "dqz", "seed": 14,
        "parts": [{"name": "hp", "task": "battle", "params": {"party_size": 3}, "grid": {"hp": [40, 44]}}],
        "compare": {"baseline": {"hp": 40}, "metrics": ["won"]},
    },
    "ice_cream_turret: 3 vs 4 nines, P(win), greedy": {
        "game": "ice_cream_turret", "seed": 7, "n_trials": 2000,
        "parts": [{"name": "nines", "task": "solitaire", "grid": {"copies_9": [4, 3]}}],
        "compare": {"baseline": {"copies_9": 4}, "metrics": ["won"]},
    },
    "ice_cream_turret: 3 vs 4 nines, cards placed, greedy": {
        "game": "ice_cream_turret", "seed": 17, "n_trials": 2000,
        "parts": [{"name": "nines", "task": "solitaire", "grid": {"copies_9": [4, 3]}}],
        "compare": {"baseline": {"copies_9": 4}, "metrics": ["cards_placed"]},
    },
    "qftnw: start funds 6 vs 5, P(seat 0 wins)": {
        "game": "qftnw", "seed": 8, "n_trials": 2000,
        "parts": [{"name": "funds", "task": "game", "grid": {"start_funds": [5, 6]}}],
        "compare": {"baseline": {"start_funds": 5}, "metrics": ["p0_wins"]},
    },
    "gacha_game: boss refill off vs on, P(コンスリート)": {
        "game": "gacha_game", "seed": 9, "n_trials": 500,
        "parts": [{"name": "refill", "task": "game", "grid": {"boss_refill": [True, False]}}],
        "compare": {"baseline": {"boss_refill": True}, "metrics": ["consolete"]},
    },
    "kami_no_ikari: 摩天カウンター off vs on, P(start player wins)": {
        "game": "kami_no_ikari", "seed": 10, "n_trials": 2000,
        "parts": [{"name": "mate", "task": "game", "grid": {"mate_counter": [True, False]}}],
        "compare": {"baseline": {"mate_counter": True}, "metrics": ["start_won"]},
    },
    "mech_arena: start armour 4 vs 3 (both mechs), P(mech A wins)": {
        "game": "mech_arena", "seed": 11, "n_trials": 5000,
        "parts": [{"name": "armour", "task": "duel", "params": {"mech_b": "jaeger"},
                   "grid": {"start_armour": [3, 4]}}],
        "compare": {"baseline": {"start_armour": 3}, "metrics": ["a_won"]},
    },
    "panzer_hexen: start voice 3 vs 2, seat 0's score": {
        "game": "panzer_hexen", "seed": 12, "n_trials": 2000,
        "parts": [{"name": "voice", "task": "game", "grid": {"start_voice": [2, 3]}}],
        "compare": {"baseline": {"start_voice": 2}, "metrics": ["seat0_score"]},
    },
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-trials", type=int, default=20000, help="trials per cell (default 20000)")
    ap.add_argument("--only", default="", help="run only the examples whose label starts with this (e.g. 'dqz')")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, sc in EXAMPLES.items():
            if not label.startswith(args.only):
                continue
            widths = {}
            n = min(args.n_trials, sc.get("n_trials", args.n_trials))  # whole games: fewer trials
            for crn in (True, False):
                spec = dict(sc, n_trials=n, chunk_size=min(n, 10000), name="crn_bench",
                            compare=dict(sc["compare"], crn=crn))
                res = sweep(spec, progress=False, cache_root=tmp)
                d = res.to_frame("compare")
                d = d[d["statistic"] == "difference"].iloc[0]
                widths[crn] = d
            on, off = widths[True], widths[False]
            hw_on, hw_off = (on["ci_high"] - on["ci_low"]) / 2, (off["ci_high"] - off["ci_low"]) / 2
            rows.append({"comparison": label, "n": n, "difference (crn)": f"{on['estimate']:.4f}",
                         "exact": "–" if pd.isna(on["exact"]) else f"{on['exact']:.4f}",
                         "half-width crn": f"{hw_on:.4f}", "half-width independent": f"{hw_off:.4f}",
                         "ratio": f"{hw_on / hw_off:.2f}", "correlation (crn)": f"{on['correlation']:.3f}"})
    pd.set_option("display.width", 200)
    pd.set_option("display.max_colwidth", 80)
    print(f"n = {args.n_trials} trials per cell (fewer for whole games: column n)")
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
