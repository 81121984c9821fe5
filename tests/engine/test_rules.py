"""Scripted tests of the round and match rules (spec §5, §7), one deal each.

Every test builds an explicit deal in the card notation and plays moves
written ``S<seat> <action>`` (:mod:`env121.engine.scripted`), so a failure reads like
the table: who flipped, who passed, who stole what.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from env121.engine.actions import NHAT_BAN, PASS, THE_TRANG, U, format_action, parse_action
from env121.engine.deal import Deal
from env121.engine.game import (
    IllegalActionError,
    apply,
    legal_actions,
    new_game,
    step,
    swap_kind,
    win_score,
)
from env121.engine.scripted import ScriptError, play_moves
from env121.engine.state import (
    AnSiTurned,
    CardDead,
    Drawn,
    Flipped,
    Phase,
    State,
    SwapKind,
    Swapped,
)
from env121.engine.validate import validate
from env121.play.match import play_agents
from env121.play.random_agent import random_players
from env121.play.turn import Turn
from env121.rules.cards import parse_card, parse_cards
from env121.rules.config import RuleConfig
from env121.rules.payment import den_payments, win_payments
from env121.rules.scoring import score_hand
from env121.rules.waits import has_nhat_ban_wait
from tests.support.play import past_the_trang

S0_HAND = "CRE/KY CRE/ED GEN/KY GEN/ED INS/KY"
S1_HAND = "INS/ED MER/KY MER/ED GEI/KY GEI/ED"
S2_HAND = "DAN/KY DAN/ED MON/KY MON/ED MUS/KY"
S3_HAND = "MUS/ED NIN/KY NIN/ED ASA/KY ASA/ED"
AN_SI = "PRI/ED CRE/FR CRE/FB CRE/FP"


def game(
    s0: str = S0_HAND,
    s1: str = S1_HAND,
    s2: str = S2_HAND,
    s3: str = S3_HAND,
    *,
    chi: str = "PRI/KY",
    an_si: str = AN_SI,
    top: str = "",
    bottom: str = "",
    config: RuleConfig | None = None,
) -> State:
    """A match whose first vòng (dealer S0) is this deal."""
    deal = Deal.from_notation([s0, s1, s2, s3], chi, an_si, top, bottom)
    state = past_the_trang(new_game(0, config, first_deal=deal))
    validate(state)
    return state


def phase(state: State) -> Phase:
    """The phase (a call, so that type narrowing does not outlive a move)."""
    return state.phase


def asked(state: State) -> tuple[int, ...]:
    """Who is asked about the card on offer, in order."""
    return state.ask_order


def c(text: str) -> int:
    return parse_card(text)


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


def play(state: State, moves: str) -> State:
    play_moves(state, moves)
    validate(state)
    return state


def pass_until(state: State, stop) -> None:
    """Everyone passes (and declines) until ``stop(state)``; validates each step."""
    while not stop(state):
        apply(state, PASS)
        validate(state)


# ----------------------------------------------------------------- §5.4 turns


def test_worked_example_3_3_5_1_steal_then_asking_order():
    """#1 flips and passes; #2 passes; #3 steals (locks, puts out, Ẩn Sĩ turned);
    #4 is asked next (Lấy), then #1 and #2 (Cướp)."""
    state = game(top="PRI/BB MUS/LR")
    assert phase(state) == Phase.OFFER
    assert state.events[-1] == Flipped(0, c("PRI/BB"), 95)
    assert asked(state) == (0, 1, 2, 3)
    assert swap_kind(state, 0) == SwapKind.BOC
    assert swap_kind(state, 1) == SwapKind.LAY
    assert swap_kind(state, 2) == SwapKind.CUOP

    play(state, "S0 PASS, S1 PASS, S2 CARD(DAN/KY)")
    assert state.locked[2] == (c("PRI/BB"),)
    assert state.hands[2] == cards("DAN/ED MON/KY MON/ED MUS/KY")
    assert state.an_si_revealed == 1
    assert state.events[-2:] == [
        Swapped(2, c("PRI/BB"), c("DAN/KY"), SwapKind.CUOP, 0),
        AnSiTurned(0, c("PRI/ED")),
    ]
    assert (state.offer_card, state.offer_exposer, state.offer_flipped) == (c("DAN/KY"), 2, False)
    assert asked(state) == (3, 0, 1)
    assert state.current_player == 3
    assert swap_kind(state, 3) == SwapKind.LAY
    assert swap_kind(state, 0) == SwapKind.CUOP
    assert swap_kind(state, 1) == SwapKind.CUOP

    play(state, "S3 PASS, S0 PASS, S1 PASS")
    assert state.dead == (c("DAN/KY"),)
    assert state.events[-2] == CardDead(c("DAN/KY"), 2)
    assert state.events[-1] == Flipped(3, c("MUS/LR"), 94)  # the thief's next seat flips


