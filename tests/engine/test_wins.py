"""The Python scorer's fast rule questions (``tests/support/scorer.py``) against
the slow authorities they replace, and the engine against them.

* ``may_have_the`` never rejects a hand that has a Thế (``achievable_thes`` /
  ``score_hand``);
* ``has_nhat_ban_wait`` (reasoned on the card set) agrees with the
  waiting-arrangement table (``nhat_ban_arrangements``);
* the Nhất Bản placement steps reach exactly the legal arrangements, with no
  dead ends, through the engine itself;
* in real play, Ù is legal exactly when ``score_hand`` says the win is valid.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from env121.engine.actions import CARD_BASE, NB_GAP_BASE, NHAT_BAN, PASS, U
from env121.engine.deal import Deal
from env121.engine.game import apply, legal_actions, new_game
from env121.engine.state import Phase, State
from env121.play.random_agent import random_players
from env121.play.turn import Turn
from env121.rules.cards import NUM_CARDS, card, format_cards, parse_cards
from env121.rules.config import DEFAULT_CONFIG, RuleConfig
from env121.rules.groups import phe
from env121.rules.waits import GAP
from tests.support.play import past_the_trang
from tests.support.scorer import (
    achievable_thes,
    has_nhat_ban_wait,
    may_have_the,
    nhat_ban_arrangements,
    score_hand,
    the_trang_eligible,
    waiting_gaps,
    waiting_next_cards,
)

PHE_SUITS = [
    (s1, s2, s3)
    for s1 in range(2, 11)
    for s2 in range(s1 + 1, 11)
    for s3 in range(s2 + 1, 11)
    if phe(card(0, s1), card(0, s2), card(0, s3))
]


@st.composite
def structured_cards(draw: st.DrawFn, n: int) -> tuple[int, ...]:
    """``n`` distinct cards drawn from few figures and suits (so groups are common),
    sometimes with a Phe triple or a Phu Cố Đô / Giang Hộ mixed in."""
    pool: list[int] = []
    kind = draw(st.sampled_from(["few", "phe", "honor"]))
    if kind == "phe":
        suits = draw(st.sampled_from(PHE_SUITS))
        pool += [card(draw(st.integers(0, 10)), s) for s in suits]
    elif kind == "honor":
        suit = draw(st.sampled_from([0, 1]))
        figs = draw(st.lists(st.integers(0, 10), min_size=3, max_size=3, unique=True))
        pool += [card(f, suit) for f in figs]
    figures = draw(st.lists(st.integers(0, 10), min_size=1, max_size=3, unique=True))
    kept = draw(st.lists(st.integers(0, 10), min_size=1, max_size=3, unique=True))
    pool += [card(f, s) for f in range(11) for s in range(11) if f in figures or s in kept]
    pool = sorted(set(pool))
    extra = draw(st.lists(st.integers(0, NUM_CARDS - 1), max_size=2))
    chosen = draw(st.permutations(pool))[: n - len(set(extra))]
    hand = tuple(dict.fromkeys((*extra, *chosen)))[:n]
    if len(hand) < n:
        rest = [c for c in range(NUM_CARDS) if c not in hand]
        hand += tuple(rest[: n - len(hand)])
    return tuple(sorted(hand))


def structured_hands(n: int, size: int, seed: int) -> list[tuple[int, ...]]:
    """Like :func:`structured_cards`, drawn fast with numpy (for many hands)."""
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(n):
        pool: set[int] = set()
        kind = rng.integers(3)
        if kind == 1:
            suits = PHE_SUITS[int(rng.integers(len(PHE_SUITS)))]
            pool |= {card(int(rng.integers(11)), s) for s in suits}
        elif kind == 2:
            suit = int(rng.integers(2))
            pool |= {card(int(f), suit) for f in rng.choice(11, 3, replace=False)}
        figures = set(rng.choice(11, int(rng.integers(1, 4)), replace=False).tolist())
        suits_ = set(rng.choice(11, int(rng.integers(1, 4)), replace=False).tolist())
        pool |= {card(f, s) for f in range(11) for s in range(11) if f in figures or s in suits_}
        pool |= set(rng.choice(NUM_CARDS, int(rng.integers(3)), replace=False).tolist())
        cards_ = sorted(pool)
        chosen = rng.choice(len(cards_), size, replace=False)
        hands.append(tuple(sorted(cards_[int(i)] for i in chosen)))
    return hands


def random_hands(n: int, size: int, seed: int) -> list[tuple[int, ...]]:
    rng = np.random.default_rng(seed)
    return [
        tuple(sorted(int(c) for c in rng.choice(NUM_CARDS, size, replace=False))) for _ in range(n)
    ]


# ------------------------------------------------------------ may_have_the


@settings(max_examples=300, deadline=None)
@given(structured_cards(6))
def test_may_have_the_never_rejects_a_the(six):
    if not may_have_the(six):
        assert achievable_thes(six, DEFAULT_CONFIG) == {}, format_cards(six)


def test_may_have_the_never_rejects_many_thes():
    wins = 0
    hands = structured_hands(20_000, 6, seed=1) + random_hands(10_000, 6, seed=1)
    for six in hands:
        if achievable_thes(six, DEFAULT_CONFIG):
            wins += 1
            assert may_have_the(six), format_cards(six)
    assert wins > 2000


@pytest.mark.parametrize(
    "hand",
    [
        "GEN/FR MON/BB ASA/LP INS/FB NIN/LR DAN/BP",  # two Phe, unrelated cards
        "GEN/FR MON/BB ASA/LP CRE/KY INS/KY MER/KY",  # Phe + Phu Cố Đô
        "CRE/KY GEN/ED INS/FR MER/FB GEI/FP DAN/BR",  # Quốc Sĩ
    ],
)
def test_may_have_the_keeps_hands_with_unrelated_cards(hand):
    six = parse_cards(hand)
    assert achievable_thes(tuple(sorted(six)), DEFAULT_CONFIG)
    assert may_have_the(six)


# ------------------------------------------------------------ Nhất Bản waits


@settings(max_examples=150, deadline=None)
@given(structured_cards(5))
def test_set_reasoning_agrees_with_the_arrangement_table(hand):
    assert has_nhat_ban_wait(hand) == bool(nhat_ban_arrangements(hand)), format_cards(hand)


def test_set_reasoning_agrees_with_the_arrangement_table_on_random_hands():
    for hand in random_hands(300, 5, seed=2):
        assert has_nhat_ban_wait(hand) == bool(nhat_ban_arrangements(hand)), format_cards(hand)


def placements(hand: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every arrangement the step-by-step masks lead to (asserting no dead end)."""
    found = set()
    for gap in waiting_gaps(hand):

        def walk(placed: tuple[int, ...], gap: int = gap) -> None:
            if len(placed) == 5:
                arrangement = list(placed)
                arrangement.insert(gap, GAP)
                found.add(tuple(arrangement))
                return
            nxt = waiting_next_cards(hand, gap, placed)
            assert nxt, f"dead end at {format_cards(placed)} gap {gap}"
            for c in nxt:
                walk((*placed, c))

        walk(())
    return found


