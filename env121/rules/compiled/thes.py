"""The groups of spec §2 and the predicate of every Thế, as numba kernels.

The port of :mod:`env121.rules.groups` and of the predicates of
:mod:`env121.rules.thes`. An arrangement a1…a6 is a tuple of six card ids
``a`` (``a[0]…a[5]``). A two-triple Thế is asked through its
:class:`~env121.rules.thes.Halves`, read from the registry
(:mod:`env121.rules.compiled.tables`); the conditions a Halves adds in code
(``also``) and the predicates of the other Thế are ported one by one, each
kernel named after the Thế (or the ``also`` function) it ports. Importing this
module fails if the registry has a Thế or an ``also`` without a port here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from env121.rules import thes as registry
from env121.rules.cards import NUM_SUITS, Suit
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.tables import (
    CARD_FIG,
    CARD_IS_HONOR,
    CARD_SUIT,
    CREST,
    HALF_ALIGNED,
    HALF_EITHER_ORDER,
    HALF_FIRST,
    HALF_SAME_KIND,
    HALF_SECOND,
    KIND_FIGURE,
    KIND_NONE,
    KIND_SUIT,
    PHE_DS,
    PHE_LM,
    PHE_NONE,
    PHE_OF_SUITS,
    PHE_PT,
    THE_AN_SI_NEEDED,
    THE_INDEX,
    TRIPLE_GROUP_BITS,
)

KYOTO, EDO = int(Suit.KYOTO), int(Suit.EDO)

# ------------------------------------------------------------------ groups


@njit(cache=True, nogil=True)
def pair(x: int, y: int) -> int:
    """Đôi: the Kind two cards share (``KIND_NONE`` for none)."""
    if CARD_FIG[x] == CARD_FIG[y]:
        return KIND_FIGURE
    if CARD_SUIT[x] == CARD_SUIT[y]:
        return KIND_SUIT
    return KIND_NONE


@njit(cache=True, nogil=True)
def phu(x: int, y: int, z: int) -> int:
    """Phu: the Kind three cards share."""
    if CARD_FIG[x] == CARD_FIG[y] and CARD_FIG[y] == CARD_FIG[z]:
        return KIND_FIGURE
    if CARD_SUIT[x] == CARD_SUIT[y] and CARD_SUIT[y] == CARD_SUIT[z]:
        return KIND_SUIT
    return KIND_NONE


@njit(cache=True, nogil=True)
def phe(x: int, y: int, z: int) -> int:
    """Phe: the PheType of three cards' suits."""
    return int(PHE_OF_SUITS[(CARD_SUIT[x] * NUM_SUITS + CARD_SUIT[y]) * NUM_SUITS + CARD_SUIT[z]])


@njit(cache=True, nogil=True)
def phien(x: int, y: int, z: int) -> int:
    """Phiên: a Phu by figure whose suits are a Phe (its PheType)."""
    if CARD_FIG[x] == CARD_FIG[y] and CARD_FIG[y] == CARD_FIG[z]:
        return phe(x, y, z)
    return PHE_NONE


@njit(cache=True, nogil=True)
def triple_key(x: int, y: int, z: int) -> int:
    """:func:`env121.rules.thes.triple_key`: the three suits and whether one figure."""
    suits = (CARD_SUIT[x] * NUM_SUITS + CARD_SUIT[y]) * NUM_SUITS + CARD_SUIT[z]
    one_figure = CARD_FIG[x] == CARD_FIG[y] and CARD_FIG[y] == CARD_FIG[z]
    return int(suits * 2 + (1 if one_figure else 0))


@njit(cache=True, nogil=True)
def is_triple(x: int, y: int, z: int) -> bool:
    """A Phu or a Phe."""
    return phu(x, y, z) != KIND_NONE or phe(x, y, z) != PHE_NONE


@njit(cache=True, nogil=True)
def run_kind(a: tuple[int, ...], n: int) -> int:
    """The Kind all of a[0..n-1] share (Củng for 4, Ngũ for 5, Lục bộ for 6)."""
    f = CARD_FIG[a[0]]
    s = CARD_SUIT[a[0]]
    same_fig = True
    same_suit = True
    for i in range(1, n):
        same_fig = same_fig and CARD_FIG[a[i]] == f
        same_suit = same_suit and CARD_SUIT[a[i]] == s
    if same_fig:
        return KIND_FIGURE
    if same_suit:
        return KIND_SUIT
    return KIND_NONE


