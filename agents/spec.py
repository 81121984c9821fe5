"""The grammar of an agent spec: ``name`` or ``name:key=value,…``.

:func:`canonical_spec` writes the one spelling of a spec that every built
agent carries as its ``spec`` (keys sorted, booleans lower case), so
``make_agent(agent.spec)`` rebuilds an equal agent; :mod:`agents.registry`
parses specs against the registered agents.
"""

from __future__ import annotations

from typing import Any

from env121.extras import MissingExtraError, require_extra


class AgentSpecError(ValueError):
    """An agent spec names no registered agent or has a bad parameter."""


class NoBatchedForm(ValueError):
    """An agent whose batched form cannot play this one of its kind (a ``ppo``
    network that reads inputs only the Python agent computes): it may still sit
    in a batched engine turn by turn (:func:`agents.environments.make_batched_policy`)."""


def require_train(what: str) -> None:
    """Raise :class:`AgentSpecError` (one line naming the extra and how to
    install it) unless the ``train`` extra is installed: ``what`` needs torch."""
    try:
        require_extra("train", what)
    except MissingExtraError as error:
        raise AgentSpecError(str(error)) from None


def canonical_spec(name: str, params: dict[str, Any]) -> str:
    """``name`` or ``name:k=v,…`` with the keys sorted."""
    if not params:
        return name
    items = ",".join(f"{k}={_format(v)}" for k, v in sorted(params.items()))
    return f"{name}:{items}"


def _format(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


__all__ = ["AgentSpecError", "NoBatchedForm", "canonical_spec", "require_train"]
