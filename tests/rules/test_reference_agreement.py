"""The fast scorer against the brute-force reference (``tests/reference.py``).

``env121.score_hand``, ``env121.thes_of`` and ``env121.is_completed`` must agree
with the reference, which reads spec §2-§4 and §6 literally and tries all 720
orders of a hand. Cases come from ``tests/strategies.py``: 20,000 seeded hands
(half uniform, half from small pools), hypothesis-built hands that hit every
pattern family, and runs under non-default ``RuleConfig`` variants ([R-1],
[R-2]). Every failure message shows the hand in the card notation.

The first section checks the oracle itself on hand-built examples and checks
that its two speed measures (trying each Thế only on orders of the shape it
implies, trying the order-free shape-6 Thế once) change nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from itertools import permutations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import env121
from env121.rules.cards import format_card, format_cards, parse_cards
from env121.rules.config import RuleConfig
from tests.support.reference import (
    THES,
    RefScore,
    Table,
    _thes_of,
    pairwise_unrelated,
    positional_shapes,
    reference_is_completed,
    reference_score,
    reference_thes,
    six_card_shape,
    six_unrelated,
)
from tests.support.strategies import FAMILY_NAMES, arrangement_cases, random_cases, scoring_cases

AGREEMENT_SEED = 20261122
AGREEMENT_CASES = 20_000
ODD_LEFT = frozenset({2, 4, 6, 8, 10})  # a non-default facing

HYPOTHESIS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# ------------------------------------------------------------------- helpers


def _fast(name: str) -> Callable[..., Any]:
    """The fast scorer's function ``env121.<name>``."""
    func = getattr(env121, name, None)
    if func is None:
        pytest.fail(f"env121.{name} does not exist: the fast scorer must export it")
    return func  # type: ignore[no-any-return]


def _config_kwargs(config: RuleConfig | None) -> dict[str, Any]:
    """The reference's keyword arguments for a RuleConfig's scoring variants."""
    config = config if config is not None else RuleConfig()
    return {
        "left_figures": config.left_figures,
        "phe_phe_same_suits": config.phe_phe_same_suits,
    }


def describe(case: dict[str, Any], config: RuleConfig | None = None) -> str:
    """A scoring case in the card notation, for assertion messages."""
    chi_diem = case.get("chi_diem")
    flags = [k for k in ("locked", "nhat_ban", "dealer", "self_drawn", "last_card") if case.get(k)]
    text = (
        f"cards [{format_cards(case['cards'])}]"
        f" chi_diem {format_card(chi_diem) if chi_diem is not None else None}"
        f" an_si [{format_cards(case.get('an_si', ()))}]"
        f" flags {flags or '-'}"
    )
    if config is not None and config != RuleConfig():
        text += (
            f" config(left_figures={sorted(config.left_figures)},"
            f" phe_phe_same_suits={config.phe_phe_same_suits})"
        )
    return text


def compare_case(case: dict[str, Any], config: RuleConfig | None = None) -> str | None:
    """None when the fast scorer agrees with the reference on this case, else a message."""
    fast = _fast("score_hand")(**case, config=config)
    ref = reference_score(**case, **_config_kwargs(config))
    where = describe(case, config)
    if ref is None or fast is None:
        if ref is None and fast is None:
            return None
        return f"{where}\n  reference: {ref}\n  fast:      {fast}"
    got = RefScore(
        the=fast.the,
        tier=fast.tier,
        points=fast.points,
        bonuses=frozenset(fast.bonuses),
        indicator_points=fast.indicator_points,
    )
    if got != ref:
        return f"{where}\n  reference: {ref}\n  fast:      {got}"
    return _check_arrangement(case, config, fast, where)


def _check_arrangement(
    case: dict[str, Any], config: RuleConfig | None, fast: Any, where: str
) -> str | None:
    """The fast scorer's ``arrangement`` must realise its reported Thế (§3)."""
    arrangement = tuple(fast.arrangement)
    if sorted(arrangement) != sorted(case["cards"]):
        return f"{where}\n  arrangement [{format_cards(arrangement)}] is not the six cards"
    if case["nhat_ban"] and arrangement != tuple(case["cards"]):
        return (
            f"{where}\n  Nhất Bản arrangement [{format_cards(arrangement)}] is not the fixed order"
        )
    if fast.the is None:
        if not reference_is_completed(arrangement):
            return f"{where}\n  arrangement [{format_cards(arrangement)}] is not completed"
        return None
    thes = reference_thes(
        arrangement, chi_diem=case["chi_diem"], an_si=case["an_si"], **_config_kwargs(config)
    )
    if fast.the not in thes:
        return (
            f"{where}\n  arrangement [{format_cards(arrangement)}] does not realise"
            f" {fast.the}; the reference finds {sorted(thes)} in that order"
        )
    return None


