"""The deal of a vòng in numba, bit for bit :meth:`~env121.engine.deal.Deal.from_seed`.

The batched engine deals inside its kernels: :func:`deal_into` draws the
shuffled deck from the deal's stream (:func:`env121.engine.shuffle.shuffled_deck_into`,
the one implementation :meth:`~env121.engine.deal.Deal.from_seed` also
calls) and deals it as :meth:`~env121.engine.deal.Deal.from_deck` does.
``tests/engine/test_batched_rng.py`` checks the deals against the reference.

Kernel (``njit(cache=True, nogil=True)``, callable from other kernels):
``deal_into(seed, van, vong, dealer, rotation, hands, an_si, noc) -> chi_diem``
writes ``hands[4, 5]`` (sorted), ``an_si[4]`` and ``noc[96]``.

``seed``, ``van`` and ``vong`` may be any numba integer type (they are read as
uint64), the output arrays any integer dtype that holds 0..120 (``int8`` does);
each new combination of types is one more compilation, so a caller keeps to
one. :func:`deal_from_seed` is the Python face, for tests and tools.

Range: ``seed``, ``van`` and ``vong`` are integers in ``0 .. 2**64-1`` (what a
uint64 holds; the reference also takes larger seeds, which the batched state
cannot store), ``dealer`` and ``rotation`` in ``0 .. 3``. The kernels trust
their arguments; :func:`deal_from_seed`, the Python face, checks them.
"""

from __future__ import annotations

import operator

import numpy as np
from numba import njit

from env121.engine.deal import HAND_SIZE, NOC_SIZE, NUM_AN_SI, NUM_SEATS, Deal
from env121.engine.shuffle import shuffled_deck_into
from env121.rules.cards import NUM_CARDS

MAX_KEY = 2**64 - 1
"""The largest ``seed``, ``van`` or ``vong`` the compiled deal takes."""

_DEALT = NUM_SEATS * HAND_SIZE
"""Cards dealt round the table before the Chỉ Điểm."""


@njit(cache=True, nogil=True)
def deal_into(
    seed: np.uint64,
    van: np.uint64,
    vong: np.uint64,
    dealer: int,
    rotation: int,
    hands: np.ndarray,
    an_si: np.ndarray,
    noc: np.ndarray,
) -> int:
    """Deal vòng ``vong`` of ván ``van`` of match ``seed`` as
    ``Deal.from_seed(seed, van, vong, dealer, rotation)``, into arrays.

    Writes ``hands`` (``[4, 5]``, seat by seat, each hand sorted by card id),
    ``an_si`` (``[4]``, in turning order) and ``noc`` (``[96]``, top card
    first); returns the Chỉ Điểm. Arguments as the module says: ``seed``,
    ``van``, ``vong`` in ``0 .. 2**64-1``, ``dealer`` and ``rotation`` in
    ``0 .. 3``.
    """
    deck = np.empty(NUM_CARDS, dtype=np.int64)
    shuffled_deck_into(seed, van, vong, deck)
    for seat in range(NUM_SEATS):
        # Card i went to seat (dealer + i) % 4; seat gets the cards of seat + rotation.
        first = (seat + rotation - dealer) % NUM_SEATS
        for k in range(HAND_SIZE):
            card = deck[first + NUM_SEATS * k]
            at = k
            while at > 0 and hands[seat, at - 1] > card:  # insertion sort
                hands[seat, at] = hands[seat, at - 1]
                at -= 1
            hands[seat, at] = card
    for k in range(NUM_AN_SI):
        an_si[k] = deck[_DEALT + 1 + k]
    for k in range(NOC_SIZE):
        noc[k] = deck[_DEALT + 1 + NUM_AN_SI + k]
    return int(deck[_DEALT])


def _checked(name: str, value: int, largest: int) -> int:
    """``value`` as an int in ``0 .. largest``, or a ValueError naming it."""
    try:
        number = operator.index(value)
    except TypeError:
        number = -1
    if isinstance(value, bool) or not 0 <= number <= largest:
        shown = "2**64-1" if largest == MAX_KEY else str(largest)
        raise ValueError(f"{name} must be an integer in 0..{shown}, got {value!r}")
    return number


def deal_from_seed(seed: int, van: int, vong: int, dealer: int, rotation: int = 0) -> Deal:
    """``Deal.from_seed(seed, van, vong, dealer, rotation)``, dealt by the kernel.

    ``seed``, ``van`` and ``vong`` must be integers in ``0..2**64-1``,
    ``dealer`` and ``rotation`` in ``0..3``; anything else is a ValueError.
    """
    hands = np.empty((NUM_SEATS, HAND_SIZE), dtype=np.int64)
    an_si = np.empty(NUM_AN_SI, dtype=np.int64)
    noc = np.empty(NOC_SIZE, dtype=np.int64)
    chi_diem = deal_into(
        np.uint64(_checked("seed", seed, MAX_KEY)),
        np.uint64(_checked("van", van, MAX_KEY)),
        np.uint64(_checked("vong", vong, MAX_KEY)),
        np.int64(_checked("dealer", dealer, NUM_SEATS - 1)),
        np.int64(_checked("rotation", rotation, NUM_SEATS - 1)),
        hands,
        an_si,
        noc,
    )
    return Deal(
        tuple(tuple(int(c) for c in hand) for hand in hands),
        chi_diem,
        tuple(int(c) for c in an_si),
        tuple(int(c) for c in noc),
    )


__all__ = ["MAX_KEY", "deal_from_seed", "deal_into"]
