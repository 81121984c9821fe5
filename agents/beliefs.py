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

The model is any function of a :class:`~env121.play.turn.Turn` returning an
action; :func:`greedy_model` is greedy's known policy
(:class:`agents.greedy.GreedyAgent`, deterministic).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from agents.greedy import GreedyAgent
from env121.engine.game import legal_actions
from env121.engine.state import Phase, State, Swapped
from env121.play.turn import Turn

EPSILON = 0.1
"""The default softening: the model's action gets 1 − ε, every legal action ε/|legal|."""

Model = Callable[[Turn], int]
"""A model of an opponent: the action it plays on a decision."""


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


def decision_likelihood(
    world: State, now: State, decision: Decision, model: Model, epsilon: float
) -> float:
    """The probability, under ``model`` softened by ``epsilon``, that the
    decision's actor played its observed action in ``world`` (0: illegal there).
    ``now`` is the true state the world was drawn from (its public events after
    the decision undo the actor's swaps)."""
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
    legal = legal_actions(past)
    if decision.action not in legal:
        return 0.0
    chosen = model(Turn(past, actor))
    return (1 - epsilon) * (chosen == decision.action) + epsilon / len(legal)


def world_weights(
    worlds: Sequence[State],
    now: State,
    decisions: Sequence[Decision],
    model: Model,
    epsilon: float = EPSILON,
) -> np.ndarray:
    """The normalized weights of ``worlds`` (drawn from ``now``) by the
    likelihood of ``decisions``; uniform if every world is rejected."""
    if not 0 < epsilon <= 1:
        raise ValueError(f"epsilon={epsilon} is not valid: expected 0 < epsilon ≤ 1")
    likelihood = np.array(
        [
            np.prod([decision_likelihood(w, now, d, model, epsilon) for d in decisions])
            for w in worlds
        ]
    )
    total = likelihood.sum()
    if total == 0:
        return np.full(len(worlds), 1 / len(worlds))
    weights: np.ndarray = likelihood / total
    return weights


def greedy_model() -> Model:
    """Greedy's known policy as a model of an opponent."""
    return GreedyAgent().act


__all__ = [
    "EPSILON",
    "Decision",
    "Model",
    "decision_likelihood",
    "greedy_model",
    "observed_decisions",
    "past_hand",
    "world_weights",
]
