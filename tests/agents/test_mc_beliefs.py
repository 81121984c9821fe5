"""``mc:beliefs=greedy`` and ``mc:beliefs=scratch``: the search's worlds
weighted by the opponents' play, under greedy's policy or the shipped network's.

The agent reads the vòng's decisions on a card on offer through
:meth:`env121.play.turn.Turn.offer_decisions` (each state before a decision
as the seat could know it then) and weighs its kernel-drawn worlds with
:func:`agents.beliefs.world_likelihoods`. Its weights must equal the
definition's fed the *true* history, as ``benchmarks/belief_likelihood.py``
feeds it (``tests/agents/test_beliefs.py`` holds that definition to a
brute-force posterior), world by world; the states it is shown must tell
the seat exactly what it knew then and nothing of what it did not; and the
weighted gains must be the plain ones when every world weighs the same.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.beliefs import greedy_model, observed_decisions, world_likelihoods
from agents.environments import make_batched_policy
from agents.greedy import GreedyAgent
from agents.mc import BELIEF_EPSILON, MCAgent, best_gain, plan_gains
from agents.ppo import network_model
from agents.spec import AgentSpecError
from env121.engine.game import apply, kernel_record, new_game, state_of_record
from env121.engine.state import Phase, State
from env121.engine.view import observe
from env121.play.turn import DeterminizationNotGranted, Turn

SEAT = 0
SEED = 16
"""A greedy game whose first two vòng have seat 0 decide on offers after
several opponent decisions."""
WORLDS = 24


def seat_turns(seed: int) -> list[tuple[State, list[tuple[State, int]]]]:
    """Seat 0's decisions on a card on offer in the first two vòng of a greedy
    game: each true state (a copy) with the vòng's true history before it."""
    greedy, state = GreedyAgent(), new_game(seed)
    history: list[tuple[State, int]] = []
    turns = []
    while state.vong < 2 and not state.is_over:
        if history and history[-1][0].vong != state.vong:
            history = []  # a new vòng: its own decisions only
        if state.current_player == SEAT and state.phase == Phase.OFFER:
            turns.append((state.clone(), list(history)))
        action = greedy.act(Turn(state, state.current_player))
        history.append((state.clone(), action))
        apply(state, action)
    return turns


TURNS = seat_turns(SEED)


def test_the_case_has_opponent_decisions_to_read() -> None:
    judged = [len(observed_decisions(history, SEAT)) for _, history in TURNS]
    assert max(judged) >= 4
    assert {state.vong for state, _ in TURNS} == {0, 1}


@pytest.mark.parametrize("index", range(len(TURNS)))
def test_offer_decisions_show_what_the_seat_knew_then_and_no_more(index: int) -> None:
    state, history = TURNS[index]
    shown = Turn(state, SEAT, search_allowed=True).offer_decisions()
    truth = [(before, action) for before, action in history if before.phase == Phase.OFFER]
    assert [action for _, action in shown] == [action for _, action in truth]
    for (before, _), (true_before, _) in zip(shown, truth, strict=True):
        assert observe(before, SEAT) == observe(true_before, SEAT)
    redrawn = [
        before.hands[s] != true_before.hands[s]
        for (before, _), (true_before, _) in zip(shown, truth, strict=True)
        for s in range(1, 4)
    ]
    assert not truth or any(redrawn)  # the opponents' hidden cards are drawn again


