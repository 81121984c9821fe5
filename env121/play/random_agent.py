"""``random``: uniformly random legal actions — the floor every agent must beat.

:class:`RandomAgent` is the one random player: the arena's ``random``, the four
seats of ``env121 play --seed S`` without ``--agents``
(:func:`random_players`), :class:`~env121.envs.single_seat.SingleSeat`'s
default opponents, and the random play of the tests and benchmarks. It is an
agent of :class:`env121.play.protocol.Agent` and, called with an observation
dict and an action mask, a policy of the PettingZoo environment and of
``SingleSeat``. Every choice is :meth:`RandomAgent.choose`:
``legal[rng.integers(len(legal))]`` over the legal ids in ascending order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from env121.engine.game import new_game
from env121.engine.seeds import Stream, derive_rng
from env121.engine.state import NUM_SEATS, State
from env121.play.match import play_agents
from env121.play.turn import Turn
from env121.rules.config import RuleConfig


class RandomAgent:
    """Plays a uniformly random legal action, from a generator seeded by :meth:`reset`."""

    uses_search = False

    def __init__(self) -> None:
        self.spec = "random"
        self.rng = np.random.default_rng(0)
        """Where every choice comes from (``reset(seed)``: ``default_rng(seed)``)."""

    def reset(self, seed: int) -> None:
        """Reseed for a new match."""
        self.rng = np.random.default_rng(seed)

    def act(self, turn: Turn) -> int:
        """A uniformly random legal action."""
        return self.choose(turn.legal_actions)

    def __call__(self, observation: dict[str, np.ndarray], action_mask: np.ndarray) -> int:
        """As a policy: a uniformly random id among those ``action_mask`` allows
        (``observation`` is not read)."""
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("the action mask allows no action: the agent is not to act")
        return self.choose(legal)

    def choose(self, legal: Sequence[int]) -> int:
        """One of the ``legal`` ids (ascending), uniformly: the one random choice."""
        return legal[int(self.rng.integers(len(legal)))]


def random_players(seed: int) -> list[RandomAgent]:
    """The players of ``env121 play --seed seed``: one :class:`RandomAgent` in
    all four seats, drawing from the stream
    :attr:`~env121.engine.seeds.Stream.RANDOM_PLAYERS` of the seed (independent
    of the deals)."""
    player = RandomAgent()
    player.rng = derive_rng(seed, Stream.RANDOM_PLAYERS)
    return [player] * NUM_SEATS


def random_match(seed: int, config: RuleConfig | None = None, *, rotation: int = 0) -> State:
    """A whole match of :func:`random_players`, dealt and played from ``seed``:
    the match ``env121 play --seed seed`` prints."""
    state = new_game(seed, config, rotation=rotation)
    play_agents(state, random_players(seed))
    return state


__all__ = ["RandomAgent", "random_match", "random_players"]
