"""The compiled state machine: the engine of 121, every match held as a game record.

Every match env121 plays, one at a time (:mod:`env121.engine.game`) or B at
once (:class:`~env121.engine.batched.BatchedEngine`), is moved by these
kernels. Each function here mirrors one transition of the oracle, the
readable Python rules in ``tests/support/oracle.py``, on one game's record
``r`` (:mod:`env121.engine.kernel.record`): ``_swap`` is ``oracle._swap``,
``_end_vong`` is ``oracle._end_vong`` ..., with the same effects and events in
the same order, so that a kernel match and an oracle match of the same seed
and actions agree at every step; the differential test
(``tests/engine/test_batched_differential.py``) checks it. The rules
themselves (wins, scores, Nhất Bản waits) are the compiled ports of
:mod:`env121.rules.compiled`; the deal is :mod:`env121.engine.kernel.rng`.
Two departures in form, not in effect: the oracle's ``_end_vong`` deals the
next vòng itself, here a loop does (:func:`_deal_pending`: numba's cache
cannot load mutually recursive kernels), and the Nhất Bản waits are worked out
once per choice (see the legal actions below).

The batch entry points (:func:`reset_games`, :func:`first_illegal`,
:func:`step_games`, :func:`play_random`, :func:`fill_legal_mask`) loop over a
slice of the games; they release the GIL, so the engine
(:class:`~env121.engine.batched.engine.BatchedEngine`) runs its slices on
threads, one per core (why not numba's ``parallel=True``:
``docs/measurements.md``).

A step applies one action per game: the action of the seat to act. It clears
that game's outputs of the last step (events, rewards, ``terminated``,
``vong_ended``), applies the action with everything that follows automatically
(flips, Ẩn Sĩ turns, payments, the next deal), and, when the match ends,
records its final standings in ``final_*``, sets ``terminated`` and deals the
game its next match at once (seed + B, same rotation: VectorEnv's auto-reset,
the next match's opening events following MatchEnded in ``events``). Last it
lists the legal actions of the seat now to act.
"""

from __future__ import annotations

from typing import Any, get_args

import numpy as np
from numba import njit

from env121.engine.actions import CARD_BASE, NB_GAP_BASE, NHAT_BAN, PASS, THE_TRANG, U
from env121.engine.deal import HAND_SIZE, NOC_SIZE, NUM_AN_SI
from env121.engine.kernel.record import MATCH_ENDS, OUTCOMES, PHASES, SWAP_KINDS
from env121.engine.kernel.rng import deal_into
from env121.engine.state import (
    MAX_CUOP,
    NUM_SEATS,
    VONG_PER_VAN,
    AnSiTurned,
    CardDead,
    Dealt,
    Den,
    Drawn,
    Event,
    Flipped,
    MatchEnd,
    MatchEnded,
    NhatBanArranged,
    NhatBanDeclared,
    NhatBanDeclined,
    Outcome,
    Paid,
    Passed,
    Phase,
    SwapKind,
    Swapped,
    TheTrangDeclared,
    TheTrangDeclined,
    VanEnded,
    VongStarted,
    Won,
)
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.scoring import score_win
from env121.rules.compiled.tables import FALSE, THE_IDS, TRUE
from env121.rules.compiled.waits import (
    PLACEMENT_ORDER,
    gap_bits,
    next_card_bits,
    nhat_ban_wins,
    waiting_mask,
)
from env121.rules.compiled.wins import is_win, the_trang_eligible
from env121.rules.payment import POINTS_PER_DIEM
from env121.rules.thes import QUOC_SI_VO_SONG

EVENT_CLASSES: tuple[type, ...] = get_args(Event)
"""The event classes in the order of the ``Event`` union: an event row's code
is the index of its class here."""

_THE_TRANG = PHASES.index(Phase.THE_TRANG)
_OFFER = PHASES.index(Phase.OFFER)
_NB_CHOICE = PHASES.index(Phase.NB_CHOICE)
_NB_GAP = PHASES.index(Phase.NB_GAP)
_NB_PLACE = PHASES.index(Phase.NB_PLACE)
_GAME_OVER = PHASES.index(Phase.GAME_OVER)

_BOC = SWAP_KINDS.index(SwapKind.BOC)
_LAY = SWAP_KINDS.index(SwapKind.LAY)
_CUOP = SWAP_KINDS.index(SwapKind.CUOP)

