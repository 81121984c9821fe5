"""Evaluate a policy checkpoint in the arena's duplicate 1-vs-3 format.

:func:`evaluate_policy` plays ``ppo:<checkpoint>`` against three copies of a
reference agent on ``deals`` duplicate deals (:func:`arena.one_vs_three`) and
returns one flat row: the challenger's *advantage* (mean points per ván; 0 is
as strong as the reference) with its 95% interval clustered by deal, and the
mean of every arena metric. :func:`append_row` adds a row to the run's
``eval.csv`` and ``eval.jsonl``.
"""

from __future__ import annotations

import csv
import json
import math
import time
from pathlib import Path
from typing import Any

from env121.rules.config import RuleConfig

CSV_COLUMNS = (
    "step",
    "opponent",
    "deals",
    "advantage",
    "low",
    "high",
    "clusters",
    "excludes_zero",
    "seconds",
)


def evaluate_policy(
    checkpoint: str | Path,
    opponent: str,
    *,
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    config: RuleConfig | None = None,
) -> dict[str, Any]:
    """``ppo:<checkpoint>`` against three ``opponent``: the advantage and metrics."""
    from arena import one_vs_three  # the arena is imported only when evaluating

    start = time.perf_counter()
    result = one_vs_three(
        f"ppo:{checkpoint}", opponent, deals=deals, seed=seed, jobs=jobs, config=config
    )
    advantage = result.advantage
    metrics = result.metrics.get(result.challenger, {})
    return {
        "opponent": opponent,
        "deals": deals,
        "advantage": advantage.mean,
        "low": advantage.low,
        "high": advantage.high,
        "clusters": advantage.clusters,
        "excludes_zero": advantage.excludes_zero,
        "seconds": round(time.perf_counter() - start, 2),
        "metrics": {name: e.mean for name, e in metrics.items() if not math.isnan(e.mean)},
    }


def append_row(csv_path: Path, jsonl_path: Path, row: dict[str, Any]) -> None:
    """Append ``row`` to the CSV (headline columns) and the JSON lines (everything)."""
    new = not csv_path.exists()
    with csv_path.open("a", newline="") as file:
        writer = csv.DictWriter(file, CSV_COLUMNS, extrasaction="ignore")
        if new:
            writer.writeheader()
        writer.writerow(row)
    with jsonl_path.open("a") as file:
        file.write(json.dumps(row, allow_nan=True) + "\n")


__all__ = ["CSV_COLUMNS", "append_row", "evaluate_policy"]
