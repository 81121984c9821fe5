"""Belief weights (agents/beliefs.py) against a brute-force posterior.

The case is a real seeded greedy game, seat 0 deciding late in the first
vòng. Every consistent world that differs from the truth only in where a
few hidden cards lie (those cards permuted among their hidden places: the
opponents' unknown hand cards, the Nọc, the Ẩn Sĩ) is enumerated, and the
exact posterior under the softened model is computed the other way round
from :func:`agents.beliefs.world_weights`: forward from each world's dealt
hands, every opponent decision of the vòng replayed with the hand that world
gives it then and asked of the modelled agent one decision at a time (its
``act``). The two must agree world by world, for greedy's model and for the
shipped network's (:func:`agents.ppo.network_model`, which asks all the
worlds' decisions in one forward pass). The worlds drawn
from the belief (:func:`agents.beliefs.belief_worlds`, its Metropolis chain
moving the same cards) must put each card in each place
as often as that posterior does, within a tolerance the chain's sampling
noise stays under for the fixed seed (a chain that accepts every move, or one
that judges only one of the two seats a move changes, misses it by far more).
There a Nhất Bản declarer's arrangement is not the true one: the chain draws
one among the legal arrangements of the hand it gives the seat, so the
posterior it is held to averages the likelihood over those arrangements.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest

from agents.beliefs import (
    EPSILON,
    Decision,
    Model,
    belief_worlds,
    greedy_model,
    observed_decisions,
    world_weights,
)
from agents.greedy import GreedyAgent
from agents.ppo import PPOAgent, network_model
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.state import Dealt, Phase, State, SwapKind, Swapped
from env121.engine.view import hidden_cards
from env121.play.turn import Turn
from env121.rules.waits import nhat_ban_arrangements

SEEDS = (7, 51)
"""Deals whose first vòng has ≥ 8 opponent decisions; in 51 two of them are Cướp."""
MOVED = 5
DRAWN = 20000
"""Worlds drawn from the belief chain in the convergence test."""
TOLERANCE = 0.12
"""Largest gap allowed between a card's drawn and exact chance of a place."""


def late_decision(seed: int) -> tuple[State, list[tuple[State, int]]]:
    """The state of the last OFFER decision in vòng 0 of a greedy game (the
    seat deciding there is the one whose beliefs are judged), and the vòng's
    history before it (state before, action)."""
    greedy, state = GreedyAgent(), new_game(seed)
    history: list[tuple[State, int]] = []
    last: tuple[State, list[tuple[State, int]]] | None = None
    while state.vong == 0 and not state.is_over:
        seat = state.current_player
        if state.phase == Phase.OFFER:
            last = (state.clone(), list(history))
        action = greedy.act(Turn(state, seat))
        history.append((state.clone(), action))
        apply(state, action)
    assert last is not None
    return last


def places(state: State) -> dict[int, object]:
    judging = state.current_player
    """Where each hidden card lies: an opponent seat, or 'rest' (Nọc, Ẩn Sĩ)."""
    where: dict[int, object] = {c: "rest" for c in hidden_cards(state, judging)}
    for seat in range(4):
        if seat != judging:
            for c in set(state.hands[seat]) - set(state.known[seat]):
                where[c] = seat
    return where


def worlds_moving(state: State, cards: list[int]) -> list[tuple[State, dict[int, int]]]:
    """Every world that puts ``cards`` in their hidden places in another order
    (the rest as in truth), with its card relabelling."""
    where = places(state)
    targets = [where[c] for c in cards]
    seen, out = set(), []
    for order in itertools.permutations(cards):
        key = tuple(sorted(zip(order, targets, strict=True), key=str))
        if key in seen:
            continue
        seen.add(key)
        swap = dict(zip(cards, order, strict=True))  # the card in c's place is swap[c]
        world = state.clone()
        world.hands = tuple(
            tuple(sorted(swap.get(c, c) for c in h)) if s != state.current_player else h
            for s, h in enumerate(state.hands)
        )
        world.forget_derived()
        out.append((world, swap))
    return out


def forward_likelihood(
    seat: int,
    swap: dict[int, int],
    history: list[tuple[State, int]],
    epsilon: float,
    actor_only: int | None = None,
    arrangement: tuple[int, ...] | None = None,
    act: Callable[[Turn], int] | None = None,
) -> float:
    """The likelihood of the opponents' decisions under the agent ``act``
    (of ``actor_only``'s decisions if given, its Nhất Bản arrangement
    ``arrangement`` if given, else the true one), forward from the world's
    dealt hands (the true dealt hands relabelled by ``swap``); greedy's if
    ``act`` is None."""
    act = GreedyAgent().act if act is None else act
    first = history[0][0]
    hands = {
        e.seat: {swap.get(c, c) for c in e.cards}
        for e in first.vong_events()
        if isinstance(e, Dealt) and e.seat != seat
    }
    likelihood = 1.0
    for step, (before, action) in enumerate(history):
        actor = before.current_player
        if before.phase == Phase.OFFER and actor != seat and actor_only in (None, actor):
            past = before.clone()
            past.hands = tuple(
                tuple(sorted(hands[s])) if s in hands else h for s, h in enumerate(past.hands)
            )
            if arrangement is not None and before.nhat_ban[actor]:
                past.nb_arrangement = tuple(
                    arrangement if s == actor else a for s, a in enumerate(past.nb_arrangement)
                )
            past.forget_derived()
            legal = legal_actions(past)
            if action not in legal:
                return 0.0
            hit = act(Turn(past, actor)) == action
            likelihood *= (1 - epsilon) * hit + epsilon / len(legal)
        # the step's swaps are the true history's in every world (a card put out is
        # seen, never one of the cards a world moves): the next step's state shows them
        if step + 1 < len(history):
            after = history[step + 1][0]
        else:
            after = before.clone()
            apply(after, action)
        for e in after.events[len(before.events) :]:
            if isinstance(e, Swapped) and e.seat in hands:
                hands[e.seat].discard(e.put)
                if e.kind != SwapKind.CUOP:
                    hands[e.seat].add(e.taken)
    return likelihood