@njit(cache=True, nogil=True)
def pairwise_unrelated(a: tuple[int, ...], n: int) -> bool:
    """No two of a[0..n-1] share a figure or a suit."""
    for i in range(n):
        for j in range(i + 1, n):
            if CARD_FIG[a[i]] == CARD_FIG[a[j]] or CARD_SUIT[a[i]] == CARD_SUIT[a[j]]:
                return False
    return True


@njit(cache=True, nogil=True)
def all_honor(a: tuple[int, ...], n: int) -> bool:
    """Every one of a[0..n-1] is an honor card."""
    honor = True
    for i in range(n):
        honor = honor and CARD_IS_HONOR[a[i]]
    return honor


@njit(cache=True, nogil=True)
def other_kind(kind: int) -> int:
    """FIGURE for SUIT and back (``Kind.other``)."""
    if kind == KIND_FIGURE:
        return KIND_SUIT
    if kind == KIND_SUIT:
        return KIND_FIGURE
    return KIND_NONE


# ----------------------------------------------------- the Layout's groups


@njit(cache=True, nogil=True)
def _pairs_kind(a: tuple[int, ...]) -> int:
    """``Layout.pairs_kind``: the kind of pair(a1,a2), pair(a3,a4), pair(a5,a6) if one."""
    k = pair(a[0], a[1])
    if k != KIND_NONE and pair(a[2], a[3]) == k and pair(a[4], a[5]) == k:
        return k
    return KIND_NONE


@njit(cache=True, nogil=True)
def _lined_up(a: tuple[int, ...], key: np.ndarray) -> bool:
    """key(a_i) = key(a_{i+3}) for i = 1, 2, 3."""
    return bool(key[a[0]] == key[a[3]] and key[a[1]] == key[a[4]] and key[a[2]] == key[a[5]])


@njit(cache=True, nogil=True)
def _splits_into_pairs_of(a: tuple[int, ...], kind: int) -> bool:
    """The six cards split, in any way, into three pairs of ``kind``: a1 with some
    a_j, then the first of the other four with some a_p, the last two together."""
    for j in range(1, 6):
        if pair(a[0], a[j]) != kind:
            continue
        free = 0b111110 & ~(1 << j)  # the positions not yet paired
        r = 1 if j != 1 else 2  # the first of them
        free &= ~(1 << r)
        for p in range(r + 1, 6):
            if not free >> p & 1 or pair(a[r], a[p]) != kind:
                continue
            last = free & ~(1 << p)
            x = -1
            y = -1
            for m in range(6):
                if last >> m & 1:
                    if x < 0:
                        x = m
                    else:
                        y = m
            if pair(a[x], a[y]) == kind:
                return True
    return False


@njit(cache=True, nogil=True)
def _facing_five(a: tuple[int, ...], left: bool, left_figures: np.ndarray) -> bool:
    """a1..a5 share one suit and their figures are exactly the left (or right) five."""
    s = CARD_SUIT[a[0]]
    for i in range(5):
        c = a[i]
        if CARD_SUIT[c] != s:
            return False
        f = CARD_FIG[c]
        if f == CREST or (left_figures[f] == 1) != left:
            return False  # five distinct cards of one suit: five distinct figures
    return True


@njit(cache=True, nogil=True)
def _holds_all_facing(a: tuple[int, ...], left: bool, left_figures: np.ndarray) -> bool:
    """The figures of the six include all five left (or right) figures."""
    need = 0
    for f in range(left_figures.shape[0]):
        if f != CREST and (left_figures[f] == 1) == left:
            need |= 1 << f
    have = 0
    for i in range(6):
        have |= 1 << CARD_FIG[a[i]]
    return need & ~have == 0


# ------------------------------------------------------- indicator members


@njit(cache=True, nogil=True)
def _related(x: int, y: int) -> bool:
    return bool(CARD_FIG[x] == CARD_FIG[y] or CARD_SUIT[x] == CARD_SUIT[y])


