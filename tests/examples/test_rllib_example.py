"""examples/ray/rllib_selfplay.py, the RLlib example: the turn-taking adapter, the
masked module, the seat assignment, and a smoke run on a local Ray cluster whose
policy plays in the arena.

Skipped, with the reason, without the ``ray`` extra.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
import torch

from agents.ppo import PPOAgent, load_policy
from agents.registry import make_agent
from arena.tournament import one_vs_three
from env121.envs.aec_env import AGENTS, placement_rewards
from env121.play.observation import OBS_SIZE
from env121.rules.config import RuleConfig
from env121.rules.payment import POINTS_PER_DIEM
from tests.support.ray_cluster import RAY_MISSING, local_cluster, one_cluster_at_a_time

pytest.importorskip("ray.rllib", reason=RAY_MISSING)

from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode

from examples.ray.rllib_selfplay import (
    MAIN,
    MaskedPolicyModule,
    RLlibConfig,
    SeatAssignment,
    TurnTakingEnv,
    export_policy,
    masked_logits,
    train,
)

pytestmark = one_cluster_at_a_time

ONE_VAN = {"num_van": 1}
"""The ``rules`` of one-ván matches (about 600 decisions)."""


def play_out(env, seed: int):
    """Play a match through ``env`` with random legal actions; yields each step's
    ``(acting seat, observations, rewards, terminateds)``, the reset first (acting None)."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    yield None, observations, {}, {"__all__": False}
    while True:
        (acting,) = observations
        action = int(rng.choice(np.flatnonzero(observations[acting]["action_mask"])))
        observations, rewards, terminated, truncated, _ = env.step({acting: action})
        assert truncated == {"__all__": False}
        yield acting, observations, rewards, terminated
        if terminated["__all__"]:
            return


@pytest.mark.parametrize("seed", [3, 4])
def test_one_seat_observes_at_a_time_and_waiting_rewards_come_with_its_next_turn(seed):
    env = TurnTakingEnv({"rules": ONE_VAN})
    reset, *turns, end = play_out(env, seed)
    assert len(reset[1]) == 1
    delivered: dict[str, float] = defaultdict(float)
    from_others = 0.0
    for acting, observations, rewards, terminated in turns:
        (agent,) = observations  # the seat to act, and no other
        assert set(rewards) == {agent} and terminated == {agent: False, "__all__": False}
        delivered[agent] += rewards[agent]
        from_others += abs(rewards[agent]) if agent != acting else 0.0
    _, last, rewards, terminated = end
    assert set(last) == set(rewards) == set(AGENTS)  # every seat's trajectory is closed
    assert terminated == {**dict.fromkeys(AGENTS, True), "__all__": True}
    assert not any(observation["action_mask"].any() for observation in last.values())
    for agent, reward in rewards.items():
        delivered[agent] += reward
    # Every Điểm of the match reached its seat once, however long it waited for a turn.
    standings = env.env.game.standings()
    assert [delivered[agent] for agent in AGENTS] == pytest.approx(
        [points / POINTS_PER_DIEM for points in standings]
    )
    assert from_others > 0, "no seat was paid while another seat acted"


def test_rank_rewards_reach_every_seat_at_the_end():
    env = TurnTakingEnv({"rules": ONE_VAN, "reward_mode": "rank"})
    steps = list(play_out(env, 5))
    assert all(reward == 0 for _, _, rewards, _ in steps[:-1] for reward in rewards.values())
    final = steps[-1][2]
    assert [final[agent] for agent in AGENTS] == list(placement_rewards(env.env.game.ranks))


def test_masked_logits_allow_only_legal_actions_and_keep_terminal_rows():
    logits = torch.tensor([[3.0, 1.0, 2.0], [0.5, 0.1, 0.2]])
    mask = torch.tensor([[0, 1, 1], [0, 0, 0]], dtype=torch.int8)
    masked = masked_logits(logits, mask)
    assert masked[0].argmax() == 2 and masked[0, 0] == torch.finfo(torch.float32).min
    assert torch.equal(masked[1], logits[1])


