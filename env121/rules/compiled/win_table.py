"""The win table as a numba kernel: :func:`win_points` is
:func:`env121.engine.win_table.win_points` (what :func:`~env121.engine.win_table.seat_win_points`
gives for a seat), the Điểm of Ù on each card were it on offer now.

Only the cards that pass the sixth-card filter
(:mod:`env121.rules.compiled.sixth`: a card that completes no arrangement of
the five wins nothing) are scored; :func:`win_points_on` scores a chosen few
cards (a search's leaf needs those still in the Nọc). Tự thân and Kết chung
are left out, as there: they depend on how the card comes, not on the card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.scoring import completed_shape, score_nhat_ban, score_normal
from env121.rules.compiled.search import sort_six
from env121.rules.compiled.sixth import gap_cards, may_win, sixth_cards
from env121.rules.compiled.tables import FALSE
from env121.rules.compiled.waits import fill_gap

_ALL_CARDS = np.arange(NUM_CARDS, dtype=np.int64)


@njit(cache=True, nogil=True)
def win_points(
    free: np.ndarray,
    n_free: int,
    locked: np.ndarray,
    n_locked: int,
    nhat_ban: bool,
    nb_arrangement: np.ndarray,
    public: PublicCards,
    dealer: bool,
    kc: KernelConfig,
    out: np.ndarray,
) -> None:
    """Điểm of Ù on each card id, were it on offer now (0: no win), into ``out``
    (121 entries).

    The seat's five are the first ``n_free`` of ``free`` and the first
    ``n_locked`` of ``locked`` (any locked card: Bội ước); with ``nhat_ban`` its
    fixed arrangement is ``nb_arrangement`` (six slots, ``GAP`` in one). The
    five, the Chỉ Điểm and the revealed Ẩn Sĩ, which cannot be on offer, get 0.
    """
    win_points_on(
        _ALL_CARDS,
        NUM_CARDS,
        free,
        n_free,
        locked,
        n_locked,
        nhat_ban,
        nb_arrangement,
        public,
        dealer,
        kc,
        out,
    )


@njit(cache=True, nogil=True)
def win_points_on(
    cards: np.ndarray,
    n_cards: int,
    free: np.ndarray,
    n_free: int,
    locked: np.ndarray,
    n_locked: int,
    nhat_ban: bool,
    nb_arrangement: np.ndarray,
    public: PublicCards,
    dealer: bool,
    kc: KernelConfig,
    out: np.ndarray,
) -> None:
    """:func:`win_points` on the cards ``cards[:n_cards]`` only: ``out[c]`` for
    each of them (``out`` indexed by card id, its other entries untouched). A
    search that needs a few cards of a table (those still in the Nọc, the one
    on offer) pays for those. The cards that cannot complete the five
    (:func:`~env121.rules.compiled.sixth.may_win` of
    :func:`~env121.rules.compiled.sixth.sixth_cards`, or of
    :func:`~env121.rules.compiled.sixth.gap_cards` in Nhất Bản) are not scored."""
    five = np.empty(5, dtype=np.int64)
    for i in range(n_free):
        five[i] = free[i]
    for i in range(n_locked):
        five[n_free + i] = locked[i]
    in_bois_uoc = n_locked > 0
    sixth = gap_cards(nb_arrangement) if nhat_ban else sixth_cards(five)
    for k in range(n_cards):
        c = cards[k]
        out[c] = 0
        blocked = c == public.chi_diem or not may_win(sixth, c)
        for i in range(5):
            blocked = blocked or five[i] == c
        for i in range(public.n_an_si):
            blocked = blocked or public.an_si[i] == c
        if blocked:
            continue
        if nhat_ban:
            a = fill_gap(nb_arrangement, c)
            if completed_shape(a) == 0:
                continue
            valid, _, _, points, _, _ = score_nhat_ban(a, public, dealer, FALSE, FALSE, kc)
        else:
            h = sort_six((five[0], five[1], five[2], five[3], five[4], c))
            valid, _, _, points, _, _ = score_normal(
                h, in_bois_uoc, public, dealer, FALSE, FALSE, kc
            )
        if valid:
            out[c] = points


__all__ = ["win_points", "win_points_on"]
