"""A brute-force reference scorer for 121, written the way the spec reads.

This module is a **test oracle** for the fast scorer in ``env121``. It is
deliberately independent of it: it imports only the card tables of
``env121.rules.cards`` (figure and suit of a card id) and re-derives everything else
from ``rules-121.md`` (the binding spec):

* §1  card properties (honor, clan, color, facing);
* §2  the groups (Đôi, Phu, Phe, Phiên, Phu Cố Đô / Giang Hộ, Củng, Ngũ, Lục bộ);
* §3  completed hands, and the choice of the reported Thế over all 720 orders;
* §4  one *positional* predicate per Thế id, on positions a1..a6;
* §6  Thưởng (bonuses), indicators and the points of a win.

Nothing here reasons about card *sets* to skip work: a normal win literally
tries every order of the six cards and every Thế on it, and ``reference_thes``
evaluates every predicate. ``reference_score`` takes two shortcuts, both
checked exact by ``test_reference_agreement.py``:

* the one the spec states (§3): every Thế implies a completed shape, so each
  Thế is tried only on the orders matching the shape its definition implies
  (``RefThe.shape``);
* the shape-6 Thế (Lục bộ, Quốc Sĩ family) are defined on the six cards, not on
  positions, so they are tried once rather than in each of the 720 orders.

Small pure group predicates are memoized; that changes no result.

Where the spec leaves room, the reading taken here is stated in the docstring
of the function concerned (search for "Reading:").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from typing import Any, Literal, TypeVar, cast

from env121.rules.cards import FIG, SUIT

Kind = Literal["figure", "suit"]
PheType = Literal["LM", "DS", "PT"]
Arrangement = Sequence[int]
F = TypeVar("F", bound=Callable[..., Any])

# --------------------------------------------------------------- §1 the cards

CREST = 0
KYOTO = 0
EDO = 1
HONOR_SUITS = (KYOTO, EDO)
REGULAR_FIGURES = frozenset(range(1, 11))
DEFAULT_LEFT_FIGURES = frozenset({1, 2, 3, 4, 5})


# §1 suit table: suits 2-4 are FLOWER, 5-7 BUTTERFLY, 8-10 LEAF, each clan RED, BLUE, PURPLE.
SUIT_CLAN: dict[int, int | None] = {KYOTO: None, EDO: None}
SUIT_CLAN |= {s: (s - 2) // 3 for s in range(2, 11)}
SUIT_COLOR: dict[int, int | None] = {KYOTO: None, EDO: None}
SUIT_COLOR |= {s: (s - 2) % 3 for s in range(2, 11)}


def clan_of(card: int) -> int | None:
    """Clan of a card's suit (§1); None for the honor suits KYOTO and EDO."""
    return SUIT_CLAN[SUIT[card]]


def color_of(card: int) -> int | None:
    """Color of a card's suit (§1); None for the honor suits KYOTO and EDO."""
    return SUIT_COLOR[SUIT[card]]


def is_honor(card: int) -> bool:
    """Honor card (§1): figure CREST or suit KYOTO / EDO."""
    return FIG[card] == CREST or SUIT[card] in HONOR_SUITS


_MEMO_SIZE = 1 << 14


def _memo(func: F) -> F:
    """Memoize a pure group predicate of 2 or 3 cards on its arguments.

    A speed measure only (the cache changes no result): a normal win asks the
    same questions of the same few cards in many of its 720 orders.
    """
    return cast(F, lru_cache(maxsize=_MEMO_SIZE)(func))


def related(x: int, y: int) -> bool:
    """§1: two cards are related iff they share a figure or a suit."""
    return FIG[x] == FIG[y] or SUIT[x] == SUIT[y]


def pairwise_unrelated(*cards: int) -> bool:
    """No two of the cards are related (§1). A repeated card is related to itself."""
    return all(not related(x, y) for x, y in combinations(cards, 2))


def six_unrelated(a1: int, a2: int, a3: int, a4: int, a5: int, a6: int) -> bool:
    """``pairwise_unrelated`` for exactly six cards, spelled out for speed: six different
    figures and six different suits ("6 figures, 6 suits", §4)."""
    return (
        len({FIG[a1], FIG[a2], FIG[a3], FIG[a4], FIG[a5], FIG[a6]}) == 6
        and len({SUIT[a1], SUIT[a2], SUIT[a3], SUIT[a4], SUIT[a5], SUIT[a6]}) == 6
    )


# ------------------------------------------------------------- §2 the groups


def pair(x: int, y: int) -> Kind | None:
    """Đôi (§2): x, y share a figure (kind figure) or a suit (kind suit)."""
    if FIG[x] == FIG[y]:
        return "figure"
    if SUIT[x] == SUIT[y]:
        return "suit"
    return None


def phu(x: int, y: int, z: int) -> Kind | None:
    """Phu (§2): three cards of one figure or of one suit."""
    if FIG[x] == FIG[y] == FIG[z]:
        return "figure"
    if SUIT[x] == SUIT[y] == SUIT[z]:
        return "suit"
    return None


@_memo
def phe(x: int, y: int, z: int) -> PheType | None:
    """Phe (§2): all three suits regular and LM / DS / PT by clans and colors; figures ignored.

    LM: one clan, all three colors. DS: three clans, one color. PT: three clans,
    three colors.
    """
    sx, sy, sz = SUIT[x], SUIT[y], SUIT[z]
    if sx in HONOR_SUITS or sy in HONOR_SUITS or sz in HONOR_SUITS:
        return None
    clans = {SUIT_CLAN[sx], SUIT_CLAN[sy], SUIT_CLAN[sz]}
    colors = {SUIT_COLOR[sx], SUIT_COLOR[sy], SUIT_COLOR[sz]}
    if len(clans) == 1 and len(colors) == 3:
        return "LM"
    if len(clans) == 3 and len(colors) == 1:
        return "DS"
    if len(clans) == 3 and len(colors) == 3:
        return "PT"
    return None


