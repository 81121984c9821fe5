"""How much of a 1-vs-3 result is the seat's cards: the spread duplicate removes.

Usage::

    .venv/bin/python scripts/rotation_spread.py tournament_results/<run>

Reads the run's ``games.jsonl`` (a 1-vs-3 tournament of one matchup: the
challenger holds seat ``r`` in rotation ``r``, :func:`arena.schedule.seat_player`)
and prints, for the challenger's points in a ván:

* the *rotation spread*: the root mean square, over deals, of the standard
  deviation over a deal's four rotations — how much one ván moves with the
  seat (the cards) it is played from, which no agent, however good, removes;
* the *deal spread*: the standard deviation of a deal's mean over its four
  rotations — what duplicate leaves, and what the clustered 95% interval of
  the advantage is made of (half-width ≈ 1.96 · deal spread / √deals);
* how many deals an edge of +10, +20 and +40 needs for its interval to clear
  zero at that deal spread.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

from env121.engine.state import NUM_SEATS


def challenger_points(lines: list[str]) -> np.ndarray:
    """``points[deal, rotation]``: the challenger's standing in each ván of a
    one-matchup 1-vs-3 ``games.jsonl`` (its header line first)."""
    header, *games = (json.loads(line) for line in lines if line.strip())
    if len(header.get("matchups", [])) != 1:
        raise ValueError(
            f"expected a 1-vs-3 tournament of one matchup, got matchups={header.get('matchups')}"
        )
    points = np.full((header["deals"], NUM_SEATS), np.nan)
    for game in games:
        rotation = game["rotation"]
        points[game["deal"], rotation] = game["seats"][rotation]["standing"]
    complete = ~np.isnan(points).any(axis=1)
    if not complete.any():
        raise ValueError("no deal has all four rotations played")
    return points[complete]


def spreads(points: np.ndarray) -> tuple[float, float]:
    """The rotation spread and the deal spread of ``points[deal, rotation]``."""
    rotation = math.sqrt(float((points.std(axis=1, ddof=1) ** 2).mean()))
    return rotation, float(points.mean(axis=1).std(ddof=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a tournament's --out directory")
    args = parser.parse_args()
    points = challenger_points((args.run / "games.jsonl").read_text().splitlines())
    rotation, deal = spreads(points)
    print(f"{len(points)} deals; challenger's mean {points.mean():+.1f} points per ván")
    print(f"rotation spread {rotation:.1f}, deal spread {deal:.1f} points per ván")
    for edge in (10, 20, 40):
        print(f"an edge of +{edge}: about {math.ceil((1.96 * deal / edge) ** 2)} deals")


if __name__ == "__main__":
    main()
