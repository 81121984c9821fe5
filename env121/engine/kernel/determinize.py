"""Determinizations drawn in the kernel: a batch of records, each a world the seat
to act cannot tell from the true one.

:func:`env121.engine.view.sample_determinization` draws one world as a
:class:`~env121.engine.state.State`; :func:`draw_worlds` draws a batch of them
straight into game records (:mod:`env121.engine.kernel.record`) from the true
game's record, for a search that plays its playouts on the kernel
(:class:`agents.mc.MCAgent`). It conditions on what the Python sampler
conditions on and keeps its distribution — uniform over the worlds consistent
with the seat's knowledge, with the same rejection sampling:

* the hidden cards (the other seats' unknown hand cards, the Nọc still to
  flip, the unturned Ẩn Sĩ) are one pool, shuffled (Fisher–Yates); each other
  seat keeps its hand size and its known cards and takes its unknown cards
  from the front of the pool, the Nọc the next ``noc_left``, the Ẩn Sĩ the rest;
* a draw is kept when every other seat in Nhất Bản holds a hand with a wait
  (under [R-8]), else drawn again, up to :data:`MAX_TRIES`
  draws (the last kept if none fits);
* an other seat whose Nhất Bản arrangement is fixed gets one of its hand's
  legal arrangements at random (any arrangement when none is legal);
* in the Thế trắng phase under ``the_trang_asks_every_seat=False`` the seats
  still to be asked are the eligible ones of the drawn hands;
* the match seed is drawn too (a later vòng is dealt from it).

It draws only for the seat to act (a search decides for it, and a
:class:`~env121.play.turn.Turn` is always the seat to act's), so no other seat
is mid-arrangement and the seat's legal actions are those of the true game.
Unlike the State sampler the record keeps no history (a record holds none).

The random numbers: world ``first + w`` of a draw seeded ``seed`` uses
SplitMix64 seeded by (``seed``, its index), so a batch does not depend on how
the worlds are split over calls (the stream of
:func:`~env121.engine.kernel.transitions.play_random`).
``tests/agents/test_batched_mc.py`` checks the worlds' consistency and their
distribution against the Python sampler's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from env121.engine.deal import HAND_SIZE, NOC_SIZE, NUM_AN_SI
from env121.engine.kernel.record import PHASES
from env121.engine.kernel.transitions import Record
from env121.engine.state import NUM_SEATS, Phase
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.waits import GAP, INDEX_ARRANGEMENTS, NUM_ARRANGEMENTS, waiting_mask
from env121.rules.compiled.wins import the_trang_eligible

MAX_TRIES = 200
"""Draws of the hidden cards before a world that fits every Nhất Bản declarer
is given up on (the last draw is then kept), here and in the Python sampler."""
_THE_TRANG = PHASES.index(Phase.THE_TRANG)
_SEED_BITS = np.uint64(2**62 - 1)
"""A drawn match seed is below 2**62, as the Python sampler's."""
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def _next(state: np.ndarray) -> np.uint64:
    """The next SplitMix64 output of the generator ``state`` (``uint64[1]``)."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    out: np.uint64 = z ^ (z >> np.uint64(31))
    return out


@njit(cache=True, nogil=True)
def _below(state: np.ndarray, n: int) -> int:
    """A uniform integer in ``0 .. n-1`` (``n`` ≥ 1)."""
    return int(_next(state) % np.uint64(n))


@njit(cache=True, nogil=True)
def hidden_pool(r: Record, seat: int, pool: np.ndarray) -> int:
    """:func:`env121.engine.view.hidden_cards` of ``seat`` in record ``r``: the
    cards it cannot locate, into ``pool`` (121 entries); how many."""
    n = 0
    for i in range(r.noc_pos, NOC_SIZE):
        pool[n] = r.noc[i]
        n += 1
    for i in range(r.an_si_revealed, NUM_AN_SI):
        pool[n] = r.an_si[i]
        n += 1
    for s in range(NUM_SEATS):
        if s == seat:
            continue
        for i in range(r.n_free[s]):
            card = r.hands[s, i]
            known = False
            for k in range(r.n_known[s]):
                known = known or r.known[s, k] == card
            if not known:
                pool[n] = card
                n += 1
    return n


@njit(cache=True, nogil=True)
def _deal_hand(r: Record, s: int, pool: np.ndarray, start: int) -> int:
    """Seat ``s``'s free cards: its known ones and the pool's from ``start``,
    sorted; the pool index after them."""
    n = r.n_known[s]
    for k in range(n):
        r.hands[s, k] = r.known[s, k]
    for i in range(start, start + r.n_free[s] - n):
        card = pool[i]
        at = n
        while at > 0 and r.hands[s, at - 1] > card:  # insertion sort
            r.hands[s, at] = r.hands[s, at - 1]
            at -= 1
        r.hands[s, at] = card
        n += 1
    after: int = start + r.n_free[s] - r.n_known[s]
    return after


@njit(cache=True, nogil=True)
def _random_arrangement(r: Record, s: int, kc: KernelConfig, state: np.ndarray) -> None:
    """A uniformly random legal Nhất Bản arrangement of seat ``s``'s hand into
    ``r.nb_arrangement[s]`` (uniform over all of them when none is legal)."""
    legal = np.ones(NUM_ARRANGEMENTS, dtype=np.bool_)
    any_legal = True
    if kc.nhat_ban_requires_wait:
        any_legal = waiting_mask(r.hands[s, :HAND_SIZE], legal)
    if not any_legal:
        legal[:] = True
    count = 0
    for row in range(NUM_ARRANGEMENTS):
        count += legal[row]
    pick = _below(state, count)
    for row in range(NUM_ARRANGEMENTS):
        if legal[row]:
            if pick == 0:
                for slot in range(INDEX_ARRANGEMENTS.shape[1]):
                    i = INDEX_ARRANGEMENTS[row, slot]
                    r.nb_arrangement[s, slot] = GAP if i == GAP else r.hands[s, i]
                return
            pick -= 1


@njit(cache=True, nogil=True)
def _draw(r: Record, seat: int, kc: KernelConfig, state: np.ndarray, pool: np.ndarray) -> None:
    """Redraw in ``r`` what ``seat`` cannot see (the module's procedure)."""
    r.seed = _next(state) & _SEED_BITS
    r.first_deal = False
    n = hidden_pool(r, seat, pool)
    for _ in range(MAX_TRIES):
        for i in range(n - 1, 0, -1):  # Fisher–Yates
            j = _below(state, i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        start = 0
        fits = True
        for s in range(NUM_SEATS):
            if s != seat:
                start = _deal_hand(r, s, pool, start)
                if kc.nhat_ban_requires_wait and r.nhat_ban[s]:
                    fits = fits and waiting_mask(
                        r.hands[s, :HAND_SIZE], np.empty(NUM_ARRANGEMENTS, dtype=np.bool_)
                    )
        if fits:
            break
    for i in range(r.noc_pos, NOC_SIZE):
        r.noc[i] = pool[start]
        start += 1
    for i in range(r.an_si_revealed, NUM_AN_SI):
        r.an_si[i] = pool[start]
        start += 1
    for s in range(NUM_SEATS):
        if s != seat and r.nhat_ban[s] and r.nb_arrangement[s].max() >= 0:  # fixed
            _random_arrangement(r, s, kc, state)
    if r.phase == _THE_TRANG and not kc.the_trang_asks_every_seat:
        # the seats asked so far (public), then the eligible ones after the seat asked now
        asked = r.ask_order[r.ask_pos]
        n_order = r.ask_pos + 1
        for k in range(1, NUM_SEATS):
            s = (r.dealer + k) % NUM_SEATS
            later = (s - r.dealer) % NUM_SEATS > (asked - r.dealer) % NUM_SEATS
            if later and the_trang_eligible(r.hands[s, :HAND_SIZE]):
                r.ask_order[n_order] = s
                n_order += 1
        for k in range(n_order, NUM_SEATS):
            r.ask_order[k] = -1
        r.ask_len = n_order


@njit(cache=True, nogil=True)
def draw_worlds(
    source: np.ndarray, seat: int, kc: KernelConfig, seed: int, first: int, games: np.ndarray
) -> None:
    """Fill ``games`` with worlds of ``seat`` (the seat to act) in the one-record
    array ``source``: ``games[w]`` is world ``first + w`` of the draw seeded
    ``seed``. The worlds' step outputs are ``source``'s."""
    pool = np.empty(NUM_CARDS, dtype=np.int64)
    state = np.empty(1, dtype=np.uint64)
    for w in range(games.shape[0]):
        games[w] = source[0]
        state[0] = np.uint64(seed) * _GOLDEN + np.uint64(first + w)
        _draw(games[w], seat, kc, state, pool)


__all__ = ["MAX_TRIES", "draw_worlds", "hidden_pool"]