@pytest.fixture(scope="module", params=SEEDS, ids=lambda seed: f"seed{seed}")
def case(request: pytest.FixtureRequest) -> tuple[State, list[tuple[State, int]], list[int]]:
    state, history = late_decision(request.param)
    where = places(state)
    by_place: dict[object, list[int]] = {}
    for c, p in sorted(where.items()):
        by_place.setdefault(p, []).append(c)
    # two unknown cards of each opponent, and cards of the Nọc up to MOVED + 2
    cards = [c for p, cs in by_place.items() if p != "rest" for c in cs[:2]]
    cards += by_place["rest"][: max(0, MOVED + 2 - len(cards))]
    return state, history, cards


MODELS: dict[str, Callable[[], tuple[Model, Callable[[Turn], int]]]] = {
    "greedy": lambda: (greedy_model(), GreedyAgent().act),
    "scratch": lambda: (network_model(), PPOAgent("scratch").act),
}
"""Each model of a seat, and the agent it models deciding one turn at a time."""


@pytest.mark.parametrize("model", MODELS)
def test_weights_are_the_exact_posterior(
    case: tuple[State, list[tuple[State, int]], list[int]], model: str
) -> None:
    state, history, cards = case
    seat = state.current_player
    decisions = observed_decisions(history, seat)
    assert len(decisions) >= 8, "the case judges a vòng with several opponent decisions"
    worlds = worlds_moving(state, cards)
    assert len(worlds) >= 20
    batched, act = MODELS[model]()
    weights = world_weights([w for w, _ in worlds], state, decisions, batched)
    exact = np.array(
        [forward_likelihood(seat, swap, history, EPSILON, act=act) for _, swap in worlds]
    )
    assert exact.max() > 0 and len(set(np.round(exact, 12))) > 1, "the model tells worlds apart"
    np.testing.assert_allclose(weights, exact / exact.sum(), rtol=1e-9)


def posterior_over_arrangements(
    state: State, swap: dict[int, int], history: list[tuple[State, int]]
) -> float:
    """The likelihood of a world given only its hands: per opponent, 0 for a
    Nhất Bản declarer's hand without a wait, else the mean over its legal
    arrangements (each equally likely a priori) of its decisions' likelihood."""
    seat = state.current_player
    total = 1.0
    for s in range(4):
        if s == seat:
            continue
        hand = tuple(sorted(swap.get(c, c) for c in state.hands[s]))
        legal: list[tuple[int, ...] | None] = [None]
        if state.nhat_ban[s] and state.nb_arrangement[s]:
            legal = [*sorted(nhat_ban_arrangements(hand))]
            if not legal:
                return 0.0
        # a seat's decisions read only its own dealt hand: the same hand, the same replay
        for a in legal:
            if (s, hand, a) not in REPLAYED:
                REPLAYED[s, hand, a] = forward_likelihood(seat, swap, history, EPSILON, s, a)
        total *= float(np.mean([REPLAYED[s, hand, a] for a in legal]))
    return total


REPLAYED: dict[tuple[int, tuple[int, ...], tuple[int, ...] | None], float] = {}
"""Seat likelihoods replayed forward, by seat, hand and arrangement (per case)."""


def test_worlds_drawn_from_the_belief_follow_the_posterior(
    case: tuple[State, list[tuple[State, int]], list[int]],
) -> None:
    state, history, cards = case
    seat = state.current_player
    decisions = observed_decisions(history, seat)
    where = places(state)
    worlds = worlds_moving(state, cards)
    REPLAYED.clear()
    exact = np.array([posterior_over_arrangements(state, swap, history) for _, swap in worlds])
    exact /= exact.sum()
    spots = sorted({where[c] for c in cards}, key=str)
    expected = np.zeros((len(cards), len(spots)))
    for (_, swap), p in zip(worlds, exact, strict=True):
        for c in cards:  # the card swap[c] lies in c's place
            expected[cards.index(swap[c]), spots.index(where[c])] += p
    drawn = belief_worlds(
        state,
        seat,
        decisions,
        greedy_model(),
        DRAWN,
        np.random.default_rng(38),
        burn_in=100,
        thin=2,
        start=state,
        cards=cards,
    )
    seen = np.zeros_like(expected)
    for world in drawn:
        for c in cards:
            spot = next((s for s in range(4) if s != seat and c in world.hands[s]), "rest")
            seen[cards.index(c), spots.index(spot)] += 1 / len(drawn)
    prior = np.array([[[where[c] for c in cards].count(p) for p in spots] for _ in cards])
    prior = prior / prior.sum(axis=1, keepdims=True)
    assert np.abs(expected - prior).max() > 4 * TOLERANCE, "the decisions move the belief"
    np.testing.assert_allclose(seen, expected, atol=TOLERANCE)


def test_decision_actor_and_filter() -> None:
    state, history = late_decision(SEEDS[0])
    decisions = observed_decisions(history, state.current_player)
    assert decisions
    assert all(isinstance(d, Decision) and d.actor != state.current_player for d in decisions)
    assert all(d.before.phase == Phase.OFFER for d in decisions)


def test_bad_epsilon_is_refused() -> None:
    state, history = late_decision(SEEDS[0])
    with pytest.raises(ValueError, match="epsilon"):
        world_weights([state], state, observed_decisions(history, 0), greedy_model(), 0.0)
