"""Drive a match with agent objects: the one loop behind the arena and ``env121 play --agents``.

:func:`play_agents` plays a :class:`~env121.engine.state.State` to the end, asking
``agents[seat]`` for the action of each seat to act. An agent is anything that
follows the structural :class:`MatchAgent` protocol — ``spec: str``,
``uses_search: bool`` and ``act(turn) -> int`` — as every agent of
:mod:`agents` does (:class:`env121.play.protocol.Agent`), though env121 never
imports them. Each agent gets a :class:`~env121.play.turn.Turn` granting
determinizations only if it searches; every returned action is checked, and an
illegal one raises :class:`IllegalAgentActionError`. The loop counts each
seat's decisions and the wall-clock time it spent in ``act``
(:class:`MatchPlay`); resetting the agents is the caller's job.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, SupportsIndex

from env121.engine.actions import NUM_ACTIONS, format_action, format_actions
from env121.engine.game import apply
from env121.engine.render import seat_name
from env121.engine.state import NUM_SEATS, State
from env121.play.turn import Turn


class MatchAgent(Protocol):
    """What :func:`play_agents` needs of an agent (:class:`env121.play.protocol.Agent` has it)."""

    @property
    def spec(self) -> str:
        """The agent's spec, named when it plays an illegal action."""

    @property
    def uses_search(self) -> bool:
        """Whether its turns grant :meth:`Turn.determinization`."""

    def act(self, turn: Turn) -> int:
        """The action id to play (one of ``turn.legal_actions``)."""


class IllegalAgentActionError(RuntimeError):
    """An agent returned an action that is not legal in its turn."""

    def __init__(self, spec: str, seat: int, action: object, legal: tuple[int, ...]) -> None:
        self.spec = spec
        self.seat = seat
        self.action = action
        self.legal = legal
        played = action_id(action)
        if played is None:
            shown = "not an action id"
        elif played in range(NUM_ACTIONS):
            shown = format_action(played)
        else:
            shown = f"outside 0..{NUM_ACTIONS - 1}"
        super().__init__(
            f"agent {spec!r} in seat {seat_name(seat)} played action {action!r} ({shown}), "
            f"which is not legal: the legal actions were {list(legal)} ({format_actions(legal)})"
        )

    def __reduce__(self) -> tuple[type, tuple[str, int, object, tuple[int, ...]]]:
        # Rebuilt from its arguments when it crosses from a worker process.
        return (type(self), (self.spec, self.seat, self.action, self.legal))


@dataclass(frozen=True)
class MatchPlay:
    """Per seat 0..3, what :func:`play_agents` counted."""

    decisions: tuple[int, ...]
    """Actions the seat's agent chose."""
    think_seconds: tuple[float, ...]
    """Wall-clock time spent in its ``act`` (not reproducible)."""


def play_agents(
    state: State,
    agents: Sequence[MatchAgent],
    *,
    on_action: Callable[[State, int], None] | None = None,
) -> MatchPlay:
    """Play ``state`` to the end with ``agents[seat]`` acting for each seat.

    Each agent gets a :class:`Turn` (determinizations only if it
    ``uses_search``); an action that is not one of its legal actions raises
    :class:`IllegalAgentActionError` before anything is applied.
    ``on_action(state, action)`` is called after each action is applied.
    """
    decisions = [0] * NUM_SEATS
    think = [0.0] * NUM_SEATS
    while not state.is_over:
        seat = state.current_player
        agent = agents[seat]
        turn = Turn(state, seat, search_allowed=agent.uses_search)
        start = time.perf_counter()
        action = agent.act(turn)
        think[seat] += time.perf_counter() - start
        decisions[seat] += 1
        chosen = action_id(action)
        if chosen is None or chosen not in turn.legal_actions:
            raise IllegalAgentActionError(agent.spec, seat, action, turn.legal_actions)
        apply(state, chosen)
        if on_action is not None:
            on_action(state, chosen)
    return MatchPlay(decisions=tuple(decisions), think_seconds=tuple(think))


def action_id(action: object) -> int | None:
    """``action`` as an ``int`` if it is an integer (numpy's too) but not a ``bool``."""
    if isinstance(action, bool) or not isinstance(action, SupportsIndex):
        return None
    return operator.index(action)


__all__ = ["IllegalAgentActionError", "MatchAgent", "MatchPlay", "action_id", "play_agents"]
