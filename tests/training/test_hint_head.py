"""The hint head: per action, one weight per hint block, in SB3 and in the exported agent."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gymnasium import spaces

from agents.hints import INPUTS
from agents.ppo import PolicyNetwork, action_hints, hint_blocks, load_policy
from env121.engine.actions import NUM_ACTIONS
from env121.play.observation import OBS_SIZE
from training.checkpoint import Network, export_policy
from training.hint_head import HintedActionNet, HintHeadPolicy
from training.imitation import HEAD_LEARNING_RATE_SCALE, make_policy, parameter_groups
from training.ppo_selfplay import load_config

SEARCHED = "observation+search_hints"


def test_action_hints_regroup_the_blocks_per_action():
    blocks = hint_blocks(SEARCHED)
    assert blocks == 4 and OBS_SIZE + blocks * NUM_ACTIONS == INPUTS[SEARCHED]
    features = torch.zeros(2, INPUTS[SEARCHED])
    features[1, OBS_SIZE + 2 * NUM_ACTIONS + 7] = 5.0  # block 2, action 7
    grouped = action_hints(features, blocks)
    assert grouped.shape == (2, NUM_ACTIONS, blocks)
    assert grouped[1, 7, 2] == 5.0 and grouped.abs().sum() == 5.0


def test_the_head_adds_one_weight_per_block_to_every_actions_logit():
    network = PolicyNetwork([8], "tanh", SEARCHED, hint_head=True)
    assert network.hint_head is not None
    with torch.no_grad():
        for parameter in network.layers.parameters():
            parameter.zero_()
        network.hint_head.weight.copy_(torch.tensor([[1.0, 2.0, -3.0, 0.5]]))
    features = torch.from_numpy(np.random.default_rng(0).normal(size=INPUTS[SEARCHED])).float()
    hints = features[OBS_SIZE:].reshape(4, NUM_ACTIONS)
    expected = hints[0] + 2 * hints[1] - 3 * hints[2] + 0.5 * hints[3]
    assert torch.allclose(network(features), expected, atol=1e-5)


def test_a_fresh_sb3_policy_with_the_head_exports_to_the_same_logits(tmp_path):
    network = Network([16, 8], "relu", SEARCHED, hint_head=True)
    torch.manual_seed(0)
    policy = make_policy(network)
    assert isinstance(policy, HintHeadPolicy) and isinstance(policy.action_net, HintedActionNet)
    head = policy.action_net.hint
    assert not head.weight.any()  # starts as the plain MLP would
    with torch.no_grad():
        head.weight.normal_()
    path = export_policy(policy, tmp_path / "head.safetensors", network)
    loaded, meta = load_policy(path)
    assert meta["network"]["hint_head"] is True and loaded.hint_head is not None
    features = torch.from_numpy(np.random.default_rng(1).normal(size=(5, INPUTS[SEARCHED])))
    features = features.float()
    with torch.no_grad():
        latent, _ = policy.mlp_extractor(policy.extract_features(features))
        sb3_logits = policy.action_net(latent)
        assert torch.allclose(loaded(features), sb3_logits, atol=1e-5)


def test_the_head_needs_hints():
    with pytest.raises(ValueError, match="hint_head=True is not valid for inputs='observation'"):
        PolicyNetwork([8], "tanh", "observation", hint_head=True)
    with pytest.raises(ValueError, match="hint_head=True is not valid with inputs='observation'"):
        load_config("tiny", ["hint_head=true"])
    with pytest.raises(ValueError, match="hint_blocks=0 is not valid"):
        HintHeadPolicy(
            spaces.Box(-1, 1, (OBS_SIZE,)),
            spaces.Discrete(NUM_ACTIONS),
            lambda _: 0.0,
            hint_blocks=0,
        )


def test_imitation_moves_the_head_faster_than_the_mlp():
    plain, headed = (make_policy(Network([8], "tanh", SEARCHED, head)) for head in (False, True))
    assert [g["lr"] for g in parameter_groups(plain, 1e-3)] == [1e-3]
    rest, head = parameter_groups(headed, 1e-3)
    assert isinstance(headed.action_net, HintedActionNet)
    assert head["params"] == [headed.action_net.hint.weight]
    assert head["lr"] == pytest.approx(1e-3 * HEAD_LEARNING_RATE_SCALE) and rest["lr"] == 1e-3
    assert len(rest["params"]) + 1 == len(list(headed.parameters()))
