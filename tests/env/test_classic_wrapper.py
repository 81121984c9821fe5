"""``env121.env()``'s one-layer :class:`ClassicWrapper` behaves as PettingZoo's
classic chain (TerminateIllegal → AssertOutOfBounds → OrderEnforcing) around
the same raw environment: the two are played side by side, step by step, by
the same random player that now and then tries an illegal id, an id out of
range, a float or ``None``, and every answer (``last()``, the dicts, the error
or warning) must be the same."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.utils import wrappers

import env121
from env121.engine.actions import NUM_ACTIONS
from env121.envs.aec_env import DEFAULT_ILLEGAL_REWARD, ClassicWrapper, raw_env


def pettingzoo_chain() -> Any:
    """The chain PettingZoo's classic games are wrapped in, around our raw env."""
    wrapped: Any = wrappers.TerminateIllegalWrapper(raw_env(), DEFAULT_ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def outcome(env: Any, call: str, *args: Any) -> tuple[Any, ...]:
    """What ``env.call(*args)`` did: its error's type and text, or the warnings'
    texts, then ``last()`` and the agents' dicts."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            getattr(env, call)(*args)
            error = None
        except (AssertionError, ValueError, RuntimeError, AttributeError) as e:
            error = (type(e).__name__, str(e))
    said = tuple(str(w.message) for w in caught)
    if not env.agents:
        return error, said, ()
    obs, reward, terminated, truncated, info = env.last()
    seen = (
        env.agent_selection,
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
        reward,
        terminated,
        truncated,
        repr(info),
        dict(env.rewards),
        dict(env.terminations),
        dict(env.truncations),
        list(env.agents),
    )
    return error, said, seen


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_one_layer_behaves_as_pettingzoos_chain(seed: int) -> None:
    ours, theirs = env121.env(), pettingzoo_chain()
    assert isinstance(ours, ClassicWrapper) and ours.unwrapped is not ours
    rng = np.random.default_rng(seed)
    for match in range(2):
        assert outcome(ours, "reset", 100 * seed + match) == outcome(
            theirs, "reset", 100 * seed + match
        )
        for _ in range(3000):
            if not ours.agents:
                break
            obs, _, terminated, truncated, _ = ours.last()
            assert obs is not None
            legal = np.flatnonzero(obs["action_mask"])
            action: Any
            if terminated or truncated:
                action = None
            elif rng.random() < 0.003:  # rarely: an illegal id, which ends the match
                action = int(rng.choice(np.setdiff1d(np.arange(NUM_ACTIONS), legal)))
            elif rng.random() < 0.01:  # outside the space: refused, nothing changes
                action = [NUM_ACTIONS, -1, 1.5, None][int(rng.integers(4))]
            else:
                action = int(rng.choice(legal))
            assert outcome(ours, "step", action) == outcome(theirs, "step", action)
        # once every agent has left, both only warn
        assert outcome(ours, "step", 0) == outcome(theirs, "step", 0)


def test_the_order_is_enforced_as_pettingzoo_does() -> None:
    ours, theirs = env121.env(), pettingzoo_chain()
    for name in ("agents", "agent_selection", "rewards", "terminations", "infos"):
        with pytest.raises(AttributeError, match="cannot be accessed before reset"):
            getattr(ours, name)
        with pytest.raises(AttributeError, match="cannot be accessed before reset"):
            getattr(theirs, name)
    for call, args in (("step", (0,)), ("observe", ("player_0",))):
        errors = []
        for env in (ours, theirs):
            with pytest.raises(AssertionError) as raised:
                getattr(env, call)(*args)
            errors.append(str(raised.value))
        assert errors[0] == errors[1]
    assert str(ours) == str(theirs) == "env121_v1"


@pytest.mark.parametrize("action", [2**64, -(2**63) - 1])
def test_huge_ints_are_outside_the_space(action: int) -> None:
    # bools: tests/env/test_fuzz.py
    env = env121.env()
    env.reset(seed=3)
    before = env.unwrapped.game.actions[:]  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match="action is not in action space"):
        env.step(action)
    assert env.unwrapped.game.actions == before  # type: ignore[attr-defined]
