"""The built-in agents, registered by name on first use of :mod:`agents.registry`."""

from __future__ import annotations

from agents.random_agent import RandomAgent
from agents.registry import register


def register_all() -> None:
    """Register ``random``, ``greedy`` and ``mc``."""
    register("random", RandomAgent, "uniformly random legal actions")


__all__ = ["register_all"]
