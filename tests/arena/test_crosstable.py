"""The cross table of a tournament's 1-vs-3 matchups (:mod:`arena.crosstable`), on
made-up games whose cells are computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.registry import ALIASES
from arena.crosstable import main
from tests.arena.test_paired import A, B, game

HEADER = {
    "format": "env121-arena-games/1", "pool": [], "deals": 3, "seed": 1, "config": {},
    "env121": "0", "command": ["env121"],
}  # fmt: skip


def write_tournament(
    folder: Path, matchups: list[list[str]], tables: tuple[dict[int, list[int]], ...]
) -> None:
    """A games.jsonl of ``matchups`` whose line-up ``i`` scores ``tables[i]``."""
    specs = list(dict.fromkeys(name for pair in matchups for name in pair))
    lines = [{**HEADER, "matchups": matchups, "specs": specs}] + [
        game(deal, lineup, rotation, points[rotation])
        for lineup, table in enumerate(tables)
        for deal, points in table.items()
        for rotation in range(4)
    ]
    (folder / "games.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_each_cell_is_the_challengers_points_at_that_table(tmp_path, capsys):
    # A vs 3× B scores A's table (per deal 60, 0, 150: mean 70); B vs 3× A scores B's
    # (15, -60, 150: mean 35); t(0.975, 2) = 4.3027 over the three deals.
    write_tournament(tmp_path, [["A", "B"], ["B", "A"]], (A, B))
    assert main([str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| agent \\ vs 3× | `A` | `B` |"
    a_row, b_row = lines[2], lines[3]
    assert a_row.startswith("| `A` | 0 | +70.0 [")
    assert b_row.startswith("| `B` | +35.0 [") and b_row.endswith("| 0 |")
    low = float(a_row.split("[")[1].split(",")[0])
    half = 4.302653 * 75.498344 / 3**0.5  # sd of 60, 0, 150
    assert low == pytest.approx(70.0 - half, abs=0.05)
    assert "3 deals a cell" in lines[-1]


def test_a_stable_name_in_the_order_is_resolved_and_said(tmp_path, capsys):
    write_tournament(tmp_path, [[ALIASES["best"], "greedy"]], (A,))
    assert main([str(tmp_path), "--order", "best,greedy"]) == 0
    out = capsys.readouterr().out
    assert "| `best` | 0 | +70.0 [" in out
    assert f"best = {ALIASES['best']}" in out


def test_an_agent_the_tournament_did_not_seat_is_one_line(tmp_path, capsys):
    write_tournament(tmp_path, [["A", "B"]], (A,))
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--order", "A,C"])
    assert "--order names ['C']" in capsys.readouterr().err
