"""A scripted vòng through env121_v1: the observation pieces after known moves.

The deal (seat: hand)::

    S0 (dealer)  GEN/KY GEN/ED INS/KY INS/ED MER/FR   three figure pairs with MER/*
    S1           MUS/FR MUS/BB NIN/LP ASA/BR PRI/LB
    S2           DAN/KY DAN/ED MON/KY MON/ED MUS/KY
    S3           CRE/LR GEI/BB NIN/FB ASA/FP PRI/BP
    Chỉ Điểm PRI/KY, Ẩn Sĩ PRI/ED CRE/FR CRE/FB CRE/FP, Nọc MER/LB GEI/LR ASA/LB …
"""

from __future__ import annotations

import numpy as np
import pytest

from env121.engine.actions import NHAT_BAN, U, format_action, parse_action
from env121.engine.deal import NOC_SIZE, Deal
from env121.engine.state import Phase
from env121.envs.aec_env import raw_env
from env121.play.observation import POINTS_SCALE, views
from env121.rules.cards import parse_card, parse_cards
from env121.rules.scoring import score_hand
from env121.rules.waits import GAP, fill_gap
from tests.support.scorer import winning_cards

DEAL = Deal.from_notation(
    [
        "GEN/KY GEN/ED INS/KY INS/ED MER/FR",
        "MUS/FR MUS/BB NIN/LP ASA/BR PRI/LB",
        "DAN/KY DAN/ED MON/KY MON/ED MUS/KY",
        "CRE/LR GEI/BB NIN/FB ASA/FP PRI/BP",
    ],
    "PRI/KY",
    "PRI/ED CRE/FR CRE/FB CRE/FP",
    "MER/LB GEI/LR ASA/LB",
)
BOC, LAY, CUOP = 0, 1, 2  # rows of offer_swap_kind


def cards(piece: np.ndarray) -> set[int]:
    """The card ids a 121-wide piece marks."""
    return set(np.flatnonzero(piece).tolist())


def seen(env: raw_env, agent: str) -> dict[str, np.ndarray]:
    return views(env.observe(agent)["observation"])


def play(env: raw_env, moves: str) -> None:
    """``"S0 PASS, S1 CARD(GEN/KY)"``: each move by the agent to act."""
    for move in moves.split(","):
        seat, action = move.split(None, 1)
        assert env.agent_selection == f"player_{seat.strip()[1]}", move
        env.step(parse_action(action))


@pytest.fixture
def env() -> raw_env:
    env = raw_env()
    env.reset(seed=3, options={"first_deal": DEAL})
    play(env, "S0 PASS, S1 PASS, S2 PASS, S3 PASS")  # no hand may declare Thế trắng
    return env


def test_the_first_flip_as_each_seat_sees_it(env):
    me = seen(env, "player_0")
    assert cards(me["hand"]) == set(DEAL.hands[0])
    assert me["phase"].tolist() == [0, 1, 0, 0, 0, 0]  # offer
    assert me["to_act"].tolist() == [1, 0, 0, 0]
    assert cards(me["offer"]) == {parse_card("MER/LB")}
    assert me["offer_exposer"].tolist() == [1, 0, 0, 0]
    assert me["offer_flipped"].tolist() == [1]
    assert me["offer_swap_kind"].tolist() == [1, 0, 0]  # Bốc
    assert me["ask_pending"].tolist() == [0, 1, 1, 1]
    assert me["dealer"].tolist() == [1, 0, 0, 0]
    assert me["vong"][0] == 1 and me["van"][0] == 1
    assert me["noc_left"][0] == pytest.approx((NOC_SIZE - 1) / NOC_SIZE)
    assert cards(me["chi_diem"]) == {parse_card("PRI/KY")}
    assert not me["an_si"].any() and me["an_si_hidden"][0] == 1.0
    assert me["scores"].tolist() == [1.0] * 4
    assert me["cuop_left"][0] == 1.0
    assert not me["locked"].any() and not me["known"].any() and not me["dead"].any()
    assert not me["nb_slots"].any() and not me["nb_gap"].any()

    # S0 wins on MER/LB (three figure pairs); win_points leave out Tự thân (own flip)
    mer_lb = parse_card("MER/LB")
    assert env.observe("player_0")["action_mask"][U] == 1
    score = score_hand(
        (*DEAL.hands[0], mer_lb), chi_diem=DEAL.chi_diem, dealer=True, self_drawn=True
    )
    assert score is not None and "tu_than" in score.bonuses
    assert me["win_points"][mer_lb] * POINTS_SCALE == pytest.approx(score.points - 1)
    assert me["win_points"][parse_card("ASA/LB")] == 0

    left = seen(env, "player_1")  # the next seat: S0 is its row 3
    assert cards(left["hand"]) == set(DEAL.hands[1])
    assert left["to_act"].tolist() == [0, 0, 0, 1]
    assert left["offer_exposer"].tolist() == [0, 0, 0, 1]
    assert left["offer_swap_kind"].tolist() == [0, 1, 0]  # Lấy
    assert left["dealer"].tolist() == [0, 0, 0, 1]
    assert left["ask_pending"].tolist() == [1, 1, 1, 0]
    assert not env.observe("player_1")["action_mask"].any()
    assert seen(env, "player_2")["offer_swap_kind"].tolist() == [0, 0, 1]  # Cướp


