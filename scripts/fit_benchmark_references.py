"""Write the frozen suite file ``arena/suites/121-bench-v1.json`` from a cross-play.

Usage::

    .venv/bin/env121 tournament $(python scripts/fit_benchmark_references.py --matchups) \\
        --deals 16 --seed 1210 --out runs/bench-crossplay
    .venv/bin/python scripts/fit_benchmark_references.py runs/bench-crossplay

The first line plays every reference 1 vs 3 against each of
:data:`CROSSPLAY_OPPONENTS` (``--matchups`` prints the ``--vs`` arguments); the second fits the
references' ratings and the scale's down slope from that tournament's
``results.json`` (:func:`arena.benchmark.fit_scale`, ``random`` anchored at 0) and writes
the suite file: the suite seed, its published deal seeds, the tiers, the
references with their ratings and the cross-play it was fitted from. Run it
only to make a **new** suite version: a published suite's file is frozen (its
SHA-256 is in :data:`arena.benchmark.FROZEN`, and the script refuses to
overwrite it).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from arena.benchmark import FROZEN, SUITE_VERSION, SUITES, fit_scale
from arena.estimate import Estimate
from arena.seeds import deal_seeds
from env121.engine.files import write_atomically

SEED = 121
"""The suite's arena seed (its deals); not the cross-play's."""
TIERS = {"quick": 8, "full": 64}
"""Deals per tier: quick ≈ 1–2 min, full ≈ 10 min for a fast agent on 2 cores."""
REFERENCES = (
    "random",
    "greedy",
    "mc:budget=16",
    "ppo:small",
    "ppo:hinted",
    "ppo:scratch",
    "ppo:searched",
)
"""The frozen opponents: the scripted agents, a cheap mc and every shipped checkpoint."""
CROSSPLAY_OPPONENTS = ("random", "greedy", "ppo:small", "ppo:hinted")
"""The cross-play plays every reference 1 vs 3 against these (the batched ones:
three copies of ``mc`` or ``ppo:searched`` cost minutes a deal on 2 cores); the
model needs only a connected design, and every reference meets them."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("crossplay", nargs="?", type=Path, help="the cross-play's --out")
    parser.add_argument("--matchups", action="store_true", help="print the --vs arguments")
    args = parser.parse_args()
    if args.matchups:
        print(" ".join(f"--vs {a} {b}" for b in CROSSPLAY_OPPONENTS for a in REFERENCES if a != b))
        return
    if args.crossplay is None:
        parser.error("expected the cross-play directory (or --matchups)")
    results = json.loads((args.crossplay / "results.json").read_text(encoding="utf-8"))
    names = results["names"]
    advantages = [
        (
            names.get(m["challenger"], m["challenger"]),
            names.get(m["reference"], m["reference"]),
            Estimate(**m["advantage"]),
        )
        for m in results["matchups"]
    ]
    ratings, down_slope = fit_scale(advantages)
    missing = sorted(set(REFERENCES) - set(ratings))
    if missing:
        parser.error(f"{args.crossplay}: the cross-play lacks {missing}: expected every reference")
    suite = {
        "version": SUITE_VERSION,
        "seed": SEED,
        "tiers": TIERS,
        "references": [{"spec": r, "rating": round(ratings[r], 1)} for r in REFERENCES],
        "down_slope": round(down_slope, 4),
        "fitted_from": " ".join(results["command"] or ()),
        "crossplay_deals": results["deals"],
        "versions": results["versions"],
        "deal_seeds": list(deal_seeds(SEED, max(TIERS.values()))),
    }
    path = SUITES / f"{SUITE_VERSION}.json"
    if SUITE_VERSION in FROZEN:
        parser.error(
            f"{SUITE_VERSION} is published and frozen (arena.benchmark.FROZEN): a refit is a new "
            "version; raise SUITE_VERSION first"
        )
    write_atomically(path, json.dumps(suite, indent=1) + "\n")
    print(f"wrote {path}")
    for r in REFERENCES:
        print(f"  {r:<14} {ratings[r]:+8.1f}")
    print(f"  down slope λ  {down_slope:8.4f}")


if __name__ == "__main__":
    main()
