"""The leaf value: what the rest of a vòng is worth to each seat, from the hands.

:class:`agents.mc.MCAgent` (with ``leaf``, its default) ends a playout once
the card on offer has gone round its askers, and values what is left of the
vòng by a line fitted to greedy self-play::

    value(seat) = SCALE · (T[seat] − mean of T over the four seats)

``T[s]`` is the mean of seat s's win table over the cards left in the Nọc
(:func:`env121.engine.win_table.seat_win_points`): the Điểm its Ù would score, per
card still to be flipped. The values of the four seats sum to zero, as the
payments do. ``SCALE`` is the least-squares fit (through the origin) of each
seat's payment for the vòng on ``T[seat] − mean T``, taken at every flip (a
card just turned, nobody asked yet) of greedy playing all four seats;
``python -m agents.leaf`` reproduces it. The kernel plays it
(:func:`agents.batched_mc.leaf_value`); its plain-Python definition, which the
kernel is proven equal to, is ``tests/support/mc_reference.py``.

The leaf plays out only what follows at once — whether a seat wins the card
left on offer, the card a swap puts out included — and trusts the fit for
the rest. Why (the showdown to the end of the vòng freezes every hand, and
its departures from greedy lost) and the fit's numbers:
``docs/research/mc.md``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from agents.greedy import GreedyAgent
from env121.engine.game import apply, new_game
from env121.engine.state import NUM_SEATS, Phase, State
from env121.engine.win_table import seat_win_points
from env121.play.turn import Turn

SCALE = 188.0
"""Points of the vòng per Điểm of T above the table's mean, as ``python -m
agents.leaf`` fits it on 300 matches of seed 0 (the fit: ``docs/research/mc.md``)."""


def noc_means(state: State, tables: Sequence[np.ndarray]) -> np.ndarray:
    """``T``: each seat's win table averaged over the cards left in the Nọc
    (zeros when the Nọc is empty)."""
    noc = np.array(state.noc[state.noc_pos :], dtype=np.intp)
    if len(noc) == 0:
        return np.zeros(NUM_SEATS)
    return np.array([float(tables[s][noc].mean()) for s in range(NUM_SEATS)])


def collect(matches: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Greedy self-play rows: per flip and seat, ``T[seat] − mean T``, and the
    points the seat was paid in that vòng."""
    greedy = GreedyAgent()
    ahead: list[float] = []
    payments: list[float] = []
    for match in range(matches):
        state = new_game(seed + match)
        flips: list[np.ndarray] = []
        before, ended = list(state.scores), len(state.results)
        while not state.is_over:
            if state.phase == Phase.OFFER and state.offer_flipped and state.ask_pos == 0:
                t = noc_means(state, [seat_win_points(state, s) for s in range(NUM_SEATS)])
                flips.append(t - t.mean())
            apply(state, greedy.act(Turn(state, state.current_player)))
            if len(state.results) > ended:
                for t in flips:
                    ahead.extend(float(x) for x in t)
                    payments.extend(float(state.scores[s] - before[s]) for s in range(NUM_SEATS))
                flips, before, ended = [], list(state.scores), len(state.results)
    return np.array(ahead), np.array(payments)


def fit(ahead: np.ndarray, payments: np.ndarray) -> tuple[float, float]:
    """``(SCALE, R²)``: least squares of ``payments`` on ``SCALE · ahead``."""
    if len(payments) < 2 or not np.any(ahead):
        raise ValueError(
            f"fit needs at least 2 rows with some non-zero feature, got {len(payments)} rows"
        )
    scale = float(ahead @ payments) / float(ahead @ ahead)
    residual = payments - scale * ahead
    r2 = 1.0 - float(residual.var()) / float(payments.var()) if payments.var() else 0.0
    return scale, r2


def main(argv: Sequence[str] | None = None) -> None:
    """Print the fit (compare with ``SCALE``)."""
    parser = argparse.ArgumentParser(description="Fit the leaf value on greedy self-play.")
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    ahead, payments = collect(args.matches, args.seed)
    scale, r2 = fit(ahead, payments)
    print(f"{len(payments)} rows from {args.matches} matches (seed {args.seed})")
    print(f"SCALE = {scale:.1f} (R² = {r2:.3f}); in use: {SCALE}")


if __name__ == "__main__":
    main()


__all__ = ["SCALE", "collect", "fit", "noc_means"]