@njit(cache=True, nogil=True)
def clean_an_si_count(a: tuple[int, ...], public: PublicCards) -> int:
    """:func:`env121.rules.thes.clean_an_si_count`: how many revealed Ẩn Sĩ can join
    the six and the Chỉ Điểm, all pairwise unrelated; -1 when the six are not a
    Quốc Sĩ or the Chỉ Điểm is unknown (``chi_diem < 0``) or related to one of them."""
    chi_diem, an_si, n_an_si = public
    if chi_diem < 0 or not pairwise_unrelated(a, 6):
        return -1
    for i in range(6):
        if _related(a[i], chi_diem):
            return -1
    clean = 0  # the positions in an_si of the candidates
    for k in range(n_an_si):
        c = an_si[k]
        ok = not _related(c, chi_diem)
        for i in range(6):
            ok = ok and not _related(c, a[i])
        if ok:
            clean |= 1 << k
    best = 0
    for subset in range(1, 1 << n_an_si):
        if subset & ~clean:
            continue
        size = 0
        unrelated = True
        for i in range(n_an_si):
            if not subset >> i & 1:
                continue
            size += 1
            for j in range(i + 1, n_an_si):
                if subset >> j & 1 and _related(an_si[i], an_si[j]):
                    unrelated = False
        if unrelated and size > best:
            best = size
    return best


# --------------------------------------------------- predicates, by Thế id


@njit(cache=True, nogil=True)
def quoc_si(a: tuple[int, ...]) -> bool:
    return pairwise_unrelated(a, 6)


@njit(cache=True, nogil=True)
def ba_doi(a: tuple[int, ...]) -> bool:
    return _pairs_kind(a) != KIND_NONE


@njit(cache=True, nogil=True)
def cung_doi(a: tuple[int, ...]) -> bool:
    k = run_kind(a, 4)
    return k != KIND_NONE and pair(a[4], a[5]) == k and run_kind(a, 6) == KIND_NONE


@njit(cache=True, nogil=True)
def cung_phu(a: tuple[int, ...]) -> bool:
    return run_kind(a, 4) != KIND_NONE and phu(a[3], a[4], a[5]) != KIND_NONE


@njit(cache=True, nogil=True)
def cung_phien(a: tuple[int, ...]) -> bool:
    return run_kind(a, 4) != KIND_NONE and phien(a[3], a[4], a[5]) != PHE_NONE


@njit(cache=True, nogil=True)
def cung_phien_doi_phu(a: tuple[int, ...]) -> bool:
    return (
        run_kind(a, 4) != KIND_NONE
        and phien(a[0], a[1], a[2]) != PHE_NONE
        and phu(a[3], a[4], a[5]) != KIND_NONE
    )


@njit(cache=True, nogil=True)
def cung_doi_phe(a: tuple[int, ...]) -> bool:
    return (
        run_kind(a, 4) != KIND_NONE
        and pair(a[4], a[5]) != KIND_NONE
        and phe(a[3], a[4], a[5]) != PHE_NONE
    )


@njit(cache=True, nogil=True)
def cung_phien_doi(a: tuple[int, ...]) -> bool:
    return (
        run_kind(a, 4) != KIND_NONE
        and phien(a[0], a[1], a[2]) != PHE_NONE
        and pair(a[4], a[5]) != KIND_NONE
    )


@njit(cache=True, nogil=True)
def ngu_luan_doi(a: tuple[int, ...]) -> bool:
    return (
        run_kind(a, 5) != KIND_NONE
        and not CARD_IS_HONOR[a[5]]
        and pair(a[4], a[5]) != KIND_NONE
        and run_kind(a, 6) == KIND_NONE
    )


@njit(cache=True, nogil=True)
def _cung_phien_phu_in(a: tuple[int, ...], suit: int) -> bool:
    tail_in_suit = CARD_SUIT[a[3]] == suit and CARD_SUIT[a[4]] == suit and CARD_SUIT[a[5]] == suit
    return run_kind(a, 4) != KIND_NONE and phien(a[0], a[1], a[2]) != PHE_NONE and tail_in_suit


@njit(cache=True, nogil=True)
def cung_phien_phu_giang_ho(a: tuple[int, ...]) -> bool:
    return _cung_phien_phu_in(a, EDO)


