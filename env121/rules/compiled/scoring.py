"""The score of a win, as a numba kernel: :func:`score_win` (spec §3–§6).

A normal win is laid out automatically [R-14]: the order with the most points.
The kernel never tries the 720 orders: the Thế the six cards allow come from
the search (:func:`env121.rules.compiled.search.search`), and everything else
about the points (Thưởng, indicators) does not depend on the order. A Nhất Bản
win scores only its fixed arrangement, where indicators never count.

The result is a tuple of scalars, the arrangement is written to an array the
caller owns, and sets are masks: a set of Thế has bit ``t`` for
``tables.THE_IDS[t]``, the bonuses bit ``i`` for ``tables.BONUS_IDS[i]``.
Python callers ask through :mod:`env121.rules.scoring`, which turns the answer
into a :class:`~env121.rules.scoring.HandScore`.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import njit

from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.search import search, sort_six
from env121.rules.compiled.tables import (
    CARD_BITS_UNFACED,
    CARD_FIG,
    CARD_SUIT,
    FIGURE_IS_REGULAR,
    INDICATOR_THES,
    KIND_NONE,
    LEFT_BIT,
    NHAT_BAN_BIT,
    NO_INDICATORS_MASK,
    NUM_THES,
    QUOC_SI_FAMILY_MASK,
    QUOC_SI_INDEX,
    RIGHT_BIT,
    SITUATION_DEALER,
    SITUATION_LAST_CARD,
    SITUATION_SELF_DRAWN,
    THE_AN_SI_NEEDED,
    THE_SUPERSEDES,
    THE_TIER,
    THUONG_CARD_BITS,
    THUONG_SITUATION,
    ZERO,
)
from env121.rules.compiled.thes import (
    clean_an_si_count,
    is_triple,
    matches,
    pair,
    pairwise_unrelated,
    run_kind,
)

Six = tuple[int, int, int, int, int, int]


@njit(cache=True, nogil=True)
def bonus_mask(
    a: Six, left_figures: np.ndarray, dealer: bool, self_drawn: bool, last_card: bool
) -> int:
    """The Thưởng (:data:`env121.rules.bonuses.THUONGS`) the six cards and the
    situation earn, as a mask over ``BONUS_IDS``."""
    common = -1
    for i in range(6):
        f = CARD_FIG[a[i]]
        facing = LEFT_BIT if left_figures[f] == 1 else (RIGHT_BIT if FIGURE_IS_REGULAR[f] else 0)
        common &= CARD_BITS_UNFACED[a[i]] | facing
    situation = (
        (SITUATION_DEALER if dealer else 0)
        | (SITUATION_SELF_DRAWN if self_drawn else 0)
        | (SITUATION_LAST_CARD if last_card else 0)
    )
    mask = 0
    for b in range(THUONG_CARD_BITS.shape[0]):
        if common & THUONG_CARD_BITS[b] or situation & THUONG_SITUATION[b]:
            mask |= 1 << b
    return mask


@njit(cache=True, nogil=True)
def _popcount(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def _indicator_hits(a: Six, indicator: int) -> int:
    """+1 if a card has the indicator's figure, +1 if a card has its suit."""
    has_figure = False
    has_suit = False
    for i in range(6):
        has_figure = has_figure or CARD_FIG[a[i]] == CARD_FIG[indicator]
        has_suit = has_suit or CARD_SUIT[a[i]] == CARD_SUIT[indicator]
    return (1 if has_figure else 0) + (1 if has_suit else 0)


@njit(cache=True, nogil=True)
def indicator_points(a: Six, public: PublicCards) -> int:
    """The indicator points of the Chỉ Điểm (none when unknown) and the
    revealed Ẩn Sĩ: each gives +1 if any card has its figure and +1
    if any card has its suit, however many do (§6)."""
    points = 0 if public.chi_diem < 0 else _indicator_hits(a, public.chi_diem)
    for k in range(public.n_an_si):
        points += _indicator_hits(a, public.an_si[k])
    return points