def assert_all_agree(cases: Iterable[dict[str, Any]], config: RuleConfig | None = None) -> int:
    """Compare every case; fail listing the first mismatches. Returns the number compared."""
    mismatches: list[str] = []
    n = 0
    for case in cases:
        n += 1
        problem = compare_case(case, config)
        if problem is not None:
            mismatches.append(problem)
    shown = "\n".join(mismatches[:15])
    assert not mismatches, f"{len(mismatches)} of {n} cases disagree; first ones:\n{shown}"
    return n


def assert_thes_agree(
    arrangement: Sequence[int],
    chi_diem: int | None,
    an_si: Sequence[int],
    config: RuleConfig | None = None,
) -> None:
    """``thes_of`` and ``is_completed`` against the reference on one arrangement."""
    kwargs = _config_kwargs(config)
    ref = reference_thes(arrangement, chi_diem=chi_diem, an_si=an_si, **kwargs)
    fast = frozenset(
        _fast("thes_of")(tuple(arrangement), chi_diem=chi_diem, an_si=tuple(an_si), config=config)
    )
    where = describe({"cards": arrangement, "chi_diem": chi_diem, "an_si": an_si}, config)
    assert fast == ref, (
        f"thes_of disagrees on {where}\n  reference: {sorted(ref)}\n  fast:      {sorted(fast)}"
        f"\n  only fast: {sorted(fast - ref)}  only reference: {sorted(ref - fast)}"
    )
    completed = bool(_fast("is_completed")(tuple(arrangement)))
    assert completed == reference_is_completed(arrangement), (
        f"is_completed disagrees on [{format_cards(arrangement)}]: reference"
        f" {reference_is_completed(arrangement)}, fast {completed}"
    )


# ------------------------------------------------------- the oracle checks itself

# (hand as laid out, table conditions, expected best Thế, expected tier, expected points)
REFERENCE_EXAMPLES: list[tuple[str, dict[str, Any], str | None, int, int]] = [
    ("GEN/FR GEN/FB GEN/KY INS/FR INS/ED INS/LB", {}, "phu_phu", 1, 2),
    ("MON/FR MON/FB MON/KY MON/ED NIN/FR NIN/ED", {}, "cung_doi_hai_doi", 3, 4),
    ("MON/FR MON/BB MON/LP MON/KY NIN/FR NIN/KY", {}, "cung_phien_doi_hai_doi", 4, 5),
    ("GEN/FR GEN/FB GEN/KY GEN/ED INS/LB INS/LP", {}, "cung_doi", 1, 2),  # supersedes ba_doi
    ("MON/FR MON/FB MON/FP MON/BR NIN/BB NIN/BP", {}, "cung_phien_doi_phe_lien_minh", 4, 6),
    ("GEN/FR GEN/FB INS/FB INS/LR MER/LR MER/FR", {}, "ba_doi_ba_doi", 5, 7),
    ("ASA/FR ASA/BR ASA/LR PRI/FR PRI/BR PRI/LR", {}, "phien_phien_ba_doi", 6, 9),
    ("GEN/FR INS/BB MER/LP GEN/KY INS/KY MER/KY", {}, "phe_co_do_ba_doi", 6, 7),
    ("GEN/KY INS/KY MER/KY GEN/ED INS/ED MER/ED", {}, "phu_co_do_giang_ho_ba_doi", 7, 9),
    ("GEN/LB INS/LB MER/LB GEI/LB DAN/LB DAN/FR", {}, "ngu_luan_trai", 3, 5),
    ("MON/BR MUS/BR NIN/BR ASA/BR PRI/BR CRE/BR", {}, "sieu_ngu_luan_phai", 5, 7),
    ("GEN/KY INS/KY MER/KY GEI/KY NIN/KY NIN/ED", {}, "ngu_luan_danh_du", 3, 4),
    ("CRE/KY CRE/ED CRE/FR CRE/FB CRE/LP CRE/BB", {}, "luc_bo_danh_du", 7, 8),
    # Quốc Sĩ: plain quoc_si gets no indicators; the family climbs with clean Ẩn Sĩ
    ("CRE/KY GEN/ED INS/FR MON/FB MUS/FP NIN/BR", {"chi_diem": "CRE/LB"}, "quoc_si", 1, 1),
    ("CRE/KY GEN/ED INS/FR MON/FB MUS/FP NIN/BR", {"chi_diem": "MER/BB"}, "that_si", 4, 4),
    (
        "CRE/KY GEN/ED INS/FR MON/FB MUS/FP NIN/BR",
        {"chi_diem": "MER/BB", "an_si": "GEI/BP GEN/LB DAN/LR"},
        "cuu_si",
        6,
        7,  # GEN/LB clashes (left out of the clean subset) but its figure still counts
    ),
    (
        "CRE/KY GEN/ED INS/FR MON/FB MUS/FP NIN/BR",
        {"chi_diem": "MER/BB", "an_si": "GEI/BP DAN/LR ASA/LB PRI/LP"},
        "quoc_si_vo_song",
        10,
        10,
    ),
    (
        "CRE/KY GEN/ED INS/FR MON/FB MUS/FP NIN/BR",
        {"chi_diem": "MER/BB", "locked": True},
        None,
        0,
        0,
    ),
    # two LM Phe of different clans are also a Quốc Sĩ; locked, the Phe–Phe still wins
    (
        "GEN/FR INS/FB MER/FP GEI/BR DAN/BB MON/BP",
        {"chi_diem": "NIN/LR", "locked": True},
        "phe_phe_lien_minh",
        1,
        2,
    ),
    # quoc_si_trai ties that_si (tier 4) and is listed first
    ("GEN/FR INS/FB MER/FP GEI/BR DAN/BB MON/BP", {"chi_diem": "NIN/LR"}, "quoc_si_trai", 4, 5),
    # Nhất Bản: a completed hand without a Thế scores 0 + Thưởng + 1, indicators dropped
    (
        "GEN/FR GEN/FB INS/LB MER/LB ASA/KY PRI/KY",
        {"nhat_ban": True, "chi_diem": "GEN/LP"},
        None,
        0,
        1,
    ),
    (
        "GEN/FR INS/FB GEN/FB MER/LB ASA/KY PRI/KY",
        {"nhat_ban": True, "chi_diem": "GEN/LP"},
        None,
        0,
        0,
    ),
    (
        "GEN/FR GEN/BR GEN/LR INS/FR INS/BR INS/LR",
        {"chi_diem": "GEN/LP", "an_si": "MUS/FR", "last_card": True},
        "phien_phien_ba_doi",
        6,
        12,  # + toan_quan_thuong, cung_mot_mau, cung_nhin_trai, ket_chung, indicators 2
    ),
]


