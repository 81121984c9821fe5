"""The mixed table (:mod:`arena.mixedtable`), on made-up round-robins of four
agents whose figures are computed by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.mixedtable import main
from tests.arena.test_paired import game

HEADER = {
    "format": "env121-arena-games/1", "matchups": [], "seed": 1, "config": {},
    "env121": "0", "command": ["env121"],
}  # fmt: skip


def write_pool(folder: Path, pool: list[str], points: dict[int, list[int]]) -> None:
    """A round-robin of ``pool`` whose first agent stands at ``points[deal][rotation]``
    (each other seat at minus a third of it)."""
    folder.mkdir()
    header: dict[str, Any] = {**HEADER, "pool": pool, "specs": pool, "deals": len(points)}
    lines = [header] + [
        game(deal, 0, rotation, standing[rotation])
        for deal, standing in points.items()
        for rotation in range(4)
    ]
    (folder / "games.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_each_agent_scores_its_mean_over_the_orders_per_deal(tmp_path, capsys):
    # A is first in both orders: per deal its mean is (0+60+0+60)/4 = 30 and 90 in
    # the first, 30 and 60 in the second; over both orders 30 and 75, mean 52.5.
    write_pool(tmp_path / "one", ["A", "B", "C", "D"], {0: [0, 60, 0, 60], 1: [90] * 4})
    write_pool(tmp_path / "two", ["A", "C", "B", "D"], {0: [30] * 4, 1: [60] * 4})
    assert main([str(tmp_path / "one"), str(tmp_path / "two")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| agent | every order | `A` → `B` → `C` → `D` |")
    a_row = lines[2]
    assert a_row.startswith("| `A` | +52.5 [") and a_row.endswith("| +60.0 | +45.0 |")
    # over deals 30 and 75: sd 31.820, t(0.975, 1) = 12.706
    low = float(a_row.split("[")[1].split(",")[0])
    assert low == pytest.approx(52.5 - 12.706205 * 31.819805 / 2**0.5, abs=0.05)
    # B stands at minus a third of A's points wherever it sits: deals -10 and -25
    assert lines[3].startswith("| `B` | -17.5 [")
    assert "2 deals" in lines[-1]


def test_a_pool_of_other_agents_is_one_line(tmp_path, capsys):
    write_pool(tmp_path / "one", ["A", "B", "C", "D"], {0: [0] * 4})
    write_pool(tmp_path / "two", ["A", "B", "C", "E"], {0: [0] * 4})
    with pytest.raises(SystemExit):
        main([str(tmp_path / "one"), str(tmp_path / "two")])
    assert "another pool or seed" in capsys.readouterr().err
