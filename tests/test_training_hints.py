"""agents.hints: greedy's hints, the hinted training seat, and networks that read them."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest
import torch
from gymnasium import spaces

from agents.greedy import GreedyAgent, swap_gains
from agents.hints import (
    GAIN_SCALE,
    HINTS_SIZE,
    INPUTS,
    HintedSeat,
    greedy_decides,
    greedy_hints,
)
from agents.knowledge import HandJudge
from agents.ppo import PolicyNetwork, PPOAgent, load_policy, save_policy, sidecar_path
from env121.actions import NHAT_BAN, NUM_ACTIONS, THE_TRANG, U
from env121.game import apply, new_game
from env121.observation import OBS_SIZE
from env121.state import Phase
from env121.turn import Turn
from env121.wrappers import SingleSeat
from training.stats import LearnerStats

HINTED = "observation+greedy_hints"


def greedy_turns(count: int, seed: int = 0) -> list[Turn]:
    """Turns met in greedy self-play."""
    greedy, state, turns = GreedyAgent(), new_game(seed), list[Turn]()
    while len(turns) < count and not state.is_over:
        turn = Turn(state.clone(), state.current_player)
        turns.append(turn)
        apply(state, greedy.act(turn))
    return turns


def test_hints_mark_greedys_choice_and_its_value_gains():
    greedy, seen = GreedyAgent(), set()
    for turn in greedy_turns(400, seed=3):
        hints = greedy_hints(turn, greedy)
        choice, gains = hints[:NUM_ACTIONS], hints[NUM_ACTIONS:]
        assert hints.shape == (HINTS_SIZE,) and choice.sum() == 1
        assert int(np.argmax(choice)) == GreedyAgent().act(turn)
        judge = HandJudge(turn.view, turn.config)
        phase = turn.view.phase
        if phase == Phase.OFFER and len(turn.legal_actions) > 1:
            expected = np.zeros(NUM_ACTIONS, np.float32)
            for action, gain in swap_gains(judge, turn.legal_actions).items():
                expected[action] = gain / GAIN_SCALE
            assert np.allclose(gains, expected)
            seen.add("offer")
        elif phase == Phase.NB_CHOICE and NHAT_BAN in turn.legal_actions:
            assert np.count_nonzero(gains[:NHAT_BAN]) == 0
            seen.add("nb_choice")
        else:
            assert not gains.any()
    assert seen == {"offer", "nb_choice"}


def test_the_hinted_seat_shows_the_learner_only_its_own_decisions_with_their_hints():
    env = HintedSeat(LearnerStats(SingleSeat(seat=1)))  # found under another wrapper
    plain = SingleSeat(seat=1)
    observation, _ = env.reset(seed=4)
    plain.reset(seed=4)
    assert env.observation_space.shape == (OBS_SIZE + HINTS_SIZE,)
    greedy, total, steps, done = GreedyAgent(), 0.0, 0, False
    while not done:
        game = env.seat_env.env.game
        turn = Turn(game, game.current_player)
        assert turn.seat == 1 and not greedy_decides(turn)
        assert np.array_equal(observation[:OBS_SIZE], turn.observation)
        assert np.array_equal(observation[OBS_SIZE:], greedy_hints(turn, greedy))
        observation, reward, done, _, _ = env.step(np.int64(greedy.act(turn)))
        total, steps = total + reward, steps + 1
    assert not observation[OBS_SIZE:].any()
    # greedy in seat 1 of the same match, stepped one decision at a time
    plain_total, plain_steps, plain_done = 0.0, 0, False
    while not plain_done:
        game = plain.env.game
        _, reward, plain_done, _, _ = plain.step(greedy.act(Turn(game, game.current_player)))
        plain_total, plain_steps = plain_total + reward, plain_steps + 1
    assert total == pytest.approx(plain_total) and steps < plain_steps


def test_a_hinted_agent_leaves_wins_forced_moves_and_the_layout_to_greedy(tmp_path):
    torch.manual_seed(1)
    network = PolicyNetwork([8], "tanh", HINTED)
    path = save_policy(tmp_path / "h.safetensors", network.state_dict(), [8], "tanh", {}, HINTED)
    agent, greedy, decided = PPOAgent(str(path)), GreedyAgent(), 0
    for turn in greedy_turns(600, seed=8):
        if greedy_decides(turn):
            decided += 1
            assert agent.act(turn) == greedy.act(turn)
            legal = set(turn.legal_actions)
            layout = turn.view.phase in (Phase.NB_GAP, Phase.NB_PLACE)
            assert layout or len(legal) == 1 or {U, THE_TRANG} & legal
    assert 0 < decided < 600


def test_the_hinted_seat_needs_a_single_seat():
    class Other(gymnasium.Env[np.ndarray, np.int64]):
        observation_space = spaces.Box(0, 1, (2,))
        action_space = spaces.Discrete(2)

    with pytest.raises(TypeError, match="wraps a SingleSeat"):
        HintedSeat(Other())


def test_a_hinted_checkpoint_records_its_inputs_and_its_agent_reads_them(tmp_path):
    torch.manual_seed(0)
    network = PolicyNetwork([16], "tanh", HINTED)
    assert network.layers[0].in_features == INPUTS[HINTED]
    path = save_policy(tmp_path / "h.safetensors", network.state_dict(), [16], "tanh", {}, HINTED)
    assert json.loads(sidecar_path(path).read_text())["network"]["inputs"] == HINTED
    loaded, _ = load_policy(path)
    assert loaded.inputs == HINTED
    agent = PPOAgent(str(path))
    for turn in greedy_turns(100, seed=6):
        if greedy_decides(turn):
            continue
        features = np.concatenate([turn.observation, greedy_hints(turn, GreedyAgent())])
        with torch.no_grad():
            logits = network(torch.from_numpy(features)).numpy()
        legal = list(turn.legal_actions)
        assert agent.act(turn) == legal[int(np.argmax(logits[legal]))]


def test_a_checkpoint_without_inputs_reads_the_observation(tmp_path):
    network = PolicyNetwork([8], "relu")
    path = save_policy(tmp_path / "old.safetensors", network.state_dict(), [8], "relu")
    side = sidecar_path(path)
    meta = json.loads(side.read_text())
    del meta["network"]["inputs"]  # as written before hints existed
    side.write_text(json.dumps(meta))
    assert load_policy(path)[0].inputs == "observation"


def test_unknown_inputs_are_a_clear_error():
    with pytest.raises(ValueError, match=r"inputs='hints' is not valid: expected one of"):
        PolicyNetwork([8], "relu", "hints")