# The codes kernels pass to one another are typed int64 (and the flags typed bools),
# not literals, so that each callee compiles once (env121.rules.compiled.tables.FALSE).
_U = np.int64(OUTCOMES.index(Outcome.U))
_DEN = np.int64(OUTCOMES.index(Outcome.DEN))
_WON_THE_TRANG = np.int64(OUTCOMES.index(Outcome.THE_TRANG))
_DRAW = np.int64(OUTCOMES.index(Outcome.DRAW))

_COMPLETED = np.int64(MATCH_ENDS.index(MatchEnd.COMPLETED))
_BUST = np.int64(MATCH_ENDS.index(MatchEnd.BUST))
_QUOC_SI_VO_SONG_END = np.int64(MATCH_ENDS.index(MatchEnd.QUOC_SI_VO_SONG))
_QUOC_SI_VO_SONG = THE_IDS.index(QUOC_SI_VO_SONG)
_NOBODY = np.int64(-1)
"""No seat (a draw's winner, a match end's first seat when none is first)."""
_NO_CARD = np.int64(-1)
"""No card (a result won on no card)."""

_E_VONG_STARTED = np.int64(EVENT_CLASSES.index(VongStarted))
_E_DEALT = np.int64(EVENT_CLASSES.index(Dealt))
_E_THE_TRANG_DECLINED = np.int64(EVENT_CLASSES.index(TheTrangDeclined))
_E_THE_TRANG_DECLARED = np.int64(EVENT_CLASSES.index(TheTrangDeclared))
_E_FLIPPED = np.int64(EVENT_CLASSES.index(Flipped))
_E_PASSED = np.int64(EVENT_CLASSES.index(Passed))
_E_SWAPPED = np.int64(EVENT_CLASSES.index(Swapped))
_E_AN_SI_TURNED = np.int64(EVENT_CLASSES.index(AnSiTurned))
_E_CARD_DEAD = np.int64(EVENT_CLASSES.index(CardDead))
_E_NHAT_BAN_DECLINED = np.int64(EVENT_CLASSES.index(NhatBanDeclined))
_E_NHAT_BAN_DECLARED = np.int64(EVENT_CLASSES.index(NhatBanDeclared))
_E_NHAT_BAN_ARRANGED = np.int64(EVENT_CLASSES.index(NhatBanArranged))
_E_WON = np.int64(EVENT_CLASSES.index(Won))
_E_DEN = np.int64(EVENT_CLASSES.index(Den))
_E_DRAWN = np.int64(EVENT_CLASSES.index(Drawn))
_E_PAID = np.int64(EVENT_CLASSES.index(Paid))
_E_VAN_ENDED = np.int64(EVENT_CLASSES.index(VanEnded))
_E_MATCH_ENDED = np.int64(EVENT_CLASSES.index(MatchEnded))

SIT_OUT = -1
"""The action of a game that does not move in a step (:func:`step_games`)."""
_NUM_SLOTS = PLACEMENT_ORDER.shape[0]

Record = Any
"""One game's record (``games[g]``, numba's Record type): :mod:`~env121.engine.kernel.record`."""


# ------------------------------------------------------------------ helpers


@njit(cache=True, nogil=True)
def _push(r: Record, code: int) -> int:
    """Append an event row with ``code`` to the game's events; its index."""
    e: int = r.n_events
    r.events[e, 0] = code
    r.n_events = e + 1
    return e


@njit(cache=True, nogil=True)
def _insert_sorted(row: np.ndarray, n: int, card: int) -> None:
    """Insert ``card`` into the sorted ``row[:n]`` (room for one more)."""
    i = n
    while i > 0 and row[i - 1] > card:
        row[i] = row[i - 1]
        i -= 1
    row[i] = card


@njit(cache=True, nogil=True)
def _remove(row: np.ndarray, n: int, card: int) -> int:
    """Remove ``card`` from ``row[:n]`` if there (order kept); the new length."""
    j = 0
    for i in range(n):
        if row[i] != card:
            row[j] = row[i]
            j += 1
    for i in range(j, n):
        row[i] = -1
    return j


@njit(cache=True, nogil=True)
def current_player(r: Record) -> int:
    """The seat to act (``State.current_player``); -1 once the match is over."""
    phase = r.phase
    if phase in (_OFFER, _THE_TRANG):
        return int(r.ask_order[r.ask_pos])
    if phase == _GAME_OVER:
        return -1
    return int(r.offer_exposer)


@njit(cache=True, nogil=True)
def _swap_kind(exposer: int, seat: int) -> int:
    if exposer == seat:
        return _BOC
    if exposer == (seat + NUM_SEATS - 1) % NUM_SEATS:
        return _LAY
    return _CUOP