@_memo
def phien(x: int, y: int, z: int) -> PheType | None:
    """Phiên (§2): a Phu that is also a Phe; its type is the Phe's type."""
    if phu(x, y, z) is None:
        return None
    return phe(x, y, z)


@_memo
def kyoto3(x: int, y: int, z: int) -> bool:
    """Phu Cố Đô (§2): a Phu of kind suit in KYOTO."""
    return phu(x, y, z) == "suit" and SUIT[x] == KYOTO


@_memo
def edo3(x: int, y: int, z: int) -> bool:
    """Phu Giang Hộ (§2): a Phu of kind suit in EDO."""
    return phu(x, y, z) == "suit" and SUIT[x] == EDO


def cung(w: int, x: int, y: int, z: int) -> Kind | None:
    """Củng (§2): four cards of one figure or one suit."""
    if FIG[w] == FIG[x] == FIG[y] == FIG[z]:
        return "figure"
    if SUIT[w] == SUIT[x] == SUIT[y] == SUIT[z]:
        return "suit"
    return None


def ngu(v: int, w: int, x: int, y: int, z: int) -> Kind | None:
    """Ngũ (§2): five cards of one figure or one suit."""
    if FIG[v] == FIG[w] == FIG[x] == FIG[y] == FIG[z]:
        return "figure"
    if SUIT[v] == SUIT[w] == SUIT[x] == SUIT[y] == SUIT[z]:
        return "suit"
    return None


def luc(a1: int, a2: int, a3: int, a4: int, a5: int, a6: int) -> Kind | None:
    """Lục bộ (§2): six cards of one figure or one suit."""
    if FIG[a1] == FIG[a2] == FIG[a3] == FIG[a4] == FIG[a5] == FIG[a6]:
        return "figure"
    if SUIT[a1] == SUIT[a2] == SUIT[a3] == SUIT[a4] == SUIT[a5] == SUIT[a6]:
        return "suit"
    return None


def _other(kind: Kind) -> Kind:
    return "suit" if kind == "figure" else "figure"


@_memo
def _phu_or_phe(x: int, y: int, z: int) -> bool:
    return phu(x, y, z) is not None or phe(x, y, z) is not None


# ----------------------------------------------------- §3 completed hands


def positional_shapes(arrangement: Arrangement) -> tuple[int, ...]:
    """The completed-hand shapes 1-5 of §3 (those defined on positions) that this order a1..a6
    matches.

    Each shape ends either in pair(a5,a6) (shapes 2, 3, 5) or in the triple a4a5a6 being a
    Phu or a Phe (shapes 1, 4); those two tests are made first, once.
    """
    a1, a2, a3, a4, a5, a6 = arrangement
    ends_in_pair = pair(a5, a6) is not None
    ends_in_triple = _phu_or_phe(a4, a5, a6)
    if not (ends_in_pair or ends_in_triple):
        return ()
    shapes: list[int] = []
    # 1. two triples: each of (a1,a2,a3) and (a4,a5,a6) is a Phu or a Phe
    if ends_in_triple and _phu_or_phe(a1, a2, a3):
        shapes.append(1)
    # 2. three pairs: pair(a1,a2), pair(a3,a4), pair(a5,a6)
    if ends_in_pair and pair(a1, a2) and pair(a3, a4):
        shapes.append(2)
    # 3. Củng + pair: cung(a1..a4), pair(a5,a6)
    if ends_in_pair and cung(a1, a2, a3, a4):
        shapes.append(3)
    # 4. Củng + triple sharing a4: cung(a1..a4) and (a4,a5,a6) is a Phu or a Phe
    if ends_in_triple and cung(a1, a2, a3, a4):
        shapes.append(4)
    # 5. five + one: ngu(a1..a5), pair(a5,a6)
    if ends_in_pair and ngu(a1, a2, a3, a4, a5):
        shapes.append(5)
    return tuple(shapes)


def six_card_shape(cards: Arrangement) -> bool:
    """Shape 6 of §3, the one that ignores positions: luc(a1..a6), or the six cards are
    pairwise unrelated."""
    return luc(*cards) is not None or six_unrelated(*cards)


def reference_is_completed(arrangement: Arrangement) -> bool:
    """Completed hand (§3, book §4.2): the order a1..a6 matches one of the six shapes."""
    return bool(positional_shapes(arrangement)) or six_card_shape(arrangement)


# ------------------------------------------------------- §4 the Thế predicates


@dataclass(frozen=True)
class Table:
    """What a Thế may depend on besides the six cards: rule variants and the indicators."""

    left_figures: frozenset[int] = DEFAULT_LEFT_FIGURES
    phe_phe_same_suits: bool = False
    chi_diem: int | None = None
    an_si: tuple[int, ...] = ()

    @property
    def right_figures(self) -> frozenset[int]:
        """[R-1] The regular figures that are not left-facing."""
        return REGULAR_FIGURES - self.left_figures


ThePredicate = Callable[[Arrangement, Table], bool]

# ---- Special


def quoc_si(a: Arrangement, t: Table) -> bool:
    """Quốc Sĩ (Special, tier 1): the six cards are pairwise unrelated."""
    return six_unrelated(*a)


# ---- Thế 1


def ba_doi(a: Arrangement, t: Table) -> bool:
    """Thế 1: pair(a1,a2), pair(a3,a4), pair(a5,a6), all three of the same kind."""
    a1, a2, a3, a4, a5, a6 = a
    k = pair(a1, a2)
    return k is not None and pair(a3, a4) == k and pair(a5, a6) == k


def _phe_phe(a: Arrangement, t: Table, kind: PheType) -> bool:
    """Both halves are Phe of the given type; [R-2] variant also needs suit(a_i)=suit(a_i+3)."""
    a1, a2, a3, a4, a5, a6 = a
    if not (phe(a1, a2, a3) == kind and phe(a4, a5, a6) == kind):
        return False
    if t.phe_phe_same_suits:
        return all(SUIT[a[i]] == SUIT[a[i + 3]] for i in range(3))
    return True


