"""The single-seat environment with its opponents given as agent specs.

:class:`env121.envs.single_seat.SingleSeat` takes its opponents as built
agents (or policies): it sits in the environments layer, below the agents,
and cannot build ``"greedy"`` from its name. :class:`SingleSeat` here is the
same environment one layer up, where the registry is at hand: each opponent
may also be a spec of :func:`agents.registry.make_agent`::

    SingleSeat(opponents="greedy")
    SingleSeat(opponents=["mc:budget=8", "ppo:small", "random"])  # seats +1, +2, +3

It is what ``env121.SingleSeat`` and the Gymnasium id ``env121/SingleSeat-v1``
(:mod:`env121.registration`) build, so ``gym.make("env121/SingleSeat-v1",
opponents="greedy")`` works. One spec given for all three seats builds one
agent that plays them all, as one agent object given does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.registry import make_agent
from env121.envs import single_seat
from env121.envs.single_seat import Opponent

OpponentSpec = Opponent | str
"""An opponent of :class:`env121.envs.single_seat.SingleSeat`, or an agent spec."""


class SingleSeat(single_seat.SingleSeat):
    """:class:`env121.envs.single_seat.SingleSeat` whose opponents may be agent
    specs: ``opponents`` is ``None`` (random players), one opponent or spec for
    the three other seats, or a sequence of three for the seats after the
    learner in turn order. Every other argument is the base class's."""

    def __init__(
        self, opponents: OpponentSpec | Sequence[OpponentSpec] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(build_opponents(opponents), **kwargs)


def build_opponents(
    opponents: OpponentSpec | Sequence[OpponentSpec] | None,
) -> Opponent | list[Opponent] | None:
    """``opponents`` with every agent spec built by :func:`agents.registry.make_agent`
    (a bad spec raises its :class:`~agents.spec.AgentSpecError`); anything else
    is left for :class:`~env121.envs.single_seat.SingleSeat` to check."""
    if isinstance(opponents, str):
        return make_agent(opponents)
    if isinstance(opponents, Sequence):
        return [make_agent(o) if isinstance(o, str) else o for o in opponents]
    return opponents


__all__ = ["OpponentSpec", "SingleSeat", "build_opponents"]