@njit(cache=True, nogil=True)
def win_payments_into(diem: int, winner: int, kc: KernelConfig, out: np.ndarray) -> None:
    """:func:`env121.rules.payment.win_payments` into ``out``."""
    neighbour = 30 * diem
    if kc.payment_hundreds:
        neighbour -= neighbour % POINTS_PER_DIEM
    out[winner] = POINTS_PER_DIEM * diem
    out[(winner + 1) % NUM_SEATS] = -neighbour
    out[(winner + 3) % NUM_SEATS] = -neighbour
    out[(winner + 2) % NUM_SEATS] = -(POINTS_PER_DIEM * diem - 2 * neighbour)


@njit(cache=True, nogil=True)
def _win_six(r: Record, seat: int, six: np.ndarray) -> None:
    """The six cards of ``seat`` with the card on offer: under Nhất Bản its
    arrangement with the card in the gap, else free + locked + the card."""
    card = r.offer_card
    if r.nhat_ban[seat]:
        for i in range(_NUM_SLOTS):
            c = r.nb_arrangement[seat, i]
            six[i] = card if c < 0 else c
        return
    n = 0
    for i in range(r.n_free[seat]):
        six[n] = r.hands[seat, i]
        n += 1
    for i in range(r.n_locked[seat]):
        six[n] = r.locked[seat, i]
        n += 1
    six[n] = card


@njit(cache=True, nogil=True)
def _win_valid(r: Record, seat: int, kc: KernelConfig) -> bool:
    """Whether Ù by ``seat`` on the card on offer is a valid win (``win_score`` is not None)."""
    if r.nhat_ban[seat]:
        return nhat_ban_wins(r.nb_arrangement[seat], r.offer_card)
    six = np.empty(_NUM_SLOTS, dtype=np.int64)
    _win_six(r, seat, six)
    return is_win(six, r.n_locked[seat] > 0, kc)


# ------------------------------------------------------------ legal actions
# Under the Nhất Bản choice asks whether the hand has a wait: the kernel
# keeps the answer per arrangement (``nb_waiting``, waits.waiting_mask) and
# the gap and placement steps that follow read it instead of working it out
# again for each of their six questions (waits.gap_bits and
# waits.next_card_bits on that mask, as waits.waiting_gaps and
# waits.waiting_next_cards do).


@njit(cache=True, nogil=True)
def _waiting_gaps(r: Record) -> int:
    """``legal``: NB_GAP of each empty slot some waiting arrangement uses; how many."""
    gaps = gap_bits(r.nb_waiting)
    count = 0
    for slot in range(_NUM_SLOTS):
        if gaps >> slot & 1:
            r.legal[count] = NB_GAP_BASE + slot
            count += 1
    return count


@njit(cache=True, nogil=True)
def _waiting_next_cards(r: Record) -> int:
    """``legal``: CARD of each card that may fill the next slot so that a waiting
    arrangement with the chosen gap can still be finished; how many."""
    hand = r.hands[r.to_act]  # sorted: INDEX_ARRANGEMENTS index into it
    indices = next_card_bits(hand, r.nb_waiting, r.nb_gap, r.nb_placed, r.n_placed)
    count = 0
    for i in range(HAND_SIZE):
        if indices >> i & 1:
            r.legal[count] = CARD_BASE + hand[i]
            count += 1
    return count


@njit(cache=True, nogil=True)
def compute_legal(r: Record, kc: KernelConfig) -> None:
    """``to_act``, and ``legal`` / ``n_legal``: the legal actions of the seat
    to act, ascending (``oracle._compute_legal``)."""
    phase = r.phase
    r.to_act = current_player(r)
    n = 0
    if phase == _OFFER:
        seat = r.to_act
        if not r.nhat_ban[seat] and (
            r.n_locked[seat] < MAX_CUOP or _swap_kind(r.offer_exposer, seat) != _CUOP
        ):
            for i in range(r.n_free[seat]):
                r.legal[n] = CARD_BASE + r.hands[seat, i]
                n += 1
        if not kc.mask_invalid_win or _win_valid(r, seat, kc):
            r.legal[n] = U
            n += 1
        r.legal[n] = PASS
        n += 1
    elif phase == _THE_TRANG:
        r.legal[0] = PASS
        n = 1
        if not kc.the_trang_asks_every_seat or the_trang_eligible(r.hands[r.to_act]):
            r.legal[1] = THE_TRANG
            n = 2
    elif phase == _NB_CHOICE:
        r.legal[0] = PASS
        n = 1
        if not kc.nhat_ban_requires_wait or waiting_mask(r.hands[r.to_act], r.nb_waiting):
            r.legal[1] = NHAT_BAN
            n = 2
    elif phase == _NB_GAP:
        if kc.nhat_ban_requires_wait:
            n = _waiting_gaps(r)
        else:
            for i in range(_NUM_SLOTS):
                r.legal[i] = NB_GAP_BASE + i
            n = _NUM_SLOTS
    elif phase == _NB_PLACE:
        hand = r.hands[r.to_act]
        if kc.nhat_ban_requires_wait:
            n = _waiting_next_cards(r)
        else:
            for i in range(HAND_SIZE):
                placed = False
                for j in range(r.n_placed):
                    placed |= r.nb_placed[j] == hand[i]
                if not placed:
                    r.legal[n] = CARD_BASE + hand[i]
                    n += 1
    r.n_legal = n


