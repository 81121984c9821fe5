"""``greedy``'s one definition, the compiled kernel, and its batched form:
:class:`BatchedGreedy` picks, for many games of a
:class:`~env121.engine.batched.BatchedEngine` at once, the action the readable
Python greedy (``tests/support/greedy.py``) would pick from the seat's
:class:`~env121.play.turn.Turn` — the same action, not an imitation of it
(``tests/agents/test_batched_greedy.py`` checks every decision in lock-step);
:class:`agents.greedy.GreedyAgent` is the same kernel for one game::

    engine = BatchedEngine(1024, config)
    greedy = BatchedGreedy()                       # cuop_margin=4.0, nhat_ban_waits=2
    games = np.flatnonzero(engine.to_act != learner_seat)
    actions[games] = greedy.act(engine, games)

The kernel :func:`greedy_actions` is the agent's decision, step by step, on a
game's record (:mod:`env121.engine.kernel.record`) instead of a
:class:`~env121.engine.view.SeatView`:

* the seat's *unseen* cards are :func:`tests.support.knowledge.unseen_cards`: every
  card except its free cards, the dead cards, the Chỉ Điểm, the revealed Ẩn
  Sĩ, every seat's locked and known cards and the card on offer;
* a hand's value is :meth:`tests.support.knowledge.HandJudge.value`: the Điểm of each
  win on an unseen card (the compiled scorer,
  :func:`env121.rules.compiled.scoring.score_normal`; the cards the reference's
  win table leaves at 0 are never unseen), summed as an integer, then
  ``float(points) + RELATED_PAIR_WEIGHT * pairs`` — the same float operations
  in the same order, so every comparison (``gain > best_gain``, ``value <
  free value``) ties and breaks exactly as in Python;
* the Nhất Bản candidates are
  :meth:`~tests.support.knowledge.HandJudge.nhat_ban_candidates` as a set of rows of
  :data:`env121.rules.compiled.waits.INDEX_ARRANGEMENTS`: the hand is sorted
  and the gap (-1) is below every card, so the order of those rows is the order
  of the card tuples, and the reference's ``max`` by (value, arrangement) is the
  last row of the highest value. A layout of a Thế win (the scorer's witness
  with its card taken out) finds its row by its rank among the permutations
  (:func:`arrangement_row`).

Like the agent, the policy remembers the best arrangement it found at a moment
(:func:`new_plans`, one per game and engine), so a declaration and the six
placement actions that follow search it once.

Where it saves time it changes no answer: it scores only the cards that pass a
necessary condition for a win (:mod:`env121.rules.compiled.sixth`: six
cards that complete no hand win nothing), and it scores the Nhất Bản
candidates by falling upper bound (:func:`arrangement_bound`), stopping where
no bound can reach the best found.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

import numpy as np
from numba import njit

from agents.knowledge import NHAT_BAN_SAMPLE, RELATED_PAIR_WEIGHT
from env121.engine.actions import CARD_BASE, NB_GAP_BASE, NHAT_BAN, PASS, THE_TRANG, U
from env121.engine.batched.engine import BatchedEngine
from env121.engine.batched.threads import SliceThreads
from env121.engine.deal import NUM_AN_SI
from env121.engine.kernel.record import PHASES
from env121.engine.state import NUM_SEATS, Phase
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.scoring import (
    achievable,
    bonus_mask,
    completed_shape,
    score_arranged,
    score_normal,
    score_win,
)
from env121.rules.compiled.search import sort_six
from env121.rules.compiled.sixth import gap_cards, may_win, sixth_cards
from env121.rules.compiled.tables import (
    BONUS_IDS,
    CARD_FIG,
    CARD_SUIT,
    FALSE,
    NHAT_BAN_BIT,
    NUM_THES,
    THE_TIER,
    ZERO,
)
from env121.rules.compiled.waits import (
    GAP,
    INDEX_ARRANGEMENTS,
    NUM_ARRANGEMENTS,
    NUM_SLOTS,
    PLACEMENT_ORDER,
    fill_gap,
    waiting_mask,
)

Record = Any
"""One game's record (``games[g]``, numba's Record type): :mod:`env121.engine.kernel.record`."""

_OFFER = PHASES.index(Phase.OFFER)
_NB_CHOICE = PHASES.index(Phase.NB_CHOICE)
_NB_GAP = PHASES.index(Phase.NB_GAP)
_HAND = NUM_SLOTS - 1
"""Cards in a seat's hand, free and locked."""
NUM_BONUS_BITS = len(BONUS_IDS)
"""Bits of a bonus mask (:data:`env121.rules.compiled.tables.BONUS_IDS`)."""
MIN_GAMES_PER_THREAD = 8
"""Fewer decisions than this per thread are made by fewer threads (a greedy
decision costs tens of µs, waking a thread about as much)."""