@njit(cache=True, nogil=True)
def cung_phien_phu_co_do(a: tuple[int, ...]) -> bool:
    return _cung_phien_phu_in(a, KYOTO)


@njit(cache=True, nogil=True)
def cung_doi_hai_doi(a: tuple[int, ...]) -> bool:
    k = run_kind(a, 4)
    if k == KIND_NONE or pair(a[4], a[5]) != k or run_kind(a, 6) != KIND_NONE:
        return False
    other = other_kind(k)
    for i in range(4):
        if pair(a[4], a[i]) != other:
            continue
        for j in range(4):
            if j != i and pair(a[5], a[j]) == other:
                return True
    return False


@njit(cache=True, nogil=True)
def cung_doi_phien(a: tuple[int, ...]) -> bool:
    return (
        run_kind(a, 4) != KIND_NONE
        and pair(a[4], a[5]) != KIND_NONE
        and phien(a[3], a[4], a[5]) != PHE_NONE
    )


@njit(cache=True, nogil=True)
def cung_phien_doi_phe(a: tuple[int, ...]) -> bool:
    return cung_phien_doi(a) and phe(a[3], a[4], a[5]) != PHE_NONE


@njit(cache=True, nogil=True)
def ngu_luan_trai(a: tuple[int, ...], left_figures: np.ndarray) -> bool:
    return _facing_five(a, True, left_figures) and pair(a[4], a[5]) != KIND_NONE


@njit(cache=True, nogil=True)
def ngu_luan_phai(a: tuple[int, ...], left_figures: np.ndarray) -> bool:
    return _facing_five(a, False, left_figures) and pair(a[4], a[5]) != KIND_NONE


@njit(cache=True, nogil=True)
def ngu_luan_danh_du(a: tuple[int, ...]) -> bool:
    sixth, fifth = a[5], a[4]
    return (
        run_kind(a, 5) != KIND_NONE
        and all_honor(a, 5)
        and CARD_IS_HONOR[sixth]
        and CARD_FIG[sixth] == CARD_FIG[fifth]
        and CARD_SUIT[sixth] != CARD_SUIT[fifth]
        and run_kind(a, 6) == KIND_NONE
    )


@njit(cache=True, nogil=True)
def cung_phien_doi_hai_doi(a: tuple[int, ...]) -> bool:
    return cung_doi_hai_doi(a) and phien(a[0], a[1], a[2]) != PHE_NONE


@njit(cache=True, nogil=True)
def _cung_phien_doi_phe_of(a: tuple[int, ...], kind: int) -> bool:
    return (
        run_kind(a, 4) != KIND_NONE
        and phien(a[0], a[1], a[2]) == kind
        and pair(a[4], a[5]) != KIND_NONE
        and phe(a[3], a[4], a[5]) == kind
    )


@njit(cache=True, nogil=True)
def cung_phien_doi_phe_lien_minh(a: tuple[int, ...]) -> bool:
    return _cung_phien_doi_phe_of(a, PHE_LM)


@njit(cache=True, nogil=True)
def cung_phien_doi_phe_dong_sac(a: tuple[int, ...]) -> bool:
    return _cung_phien_doi_phe_of(a, PHE_DS)


@njit(cache=True, nogil=True)
def cung_phien_doi_phe_phan_tranh(a: tuple[int, ...]) -> bool:
    return _cung_phien_doi_phe_of(a, PHE_PT)


@njit(cache=True, nogil=True)
def quoc_si_trai(a: tuple[int, ...], left_figures: np.ndarray) -> bool:
    return pairwise_unrelated(a, 6) and _holds_all_facing(a, True, left_figures)


@njit(cache=True, nogil=True)
def quoc_si_phai(a: tuple[int, ...], left_figures: np.ndarray) -> bool:
    return pairwise_unrelated(a, 6) and _holds_all_facing(a, False, left_figures)


@njit(cache=True, nogil=True)
def ba_doi_ba_doi(a: tuple[int, ...]) -> bool:
    k = _pairs_kind(a)
    return k != KIND_NONE and _splits_into_pairs_of(a, other_kind(k))


@njit(cache=True, nogil=True)
def luc_bo(a: tuple[int, ...]) -> bool:
    return run_kind(a, 6) != KIND_NONE


