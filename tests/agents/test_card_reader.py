"""``benchmarks/card_reader.py``: its rows against the game, its uniform chances by hand.

The benchmark's numbers are only as good as its rows: each decision on a card
on offer must carry exactly the public decisions the seat asked has seen
the others make in the vòng (by kind, from the next seat round), the true
place of exactly the cards it cannot locate, and whether each opponent wins
on each of its free cards. The rows it collects on the batched engine are
held here, row by row, to the same match played on the plain engine by
:class:`~agents.greedy.GreedyAgent` (the batched greedy's twin), read from
each :class:`~env121.engine.state.State` with
:func:`env121.engine.view.hidden_cards` and
:func:`env121.engine.win_table.seat_win_points`; and the worlds' chance of a
win, to the share of :meth:`~env121.play.turn.Turn.worlds` in which the
plain win table says so.
"""

from __future__ import annotations

import math

import numpy as np

from agents.greedy import GreedyAgent
from agents.mc import MCAgent
from benchmarks.card_reader import (
    DECISIONS_SIZE,
    KINDS,
    OPPONENTS,
    REST,
    collect,
    deal_in,
    true_place_logs,
    uniform_logits,
)
from env121.engine.actions import PASS
from env121.engine.deal import HAND_SIZE
from env121.engine.game import apply, kernel_config_of, kernel_record, new_game, state_of_record
from env121.engine.kernel.record import GAME_DTYPE
from env121.engine.state import NUM_SEATS, Phase, State
from env121.engine.view import hidden_cards
from env121.engine.win_table import seat_win_points
from env121.play.turn import Turn
from env121.rules.cards import NUM_CARDS

SEED = 16


def wins_on_free_cards(state: State, seat: int) -> dict[int, list[bool]]:
    """Each free card of ``seat`` → whether each opponent (1, 2, 3 seats on)
    wins on it, by the plain win table."""
    tables = [seat_win_points(state, (seat + j) % NUM_SEATS) for j in range(1, NUM_SEATS)]
    return {card: [bool(t[card] > 0) for t in tables] for card in state.hands[seat]}


def expected_rows(
    seed: int,
) -> tuple[list[np.ndarray], list[np.ndarray], list[int], list[dict[int, list[bool]]]]:
    """The match ``seed`` played by greedy in every seat on the plain engine:
    at each decision on a card on offer, the public decisions seen
    ``[opponent, kind, card]``, each card's place, the cards flipped and the
    opponents' wins on each free card of the seat."""
    state, greedy = new_game(seed), GreedyAgent()
    seen_rows: list[np.ndarray] = []
    places_rows: list[np.ndarray] = []
    flips: list[int] = []
    wins: list[dict[int, list[bool]]] = []
    history: list[tuple[int, int, int]] = []  # (seat, card on offer, action) this vòng
    vong = (state.van, state.vong)
    while not state.is_over:
        if (state.van, state.vong) != vong:
            history, vong = [], (state.van, state.vong)
        seat = state.current_player
        asked = state.phase == Phase.OFFER
        if asked:
            seen = np.zeros((OPPONENTS, len(KINDS), NUM_CARDS), dtype=np.uint8)
            for actor, card, action in history:
                if actor != seat:
                    j = (actor - seat) % NUM_SEATS - 1
                    if action == PASS:
                        seen[j, 0, card] = 1
                    elif 0 <= action < NUM_CARDS:
                        seen[j, 1, card] = seen[j, 2, action] = 1
            places = np.full(NUM_CARDS, -1, dtype=np.int8)
            for card in hidden_cards(state, seat):
                holder = next((s for s in range(NUM_SEATS) if card in state.hands[s]), None)
                places[card] = REST if holder is None else (holder - seat) % NUM_SEATS - 1
            seen_rows.append(seen)
            places_rows.append(places)
            flips.append(state.noc_pos)
            wins.append(wins_on_free_cards(state, seat))
        action = greedy.act(Turn(state, seat))
        if asked:
            history.append((seat, state.offer_card, action))
        apply(state, action)
    return seen_rows, places_rows, flips, wins


def test_rows_are_the_games_public_decisions_hidden_places_and_wins() -> None:
    rows = collect("greedy", 7, np.array([SEED]), worlds=2, share=1.0)
    seen, places, flips, wins = expected_rows(SEED)
    assert len(rows.flips) == len(flips) > 50
    decisions = np.unpackbits(rows.decisions, axis=1)[:, :DECISIONS_SIZE]
    for k in range(len(flips)):
        assert (decisions[k] == seen[k].ravel()).all(), f"decision {k}: public decisions"
        assert (rows.places[k] == places[k]).all(), f"decision {k}: places"
    assert rows.flips.tolist() == flips
    assert rows.measured.all()
    for k in range(len(flips)):
        free = [int(c) for c in rows.cards[k] if c >= 0]
        assert sorted(free) == sorted(wins[k]), f"decision {k}: free cards"
        got = {card: rows.wins[k, :, i].tolist() for i, card in enumerate(free)}
        assert got == wins[k], f"decision {k}: wins"
    assert rows.wins.any()
    assert set(rows.match.tolist()) == {7}
    assert decisions.any(axis=1).mean() > 0.5  # most decisions have something to read


