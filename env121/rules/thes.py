"""The Thế (winning patterns) of spec §4: **the rule for one Thế is here**.

Every Thế is one :class:`The` record in :data:`THES`, listed in the spec's
order (the Special table first, then Thế 1 … Thế 7, then Thế 0). The record
is all the code knows about that Thế:

* ``shape`` — the cut of the six cards it lives on (:class:`Shape`: six
  unrelated cards, two triples, three pairs, a Củng and its tail, a Ngũ and
  one card, a Lục bộ);
* ``predicate`` — the spec's *positional* definition on an arrangement
  a1…a6 (a :class:`Layout`, ``a[0]…a[5]``, whose groups such as
  ``a.phien123`` read like the spec's ``phien(a1,a2,a3)``) under a
  :class:`Table` (the rule config and the indicator cards). For a two-triple
  Thế it is a :class:`Halves`: the groups of a1a2a3 and a4a5a6 (:class:`Triple`)
  and how they line up, written as data;
* ``tier``, ``supersedes`` (what it is preferred over at equal points and
  tier), its Quốc Sĩ family membership, its names.

Nothing else in the code names a Thế. The compiled scorer
(:mod:`env121.rules.compiled`) reads this registry: its search walks the cuts
of each shape and asks the Thế of that shape (:attr:`The.shape`), a
two-triple Thế through its halves, the others through their predicates ported
one by one (importing the port fails on a Thế without one); the win table's
sixth-card filter reasons per shape and reads the halves. So adding a Thế of
an existing shape is one record here, its port, and its cases in
``tests/rules/test_patterns.py`` (and its row in RULES.md); the brute force
over all 720 orders in ``tests/rules/test_search.py`` checks the search finds
it exactly, and ``tests/support/scorer.py`` asks these predicates as written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations, product
from typing import Generic, TypeVar, overload

from env121.rules.cards import (
    FIG,
    IS_HONOR,
    NUM_SUITS,
    SUIT,
    Figure,
    Suit,
    card,
    pairwise_unrelated,
    related,
)
from env121.rules.config import DEFAULT_CONFIG, RuleConfig
from env121.rules.groups import (
    Kind,
    PheType,
    all_honor,
    cung,
    edo3,
    kyoto3,
    ngu,
    pair,
    phe,
    phien,
    phu,
)

Arrangement = Sequence[int]


@dataclass(frozen=True)
class Table:
    """What a pattern may look at besides the six cards: the rule config and
    the indicators (Chỉ Điểm, revealed Ẩn Sĩ). ``chi_diem=None`` means unknown:
    the Quốc Sĩ members that need it (Thất Sĩ and above) then never match."""

    config: RuleConfig = DEFAULT_CONFIG
    chi_diem: int | None = None
    an_si: tuple[int, ...] = ()

    @property
    def indicators(self) -> tuple[int, ...]:
        """The Chỉ Điểm (when known) and the revealed Ẩn Sĩ."""
        return self.an_si if self.chi_diem is None else (self.chi_diem, *self.an_si)


_G = TypeVar("_G")


class _group(Generic[_G]):
    """A group of a :class:`Layout`, worked out on first use and then kept in
    the layout (like ``functools.cached_property``, without its lock)."""

    def __init__(self, compute: Callable[[Layout], _G]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, layout: None, owner: type) -> _group[_G]: ...
    @overload
    def __get__(self, layout: Layout, owner: type | None = None) -> _G: ...
    def __get__(self, layout: Layout | None, owner: type | None = None) -> _G | _group[_G]:
        if layout is None:
            return self  # looked up on the class (help, docs)
        value = self.compute(layout)
        layout.__dict__[self.name] = value
        return value


class Layout(tuple[int, ...]):
    """Six cards in one order a1…a6 (``a[0]…a[5]``), with the groups the
    spec's definitions name on fixed positions, each worked out once, on
    first use: the search asks every Thế of a shape on the same layout."""

    @_group
    def cung1234(self) -> Kind:
        """cung(a1..a4)."""
        return cung(self[0:4])

    @_group
    def ngu12345(self) -> Kind:
        """ngu(a1..a5)."""
        return ngu(self[0:5])

    @_group
    def luc(self) -> Kind:
        """luc(a1..a6)."""
        if len(self.figures) == 1:
            return Kind.FIGURE
        return Kind.SUIT if len(self.suits) == 1 else Kind.NONE

    @_group
    def phien123(self) -> PheType:
        """phien(a1,a2,a3)."""
        return phien(self[0], self[1], self[2])

    @_group
    def pair56(self) -> Kind:
        """pair(a5,a6)."""
        return pair(self[4], self[5])

    @_group
    def phu456(self) -> Kind:
        """phu(a4,a5,a6)."""
        return phu(self[3], self[4], self[5])

    @_group
    def phe456(self) -> PheType:
        """phe(a4,a5,a6)."""
        return phe(self[3], self[4], self[5])

    @_group
    def phien456(self) -> PheType:
        """phien(a4,a5,a6)."""
        return phien(self[3], self[4], self[5])

    @_group
    def pairs_kind(self) -> Kind:
        """The kind of pair(a1,a2), pair(a3,a4), pair(a5,a6) when all three share one."""
        k = pair(self[0], self[1])
        return k if k and pair(self[2], self[3]) == k and self.pair56 == k else Kind.NONE

    @_group
    def figures(self) -> frozenset[int]:
        """The figures of the six cards."""
        return frozenset(FIG[c] for c in self)

    @_group
    def suits(self) -> frozenset[int]:
        """The suits of the six cards."""
        return frozenset(SUIT[c] for c in self)

    @_group
    def unrelated(self) -> bool:
        """The six cards are pairwise unrelated."""
        return len(self.figures) == 6 and len(self.suits) == 6


Predicate = Callable[[Layout, Table], bool]


class Shape(Enum):
    """The cut of the six cards a Thế lives on: which positions form its groups.

    Every Thế implies a completed hand (spec §3), so it lives on one of these
    cuts; the search lays the six cards out only in the orders of each cut
    (:mod:`env121.rules.compiled.search` says which) and asks the Thế of that shape.
    """

    QUOC_SI = "six pairwise-unrelated cards, in any order (§3 shape 6)"
    TWO_TRIPLES = "a1a2a3 | a4a5a6, each a Phu or a Phe (§3 shape 1)"
    THREE_PAIRS = "a1a2 | a3a4 | a5a6, three pairs of one kind (§3 shape 2)"
    CUNG_TAIL = "a Củng a1…a4, its tail a4a5a6 sharing a4 (§3 shapes 3 and 4)"
    NGU_TAIL = "a Ngũ a1…a5 and a6 (§3 shape 5)"
    LUC_BO = "a Lục bộ a1…a6, in any order (§3 shape 6)"


class Triple(Enum):
    """The group (spec §2) a half a1a2a3 or a4a5a6 of a two-triple Thế must be.

    Like every group of §2, each is decided by the three suits and whether
    the three figures are one (:func:`triple_key`): the search, the filters
    and :data:`TRIPLE_GROUPS` rely on it."""

    PHU = ("Phu", lambda x, y, z: bool(phu(x, y, z)))
    PHE = ("Phe of any type", lambda x, y, z: bool(phe(x, y, z)))
    PHE_LM = ("Phe Liên minh", lambda x, y, z: phe(x, y, z) == PheType.LM)
    PHE_DS = ("Phe Đồng sắc", lambda x, y, z: phe(x, y, z) == PheType.DS)
    PHE_PT = ("Phe Phân tranh", lambda x, y, z: phe(x, y, z) == PheType.PT)
    PHIEN = ("Phiên", lambda x, y, z: bool(phien(x, y, z)))
    KYOTO3 = ("Phu Cố Đô", kyoto3)
    EDO3 = ("Phu Giang Hộ", edo3)

    def __init__(self, label: str, holds: Callable[[int, int, int], bool]) -> None:
        self.label = label
        self.holds = holds
        """Whether three cards (x, y, z) are this group."""

    def __repr__(self) -> str:
        return f"Triple.{self.name}"


def triple_key(x: int, y: int, z: int) -> int:
    """What a :class:`Triple` sees of three cards: their suits, and whether
    they share one figure (an index of :data:`TRIPLE_GROUPS`)."""
    suits = (SUIT[x] * NUM_SUITS + SUIT[y]) * NUM_SUITS + SUIT[z]
    return suits * 2 + (FIG[x] == FIG[y] == FIG[z])


def _groups_by_triple_key() -> tuple[frozenset[Triple], ...]:
    """:data:`TRIPLE_GROUPS`, from one three-card example per key."""
    table: list[frozenset[Triple]] = [frozenset()] * (NUM_SUITS**3 * 2)
    for s1, s2, s3 in product(range(NUM_SUITS), repeat=3):
        examples = [(card(1, s1), card(2, s2), card(3, s3))]
        if len({s1, s2, s3}) == 3:  # one figure needs three suits
            examples.append((card(1, s1), card(1, s2), card(1, s3)))
        for cards in examples:
            table[triple_key(*cards)] = frozenset(g for g in Triple if g.holds(*cards))
    return tuple(table)


TRIPLE_GROUPS: tuple[frozenset[Triple], ...] = _groups_by_triple_key()
"""By :func:`triple_key`: every group (:class:`Triple`) three cards are."""


@dataclass(frozen=True)
class Halves:
    """The positional predicate of a two-triple Thế, as data: ``first`` on
    a1a2a3, ``second`` on a4a5a6, and what ties the halves together.

    The filters read the groups and the line-up (a necessary condition); the
    search asks :meth:`in_order` on both orders of every two-triple cut.
    """

    first: Triple
    second: Triple
    either_order: bool = False
    """The spec's "either order": it also holds with a1a2a3 and a4a5a6 swapped."""
    aligned: Kind = Kind.NONE
    """The halves line up position by position: fig(a_i) = fig(a_{i+3})
    (``Kind.FIGURE``) or suit(a_i) = suit(a_{i+3}) (``Kind.SUIT``), i = 1, 2, 3."""
    same_kind: bool = False
    """Both halves are Phu of one kind (both of one figure, or both of one suit)."""
    also: Predicate | None = None
    """Any further condition, on a1…a6 as laid."""

    def in_order(self, a: Layout, t: Table) -> bool:
        """The definition with the halves in the order named (no swap)."""
        if not (self.first.holds(a[0], a[1], a[2]) and self.second.holds(a[3], a[4], a[5])):
            return False
        if self.aligned and not _lined_up(a, FIG if self.aligned == Kind.FIGURE else SUIT):
            return False
        if self.same_kind and phu(a[0], a[1], a[2]) != phu(a[3], a[4], a[5]):
            return False
        return self.also is None or self.also(a, t)

    def __call__(self, a: Layout, t: Table) -> bool:
        """The spec's definition: :meth:`in_order`, or swapped when ``either_order``."""
        if self.in_order(a, t):
            return True
        return self.either_order and self.in_order(Layout((*a[3:], *a[:3])), t)


