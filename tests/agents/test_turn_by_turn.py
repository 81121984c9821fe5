"""An agent with no batched form in a batched engine, one game at a time.

:func:`env121.engine.game.state_of_record` reads a batched engine's game into a
``State`` equal to the one-match engine's (but for the past it does not keep),
and :class:`~env121.play.batched_policy.TurnByTurn` seats ``mc`` there: the
same moves, given the same seed, as ``mc`` playing the one-match engine.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from agents import make_agent
from agents.batched_greedy import BatchedGreedy
from agents.environments import make_batched_policy
from agents.spec import AgentSpecError
from env121.engine.batched.engine import BatchedEngine
from env121.engine.game import apply, legal_actions, new_game, state_of_record
from env121.engine.state import State
from env121.play.batched_policy import TurnByTurn
from env121.play.protocol import UnfairAgentError
from env121.play.turn import Turn
from env121.rules.config import DEFAULT_CONFIG

NOT_IN_A_RECORD = {"events", "results", "actions", "vong_event_start"}  # the past
COMPARED = [f.name for f in dataclasses.fields(State) if f.compare]
COMPARED = [name for name in COMPARED if name not in NOT_IN_A_RECORD]


@pytest.mark.parametrize("seed", [3, 11])
def test_a_record_read_back_is_the_match_of_the_one_match_engine(seed):
    state = new_game(seed)
    engine = BatchedEngine(1, threads=1)
    engine.reset([seed])
    rng = np.random.default_rng(seed)
    for step in range(400):
        read = state_of_record(engine.games[0:1], DEFAULT_CONFIG)
        for name in COMPARED:
            assert getattr(read, name) == getattr(state, name), f"step {step}: {name}"
        assert read.legal_cache == state.legal_cache and read.events == []
        if state.is_over:
            break
        action = int(rng.choice(legal_actions(state)))
        apply(state, action)
        engine.step([action])
    assert read.record is not engine.games  # a copy: the agent cannot touch the engine


def test_mc_turn_by_turn_plays_as_mc_on_the_one_match_engine():
    seed, agent_seed, steps = 5, 17, 300
    policy = make_batched_policy("mc:budget=8")
    assert isinstance(policy, TurnByTurn) and policy.spec == "mc:budget=8"
    policy.reset(agent_seed)
    greedy = BatchedGreedy()
    engine = BatchedEngine(1, threads=1)
    engine.reset([seed])
    batched: list[int] = []
    game = np.array([0])
    for _ in range(steps):
        player = policy if engine.to_act[0] == 0 else greedy
        batched.append(int(player.act(engine, game)[0]))
        if engine.step(batched[-1:]).terminated[0]:  # the engine deals the next match
            break

    mc, one_greedy = make_agent("mc:budget=8"), make_agent("greedy")
    mc.reset(agent_seed)
    state = new_game(seed)
    alone: list[int] = []
    searched = 0
    while len(alone) < len(batched):
        seat = state.current_player
        if seat == 0:
            alone.append(mc.act(Turn(state, 0, search_allowed=True)))
            searched += 1
        else:
            alone.append(one_greedy.act(Turn(state, seat)))
        apply(state, alone[-1])
    assert batched == alone and searched > 20


def test_turn_by_turn_refuses_the_oracle_and_the_arena_keeps_mc_alone():
    with pytest.raises(UnfairAgentError, match="sees all hands"):
        TurnByTurn(make_agent("oracle"))
    with pytest.raises(AgentSpecError, match="has no batched policy"):
        make_batched_policy("mc", turn_by_turn=False)
