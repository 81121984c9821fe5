"""training.curves: a run's learning curves, every axis named with its unit."""

from __future__ import annotations

import json
import math
from typing import cast

import pytest

from tests.support.layout import check_layout
from training.curves import curves_figure, plot_curves

CHARTS = [
    {
        "step": 128 * i,
        "episode_return": 0.5 * i - 1,
        "win_rate_per_vong": 0.2 + 0.01 * i,
        "cuop_per_vong": 0.6,
        "den_rate_per_vong": 0.0,
        "beat_rate_vs_pool": 0.5,
        "beat_rate_vs_random": 0.6 + 0.02 * i,
    }
    for i in range(1, 6)
]
EVALUATIONS = [
    {"step": 256, "opponent": "greedy", "advantage": -400.0, "low": -500.0, "high": -300.0},
    {"step": 640, "opponent": "greedy", "advantage": -200.0, "low": math.nan, "high": math.nan},
]


def test_every_panel_names_its_axes_with_units_and_the_layout_holds():
    figure = curves_figure(CHARTS, EVALUATIONS)
    check_layout(figure, legends=2)  # rates, head-to-head
    returns, rates, head_to_head, evaluation = figure.axes
    assert returns.get_ylabel() == "Điểm per match"
    assert rates.get_ylabel().startswith("per vòng")
    assert head_to_head.get_ylabel() == "share of those seats (%)"
    assert evaluation.get_ylabel() == "advantage (points per ván)"
    assert "greedy" in evaluation.get_title()
    for axes in (head_to_head, evaluation):
        assert axes.get_xlabel().startswith("learner steps")
    legend = head_to_head.get_legend()
    assert legend is not None
    assert {text.get_text() for text in legend.get_texts()} == {"vs pool", "vs random"}


def test_the_return_is_labelled_by_the_reward_mode():
    figure = curves_figure(CHARTS, reward_mode="rank")
    assert figure.axes[0].get_ylabel() == "placement reward per match"
    with pytest.raises(ValueError, match="reward_mode='score' is not valid"):
        curves_figure(CHARTS, reward_mode="score")


def test_plot_curves_reads_a_run_directory(tmp_path):
    (tmp_path / "charts.jsonl").write_text("".join(json.dumps(row) + "\n" for row in CHARTS))
    (tmp_path / "config.yaml").write_text("reward_mode: rank\n")
    path = plot_curves(tmp_path)
    assert path == tmp_path / "curves.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_runs_compare_on_one_figure_over_engine_steps(tmp_path, capsys):
    from training.curves import comparison_figure, main

    other = [{**row, "advantage": cast(float, row["advantage"]) + 50} for row in EVALUATIONS]
    random_row = {**EVALUATIONS[0], "opponent": "random"}
    figure = comparison_figure({"ppo": EVALUATIONS, "dmc": [*other, random_row]}, "greedy")
    check_layout(figure, legends=1)
    (axes,) = figure.axes
    assert axes.get_xlabel() == "engine steps (millions)"
    legend = axes.get_legend()
    assert legend is not None and [t.get_text() for t in legend.get_texts()] == ["ppo", "dmc"]
    points = [len(curve[0].get_xdata()) for curve in axes.containers]  # (data line, caps, bars)
    assert points == [2, 2]  # not the random row
    runs = []
    for name, rows in (("ppo", EVALUATIONS), ("dmc", other)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "eval.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        runs.append(str(tmp_path / name))
    out = tmp_path / "methods.png"
    assert main([*runs, "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main([*runs, str(tmp_path / "none"), "--out", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and not (tmp_path / "x.png").exists()
