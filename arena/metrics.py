"""The arena's metrics, declared once as data, and their per-agent estimates.

Each :class:`Metric` is a ratio of two sums over an agent's *seat-games* (one
agent in one seat of one game): a numerator and a denominator per seat-game.
Summed per deal they make the clusters of :func:`arena.estimate.clustered_ratio`.
An agent with several copies in a game (the reference of 1 vs 3) counts every
copy: its "per vòng" rates are per vòng per seat.

========================  =======================================  ===================
name                      numerator                                denominator
========================  =======================================  ===================
``points_per_van``        match standing                           ván scheduled
``points_per_vong``       match standing                           vòng played
``rank_1`` … ``rank_4``   1 if it finished in that rank            1 (a share)
``mean_rank``             final rank (1 = best, ties share)        1
``win_rate``              vòng won (Ù or Thế trắng)                vòng played
``points_per_win``        Điểm paid for its wins                   vòng won
``cuop_rate``             Cướp (steals) made                       vòng played
``nhat_ban_rate``         Nhất Bản declared                        vòng played
``den_rate``              Đền (invalid Ù) committed                vòng played
``den_per_match``         Đền committed                            1
``draw_rate``             vòng drawn                               vòng played
``decision_ms``           milliseconds spent in ``act``            decisions
========================  =======================================  ===================

The game is zero-sum, so ``points_per_van`` of one agent against three equal
copies of another is 0 in expectation: it is the *advantage* of 1 vs 3.
``decision_ms`` is wall-clock time and the only metric that is not
reproducible; in games played together (:mod:`arena.batched`) a decision
takes its share of the batched call that made it. Each interval is clipped to its metric's range
(:attr:`Metric.bounds`): the rank shares and the rates that happen at most
once a vòng to [0, 1], the mean rank to [1, 4], the other counts to ≥ 0;
points are unbounded.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from arena.estimate import Estimate, clustered_ratio
from arena.play import GameRecord, SeatRecord

Term = Callable[[SeatRecord, GameRecord], float]


@dataclass(frozen=True)
class Metric:
    """One per-agent ratio: ``Σ numerator / Σ denominator`` over its seat-games."""

    name: str
    header: str
    """A short column title."""
    description: str
    numerator: Term
    denominator: Term
    bounds: tuple[float, float] = (0.0, math.inf)
    """The range the ratio cannot leave (default: a count, never negative);
    its interval is clipped to it."""
    reproducible: bool = True
    """False for wall-clock measurements."""


UNBOUNDED = (-math.inf, math.inf)
SHARE = (0.0, 1.0)
"""A share, or a count that is at most one a vòng (a vòng has one winner, ends
at an Đền, and a seat declares Nhất Bản at most once in it)."""


def _one(_seat: SeatRecord, _game: GameRecord) -> float:
    return 1.0


def _vong(_seat: SeatRecord, game: GameRecord) -> float:
    return game.vong


def _rank_share(rank: int) -> Metric:
    return Metric(
        f"rank_{rank}",
        f"rank {rank}",
        f"share of matches finished in rank {rank} (ties share the better rank)",
        lambda seat, _game: float(seat.rank == rank),
        _one,
        SHARE,
    )


METRICS: tuple[Metric, ...] = (
    Metric(
        "points_per_van",
        "pts/ván",
        "mean points per ván (match standing / ván scheduled)",
        lambda seat, _game: seat.standing,
        lambda _seat, game: game.van,
        UNBOUNDED,
    ),
    Metric(
        "points_per_vong",
        "pts/vòng",
        "mean points per vòng played",
        lambda seat, _game: seat.standing,
        _vong,
        UNBOUNDED,
    ),
    *(_rank_share(rank) for rank in range(1, 5)),
    Metric(
        "mean_rank",
        "mean rank",
        "mean final rank (1 = best)",
        lambda s, _g: s.rank,
        _one,
        (1.0, 4.0),
    ),
    Metric(
        "win_rate",
        "win/vòng",
        "vòng won (Ù or Thế trắng) per vòng",
        lambda s, _g: s.wins,
        _vong,
        SHARE,
    ),
    Metric(
        "points_per_win",
        "Điểm/win",
        "mean Điểm of a win",
        lambda seat, _game: seat.win_points,
        lambda seat, _game: seat.wins,
    ),
    Metric("cuop_rate", "Cướp/vòng", "Cướp (steals) per vòng", lambda s, _g: s.cuop, _vong),
    Metric(
        "nhat_ban_rate",
        "Nhất Bản/vòng",
        "Nhất Bản declared per vòng",
        lambda s, _g: s.nhat_ban,
        _vong,
        SHARE,
    ),
    Metric("den_rate", "Đền/vòng", "Đền (invalid Ù) per vòng", lambda s, _g: s.den, _vong, SHARE),
    Metric("den_per_match", "Đền/match", "Đền per match", lambda s, _g: s.den, _one),
    Metric(
        "draw_rate",
        "draw/vòng",
        "drawn vòng per vòng played",
        lambda _s, g: g.draws,
        _vong,
        SHARE,
    ),
    Metric(
        "decision_ms",
        "ms/decision",
        "mean wall-clock milliseconds per decision (not reproducible)",
        lambda seat, _game: 1000.0 * seat.think_seconds,
        lambda seat, _game: seat.decisions,
        reproducible=False,
    ),
)
COUNTS = ("seat_games", "vong", "wins", "win_points", "cuop", "nhat_ban", "den", "draws")
"""The plain totals kept per agent (besides ``decisions`` and ``think_seconds``)."""


@dataclass(frozen=True)
class ClusterSums:
    """One metric's per-deal sums for one agent: the raw data of its interval."""

    deals: tuple[int, ...]
    """The deal index of each cluster."""
    numerators: tuple[float, ...]
    denominators: tuple[float, ...]


