"""A seat's legal moves named for a person (env121.play.moves)."""

from __future__ import annotations

import pytest

from env121.engine.actions import NHAT_BAN, PASS, THE_TRANG, U, action_card, is_card_action
from env121.engine.game import legal_actions, swap_kind, win_score
from env121.engine.state import Phase, State, SwapKind
from env121.engine.view import observe
from env121.play.moves import describe_move, named_moves, u_score
from env121.play.turn import Turn
from env121.rules.cards import format_card
from env121.rules.config import RuleConfig
from tests.support.play import random_play_states

CONFIGS = {
    "default": RuleConfig(),
    "no_wait_rule": RuleConfig(nhat_ban_requires_wait=False),
    "unmasked": RuleConfig(mask_invalid_win=False),
}


def first(phase: Phase, config: RuleConfig, keep=lambda state: True) -> State:
    """A state of random play in ``phase`` that ``keep`` accepts."""
    for seed in range(40):
        states = random_play_states(
            seed, config, limit=1, keep=lambda s: s.phase == phase and keep(s)
        )
        if states:
            return states[0]
    raise AssertionError(f"no state in phase {phase}")


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_u_score_from_the_view_is_the_engines_score(config):
    wins = 0
    for state in random_play_states(range(3), config, limit=150, every=2):
        if state.phase != Phase.OFFER:
            continue
        for seat in range(4):
            expected = win_score(state, seat)
            assert u_score(observe(state, seat), config) == expected
            wins += expected is not None
    assert wins > 5


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_the_moves_are_the_legal_actions_in_a_persons_order(config):
    for state in random_play_states(range(2), config, limit=120, every=3):
        turn = Turn(state, state.current_player)
        moves = named_moves(turn)
        actions = [a for a, _ in moves]
        assert sorted(actions) == legal_actions(state)
        assert len({d for _, d in moves}) == len(moves)
        singles = [a for a in actions if a in (U, THE_TRANG, NHAT_BAN, PASS)]
        assert actions[: len(singles)] == sorted(singles, key=[U, THE_TRANG, NHAT_BAN, PASS].index)


def test_an_offer_names_the_win_the_pass_and_each_swap():
    state = first(Phase.OFFER, RuleConfig(), lambda s: U in legal_actions(s))
    seat = state.current_player
    moves = dict(named_moves(Turn(state, seat)))
    score = win_score(state, seat)
    assert score is not None
    assert moves[U] == f"Ù — {score.name_vi}, {score.points} Điểm"
    assert moves[PASS] == f"pass (Bỏ) on {format_card(state.offer_card)}"
    kind = swap_kind(state, seat).value
    for action, text in moves.items():
        if is_card_action(action):
            assert text.startswith(f"swap out {format_card(action_card(action))} ({kind} ")


def test_a_cuop_says_it_locks_the_card():
    config = RuleConfig()
    state = first(
        Phase.OFFER,
        config,
        lambda s: (
            swap_kind(s, s.current_player) == SwapKind.CUOP
            and any(is_card_action(a) for a in legal_actions(s))
        ),
    )
    card = next(a for a in legal_actions(state) if is_card_action(a))
    text = describe_move(observe(state, state.current_player), card, config)
    assert text.endswith(f"(Cướp {format_card(state.offer_card)}: locks it, turns an Ẩn Sĩ)")


def test_an_invalid_u_is_named_a_den():
    config = RuleConfig(mask_invalid_win=False)
    state = first(Phase.OFFER, config, lambda s: win_score(s, s.current_player) is None)
    text = describe_move(observe(state, state.current_player), U, config)
    assert text == "Ù — not a win: Đền (you pay 1 Điểm to each other seat)"


@pytest.mark.parametrize(
    ("phase", "expected"),
    [
        (Phase.THE_TRANG, {THE_TRANG: "declare Thế trắng (wins 1 Điểm)", PASS: "don't declare"}),
        (Phase.NB_CHOICE, {PASS: "don't declare Nhất Bản"}),
        (Phase.NB_GAP, {}),
        (Phase.NB_PLACE, {}),
    ],
    ids=lambda p: p.value if isinstance(p, Phase) else "",
)
def test_declarations_and_the_nhat_ban_layout_are_named(phase, expected):
    config = RuleConfig(nhat_ban_requires_wait=False)
    state = first(phase, config, lambda s: len(legal_actions(s)) > 1)
    view = observe(state, state.current_player)
    moves = dict(named_moves(Turn(state, state.current_player)))
    for action, text in expected.items():
        assert moves[action] == text
    if phase == Phase.NB_CHOICE:
        assert moves[NHAT_BAN] == "declare Nhất Bản"
    if phase == Phase.NB_GAP:
        assert sorted(moves.values()) == [f"leave slot {g} of 6 empty" for g in range(1, 7)]
    if phase == Phase.NB_PLACE:
        slot = [i for i in range(6) if i != view.nb_gap][len(view.nb_placed)]
        for action, text in moves.items():
            assert text == f"put {format_card(action_card(action))} in slot {slot + 1}"
