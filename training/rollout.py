"""The batched trainer's rollout: each seat's stream of decisions, and its advantages.

A rollout stores the learner's decisions in :class:`Samples` in the order they
are taken. Each seat's decisions in a game form a stream, linked by
``successors`` (the index of the same seat's next decision, ``-1`` where the
stream ended, ``-2`` while it is open); :func:`stream_advantages` computes
GAE(γ, λ) along each stream. A decision still open when the rollout ends waits
for its rewards and is trained in the next update (:meth:`Samples.carry`).
"""

from __future__ import annotations

import numpy as np
import torch
from numba import njit

from env121.engine.actions import NUM_ACTIONS
from training.actor_critic import HIDDEN_SIZE
from training.hardware import pinned


@njit(cache=True, nogil=True)
def stream_advantages(
    rewards: np.ndarray,
    values: np.ndarray,
    successors: np.ndarray,
    gamma: float,
    lam: float,
    out: np.ndarray,
) -> None:
    """GAE along each seat's stream of decisions, for decisions ``0 .. n-1``
    in the order they were taken. ``successors[i]``: the index of the same
    seat's next decision in the stream, ``-1`` when the stream ended after
    ``i``; a successor still open (its own successor unknown) is marked by
    ``successors[successors[i]] == -2`` and is bootstrapped on, not continued."""
    for i in range(rewards.shape[0] - 1, -1, -1):
        j = successors[i]
        if j == -2:
            out[i] = 0.0  # open: not trained this update
            continue
        if j == -1:
            out[i] = rewards[i] - values[i]
            continue
        delta = rewards[i] + gamma * values[j] - values[i]
        continuation = 0.0 if successors[j] == -2 else out[j]
        out[i] = delta + gamma * lam * continuation


class Samples:
    """The learner's decisions of a rollout (and the open ones carried in).
    What the networks read (inputs, hidden hands, masks) lies in page-locked
    memory when they run on a GPU, so each step's rows go over in one
    asynchronous copy per array."""

    def __init__(self, capacity: int, width: int, perfect: bool, device: torch.device) -> None:
        hidden = HIDDEN_SIZE if perfect else 0
        self.network_arrays = {
            "inputs": pinned((capacity, width), np.float32, device),
            "hidden": pinned((capacity, hidden), np.float32, device),
            "masks": pinned((capacity, NUM_ACTIONS), np.bool_, device),
        }
        """The rows the networks read, as tensors (``inputs`` … are their numpy views)."""
        self.inputs = self.network_arrays["inputs"].numpy()
        self.hidden = self.network_arrays["hidden"].numpy()
        self.masks = self.network_arrays["masks"].numpy()
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.logps = np.zeros(capacity, dtype=np.float32)
        self.values = np.zeros(capacity, dtype=np.float32)
        self.rewards = np.zeros(capacity, dtype=np.float32)
        self.successors = np.full(capacity, -2, dtype=np.int64)
        self.size = 0

    def take(self, count: int) -> np.ndarray:
        """Indices of ``count`` new samples (their successors open)."""
        start = self.size
        self.size += count
        if self.size > len(self.actions):
            raise RuntimeError("rollout buffer overflow: more decisions than the buffer holds")
        self.successors[start : self.size] = -2
        self.rewards[start : self.size] = 0.0
        return np.arange(start, self.size)

    def carry(self, open_samples: np.ndarray) -> np.ndarray:
        """Move ``open_samples`` to the front for the next rollout; returns their new indices."""
        n = len(open_samples)
        kept = (self.inputs, self.hidden, self.masks, self.actions, self.logps, self.values)
        for array in (*kept, self.rewards):
            array[:n] = array[open_samples]
        self.successors[:n] = -2
        self.size = n
        return np.arange(n)


__all__ = ["Samples", "stream_advantages"]
