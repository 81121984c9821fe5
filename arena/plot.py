"""``results.png``: the tournament at a glance, drawn with matplotlib's Agg canvas.

A title says what was played: the matchup (or how many), the deals, the
rotations, the seed and how the intervals were made. Then one row per results
table — per 1-vs-3 matchup, or the round-robin's one — titled with its name,
one line per player in it:

* left, mean points per ván with its 95% interval clustered by deal (0, the
  grey line, is even; in 1 vs 3 the challenger's value, in blue, is its
  advantage, the reference's in grey), the numbers written on the right;
* right, the share of matches the player finished 1st, 2nd, 3rd and 4th.

The last row is the OpenSkill ratings: ``μ ± 3σ`` as a bar, the ordinal
``μ − 3σ`` (the leaderboard's sort key) marked ``|``. One legend, for the
rank colours, sits above the first rank panel. Agents are shown as the command spelled
them (``ppo:small``; :attr:`~arena.tournament.TournamentResult.names`), long
names wrapped. The figure grows with the rows, so any number of matchups
keeps every panel readable; constrained layout keeps titles, labels and the
legend apart and inside the figure.

No pyplot: a :class:`~matplotlib.figure.Figure` on an Agg canvas, so nothing
depends on a display or on global plotting state.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from arena.estimate import CONFIDENCE, Estimate
from arena.metrics import AgentStats
from arena.tournament import TournamentResult

RANK_COLOURS = ("#2b8a3e", "#74b816", "#f59f00", "#e03131")
CHALLENGER = "#1c7ed6"
"""The colour of a 1-vs-3 challenger's interval (and of every round-robin player's)."""
REFERENCE = "#868e96"
"""The colour of a 1-vs-3 reference's interval."""
WIDTH = 12.0
"""Inches, with names of up to ``SHORT_NAME`` characters; the height grows with the rows."""
SHORT_NAME = 12
CHAR_WIDTH = 0.08
"""Inches the figure widens per character of a name line beyond ``SHORT_NAME``."""
TITLE_HEIGHT = 1.3
"""Inches for the figure's title."""
ROW_HEIGHT = 0.45
"""Inches per player line, at least."""
TEXT_LINE_HEIGHT = 0.2
"""Inches per line of a wrapped name (a player line is one more than its name's)."""
PANEL_EXTRA = 1.2
"""Inches per row of panels besides its player lines: its title and x axis."""
LABEL_WIDTH = 26
"""Agent names longer than this many characters are wrapped."""
TITLE_WIDTH = 55
"""Row titles longer than this many characters are wrapped (they stay
over the left panel, clear of the legend)."""


def plot_results(result: TournamentResult, path: str | Path) -> Path:
    """Draw :func:`results_figure` into the PNG file ``path``; returns it."""
    out = Path(path)
    results_figure(result).savefig(out, dpi=100)
    return out


def results_figure(result: TournamentResult) -> Figure:
    """The figure of ``results.png`` (see the module docstring)."""
    tables = result.tables
    ratings = sorted(result.ratings.items(), key=lambda item: -item[1].ordinal)
    players = [[result.shown(label) for label in agents] for _, agents in tables]
    players.append([result.shown(spec) for spec, _ in ratings])
    heights = [PANEL_EXTRA + len(names) * _line_height(names) for names in players]
    longest = max(
        len(line) for names in players for name in names for line in wrap(name).splitlines()
    )
    width = WIDTH + CHAR_WIDTH * max(0, longest - SHORT_NAME)  # room for the names' column
    figure = Figure(figsize=(width, TITLE_HEIGHT + sum(heights)), layout="constrained")
    FigureCanvasAgg(figure)
    figure.suptitle(title(result), fontsize="large")
    # One grid for all rows, so the panels of every row line up.
    grid = figure.add_gridspec(len(heights), 2, height_ratios=heights, width_ratios=(3, 2))
    for i, (name, agents) in enumerate(tables):
        points = figure.add_subplot(grid[i, 0])
        ranks = figure.add_subplot(grid[i, 1], sharey=points)
        shown = {result.shown(label): stats for label, stats in agents.items()}
        _table_row(points, ranks, result.shown(name), shown, one_vs_three=result.mode == "1v3")
        if i == 0:
            _rank_legend(ranks)
    rated = [(result.shown(spec), r.mu, r.sigma) for spec, r in ratings]
    _ratings_row(figure.add_subplot(grid[-1, :]), rated)
    return figure


def title(result: TournamentResult) -> str:
    """What was played and how the intervals were made (the figure's title)."""
    if result.mode == "1v3":
        count = len(result.matchups)
        played = (
            result.shown(result.matchups[0].name) if count == 1 else f"{count} matchups, 1 vs 3"
        )
        lineups = ""
    else:
        played = f"round-robin of {len(result.schedule.specs)} agents"
        lineups = f" × {len(result.schedule.lineups)} line-ups"
    deals = f"{result.deals} deal{'s' * (result.deals != 1)} × 4 rotations{lineups}"
    return (
        f"{wrap(played, 2 * TITLE_WIDTH)}\n{deals}, seed {result.seed}, "
        f"{result.config.num_van} ván per match; error bars: {CONFIDENCE:.0%} CI "
        "clustered by deal (Student t)"
    )


