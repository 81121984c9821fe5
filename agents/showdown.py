"""The rest of a vòng played out by the *win-or-pass* policy, in one pass.

When every seat keeps its hand and only ever declares Ù or passes, a vòng's
end is fixed by the hands and the Nọc order: the card on offer goes round its
remaining askers, then each lượt's flipper turns the next Nọc card and offers
it to itself and the three after it, and the first seat whose Ù would be valid
wins. :func:`showdown` computes that outcome from per-seat win tables (the
Điểm of Ù on each card, :func:`env121.engine.win_table.win_points`) without stepping
the engine, adding the two Thưởng the tables leave out: Tự thân (the winner
flipped the card) and Kết chung (the last Nọc card). A test checks it against
the engine played with that policy.

:func:`offer_round` is the first step alone (the card on offer goes round);
:class:`agents.mc.MCAgent` plays it before its leaf value
(:mod:`agents.leaf`), and the whole showdown with ``leaf=false``. Not
modelled (the policy never reaches them): swaps, Nhất Bản declarations, and the
``max_actions_per_vong`` cap.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from env121.engine.state import NUM_SEATS, Phase, State

TU_THAN = 1
"""Điểm of the Tự thân Thưởng (won on one's own flip)."""
KET_CHUNG = 1
"""Điểm of the Kết chung Thưởng (won on the last Nọc card)."""


def offer_round(state: State, tables: Sequence[np.ndarray]) -> tuple[int, int]:
    """``(winner, Điểm)`` when one of the askers still to answer on the card on
    offer wins on it (the first in order), else ``(-1, 0)``. ``tables[s][c]`` is
    the Điểm of seat s's Ù on card c (0: not a win), without Tự thân and Kết
    chung, which this adds."""
    if state.phase != Phase.OFFER:
        raise ValueError(f"the card on offer needs an OFFER state, not {state.phase.value}")
    card, exposer, flipped = state.offer_card, state.offer_exposer, state.offer_flipped
    for seat in state.ask_order[state.ask_pos :]:
        points = int(tables[seat][card])
        if points:
            own_flip = flipped and exposer == seat
            last = flipped and state.noc_left == 0
            return seat, points + TU_THAN * own_flip + KET_CHUNG * last
    return -1, 0


def showdown(state: State, tables: Sequence[np.ndarray]) -> tuple[int, int]:
    """``(winner, Điểm)`` of the win-or-pass playout from an OFFER state, or
    ``(-1, 0)`` for a draw on an empty Nọc; ``tables`` as in :func:`offer_round`."""
    winner, points = offer_round(state, tables)
    if winner >= 0:
        return winner, points
    noc = state.noc[state.noc_pos :]
    flipper = (state.offer_exposer + 1) % NUM_SEATS
    for i, card in enumerate(noc):
        last = i == len(noc) - 1
        for k in range(NUM_SEATS):
            seat = (flipper + k) % NUM_SEATS
            points = int(tables[seat][card])
            if points:
                return seat, points + TU_THAN * (k == 0) + KET_CHUNG * last
        flipper = (flipper + 1) % NUM_SEATS
    return -1, 0


__all__ = ["KET_CHUNG", "TU_THAN", "offer_round", "showdown"]
