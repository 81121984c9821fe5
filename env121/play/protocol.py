"""The agent protocol: the one interface of every player.

The arena, ``env121 play``, :class:`~env121.envs.single_seat.SingleSeat`'s
opponents and imitation's teachers all seat players of this protocol, and
:func:`env121.play.match.play_agents` is the loop that asks them to act.

An agent maps a :class:`~env121.play.turn.Turn` — the seat's observation vector,
its :class:`~env121.engine.view.SeatView`, its legal actions and, for search agents
only, determinizations of what it knows — to a legal action id::

    class Agent(Protocol):
        spec: str            # the registry spec that rebuilds it: "mc:budget=200"
        uses_search: bool    # True: its turns grant Turn.determinization
        def reset(self, seed: int) -> None: ...   # a new match; seeds its randomness
        def act(self, turn: Turn) -> int: ...

Agents are built by name from :mod:`agents.registry`. ``reset`` is called
before every match with a seed the caller derives from its own seed, so an
agent's play is reproducible; an agent holds no other global state.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from env121.play.turn import Turn


@runtime_checkable
class Agent(Protocol):
    """A player: ``act(turn)`` returns one of ``turn.legal_actions``."""

    spec: str
    """The registry spec that builds an equal agent (``"greedy"``, ``"mc:budget=200"``)."""
    uses_search: bool
    """Whether the agent draws determinizations (its turns must grant them)."""

    def reset(self, seed: int) -> None:
        """Start a new match; all randomness of the agent comes from ``seed``."""

    def act(self, turn: Turn) -> int:
        """The action id to play (one of ``turn.legal_actions``)."""


__all__ = ["Agent", "Turn"]