@dataclass(frozen=True)
class The:
    """One Thế: a named winning pattern worth ``tier`` Điểm."""

    id: str
    """Fixed id of spec §4, used by the engine, its records and tests."""
    tier: int
    """Điểm of the Thế; ``quoc_si_vo_song`` (the book's "Thế 0") counts 10 [R-13]."""
    heading: str
    """The book's table it is listed in: "Special", "Thế 1" … "Thế 7", "Thế 0"."""
    name_vi: str
    gloss: str
    """The definition in a few English words."""
    shape: Shape
    """The cut of the six cards it lives on; the search asks it only there."""
    predicate: Predicate
    """The spec's positional definition on a1…a6; a :class:`Halves` exactly
    when ``shape`` is ``Shape.TWO_TRIPLES``."""
    quoc_si_family: bool = False
    """Forbidden in Bội ước (§5.5)."""
    counts_indicators: bool = True
    """The Chỉ Điểm and revealed Ẩn Sĩ add their points to it (§6); not to a
    plain Quốc Sĩ (§4 Special: "indicators not counted")."""
    an_si_needed: int | None = None
    """For the Quốc Sĩ members the indicators decide (Thất Sĩ and above): how
    many revealed Ẩn Sĩ must join the six and the Chỉ Điểm, all pairwise
    unrelated; their predicate is ``clean_an_si_count >= an_si_needed``. The
    search leaves them out; the scorer adds them to a ``quoc_si``."""
    supersedes: frozenset[str] = frozenset()
    """Thế this one is preferred over at equal points and tier (spec §4)."""

    def __post_init__(self) -> None:
        if (self.shape is Shape.TWO_TRIPLES) != isinstance(self.predicate, Halves):
            raise ValueError(
                f"Thế {self.id!r} of shape {self.shape.name}: expected a Halves predicate "
                "exactly for Shape.TWO_TRIPLES (the filters read its groups)"
            )

    @property
    def needs_chi_diem(self) -> bool:
        """Decided by the indicators (Thất Sĩ and above)."""
        return self.an_si_needed is not None

    @property
    def halves(self) -> Halves | None:
        """The groups of a two-triple Thế; ``None`` for the other shapes."""
        return self.predicate if isinstance(self.predicate, Halves) else None

    def matches(self, arrangement: Arrangement, table: Table) -> bool:
        """Whether this exact order of six cards is this Thế."""
        layout = arrangement if isinstance(arrangement, Layout) else Layout(arrangement)
        return self.predicate(layout, table)


