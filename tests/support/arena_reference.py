"""The readable definition of an arena game, which :func:`arena.batched.play_batch` equals.

:func:`play_game` plays a :class:`~arena.play.GameTask`'s match on the
one-match engine (:func:`env121.engine.game.new_game`), each seat's agent
(copy ``k`` of its spec from the :class:`~arena.play.AgentCache`, reset with
the seat's seed) asked every decision by
:func:`env121.play.match.play_agents`, and counts its
:class:`~arena.play.GameRecord` from the match's results and events. The
arena plays every game on the compiled engine instead, and
``tests/arena/test_batched.py`` checks the two records equal (thinking time
aside) for batched policies, turn-by-turn agents, the oracle and mixed tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from arena.play import AgentCache, GameRecord, GameTask, SeatRecord
from env121.engine.game import new_game
from env121.engine.state import NUM_SEATS, Dealt, NhatBanDeclared, Outcome, State, SwapKind, Swapped
from env121.play.match import play_agents
from env121.play.protocol import Agent


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
