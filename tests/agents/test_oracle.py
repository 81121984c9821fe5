"""The ``oracle``: mc's search on the true state, a diagnostic that sees all hands."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_agent
from agents.mc import MCAgent
from agents.oracle import OracleAgent
from apps.cli.game import seat_agents
from apps.web.config import ConfigError, ServerConfig, agent_menu
from arena.tournament import plan_tournament
from env121.engine.game import apply, kernel_record, new_game
from env121.envs.single_seat import SingleSeat
from env121.play.match import play_agents
from env121.play.protocol import UnfairAgentError, require_fair, sees_all_hands
from env121.play.turn import DeterminizationNotGranted, Turn


def test_the_oracle_is_mc_whose_determinizations_are_the_true_state(monkeypatch):
    # mc with every determinization replaced by the true state: its samples
    # are identical, so it takes the best plan on the true state, as the oracle,
    # and sees the same gains, each exact.
    def true_worlds(turn, seed, first, count):
        return np.repeat(kernel_record(turn.true_state()), count)

    monkeypatch.setattr(Turn, "worlds", true_worlds)
    oracle, mc, greedy = OracleAgent(), MCAgent(budget=12), make_agent("greedy")
    decisions = departures = 0
    for seed in range(3):
        state = new_game(seed)
        while not state.is_over:
            seat = state.current_player
            turn = Turn(state, seat, search_allowed=True, true_state_allowed=True)
            action = greedy.act(turn)
            if seat == 0:
                judged, mine = oracle.judge(turn), mc.judge(turn)
                chosen = judged.action
                assert chosen == mine.action, f"seed {seed}, action {len(state.actions)}"
                if judged.searched is not None:  # exact gains: mc's ±1e15 errors, the oracle's ±inf
                    assert mine.searched is not None
                    np.testing.assert_allclose(judged.searched.gains, mine.searched.gains)
                    z, mine_z = judged.searched.z, mine.searched.z
                    assert np.array_equal(np.sign(z), np.sign(mine_z))
                    assert np.isinf(z[z != 0]).all() and (np.abs(mine_z[z != 0]) > 1e6).all()
                decisions += 1
                departures += chosen != action
            apply(state, action)
    assert decisions > 100
    assert departures > 0  # it does leave greedy's plan where the true state says so


def test_only_diagnostic_agents_are_shown_the_true_state():
    state = new_game(0)
    with pytest.raises(DeterminizationNotGranted, match="does not show it"):
        Turn(state, state.current_player, search_allowed=True).true_state()
    oracle = make_agent("oracle:chain=true")
    assert isinstance(oracle, OracleAgent) and oracle.spec == "oracle:chain=true"
    assert sees_all_hands(oracle) and not sees_all_hands(make_agent("mc"))
    play_agents(new_game(1), [oracle, *(make_agent("greedy") for _ in range(3))])


def test_the_oracle_is_refused_where_a_fair_player_is_expected():
    oracle = make_agent("oracle")
    require_fair(make_agent("greedy"), "anywhere")
    with pytest.raises(UnfairAgentError, match=r"'oracle' sees all hands .* beside a person"):
        require_fair(oracle, "beside a person")
    with pytest.raises(UnfairAgentError, match="a learner trains against"):
        SingleSeat(opponents=[make_agent("greedy"), oracle, make_agent("greedy")])
    with pytest.raises(ValueError, match=r"seat S2: 'oracle' sees all hands .* beside --human"):
        seat_agents(["greedy", "oracle", "greedy"], seats=(1, 2, 3))
    assert len(seat_agents(["greedy", "oracle", "greedy", "mc"])) == 4  # agents only: allowed
    with pytest.raises(ConfigError, match=r"agents: 'oracle' sees all hands .* web table"):
        agent_menu(ServerConfig(agents=("greedy", "oracle")))


def test_tables_label_the_oracle():
    plan = plan_tournament(matchups=[("oracle", "greedy")], deals=1)
    assert plan.names["oracle"] == "oracle (sees all hands)"
    assert plan.names["greedy"] == "greedy"
    assert "oracle (sees all hands)" in plan.names[plan.schedule.groups[0].name]
