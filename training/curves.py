"""A run's learning curves with named axes and units: ``RUN_DIR/curves.png``.

A ``batched_ppo`` run (:mod:`training.batched_ppo`) draws two panels over
wall-clock hours (:func:`scratch_figure`): its duplicate 1-vs-3 advantage
against each evaluation opponent with the 95% interval, and its speed. A
MaskablePPO run (:mod:`training.ppo_selfplay`) draws four panels, each over
the learner's steps (its decisions, summed over the ``n_envs`` environments:
the x axis of every ``charts/…`` and ``eval/…`` value in TensorBoard):

1. **return** — the learner's mean return over its last ``stats_window``
   episodes (one episode is one match), in Điểm (points / 100) under
   ``reward_mode="points"``, the placement reward under ``"rank"``;
2. **per vòng** — the share of vòng it won, and its Cướp and Đền per vòng;
3. **head-to-head** — against each kind of opponent seat (pool snapshots,
   built-in agents), the share of such seats it finished above (a tie counts
   ½); 50% is even;
4. **evaluation** — its advantage over three copies of ``eval_opponent`` in
   the arena's duplicate 1-vs-3 format, in points per ván with the 95%
   interval clustered by deal; 0 is as strong as the opponent.

:func:`curves_figure` draws the rows of ``charts.jsonl`` and ``eval.jsonl``
(``TrainResult.log`` / ``.evaluations``); :func:`plot_curves` reads a run
directory and writes its ``curves.png`` (``env121 train`` does, at the end
of a run); :func:`plot_comparison` (``python -m training.curves RUN_DIR …
--out FILE.png``) draws several runs' evaluations over engine steps on one
figure. No pyplot: a :class:`~matplotlib.figure.Figure` on an Agg canvas.
"""

from __future__ import annotations

import argparse
import io
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from env121.engine.files import write_atomically
from training.run import read_jsonl

STEPS = "learner steps (its decisions, all environments)"
"""The x axis of every panel."""
WALL_HOURS = "wall-clock hours of training"
"""The x axis of a ``batched_ppo`` run's curves."""
RETURN_UNITS = {"points": "Điểm per match", "rank": "placement reward per match"}
"""The unit of an episode's return, by ``reward_mode``."""
PER_VONG = {
    "win_rate_per_vong": "wins (share of vòng)",
    "cuop_per_vong": "Cướp",
    "den_rate_per_vong": "Đền",
}
"""The per-vòng curves of panel 2 and their legend entries."""
BEAT_RATE = "beat_rate_vs_"
"""The prefix of the head-to-head curves (``beat_rate_vs_pool``, …)."""


def curves_figure(
    charts: Sequence[Mapping[str, Any]],
    evaluations: Sequence[Mapping[str, Any]] = (),
    *,
    reward_mode: str = "points",
) -> Figure:
    """The four panels of the module docstring from ``charts`` rows (``step``
    and the rates) and ``evaluations`` rows (``step``, ``opponent``,
    ``advantage``, ``low``, ``high``)."""
    if reward_mode not in RETURN_UNITS:
        raise ValueError(
            f"reward_mode={reward_mode!r} is not valid: expected one of {sorted(RETURN_UNITS)}"
        )
    figure = Figure(figsize=(12, 7), layout="constrained")
    FigureCanvasAgg(figure)
    (returns, rates), (head_to_head, evaluation) = figure.subplots(2, 2, sharex=True)

    _curve(returns, charts, "episode_return", None)
    returns.axhline(0, color="grey", linewidth=0.8, zorder=0)
    returns.set(title="mean return per episode (0 is even)", ylabel=RETURN_UNITS[reward_mode])

    for key, label in PER_VONG.items():
        _curve(rates, charts, key, label)
    rates.set(title="the learner's rates per vòng", ylabel="per vòng (wins: share)")
    _legend(rates)

    kinds = sorted({k for row in charts for k in row if k.startswith(BEAT_RATE)})
    for key in kinds:
        _curve(head_to_head, charts, key, f"vs {key.removeprefix(BEAT_RATE)}", scale=100)
    head_to_head.axhline(50, color="grey", linewidth=0.8, zorder=0)
    head_to_head.set(
        title="head-to-head: opponent seats out-scored",
        ylabel="share of those seats (%)",
        ylim=(0, 100),
        xlabel=STEPS,
    )
    _legend(head_to_head)

    _evaluations(evaluation, evaluations)
    evaluation.set(xlabel=STEPS)
    return figure


