"""Beliefs read from play: weights of determinized worlds by the opponents' decisions.

A seat's search draws *worlds* (full states agreeing with what it knows,
:func:`env121.engine.view.sample_determinization`) uniformly. Here each world
is weighted by the likelihood, under a *model* of the opponents, of every
decision the opponents were seen to make in the current vòng:

    weight(world) = Π over observed opponent decisions d of
                    (1 − ε)·[model(d in world) == observed action] + ε / |legal(d in world)|

and 0 when the observed action is not legal in the world (rejection). ``ε``
(``epsilon``, default :data:`EPSILON`) softens the model so that a world the
model finds unlikely is down-weighted, not thrown away: a model that is
wrong about a seat (it is not greedy) cannot empty the belief.

**What is public, and why a past hand can be re-judged.** Every card that
enters or leaves a free hand during a vòng is seen by all: a swap takes the
card on offer face up and puts a hand card face up ([R] §5.4, the public
:class:`~env121.engine.state.Swapped` event); a Cướp locks the taken card
face up. So an opponent's free hand at a past decision is its hand in the
world now with the public swaps since undone (:func:`past_hand`), and the
model can be asked what it would have done there, in every world.

**What is hidden and not judged.** The dealt hands (the unknown cards), the
Nọc order, the unturned Ẩn Sĩ; a Nhất Bản declarer's arrangement (its
placement actions are private events: not judged; a world's arrangement is
the one the determinization drew, and it decides whether a pass with that
arrangement let a win go); the Thế trắng and Nhất Bản *declines* (private
events: whether a seat was even asked would reveal its hand, so they are not
judged — a declared Nhất Bản is public and the determinization already
rejects hands without a wait). Judged: every opponent decision on a card on
offer (pass or swap; Ù ends the vòng).

The model is a function of many :class:`~env121.play.turn.Turn` returning
the action played on each (every decision a belief judges is asked in one
call, so a network answers them in one forward pass): :func:`greedy_model` is
greedy's known policy (:class:`agents.greedy.GreedyAgent`), and
:func:`agents.ppo.network_model` a shipped network's (``ppo:scratch`` by
default: the masked argmax it plays, every decision in one forward pass) — a
model of any seat that assumes nothing about who sits there. Both are
deterministic, as the agents they model play.

**Worlds drawn from the belief** (:func:`belief_worlds`). Weighting uniform
draws collapses: a few worlds fit every decision, so 64 uniform worlds carry
about 4 worlds' worth of weight. :func:`belief_worlds` instead draws the worlds
from the posterior (uniform prior over what the seat knows × the likelihood
above) by a Metropolis chain: it starts from one uniform draw and proposes to
exchange a hidden card in an opponent's hand with a hidden card in another
place (another opponent, the Nọc, the unturned Ẩn Sĩ), accepted with
probability min(1, likelihood ratio). The proposal is symmetric (which
positions are exchanged does not depend on the cards in them) and the prior is
uniform over the consistent placements, so the ratio of the likelihoods is the
whole acceptance rule; a Nhất Bản declarer's new hand must keep a wait
(else the move is refused, as the determinization's rejection) and gets a new
arrangement drawn as the determinization draws it (its prior given the hand,
so it cancels from the ratio). The likelihood factorizes by opponent (each
decision reads only its actor's hand), so a move re-judges only the one or
two seats whose hands it changed. After ``burn_in`` moves a world is kept
every ``thin`` moves. What it conditions on is exactly what
:func:`world_weights` conditions on: the worlds' distribution converges to the
same posterior (``tests/agents/test_beliefs.py`` checks it against the
brute-force one).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from agents.greedy import GreedyAgent
from env121.engine.deal import NUM_SEATS
from env121.engine.state import Phase, State, Swapped
from env121.engine.view import (
    consistent_hand,
    hidden_cards,
    random_arrangement,
    sample_determinization,
)
from env121.play.turn import Turn

EPSILON = 0.1
"""The default softening: the model's action gets 1 − ε, every legal action ε/|legal|."""