def _example_kwargs(conditions: dict[str, Any]) -> dict[str, Any]:
    kwargs = dict(conditions)
    kwargs["chi_diem"] = parse_cards(kwargs["chi_diem"])[0] if "chi_diem" in kwargs else None
    if "an_si" in kwargs:
        kwargs["an_si"] = parse_cards(kwargs["an_si"])
    return kwargs


@pytest.mark.parametrize(
    ("hand", "conditions", "the", "tier", "points"),
    REFERENCE_EXAMPLES,
    ids=[f"{h} {c}" if c else h for h, c, *_ in REFERENCE_EXAMPLES],
)
def test_reference_on_hand_built_examples(
    hand: str, conditions: dict[str, Any], the: str | None, tier: int, points: int
) -> None:
    result = reference_score(parse_cards(hand), **_example_kwargs(conditions))
    if points == 0:
        assert result is None, f"[{hand}] {conditions}: expected no win, got {result}"
        return
    assert result is not None, f"[{hand}] {conditions}: expected {the}, got no win"
    assert (result.the, result.tier, result.points) == (the, tier, points), f"[{hand}] {result}"


def test_reference_rejects_locked_nhat_ban() -> None:
    with pytest.raises(ValueError, match="locked"):
        reference_score(
            parse_cards("GEN/FR GEN/FB GEN/KY INS/FR INS/ED INS/LB"),
            chi_diem=None,
            locked=True,
            nhat_ban=True,
        )


SHAPE_OF = {the.id: the.shape for the in THES}


