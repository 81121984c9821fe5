"""Evaluate a policy checkpoint in the arena's duplicate 1-vs-3 format.

:func:`evaluate_policy` plays ``ppo:<checkpoint>`` against three copies of a
reference agent on ``deals`` duplicate deals (:func:`arena.one_vs_three`) and
returns one flat row: the challenger's *advantage* (mean points per ván; 0 is
as strong as the reference) with its 95% interval clustered by deal, and the
mean of every arena metric. :func:`append_row` adds a row to the run's
``eval.csv`` and ``eval.jsonl`` (:func:`keep_rows` rewrites them on a resume).
"""

from __future__ import annotations

import csv
import io
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from env121.engine.files import append_atomically, write_atomically
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
    """Append ``row`` to the JSON lines (everything) and the CSV (headline
    columns), each file rewritten atomically (a kill leaves no half row)."""
    append_atomically(jsonl_path, json.dumps(row, allow_nan=True) + "\n")
    append_atomically(csv_path, _csv_text([row], header=not csv_path.exists()))


def keep_rows(csv_path: Path, jsonl_path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Rewrite the JSON lines and the CSV to hold ``rows`` (a resumed run drops
    the rows after its checkpoint)."""
    write_atomically(jsonl_path, "".join(json.dumps(r, allow_nan=True) + "\n" for r in rows))
    write_atomically(csv_path, _csv_text(rows, header=True))


def _csv_text(rows: Sequence[dict[str, Any]], header: bool) -> str:
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, CSV_COLUMNS, extrasaction="ignore")
    if header:
        writer.writeheader()
    writer.writerows(rows)
    return text.getvalue()


__all__ = ["CSV_COLUMNS", "append_row", "evaluate_policy", "keep_rows"]
