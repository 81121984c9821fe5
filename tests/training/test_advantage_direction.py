"""The direction of the trainer's advantages: the stronger network scores above zero.

The companion of ``tests/arena/test_advantage_direction.py`` for the paths
the train extra adds: the trainer's evaluations (:func:`evaluate_policy`,
through the arena, and :func:`duplicate_advantage`, its own count of the
final standings on the batched engine) and ``env121 exploit``'s scorecard
(whose advantage is the best response's against the frozen agent: how
exploitable the agent is). A network trained to be strong, the shipped
``ppo:scratch`` (+2,558 a ván against 3× ``random`` in training/README.md),
plays three ``random`` seats through each, and its advantage must be above
zero, interval and all; an untrained network against three ``greedy``
must be below it.
"""

from __future__ import annotations

import json

import torch

from agents.batched_greedy import BatchedGreedy
from agents.batched_ppo import BatchedPPO
from agents.ppo import PolicyNetwork
from apps.cli.app import main
from env121.play.batched_policy import BatchedRandom
from env121.rules.config import RuleConfig
from training.evaluation import duplicate_advantage, evaluate_policy
from training.exploit import EXPLOIT_JSON

SEED = 1
DEALS = 4
STRONG = "scratch"
"""The shipped network that beats random by thousands of points a ván."""


def test_the_arena_evaluation_gives_the_stronger_network_a_positive_advantage():
    """ppo:scratch against 3× random on seed 1's 4 deals: +2,779 [+2,157, +3,402] a ván."""
    row = evaluate_policy(STRONG, "random", deals=DEALS, seed=SEED)
    assert row["low"] > 0 and row["advantage"] > 1000, row


def test_the_batched_evaluation_gives_the_stronger_network_a_positive_advantage():
    """The trainer's own count, same deals: the stronger network above zero
    (+2,392 [+1,608, +3,175]; random's draws differ from the arena's), an
    untrained one below zero against 3× greedy (−894 [−1,096, −693])."""
    rules = RuleConfig()
    strong = BatchedPPO(STRONG).network
    row = duplicate_advantage(strong, BatchedRandom(0), DEALS, SEED, rules, 1)
    assert row["low"] > 0 and row["advantage"] > 1000, row
    torch.manual_seed(0)
    untrained = PolicyNetwork([16], "relu", "observation")
    row = duplicate_advantage(untrained, BatchedGreedy(threads=1), DEALS, SEED, rules, 1)
    assert row["high"] < 0 and row["advantage"] < -500, row


def test_exploit_reports_the_best_responses_advantage_with_its_sign(tmp_path, capsys):
    """A best response that starts from ppo:scratch and trains 128 steps
    against random exploits it by thousands of points a ván: the scorecard's
    final measurement (+2,770 [+2,075, +3,465] on 4 fresh deals), the start's
    (+2,647 [+2,137, +3,157]) and the curve's one point (+2,568 [+2,043,
    +3,092]) are above zero."""
    out = tmp_path / "run"
    argv = ["exploit", "random", "--budget", "128steps", "--deals", str(DEALS), "--out", str(out)]
    tiny = [
        "num_games=8",
        "rollout_steps=16",
        "minibatch_size=64",
        f"eval_deals={DEALS}",
        "threads=1",
    ]
    assert main([*argv, "--start", STRONG, "--no-progress", "--set", *tiny]) == 0
    capsys.readouterr()
    card = json.loads((out / EXPLOIT_JSON).read_text(encoding="utf-8"))
    for measured in (card["final"], card["start_final"], *card["curve"]):
        assert measured["low"] > 0 and measured["advantage"] > 1000, measured