@dataclass(frozen=True)
class AgentStats:
    """Every metric of one agent in one results table."""

    label: str
    spec: str
    metrics: dict[str, Estimate]
    counts: dict[str, float]
    """Totals: seat-games, vòng, wins, Điểm won, Cướp, Nhất Bản, Đền, draws,
    decisions and thinking seconds (the last not reproducible)."""
    clusters: dict[str, ClusterSums]
    faults: dict[str, int]
    """Its faults by kind over its seat-games (:attr:`~arena.play.SeatRecord.faults`)."""


def agent_stats(
    games: Iterable[tuple[GameRecord, Sequence[str]]], labels: Sequence[str], specs: Sequence[str]
) -> dict[str, AgentStats]:
    """Per label, every metric over its seat-games in ``games``.

    ``games`` pairs each record with the label of each of its seats.
    """
    index = {label: i for i, label in enumerate(labels)}
    rows: dict[str, list[tuple[int, list[float], list[float]]]] = {label: [] for label in labels}
    counts: dict[str, dict[str, float]] = {
        label: {**dict.fromkeys((*COUNTS, "decisions"), 0), "think_seconds": 0.0}
        for label in labels
    }
    faults: dict[str, Counter[str]] = {label: Counter() for label in labels}
    for game, seat_labels in games:
        for seat, label in zip(game.seats, seat_labels, strict=True):
            if label not in index:
                continue
            rows[label].append(
                (
                    game.deal,
                    [m.numerator(seat, game) for m in METRICS],
                    [m.denominator(seat, game) for m in METRICS],
                )
            )
            _count(counts[label], seat, game)
            faults[label].update(seat.faults)
    return {
        label: _stats(label, spec, rows[label], counts[label], dict(sorted(faults[label].items())))
        for label, spec in zip(labels, specs, strict=True)
    }


def _count(totals: dict[str, float], seat: SeatRecord, game: GameRecord) -> None:
    totals["seat_games"] += 1
    totals["vong"] += game.vong
    totals["draws"] += game.draws
    for name in ("wins", "win_points", "cuop", "nhat_ban", "den", "decisions", "think_seconds"):
        totals[name] += getattr(seat, name)


def _stats(
    label: str,
    spec: str,
    rows: list[tuple[int, list[float], list[float]]],
    counts: dict[str, float],
    faults: dict[str, int],
) -> AgentStats:
    deals = sorted({deal for deal, _, _ in rows})
    position = {deal: i for i, deal in enumerate(deals)}
    y = np.zeros((len(deals), len(METRICS)))
    n = np.zeros((len(deals), len(METRICS)))
    for deal, numerators, denominators in rows:
        y[position[deal]] += numerators
        n[position[deal]] += denominators
    metrics: dict[str, Estimate] = {}
    clusters: dict[str, ClusterSums] = {}
    for j, metric in enumerate(METRICS):
        metrics[metric.name] = clustered_ratio(y[:, j], n[:, j], bounds=metric.bounds)
        clusters[metric.name] = ClusterSums(
            tuple(deals), tuple(y[:, j].tolist()), tuple(n[:, j].tolist())
        )
    return AgentStats(label, spec, metrics, counts, clusters, faults)


__all__ = [
    "COUNTS",
    "METRICS",
    "AgentStats",
    "ClusterSums",
    "Metric",
    "agent_stats",
]
