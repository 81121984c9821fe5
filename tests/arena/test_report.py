"""The terminal report (:mod:`arena.report`): intervals as written, agents as spelled."""

from __future__ import annotations

import io
import math

from rich.console import Console
from rich.text import Text

from arena.estimate import Estimate
from arena.metrics import METRICS, AgentStats
from arena.report import metrics_table, report_console


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


SENTENCE = (
    "greedy vs 3× random: advantage +2087.5 [+1760.3, +2414.7] points per ván — the 95% CI "
    "excludes 0: greedy is stronger"
)


def test_a_sentence_to_a_file_or_pipe_is_one_whole_line_and_tables_keep_their_width():
    """Not on a terminal, rich broke the headline at its default 80 columns, mid-sentence;
    a table's title is a sentence too, its rows stay in 80 columns."""
    out = io.StringIO()
    console = report_console(file=out)
    console.print(SENTENCE)
    agent = stats("greedy", points_per_van=Estimate(12.34, 7.84, 16.84, 9))
    console.print(metrics_table("t", {agent.label: agent}, 9, {}))
    lines = out.getvalue().splitlines()
    assert lines[0] == SENTENCE
    assert max(len(line) for line in lines if "│" in line) <= 80


def test_a_sentence_on_a_terminal_wraps_at_words_to_its_width(monkeypatch):
    monkeypatch.setattr(Console, "is_terminal", property(lambda console: True))
    monkeypatch.setenv("COLUMNS", "50")  # a 50-column terminal
    out = io.StringIO()
    console = report_console(file=out)
    console.print(SENTENCE, highlight=False)
    lines = Text.from_ansi(out.getvalue()).plain.splitlines()
    assert len(lines) > 1 and max(len(line) for line in lines) <= 50
    assert " ".join(line.strip() for line in lines) == SENTENCE  # broken at spaces only
