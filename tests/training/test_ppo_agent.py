"""agents.ppo: weights-only checkpoints, the sidecar's checks, and the ppo agent."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest
import torch
from safetensors.torch import save_file
from sb3_contrib import MaskablePPO

from agents.ppo import PolicyNetwork, PPOAgent, load_policy, save_policy, shipped_checkpoints
from agents.registry import AgentSpecError, make_agent
from agents.weights import CheckpointMismatchError, sidecar_path
from env121.engine.game import new_game
from env121.envs.single_seat import SingleSeat
from env121.play.match import play_agents
from env121.play.observation import OBS_SIZE
from tests.support.play import random_play_turns
from training.checkpoint import Network, export_policy, policy_state_dict


@pytest.fixture(scope="module")
def model() -> MaskablePPO:
    """An untrained MaskablePPO learner with two small hidden layers."""
    return MaskablePPO(
        "MlpPolicy",
        SingleSeat(),
        n_steps=64,
        batch_size=64,
        policy_kwargs={"net_arch": {"pi": [32, 16], "vf": [8]}, "activation_fn": torch.nn.ReLU},
        seed=3,
        device="cpu",
    )


@pytest.fixture()
def checkpoint(tmp_path, model):
    network = Network([32, 16], "relu")
    return export_policy(model.policy, tmp_path / "agent.safetensors", network, {"note": "t"})


def test_a_checkpoint_is_two_files_with_a_descriptive_sidecar(checkpoint):
    side = json.loads(sidecar_path(checkpoint).read_text())
    assert checkpoint.suffix == ".safetensors" and sidecar_path(checkpoint).name == "agent.json"
    assert side["env_id"] == "env121_v1" and side["network"] == {
        "hidden_sizes": [32, 16],
        "activation": "relu",
        "inputs": "observation",
        "hint_head": False,
    }
    for key in ("obs_size", "num_actions", "observation_layout_sha256", "action_layout_sha256"):
        assert key in side
    assert side["training"]["note"] == "t"


def test_the_agent_plays_only_legal_actions_and_agrees_with_sb3(checkpoint, model):
    agent = make_agent(f"ppo:{checkpoint}")
    assert agent.spec == f"ppo:checkpoint={checkpoint}" and not agent.uses_search
    agent.reset(1)
    for turn in random_play_turns(300):
        action = agent.act(turn)
        assert action in turn.legal_actions
        expected, _ = model.predict(
            turn.observation, action_masks=turn.action_mask.astype(bool), deterministic=True
        )
        assert action == int(expected)


def test_sampling_is_legal_and_reproducible_from_the_seed(checkpoint):
    agent = PPOAgent(str(checkpoint), deterministic=False)
    turns = random_play_turns(150, seed=5)
    runs = []
    for _ in range(2):
        agent.reset(42)
        runs.append([agent.act(turn) for turn in turns])
    assert runs[0] == runs[1]
    assert all(a in t.legal_actions for a, t in zip(runs[0], turns, strict=True))


def test_the_exported_network_is_the_actor_of_the_model(model):
    network = PolicyNetwork([32, 16], "relu")
    network.load_state_dict(policy_state_dict(model.policy))
    observation = torch.rand(5, OBS_SIZE)
    with torch.no_grad():
        latent = model.policy.mlp_extractor.forward_actor(observation)
        expected = model.policy.action_net(latent)
        assert torch.allclose(network(observation), expected)


def test_loading_never_unpickles(checkpoint, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("pickle was used to load a checkpoint")

    # The turn first: the engine's compiled kernels load from numba's cache,
    # which reads its index with pickle (in a fresh process, this test first).
    turn = random_play_turns(1)[0]
    legal, _ = turn.legal_actions, turn.observation
    monkeypatch.setattr(pickle, "load", forbidden)
    monkeypatch.setattr(pickle, "loads", forbidden)
    monkeypatch.setattr(pickle, "Unpickler", forbidden)
    monkeypatch.setattr(torch, "load", forbidden)
    agent = PPOAgent(str(checkpoint))
    agent.reset(0)
    assert agent.act(turn) in legal


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [
        ("obs_size", 123, "obs_size"),
        ("num_actions", 7, "num_actions"),
        ("env_id", "env121_v9", "env_id"),
        ("observation_layout_sha256", "0" * 64, "observation_layout_sha256"),
        ("action_layout_sha256", "f" * 64, "action_layout_sha256"),
    ],
)
def test_a_sidecar_that_does_not_fit_this_env121_is_a_clear_error(checkpoint, key, value, named):
    side = sidecar_path(checkpoint)
    meta = json.loads(side.read_text())
    expected = meta[key]
    meta[key] = value
    side.write_text(json.dumps(meta))
    with pytest.raises(CheckpointMismatchError, match=named) as error:
        load_policy(checkpoint)
    assert repr(value) in str(error.value) and repr(expected) in str(error.value)


def test_only_a_different_package_version_warns(checkpoint):
    side = sidecar_path(checkpoint)
    meta = json.loads(side.read_text())
    meta["env121_version"] = "0.0.1"
    side.write_text(json.dumps(meta))
    with pytest.warns(UserWarning, match="0.0.1"):
        load_policy(checkpoint)


def test_weights_that_do_not_fit_the_sidecar_are_a_clear_error(checkpoint, tmp_path):
    other = save_policy(
        tmp_path / "other.safetensors", PolicyNetwork([8]).state_dict(), [8], "tanh"
    )
    checkpoint.write_bytes(other.read_bytes())  # weights of another network
    with pytest.raises(CheckpointMismatchError, match="weights_sha256"):
        load_policy(checkpoint)
    meta = json.loads(sidecar_path(checkpoint).read_text())
    meta["weights_sha256"] = None  # without the digest, the shapes still catch it
    sidecar_path(checkpoint).write_text(json.dumps(meta))
    with pytest.raises(CheckpointMismatchError, match="do not fit the sidecar's network"):
        load_policy(checkpoint)


def test_a_file_that_is_not_a_checkpoint_is_refused(tmp_path):
    pickled = tmp_path / "model.zip"
    pickled.write_bytes(pickle.dumps({"not": "weights"}))
    with pytest.raises(CheckpointMismatchError, match=r"NAME\.safetensors"):
        PPOAgent(str(pickled))
    with pytest.raises(FileNotFoundError, match=r"missing\.safetensors"):
        PPOAgent(str(tmp_path / "missing.safetensors"))
    lonely = tmp_path / "lonely.safetensors"
    save_file({"x": torch.zeros(1)}, str(lonely))
    with pytest.raises(FileNotFoundError, match=r"lonely\.json"):
        PPOAgent(str(lonely))


@pytest.mark.parametrize(
    ("name", "trained_for"),
    [
        ("small", "num_timesteps"),
        ("hinted", "num_timesteps"),
        ("searched", "epochs"),
        ("scratch", "steps"),
        ("distilled", "epochs"),
    ],
)
def test_a_shipped_checkpoint_loads_by_name_and_plays_a_whole_match(name, trained_for):
    assert name in shipped_checkpoints()
    agents = [make_agent(f"ppo:{name}") for _ in range(4)]
    assert PPOAgent(name).metadata["training"][trained_for] > 0  # PPO steps, or imitation epochs
    first, again = new_game(5), new_game(5)
    play_agents(first, agents)  # raises on an illegal action
    play_agents(again, [make_agent(f"ppo:{name}") for _ in range(4)])
    assert first.is_over and first.actions == again.actions


@pytest.mark.parametrize("name", ["scratch", "hinted"])
def test_many_turns_in_one_pass_are_the_agents_turn_by_turn_choices(name):
    """``act_many`` (a network as the model of a seat, agents/beliefs.py) is
    the agent's masked argmax on every turn, the turns greedy decides for a
    network reading greedy's hints (``hinted``) included."""
    agent = PPOAgent(name)
    turns = random_play_turns(300, seed=9)
    assert agent.network.act_many(turns, agent.hinter) == [agent.act(t) for t in turns]
    if name == "hinted":
        assert any(agent.hinter.leaves_to_greedy(t) for t in turns)


