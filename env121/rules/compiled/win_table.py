"""The win table as a numba kernel: :func:`win_points` is
:func:`env121.engine.win_table.win_points` (what :func:`~env121.engine.win_table.seat_win_points`
gives for a seat), the Điểm of Ù on each card were it on offer now.

Every card outside the seat's five and the indicators is scored, the
search's own gates making the non-wins cheap (the costs are in
``docs/measurements.md``). Tự thân and Kết chung are left out: they depend on
how the card comes, not on the card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.scoring import completed_shape, score_nhat_ban, score_normal
from env121.rules.compiled.search import sort_six
from env121.rules.compiled.waits import fill_gap


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
    five = np.empty(5, dtype=np.int64)
    for i in range(n_free):
        five[i] = free[i]
    for i in range(n_locked):
        five[n_free + i] = locked[i]
    in_bois_uoc = n_locked > 0
    for c in range(NUM_CARDS):
        out[c] = 0
        blocked = c == public.chi_diem
        for i in range(5):
            blocked = blocked or five[i] == c
        for k in range(public.n_an_si):
            blocked = blocked or public.an_si[k] == c
        if blocked:
            continue
        if nhat_ban:
            a = fill_gap(nb_arrangement, c)
            if completed_shape(a) == 0:
                continue
            valid, _, _, points, _, _ = score_nhat_ban(a, public, dealer, False, False, kc)
        else:
            h = sort_six((five[0], five[1], five[2], five[3], five[4], c))
            valid, _, _, points, _, _ = score_normal(
                h, in_bois_uoc, public, dealer, False, False, kc
            )
        if valid:
            out[c] = points
