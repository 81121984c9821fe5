"""How good are ``mc``'s departures from greedy? Prints numbers; asserts nothing.

Usage::

    .venv/bin/python -m benchmarks.mc_decisions [--deals N] [--budget B] [--rollouts K]
        [--chain] [--showdown]

Plays N seeded ván with ``greedy`` in every seat. At each of seat 0's
decisions with a real choice, an ``mc`` agent (``budget`` determinizations,
no confidence gate) evaluates its plans with its playout (the leaf value;
``--showdown``: the win-or-pass showdown; ``--chain``: greedy first); where
its best mean is not greedy's plan, both plans are judged by an *oracle*: K
rollouts from the true state (the real hands, the Nọc reshuffled), each
playing the plan and then greedy for every seat to the end of the vòng, with
the same K shuffles for both plans. The gain of a departure is the oracle's
mean points for mc's plan minus those for greedy's.

It prints the departures grouped by how many standard errors the playout
put the plan ahead of greedy's (the ``confidence`` of :class:`agents.mc.MCAgent`)
and by the kind of decision. This is the evidence behind ``mc``'s gate.
It also prints mc's thinking time per such decision: its plans and ``budget``
playouts (the oracle's rollouts not counted), the figure a faster playout
must improve.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

import numpy as np

from agents.greedy import GreedyAgent
from agents.knowledge import obvious_action
from agents.mc import MCAgent, Plan, best_gain
from env121.engine.actions import NHAT_BAN, PASS
from env121.engine.game import apply, legal_actions, new_game, swap_kind_between
from env121.engine.state import Phase, State
from env121.play.turn import Turn

SEAT = 0
BANDS = ((0.0, 1.0), (1.0, 2.0), (2.0, 3.0), (3.0, float("inf")))
"""Bands of the playout's z score of a departure."""


def oracle(state: State, plan: Plan, shuffle: int, greedy: GreedyAgent) -> float:
    """SEAT's points in the rest of the vòng: the plan, then greedy everywhere,
    on the true hands with the rest of the Nọc shuffled by ``shuffle``."""
    world = state.clone()
    rest = list(world.noc[world.noc_pos :])
    np.random.default_rng(shuffle).shuffle(rest)
    world.noc = world.noc[: world.noc_pos] + tuple(rest)
    action, declare = plan
    apply(world, action)
    while len(world.results) == len(state.results) and not world.is_over:
        seat = world.current_player
        if seat == SEAT and world.phase == Phase.NB_CHOICE:
            move = NHAT_BAN if declare and NHAT_BAN in legal_actions(world) else PASS
        else:
            move = greedy.act(Turn(world, seat))
        apply(world, move)
    return float(world.scores[SEAT] - state.scores[SEAT])


def kind(state: State, plan: Plan) -> str:
    """``"OFFER/LAY: swap+nb"``-style label of a plan at a decision."""
    action, declare = plan
    move = "pass" if action == PASS else "declare" if action == NHAT_BAN else "swap"
    if state.phase != Phase.OFFER:
        return f"{state.phase.value}: {move}"
    how = swap_kind_between(state.offer_exposer, SEAT).value
    return f"offer/{how}: {move}{'+nb' if declare else ''}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=int, default=24)
    parser.add_argument("--rollouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--chain", action="store_true", help="mc's chain playout")
    parser.add_argument("--showdown", action="store_true", help="mc's leaf=false playout")
    args = parser.parse_args()
    greedy = GreedyAgent()
    mc = MCAgent(budget=args.budget, confidence=0.0, chain=args.chain, leaf=not args.showdown)
    departures: list[tuple[float, str, float]] = []  # (z, kind, oracle gain)
    decisions = 0
    thinking = 0.0  # seconds in mc.plans and mc.playouts
    for deal in range(args.deals):
        mc.reset(deal)
        state = new_game(args.seed + deal)
        while not state.is_over:
            turn = Turn(state, state.current_player, search_allowed=True)
            chosen = greedy.act(turn)
            real = obvious_action(turn.legal_actions) is None
            if turn.seat == SEAT and real and state.phase in (Phase.OFFER, Phase.NB_CHOICE):
                start = time.perf_counter()
                plans = mc.plans(turn)
                if len({action for action, _ in plans}) > 1:
                    decisions += 1
                    results = mc.results(turn, plans, mc.decision_seed(), 0, args.budget)
                    thinking += time.perf_counter() - start
                    best, z = best_gain(results)
                    if best:
                        shuffles = [decisions * args.rollouts + k for k in range(args.rollouts)]
                        ours = [oracle(state, plans[best], s, greedy) for s in shuffles]
                        theirs = [oracle(state, plans[0], s, greedy) for s in shuffles]
                        label = f"{kind(state, plans[0])} → {kind(state, plans[best])}"
                        departures.append((z, label, float(np.mean(ours) - np.mean(theirs))))
            apply(state, chosen)
        print(f"deal {deal + 1}/{args.deals}: {len(departures)} departures", flush=True)
    report(departures, decisions, thinking)


def report(departures: list[tuple[float, str, float]], decisions: int, thinking: float) -> None:
    """mc's time per decision, and the mean oracle gain ± standard error per z
    band and per kind of departure."""

    def line(name: str, gains: list[float]) -> str:
        error = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
        return f"{name:<44} n={len(gains):4d}  gain {statistics.mean(gains):+8.1f} ± {error:.1f}"

    print(f"\n{decisions} decisions with a choice, {len(departures)} departures from greedy")
    if decisions:
        print(f"mc's plans and playouts: {1000 * thinking / decisions:.1f} ms a decision")
    print(line("all departures", [g for _, _, g in departures]))
    for low, high in BANDS:
        gains = [g for z, _, g in departures if low <= z < high]
        if gains:
            print(line(f"playout z in [{low:g}, {high:g})", gains))
    by_kind: dict[str, list[float]] = defaultdict(list)
    for _, label, gain in departures:
        by_kind[label].append(gain)
    for label, gains in sorted(by_kind.items(), key=lambda item: -len(item[1])):
        print(line(label, gains))


if __name__ == "__main__":
    main()
