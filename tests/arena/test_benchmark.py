"""The benchmark suite: scorecards, the anchored rating, resume, the command."""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import shutil
from pathlib import Path

import pytest

from apps.cli.benchmark import main as benchmark_main
from apps.cli.benchmark import run_benchmark
from arena.benchmark import (
    FROZEN,
    SUITE_VERSION,
    SUITES,
    Reference,
    Suite,
    SuiteError,
    combined_rating,
    expected_advantage,
    fit_scale,
    implied_gap,
    load_suite,
)
from arena.estimate import Estimate
from arena.journal import LOG_NAME
from arena.seeds import deal_seeds

TINY = Suite(
    version="121-bench-test",
    seed=7,
    deal_seeds=deal_seeds(7, 2),
    tiers={"tiny": 2},
    references=(Reference("random", 0.0), Reference("greedy", 2000.0)),
    down_slope=0.45,
    fitted_from="a test",
)
ARGS = argparse.Namespace(quiet=True, no_plot=False)


def _card(out: Path) -> dict[str, object]:
    card: dict[str, object] = json.loads((out / "scorecard.json").read_text())
    del card["decision_ms"], card["seconds"]  # wall-clock: the only fields that may differ
    return card


def test_same_agent_same_suite_same_scorecard(tmp_path: Path) -> None:
    first = run_benchmark("greedy", TINY, "tiny", tmp_path / "a", ARGS, ["test"])
    again = run_benchmark("greedy", TINY, "tiny", tmp_path / "b", ARGS, ["test"])
    assert first is not None and again is not None
    assert _card(tmp_path / "a") == _card(tmp_path / "b")
    assert [r.reference for r in first.rows] == ["random", "greedy"]
    assert first.rows[1].advantage == 0.0  # greedy against itself, duplicate
    assert (tmp_path / "a" / "scorecard.png").stat().st_size > 0
    assert (tmp_path / "a" / LOG_NAME).exists()


def test_an_interrupted_benchmark_resumes_to_the_same_scorecard(tmp_path: Path) -> None:
    run_benchmark("random", TINY, "tiny", tmp_path / "whole", ARGS, ["test"])
    lines = (tmp_path / "whole" / LOG_NAME).read_text().splitlines(keepends=True)
    (tmp_path / "cut").mkdir()
    (tmp_path / "cut" / LOG_NAME).write_text("".join(lines[: len(lines) // 2]))
    run_benchmark("random", TINY, "tiny", tmp_path / "cut", ARGS, ["test"])
    assert _card(tmp_path / "cut") == _card(tmp_path / "whole")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: no JS agent")
def test_a_program_agent_gets_a_scorecard_with_its_faults(tmp_path: Path) -> None:
    agent = Path(__file__).resolve().parents[2] / "examples" / "js_agent" / "agent.js"
    card = run_benchmark(f"program:node {agent}", TINY, "tiny", tmp_path, ARGS, ["test"])
    assert card is not None and card.faults == {}
    assert math.isfinite(card.rating)


def test_fit_scale_recovers_a_two_slope_scale() -> None:
    truth = {"random": 0.0, "greedy": 2000.0, "mc": 2050.0, "small": 1300.0}
    slope = 0.45
    advantages = []
    for a in truth:
        for b in truth:
            if a != b:
                mean = float(expected_advantage(truth[a] - truth[b], slope))
                advantages.append((a, b, Estimate(mean, mean - 50, mean + 50, 16)))
    fitted, down_slope = fit_scale(advantages)
    assert fitted == pytest.approx(truth, abs=1e-3)
    assert down_slope == pytest.approx(slope, abs=1e-6)


def test_an_agent_that_plays_like_a_reference_gets_its_rating() -> None:
    # random's advantages as the scale predicts them: the rating is random's 0,
    # which the single-slope (additive) scale put at +239
    refs, slope = [0.0, 2000.0, 1300.0], 0.45
    advantages = []
    for r in refs:
        mean = float(expected_advantage(0.0 - r, slope))
        advantages.append(Estimate(mean, mean - 60, mean + 60, 16))
    rating, low, high = combined_rating(refs, advantages, slope)
    assert rating == pytest.approx(0.0, abs=1e-6) and low < 0 < high
    assert implied_gap(float(expected_advantage(-700.0, slope)), slope) == pytest.approx(-700.0)


def test_the_rating_weights_the_sharper_matchup_more() -> None:
    sharp = Estimate(100.0, 90.0, 110.0, 16)
    loose = Estimate(-500.0, -1500.0, 500.0, 16)
    rating, low, high = combined_rating([0.0, 2000.0], [sharp, loose], 0.5)
    assert 100 < rating < 200 and low < rating < high


def test_the_shipped_suite_loads_and_its_seeds_are_the_arenas() -> None:
    suite = load_suite()
    assert suite.references[0] == Reference("random", 0.0)
    assert suite.deals("quick") < suite.deals("full") <= len(suite.deal_seeds)
    with pytest.raises(SuiteError, match="expected one of"):
        suite.deals("huge")
    with pytest.raises(SuiteError, match="no suite"):
        load_suite("121-bench-v0")


def test_a_published_suite_is_frozen_and_a_bad_file_is_one_line(tmp_path: Path) -> None:
    published = (SUITES / f"{SUITE_VERSION}.json").read_bytes()
    assert hashlib.sha256(published).hexdigest() == FROZEN[SUITE_VERSION]
    edited = published.replace(b'"down_slope": ', b'"down_slope": 1', 1)
    (tmp_path / f"{SUITE_VERSION}.json").write_bytes(edited)
    with pytest.raises(SuiteError, match="is not the published 121-bench-v1"):
        load_suite(SUITE_VERSION, tmp_path)
    (tmp_path / "121-bench-v9.json").write_text('{"version": "121-bench-v9"}')
    with pytest.raises(SuiteError, match=r"is not a suite file \(KeyError"):
        load_suite("121-bench-v9", tmp_path)


def test_a_bad_spec_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert benchmark_main(["import:no_such_module_xyz:bot", "--out", str(tmp_path / "o")]) == 2
    assert "cannot be imported" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_the_oracle_is_refused_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert benchmark_main(["oracle", "--quick", "--out", str(tmp_path / "o")]) == 2
    assert "sees all hands" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_the_benchmark_page_shows_the_league_as_generated() -> None:
    root = Path(__file__).resolve().parents[2]
    league = (root / "docs" / "league.md").read_text(encoding="utf-8")
    rows = [line for line in league.splitlines() if line.startswith("|")]
    page = (root / "docs" / "benchmark.md").read_text(encoding="utf-8")
    assert len(rows) > 2 and all(row in page for row in rows)