def test_worked_example_all_pass_next_seat_flips():
    """Had #3 and #4 also passed, #2 would flip the next card."""
    state = game(top="PRI/BB MUS/LR")
    play(state, "S0 PASS, S1 PASS, S2 PASS, S3 PASS")
    assert state.dead == (c("PRI/BB"),)
    assert state.events[-2:] == [CardDead(c("PRI/BB"), 0), Flipped(1, c("MUS/LR"), 94)]
    assert state.current_player == 1
    assert asked(state) == (1, 2, 3, 0)


def test_first_taker_ends_the_asking():
    """The first seat that does not pass takes the card; later seats are skipped."""
    state = game(top="PRI/BB")
    play(state, "S0 PASS, S1 CARD(INS/ED)")  # Lấy: S1's Nhất Bản choice may follow
    if phase(state) == Phase.NB_CHOICE:
        play(state, "S1 PASS")
    assert c("PRI/BB") in state.hands[1]
    assert asked(state) == (2, 3, 0)
    assert not state.locked[1]
    assert state.an_si_revealed == 0


def test_swap_of_a_locked_card_is_not_legal():
    state = game(top="PRI/BB MUS/LR")
    play(state, "S0 PASS, S1 PASS, S2 CARD(DAN/KY), S3 PASS, S0 PASS, S1 PASS")
    play(state, "S3 PASS, S0 PASS, S1 PASS")  # S3 flipped MUS/LR; S2 asked (Cướp)
    assert state.current_player == 2
    assert parse_action("CARD(PRI/BB)") not in legal_actions(state)
    assert parse_action("CARD(MON/KY)") in legal_actions(state)


def test_third_cuop_refused_but_lay_still_allowed():
    state = game(top="PRI/BB MUS/LR PRI/BP PRI/LR")
    play(state, "S0 PASS, S1 PASS, S2 CARD(DAN/KY), S3 PASS, S0 PASS, S1 PASS")
    play(state, "S3 PASS, S0 PASS, S1 PASS, S2 CARD(DAN/ED), S3 PASS, S0 PASS, S1 PASS")
    assert len(state.locked[2]) == 2
    assert state.an_si_revealed == 2
    play(state, "S3 PASS, S0 PASS, S1 PASS")  # S3 flipped PRI/BP: a third Cướp for S2
    assert state.current_player == 2
    assert swap_kind(state, 2) == SwapKind.CUOP
    assert set(legal_actions(state)) <= {U, PASS}
    with pytest.raises(IllegalActionError, match=r"CARD\(MON/KY\).*phase offer"):
        apply(state, parse_action("CARD(MON/KY)"))
    # A Lấy is not a Cướp: S0 flips PRI/LR, S1 takes it, S2 may take S1's card.
    play(state, "S2 PASS, S0 PASS, S1 CARD(INS/ED)")
    if phase(state) == Phase.NB_CHOICE:
        play(state, "S1 PASS")
    assert state.current_player == 2
    assert swap_kind(state, 2) == SwapKind.LAY
    assert parse_action("CARD(MON/KY)") in legal_actions(state)
    play(state, "S2 CARD(MON/KY)")
    assert len(state.locked[2]) == 2
    assert phase(state) == Phase.OFFER  # no Nhất Bản in Bội ước, even after a Lấy


def test_fourth_cuop_turns_the_last_an_si_and_a_fifth_turns_none():
    state = game(top="PRI/BB MUS/LR PRI/BP PRI/LR PRI/LB PRI/LP MUS/LB MUS/LP")
    steals_left = {2: 2, 3: 2, 0: 1}
    revealed_after_each: list[int] = []
    while len(revealed_after_each) < 5:
        seat = state.current_player
        legal = legal_actions(state)
        hand_cards = [a for a in legal if a not in (U, PASS)]
        if swap_kind(state, seat) == SwapKind.CUOP and steals_left.get(seat, 0) and hand_cards:
            steals_left[seat] -= 1
            apply(state, hand_cards[0])
            revealed_after_each.append(state.an_si_revealed)
        else:
            apply(state, PASS)
        validate(state)
    assert revealed_after_each == [1, 2, 3, 4, 4]
    turned = [e for e in state.events if isinstance(e, AnSiTurned)]
    assert [e.card for e in turned] == list(parse_cards(AN_SI))
    assert isinstance(state.events[-1], Swapped)  # the 5th Cướp turned nothing
    assert state.revealed_an_si == parse_cards(AN_SI)


