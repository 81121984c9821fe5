"""The grammar of an agent spec: ``name`` or ``name:key=value,…``.

:func:`canonical_spec` writes the one spelling of a spec that every built
agent carries as its ``spec`` (keys sorted, booleans lower case), so
``make_agent(agent.spec)`` rebuilds an equal agent; :mod:`agents.registry`
parses specs against the registered agents.
"""

from __future__ import annotations

from typing import Any


class AgentSpecError(ValueError):
    """An agent spec names no registered agent or has a bad parameter."""


class NoBatchedForm(ValueError):
    """An agent whose batched form cannot play this one of its kind (a ``ppo``
    network that reads inputs only the Python agent computes): it may still sit
    in a batched engine turn by turn (:func:`agents.environments.make_batched_policy`)."""


def canonical_spec(name: str, params: dict[str, Any]) -> str:
    """``name`` or ``name:k=v,…`` with the keys sorted."""
    if not params:
        return name
    items = ",".join(f"{k}={_format(v)}" for k, v in sorted(params.items()))
    return f"{name}:{items}"


def _format(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


__all__ = ["AgentSpecError", "NoBatchedForm", "canonical_spec"]
