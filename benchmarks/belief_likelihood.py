"""Do beliefs read from play locate the hidden cards better? Prints numbers; asserts nothing.

Usage::

    .venv/bin/python -m benchmarks.belief_likelihood [--deals N] [--worlds W]
        [--vong V] [--epsilon E] [--seed S]

Plays N seeded ván (the first V vòng of each) with ``greedy`` in every seat.
At each of seat 0's decisions on a card on offer it draws W worlds
(:func:`env121.engine.view.sample_determinization`) and weighs them by the
opponents' observed decisions under the softened greedy model
(:func:`agents.beliefs.world_weights`, ε = E). For every hidden card (an
opponent's unknown hand card, the Nọc, an unturned Ẩn Sĩ) it scores the
log-probability of its true place (seat 1, 2, 3, or "the rest": Nọc or Ẩn
Sĩ) under the uniform belief — exactly, the share of the hidden places that
place holds — and under the weighted worlds, whose estimate is shrunk
towards that uniform probability q by one pseudo-world,
``p = (n·p̂ + q) / (n + 1)`` with n the worlds' effective number 1/Σw², so a
place no world put the card in costs a finite log that grows with the
evidence behind it, and few effective worlds fall back on the uniform belief.

The table is per phase of the vòng, by cards flipped from the Nọc so far
(early: 1–2, mid: 3–5, late: 6+; greedy tables end most vòng within a few
flips), over the cards in the opponents' hands (where the play has something
to say) and over all hidden cards; the gain (weighted − uniform) has a 95%
interval clustered by deal.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

import numpy as np

from agents.beliefs import EPSILON, greedy_model, observed_decisions, world_weights
from agents.greedy import GreedyAgent
from env121.engine.deal import NOC_SIZE
from env121.engine.game import apply, new_game
from env121.engine.state import Phase, State
from env121.engine.view import hidden_cards, sample_determinization
from env121.play.turn import Turn

SEAT = 0
REST = 4
"""The place of a hidden card outside the opponents' hands (Nọc, Ẩn Sĩ)."""
PHASES = (("early", 1, 2), ("mid", 3, 5), ("late", 6, NOC_SIZE))
"""Phases of the vòng by cards flipped from the Nọc (inclusive bounds)."""


def place(state: State, card: int) -> int:
    """The opponent seat holding ``card`` in ``state``, else REST."""
    return next((s for s in range(4) if s != SEAT and card in state.hands[s]), REST)


def phase_of(state: State) -> str:
    """The phase name of ``state`` by cards flipped so far."""
    flipped = NOC_SIZE - state.noc_left
    return next(name for name, low, high in PHASES if low <= flipped <= high)


def judge(
    state: State, history: list[tuple[State, int]], worlds: int, epsilon: float, seed: int
) -> tuple[list[float], list[float], list[bool], float]:
    """Per hidden card: log P(true place) uniform, weighted, and whether an
    opponent holds it; and the weighted worlds' effective number."""
    rng = np.random.default_rng(seed)
    drawn = [sample_determinization(state, SEAT, rng) for _ in range(worlds)]
    weights = world_weights(
        drawn, state, observed_decisions(history, SEAT), greedy_model(), epsilon
    )
    ess = 1 / float(weights @ weights)
    uniform: list[float] = []
    weighted: list[float] = []
    held: list[bool] = []
    pool = hidden_cards(state, SEAT)
    slots = {s: len(state.hands[s]) - len(state.known[s]) for s in range(4) if s != SEAT}
    slots[REST] = len(pool) - sum(slots.values())
    for card in pool:
        truth = place(state, card)
        prior = slots[truth] / len(pool)
        hit = np.array([place(w, card) == truth for w in drawn])
        uniform.append(math.log(prior))
        weighted.append(math.log((ess * float(weights @ hit) + prior) / (ess + 1)))
        held.append(truth != REST)
    return uniform, weighted, held, ess


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--vong", type=int, default=2, help="vòng played per ván")
    parser.add_argument("--epsilon", type=float, default=EPSILON)
    parser.add_argument("--seed", type=int, default=38200)
    args = parser.parse_args()
    if args.deals < 1 or args.worlds < 2 or args.vong < 1:
        parser.error("expected --deals ≥ 1, --worlds ≥ 2, --vong ≥ 1")
    greedy = GreedyAgent()
    # sums[(phase, subset)][deal] = [uniform, weighted, cards, decisions]
    sums: dict[tuple[str, str], dict[int, list[float]]] = defaultdict(dict)
    effective: list[float] = []
    for deal in range(args.deals):
        state = new_game(args.seed + deal)
        history: list[tuple[State, int]] = []
        vong = (state.van, state.vong)
        while not state.is_over and state.vong < args.vong:
            if (state.van, state.vong) != vong:
                history, vong = [], (state.van, state.vong)
            seat = state.current_player
            if seat == SEAT and state.phase == Phase.OFFER and state.noc_left < NOC_SIZE:
                uniform, weighted, held, ess = judge(
                    state, history, args.worlds, args.epsilon, args.seed * 7919 + len(state.actions)
                )
                effective.append(ess)
                for subset in ("held", "all"):
                    row = sums[(phase_of(state), subset)].setdefault(deal, [0.0, 0.0, 0, 0])
                    for u, w, h in zip(uniform, weighted, held, strict=True):
                        if subset == "all" or h:
                            row[0] += u
                            row[1] += w
                            row[2] += 1
                    row[3] += 1
            action = greedy.act(Turn(state, seat))
            history.append((state.clone(), action))
            apply(state, action)
    print(
        f"{args.deals} deals, first {args.vong} vòng, {args.worlds} worlds, ε = {args.epsilon}, "
        f"seed {args.seed}: mean log P(true place of a hidden card); the weighted worlds' "
        f"effective number: mean {np.mean(effective):.1f}, median {np.median(effective):.1f}"
    )
    header = f"{'phase':6} {'cards':5} {'decisions':>9} {'uniform':>8} {'weighted':>8}"
    print(f"{header}  gain: mean of the deals' [95% CI]")
    for name, _, _ in PHASES:
        for subset in ("held", "all"):
            rows = sums.get((name, subset), {})
            if not rows:
                continue
            u = sum(r[0] for r in rows.values()) / sum(r[2] for r in rows.values())
            w = sum(r[1] for r in rows.values()) / sum(r[2] for r in rows.values())
            gains = np.array([(r[1] - r[0]) / r[2] for r in rows.values() if r[2]])
            half = 1.96 * gains.std(ddof=1) / math.sqrt(len(gains)) if len(gains) > 1 else math.nan
            decisions = sum(int(r[3]) for r in rows.values())
            print(
                f"{name:6} {subset:5} {decisions:9d} {u:8.3f} {w:8.3f}  {gains.mean():+.3f} "
                f"[{gains.mean() - half:+.3f}, {gains.mean() + half:+.3f}] ({len(gains)} deals)"
            )


if __name__ == "__main__":
    main()