@njit(cache=True, nogil=True)
def is_legal(r: Record, action: int) -> bool:
    """Whether ``action`` is one of the game's legal actions."""
    found = False
    for i in range(r.n_legal):
        found |= r.legal[i] == action
    return found


# -------------------------------------------------------------- the deal


@njit(cache=True, nogil=True)
def _deal(r: Record) -> None:
    """The deal of the current vòng: ``Deal.from_seed``, or the explicit first deal."""
    if r.first_deal and r.van == 0 and r.vong == 0:
        r.hands[:] = r.first_hands
        r.chi_diem = r.first_chi_diem
        r.an_si[:] = r.first_an_si
        r.noc[:] = r.first_noc
    else:
        r.chi_diem = deal_into(r.seed, r.van, r.vong, r.dealer, r.rotation, r.hands, r.an_si, r.noc)


@njit(cache=True, nogil=True)
def _start_vong(r: Record, kc: KernelConfig) -> None:
    """``oracle._start_vong``: deal and open with Thế trắng or the first flip."""
    _deal(r)
    for s in range(NUM_SEATS):
        r.n_free[s] = HAND_SIZE
        r.n_locked[s] = 0
        r.n_known[s] = 0
        r.nhat_ban[s] = 0
        for i in range(MAX_CUOP):
            r.locked[s, i] = -1
        for i in range(HAND_SIZE):
            r.known[s, i] = -1
        for i in range(_NUM_SLOTS):
            r.nb_arrangement[s, i] = -1
    r.an_si_revealed = 0
    r.noc_pos = 0
    r.n_dead = 0
    r.offer_card = -1
    r.offer_exposer = -1
    r.offer_flipped = False
    r.nb_gap = -1
    r.n_placed = 0
    r.vong_actions = 0
    e = _push(r, _E_VONG_STARTED)
    r.events[e, 1] = r.van
    r.events[e, 2] = r.vong
    r.events[e, 3] = r.dealer
    r.events[e, 4] = r.chi_diem
    for s in range(NUM_SEATS):
        e = _push(r, _E_DEALT)
        r.events[e, 1] = s
        for i in range(HAND_SIZE):
            r.events[e, 2 + i] = r.hands[s, i]
    n = 0
    for i in range(NUM_SEATS):
        s = (r.dealer + i) % NUM_SEATS
        if kc.the_trang_asks_every_seat or the_trang_eligible(r.hands[s]):
            r.ask_order[n] = s
            n += 1
    if n > 0:
        r.phase = _THE_TRANG
        r.ask_len = n
        r.ask_pos = 0
    else:
        _new_luot(r, r.dealer, kc)


@njit(cache=True, nogil=True)
def _new_match(r: Record, kc: KernelConfig) -> None:
    """``game.new_game`` for a record whose seed, rotation and first deal are set."""
    r.van = 0
    r.vong = 0
    r.dealer = 0
    for s in range(NUM_SEATS):
        r.scores[s] = kc.starting_points
        r.van_start[s] = kc.starting_points
        r.banked[s] = 0
        r.ranks[s] = 0
    r.match_end = -1
    r.deal_pending = True
    _deal_pending(r, kc)


@njit(cache=True, nogil=True)
def _deal_pending(r: Record, kc: KernelConfig) -> None:
    """Deal the vòng :func:`_end_vong` left pending (again if its opening
    ended it at once). In the oracle ``_end_vong`` calls ``_start_vong``
    itself; here the recursion is a loop, which numba's cache can load."""
    while r.deal_pending:
        r.deal_pending = False
        _start_vong(r, kc)


# ------------------------------------------------------------ transitions