@njit(cache=True, nogil=True)
def _sieu_ngu_luan(a: tuple[int, ...], left: bool, left_figures: np.ndarray) -> bool:
    sixth = a[5]
    return (
        _facing_five(a, left, left_figures)
        and CARD_FIG[sixth] == CREST
        and CARD_SUIT[sixth] == CARD_SUIT[a[0]]
    )


@njit(cache=True, nogil=True)
def sieu_ngu_luan_trai(a: tuple[int, ...], left_figures: np.ndarray) -> bool:
    return _sieu_ngu_luan(a, True, left_figures)


@njit(cache=True, nogil=True)
def sieu_ngu_luan_phai(a: tuple[int, ...], left_figures: np.ndarray) -> bool:
    return _sieu_ngu_luan(a, False, left_figures)


@njit(cache=True, nogil=True)
def ba_doi_phu_co_do_giang_ho(a: tuple[int, ...]) -> bool:
    if _pairs_kind(a) != KIND_FIGURE:
        return False
    first_kyoto = CARD_SUIT[a[0]] == KYOTO and CARD_SUIT[a[2]] == KYOTO and CARD_SUIT[a[4]] == KYOTO
    first_edo = CARD_SUIT[a[0]] == EDO and CARD_SUIT[a[2]] == EDO and CARD_SUIT[a[4]] == EDO
    second_kyoto = (
        CARD_SUIT[a[1]] == KYOTO and CARD_SUIT[a[3]] == KYOTO and CARD_SUIT[a[5]] == KYOTO
    )
    second_edo = CARD_SUIT[a[1]] == EDO and CARD_SUIT[a[3]] == EDO and CARD_SUIT[a[5]] == EDO
    return bool((first_kyoto and second_edo) or (first_edo and second_kyoto))


@njit(cache=True, nogil=True)
def luc_bo_danh_du(a: tuple[int, ...]) -> bool:
    return run_kind(a, 6) != KIND_NONE and all_honor(a, 6)


# ------------------------------------------- what two-triple Thế add in code

ALSO_NONE, ALSO_SAME_SUITS_IN_VARIANT, ALSO_DIFFERENT_FIGURES, ALSO_SAME_FIGURE = 0, 1, 2, 3
ALSO_PAIRED_BY_THE_OTHER_KIND = 4
_ALSO_PORTS = {
    None: ALSO_NONE,
    registry._same_suits_in_variant: ALSO_SAME_SUITS_IN_VARIANT,
    registry._different_figures: ALSO_DIFFERENT_FIGURES,
    registry._same_figure: ALSO_SAME_FIGURE,
    registry._paired_by_the_other_kind: ALSO_PAIRED_BY_THE_OTHER_KIND,
}


def _also_codes() -> np.ndarray:
    codes = []
    for the in registry.THES:
        also = the.halves.also if the.halves else None
        if also not in _ALSO_PORTS:
            raise RuntimeError(
                f"Thế {the.id!r}: its Halves.also {also!r} has no port in "
                "env121.rules.compiled.thes: expected one of the ported conditions"
            )
        codes.append(_ALSO_PORTS[also])
    return np.array(codes, dtype=np.int64)


HALF_ALSO = _also_codes()
"""Per Thế, which ported ``Halves.also`` condition it adds (``ALSO_NONE`` for none)."""


@njit(cache=True, nogil=True)
def _paired_by_the_other_kind(a: tuple[int, ...]) -> bool:
    other = other_kind(phu(a[0], a[1], a[2]))
    return pair(a[0], a[3]) == other and pair(a[1], a[4]) == other and pair(a[2], a[5]) == other


@njit(cache=True, nogil=True)
def _also(code: int, a: tuple[int, ...], phe_phe_same_suits: bool) -> bool:
    if code == ALSO_NONE:
        return True
    if code == ALSO_SAME_SUITS_IN_VARIANT:
        return not phe_phe_same_suits or _lined_up(a, CARD_SUIT)
    if code == ALSO_DIFFERENT_FIGURES:
        return bool(CARD_FIG[a[0]] != CARD_FIG[a[3]])
    if code == ALSO_SAME_FIGURE:
        return bool(CARD_FIG[a[0]] == CARD_FIG[a[3]])
    return _paired_by_the_other_kind(a)


