"""What an arena game is and what is kept of it.

A :class:`GameTask` names a game by plain data — the deal, the line-up, the
rotation, each seat's agent spec and ``reset`` seed, the rules — so it can be
sent to a worker process. A game is played by :func:`arena.batched.play_batch`
(the arena's one way to play), which checks every action an agent returns
(:class:`IllegalAgentActionError`, re-exported here) and makes its
:class:`GameRecord`: per seat its standing, rank and the counts behind every
metric (wins, Điểm won, Cướp, Nhất Bản, Đền, decisions, thinking time, a
``program:`` agent's faults). Thinking time is wall-clock, the one field of
a record that differs between two runs. :class:`AgentCache` keeps the agents
a process has built for its next games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.environments import make_batched_policy
from agents.registry import make_agent
from agents.spec import AgentSpecError
from env121.engine.state import (
    MatchEnd,
)
from env121.play.batched_policy import BatchedPolicy, WholeMatches
from env121.play.match import IllegalAgentActionError
from env121.play.protocol import Agent
from env121.rules.config import RuleConfig


@dataclass(frozen=True)
class GameTask:
    """One game, as plain data a worker process can receive."""

    deal: int
    """Index of the deal in the tournament (the cluster of the statistics)."""
    deal_seed: int
    lineup: int
    rotation: int
    specs: tuple[str, ...]
    """The agent spec of each seat 0..3."""
    agent_seeds: tuple[int, ...]
    """The ``reset`` seed of each seat's agent."""
    config: RuleConfig


@dataclass(frozen=True)
class SeatRecord:
    """What one seat did in one match."""

    standing: int
    """Match standing: points won or lost over the whole match."""
    rank: int
    """Final rank, 1 = best (equal standings share a rank)."""
    wins: int
    """Vòng won (Ù or Thế trắng)."""
    win_points: int
    """Điểm paid for those wins."""
    cuop: int
    """Cướp (steals) made."""
    nhat_ban: int
    """Nhất Bản declared."""
    den: int
    """Đền (invalid Ù) committed."""
    decisions: int
    think_seconds: float
    """Wall-clock time spent in ``act`` — in a batch (:mod:`arena.batched`), each
    decision's share of the call that made it (not reproducible)."""
    faults: dict[str, int] = field(default_factory=dict)
    """The faults the seat's agent counted in this match, by kind: an agent
    that keeps a ``faults`` mapping (the ``program:`` agents,
    ``docs/agent-protocol.md``); empty for every other agent."""


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game: which game it was and one :class:`SeatRecord` per seat."""

    deal: int
    lineup: int
    rotation: int
    van: int
    """Ván scheduled (``config.num_van``)."""
    vong: int
    """Vòng played (fewer than ``12 · van`` after a bust)."""
    draws: int
    """Vòng that ended with no winner."""
    end: MatchEnd
    """How the match ended."""
    seats: tuple[SeatRecord, ...]
    first_hands: tuple[tuple[int, ...], ...]
    """The five cards each seat was dealt in the first vòng (a fingerprint of the deal)."""


class AgentCache:
    """Agents built from specs, kept for the next game: ``get(spec, copy)``.

    A game with the same spec in several seats uses one agent object per
    seat (``copy`` 0, 1, …), each reset with its own seed.
    """

    def __init__(self) -> None:
        self._agents: dict[tuple[str, int], Agent] = {}
        self._batched: dict[str, BatchedPolicy | None] = {}
        self._followers: dict[str, WholeMatches] = {}

    def get(self, spec: str, copy: int = 0) -> Agent:
        """The cached agent ``copy`` of ``spec``, built on first use."""
        key = (spec, copy)
        agent = self._agents.get(key)
        if agent is None:
            agent = self._agents[key] = make_agent(spec)
        return agent

    def put(self, spec: str, agent: Agent) -> None:
        """Keep an agent already built from ``spec`` as its copy 0."""
        self._agents[(spec, 0)] = agent

    def follower(self, spec: str) -> WholeMatches:
        """The :class:`~env121.play.batched_policy.WholeMatches` of ``spec``'s agents
        (fair or not: the arena seats the ``oracle`` too), built on first use
        and then kept, so its agents serve the later games of this process; the
        agent :meth:`put` here when the tournament was planned is its first (a
        ``program:``'s process is not started again)."""
        if spec not in self._followers:
            planned = [self._agents.pop((spec, 0))] if (spec, 0) in self._agents else []

            def make() -> Agent:  # the agent built when the tournament was planned, first
                return planned.pop() if planned else make_agent(spec)

            self._followers[spec] = WholeMatches(make, spec, fair_only=False)
        return self._followers[spec]

    def batched_policy(self, spec: str) -> BatchedPolicy | None:
        """The batched policy of ``spec``
        (:func:`agents.environments.make_batched_policy`), built on first use
        and then kept, or None if its agent has none of its own (``mc``'s
        turn-by-turn form is not one: its games are batches of one)."""
        if spec not in self._batched:
            try:
                self._batched[spec] = make_batched_policy(spec, turn_by_turn=False)
            except AgentSpecError:
                self._batched[spec] = None
        return self._batched[spec]


def game_key(game: GameTask | GameRecord) -> tuple[int, int, int]:
    """Which game of its tournament a task or record is: (deal, line-up, rotation)."""
    return (game.deal, game.lineup, game.rotation)


__all__ = [
    "AgentCache",
    "GameRecord",
    "GameTask",
    "IllegalAgentActionError",
    "SeatRecord",
    "game_key",
]