def phe_phe_lien_minh(a: Arrangement, t: Table) -> bool:
    """Thế 1: phe(a1,a2,a3)=LM and phe(a4,a5,a6)=LM [R-2]."""
    return _phe_phe(a, t, "LM")


def phe_phe_dong_sac(a: Arrangement, t: Table) -> bool:
    """Thế 1: both halves Phe DS [R-2]."""
    return _phe_phe(a, t, "DS")


def phe_phe_phan_tranh(a: Arrangement, t: Table) -> bool:
    """Thế 1: both halves Phe PT [R-2]."""
    return _phe_phe(a, t, "PT")


def _same_figures_across(a: Arrangement) -> bool:
    """fig(a_i) = fig(a_{i+3}) for i = 1, 2, 3."""
    return all(FIG[a[i]] == FIG[a[i + 3]] for i in range(3))


def _same_suits_across(a: Arrangement) -> bool:
    """suit(a_i) = suit(a_{i+3}) for i = 1, 2, 3."""
    return all(SUIT[a[i]] == SUIT[a[i + 3]] for i in range(3))


def phe_phe_ba_doi(a: Arrangement, t: Table) -> bool:
    """Thế 1: both halves are Phe (any types) and fig(a_i)=fig(a_{i+3}).

    Reading: the [R-2] ``phe_phe_same_suits`` variant does not apply here (the
    spec marks [R-2] on the three named Phe–Phe Thế only).
    """
    a1, a2, a3, a4, a5, a6 = a
    return phe(a1, a2, a3) is not None and phe(a4, a5, a6) is not None and _same_figures_across(a)


def _either_order(
    a: Arrangement, first: Callable[..., object], second: Callable[..., object]
) -> bool:
    """first(a1,a2,a3) and second(a4,a5,a6), or the two halves swapped (§3 'either order')."""
    a1, a2, a3, a4, a5, a6 = a
    return bool(
        (first(a1, a2, a3) and second(a4, a5, a6)) or (second(a1, a2, a3) and first(a4, a5, a6))
    )


def phe_co_do(a: Arrangement, t: Table) -> bool:
    """Thế 1: phe(a1,a2,a3) and kyoto3(a4,a5,a6), either order."""
    return _either_order(a, phe, kyoto3)


def phe_giang_ho(a: Arrangement, t: Table) -> bool:
    """Thế 1: phe + edo3, either order."""
    return _either_order(a, phe, edo3)


def phu_phu(a: Arrangement, t: Table) -> bool:
    """Thế 1: phu(a1,a2,a3), phu(a4,a5,a6), same kind."""
    a1, a2, a3, a4, a5, a6 = a
    k = phu(a1, a2, a3)
    return k is not None and phu(a4, a5, a6) == k


def cung_doi(a: Arrangement, t: Table) -> bool:
    """Thế 1: cung(a1..a4), pair(a5,a6), same kind, and not luc(a1..a6)."""
    a1, a2, a3, a4, a5, a6 = a
    k = cung(a1, a2, a3, a4)
    return k is not None and pair(a5, a6) == k and luc(*a) is None


def cung_phu(a: Arrangement, t: Table) -> bool:
    """Thế 1: cung(a1..a4) and phu(a4,a5,a6) (sharing a4). Reading: kinds unrestricted."""
    a1, a2, a3, a4, a5, a6 = a
    return cung(a1, a2, a3, a4) is not None and phu(a4, a5, a6) is not None


# ---- Thế 2


def phien_phien(a: Arrangement, t: Table) -> bool:
    """Thế 2: phien(a1,a2,a3), phien(a4,a5,a6), fig(a1) != fig(a4)."""
    a1, a2, a3, a4, a5, a6 = a
    return phien(a1, a2, a3) is not None and phien(a4, a5, a6) is not None and FIG[a1] != FIG[a4]


def phien_co_do(a: Arrangement, t: Table) -> bool:
    """Thế 2: phien + kyoto3, either order."""
    return _either_order(a, phien, kyoto3)


def phien_giang_ho(a: Arrangement, t: Table) -> bool:
    """Thế 2: phien + edo3, either order."""
    return _either_order(a, phien, edo3)


def cung_phien(a: Arrangement, t: Table) -> bool:
    """Thế 2: cung(a1..a4) and phien(a4,a5,a6) [R-3]."""
    a1, a2, a3, a4, a5, a6 = a
    return cung(a1, a2, a3, a4) is not None and phien(a4, a5, a6) is not None


def cung_phien_doi_phu(a: Arrangement, t: Table) -> bool:
    """Thế 2: cung(a1..a4), phien(a1,a2,a3), phu(a4,a5,a6)."""
    a1, a2, a3, a4, a5, a6 = a
    return (
        cung(a1, a2, a3, a4) is not None
        and phien(a1, a2, a3) is not None
        and phu(a4, a5, a6) is not None
    )


def cung_doi_phe(a: Arrangement, t: Table) -> bool:
    """Thế 2: cung(a1..a4), pair(a5,a6), phe(a4,a5,a6) != none."""
    a1, a2, a3, a4, a5, a6 = a
    return (
        cung(a1, a2, a3, a4) is not None
        and pair(a5, a6) is not None
        and phe(a4, a5, a6) is not None
    )


def cung_phien_doi(a: Arrangement, t: Table) -> bool:
    """Thế 2: cung(a1..a4), phien(a1,a2,a3), pair(a5,a6)."""
    a1, a2, a3, a4, a5, a6 = a
    return (
        cung(a1, a2, a3, a4) is not None
        and phien(a1, a2, a3) is not None
        and pair(a5, a6) is not None
    )