@njit(cache=True, nogil=True)
def _new_luot(r: Record, flipper: int, kc: KernelConfig) -> None:
    """``oracle._new_luot``: flip the top of the Nọc; an empty Nọc is a draw."""
    if r.noc_pos == NOC_SIZE:
        r.offer_card = -1
        r.offer_exposer = -1
        r.offer_flipped = False
        e = _push(r, _E_DRAWN)
        r.events[e, 1] = 0
        _set_result(r, _DRAW, _NOBODY, _NO_CARD, FALSE)
        _end_vong(r, kc)
        return
    card = r.noc[r.noc_pos]
    r.noc_pos += 1
    e = _push(r, _E_FLIPPED)
    r.events[e, 1] = flipper
    r.events[e, 2] = card
    r.events[e, 3] = NOC_SIZE - r.noc_pos
    _offer(r, card, flipper, TRUE)


@njit(cache=True, nogil=True)
def _offer(r: Record, card: int, exposer: int, flipped: bool) -> None:
    """``oracle._offer``: a flip is asked of its flipper first, a put-out card is not."""
    r.offer_card = card
    r.offer_exposer = exposer
    r.offer_flipped = flipped
    first = 0 if flipped else 1
    for i in range(first, NUM_SEATS):
        r.ask_order[i - first] = (exposer + i) % NUM_SEATS
    r.ask_len = NUM_SEATS - first
    r.ask_pos = 0
    r.phase = _OFFER


@njit(cache=True, nogil=True)
def _the_trang(r: Record, seat: int, declare: bool, kc: KernelConfig) -> None:
    if declare:
        e = _push(r, _E_THE_TRANG_DECLARED)
        r.events[e, 1] = seat
        for i in range(HAND_SIZE):
            r.events[e, 2 + i] = r.hands[seat, i]
        _set_result(r, _WON_THE_TRANG, seat, _NO_CARD, FALSE)
        r.res_points = 1
        win_payments_into(1, seat, kc, r.res_payments)
        for i in range(HAND_SIZE):
            r.res_arrangement[i] = r.hands[seat, i]
        r.res_n_arrangement = HAND_SIZE
        _end_vong(r, kc)
        return
    e = _push(r, _E_THE_TRANG_DECLINED)
    r.events[e, 1] = seat
    r.ask_pos += 1
    if r.ask_pos == r.ask_len:
        _new_luot(r, r.dealer, kc)


@njit(cache=True, nogil=True)
def _pass(r: Record, seat: int, kc: KernelConfig) -> None:
    card = r.offer_card
    e = _push(r, _E_PASSED)
    r.events[e, 1] = seat
    r.events[e, 2] = card
    r.ask_pos += 1
    if r.ask_pos < r.ask_len:
        return
    exposer = r.offer_exposer
    r.dead[r.n_dead] = card
    r.n_dead += 1
    e = _push(r, _E_CARD_DEAD)
    r.events[e, 1] = card
    r.events[e, 2] = exposer
    r.offer_card = -1
    r.offer_exposer = -1
    r.offer_flipped = False
    _new_luot(r, (exposer + 1) % NUM_SEATS, kc)


@njit(cache=True, nogil=True)
def _swap(r: Record, seat: int, put: int) -> None:
    """``oracle._swap``: take the card on offer, put ``put`` face up; Cướp locks
    it and turns an Ẩn Sĩ."""
    taken, exposer = r.offer_card, r.offer_exposer
    kind = _swap_kind(exposer, seat)
    n_free = _remove(r.hands[seat], r.n_free[seat], put)
    n_known = _remove(r.known[seat], r.n_known[seat], put)
    if kind == _CUOP:
        r.locked[seat, r.n_locked[seat]] = taken
        r.n_locked[seat] += 1
    else:
        _insert_sorted(r.hands[seat], n_free, taken)
        n_free += 1
        _insert_sorted(r.known[seat], n_known, taken)
        n_known += 1
    r.n_free[seat] = n_free
    r.n_known[seat] = n_known
    e = _push(r, _E_SWAPPED)
    r.events[e, 1] = seat
    r.events[e, 2] = taken
    r.events[e, 3] = put
    r.events[e, 4] = kind
    r.events[e, 5] = exposer
    if kind == _CUOP and r.an_si_revealed < NUM_AN_SI:
        e = _push(r, _E_AN_SI_TURNED)
        r.events[e, 1] = r.an_si_revealed
        r.events[e, 2] = r.an_si[r.an_si_revealed]
        r.an_si_revealed += 1
    _offer(r, put, seat, FALSE)
    if kind != _CUOP and r.n_locked[seat] == 0:
        r.phase = _NB_CHOICE


