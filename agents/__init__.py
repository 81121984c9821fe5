"""Agents for 121: the protocol, the registry and the built-in players.

* :mod:`agents.protocol` — :class:`Agent`: ``act(turn) -> action id``;
* :mod:`agents.registry` — :func:`make_agent` (``"random"``, ``"greedy"``,
  ``"mc:budget=200"``, …), :func:`available_agents`, :func:`register`;
* the players: :mod:`agents.random_agent`, :mod:`agents.greedy`, :mod:`agents.mc`.
"""

from agents.protocol import Agent
from agents.registry import AgentSpecError, available_agents, make_agent, register

__all__ = ["Agent", "AgentSpecError", "available_agents", "make_agent", "register"]
