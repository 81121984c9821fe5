"""Agents for 121: the protocol, the registry and the built-in players.

* :mod:`env121.play.protocol` — :class:`Agent`: ``act(turn) -> action id``;
* :mod:`agents.registry` — :func:`make_agent` (``"random"``, ``"greedy"``,
  ``"mc:budget=200"``, …), :func:`available_agents`, :func:`register`;
* the players: :mod:`env121.play.random_agent`, :mod:`agents.greedy`, :mod:`agents.mc`,
  and the diagnostic that sees all hands, :mod:`agents.oracle`;
* :class:`SingleSeat` — the gymnasium environment of one learning seat, its
  opponents given as agents or specs (:mod:`agents.environments`).
"""

from agents.environments import SingleSeat
from agents.registry import AgentSpecError, available_agents, make_agent, register
from env121.play.protocol import Agent

__all__ = ["Agent", "AgentSpecError", "SingleSeat", "available_agents", "make_agent", "register"]
