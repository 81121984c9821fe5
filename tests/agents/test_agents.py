"""The built-in agents, their registry, and the pieces search agents use."""

from __future__ import annotations

import numpy as np
import pytest

from agents import AgentSpecError, available_agents, leaf, make_agent
from agents.mc import MCAgent, best_gain, plan_gains
from env121.engine.actions import PASS, U
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.state import Phase, State
from env121.engine.view import observe
from env121.engine.win_table import seat_win_points
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.play.turn import DeterminizationNotGranted, Turn
from env121.rules.config import RuleConfig
from env121.rules.payment import win_payments
from tests.support.knowledge import unseen_cards
from tests.support.mc_reference import leaf_value, offer_round, showdown
from tests.support.play import first_offer_decision, random_play_states

FAST_SPECS = (
    "random", "greedy", "mc:budget=2,width=2", "mc:budget=2,chain=true", "mc:budget=2,leaf=false",
)  # fmt: skip
PUBLIC_FIELDS = (
    "locked", "known", "dead", "chi_diem", "an_si_revealed", "offer_card",
    "scores", "hand_sizes", "nhat_ban", "noc_left", "phase", "legal_actions",
)  # fmt: skip


def play_match(specs: tuple[str, ...], seed: int, config: RuleConfig | None = None) -> State:
    """A match with seat s played by ``make_agent(specs[s])``, checking every action."""
    agents = [make_agent(spec) for spec in specs]
    for seat, agent in enumerate(agents):
        agent.reset(seed * 10 + seat)
    state = new_game(seed, config)
    play_agents(state, agents)  # raises IllegalAgentActionError on an illegal action
    return state


# ---------------------------------------------------------------- registry


def test_registry_lists_and_builds_the_builtin_agents():
    assert {"random", "greedy", "mc", "ppo"} <= set(available_agents())
    agent = make_agent("mc:width=2, budget=5")
    assert isinstance(agent, MCAgent)
    assert (agent.budget, agent.width) == (5, 2)
    assert agent.spec == "mc:budget=5,width=2"
    assert make_agent(agent.spec).spec == agent.spec
    assert make_agent("mc:nhat_ban=false").spec == "mc:nhat_ban=false"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "not valid"),
        ("alphago", "no agent named 'alphago'"),
        ("mc:depth=3", "no parameter 'depth'"),
        ("mc:budget=many", r"budget='many'.*expected int"),
        ("mc:budget=0", "budget=0 is not valid"),
        ("mc:budget=2,budget=3", "given twice"),
        ("mc:budget=2,5", "has no key"),
        ("greedy:cuop_margin=-1", "cuop_margin=-1.0 is not valid"),
    ],
)
def test_bad_specs_are_clear_errors(spec, message):
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


# ------------------------------------------------------------------ legality


@pytest.mark.parametrize("spec", FAST_SPECS)
@pytest.mark.parametrize(
    "config",
    [RuleConfig(), RuleConfig(mask_invalid_win=False, nhat_ban_requires_wait=False)],
    ids=["default", "den_and_free_nhat_ban"],
)
def test_each_agent_plays_only_legal_actions(spec, config):
    """Seat 0 is the agent under test, the others random; two short matches."""
    for seed in range(2):
        state = play_match((spec, "random", "random", "random"), seed, config)
        assert state.is_over


def test_greedy_takes_every_win_and_every_the_trang():
    greedy = make_agent("greedy")
    for seed in range(4):
        state = new_game(seed)
        random = random_players(seed)[0]
        while not state.is_over:
            legal = legal_actions(state)
            seat = state.current_player
            choice = greedy.act(Turn(state, seat))
            if U in legal:
                assert choice == U
            if state.phase == Phase.THE_TRANG and len(legal) > 1:
                assert choice != PASS
            apply(state, random.act(Turn(state, seat)))


def test_agents_are_deterministic_given_their_seed():
    specs = ("mc:budget=2", "greedy", "random", "mc:budget=2")
    assert play_match(specs, 3).actions == play_match(specs, 3).actions


# ------------------------------------------------------------ determinizations


# ---------------------------------------------------------------- mc search


def test_best_gain_measures_the_gain_over_plan_0_in_standard_errors():
    assert best_gain(np.array([[5.0, 1.0], [3.0, 2.0]])) == (0, 0.0)
    assert best_gain(np.array([[0.0, 7.0], [1.0, 8.0]])) == (1, float("inf"))
    gains = np.array([1.0, 3.0, 2.0, 6.0])
    results = np.stack([np.zeros(4), gains - 1, gains], axis=1)
    best, z = best_gain(results)
    assert best == 2
    assert z == pytest.approx(gains.mean() / (gains.std(ddof=1) / 2))