def test_an_unknown_shipped_name_lists_the_shipped_checkpoints():
    with pytest.raises(AgentSpecError, match=r"no shipped checkpoint is named 'big'.*'small'"):
        make_agent("ppo:big")


def test_a_ppo_agent_plays_in_forked_arena_workers():
    """The arena forks its workers after building the agents in the parent;
    a torch thread pool started there would hang the children for good."""
    code = (
        "from arena import one_vs_three\n"
        "result = one_vs_three('ppo:small', 'random', deals=1, jobs=2)\n"
        "print(result.advantage.clusters)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=240, check=True
    )
    assert done.stdout.strip() == "1"


def test_the_from_scratch_checkpoint_plays_in_the_gym_env_and_the_batched_engine():
    """``ppo:scratch`` reads the swap_wins and nb_wins parts: the reference
    computes them for the AEC env's seats, the compiled kernels for the
    batched engine."""
    import numpy as np

    from agents.batched_ppo import BatchedPPO
    from agents.environments import SingleSeat
    from env121.engine.batched.engine import BatchedEngine

    env = SingleSeat(opponents="ppo:scratch", seat=0)
    env.reset(seed=3)
    for _ in range(40):  # the opponents' moves between the learner's are ppo:scratch's
        legal = np.flatnonzero(env.action_masks())
        if env.step(int(legal[0]))[2]:
            break
    engine = BatchedEngine(8, threads=1)
    games = np.arange(8)
    actions = BatchedPPO("scratch").act(engine, games)
    engine.step(actions)  # raises on an illegal action