# ------------------------------------------------------------------ §5.7 Ù


def test_u_by_steal_after_two_steals_does_not_lock():
    s2 = "GEN/FR GEN/FB GEN/FP DAN/KY DAN/ED"
    state = game(s2=s2, top="MON/LR MON/LB MON/LP")
    play(state, "S0 PASS, S1 PASS, S2 CARD(DAN/KY), S3 PASS, S0 PASS, S1 PASS")
    play(state, "S3 PASS, S0 PASS, S1 PASS, S2 CARD(DAN/ED), S3 PASS, S0 PASS, S1 PASS")
    play(state, "S3 PASS, S0 PASS, S1 PASS")
    assert state.current_player == 2
    assert swap_kind(state, 2) == SwapKind.CUOP
    assert legal_actions(state) == [U, PASS]  # no third Cướp, but Ù is allowed
    expected = score_hand(
        cards("GEN/FR GEN/FB GEN/FP MON/LR MON/LB MON/LP"),
        chi_diem=c("PRI/KY"),
        an_si=parse_cards("PRI/ED CRE/FR"),
        locked=True,
    )
    assert expected is not None
    play(state, "S2 U")
    result = state.results[-1]
    assert (result.outcome, result.seat, result.card) == ("u", 2, c("MON/LP"))
    assert result.the == "phien_phien" == expected.the
    assert result.points == expected.points
    assert result.indicator_points == 0  # Bội ước: no indicators
    assert result.payments == win_payments(expected.points, 2, RuleConfig())
    assert state.vong == 1 and state.dealer == 1  # the next vòng is dealt


def test_u_is_offered_only_when_valid():
    s0 = "GEN/FR GEN/FB GEN/FP MON/LR MON/LB"
    state = game(s0=s0, s2=S0_HAND, top="MON/LP PRI/BB")
    assert U in legal_actions(state)  # S0's own flip completes two Phiên
    play(state, "S0 PASS")
    assert U not in legal_actions(state)  # S1 holds nothing with MON/LP


def test_u_on_own_flip_scores_tu_than_and_thang_cai():
    s0 = "GEN/FR GEN/FB GEN/FP MON/LR MON/LB"
    state = game(s0=s0, s2=S0_HAND, top="MON/LP")
    score = win_score(state, 0)
    assert score is not None
    assert {"tu_than", "thang_cai"} <= score.bonuses
    play(state, "S0 U")
    assert state.results[-1].points == score.points
    assert state.scores[0] == 2500 + 100 * score.points


def test_den_when_invalid_wins_are_not_masked():
    config = RuleConfig(mask_invalid_win=False)
    state = game(top="PRI/BB", config=config)
    assert win_score(state, 0) is None
    assert U in legal_actions(state)
    play(state, "S0 U")
    result = state.results[-1]
    assert (result.outcome, result.seat, result.card) == ("den", 0, c("PRI/BB"))
    assert result.payments == den_payments(0) == (-300, 100, 100, 100)
    assert state.scores == (2200, 2600, 2600, 2600)
    assert state.vong == 1


def test_bust_ends_the_match_at_once():
    config = RuleConfig(mask_invalid_win=False, starting_points=200)
    state = game(top="PRI/BB", config=config)
    play(state, "S0 U")
    assert phase(state) == Phase.GAME_OVER
    assert state.match_end == "bust"
    assert state.scores == (-100, 300, 300, 300)
    assert state.standings() == (-300, 100, 100, 100)
    assert state.ranks == (4, 1, 1, 1)
    assert legal_actions(state) == []
    assert state.current_player == -1


def test_bust_mid_van_after_a_win():
    config = RuleConfig(starting_points=100)
    s0 = "GEN/FR GEN/FB GEN/FP MON/LR MON/LB"
    state = game(s0=s0, s2=S0_HAND, top="MON/LP", config=config)
    play(state, "S0 U")
    assert state.match_end == "bust"
    assert state.vong == 0 and len(state.results) == 1
    assert state.ranks[0] == 1


