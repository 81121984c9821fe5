"""Save a tournament: ``results.json``, ``results.csv`` and ``results.png``.

* ``results.json`` — everything: the command and rule config, package
  versions, the deal seeds, the line-ups, per results table and agent every
  metric's estimate, totals and per-deal cluster sums (the raw data of each
  interval), the ratings, and one line per game. Everything is keyed by
  canonical specs; ``names`` maps them (and the labels and table names) to
  the spelling the command used, which the report and the plot show. A missing interval
  (fewer than two deals) is ``null`` with a ``note``.
* ``results.csv`` — one row per table × agent × metric, then the agent's
  totals (``total_den``, …: the value in ``mean``), then one row per rating
  value: ``table, agent, spec, metric, mean, low, high, clusters``.
* ``results.png`` — :mod:`arena.plot`.
"""

from __future__ import annotations

import csv
import io
import json
import math
import platform
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import env121
from arena.estimate import CONFIDENCE, Estimate
from arena.metrics import METRICS, AgentStats
from arena.ratings import MODEL_NAME, Rating
from arena.tournament import TournamentResult
from env121.engine.files import write_atomically

FORMAT = "env121-arena/1"
PACKAGES = ("numpy", "scipy", "openskill", "rich", "matplotlib")
CSV_COLUMNS = ("table", "agent", "spec", "metric", "mean", "low", "high", "clusters")


def write_results(
    result: TournamentResult,
    out_dir: str | Path,
    *,
    plot: bool = True,
    command: Sequence[str] | None = None,
) -> list[Path]:
    """Write the result files into ``out_dir`` (created if needed); returns their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "results.json", out / "results.csv"]
    document = json.dumps(result_to_dict(result, command=command), ensure_ascii=False, indent=1)
    write_atomically(paths[0], document + "\n")
    write_csv(result, paths[1])
    if plot:
        from arena.plot import plot_results  # matplotlib only when a plot is asked for

        paths.append(plot_results(result, out / "results.png"))
    return paths


def result_to_dict(
    result: TournamentResult, *, command: Sequence[str] | None = None
) -> dict[str, Any]:
    """The JSON document of ``result`` (plain dicts, lists, numbers and strings)."""
    return {
        "format": FORMAT,
        "command": None if command is None else list(command),
        "mode": result.mode,
        "seed": result.seed,
        "deals": result.deals,
        "jobs": result.jobs,
        "config": result.config.to_dict(),
        "versions": versions(),
        "seconds": result.seconds,
        "confidence": CONFIDENCE,
        "clustered_by": "deal",
        "metrics": {m.name: m.description for m in METRICS},
        "deal_seeds": list(result.deal_seeds),
        "lineups": [
            {
                "index": lineup.index,
                "table": result.schedule.groups[lineup.group].name,
                "specs": list(lineup.specs),
                "labels": list(lineup.labels),
            }
            for lineup in result.schedule.lineups
        ],
        "matchups": [
            {
                "name": m.name,
                "challenger": m.challenger,
                "reference": m.reference,
                "advantage": estimate_to_dict(m.advantage),
                "advantage_excludes_zero": m.advantage.excludes_zero,
                "agents": _agents(m.agents),
            }
            for m in result.matchups
        ],
        "overall": _agents(result.overall) if result.overall else None,
        "names": result.names,
        "rating_model": MODEL_NAME,
        "ratings": {spec: rating_to_dict(r) for spec, r in result.ratings.items()},
        "games": [_game(result, i) for i in range(len(result.games))],
    }


def estimate_to_dict(estimate: Estimate) -> dict[str, Any]:
    """``{"mean", "low", "high", "clusters"}``, ``nan`` as ``null`` with a ``note``."""
    out: dict[str, Any] = {
        "mean": _number(estimate.mean),
        "low": _number(estimate.low),
        "high": _number(estimate.high),
        "clusters": estimate.clusters,
    }
    if math.isnan(estimate.mean):
        out["note"] = "no data (the denominator is 0)"
    elif not estimate.has_interval:
        out["note"] = f"no interval: {estimate.clusters} deal(s), at least 2 needed"
    return out


def rating_to_dict(rating: Rating) -> dict[str, float]:
    """``mu``, ``sigma``, ``ordinal`` (mu − 3σ), ``low``/``high`` (mu ± 3σ), ``games``."""
    return {
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "low": rating.low,
        "high": rating.high,
        "games": rating.games,
    }


def write_csv(result: TournamentResult, path: Path) -> None:
    """``results.csv``: the estimates, then the ratings (table ``"ratings"``)."""
    file = io.StringIO(newline="")
    writer = csv.writer(file)
    writer.writerow(CSV_COLUMNS)
    for table, agents in result.tables:
        for label, stats in agents.items():
            for name, e in stats.metrics.items():
                row = (table, label, stats.spec, name, e.mean, e.low, e.high, e.clusters)
                writer.writerow(_csv_cell(v) for v in row)
            for name, total in stats.counts.items():
                writer.writerow((table, label, stats.spec, f"total_{name}", total, "", "", ""))
    for spec, r in result.ratings.items():
        writer.writerow(("ratings", spec, spec, "ordinal", r.ordinal, "", "", r.games))
        writer.writerow(("ratings", spec, spec, "mu", r.mu, r.low, r.high, r.games))
        writer.writerow(("ratings", spec, spec, "sigma", r.sigma, "", "", r.games))
    write_atomically(path, file.getvalue())


def versions() -> dict[str, str]:
    """Python, env121 and the packages the arena's numbers depend on."""
    found = {"python": platform.python_version(), "env121": env121.__version__}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def _agents(agents: dict[str, AgentStats]) -> dict[str, Any]:
    return {
        label: {
            "spec": stats.spec,
            "metrics": {name: estimate_to_dict(e) for name, e in stats.metrics.items()},
            "counts": stats.counts,
            "faults": stats.faults,
            "clusters": {
                name: {
                    "deals": list(c.deals),
                    "numerators": list(c.numerators),
                    "denominators": list(c.denominators),
                }
                for name, c in stats.clusters.items()
            },
        }
        for label, stats in agents.items()
    }


def _game(result: TournamentResult, i: int) -> dict[str, Any]:
    game = result.games[i]
    return {
        "deal": game.deal,
        "lineup": game.lineup,
        "rotation": game.rotation,
        "seats": list(result.schedule.lineups[game.lineup].seat_labels(game.rotation)),
        "standings": [s.standing for s in game.seats],
        "ranks": [s.rank for s in game.seats],
        "vong": game.vong,
        "end": game.end,
        "think_ms": [round(1000 * s.think_seconds, 3) for s in game.seats],
    }


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _csv_cell(value: object) -> object:
    return "" if isinstance(value, float) and math.isnan(value) else value


__all__ = [
    "CSV_COLUMNS",
    "FORMAT",
    "estimate_to_dict",
    "rating_to_dict",
    "result_to_dict",
    "versions",
    "write_csv",
    "write_results",
]
