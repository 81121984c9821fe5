"""Hand generators for the scorer tests: hypothesis strategies and a seeded numpy sampler.

Uniformly random six-card hands almost never hold the rarer Thế of spec §4, so
most strategies here *build* a hand to hit one pattern family, laid out in the
order the pattern's definition uses (a1..a6, spec §3): two Phe halves, Phu +
Phu, Phiên + Phiên, Phe/Phiên + Phu Cố Đô / Giang Hộ, Củng + pair, Củng + a
triple sharing a4, Ngũ + 1 (facing and honor variants), Lục bộ, three pairs,
and Quốc Sĩ-style pairwise-unrelated hands. ``table_conditions`` adds what lies
on the table (the Chỉ Điểm, revealed Ẩn Sĩ) and the win's flags (spec §5, §6).

``scoring_cases()`` yields keyword-argument dicts for ``env121.score_hand`` and
``tests.support.reference.reference_score``; ``random_cases(seed, n)`` is the
hypothesis-free sampler used for the large agreement test.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Any

import numpy as np
from hypothesis import strategies as st

from tests.support.reference import reference_is_completed

NUM_CARDS = 121
CREST = 0
KYOTO = 0
EDO = 1
ALL_FIGURES = tuple(range(11))
ALL_SUITS = tuple(range(11))
REGULAR_SUITS = tuple(range(2, 11))
DEFAULT_LEFT = frozenset({1, 2, 3, 4, 5})

# Spec §1/§2: suits 2-4 FLOWER, 5-7 BUTTERFLY, 8-10 LEAF; within a clan RED, BLUE, PURPLE.
PHE_SUIT_TRIPLES: dict[str, tuple[tuple[int, int, int], ...]] = {
    # Liên minh: one clan, all three colors
    "LM": ((2, 3, 4), (5, 6, 7), (8, 9, 10)),
    # Đồng sắc: three clans, one color
    "DS": ((2, 5, 8), (3, 6, 9), (4, 7, 10)),
    # Phân tranh: three clans, three colors
    "PT": tuple((2 + p[0], 5 + p[1], 8 + p[2]) for p in permutations(range(3))),
}
PHE_TYPES = ("LM", "DS", "PT")

Hand = tuple[int, ...]
Case = dict[str, Any]


def card(figure: int, suit: int) -> int:
    """Card id = 11·figure + suit (spec §1)."""
    return 11 * figure + suit


def fig(c: int) -> int:
    return c // 11


def suit(c: int) -> int:
    return c % 11


def distinct(cards: Sequence[int]) -> bool:
    return len(set(cards)) == len(cards)


def related(x: int, y: int) -> bool:
    return fig(x) == fig(y) or suit(x) == suit(y)


# ---------------------------------------------------------------- building blocks


@st.composite
def phe_suits(draw: st.DrawFn, phe_type: str | None = None) -> tuple[int, ...]:
    """Three suits forming a Phe of the given (or any) type, in random order."""
    kind = phe_type if phe_type is not None else draw(st.sampled_from(PHE_TYPES))
    triple = draw(st.sampled_from(PHE_SUIT_TRIPLES[kind]))
    return tuple(draw(st.permutations(triple)))


@st.composite
def distinct_values(draw: st.DrawFn, pool: Sequence[int], k: int) -> tuple[int, ...]:
    """k distinct values from the pool, in random order."""
    return tuple(draw(st.permutations(list(pool)))[:k])


@st.composite
def phe_triple(
    draw: st.DrawFn,
    phe_type: str | None = None,
    figure: int | None = None,
    avoid: frozenset[int] = frozenset(),
) -> tuple[int, ...]:
    """Three cards forming a Phe; with ``figure`` they are a Phiên. Without a figure, the cards
    in ``avoid`` are not used."""
    suits = draw(phe_suits(phe_type))
    if figure is not None:
        return tuple(card(figure, s) for s in suits)
    return tuple(
        card(draw(st.sampled_from([f for f in ALL_FIGURES if card(f, s) not in avoid])), s)
        for s in suits
    )


@st.composite
def phu_triple(
    draw: st.DrawFn, kind: str | None = None, avoid: frozenset[int] = frozenset()
) -> tuple[int, ...]:
    """Three cards, none in ``avoid``, forming a Phu of kind 'figure' or 'suit' (random when
    None)."""
    kind = kind if kind is not None else draw(st.sampled_from(("figure", "suit")))
    if kind == "figure":
        f = draw(st.sampled_from(ALL_FIGURES))
        free_suits = [s for s in ALL_SUITS if card(f, s) not in avoid]
        return tuple(card(f, s) for s in draw(distinct_values(free_suits, 3)))
    s = draw(st.sampled_from(ALL_SUITS))
    free_figures = [f for f in ALL_FIGURES if card(f, s) not in avoid]
    return tuple(card(f, s) for f in draw(distinct_values(free_figures, 3)))


@st.composite
def pair_cards(
    draw: st.DrawFn, kind: str | None = None, avoid: frozenset[int] = frozenset()
) -> tuple[int, ...]:
    """Two cards, none in ``avoid``, forming a pair (Đôi) of the given or any kind."""
    return tuple(draw(phu_triple(kind, avoid))[:2])


@st.composite
def honor_suit_triple(draw: st.DrawFn, honor_suit: int) -> tuple[int, ...]:
    """Phu Cố Đô (KYOTO) or Phu Giang Hộ (EDO): three cards of that suit."""
    return tuple(card(f, honor_suit) for f in draw(distinct_values(ALL_FIGURES, 3)))


def _maybe_swap_halves(draw: st.DrawFn, hand: Hand) -> Hand:
    """The 'either order' of spec §3: a1a2a3 <-> a4a5a6."""
    return hand[3:] + hand[:3] if draw(st.booleans()) else hand


# ---------------------------------------------------------------- the families


def _new_cards(first: Hand, suits: Sequence[int], taken: frozenset[int]) -> bool:
    """The cards (fig(first[i]), suits[i]) are all outside ``taken``."""
    return all(card(fig(c), t) not in taken for c, t in zip(first, suits, strict=True))


@st.composite
def two_phe_hands(draw: st.DrawFn) -> Hand:
    """Two Phe halves of any two types (phe_phe_*, phe_phe_ba_doi, with same-suit variants)."""
    first_type = draw(st.sampled_from(PHE_TYPES))
    first = draw(phe_triple(first_type))
    variant = draw(st.sampled_from(("free", "same_type", "same_suits", "same_figures")))
    taken = frozenset(first)
    if variant == "free":
        second = draw(phe_triple(draw(st.sampled_from(PHE_TYPES)), avoid=taken))
    elif variant == "same_type":
        second = draw(phe_triple(first_type, avoid=taken))
    elif variant == "same_suits":  # literal variant: suit(a_i) = suit(a_{i+3})
        second = tuple(
            card(draw(st.sampled_from([f for f in ALL_FIGURES if f != fig(c)])), suit(c))
            for c in first
        )
    else:  # phe_phe_ba_doi: fig(a_i) = fig(a_{i+3}), on suits that make new cards
        triple = draw(phe_suits())
        orders = draw(st.permutations(list(permutations(triple))))
        suits = next((o for o in orders if _new_cards(first, o, taken)), orders[0])
        second = tuple(card(fig(c), t) for c, t in zip(first, suits, strict=True))
    return first + second


@st.composite
def two_phu_hands(draw: st.DrawFn) -> Hand:
    """Phu + Phu of each kind (phu_phu), incl. the pairwise-linked phu_phu_ba_doi layout."""
    if draw(st.booleans()):
        first = draw(phu_triple())
        return first + draw(phu_triple(avoid=frozenset(first)))
    if draw(st.booleans()):  # two figure Phu on the same three suits
        f, g = draw(distinct_values(ALL_FIGURES, 2))
        suits = draw(distinct_values(ALL_SUITS, 3))
        return tuple(card(f, s) for s in suits) + tuple(card(g, s) for s in suits)
    s, t = draw(distinct_values(ALL_SUITS, 2))  # two suit Phu on the same three figures
    figures = draw(distinct_values(ALL_FIGURES, 3))
    return tuple(card(f, s) for f in figures) + tuple(card(f, t) for f in figures)


@st.composite
def phien_phien_hands(draw: st.DrawFn) -> Hand:
    """Phiên + Phiên: different figures, same suits (ba_doi), or one figure (luc_bo)."""
    variant = draw(st.sampled_from(("free", "same_suits", "same_figure")))
    f, g = draw(distinct_values(ALL_FIGURES, 2))
    first = draw(phe_triple(figure=f))
    if variant == "free":
        return first + draw(phe_triple(figure=g))
    if variant == "same_suits":
        return first + tuple(card(g, suit(c)) for c in first)
    # same figure: the second Phe on three other suits
    used = {suit(c) for c in first}
    free = [t for ts in PHE_SUIT_TRIPLES.values() for t in ts if not used & set(t)]
    return first + tuple(card(f, t) for t in draw(st.permutations(draw(st.sampled_from(free)))))


@st.composite
def phe_honor_hands(draw: st.DrawFn) -> Hand:
    """Phe or Phiên + Phu Cố Đô / Giang Hộ, and Phu Cố Đô + Phu Giang Hộ, incl. ba_doi layouts."""
    variant = draw(st.sampled_from(("phe", "phien", "phe_ba_doi", "kyoto_edo", "kyoto_edo_ba_doi")))
    honor = draw(st.sampled_from((KYOTO, EDO)))
    if variant == "phe":
        hand = draw(phe_triple()) + draw(honor_suit_triple(honor))
    elif variant == "phien":
        hand = draw(phe_triple(figure=draw(st.sampled_from(ALL_FIGURES)))) + draw(
            honor_suit_triple(honor)
        )
    elif variant == "phe_ba_doi":  # fig(a_i) = fig(a_{i+3})
        figures = draw(distinct_values(ALL_FIGURES, 3))
        suits = draw(phe_suits())
        hand = tuple(card(f, s) for f, s in zip(figures, suits, strict=True)) + tuple(
            card(f, honor) for f in figures
        )
    elif variant == "kyoto_edo":
        hand = draw(honor_suit_triple(KYOTO)) + draw(honor_suit_triple(EDO))
    else:
        figures = draw(distinct_values(ALL_FIGURES, 3))
        hand = tuple(card(f, KYOTO) for f in figures) + tuple(card(f, EDO) for f in figures)
    return _maybe_swap_halves(draw, hand)


@st.composite
def honor_pairs_hands(draw: st.DrawFn) -> Hand:
    """Three figure pairs of one KYOTO and one EDO card (ba_doi_phu_co_do_giang_ho)."""
    figures = draw(distinct_values(ALL_FIGURES, 3))
    kyoto_first = draw(st.booleans())
    mixed = draw(st.integers(0, 4)) == 0  # sometimes break the "same positions" rule
    hand: list[int] = []
    for i, f in enumerate(figures):
        first_is_kyoto = kyoto_first != (mixed and i == 2)
        hand += [card(f, KYOTO), card(f, EDO)] if first_is_kyoto else [card(f, EDO), card(f, KYOTO)]
    return tuple(hand)


@st.composite
def cung_cards(draw: st.DrawFn, kind: str | None = None) -> tuple[int, ...]:
    """Four cards of one figure or one suit; with a figure Củng, a1..a3 are often a Phiên."""
    kind = kind if kind is not None else draw(st.sampled_from(("figure", "suit")))
    if kind == "suit":
        s = draw(st.sampled_from(ALL_SUITS))
        return tuple(card(f, s) for f in draw(distinct_values(ALL_FIGURES, 4)))
    f = draw(st.sampled_from(ALL_FIGURES))
    if draw(st.booleans()):
        phien_suits = draw(phe_suits())
        fourth = draw(st.sampled_from([s for s in ALL_SUITS if s not in phien_suits]))
        return tuple(card(f, s) for s in (*phien_suits, fourth))
    return tuple(card(f, s) for s in draw(distinct_values(ALL_SUITS, 4)))


@st.composite
def cung_pair_hands(draw: st.DrawFn) -> Hand:
    """Củng + pair: cung_doi, cung_doi_hai_doi (a5, a6 linked to two Củng cards), mixed kinds."""
    four = draw(cung_cards())
    figure_cung = len({fig(c) for c in four}) == 1
    variant = draw(st.sampled_from(("hai_doi", "free_pair", "random_pair")))
    i, j = draw(distinct_values(range(4), 2))
    tail: tuple[int, ...]
    if variant == "hai_doi":
        if figure_cung:  # a5, a6 share a figure G and take the suits of two Củng cards
            g = draw(st.sampled_from([f for f in ALL_FIGURES if f != fig(four[0])]))
            tail = (card(g, suit(four[i])), card(g, suit(four[j])))
        else:  # a5, a6 share a suit T and take the figures of two Củng cards
            t = draw(st.sampled_from([s for s in ALL_SUITS if s != suit(four[0])]))
            tail = (card(fig(four[i]), t), card(fig(four[j]), t))
    elif variant == "free_pair":
        tail = draw(pair_cards(avoid=frozenset(four)))
    else:
        tail = tuple(draw(distinct_values([c for c in range(NUM_CARDS) if c not in four], 2)))
    return four + tail


@st.composite
def cung_triple_hands(draw: st.DrawFn) -> Hand:
    """Củng + a Phu / Phiên / Phe sharing a4 (cung_phu, cung_phien, cung_doi_phe,
    cung_phien_doi_phe_*, cung_phien_phu_co_do / giang_ho)."""
    variant = draw(st.sampled_from(("phu", "phien", "phe", "phien_doi_phe", "honor")))
    if variant == "phu":
        four = draw(cung_cards())
        a4 = four[3]
        if draw(st.booleans()):  # the Phu by a4's suit
            figures = [f for f in ALL_FIGURES if card(f, suit(a4)) not in four]
            f5, f6 = draw(distinct_values(figures, 2))
            return (*four, card(f5, suit(a4)), card(f6, suit(a4)))
        suits = [s for s in ALL_SUITS if card(fig(a4), s) not in four]
        s5, s6 = draw(distinct_values(suits, 2))
        return (*four, card(fig(a4), s5), card(fig(a4), s6))
    if variant == "phien":  # a suit Củng whose a4 starts a Phiên
        s4, s5, s6 = draw(phe_suits())
        f = draw(st.sampled_from(ALL_FIGURES))
        others = draw(distinct_values([g for g in ALL_FIGURES if g != f], 3))
        return (*tuple(card(g, s4) for g in others), card(f, s4), card(f, s5), card(f, s6))
    if variant in ("phe", "phien_doi_phe"):
        phe_type = draw(st.sampled_from(PHE_TYPES))
        s4, s5, s6 = draw(phe_suits(phe_type))
        f = draw(st.sampled_from(ALL_FIGURES))
        if variant == "phien_doi_phe":  # a1..a3 a Phiên (mostly of the same type), a4 figure F
            phien_type = draw(st.sampled_from((phe_type, phe_type, *PHE_TYPES)))
            first = draw(st.sampled_from([t for t in PHE_SUIT_TRIPLES[phien_type] if s4 not in t]))
            head = (*tuple(card(f, s) for s in first), card(f, s4))
        else:  # a figure Củng whose a4 is F of suit s4
            others = draw(distinct_values([t for t in ALL_SUITS if t != s4], 3))
            head = (*tuple(card(f, t) for t in others), card(f, s4))
        g = draw(
            st.sampled_from([g for g in ALL_FIGURES if not {card(g, s5), card(g, s6)} & set(head)])
        )
        return (*head, card(g, s5), card(g, s6))
    # honor: a1..a3 a Phiên of figure F, a4 = F of KYOTO/EDO, a5, a6 of that honor suit
    honor = draw(st.sampled_from((KYOTO, EDO)))
    f = draw(st.sampled_from(ALL_FIGURES))
    head = (*draw(phe_triple(figure=f)), card(f, honor))
    f5, f6 = draw(distinct_values([g for g in ALL_FIGURES if g != f], 2))
    return (*head, card(f5, honor), card(f6, honor))


@st.composite
def ngu_hands(draw: st.DrawFn, left_figures: frozenset[int] = DEFAULT_LEFT) -> Hand:
    """Ngũ + 1: ngu_luan_doi, the left/right-facing Ngũ luận (and Siêu), the honor Ngũ."""
    right_figures = frozenset(range(1, 11)) - left_figures
    variant = draw(st.sampled_from(("plain", "facing", "sieu", "honor")))
    if variant in ("facing", "sieu"):
        s = draw(st.sampled_from(ALL_SUITS))
        figures = draw(st.sampled_from((sorted(left_figures), sorted(right_figures))))
        five = tuple(card(f, s) for f in draw(st.permutations(figures)))
        if variant == "sieu":
            return (*five, card(CREST, s))
    elif variant == "honor":
        s = draw(st.sampled_from((KYOTO, EDO)))
        five = tuple(card(f, s) for f in draw(distinct_values(ALL_FIGURES, 5)))
        a5 = five[4]
        other = draw(st.sampled_from([t for t in ALL_SUITS if t != s]))
        if fig(a5) != CREST and draw(st.integers(0, 3)) > 0:
            other = EDO if s == KYOTO else KYOTO
        return (*five, card(fig(a5), other))
    elif draw(st.booleans()):
        f = draw(st.sampled_from(ALL_FIGURES))
        five = tuple(card(f, s) for s in draw(distinct_values(ALL_SUITS, 5)))
    else:
        s = draw(st.sampled_from(ALL_SUITS))
        five = tuple(card(f, s) for f in draw(distinct_values(ALL_FIGURES, 5)))
    a5 = five[4]
    if draw(st.booleans()):
        a6 = card(
            fig(a5), draw(st.sampled_from([t for t in ALL_SUITS if card(fig(a5), t) not in five]))
        )
    else:
        a6 = card(
            draw(st.sampled_from([f for f in ALL_FIGURES if card(f, suit(a5)) not in five])),
            suit(a5),
        )
    return (*five, a6)


@st.composite
def luc_hands(draw: st.DrawFn) -> Hand:
    """Lục bộ: six of a figure or a suit, incl. the all-honor ones (CREST, KYOTO, EDO)."""
    if draw(st.booleans()):
        f = draw(st.sampled_from(ALL_FIGURES))
        return tuple(card(f, s) for s in draw(distinct_values(ALL_SUITS, 6)))
    s = draw(st.sampled_from(ALL_SUITS))
    return tuple(card(f, s) for f in draw(distinct_values(ALL_FIGURES, 6)))


@st.composite
def three_pair_hands(draw: st.DrawFn) -> Hand:
    """Three pairs: of one kind (ba_doi), splittable both ways (ba_doi_ba_doi), or mixed."""
    variant = draw(st.sampled_from(("both_ways", "one_kind", "mixed")))
    if variant == "both_ways":  # a 6-cycle: figure pairs f_i, suit links s_i
        f1, f2, f3 = draw(distinct_values(ALL_FIGURES, 3))
        s1, s2, s3 = draw(distinct_values(ALL_SUITS, 3))
        hand = (card(f1, s1), card(f1, s2), card(f2, s2), card(f2, s3), card(f3, s3), card(f3, s1))
        if draw(st.booleans()):  # lay it out by the suit pairs instead
            hand = (hand[1], hand[2], hand[3], hand[4], hand[5], hand[0])
        return hand
    cards: list[int] = []
    for _ in range(3):
        kind = "figure" if variant == "one_kind" else draw(st.sampled_from(("figure", "suit")))
        cards += draw(pair_cards(kind, avoid=frozenset(cards)))
    return tuple(cards)


@st.composite
def quoc_si_hands(draw: st.DrawFn, left_figures: frozenset[int] = DEFAULT_LEFT) -> Hand:
    """Six pairwise-unrelated cards, sometimes holding all five left- or right-facing figures."""
    right_figures = frozenset(range(1, 11)) - left_figures
    variant = draw(st.sampled_from(("any", "left", "right")))
    if variant == "any":
        figures = draw(distinct_values(ALL_FIGURES, 6))
    else:
        five = sorted(left_figures if variant == "left" else right_figures)
        sixth = draw(st.sampled_from([f for f in ALL_FIGURES if f not in five]))
        figures = tuple(draw(st.permutations([*five, sixth])))
    suits = draw(distinct_values(ALL_SUITS, 6))
    return tuple(card(f, s) for f, s in zip(figures, suits, strict=True))


random_hands = st.lists(st.integers(0, NUM_CARDS - 1), min_size=6, max_size=6, unique=True).map(
    tuple
)


def families(left_figures: frozenset[int] = DEFAULT_LEFT) -> dict[str, st.SearchStrategy[Hand]]:
    """The built hand families by name (each laid out in pattern order), plus random hands."""
    return {
        "two_phe": two_phe_hands(),
        "two_phu": two_phu_hands(),
        "phien_phien": phien_phien_hands(),
        "phe_honor": phe_honor_hands(),
        "honor_pairs": honor_pairs_hands(),
        "cung_pair": cung_pair_hands(),
        "cung_triple": cung_triple_hands(),
        "ngu": ngu_hands(left_figures),
        "luc": luc_hands(),
        "three_pairs": three_pair_hands(),
        "quoc_si": quoc_si_hands(left_figures),
        "random": random_hands,
    }


FAMILY_NAMES: tuple[str, ...] = tuple(families())


def pattern_hands(
    left_figures: frozenset[int] = DEFAULT_LEFT, family: str | None = None
) -> st.SearchStrategy[Hand]:
    """A hand of the named family, or of any family (laid out in pattern order)."""
    by_name = families(left_figures)
    if family is not None:
        return by_name[family].filter(distinct)
    return st.one_of(*by_name.values()).filter(distinct)


# ---------------------------------------------------------------- the table and flags


@st.composite
def table_conditions(draw: st.DrawFn, hand: Hand) -> Case:
    """The Chỉ Điểm (not in the hand), 0-4 revealed Ẩn Sĩ (distinct, not in the hand, not the
    Chỉ Điểm; sometimes all unrelated to the hand so the Quốc Sĩ family fires), and the flags
    locked / nhat_ban (never both) / dealer / self_drawn / last_card."""
    used = list(hand)
    unrelated_mode = draw(st.sampled_from(("random", "unrelated", "one_clash")))
    chi_diem = draw(_pick_card(used, unrelated=unrelated_mode != "random"))
    used.append(chi_diem)
    an_si: list[int] = []
    for i in range(draw(st.integers(0, 4))):
        unrelated = unrelated_mode == "unrelated" or (unrelated_mode == "one_clash" and i > 0)
        c = draw(_pick_card(used, unrelated=unrelated))
        used.append(c)
        an_si.append(c)
    mode = draw(st.sampled_from(("plain", "plain", "locked", "nhat_ban")))
    return {
        "chi_diem": chi_diem,
        "an_si": tuple(draw(st.permutations(an_si))),
        "locked": mode == "locked",
        "nhat_ban": mode == "nhat_ban",
        "dealer": draw(st.booleans()),
        "self_drawn": draw(st.booleans()),
        "last_card": draw(st.booleans()),
    }


@st.composite
def _pick_card(draw: st.DrawFn, used: Sequence[int], *, unrelated: bool) -> int:
    """A card not in ``used``; if asked and possible, unrelated to all of them."""
    free = [c for c in range(NUM_CARDS) if c not in used]
    if unrelated:
        clean = [c for c in free if not any(related(c, u) for u in used)]
        if clean:
            return draw(st.sampled_from(clean))
    return draw(st.sampled_from(free))


@st.composite
def scoring_cases(
    draw: st.DrawFn, left_figures: frozenset[int] = DEFAULT_LEFT, family: str | None = None
) -> Case:
    """Keyword arguments for ``score_hand`` / ``reference_score``: a built hand plus table
    conditions. For a Nhất Bản case the order is the built pattern order half of the time
    (so it often wins) and a random order otherwise; other cases get a random order."""
    hand = draw(pattern_hands(left_figures, family))
    case = draw(table_conditions(hand))
    cards = hand if case["nhat_ban"] and draw(st.booleans()) else tuple(draw(st.permutations(hand)))
    return {"cards": cards, **case}


@st.composite
def arrangement_cases(draw: st.DrawFn, left_figures: frozenset[int] = DEFAULT_LEFT) -> Case:
    """An arrangement (a built hand in its pattern order, or shuffled) with a Chỉ Điểm and
    revealed Ẩn Sĩ: the arguments of ``thes_of`` / ``is_completed``."""
    hand = draw(pattern_hands(left_figures))
    case = draw(table_conditions(hand))
    cards = hand if draw(st.booleans()) else tuple(draw(st.permutations(hand)))
    if draw(st.integers(0, 4)) == 0:  # no indicators at all (Ẩn Sĩ only come with a Chỉ Điểm)
        return {"arrangement": cards, "chi_diem": None, "an_si": ()}
    return {"arrangement": cards, "chi_diem": case["chi_diem"], "an_si": case["an_si"]}


# ---------------------------------------------------------------- numpy sampler


def random_cases(seed: int, n: int) -> list[Case]:
    """n seeded cases: half uniform random 6-card hands, half drawn from small pools
    (3-4 figures x 3-4 suits) so that wins are frequent, each with random table conditions
    (as ``table_conditions``). For Nhất Bản cases the cards are in a random order, or, half
    of the time, in a random completed order when one turns up."""
    rng = np.random.default_rng(seed)
    cases: list[Case] = []
    for i in range(n):
        if i % 2 == 0:
            hand = [int(c) for c in rng.choice(NUM_CARDS, size=6, replace=False)]
        else:
            figures = rng.choice(11, size=int(rng.integers(3, 5)), replace=False)
            suits = rng.choice(11, size=int(rng.integers(3, 5)), replace=False)
            pool = [card(int(f), int(s)) for f in figures for s in suits]
            hand = [int(c) for c in rng.choice(pool, size=6, replace=False)]
        cases.append(_random_conditions(rng, hand))
    return cases


def _random_conditions(rng: np.random.Generator, hand: list[int]) -> Case:
    used = list(hand)
    unrelated = bool(rng.random() < 0.4)

    def pick(clean_only: bool) -> int:
        """A card not in ``used``; if asked and possible, unrelated to all of them."""
        taken = set(used)
        free = [c for c in range(NUM_CARDS) if c not in taken]
        if clean_only:
            used_figures = {fig(u) for u in used}
            used_suits = {suit(u) for u in used}
            clean = [c for c in free if fig(c) not in used_figures and suit(c) not in used_suits]
            if clean:
                free = clean
        return free[int(rng.integers(len(free)))]

    chi_diem = pick(unrelated)
    used.append(chi_diem)
    an_si: list[int] = []
    for _ in range(int(rng.integers(0, 5))):
        c = pick(unrelated and rng.random() < 0.85)
        used.append(c)
        an_si.append(c)
    mode = rng.choice(["plain", "plain", "plain", "locked", "nhat_ban"])
    cards = tuple(int(c) for c in rng.permutation(hand))
    if mode == "nhat_ban" and rng.random() < 0.5:
        # a completed order, if one turns up among 240 random orders
        orders = list(permutations(cards))
        for i in rng.permutation(len(orders))[:240]:
            if reference_is_completed(orders[i]):
                cards = orders[i]
                break
    return {
        "cards": cards,
        "chi_diem": chi_diem,
        "an_si": tuple(an_si),
        "locked": mode == "locked",
        "nhat_ban": mode == "nhat_ban",
        "dealer": bool(rng.random() < 0.3),
        "self_drawn": bool(rng.random() < 0.3),
        "last_card": bool(rng.random() < 0.3),
    }