@njit(cache=True, nogil=True)
def halves_in_order(t: int, a: tuple[int, ...], phe_phe_same_suits: bool) -> bool:
    """``Halves.in_order`` of two-triple Thế ``t``: its halves as named, no swap."""
    if not TRIPLE_GROUP_BITS[triple_key(a[0], a[1], a[2])] >> HALF_FIRST[t] & 1:
        return False
    if not TRIPLE_GROUP_BITS[triple_key(a[3], a[4], a[5])] >> HALF_SECOND[t] & 1:
        return False
    aligned = HALF_ALIGNED[t]
    if aligned == KIND_FIGURE and not _lined_up(a, CARD_FIG):
        return False
    if aligned == KIND_SUIT and not _lined_up(a, CARD_SUIT):
        return False
    if HALF_SAME_KIND[t] and phu(a[0], a[1], a[2]) != phu(a[3], a[4], a[5]):
        return False
    return _also(HALF_ALSO[t], a, phe_phe_same_suits)


# ------------------------------------------------------------- dispatch

_PORTED = (
    "quoc_si",
    "ba_doi",
    "cung_doi",
    "cung_phu",
    "cung_phien",
    "cung_phien_doi_phu",
    "cung_doi_phe",
    "cung_phien_doi",
    "ngu_luan_doi",
    "cung_phien_phu_giang_ho",
    "cung_phien_phu_co_do",
    "cung_doi_hai_doi",
    "cung_doi_phien",
    "cung_phien_doi_phe",
    "ngu_luan_trai",
    "ngu_luan_phai",
    "ngu_luan_danh_du",
    "cung_phien_doi_hai_doi",
    "cung_phien_doi_phe_lien_minh",
    "cung_phien_doi_phe_dong_sac",
    "cung_phien_doi_phe_phan_tranh",
    "quoc_si_trai",
    "quoc_si_phai",
    "ba_doi_ba_doi",
    "luc_bo",
    "sieu_ngu_luan_trai",
    "sieu_ngu_luan_phai",
    "ba_doi_phu_co_do_giang_ho",
    "luc_bo_danh_du",
)
"""The Thế whose predicate is code (not Halves, not decided by the indicators):
each has the kernel of its name above and its branch in :func:`searched_predicate`."""

_in_code = {t.id for t in registry.THES if t.halves is None and not t.needs_chi_diem}
if _in_code != set(_PORTED):
    raise RuntimeError(
        "the compiled Thế predicates are out of step with the registry: "
        f"no port for {sorted(_in_code - set(_PORTED))}, "
        f"ports of no Thế {sorted(set(_PORTED) - _in_code)}"
    )

(
    _QUOC_SI,
    _BA_DOI,
    _CUNG_DOI,
    _CUNG_PHU,
    _CUNG_PHIEN,
    _CUNG_PHIEN_DOI_PHU,
    _CUNG_DOI_PHE,
    _CUNG_PHIEN_DOI,
    _NGU_LUAN_DOI,
    _CUNG_PHIEN_PHU_GIANG_HO,
    _CUNG_PHIEN_PHU_CO_DO,
    _CUNG_DOI_HAI_DOI,
    _CUNG_DOI_PHIEN,
    _CUNG_PHIEN_DOI_PHE,
    _NGU_LUAN_TRAI,
    _NGU_LUAN_PHAI,
    _NGU_LUAN_DANH_DU,
    _CUNG_PHIEN_DOI_HAI_DOI,
    _CUNG_PHIEN_DOI_PHE_LIEN_MINH,
    _CUNG_PHIEN_DOI_PHE_DONG_SAC,
    _CUNG_PHIEN_DOI_PHE_PHAN_TRANH,
    _QUOC_SI_TRAI,
    _QUOC_SI_PHAI,
    _BA_DOI_BA_DOI,
    _LUC_BO,
    _SIEU_NGU_LUAN_TRAI,
    _SIEU_NGU_LUAN_PHAI,
    _BA_DOI_PHU_CO_DO_GIANG_HO,
    _LUC_BO_DANH_DU,
) = (THE_INDEX[i] for i in _PORTED)


