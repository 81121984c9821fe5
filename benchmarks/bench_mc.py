"""``mc``'s search on the kernel next to the one-plan-at-a-time Python search it
replaced, in the same run. Prints numbers; asserts nothing.

Run from the repository root (``python -m benchmarks.bench_mc``): the Python
row imports the tests' ``tests.support.mc_reference``.

Usage::

    .venv/bin/python -m benchmarks.bench_mc [--deals N] [--budget B] [--seed S]

Plays N seeded ván with ``greedy`` in every seat. At each of seat 0's
decisions where ``mc`` searches (an offer or a Nhất Bản choice with a real
choice), it times ``mc``'s search of ``B`` worlds for every plan (the default
budget, 96, without the confidence gate's early stop) two ways:

* **kernel** — :meth:`agents.mc.MCAgent.results`: the worlds drawn by the
  kernel and every plan in every world played in one call;
* **python** — what ``mc`` did before: each world drawn by the Python sampler
  (:meth:`~env121.play.turn.Turn.determinization`), each plan played on a copy
  by the one-match engine and valued in Python
  (:func:`tests.support.mc_reference.playout`).

Both value the same plans with the same playout (``tests/agents/test_batched_mc.py``
proves them equal world by world); the worlds differ (two samplers). It prints
the milliseconds per searched decision of each, and their ratio.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents.greedy import GreedyAgent
from agents.knowledge import obvious_action
from agents.mc import MCAgent
from env121.engine.game import apply, kernel_record, new_game
from env121.engine.state import Phase
from env121.play.turn import Turn
from tests.support.mc_reference import playout

SEAT = 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2, help="seeded ván to play")
    parser.add_argument("--budget", type=int, default=96, help="worlds per decision")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first ván")
    args = parser.parse_args()
    greedy, mc = GreedyAgent(), MCAgent(budget=args.budget)
    rng = np.random.default_rng(args.seed)
    kernel = python = 0.0
    decisions = 0
    warm = False
    for deal in range(args.deals):
        state = new_game(args.seed + deal)
        while not state.is_over:
            turn = Turn(state, state.current_player, search_allowed=True)
            real = obvious_action(turn.legal_actions) is None
            if turn.seat == SEAT and real and state.phase in (Phase.OFFER, Phase.NB_CHOICE):
                plans = mc.plans(turn)
                if len({action for action, _ in plans}) > 1:
                    if not warm:  # the kernels' first call compiles or loads them
                        mc.results(turn, plans, 0, 0, 2)
                        warm = True
                    start = time.perf_counter()
                    mc.results(turn, plans, mc.decision_seed(), 0, args.budget)
                    kernel += time.perf_counter() - start
                    start = time.perf_counter()
                    for _ in range(args.budget):
                        world = turn.determinization(rng)
                        kernel_record(world)
                        for plan in plans:
                            playout(world, SEAT, plan, chain=mc.chain, leaf=mc.leaf)
                    python += time.perf_counter() - start
                    decisions += 1
            apply(state, greedy.act(turn))
    if not decisions:
        print("no searched decision in these deals")
        return
    print(f"{decisions} searched decisions of seat 0, {args.budget} worlds each, every plan")
    print(f"kernel (agents.batched_mc)       {1000 * kernel / decisions:9.2f} ms a decision")
    print(f"python (one plan at a time)      {1000 * python / decisions:9.2f} ms a decision")
    print(f"python / kernel: {python / kernel:.1f}x")


if __name__ == "__main__":
    main()
