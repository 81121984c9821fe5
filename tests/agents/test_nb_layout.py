"""``mc:nb_layout=greedy``: greedy as the model of the opponents' Nhất Bản in
the search's worlds.

Each world the agent plays (:meth:`agents.mc.MCAgent.draw`) must be the
kernel's world (:meth:`env121.play.turn.Turn.worlds`) with every other
declarer's arrangement replaced by the one the readable greedy
(``tests/support/greedy.py``) lays out for the drawn hand, judged from that
declarer's view of the world; a world is kept exactly where the readable
greedy would declare Nhất Bản with every such hand, and the search weighs
the kept worlds alone (:meth:`~agents.mc.MCAgent.belief`).
"""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.batched_greedy import lay_out_nhat_ban
from agents.mc import MCAgent
from agents.spec import AgentSpecError
from env121.engine.game import apply, kernel_config_of, new_game, state_of_record
from env121.engine.state import NUM_SEATS, Phase, State
from env121.engine.view import observe
from env121.play.turn import Turn
from tests.support.greedy import GreedyAgent
from tests.support.knowledge import HandJudge

WORLDS = 8


def decisions_facing_nhat_ban(seed: int, count: int) -> list[tuple[State, int]]:
    """Along greedy play, ``count`` offers to a seat while another seat's
    Nhất Bản arrangement is fixed."""
    greedy = GreedyAgent()
    state = new_game(seed)
    found: list[tuple[State, int]] = []
    while not state.is_over and len(found) < count:
        seat = state.current_player
        turn = Turn(state, seat)
        fixed = [s for s in range(NUM_SEATS) if s != seat and state.nb_arrangement[s]]
        if state.phase == Phase.OFFER and fixed and len(turn.legal_actions) > 1:
            found.append((state.clone(), seat))
        apply(state, greedy.act(turn))
    return found


CASES = decisions_facing_nhat_ban(26112, 12) + decisions_facing_nhat_ban(40, 12)


def test_worlds_lay_out_each_declarer_as_the_readable_greedy_would() -> None:
    agent, greedy = MCAgent(nb_layout="greedy"), GreedyAgent()
    laid_out = rejected = 0
    for state, seat in CASES:
        turn = Turn(state, seat, search_allowed=True)
        worlds, kept = agent.draw(turn, 11, 0, WORLDS)
        drawn = turn.worlds(11, 0, WORLDS)
        for w in range(WORLDS):
            world = state_of_record(worlds[w : w + 1], state.config)
            plain = state_of_record(drawn[w : w + 1], state.config)
            assert world.hands == plain.hands and world.noc == plain.noc
            declares = True
            for s in range(NUM_SEATS):
                if s == seat or not world.nb_arrangement[s]:
                    assert world.nb_arrangement[s] == plain.nb_arrangement[s]
                    continue
                judge = HandJudge(observe(world, s), state.config)
                plan = greedy.best_arrangement(judge)
                assert plan is not None
                assert world.nb_arrangement[s] == plan[0], (seat, s, w)
                laid_out += world.nb_arrangement[s] != plain.nb_arrangement[s]
                declares = declares and greedy.nhat_ban_plan(judge) is not None
            assert kept[w] == declares, (seat, w)
            rejected += not declares
    assert len(CASES) == 24 and laid_out > 50 and rejected > 5, (laid_out, rejected)


def test_a_declarer_needs_greedys_number_of_waits() -> None:
    """No drawn hand waits on a thousand cards: greedy asking that many
    declares with none, and every world facing a declarer is rejected."""
    for state, seat in CASES[:4]:
        worlds = Turn(state, seat, search_allowed=True).worlds(11, 0, WORLDS)
        kept = np.ones(WORLDS, dtype=np.bool_)
        lay_out_nhat_ban(worlds, seat, kernel_config_of(state.config), 1000, kept)
        assert not kept.any()


def test_the_search_weighs_the_kept_worlds_alone() -> None:
    agent = MCAgent(nb_layout="greedy")
    for state, seat in CASES[:6]:
        turn = Turn(state, seat, search_allowed=True)
        likelihoods = agent.belief(turn, 11)
        assert likelihoods is not None
        results, likelihood = agent.look_at(turn, agent.plans(turn), 11, 3, WORLDS, likelihoods)
        worlds, kept = agent.draw(turn, 11, 3, WORLDS)
        np.testing.assert_array_equal(likelihood, kept.astype(np.float64))
        assert (results == agent.play(worlds, seat, agent.plans(turn), state.config)).all()
    # with no opponent in Nhất Bản every world weighs the same
    state = new_game(3)
    assert agent.belief(Turn(state, state.current_player, search_allowed=True), 11) is None
    # and the uniform layout keeps every world as drawn
    state, seat = CASES[0]
    turn = Turn(state, seat, search_allowed=True)
    worlds, kept = MCAgent().draw(turn, 11, 0, WORLDS)
    assert worlds.tobytes() == turn.worlds(11, 0, WORLDS).tobytes() and kept.all()


def test_a_bad_layout_is_one_line_before_any_game() -> None:
    with pytest.raises(ValueError, match="nb_layout='random' is not valid: expected one of"):
        MCAgent(nb_layout="random")
    with pytest.raises(AgentSpecError, match="nb_layout"):
        make_agent("mc:nb_layout=random")
    assert make_agent("mc:nb_layout=greedy").greedy_layouts  # type: ignore[attr-defined]
