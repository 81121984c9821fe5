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
with :func:`env121.play.batched_observation.encode_seats`.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from env121.engine.batched.engine import BatchedEngine


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


__all__ = ["BatchedPolicy", "BatchedRandom"]