BURN_IN = 1000
"""Moves of the belief chain before its first kept world."""
THIN = 100
"""Moves of the belief chain between two kept worlds: about what makes them
independent (measured: at 4, 256 kept worlds located the hidden cards worse
than 32 uniform draws; at 100, as well as as many uniform draws)."""

Model = Callable[[Sequence[Turn]], list[int]]
"""A model of an opponent: the action it plays on each of the decisions."""


@dataclass(frozen=True)
class Decision:
    """An opponent's observed decision: the true state just before it (only its
    public parts and the actor's legal set in a world are read) and the action."""

    before: State
    action: int

    @property
    def actor(self) -> int:
        """The seat that decided."""
        return self.before.current_player


def observed_decisions(history: Sequence[tuple[State, int]], seat: int) -> list[Decision]:
    """The decisions of ``history`` (``(state before, action)`` of the current
    vòng, in order) that ``seat`` judges: the other seats' decisions on a card
    on offer."""
    return [
        Decision(before, action)
        for before, action in history
        if before.phase == Phase.OFFER and before.current_player != seat
    ]


def past_hand(hand: Sequence[int], later: Sequence[object], actor: int) -> tuple[int, ...]:
    """``actor``'s free hand before the events ``later``, given its free hand
    ``hand`` after them: each of its swaps undone (the card put out comes back,
    the card taken leaves; a Cướp's taken card is locked, never in the free hand)."""
    cards = set(hand)
    for event in reversed(later):
        if isinstance(event, Swapped) and event.seat == actor:
            cards.discard(event.taken)
            cards.add(event.put)
    return tuple(sorted(cards))


def past_state(world: State, now: State, decision: Decision) -> State:
    """The state just before ``decision`` in ``world``: its public parts are the
    true ones, the actor's free hand is its hand in ``world`` with its swaps
    since undone (``now``, the true state the world was drawn from, holds the
    public events after the decision), and a Nhất Bản declarer's arrangement is
    the world's."""
    actor, before = decision.actor, decision.before
    later = now.events[len(before.events) :]
    past = before.clone()
    hands = list(past.hands)
    hands[actor] = past_hand(world.hands[actor], later, actor)
    past.hands = tuple(hands)
    if before.nhat_ban[actor]:
        arrangements = list(past.nb_arrangement)
        arrangements[actor] = world.nb_arrangement[actor]
        past.nb_arrangement = tuple(arrangements)
    past.forget_derived()
    return past


def decision_likelihoods(
    cases: Sequence[tuple[State, Decision]], model: Model, epsilon: float
) -> np.ndarray:
    """For each ``(past, decision)`` (``past``: :func:`past_state` in a world),
    the probability under ``model`` softened by ``epsilon`` that the actor
    played its observed action there (0: illegal there). The model is asked
    every legal case in one call, on the same turns (their legal actions are
    read once)."""
    turns = [Turn(past, d.actor) for past, d in cases]
    asked = [i for i, (_, d) in enumerate(cases) if d.action in turns[i].legal_actions]
    chosen = model([turns[i] for i in asked]) if asked else []
    likelihood = np.zeros(len(cases))
    for i, action in zip(asked, chosen, strict=True):
        observed = cases[i][1].action
        likelihood[i] = (1 - epsilon) * (action == observed) + epsilon / len(turns[i].legal_actions)
    return likelihood


def world_likelihoods(
    worlds: Sequence[State],
    now: State,
    decisions: Sequence[Decision],
    model: Model,
    epsilon: float = EPSILON,
) -> np.ndarray:
    """The likelihood of ``decisions`` in each of ``worlds`` (drawn from
    ``now``), not normalized: the product of their :func:`decision_likelihoods`."""
    _check_epsilon(epsilon)
    cases = [(past_state(w, now, d), d) for w in worlds for d in decisions]
    each = decision_likelihoods(cases, model, epsilon).reshape(len(worlds), len(decisions))
    likelihood: np.ndarray = each.prod(axis=1)
    return likelihood


