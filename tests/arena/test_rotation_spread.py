"""``scripts/rotation_spread.py``: the challenger's points by deal and rotation, their spreads."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "rotation_spread.py"
spec = importlib.util.spec_from_file_location("rotation_spread", SCRIPT)
assert spec is not None and spec.loader is not None
rotation_spread = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rotation_spread)


def journal(points: dict[tuple[int, int], int], matchups=(("oracle", "greedy"),)) -> list[str]:
    """A games.jsonl whose challenger (seat r in rotation r) stands ``points[deal, r]``."""
    deals = 1 + max(deal for deal, _ in points)
    lines = [json.dumps({"matchups": [list(m) for m in matchups], "deals": deals})]
    for (deal, rotation), standing in points.items():
        seats = [{"standing": -1000} for _ in range(4)]
        seats[rotation] = {"standing": standing}
        lines.append(json.dumps({"deal": deal, "rotation": rotation, "seats": seats}))
    return lines


def test_the_challengers_seat_follows_the_rotation_and_partial_deals_are_left_out():
    games = {(0, r): 100 * r for r in range(4)} | {(1, r): 40 for r in range(4)} | {(2, 0): 7}
    points = rotation_spread.challenger_points(journal(games))
    assert points.tolist() == [[0, 100, 200, 300], [40, 40, 40, 40]]
    rotation, deal = rotation_spread.spreads(points)
    assert rotation == pytest.approx(np.sqrt(np.var([0, 100, 200, 300], ddof=1) / 2))
    assert deal == pytest.approx(np.std([150, 40], ddof=1))


def test_a_round_robin_or_several_matchups_are_refused():
    with pytest.raises(ValueError, match="one matchup"):
        rotation_spread.challenger_points(journal({(0, 0): 1}, matchups=()))