@njit(cache=True, nogil=True)
def select_best(found: int, indicators: int) -> int:
    """The reported Thế (spec §3) among those of ``found``, each worth
    its tier plus ``indicators`` (nothing for those the indicators do not count):
    most points, then highest tier, minus the superseded, then the first listed."""
    best_points = -1
    best_tier = -1
    for t in range(NUM_THES):
        if found >> t & 1:
            points = THE_TIER[t] + (0 if NO_INDICATORS_MASK >> t & 1 else indicators)
            if points > best_points or (points == best_points and THE_TIER[t] > best_tier):
                best_points = points
                best_tier = THE_TIER[t]
    kept = 0
    superseded = 0
    for t in range(NUM_THES):
        if found >> t & 1 and THE_TIER[t] == best_tier:
            points = THE_TIER[t] + (0 if NO_INDICATORS_MASK >> t & 1 else indicators)
            if points == best_points:
                kept |= 1 << t
                superseded |= THE_SUPERSEDES[t]
    kept &= ~superseded
    for t in range(NUM_THES):
        if kept >> t & 1:
            return t
    return -1


@njit(cache=True, nogil=True)
def completed_shape(a: Six) -> int:
    """The first completed-hand shape (1-6) of spec §3 this order is, or 0."""
    if is_triple(a[0], a[1], a[2]) and is_triple(a[3], a[4], a[5]):
        return 1
    tail_pair = pair(a[4], a[5]) != KIND_NONE
    if pair(a[0], a[1]) != KIND_NONE and pair(a[2], a[3]) != KIND_NONE and tail_pair:
        return 2
    cung = run_kind(a, 4) != KIND_NONE
    if cung and tail_pair:
        return 3
    if cung and is_triple(a[3], a[4], a[5]):
        return 4
    if run_kind(a, 5) != KIND_NONE and tail_pair:
        return 5
    if run_kind(a, 6) != KIND_NONE or pairwise_unrelated(a, 6):
        return 6
    return 0


ORDERS = np.array(list(permutations(range(6))), dtype=np.int64)
"""The 720 orders of six positions."""


@njit(cache=True, nogil=True)
def completed_in_some_order(six: np.ndarray) -> bool:
    """Whether some order of the six cards is a completed hand (spec §3)."""
    for n in range(ORDERS.shape[0]):
        o = ORDERS[n]
        a = (six[o[0]], six[o[1]], six[o[2]], six[o[3]], six[o[4]], six[o[5]])
        if completed_shape(a) > 0:
            return True
    return False


@njit(cache=True, nogil=True)
def achievable(h: Six, kc: KernelConfig, public: PublicCards) -> int:
    """Every Thế some order of the ascending six allows: the searched Thế plus
    the indicator-decided Quốc Sĩ members the table allows (they need the six
    pairwise unrelated, i.e. a ``quoc_si``)."""
    found, _ = search(h, kc.left_figures, kc.phe_phe_same_suits, ZERO)
    if found >> QUOC_SI_INDEX & 1:
        clean = clean_an_si_count(h, public)
        for n in range(INDICATOR_THES.shape[0]):
            t = INDICATOR_THES[n]
            if clean >= THE_AN_SI_NEEDED[t]:
                found |= 1 << t
    return found


@njit(cache=True, nogil=True)
def score_normal(
    h: Six,
    locked: bool,
    public: PublicCards,
    dealer: bool,
    self_drawn: bool,
    last_card: bool,
    kc: KernelConfig,
) -> tuple[bool, int, int, int, int, int]:
    """:func:`score_win` of the ascending six of a normal hand, without the
    arrangement: ``(valid, the_index, tier, points, bonus_mask, indicator_points)``."""
    found = achievable(h, kc, public)
    if locked:
        found &= ~QUOC_SI_FAMILY_MASK
    if found == 0:
        return False, -1, 0, 0, 0, 0
    indicators = 0 if locked else indicator_points(h, public)
    best = select_best(found, indicators)
    counted = 0 if NO_INDICATORS_MASK >> best & 1 else indicators
    bonuses = bonus_mask(h, kc.left_figures, dealer, self_drawn, last_card)
    tier = THE_TIER[best]
    return True, best, tier, tier + _popcount(bonuses) + counted, bonuses, counted