# ------------------------------------------------------------- §5.6 Nhất Bản


def test_nhat_ban_frozen_hand_and_win_on_the_last_noc_card():
    s1 = "GEN/FR GEN/FB GEN/BR MON/LB ASA/BP"
    state = game(s1=s1, chi="GEN/LP", top="MON/LP", bottom="MON/LR")
    play(state, "S0 PASS, S1 CARD(ASA/BP)")  # Lấy MON/LP
    assert phase(state) == Phase.NB_CHOICE
    assert legal_actions(state) == [PASS, NHAT_BAN]
    play(state, "S1 NHAT_BAN")
    assert state.nhat_ban[1]
    assert parse_action("NB_GAP(5)") in legal_actions(state)
    play(state, "S1 NB_GAP(5)")
    play(state, "S1 CARD(GEN/FR), S1 CARD(GEN/FB), S1 CARD(GEN/BR), S1 CARD(MON/LB)")
    assert legal_actions(state) == [parse_action("CARD(MON/LP)")]
    play(state, "S1 CARD(MON/LP)")
    assert state.nb_arrangement[1] == (
        *cards("GEN/FR GEN/FB GEN/BR"),
        *parse_cards("MON/LB MON/LP"),
        -1,
    )
    assert phase(state) == Phase.OFFER and asked(state) == (2, 3, 0)

    frozen = state.hands[1]
    while not (state.current_player == 1 and state.offer_card == c("MON/LR")):
        if state.current_player == 1:
            assert set(legal_actions(state)) <= {U, PASS}, "a Nhất Bản hand is frozen"
        apply(state, PASS)
        validate(state)
        assert state.hands[1] == frozen
    assert state.noc_left == 0 and state.offer_flipped
    play(state, "S1 U")
    result = state.results[-1]
    assert result.nhat_ban and result.the == "phu_phu"
    assert {"nhat_ban", "ket_chung"} <= set(result.bonuses)
    assert result.indicator_points == 0
    normal = score_hand(result.arrangement, chi_diem=c("GEN/LP"))
    assert normal is not None and normal.indicator_points > 0  # they would count otherwise


def test_nhat_ban_is_not_offered_after_a_cuop():
    s2 = "GEN/FR GEN/FB GEN/BR MON/LB ASA/BP"
    state = game(s2=s2, top="MON/LP")
    play(state, "S0 PASS, S1 PASS, S2 CARD(ASA/BP)")
    assert phase(state) == Phase.OFFER and state.current_player == 3


def test_nhat_ban_after_boc():
    s0 = "GEN/FR GEN/FB GEN/BR MON/LB ASA/BP"
    state = game(s0=s0, s2=S0_HAND, top="MON/LP")
    play(state, "S0 CARD(ASA/BP)")
    assert phase(state) == Phase.NB_CHOICE and state.current_player == 0
    play(state, "S0 PASS")
    assert phase(state) == Phase.OFFER and asked(state) == (1, 2, 3)


def test_nhat_ban_choice_is_asked_even_without_a_wait():
    """The choice follows every Bốc / Lấy by a seat not in Bội ước, with only
    PASS legal when the hand has no wait: the public sequence of phases must
    not tell the other seats whether a hand waits."""
    s1 = "CRE/LR INS/FB MUS/LP NIN/FP PRI/BB"
    state = game(s1=s1, top="ASA/FP")
    play(state, "S0 PASS, S1 CARD(PRI/BB)")  # Lấy ASA/FP
    assert not has_nhat_ban_wait(state.hands[1])
    assert phase(state) == Phase.NB_CHOICE and state.current_player == 1
    assert legal_actions(state) == [PASS]
    play(state, "S1 PASS")
    assert phase(state) == Phase.OFFER and asked(state) == (2, 3, 0)


def test_nhat_ban_without_wait_requirement_allows_any_arrangement():
    config = RuleConfig(nhat_ban_requires_wait=False)
    state = game(top="PRI/BB", config=config)
    play(state, "S0 CARD(INS/KY), S0 NHAT_BAN")
    assert legal_actions(state) == [parse_action(f"NB_GAP({g})") for g in range(6)]
    play(state, "S0 NB_GAP(0)")
    assert len(legal_actions(state)) == 5


