"""Fast search for every Thế a set of six cards allows in *some* order.

The positional predicates of :mod:`env121.rules.thes` define the Thế, but trying
them on all 720 orders is far too slow for an environment that asks "can I win
with this card?" on every offer. Every Thế is built from a cut of the six
cards into groups, and there are few cuts:

* 10 splits into two triples (two Phu / Phe / Phiên / Phu Cố Đô / Giang Hộ),
* 15 splits into three pairs,
* 15 Củng + two cards, times 4 choices of the Củng card a4 that the tail uses,
* 6 Ngũ + one card, times 5 choices of the card a5 the sixth card pairs with,
* the six cards as a whole (Lục bộ, Quốc Sĩ).

For each cut the search checks the Thế of that shape directly and records
one arrangement (a1…a6) that realises it. Tests check that every recorded
arrangement satisfies its positional predicate and that the search finds
exactly what a brute force over 720 orders finds.

Indicator-dependent members of the Quốc Sĩ family (Thất Sĩ and above) are
not searched here: they are ``quoc_si`` plus a condition on the table, added
by :mod:`env121.rules.scoring`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from env121.rules.cards import FIG, IS_HONOR, SUIT, Figure, Suit, pairwise_unrelated
from env121.rules.config import RuleConfig
from env121.rules.groups import Kind, PheType, all_honor, edo3, kyoto3, pair, phe, phien, phu

Cards = tuple[int, ...]
Found = dict[str, Cards]

_IDX = range(6)
_TRIPLE_SPLITS = [
    (a, tuple(i for i in _IDX if i not in a)) for a in combinations(_IDX, 3) if 0 in a
]
_QUADS = [(q, tuple(i for i in _IDX if i not in q)) for q in combinations(_IDX, 4)]
_FIVES = [(f, next(i for i in _IDX if i not in f)) for f in combinations(_IDX, 5)]


def _pairings(idx: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    if not idx:
        return [[]]
    first, rest = idx[0], idx[1:]
    return [
        [(first, p), *more] for p in rest for more in _pairings(tuple(i for i in rest if i != p))
    ]


_PAIRINGS = _pairings(tuple(_IDX))
_PHE_PHE = {
    PheType.LM: "phe_phe_lien_minh",
    PheType.DS: "phe_phe_dong_sac",
    PheType.PT: "phe_phe_phan_tranh",
}
_CUNG_PHIEN_DOI_PHE = {
    PheType.LM: "cung_phien_doi_phe_lien_minh",
    PheType.DS: "cung_phien_doi_phe_dong_sac",
    PheType.PT: "cung_phien_doi_phe_phan_tranh",
}


def _align(a: Cards, b: Cards, key: tuple[int, ...]) -> Cards | None:
    """``b`` reordered so that key[b'_i] == key[a_i] for every i, or None."""
    left = list(b)
    out = []
    for x in a:
        match = next((y for y in left if key[y] == key[x]), None)
        if match is None:
            return None
        left.remove(match)
        out.append(match)
    return tuple(out)


def _two_triples(cards: Cards, config: RuleConfig, found: Found) -> None:
    for ia, ib in _TRIPLE_SPLITS:
        a = (cards[ia[0]], cards[ia[1]], cards[ia[2]])
        b = (cards[ib[0]], cards[ib[1]], cards[ib[2]])
        if (phu(*a) or phe(*a)) and (phu(*b) or phe(*b)):  # every such Thế is two triples
            _triple_pair(a, b, config, found)
            _triple_pair(b, a, config, found)


def _triple_pair(a: Cards, b: Cards, config: RuleConfig, found: Found) -> None:
    """Thế made of triple ``a`` (laid first) and triple ``b``."""
    phe_a, phe_b = phe(*a), phe(*b)
    phu_a, phu_b = phu(*a), phu(*b)
    phien_a, phien_b = phien(*a), phien(*b)
    ky_b, edo_b = kyoto3(*b), edo3(*b)
    same_figure = FIG[a[0]] == FIG[b[0]]

    if phe_a and phe_a == phe_b:
        b_suits = _align(a, b, SUIT) if config.phe_phe_same_suits else b
        if b_suits is not None:
            found.setdefault(_PHE_PHE[phe_a], a + b_suits)
    if phe_a and phe_b and (b_figs := _align(a, b, FIG)) is not None:
        found.setdefault("phe_phe_ba_doi", a + b_figs)
    for honor_b, plain, ba_doi in (
        (ky_b, "phe_co_do", "phe_co_do_ba_doi"),
        (edo_b, "phe_giang_ho", "phe_giang_ho_ba_doi"),
    ):
        if phe_a and honor_b:
            found.setdefault(plain, a + b)
            if (b_figs := _align(a, b, FIG)) is not None:
                found.setdefault(ba_doi, a + b_figs)
    if phien_a and ky_b:
        found.setdefault("phien_co_do", a + b)
    if phien_a and edo_b:
        found.setdefault("phien_giang_ho", a + b)
    if phu_a and phu_a == phu_b:
        found.setdefault("phu_phu", a + b)
        key = SUIT if phu_a == Kind.FIGURE else FIG
        if (b_other := _align(a, b, key)) is not None:
            found.setdefault("phu_phu_ba_doi", a + b_other)
    if phien_a and phien_b:
        if same_figure:
            found.setdefault("phien_phien_luc_bo", a + b)
        else:
            found.setdefault("phien_phien", a + b)
            if (b_suits := _align(a, b, SUIT)) is not None:
                found.setdefault("phien_phien_ba_doi", a + b_suits)
    if kyoto3(*a) and edo_b:
        found.setdefault("phu_co_do_giang_ho", a + b)
        if (b_figs := _align(a, b, FIG)) is not None:
            found.setdefault("phu_co_do_giang_ho_ba_doi", a + b_figs)


def _three_pairs(cards: Cards, found: Found) -> None:
    by_kind: dict[Kind, Cards] = {}
    for pairing in _PAIRINGS:
        pairs = [(cards[i], cards[j]) for i, j in pairing]
        kind = pair(*pairs[0])
        if not kind or any(pair(x, y) != kind for x, y in pairs[1:]):
            continue
        arrangement = tuple(c for p in pairs for c in p)
        by_kind.setdefault(kind, arrangement)
        if kind == Kind.FIGURE and all(
            {SUIT[x], SUIT[y]} == {Suit.KYOTO, Suit.EDO} for x, y in pairs
        ):
            kyoto_first = [(x, y) if SUIT[x] == Suit.KYOTO else (y, x) for x, y in pairs]
            found.setdefault("ba_doi_phu_co_do_giang_ho", tuple(c for p in kyoto_first for c in p))
    for arrangement in by_kind.values():
        found.setdefault("ba_doi", arrangement)
    if len(by_kind) == 2:
        found.setdefault("ba_doi_ba_doi", by_kind[Kind.FIGURE])


def _cung_tails(cards: Cards, is_luc: bool, found: Found) -> None:
    for iq, (ix, iy) in _QUADS:
        quad = tuple(cards[i] for i in iq)
        kind = pair(quad[0], quad[1])
        if not kind or any(pair(quad[0], c) != kind for c in quad[2:]):
            continue
        x, y = cards[ix], cards[iy]
        tail_pair = pair(x, y)
        hai_doi = (
            tail_pair == kind and not is_luc and _pairs_with_two_different(x, y, quad, kind.other)
        )
        for k in range(4):
            a4 = quad[k]
            head = quad[:k] + quad[k + 1 :]
            arrangement = (*head, a4, x, y)
            tail_phu, tail_phe, tail_phien = phu(a4, x, y), phe(a4, x, y), phien(a4, x, y)
            head_phien = phien(*head)
            if tail_pair == kind and not is_luc:
                found.setdefault("cung_doi", arrangement)
            if hai_doi:
                found.setdefault("cung_doi_hai_doi", arrangement)
                if head_phien:
                    found.setdefault("cung_phien_doi_hai_doi", arrangement)
            if tail_phu:
                found.setdefault("cung_phu", arrangement)
            if tail_phien:
                found.setdefault("cung_phien", arrangement)
                found.setdefault("cung_doi_phien", arrangement)  # a Phiên tail is a pair + a4
            if tail_pair and tail_phe:
                found.setdefault("cung_doi_phe", arrangement)
            if not head_phien:
                continue
            if tail_phu:
                found.setdefault("cung_phien_doi_phu", arrangement)
            if tail_pair:
                found.setdefault("cung_phien_doi", arrangement)
                if tail_phe:
                    found.setdefault("cung_phien_doi_phe", arrangement)
                    if tail_phe == head_phien:
                        found.setdefault(_CUNG_PHIEN_DOI_PHE[head_phien], arrangement)
            if SUIT[a4] == SUIT[x] == SUIT[y] == Suit.EDO:
                found.setdefault("cung_phien_phu_giang_ho", arrangement)
            if SUIT[a4] == SUIT[x] == SUIT[y] == Suit.KYOTO:
                found.setdefault("cung_phien_phu_co_do", arrangement)


def _pairs_with_two_different(x: int, y: int, quad: Cards, kind: Kind) -> bool:
    """x and y each pair (by ``kind``) with a different card of the quad."""
    px = [q for q in quad if pair(x, q) == kind]
    py = [q for q in quad if pair(y, q) == kind]
    return any(p != q for p in px for q in py)


def _ngu_tails(cards: Cards, is_luc: bool, config: RuleConfig, found: Found) -> None:
    for i5, i6 in _FIVES:
        five = tuple(cards[i] for i in i5)
        kind = pair(five[0], five[1])
        if not kind or any(pair(five[0], c) != kind for c in five[2:]):
            continue
        sixth = cards[i6]
        figures = {FIG[c] for c in five}
        facing = (
            ("ngu_luan_trai", "sieu_ngu_luan_trai", config.left_figures),
            ("ngu_luan_phai", "sieu_ngu_luan_phai", config.right_figures),
        )
        honor_five = all_honor(five)
        for k in range(5):
            a5 = five[k]
            arrangement = (*five[:k], *five[k + 1 :], a5, sixth)
            tail_pair = pair(a5, sixth)
            if tail_pair and not IS_HONOR[sixth] and not is_luc:
                found.setdefault("ngu_luan_doi", arrangement)
            if kind == Kind.SUIT:
                for ngu_id, sieu_id, wanted in facing:
                    if figures == wanted and tail_pair:
                        found.setdefault(ngu_id, arrangement)
                    if figures == wanted and FIG[sixth] == Figure.CREST and SUIT[sixth] == SUIT[a5]:
                        found.setdefault(sieu_id, arrangement)
            if (
                honor_five
                and IS_HONOR[sixth]
                and FIG[sixth] == FIG[a5]
                and SUIT[sixth] != SUIT[a5]
                and not is_luc
            ):
                found.setdefault("ngu_luan_danh_du", arrangement)


def _whole(cards: Cards, is_luc: bool, config: RuleConfig, found: Found) -> None:
    if is_luc:
        found.setdefault("luc_bo", cards)
        if all_honor(cards):
            found.setdefault("luc_bo_danh_du", cards)
    if pairwise_unrelated(cards):
        found.setdefault("quoc_si", cards)
        figures = {FIG[c] for c in cards}
        if config.left_figures <= figures:
            found.setdefault("quoc_si_trai", cards)
        if config.right_figures <= figures:
            found.setdefault("quoc_si_phai", cards)


@lru_cache(maxsize=1 << 17)
def achievable_thes(cards: Cards, config: RuleConfig) -> dict[str, Cards]:
    """Every table-independent Thế that *some* order of the six cards matches,
    each with one arrangement realising it.

    ``cards`` must be six distinct card ids in ascending order (the cache key);
    the caller must not mutate the returned dict.
    """
    found: Found = {}
    figures = [FIG[c] for c in cards]
    suits = [SUIT[c] for c in cards]
    largest_run = max(max(map(figures.count, figures)), max(map(suits.count, suits)))
    is_luc = largest_run == 6
    _whole(cards, is_luc, config, found)
    _two_triples(cards, config, found)
    if all(figures.count(f) > 1 or suits.count(s) > 1 for f, s in zip(figures, suits, strict=True)):
        _three_pairs(cards, found)  # only when every card has a partner
    if largest_run >= 4:
        _cung_tails(cards, is_luc, found)
    if largest_run >= 5:
        _ngu_tails(cards, is_luc, config, found)
    return found
