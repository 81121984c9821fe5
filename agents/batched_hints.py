"""The ``swap_wins`` input part (:data:`env121.play.observation.SWAP_WINS_LAYOUT`)
for many games at once: :func:`encode_swap_wins` fills, for the seat to act in
each game of a :class:`~env121.engine.batched.BatchedEngine` asked, the values
:func:`agents.hints.swap_wins` computes from that seat's
:class:`~env121.play.turn.Turn` — the same values
(``tests/agents/test_batched_hints.py`` compares them at every step)::

    part = np.empty((len(games), SWAP_WINS_SIZE), dtype=np.float32)
    encode_swap_wins(engine.games, games, engine.kernel_config, part)

It is built from the compiled pieces of :mod:`agents.batched_greedy`: what
the seat knows (:func:`~agents.batched_greedy.seat_knowledge`), what a hand wins on
(:func:`~agents.batched_greedy.hand_wins`, which scores only the unseen cards
that may complete it) and what a fixed Nhất Bản arrangement wins on
(:func:`~agents.batched_greedy.arrangement_wins`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.batched_greedy import (
    Record,
    arrangement_wins,
    hand_wins,
    is_cuop,
    seat_knowledge,
    swapped_five,
)
from env121.engine.actions import CARD_BASE, PASS
from env121.engine.batched.state import PHASES
from env121.engine.state import Phase
from env121.play.observation import SWAP_POINTS_SCALE, SWAP_WAITS_SCALE, SWAP_WINS_LAYOUT
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.waits import NUM_SLOTS

SWAP_WINS_SIZE = SWAP_WINS_LAYOUT.size
"""Entries of the part for one game."""
_OFFER = PHASES.index(Phase.OFFER)
_HAND = NUM_SLOTS - 1
_POINTS = SWAP_WINS_LAYOUT.offsets["swap_points"]
_WAITS = SWAP_WINS_LAYOUT.offsets["swap_waits"]


@njit(cache=True, nogil=True)
def swap_wins(r: Record, kc: KernelConfig, out: np.ndarray) -> None:
    """:func:`agents.hints.swap_wins` for the seat to act in game record ``r``,
    into ``out`` (``float32[SWAP_WINS_SIZE]``)."""
    out[:] = 0.0
    if r.phase != _OFFER:
        return
    seat = r.to_act
    unseen, n_unseen, an_si, n_an_si, chi_diem, dealer, own = seat_knowledge(r, seat)
    locked = r.n_locked[seat] > 0
    cuop = is_cuop(r, seat)
    five = np.empty(_HAND, dtype=np.int64)
    for i in range(r.n_legal):
        action = int(r.legal[i])
        if CARD_BASE <= action < CARD_BASE + NUM_CARDS:
            swapped_five(own, action - CARD_BASE, r.offer_card, five)
            points, waits = hand_wins(
                five, locked or cuop, unseen, n_unseen, chi_diem, an_si, n_an_si, dealer, kc
            )
        elif action == PASS and r.nhat_ban[seat]:
            arrangement = np.empty(NUM_SLOTS, dtype=np.int64)
            for slot in range(NUM_SLOTS):
                arrangement[slot] = r.nb_arrangement[seat, slot]
            found = np.full(n_unseen, -1, dtype=np.int64)
            points, waits = arrangement_wins(
                arrangement, unseen, n_unseen, found, chi_diem, an_si, n_an_si, dealer, kc
            )
        elif action == PASS:
            points, waits = hand_wins(
                own, locked, unseen, n_unseen, chi_diem, an_si, n_an_si, dealer, kc
            )
        else:
            continue
        out[_POINTS + action] = points / SWAP_POINTS_SCALE
        out[_WAITS + action] = waits / SWAP_WAITS_SCALE


@njit(cache=True, nogil=True)
def encode_swap_wins(
    games: np.ndarray, indices: np.ndarray, kc: KernelConfig, out: np.ndarray
) -> None:
    """``out[k]`` = the ``swap_wins`` part (:func:`swap_wins`) for the seat to
    act in game ``indices[k]`` of ``games``, for every ``k`` (``int64``
    indices, ``out`` ``float32 [len(indices), SWAP_WINS_SIZE]``; no checks)."""
    for k in range(indices.shape[0]):
        swap_wins(games[indices[k]], kc, out[k])


__all__ = ["SWAP_WINS_SIZE", "encode_swap_wins", "swap_wins"]