# ------------------------------------------------------------ what it knows


@njit(cache=True, nogil=True)
def unseen_cards(r: Record, seat: int, out: np.ndarray) -> int:
    """:func:`tests.support.knowledge.unseen_cards` of ``seat`` in game record ``r``:
    the cards it cannot place, ascending into ``out`` (121 entries); how many."""
    seen = np.zeros(NUM_CARDS, dtype=np.bool_)
    for i in range(r.n_free[seat]):
        seen[r.hands[seat, i]] = True
    for i in range(r.n_dead):
        seen[r.dead[i]] = True
    if r.chi_diem >= 0:
        seen[r.chi_diem] = True
    for k in range(r.an_si_revealed):
        seen[r.an_si[k]] = True
    for s in range(NUM_SEATS):
        for i in range(r.n_locked[s]):
            seen[r.locked[s, i]] = True
        for i in range(r.n_known[s]):
            seen[r.known[s, i]] = True
    if r.offer_card >= 0:
        seen[r.offer_card] = True
    n = 0
    for c in range(NUM_CARDS):
        if not seen[c]:
            out[n] = c
            n += 1
    return n


@njit(cache=True, nogil=True)
def related_pairs(five: np.ndarray) -> int:
    """:func:`tests.support.knowledge.related_pairs`: pairs of the five sharing
    a figure or a suit."""
    n = 0
    for i in range(_HAND):
        for j in range(i + 1, _HAND):
            if CARD_FIG[five[i]] == CARD_FIG[five[j]] or CARD_SUIT[five[i]] == CARD_SUIT[five[j]]:
                n += 1
    return n


@njit(cache=True, nogil=True)
def may_complete(own: np.ndarray, unseen: np.ndarray, n_unseen: int) -> tuple[np.ndarray, int]:
    """``(cards, n)``: the unseen cards that may complete the five ``own`` in
    some order (:func:`may_win` of :func:`sixth_cards`), ``cards[:n]``. A Nhất
    Bản arrangement is the five in one order, so only these may complete it:
    the arrangement loops below score them and skip the rest."""
    sixth = sixth_cards(own)
    cards = np.empty(n_unseen, dtype=np.int64)
    n = 0
    for k in range(n_unseen):
        if may_win(sixth, unseen[k]):
            cards[n] = unseen[k]
            n += 1
    return cards, n


@njit(cache=True, nogil=True)
def hand_wins(
    five: np.ndarray,
    locked: bool,
    unseen: np.ndarray,
    n_unseen: int,
    public: PublicCards,
    dealer: bool,
    kc: KernelConfig,
) -> tuple[int, int]:
    """What five cards (any order) in a normal hand (Bội ước with ``locked``)
    win on: ``(points, waits)``, the Điểm of Ù on each unseen card summed
    (:meth:`tests.support.knowledge.HandJudge.table` over the unseen cards) and how many
    unseen cards win. Only the unseen cards that pass :func:`sixth_cards` are
    scored."""
    points = 0
    waits = 0
    sixth = sixth_cards(five)
    for k in range(n_unseen):
        c = unseen[k]
        if not may_win(sixth, c):
            continue
        six = sort_six((five[0], five[1], five[2], five[3], five[4], c))
        valid, _, _, diem, _, _ = score_normal(six, locked, public, dealer, FALSE, FALSE, kc)
        if valid:
            points += diem
            if diem > 0:
                waits += 1
    return points, waits


@njit(cache=True, nogil=True)
def hand_value(
    five: np.ndarray,
    locked: bool,
    unseen: np.ndarray,
    n_unseen: int,
    public: PublicCards,
    dealer: bool,
    kc: KernelConfig,
) -> float:
    """:meth:`tests.support.knowledge.HandJudge.value` of five cards (any order) in a
    normal hand (Bội ước with ``locked``): the points of :func:`hand_wins`
    plus the related-pairs term."""
    points, _ = hand_wins(five, locked, unseen, n_unseen, public, dealer, kc)
    return float(points) + RELATED_PAIR_WEIGHT * related_pairs(five)


