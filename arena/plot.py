"""``results.png``: the tournament at a glance, drawn with matplotlib's Agg canvas.

Three panels, one row per agent (per matchup in 1 vs 3):

1. mean points per ván with its 95% interval clustered by deal (0 is the
   line between stronger and weaker);
2. OpenSkill ratings: ``mu ± 3σ`` as a bar, the ordinal ``mu − 3σ`` marked;
3. rank distribution: the share of matches finished 1st, 2nd, 3rd, 4th.

No pyplot: a :class:`~matplotlib.figure.Figure` on an Agg canvas, so nothing
depends on a display or on global plotting state.
"""

from __future__ import annotations

import math
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from arena.estimate import Estimate
from arena.tournament import TournamentResult

RANK_COLOURS = ("#2b8a3e", "#74b816", "#f59f00", "#e03131")


def plot_results(result: TournamentResult, path: str | Path) -> Path:
    """Draw the three panels into the PNG file ``path``; returns it."""
    rows = [
        (_row_name(result, table, label), stats.metrics)
        for table, agents in result.tables
        for label, stats in agents.items()
    ]
    ratings = sorted(result.ratings.items(), key=lambda item: item[1].ordinal)
    height = 2.5 + 0.45 * max(len(rows), len(ratings))
    figure = Figure(figsize=(15, height), layout="constrained")
    FigureCanvasAgg(figure)
    points, skill, ranks = figure.subplots(1, 3)

    names = [name for name, _ in rows]
    _intervals(points, names, [metrics["points_per_van"] for _, metrics in rows])
    points.axvline(0, color="grey", linewidth=0.8)
    points.margins(y=0.2)
    points.set_title("points per ván (95% CI, clustered by deal)")

    y = range(len(ratings))
    mus = [r.mu for _, r in ratings]
    skill.errorbar(mus, y, xerr=[3 * r.sigma for _, r in ratings], fmt="o", capsize=4)
    skill.plot([r.ordinal for _, r in ratings], y, "k|", markersize=14, label="ordinal μ − 3σ")
    skill.set_yticks(list(y), [spec for spec, _ in ratings])
    skill.margins(y=0.2)
    skill.set_title("OpenSkill rating (μ ± 3σ)")
    skill.legend(loc="lower right", fontsize="small")

    left = [0.0] * len(rows)
    for rank, colour in zip(range(1, 5), RANK_COLOURS, strict=True):
        shares = [_zero_if_nan(metrics[f"rank_{rank}"].mean) for _, metrics in rows]
        ranks.barh(names, shares, left=left, color=colour, label=f"rank {rank}")
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ranks.set_xlim(0, 1)
    ranks.invert_yaxis()
    ranks.set_title("rank distribution")
    ranks.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), fontsize="small", ncols=4)

    out = Path(path)
    figure.savefig(out, dpi=100)
    return out


def _intervals(axes: Axes, names: list[str], estimates: list[Estimate]) -> None:
    y = list(range(len(names)))
    means = [_zero_if_nan(e.mean) for e in estimates]
    lower = [m - e.low if e.has_interval else 0.0 for m, e in zip(means, estimates, strict=True)]
    upper = [e.high - m if e.has_interval else 0.0 for m, e in zip(means, estimates, strict=True)]
    axes.errorbar(means, y, xerr=[lower, upper], fmt="o", capsize=4)
    axes.set_yticks(y, names)
    axes.invert_yaxis()


def _row_name(result: TournamentResult, table: str, label: str) -> str:
    return f"{table}: {label}" if result.mode == "1v3" and len(result.matchups) > 1 else label


def _zero_if_nan(value: float) -> float:
    return 0.0 if math.isnan(value) else value


__all__ = ["plot_results"]
