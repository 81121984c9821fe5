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
:func:`make_batched_policy`: ``"random"``, ``"greedy"``
(:class:`agents.batched_greedy.BatchedGreedy`), ``"ppo:…"``
(:class:`agents.batched_ppo.BatchedPPO`) and ``"mc…"`` (the agent itself, one
game at a time: :class:`env121.play.batched_policy.TurnByTurn`). The
``program:`` and ``import:`` agents, owed each match whole, have a batched
form only for a caller that shows them their games whole
(``make_batched_policy(spec, whole_matches=True)``,
:class:`env121.play.batched_policy.WholeMatches`: the batched trainer and
its evaluations); the vector environment is not one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agents.entries import BatchedImport
from agents.registry import make_agent, parse_spec
from agents.spec import AgentSpecError, NoBatchedForm, canonical_spec
from env121.envs import single_seat, vector
from env121.envs.single_seat import Opponent
from env121.play.batched_policy import BatchedPolicy, BatchedRandom, TurnByTurn, WholeMatches

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
    agent specs with a batched policy (:data:`BATCHED_POLICIES`): ``opponents``
    is ``None`` (random players), one batched policy or spec for the three
    other seats, or a sequence of three. Every other argument is the base class's."""

    def __init__(
        self,
        num_envs: int = 64,
        opponents: BatchedOpponentSpec | Sequence[BatchedOpponentSpec] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(num_envs, build_batched_opponents(opponents), **kwargs)


def _batched_greedy(cuop_margin: float = 4.0, nhat_ban_waits: int = 2) -> BatchedPolicy:
    from agents.batched_greedy import BatchedGreedy  # numba's kernels, loaded when used

    return BatchedGreedy(cuop_margin, nhat_ban_waits)


def _batched_ppo(checkpoint: str, deterministic: bool = True) -> BatchedPolicy:
    from agents.batched_ppo import BatchedPPO  # torch, imported when used

    return BatchedPPO(checkpoint, deterministic)


def _batched_sb3(model: str, deterministic: bool = True) -> BatchedPolicy:
    from agents.batched_ppo import BatchedSB3  # torch and sb3, imported when used

    return BatchedSB3(model, deterministic)


BATCHED_POLICIES: dict[str, Callable[..., BatchedPolicy]] = {
    "random": BatchedRandom,
    "greedy": _batched_greedy,
    "ppo": _batched_ppo,
    "sb3": _batched_sb3,
    "import": BatchedImport,
}
"""The agents of :mod:`agents.registry` that have a batched policy, by name
(built with the parameters of the agent's spec)."""

TURN_BY_TURN = frozenset({"mc", "sb3"})
"""The agents that sit in a batched engine one game at a time
(:class:`~env121.play.batched_policy.TurnByTurn`): no faster than the agent,
but a training opponent (``env121 exploit mc``). So do the ``ppo`` networks
that read the Python agents' hints (``ppo:hinted``, ``ppo:searched``), and an
``sb3:`` model that samples (``deterministic=false``; a deterministic one is
batched). An ``sb3:`` model decides on the observation alone, which a game's
record keeps; ``program:`` and ``import:`` agents may read the match's past,
which it does not, so they are not here (:data:`WHOLE_MATCHES`)."""

WHOLE_MATCHES = frozenset({"program", "import"})
"""The agents owed each match whole, from its deal and in order (a
``program:`` is sent the events since its last decision; an ``import:`` agent
may keep what it likes between decisions): in a batched engine only as a
:class:`~env121.play.batched_policy.WholeMatches`, one agent per seat of
every game, for a caller that shows them their games whole."""


def make_batched_policy(
    spec: str, *, turn_by_turn: bool = True, whole_matches: bool = False
) -> BatchedPolicy:
    """The batched policy of agent spec ``spec``: parsed as
    :func:`agents.registry.make_agent` parses it (a bad spec raises its
    :class:`~agents.spec.AgentSpecError`), then built by :data:`BATCHED_POLICIES`
    or, with ``turn_by_turn``, turn by turn (:data:`TURN_BY_TURN`, and the
    agents whose batched form refuses them: :class:`~agents.spec.NoBatchedForm`),
    or, with ``whole_matches``, as :class:`~env121.play.batched_policy.WholeMatches`
    (:data:`WHOLE_MATCHES`, unless the agent is a batched policy: an
    ``import:`` one; the caller must drive it as that class says). The arena
    asks without either: it seats the other agents a turn at a time
    (:class:`arena.batched.MatchSeats`)."""
    name, params = parse_spec(spec)
    factory = BATCHED_POLICIES.get(name)
    policy: BatchedPolicy | None = None
    refusal: NoBatchedForm | None = None
    if factory is not None:
        try:
            policy = factory(**params)
        except NoBatchedForm as error:
            refusal = error
        except (TypeError, ValueError, OSError) as error:  # OSError: a missing file it names
            raise AgentSpecError(f"agent spec {spec!r} is not valid: {error}") from error
    if policy is None and whole_matches and name in WHOLE_MATCHES:
        try:
            return WholeMatches(lambda: make_agent(spec), canonical_spec(name, params))
        except AgentSpecError:
            raise
        except ValueError as error:  # one agent object for every seat, or one that sees all
            raise AgentSpecError(f"agent spec {spec!r} is not valid: {error}") from error
    if policy is None:
        one_at_a_time = name in TURN_BY_TURN or (refusal is not None and name not in WHOLE_MATCHES)
        if not (turn_by_turn and one_at_a_time):
            if refusal is not None:
                raise AgentSpecError(f"agent spec {spec!r} is not valid: {refusal}") from refusal
            known = {*BATCHED_POLICIES, *TURN_BY_TURN} if turn_by_turn else set(BATCHED_POLICIES)
            raise AgentSpecError(
                f"agent {name!r} (in spec {spec!r}) has no batched policy: expected one of "
                f"{sorted(known)}; play it in the single-seat environment "
                "(gym.make_vec(..., vectorization_mode='sync' or 'async'))"
            )
        policy = TurnByTurn(make_agent(spec))  # make_agent raises its own AgentSpecError
    policy.spec = canonical_spec(name, params)
    return policy


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
    "BATCHED_POLICIES",
    "TURN_BY_TURN",
    "WHOLE_MATCHES",
    "BatchedOpponentSpec",
    "OpponentSpec",
    "SingleSeat",
    "VectorSingleSeat",
    "build_batched_opponents",
    "build_opponents",
    "make_batched_policy",
]