def test_a_cuop_locks_the_card_and_turns_an_an_si(env):
    play(env, "S0 PASS, S1 PASS, S2 CARD(MUS/KY)")
    thief = seen(env, "player_2")
    assert cards(thief["hand"]) == set(parse_cards("DAN/KY DAN/ED MON/KY MON/ED"))
    assert cards(thief["locked"][0]) == {parse_card("MER/LB")}
    assert thief["cuop_used"][0].tolist() == [1, 0]
    assert thief["cuop_left"][0] == 0.5

    nxt = seen(env, "player_3")  # S2 is row 3 for S3
    assert cards(nxt["locked"][3]) == {parse_card("MER/LB")}
    assert nxt["cuop_used"].tolist() == [[0, 0], [0, 0], [0, 0], [1, 0]]
    assert cards(nxt["offer"]) == {parse_card("MUS/KY")}
    assert nxt["offer_exposer"].tolist() == [0, 0, 0, 1]
    assert nxt["offer_flipped"].tolist() == [0]
    assert nxt["offer_swap_kind"].tolist() == [0, 1, 0]  # Lấy from S2
    assert cards(nxt["an_si"]) == {parse_card("PRI/ED")}
    assert nxt["an_si_hidden"][0] == 0.75
    assert not nxt["known"].any()  # a locked card is not a known free card
    # S3's five and MUS/KY are pairwise unrelated: a Quốc Sĩ, offered as Ù
    assert env.observe("player_3")["action_mask"][U] == 1
    assert nxt["win_points"][parse_card("MUS/KY")] > 0


def test_a_lay_makes_the_card_known_and_nhat_ban_shows_only_to_its_declarer(env):
    play(env, "S0 PASS, S1 PASS, S2 CARD(MUS/KY), S3 CARD(CRE/LR)")
    assert env.game.phase == Phase.NB_CHOICE
    dealer = seen(env, "player_0")  # S3 is row 3 for S0
    assert cards(dealer["known"][3]) == {parse_card("MUS/KY")}
    assert dealer["phase"].tolist() == [0, 0, 1, 0, 0, 0]
    assert dealer["to_act"].tolist() == [0, 0, 0, 1]
    assert cards(dealer["offer"]) == {parse_card("CRE/LR")}
    assert dealer["offer_swap_kind"].tolist() == [0, 1, 0]  # Lấy from S3

    env.step(NHAT_BAN)
    mask = env.observe("player_3")["action_mask"]
    gap_action = int(np.flatnonzero(mask)[0])
    gap = int(format_action(gap_action)[len("NB_GAP(") : -1])
    env.step(gap_action)
    placed: list[int] = []
    while env.game.phase == Phase.NB_PLACE:
        me = seen(env, "player_3")
        assert me["nb_gap"].tolist() == [int(i == gap) for i in range(6)]
        filled = [s for s in range(6) if me["nb_slots"][s].any()]
        assert [int(np.flatnonzero(me["nb_slots"][s])[0]) for s in filled] == placed
        action = int(np.flatnonzero(env.observe("player_3")["action_mask"])[0])
        placed.append(action)  # CARD(c) ids are the card ids
        env.step(action)

    arrangement = env.game.nb_arrangement[3]
    assert arrangement.index(GAP) == gap
    me = seen(env, "player_3")
    for slot, c in enumerate(arrangement):
        assert me["nb_slots"][slot].tolist() == [int(i == c) for i in range(121)]
    assert me["nhat_ban"].tolist() == [1, 0, 0, 0]
    wins = winning_cards(arrangement)
    assert wins
    c = min(wins - {DEAL.chi_diem, *env.game.revealed_an_si})
    score = score_hand(
        fill_gap(arrangement, c), chi_diem=DEAL.chi_diem, an_si=env.game.revealed_an_si,
        nhat_ban=True,
    )  # fmt: skip
    assert score is not None
    assert me["win_points"][c] * POINTS_SCALE == pytest.approx(score.points)
    assert cards(me["win_points"]) <= wins

    other = seen(env, "player_1")  # S3 is row 2 for S1; its arrangement stays hidden
    assert other["nhat_ban"].tolist() == [0, 0, 1, 0]
    assert not other["nb_slots"].any() and not other["nb_gap"].any()

    play(env, "S0 PASS, S1 PASS, S2 PASS")  # CRE/LR dies; S0 starts a lượt
    dealer = seen(env, "player_0")
    assert cards(dealer["dead"]) == {parse_card("CRE/LR")}
    assert cards(dealer["offer"]) == {parse_card("GEI/LR")}
    assert dealer["offer_exposer"].tolist() == [1, 0, 0, 0]
    assert dealer["noc_left"][0] == pytest.approx((NOC_SIZE - 2) / NOC_SIZE)