def world_weights(
    worlds: Sequence[State],
    now: State,
    decisions: Sequence[Decision],
    model: Model,
    epsilon: float = EPSILON,
) -> np.ndarray:
    """The normalized weights of ``worlds`` (drawn from ``now``) by the
    likelihood of ``decisions``; uniform if every world is rejected."""
    return normalized(world_likelihoods(worlds, now, decisions, model, epsilon))


def normalized(likelihood: np.ndarray) -> np.ndarray:
    """``likelihood`` scaled to sum to 1; uniform if it is 0 everywhere (every
    world rejected: the belief falls back on what the seat knows)."""
    total = likelihood.sum()
    if total == 0:
        return np.full(len(likelihood), 1 / len(likelihood))
    weights: np.ndarray = likelihood / total
    return weights


def seat_likelihood(
    world: State,
    now: State,
    decisions: Sequence[Decision],
    actor: int,
    model: Model,
    epsilon: float,
) -> float:
    """The likelihood of ``actor``'s decisions among ``decisions`` in ``world``
    (it reads only the actor's hand and Nhất Bản arrangement there)."""
    cases = [(past_state(world, now, d), d) for d in decisions if d.actor == actor]
    return float(decision_likelihoods(cases, model, epsilon).prod())


REST = -1
"""The place of a hidden card outside the opponents' hands (Nọc, unturned Ẩn Sĩ)."""


def belief_worlds(
    now: State,
    seat: int,
    decisions: Sequence[Decision],
    model: Model,
    count: int,
    rng: np.random.Generator,
    *,
    epsilon: float = EPSILON,
    burn_in: int = BURN_IN,
    thin: int = THIN,
    start: State | None = None,
    cards: Sequence[int] | None = None,
) -> list[State]:
    """``count`` worlds for ``seat`` drawn from the belief: the posterior of
    ``decisions`` under ``model`` (softened by ``epsilon``) by the Metropolis
    chain of the module docstring, kept every ``thin`` moves after ``burn_in``.

    The chain starts from ``start`` (default: a uniform draw from what the
    seat knows) and moves the hidden ``cards`` only (default: every card the
    seat cannot locate; the others stay where ``start`` put them, so the
    worlds are drawn from the posterior given those places). Without
    decisions the belief is the uniform one: ``count`` independent draws."""
    _check_epsilon(epsilon)
    if count < 1 or burn_in < 0 or thin < 1:
        raise ValueError(
            f"count={count}, burn_in={burn_in}, thin={thin} are not valid: "
            "expected count ≥ 1, burn_in ≥ 0, thin ≥ 1"
        )
    if not decisions:
        return [sample_determinization(now, seat, rng) for _ in range(count)]
    world = sample_determinization(now, seat, rng) if start is None else start.clone()
    chain = _Chain(world, now, seat, decisions, model, epsilon, rng, cards)
    kept: list[State] = []
    moves = burn_in + thin * (count - 1) + 1 if chain.in_hands else 0
    for move in range(moves):
        chain.move()
        if move >= burn_in and (move - burn_in) % thin == 0:
            kept.append(chain.world())
    while len(kept) < count:  # no card can move: the one world there is
        kept.append(chain.world())
    return kept