@settings(HYPOTHESIS, max_examples=60)
@given(case=arrangement_cases(), data=st.data())
def test_reference_speed_measures_change_nothing(case: dict[str, Any], data: st.DataObject) -> None:
    """Every Thế implies the completed shape it is tagged with (§3), and the shape-6 Thế do not
    depend on the order: the two shortcuts of ``reference_score`` are exact."""
    table = Table(chi_diem=case["chi_diem"], an_si=tuple(case["an_si"]))
    order_free: frozenset[str] | None = None
    orders = list(permutations(case["arrangement"]))
    for order in [orders[i] for i in data.draw(st.sets(st.integers(0, 719), max_size=40))]:
        every = _thes_of(order, table)
        shapes = positional_shapes(order) + ((6,) if six_card_shape(order) else ())
        for the_id in every:
            assert SHAPE_OF[the_id] in shapes, f"{the_id} on [{format_cards(order)}]: {shapes}"
        assert _thes_of(order, table, shapes) == every
        assert six_unrelated(*order) == pairwise_unrelated(*order)
        six = frozenset(t for t in every if SHAPE_OF[t] == 6)
        assert order_free is None or six == order_free, format_cards(order)
        order_free = six


@settings(HYPOTHESIS, max_examples=60)
@given(case=arrangement_cases())
def test_reference_cung_phien_is_also_cung_doi_phien(case: dict[str, Any]) -> None:
    """[R-3]: the two ids have the same shape."""
    thes = reference_thes(case["arrangement"])
    assert ("cung_phien" in thes) <= ("cung_doi_phien" in thes)


# ------------------------------------------------------- fast scorer vs reference


def test_score_hand_agrees_on_20k_random_hands() -> None:
    """(a) 20,000 seeded hands: half uniform, half from small pools, random table conditions."""
    start = time.perf_counter()
    n = assert_all_agree(random_cases(seed=AGREEMENT_SEED, n=AGREEMENT_CASES))
    print(f"{n} hands agree in {time.perf_counter() - start:.1f} s")


@settings(HYPOTHESIS, max_examples=150)
@given(case=scoring_cases())
def test_score_hand_agrees_on_built_hands(case: dict[str, Any]) -> None:
    """(b) hypothesis: hands of any family built to hit the patterns."""
    problem = compare_case(case)
    assert problem is None, problem


@pytest.mark.parametrize("family", FAMILY_NAMES)
@settings(HYPOTHESIS, max_examples=30)
@given(data=st.data())
def test_score_hand_agrees_on_each_family(family: str, data: st.DataObject) -> None:
    """(b) hypothesis, family by family, so that every pattern family gets its share."""
    case = data.draw(scoring_cases(family=family), label="case")
    problem = compare_case(case)
    assert problem is None, problem


@pytest.mark.parametrize(
    "config",
    [
        RuleConfig(phe_phe_same_suits=True),
        RuleConfig(left_figures=ODD_LEFT),
        RuleConfig(left_figures=ODD_LEFT, phe_phe_same_suits=True),
    ],
    ids=["phe_phe_same_suits", "left_figures=2,4,6,8,10", "both"],
)
def test_score_hand_agrees_under_rule_variants(config: RuleConfig) -> None:
    """(c) the [R-1] and [R-2] variants, on seeded hands."""
    assert_all_agree(random_cases(seed=AGREEMENT_SEED + 1, n=1500), config)


@settings(HYPOTHESIS, max_examples=150)
@given(case=scoring_cases(left_figures=ODD_LEFT), same_suits=st.booleans())
def test_score_hand_agrees_on_built_hands_under_rule_variants(
    case: dict[str, Any], same_suits: bool
) -> None:
    """(c) the [R-1] and [R-2] variants, on built hands (facing hands use the odd facing)."""
    config = RuleConfig(left_figures=ODD_LEFT, phe_phe_same_suits=same_suits)
    problem = compare_case(case, config)
    assert problem is None, problem


@settings(HYPOTHESIS, max_examples=300)
@given(case=arrangement_cases())
def test_thes_of_and_is_completed_agree_on_arrangements(case: dict[str, Any]) -> None:
    assert_thes_agree(case["arrangement"], case["chi_diem"], case["an_si"])


@settings(HYPOTHESIS, max_examples=100)
@given(case=arrangement_cases(left_figures=ODD_LEFT), same_suits=st.booleans())
def test_thes_of_agrees_under_rule_variants(case: dict[str, Any], same_suits: bool) -> None:
    config = RuleConfig(left_figures=ODD_LEFT, phe_phe_same_suits=same_suits)
    assert_thes_agree(case["arrangement"], case["chi_diem"], case["an_si"], config)


def test_thes_of_agrees_on_every_order_of_pool_hands() -> None:
    """All 720 orders of 40 seeded small-pool hands (odd cases of ``random_cases``)."""
    cases = random_cases(seed=AGREEMENT_SEED + 2, n=80)[1::2]
    for case in cases:
        for order in permutations(case["cards"]):
            assert_thes_agree(order, case["chi_diem"], case["an_si"])