@njit(cache=True, nogil=True)
def score_nhat_ban(
    a: Six,
    public: PublicCards,
    dealer: bool,
    self_drawn: bool,
    last_card: bool,
    kc: KernelConfig,
) -> tuple[bool, int, int, int, int, int]:
    """:func:`score_win` of a Nhất Bản arrangement ``a`` with the card in its gap
    (§5.6, §6): only this order counts, indicators never do. Only the Thế some
    order of the six allows can match this order, so only they are asked."""
    candidates = achievable(sort_six(a), kc, public)
    return score_arranged(a, candidates, public, dealer, self_drawn, last_card, kc)


@njit(cache=True, nogil=True)
def score_arranged(
    a: Six,
    candidates: int,
    public: PublicCards,
    dealer: bool,
    self_drawn: bool,
    last_card: bool,
    kc: KernelConfig,
) -> tuple[bool, int, int, int, int, int]:
    """:func:`score_nhat_ban` of ``a`` given ``candidates``, the Thế its six
    cards may win with in some order (:func:`achievable` of them sorted): a
    caller scoring one six in several arrangements searches it once."""
    on_it = 0
    for t in range(NUM_THES):
        if candidates >> t & 1 and matches(t, a, kc.left_figures, kc.phe_phe_same_suits, public):
            on_it |= 1 << t
    if on_it:
        best = select_best(on_it, ZERO)
        tier = THE_TIER[best]
    elif completed_shape(a) > 0:
        best, tier = -1, 0
    else:
        return False, -1, 0, 0, 0, 0
    bonuses = bonus_mask(a, kc.left_figures, dealer, self_drawn, last_card) | NHAT_BAN_BIT
    return True, best, tier, tier + _popcount(bonuses), bonuses, 0


@njit(cache=True, nogil=True)
def matching(six: np.ndarray, public: PublicCards, kc: KernelConfig) -> int:
    """The mask of every Thế this exact order of six cards matches (spec §4);
    those that need the Chỉ Điểm never match while it is unknown."""
    a = (six[0], six[1], six[2], six[3], six[4], six[5])
    found = 0
    for t in range(NUM_THES):
        if matches(t, a, kc.left_figures, kc.phe_phe_same_suits, public):
            found |= 1 << t
    return found


@njit(cache=True, nogil=True)
def score_win(
    six: np.ndarray,
    locked: bool,
    nhat_ban: bool,
    public: PublicCards,
    dealer: bool,
    self_drawn: bool,
    last_card: bool,
    kc: KernelConfig,
    out_arrangement: np.ndarray,
) -> tuple[bool, int, int, int, int, int]:
    """The score of six cards as a win (spec §3–§6), when they are one.

    ``six``: any order, or with ``nhat_ban`` the fixed arrangement with the card
    in its gap (``locked`` is then ignored: Nhất Bản cannot be declared in Bội
    ước). ``public``: the Chỉ Điểm and the revealed Ẩn Sĩ. Returns ``(valid, the_index,
    tier, points, bonus_mask, indicator_points)``; ``the_index`` is -1 for a Nhất
    Bản completed hand without a Thế. The scored order goes to
    ``out_arrangement`` (6 entries; untouched when not valid).
    """
    if nhat_ban:
        a = (six[0], six[1], six[2], six[3], six[4], six[5])
        result = score_nhat_ban(a, public, dealer, self_drawn, last_card, kc)
        if result[0]:
            for i in range(6):
                out_arrangement[i] = a[i]
        return result
    h = sort_six(six)
    valid, best, tier, points, bonuses, counted = score_normal(
        h, locked, public, dealer, self_drawn, last_card, kc
    )
    if not valid:
        return False, -1, 0, 0, 0, 0
    witness = h  # the indicator-decided members' witness: the quoc_si layout, as given
    if THE_AN_SI_NEEDED[best] < 0:
        _, witness = search(h, kc.left_figures, kc.phe_phe_same_suits, 1 << best)
    for i in range(6):
        out_arrangement[i] = witness[i]
    return True, best, tier, points, bonuses, counted