def test_uniform_belief_is_each_places_share() -> None:
    places = np.full((1, NUM_CARDS), -1, dtype=np.int8)
    places[0, :6] = [0, 0, 1, REST, REST, REST]  # opponent 3's hand known: no share
    logits = uniform_logits(places)
    assert np.allclose(np.exp(logits[0]), [2 / 6, 1 / 6, 0, 3 / 6])
    logs = true_place_logs(np.repeat(logits[:, None, :], NUM_CARDS, axis=1), places)
    expected = [math.log(2 / 6)] * 2 + [math.log(1 / 6)] + [math.log(3 / 6)] * 3
    assert np.allclose(logs[0, :6], expected)
    assert (logs[0, 6:] == 0).all()


def test_worlds_chance_of_a_win_is_the_share_of_the_drawn_worlds() -> None:
    """:func:`deal_in` on a position against its definition: the plain win
    tables of the true state, and of each world of the same draw."""
    state, greedy = new_game(SEED), GreedyAgent()
    positions, some_drawn, some_win, undeclared = 0, False, False, 0
    while positions < 3:
        seat = state.current_player
        if state.phase == Phase.OFFER and state.noc_pos >= 1 and len(state.hands[seat]) == 5:
            positions += 1
            record = kernel_record(state)
            worlds = np.empty(8, dtype=GAME_DTYPE)
            wins = np.zeros((OPPONENTS, HAND_SIZE), dtype=np.bool_)
            drawn = np.zeros((OPPONENTS, HAND_SIZE), dtype=np.float32)
            seed = 1234 + positions
            laid = np.zeros((OPPONENTS, HAND_SIZE), dtype=np.float32)
            nhat_ban = np.ones(OPPONENTS, dtype=np.bool_)
            kc = kernel_config_of(state.config)
            deal_in(record, 0, seat, kc, seed, worlds, wins, drawn, laid, nhat_ban)
            if not nhat_ban.any():  # no declarer: the laid-out worlds are the drawn ones
                assert np.array_equal(laid, drawn)
                undeclared += 1
            turn = Turn(state, seat, search_allowed=True)
            states = [state_of_record(w[None], state.config) for w in turn.worlds(seed, 0, 8)]
            free = [int(c) for c in record[0]["hands"][seat][:5]]
            truth = wins_on_free_cards(state, seat)
            shares = [wins_on_free_cards(world, seat) for world in states]
            some_drawn |= bool((drawn > 0).any())
            some_win |= bool(wins.any())
            for i, card in enumerate(free):
                assert wins[:, i].tolist() == truth[card]
                for j in range(OPPONENTS):
                    share = np.mean([s[card][j] for s in shares])
                    assert math.isclose(float(drawn[j, i]), share, abs_tol=1e-6)
        apply(state, greedy.act(Turn(state, seat)))
    assert some_drawn and some_win and undeclared > 0


def test_laid_out_chance_is_the_share_of_the_kept_worlds_of_the_search() -> None:
    """:func:`deal_in`'s chance in the worlds laid out as greedy would, at
    offers facing a Nhất Bản, against its definition: the share of the worlds
    ``mc:nb_layout=greedy`` keeps (:meth:`agents.mc.MCAgent.draw`) in which
    the plain win table says the opponent wins."""
    state, greedy, mc = new_game(26112), GreedyAgent(), MCAgent(nb_layout="greedy")
    positions, differs = 0, False
    while positions < 6:
        seat = state.current_player
        fixed = [bool(state.nb_arrangement[(seat + j) % NUM_SEATS]) for j in range(1, 4)]
        if state.phase == Phase.OFFER and any(fixed) and len(state.hands[seat]) == 5:
            positions += 1
            record, seed = kernel_record(state), 99 + positions
            worlds = np.empty(8, dtype=GAME_DTYPE)
            wins = np.zeros((OPPONENTS, HAND_SIZE), dtype=np.bool_)
            drawn = np.zeros((OPPONENTS, HAND_SIZE), dtype=np.float32)
            laid = np.zeros((OPPONENTS, HAND_SIZE), dtype=np.float32)
            nhat_ban = np.zeros(OPPONENTS, dtype=np.bool_)
            kc = kernel_config_of(state.config)
            deal_in(record, 0, seat, kc, seed, worlds, wins, drawn, laid, nhat_ban)
            assert nhat_ban.tolist() == fixed
            kept_worlds, kept = mc.draw(Turn(state, seat, search_allowed=True), seed, 0, 8)
            kept = kept if kept.any() else np.ones_like(kept)
            shares = [
                wins_on_free_cards(state_of_record(kept_worlds[w][None], state.config), seat)
                for w in np.flatnonzero(kept)
            ]
            for i, card in enumerate(int(c) for c in record[0]["hands"][seat][:5]):
                for j in range(OPPONENTS):
                    share = np.mean([s[card][j] for s in shares])
                    assert math.isclose(float(laid[j, i]), share, abs_tol=1e-6), (positions, j)
            differs |= not np.allclose(laid, drawn)
        apply(state, greedy.act(Turn(state, seat)))
    assert differs
