"""Play one arena game and keep what the statistics need.

A :class:`GameTask` names a game by plain data — the deal, the line-up, the
rotation, each seat's agent spec and ``reset`` seed, the rules — so it can be
sent to a worker process. :func:`play_game` builds (or reuses) the agents,
plays the match with :func:`env121.play.match.play_agents` (which checks every
action the agents return and raises :class:`IllegalAgentActionError`, re-exported
here), and returns a :class:`GameRecord`: per seat its standing,
rank and the counts behind every metric (wins, Điểm won, Cướp, Nhất Bản,
Đền, decisions, thinking time). Thinking time is wall-clock, the one field of
a record that differs between two runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from agents.environments import make_batched_policy
from agents.registry import make_agent
from agents.spec import AgentSpecError
from env121.engine.game import new_game
from env121.engine.state import (
    NUM_SEATS,
    Dealt,
    MatchEnd,
    NhatBanDeclared,
    Outcome,
    State,
    SwapKind,
    Swapped,
)
from env121.play.batched_policy import BatchedPolicy
from env121.play.match import IllegalAgentActionError, play_agents
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

    def batched_policy(self, spec: str) -> BatchedPolicy | None:
        """The batched policy of ``spec``
        (:func:`agents.environments.make_batched_policy`), built on first use
        and then kept, or None if its agent has none of its own (``mc``'s
        turn-by-turn form is not one: its games are played one by one)."""
        if spec not in self._batched:
            try:
                self._batched[spec] = make_batched_policy(spec, turn_by_turn=False)
            except AgentSpecError:
                self._batched[spec] = None
        return self._batched[spec]


def game_key(game: GameTask | GameRecord) -> tuple[int, int, int]:
    """Which game of its tournament a task or record is: (deal, line-up, rotation)."""
    return (game.deal, game.lineup, game.rotation)


def play_game(task: GameTask, cache: AgentCache) -> GameRecord:
    """Play ``task``'s match to the end with agents from ``cache``."""
    agents = _seat_agents(task, cache)
    for agent, seed in zip(agents, task.agent_seeds, strict=True):
        agent.reset(seed)
    before = [Counter(getattr(agent, "faults", {})) for agent in agents]
    state = new_game(task.deal_seed, task.config)
    played = play_agents(state, agents)
    faults = [
        dict(sorted((Counter(getattr(agent, "faults", {})) - old).items()))
        for agent, old in zip(agents, before, strict=True)
    ]
    return _record(task, state, played.decisions, played.think_seconds, faults)


def _seat_agents(task: GameTask, cache: AgentCache) -> list[Agent]:
    copies: dict[str, int] = {}
    agents = []
    for spec in task.specs:
        copy = copies.get(spec, 0)
        copies[spec] = copy + 1
        agents.append(cache.get(spec, copy))
    return agents


def _record(
    task: GameTask,
    state: State,
    decisions: Sequence[int],
    think: Sequence[float],
    faults: Sequence[dict[str, int]],
) -> GameRecord:
    wins = [0] * NUM_SEATS
    win_points = [0] * NUM_SEATS
    den = [0] * NUM_SEATS
    draws = 0
    for result in state.results:
        if result.outcome.is_win:
            wins[result.seat] += 1
            win_points[result.seat] += result.points
        elif result.outcome == Outcome.DEN:
            den[result.seat] += 1
        elif result.outcome == Outcome.DRAW:
            draws += 1
    cuop = [0] * NUM_SEATS
    nhat_ban = [0] * NUM_SEATS
    first_hands: dict[int, tuple[int, ...]] = {}
    for event in state.events:
        if isinstance(event, Swapped) and event.kind == SwapKind.CUOP:
            cuop[event.seat] += 1
        elif isinstance(event, NhatBanDeclared):
            nhat_ban[event.seat] += 1
        elif isinstance(event, Dealt) and event.seat not in first_hands:
            first_hands[event.seat] = event.cards
    assert state.match_end is not None, "play_agents plays the match to its end"
    standings = state.standings()
    seats = tuple(
        SeatRecord(
            standing=standings[s],
            rank=state.ranks[s],
            wins=wins[s],
            win_points=win_points[s],
            cuop=cuop[s],
            nhat_ban=nhat_ban[s],
            den=den[s],
            decisions=decisions[s],
            think_seconds=think[s],
            faults=faults[s],
        )
        for s in range(NUM_SEATS)
    )
    return GameRecord(
        deal=task.deal,
        lineup=task.lineup,
        rotation=task.rotation,
        van=task.config.num_van,
        vong=len(state.results),
        draws=draws,
        end=state.match_end,
        seats=seats,
        first_hands=tuple(first_hands[s] for s in range(NUM_SEATS)),
    )


__all__ = [
    "AgentCache",
    "GameRecord",
    "GameTask",
    "IllegalAgentActionError",
    "SeatRecord",
    "game_key",
    "play_game",
]
