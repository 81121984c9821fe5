"""The one match loop: :func:`play_agents` seats an agent in every seat and plays.

It plays a :class:`~env121.engine.state.State` to the end (or until a stop
condition), asking ``agents[seat]`` — agents of :class:`env121.play.protocol.Agent`
— for the action of each seat to act. The arena, ``env121 play`` (agents or
random players), :func:`env121.play.random_agent.random_match`, imitation's
demonstrations, the tests and the benchmarks all play through it. Each agent
gets a :class:`~env121.play.turn.Turn` granting determinizations only if it
searches; every returned action is checked, and an illegal one raises
:class:`IllegalAgentActionError`. The loop counts each seat's decisions and
the wall-clock time it spent in ``act`` (:class:`MatchPlay`). When the match
ends, an agent with the optional ``match_over`` method is handed the end as its
seat saw it (:class:`~env121.play.turn.MatchOver`). Resetting the agents is the
caller's job. One agent object may sit in several seats: the
random players of ``env121 play --seed`` are one ``RandomAgent``, so the four
seats draw from one generator.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import SupportsIndex

from env121.engine.actions import NUM_ACTIONS, format_action, format_actions
from env121.engine.game import apply
from env121.engine.render import seat_name
from env121.engine.state import NUM_SEATS, State
from env121.play.protocol import Agent, sees_all_hands
from env121.play.turn import MatchOver, Turn


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
    agents: Sequence[Agent],
    *,
    until: Callable[[State], bool] | None = None,
    on_action: Callable[[State, int], None] | None = None,
) -> MatchPlay:
    """Play ``state`` in place with ``agents[seat]`` acting for each seat, to
    the end of the match or until ``until(state)`` is true (checked before
    every action).

    Each agent gets a :class:`Turn` (determinizations only if it
    ``uses_search``); an action that is not one of its legal actions raises
    :class:`IllegalAgentActionError` before anything is applied.
    ``on_action(state, action)`` is called after each action is applied.
    When the match has ended, each seat's agent that has a ``match_over``
    method is called with that seat's :class:`~env121.play.turn.MatchOver`.
    """
    decisions = [0] * NUM_SEATS
    think = [0.0] * NUM_SEATS
    while not state.is_over and (until is None or not until(state)):
        seat = state.current_player
        agent = agents[seat]
        turn = Turn(
            state,
            seat,
            search_allowed=agent.uses_search,
            true_state_allowed=sees_all_hands(agent),
        )
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
    if state.is_over:
        for seat, agent in enumerate(agents):
            match_over = getattr(agent, "match_over", None)
            if match_over is not None:
                match_over(MatchOver(state, seat))
    return MatchPlay(decisions=tuple(decisions), think_seconds=tuple(think))


def action_id(action: object) -> int | None:
    """``action`` as an ``int`` if it is an integer (numpy's too) but not a ``bool``."""
    if type(action) is int:  # the common case, without the slow protocol check
        return action
    if isinstance(action, bool) or not isinstance(action, SupportsIndex):
        return None
    return operator.index(action)


__all__ = ["IllegalAgentActionError", "MatchPlay", "action_id", "play_agents"]