def test_the_seat_assignment_keeps_main_in_every_episode():
    assert SeatAssignment()(AGENTS[2], MultiAgentEpisode(id_="e")) == MAIN
    for share, mains in ((0.0, {4}), (1.0, {1}), (0.5, {1, 2, 3, 4})):
        assign = SeatAssignment(("snapshot_1", "snapshot_2"), share)
        counts = set()
        for n in range(40):
            episode = MultiAgentEpisode(id_=f"episode-{n}")
            modules = [assign(agent, episode) for agent in AGENTS]
            assert modules == [assign(agent, episode) for agent in AGENTS]  # the same every call
            assert set(modules) <= {MAIN, "snapshot_1", "snapshot_2"}
            counts.add(modules.count(MAIN))
        assert counts == mains


def test_the_export_is_the_modules_actor(tmp_path):
    config = RLlibConfig(hidden_sizes=[16, 8], activation="relu")
    env = TurnTakingEnv({"rules": ONE_VAN})
    spec = RLModuleSpec(
        module_class=MaskedPolicyModule,
        observation_space=env.env.observation_space(AGENTS[0]),
        action_space=env.env.action_space(AGENTS[0]),
        model_config={"hidden_sizes": [16, 8], "activation": "relu"},
    )
    module = spec.build()
    assert isinstance(module, MaskedPolicyModule)
    path = export_policy(module, tmp_path / "policy.safetensors", config)
    network, sidecar = load_policy(path)
    assert sidecar["network"]["hidden_sizes"] == [16, 8]
    observations, _ = env.reset(seed=1)
    (observation,) = observations.values()
    batch = {
        Columns.OBS: {
            "observation": torch.from_numpy(observation["observation"])[None],
            "action_mask": torch.from_numpy(observation["action_mask"])[None],
        }
    }
    with torch.no_grad():
        module_logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
        network_logits = network(torch.from_numpy(observation["observation"]))
    legal = observation["action_mask"].astype(bool)
    assert torch.allclose(module_logits[legal], network_logits[legal])
    assert module.compute_values(batch).shape == (1,)
    assert len(observation["observation"]) == OBS_SIZE


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="snapshot_share=2 is not valid"):
        RLlibConfig(snapshot_share=2).check()
    with pytest.raises(ValueError, match="minibatch_size=900 is not valid"):
        RLlibConfig(train_batch_size=600, minibatch_size=900).check()


def test_a_smoke_run_trains_and_its_policy_plays_in_the_arena(tmp_path):
    config = RLlibConfig(
        iterations=3,
        num_env_runners=1,
        num_envs_per_env_runner=1,
        train_batch_size=400,
        minibatch_size=200,
        num_epochs=1,
        hidden_sizes=[32],
        rules=ONE_VAN,
        snapshot_every=1,
        pool_max_size=1,
    )
    with local_cluster():
        result = train(config, tmp_path)
    assert result.iterations == 3 and result.env_steps >= 3 * 400 and result.episodes >= 1
    assert result.snapshots == ["snapshot_3"]
    assert sorted(p.name for p in (tmp_path / "pool").glob("*.safetensors")) == [
        "snapshot_1.safetensors",
        "snapshot_2.safetensors",
        "snapshot_3.safetensors",
    ]
    assert len((tmp_path / "progress.jsonl").read_text().splitlines()) == 3
    agent = make_agent(f"ppo:{result.policy}")
    assert isinstance(agent, PPOAgent) and agent.metadata["training"]["env_steps"] > 0
    # play_agents checks every action: an illegal one would raise IllegalAgentActionError.
    matchup = one_vs_three(f"ppo:{result.policy}", "random", deals=1, config=RuleConfig(num_van=1))
    assert matchup.agents[matchup.challenger].counts["decisions"] > 0