def ngu_luan_doi(a: Arrangement, t: Table) -> bool:
    """Thế 2: ngu(a1..a5), a6 a regular card, pair(a5,a6), not luc."""
    a1, a2, a3, a4, a5, a6 = a
    return (
        ngu(a1, a2, a3, a4, a5) is not None
        and not is_honor(a6)
        and pair(a5, a6) is not None
        and luc(*a) is None
    )


def phu_co_do_giang_ho(a: Arrangement, t: Table) -> bool:
    """Thế 2: kyoto3 + edo3, either order."""
    return _either_order(a, kyoto3, edo3)


# ---- Thế 3


def _cung_phien_phu_honor(a: Arrangement, honor_suit: int) -> bool:
    a1, a2, a3, a4, a5, a6 = a
    return (
        cung(a1, a2, a3, a4) is not None
        and phien(a1, a2, a3) is not None
        and SUIT[a4] == SUIT[a5] == SUIT[a6] == honor_suit
    )


def cung_phien_phu_giang_ho(a: Arrangement, t: Table) -> bool:
    """Thế 3: cung(a1..a4), phien(a1,a2,a3), suit(a4)=suit(a5)=suit(a6)=EDO."""
    return _cung_phien_phu_honor(a, EDO)


def cung_phien_phu_co_do(a: Arrangement, t: Table) -> bool:
    """Thế 3: same with KYOTO."""
    return _cung_phien_phu_honor(a, KYOTO)


def cung_doi_hai_doi(a: Arrangement, t: Table) -> bool:
    """Thế 3: Củng of kind K, pair(a5,a6) of kind K, not luc, and a5, a6 each pair,
    by the other kind, with two *different* cards among a1..a4.

    Reading: "two different cards" = there are i != j in 1..4 with
    pair(a5, a_i) and pair(a6, a_j) both of the other kind.
    """
    a1, a2, a3, a4, a5, a6 = a
    k = cung(a1, a2, a3, a4)
    if k is None or pair(a5, a6) != k or luc(*a) is not None:
        return False
    other = _other(k)
    first_four = (a1, a2, a3, a4)
    return any(
        pair(a5, x) == other and pair(a6, y) == other
        for x in first_four
        for y in first_four
        if x != y
    )


def cung_doi_phien(a: Arrangement, t: Table) -> bool:
    """Thế 3: cung(a1..a4), pair(a5,a6), phien(a4,a5,a6)."""
    a1, a2, a3, a4, a5, a6 = a
    return (
        cung(a1, a2, a3, a4) is not None
        and pair(a5, a6) is not None
        and phien(a4, a5, a6) is not None
    )


def cung_phien_doi_phe(a: Arrangement, t: Table) -> bool:
    """Thế 3: cung(a1..a4), phien(a1,a2,a3), pair(a5,a6), phe(a4,a5,a6) != none."""
    a1, a2, a3, a4, a5, a6 = a
    return (
        cung(a1, a2, a3, a4) is not None
        and phien(a1, a2, a3) is not None
        and pair(a5, a6) is not None
        and phe(a4, a5, a6) is not None
    )


def _ngu_luan_facing(a: Arrangement, figures: frozenset[int]) -> bool:
    """a1..a5 share one suit and their figures are exactly ``figures``; pair(a5,a6)."""
    a1, a2, a3, a4, a5, a6 = a
    five = (a1, a2, a3, a4, a5)
    return (
        len({SUIT[c] for c in five}) == 1
        and {FIG[c] for c in five} == figures
        and pair(a5, a6) is not None
    )


def ngu_luan_trai(a: Arrangement, t: Table) -> bool:
    """Thế 3: a1..a5 one suit, figures exactly the left-facing five; pair(a5,a6), a6 any card."""
    return _ngu_luan_facing(a, t.left_figures)


def ngu_luan_phai(a: Arrangement, t: Table) -> bool:
    """Thế 3: same with the right-facing figures."""
    return _ngu_luan_facing(a, t.right_figures)


def ngu_luan_danh_du(a: Arrangement, t: Table) -> bool:
    """Thế 3: ngu(a1..a5) of five honor cards; a6 an honor card, fig(a6)=fig(a5),
    suit(a6) != suit(a5); not luc.

    Reading: "a6 an honor card" is taken literally — any honor card, so after
    five KYOTO cards ending in CRE/KY the sixth may be the CREST of a regular
    suit (e.g. CRE/FR) as well as CRE/ED.
    """
    a1, a2, a3, a4, a5, a6 = a
    five = (a1, a2, a3, a4, a5)
    return (
        ngu(*five) is not None
        and all(is_honor(c) for c in five)
        and is_honor(a6)
        and FIG[a6] == FIG[a5]
        and SUIT[a6] != SUIT[a5]
        and luc(*a) is None
    )


# ---- Thế 4


def cung_phien_doi_hai_doi(a: Arrangement, t: Table) -> bool:
    """Thế 4: ``cung_doi_hai_doi`` and phien(a1,a2,a3)."""
    a1, a2, a3, _, _, _ = a
    return cung_doi_hai_doi(a, t) and phien(a1, a2, a3) is not None


def _cung_phien_doi_phe_typed(a: Arrangement, kind: PheType) -> bool:
    a1, a2, a3, a4, a5, a6 = a
    return (
        cung(a1, a2, a3, a4) is not None
        and phien(a1, a2, a3) == kind
        and pair(a5, a6) is not None
        and phe(a4, a5, a6) == kind
    )


def cung_phien_doi_phe_lien_minh(a: Arrangement, t: Table) -> bool:
    """Thế 4: cung(a1..a4), phien(a1,a2,a3)=LM, pair(a5,a6), phe(a4,a5,a6)=LM."""
    return _cung_phien_doi_phe_typed(a, "LM")


def cung_phien_doi_phe_dong_sac(a: Arrangement, t: Table) -> bool:
    """Thế 4: same with DS."""
    return _cung_phien_doi_phe_typed(a, "DS")