# ------------------------------------------------------------ shared pieces


def _lined_up(a: Arrangement, key: Sequence[int]) -> bool:
    """key(a_i) = key(a_{i+3}) for i = 1, 2, 3 (``key`` is FIG or SUIT)."""
    return key[a[0]] == key[a[3]] and key[a[1]] == key[a[4]] and key[a[2]] == key[a[5]]


def _splits_into_pairs_of(cards: Arrangement, kind: Kind) -> bool:
    """The six cards can be split, in any way, into three pairs of ``kind``."""
    first, rest = cards[0], cards[1:]
    for i, partner in enumerate(rest):
        if pair(first, partner) != kind:
            continue
        others = (*rest[:i], *rest[i + 1 :])
        if len(others) == 0 or _splits_into_pairs_of(others, kind):
            return True
    return False


def _facing_five(a: Arrangement, figures: frozenset[int]) -> bool:
    """a1..a5 share one suit and their figures are exactly ``figures``."""
    s = SUIT[a[0]]
    return all(SUIT[c] == s for c in a[0:5]) and {FIG[c] for c in a[0:5]} == figures


def clean_an_si_count(six: Arrangement, table: Table) -> int:
    """How many revealed Ẩn Sĩ can join the six and the Chỉ Điểm with all cards
    pairwise unrelated: the largest clean subset [R-5]. ``-1`` when the six
    are not a Quốc Sĩ or the Chỉ Điểm is unknown or related to one of them."""
    if table.chi_diem is None or not pairwise_unrelated(six):
        return -1
    base = [*six, table.chi_diem]
    if not pairwise_unrelated(base):
        return -1
    candidates = [c for c in table.an_si if not any(related(c, b) for b in base)]
    for size in range(len(candidates), 0, -1):
        if any(pairwise_unrelated(sub) for sub in combinations(candidates, size)):
            return size
    return 0


