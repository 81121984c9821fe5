"""What a seat sees (observe) and states consistent with it (determinization)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from env121.engine.deal import Deal
from env121.engine.game import legal_actions, new_game
from env121.engine.scripted import play_moves
from env121.engine.state import Dealt, NhatBanArranged, Phase, State, visible_to
from env121.engine.validate import validate
from env121.engine.view import hidden_cards, observe, sample_determinization
from env121.play.match import play_agents
from env121.play.random_agent import RandomAgent
from env121.rules.cards import parse_card
from env121.rules.config import RuleConfig
from tests.support.play import past_the_trang, random_play_states
from tests.support.scorer import nhat_ban_arrangements, the_trang_eligible


def mid_game_states(seed: int, config: RuleConfig | None = None, every: int = 23) -> list[State]:
    return random_play_states(seed, config, limit=40, every=every)


def test_observe_shows_own_cards_and_public_history_only():
    for state in mid_game_states(1):
        for seat in range(4):
            view = observe(state, seat)
            assert view.hand == state.hands[seat]
            assert view.hand_sizes == tuple(len(h) for h in state.hands)
            assert view.noc_left == state.noc_left
            assert view.an_si_revealed == state.revealed_an_si
            for event in view.history:
                if isinstance(event, (Dealt, NhatBanArranged)):
                    assert event.seat == seat
            assert all(visible_to(e, seat) for e in view.history)
            for other in range(4):
                assert set(view.known[other]) <= set(state.hands[other])
            if state.current_player == seat:
                assert view.legal_actions == tuple(legal_actions(state))
            else:
                assert view.legal_actions == ()


def test_known_cards_follow_public_swaps():
    deal = Deal.from_notation(
        ["CRE/KY CRE/ED GEN/KY GEN/ED INS/KY", "INS/ED MER/KY MER/ED GEI/KY GEI/ED",
         "DAN/KY DAN/ED MON/KY MON/ED MUS/KY", "MUS/ED NIN/KY NIN/ED ASA/KY ASA/ED"],
        "PRI/KY", "PRI/ED CRE/FR CRE/FB CRE/FP", "PRI/BB",
    )  # fmt: skip
    state = past_the_trang(new_game(0, first_deal=deal))
    play_moves(state, "S0 PASS, S1 CARD(INS/ED)")
    if state.phase == Phase.NB_CHOICE:
        play_moves(state, "S1 PASS")
    view = observe(state, 3)
    assert view.known[1] == (parse_card("PRI/BB"),)
    play_moves(state, "S2 CARD(DAN/KY)")  # S2 Lấy INS/ED
    if state.phase == Phase.NB_CHOICE:
        play_moves(state, "S2 PASS")
    play_moves(state, "S3 PASS, S0 PASS, S1 CARD(PRI/BB)")  # S1 Cướp DAN/KY: locked, PRI/BB out
    view = observe(state, 3)
    assert view.known[1] == ()
    assert view.locked[1] == (parse_card("DAN/KY"),)
    assert view.known[2] == (parse_card("INS/ED"),)


@pytest.mark.parametrize(
    "config", [RuleConfig(), RuleConfig(nhat_ban_requires_wait=False)], ids=["wait", "no-wait"]
)
def test_determinization_agrees_with_the_seats_view(config):
    rng = np.random.default_rng(0)
    checked = 0
    for seed in (2, 3):
        for state in mid_game_states(seed, config):
            for seat in range(4):
                det = sample_determinization(state, seat, rng)
                validate(det)
                assert observe(det, seat) == observe(state, seat)
                assert Counter(hidden_cards(det, seat)) == Counter(hidden_cards(state, seat))
                for other in range(4):
                    arrangement = det.nb_arrangement[other]
                    if other != seat and arrangement and config.nhat_ban_requires_wait:
                        assert arrangement in nhat_ban_arrangements(det.hands[other])
                checked += 1
    assert checked > 100


def test_determinizations_vary_and_keep_the_truth_hidden():
    state = mid_game_states(5)[3]
    seat = (state.current_player + 1) % 4
    rng = np.random.default_rng(1)
    samples = [sample_determinization(state, seat, rng) for _ in range(5)]
    assert len({s.noc for s in samples}) == 5
    assert len({s.hands for s in samples}) > 1
    for s in samples:
        assert s.actions == [] and s.first_deal is None and s.seed != state.seed
        assert all(visible_to(e, seat) for e in s.events)


def test_a_determinized_state_plays_on_to_the_end():
    state = mid_game_states(6)[2]
    rng = np.random.default_rng(2)
    det = sample_determinization(state, state.current_player, rng)
    random = RandomAgent()
    random.reset(3)
    play_agents(det, [random] * 4, on_action=lambda st, _action: validate(st))
    assert det.is_over


def test_observe_rejects_a_bad_seat():
    state = new_game(0)
    with pytest.raises(ValueError, match=r"seat 4 is not a seat: expected 0\.\.3"):
        observe(state, 4)


def test_determinization_in_the_the_trang_phase_keeps_the_queue_of_every_seat():
    deal = Deal.from_notation(
        ["MON/LR MUS/LB NIN/LP ASA/BR PRI/BP", "GEN/FR INS/FB MER/FP GEI/BR DAN/BB",
         "DAN/KY DAN/ED MON/KY MON/ED MUS/KY", "GEN/LR INS/LP MER/BR GEI/BP DAN/LB"],
        "PRI/KY", "PRI/ED CRE/FR CRE/FB CRE/FP",
    )  # fmt: skip
    state = new_game(0, first_deal=deal)
    assert state.phase == Phase.THE_TRANG and state.ask_order == (0, 1, 2, 3)
    rng = np.random.default_rng(3)
    for _ in range(20):
        det = sample_determinization(state, 2, rng)
        validate(det)
        assert det.ask_order == (0, 1, 2, 3)


def test_determinization_in_the_format1_the_trang_phase_redraws_the_queue():
    deal = Deal.from_notation(
        ["MON/LR MUS/LB NIN/LP ASA/BR PRI/BP", "GEN/FR INS/FB MER/FP GEI/BR DAN/BB",
         "DAN/KY DAN/ED MON/KY MON/ED MUS/KY", "GEN/LR INS/LP MER/BR GEI/BP DAN/LB"],
        "PRI/KY", "PRI/ED CRE/FR CRE/FB CRE/FP",
    )  # fmt: skip
    state = new_game(0, RuleConfig(the_trang_asks_every_seat=False), first_deal=deal)
    assert state.phase == Phase.THE_TRANG and state.ask_order == (0, 1, 3)
    rng = np.random.default_rng(3)
    queues = set()
    for _ in range(20):
        det = sample_determinization(state, 2, rng)
        validate(det)
        assert det.ask_order[0] == 0
        assert all(the_trang_eligible(det.hands[s]) for s in det.ask_order[1:])
        queues.add(det.ask_order)
    assert (0,) in queues  # others' eligibility is not leaked
