"""``random``: uniformly random legal actions — the floor every agent must beat."""

from __future__ import annotations

import numpy as np

from env121.play.turn import Turn


class RandomAgent:
    """Plays a uniformly random legal action, from a generator seeded by :meth:`reset`."""

    uses_search = False

    def __init__(self) -> None:
        self.spec = "random"
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        """Reseed for a new match."""
        self.rng = np.random.default_rng(seed)

    def act(self, turn: Turn) -> int:
        """A uniformly random legal action."""
        legal = turn.legal_actions
        return legal[int(self.rng.integers(len(legal)))]


__all__ = ["RandomAgent"]