# ------------------------------------------------------------- predicates
# One function per Thế of the shapes other than two triples, named after its
# id, each a literal reading of the spec's table row; the conditions two-triple
# Thế add to their Halves.


def quoc_si(a: Layout, t: Table) -> bool:
    return a.unrelated


def ba_doi(a: Layout, t: Table) -> bool:
    return bool(a.pairs_kind)


def _same_suits_in_variant(a: Layout, t: Table) -> bool:
    """[R-2]: under ``phe_phe_same_suits`` the two Phe also line up by suit."""
    return not t.config.phe_phe_same_suits or _lined_up(a, SUIT)


def _different_figures(a: Layout, t: Table) -> bool:
    """fig(a1) ≠ fig(a4)."""
    return FIG[a[0]] != FIG[a[3]]


def _same_figure(a: Layout, t: Table) -> bool:
    """fig(a1) = fig(a4)."""
    return FIG[a[0]] == FIG[a[3]]


def _paired_by_the_other_kind(a: Layout, t: Table) -> bool:
    """pair(a_i, a_{i+3}) is of the other kind than the Phu, for i = 1, 2, 3."""
    other = phu(a[0], a[1], a[2]).other
    return all(pair(a[i], a[i + 3]) == other for i in range(3))


def cung_doi(a: Layout, t: Table) -> bool:
    k = a.cung1234
    return bool(k) and a.pair56 == k and not a.luc


def cung_phu(a: Layout, t: Table) -> bool:
    return bool(a.cung1234) and bool(a.phu456)


def cung_phien(a: Layout, t: Table) -> bool:
    return bool(a.cung1234) and bool(a.phien456)


def cung_phien_doi_phu(a: Layout, t: Table) -> bool:
    return bool(a.cung1234) and bool(a.phien123) and bool(a.phu456)


def cung_doi_phe(a: Layout, t: Table) -> bool:
    return bool(a.cung1234) and bool(a.pair56) and bool(a.phe456)


def cung_phien_doi(a: Layout, t: Table) -> bool:
    return bool(a.cung1234) and bool(a.phien123) and bool(a.pair56)


def ngu_luan_doi(a: Layout, t: Table) -> bool:
    return bool(a.ngu12345) and not IS_HONOR[a[5]] and bool(a.pair56) and not a.luc


def _cung_phien_phu_in(suit: Suit) -> Predicate:
    def test(a: Layout, t: Table) -> bool:
        tail_in_suit = SUIT[a[3]] == SUIT[a[4]] == SUIT[a[5]] == suit
        return bool(a.cung1234) and bool(a.phien123) and tail_in_suit

    return test