# --------------------------------------------------------------- §5.3 Thế trắng

ELIGIBLE_S0 = "MON/LR MUS/LB NIN/LP ASA/BR PRI/BP"
ELIGIBLE_S1 = "GEN/FR INS/FB MER/FP GEI/BR DAN/BB"
ELIGIBLE_S3 = "GEN/LR INS/LP MER/BR GEI/BP DAN/LB"


def test_the_trang_declared_wins_one_diem_flat():
    state = game(s1=ELIGIBLE_S1)
    assert phase(state) == Phase.THE_TRANG
    assert asked(state) == (0, 1, 2, 3)
    assert legal_actions(state) == [PASS]
    play(state, "S0 PASS")
    assert legal_actions(state) == [PASS, THE_TRANG]
    play(state, "S1 THE_TRANG")
    result = state.results[-1]
    assert (result.outcome, result.seat, result.points, result.the) == ("the_trang", 1, 1, None)
    assert result.bonuses == () and result.indicator_points == 0
    assert result.payments == win_payments(1, 1, RuleConfig())
    assert state.vong == 1


def test_the_trang_declined_then_the_dealer_flips():
    state = game(s1=ELIGIBLE_S1, top="PRI/BB")
    play(state, "S0 PASS, S1 PASS, S2 PASS, S3 PASS")
    assert phase(state) == Phase.OFFER
    assert state.events[-1] == Flipped(0, c("PRI/BB"), 95)


def test_the_trang_asked_in_order_from_the_dealer_first_declarer_wins():
    state = game(s0=ELIGIBLE_S0, s1=ELIGIBLE_S1, s3=ELIGIBLE_S3)
    assert asked(state) == (0, 1, 2, 3)
    play(state, "S0 PASS, S1 PASS, S2 PASS, S3 THE_TRANG")
    assert state.results[-1].seat == 3


def test_every_seat_is_asked_about_the_trang_so_the_order_of_play_tells_nothing():
    for s1 in (S1_HAND, ELIGIBLE_S1):
        deal = Deal.from_notation([S0_HAND, s1, S2_HAND, S3_HAND], "PRI/KY", AN_SI)
        state = new_game(0, first_deal=deal)
        asked_seats = []
        while state.phase == Phase.THE_TRANG:
            asked_seats.append(state.current_player)
            apply(state, PASS)
        assert asked_seats == [0, 1, 2, 3]


def test_under_the_format1_rule_only_eligible_seats_are_asked():
    old_rule = RuleConfig(the_trang_asks_every_seat=False)
    assert phase(game(config=old_rule)) == Phase.OFFER
    state = game(s0=ELIGIBLE_S0, s1=ELIGIBLE_S1, s3=ELIGIBLE_S3, config=old_rule)
    assert asked(state) == (0, 1, 3)
    play(state, "S0 PASS, S1 PASS, S3 THE_TRANG")
    assert state.results[-1].seat == 3


# --------------------------------------------------------- draws and the match


def test_draw_when_the_noc_is_empty():
    state = game()
    pass_until(state, lambda st: st.vong == 1)
    assert isinstance(state.events[state.vong_event_start - 1], Drawn)
    result = state.results[-1]
    assert result.outcome == "draw" and not result.truncated
    assert result.payments == (0, 0, 0, 0)
    assert state.scores == (2500,) * 4
    assert state.dealer == 1
    dead = [e for e in state.events if isinstance(e, CardDead)]
    assert len(dead) == 96


def test_truncated_draw_at_the_action_limit():
    state = game(config=RuleConfig(max_actions_per_vong=10))
    pass_until(state, lambda st: st.vong == 1)
    result = state.results[-1]
    assert result.outcome == "draw" and result.truncated
    assert len(state.actions) == 10


def test_deal_rotates_every_vong_and_van():
    state = new_game(3, RuleConfig(num_van=2))
    play_agents(state, random_players(3))
    if state.match_end != "completed":
        pytest.skip(f"seeded match ended early ({state.match_end})")
    assert [r.dealer for r in state.results] == [i % 4 for i in range(24)]
    assert [(r.van, r.vong) for r in state.results] == [(v, i) for v in range(2) for i in range(12)]
    assert sum(state.standings()) == 0


