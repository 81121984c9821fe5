"""Paired differences of two challengers on the same deals (:mod:`arena.paired`),
against the definition computed by hand on made-up games."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arena.journal import record_from_dict
from arena.paired import challenger_points, main, paired_difference
from arena.play import GameRecord
from arena.schedule import seat_player


def game(deal: int, lineup: int, rotation: int, challenger: int) -> dict[str, Any]:
    """A game whose challenger (position 0) stands at ``challenger`` points,
    each reference seat at minus a third of it."""
    seats = []
    for seat in range(4):
        standing = challenger if seat_player(seat, rotation) == 0 else -challenger // 3
        seats.append(
            {
                "standing": standing, "rank": 1, "wins": 0, "win_points": 0, "cuop": 0,
                "nhat_ban": 0, "den": 0, "decisions": 1, "think_seconds": 0.0, "faults": {},
            }
        )  # fmt: skip
    return {
        "deal": deal, "lineup": lineup, "rotation": rotation, "van": 1, "vong": 12,
        "draws": 0, "end": "completed", "seats": seats, "first_hands": [[0, 1, 2, 3, 4]] * 4,
    }  # fmt: skip


# Challenger points per deal (the mean of its four rotations): A and B on deals 0, 1, 2.
A = {0: [30, 90, 0, 120], 1: [-60, 0, 0, 60], 2: [300, 300, 0, 0]}
B = {0: [0, 0, 30, 30], 1: [-120, -120, 0, 0], 2: [150, 150, 150, 150]}


def games() -> list[GameRecord]:
    return [
        record_from_dict(game(deal, lineup, rotation, points[rotation]))
        for lineup, table in enumerate((A, B))
        for deal, points in table.items()
        for rotation in range(4)
    ]


def test_the_difference_is_the_mean_of_each_deals_difference_with_its_t_interval():
    played = games()
    assert challenger_points(played, 0) == {0: 60.0, 1: 0.0, 2: 150.0}
    assert challenger_points(played, 1) == {0: 15.0, 1: -60.0, 2: 150.0}
    estimate, deals = paired_difference(played, 0, 1)
    # Differences 45, 60, 0: mean 35, sd 31.22, t(0.975, 2) = 4.3027.
    half = 4.302653 * (31.224990 / 3**0.5)
    assert deals == 3
    assert estimate.mean == pytest.approx(35.0)
    assert (estimate.low, estimate.high) == pytest.approx((35.0 - half, 35.0 + half), rel=1e-5)
    swapped, _ = paired_difference(played, 1, 0)
    assert swapped.mean == pytest.approx(-35.0)


def write_out(folder, seed: int, a: dict[int, list[int]], b: dict[int, list[int]]) -> str:
    """A tournament folder of seed ``seed`` where A and B (vs greedy) score ``a``, ``b``."""
    header = {
        "format": "env121-arena-games/1", "matchups": [["A", "greedy"], ["B", "greedy"]],
        "pool": [], "specs": ["A", "greedy", "B"], "deals": len(a), "seed": seed, "config": {},
        "env121": "0", "command": ["env121"],
    }  # fmt: skip
    lines = [header] + [
        game(deal, lineup, rotation, points[rotation])
        for lineup, table in enumerate((a, b))
        for deal, points in table.items()
        for rotation in range(4)
    ]
    folder.mkdir(exist_ok=True)
    (folder / "games.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(folder)


def test_the_command_prints_each_pair_with_one_reference(tmp_path, capsys):
    write_out(tmp_path, 1, A, B)
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("A − B (both vs 3× greedy): +35.0 [") and "3 deals" in out
    with pytest.raises(SystemExit):
        main([str(tmp_path / "missing")])


def test_several_folders_are_pooled_deal_by_deal(tmp_path, capsys):
    # Seed 1: differences 45, 60, 0 (above); seed 2: deal 0 gives A 40, B 0 → 40.
    first = write_out(tmp_path / "s1", 1, A, B)
    second = write_out(tmp_path / "s2", 2, {0: [40, 40, 40, 40]}, {0: [0, 0, 0, 0]})
    assert main([first, second]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{first}:" and out[2] == f"{second}:"
    assert out[3].startswith("  A − B (both vs 3× greedy): +40.0") and "1 deals" in out[3]
    assert out[4] == "pooled over the 2 folders that play each pair:"
    # Differences 45, 60, 0, 40: mean 36.25.
    assert out[5].startswith("  A − B (both vs 3× greedy): +36.2") and out[5].endswith("4 deals")


def test_two_folders_of_one_seed_are_refused(tmp_path, capsys):
    first = write_out(tmp_path / "a", 1, A, B)
    second = write_out(tmp_path / "b", 1, A, B)
    with pytest.raises(SystemExit):
        main([first, second])
    assert "play the same deals (seed 1" in capsys.readouterr().err
