"""The rule tables the kernels read, made at import from the rule modules.

Nothing here is typed by hand: each array is read off the module that defines
the rule (:mod:`env121.rules.cards`, :mod:`~env121.rules.groups`, the Thế
registry :mod:`~env121.rules.thes`, :mod:`~env121.rules.bonuses`), or lists the
cuts of six positions the search walks, and is turned into a numpy array once,
which numba freezes into the compiled kernels.

Thế are numbered by their place in the registry: index ``t`` is
``THE_IDS[t]``, and a set of Thế is an ``int64`` mask with bit ``t`` set
(51 Thế fit). Bonuses likewise: bit ``i`` of a bonus mask is ``BONUS_IDS[i]``,
the Thưởng in :data:`~env121.rules.bonuses.THUONGS` order, then ``"nhat_ban"``.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import cast

import numpy as np

from env121.rules.bonuses import NHAT_BAN_BONUS, THUONGS, WinSituation, card_bits
from env121.rules.cards import (
    FIG,
    IS_HONOR,
    NUM_SUITS,
    REGULAR_FIGURES,
    SUIT,
    Figure,
    card,
)
from env121.rules.config import DEFAULT_CONFIG
from env121.rules.groups import Kind, PheType, phe
from env121.rules.thes import QUOC_SI, THES, TRIPLE_GROUPS, Shape, Triple

# ------------------------------------------------------------------- cards

FALSE = cast(bool, np.bool_(False))
"""``False`` as one kernel passes it to another: a typed ``bool``. numba compiles a
kernel once per tuple of argument types, and the literal ``False`` (or ``0``) is a
type of its own, so a kernel called with both a literal and a variable would be
compiled twice (``docs/first-run.md``, "Several signatures per kernel"). Typed
here as the ``bool`` the kernels declare."""
TRUE = cast(bool, np.bool_(True))
"""``True`` as one kernel passes it to another (see :data:`FALSE`)."""
ZERO = cast(int, np.int64(0))
"""``0`` as one kernel passes it to another: a typed ``int64`` (see :data:`FALSE`)."""
CARD_FIG = np.array(FIG, dtype=np.int64)
CARD_SUIT = np.array(SUIT, dtype=np.int64)
CARD_IS_HONOR = np.array(IS_HONOR, dtype=np.bool_)
FIGURE_IS_REGULAR = np.array([f in REGULAR_FIGURES for f in range(len(Figure))], dtype=np.bool_)
CREST = int(Figure.CREST)

KIND_NONE, KIND_FIGURE, KIND_SUIT = int(Kind.NONE), int(Kind.FIGURE), int(Kind.SUIT)
PHE_NONE, PHE_LM, PHE_DS, PHE_PT = (int(p) for p in PheType)

PHE_OF_SUITS = np.array(
    [
        int(phe(card(1, s1), card(2, s2), card(3, s3)))
        for s1 in range(NUM_SUITS)
        for s2 in range(NUM_SUITS)
        for s3 in range(NUM_SUITS)
    ],
    dtype=np.int64,
)
"""By ``(suit1 * 11 + suit2) * 11 + suit3``: the :class:`~env121.rules.groups.PheType` of
three cards of these suits (a Phe depends on the suits alone)."""
SUIT_IN_A_PHE = (PHE_OF_SUITS.reshape(NUM_SUITS, NUM_SUITS * NUM_SUITS) != 0).any(axis=1)
"""Per suit: some Phe has a card of it (the regular suits)."""

# -------------------------------------------------------- two-triple groups

TRIPLES: tuple[Triple, ...] = tuple(Triple)
"""The groups a half of a two-triple Thế can be; bit ``g`` of a group mask is ``TRIPLES[g]``."""
TRIPLE_GROUP_BITS = np.array(
    [sum(1 << TRIPLES.index(g) for g in groups) for groups in TRIPLE_GROUPS], dtype=np.int64
)
"""By :func:`~env121.rules.thes.triple_key`: the mask of the groups three cards are."""

# ----------------------------------------------------------------- the Thế

THE_IDS: tuple[str, ...] = tuple(t.id for t in THES)
"""Index -> Thế id, in registry order."""
THE_INDEX: dict[str, int] = {the_id: i for i, the_id in enumerate(THE_IDS)}
NUM_THES = len(THES)
if NUM_THES > 62:
    raise RuntimeError(f"{NUM_THES} Thế do not fit an int64 mask: the kernels need a wider one")
SHAPES: tuple[Shape, ...] = tuple(Shape)


def _mask(ids: Iterable[str]) -> int:
    """The mask of these Thế ids."""
    return sum(1 << THE_INDEX[i] for i in ids)


THE_TIER = np.array([t.tier for t in THES], dtype=np.int64)
THE_AN_SI_NEEDED = np.array(
    [-1 if t.an_si_needed is None else t.an_si_needed for t in THES], dtype=np.int64
)
"""The revealed Ẩn Sĩ an indicator-decided Quốc Sĩ member needs; -1 for the others."""
THE_SUPERSEDES = np.array([_mask(t.supersedes) for t in THES], dtype=np.int64)
QUOC_SI_INDEX = THE_INDEX[QUOC_SI]
QUOC_SI_FAMILY_MASK = _mask(t.id for t in THES if t.quoc_si_family)
"""The Thế Bội ước forbids."""
NO_INDICATORS_MASK = _mask(t.id for t in THES if not t.counts_indicators)
"""The Thế the Chỉ Điểm and Ẩn Sĩ add nothing to."""
INDICATOR_THES = np.array([THE_INDEX[t.id] for t in THES if t.needs_chi_diem], dtype=np.int64)
"""The Quốc Sĩ members the indicators decide: never searched, added to a ``quoc_si``."""

SHAPE_QUOC_SI = SHAPES.index(Shape.QUOC_SI)
SHAPE_THREE_PAIRS = SHAPES.index(Shape.THREE_PAIRS)
SHAPE_CUNG_TAIL = SHAPES.index(Shape.CUNG_TAIL)
SHAPE_NGU_TAIL = SHAPES.index(Shape.NGU_TAIL)
SHAPE_LUC_BO = SHAPES.index(Shape.LUC_BO)
SHAPE_SEARCHED = np.array(
    [_mask(t.id for t in THES if t.shape is s and not t.needs_chi_diem) for s in SHAPES],
    dtype=np.int64,
)
"""Per shape: the mask of the Thế the search asks on its layouts (on a two-triple
cut, those of them its halves allow: :data:`HALVES_ASKED`)."""

# The halves of the two-triple Thế (-1 / False / Kind.NONE for the other Thế).
HALF_FIRST = np.array(
    [TRIPLES.index(t.halves.first) if t.halves else -1 for t in THES], dtype=np.int64
)
HALF_SECOND = np.array(
    [TRIPLES.index(t.halves.second) if t.halves else -1 for t in THES], dtype=np.int64
)
HALF_EITHER_ORDER = np.array([bool(t.halves and t.halves.either_order) for t in THES])
HALF_ALIGNED = np.array(
    [int(t.halves.aligned) if t.halves else KIND_NONE for t in THES], dtype=np.int64
)
HALF_SAME_KIND = np.array([bool(t.halves and t.halves.same_kind) for t in THES])


def _group_sets() -> tuple[np.ndarray, np.ndarray]:
    """The distinct group masks of :data:`TRIPLE_GROUP_BITS`, numbered, and per
    pair of them the two-triple Thế whose halves, in the order named, they can be."""
    distinct = sorted(set(TRIPLE_GROUP_BITS.tolist()))
    number = np.array([distinct.index(b) for b in TRIPLE_GROUP_BITS.tolist()], dtype=np.int64)
    asked = np.zeros((len(distinct), len(distinct)), dtype=np.int64)
    for t, the in enumerate(THES):
        if the.halves is None or the.needs_chi_diem:
            continue
        for m, first in enumerate(distinct):
            for n, second in enumerate(distinct):
                if first >> HALF_FIRST[t] & 1 and second >> HALF_SECOND[t] & 1:
                    asked[m, n] |= 1 << t
    return number, asked


TRIPLE_GROUP_SET, HALVES_ASKED = _group_sets()
"""``TRIPLE_GROUP_SET[key]`` numbers the group mask of a triple key;
``HALVES_ASKED[first, second]`` is the mask of the two-triple Thế asked on a
cut whose halves have these numbered group masks ."""

# ------------------------------------------------------ the search's cuts

_SIX = range(6)


def _pairings(idx: tuple[int, ...]) -> list[list[int]]:
    """Every way to split the positions ``idx`` into pairs, flat."""
    if not idx:
        return [[]]
    first, rest = idx[0], idx[1:]
    return [[first, p, *more] for p in rest for more in _pairings(tuple(i for i in rest if i != p))]


TRIPLE_SPLITS = np.array(
    [(*a, *(i for i in _SIX if i not in a)) for a in combinations(_SIX, 3) if 0 in a],
    dtype=np.int64,
)
"""Positions (i, j, k, p, q, r) of the sorted six: the splits into two triples."""
PAIRINGS = np.array(_pairings(tuple(_SIX)), dtype=np.int64)
"""Positions (i, j, k, m, n, p): the splits into three pairs."""
QUADS = np.array(
    [(*q, *(i for i in _SIX if i not in q)) for q in combinations(_SIX, 4)], dtype=np.int64
)
"""Positions (four of a Củng, the other two)."""
FIVES = np.array(
    [(*f, next(i for i in _SIX if i not in f)) for f in combinations(_SIX, 5)], dtype=np.int64
)
"""Positions (five of a Ngũ, the sixth)."""

# ----------------------------------------------------------------- bonuses

BONUS_IDS: tuple[str, ...] = (*(t.id for t in THUONGS), NHAT_BAN_BONUS)
"""Bit ``i`` of a bonus mask is ``BONUS_IDS[i]``."""
NHAT_BAN_BIT = 1 << BONUS_IDS.index(NHAT_BAN_BONUS)

_DEFAULT_BITS = card_bits(DEFAULT_CONFIG)
_SOME_LEFT = card(min(DEFAULT_CONFIG.left_figures), 2)
_SOME_RIGHT = card(min(DEFAULT_CONFIG.right_figures), 2)
LEFT_BIT = _DEFAULT_BITS[_SOME_LEFT] & ~_DEFAULT_BITS[_SOME_RIGHT]
"""The card-Thưởng bit of a left-looking figure (the two cards differ only in facing)."""
RIGHT_BIT = _DEFAULT_BITS[_SOME_RIGHT] & ~_DEFAULT_BITS[_SOME_LEFT]
CARD_BITS_UNFACED = np.array([b & ~(LEFT_BIT | RIGHT_BIT) for b in _DEFAULT_BITS], dtype=np.int64)
"""Per card, :func:`~env121.rules.bonuses.card_bits` without the facing bit, which the
config decides (:data:`LEFT_BIT` for its left figures, :data:`RIGHT_BIT` for the other
regular ones)."""

SITUATION_DEALER, SITUATION_SELF_DRAWN, SITUATION_LAST_CARD = 1, 2, 4
"""The bits of a win's situation, as :class:`~env121.rules.bonuses.WinSituation`'s flags."""
_SITUATIONS = (
    (SITUATION_DEALER, WinSituation(DEFAULT_CONFIG, dealer=True)),
    (SITUATION_SELF_DRAWN, WinSituation(DEFAULT_CONFIG, self_drawn=True)),
    (SITUATION_LAST_CARD, WinSituation(DEFAULT_CONFIG, last_card=True)),
)
_CARD_BIT_COUNT = max(_DEFAULT_BITS).bit_length()
THUONG_CARD_BITS = np.array(
    [
        sum(
            1 << b
            for b in range(_CARD_BIT_COUNT)
            if t.condition(1 << b, WinSituation(DEFAULT_CONFIG))
        )
        for t in THUONGS
    ],
    dtype=np.int64,
)
"""Per Thưởng: earned when the AND of the six cards' bits meets this mask (probed
from its condition, one bit at a time)."""
THUONG_SITUATION = np.array(
    [sum(bit for bit, w in _SITUATIONS if t.condition(0, w)) for t in THUONGS], dtype=np.int64
)
"""Per Thưởng: earned when the win's situation has one of these bits."""