def _table_row(
    points: Axes, ranks: Axes, name: str, agents: dict[str, AgentStats], *, one_vs_three: bool
) -> None:
    points.set_title(wrap(name, TITLE_WIDTH), loc="left", fontweight="bold")
    ranks.tick_params(labelleft=False)
    labels = list(agents)
    estimates = [stats.metrics["points_per_van"] for stats in agents.values()]
    colours = [CHALLENGER if i == 0 or not one_vs_three else REFERENCE for i in range(len(labels))]
    _intervals(points, labels, estimates, colours)
    points.axvline(0, color="grey", linewidth=0.8, zorder=0)
    points.set_xlabel("mean points per ván (95% CI)")

    left = [0.0] * len(labels)
    for rank, colour in enumerate(RANK_COLOURS, start=1):
        shares = [_zero_if_nan(s.metrics[f"rank_{rank}"].mean) * 100 for s in agents.values()]
        bars = ranks.barh(range(len(labels)), shares, left=left, color=colour, height=0.6)
        texts = [f"{share:.0f}%" if share >= 15 else "" for share in shares]
        ranks.bar_label(bars, texts, label_type="center", fontsize="small", color="white")
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ranks.set_xlim(0, 100)
    ranks.set_xlabel("share of matches (%)")


def _rank_legend(ranks: Axes) -> None:
    """The rank colours, in one line above ``ranks`` (inside the figure's layout)."""
    handles = [Patch(color=c, label=f"rank {k}") for k, c in enumerate(RANK_COLOURS, start=1)]
    ranks.legend(
        handles=handles,
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        ncols=len(handles),
        fontsize="small",
        frameon=False,
        handlelength=1.0,
        columnspacing=1.0,
        borderaxespad=0.2,
    )


def _intervals(
    axes: Axes, labels: Sequence[str], estimates: Sequence[Estimate], colours: Sequence[str]
) -> None:
    """One line per player: its mean with its interval; the numbers on the right."""
    y = list(range(len(labels)))
    for i, (estimate, colour) in enumerate(zip(estimates, colours, strict=True)):
        mean = _zero_if_nan(estimate.mean)
        spread = [mean - estimate.low, estimate.high - mean] if estimate.has_interval else [0, 0]
        axes.errorbar(mean, i, xerr=[[spread[0]], [spread[1]]], fmt="o", capsize=4, color=colour)
    axes.set_yticks(y, [wrap(label) for label in labels])
    axes.set_ylim(len(labels) - 0.5, -0.5)  # the first player on top
    axes.margins(x=0.08)
    axes.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    values = axes.secondary_yaxis("right")
    values.set_yticks(y, [_describe(e) for e in estimates])
    values.tick_params(length=0)


def _ratings_row(axes: Axes, ratings: Sequence[tuple[str, float, float]]) -> None:
    axes.set_title(
        "OpenSkill ratings (Plackett–Luce, from final ranks), best first",
        loc="left",
        fontweight="bold",
    )
    y = list(range(len(ratings)))
    mus = [mu for _, mu, _ in ratings]
    axes.errorbar(mus, y, xerr=[3 * sigma for _, _, sigma in ratings], fmt="o", capsize=4)
    axes.plot([mu - 3 * sigma for _, mu, sigma in ratings], y, "k|", markersize=14)
    axes.set_yticks(y, [wrap(name) for name, _, _ in ratings])
    axes.set_ylim(len(ratings) - 0.5, -0.5)
    axes.set_xlabel("rating: μ ± 3σ (bar), ordinal μ − 3σ (|)")
    values = axes.secondary_yaxis("right")
    texts = [f"ordinal {mu - 3 * s:.1f}, μ {mu:.1f}".replace("-", "−") for _, mu, s in ratings]
    values.set_yticks(y, texts)
    values.tick_params(length=0)


def _line_height(names: Sequence[str]) -> float:
    """Inches per player line in a panel of ``names``: room for the longest wrapped name."""
    lines = max(wrap(name).count("\n") + 1 for name in names)
    return max(ROW_HEIGHT, TEXT_LINE_HEIGHT * (lines + 1))


def wrap(name: str, width: int = LABEL_WIDTH) -> str:
    """``name`` in lines of at most about ``width`` characters, broken after
    ``:``, ``,``, ``/`` or a space (spec parameters and paths stay whole)."""
    lines = [""]
    for piece in re.findall(r"[^:,/ ]+[:,/ ]?|[:,/ ]", name):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(line.rstrip() for line in lines)


def _describe(estimate: Estimate) -> str:
    """``"+2,254 [+1,126, +3,381]"`` (one decimal below 100), or why there is no interval."""
    if math.isnan(estimate.mean):
        return "no data"
    digits = 0 if abs(estimate.mean) >= 100 else 1
    mean = f"{estimate.mean:+,.{digits}f}"
    if not estimate.has_interval:
        text = f"{mean} (no CI: {estimate.clusters} deal)"
    else:
        text = f"{mean} [{estimate.low:+,.{digits}f}, {estimate.high:+,.{digits}f}]"
    return text.replace("-", "−")  # the minus sign of the axes' numbers


def _zero_if_nan(value: float) -> float:
    return 0.0 if math.isnan(value) else value


__all__ = ["plot_results", "results_figure", "title", "wrap"]
