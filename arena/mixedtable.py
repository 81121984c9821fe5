"""A mixed table: four different agents at one table, over the seat orders played.

Who sits after whom matters in 121 (a card put out goes round from the next
seat, and the next seat may take it first), so one seat order of four agents
favours whoever sits after the weakest. A round-robin pool of exactly four
agents (``env121 tournament --pool A,B,C,D --seed S``) plays one cyclic order
in its four rotations; played again on the same seed for other orders
(``--pool A,C,B,D``, …: there are six), the same deals meet every order. This
reads those tournaments' ``games.jsonl`` (:mod:`arena.journal`) and prints, as
Markdown, each agent's points a ván over every order, with its 95% interval
clustered by deal (:func:`arena.estimate.clustered_ratio`), on the deals every
tournament finished; then each order's means::

    python -m arena.mixedtable DIR [DIR …]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from arena.estimate import clustered_ratio
from arena.journal import LoggedRun, read_out
from arena.schedule import seat_player
from env121.engine.state import NUM_SEATS


def points_by_deal(run: LoggedRun) -> dict[str, dict[int, tuple[float, int]]]:
    """Per agent spec, per deal: (points, ván) over the rotations of that deal
    played (a pool of four agents: one line-up, in pool order)."""
    specs = run.header.specs
    table: dict[str, dict[int, tuple[float, int]]] = {spec: {} for spec in specs}
    for game in run.games:
        for seat, record in enumerate(game.seats):
            spec = specs[seat_player(seat, game.rotation)]
            points, van = table[spec].get(game.deal, (0.0, 0))
            table[spec][game.deal] = (points + record.standing, van + game.van)
    return table


def mixed_table(runs: Sequence[LoggedRun]) -> tuple[list[str], int]:
    """The table's Markdown lines and the deals it rests on (those every run finished
    in all four rotations)."""
    tables = [points_by_deal(run) for run in runs]
    specs = list(tables[0])
    deals = sorted(
        set.intersection(
            *(
                {
                    deal
                    for deal, (_, van) in table[spec].items()
                    if van == NUM_SEATS * run.header.config.num_van
                }
                for table, run in zip(tables, runs, strict=True)
                for spec in table
            )
        )
    )
    orders = [" → ".join(f"`{name}`" for name in run.header.pool) for run in runs]
    lines = [
        "| agent | every order | " + " | ".join(orders) + " |",
        "|---|---:|" + "---:|" * len(runs),
    ]
    for spec, name in zip(specs, runs[0].header.pool, strict=True):
        each = [
            np.array([table[spec][deal][0] / table[spec][deal][1] for deal in deals])
            for table in tables
        ]
        over_all = clustered_ratio(np.mean(each, axis=0), np.ones(len(deals)))
        cells = [f"{values.mean():+.1f}" for values in each]
        lines.append(
            f"| `{name}` | {over_all.mean:+.1f} [{over_all.low:+.1f}, {over_all.high:+.1f}] | "
            + " | ".join(cells)
            + " |"
        )
    return lines, len(deals)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the mixed table of the tournaments in the folders given."""
    parser = argparse.ArgumentParser(
        prog="python -m arena.mixedtable",
        description="Four agents at one table over the seat orders played, from round-robins.",
    )
    parser.add_argument("out", type=Path, nargs="+", help="round-robin tournaments' --out folders")
    args = parser.parse_args(argv)
    runs = []
    for folder in args.out:
        run = read_out(parser, folder)
        if run.header.matchups or len(set(run.header.specs)) != NUM_SEATS:
            parser.error(f"{folder}: not a round-robin of four agents (--pool A,B,C,D)")
        runs.append(run)
    first = runs[0].header
    for run in runs[1:]:
        if set(run.header.specs) != set(first.specs) or run.header.seed != first.seed:
            parser.error(
                f"{run.path}: another pool or seed: expected the agents {list(first.pool)} "
                f"on seed {first.seed}"
            )
        if run.header.config != first.config:
            parser.error(f"{run.path}: other rules than {runs[0].path}'s")
    lines, deals = mixed_table(runs)
    if deals == 0:
        parser.error("no deal was finished by every tournament")
    print("\n".join(lines))
    print(
        f"\npoints a ván; every order: mean over the {len(runs)} order(s), 95% interval "
        f"clustered by deal; {deals} deals"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["main", "mixed_table", "points_by_deal"]
