"""Fuzzing ``step`` of ``env121_v1`` and ``SingleSeat`` with every kind of action.

Actions are drawn from: legal ids and any id near the range, as Python ints
and as numpy integers of several widths (and 0-d arrays), huge ints, floats
(legal ids as floats too), numpy floats, bools, numpy bools, ``None``,
strings and lists, at any point of a match, before ``reset`` and after the
match. Each step either plays a legal id (of any integer type) or ends in
the documented outcome of the module docstrings, and then the match — the
engine state and every agent's observation — is exactly as it was.
"""

from __future__ import annotations

import copy
import operator
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import env121
from env121.engine.actions import NUM_ACTIONS
from env121.engine.game import IllegalActionError
from env121.engine.state import State
from env121.envs.aec_env import AGENTS, DEFAULT_ILLEGAL_REWARD, AgentEnv, raw_env
from env121.envs.single_seat import ILLEGAL_ACTION_MODES, SingleSeat

INT_TYPES = (int, np.int64, np.int32, np.int16, np.intp)
UNSIGNED_TYPES = (np.uint8, np.uint64)


def actions(legal: Sequence[int]) -> st.SearchStrategy[Any]:
    """Actions of every kind for a seat whose legal ids are ``legal``."""
    ids = st.sampled_from(legal) | st.integers(-3, NUM_ACTIONS + 3)
    signed = st.tuples(ids, st.sampled_from(INT_TYPES)).map(lambda p: p[1](p[0]))
    unsigned = st.tuples(st.sampled_from(legal), st.sampled_from(UNSIGNED_TYPES))
    return st.one_of(
        signed,
        signed,
        unsigned.map(lambda p: p[1](p[0])),
        ids.map(np.array),  # a 0-d integer array is an id too (operator.index)
        st.integers() | st.sampled_from([2**63, -(2**63) - 1, 2**70]),
        ids.map(float) | ids.map(np.float64) | st.floats(),
        st.booleans() | st.sampled_from([np.True_, np.False_]),
        st.none(),
        st.text(max_size=3) | ids.map(str),
        ids.map(lambda a: [a]) | ids.map(lambda a: np.array([a, a])),
    )


def action_id(action: Any) -> int | None:
    """The id an action stands for (any integer type, not a bool), else None."""
    if isinstance(action, (bool, np.bool_)):
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None


def snapshot(env: raw_env) -> tuple[State, dict[str, dict[str, np.ndarray]], str]:
    """What a refused step must leave alone: the engine state, every agent's
    observation and whose turn it is."""
    observations = {a: copy.deepcopy(env.observe(a)) for a in env.agents}
    return env.game.clone(), observations, env.agent_selection


def assert_unchanged(env: raw_env, before: tuple[State, Any, str]) -> None:
    state, observations, selection = before
    assert env.game == state
    assert env.agent_selection == selection
    for agent, observation in observations.items():
        now = env.observe(agent)
        assert np.array_equal(now["observation"], observation["observation"])
        assert np.array_equal(now["action_mask"], observation["action_mask"])


def unwrapped(env: AgentEnv) -> raw_env:
    raw = env.unwrapped
    assert isinstance(raw, raw_env)
    return raw