@njit(cache=True, nogil=True)
def _nhat_ban_choice(r: Record, seat: int, declare: bool) -> None:
    if declare:
        r.nhat_ban[seat] = 1
        e = _push(r, _E_NHAT_BAN_DECLARED)
        r.phase = _NB_GAP
    else:
        e = _push(r, _E_NHAT_BAN_DECLINED)
        r.phase = _OFFER
    r.events[e, 1] = seat


@njit(cache=True, nogil=True)
def _nb_place(r: Record, seat: int, card: int) -> None:
    r.nb_placed[r.n_placed] = card
    r.n_placed += 1
    if r.n_placed < HAND_SIZE:
        return
    gap = r.nb_gap
    e = _push(r, _E_NHAT_BAN_ARRANGED)
    r.events[e, 1] = seat
    for i in range(HAND_SIZE):
        r.nb_arrangement[seat, PLACEMENT_ORDER[gap, i]] = r.nb_placed[i]
    r.nb_arrangement[seat, gap] = -1
    for i in range(_NUM_SLOTS):
        r.events[e, 2 + i] = r.nb_arrangement[seat, i]
    r.nb_gap = -1
    r.n_placed = 0
    r.phase = _OFFER


@njit(cache=True, nogil=True)
def _declare_u(r: Record, seat: int, kc: KernelConfig) -> None:
    """``oracle._declare_u``: a valid win ends the vòng with its payment; an invalid one is Đền."""
    card = r.offer_card
    six = np.empty(_NUM_SLOTS, dtype=np.int64)
    _win_six(r, seat, six)
    nhat_ban = r.nhat_ban[seat] != 0
    arrangement = np.empty(_NUM_SLOTS, dtype=np.int64)
    valid, the, tier, points, bonus_mask, indicator_points = False, -1, 0, 0, 0, 0
    if not nhat_ban or nhat_ban_wins(r.nb_arrangement[seat], card):
        valid, the, tier, points, bonus_mask, indicator_points = score_win(
            six,
            r.n_locked[seat] > 0,
            nhat_ban,
            PublicCards(r.chi_diem, r.an_si, r.an_si_revealed),
            seat == r.dealer,
            r.offer_flipped and r.offer_exposer == seat,
            r.offer_flipped and r.noc_pos == NOC_SIZE,
            kc,
            arrangement,
        )
    if not valid:
        e = _push(r, _E_DEN)
        r.events[e, 1] = seat
        r.events[e, 2] = card
        n = 0
        for i in range(r.n_free[seat]):
            r.events[e, 3 + n] = r.hands[seat, i]
            n += 1
        for i in range(r.n_locked[seat]):
            r.events[e, 3 + n] = r.locked[seat, i]
            n += 1
        _set_result(r, _DEN, seat, card, FALSE)
        for s in range(NUM_SEATS):
            r.res_payments[s] = POINTS_PER_DIEM
        r.res_payments[seat] = -POINTS_PER_DIEM * (NUM_SEATS - 1)
        _end_vong(r, kc)
        return
    _set_result(r, _U, seat, card, FALSE)
    r.res_arrangement[:] = arrangement
    r.res_n_arrangement = _NUM_SLOTS
    r.res_the = the
    r.res_tier = tier
    r.res_points = points
    r.res_bonus_mask = bonus_mask
    r.res_indicator_points = indicator_points
    r.res_nhat_ban = nhat_ban
    win_payments_into(points, seat, kc, r.res_payments)
    e = _push(r, _E_WON)
    r.events[e, 1] = seat
    r.events[e, 2] = card
    r.events[e, 3] = r.offer_exposer
    r.events[e, 4] = r.offer_flipped
    _end_vong(r, kc)


@njit(cache=True, nogil=True)
def _set_result(r: Record, outcome: int, seat: int, card: int, truncated: bool) -> None:
    """Start the record of the vòng now ending (``oracle._result``): no Thế, no
    points, no payment; the caller fills what its outcome has."""
    r.vong_ended = True
    r.res_van = r.van
    r.res_vong = r.vong
    r.res_dealer = r.dealer
    r.res_outcome = outcome
    r.res_seat = seat
    r.res_card = card
    r.res_the = -1
    r.res_tier = 0
    r.res_points = 0
    r.res_bonus_mask = 0
    r.res_indicator_points = 0
    r.res_n_arrangement = 0
    for i in range(_NUM_SLOTS):
        r.res_arrangement[i] = -1
    r.res_nhat_ban = False
    for s in range(NUM_SEATS):
        r.res_payments[s] = 0
    r.res_truncated = truncated