def cung_doi_hai_doi(a: Layout, t: Table) -> bool:
    k = a.cung1234
    if not k or a.pair56 != k or a.luc:
        return False
    other = k.other
    partners5 = {i for i in range(4) if pair(a[4], a[i]) == other}
    partners6 = {j for j in range(4) if pair(a[5], a[j]) == other}
    return any(i != j for i in partners5 for j in partners6)


def cung_doi_phien(a: Layout, t: Table) -> bool:
    return bool(a.cung1234) and bool(a.pair56) and bool(a.phien456)


def cung_phien_doi_phe(a: Layout, t: Table) -> bool:
    return cung_phien_doi(a, t) and bool(a.phe456)


def ngu_luan_trai(a: Layout, t: Table) -> bool:
    return _facing_five(a, t.config.left_figures) and bool(a.pair56)


def ngu_luan_phai(a: Layout, t: Table) -> bool:
    return _facing_five(a, t.config.right_figures) and bool(a.pair56)


def ngu_luan_danh_du(a: Layout, t: Table) -> bool:
    five, sixth, fifth = a[0:5], a[5], a[4]
    return (
        bool(a.ngu12345)
        and all_honor(five)
        and IS_HONOR[sixth]
        and FIG[sixth] == FIG[fifth]
        and SUIT[sixth] != SUIT[fifth]
        and not a.luc
    )


def cung_phien_doi_hai_doi(a: Layout, t: Table) -> bool:
    return cung_doi_hai_doi(a, t) and bool(a.phien123)


def _cung_phien_doi_phe_of(kind: PheType) -> Predicate:
    def test(a: Layout, t: Table) -> bool:
        return bool(a.cung1234) and a.phien123 == kind and bool(a.pair56) and a.phe456 == kind

    return test


def _quoc_si_facing(left: bool) -> Predicate:
    def test(a: Layout, t: Table) -> bool:
        figures = t.config.left_figures if left else t.config.right_figures
        return a.unrelated and figures <= a.figures

    return test


def _quoc_si_with(n_an_si: int) -> Predicate:
    """Quốc Sĩ + Chỉ Điểm + ``n_an_si`` revealed Ẩn Sĩ, all pairwise unrelated."""

    def test(a: Layout, t: Table) -> bool:
        return clean_an_si_count(a, t) >= n_an_si

    return test


def ba_doi_ba_doi(a: Layout, t: Table) -> bool:
    k = a.pairs_kind
    return bool(k) and _splits_into_pairs_of(a, k.other)


def luc_bo(a: Layout, t: Table) -> bool:
    return bool(a.luc)


def _sieu_ngu_luan(left: bool) -> Predicate:
    def test(a: Layout, t: Table) -> bool:
        figures = t.config.left_figures if left else t.config.right_figures
        sixth = a[5]
        return _facing_five(a, figures) and FIG[sixth] == Figure.CREST and SUIT[sixth] == SUIT[a[0]]

    return test


def ba_doi_phu_co_do_giang_ho(a: Layout, t: Table) -> bool:
    if a.pairs_kind != Kind.FIGURE:
        return False
    firsts = {SUIT[a[0]], SUIT[a[2]], SUIT[a[4]]}
    seconds = {SUIT[a[1]], SUIT[a[3]], SUIT[a[5]]}
    return {frozenset(firsts), frozenset(seconds)} == {
        frozenset({Suit.KYOTO}),
        frozenset({Suit.EDO}),
    }


def luc_bo_danh_du(a: Layout, t: Table) -> bool:
    return bool(a.luc) and all_honor(a)


# --------------------------------------------------------------- registry

SPECIAL = "Special"
QUOC_SI = "quoc_si"
"""The plain Quốc Sĩ, which the indicator-decided members refine."""


def _t(
    id: str,
    tier: int,
    heading: str,
    name_vi: str,
    gloss: str,
    shape: Shape,
    predicate: Predicate,
    *,
    quoc_si_family: bool = False,
    counts_indicators: bool = True,
    an_si_needed: int | None = None,
    supersedes: tuple[str, ...] = (),
) -> The:
    return The(
        id=id,
        tier=tier,
        heading=heading,
        name_vi=name_vi,
        gloss=gloss,
        shape=shape,
        predicate=predicate,
        quoc_si_family=quoc_si_family,
        counts_indicators=counts_indicators,
        an_si_needed=an_si_needed,
        supersedes=frozenset(supersedes),
    )


def _qs(id: str, tier: int, heading: str, name_vi: str, gloss: str, an_si_needed: int) -> The:
    """A Quốc Sĩ member the indicators decide: Chỉ Điểm + ``an_si_needed`` Ẩn Sĩ."""
    return _t(
        id,
        tier,
        heading,
        name_vi,
        gloss,
        Shape.QUOC_SI,
        _quoc_si_with(an_si_needed),
        quoc_si_family=True,
        an_si_needed=an_si_needed,
    )