@settings(max_examples=30, deadline=None)
@given(structured_cards(5))
def test_placement_steps_reach_every_legal_arrangement(hand):
    assert placements(hand) == nhat_ban_arrangements(hand)


def test_placement_through_the_engine():
    """Declare Nhất Bản in a real game, then walk every placement path."""
    hand_s0 = "GEN/FR GEN/FB GEN/BR MON/LB ASA/BP"
    deal = Deal.from_notation(
        [hand_s0, "INS/ED MER/KY MER/ED GEI/KY GEI/ED", "CRE/KY CRE/ED GEN/KY GEN/ED INS/KY",
         "MUS/ED NIN/KY NIN/ED ASA/KY ASA/ED"],
        "PRI/KY", "PRI/ED CRE/FR CRE/FB CRE/FP", "MON/LP",
    )  # fmt: skip
    state = past_the_trang(new_game(0, first_deal=deal))
    apply(state, CARD_BASE + parse_cards("ASA/BP")[0])  # Bốc
    assert state.phase == Phase.NB_CHOICE
    apply(state, NHAT_BAN)
    finished: set[tuple[int, ...]] = set()

    def walk(st: State) -> None:
        if st.phase != Phase.NB_GAP and st.phase != Phase.NB_PLACE:
            finished.add(st.nb_arrangement[0])
            return
        legal = legal_actions(st)
        assert legal, "dead end"
        for action in legal:
            nxt = st.clone()
            apply(nxt, action)
            walk(nxt)

    walk(state)
    assert finished == nhat_ban_arrangements(state.hands[0])
    assert all(a >= NB_GAP_BASE for a in legal_actions(state))


# ------------------------------------------------------------ Thế trắng


@pytest.mark.parametrize(
    ("hand", "eligible"),
    [
        ("GEN/FR INS/FB MER/FP GEI/BR DAN/BB", True),
        ("GEN/FR INS/FB MER/FP GEI/BR CRE/BB", False),  # a CREST is an honor card
        ("GEN/FR INS/FB MER/FP GEI/BR DAN/KY", False),  # KYOTO is an honor suit
        ("GEN/FR INS/FB MER/FP GEI/BR DAN/FR", False),  # DAN/FR and GEN/FR share a suit
        ("GEN/FR GEN/FB MER/FP GEI/BR DAN/BB", False),  # two GEN
    ],
)
def test_the_trang_eligibility(hand, eligible):
    assert the_trang_eligible(parse_cards(hand)) is eligible


# --------------------------------------------------- Ù legality in real play


@pytest.mark.parametrize("config", [RuleConfig(), RuleConfig(nhat_ban_requires_wait=False)])
def test_u_legal_iff_score_hand_says_valid(config):
    checked = 0
    for seed in range(4):
        state = new_game(seed, config)
        random = random_players(seed)[0]
        while not state.is_over:
            legal = legal_actions(state)
            if state.phase == Phase.OFFER:
                seat = state.current_player
                common = {
                    "chi_diem": state.chi_diem,
                    "an_si": state.revealed_an_si,
                    "config": config,
                    "dealer": seat == state.dealer,
                    "self_drawn": state.offer_flipped and state.offer_exposer == seat,
                    "last_card": state.offer_flipped and state.noc_left == 0,
                }
                if state.nhat_ban[seat]:
                    arrangement = list(state.nb_arrangement[seat])
                    arrangement[arrangement.index(GAP)] = state.offer_card
                    score = score_hand(arrangement, nhat_ban=True, **common)
                else:
                    six = (*state.hands[seat], *state.locked[seat], state.offer_card)
                    score = score_hand(six, locked=bool(state.locked[seat]), **common)
                assert (U in legal) == (score is not None)
                checked += 1
            seat = state.current_player
            apply(state, random.act(Turn(state, seat)) if PASS in legal else legal[0])
    assert checked > 500