def play_randomly(env: AgentEnv, steps: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if unwrapped(env).game.is_over:
            return
        env.step(int(rng.choice(legal_ids(env))))


def legal_ids(env: AgentEnv) -> list[int]:
    observation = env.observe(env.agent_selection)
    assert observation is not None
    return [int(a) for a in np.flatnonzero(observation["action_mask"])]


# -------------------------------------------------------------- raw_env


@settings(max_examples=50)
@given(st.integers(0, 2**32), st.integers(0, 80), st.data())
def test_raw_env_plays_a_legal_id_of_any_type_and_refuses_the_rest_unchanged(
    seed: int, played: int, data: st.DataObject
) -> None:
    env = raw_env()
    env.reset(seed=seed)
    play_randomly(env, played, seed)
    for _ in range(8):
        if env.game.is_over:
            break
        legal = legal_ids(env)
        action = data.draw(actions(legal))
        if action_id(action) in legal:
            env.step(action)
            assert env.game.actions[-1] == action_id(action)
            assert type(env.game.actions[-1]) is int
            continue
        before = snapshot(env)
        with pytest.raises(IllegalActionError):
            env.step(action)
        assert_unchanged(env, before)


FINISHED = raw_env(starting_points=100)  # the first payment busts a seat: a short match
FINISHED.reset(seed=4)
play_randomly(FINISHED, 10_000, seed=4)


@settings(max_examples=30)
@given(st.data())
def test_after_the_match_only_none_steps_and_then_nothing_does(data: st.DataObject) -> None:
    env = copy.deepcopy(FINISHED)
    assert env.game.is_over
    not_none = actions(range(NUM_ACTIONS)).filter(lambda a: a is not None)
    for _ in AGENTS:
        for action in data.draw(st.lists(not_none, max_size=2)):
            before = snapshot(env)
            with pytest.raises(ValueError, match="the only valid action is None"):
                env.step(action)
            assert_unchanged(env, before)
        env.step(None)  # PettingZoo's dead step: the agent leaves
    assert not env.agents
    with pytest.raises(RuntimeError, match="every agent has left: call reset"):
        env.step(data.draw(actions(range(NUM_ACTIONS))))
    assert env.game == FINISHED.game


def test_a_step_after_every_agent_left_is_a_runtime_error():
    # Found by fuzzing: raw_env raised KeyError (agent_selection no longer in
    # terminations) for a step once every agent had left.
    env = copy.deepcopy(FINISHED)
    for _ in AGENTS:
        env.step(None)
    with pytest.raises(RuntimeError, match="the match is over and every agent has left"):
        env.step(None)


# ----------------------------------------------------------- env121.env()


def contains(space: Any, action: object) -> bool:
    """``space.contains(action)``; False where gymnasium 1.2's ``Discrete``
    raises ``OverflowError`` for an integer beyond 64 bits."""
    try:
        return bool(space.contains(action))
    except OverflowError:
        return False


@settings(max_examples=50)
@given(st.integers(0, 2**32), st.integers(0, 80), st.data())
def test_wrapped_env_rejects_what_is_outside_the_space_and_ends_on_an_illegal_id(
    seed: int, played: int, data: st.DataObject
) -> None:
    env = env121.env()
    with pytest.raises(AssertionError, match="reset"):
        env.step(data.draw(actions(range(NUM_ACTIONS))))
    env.reset(seed=seed)
    play_randomly(env, played, seed)
    game = unwrapped(env)
    for _ in range(8):
        if game.game.is_over:
            return
        legal, agent = legal_ids(env), env.agent_selection
        action = data.draw(actions(legal))
        before = snapshot(game)
        in_space = contains(env.action_space(agent), action) and not isinstance(action, bool)
        if not in_space:
            with pytest.raises(AssertionError, match="action is not in action space"):
                env.step(action)
            assert_unchanged(game, before)
        elif action_id(action) in legal:
            env.step(action)
            assert game.game.actions[-1] == action_id(action)
        else:  # in the space, not legal: TerminateIllegalWrapper ends the match
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                env.step(action)
            assert game.game == before[0]
            assert all(env.terminations.values()) and all(env.truncations.values())
            assert env.rewards[agent] == DEFAULT_ILLEGAL_REWARD
            while env.agents:
                env.step(None)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                env.step(data.draw(actions(legal)))  # OrderEnforcingWrapper only warns
            assert game.game == before[0]
            return


@pytest.mark.parametrize("action", [True, False])
def test_a_bool_is_outside_the_wrapped_space(action: bool) -> None:
    # Found by fuzzing: gymnasium's Discrete contains True, and the
    # TerminateIllegalWrapper then indexed the mask with it: a numpy ValueError.
    env = env121.env()
    env.reset(seed=1)
    before = snapshot(unwrapped(env))
    with pytest.raises(AssertionError, match="action is not in action space"):
        env.step(action)
    assert_unchanged(unwrapped(env), before)


# ------------------------------------------------------------- SingleSeat


@settings(max_examples=50)
@given(st.integers(0, 2**32), st.sampled_from(ILLEGAL_ACTION_MODES), st.data())
def test_single_seat_plays_legal_ids_and_ends_on_anything_else(
    seed: int, mode: str, data: st.DataObject
) -> None:
    env = SingleSeat(illegal_action=mode)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(data.draw(actions(range(NUM_ACTIONS))))
    observation, _info = env.reset(seed=seed)
    for _ in range(8):
        legal = [int(a) for a in np.flatnonzero(env.action_masks())]
        action = data.draw(actions(legal))
        if action_id(action) in legal:
            observation, _reward, terminated, _truncated, _info = env.step(action)
            if terminated:
                break
            continue
        before = snapshot(env.env)
        if mode == "raise":
            with pytest.raises(IllegalActionError):
                env.step(action)
        else:
            after, reward, terminated, truncated, info = env.step(action)
            assert (terminated, truncated) == (True, False)
            assert reward <= env.illegal_reward
            assert np.array_equal(after, observation)
            assert info["illegal_action"] is action or info["illegal_action"] == action_id(action)
        assert_unchanged(env.env, before)
        break
    else:
        return  # eight legal actions: the episode goes on
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(data.draw(actions(range(NUM_ACTIONS))))


NON_IDS: dict[str, Callable[[list[int]], Any]] = {
    "none": lambda legal: None,
    "nan": lambda legal: float("nan"),
    "legal_as_float": lambda legal: float(legal[0]),
    "legal_as_text": lambda legal: str(legal[0]),
    "legal_in_a_list": lambda legal: [legal[0]],
    "true": lambda legal: True,
}


@pytest.mark.parametrize("mode", ILLEGAL_ACTION_MODES)
@pytest.mark.parametrize("kind", NON_IDS)
def test_single_seat_refuses_non_ids_in_its_illegal_action_mode(mode: str, kind: str) -> None:
    # Found by fuzzing: int(action) raised TypeError for None and lists and
    # ValueError for NaN, and under "terminate" let a legal id as a float or
    # a string (or True for 1) through, so the engine's IllegalActionError escaped.
    env = SingleSeat(illegal_action=mode, seat=0)
    env.reset(seed=3)
    action = NON_IDS[kind]([int(a) for a in np.flatnonzero(env.action_masks())])
    before = snapshot(env.env)
    if mode == "raise":
        with pytest.raises(IllegalActionError):
            env.step(action)
    else:
        assert env.step(action)[2] is True
    assert_unchanged(env.env, before)