@njit(cache=True, nogil=True)
def searched_predicate(
    t: int, a: tuple[int, ...], left_figures: np.ndarray, phe_phe_same_suits: bool
) -> bool:
    """What the search asks of Thế ``t`` on layout ``a``: a two-triple Thế's
    halves in the order named, any other searched Thế's predicate."""
    if HALF_FIRST[t] >= 0:
        return halves_in_order(t, a, phe_phe_same_suits)
    if t == _QUOC_SI:
        return quoc_si(a)
    if t == _BA_DOI:
        return ba_doi(a)
    if t == _CUNG_DOI:
        return cung_doi(a)
    if t == _CUNG_PHU:
        return cung_phu(a)
    if t == _CUNG_PHIEN:
        return cung_phien(a)
    if t == _CUNG_PHIEN_DOI_PHU:
        return cung_phien_doi_phu(a)
    if t == _CUNG_DOI_PHE:
        return cung_doi_phe(a)
    if t == _CUNG_PHIEN_DOI:
        return cung_phien_doi(a)
    if t == _NGU_LUAN_DOI:
        return ngu_luan_doi(a)
    if t == _CUNG_PHIEN_PHU_GIANG_HO:
        return cung_phien_phu_giang_ho(a)
    if t == _CUNG_PHIEN_PHU_CO_DO:
        return cung_phien_phu_co_do(a)
    if t == _CUNG_DOI_HAI_DOI:
        return cung_doi_hai_doi(a)
    if t == _CUNG_DOI_PHIEN:
        return cung_doi_phien(a)
    if t == _CUNG_PHIEN_DOI_PHE:
        return cung_phien_doi_phe(a)
    if t == _NGU_LUAN_TRAI:
        return ngu_luan_trai(a, left_figures)
    if t == _NGU_LUAN_PHAI:
        return ngu_luan_phai(a, left_figures)
    if t == _NGU_LUAN_DANH_DU:
        return ngu_luan_danh_du(a)
    if t == _CUNG_PHIEN_DOI_HAI_DOI:
        return cung_phien_doi_hai_doi(a)
    if t == _CUNG_PHIEN_DOI_PHE_LIEN_MINH:
        return cung_phien_doi_phe_lien_minh(a)
    if t == _CUNG_PHIEN_DOI_PHE_DONG_SAC:
        return cung_phien_doi_phe_dong_sac(a)
    if t == _CUNG_PHIEN_DOI_PHE_PHAN_TRANH:
        return cung_phien_doi_phe_phan_tranh(a)
    if t == _QUOC_SI_TRAI:
        return quoc_si_trai(a, left_figures)
    if t == _QUOC_SI_PHAI:
        return quoc_si_phai(a, left_figures)
    if t == _BA_DOI_BA_DOI:
        return ba_doi_ba_doi(a)
    if t == _LUC_BO:
        return luc_bo(a)
    if t == _SIEU_NGU_LUAN_TRAI:
        return sieu_ngu_luan_trai(a, left_figures)
    if t == _SIEU_NGU_LUAN_PHAI:
        return sieu_ngu_luan_phai(a, left_figures)
    if t == _BA_DOI_PHU_CO_DO_GIANG_HO:
        return ba_doi_phu_co_do_giang_ho(a)
    if t == _LUC_BO_DANH_DU:
        return luc_bo_danh_du(a)
    return False  # an indicator-decided member: never searched


@njit(cache=True, nogil=True)
def matches(
    t: int,
    a: tuple[int, ...],
    left_figures: np.ndarray,
    phe_phe_same_suits: bool,
    public: PublicCards,
) -> bool:
    """``THES[t].matches(a, table)``: the spec's definition on this exact order
    (a two-triple Thế either way round where it says so; an indicator-decided
    member by the indicators)."""
    needed = THE_AN_SI_NEEDED[t]
    if needed >= 0:
        return bool(clean_an_si_count(a, public) >= needed)
    if searched_predicate(t, a, left_figures, phe_phe_same_suits):
        return True
    if HALF_FIRST[t] >= 0 and HALF_EITHER_ORDER[t]:
        swapped = (a[3], a[4], a[5], a[0], a[1], a[2])
        return halves_in_order(t, swapped, phe_phe_same_suits)
    return False
