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

A diagnostic agent may also declare ``sees_all_hands = True`` (the ``oracle``:
search on the true state, a ceiling to measure the others against). Its turns
grant :meth:`~env121.play.turn.Turn.true_state`; it plays in the arena,
labelled "(sees all hands)" in every table, and is refused wherever a fair
player is expected — beside a person (``env121 play --human``, the web table)
and as a :class:`~env121.envs.single_seat.SingleSeat` opponent that a learner
trains against (:func:`require_fair`).

An agent that reads the match's past (:meth:`~env121.play.turn.Turn.offer_decisions`)
declares ``reads_history = True``; it is refused where a game is played a
turn at a time from a record that keeps no past
(:class:`~env121.play.batched_policy.TurnByTurn`).

An agent may also have ``match_over(over)``: :func:`env121.play.match.play_agents`
calls it once per seat the agent holds when a match ends, with a
:class:`~env121.play.turn.MatchOver` (the seat's final view and the events
since it last acted); the ``program:`` agents tell their program the game is over.

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


SEES_ALL_HANDS_LABEL = " (sees all hands)"
"""Appended to a diagnostic agent's name wherever a table shows it."""


class UnfairAgentError(ValueError):
    """An agent that sees every hand was seated where a fair player is expected."""


def sees_all_hands(agent: object) -> bool:
    """Whether ``agent`` is a diagnostic that reads every hand (its optional
    ``sees_all_hands`` attribute; False for agents that do not declare it)."""
    return bool(getattr(agent, "sees_all_hands", False))


def require_fair(agent: object, where: str) -> None:
    """Raise :class:`UnfairAgentError` if ``agent`` sees every hand: it is not
    allowed ``where`` (``"beside a person"``)."""
    if sees_all_hands(agent):
        spec = getattr(agent, "spec", type(agent).__name__)
        raise UnfairAgentError(
            f"{spec!r} sees all hands (a diagnostic ceiling), so it is not allowed {where}: "
            "expected an agent that plays on its own seat's knowledge (greedy, mc, ppo:…); "
            "measure the oracle with env121 tournament"
        )


__all__ = [
    "SEES_ALL_HANDS_LABEL",
    "Agent",
    "Turn",
    "UnfairAgentError",
    "require_fair",
    "sees_all_hands",
]