@njit(cache=True, nogil=True)
def _end_vong(r: Record, kc: KernelConfig) -> None:
    """``oracle._end_vong``: pay (§7), then end the match or leave the next vòng
    to be dealt (``deal_pending``: the caller's :func:`_deal_pending`)."""
    paid = False
    for s in range(NUM_SEATS):
        delta = r.res_payments[s]
        paid |= delta != 0
        r.scores[s] += delta
        r.rewards[s] += delta / POINTS_PER_DIEM
    if paid:
        e = _push(r, _E_PAID)
        for s in range(NUM_SEATS):
            r.events[e, 1 + s] = r.res_payments[s]
            r.events[e, 5 + s] = r.scores[s]
    if r.res_the == _QUOC_SI_VO_SONG:
        _end_match(r, _QUOC_SI_VO_SONG_END, r.res_seat)
        return
    if r.scores.min() <= 0:
        _end_match(r, _BUST, _NOBODY)
        return
    if r.vong + 1 == VONG_PER_VAN:
        if r.van + 1 == kc.num_van:
            _end_match(r, _COMPLETED, _NOBODY)
            return
        e = _push(r, _E_VAN_ENDED)
        r.events[e, 1] = r.van
        for s in range(NUM_SEATS):
            r.events[e, 2 + s] = r.scores[s]
            r.banked[s] += r.scores[s] - r.van_start[s]
            if not kc.carry_scores:
                r.scores[s] = kc.starting_points
            r.van_start[s] = r.scores[s]
        r.van += 1
        r.vong = 0
    else:
        r.vong += 1
    r.dealer = (r.dealer + 1) % NUM_SEATS
    r.deal_pending = True


@njit(cache=True, nogil=True)
def _end_match(r: Record, reason: int, first: int) -> None:
    """``oracle._end_match``: standings, ranks (``oracle.ranks_of``), GAME_OVER."""
    r.match_end = reason
    e = _push(r, _E_MATCH_ENDED)
    r.events[e, 1] = reason
    standings = r.banked + r.scores - r.van_start
    for s in range(NUM_SEATS):
        better = 0
        for t in range(NUM_SEATS):
            if t == first or standings[t] > standings[s]:
                better += 1
        r.ranks[s] = 1 if s == first else 1 + better
        r.events[e, 2 + s] = standings[s]
        r.events[e, 6 + s] = r.ranks[s]
    r.phase = _GAME_OVER
    r.ask_len = 0
    r.ask_pos = 0


@njit(cache=True, nogil=True)
def _apply(
    r: Record, action: int, num_games: int, kc: KernelConfig, finals: np.ndarray, g: int
) -> None:
    """``game.apply`` of a legal action, then the auto-reset (the next match's
    seed ``num_games`` on; the ended match's record copied to ``finals[g]``
    first, with no seat to act) and the next legal actions."""
    r.n_events = 0
    r.terminated = False
    r.vong_ended = False
    for s in range(NUM_SEATS):
        r.rewards[s] = 0.0
    r.vong_actions += 1
    seat = current_player(r)
    phase = r.phase
    if phase == _OFFER:
        if action == U:
            _declare_u(r, seat, kc)
        elif action == PASS:
            _pass(r, seat, kc)
        else:
            _swap(r, seat, action - CARD_BASE)
    elif phase == _THE_TRANG:
        _the_trang(r, seat, action == THE_TRANG, kc)
    elif phase == _NB_CHOICE:
        _nhat_ban_choice(r, seat, action == NHAT_BAN)
    elif phase == _NB_GAP:
        r.nb_gap = action - NB_GAP_BASE
        r.n_placed = 0
        r.phase = _NB_PLACE
    elif phase == _NB_PLACE:
        _nb_place(r, seat, action - CARD_BASE)
    _deal_pending(r, kc)
    cap = kc.max_actions_per_vong
    if cap > 0 and r.vong_actions >= cap and r.phase != _GAME_OVER:
        e = _push(r, _E_DRAWN)
        r.events[e, 1] = 1
        _set_result(r, _DRAW, _NOBODY, _NO_CARD, TRUE)
        _end_vong(r, kc)
        _deal_pending(r, kc)
    if r.phase == _GAME_OVER:
        r.terminated = True
        r.final_seed = r.seed
        r.final_match_end = r.match_end
        for s in range(NUM_SEATS):
            r.final_scores[s] = r.scores[s]
            r.final_standings[s] = r.banked[s] + r.scores[s] - r.van_start[s]
            r.final_ranks[s] = r.ranks[s]
        r.to_act = -1
        r.n_legal = 0
        finals[g] = r
        r.seed += np.uint64(num_games)
        r.first_deal = False
        _new_match(r, kc)
    compute_legal(r, kc)


