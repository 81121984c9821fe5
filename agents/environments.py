"""The single-seat environment with its opponents given as agent specs.

:class:`env121.envs.single_seat.SingleSeat` takes its opponents as built
agents (or policies): it sits in the environments layer, below the agents,
and cannot build ``"greedy"`` from its name. :class:`SingleSeat` here is the
same environment one layer up, where the registry is at hand: each opponent
may also be a spec of :func:`agents.registry.make_agent`::

    SingleSeat(opponents="greedy")
    SingleSeat(opponents=["mc:budget=8", "ppo:small", "random"])  # seats +1, +2, +3

It is what ``agents.SingleSeat`` and the Gymnasium id ``env121/SingleSeat-v1``
(:mod:`env121.registration`) build, so ``gym.make("env121/SingleSeat-v1",
opponents="greedy")`` works. One spec given for all three seats builds one
agent that plays them all, as one agent object given does.

:class:`VectorSingleSeat` is the same for the batched vector environment
(:class:`env121.envs.vector.VectorSingleSeat`), the id's vector entry point::

    envs = gym.make_vec("env121/SingleSeat-v1", num_envs=64,
                        vectorization_mode="vector_entry_point", opponents="greedy")

Its opponents are batched policies, built from specs by
:func:`make_batched_policy` from each agent's registry entry
(:class:`agents.registry.AgentEntry`): ``"random"``, ``"greedy"``
(:class:`agents.batched_greedy.BatchedGreedy`), ``"ppo:…"``
(:class:`agents.batched_ppo.BatchedPPO`), a deterministic ``"sb3:…"``, an
``import:`` batched policy, and ``"mc…"`` (the agent itself, one game at a
time: :class:`env121.play.batched_policy.TurnByTurn`). The
``program:`` and ``import:`` agents, owed each match whole, have a batched
form only for a caller that shows them their games whole
(``make_batched_policy(spec, whole_matches=True)``,
:class:`env121.play.batched_policy.WholeMatches`: the batched trainer and
its evaluations); the vector environment is not one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.registry import agent_entry, available_agents, make_agent, parse_spec
from agents.spec import AgentSpecError, NoBatchedForm, canonical_spec
from env121.envs import single_seat, vector
from env121.envs.single_seat import Opponent
from env121.play.batched_policy import BatchedPolicy, TurnByTurn, WholeMatches

OpponentSpec = Opponent | str
"""An opponent of :class:`env121.envs.single_seat.SingleSeat`, or an agent spec."""
BatchedOpponentSpec = BatchedPolicy | str
"""An opponent of :class:`env121.envs.vector.VectorSingleSeat`, or an agent spec."""


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


class VectorSingleSeat(vector.VectorSingleSeat):
    """:class:`env121.envs.vector.VectorSingleSeat` whose opponents may be
    agent specs that sit in a batched engine (:func:`make_batched_policy`): ``opponents``
    is ``None`` (random players), one batched policy or spec for the three
    other seats, or a sequence of three. Every other argument is the base class's."""

    def __init__(
        self,
        num_envs: int = 64,
        opponents: BatchedOpponentSpec | Sequence[BatchedOpponentSpec] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(num_envs, build_batched_opponents(opponents), **kwargs)


def batched_names() -> list[str]:
    """The agents that can sit in a batched engine: a batched policy of their own,
    or a turn at a time (:class:`~agents.registry.AgentEntry`)."""
    return sorted(
        name
        for name in available_agents()
        if agent_entry(name).batched is not None or agent_entry(name).turn_by_turn
    )


def owed_whole_matches(spec: str) -> bool:
    """Whether the agent of ``spec`` sits in a batched engine only as
    :class:`~env121.play.batched_policy.WholeMatches`: it is owed each match
    whole (``program:``, an ``import:`` agent of ``act(turn)``) and has no
    batched policy (an ``import:`` batched policy has one). A bad spec raises its
    :class:`~agents.spec.AgentSpecError`."""
    name, params = parse_spec(spec)
    entry = agent_entry(name)
    if not entry.whole_matches:
        return False
    if entry.batched is None:
        return True
    try:
        entry.batched(**params)
    except NoBatchedForm:
        return True
    except (TypeError, ValueError, OSError) as error:
        raise AgentSpecError(f"agent spec {spec!r} is not valid: {error}") from error
    return False


def make_batched_policy(
    spec: str, *, turn_by_turn: bool = True, whole_matches: bool = False
) -> BatchedPolicy:
    """The batched policy of agent spec ``spec``: parsed as
    :func:`agents.registry.make_agent` parses it (a bad spec raises its
    :class:`~agents.spec.AgentSpecError`), then its registry entry's batched
    form (:class:`~agents.registry.AgentEntry`); without one (or where that
    form refuses the spec: :class:`~agents.spec.NoBatchedForm`), with
    ``whole_matches`` as :class:`~env121.play.batched_policy.WholeMatches` for an
    agent owed its matches whole (the caller must drive it as that class says),
    or with ``turn_by_turn`` as :class:`~env121.play.batched_policy.TurnByTurn`
    for an agent that may sit a turn at a time. The arena asks with neither: it
    seats the other agents itself (:class:`arena.batched.FollowedSeats`)."""
    name, params = parse_spec(spec)
    entry = agent_entry(name)
    policy: BatchedPolicy | None = None
    refusal: NoBatchedForm | None = None
    if entry.batched is not None:
        try:
            policy = entry.batched(**params)
        except NoBatchedForm as error:
            refusal = error
        except (TypeError, ValueError, OSError) as error:  # OSError: a missing file it names
            raise AgentSpecError(f"agent spec {spec!r} is not valid: {error}") from error
    if policy is None and whole_matches and entry.whole_matches:
        try:
            return WholeMatches(lambda: make_agent(spec), canonical_spec(name, params))
        except AgentSpecError:
            raise
        except ValueError as error:  # one agent object for every seat, or one that sees all
            raise AgentSpecError(f"agent spec {spec!r} is not valid: {error}") from error
    if policy is None:
        if not (turn_by_turn and entry.turn_by_turn):
            if refusal is not None:
                raise AgentSpecError(f"agent spec {spec!r} is not valid: {refusal}") from refusal
            raise AgentSpecError(
                f"agent {name!r} (in spec {spec!r}) has no batched policy: expected one of "
                f"{batched_names() if turn_by_turn else batched_only()}; play it in the "
                "single-seat environment (gym.make_vec(..., vectorization_mode='sync' or "
                "'async'))"
            )
        agent = make_agent(spec)  # make_agent raises its own AgentSpecError
        try:
            policy = TurnByTurn(agent)
        except ValueError as error:  # it reads the match's past (mc:beliefs=greedy)
            raise AgentSpecError(f"agent spec {spec!r} is not valid: {error}") from error
    policy.spec = canonical_spec(name, params)
    return policy


def batched_only() -> list[str]:
    """The agents with a batched policy of their own."""
    return sorted(name for name in available_agents() if agent_entry(name).batched is not None)


def build_batched_opponents(
    opponents: BatchedOpponentSpec | Sequence[BatchedOpponentSpec] | None,
) -> BatchedPolicy | list[BatchedPolicy] | None:
    """``opponents`` with every agent spec built by :func:`make_batched_policy`;
    anything else is left for :class:`~env121.envs.vector.VectorSingleSeat` to check."""
    if isinstance(opponents, str):
        return make_batched_policy(opponents)
    if isinstance(opponents, Sequence):
        return [make_batched_policy(o) if isinstance(o, str) else o for o in opponents]
    return opponents


__all__ = [
    "BatchedOpponentSpec",
    "OpponentSpec",
    "SingleSeat",
    "VectorSingleSeat",
    "batched_names",
    "batched_only",
    "build_batched_opponents",
    "build_opponents",
    "make_batched_policy",
    "owed_whole_matches",
]