def test_plan_gains_are_paired_differences_from_plan_0_in_standard_errors():
    results = np.array([[1.0, 3.0, 1.0, 0.0], [2.0, 3.0, 2.0, 4.0], [0.0, 4.0, 0.0, 1.0]])
    mean, z = plan_gains(results)
    assert mean == pytest.approx([0.0, 7 / 3, 0.0, 2 / 3])
    differences = results[:, 3] - results[:, 0]
    error = differences.std(ddof=1) / np.sqrt(3)
    assert z[0] == 0 and z[2] == 0  # no gain, no spread: 0, not nan
    assert z[3] == pytest.approx(differences.mean() / error)
    assert np.isfinite(z[1]) and z[1] > 0
    assert plan_gains(np.array([[0.0, 2.0, -1.0], [1.0, 3.0, 0.0]]))[1].tolist() == [
        0.0,
        float("inf"),
        float("-inf"),
    ]


@pytest.mark.parametrize(
    ("gains", "chosen", "samples"),
    [
        ({2: 100.0}, 2, 12),  # a clear gain: taken at the first look
        ({}, 0, 12),  # nothing beats greedy's plan: it stops at the first look
        ({1: "noise"}, 0, None),  # zero-mean noise is never a reason to leave greedy
    ],
)
def test_mc_leaves_greedys_plan_only_for_a_clear_gain(monkeypatch, gains, chosen, samples):
    agent = MCAgent(budget=48)
    turn, plans = first_offer_decision(agent)
    noise = np.random.default_rng(0)
    calls: list[int] = []

    def play(worlds, seat, plans_played, config):
        assert plans_played == plans
        calls.append(len(worlds))
        out = np.full((len(worlds), len(plans)), 10.0)
        for index, gain in gains.items():
            if gain == "noise":
                out[:, index] = noise.normal(0, 50, len(worlds))
            else:
                out[:, index] += gain
        return out

    monkeypatch.setattr(agent, "play", play)
    assert agent.search(turn, plans).plan == chosen
    if samples is not None:
        assert calls == [samples]  # one look: its worlds drawn and played as one batch


@pytest.mark.parametrize(
    ("look", "budget", "looks"),
    [
        (48, 96, [48, 48]),  # a first look of 48, then up to the budget
        (12, 96, [12, 12, 24, 48]),  # the default: 12, 24, 48, 96 worlds
        (96, 48, [48]),  # never more than the budget
    ],
)
def test_mc_looks_first_at_look_worlds_then_doubles_them(monkeypatch, look, budget, looks):
    agent = MCAgent(budget=budget, look=look, confidence=1e9)  # no gain clears the gate
    turn, plans = first_offer_decision(agent)
    calls: list[int] = []

    def play(worlds, seat, plans_played, config):
        calls.append(len(worlds))
        out = np.zeros((len(worlds), len(plans)))
        out[:, 1] = np.arange(len(worlds)) % 2  # a gain over one error: worth another look
        return out

    monkeypatch.setattr(agent, "play", play)
    assert agent.search(turn, plans).plan == 0
    assert calls == looks


def test_mc_refuses_a_first_look_of_fewer_than_two_worlds():
    with pytest.raises(ValueError, match=r"look=1 is not valid: expected ≥ 2"):
        MCAgent(look=1)


def test_only_search_agents_are_granted_determinizations():
    state = new_game(0)
    with pytest.raises(DeterminizationNotGranted, match="does not allow search"):
        Turn(state, state.current_player).determinization(np.random.default_rng(0))
    with pytest.raises(ValueError, match="is not to act"):
        Turn(state, (state.current_player + 1) % 4)


def test_determinizations_never_place_a_seen_card_elsewhere():
    """Along greedy play: each determinization keeps every card the seat has
    seen where it saw it, and the seat's view of it is the same view."""
    agents = [make_agent("greedy") for _ in range(4)]
    state = new_game(11)
    rng = np.random.default_rng(0)
    checked = 0
    while not state.is_over and checked < 150:
        seat = state.current_player
        turn = Turn(state, seat, search_allowed=True)
        world = turn.determinization(rng)
        view, seen_from_world = observe(state, seat), observe(world, seat)
        assert seen_from_world.hand == view.hand
        for field in PUBLIC_FIELDS:
            assert getattr(seen_from_world, field) == getattr(view, field), field
        unseen = unseen_cards(view)
        for other in range(4):
            if other != seat:
                hidden = set(world.hands[other]) - set(view.known[other])
                assert all(unseen[c] for c in hidden)
        assert all(unseen[c] for c in world.noc[world.noc_pos :])
        checked += 1
        apply(state, agents[seat].act(Turn(state, seat)))
    assert checked == 150


