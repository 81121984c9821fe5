"""Two challengers compared on the same deals: the paired difference of their advantages.

Two 1-vs-3 matchups of one tournament play the same deals (every matchup
plays every deal of the tournament's seed, in all four rotations). Where
they share the reference — ``--vs A greedy --vs B greedy`` — the luck of a
deal moves both challengers' results alike, so their difference deal by
deal is far less noisy than the difference of two separate intervals: for
each deal ``d``, ``D_d`` = A's points a ván on it less B's, and the
estimate is the mean of ``D_d`` with its t-interval over the deals
(:func:`arena.estimate.clustered_ratio` with one ván per deal and side: the
deal is the cluster, as everywhere in the arena).

``python -m arena.paired DIR`` prints every such pair of a tournament's
``--out`` folder (its ``games.jsonl``; an interrupted tournament is compared
on the deals both matchups finished)::

    mc:value=greedy − mc (both vs 3× greedy): +4.1 [−3.0, +11.2] points a ván, 512 deals

Given several folders — tournaments of the same rules on different seeds,
hence different deals — it prints each folder's pairs under its name, then
each pair that every folder played *pooled*: the per-deal differences of all
the folders together, one t-interval over all their deals. Two folders with
the same seed play the same deals and are refused.
"""

from __future__ import annotations

import argparse
import itertools
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from arena.estimate import Estimate, clustered_ratio
from arena.journal import read_out
from arena.play import GameRecord
from arena.schedule import seat_player
from env121.rules.config import RuleConfig


def challenger_points(games: Sequence[GameRecord], lineup: int) -> dict[int, float]:
    """Per deal, line-up ``lineup``'s challenger's (position 0) points a ván
    over the rotations of that deal it played."""
    points: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for game in games:
        if game.lineup != lineup:
            continue
        for seat, record in enumerate(game.seats):
            if seat_player(seat, game.rotation) == 0:
                points[game.deal][0] += record.standing
                points[game.deal][1] += game.van
    return {deal: total / van for deal, (total, van) in points.items()}


def deal_differences(games: Sequence[GameRecord], first: int, second: int) -> np.ndarray:
    """Per deal both played (in deal order): line-up ``first``'s challenger's
    points a ván less ``second``'s."""
    a, b = challenger_points(games, first), challenger_points(games, second)
    return np.array([a[d] - b[d] for d in sorted(a.keys() & b.keys())])


def paired_difference(games: Sequence[GameRecord], first: int, second: int) -> tuple[Estimate, int]:
    """``(estimate, deals)``: line-up ``first``'s challenger's points a ván less
    ``second``'s, paired by deal over the deals both played."""
    return paired_estimate(deal_differences(games, first, second))


def paired_estimate(differences: np.ndarray) -> tuple[Estimate, int]:
    """``(estimate, deals)`` of per-deal ``differences``: their mean and its
    t-interval, the deal the cluster."""
    return clustered_ratio(differences, np.ones(len(differences))), len(differences)


Pair = tuple[str, str, str]
"""Two challengers and the reference they both faced, by spec."""


def main(argv: Sequence[str] | None = None) -> int:
    """Print the paired differences of every two matchups with one reference,
    per folder and, for several folders, pooled."""
    parser = argparse.ArgumentParser(
        prog="python -m arena.paired",
        description="Two challengers against the same reference, compared deal by deal.",
    )
    parser.add_argument(
        "out",
        type=Path,
        nargs="+",
        help="a tournament's --out folder; several (of different seeds) are also pooled",
    )
    args = parser.parse_args(argv)
    runs = [read_out(parser, out) for out in args.out]
    seeds: dict[tuple[int, RuleConfig], Path] = {}
    for out, run in zip(args.out, runs, strict=True):
        key = (run.header.seed, run.header.config)
        if key in seeds:
            parser.error(
                f"{out} and {seeds[key]} play the same deals (seed {run.header.seed}, the same "
                "rules): expected tournaments of different seeds to pool"
            )
        seeds[key] = out
    pooled: dict[Pair, list[np.ndarray]] = defaultdict(list)
    for out, run in zip(args.out, runs, strict=True):
        matchups = run.header.matchups
        pairs = [
            (i, j)
            for i, j in itertools.combinations(range(len(matchups)), 2)
            if matchups[i][1] == matchups[j][1]
        ]
        if not pairs:
            parser.error(
                f"{out}: no two 1-vs-3 matchups share a reference: expected a tournament "
                "like --vs A REF --vs B REF"
            )
        if len(runs) > 1:
            print(f"{out}:")
        for i, j in pairs:
            differences = deal_differences(run.games, i, j)
            pooled[(matchups[i][0], matchups[j][0], matchups[i][1])].append(differences)
            estimate, deals = paired_estimate(differences)
            print(
                f"{'  ' if len(runs) > 1 else ''}{matchups[i][0]} − {matchups[j][0]} "
                f"(both vs 3× {matchups[i][1]}): {estimate.describe()} points a ván, {deals} deals"
            )
    if len(runs) > 1:
        print(f"pooled over the {len(runs)} folders that play each pair:")
        for (first, second, reference), parts in pooled.items():
            if len(parts) == len(runs):
                estimate, deals = paired_estimate(np.concatenate(parts))
                print(
                    f"  {first} − {second} (both vs 3× {reference}): "
                    f"{estimate.describe()} points a ván, {deals} deals"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "challenger_points",
    "deal_differences",
    "main",
    "paired_difference",
    "paired_estimate",
]
