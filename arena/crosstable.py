"""A tournament's 1-vs-3 matchups as a cross table: each agent against three copies of each.

"Points against three greedy" alone ranks agents by how well they exploit
greedy; an agent that only exploits one table shows it when it sits at every
table. A tournament of every ``--vs A B`` over a set of agents (``A ≠ B``;
``A`` against three ``A`` is zero by symmetry) is read back from its
``games.jsonl`` (:mod:`arena.journal`; an interrupted tournament shows the
deals it finished) and printed as a Markdown table: a row per challenger, a
column per table of three, each cell the challenger's points a ván with its
95% interval clustered by deal (:func:`arena.paired.challenger_points`, the
estimate of the tournament's own tables), and the deals it rests on::

    python -m arena.crosstable DIR [--order A,B,…]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from agents.registry import ALIASES
from arena.estimate import Estimate, clustered_ratio
from arena.journal import read_out
from arena.paired import challenger_points
from arena.play import GameRecord


def advantages(
    games: Sequence[GameRecord], matchups: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], tuple[Estimate, int]]:
    """``(challenger, reference) → (estimate, deals)`` for every matchup that
    finished at least one deal: the challenger's points a ván, clustered by deal."""
    table = {}
    for lineup, (challenger, reference) in enumerate(matchups):
        points = challenger_points(games, lineup)
        if points:
            values = np.array([points[deal] for deal in sorted(points)])
            table[challenger, reference] = (
                clustered_ratio(values, np.ones(len(values))),
                len(values),
            )
    return table


def markdown(
    table: dict[tuple[str, str], tuple[Estimate, int]],
    order: Sequence[str],
    labels: Sequence[str] | None = None,
) -> list[str]:
    """The cross table's lines: rows the challengers, columns the tables of three
    (headed ``labels``, the specs themselves by default)."""
    labels = order if labels is None else labels
    most = _most(table)
    lines = [
        "| agent \\ vs 3× | " + " | ".join(f"`{name}`" for name in labels) + " |",
        "|---|" + "---:|" * len(order),
    ]
    for challenger, label in zip(order, labels, strict=True):
        cells = []
        for reference in order:
            if challenger == reference:
                cells.append("0")
            elif (challenger, reference) in table:
                estimate, deals = table[challenger, reference]
                cells.append(
                    f"{estimate.mean:+.1f} [{estimate.low:+.1f}, {estimate.high:+.1f}]"
                    + ("" if deals == most else f" ({deals} deals)")
                )
            else:
                cells.append("—")
        lines.append(f"| `{label}` | " + " | ".join(cells) + " |")
    return lines


def _most(table: dict[tuple[str, str], tuple[Estimate, int]]) -> int:
    """The deals most cells rest on (the others say theirs)."""
    return max(deals for _, deals in table.values())


def main(argv: Sequence[str] | None = None) -> int:
    """Print a tournament's cross table."""
    parser = argparse.ArgumentParser(
        prog="python -m arena.crosstable",
        description="Every agent against three copies of each, from one tournament's games.",
    )
    parser.add_argument("out", type=Path, help="a tournament's --out folder")
    parser.add_argument(
        "--order",
        help="the agents' order, comma-separated, stable names allowed (default: as played)",
    )
    args = parser.parse_args(argv)
    run = read_out(parser, args.out)
    matchups = [(challenger, reference) for challenger, reference in run.header.matchups]
    played = list(dict.fromkeys(name for pair in matchups for name in pair))
    labels = played if args.order is None else args.order.split(",")
    order = [ALIASES.get(name, name) for name in labels]
    unknown = sorted(set(order) - set(played))
    if unknown:
        parser.error(
            f"--order names {unknown}, which the tournament did not seat: expected {played}"
        )
    table = advantages(run.games, matchups)
    if not table:
        parser.error(f"{args.out}: no matchup has finished a deal yet")
    print("\n".join(markdown(table, order, labels)))
    print(f"\npoints a ván, 95% interval clustered by deal; {_most(table)} deals a cell")
    named = [name for name in labels if name in ALIASES]
    if named:
        print("; ".join(f"{name} = {ALIASES[name]}" for name in named))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["advantages", "main", "markdown"]