# ------------------------------------------------------------------ showdown


def win_or_pass(state: State) -> None:
    """Play the win-or-pass policy in the engine until the vòng ends."""
    results = len(state.results)
    while len(state.results) == results:
        apply(state, U if U in legal_actions(state) else PASS)


def offer_states(seeds: range, per_seed: int) -> list[State]:
    """OFFER states along random play."""
    return random_play_states(seeds, limit=per_seed, keep=lambda s: s.phase == Phase.OFFER)


def tables_of(state: State) -> list[np.ndarray]:
    return [seat_win_points(state, seat) for seat in range(4)]


def test_showdown_matches_the_engine_playing_win_or_pass():
    compared = wins = 0
    for state in offer_states(range(12), 40):
        winner, points = showdown(state, tables_of(state))
        played = state.clone()
        win_or_pass(played)
        result = played.results[-1]
        assert (winner, points) == (
            (result.seat, result.points) if result.outcome == "u" else (-1, 0)
        )
        compared += 1
        wins += winner >= 0
    assert compared >= 200 and 0 < wins < compared


def test_showdown_needs_an_offer():
    state = new_game(0)
    while state.phase == Phase.OFFER:
        apply(state, legal_actions(state)[0])
    with pytest.raises(ValueError, match="OFFER"):
        showdown(state, tables_of(state))


# ---------------------------------------------------------------------- leaf


def test_offer_round_matches_the_engine_playing_win_or_pass_on_the_card():
    """The askers still to answer win on the card on offer, or it goes dead."""
    wins = 0
    states = offer_states(range(8), 30)
    for state in states:
        played, flips, ended = state.clone(), state.noc_pos, len(state.results)
        while len(played.results) == ended and played.noc_pos == flips:
            apply(played, U if U in legal_actions(played) else PASS)
        won = len(played.results) > ended and played.results[-1].outcome == "u"
        expected = (played.results[-1].seat, played.results[-1].points) if won else (-1, 0)
        assert offer_round(state, tables_of(state)) == expected
        wins += won
    assert len(states) == 240 and 0 < wins < len(states)


def test_leaf_value_pays_a_win_on_the_card_on_offer_else_the_fitted_line():
    """Both branches are zero-sum over the four seats, like the payments."""
    branches = set()
    for state in offer_states(range(8, 14), 30):
        tables = tables_of(state)
        values = [leaf_value(state, seat, tables) for seat in range(4)]
        assert sum(values) == pytest.approx(0, abs=1e-9)
        winner, points = offer_round(state, tables)
        t = leaf.noc_means(state, tables)
        expected = (
            list(win_payments(points, winner, state.config))
            if winner >= 0
            else [leaf.SCALE * (t[seat] - t.mean()) for seat in range(4)]
        )
        assert values == pytest.approx(expected)
        branches.add(winner >= 0)
    assert branches == {False, True}


def test_leaf_fit_recovers_a_known_scale_and_rejects_empty_data():
    ahead = np.random.default_rng(0).normal(0, 0.3, 400)
    assert leaf.fit(ahead, 150.0 * ahead) == pytest.approx((150.0, 1.0))
    noisy = 150.0 * ahead + np.random.default_rng(1).normal(0, 5, 400)
    scale, r2 = leaf.fit(ahead, noisy)
    assert 140 < scale < 160 and 0.5 < r2 < 1
    with pytest.raises(ValueError, match="at least 2 rows"):
        leaf.fit(np.zeros(3), np.ones(3))


def test_leaf_rows_are_zero_sum_per_flip():
    """Per flip, the four seats' features and payments each sum to zero."""
    ahead, payments = leaf.collect(matches=1, seed=0)
    assert len(ahead) == len(payments) > 0 and len(ahead) % 4 == 0
    assert np.allclose(ahead.reshape(-1, 4).sum(axis=1), 0)
    assert np.allclose(payments.reshape(-1, 4).sum(axis=1), 0)
    assert np.any(payments) and np.any(ahead)
