"""``results.png`` (:mod:`arena.plot`): one row per results table, readable for
any number of matchups and for long agent names, with no matplotlib warning."""

from __future__ import annotations

import dataclasses

import pytest

import tests.support.arena_agents  # noqa: F401  # registers coin and dice
from arena import TournamentResult, run_tournament
from arena.plot import plot_results, results_figure, title, wrap
from env121.rules.config import RuleConfig
from tests.support.layout import check_layout, drawn, legend_boxes

CONFIG = RuleConfig(num_van=1)


@pytest.fixture(scope="module")
def five_matchups() -> TournamentResult:
    matchups = [("greedy:4", "random"), ("coin", "dice"), ("random", "random")]
    matchups += [("dice", "coin"), ("coin", "greedy:4")]
    return run_tournament(matchups=matchups, deals=2, seed=3, config=CONFIG)


@pytest.fixture(scope="module")
def one_matchup() -> TournamentResult:
    return run_tournament(matchups=[("coin", "random")], deals=2, seed=3, config=CONFIG)


@pytest.fixture(scope="module")
def round_robin() -> TournamentResult:
    return run_tournament(pool=["random", "coin", "dice", "greedy"], deals=1, seed=3, config=CONFIG)


def long_names(result: TournamentResult) -> TournamentResult:
    """``result`` with every agent shown under a long, path-like name."""
    long = {
        spec: f"ppo:runs/a-very-long-experiment-name/{spec}/checkpoints/policy.safetensors"
        for spec in result.schedule.specs
    }
    names = {key: key for key in result.names}
    for key in names:
        for spec, name in long.items():
            names[key] = names[key].replace(spec, name)
    return dataclasses.replace(result, names=names)


@pytest.mark.parametrize("fixture", ["one_matchup", "five_matchups", "round_robin"])
@pytest.mark.parametrize("names", ["as given", "long"])
def test_the_layout_holds_for_any_number_of_rows_and_long_names(fixture, names, request):
    result = request.getfixturevalue(fixture)
    figure = results_figure(result if names == "as given" else long_names(result))
    check_layout(figure, legends=1)
    panels = [axes.get_window_extent() for axes in figure.axes]
    assert not any(legend_boxes(figure)[0].overlaps(panel) for panel in panels)
    rows = len(result.tables) + 1  # the ratings
    assert len([a for a in figure.axes if a.get_title(loc="left")]) == rows


def test_one_row_per_matchup_titled_with_its_name(five_matchups):
    figure = results_figure(five_matchups)
    titles = [axes.get_title(loc="left") for axes in figure.axes if axes.get_title(loc="left")]
    assert titles[:-1] == [five_matchups.shown(m.name) for m in five_matchups.matchups]
    assert titles[-1].startswith("OpenSkill ratings")


def test_the_title_says_what_was_played_and_how_the_intervals_were_made(one_matchup):
    text = title(one_matchup)
    assert text.startswith("coin vs 3× random\n")
    assert "2 deals × 4 rotations" in text and "seed 3" in text
    assert "95% CI clustered by deal" in text


def test_agents_are_shown_as_the_command_spelled_them(five_matchups):
    matchup = five_matchups.matchups[0]
    assert matchup.challenger == "greedy:cuop_margin=4.0"  # results keep the canonical spec
    assert five_matchups.shown(matchup.challenger) == "greedy:4"
    assert five_matchups.shown(matchup.name) == "greedy:4 vs 3× random"
    assert five_matchups.shown("random (challenger)") == "random (challenger)"
    drawn_texts = [text for text, _ in drawn(results_figure(five_matchups))]
    assert "greedy:4" in drawn_texts
    assert not any("cuop_margin" in text for text in drawn_texts)


def test_long_names_are_wrapped_after_a_separator():
    assert wrap("greedy") == "greedy"
    assert wrap("mc:budget=48,width=0,leaf=false,chain=true", width=20) == (
        "mc:budget=48,\nwidth=0,leaf=false,\nchain=true"
    )
    assert wrap("ppo:runs/experiment/policy.safetensors", width=12) == (
        "ppo:runs/\nexperiment/\npolicy.safetensors"
    )


def test_plot_results_writes_a_png(one_matchup, tmp_path):
    path = plot_results(one_matchup, tmp_path / "results.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
