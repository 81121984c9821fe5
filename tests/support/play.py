"""States met in seeded random play: the shared source of test positions.

Tests of the engine, the observation, the agents and the trained policies
need many realistic positions; they all draw them here, from matches played
by the seeded random players (:func:`env121.play.random_agent.random_players`)
through the one match loop, so a failing position is reproducible from its
seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from agents.greedy import GreedyAgent
from agents.mc import MCAgent, Plan
from env121.engine.actions import PASS, U
from env121.engine.game import apply, new_game
from env121.engine.state import Phase, State
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.play.turn import Turn
from env121.rules.config import RuleConfig
from env121.rules.wins import the_trang_eligible


def random_play_states(
    seeds: int | Iterable[int],
    config: RuleConfig | None = None,
    *,
    limit: int,
    every: int = 1,
    keep: Callable[[State], bool] | None = None,
) -> list[State]:
    """Copies of the states after every ``every``-th action of random matches
    (one per seed, dealt and played from it) that are not over and that
    ``keep`` accepts; at most ``limit`` from each seed."""
    found: list[State] = []
    for seed in [seeds] if isinstance(seeds, int) else seeds:
        taken: list[State] = []

        def take(state: State, _action: int, taken: list[State] = taken) -> None:
            wanted = len(state.actions) % every == 0 and not state.is_over
            if wanted and (keep is None or keep(state)):
                taken.append(state.clone())

        def enough(_state: State, taken: list[State] = taken) -> bool:
            return len(taken) >= limit

        play_agents(new_game(seed, config), random_players(seed), until=enough, on_action=take)
        found += taken
    return found


def random_play_turns(count: int, seed: int = 0) -> list[Turn]:
    """``count`` turns of the seat to act in states of random play, from as
    many seeds (``seed``, ``seed + 1``, …) as it takes."""
    turns: list[Turn] = []
    while len(turns) < count:
        states = random_play_states(seed, limit=count - len(turns))
        turns += [Turn(state, state.current_player) for state in states]
        seed += 1
    return turns


def first_offer_decision(agent: MCAgent, seed: int = 1) -> tuple[Turn, list[Plan]]:
    """The first turn of match ``seed``, along greedy play, where the searching
    ``agent`` (``mc``, ``search``) weighs more than two first moves, and its plans."""
    greedy = GreedyAgent()
    state = new_game(seed)
    while True:
        turn = Turn(state, state.current_player, search_allowed=True)
        if state.phase == Phase.OFFER and U not in turn.legal_actions:
            plans = agent.plans(turn)
            if len({action for action, _ in plans}) > 2:
                return turn, plans
        apply(state, greedy.act(turn))


def past_the_trang(state: State) -> State:
    """``state`` after every seat has passed on Thế trắng, when none may declare it.

    Every vòng opens with the Thế trắng question to all four seats; a scripted
    deal in which no hand is eligible then starts at the dealer's first flip.
    A deal with an eligible hand is left in the question, for the test to play.
    """
    if state.phase == Phase.THE_TRANG and not any(
        the_trang_eligible(state.hands[s]) for s in state.ask_order
    ):
        while state.phase == Phase.THE_TRANG:
            apply(state, PASS)
    return state