def scratch_figure(
    progress: Sequence[Mapping[str, Any]], evaluations: Sequence[Mapping[str, Any]]
) -> Figure:
    """The curves of a ``batched_ppo`` run over wall-clock hours: its advantage
    against each evaluation opponent (duplicate 1 vs 3, 95% CI), and its speed
    (engine steps and learner decisions per second)."""
    opponents = sorted({str(row["opponent"]) for row in evaluations}) or ["greedy"]
    figure = Figure(figsize=(6 * (len(opponents) + 1), 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    *panels, speed = figure.subplots(1, len(opponents) + 1)
    for panel, opponent in zip(panels, opponents, strict=True):
        mine = [row for row in evaluations if row["opponent"] == opponent]
        _evaluations(panel, mine, x="wall_seconds", scale=1 / 3600)
        panel.set(xlabel=WALL_HOURS)
    hours = [row["seconds"] / 3600 for row in progress]
    speed.plot(
        hours, [row["steps_per_second"] for row in progress], label="engine steps/s (mean so far)"
    )
    speed.plot(
        hours,
        [row["samples_per_second"] for row in progress],
        label="learner decisions/s (mean so far)",
    )
    speed.set(title="training speed", xlabel=WALL_HOURS, ylabel="per second", ylim=(0, None))
    _legend(speed)
    return figure


def plot_curves(run_dir: str | Path) -> Path:
    """Write ``run_dir/curves.png`` from the run's ``charts.jsonl`` (or, for a
    ``batched_ppo`` run, ``progress.jsonl``) and ``eval.jsonl`` (its
    ``reward_mode`` from ``config.yaml``); returns it."""
    run = Path(run_dir)
    config = run / "config.yaml"
    saved = yaml.safe_load(config.read_text()) if config.is_file() else {}
    evaluations = read_jsonl(run / "eval.jsonl")
    if saved.get("algorithm") == "batched_ppo":
        figure = scratch_figure(read_jsonl(run / "progress.jsonl"), evaluations)
    else:
        figure = curves_figure(
            read_jsonl(run / "charts.jsonl"),
            evaluations,
            reward_mode=saved.get("reward_mode", "points"),
        )
    return _write_png(figure, run / "curves.png")


def comparison_figure(runs: Mapping[str, Sequence[Mapping[str, Any]]], opponent: str) -> Figure:
    """Several ``batched_ppo`` runs' advantage against ``opponent`` over engine
    steps, one curve each (``runs``: label → the run's evaluation rows), with
    the 95% intervals: methods compared on one budget of steps."""
    figure = Figure(figsize=(8, 5), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    axes.axhline(0, color="grey", linewidth=0.8, zorder=0)
    for label, evaluations in runs.items():
        mine = [row for row in evaluations if row["opponent"] == opponent]
        _advantages(axes, mine, label, x="step", scale=1e-6)
    axes.set(
        title=f"evaluation: 1 vs 3× {opponent} (95% CI)",
        xlabel="engine steps (millions)",
        ylabel="advantage (points per ván)",
    )
    _legend(axes)
    return figure


def plot_comparison(run_dirs: Sequence[str | Path], out: str | Path, opponent: str) -> Path:
    """Write :func:`comparison_figure` of the runs in ``run_dirs`` (each labelled
    by its folder's name) to the PNG ``out``; returns it. A folder without
    ``eval.jsonl`` is a ``FileNotFoundError`` naming it, before anything is written."""
    runs: dict[str, list[dict[str, Any]]] = {}
    for run_dir in map(Path, run_dirs):
        log = run_dir / "eval.jsonl"
        if not log.is_file():
            raise FileNotFoundError(f"{log} is not a file: expected a batched_ppo run's folder")
        runs[run_dir.name] = read_jsonl(log)
    return _write_png(comparison_figure(runs, opponent), Path(out))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m training.curves RUN_DIR … --out FILE.png [--opponent greedy]``:
    runs compared on one figure (:func:`plot_comparison`)."""
    parser = argparse.ArgumentParser(prog="python -m training.curves", description=main.__doc__)
    parser.add_argument("runs", nargs="+", help="batched_ppo run folders")
    parser.add_argument("--out", required=True, help="the PNG to write")
    parser.add_argument("--opponent", default="greedy", help="the evaluation opponent to plot")
    args = parser.parse_args(argv)
    try:
        print(plot_comparison(args.runs, args.out, args.opponent))
    except FileNotFoundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def _curve(
    axes: Axes,
    rows: Sequence[Mapping[str, Any]],
    key: str,
    label: str | None,
    scale: float = 1.0,
) -> None:
    points = [(row["step"], scale * row[key]) for row in rows if key in row]
    if points:
        steps, values = zip(*points, strict=True)
        axes.plot(steps, values, marker="o", markersize=3, label=label)


def _evaluations(
    axes: Axes, rows: Sequence[Mapping[str, Any]], x: str = "step", scale: float = 1.0
) -> None:
    opponents = sorted({str(row["opponent"]) for row in rows})
    axes.set(
        title=f"evaluation: 1 vs 3× {', '.join(opponents) or 'eval_opponent'} (95% CI)",
        ylabel="advantage (points per ván)",
    )
    axes.axhline(0, color="grey", linewidth=0.8, zorder=0)
    for opponent in opponents:
        mine = [row for row in rows if row["opponent"] == opponent]
        _advantages(axes, mine, opponent, x, scale)
    if not rows:
        axes.text(0.5, 0.5, "no evaluation (eval_every = 0)", transform=axes.transAxes, ha="center")


def _advantages(
    axes: Axes, rows: Sequence[Mapping[str, Any]], label: str, x: str, scale: float
) -> None:
    """One curve of evaluation ``rows``: the advantage over ``scale`` × ``x``,
    with its 95% interval as error bars."""
    axes.errorbar(
        [scale * row[x] for row in rows],
        [row["advantage"] for row in rows],
        yerr=[[_spread(row, "low") for row in rows], [_spread(row, "high") for row in rows]],
        fmt="o-",
        capsize=3,
        label=label,
    )


def _spread(row: Mapping[str, Any], end: str) -> float:
    """The distance from the advantage to the interval's ``end`` (0 if there is none)."""
    value = row[end]
    if value is None or math.isnan(value):
        return 0.0
    return abs(float(value) - float(row["advantage"]))


def _write_png(figure: Figure, path: Path) -> Path:
    """Write ``figure`` to the PNG ``path``, whole or not at all; returns it."""
    image = io.BytesIO()
    figure.savefig(image, format="png", dpi=100)
    return write_atomically(path, image.getvalue())


def _legend(axes: Axes) -> None:
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize="small")


__all__ = [
    "comparison_figure",
    "curves_figure",
    "plot_comparison",
    "plot_curves",
    "scratch_figure",
]

if __name__ == "__main__":
    sys.exit(main())
