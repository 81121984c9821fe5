"""Batched policies: one seat's decision in many games of a batched engine at once.

A :class:`BatchedPolicy` is the batched counterpart of an agent
(:class:`env121.play.protocol.Agent`): given a
:class:`~env121.engine.batched.BatchedEngine` and the indices of some of its
games, it returns the action of the seat to act in each of them, in one call::

    engine = BatchedEngine(1024)
    policy = BatchedRandom()
    policy.reset(seed=7)
    games = np.flatnonzero(engine.to_act != 0)     # every game seat 0 is not to act in
    actions = np.full(1024, SIT_OUT)               # the others sit the step out
    actions[games] = policy.act(engine, games)
    engine.step(actions)

The vector environment (:class:`env121.envs.vector.VectorSingleSeat`) plays
the opponents of its learners this way, one call per policy and round, and
any object with these two methods and a ``spec`` can sit there:
:class:`BatchedRandom` here, ``agents.batched_greedy.BatchedGreedy`` and
``agents.batched_ppo.BatchedPPO`` one layer up.

Policies that read the observation vector encode the games they decide for
with :func:`env121.play.batched_observation.encode_seats`. An agent with no
batched form of its own (``mc``) sits there through :class:`TurnByTurn`,
which shows it each game's turn in turn — at the agent's own speed.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from env121.engine.batched.engine import BatchedEngine
from env121.engine.game import state_of_record
from env121.play.protocol import Agent, require_fair
from env121.play.turn import Turn


class BatchedPolicy(Protocol):
    """A policy that decides for many games at once."""

    spec: str
    """Its agent spec (``"random"``, ``"greedy"``, ``"ppo:small"`` ...), for logs."""

    def reset(self, seed: int) -> None:
        """Reseed whatever it draws from (a deterministic policy ignores it)."""

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The action ids (``int64 [len(indices)]``) of the seat to act in the
        games ``indices`` (``int64``, ascending) of ``engine``: each one of that
        seat's legal actions (``engine.games["legal"]``)."""
        ...


class BatchedRandom:
    """Uniformly random legal actions, drawn from one seeded generator in the
    order of the games asked (``reset(seed)`` replays the same draws).

    numpy picks them from the records' legal lists (``n_legal`` and
    ``legal``) in a few array operations: no per-game Python, and nothing to
    compile."""

    spec = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int) -> None:
        """Restart the generator from ``seed``."""
        self.rng = np.random.default_rng(seed)

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """A uniformly random legal action of the seat to act in each game ``indices``."""
        games = engine.games
        picks = self.rng.integers(games["n_legal"][indices])
        actions: np.ndarray = games["legal"][indices, picks].astype(np.int64)
        return actions


class TurnByTurn:
    """An :class:`~env121.play.protocol.Agent` as a batched policy: each game
    asked is read into a :class:`~env121.engine.state.State`
    (:func:`~env121.engine.game.state_of_record`) and the agent acts on its
    :class:`~env121.play.turn.Turn`, one game after another — as fast as the
    agent, no faster (``mc``: about half a millisecond a decision).

    The agent is reset once, by :meth:`reset`, not before each match: the
    engine's matches run interleaved. A record keeps the seat's whole
    knowledge but not the match's past, so the turn's
    :attr:`~env121.play.turn.Turn.view` has no ``history`` nor ``results``:
    only agents that decide without them may sit here (``mc`` and ``greedy``
    do; a ``program:`` agent is sent them, so it is not offered this form).
    An agent that sees every hand is refused (:func:`~env121.play.protocol.require_fair`)."""

    def __init__(self, agent: Agent) -> None:
        require_fair(agent, "as a batched policy (a training opponent)")
        self.agent = agent
        self.spec = agent.spec

    def reset(self, seed: int) -> None:
        """Reset the agent with ``seed``."""
        self.agent.reset(seed)

    def act(self, engine: BatchedEngine, indices: np.ndarray) -> np.ndarray:
        """The agent's action in each game ``indices``, asked one game at a time."""
        actions = np.empty(len(indices), dtype=np.int64)
        search = self.agent.uses_search
        for k, g in enumerate(indices.tolist()):
            state = state_of_record(engine.games[g : g + 1], engine.config)
            actions[k] = self.agent.act(Turn(state, state.current_player, search_allowed=search))
        return actions


__all__ = ["BatchedPolicy", "BatchedRandom", "TurnByTurn"]
