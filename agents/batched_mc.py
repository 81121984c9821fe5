"""``mc``'s playouts as one kernel call: every plan in every world, on game records.

:class:`agents.mc.MCAgent` draws a block of worlds (determinizations,
:func:`env121.engine.kernel.determinize.draw_worlds`) into game records,
copies each once per plan, and :func:`play_plans` plays them all in one call:
in each record the plan's first action, the seat's own follow-up (the Nhất
Bản choice as planned, the arrangement laid out as greedy would:
:func:`agents.batched_greedy.greedy_action`), with ``chain`` greedy for every
seat up to the next flip, and then the seat's result:

* the vòng's payment to the seat when it ended on the way;
* 0 when the playout stopped outside an OFFER (nothing to value);
* else the leaf value (:func:`leaf_value`) or, without ``leaf``, the
  win-or-pass showdown (:func:`showdown_value`).

The leaf and the showdown read the seats' win tables
(:func:`env121.rules.compiled.win_table.win_points_on`) on the cards they need
only — the card on offer and those still in the Nọc. Their definitions, in
plain Python on a :class:`~env121.engine.state.State`, are
``tests/support/mc_reference.py`` (with the engine played win-or-pass, which
``tests/agents/test_agents.py`` checks them against; the leaf's fit is
:mod:`agents.leaf`); ``tests/agents/test_batched_mc.py`` proves the kernel
equal to them, plan value by plan value, on the same worlds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from agents.batched_greedy import greedy_action, own_cards
from agents.leaf import SCALE
from env121.engine.actions import NHAT_BAN, PASS
from env121.engine.deal import NOC_SIZE
from env121.engine.kernel.record import PHASES
from env121.engine.kernel.transitions import is_legal, step_games, win_payments_into
from env121.engine.state import NUM_SEATS, Phase
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.win_table import win_points_on

Record = Any
"""One game's record (``games[g]``, numba's Record type): :mod:`env121.engine.kernel.record`."""

TU_THAN = 1
"""Điểm of the Tự thân Thưởng (won on one's own flip), which the win tables leave out."""
KET_CHUNG = 1
"""Điểm of the Kết chung Thưởng (won on the last Nọc card), likewise."""
_OFFER = PHASES.index(Phase.OFFER)
_NB_CHOICE = PHASES.index(Phase.NB_CHOICE)
_NB_GAP = PHASES.index(Phase.NB_GAP)
_NB_PLACE = PHASES.index(Phase.NB_PLACE)


@njit(cache=True, nogil=True)
def seat_table_on(
    r: Record, s: int, kc: KernelConfig, cards: np.ndarray, n: int, out: np.ndarray
) -> None:
    """Seat ``s``'s win table in record ``r`` on the cards ``cards[:n]``, into
    ``out[card]`` (:func:`~env121.rules.compiled.win_table.win_points_on` with
    the seat's five, its fixed arrangement and the table's public cards)."""
    win_points_on(
        cards,
        n,
        r.hands[s],
        r.n_free[s],
        r.locked[s],
        r.n_locked[s],
        r.nb_arrangement[s].max() >= 0,
        r.nb_arrangement[s],
        PublicCards(r.chi_diem, r.an_si, r.an_si_revealed),
        r.dealer == s,
        kc,
        out,
    )


@njit(cache=True, nogil=True)
def win_tables(r: Record, kc: KernelConfig, tables: np.ndarray) -> tuple[np.ndarray, int]:
    """Every seat's win table (:func:`env121.engine.win_table.seat_win_points`)
    on the cards a playout from this OFFER can still see: those in the Nọc and
    the one on offer, into ``tables[seat, card]``; ``(cards, n)``, the Nọc's
    cards ``cards[:n]`` (top first)."""
    cards, n = _noc_cards(r)
    for s in range(NUM_SEATS):
        seat_table_on(r, s, kc, cards, n + 1, tables[s])
    return cards, n


@njit(cache=True, nogil=True)
def _paid(diem: int, winner: int, seat: int, kc: KernelConfig) -> float:
    """``seat``'s payment when ``winner`` wins ``diem`` Điểm."""
    payments = np.zeros(NUM_SEATS, dtype=np.int64)
    win_payments_into(diem, winner, kc, payments)
    return float(payments[seat])


@njit(cache=True, nogil=True)
def offer_round(r: Record, tables: np.ndarray) -> tuple[int, int]:
    """:func:`tests.support.mc_reference.offer_round` in record ``r``: ``(winner, Điểm)``
    of the first asker still to answer who wins on the card on offer (Tự thân
    and Kết chung added), else ``(-1, 0)``."""
    card, flipped = r.offer_card, r.offer_flipped
    for i in range(r.ask_pos, r.ask_len):
        s = r.ask_order[i]
        points = int(tables[s, card])
        if points:
            own_flip = flipped and r.offer_exposer == s
            last = flipped and r.noc_pos == NOC_SIZE
            return s, points + TU_THAN * own_flip + KET_CHUNG * last
    return -1, 0


@njit(cache=True, nogil=True)
def _noc_cards(r: Record) -> tuple[np.ndarray, int]:
    """``(cards, n)``: the Nọc's cards ``cards[:n]`` (top first), then the card on offer."""
    cards = np.empty(NOC_SIZE + 1, dtype=np.int64)
    n = 0
    for i in range(r.noc_pos, NOC_SIZE):
        cards[n] = r.noc[i]
        n += 1
    cards[n] = r.offer_card
    return cards, n


@njit(cache=True, nogil=True)
def leaf_of(
    r: Record, seat: int, kc: KernelConfig, tables: np.ndarray, cards: np.ndarray, n: int
) -> float:
    """:func:`leaf_value` from the seats' win tables on the Nọc's cards
    ``cards[:n]`` and the card on offer."""
    winner, points = offer_round(r, tables)
    if winner >= 0:
        return _paid(points, winner, seat, kc)
    if n == 0:
        return 0.0
    t = np.zeros(NUM_SEATS)
    for s in range(NUM_SEATS):
        total = 0
        for k in range(n):
            total += tables[s, cards[k]]
        t[s] = total / n
    mean = (((t[0] + t[1]) + t[2]) + t[3]) / NUM_SEATS
    value: float = SCALE * (t[seat] - mean)
    return value


@njit(cache=True, nogil=True)
def showdown_of(
    r: Record, seat: int, kc: KernelConfig, tables: np.ndarray, cards: np.ndarray, n: int
) -> float:
    """:func:`showdown_value` from the seats' win tables, as :func:`leaf_of`."""
    winner, points = offer_round(r, tables)
    if winner >= 0:
        return _paid(points, winner, seat, kc)
    flipper = (r.offer_exposer + 1) % NUM_SEATS
    for i in range(n):
        last = i == n - 1
        for k in range(NUM_SEATS):
            s = (flipper + k) % NUM_SEATS
            points = int(tables[s, cards[i]])
            if points:
                return _paid(points + TU_THAN * (k == 0) + KET_CHUNG * last, s, seat, kc)
        flipper = (flipper + 1) % NUM_SEATS
    return 0.0


@njit(cache=True, nogil=True)
def leaf_value(r: Record, seat: int, kc: KernelConfig) -> float:
    """:mod:`agents.leaf`'s leaf value of an OFFER record for ``seat``: the card on
    offer round its remaining askers, else ``SCALE · (T[seat] − mean T)``."""
    tables = np.zeros((NUM_SEATS, NUM_CARDS), dtype=np.int16)
    cards, n = win_tables(r, kc, tables)
    return leaf_of(r, seat, kc, tables, cards, n)


@njit(cache=True, nogil=True)
def showdown_value(r: Record, seat: int, kc: KernelConfig) -> float:
    """``seat``'s payment in the win-or-pass showdown from an OFFER
    record: the win-or-pass playout of the hands to the end of the vòng."""
    tables = np.zeros((NUM_SEATS, NUM_CARDS), dtype=np.int16)
    cards, n = win_tables(r, kc, tables)
    return showdown_of(r, seat, kc, tables, cards, n)


@njit(cache=True, nogil=True)
def leaf_features(
    games: np.ndarray,
    indices: np.ndarray,
    seats: np.ndarray,
    kc: KernelConfig,
    tables_out: np.ndarray,
    noc_out: np.ndarray,
    line_out: np.ndarray,
) -> None:
    """What :mod:`agents.value`'s network reads of the OFFER record
    ``games[indices[k]]`` besides the observation and the hands, for seat
    ``seats[k]``: ``tables_out[k, j * NUM_CARDS + c]`` the win table of the
    ``j``-th seat from it in turn order (0: itself) on card ``c`` of the Nọc or
    on offer (Điểm / 10, 0 elsewhere), ``noc_out[k, c]`` 1 for the cards still
    in the Nọc, and ``line_out[k]`` :func:`leaf_value` (the line the network
    corrects)."""
    tables = np.zeros((NUM_SEATS, NUM_CARDS), dtype=np.int16)
    for k in range(indices.shape[0]):
        r = games[indices[k]]
        seat = seats[k]
        tables[:] = 0
        cards, n = win_tables(r, kc, tables)
        line_out[k] = leaf_of(r, seat, kc, tables, cards, n)
        for j in range(NUM_SEATS):
            s = (seat + j) % NUM_SEATS
            for i in range(n + 1):
                tables_out[k, j * NUM_CARDS + cards[i]] = tables[s, cards[i]] / 10.0
        for i in range(n):
            noc_out[k, cards[i]] = 1.0


TABLE_KEY = 18
"""Ints in a win table's key: the five cards sorted, Bội ước, the fixed
arrangement (or -1s), the Chỉ Điểm, the revealed Ẩn Sĩ (or -1s), dealer."""


@njit(cache=True, nogil=True)
def _empty_cache(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """``(keys, values)``: ``rows`` cached win tables (:func:`cached_tables`), empty."""
    keys = np.full((rows, TABLE_KEY), -2, dtype=np.int64)
    values = np.full((rows, NUM_CARDS), -1, dtype=np.int16)
    return keys, values


@njit(cache=True, nogil=True)
def _table_row(
    r: Record,
    s: int,
    kc: KernelConfig,
    keys: np.ndarray,
    values: np.ndarray,
    row: int,
    cards: np.ndarray,
    n_cards: int,
) -> None:
    """Make ``values[row]`` hold seat ``s``'s win table on ``cards[:n_cards]``:
    kept from the cached table if its key is this seat's, scored where missing
    (-1), the row emptied first when the key differs."""
    key = np.full(TABLE_KEY, -1, dtype=np.int64)
    five = np.empty(5, dtype=np.int64)
    own_cards(r, s, five)
    key[:5] = five
    key[5] = r.n_locked[s] > 0
    fixed = r.nb_arrangement[s].max() >= 0
    if fixed:
        key[6:12] = r.nb_arrangement[s]
    key[12] = r.chi_diem
    key[13 : 13 + r.an_si_revealed] = r.an_si[: r.an_si_revealed]
    key[17] = r.dealer == s
    same = True
    for i in range(TABLE_KEY):
        same = same and keys[row, i] == key[i]
    if not same:
        keys[row] = key
        values[row] = -1
    missing = np.empty(n_cards, dtype=np.int64)
    m = 0
    for k in range(n_cards):
        if values[row, cards[k]] < 0:
            missing[m] = cards[k]
            m += 1
    if m:
        seat_table_on(r, s, kc, missing, m, values[row])


@njit(cache=True, nogil=True)
def cached_tables(
    r: Record,
    kc: KernelConfig,
    rows: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    tables: np.ndarray,
) -> tuple[np.ndarray, int]:
    """:func:`win_tables`, seat ``s``'s read from (and kept in) the cached table
    ``rows[s]`` of ``(keys, values)`` (:func:`_empty_cache`): a table is
    scored again only on cards it lacks, or when its key changed. A search
    gives each opponent one row for the plans of a world (their hands are
    the same) and the seat one row per plan (its hand is the same in every
    world)."""
    cards, n = _noc_cards(r)
    for s in range(NUM_SEATS):
        _table_row(r, s, kc, keys, values, rows[s], cards, n + 1)
        for k in range(n + 1):
            tables[s, cards[k]] = values[rows[s], cards[k]]
    return cards, n


@njit(cache=True, nogil=True)
def _step(games: np.ndarray, g: int, action: int, kc: KernelConfig, finals: np.ndarray) -> bool:
    """Step game ``g`` by ``action``; whether its vòng (or match) ended."""
    actions = np.full(1, action, dtype=np.int64)
    step_games(games[g : g + 1], kc, actions, 1, finals[g : g + 1])
    r = games[g]
    return bool(r.vong_ended or r.terminated)


@njit(cache=True, nogil=True)
def play_plans(
    games: np.ndarray,
    kc: KernelConfig,
    seat: int,
    actions: np.ndarray,
    declares: np.ndarray,
    chain: bool,
    leaf: bool,
    cuop_margin: float,
    nhat_ban_waits: int,
    own_memory: np.ndarray,
    chain_memory: np.ndarray,
    finals: np.ndarray,
    out: np.ndarray,
    open_leaves: np.ndarray,
) -> None:
    """Play plan ``p`` (first action ``actions[p]``, declaring Nhất Bản if
    ``declares[p]``) in record ``games[w * P + p]`` of world ``w`` (``P`` plans)
    and write ``seat``'s result to ``out[w, p]`` (the module docstring).
    ``open_leaves[w, p]`` says whether that result is the leaf's estimate of
    the rest of the vòng (nobody won the card on offer and the Nọc is not
    empty): the record is left at that leaf, where a learned value
    (:class:`agents.value.LeafValuer`) may replace the estimate.
    Greedy's arrangement memories (:func:`agents.batched_greedy.new_plans`):
    ``own_memory[p]`` for the seat's follow-up of plan ``p`` (the same moment
    in every world), ``chain_memory[g]`` for game ``g``'s chain; ``finals``
    keeps a game's record if its match ends."""
    num_plans = actions.shape[0]
    keys, values = _empty_cache(num_plans + NUM_SEATS)
    rows = np.empty(NUM_SEATS, dtype=np.int64)
    tables = np.zeros((NUM_SEATS, NUM_CARDS), dtype=np.int16)
    open_leaves[:] = False
    for g in range(games.shape[0]):
        w, p = g // num_plans, g % num_plans
        r = games[g]
        ended = _step(games, g, actions[p], kc, finals)
        while not ended and r.to_act == seat and _NB_CHOICE <= r.phase <= _NB_PLACE:
            if r.phase == _NB_CHOICE:
                move = NHAT_BAN if declares[p] and is_legal(r, NHAT_BAN) else PASS
            else:
                move = greedy_action(r, kc, cuop_margin, nhat_ban_waits, own_memory[p])
            ended = _step(games, g, move, kc, finals)
        if chain:
            flips = r.noc_pos
            while not ended and r.noc_pos == flips:
                move = greedy_action(r, kc, cuop_margin, nhat_ban_waits, chain_memory[g])
                ended = _step(games, g, move, kc, finals)
        if ended:
            paid = finals[g].res_payments[seat] if r.terminated else r.res_payments[seat]
            out[w, p] = float(paid)
        elif r.phase != _OFFER:
            out[w, p] = 0.0
        else:
            for s in range(NUM_SEATS):
                rows[s] = p if s == seat else num_plans + s
            cards, n = cached_tables(r, kc, rows, keys, values, tables)
            if leaf:
                out[w, p] = leaf_of(r, seat, kc, tables, cards, n)
                open_leaves[w, p] = n > 0 and offer_round(r, tables)[0] < 0
            else:
                out[w, p] = showdown_of(r, seat, kc, tables, cards, n)


__all__ = [
    "KET_CHUNG",
    "TABLE_KEY",
    "TU_THAN",
    "cached_tables",
    "leaf_features",
    "leaf_of",
    "leaf_value",
    "offer_round",
    "play_plans",
    "seat_table_on",
    "showdown_of",
    "showdown_value",
    "win_tables",
]
