"""The tournament in the terminal: a ``rich`` progress bar and results tables.

:func:`print_report` prints, for each results table (a 1-vs-3 matchup or the
round-robin), its headline and one row per metric, then the ratings. On
screen a metric is ``mean ±half-width`` of its 95% interval, or ``mean [low,
high]`` where the interval was clipped to the metric's range (a share at few
deals); the exact bounds are in ``results.json`` / ``results.csv``. Agents
are shown as the command spelled them (:attr:`TournamentResult.names`). A
table holding a ``program:`` agent (or any agent that committed faults) ends
with a ``faults`` row: each agent's faults by kind (``docs/agent-protocol.md``).
The sentences (the headline, the games line, where the results are) wrap at
words to a terminal's width, and stay whole lines when the output goes to a
file or a pipe (:func:`report_console`), never broken at rich's default 80
columns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from arena.estimate import Estimate
from arena.metrics import METRICS, AgentStats
from arena.tournament import MatchupResult, TournamentResult

PERCENT = ("rank_1", "rank_2", "rank_3", "rank_4", "win_rate", "draw_rate")
"""Metrics shown as percentages."""
ONE_DECIMAL = ("points_per_van", "points_per_vong")
"""Metrics shown with one decimal (the others with two, or three below 1)."""


def report_console(quiet: bool = False, file: IO[str] | None = None) -> Console:
    """The console a tournament reports to: on a terminal, rich's own (sentences
    wrap at words to its width); elsewhere (a file, a pipe, a CI log) sentences
    are printed as whole lines, which the reader wraps (rich would break them at
    its default width, 80 columns, mid-sentence)."""
    console = Console(quiet=quiet, file=file)
    if not console.is_terminal:
        console.soft_wrap = True
    return console


@contextmanager
def progress_bar(console: Console, description: str) -> Iterator[Callable[[int, int], None]]:
    """A live progress bar; yields the ``progress(done, total)`` callback that moves it."""
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as bar:
        task = bar.add_task(description, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def print_report(result: TournamentResult, console: Console) -> None:
    """The headline(s), the metrics table(s) and the ratings."""
    for matchup in result.matchups:
        console.print(headline(matchup, result.names))
    for title, agents in result.tables:
        console.print(metrics_table(title, agents, result.deals, result.names))
    console.print(ratings_table(result))
    games = len(result.games)
    console.print(
        f"{games} games ({result.deals} deals × {len(result.schedule.lineups)} line-up(s) × "
        f"4 rotations) in {result.seconds:.1f} s with {result.jobs} job(s); seed {result.seed}"
    )


def headline(matchup: MatchupResult, names: Mapping[str, str] | None = None) -> str:
    """``"greedy vs 3× random: advantage +12.3 [+4.5, +20.1] points per ván — …"``,
    with labels and names shown as ``names`` maps them."""
    names = names or {}
    advantage = matchup.advantage
    challenger = names.get(matchup.challenger, matchup.challenger)
    text = f"[bold]{names.get(matchup.name, matchup.name)}[/]: advantage "
    text += f"{advantage.describe()} points per ván"
    if not advantage.has_interval:
        return text
    if advantage.excludes_zero:
        verdict = "stronger" if advantage.mean > 0 else "weaker"
        return f"{text} — the 95% CI excludes 0: {challenger} is {verdict}"
    return f"{text} — the 95% CI includes 0: no clear difference"


def metrics_table(
    title: str,
    agents: dict[str, AgentStats],
    deals: int,
    names: Mapping[str, str] | None = None,
) -> Table:
    """One row per metric, one column per agent: ``mean ±half-width`` of the 95% CI
    (``[low, high]`` where it was clipped); title and labels shown as ``names`` maps them."""
    names = names or {}
    table = Table(
        title=f"{names.get(title, title)} — {deals} deal(s); mean ± 95% CI half-width "
        "(or \\[low, high] where clipped to the metric's range), clustered by deal"
    )
    table.add_column("metric")
    for label in agents:
        table.add_column(names.get(label, label), justify="right")
    for metric in METRICS:
        name = f"{metric.header} %" if metric.name in PERCENT else metric.header
        table.add_row(name, *(_cell(metric.name, s.metrics[metric.name]) for s in agents.values()))
    if any(s.faults or s.spec.startswith(PROGRAM_PREFIX) for s in agents.values()):
        table.add_row("faults", *(_faults(s) for s in agents.values()))
    return table


PROGRAM_PREFIX = "program:"
"""The spec prefix of agents that commit faults (:mod:`agents.program`)."""


def _faults(stats: AgentStats) -> str:
    """``"stray 3, timeout 1"``; ``none`` for a program without faults; ``–`` for
    an agent that cannot commit any."""
    if stats.faults:
        return ", ".join(f"{kind} {count}" for kind, count in stats.faults.items())
    return "none" if stats.spec.startswith(PROGRAM_PREFIX) else "–"


def ratings_table(result: TournamentResult) -> Table:
    """The OpenSkill ratings, best ordinal first."""
    table = Table(title="OpenSkill ratings (Plackett–Luce, from final ranks)")
    for column in ("agent", "ordinal μ−3σ", "μ", "μ ± 3σ", "games"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for spec, r in sorted(result.ratings.items(), key=lambda item: -item[1].ordinal):
        span = f"[{r.low:.2f}, {r.high:.2f}]"
        table.add_row(result.shown(spec), f"{r.ordinal:.2f}", f"{r.mu:.2f}", span, str(r.games))
    return table


def _cell(name: str, estimate: Estimate) -> str:
    """``"12.3 ±4.5"``, or ``"50.0 [0.0, 100.0]"`` for an interval clipped to its
    range; percentages for shares; ``–`` for no data."""
    if math.isnan(estimate.mean):
        return "–"
    scale = 100.0 if name in PERCENT else 1.0
    mean = scale * estimate.mean
    digits = 1 if name in ONE_DECIMAL or name in PERCENT else (2 if abs(mean) >= 1 else 3)
    text = f"{mean:.{digits}f}"
    if not estimate.has_interval:
        return text
    below, above = estimate.mean - estimate.low, estimate.high - estimate.mean
    if math.isclose(below, above, rel_tol=1e-9, abs_tol=1e-12):
        return f"{text} ±{scale * above:.{digits}f}"
    return f"{text} [{scale * estimate.low:.{digits}f}, {scale * estimate.high:.{digits}f}]"


__all__ = [
    "headline",
    "metrics_table",
    "print_report",
    "progress_bar",
    "ratings_table",
    "report_console",
]
