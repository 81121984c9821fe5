"""The ``search`` agent: mc's search with a learned prior and a time budget."""

from __future__ import annotations

import numpy as np
import pytest

from agents import AgentSpecError, make_agent
from agents.ppo import PPOAgent
from agents.search import MIN_BAR, SearchAgent
from env121.engine.game import apply, new_game
from env121.play.match import play_agents
from env121.play.turn import Turn
from env121.rules.config import RuleConfig
from tests.support.play import first_offer_decision

FAST = "search:worlds=12,budget_ms=0"
"""One look a decision, no clock: quick and deterministic."""


@pytest.mark.parametrize("spec", [FAST, f"{FAST},chain=true,net=none"])
@pytest.mark.parametrize(
    "config",
    [RuleConfig(), RuleConfig(mask_invalid_win=False, nhat_ban_requires_wait=False)],
    ids=["default", "den_and_free_nhat_ban"],
)
def test_search_plays_only_legal_actions(spec, config):
    agents = [make_agent(spec), make_agent("random"), make_agent(spec), make_agent("random")]
    for seat, agent in enumerate(agents):
        agent.reset(seat)
    state = new_game(2, config)
    play_agents(state, agents)  # raises IllegalAgentActionError on an illegal action
    assert state.is_over


def test_search_is_deterministic_given_its_seed_and_rebuilt_from_its_spec():
    def actions() -> list[int]:
        agents = [make_agent(FAST), *(make_agent("greedy") for _ in range(3))]
        agents[0].reset(7)
        state = new_game(3)
        play_agents(state, agents)
        return list(state.actions)

    assert actions() == actions()
    agent = make_agent("search:budget_ms=25,net=none,prior=0.5")
    assert agent.spec == "search:budget_ms=25.0,net=none,prior=0.5"
    assert make_agent(agent.spec).spec == agent.spec


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:budget_ms=-5", r"budget_ms=-5.0 is not valid: expected ≥ 0 milliseconds"),
        ("search:prior=-1", r"prior=-1.0 is not valid: expected ≥ 0"),
        ("search:worlds=1", r"worlds=1 is not valid: expected ≥ 2"),
        ("search:net=nowhere", r"no shipped checkpoint is named 'nowhere'"),
        ("search:net=searched", r"net='searched' reads search hints"),
    ],
)
def test_bad_params_are_one_line_errors(spec, message):
    with pytest.raises(AgentSpecError, match=message) as raised:
        make_agent(spec)
    assert "\n" not in str(raised.value)


def test_the_prior_is_the_networks_masked_softmax():
    agent = SearchAgent(net="scratch")
    policy = PPOAgent("scratch")
    greedy = make_agent("greedy")
    state = new_game(4)
    checked = 0
    while not state.is_over and checked < 20:
        turn = Turn(state, state.current_player, search_allowed=True)
        if len(turn.legal_actions) > 1:
            log_pi = agent.network_prior(turn)
            assert np.isfinite(log_pi).sum() == len(turn.legal_actions)
            assert np.exp(log_pi[list(turn.legal_actions)]).sum() == pytest.approx(1.0)
            assert int(np.argmax(log_pi)) == policy.act(turn)
            checked += 1
        apply(state, greedy.act(turn))
    assert checked == 20


def z_two(count: int) -> np.ndarray:
    """``count`` gains of mean 1 that are 2 standard errors from 0 at 12 samples."""
    signs = np.where(np.arange(count) % 2 == 0, 1.0, -1.0)
    gains: np.ndarray = 1.0 + np.sqrt(11) / 2 * signs
    return gains


def test_a_plan_the_network_favours_needs_less_evidence(monkeypatch):
    """A plan 2 standard errors ahead after one look: played when the prior
    favours it (its bar is then under 2), not with the prior's weight at 0 (bar 3)."""
    chosen = {}
    target = 2

    def play(worlds, seat, plans_played, config):
        out = np.zeros((len(worlds), len(plans_played)))
        out[:, target] = z_two(len(worlds))
        return out

    for prior in (1.0, 0.0):
        agent = SearchAgent(prior=prior, worlds=12, budget_ms=0)
        turn, plans = first_offer_decision(agent)
        agent.log_pi = np.full_like(agent.log_pi, -np.inf)
        agent.log_pi[[a for a, _ in plans]] = np.log(0.01)
        agent.log_pi[plans[target][0]] = np.log(0.9)
        monkeypatch.setattr(agent, "play", play)
        bars = agent.bars(plans)
        chosen[prior] = (agent.search(turn, plans).plan, bars[target])
    assert chosen[1.0][0] == 2 and MIN_BAR <= chosen[1.0][1] < 2
    assert chosen[0.0] == (0, 3.0)


class FakeClock:
    """``time.perf_counter`` for a search whose worlds each take 1 ms."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


def test_the_time_budget_bounds_the_worlds_a_decision_plays(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr("agents.search.time", clock)
    agent = SearchAgent(net="none", worlds=10_000, budget_ms=60)
    turn, plans = first_offer_decision(agent)
    played: list[int] = []

    def play(worlds, seat, plans_played, config):
        played.append(len(worlds))
        clock.now += len(worlds) / 1000
        signs = np.where(np.arange(len(worlds)) % 2 == 0, 1.0, -1.0)
        out = np.zeros((len(worlds), len(plans_played)))
        out[:, 1] = 0.35 + signs  # ahead by 1.2 to 2.7 standard errors: never clearly
        return out

    monkeypatch.setattr(agent, "play", play)
    agent.started = clock.now
    assert agent.search(turn, plans).plan == 0
    assert played[:3] == [12, 12, 24]  # looks double until the time left cuts them
    assert 55 <= sum(played) <= 60  # 1 ms a world: within the 60 ms
