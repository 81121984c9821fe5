"""The person at the table (env121.play.human), driven through string streams
(the terminal itself: tests/cli/test_play_human.py)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from rich.console import Console

from env121.engine.actions import PASS, U, action_card, card_action, is_card_action
from env121.engine.game import legal_actions
from env121.engine.state import Phase, State
from env121.engine.view import observe, sample_determinization
from env121.play.human import HumanAgent, LeftTheTable, parse_choice, table_panel
from env121.play.moves import named_moves
from env121.play.protocol import Agent
from env121.play.turn import Turn
from env121.rules.cards import format_card, format_cards
from env121.rules.config import RuleConfig
from tests.support.play import random_play_states


def offer_with_swaps() -> State:
    """A state where the seat to act may pass or swap."""
    return random_play_states(
        0, limit=1, keep=lambda s: s.phase == Phase.OFFER and len(legal_actions(s)) > 3
    )[0]


def play(state: State, answers: str) -> tuple[int, str]:
    """The human's action given typed ``answers``, and what it wrote."""
    out = io.StringIO()
    human = HumanAgent(stdin=io.StringIO(answers), stdout=out)
    return human.act(Turn(state, state.current_player)), out.getvalue()


def test_a_human_is_an_agent():
    human = HumanAgent()
    assert isinstance(human, Agent)
    assert (human.spec, human.uses_search) == ("human", False)


def test_typos_are_answered_and_asked_again():
    state = offer_with_swaps()
    free = set(state.hands[state.current_player])
    stranger = next(c for c in range(121) if c not in free and c != state.offer_card)
    action, out = play(state, f"pas\n99\n{format_card(stranger)}\n\npass\n")
    assert action == PASS
    assert "'pas' is not a move: type a number 1–" in out
    assert "there is no move 99" in out
    assert f"{format_card(stranger)} is not one of your moves now" in out
    assert out.count("your move (1–") == 5


def test_the_table_and_the_moves_are_shown():
    state = offer_with_swaps()
    seat = state.current_player
    _, out = play(state, "1\n")
    assert format_cards(state.hands[seat]) in out
    assert f"On offer {format_card(state.offer_card)}" in out
    assert "you are asked (" in out
    for number, (_, description) in enumerate(named_moves(Turn(state, seat)), start=1):
        assert f"{number:>2}  {description}" in out


def test_a_number_a_card_and_the_notation_choose_the_same_move():
    state = offer_with_swaps()
    moves = named_moves(Turn(state, state.current_player))
    for number, (action, _) in enumerate(moves, start=1):
        assert parse_choice(f" {number} ", moves) == action
        if is_card_action(action):
            card = format_card(action_card(action))
            assert parse_choice(card.lower(), moves) == action
            assert parse_choice(f"CARD({card})", moves) == action
    assert parse_choice("p", moves) == parse_choice("PASS", moves) == PASS
    assert card_action(state.hands[state.current_player][0]) in [a for a, _ in moves]


def test_u_is_chosen_by_its_letter_when_it_is_a_move():
    state = random_play_states(
        range(5), limit=1, keep=lambda s: s.phase == Phase.OFFER and U in legal_actions(s)
    )[0]
    moves = named_moves(Turn(state, state.current_player))
    assert parse_choice("u", moves) == parse_choice("Ù", moves) == U


@pytest.mark.parametrize("answers", ["q\n", "quit\n", ""], ids=["q", "quit", "end_of_input"])
def test_q_or_the_end_of_the_input_leaves_the_table(answers):
    with pytest.raises(LeftTheTable):
        play(offer_with_swaps(), answers)


def test_the_table_shows_only_what_the_seat_sees():
    """Re-deal what the seat cannot see: the table it is shown is the same."""
    rng = np.random.default_rng(0)
    config = RuleConfig()

    def drawn(state: State, seat: int) -> str:
        out = io.StringIO()
        Console(file=out, width=120).print(table_panel(observe(state, seat), config))
        return out.getvalue()

    for state in random_play_states(range(2), limit=10, every=23):
        for seat in range(4):
            assert drawn(sample_determinization(state, seat, rng), seat) == drawn(state, seat)