THES: tuple[The, ...] = (
    # Special (§5.4.1): "bất khóa vô chỉ"
    _t(QUOC_SI, 1, SPECIAL, "Quốc Sĩ", "six pairwise unrelated cards", Shape.QUOC_SI, quoc_si,
       quoc_si_family=True, counts_indicators=False),
    # Thế 1
    _t("ba_doi", 1, "Thế 1", "Ba Đôi", "three pairs of one kind", Shape.THREE_PAIRS, ba_doi),
    _t("phe_phe_lien_minh", 1, "Thế 1", "Phe – Phe liên minh", "two Liên minh Phe",
       Shape.TWO_TRIPLES, Halves(Triple.PHE_LM, Triple.PHE_LM, also=_same_suits_in_variant)),
    _t("phe_phe_dong_sac", 1, "Thế 1", "Phe – Phe đồng sắc", "two Đồng sắc Phe",
       Shape.TWO_TRIPLES, Halves(Triple.PHE_DS, Triple.PHE_DS, also=_same_suits_in_variant)),
    _t("phe_phe_phan_tranh", 1, "Thế 1", "Phe – Phe phân tranh", "two Phân tranh Phe",
       Shape.TWO_TRIPLES, Halves(Triple.PHE_PT, Triple.PHE_PT, also=_same_suits_in_variant)),
    _t("phe_phe_ba_doi", 1, "Thế 1", "Phe – Phe ba đôi",
       "two Phe whose figures pair up position by position",
       Shape.TWO_TRIPLES, Halves(Triple.PHE, Triple.PHE, aligned=Kind.FIGURE),
       supersedes=("ba_doi",)),
    _t("phe_co_do", 1, "Thế 1", "Phe – Cố Đô", "a Phe and a Phu of Kyoto",
       Shape.TWO_TRIPLES, Halves(Triple.PHE, Triple.KYOTO3, either_order=True)),
    _t("phe_giang_ho", 1, "Thế 1", "Phe – Giang Hộ", "a Phe and a Phu of Edo",
       Shape.TWO_TRIPLES, Halves(Triple.PHE, Triple.EDO3, either_order=True)),
    _t("phu_phu", 1, "Thế 1", "Phu – Phu", "two Phu of the same kind",
       Shape.TWO_TRIPLES, Halves(Triple.PHU, Triple.PHU, same_kind=True)),
    _t("cung_doi", 1, "Thế 1", "Củng – Đôi", "a Củng and a pair of its kind, not a Lục bộ",
       Shape.CUNG_TAIL, cung_doi, supersedes=("ba_doi",)),
    _t("cung_phu", 1, "Thế 1", "Củng – Phu", "a Củng and a Phu sharing its 4th card",
       Shape.CUNG_TAIL, cung_phu),
    # Thế 2
    _t("phien_phien", 2, "Thế 2", "Phiên – Phiên", "two Phiên of different figures",
       Shape.TWO_TRIPLES, Halves(Triple.PHIEN, Triple.PHIEN, also=_different_figures)),
    _t("phien_co_do", 2, "Thế 2", "Phiên – Cố Đô", "a Phiên and a Phu of Kyoto",
       Shape.TWO_TRIPLES, Halves(Triple.PHIEN, Triple.KYOTO3, either_order=True)),
    _t("phien_giang_ho", 2, "Thế 2", "Phiên – Giang Hộ", "a Phiên and a Phu of Edo",
       Shape.TWO_TRIPLES, Halves(Triple.PHIEN, Triple.EDO3, either_order=True)),
    _t("cung_phien", 2, "Thế 2", "Củng – Phiên", "a Củng and a Phiên sharing its 4th card",
       Shape.CUNG_TAIL, cung_phien),
    _t("cung_phien_doi_phu", 2, "Thế 2", "Củng Phiên – Đôi Phu",
       "a Củng whose first three are a Phiên; its 4th card makes a Phu with the pair",
       Shape.CUNG_TAIL, cung_phien_doi_phu),
    _t("cung_doi_phe", 2, "Thế 2", "Củng – Đôi Phe",
       "a Củng and a pair that makes a Phe with its 4th card", Shape.CUNG_TAIL, cung_doi_phe),
    _t("cung_phien_doi", 2, "Thế 2", "Củng Phiên – Đôi",
       "a Củng whose first three are a Phiên, and a pair", Shape.CUNG_TAIL, cung_phien_doi),
    _t("ngu_luan_doi", 2, "Thế 2", "Ngũ Luân – Đôi",
       "a Ngũ and a regular card pairing with its 5th card", Shape.NGU_TAIL, ngu_luan_doi),
    _t("phu_co_do_giang_ho", 2, "Thế 2", "Phu Cố Đô – Giang Hộ",
       "a Phu of Kyoto and a Phu of Edo",
       Shape.TWO_TRIPLES, Halves(Triple.KYOTO3, Triple.EDO3, either_order=True)),
    # Thế 3
    _t("cung_phien_phu_giang_ho", 3, "Thế 3", "Củng Phiên – Phu Giang Hộ",
       "a Củng whose first three are a Phiên; its 4th card and the pair are Edo",
       Shape.CUNG_TAIL, _cung_phien_phu_in(Suit.EDO)),
    _t("cung_phien_phu_co_do", 3, "Thế 3", "Củng Phiên – Phu Cố Đô",
       "a Củng whose first three are a Phiên; its 4th card and the pair are Kyoto",
       Shape.CUNG_TAIL, _cung_phien_phu_in(Suit.KYOTO)),
    _t("cung_doi_hai_doi", 3, "Thế 3", "Củng – Đôi Hai Đôi",
       "a Củng and a pair of its kind, each pair card pairing by the other kind "
       "with a different Củng card", Shape.CUNG_TAIL, cung_doi_hai_doi),
    _t("cung_doi_phien", 3, "Thế 3", "Củng – Đôi Phiên",
       "a Củng and a pair that makes a Phiên with its 4th card", Shape.CUNG_TAIL, cung_doi_phien),
    _t("cung_phien_doi_phe", 3, "Thế 3", "Củng Phiên – Đôi Phe",
       "a Củng whose first three are a Phiên, and a pair making a Phe with its 4th card",
       Shape.CUNG_TAIL, cung_phien_doi_phe),
    _t("ngu_luan_trai", 3, "Thế 3", "Ngũ luân trái",
       "the five left-facing figures of one suit and a card pairing with the 5th",
       Shape.NGU_TAIL, ngu_luan_trai),
    _t("ngu_luan_phai", 3, "Thế 3", "Ngũ luân phải",
       "the five right-facing figures of one suit and a card pairing with the 5th",
       Shape.NGU_TAIL, ngu_luan_phai),
    _t("ngu_luan_danh_du", 3, "Thế 3", "Ngũ luân danh dự",
       "a Ngũ of honor cards and an honor card of another suit with the 5th's figure",
       Shape.NGU_TAIL, ngu_luan_danh_du),
    # Thế 4
    _t("cung_phien_doi_hai_doi", 4, "Thế 4", "Củng Phiên – Đôi hai đôi",
       "Củng – Đôi Hai Đôi whose first three are a Phiên", Shape.CUNG_TAIL, cung_phien_doi_hai_doi),
    _t("cung_phien_doi_phe_lien_minh", 4, "Thế 4", "Củng Phiên – Đôi Phe Liên minh",
       "Củng Phiên – Đôi Phe with a Liên minh Phiên and Phe",
       Shape.CUNG_TAIL, _cung_phien_doi_phe_of(PheType.LM)),
    _t("cung_phien_doi_phe_dong_sac", 4, "Thế 4", "Củng Phiên – Đôi Phe Đồng sắc",
       "Củng Phiên – Đôi Phe with a Đồng sắc Phiên and Phe",
       Shape.CUNG_TAIL, _cung_phien_doi_phe_of(PheType.DS)),
    _t("cung_phien_doi_phe_phan_tranh", 4, "Thế 4", "Củng Phiên – Đôi Phe Phân Tranh",
       "Củng Phiên – Đôi Phe with a Phân tranh Phiên and Phe",
       Shape.CUNG_TAIL, _cung_phien_doi_phe_of(PheType.PT)),
    _t("quoc_si_trai", 4, "Thế 4", "Quốc Sĩ Trái", "a Quốc Sĩ holding all five left figures",
       Shape.QUOC_SI, _quoc_si_facing(left=True), quoc_si_family=True),
    _t("quoc_si_phai", 4, "Thế 4", "Quốc Sĩ Phải", "a Quốc Sĩ holding all five right figures",
       Shape.QUOC_SI, _quoc_si_facing(left=False), quoc_si_family=True),
    _qs("that_si", 4, "Thế 4", "Thất Sĩ", "a Quốc Sĩ unrelated to the Chỉ Điểm", 0),
    # Thế 5
    _t("ba_doi_ba_doi", 5, "Thế 5", "Ba đôi – Ba đôi",
       "three pairs of one kind that also split into three pairs of the other",
       Shape.THREE_PAIRS, ba_doi_ba_doi),
    _t("phu_phu_ba_doi", 5, "Thế 5", "Phu – Phu ba đôi",
       "two Phu of one kind pairing up position by position by the other kind",
       Shape.TWO_TRIPLES,
       Halves(Triple.PHU, Triple.PHU, same_kind=True, also=_paired_by_the_other_kind)),
    _t("luc_bo", 5, "Thế 5", "Lục Bộ", "six cards of one figure or one suit", Shape.LUC_BO,
       luc_bo),
    _t("sieu_ngu_luan_trai", 5, "Thế 5", "Siêu Ngũ luân trái",
       "the five left-facing figures of one suit and that suit's Gia huy",
       Shape.NGU_TAIL, _sieu_ngu_luan(left=True), supersedes=("luc_bo",)),
    _t("sieu_ngu_luan_phai", 5, "Thế 5", "Siêu Ngũ luân phải",
       "the five right-facing figures of one suit and that suit's Gia huy",
       Shape.NGU_TAIL, _sieu_ngu_luan(left=False), supersedes=("luc_bo",)),
    _qs("bat_si", 5, "Thế 5", "Bát Sĩ",
        "Quốc Sĩ, Chỉ Điểm and one revealed Ẩn Sĩ all unrelated", 1),
    # Thế 6
    _t("phien_phien_ba_doi", 6, "Thế 6", "Phiên – Phiên Ba Đôi",
       "two Phiên of different figures with the same suits position by position",
       Shape.TWO_TRIPLES,
       Halves(Triple.PHIEN, Triple.PHIEN, aligned=Kind.SUIT, also=_different_figures)),
    _t("phien_phien_luc_bo", 6, "Thế 6", "Phiên – Phiên Lục bộ",
       "two Phiên of the same figure",
       Shape.TWO_TRIPLES, Halves(Triple.PHIEN, Triple.PHIEN, also=_same_figure)),
    _t("phe_co_do_ba_doi", 6, "Thế 6", "Phe – Cố Đô Ba Đôi",
       "Phe – Cố Đô pairing up by figure position by position",
       Shape.TWO_TRIPLES,
       Halves(Triple.PHE, Triple.KYOTO3, either_order=True, aligned=Kind.FIGURE)),
    _t("phe_giang_ho_ba_doi", 6, "Thế 6", "Phe – Giang Hộ Ba Đôi",
       "Phe – Giang Hộ pairing up by figure position by position",
       Shape.TWO_TRIPLES, Halves(Triple.PHE, Triple.EDO3, either_order=True, aligned=Kind.FIGURE)),
    _qs("cuu_si", 6, "Thế 6", "Cửu Sĩ",
        "Quốc Sĩ, Chỉ Điểm and two revealed Ẩn Sĩ all unrelated", 2),
    # Thế 7
    _t("phu_co_do_giang_ho_ba_doi", 7, "Thế 7", "Phu Cố Đô – Giang Hộ – Ba đôi",
       "Phu of Kyoto and Phu of Edo pairing up by figure position by position",
       Shape.TWO_TRIPLES,
       Halves(Triple.KYOTO3, Triple.EDO3, either_order=True, aligned=Kind.FIGURE)),
    _t("ba_doi_phu_co_do_giang_ho", 7, "Thế 7", "Ba đôi – Phu Cố Đô – Giang Hộ",
       "three figure pairs of one Kyoto and one Edo card, Kyoto always on the same side",
       Shape.THREE_PAIRS, ba_doi_phu_co_do_giang_ho),
    _t("luc_bo_danh_du", 7, "Thế 7", "Lục bộ Danh dự", "a Lục bộ of six honor cards",
       Shape.LUC_BO, luc_bo_danh_du),
    _qs("thap_si", 7, "Thế 7", "Thập Sĩ",
       "Quốc Sĩ, Chỉ Điểm and three revealed Ẩn Sĩ all unrelated", 3),
    # Thế 0: match win, counted as 10
    _qs("quoc_si_vo_song", 10, "Thế 0", "Quốc Sĩ Vô Song",
       "Quốc Sĩ, Chỉ Điểm and all four Ẩn Sĩ: eleven unrelated cards; wins the match", 4),
)  # fmt: skip

THE_BY_ID: dict[str, The] = {t.id: t for t in THES}
QUOC_SI_VO_SONG = "quoc_si_vo_song"
"""Wins the whole match (§7)."""