def test_scores_reset_each_van_and_standings_add_up():
    state = new_game(5, RuleConfig(num_van=2))
    play_agents(state, random_players(5), until=lambda st: st.van == 1)
    assert state.van == 1 and state.scores == (2500,) * 4
    first_van = tuple(sum(r.payments[s] for r in state.results if r.van == 0) for s in range(4))
    assert state.standings() == first_van == state.banked


def test_carry_scores_keeps_points_between_van():
    state = new_game(5, RuleConfig(num_van=2, carry_scores=True))
    play_agents(state, random_players(5), until=lambda st: st.van == 1)
    totals = tuple(2500 + sum(r.payments[s] for r in state.results) for s in range(4))
    assert state.scores == totals
    assert state.standings() == tuple(t - 2500 for t in totals)


def test_rotation_deals_each_seat_the_next_seats_hand():
    plain = new_game(11)
    for k in range(4):
        rotated = new_game(11, rotation=k)
        assert rotated.hands == tuple(plain.hands[(s + k) % 4] for s in range(4))
        assert (rotated.noc, rotated.chi_diem, rotated.an_si) == (
            plain.noc,
            plain.chi_diem,
            plain.an_si,
        )


# ------------------------------------------------------- quốc sĩ vô song, §7


def test_quoc_si_vo_song_ends_the_match_with_its_winner_first():
    state = game(
        s1="CRE/KY GEN/ED INS/FR MER/FB GEI/FP",
        s2="DAN/KY DAN/ED MON/KY MON/ED MUS/KY",
        s3="DAN/BR NIN/KY NIN/ED ASA/KY ASA/ED",
        s0="CRE/ED GEN/KY INS/KY INS/ED MER/KY",
        chi="MON/BB",
        an_si="MUS/BP NIN/LR ASA/LB PRI/LP",
        top="PRI/BB MUS/LR PRI/BP PRI/LR PRI/FR",
    )
    play(state, "S0 PASS, S1 PASS, S2 CARD(DAN/KY), S3 PASS, S0 PASS, S1 PASS")
    play(state, "S3 PASS, S0 PASS, S1 PASS, S2 CARD(DAN/ED), S3 PASS, S0 PASS, S1 PASS")
    play(state, "S3 PASS, S0 PASS, S1 PASS, S2 PASS")  # PRI/BP dead; S0 flips PRI/LR
    play(state, "S0 PASS, S1 PASS, S2 PASS, S3 CARD(NIN/KY), S0 PASS, S1 PASS, S2 PASS")
    play(state, "S0 PASS, S1 PASS, S2 PASS, S3 CARD(DAN/BR), S0 PASS")
    assert state.an_si_revealed == 4
    score = win_score(state, 1)
    assert score is not None and score.the == "quoc_si_vo_song"
    play(state, "S1 U")
    assert state.match_end == "quoc_si_vo_song"
    assert state.ranks[1] == 1 and sorted(state.ranks)[1] >= 2
    assert state.results[-1].tier == 10


# -------------------------------------------------------------- illegal input


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_illegal_actions_leave_the_state_unchanged(seed):
    state = new_game(seed)
    random = random_players(seed)[0]
    for _ in range(150):
        if state.is_over:
            break
        legal = legal_actions(state)
        snapshot = copy.deepcopy(state)
        others = [a for a in range(131) if a not in legal][::9]
        illegal: list[object] = [*others, -1, 131, True, "U", 2.0]
        for action in illegal:
            with pytest.raises(IllegalActionError) as info:
                apply(state, action)  # type: ignore[arg-type]
            message = str(info.value)
            assert f"phase {state.phase.value}" in message
            assert "legal actions are [" in message
            if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < 131:
                assert format_action(action) in message
            assert state == snapshot
            assert state.events == snapshot.events and state.actions == snapshot.actions
        apply(state, random.act(Turn(state, state.current_player)))


def test_script_errors_name_the_move():
    state = game(top="PRI/BB")
    with pytest.raises(ScriptError, match="S0 is to act"):
        play_moves(state, "S1 PASS")
    with pytest.raises(ScriptError, match=r"move 1 'S1 CARD\(PRI/LP\)'"):
        play_moves(state, "S0 PASS, S1 CARD(PRI/LP)")


def test_step_returns_a_new_state_and_accepts_numpy_ids():
    state = game(top="PRI/BB")
    before = copy.deepcopy(state)
    after = step(state, np.int64(PASS))
    assert state == before
    assert after.actions == [*state.actions, PASS] and type(after.actions[-1]) is int
    assert after.current_player == 1