def cung_phien_doi_phe_phan_tranh(a: Arrangement, t: Table) -> bool:
    """Thế 4: same with PT."""
    return _cung_phien_doi_phe_typed(a, "PT")


def quoc_si_trai(a: Arrangement, t: Table) -> bool:
    """Thế 4: ``quoc_si`` whose six figures include all five left-facing figures.

    Reading: needs no Chỉ Điểm (only Thất Sĩ and above do), and as it is not the plain
    ``quoc_si`` its indicators count (§6).
    """
    return quoc_si(a, t) and t.left_figures <= {FIG[c] for c in a}


def quoc_si_phai(a: Arrangement, t: Table) -> bool:
    """Thế 4: same, right-facing."""
    return quoc_si(a, t) and t.right_figures <= {FIG[c] for c in a}


@lru_cache(maxsize=65536)
def _clean_an_si_count(hand: frozenset[int], chi_diem: int, an_si: tuple[int, ...]) -> int:
    """[R-5] Size of the largest subset of the revealed Ẩn Sĩ that keeps the six cards, the
    Chỉ Điểm and the subset all pairwise unrelated; -1 when the six and the Chỉ Điểm clash.

    Reading: "all eight/nine/... pairwise unrelated" includes the Ẩn Sĩ among themselves and
    the Chỉ Điểm, so a clashing Chỉ Điểm stops the whole family at plain Quốc Sĩ.

    (Order-independent, hence cached on the card *set*; the cache changes no result.)
    """
    if not pairwise_unrelated(*hand, chi_diem):
        return -1
    for size in range(len(an_si), -1, -1):
        for subset in combinations(an_si, size):
            if pairwise_unrelated(*hand, chi_diem, *subset):
                return size
    return 0  # not reached: the empty subset is clean


def _quoc_si_with_indicators(a: Arrangement, t: Table, n_an_si: int) -> bool:
    """``quoc_si``, the Chỉ Điểm and ``n_an_si`` revealed Ẩn Sĩ all pairwise unrelated ([R-5])."""
    if t.chi_diem is None or not quoc_si(a, t):
        return False
    return _clean_an_si_count(frozenset(a), t.chi_diem, t.an_si) >= n_an_si


def that_si(a: Arrangement, t: Table) -> bool:
    """Thế 4: ``quoc_si`` and the Chỉ Điểm card is unrelated to all six."""
    return _quoc_si_with_indicators(a, t, 0)


# ---- Thế 5


