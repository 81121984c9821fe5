"""Do beliefs read from play locate the hidden cards better? Prints numbers; asserts nothing.

Usage::

    .venv/bin/python -m benchmarks.belief_likelihood [--model M] [--table T]
        [--deals N] [--worlds W] [--vong V] [--epsilon E] [--burn-in B]
        [--thin T] [--no-chain] [--seed S]

Plays N seeded ván (the first V vòng of each) with one agent in every seat
(``--table``: ``greedy``, or ``scratch``, the shipped network
``ppo:scratch``; by default the modelled one, so that the model is exact),
and models the opponents by ``--model``: greedy's policy (the default) or
``ppo:scratch``'s (:func:`agents.ppo.network_model`; the ``train``
extra) — a model of any seat, which a table of greedy measures where it is
not exact. At each of seat 0's decisions on a card on offer it judges three
beliefs of W worlds each against the exact uniform one:

* ``drawn``: W worlds drawn uniformly (:func:`env121.engine.view.sample_determinization`),
  equal weights — what the estimate below costs by itself;
* ``weighted``: the same W worlds weighed by the opponents' observed decisions
  under the softened model (:func:`agents.beliefs.world_weights`, ε = E);
* ``placebo``: the same W worlds with the same weights shuffled among them —
  as many worlds' worth of weight, no information (``weighted − placebo``,
  paired: what the weights know about the hands, apart from what fewer
  effective worlds cost the estimate);
* ``belief``: W worlds drawn from that posterior by the Metropolis chain of
  :func:`agents.beliefs.belief_worlds` (B moves of burn-in, one world every T;
  left out with ``--no-chain``: the chain asks the model one seat's decisions
  a move, thousands of moves a decision, which a network makes slow).

For every hidden card (an opponent's unknown hand card, the Nọc, an unturned
Ẩn Sĩ) it scores the log-probability of its true place (seat 1, 2, 3, or "the
rest": Nọc or Ẩn Sĩ) under the uniform belief — exactly, the share of the
hidden places that place holds, q — and under each set of worlds, whose
estimate is shrunk towards q by one pseudo-world, ``p = (n·p̂ + q) / (n + 1)``
with n the worlds' effective number (1/Σw² for weights; for the chain's
worlds, how many distinct worlds it kept), so a place no world put the card
in costs a finite log that grows with the evidence behind it, and few
effective worlds fall back on the uniform belief.

The table is per phase of the vòng, by cards flipped from the Nọc so far
(early: 1–2, mid: 3–5, late: 6+; greedy tables end most vòng within a few
flips), over the cards in the opponents' hands (where the play has something
to say) and over all hidden cards. Each method's gain (its mean − the exact
uniform's) and the belief's edge over uniform draws of the same number of
worlds (``belief − drawn``: what a search that plays W worlds gains by drawing
them from the belief) have 95% intervals clustered by deal.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

import numpy as np

from agents.beliefs import (
    BURN_IN,
    EPSILON,
    THIN,
    Model,
    belief_worlds,
    observed_decisions,
    world_weights,
)
from agents.mc import BELIEF_MODELS
from agents.registry import make_agent
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


TABLES = {"greedy": "greedy", "scratch": "ppo:scratch"}
"""Each model (a ``beliefs`` of :data:`agents.mc.BELIEF_MODELS`) → the agent
it models, which ``--table`` may seat in every seat."""
METHODS = ("drawn", "weighted", "placebo", "belief")
"""The beliefs judged against the exact uniform one (module docstring)."""
PAIRS = (("weighted", "placebo"), ("belief", "drawn"))
"""Beliefs compared on the same decisions: what the weights know beyond their
effective number, and what drawing the worlds from the belief gains over
drawing them uniformly."""


def judge(
    state: State,
    history: list[tuple[State, int]],
    model: Model,
    args: argparse.Namespace,
    seed: int,
) -> tuple[list[float], dict[str, list[float]], list[bool], dict[str, float]]:
    """Per hidden card: log P(true place) uniform, under each method, and
    whether an opponent holds it; and each method's effective worlds."""
    rng = np.random.default_rng(seed)
    decisions = observed_decisions(history, SEAT)
    drawn = [sample_determinization(state, SEAT, rng) for _ in range(args.worlds)]
    weights = world_weights(drawn, state, decisions, model, args.epsilon)
    shuffled = weights[np.random.default_rng([seed, 1]).permutation(args.worlds)]
    even = np.full(args.worlds, 1 / args.worlds)
    effective = 1 / float(weights @ weights)
    beliefs = {
        "drawn": (drawn, even, float(args.worlds)),
        "weighted": (drawn, weights, effective),
        "placebo": (drawn, shuffled, effective),
    }
    if args.chain:
        chained = belief_worlds(
            state,
            SEAT,
            decisions,
            model,
            args.worlds,
            rng,
            epsilon=args.epsilon,
            burn_in=args.burn_in,
            thin=args.thin,
        )
        beliefs["belief"] = (chained, even, float(len({w.hands for w in chained})))
    uniform: list[float] = []
    logs: dict[str, list[float]] = {m: [] for m in beliefs}
    held: list[bool] = []
    pool = hidden_cards(state, SEAT)
    slots = {s: len(state.hands[s]) - len(state.known[s]) for s in range(4) if s != SEAT}
    slots[REST] = len(pool) - sum(slots.values())
    for card in pool:
        truth = place(state, card)
        prior = slots[truth] / len(pool)
        uniform.append(math.log(prior))
        for method, (worlds, w, n) in beliefs.items():
            hit = np.array([place(world, card) == truth for world in worlds])
            logs[method].append(math.log((n * float(w @ hit) + prior) / (n + 1)))
        held.append(truth != REST)
    return uniform, logs, held, {m: n for m, (_, _, n) in beliefs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(TABLES), default="greedy")
    parser.add_argument("--table", choices=sorted(TABLES), help="default: --model's agent")
    parser.add_argument("--deals", type=int, default=16)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--vong", type=int, default=2, help="vòng played per ván")
    parser.add_argument("--epsilon", type=float, default=EPSILON)
    parser.add_argument("--burn-in", type=int, default=BURN_IN)
    parser.add_argument("--thin", type=int, default=THIN)
    parser.add_argument(
        "--chain",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="judge the worlds drawn from the belief by its chain (--no-chain: skip it)",
    )
    parser.add_argument("--seed", type=int, default=38200)
    args = parser.parse_args()
    if args.deals < 1 or args.worlds < 2 or args.vong < 1 or args.burn_in < 0 or args.thin < 1:
        parser.error("expected --deals ≥ 1, --worlds ≥ 2, --vong ≥ 1, --burn-in ≥ 0, --thin ≥ 1")
    if not 0 < args.epsilon <= 1:
        parser.error(f"--epsilon {args.epsilon} is not valid: expected 0 < ε ≤ 1")
    make_model = BELIEF_MODELS[args.model]
    assert make_model is not None  # every TABLES key is a model
    table = TABLES[args.table or args.model]
    model, player = make_model(), make_agent(table)
    methods = [m for m in METHODS if args.chain or m != "belief"]
    # sums[(phase, subset)][deal] = [uniform, cards, decisions, *one sum per method]
    sums: dict[tuple[str, str], dict[int, list[float]]] = defaultdict(dict)
    effective: dict[str, list[float]] = defaultdict(list)
    for deal in range(args.deals):
        state = new_game(args.seed + deal)
        player.reset(args.seed + deal)
        history: list[tuple[State, int]] = []
        vong = (state.van, state.vong)
        while not state.is_over and state.vong < args.vong:
            if (state.van, state.vong) != vong:
                history, vong = [], (state.van, state.vong)
            seat = state.current_player
            if seat == SEAT and state.phase == Phase.OFFER and state.noc_left < NOC_SIZE:
                uniform, logs, held, ess = judge(
                    state, history, model, args, args.seed * 7919 + len(state.actions)
                )
                for method, n in ess.items():
                    effective[method].append(n)
                for subset in ("held", "all"):
                    row = sums[(phase_of(state), subset)].setdefault(
                        deal, [0.0, 0, 0, *(0.0 for _ in methods)]
                    )
                    for i, h in enumerate(held):
                        if subset == "all" or h:
                            row[0] += uniform[i]
                            row[1] += 1
                            for k, method in enumerate(methods):
                                row[3 + k] += logs[method][i]
                    row[2] += 1
            action = player.act(Turn(state, seat))
            history.append((state.clone(), action))
            apply(state, action)
    chain = f"chain burn-in {args.burn_in}, thin {args.thin}" if args.chain else "no chain"
    print(
        f"{table} in every seat, {TABLES[args.model]}'s policy the model, {args.deals} deals, "
        f"first {args.vong} vòng, {args.worlds} worlds, ε = {args.epsilon}, {chain}, "
        f"seed {args.seed}: mean log P(true place of a hidden card)"
    )
    print(
        "effective worlds (mean, median): "
        + "; ".join(
            f"{m} {np.mean(effective[m]):.1f}, {np.median(effective[m]):.1f}" for m in methods
        )
    )
    print(f"{'phase':6} {'cards':5} {'decisions':>9} {'uniform':>8}  method: mean, gain [95% CI]")
    for name, _, _ in PHASES:
        for subset in ("held", "all"):
            rows = sums.get((name, subset), {})
            if not rows:
                continue
            cards = sum(r[1] for r in rows.values())
            decisions = sum(int(r[2]) for r in rows.values())
            cells = []
            for k, method in enumerate(methods):
                mean = sum(r[3 + k] for r in rows.values()) / cards
                gains = np.array([(r[3 + k] - r[0]) / r[1] for r in rows.values() if r[1]])
                half = (
                    1.96 * gains.std(ddof=1) / math.sqrt(len(gains)) if len(gains) > 1 else math.nan
                )
                g = gains.mean()
                cells.append(f"{method} {mean:.3f}, {g:+.3f} [{g - half:+.3f}, {g + half:+.3f}]")
            for one, other in PAIRS:
                if one not in methods:
                    continue
                a, b = 3 + methods.index(one), 3 + methods.index(other)
                paired = np.array([(r[a] - r[b]) / r[1] for r in rows.values() if r[1]])
                half = (
                    1.96 * paired.std(ddof=1) / math.sqrt(len(paired))
                    if len(paired) > 1
                    else math.nan
                )
                g = paired.mean()
                cells.append(f"{one} − {other} {g:+.3f} [{g - half:+.3f}, {g + half:+.3f}]")
            uniform_mean = sum(r[0] for r in rows.values()) / cards
            print(
                f"{name:6} {subset:5} {decisions:9d} {uniform_mean:8.3f}  "
                + "; ".join(cells)
                + f" ({len(rows)} deals)"
            )


if __name__ == "__main__":
    main()
