"""The ``swap_wins`` and ``nb_wins`` input parts
(:data:`agents.inputs.SWAP_WINS_LAYOUT`,
:data:`~agents.inputs.NB_WINS_LAYOUT`) for many games at once:
:func:`encode_swap_wins` and :func:`encode_nb_wins` fill, for the seat to act
in each game of a :class:`~env121.engine.batched.BatchedEngine` asked, the
values the readable definitions :func:`tests.support.hints.swap_wins` and
:func:`tests.support.hints.nb_wins` compute from that seat's
:class:`~env121.play.turn.Turn` — the same values
(``tests/agents/test_batched_hints.py`` compares them at every step)::

    part = np.empty((len(games), SWAP_WINS_SIZE), dtype=np.float32)
    encode_swap_wins(engine.games, games, engine.kernel_config, part)

It is built from the compiled pieces of :mod:`agents.batched_greedy`: what
the seat knows (:func:`~agents.batched_greedy.seat_knowledge`), what a hand wins on
(:func:`~agents.batched_greedy.hand_wins`, which scores only the unseen cards
that may complete it) and what a fixed Nhất Bản arrangement wins on
(:func:`~agents.batched_greedy.arrangement_wins`). ``nb_wins`` scores every
legal arrangement the decision leaves open, exactly; to save time it scores
them by falling upper bound (:func:`~agents.batched_greedy.arrangement_bound`)
and skips one whose bounds cannot beat the best its action has found, by
points and then waits (a bound of 0 means no unseen card completes it: it wins
nothing; when the bounds are tight, as they often are, most of a hand's
hundreds of arrangements tie and need not be scored), and it remembers per seat
what it scored at the moment (:func:`new_nb_memory`): a declaration's choice,
gap and placements judge the same arrangements, so each is scored once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.batched_greedy import (
    MOMENT_SIZE,
    Record,
    arrangement_bound,
    arrangement_wins,
    hand_wins,
    is_cuop,
    legal_arrangements,
    may_complete,
    moment_key,
    row_cards,
    seat_knowledge,
    swapped_five,
)
from agents.inputs import NB_WINS_LAYOUT, SWAP_POINTS_SCALE, SWAP_WAITS_SCALE, SWAP_WINS_LAYOUT
from env121.engine.actions import CARD_BASE, NB_GAP_BASE, NHAT_BAN, NUM_ACTIONS, PASS
from env121.engine.kernel.record import PHASES
from env121.engine.state import NUM_SEATS, Phase
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.waits import (
    GAP,
    GAP_SLOT,
    NUM_ARRANGEMENTS,
    NUM_SLOTS,
    PLACEMENT_ORDER,
)

SWAP_WINS_SIZE = SWAP_WINS_LAYOUT.size
"""Entries of the ``swap_wins`` part for one game."""
NB_WINS_SIZE = NB_WINS_LAYOUT.size
"""Entries of the ``nb_wins`` part for one game."""
_OFFER = PHASES.index(Phase.OFFER)
_NB_CHOICE = PHASES.index(Phase.NB_CHOICE)
_NB_GAP = PHASES.index(Phase.NB_GAP)
_NB_PLACE = PHASES.index(Phase.NB_PLACE)
_HAND = NUM_SLOTS - 1
_POINTS = SWAP_WINS_LAYOUT.offsets["swap_points"]
_WAITS = SWAP_WINS_LAYOUT.offsets["swap_waits"]
_NB_POINTS = NB_WINS_LAYOUT.offsets["nb_points"]
_NB_WAITS = NB_WINS_LAYOUT.offsets["nb_waits"]


@njit(cache=True, nogil=True)
def swap_wins(r: Record, kc: KernelConfig, out: np.ndarray) -> None:
    """:func:`tests.support.hints.swap_wins` for the seat to act in game record ``r``,
    into ``out`` (``float32[SWAP_WINS_SIZE]``)."""
    out[:] = 0.0
    if r.phase != _OFFER:
        return
    seat = r.to_act
    unseen, n_unseen, public, dealer, own = seat_knowledge(r, seat)
    locked = r.n_locked[seat] > 0
    cuop = is_cuop(r, seat)
    five = np.empty(_HAND, dtype=np.int64)
    for i in range(r.n_legal):
        action = int(r.legal[i])
        if CARD_BASE <= action < CARD_BASE + NUM_CARDS:
            swapped_five(own, action - CARD_BASE, r.offer_card, five)
            points, waits = hand_wins(five, locked or cuop, unseen, n_unseen, public, dealer, kc)
        elif action == PASS and r.nhat_ban[seat]:
            arrangement = np.empty(NUM_SLOTS, dtype=np.int64)
            for slot in range(NUM_SLOTS):
                arrangement[slot] = r.nb_arrangement[seat, slot]
            found = np.full(n_unseen, -1, dtype=np.int64)
            points, waits = arrangement_wins(
                arrangement, unseen, n_unseen, found, public, dealer, kc
            )
        elif action == PASS:
            points, waits = hand_wins(own, locked, unseen, n_unseen, public, dealer, kc)
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


@njit(cache=True, nogil=True)
def _leaves_open(r: Record, arrangement: np.ndarray, next_slot: int) -> int:
    """:func:`tests.support.hints._leaves_open` for the decision of game record ``r``
    (``next_slot``: the slot NB_PLACE fills now): the action after which
    ``arrangement`` can still be laid out, or -1."""
    if r.phase == _NB_CHOICE:
        return NHAT_BAN
    if r.phase == _NB_GAP:
        for slot in range(NUM_SLOTS):
            if arrangement[slot] == GAP:
                return NB_GAP_BASE + slot
    if arrangement[r.nb_gap] != GAP:
        return -1
    for k in range(r.n_placed):
        if arrangement[PLACEMENT_ORDER[r.nb_gap, k]] != r.nb_placed[k]:
            return -1
    return int(CARD_BASE + arrangement[next_slot])


_FOUND = MOMENT_SIZE
_CARD_BOUND = _FOUND + NUM_CARDS
_ROW_BOUND = _CARD_BOUND + NUM_CARDS
_ROW_WAITS_BOUND = _ROW_BOUND + NUM_ARRANGEMENTS
_ROW_POINTS = _ROW_WAITS_BOUND + NUM_ARRANGEMENTS
_ROW_WAITS = _ROW_POINTS + NUM_ARRANGEMENTS
NB_MEMORY_SIZE = _ROW_WAITS + NUM_ARRANGEMENTS
"""Ints in one seat's Nhất Bản memory (:func:`new_nb_memory`): the key of its
moment (:func:`~agents.batched_greedy.moment_key`), then per card the Thế its
six may win with and its bound (``found`` and ``bounds`` of
:func:`~agents.batched_greedy.arrangement_bound`), per arrangement row its
points and waits bounds, its points and its waits (-1: not computed yet)."""


def new_nb_memory(num_games: int) -> np.ndarray:
    """An empty Nhất Bản memory for ``num_games`` games, one per seat
    (``int64 [num_games, NUM_SEATS, NB_MEMORY_SIZE]``). A declaration's
    NB_CHOICE, its NB_GAP and its five NB_PLACE judge the same arrangements
    at the same moment; :func:`nb_wins` remembers what it computed for one and
    reads it back for the next, so the seven decisions cost about one."""
    return np.full((num_games, NUM_SEATS, NB_MEMORY_SIZE), -1, dtype=np.int64)


@njit(cache=True, nogil=True)
def nb_wins(r: Record, kc: KernelConfig, memory: np.ndarray, out: np.ndarray) -> None:
    """:func:`tests.support.hints.nb_wins` for the seat to act in game record ``r``,
    into ``out`` (``float32[NB_WINS_SIZE]``); ``memory`` is the game's
    (``new_nb_memory(...)[g]``)."""
    out[:] = 0.0
    if r.phase != _NB_CHOICE and r.phase != _NB_GAP and r.phase != _NB_PLACE:
        return
    seat = r.to_act
    unseen, n_unseen, public, dealer, own = seat_knowledge(r, seat)
    m = memory[seat]
    if not moment_key(own, unseen, n_unseen, public, dealer, m[:MOMENT_SIZE]):
        m[MOMENT_SIZE:] = -1
    best_points = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    best_waits = np.zeros(NUM_ACTIONS, dtype=np.int64)
    legal_action = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for i in range(r.n_legal):
        legal_action[r.legal[i]] = True
    if r.phase == _NB_CHOICE:
        best_points[PASS], best_waits[PASS] = hand_wins(
            own, r.n_locked[seat] > 0, unseen, n_unseen, public, dealer, kc
        )
    legal = legal_arrangements(own, kc)
    next_slot = PLACEMENT_ORDER[r.nb_gap, r.n_placed] if r.phase == _NB_PLACE else -1
    cards, n_cards = may_complete(own, unseen, n_unseen)
    found = np.empty(n_cards, dtype=np.int64)
    bounds = np.empty(n_cards, dtype=np.int64)
    for k in range(n_cards):
        found[k] = m[_FOUND + cards[k]]
        bounds[k] = m[_CARD_BOUND + cards[k]]
    # the arrangements left open, by falling (bound, row)
    arrangement = np.empty(NUM_SLOTS, dtype=np.int64)
    order_keys = np.empty(NUM_ARRANGEMENTS, dtype=np.int64)
    action_of = np.empty(NUM_ARRANGEMENTS, dtype=np.int64)
    n_open = 0
    for n in range(NUM_ARRANGEMENTS):
        if not legal[n] or (r.phase == _NB_PLACE and GAP_SLOT[n] != r.nb_gap):
            continue
        row_cards(own, n, arrangement)
        action = _leaves_open(r, arrangement, next_slot)
        if action < 0 or not legal_action[action]:
            continue
        if m[_ROW_BOUND + n] < 0:
            m[_ROW_BOUND + n], m[_ROW_WAITS_BOUND + n] = arrangement_bound(
                arrangement, cards, n_cards, found, bounds, public, dealer, kc
            )
        action_of[n] = action
        order_keys[n_open] = -(m[_ROW_BOUND + n] * NUM_ARRANGEMENTS + n)
        n_open += 1
    keys = np.sort(order_keys[:n_open])
    for i in range(n_open):
        bound, row = divmod(-keys[i], NUM_ARRANGEMENTS)
        action = action_of[row]
        if bound < best_points[action] or (
            bound == best_points[action] and m[_ROW_WAITS_BOUND + row] <= best_waits[action]
        ):
            continue  # it cannot beat the best its action has found
        if m[_ROW_POINTS + row] < 0:
            points, waits = 0, 0
            if bound > 0:
                row_cards(own, row, arrangement)
                points, waits = arrangement_wins(
                    arrangement, cards, n_cards, found, public, dealer, kc
                )
            m[_ROW_POINTS + row], m[_ROW_WAITS + row] = points, waits
        points, waits = m[_ROW_POINTS + row], m[_ROW_WAITS + row]
        if points > best_points[action] or (
            points == best_points[action] and waits > best_waits[action]
        ):
            best_points[action], best_waits[action] = points, waits
    for k in range(n_cards):
        m[_FOUND + cards[k]] = found[k]
        m[_CARD_BOUND + cards[k]] = bounds[k]
    for action in range(NUM_ACTIONS):
        if best_points[action] >= 0:
            out[_NB_POINTS + action] = best_points[action] / SWAP_POINTS_SCALE
            out[_NB_WAITS + action] = best_waits[action] / SWAP_WAITS_SCALE


@njit(cache=True, nogil=True)
def encode_nb_wins(
    games: np.ndarray, indices: np.ndarray, kc: KernelConfig, memory: np.ndarray, out: np.ndarray
) -> None:
    """``out[k]`` = the ``nb_wins`` part (:func:`nb_wins`) for the seat to act
    in game ``indices[k]`` of ``games``, for every ``k`` (``int64`` indices,
    ``memory`` the games' :func:`new_nb_memory`, ``out`` ``float32
    [len(indices), NB_WINS_SIZE]``; no checks)."""
    for k in range(indices.shape[0]):
        g = indices[k]
        nb_wins(games[g], kc, memory[g], out[k])


__all__ = [
    "NB_MEMORY_SIZE",
    "NB_WINS_SIZE",
    "SWAP_WINS_SIZE",
    "encode_nb_wins",
    "encode_swap_wins",
    "nb_wins",
    "new_nb_memory",
    "swap_wins",
]
