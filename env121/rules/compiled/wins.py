"""The win check the engine asks on every offer, and Thế trắng, as numba kernels.

:func:`is_win` is ``score_valid_hand(...) is not None`` for a normal hand
(not Nhất Bản) without scoring it: the Thế search
(:func:`env121.rules.compiled.search.search`) stops at the first Thế the
hand may win with. The search opens with a necessary-condition prefilter on
the figure and suit counts alone (a card sharing nothing must be able to sit in a Phe; with at
most two cards of a kind only three pairs or two Phe remain): it stops about
six uniform random hands in ten before any cut is laid out, and the shapes
are then laid out only where the counts allow them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.search import SEARCHED_MASK, search, sort_six
from env121.rules.compiled.tables import CARD_IS_HONOR, QUOC_SI_FAMILY_MASK
from env121.rules.compiled.thes import pairwise_unrelated

ALLOWED_LOCKED = SEARCHED_MASK & ~QUOC_SI_FAMILY_MASK
"""The Thế a hand in Bội ước may win with (§5.5: not the Quốc Sĩ family)."""


@njit(cache=True, nogil=True)
def is_win(six: np.ndarray, locked: bool, kc: KernelConfig) -> bool:
    """Whether the six cards (any order) are a valid Ù for a normal hand:
    ``score_valid_hand(six, table, situation, locked=locked) is not None``.

    ``locked``: the winner is in Bội ước, so the Quốc Sĩ family does not count.
    The indicators never decide it: the members they add need a ``quoc_si``.
    """
    allowed = ALLOWED_LOCKED if locked else SEARCHED_MASK
    found, _ = search(sort_six(six), kc.left_figures, kc.phe_phe_same_suits, allowed)
    return found & allowed != 0


@njit(cache=True, nogil=True)
def the_trang_eligible(hand5: np.ndarray) -> bool:
    """Five cards pairwise unrelated, no honor card (Thế trắng, §5.3)."""
    for i in range(5):
        if CARD_IS_HONOR[hand5[i]]:
            return False
    return pairwise_unrelated((hand5[0], hand5[1], hand5[2], hand5[3], hand5[4]), 5)
