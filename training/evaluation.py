"""Evaluate a policy checkpoint in the arena's duplicate 1-vs-3 format.

:func:`evaluate_policy` plays ``ppo:<checkpoint>`` against three copies of a
reference agent on ``deals`` duplicate deals (:func:`arena.one_vs_three`) and
returns one flat row: the challenger's *advantage* (mean points per ván; 0 is
as strong as the reference) with its 95% interval clustered by deal, and the
mean of every arena metric. :func:`duplicate_advantage` is the same
measurement for the batched trainer's actor, played in one batched engine.
:func:`append_row` adds a row to the run's
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

import numpy as np

from agents.batched_ppo import InputEncoder, network_actions
from agents.ppo import PolicyNetwork
from arena.estimate import clustered_ratio
from arena.seeds import deal_seeds
from env121.engine.batched.engine import BatchedEngine
from env121.engine.files import append_atomically, write_atomically
from env121.engine.state import NUM_SEATS
from env121.play.batched_policy import FOLLOWED_GAMES, BatchedPolicy, WholeMatches
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


def duplicate_advantage(
    actor: PolicyNetwork,
    opponent: BatchedPolicy,
    deals: int,
    seed: int,
    rules: RuleConfig,
    threads: int,
) -> dict[str, Any]:
    """The actor's argmax against three ``opponent`` in the duplicate 1-vs-3
    format on ``deals`` deals, each played four times (the actor in each seat),
    all in one batched engine — or, against a
    :class:`~env121.play.batched_policy.WholeMatches` (three agents a game),
    :data:`~env121.play.batched_policy.FOLLOWED_GAMES` games at a time: its
    advantage in points per ván (match standing per ván) with the 95% interval
    clustered by deal. The deals are the arena's
    (:func:`arena.seeds.deal_seeds`), so for a deterministic opponent this is
    :func:`arena.one_vs_three` of the checkpoint on the same ``seed``."""
    started = time.perf_counter()
    seeds = deal_seeds(seed, deals)
    at_once = max(FOLLOWED_GAMES // NUM_SEATS, 1) if isinstance(opponent, WholeMatches) else deals
    standing = np.concatenate(
        [
            _duplicate_standings(actor, opponent, seeds[first : first + at_once], rules, threads)
            for first in range(0, deals, at_once)
        ]
    )
    per_deal = standing.reshape(deals, NUM_SEATS).sum(axis=1) / rules.num_van
    estimate = clustered_ratio(per_deal, np.full(deals, float(NUM_SEATS)))
    return {
        "opponent": opponent.spec,
        "deals": deals,
        "advantage": estimate.mean,
        "low": estimate.low,
        "high": estimate.high,
        "clusters": estimate.clusters,
        "excludes_zero": bool(estimate.low > 0 or estimate.high < 0),
        "seconds": round(time.perf_counter() - started, 2),
    }


def _duplicate_standings(
    actor: PolicyNetwork,
    opponent: BatchedPolicy,
    seeds: Sequence[int],
    rules: RuleConfig,
    threads: int,
) -> np.ndarray:
    """The actor's match standing in each game of :func:`duplicate_advantage`
    on the deals of ``seeds``, four games a deal (the actor in seat 0..3), all
    in one batched engine."""
    b = NUM_SEATS * len(seeds)
    engine = BatchedEngine(b, rules, threads=threads)
    engine.reset(np.repeat(np.array(seeds, dtype=np.uint64), NUM_SEATS))
    learner_seat = np.tile(np.arange(NUM_SEATS), len(seeds))
    whole = opponent if isinstance(opponent, WholeMatches) else None
    if whole is not None:
        whole.begin(engine, np.arange(b), np.arange(NUM_SEATS) != learner_seat[:, None])
    encoder = InputEncoder(actor.inputs, b, rules, threads)
    done = np.zeros(b, dtype=bool)
    standing = np.zeros(b, dtype=np.float64)
    games = engine.games
    while not done.all():
        to_act = games["to_act"].astype(np.int64)
        actions = games["legal"][:, 0].astype(np.int64)
        choice = (games["n_legal"] > 1) & ~done
        mine = np.flatnonzero(choice & (to_act == learner_seat))
        if len(mine):
            actions[mine] = network_actions(actor, engine, mine, encoder)
        # an agent owed its matches whole is asked its forced moves too
        asked = choice if whole is None else ~done
        theirs = np.flatnonzero(asked & (to_act != learner_seat))
        if len(theirs):
            actions[theirs] = opponent.act(engine, theirs)
        result = engine.step(actions)
        if whole is not None:
            whole.stepped(engine, actions)
        for g in np.flatnonzero(result.terminated & ~done):
            standing[g] = engine.final_games["final_standings"][g, learner_seat[g]]
            done[g] = True
    return standing


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


__all__ = ["CSV_COLUMNS", "append_row", "duplicate_advantage", "evaluate_policy", "keep_rows"]
