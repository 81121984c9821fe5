"""Test agents for the arena tests, registered on import.

``coin`` and ``dice`` are uniformly random players under other names (so a
round-robin pool can hold distinct agents without slow ones); ``cheat`` plays
an action that is not legal; ``snail`` is random but thinks 2 ms a decision
and has no batched form, so its games are played one by one and slowly enough
to be stopped half-way (the kill tests). Registered at import, so worker processes forked
by the arena know them too.
"""

from __future__ import annotations

import time

from agents.registry import available_agents, register
from env121.engine.actions import NUM_ACTIONS
from env121.play.random_agent import RandomAgent
from env121.play.turn import Turn


class CheatAgent(RandomAgent):
    """Plays the lowest action id that is not legal."""

    def act(self, turn: Turn) -> int:
        legal = set(turn.legal_actions)
        return next(a for a in range(NUM_ACTIONS) if a not in legal)


class SnailAgent(RandomAgent):
    """A random player that takes 2 ms a decision."""

    def act(self, turn: Turn) -> int:
        time.sleep(0.002)
        return super().act(turn)


def register_test_agents() -> None:
    """Register ``coin``, ``dice``, ``cheat`` and ``snail`` unless already there."""
    known = available_agents()
    agents = {"coin": RandomAgent, "dice": RandomAgent, "cheat": CheatAgent, "snail": SnailAgent}
    for name, factory in agents.items():
        if name not in known:
            register(name, factory, f"test agent {name}")


register_test_agents()