@njit(cache=True, nogil=True, inline="always")
def arrangement_bound(
    arrangement: np.ndarray,
    unseen: np.ndarray,
    n_unseen: int,
    found: np.ndarray,
    bounds: np.ndarray,
    public: PublicCards,
    dealer: bool,
    kc: KernelConfig,
) -> tuple[int, int]:
    """At least what :func:`arrangement_wins` finds for ``arrangement``,
    cheaper: ``(points, waits)`` bounds. Per unseen card completing it,
    ``bounds[k]`` (filled here where -1) = the highest tier of the Thế its six
    cards may win with in some order (``found[k]``, as in
    :func:`arrangement_wins`) plus its Thưởng and the Nhất Bản bonus, which do
    not depend on the order; the points bound sums them, the waits bound counts
    the cards."""
    total = 0
    completing = 0
    gap = gap_cards(arrangement)
    for k in range(n_unseen):
        if not may_win(gap, unseen[k]):
            continue
        a = fill_gap(arrangement, unseen[k])
        if completed_shape(a) == 0:
            continue
        if bounds[k] < 0:
            if found[k] < 0:
                found[k] = achievable(sort_six(a), kc, public)
            tier = 0
            for t in range(NUM_THES):
                if found[k] >> t & 1:
                    tier = max(tier, THE_TIER[t])
            bonuses = bonus_mask(a, kc.left_figures, dealer, FALSE, FALSE) | NHAT_BAN_BIT
            for b in range(NUM_BONUS_BITS):
                tier += bonuses >> b & 1
            bounds[k] = tier
        total += bounds[k]
        completing += 1
    return total, completing


@njit(cache=True, nogil=True, inline="always")
def arrangement_wins(
    arrangement: np.ndarray,
    unseen: np.ndarray,
    n_unseen: int,
    found: np.ndarray,
    public: PublicCards,
    dealer: bool,
    kc: KernelConfig,
) -> tuple[int, int]:
    """For a Nhất Bản arrangement (six slots, ``GAP`` in one): the Điểm of its
    wins on unseen cards, summed (:meth:`~tests.support.knowledge.HandJudge.value`),
    and how many unseen cards win (:meth:`~tests.support.knowledge.HandJudge.waits`).

    Each win is ``score_nhat_ban`` (the compiled win table's question); the
    Thế the six may win with in some order depend on the cards, not on their
    order, so ``found[k]`` keeps them for ``unseen[k]`` (-1: not searched yet)
    across the arrangements of one hand."""
    points = 0
    waits = 0
    gap = gap_cards(arrangement)
    for k in range(n_unseen):
        if not may_win(gap, unseen[k]):
            continue
        a = fill_gap(arrangement, unseen[k])
        if completed_shape(a) == 0:
            continue
        if found[k] < 0:
            found[k] = achievable(sort_six(a), kc, public)
        valid, _, _, diem, _, _ = score_arranged(a, found[k], public, dealer, FALSE, FALSE, kc)
        if valid:
            points += diem
            if diem != 0:
                waits += 1
    return points, waits


# ------------------------------------------------------------- Nhất Bản


@njit(cache=True, nogil=True)
def _sort_in_place(values: np.ndarray, n: int) -> None:
    """Sort ``values[:n]`` ascending (insertion sort: a few dozen values at most)."""
    for i in range(1, n):
        v = values[i]
        j = i
        while j > 0 and values[j - 1] > v:
            values[j] = values[j - 1]
            j -= 1
        values[j] = v


@njit(cache=True, nogil=True)
def arrangement_row(indices: np.ndarray) -> int:
    """The row of ``INDEX_ARRANGEMENTS`` holding this arrangement of hand
    indices (``GAP`` in the empty slot): its rank among the sorted
    permutations of (GAP, 0, 1, 2, 3, 4), by its Lehmer code."""
    rank = 0
    for i in range(NUM_SLOTS):
        smaller = 0
        for j in range(i + 1, NUM_SLOTS):
            if indices[j] < indices[i]:
                smaller += 1
        rank = rank * (NUM_SLOTS - i) + smaller
    return rank


@njit(cache=True, nogil=True)
def row_cards(own: np.ndarray, row: int, out: np.ndarray) -> None:
    """The arrangement of row ``row`` with the sorted hand's cards, into ``out``."""
    for slot in range(NUM_SLOTS):
        i = INDEX_ARRANGEMENTS[row, slot]
        out[slot] = GAP if i == GAP else own[i]


@njit(cache=True, nogil=True, inline="always")
def legal_arrangements(own: np.ndarray, kc: KernelConfig) -> np.ndarray:
    """``bool[NUM_ARRANGEMENTS]``: the rows of the Nhất Bản arrangements of
    the sorted five ``own`` the rules allow — those that wait on a card
    ([R-8], :func:`~env121.rules.compiled.waits.waiting_mask`), or all of
    them when ``nhat_ban_requires_wait`` is off."""
    legal = np.ones(NUM_ARRANGEMENTS, dtype=np.bool_)
    if kc.nhat_ban_requires_wait:
        waiting_mask(own, legal)
    return legal


