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


def paired_difference(games: Sequence[GameRecord], first: int, second: int) -> tuple[Estimate, int]:
    """``(estimate, deals)``: line-up ``first``'s challenger's points a ván less
    ``second``'s, paired by deal over the deals both played."""
    a, b = challenger_points(games, first), challenger_points(games, second)
    deals = sorted(a.keys() & b.keys())
    differences = np.array([a[d] - b[d] for d in deals])
    return clustered_ratio(differences, np.ones(len(deals))), len(deals)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the paired differences of every two matchups with one reference."""
    parser = argparse.ArgumentParser(
        prog="python -m arena.paired",
        description="Two challengers against the same reference, compared deal by deal.",
    )
    parser.add_argument("out", type=Path, help="a tournament's --out folder")
    args = parser.parse_args(argv)
    run = read_out(parser, args.out)
    matchups = run.header.matchups
    pairs = [
        (i, j)
        for i, j in itertools.combinations(range(len(matchups)), 2)
        if matchups[i][1] == matchups[j][1]
    ]
    if not pairs:
        parser.error(
            f"{args.out}: no two 1-vs-3 matchups share a reference: expected a tournament "
            "like --vs A REF --vs B REF"
        )
    for i, j in pairs:
        estimate, deals = paired_difference(run.games, i, j)
        print(
            f"{matchups[i][0]} − {matchups[j][0]} (both vs 3× {matchups[i][1]}): "
            f"{estimate.describe()} points a ván, {deals} deals"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["challenger_points", "main", "paired_difference"]
