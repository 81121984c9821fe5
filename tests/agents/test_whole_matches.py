"""Agents owed each match whole in a batched engine: :class:`WholeMatches`.

It follows its games beside the engine, one agent per seat it holds; its
caller must show it every decision of those seats. A caller that plays a
seat's decision without asking its agent (a forced move, say) is an error,
not an agent silently shown a match with a hole in it.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.environments import make_batched_policy
from agents.greedy import GreedyAgent
from agents.spec import AgentSpecError
from env121.engine.batched.engine import BatchedEngine
from env121.engine.state import NUM_SEATS
from env121.play.batched_policy import WholeMatches
from env121.play.random_agent import RandomAgent


def _engine() -> tuple[BatchedEngine, WholeMatches]:
    """Two games, the policy in seats 1..3 of both."""
    engine = BatchedEngine(2, threads=1)
    engine.reset([5, 6])
    policy = WholeMatches(GreedyAgent, "greedy-whole")
    held = np.tile(np.arange(NUM_SEATS) != 0, (2, 1))
    policy.begin(engine, np.arange(2), held)
    return engine, policy


def test_every_decision_of_its_seats_is_asked_and_each_match_is_ended():
    engine, policy = _engine()
    ended = np.zeros(2, dtype=bool)
    while not ended.all():
        actions = engine.games["legal"][:, 0].astype(np.int64)
        theirs = np.flatnonzero((engine.to_act != 0) & ~ended)
        if len(theirs):
            actions[theirs] = policy.act(engine, theirs)
        ended |= engine.step(actions).terminated
        policy.stepped(engine, actions)
    # both matches are over: their six agents wait, idle, to be reset for the next ones
    assert policy.followed == {} and len(policy.idle) == 6


def test_a_decision_played_without_asking_its_agent_is_an_error():
    engine, policy = _engine()
    for _ in range(200):  # seat 0 plays, until a decision of the policy's seats comes
        if (engine.to_act != 0).any():
            break
        actions = engine.games["legal"][:, 0].astype(np.int64)
        engine.step(actions)
        policy.stepped(engine, actions)
    actions = engine.games["legal"][:, 0].astype(np.int64)  # not asked: the lowest id played
    engine.step(actions)
    with pytest.raises(RuntimeError, match="decision was played without its agent's answer"):
        policy.stepped(engine, actions)


def test_one_agent_object_for_every_seat_is_refused():
    shared = RandomAgent()
    with pytest.raises(ValueError, match="gives the same agent object each time"):
        WholeMatches(lambda: shared, "shared")
    with pytest.raises(AgentSpecError, match="has no batched policy"):
        make_batched_policy("import:agents.greedy:GreedyAgent")  # only for whole matches