@njit(cache=True, nogil=True)
def best_arrangement(
    own: np.ndarray,
    unseen: np.ndarray,
    n_unseen: int,
    public: PublicCards,
    dealer: bool,
    kc: KernelConfig,
) -> tuple[int, int, int, int]:
    """:meth:`tests.support.greedy.GreedyAgent.best_arrangement` of the sorted five
    ``own``: ``(row, points, waits, free_points)`` — the row of the best
    arrangement (-1: no legal one), the Điểm summed over its unseen wins and
    how many unseen cards win on it, and the Điểm summed over the free hand's
    unseen wins (for the value it must match)."""
    legal = legal_arrangements(own, kc)
    candidate = np.zeros(NUM_ARRANGEMENTS, dtype=np.bool_)
    # the layout of each Thế win on an unseen card, its card taken out
    free_points = 0
    six = np.empty(NUM_SLOTS, dtype=np.int64)
    witness = np.empty(NUM_SLOTS, dtype=np.int64)
    indices = np.empty(NUM_SLOTS, dtype=np.int64)
    for i in range(_HAND):
        six[i] = own[i]
    sixth = sixth_cards(own)
    for k in range(n_unseen):
        c = unseen[k]
        if not may_win(sixth, c):
            continue
        six[_HAND] = c
        valid, _, _, diem, _, _ = score_win(
            six, FALSE, FALSE, public, dealer, FALSE, FALSE, kc, witness
        )
        if not valid:
            continue
        free_points += diem
        for slot in range(NUM_SLOTS):
            indices[slot] = GAP
            for i in range(_HAND):
                if own[i] == witness[slot]:
                    indices[slot] = i
        row = arrangement_row(indices)
        if legal[row]:
            candidate[row] = True
    # then every step-th legal arrangement in sorted order
    n_legal = 0
    for n in range(NUM_ARRANGEMENTS):
        n_legal += legal[n]
    step = max(1, n_legal // NHAT_BAN_SAMPLE)
    k = 0
    for n in range(NUM_ARRANGEMENTS):
        if legal[n]:
            if k % step == 0:
                candidate[n] = True
            k += 1
    # the reference's max by (value, arrangement) = by (points, row): score the
    # candidates by falling (bound, row) until no bound can reach the best
    arrangement = np.empty(NUM_SLOTS, dtype=np.int64)
    cards, n_cards = may_complete(own, unseen, n_unseen)
    found = np.full(n_cards, -1, dtype=np.int64)
    bounds = np.full(n_cards, -1, dtype=np.int64)
    order_keys = np.empty(NUM_ARRANGEMENTS, dtype=np.int64)
    n_candidates = ZERO
    for n in range(NUM_ARRANGEMENTS):
        if candidate[n]:
            row_cards(own, n, arrangement)
            bound, _ = arrangement_bound(
                arrangement, cards, n_cards, found, bounds, public, dealer, kc
            )
            order_keys[n_candidates] = -(bound * NUM_ARRANGEMENTS + n)
            n_candidates += 1
    _sort_in_place(order_keys, n_candidates)
    best, best_points, best_waits = -1, -1, 0
    for i in range(n_candidates):
        bound, row = divmod(-order_keys[i], NUM_ARRANGEMENTS)
        if bound < best_points or (bound == best_points and row < best):
            break  # neither this (points, row) nor a later one can exceed the best's
        row_cards(own, row, arrangement)
        points, waits = arrangement_wins(arrangement, cards, n_cards, found, public, dealer, kc)
        if points > best_points or (points == best_points and row > best):
            best, best_points, best_waits = row, points, waits
    return best, best_points, best_waits, free_points


@njit(cache=True, nogil=True)
def _placement(r: Record, own: np.ndarray, best: int) -> int:
    """:meth:`tests.support.greedy.GreedyAgent.placement`: the NB_GAP / CARD action
    laying out arrangement row ``best`` (-1: none), or the first legal action
    where it cannot."""
    first = int(r.legal[0])
    if best < 0:
        return first
    arrangement = np.empty(NUM_SLOTS, dtype=np.int64)
    row_cards(own, best, arrangement)
    gap = 0
    for slot in range(NUM_SLOTS):
        if arrangement[slot] == GAP:
            gap = slot
    if r.nb_gap >= 0:  # agrees with the placement in progress?
        if gap != r.nb_gap:
            return first
        for k in range(r.n_placed):
            if arrangement[PLACEMENT_ORDER[gap, k]] != r.nb_placed[k]:
                return first
    if r.phase == _NB_GAP:
        action = NB_GAP_BASE + gap
    else:
        action = CARD_BASE + arrangement[PLACEMENT_ORDER[r.nb_gap, r.n_placed]]
    for i in range(r.n_legal):
        if r.legal[i] == action:
            return action
    return first


_KEY_CHI_DIEM = _HAND
_KEY_AN_SI = _KEY_CHI_DIEM + 1
_KEY_DEALER = _KEY_AN_SI + NUM_AN_SI
_KEY_UNSEEN = _KEY_DEALER + 1
MOMENT_SIZE = _KEY_UNSEEN + 2
"""Ints in a moment's key (:func:`moment_key`): the five, the Chỉ Điểm, the
revealed Ẩn Sĩ (-1 for unturned ones), the dealer flag, the unseen cards as
two 64-bit masks."""
_PLAN = 4
"""Ints in a remembered plan: :func:`best_arrangement`'s answer."""


@njit(cache=True, nogil=True, inline="always")
def moment_key(
    own: np.ndarray,
    unseen: np.ndarray,
    n_unseen: int,
    public: PublicCards,
    dealer: bool,
    key: np.ndarray,
) -> bool:
    """Write the key of this moment (:meth:`tests.support.knowledge.HandJudge.moment`:
    everything a seat judges its Nhất Bản arrangements with) into ``key``
    (``int64[MOMENT_SIZE]``); whether ``key`` held it already. A declaration's
    NB_CHOICE, its NB_GAP and its five NB_PLACE are one moment."""
    new = np.full(MOMENT_SIZE, -1, dtype=np.int64)
    for i in range(_HAND):
        new[i] = own[i]
    new[_KEY_CHI_DIEM] = public.chi_diem
    for k in range(public.n_an_si):
        new[_KEY_AN_SI + k] = public.an_si[k]
    new[_KEY_DEALER] = dealer
    new[_KEY_UNSEEN] = 0
    new[_KEY_UNSEEN + 1] = 0
    for k in range(n_unseen):
        c = unseen[k]
        new[_KEY_UNSEEN + c // 64] |= np.int64(1) << (c % 64)
    same = True
    for i in range(MOMENT_SIZE):
        same = same and key[i] == new[i]
        key[i] = new[i]
    return same


def new_plans(num_games: int) -> np.ndarray:
    """An empty arrangement memory for ``num_games`` games: per game the key of
    a moment (:func:`moment_key`) and the answer of :func:`best_arrangement` at
    it, so a declaration's arrangement is searched once, as
    :meth:`tests.support.greedy.GreedyAgent.best_arrangement` remembers it."""
    return np.full((num_games, MOMENT_SIZE + _PLAN), -2, dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def remembered_arrangement(
    plans: np.ndarray,
    own: np.ndarray,
    unseen: np.ndarray,
    n_unseen: int,
    public: PublicCards,
    dealer: bool,
    kc: KernelConfig,
) -> tuple[int, int, int, int]:
    """:func:`best_arrangement`, from the game's memory ``plans`` when it holds
    this moment (the rules are the engine's, the same for every moment of a
    memory), else searched and remembered."""
    if moment_key(own, unseen, n_unseen, public, dealer, plans[:MOMENT_SIZE]):
        return (
            plans[MOMENT_SIZE],
            plans[MOMENT_SIZE + 1],
            plans[MOMENT_SIZE + 2],
            plans[MOMENT_SIZE + 3],
        )
    answer = best_arrangement(own, unseen, n_unseen, public, dealer, kc)
    for i in range(_PLAN):
        plans[MOMENT_SIZE + i] = answer[i]
    return answer


# ------------------------------------------------------------- decisions


@njit(cache=True, nogil=True)
def own_cards(r: Record, seat: int, out: np.ndarray) -> None:
    """The five cards of ``seat`` in game record ``r``, free and locked,
    sorted into ``out`` (:attr:`tests.support.knowledge.HandJudge.own`)."""
    n_free = r.n_free[seat]
    for i in range(n_free):
        out[i] = r.hands[seat, i]
    for i in range(r.n_locked[seat]):
        out[n_free + i] = r.locked[seat, i]
    _sort_in_place(out, np.int64(_HAND))


@njit(cache=True, nogil=True, inline="always")
def seat_knowledge(r: Record, seat: int) -> tuple[np.ndarray, int, PublicCards, bool, np.ndarray]:
    """What ``seat`` of game record ``r`` judges hands with (a
    :class:`tests.support.knowledge.HandJudge`'s view): ``(unseen, n_unseen, public,
    dealer, own)`` — its unseen cards, the Chỉ Điểm and the Ẩn Sĩ turned,
    whether it deals, and its five cards sorted."""
    unseen = np.empty(NUM_CARDS, dtype=np.int64)
    n_unseen = unseen_cards(r, seat, unseen)
    own = np.empty(_HAND, dtype=np.int64)
    own_cards(r, seat, own)
    public = PublicCards(r.chi_diem, r.an_si, r.an_si_revealed)
    return unseen, n_unseen, public, r.dealer == seat, own


@njit(cache=True, nogil=True, inline="always")
def is_cuop(r: Record, seat: int) -> bool:
    """Whether taking the card on offer in ``r`` would be a Cướp for ``seat``:
    neither it nor the seat before it put the card face up."""
    exposer = r.offer_exposer
    return bool(exposer != seat and exposer != (seat + NUM_SEATS - 1) % NUM_SEATS)


@njit(cache=True, nogil=True, inline="always")
def swapped_five(own: np.ndarray, put: int, offer: int, out: np.ndarray) -> None:
    """The five cards after taking ``offer`` and putting ``put`` out
    (:func:`agents.knowledge.swapped_hand`), into ``out``."""
    n = 0
    for j in range(_HAND):
        if own[j] != put:
            out[n] = own[j]
            n += 1
    out[n] = offer


@njit(cache=True, nogil=True, inline="always")
def greedy_action(
    r: Record, kc: KernelConfig, cuop_margin: float, nhat_ban_waits: int, plans: np.ndarray
) -> int:
    """:meth:`tests.support.greedy.GreedyAgent.act` for the seat to act in game record ``r``;
    ``plans`` is the game's row of the arrangement memory (:func:`new_plans`)."""
    n_legal = r.n_legal
    if n_legal == 1:
        return int(r.legal[0])
    for i in range(n_legal):
        if r.legal[i] == U:
            return U
    for i in range(n_legal):
        if r.legal[i] == THE_TRANG:
            return THE_TRANG
    seat = r.to_act
    unseen, n_unseen, public, dealer, own = seat_knowledge(r, seat)
    if r.phase == _OFFER:  # best_swap
        cuop = is_cuop(r, seat)
        best = PASS
        best_gain = cuop_margin if cuop else 0.0
        locked = r.n_locked[seat] > 0
        keep = 0.0  # the value of the hand kept, once a swap is legal
        valued = False
        five = np.empty(_HAND, dtype=np.int64)
        for i in range(n_legal):
            action = int(r.legal[i])
            if not CARD_BASE <= action < CARD_BASE + NUM_CARDS:
                continue
            if not valued:
                keep = hand_value(own, locked, unseen, n_unseen, public, dealer, kc)
                valued = True
            swapped_five(own, action - CARD_BASE, r.offer_card, five)
            gain = hand_value(five, locked or cuop, unseen, n_unseen, public, dealer, kc) - keep
            if gain > best_gain:
                best, best_gain = action, gain
        return best
    best_row, points, waits, free_points = remembered_arrangement(
        plans, own, unseen, n_unseen, public, dealer, kc
    )
    if r.phase == _NB_CHOICE:  # nhat_ban_plan
        declares = nhat_ban_declared(own, best_row, points, waits, free_points, nhat_ban_waits)
        return NHAT_BAN if declares else PASS
    return _placement(r, own, best_row)


@njit(cache=True, nogil=True, inline="always")
def nhat_ban_declared(
    own: np.ndarray, row: int, points: int, waits: int, free_points: int, nhat_ban_waits: int
) -> bool:
    """:meth:`tests.support.greedy.GreedyAgent.nhat_ban_plan` is not None: whether greedy
    declares Nhất Bản with the sorted five ``own`` given :func:`best_arrangement`'s
    answer ``(row, points, waits, free_points)`` — an arrangement that waits on
    at least ``nhat_ban_waits`` unseen cards and is worth at least the free hand."""
    if row < 0 or waits < nhat_ban_waits:
        return False
    free_value = float(free_points) + RELATED_PAIR_WEIGHT * related_pairs(own)
    return not float(points) < free_value


@njit(cache=True, nogil=True)
def declares_after_swap(
    games: np.ndarray, kc: KernelConfig, nhat_ban_waits: int, action: int
) -> bool:
    """Whether greedy, holding the five that swap ``action`` makes for the seat
    to act in the one-record array ``games``, declares Nhất Bản at the choice
    that follows (the unseen cards are the same: a swap moves seen cards only)."""
    r = games[0]
    unseen, n_unseen, public, dealer, own = seat_knowledge(r, r.to_act)
    five = np.empty(_HAND, dtype=np.int64)
    swapped_five(own, action - CARD_BASE, r.offer_card, five)
    _sort_in_place(five, np.int64(_HAND))
    row, points, waits, free_points = best_arrangement(five, unseen, n_unseen, public, dealer, kc)
    return nhat_ban_declared(five, row, points, waits, free_points, nhat_ban_waits)


@njit(cache=True, nogil=True)
def lay_out_nhat_ban(
    worlds: np.ndarray, seat: int, kc: KernelConfig, nhat_ban_waits: int, declares: np.ndarray
) -> None:
    """Greedy as the model of every Nhất Bản declarer in ``seat``'s worlds
    (records drawn by :func:`~env121.engine.kernel.determinize.draw_worlds`):
    in each world ``worlds[w]``, every other seat that declared Nhất Bản (its
    arrangement is fixed: only the seat to act can be laying one out) lays
    out its drawn hand as greedy would (:func:`best_arrangement`, judged
    from that seat's view of the world), and ``declares[w]`` says whether
    greedy would declare Nhất Bản with every such hand
    (:func:`nhat_ban_declared`; the hand is judged now, since a record keeps
    no history of the moment it was declared). A hand with no legal
    arrangement keeps the one drawn and does not declare."""
    arrangement = np.empty(NUM_SLOTS, dtype=np.int64)
    for w in range(worlds.shape[0]):
        r = worlds[w]
        declares[w] = True
        for s in range(NUM_SEATS):
            if s == seat or not r.nhat_ban[s]:
                continue
            unseen, n_unseen, public, dealer, own = seat_knowledge(r, s)
            row, points, waits, free_points = best_arrangement(
                own, unseen, n_unseen, public, dealer, kc
            )
            declares[w] = declares[w] and nhat_ban_declared(
                own, row, points, waits, free_points, nhat_ban_waits
            )
            if row >= 0:
                row_cards(own, row, arrangement)
                for slot in range(NUM_SLOTS):
                    r.nb_arrangement[s, slot] = arrangement[slot]


@njit(cache=True, nogil=True)
def swap_values(
    games: np.ndarray, kc: KernelConfig, actions: np.ndarray, locked: bool
) -> np.ndarray:
    """Per swap of ``actions`` for the seat to act in the one-record array
    ``games``: the value (:func:`hand_value`, Bội ước with ``locked``) of the
    five cards it makes."""
    r = games[0]
    unseen, n_unseen, public, dealer, own = seat_knowledge(r, r.to_act)
    five = np.empty(_HAND, dtype=np.int64)
    values = np.empty(actions.shape[0])
    for k in range(actions.shape[0]):
        swapped_five(own, actions[k] - CARD_BASE, r.offer_card, five)
        values[k] = hand_value(five, locked, unseen, n_unseen, public, dealer, kc)
    return values


@njit(cache=True, nogil=True)
def greedy_actions(
    games: np.ndarray,
    kc: KernelConfig,
    indices: np.ndarray,
    cuop_margin: float,
    nhat_ban_waits: int,
    plans: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[k]`` = greedy's action in game ``indices[k]`` (its seat to act),
    for every ``k``. ``plans`` (:func:`new_plans`, one row per game) remembers
    each game's last Nhất Bản arrangement."""
    for k in range(indices.shape[0]):
        g = indices[k]
        out[k] = greedy_action(games[g], kc, cuop_margin, nhat_ban_waits, plans[g])


@njit(cache=True, nogil=True)
def greedy_gains(games: np.ndarray, kc: KernelConfig, gains: np.ndarray) -> None:
    """What greedy gains by each choice of the seat to act in the one-record
    array ``games``, into ``gains`` (one entry per action id, NaN where none):
    on an offer, per legal swap the value of the hand it makes minus the value
    of the hand kept (:func:`tests.support.greedy.swap_gains`: a Cướp's hand, or a
    locked seat's, judged locked); at a Nhất Bản choice, the best
    arrangement's points minus the free hand's value (none without a legal
    arrangement)."""
    gains[:] = np.nan
    r = games[0]
    seat = r.to_act
    unseen, n_unseen, public, dealer, own = seat_knowledge(r, seat)
    if r.phase == _OFFER:
        locked = r.n_locked[seat] > 0
        keep = hand_value(own, locked, unseen, n_unseen, public, dealer, kc)
        locked_after = locked or is_cuop(r, seat)
        five = np.empty(_HAND, dtype=np.int64)
        for i in range(r.n_legal):
            action = int(r.legal[i])
            if CARD_BASE <= action < CARD_BASE + NUM_CARDS:
                swapped_five(own, action - CARD_BASE, r.offer_card, five)
                value = hand_value(five, locked_after, unseen, n_unseen, public, dealer, kc)
                gains[action] = value - keep
    elif r.phase == _NB_CHOICE:
        row, points, _, free_points = best_arrangement(own, unseen, n_unseen, public, dealer, kc)
        if row >= 0:
            free_value = float(free_points) + RELATED_PAIR_WEIGHT * related_pairs(own)
            gains[NHAT_BAN] = float(points) - free_value


def check_parameters(cuop_margin: float, nhat_ban_waits: int) -> None:
    """Raise ``ValueError`` naming what is expected unless greedy's parameters
    are valid: ``cuop_margin`` ≥ 0, ``nhat_ban_waits`` ≥ 1."""
    if cuop_margin < 0:
        raise ValueError(f"cuop_margin={cuop_margin} is not valid: expected ≥ 0")
    if nhat_ban_waits < 1:
        raise ValueError(f"nhat_ban_waits={nhat_ban_waits} is not valid: expected ≥ 1")


class BatchedGreedy:
    """Greedy (:class:`agents.greedy.GreedyAgent`) for many games at once: the same
    parameters (validated alike), the same actions. The games of one call are
    split over ``threads`` threads (default: one per core) in slices of at least
    :data:`MIN_GAMES_PER_THREAD`, as the engine splits its steps."""

    def __init__(
        self, cuop_margin: float = 4.0, nhat_ban_waits: int = 2, *, threads: int | None = None
    ) -> None:
        check_parameters(cuop_margin, nhat_ban_waits)
        self._threads = SliceThreads(threads, MIN_GAMES_PER_THREAD)
        self.spec = "greedy"
        self.cuop_margin = float(cuop_margin)
        self.nhat_ban_waits = int(nhat_ban_waits)
        self._plans: WeakKeyDictionary[BatchedEngine, np.ndarray] = WeakKeyDictionary()
        """Per engine its arrangement memory (:func:`new_plans`)."""

    def reset(self, seed: int) -> None:
        """Greedy draws nothing: there is nothing to reseed (the batched-policy
        protocol, :class:`env121.play.batched_policy.BatchedPolicy`)."""

    def act(self, engine: BatchedEngine, indices: np.ndarray | None = None) -> np.ndarray:
        """The actions of the seats to act in games ``indices`` of ``engine``
        (distinct game indices; default: every game), as ``int64`` action ids in
        the order of ``indices``."""
        games = engine.games
        b = len(games)
        chosen = np.arange(b) if indices is None else np.asarray(indices)
        if (
            chosen.ndim != 1
            or not (chosen.size == 0 or np.issubdtype(chosen.dtype, np.integer))
            or (chosen.size and not 0 <= chosen.min() <= chosen.max() < b)
            or np.unique(chosen).size != chosen.size
        ):
            raise ValueError(
                f"indices={indices!r} is not valid: expected distinct game indices in 0..{b - 1}"
            )
        chosen = chosen.astype(np.int64)
        plans = self._plans.get(engine)
        if plans is None:
            plans = self._plans[engine] = new_plans(b)
        out = np.empty(chosen.size, dtype=np.int64)

        def run(part: slice) -> None:
            greedy_actions(
                games,
                engine.kernel_config,
                chosen[part],
                self.cuop_margin,
                self.nhat_ban_waits,
                plans,
                out[part],
            )

        self._threads.run(chosen.size, run)
        return out


__all__ = [
    "MIN_GAMES_PER_THREAD",
    "MOMENT_SIZE",
    "BatchedGreedy",
    "arrangement_bound",
    "arrangement_row",
    "arrangement_wins",
    "best_arrangement",
    "check_parameters",
    "declares_after_swap",
    "greedy_action",
    "greedy_actions",
    "greedy_gains",
    "hand_value",
    "hand_wins",
    "is_cuop",
    "lay_out_nhat_ban",
    "legal_arrangements",
    "may_complete",
    "moment_key",
    "new_plans",
    "nhat_ban_declared",
    "own_cards",
    "remembered_arrangement",
    "seat_knowledge",
    "swap_values",
    "swapped_five",
    "unseen_cards",
]