def _perfect_matchings(cards: Sequence[int]) -> Iterable[list[tuple[int, int]]]:
    """Every way to split the cards (an even number) into unordered pairs."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    for i, partner in enumerate(rest):
        remaining = [*rest[:i], *rest[i + 1 :]]
        for matching in _perfect_matchings(remaining):
            yield [(first, partner), *matching]


def ba_doi_ba_doi(a: Arrangement, t: Table) -> bool:
    """Thế 5: pair(a1,a2), pair(a3,a4), pair(a5,a6) all of one kind K (either kind), and the six
    cards can also be split, in any way, into three pairs of the other kind."""
    a1, a2, a3, a4, a5, a6 = a
    k = pair(a1, a2)
    if k is None or pair(a3, a4) != k or pair(a5, a6) != k:
        return False
    return _splits_into_pairs_of(_other(k), *sorted(a))


@lru_cache(maxsize=_MEMO_SIZE)
def _splits_into_pairs_of(kind: Kind, *cards: int) -> bool:
    """The cards can be split, in any way, into pairs all of the given kind (memoized on the
    sorted cards; the split does not depend on their order)."""
    return any(
        all(pair(x, y) == kind for x, y in matching) for matching in _perfect_matchings(cards)
    )


def phu_phu_ba_doi(a: Arrangement, t: Table) -> bool:
    """Thế 5: phu(a1,a2,a3), phu(a4,a5,a6) of one kind, and pair(a_i,a_{i+3}) of the other kind
    for i = 1, 2, 3."""
    a1, a2, a3, a4, a5, a6 = a
    k = phu(a1, a2, a3)
    if k is None or phu(a4, a5, a6) != k:
        return False
    other = _other(k)
    return all(pair(a[i], a[i + 3]) == other for i in range(3))


def luc_bo(a: Arrangement, t: Table) -> bool:
    """Thế 5: luc(a1..a6)."""
    return luc(*a) is not None


def _sieu_ngu_luan(a: Arrangement, figures: frozenset[int]) -> bool:
    a1, a6 = a[0], a[5]
    return _ngu_luan_facing(a, figures) and FIG[a6] == CREST and SUIT[a6] == SUIT[a1]


def sieu_ngu_luan_trai(a: Arrangement, t: Table) -> bool:
    """Thế 5: a1..a5 as in ``ngu_luan_trai`` and a6 is the CREST of that suit."""
    return _sieu_ngu_luan(a, t.left_figures)


def sieu_ngu_luan_phai(a: Arrangement, t: Table) -> bool:
    """Thế 5: same, right-facing."""
    return _sieu_ngu_luan(a, t.right_figures)


def bat_si(a: Arrangement, t: Table) -> bool:
    """Thế 5: ``quoc_si``, Chỉ Điểm and one revealed Ẩn Sĩ: all eight pairwise unrelated."""
    return _quoc_si_with_indicators(a, t, 1)


# ---- Thế 6


def phien_phien_ba_doi(a: Arrangement, t: Table) -> bool:
    """Thế 6: phien(a1,a2,a3), phien(a4,a5,a6), fig(a1) != fig(a4), suit(a_i)=suit(a_{i+3})."""
    a1, a2, a3, a4, a5, a6 = a
    return (
        phien(a1, a2, a3) is not None
        and phien(a4, a5, a6) is not None
        and FIG[a1] != FIG[a4]
        and _same_suits_across(a)
    )


def phien_phien_luc_bo(a: Arrangement, t: Table) -> bool:
    """Thế 6: phien(a1,a2,a3), phien(a4,a5,a6), fig(a1) = fig(a4)."""
    a1, a2, a3, a4, a5, a6 = a
    return phien(a1, a2, a3) is not None and phien(a4, a5, a6) is not None and FIG[a1] == FIG[a4]


def phe_co_do_ba_doi(a: Arrangement, t: Table) -> bool:
    """Thế 6: ``phe_co_do`` (either order) and fig(a_i)=fig(a_{i+3}) for i = 1, 2, 3."""
    return phe_co_do(a, t) and _same_figures_across(a)


def phe_giang_ho_ba_doi(a: Arrangement, t: Table) -> bool:
    """Thế 6: same with Edo."""
    return phe_giang_ho(a, t) and _same_figures_across(a)


def cuu_si(a: Arrangement, t: Table) -> bool:
    """Thế 6: ``quoc_si``, Chỉ Điểm and two revealed Ẩn Sĩ: all nine pairwise unrelated."""
    return _quoc_si_with_indicators(a, t, 2)


# ---- Thế 7


def phu_co_do_giang_ho_ba_doi(a: Arrangement, t: Table) -> bool:
    """Thế 7: kyoto3 + edo3 (either order) and fig(a_i)=fig(a_{i+3}) for i = 1, 2, 3."""
    return phu_co_do_giang_ho(a, t) and _same_figures_across(a)


def ba_doi_phu_co_do_giang_ho(a: Arrangement, t: Table) -> bool:
    """Thế 7: three figure pairs (a1,a2), (a3,a4), (a5,a6), each one KYOTO and one EDO card,
    the KYOTO cards all first or all second in their pairs."""
    pairs = [(a[0], a[1]), (a[2], a[3]), (a[4], a[5])]
    if not all(pair(x, y) == "figure" for x, y in pairs):
        return False
    if not all({SUIT[x], SUIT[y]} == {KYOTO, EDO} for x, y in pairs):
        return False
    kyoto_first = all(SUIT[x] == KYOTO for x, _ in pairs)
    kyoto_second = all(SUIT[y] == KYOTO for _, y in pairs)
    return kyoto_first or kyoto_second


def luc_bo_danh_du(a: Arrangement, t: Table) -> bool:
    """Thế 7: luc(a1..a6) and all six are honor cards."""
    return luc(*a) is not None and all(is_honor(c) for c in a)


def thap_si(a: Arrangement, t: Table) -> bool:
    """Thế 7: ``quoc_si``, Chỉ Điểm and three revealed Ẩn Sĩ: all ten pairwise unrelated."""
    return _quoc_si_with_indicators(a, t, 3)


# ---- Thế 0 (match win)


def quoc_si_vo_song(a: Arrangement, t: Table) -> bool:
    """Thế 0: ``quoc_si``, Chỉ Điểm and all four Ẩn Sĩ revealed: all eleven unrelated.

    Counts as tier 10 [R-13].
    """
    return _quoc_si_with_indicators(a, t, 4)


# ------------------------------------------------------------- the registry


@dataclass(frozen=True)
class RefThe:
    """One Thế of §4: id, tier, its positional predicate, and the completed-hand shape of §3
    (1-6) that its definition implies (§3: "every Thế below implies one of them")."""

    id: str
    tier: int
    shape: int
    predicate: ThePredicate
    needs_chi_diem: bool = False


# In the order §4 lists them (Special first, then Thế 1..7, then Thế 0); that order breaks
# the last ties of §3.
THES: tuple[RefThe, ...] = (
    RefThe("quoc_si", 1, 6, quoc_si),
    # Thế 1
    RefThe("ba_doi", 1, 2, ba_doi),
    RefThe("phe_phe_lien_minh", 1, 1, phe_phe_lien_minh),
    RefThe("phe_phe_dong_sac", 1, 1, phe_phe_dong_sac),
    RefThe("phe_phe_phan_tranh", 1, 1, phe_phe_phan_tranh),
    RefThe("phe_phe_ba_doi", 1, 1, phe_phe_ba_doi),
    RefThe("phe_co_do", 1, 1, phe_co_do),
    RefThe("phe_giang_ho", 1, 1, phe_giang_ho),
    RefThe("phu_phu", 1, 1, phu_phu),
    RefThe("cung_doi", 1, 3, cung_doi),
    RefThe("cung_phu", 1, 4, cung_phu),
    # Thế 2
    RefThe("phien_phien", 2, 1, phien_phien),
    RefThe("phien_co_do", 2, 1, phien_co_do),
    RefThe("phien_giang_ho", 2, 1, phien_giang_ho),
    RefThe("cung_phien", 2, 4, cung_phien),
    RefThe("cung_phien_doi_phu", 2, 4, cung_phien_doi_phu),
    RefThe("cung_doi_phe", 2, 3, cung_doi_phe),
    RefThe("cung_phien_doi", 2, 3, cung_phien_doi),
    RefThe("ngu_luan_doi", 2, 5, ngu_luan_doi),
    RefThe("phu_co_do_giang_ho", 2, 1, phu_co_do_giang_ho),
    # Thế 3
    RefThe("cung_phien_phu_giang_ho", 3, 4, cung_phien_phu_giang_ho),
    RefThe("cung_phien_phu_co_do", 3, 4, cung_phien_phu_co_do),
    RefThe("cung_doi_hai_doi", 3, 3, cung_doi_hai_doi),
    RefThe("cung_doi_phien", 3, 3, cung_doi_phien),
    RefThe("cung_phien_doi_phe", 3, 3, cung_phien_doi_phe),
    RefThe("ngu_luan_trai", 3, 5, ngu_luan_trai),
    RefThe("ngu_luan_phai", 3, 5, ngu_luan_phai),
    RefThe("ngu_luan_danh_du", 3, 5, ngu_luan_danh_du),
    # Thế 4
    RefThe("cung_phien_doi_hai_doi", 4, 3, cung_phien_doi_hai_doi),
    RefThe("cung_phien_doi_phe_lien_minh", 4, 3, cung_phien_doi_phe_lien_minh),
    RefThe("cung_phien_doi_phe_dong_sac", 4, 3, cung_phien_doi_phe_dong_sac),
    RefThe("cung_phien_doi_phe_phan_tranh", 4, 3, cung_phien_doi_phe_phan_tranh),
    RefThe("quoc_si_trai", 4, 6, quoc_si_trai),
    RefThe("quoc_si_phai", 4, 6, quoc_si_phai),
    RefThe("that_si", 4, 6, that_si, needs_chi_diem=True),
    # Thế 5
    RefThe("ba_doi_ba_doi", 5, 2, ba_doi_ba_doi),
    RefThe("phu_phu_ba_doi", 5, 1, phu_phu_ba_doi),
    RefThe("luc_bo", 5, 6, luc_bo),
    RefThe("sieu_ngu_luan_trai", 5, 5, sieu_ngu_luan_trai),
    RefThe("sieu_ngu_luan_phai", 5, 5, sieu_ngu_luan_phai),
    RefThe("bat_si", 5, 6, bat_si, needs_chi_diem=True),
    # Thế 6
    RefThe("phien_phien_ba_doi", 6, 1, phien_phien_ba_doi),
    RefThe("phien_phien_luc_bo", 6, 1, phien_phien_luc_bo),
    RefThe("phe_co_do_ba_doi", 6, 1, phe_co_do_ba_doi),
    RefThe("phe_giang_ho_ba_doi", 6, 1, phe_giang_ho_ba_doi),
    RefThe("cuu_si", 6, 6, cuu_si, needs_chi_diem=True),
    # Thế 7
    RefThe("phu_co_do_giang_ho_ba_doi", 7, 1, phu_co_do_giang_ho_ba_doi),
    RefThe("ba_doi_phu_co_do_giang_ho", 7, 2, ba_doi_phu_co_do_giang_ho),
    RefThe("luc_bo_danh_du", 7, 6, luc_bo_danh_du),
    RefThe("thap_si", 7, 6, thap_si, needs_chi_diem=True),
    # Thế 0: the match win, tier 10
    RefThe("quoc_si_vo_song", 10, 6, quoc_si_vo_song, needs_chi_diem=True),
)

THE_IDS: tuple[str, ...] = tuple(the.id for the in THES)
TIER: dict[str, int] = {the.id: the.tier for the in THES}
LISTING_ORDER: dict[str, int] = {the_id: i for i, the_id in enumerate(THE_IDS)}

QUOC_SI_FAMILY: frozenset[str] = frozenset(
    {
        "quoc_si",
        "quoc_si_trai",
        "quoc_si_phai",
        "that_si",
        "bat_si",
        "cuu_si",
        "thap_si",
        "quoc_si_vo_song",
    }
)
"""§4 Special / §5.5: the whole family is forbidden in Bội ước (locked)."""

SUPERSEDES: dict[str, frozenset[str]] = {
    "cung_doi": frozenset({"ba_doi"}),
    "phe_phe_ba_doi": frozenset({"ba_doi"}),
    "sieu_ngu_luan_trai": frozenset({"luc_bo"}),
    "sieu_ngu_luan_phai": frozenset({"luc_bo"}),
}
"""§4 ``supersedes``: the more specific Thế, used only among Thế of equal points and tier."""


def _thes_of(
    arrangement: Arrangement, table: Table, shapes: tuple[int, ...] | None = None
) -> frozenset[str]:
    """The Thế ids of one order. With ``shapes`` (the order's completed shapes), only the Thế
    whose definition implies one of those shapes are tried: a speed measure, checked by
    ``test_reference_agreement.py`` to change nothing."""
    return frozenset(
        the.id
        for the in THES
        if (shapes is None or the.shape in shapes)
        and (table.chi_diem is not None or not the.needs_chi_diem)
        and the.predicate(arrangement, table)
    )


def reference_thes(
    arrangement: Arrangement,
    *,
    chi_diem: int | None = None,
    an_si: Sequence[int] = (),
    left_figures: Iterable[int] = DEFAULT_LEFT_FIGURES,
    phe_phe_same_suits: bool = False,
) -> frozenset[str]:
    """Every Thế id (§4) this exact order a1..a6 matches.

    The Quốc Sĩ members that need the Chỉ Điểm (Thất Sĩ and above) are included
    only when ``chi_diem`` is given; the family is cumulative (§4 notes).
    Bội ước is not considered here (that is a scoring matter).
    """
    arrangement = tuple(arrangement)
    if len(arrangement) != 6:
        raise ValueError(f"an arrangement has 6 cards, got {len(arrangement)}: {arrangement!r}")
    table = Table(
        left_figures=frozenset(left_figures),
        phe_phe_same_suits=phe_phe_same_suits,
        chi_diem=chi_diem,
        an_si=tuple(an_si),
    )
    return _thes_of(arrangement, table)


# ------------------------------------------------------------- §6 the points

THUONG_IDS: tuple[str, ...] = (
    "toan_quan_thuong",
    "toan_quan_danh_du",
    "cung_mot_mau",
    "cung_gia_huy",
    "cung_nhin_phai",
    "cung_nhin_trai",
    "thang_cai",
    "tu_than",
    "ket_chung",
)


def reference_thuong(
    cards: Sequence[int],
    *,
    left_figures: frozenset[int],
    dealer: bool,
    self_drawn: bool,
    last_card: bool,
) -> frozenset[str]:
    """The Thưởng (§6) of a win on these six cards, each worth +1.

    [R-10] ``cung_mot_mau`` / ``cung_gia_huy`` look at suits only and need all
    six suits regular.
    """
    right_figures = REGULAR_FIGURES - left_figures
    bonuses: set[str] = set()
    if all(not is_honor(c) for c in cards):
        bonuses.add("toan_quan_thuong")
    if all(is_honor(c) for c in cards):
        bonuses.add("toan_quan_danh_du")
    colors = [color_of(c) for c in cards]
    if None not in colors and len(set(colors)) == 1:
        bonuses.add("cung_mot_mau")
    clans = [clan_of(c) for c in cards]
    if None not in clans and len(set(clans)) == 1:
        bonuses.add("cung_gia_huy")
    if all(FIG[c] in right_figures for c in cards):
        bonuses.add("cung_nhin_phai")
    if all(FIG[c] in left_figures for c in cards):
        bonuses.add("cung_nhin_trai")
    if dealer:
        bonuses.add("thang_cai")
    if self_drawn:
        bonuses.add("tu_than")
    if last_card:
        bonuses.add("ket_chung")
    return frozenset(bonuses)


def reference_indicator_points(
    cards: Sequence[int], chi_diem: int | None, an_si: Sequence[int]
) -> int:
    """§6 indicators: the Chỉ Điểm and each revealed Ẩn Sĩ [R-11] give +1 if any of the six has
    its figure and +1 if any has its suit (at most +2 each)."""
    points = 0
    indicators = ([] if chi_diem is None else [chi_diem]) + list(an_si)
    for ind in indicators:
        if any(FIG[c] == FIG[ind] for c in cards):
            points += 1
        if any(SUIT[c] == SUIT[ind] for c in cards):
            points += 1
    return points


@dataclass(frozen=True)
class RefScore:
    """The reference's result for a valid win (§3, §6)."""

    the: str | None
    tier: int
    points: int
    bonuses: frozenset[str]
    indicator_points: int


def reference_score(
    cards: Sequence[int],
    *,
    chi_diem: int | None,
    an_si: Sequence[int] = (),
    locked: bool = False,
    nhat_ban: bool = False,
    dealer: bool = False,
    self_drawn: bool = False,
    last_card: bool = False,
    left_figures: Iterable[int] = DEFAULT_LEFT_FIGURES,
    phe_phe_same_suits: bool = False,
) -> RefScore | None:
    """Score six cards as a win, or ``None`` when they are not a valid win (§3, §4, §6).

    Normal win ([R-14]): every order of the six cards, every (order, Thế) pair;
    keep the highest points (tier + Thưởng + indicators), then the highest tier;
    drop Thế superseded by another kept Thế; report the one listed first in §4.

    ``locked`` (Bội ước, §5.5): no Quốc Sĩ-family Thế, no indicators.
    ``nhat_ban`` (§5.6): ``cards`` is the fixed order; it wins with an allowed Thế
    or as a completed hand (then ``the`` is None, tier 0); indicators dropped;
    +1 recorded as the bonus ``"nhat_ban"``. Both flags at once raise ValueError.
    Indicators are also not counted for plain ``quoc_si`` (§6).

    ``chi_diem=None`` means no Chỉ Điểm: no Thất Sĩ and above, no indicator from it.
    """
    if locked and nhat_ban:
        raise ValueError(
            "locked=True and nhat_ban=True together: Nhất Bản cannot be declared in Bội ước (§6)"
        )
    hand = tuple(cards)
    if len(hand) != 6 or len(set(hand)) != 6 or not all(0 <= c < 121 for c in hand):
        raise ValueError(f"a win needs 6 distinct card ids in 0..120, got {hand!r}")
    table = Table(
        left_figures=frozenset(left_figures),
        phe_phe_same_suits=phe_phe_same_suits,
        chi_diem=chi_diem,
        an_si=tuple(an_si),
    )

    bonuses = reference_thuong(
        hand,
        left_figures=table.left_figures,
        dealer=dealer,
        self_drawn=self_drawn,
        last_card=last_card,
    )
    if nhat_ban:
        bonuses = bonuses | {"nhat_ban"}
    indicators = reference_indicator_points(hand, chi_diem, table.an_si)

    def indicators_count(the_id: str) -> bool:
        return not locked and not nhat_ban and the_id != "quoc_si"

    # Every (order, Thế) pair the six cards allow. The Thế of shape 6 (Lục bộ, Quốc Sĩ
    # families) are defined on the six cards, not on positions: they are the same in every
    # order, so they are tried once. The others are tried on every order whose positional
    # shapes (§3) include the shape their definition implies.
    candidates: list[tuple[int, int, str]] = []  # (points, tier, the)

    def add(the_ids: Iterable[str]) -> None:
        for the_id in the_ids:
            if locked and the_id in QUOC_SI_FAMILY:
                continue
            ind = indicators if indicators_count(the_id) else 0
            candidates.append((TIER[the_id] + len(bonuses) + ind, TIER[the_id], the_id))

    if six_card_shape(hand):
        add(_thes_of(hand, table, (6,)))
    for order in [hand] if nhat_ban else permutations(hand):
        shapes = positional_shapes(order)
        if shapes:
            add(_thes_of(order, table, shapes))

    if not candidates:
        if nhat_ban and reference_is_completed(hand):
            return RefScore(
                the=None, tier=0, points=len(bonuses), bonuses=bonuses, indicator_points=0
            )
        return None  # Thưởng and indicators alone never make a win

    best_points = max(points for points, _, _ in candidates)
    best_tier = max(tier for points, tier, _ in candidates if points == best_points)
    kept = {the for points, tier, the in candidates if (points, tier) == (best_points, best_tier)}
    not_superseded = [
        the for the in kept if not any(the in SUPERSEDES.get(other, frozenset()) for other in kept)
    ]
    the_id = min(not_superseded, key=LISTING_ORDER.__getitem__)
    ind = indicators if indicators_count(the_id) else 0
    return RefScore(
        the=the_id,
        tier=TIER[the_id],
        points=TIER[the_id] + len(bonuses) + ind,
        bonuses=bonuses,
        indicator_points=ind,
    )
