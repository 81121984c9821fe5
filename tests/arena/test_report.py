"""The terminal report (:mod:`arena.report`): intervals as written, agents as spelled."""

from __future__ import annotations

import math

from rich.console import Console

from arena.estimate import Estimate
from arena.metrics import METRICS, AgentStats
from arena.report import metrics_table


def stats(label: str, **estimates: Estimate) -> AgentStats:
    """An agent whose metrics are ``estimates``, the others without data."""
    nothing = Estimate(math.nan, math.nan, math.nan, 0)
    metrics = {m.name: estimates.get(m.name, nothing) for m in METRICS}
    return AgentStats(label, label, metrics, {}, {}, {})


def rendered(table: object) -> str:
    console = Console(record=True, width=240)
    console.print(table)
    return console.export_text()


def test_a_clipped_interval_is_shown_by_its_ends_a_symmetric_one_by_its_half_width():
    agent = stats(
        "mc:budget=8,width=0",
        rank_1=Estimate(0.75, 0.0, 1.0, 2),  # clipped: 0.75 ± 3.18 before
        points_per_van=Estimate(12.34, 7.84, 16.84, 9),
    )
    text = rendered(
        metrics_table("t", {agent.label: agent}, 9, {agent.label: "mc:width=0,budget=8"})
    )
    assert "75.0 [0.0, 100.0]" in text
    assert "12.3 ±4.5" in text
    assert "mc:width=0,budget=8" in text and "mc:budget=8,width=0" not in text


def test_a_program_agents_faults_are_a_row_of_the_table():
    nothing = Estimate(math.nan, math.nan, math.nan, 0)
    metrics = {m.name: nothing for m in METRICS}
    program = AgentStats("p", "program:./bot", metrics, {}, {}, {"stray": 3, "timeout": 1})
    clean = AgentStats("c", "program:./other", metrics, {}, {}, {})
    text = rendered(metrics_table("t", {"p": program, "c": clean, "r": stats("random")}, 1))
    (row,) = [line for line in text.splitlines() if line.lstrip("│ ").startswith("faults")]
    assert "stray 3, timeout 1" in row and "none" in row and "–" in row
    assert "faults" not in rendered(metrics_table("t", {"r": stats("random")}, 1))