class _Chain:
    """The Metropolis chain of :func:`belief_worlds` over the places of the
    movable hidden cards. A position is ``(container, index)``: containers are
    the opponents' hands (keyed by seat), the Nọc (``NOC``) and the Ẩn Sĩ
    (``AN_SI``), both of the place :data:`REST`."""

    NOC, AN_SI = REST, REST - 1

    def __init__(
        self,
        world: State,
        now: State,
        seat: int,
        decisions: Sequence[Decision],
        model: Model,
        epsilon: float,
        rng: np.random.Generator,
        cards: Sequence[int] | None,
    ) -> None:
        self.base, self.now, self.decisions = world, now, decisions
        self.model, self.epsilon, self.rng = model, epsilon, rng
        self.others = [s for s in range(NUM_SEATS) if s != seat]
        movable = set(hidden_cards(now, seat) if cards is None else cards)
        self.lists = {s: list(world.hands[s]) for s in self.others}
        self.lists[self.NOC], self.lists[self.AN_SI] = list(world.noc), list(world.an_si)
        unturned = {self.NOC: world.noc_pos, self.AN_SI: world.an_si_revealed}
        positions = [
            (key, i)
            for key, held in self.lists.items()
            for i, c in enumerate(held)
            if c in movable and (i >= unturned[key] if key < 0 else c not in now.known[key])
        ]
        self.in_hands = [p for p in positions if p[0] >= 0]
        self.outside = {s: [p for p in positions if max(p[0], REST) != s] for s in self.others}
        self.arrangements = list(world.nb_arrangement)
        self.remembered: dict[tuple[int, tuple[int, ...], tuple[int, ...]], float] = {}
        self.likelihood = {s: self.judged(s) for s in self.others}

    def judged(self, s: int) -> float:
        """The likelihood of seat ``s``'s decisions with its hand now (remembered)."""
        hand = tuple(sorted(self.lists[s]))
        key = (s, hand, self.arrangements[s])
        if key not in self.remembered:
            trial = self.base.clone()
            trial.hands = tuple(hand if t == s else trial.hands[t] for t in range(NUM_SEATS))
            trial.nb_arrangement = tuple(self.arrangements)
            self.remembered[key] = seat_likelihood(
                trial, self.now, self.decisions, s, self.model, self.epsilon
            )
        return self.remembered[key]

    def exchange(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        """Exchange the cards at positions ``a`` and ``b``."""
        lists = self.lists
        lists[a[0]][a[1]], lists[b[0]][b[1]] = lists[b[0]][b[1]], lists[a[0]][a[1]]

    def move(self) -> None:
        """One Metropolis move: a uniform position in an opponent's hand and a
        uniform position in another place exchange their cards, kept with
        probability min(1, new likelihood / old likelihood)."""
        a = self.in_hands[int(self.rng.integers(len(self.in_hands)))]
        targets = self.outside[a[0]]
        if not targets:
            return
        b = targets[int(self.rng.integers(len(targets)))]
        seats = [key for key in {a[0], b[0]} if key >= 0]
        before = {s: self.arrangements[s] for s in seats}
        self.exchange(a, b)
        for s in seats:
            if self.now.nhat_ban[s]:
                hand = tuple(sorted(self.lists[s]))
                if not consistent_hand(self.now, s, hand):
                    self.exchange(a, b)
                    return
                if self.now.nb_arrangement[s]:
                    self.arrangements[s] = random_arrangement(self.now, hand, self.rng)
        new = {s: self.judged(s) for s in seats}
        old = math.prod(self.likelihood[s] for s in seats)
        stuck = math.prod(self.likelihood.values()) == 0  # any move leaves a world ruled out
        if stuck or self.rng.random() * old < math.prod(new.values()):
            self.likelihood.update(new)
            return
        self.exchange(a, b)
        for s, arrangement in before.items():
            self.arrangements[s] = arrangement

    def world(self) -> State:
        """The chain's current world."""
        world = self.base.clone()
        world.hands = tuple(
            tuple(sorted(self.lists[s])) if s in self.others else self.base.hands[s]
            for s in range(NUM_SEATS)
        )
        world.noc, world.an_si = tuple(self.lists[self.NOC]), tuple(self.lists[self.AN_SI])
        world.nb_arrangement = tuple(self.arrangements)
        world.forget_derived()
        return world


def _check_epsilon(epsilon: float) -> None:
    if not 0 < epsilon <= 1:
        raise ValueError(f"epsilon={epsilon} is not valid: expected 0 < epsilon ≤ 1")


def greedy_model() -> Model:
    """Greedy's known policy as a model of an opponent."""
    greedy = GreedyAgent()
    return lambda turns: [greedy.act(turn) for turn in turns]


__all__ = [
    "BURN_IN",
    "EPSILON",
    "REST",
    "THIN",
    "Decision",
    "Model",
    "belief_worlds",
    "decision_likelihoods",
    "greedy_model",
    "normalized",
    "observed_decisions",
    "past_hand",
    "past_state",
    "seat_likelihood",
    "world_likelihoods",
    "world_weights",
]