# ---------------------------------------------------------- batch entries
# Each takes a slice of the batch (``games[lo:hi]``): the engine spreads the
# slices over threads (the kernels release the GIL). ``stride`` is the number
# of games in the whole batch (the auto-reset's seed step), ``first`` the
# slice's first game, ``finals`` the slice of the records where each game's
# ended match is kept.


@njit(cache=True, nogil=True)
def reset_games(games: np.ndarray, kc: KernelConfig) -> None:
    """Start every game's match from its ``seed``, ``rotation`` and first deal
    (``game.new_game``); the outputs of the last step are cleared, the events
    are the opening ones."""
    for g in range(games.shape[0]):
        r = games[g]
        r.n_events = 0
        r.terminated = False
        r.vong_ended = False
        r.res_outcome = -1
        r.final_match_end = -1
        r.rewards[:] = 0.0
        _new_match(r, kc)
        compute_legal(r, kc)


@njit(cache=True, nogil=True)
def first_illegal(games: np.ndarray, actions: np.ndarray) -> int:
    """The first game whose action is neither legal nor :data:`SIT_OUT`, or -1."""
    for g in range(games.shape[0]):
        if actions[g] != SIT_OUT and not is_legal(games[g], actions[g]):
            return g
    return -1


@njit(cache=True, nogil=True)
def _sit_out(r: Record) -> None:
    """A step in which the game does not move: its outputs are an empty step's."""
    r.n_events = 0
    r.terminated = False
    r.vong_ended = False
    for s in range(NUM_SEATS):
        r.rewards[s] = 0.0


@njit(cache=True, nogil=True)
def refresh_games(games: np.ndarray, kc: KernelConfig) -> None:
    """Work out again what a record derives from its match: the Nhất Bản waits
    of a declarer arranging, the seat to act and its legal actions. For records
    written field by field from a :class:`~env121.engine.state.State`
    (:func:`env121.engine.kernel.convert.write_state`); the outputs of the last
    step are cleared."""
    for g in range(games.shape[0]):
        r = games[g]
        _sit_out(r)
        r.deal_pending = False
        if r.phase == _NB_GAP or r.phase == _NB_PLACE:
            waiting_mask(r.hands[current_player(r)], r.nb_waiting)
        compute_legal(r, kc)


@njit(cache=True, nogil=True)
def step_games(
    games: np.ndarray, kc: KernelConfig, actions: np.ndarray, stride: int, finals: np.ndarray
) -> None:
    """Apply ``actions[g]``, legal, in every game ``g`` (:data:`SIT_OUT`: game
    ``g`` does not move)."""
    for g in range(games.shape[0]):
        if actions[g] == SIT_OUT:
            _sit_out(games[g])
        else:
            _apply(games[g], actions[g], stride, kc, finals, g)


@njit(cache=True, nogil=True)
def fill_legal_mask(games: np.ndarray, mask: np.ndarray) -> None:
    """``mask[g, a]`` = 1 where action ``a`` is legal in game ``g``, else 0."""
    for g in range(games.shape[0]):
        r = games[g]
        mask[g, :] = 0
        for i in range(r.n_legal):
            mask[g, r.legal[i]] = 1


_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def _splitmix64(x: np.uint64) -> np.uint64:
    """One SplitMix64 output for state ``x`` (already advanced by the caller)."""
    z = x
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    out: np.uint64 = z ^ (z >> np.uint64(31))
    return out


@njit(cache=True, nogil=True)
def play_random(
    games: np.ndarray,
    kc: KernelConfig,
    steps: int,
    rng_seed: int,
    first: int,
    stride: int,
    finals: np.ndarray,
) -> None:
    """``steps`` uniformly random legal actions in every game (auto-reset
    included). Game ``first + g`` draws from SplitMix64 seeded by (``rng_seed``,
    its index), so the play does not depend on how the batch is sliced."""
    for g in range(games.shape[0]):
        r = games[g]
        x = _splitmix64(np.uint64(rng_seed) * _GOLDEN + np.uint64(first + g))
        for _ in range(steps):
            x += _GOLDEN
            pick = _splitmix64(x) % np.uint64(r.n_legal)
            _apply(r, np.int64(r.legal[pick]), stride, kc, finals, g)


__all__ = [
    "EVENT_CLASSES",
    "SIT_OUT",
    "compute_legal",
    "current_player",
    "fill_legal_mask",
    "first_illegal",
    "is_legal",
    "play_random",
    "refresh_games",
    "reset_games",
    "step_games",
    "win_payments_into",
]