MODELS = {"greedy": greedy_model, "scratch": network_model}
"""Each ``beliefs`` model, made as the definition is fed it."""


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("index", range(len(TURNS)))
def test_the_agents_likelihoods_are_the_definitions_on_the_true_history(
    index: int, model: str
) -> None:
    state, history = TURNS[index]
    turn = Turn(state, SEAT, search_allowed=True)
    agent = MCAgent(beliefs=model)
    seed = 1234 + index
    likelihoods = agent.belief(turn, seed)
    decisions = observed_decisions(history, SEAT)
    if not decisions:
        assert likelihoods is None
        return
    assert likelihoods is not None
    worlds = turn.worlds(seed, 0, WORLDS)
    states = [state_of_record(worlds[w : w + 1], state.config) for w in range(WORLDS)]
    expected = world_likelihoods(states, state, decisions, MODELS[model](), BELIEF_EPSILON)
    got = likelihoods(*agent.draw(turn, seed, 0, WORLDS))
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)
    assert len(set(expected.tolist())) > 1  # the worlds are told apart
    later = likelihoods(*agent.draw(turn, seed, 5, 3))
    np.testing.assert_allclose(later, expected[5:8], rtol=1e-12, atol=0)


def test_offer_decisions_need_a_search_grant_and_a_past() -> None:
    state, _ = TURNS[-1]
    with pytest.raises(DeterminizationNotGranted, match="search"):
        Turn(state, SEAT).offer_decisions()
    from_record = state_of_record(kernel_record(state), state.config)
    with pytest.raises(ValueError, match="no past to replay"):
        Turn(from_record, SEAT, search_allowed=True).offer_decisions()


def test_an_agent_that_reads_the_past_does_not_sit_turn_by_turn() -> None:
    with pytest.raises(AgentSpecError, match="past"):
        make_batched_policy("mc:beliefs=greedy")
    make_batched_policy("mc")  # the plain search still does


def test_equal_weights_give_the_plain_gains() -> None:
    rng = np.random.default_rng(0)
    results = rng.normal(size=(10, 4))
    even = np.full(10, 0.1)
    for got, plain in zip(plan_gains(results, even), plan_gains(results), strict=True):
        np.testing.assert_allclose(got, plain, rtol=1e-9)
    assert best_gain(results, even) == pytest.approx(best_gain(results))


def test_weights_count_only_the_worlds_they_weigh() -> None:
    results = np.array([[0.0, 3.0], [1.0, 2.0], [5.0, -40.0], [0.0, 90.0]])
    half = np.array([0.5, 0.5, 0.0, 0.0])
    mean, z = plan_gains(results, half)
    plain_mean, plain_z = plan_gains(results[:2])
    assert mean.tolist() == plain_mean.tolist() == [0.0, 2.0]
    assert z[1] == pytest.approx(plain_z[1])  # gains 3 and 1: mean 2, error 1 → z = 2
    assert z[1] == pytest.approx(2.0)
    best, z_best = best_gain(results, half)
    assert best == 1
    assert z_best == pytest.approx(2.0)
    one = np.array([0.0, 0.0, 0.0, 1.0])  # one world's worth of weight: no evidence
    assert best_gain(results, one) == (1, 0.0)


@pytest.mark.parametrize(
    ("params", "named"),
    [({"beliefs": "ppo"}, "beliefs"), ({"epsilon": 0.0}, "epsilon"), ({"epsilon": 1.5}, "epsilon")],
)
def test_bad_belief_options_are_refused(params: dict[str, object], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        MCAgent(**params)  # type: ignore[arg-type]


def test_it_plays_a_tournament_on_the_arenas_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The arena seats it whole (it reads the past) and its worlds are weighed
    there: every game of its line-up is played, and its belief was read."""
    from arena import run_tournament
    from env121.rules.config import RuleConfig

    read = []
    belief = MCAgent.belief

    def counted(agent: MCAgent, turn: Turn, seed: int) -> object:
        likelihoods = belief(agent, turn, seed)
        read.append(likelihoods is not None)
        return likelihoods

    monkeypatch.setattr(MCAgent, "belief", counted)
    result = run_tournament(
        matchups=[("mc:beliefs=greedy,budget=12,look=12", "greedy")],
        deals=1,
        seed=38,
        config=RuleConfig(num_van=1),
    )
    assert sorted(game.rotation for game in result.games) == [0, 1, 2, 3]
    assert sum(read) >= 4  # weighed worlds, not only the vòng's first offers
