"""The direction of the arena's advantage: the stronger agent scores above zero.

The arena's other checks hold whichever way the advantage points (the game
is zero-sum, an agent against itself scores 0 in the duplicate format), so a
negated ``points_per_van`` (:mod:`arena.metrics`) would pass them. Here a
known-stronger agent, ``greedy``, plays three ``random`` seats — about
+1,900 points a ván, and ``random`` against three ``greedy`` about −870
(:mod:`arena.benchmark`'s docstring) — through every arena path
that reports an advantage: a tournament of agents that decide many games at
once and one of an agent that acts a turn at a time (``coin``, random under
another name: its games are batches of one), the ``env121 tournament`` command's
``results.json``, and the benchmark's scorecard. Each must put greedy's
interval above zero (on these deals it is far from it: the figures are in
each test). The trainer's evaluations and ``env121 exploit`` are checked the
same way in ``tests/training/test_advantage_direction.py``.
"""

from __future__ import annotations

import argparse
import json

import pytest

from apps.cli.app import main
from apps.cli.benchmark import run_benchmark
from arena import run_tournament
from arena.benchmark import Reference, Suite
from arena.seeds import deal_seeds
from tests.support import arena_agents  # noqa: F401  # registers coin

SEED = 1
DEALS = 4


@pytest.mark.parametrize("weaker", ["random", "coin"], ids=["played-together", "turn-by-turn"])
def test_the_stronger_agent_has_the_positive_advantage_in_a_tournament(weaker):
    """On seed 1's 4 deals greedy scores +2,087.5 [+1,760, +2,415] a ván
    against 3× random, and random −841 [−929, −753] against 3× greedy
    (``coin`` draws as ``random`` does: the same figures)."""
    result = run_tournament(
        matchups=[("greedy", weaker), (weaker, "greedy")],
        deals=DEALS,
        seed=SEED,
    )
    stronger, weaker = (matchup.advantage for matchup in result.matchups)
    assert stronger.low > 0 and stronger.mean > 1000, stronger
    assert weaker.high < 0 and weaker.mean < -500, weaker


def test_the_tournament_command_writes_the_positive_advantage(tmp_path, capsys):
    """Seed 1's first 2 deals: +2,254 [+1,126, +3,381] a ván."""
    out = tmp_path / "run"
    argv = ["tournament", "--vs", "greedy", "random", "--deals", "2", "--seed", str(SEED)]
    assert main([*argv, "--out", str(out), "--no-plot", "--quiet"]) == 0
    capsys.readouterr()
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    advantage = document["matchups"][0]["advantage"]
    assert document["matchups"][0]["challenger"] == "greedy"
    assert advantage["low"] > 0 and advantage["mean"] > 1000, advantage


def test_the_benchmark_scorecard_rates_the_stronger_agent_above_its_reference(tmp_path):
    """greedy against the reference random (rated 0) on seed 1's 4 deals:
    +2,087.5 [+1,760, +2,415] a ván, so its rating is that far above random's."""
    suite = Suite(
        version="121-bench-direction",
        seed=SEED,
        deal_seeds=deal_seeds(SEED, DEALS),
        tiers={"tiny": DEALS},
        references=(Reference("random", 0.0),),
        down_slope=0.45,
        fitted_from="a test",
    )
    args = argparse.Namespace(quiet=True, no_plot=True)
    card = run_benchmark("greedy", suite, "tiny", tmp_path, args, ["test"])
    assert card is not None
    (row,) = card.rows
    assert row.low > 0 and row.advantage > 1000, row
    assert card.rating_low > 0 and card.rating > 1000, card
