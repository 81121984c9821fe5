"""What do beliefs change in ``mc``'s search? Prints numbers; asserts nothing.

Usage::

    .venv/bin/python -m benchmarks.belief_search [--deals N] [--rollouts K]
        [--epsilon E] [--value NAME] [--seed S]

Plays N seeded ván with ``greedy`` in every seat. At each of seat 0's
decisions with a real choice (more than one first action among ``mc``'s
plans) after at least one opponent decision on a card on offer in the vòng,
``best``'s search (``mc:value=NAME,confidence=1,look=96``: one look of 96
worlds, a plan leaves greedy's at one standard error) plays its plans in
its worlds once and decides twice on the same results: with every world
equally likely, and with the worlds weighted by the opponents' decisions
under greedy's policy softened by ε (``mc:beliefs=greedy``,
:meth:`agents.mc.MCAgent.belief`). It prints how many worlds' worth of
weight the weighted worlds keep (``1 / Σw²``), how often the two choices
differ, and, where they differ, which is better by an *oracle*: K rollouts
from the true state (the real hands, the Nọc reshuffled), each playing the
plan and then greedy everywhere to the end of the vòng, the same K shuffles
for both (:func:`benchmarks.mc_decisions.oracle`).

The same for a *placebo*: the same weights shuffled among the worlds (a
fixed permutation), as many worlds' worth of weight and no information. What
the beliefs gain beyond it is what they read from the play; what the placebo
loses is the cost of deciding on fewer effective worlds.
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from agents.beliefs import normalized
from agents.greedy import GreedyAgent
from agents.knowledge import obvious_action
from agents.mc import BELIEF_EPSILON, MCAgent, best_gain
from benchmarks.mc_decisions import SEAT, oracle
from env121.engine.game import apply, new_game
from env121.engine.state import Phase
from env121.play.turn import Turn

LOOK = 96
"""``best``'s one look of worlds."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--epsilon", type=float, default=BELIEF_EPSILON)
    parser.add_argument("--value", default="greedy", help="mc's leaf value (none: the line)")
    parser.add_argument("--seed", type=int, default=38900)
    args = parser.parse_args()
    if args.deals < 1 or args.rollouts < 1 or not 0 < args.epsilon <= 1:
        parser.error("expected --deals ≥ 1, --rollouts ≥ 1 and 0 < --epsilon ≤ 1")
    greedy = GreedyAgent()
    mc = MCAgent(
        budget=LOOK, look=LOOK, confidence=1.0, value=args.value,
        beliefs="greedy", epsilon=args.epsilon,
    )  # fmt: skip
    effective: list[float] = []
    changed: dict[str, list[float]] = {"weighted": [], "placebo": []}
    """Per kind of weights, the oracle gain of its choice over the uniform one
    where they differ."""
    shuffler = np.random.default_rng(args.seed)  # the placebo's permutations
    for deal in range(args.deals):
        mc.reset(deal)
        state = new_game(args.seed + deal)
        while not state.is_over:
            turn = Turn(state, state.current_player, search_allowed=True)
            real = obvious_action(turn.legal_actions) is None
            if turn.seat == SEAT and real and state.phase == Phase.OFFER:
                plans = mc.plans(turn)
                seed = mc.decision_seed()
                likelihoods = mc.belief(turn, seed)
                if len({action for action, _ in plans}) > 1 and likelihoods is not None:
                    results, likelihood = mc.look_at(turn, plans, seed, 0, LOOK, likelihoods)
                    assert likelihood is not None
                    weights = normalized(likelihood)
                    effective.append(1 / float(weights @ weights))
                    uniform = _choice(results, None, mc.confidence)
                    placebo = weights[shuffler.permutation(LOOK)]
                    for name, kind in (("weighted", weights), ("placebo", placebo)):
                        chosen = _choice(results, kind, mc.confidence)
                        if chosen != uniform:
                            first = sum(map(len, changed.values())) * args.rollouts
                            shuffles = range(first, first + args.rollouts)
                            ours = [oracle(state, plans[chosen], s, greedy) for s in shuffles]
                            theirs = [oracle(state, plans[uniform], s, greedy) for s in shuffles]
                            changed[name].append(float(np.mean(ours) - np.mean(theirs)))
            apply(state, greedy.act(turn))
        print(f"deal {deal + 1}/{args.deals}: {len(effective)} decisions", flush=True)
    report(effective, changed, args)


def _choice(results: np.ndarray, weights: np.ndarray | None, confidence: float) -> int:
    """The plan ``best``'s gate plays on one look: the best, if ``confidence``
    standard errors ahead of greedy's, else greedy's (0)."""
    best, z = best_gain(results, weights)
    return best if z >= confidence else 0


def report(
    effective: list[float], changed: dict[str, list[float]], args: argparse.Namespace
) -> None:
    """The weighted worlds' effective number, and each kind of weights' changed
    choices with their oracle gain."""
    print(f"\n{args.deals} deals, ε = {args.epsilon}, {LOOK} worlds, value={args.value}")
    if not effective:
        print("no decision after an opponent's decision on a card on offer")
        return
    quartiles = np.percentile(effective, [25, 50, 75])
    print(
        f"{len(effective)} decisions: effective worlds of {LOOK}, quartiles "
        + ", ".join(f"{q:.1f}" for q in quartiles)
    )
    for name, gains in changed.items():
        line = f"{name}: the choice differs from the uniform one at {len(gains)}"
        if len(gains) > 1:
            error = statistics.stdev(gains) / len(gains) ** 0.5
            line += (
                f"; the oracle's gain there ({args.rollouts} rollouts each): "
                f"{statistics.mean(gains):+.1f} ± {error:.1f} points of the vòng"
            )
        print(line)


if __name__ == "__main__":
    main()
