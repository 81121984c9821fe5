"""Table-driven tests of the Thế, the points of a win and the payment (spec §3–§7).

Every hand below was built by hand from the binding spec (``rules-121.md``),
not by asking the code: each positive case is the spec's definition laid out
on positions a1…a6, each negative case is the same shape with one card (or
the order) changed so that the definition fails. ``best`` is the Thế the
spec says a normal win with these six cards reports (§3: most points, then
tier, minus the superseded, then the first listed), worked out by hand; the
comment next to a case names the other Thế the cards allow where that
matters.

The card notation is ``FIG/SU`` (see :mod:`env121.rules.cards`)::

    CRE GEN INS MER GEI DAN MON MUS NIN ASA PRI      figures 0..10
    KY  ED  FR  FB  FP  BR  BB  BP  LR  LB  LP       suits   0..10

Phe by suits: Liên minh FR FB FP / BR BB BP / LR LB LP; Đồng sắc FR BR LR /
FB BB LB / FP BP LP; Phân tranh e.g. FR BB LP, FB BP LR.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

import pytest

import env121
from env121 import (
    THE_BY_ID,
    THES,
    CardNotationError,
    HandScore,
    RuleConfig,
    den_payments,
    format_cards,
    parse_card,
    parse_cards,
    score_hand,
    thes_of,
    win_payments,
)

DEFAULT = RuleConfig()
LEFT_ODD = RuleConfig(left_figures=frozenset({1, 3, 5, 7, 9}))
"""[R-1] variant: GEN MER DAN MUS ASA look left, INS GEI MON NIN PRI look right."""
SAME_SUITS = RuleConfig(phe_phe_same_suits=True)
"""[R-2] variant: the three Phe – Phe Thế need suit(a_i) = suit(a_{i+3})."""
RULES_MD = Path(__file__).resolve().parents[2] / "RULES.md"


# ------------------------------------------------------------------ helpers


def fig(card_id: int) -> int:
    """Figure of a card id (spec §1: id = 11·figure + suit)."""
    return card_id // 11


def suit(card_id: int) -> int:
    """Suit of a card id (spec §1)."""
    return card_id % 11


def unrelated_card(cards: tuple[int, ...]) -> int:
    """The first card sharing neither figure nor suit with any of ``cards``.

    Used as the Chỉ Điểm when a case does not care about it: it adds no
    indicator points (§6) to a hand that is not a Quốc Sĩ.
    """
    figures, suits = {fig(c) for c in cards}, {suit(c) for c in cards}
    return next(c for c in range(121) if fig(c) not in figures and suit(c) not in suits)


@dataclass(frozen=True)
class Hand:
    """One arrangement a1…a6 and the table it is judged at."""

    the: str
    """The Thế id this case is about."""
    hand: str
    """The six cards, in the order a1…a6."""
    best: str | None = None
    """Positive cases: the Thế a normal win reports (spec §3); ``None`` = ``the``."""
    chi: str | None = None
    """The Chỉ Điểm; ``None`` = a card unrelated to the six (no indicator points)."""
    an_si: str = ""
    """The revealed Ẩn Sĩ."""
    config: RuleConfig = DEFAULT
    order_only: bool = False
    """Negative cases: only this order fails (another order of the cards may match)."""

    @property
    def cards(self) -> tuple[int, ...]:
        return parse_cards(self.hand)

    @property
    def chi_diem(self) -> int:
        return parse_card(self.chi) if self.chi else unrelated_card(self.cards)

    @property
    def revealed(self) -> tuple[int, ...]:
        return parse_cards(self.an_si)

    @property
    def reported(self) -> str:
        return self.best or self.the

    def table(self) -> dict[str, Any]:
        return {"chi_diem": self.chi_diem, "an_si": self.revealed, "config": self.config}

    def label(self) -> str:
        parts = [f"{self.the}: {self.hand}"]
        if self.chi:
            parts.append(f"CD {self.chi}")
        if self.an_si:
            parts.append(f"AS {self.an_si}")
        if self.config == LEFT_ODD:
            parts.append("left=GEN,MER,DAN,MUS,ASA")
        elif self.config == SAME_SUITS:
            parts.append("phe_phe_same_suits")
        elif self.config != DEFAULT:
            parts.append(repr(self.config))
        if self.order_only:
            parts.append("order")
        return " | ".join(parts)


def case(the: str, hand: str, **kw: Any) -> Any:
    """A ``pytest.param`` whose id is the case in card notation."""
    h = Hand(the, hand, **kw)
    return pytest.param(h, id=h.label())


# The plain Quốc Sĩ used by the whole family: figures CRE GEN INS MUS NIN ASA,
# suits KY ED FR BB LP BR — no five facing one way, and (KY, ED) stop it from
# being two Phe. Cards unrelated to it: figures MER GEI DAN MON PRI, suits FB
# FP BP LR LB.
QS = "CRE/KY GEN/ED INS/FR MUS/BB NIN/LP ASA/BR"
QS_CLEAN_CHI = "PRI/LR"  # unrelated to all six
QS_AN_SI = ("MER/FB", "GEI/FP", "DAN/BP", "MON/LB")  # unrelated to QS, PRI/LR and each other

# ----------------------------------------------------------- positive cases

POSITIVE = [
    # Special
    case("quoc_si", QS, chi="CRE/FR"),  # Chỉ Điểm related: no Thất Sĩ
    # Thế 1
    case("ba_doi", "GEN/FR GEN/BB INS/LP INS/KY MUS/ED MUS/BR"),  # figure pairs
    case("ba_doi", "GEN/FR INS/FR MER/BB MUS/BB NIN/KY ASA/KY"),  # suit pairs
    case("phe_phe_lien_minh", "GEN/FR GEN/FB INS/FP MUS/BR NIN/BB NIN/BP"),
    case("phe_phe_dong_sac", "GEN/FR GEN/BR INS/LR MUS/FB NIN/BB NIN/LB"),
    case("phe_phe_phan_tranh", "GEN/FR GEN/BB INS/LP MUS/FB NIN/BP NIN/LR"),
    # LM + DS with figures aligned; also ba_doi (superseded)
    case("phe_phe_ba_doi", "GEN/FR INS/FB MER/FP GEN/BR INS/LR MER/FR"),
    case("phe_co_do", "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY"),
    case("phe_co_do", "GEN/KY MUS/KY NIN/KY GEN/FR INS/FB MER/FP"),  # either order
    case("phe_giang_ho", "GEN/FR INS/FB MER/FP GEN/ED MUS/ED NIN/ED"),
    case("phe_giang_ho", "GEN/ED MUS/ED NIN/ED GEN/FR INS/FB MER/FP"),
    case("phu_phu", "GEN/FR GEN/FB GEN/BR INS/KY INS/ED INS/LP"),  # by figure
    case("phu_phu", "GEN/LR INS/LR MER/LR MUS/BB NIN/BB ASA/BB"),  # by suit
    case("cung_doi", "GEN/KY GEN/ED GEN/FR GEN/FB MUS/BR MUS/BB"),  # also ba_doi
    case("cung_doi", "GEN/LR INS/LR MER/LR MUS/LR NIN/KY ASA/KY"),  # by suit
    case("cung_phu", "GEN/LR INS/LR MER/LR MUS/LR MUS/KY MUS/ED"),
    # Thế 2
    case("phien_phien", "GEN/FR GEN/FB GEN/FP INS/BR INS/BB INS/BP"),
    case("phien_co_do", "GEN/FR GEN/FB GEN/FP INS/KY MER/KY MUS/KY"),
    case("phien_co_do", "INS/KY MER/KY MUS/KY GEN/FR GEN/FB GEN/FP"),
    case("phien_giang_ho", "GEN/FR GEN/FB GEN/FP INS/ED MER/ED MUS/ED"),
    case("phien_giang_ho", "INS/ED MER/ED MUS/ED GEN/FR GEN/FB GEN/FP"),
    # a Củng – Phiên is always a Củng – Đôi Phiên (Thế 3)
    case("cung_phien", "GEN/FR INS/FR MER/FR MUS/FR MUS/BR MUS/LR", best="cung_doi_phien"),
    case("cung_phien_doi_phu", "GEN/FR GEN/FB GEN/FP GEN/BR INS/BR MER/BR"),
    case("cung_doi_phe", "GEN/KY GEN/ED GEN/LP GEN/FR MUS/BR MUS/LR"),
    case("cung_phien_doi", "GEN/FR GEN/FB GEN/FP GEN/KY MUS/BR MUS/BB"),
    case("ngu_luan_doi", "GEN/FR INS/FR MER/FR MUS/FR NIN/FR NIN/BB"),
    case("phu_co_do_giang_ho", "GEN/KY INS/KY MER/KY MUS/ED NIN/ED ASA/ED"),
    case("phu_co_do_giang_ho", "MUS/ED NIN/ED ASA/ED GEN/KY INS/KY MER/KY"),
    # Thế 3
    case("cung_phien_phu_giang_ho", "GEN/FR GEN/FB GEN/FP GEN/ED INS/ED MER/ED"),
    case("cung_phien_phu_co_do", "GEN/FR GEN/FB GEN/FP GEN/KY INS/KY MER/KY"),
    case("cung_doi_hai_doi", "GEN/KY GEN/ED GEN/FR GEN/LP MUS/KY MUS/ED"),  # by figure
    case("cung_doi_hai_doi", "GEN/FR INS/FR MER/FR MUS/FR GEN/BB INS/BB"),  # by suit
    case("cung_doi_phien", "GEN/FR INS/FR MER/FR MUS/FR MUS/BR MUS/LR"),
    case("cung_phien_doi_phe", "GEN/FR GEN/FB GEN/FP GEN/BR MUS/FR MUS/LR"),  # LM head, DS tail
    case("ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB DAN/KY"),  # a6 any card
    case("ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB DAN/LR"),  # also ngu_luan_doi
    case("ngu_luan_phai", "MON/LP MUS/LP NIN/LP ASA/LP PRI/LP PRI/ED"),
    case("ngu_luan_danh_du", "CRE/KY GEN/KY INS/KY MER/KY GEI/KY GEI/ED"),
    case("ngu_luan_danh_du", "GEN/ED INS/ED MER/ED MUS/ED CRE/ED CRE/FR"),  # a6 a CREST
    # Thế 4
    case("cung_phien_doi_hai_doi", "GEN/FR GEN/FB GEN/FP GEN/BR MUS/FR MUS/BR"),
    case("cung_phien_doi_phe_lien_minh", "GEN/FR GEN/FB GEN/FP GEN/BR MUS/BB MUS/BP"),
    case("cung_phien_doi_phe_dong_sac", "GEN/FR GEN/BR GEN/LR GEN/FB MUS/BB MUS/LB"),
    case("cung_phien_doi_phe_phan_tranh", "GEN/FR GEN/BB GEN/LP GEN/FB MUS/BP MUS/LR"),
    case("quoc_si_trai", "GEN/KY INS/ED MER/FR GEI/BB DAN/LP MUS/BR", chi="CRE/FR"),
    case("quoc_si_phai", "MON/KY MUS/ED NIN/FR ASA/BB PRI/LP GEN/BR", chi="CRE/FR"),
    case("that_si", QS, chi=QS_CLEAN_CHI),
    # Thế 5
    case("ba_doi_ba_doi", "GEN/FR GEN/BB INS/BB INS/LP MER/LP MER/FR"),
    case("phu_phu_ba_doi", "GEN/FR INS/FR MER/FR GEN/BB INS/BB MER/BB"),
    case("luc_bo", "GEN/FR INS/FR MER/FR MUS/FR NIN/FR ASA/FR"),
    case("luc_bo", "GEN/KY GEN/ED GEN/FR GEN/FB GEN/FP GEN/BR"),  # by figure
    # sieu_ngu_luan_* supersede luc_bo (same cards are a Lục bộ)
    case("sieu_ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB CRE/BB"),
    case("sieu_ngu_luan_phai", "MON/LR MUS/LR NIN/LR ASA/LR PRI/LR CRE/LR"),
    case("bat_si", QS, chi=QS_CLEAN_CHI, an_si=" ".join(QS_AN_SI[:1])),
    # Thế 6
    case("phien_phien_ba_doi", "GEN/FR GEN/FB GEN/FP INS/FR INS/FB INS/FP"),
    case("phien_phien_luc_bo", "GEN/FR GEN/FB GEN/FP GEN/BR GEN/BB GEN/BP"),
    case("phe_co_do_ba_doi", "GEN/FR INS/FB MER/FP GEN/KY INS/KY MER/KY"),
    case("phe_co_do_ba_doi", "GEN/KY INS/KY MER/KY GEN/FR INS/FB MER/FP"),
    case("phe_giang_ho_ba_doi", "GEN/FR INS/FB MER/FP GEN/ED INS/ED MER/ED"),
    case("phe_giang_ho_ba_doi", "GEN/ED INS/ED MER/ED GEN/FR INS/FB MER/FP"),
    case("cuu_si", QS, chi=QS_CLEAN_CHI, an_si=" ".join(QS_AN_SI[:2])),
    # Thế 7. The same six cards are both "ba đôi" Thế 7; the first listed is reported.
    case("phu_co_do_giang_ho_ba_doi", "GEN/KY INS/KY MER/KY GEN/ED INS/ED MER/ED"),
    case("phu_co_do_giang_ho_ba_doi", "GEN/ED INS/ED MER/ED GEN/KY INS/KY MER/KY"),
    case(
        "ba_doi_phu_co_do_giang_ho",
        "GEN/KY GEN/ED INS/KY INS/ED MER/KY MER/ED",
        best="phu_co_do_giang_ho_ba_doi",
    ),
    case(
        "ba_doi_phu_co_do_giang_ho",
        "GEN/ED GEN/KY INS/ED INS/KY MER/ED MER/KY",
        best="phu_co_do_giang_ho_ba_doi",
    ),
    case("luc_bo_danh_du", "CRE/KY GEN/KY INS/KY MUS/KY NIN/KY ASA/KY"),
    case("luc_bo_danh_du", "CRE/KY CRE/ED CRE/FR CRE/FB CRE/FP CRE/BR"),
    case("thap_si", QS, chi=QS_CLEAN_CHI, an_si=" ".join(QS_AN_SI[:3])),
    # Thế 0
    case("quoc_si_vo_song", QS, chi=QS_CLEAN_CHI, an_si=" ".join(QS_AN_SI)),
    # a clashing Ẩn Sĩ is left out, the largest clean subset decides
    case("thap_si", QS, chi=QS_CLEAN_CHI, an_si="MER/FB GEI/FP DAN/BP MON/FR"),
    case("cuu_si", QS, chi=QS_CLEAN_CHI, an_si="MER/FB GEI/FP GEI/BP"),
    case("bat_si", QS, chi=QS_CLEAN_CHI, an_si="MER/FB MER/FP"),
    case("that_si", QS, chi=QS_CLEAN_CHI, an_si="MER/FR"),
    # variant: GEN MER DAN MUS ASA look left
    case("ngu_luan_trai", "GEN/BB MER/BB DAN/BB MUS/BB ASA/BB ASA/KY", config=LEFT_ODD),
    case("ngu_luan_phai", "INS/LR GEI/LR MON/LR NIN/LR PRI/LR PRI/KY", config=LEFT_ODD),
    case(
        "quoc_si_trai", "GEN/KY MER/ED DAN/FR MUS/BB ASA/LP CRE/BR", chi="CRE/FB", config=LEFT_ODD
    ),
    case("sieu_ngu_luan_trai", "GEN/BB MER/BB DAN/BB MUS/BB ASA/BB CRE/BB", config=LEFT_ODD),
    # variant: the literal "cùng chất"
    # These six cards are also three suit pairs (a_i, a_{i+3}): Ba Đôi, equal
    # points and tier, listed first and not superseded, is reported (§3).
    case(
        "phe_phe_lien_minh",
        "GEN/FR INS/FB MER/FP MUS/FR NIN/FB ASA/FP",
        config=SAME_SUITS,
        best="ba_doi",
    ),
    case(
        "phe_phe_dong_sac",
        "GEN/FR INS/BR MER/LR MUS/FR NIN/BR ASA/LR",
        config=SAME_SUITS,
        best="ba_doi",
    ),
    case(
        "phe_phe_phan_tranh",
        "GEN/FR INS/BB MER/LP MUS/FR NIN/BB ASA/LP",
        config=SAME_SUITS,
        best="ba_doi",
    ),
    # ... which the default reading accepts too
    case("phe_phe_lien_minh", "GEN/FR INS/FB MER/FP MUS/FR NIN/FB ASA/FP", best="ba_doi"),
]

# ----------------------------------------------------------- negative cases

NEGATIVE = [
    case("quoc_si", "CRE/KY GEN/ED INS/FR MUS/BB NIN/LP INS/BR"),  # two INS
    case("ba_doi", "GEN/FR GEN/BB INS/LP INS/KY MUS/BR NIN/BR"),  # 3rd pair by suit
    case("ba_doi", "GEN/FR GEN/BB INS/LP INS/KY MUS/ED NIN/BR"),  # 3rd pair broken
    case("phe_phe_lien_minh", "GEN/FR GEN/FB INS/FP MUS/BR NIN/BB NIN/LP"),  # BR BB LP
    case("phe_phe_dong_sac", "GEN/FR GEN/BR INS/LR MUS/FB NIN/BB NIN/LP"),  # FB BB LP
    case("phe_phe_phan_tranh", "GEN/FR GEN/BB INS/LP MUS/FB NIN/BP NIN/LB"),  # FB BP LB
    case("phe_phe_ba_doi", "GEN/FR INS/FB MER/FP INS/LR GEN/BR MER/FR", order_only=True),
    case("phe_phe_ba_doi", "GEN/FR INS/FB MER/FP GEN/BR INS/LR MUS/FR"),  # MUS for MER
    case("phe_co_do", "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/ED"),
    case("phe_giang_ho", "GEN/FR INS/FB MER/FP GEN/ED MUS/ED NIN/KY"),
    case("phu_phu", "GEN/FR GEN/FB GEN/BR INS/KY INS/ED MUS/LP"),
    case("phu_phu", "GEN/FR GEN/FB GEN/BR INS/KY MER/KY MUS/KY"),  # figure Phu + suit Phu
    case("cung_doi", "GEN/KY GEN/ED GEN/FR GEN/FB MUS/BR NIN/BR"),  # pair of the other kind
    case("cung_doi", "GEN/KY GEN/ED GEN/FR GEN/FB GEN/BR GEN/LP"),  # a Lục bộ
    case("cung_phu", "GEN/LR INS/LR MER/LR MUS/LR MUS/KY NIN/ED"),
    case("cung_phu", "MUS/LR GEN/LR INS/LR MER/LR MUS/KY MUS/ED", order_only=True),  # a4
    case("phien_phien", "GEN/FR GEN/FB GEN/FP INS/BR INS/BB INS/LP"),  # BR BB LP no Phe
    case("phien_phien", "GEN/FR GEN/FB GEN/FP GEN/BR GEN/BB GEN/BP"),  # same figure
    case("phien_co_do", "GEN/FR GEN/FB MER/FP INS/KY MER/KY MUS/KY"),  # a Phe, no Phiên
    case("phien_giang_ho", "GEN/FR GEN/FB MER/FP INS/ED MER/ED MUS/ED"),
    case("cung_phien", "GEN/FR INS/FR MER/FR MUS/FR MUS/BR MUS/LB"),  # FR BR LB no Phe
    case("cung_phien", "MUS/FR INS/FR MER/FR GEN/FR MUS/BR MUS/LR", order_only=True),  # a4
    case("cung_phien_doi_phu", "GEN/FR GEN/FB GEN/KY GEN/BR INS/BR MER/BR"),
    case("cung_doi_phe", "GEN/KY GEN/ED GEN/LP GEN/FR MUS/BR MUS/LB"),
    case("cung_phien_doi", "GEN/FR GEN/FB GEN/ED GEN/KY MUS/BR MUS/BB"),
    case("ngu_luan_doi", "GEN/FR INS/FR MER/FR MUS/FR NIN/FR NIN/KY"),  # a6 an honor card
    case("ngu_luan_doi", "GEN/FR INS/FR MER/FR MUS/FR NIN/FR ASA/FR"),  # a Lục bộ
    case("phu_co_do_giang_ho", "GEN/KY INS/KY MER/KY MUS/ED NIN/ED ASA/LP"),
    case("cung_phien_phu_giang_ho", "GEN/FR GEN/FB GEN/FP GEN/ED INS/ED MER/KY"),
    case("cung_phien_phu_co_do", "GEN/FR GEN/FB GEN/FP GEN/KY INS/KY MER/ED"),
    case("cung_doi_hai_doi", "GEN/KY GEN/ED GEN/FR GEN/LP MUS/KY MUS/BB"),  # MUS/BB pairs none
    case("cung_doi_phien", "GEN/FR INS/FR MER/FR MUS/FR MUS/BR MUS/LB"),
    case("cung_phien_doi_phe", "GEN/FR GEN/FB GEN/FP GEN/BR MUS/FR MUS/LB"),
    case("ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB MON/BB MON/KY"),  # MON looks right
    case("ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB MUS/KY"),  # a6 pairs with none
    case("ngu_luan_phai", "DAN/LP MUS/LP NIN/LP ASA/LP PRI/LP PRI/ED"),
    case("ngu_luan_danh_du", "CRE/KY GEN/KY INS/KY MER/KY GEI/KY GEI/FR"),  # a6 regular
    case("ngu_luan_danh_du", "CRE/KY GEN/KY INS/KY MER/KY GEI/KY DAN/KY"),  # same suit
    case("cung_phien_doi_hai_doi", "GEN/FR GEN/FB GEN/KY GEN/BR MUS/FR MUS/BR"),
    # LM Phiên with a DS tail Phe: Củng Phiên – Đôi Phe, but none of the typed ones
    case("cung_phien_doi_phe_lien_minh", "GEN/FR GEN/FB GEN/FP GEN/BR MUS/FR MUS/LR"),
    case("cung_phien_doi_phe_dong_sac", "GEN/FR GEN/BR GEN/LR GEN/FB MUS/BB MUS/LP"),
    case("cung_phien_doi_phe_dong_sac", "GEN/FR GEN/FB GEN/FP GEN/BR MUS/FR MUS/LR"),
    case("cung_phien_doi_phe_phan_tranh", "GEN/FR GEN/BB GEN/LP GEN/FB MUS/BP MUS/LB"),
    case("cung_phien_doi_phe_phan_tranh", "GEN/FR GEN/FB GEN/FP GEN/BR MUS/FR MUS/LR"),
    case("quoc_si_trai", "GEN/KY INS/ED MER/FR GEI/BB MON/LP MUS/BR", chi="CRE/FR"),
    case("quoc_si_phai", "MON/KY MUS/ED NIN/FR ASA/BB CRE/LP GEN/BR", chi="CRE/FR"),
    case("that_si", QS, chi="PRI/FR"),  # Chỉ Điểm shares FR
    case("that_si", QS, chi="ASA/LR"),  # Chỉ Điểm shares ASA
    case("bat_si", QS, chi=QS_CLEAN_CHI, an_si="MER/FR"),  # the Ẩn Sĩ shares FR
    case("bat_si", QS, chi="PRI/FR", an_si="MER/FB"),  # the Chỉ Điểm clashes
    case("cuu_si", QS, chi=QS_CLEAN_CHI, an_si="MER/FB GEI/FB"),  # the Ẩn Sĩ clash
    case("thap_si", QS, chi=QS_CLEAN_CHI, an_si="MER/FB GEI/FP DAN/FP"),
    case("quoc_si_vo_song", QS, chi=QS_CLEAN_CHI, an_si="MER/FB GEI/FP DAN/BP MON/FR"),
    case("quoc_si_vo_song", QS, chi=QS_CLEAN_CHI, an_si="MER/FB GEI/FP DAN/BP"),  # only 3
    case("ba_doi_ba_doi", "GEN/FR GEN/BB INS/BB INS/LP MER/LP MER/FB"),
    case("phu_phu_ba_doi", "GEN/FR INS/FR MER/FR INS/BB GEN/BB MER/BB", order_only=True),
    case("phu_phu_ba_doi", "GEN/FR INS/FR MER/FR GEN/BB INS/BB MUS/BB"),
    case("luc_bo", "GEN/FR INS/FR MER/FR MUS/FR NIN/FR ASA/FB"),
    case("sieu_ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB CRE/BR"),  # other suit
    case("sieu_ngu_luan_trai", "CRE/BB GEN/BB INS/BB MER/BB GEI/BB DAN/BB", order_only=True),
    case("sieu_ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB PRI/BB"),  # not the CREST
    case("sieu_ngu_luan_phai", "MON/LR MUS/LR NIN/LR ASA/LR PRI/LR CRE/LB"),
    case("phien_phien_ba_doi", "GEN/FR GEN/FB GEN/FP INS/FB INS/FR INS/FP", order_only=True),
    case("phien_phien_ba_doi", "GEN/FR GEN/FB GEN/FP INS/BR INS/BB INS/BP"),
    case("phien_phien_luc_bo", "GEN/FR GEN/FB GEN/FP INS/BR INS/BB INS/BP"),
    case("phe_co_do_ba_doi", "GEN/FR INS/FB MER/FP INS/KY GEN/KY MER/KY", order_only=True),
    case("phe_co_do_ba_doi", "GEN/FR INS/FB MER/FP GEN/KY INS/KY MUS/KY"),
    case("phe_giang_ho_ba_doi", "GEN/FR INS/FB MER/FP INS/ED GEN/ED MER/ED", order_only=True),
    case("phe_giang_ho_ba_doi", "GEN/FR INS/FB MER/FP GEN/ED INS/ED MUS/ED"),
    case(
        "phu_co_do_giang_ho_ba_doi",
        "GEN/KY INS/KY MER/KY INS/ED GEN/ED MER/ED",
        order_only=True,
    ),
    case("phu_co_do_giang_ho_ba_doi", "GEN/KY INS/KY MER/KY GEN/ED INS/ED MUS/ED"),
    # Kyoto first in two pairs, second in the third
    case(
        "ba_doi_phu_co_do_giang_ho",
        "GEN/KY GEN/ED INS/ED INS/KY MER/KY MER/ED",
        order_only=True,
    ),
    case("ba_doi_phu_co_do_giang_ho", "GEN/KY GEN/ED INS/KY INS/ED MER/KY MER/FR"),
    case("luc_bo_danh_du", "GEN/KY GEN/ED GEN/FR GEN/FB GEN/FP GEN/BR"),  # not all honor
    case("luc_bo_danh_du", "CRE/KY GEN/KY INS/KY MUS/KY NIN/KY ASA/FR"),
    # under the variant the default left/right hands no longer face one way ...
    case("ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB DAN/KY", config=LEFT_ODD),
    case(
        "quoc_si_trai", "GEN/KY INS/ED MER/FR GEI/BB DAN/LP MUS/BR", chi="CRE/FR", config=LEFT_ODD
    ),
    case("sieu_ngu_luan_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB CRE/BB", config=LEFT_ODD),
    # ... and the variant's hands do not under the default
    case("ngu_luan_trai", "GEN/BB MER/BB DAN/BB MUS/BB ASA/BB ASA/KY"),
    case("ngu_luan_phai", "GEN/BB MER/BB DAN/BB MUS/BB ASA/BB ASA/KY"),
    case("quoc_si_trai", "GEN/KY MER/ED DAN/FR MUS/BB ASA/LP CRE/BR", chi="CRE/FB"),
    # variant: two Phe of the named type but other suits
    case("phe_phe_lien_minh", "GEN/FR GEN/FB INS/FP MUS/BR NIN/BB NIN/BP", config=SAME_SUITS),
    case("phe_phe_dong_sac", "GEN/FR GEN/BR INS/LR MUS/FB NIN/BB NIN/LB", config=SAME_SUITS),
    case("phe_phe_phan_tranh", "GEN/FR GEN/BB INS/LP MUS/FB NIN/BP NIN/LR", config=SAME_SUITS),
    # variant, same suits but not position by position
    case(
        "phe_phe_lien_minh",
        "GEN/FR INS/FB MER/FP MUS/FB NIN/FR ASA/FP",
        config=SAME_SUITS,
        order_only=True,
    ),
]


def _ids(params: list[Any]) -> set[str]:
    return {p.values[0].the for p in params}


def test_every_the_has_a_positive_and_a_negative_case() -> None:
    every = {t.id for t in THES}
    assert every - _ids(POSITIVE) == set(), "Thế without a positive case"
    assert every - _ids(NEGATIVE) == set(), "Thế without a negative case"
    assert _ids(POSITIVE) | _ids(NEGATIVE) <= every, "case for an unknown Thế id"


def _check_score(h: Hand, score: HandScore | None) -> HandScore:
    assert score is not None, f"{h.hand}: not a win, expected {h.reported}"
    assert score.the == h.reported, f"{h.hand}: reported {score}, expected {h.reported}"
    assert score.tier == THE_BY_ID[h.reported].tier
    assert score.tier >= THE_BY_ID[h.the].tier
    assert score.points == score.tier + len(score.bonuses) + score.indicator_points
    assert sorted(score.arrangement) == sorted(h.cards)
    assert score.the in thes_of(score.arrangement, **h.table()), "arrangement is no witness"
    return score


@pytest.mark.parametrize("h", POSITIVE)
def test_positive(h: Hand) -> None:
    assert h.the in thes_of(h.cards, **h.table())
    score = _check_score(h, score_hand(h.cards, **h.table()))
    if h.chi is None and not h.an_si:
        assert score.indicator_points == 0  # the Chỉ Điểm shares nothing with the hand


@pytest.mark.parametrize("h", NEGATIVE)
def test_negative(h: Hand) -> None:
    assert h.the not in thes_of(h.cards, **h.table())
    if not h.order_only:
        # a near miss by one card: no order of these six cards is this Thế
        for order in permutations(h.cards):
            assert h.the not in thes_of(order, **h.table()), format_cards(order)
        score = score_hand(h.cards, **h.table())
        assert score is None or score.the != h.the


# ---------------------------------------------------- Quốc Sĩ family details


def test_quoc_si_family_is_cumulative() -> None:
    found = thes_of(
        parse_cards(QS), chi_diem=parse_card(QS_CLEAN_CHI), an_si=parse_cards(" ".join(QS_AN_SI))
    )
    family = {"quoc_si", "that_si", "bat_si", "cuu_si", "thap_si", "quoc_si_vo_song"}
    assert family <= found


@pytest.mark.parametrize(
    ("an_si", "best", "indicator_points"),
    [
        pytest.param("", "that_si", 0, id="no an_si"),
        pytest.param("MER/FB", "bat_si", 0, id="MER/FB"),
        pytest.param("MER/FB GEI/FP", "cuu_si", 0, id="MER/FB GEI/FP"),
        pytest.param("MER/FB GEI/FP DAN/BP", "thap_si", 0, id="MER/FB GEI/FP DAN/BP"),
        pytest.param("MER/FB GEI/FP DAN/BP MON/LB", "quoc_si_vo_song", 0, id="all four"),
        # MON/FR shares FR with INS/FR: left out, but still +1 for its suit
        pytest.param("MER/FB GEI/FP DAN/BP MON/FR", "thap_si", 1, id="MON/FR clashes"),
        # MER/FR shares FR (+1 suit), ASA/FP shares ASA (+1 figure): both left out
        pytest.param("MER/FR ASA/FP", "that_si", 2, id="MER/FR ASA/FP clash"),
        # GEI/FP and GEI/BP clash with each other: one of them stays
        pytest.param("MER/FB GEI/FP GEI/BP", "cuu_si", 0, id="GEI/FP GEI/BP clash"),
    ],
)
def test_quoc_si_family_with_an_si(an_si: str, best: str, indicator_points: int) -> None:
    score = score_hand(parse_cards(QS), chi_diem=parse_card(QS_CLEAN_CHI), an_si=parse_cards(an_si))
    assert score is not None
    assert score.the == best
    assert score.indicator_points == indicator_points
    assert score.points == THE_BY_ID[best].tier + indicator_points  # no Thưởng on QS


def test_quoc_si_vo_song_counts_tier_10() -> None:
    score = score_hand(
        parse_cards(QS), chi_diem=parse_card(QS_CLEAN_CHI), an_si=parse_cards(" ".join(QS_AN_SI))
    )
    assert score is not None
    assert (score.the, score.tier, score.points) == ("quoc_si_vo_song", 10, 10)
    assert THE_BY_ID["quoc_si_vo_song"].tier == 10
    assert max(t.tier for t in THES if t.id != "quoc_si_vo_song") < 10
    assert win_payments(score.points, 0, DEFAULT) == (1000, -300, -400, -300)


# Six pairwise unrelated cards that are also two Liên minh Phe (Flower, Butterfly).
QS_PHE = "GEN/FR INS/FB MER/FP MUS/BR NIN/BB ASA/BP"


@pytest.mark.parametrize(
    ("chi", "locked", "best", "points"),
    [
        # Chỉ Điểm related (figure GEN): Quốc Sĩ 1 + 0, Phe – Phe 1 + 1 indicator
        pytest.param("GEN/LR", False, "phe_phe_lien_minh", 1 + 1 + 1, id="CD GEN/LR"),
        # Chỉ Điểm unrelated: Thất Sĩ
        pytest.param("PRI/LR", False, "that_si", 4 + 1, id="CD PRI/LR"),
        # Bội ước: no Quốc Sĩ family, no indicators; it still wins as Phe – Phe
        pytest.param("GEN/LR", True, "phe_phe_lien_minh", 1 + 1, id="CD GEN/LR locked"),
        pytest.param("PRI/LR", True, "phe_phe_lien_minh", 1 + 1, id="CD PRI/LR locked"),
    ],
)
def test_quoc_si_that_is_two_phe(chi: str, locked: bool, best: str, points: int) -> None:
    cards = parse_cards(QS_PHE)
    assert {"quoc_si", "phe_phe_lien_minh"} <= thes_of(cards, chi_diem=parse_card(chi))
    score = score_hand(cards, chi_diem=parse_card(chi), locked=locked)
    assert score is not None
    assert score.the == best
    assert score.bonuses == {"toan_quan_thuong"}
    assert score.points == points


@pytest.mark.parametrize(
    ("hand", "chi", "an_si"),
    [
        pytest.param(QS, "CRE/FR", "", id=QS),
        pytest.param(QS, QS_CLEAN_CHI, " ".join(QS_AN_SI), id=f"{QS} vô song"),
        pytest.param(
            "GEN/KY INS/ED MER/FR GEI/BB DAN/LP MUS/BR", "CRE/FR", "", id="quoc_si_trai hand"
        ),
    ],
)
def test_locked_forbids_the_quoc_si_family(hand: str, chi: str, an_si: str) -> None:
    cards = parse_cards(hand)
    assert score_hand(cards, chi_diem=parse_card(chi), an_si=parse_cards(an_si)) is not None
    locked = score_hand(cards, chi_diem=parse_card(chi), an_si=parse_cards(an_si), locked=True)
    assert locked is None


# -------------------------------------------------- and supersedes


def _cung_phien_arrangements() -> Iterator[tuple[int, ...]]:
    """Every Củng – Phiên built from the spec: a Củng by suit S whose 4th card
    (figure F) starts a Phiên F over suits S, s5, s6; and a Củng by figure F
    whose 4th card starts a Phiên F (a Lục bộ)."""
    regular = range(2, 11)
    for s in regular:
        for s5, s6 in permutations(regular, 2):
            if not _is_phe_suits(s, s5, s6):
                continue
            for f in range(11):
                others = [g for g in range(11) if g != f][:3]
                yield (*(11 * g + s for g in others), 11 * f + s, 11 * f + s5, 11 * f + s6)
                head = [t for t in range(11) if t not in (s, s5, s6)][:3]
                yield (*(11 * f + t for t in head), 11 * f + s, 11 * f + s5, 11 * f + s6)


def _is_phe_suits(*suits: int) -> bool:
    """Spec §2, on three regular suits: clan = (s-2)//3, color = (s-2)%3."""
    clans = {(s - 2) // 3 for s in suits}
    colors = {(s - 2) % 3 for s in suits}
    return (len(clans), len(colors)) in {(1, 3), (3, 1), (3, 3)}


def test_every_cung_phien_is_a_cung_doi_phien() -> None:
    """[R-3]: phien(a4,a5,a6) makes fig(a5) = fig(a6), so pair(a5,a6) holds
    and the Thế 3 reading applies to every Củng – Phiên."""
    arrangements = list(_cung_phien_arrangements())
    # each regular suit is in 4 Phe (1 LM, 1 DS, 2 PT): 8 ordered (s5, s6)
    assert len(arrangements) == 9 * 8 * 11 * 2
    for a in arrangements:
        found = thes_of(a)
        assert {"cung_phien", "cung_doi_phien"} <= found, format_cards(a)
        score = score_hand(a, chi_diem=unrelated_card(a))
        assert score is not None
        assert score.the != "cung_phien"
        assert score.tier >= THE_BY_ID["cung_doi_phien"].tier, format_cards(a)


def test_supersedes_is_registry_data() -> None:
    assert "ba_doi" in THE_BY_ID["cung_doi"].supersedes
    assert "ba_doi" in THE_BY_ID["phe_phe_ba_doi"].supersedes
    assert "luc_bo" in THE_BY_ID["sieu_ngu_luan_trai"].supersedes
    assert "luc_bo" in THE_BY_ID["sieu_ngu_luan_phai"].supersedes
    for t in THES:
        for other in t.supersedes:
            assert THE_BY_ID[other].tier == t.tier, (t.id, other)


@pytest.mark.parametrize(
    ("hand", "also", "best"),
    [
        # the same order is three figure pairs and a Củng + pair
        pytest.param(
            "GEN/KY GEN/ED GEN/FR GEN/FB MUS/BR MUS/BB", "ba_doi", "cung_doi", id="cung_doi"
        ),
        pytest.param(
            "GEN/FR GEN/BR INS/FB INS/LR MER/FP MER/FR", "ba_doi", "phe_phe_ba_doi", id="phe_phe"
        ),
        pytest.param(
            "GEN/BB INS/BB MER/BB GEI/BB DAN/BB CRE/BB", "luc_bo", "sieu_ngu_luan_trai", id="sieu"
        ),
        pytest.param(
            "MON/LR MUS/LR NIN/LR ASA/LR PRI/LR CRE/LR", "luc_bo", "sieu_ngu_luan_phai", id="phai"
        ),
    ],
)
def test_supersedes_decides_equal_thes(hand: str, also: str, best: str) -> None:
    cards = parse_cards(hand)
    assert also in thes_of(cards)
    score = score_hand(cards, chi_diem=unrelated_card(cards))
    assert score is not None
    assert score.the == best
    assert THE_BY_ID[also].tier == THE_BY_ID[best].tier


def test_same_type_phe_phe_ba_doi_reports_the_typed_phe_phe() -> None:
    """Spec §3 taken literally: Phe – Phe ba đôi supersedes only Ba Đôi, so
    two Phân tranh Phe with aligned figures report Phe – Phe phân tranh (listed
    first), not Phe – Phe ba đôi."""
    cards = parse_cards("GEN/FR INS/BB MER/LP GEN/FB INS/BP MER/LR")
    assert {"phe_phe_phan_tranh", "phe_phe_ba_doi"} <= thes_of(cards)
    score = score_hand(cards, chi_diem=unrelated_card(cards))
    assert score is not None
    assert score.the == "phe_phe_phan_tranh"


def test_thes_of_without_chi_diem_has_no_that_si() -> None:
    found = thes_of(parse_cards(QS))
    assert "quoc_si" in found
    assert not found & {t.id for t in THES if t.needs_chi_diem}


def test_score_hand_without_chi_diem_counts_no_indicator() -> None:
    cards = parse_cards("GEN/FR GEN/BB GEN/LP ASA/FR ASA/BB ASA/LP")
    unknown = score_hand(cards, chi_diem=None)
    known = score_hand(cards, chi_diem=parse_card("ASA/KY"))
    assert unknown is not None and known is not None
    assert (unknown.the, unknown.indicator_points) == (known.the, 0)
    assert known.indicator_points == 1 and known.points == unknown.points + 1
    quoc_si = score_hand(parse_cards(QS), chi_diem=None)
    assert quoc_si is not None and quoc_si.the == "quoc_si"
    with pytest.raises(ValueError, match="without chi_diem"):
        score_hand(cards, chi_diem=None, an_si=parse_cards("CRE/FR"))


# ------------------------------------------------------ Thưởng (spec §6)

THUONG_CASES = [
    # (bonus, hand, situation flags, config, present)
    ("toan_quan_thuong", "GEN/FR INS/FR MER/FR MUS/FR NIN/FR ASA/FR", {}, DEFAULT, True),
    ("toan_quan_thuong", "GEN/FR INS/FR MER/FR MUS/FR NIN/FR CRE/FR", {}, DEFAULT, False),
    ("toan_quan_danh_du", "GEN/KY INS/KY MER/KY MUS/ED NIN/ED ASA/ED", {}, DEFAULT, True),
    ("toan_quan_danh_du", "CRE/KY CRE/ED CRE/FR CRE/FB CRE/FP CRE/BR", {}, DEFAULT, True),
    ("toan_quan_danh_du", "GEN/KY INS/KY MER/KY MUS/KY NIN/KY NIN/LP", {}, DEFAULT, False),
    ("cung_mot_mau", "GEN/FR GEN/BR INS/LR MUS/FR NIN/BR NIN/LR", {}, DEFAULT, True),
    # a CREST of a regular suit counts with its suit's color and clan
    ("cung_mot_mau", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB CRE/BB", {}, DEFAULT, True),
    ("cung_mot_mau", "GEN/FR GEN/FB INS/FP MUS/BR NIN/BB NIN/BP", {}, DEFAULT, False),
    ("cung_mot_mau", "GEN/KY GEN/ED GEN/FR GEN/FB GEN/FP GEN/BR", {}, DEFAULT, False),
    ("cung_gia_huy", "GEN/FR INS/FR MER/FR MUS/FR NIN/FR ASA/FR", {}, DEFAULT, True),
    ("cung_gia_huy", "GEN/FR GEN/FB GEN/FP INS/FR INS/FB INS/FP", {}, DEFAULT, True),
    ("cung_gia_huy", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB CRE/BB", {}, DEFAULT, True),
    ("cung_gia_huy", "GEN/FR GEN/FB GEN/FP INS/BR INS/BB INS/BP", {}, DEFAULT, False),
    ("cung_nhin_phai", "MON/LP MUS/LP NIN/LP ASA/LP PRI/LP PRI/ED", {}, DEFAULT, True),
    ("cung_nhin_phai", "MON/LR MUS/LR NIN/LR ASA/LR PRI/LR CRE/LR", {}, DEFAULT, False),
    ("cung_nhin_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB DAN/KY", {}, DEFAULT, True),
    ("cung_nhin_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB CRE/BB", {}, DEFAULT, False),
    # variant changes Cùng nhìn trái
    ("cung_nhin_trai", "GEN/BB MER/BB DAN/BB MUS/BB ASA/BB ASA/LR", {}, LEFT_ODD, True),
    ("cung_nhin_trai", "GEN/BB MER/BB DAN/BB MUS/BB ASA/BB ASA/LR", {}, DEFAULT, False),
    ("cung_nhin_trai", "GEN/BB INS/BB MER/BB GEI/BB DAN/BB DAN/LR", {}, LEFT_ODD, False),
    ("cung_nhin_phai", "INS/LR GEI/LR MON/LR NIN/LR PRI/LR PRI/KY", {}, LEFT_ODD, True),
    ("thang_cai", "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY", {"dealer": True}, DEFAULT, True),
    ("thang_cai", "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY", {}, DEFAULT, False),
    ("tu_than", "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY", {"self_drawn": True}, DEFAULT, True),
    ("tu_than", "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY", {"dealer": True}, DEFAULT, False),
    ("ket_chung", "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY", {"last_card": True}, DEFAULT, True),
    ("ket_chung", "GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY", {}, DEFAULT, False),
]


def _thuong_id(bonus: str, hand: str, flags: dict[str, Any], config: RuleConfig, ok: bool) -> str:
    extra = " ".join(sorted(flags)) + (" left=odd" if config == LEFT_ODD else "")
    return f"{bonus}{'' if ok else ' NOT'}: {hand}{' | ' + extra if extra.strip() else ''}"


@pytest.mark.parametrize(
    ("bonus", "hand", "flags", "config", "present"),
    [pytest.param(*c, id=_thuong_id(*c)) for c in THUONG_CASES],
)
def test_thuong(
    bonus: str, hand: str, flags: dict[str, Any], config: RuleConfig, present: bool
) -> None:
    cards = parse_cards(hand)
    score = score_hand(cards, chi_diem=unrelated_card(cards), config=config, **flags)
    assert score is not None, f"{hand} is meant to be a win"
    assert (bonus in score.bonuses) == present, str(score)
    assert score.points == score.tier + len(score.bonuses) + score.indicator_points


def test_every_thuong_is_tested() -> None:
    from env121.rules.bonuses import THUONGS

    ids = {t.id for t in THUONGS}
    assert {c[0] for c in THUONG_CASES if c[4]} == ids
    assert {c[0] for c in THUONG_CASES if not c[4]} == ids


def test_all_bonuses_add_up() -> None:
    # Lục bộ of Hoa đỏ: all regular, one color, one clan; dealer, own flip, last card.
    cards = parse_cards("GEN/FR INS/FR MER/FR MUS/FR NIN/FR ASA/FR")
    score = score_hand(
        cards, chi_diem=unrelated_card(cards), dealer=True, self_drawn=True, last_card=True
    )
    assert score is not None
    assert score.bonuses == {
        "toan_quan_thuong",
        "cung_mot_mau",
        "cung_gia_huy",
        "thang_cai",
        "tu_than",
        "ket_chung",
    }
    assert score.points == 5 + 6


def test_bonuses_alone_make_no_win() -> None:
    # All regular (Toàn quân thường), dealer, last card... but no completed hand:
    # "Thưởng không đủ tạo nên Thế"
    cards = parse_cards("GEN/FR INS/FR MER/FR MUS/FR NIN/FR ASA/LR")
    assert score_hand(cards, chi_diem=parse_card("GEN/LB"), dealer=True, last_card=True) is None


# ------------------------------------------------------ indicators (spec §6)

PHU_PHU = "GEN/FR GEN/FB GEN/BR INS/KY INS/ED INS/LP"
"""Phu – Phu by figure (1 Điểm); GEN and INS look left: Cùng nhìn trái (+1)."""


@pytest.mark.parametrize(
    ("chi", "an_si", "points"),
    [
        pytest.param("MUS/LR", "", 0, id="CD MUS/LR shares nothing"),
        pytest.param("INS/LB", "", 1, id="CD INS/LB figure of three cards: +1"),
        pytest.param("PRI/FR", "", 1, id="CD PRI/FR suit: +1"),
        pytest.param("INS/FR", "", 2, id="CD INS/FR figure and suit: +2"),
        pytest.param("MUS/LR", "GEN/LP", 2, id="AS GEN/LP: +2"),
        pytest.param("INS/FR", "GEN/LP PRI/BR MUS/LB", 2 + 2 + 1 + 0, id="CD + 3 AS"),
    ],
)
def test_indicator_points(chi: str, an_si: str, points: int) -> None:
    cards = parse_cards(PHU_PHU)
    score = score_hand(cards, chi_diem=parse_card(chi), an_si=parse_cards(an_si))
    assert score is not None
    assert score.the == "phu_phu"
    assert score.bonuses == {"cung_nhin_trai"}
    assert score.indicator_points == points
    assert score.points == 1 + 1 + points


def test_no_indicators_when_locked() -> None:
    cards = parse_cards(PHU_PHU)
    kw: dict[str, Any] = {"chi_diem": parse_card("INS/FR"), "an_si": parse_cards("GEN/LP")}
    free = score_hand(cards, **kw)
    assert free is not None
    assert free.points == 1 + 1 + 4
    locked = score_hand(cards, locked=True, **kw)
    assert locked is not None
    assert (locked.the, locked.indicator_points, locked.points) == ("phu_phu", 0, 1 + 1)


def test_no_indicators_for_plain_quoc_si_but_yes_for_quoc_si_trai() -> None:
    plain = score_hand(parse_cards(QS), chi_diem=parse_card("CRE/FR"))
    assert plain is not None
    assert (plain.the, plain.indicator_points, plain.points) == ("quoc_si", 0, 1)
    # Chỉ Điểm MUS/LB shares the figure MUS: +1
    trai = score_hand(
        parse_cards("GEN/KY INS/ED MER/FR GEI/BB DAN/LP MUS/BR"), chi_diem=parse_card("MUS/LB")
    )
    assert trai is not None
    assert (trai.the, trai.indicator_points, trai.points) == ("quoc_si_trai", 1, 5)


# --------------------------------------------------------- Nhất Bản (§5.6)

# A Phu of GEN then a Liên minh Phe: a completed hand (shape 1) with no Thế in
# any order.
NO_THE = "GEN/KY GEN/ED GEN/LB MUS/FR NIN/FB ASA/FP"


def test_completed_hand_without_the() -> None:
    cards = parse_cards(NO_THE)
    assert env121.is_completed(cards)
    assert thes_of(cards) == frozenset()
    assert score_hand(cards, chi_diem=parse_card("GEN/LR")) is None  # a normal win needs a Thế
    score = score_hand(cards, chi_diem=parse_card("GEN/LR"), nhat_ban=True)
    assert score is not None
    assert (score.the, score.tier, score.indicator_points) == (None, 0, 0)
    assert score.bonuses == {"nhat_ban"}
    assert score.points == 1
    assert score.arrangement == cards


def test_nhat_ban_on_the_last_card() -> None:
    cards = parse_cards(NO_THE)
    # Chỉ Điểm GEN/FR would be +2 in a normal win; Ẩn Sĩ MUS/KY +2 more
    score = score_hand(
        cards,
        chi_diem=parse_card("GEN/FR"),
        an_si=parse_cards("MUS/KY"),
        nhat_ban=True,
        last_card=True,
        dealer=True,
    )
    assert score is not None
    assert score.bonuses == {"nhat_ban", "ket_chung", "thang_cai"}
    assert (score.the, score.indicator_points, score.points) == (None, 0, 3)


def test_nhat_ban_scores_only_the_fixed_order() -> None:
    # Pairs laid Kyoto-first: Ba đôi – Phu Cố Đô – Giang Hộ; the same cards as
    # two Phu would report Phu Cố Đô – Giang Hộ – Ba đôi in a normal win.
    cards = parse_cards("GEN/KY GEN/ED INS/KY INS/ED MER/KY MER/ED")
    chi = parse_card("GEN/FR")
    normal = score_hand(cards, chi_diem=chi)
    assert normal is not None
    assert (normal.the, normal.indicator_points) == ("phu_co_do_giang_ho_ba_doi", 1)
    fixed = score_hand(cards, chi_diem=chi, nhat_ban=True)
    assert fixed is not None
    assert (fixed.the, fixed.tier, fixed.indicator_points) == ("ba_doi_phu_co_do_giang_ho", 7, 0)
    # GEN INS MER all look left: Cùng nhìn trái
    assert fixed.bonuses == {"toan_quan_danh_du", "cung_nhin_trai", "nhat_ban"}
    assert fixed.points == 7 + 3
    assert fixed.arrangement == cards


def test_nhat_ban_with_a_the_counts_no_indicators() -> None:
    cards = parse_cards("GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY")  # Phe – Cố Đô
    score = score_hand(cards, chi_diem=parse_card("GEN/LR"), nhat_ban=True)
    assert score is not None
    assert (score.the, score.indicator_points, score.points) == ("phe_co_do", 0, 2)


def test_nhat_ban_not_completed_is_no_win() -> None:
    # A Phu – Phu (GEN, INS) laid out of order: not a completed hand as laid
    cards = parse_cards("GEN/FR INS/KY GEN/FB INS/ED GEN/BR INS/LP")
    assert not env121.is_completed(cards)
    assert score_hand(cards, chi_diem=parse_card("PRI/LR"), nhat_ban=True) is None
    normal = score_hand(cards, chi_diem=parse_card("PRI/LR"))
    assert normal is not None
    assert normal.the == "phu_phu"


def test_nhat_ban_quoc_si_family_is_allowed() -> None:
    # Under Nhất Bản the Chỉ Điểm still makes a Thất Sĩ; only its points are dropped
    score = score_hand(parse_cards(QS), chi_diem=parse_card(QS_CLEAN_CHI), nhat_ban=True)
    assert score is not None
    assert (score.the, score.indicator_points, score.points) == ("that_si", 0, 4 + 1)
    plain = score_hand(parse_cards(QS), chi_diem=parse_card("CRE/FR"), nhat_ban=True)
    assert plain is not None
    assert (plain.the, plain.points) == ("quoc_si", 1 + 1)


# One arrangement per completed-hand shape of spec §3 that has no Thế as laid
# out: under Nhất Bản each wins with the=None, tier 0.
NO_THE_SHAPES = [
    pytest.param("GEN/KY GEN/ED GEN/LB MUS/FR NIN/FB ASA/FP", id="1 Phu + Phe: " + NO_THE),
    pytest.param("GEN/FR GEN/BB INS/LP INS/KY MUS/BR NIN/BR", id="2 pairs of mixed kinds"),
    pytest.param("GEN/KY GEN/ED GEN/FR GEN/FB MUS/BR NIN/BR", id="3 Cung + pair of other kind"),
    pytest.param("GEN/KY GEN/ED GEN/LP GEN/FR MUS/BR NIN/LR", id="4 Cung + Phe on a4, no pair"),
    pytest.param("GEN/FR INS/FR MER/FR MUS/FR NIN/FR NIN/KY", id="5 Ngu + honor a6"),
]


@pytest.mark.parametrize("hand", NO_THE_SHAPES)
def test_completed_shapes_without_the_win_only_under_nhat_ban(hand: str) -> None:
    cards = parse_cards(hand)
    chi = unrelated_card(cards)
    assert env121.is_completed(cards)
    assert thes_of(cards, chi_diem=chi) == frozenset()
    score = score_hand(cards, chi_diem=chi, nhat_ban=True)
    assert score is not None
    assert (score.the, score.tier) == (None, 0)
    assert "nhat_ban" in score.bonuses
    assert score.points == len(score.bonuses)


@pytest.mark.parametrize(
    "hand",
    [
        pytest.param("GEN/FR INS/KY GEN/FB INS/ED GEN/BR INS/LP", id="GEN/FR INS/KY GEN/FB ..."),
        pytest.param("GEN/FR GEN/BB INS/LP INS/KY MUS/ED NIN/BR", id="two pairs and two singles"),
        pytest.param("GEN/KY GEN/ED GEN/LP GEN/FR MUS/BR NIN/LB", id="Cung + no triple"),
    ],
)
def test_not_completed(hand: str) -> None:
    cards = parse_cards(hand)
    assert not env121.is_completed(cards)
    assert score_hand(cards, chi_diem=unrelated_card(cards), nhat_ban=True) is None


def test_locked_nhat_ban_is_an_error() -> None:
    cards = parse_cards("GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY")
    with pytest.raises(ValueError, match="Nhất Bản"):
        score_hand(cards, chi_diem=parse_card("PRI/LR"), locked=True, nhat_ban=True)


# ------------------------------------------------------- payment (spec §7)


def test_book_payment_example_in_hundreds() -> None:
    # #3 (seat 2) wins 7 Điểm: #2 and #4 pay 200 each, #1 pays 300.
    assert win_payments(7, 2, RuleConfig(payment_rounding="hundreds")) == (-300, -200, 700, -200)


def test_book_payment_example_exact() -> None:
    assert win_payments(7, 2, DEFAULT) == (-280, -210, 700, -210)


@pytest.mark.parametrize("rounding", ["exact", "hundreds"])
def test_payments_are_zero_sum_and_3_4_3(rounding: str) -> None:
    config = RuleConfig(payment_rounding=rounding)  # type: ignore[arg-type]
    for diem in range(0, 25):
        for winner in range(4):
            deltas = win_payments(diem, winner, config)
            assert sum(deltas) == 0
            assert deltas[winner] == 100 * diem
            left, right = deltas[(winner + 1) % 4], deltas[(winner + 3) % 4]
            assert left == right <= 0
            if rounding == "exact":
                assert (left, deltas[(winner + 2) % 4]) == (-30 * diem, -40 * diem)
            else:
                assert left % 100 == 0


@pytest.mark.parametrize("offender", range(4))
def test_den_payments(offender: int) -> None:
    deltas = den_payments(offender)
    assert deltas[offender] == -300
    assert all(d == 100 for seat, d in enumerate(deltas) if seat != offender)
    assert sum(deltas) == 0


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("token", ["ASA-FR", "XXX/FR", "ASA/ZZ", "ASA/", "/FR", "", "ASAFR", "A/F"])
def test_parse_card_rejects(token: str) -> None:
    with pytest.raises(CardNotationError) as info:
        parse_card(token)
    message = str(info.value)
    assert repr(token) in message
    assert "FIG/SU" in message


def test_parse_card_is_case_insensitive() -> None:
    assert parse_card("asa/fr") == parse_card("ASA/FR") == 11 * 9 + 2


def test_notation_round_trip() -> None:
    every = tuple(range(121))
    assert parse_cards(format_cards(every)) == every


@pytest.mark.parametrize("text", ["ASA/FR ASA/FR", "GEN/KY, asa/fr, ASA/FR"])
def test_parse_cards_rejects_duplicates(text: str) -> None:
    with pytest.raises(CardNotationError, match="twice"):
        parse_cards(text)


def test_parse_cards_names_the_bad_token() -> None:
    with pytest.raises(CardNotationError, match="'NIN/XX'"):
        parse_cards("GEN/KY NIN/XX")


GOOD = parse_cards("GEN/FR INS/FB MER/FP GEN/KY MUS/KY NIN/KY")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        pytest.param({"cards": GOOD[:5]}, "six distinct", id="five cards"),
        pytest.param({"cards": (*GOOD, 120)}, "six distinct", id="seven cards"),
        pytest.param({"cards": (*GOOD[:5], GOOD[0])}, "six distinct", id="duplicate card"),
        pytest.param({"cards": (*GOOD[:5], 121)}, "out of range", id="card id 121"),
        pytest.param({"cards": "GEN/FR INS/FB"}, "string", id="a string"),
        pytest.param({"chi_diem": GOOD[0]}, "chi_diem", id="chi_diem in the hand"),
        pytest.param({"chi_diem": -1}, "chi_diem", id="chi_diem -1"),
        pytest.param({"an_si": parse_cards("PRI/LR PRI/LB PRI/LP PRI/BR PRI/BB")}, "an_si", id="5"),
        pytest.param({"an_si": (GOOD[1],)}, "an_si", id="an_si in the hand"),
        pytest.param({"an_si": (110, 110)}, "an_si", id="an_si twice"),
        pytest.param({"an_si": (parse_card("ASA/LR"),)}, "an_si", id="an_si is the chi_diem"),
    ],
)
def test_score_hand_rejects(kwargs: dict[str, Any], match: str) -> None:
    args: dict[str, Any] = {"cards": GOOD, "chi_diem": parse_card("ASA/LR")} | kwargs
    with pytest.raises(ValueError, match=match):
        score_hand(args.pop("cards"), **args)


@pytest.mark.parametrize(
    "arrangement",
    [pytest.param(GOOD[:5], id="five"), pytest.param((*GOOD[:5], GOOD[1]), id="duplicate")],
)
def test_thes_of_and_is_completed_reject(arrangement: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="six distinct"):
        thes_of(arrangement)
    with pytest.raises(ValueError, match="six distinct"):
        env121.is_completed(arrangement)


def test_thes_of_an_si_without_chi_diem() -> None:
    with pytest.raises(ValueError, match="chi_diem"):
        thes_of(GOOD, an_si=(parse_card("PRI/LR"),))


BAD_CONFIG = [
    ("left_figures", {1, 2, 3, 4}),
    ("left_figures", {0, 1, 2, 3, 4}),
    ("left_figures", {6, 7, 8, 9, 11}),
    ("left_figures", 5),
    ("phe_phe_same_suits", "yes"),
    ("nhat_ban_requires_wait", 1),
    ("mask_invalid_win", None),
    ("payment_rounding", "up"),
    ("num_van", 3),
    ("num_van", True),
    ("starting_points", 0),
    ("starting_points", 2500.0),
    ("carry_scores", "no"),
    ("the_trang_asks_every_seat", None),
    ("max_actions_per_vong", 0),
    ("max_actions_per_vong", 1.5),
]


@pytest.mark.parametrize(
    ("field", "value"), [pytest.param(f, v, id=f"{f}={v!r}") for f, v in BAD_CONFIG]
)
def test_bad_rule_config(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=rf"RuleConfig\.{field}="):
        kwargs: dict[str, Any] = {field: value}
        RuleConfig(**kwargs)


def test_every_rule_config_field_has_a_bad_value() -> None:
    assert {f for f, _ in BAD_CONFIG} == {f.name for f in dataclasses.fields(RuleConfig)}


def test_rule_config_unknown_key() -> None:
    with pytest.raises(ValueError, match="bogus"):
        RuleConfig.from_dict({"bogus": 1})
    assert RuleConfig.from_dict(LEFT_ODD.to_dict()) == LEFT_ODD


# ------------------------------------------------------- RULES.md examples

_ROW = re.compile(r"^\|\s*`(?P<id>[a-z_]+)`\s*\|(?P<rest>.*)\|\s*$")


def _rules_md_thes() -> dict[str, list[str]]:
    """Rows of RULES.md's Thế tables: id -> cells (Vietnamese, tier, definition, example)."""
    rows: dict[str, list[str]] = {}
    for line in RULES_MD.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m and m["id"] in THE_BY_ID:
            assert m["id"] not in rows, f"RULES.md lists {m['id']} twice"
            rows[m["id"]] = [c.strip() for c in m["rest"].split("|")]
    return rows


def test_rules_md_lists_every_the() -> None:
    rows = _rules_md_thes()
    assert set(rows) == set(THE_BY_ID)
    for the_id, cells in rows.items():
        assert int(cells[1]) == THE_BY_ID[the_id].tier, the_id


@pytest.mark.parametrize("the_id", [t.id for t in THES])
def test_rules_md_example(the_id: str) -> None:
    example = _rules_md_thes()[the_id][3]
    hand = re.match(r"`([^`]+)`", example)
    assert hand, f"RULES.md: no example hand for {the_id}: {example!r}"
    chi = re.search(r"Chỉ Điểm `([^`]+)`", example)
    an_si = re.search(r"Ẩn Sĩ `([^`]+)`", example)
    cards = parse_cards(hand[1])
    found = thes_of(
        cards,
        chi_diem=parse_card(chi[1]) if chi else None,
        an_si=parse_cards(an_si[1]) if an_si else (),
    )
    assert the_id in found, f"RULES.md example {hand[1]} is not {the_id}: {sorted(found)}"


def test_phe_suit_triples_of_the_docstring() -> None:
    """The hand-built Phe table in this module's docstring agrees with §2."""
    names = ["FR", "FB", "FP", "BR", "BB", "BP", "LR", "LB", "LP"]
    by_name = {n: i + 2 for i, n in enumerate(names)}
    phes = {frozenset(t) for t in combinations(names, 3) if _is_phe_suits(*(by_name[n] for n in t))}
    assert {frozenset({"FR", "FB", "FP"}), frozenset({"FR", "BR", "LR"})} <= phes
    assert {frozenset({"FR", "BB", "LP"}), frozenset({"FB", "BP", "LR"})} <= phes
    assert len(phes) == 3 + 3 + 6  # LM, DS, PT (one of 6 color orders per clan order)
