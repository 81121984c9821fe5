"""The built-in agents, registered by name on first use of :mod:`agents.registry`."""

from __future__ import annotations

from agents.greedy import GreedyAgent
from agents.mc import MCAgent
from agents.protocol import Agent
from agents.random_agent import RandomAgent
from agents.registry import AgentSpecError, register


def _ppo(checkpoint: str, deterministic: bool = True) -> Agent:
    """A trained MaskablePPO policy (torch is imported only when one is built)."""
    try:
        from agents.ppo import PPOAgent
    except ImportError as error:
        raise AgentSpecError(
            f"ppo agents need torch and safetensors ({error}): install the train extra, "
            "e.g. .venv/bin/pip install torch==2.13.0 -e '.[train]'"
        ) from None

    return PPOAgent(checkpoint, deterministic=deterministic)


def register_all() -> None:
    """Register ``random``, ``greedy``, ``mc`` and ``ppo``."""
    register("random", RandomAgent, "uniformly random legal actions")
    register("greedy", GreedyAgent, "rule based: Ù at once, swaps to the most valuable waits")
    register("mc", MCAgent, "determinized Monte Carlo anchored on greedy, fitted leaf value")
    register("ppo", _ppo, "a trained MaskablePPO checkpoint: ppo:<file.safetensors>")


__all__ = ["register_all"]
