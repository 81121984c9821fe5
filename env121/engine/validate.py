"""Invariants of a match state (spec §8), checked after every step in tests.

:func:`validate` raises :class:`InvariantError` naming the first broken
invariant, followed by the omniscient table
(:func:`~env121.engine.render.format_table`); it returns ``None`` when the
state is sound. It checks:

* the 121 cards are conserved: hands + locked + dead + the card on offer +
  Nọc + Chỉ Điểm + Ẩn Sĩ hold each card exactly once;
* five cards per seat (free + locked), at most 2 locked (Cướp) per seat, and
  the revealed Ẩn Sĩ = min(4, steals so far);
* scores are zero-sum within the ván and across banked ván;
* the publicly known cards of each seat are in its free hand;
* Nhất Bản seats are frozen: no locked card, and the fixed arrangement holds
  exactly their hand (GAP in one slot);
* the legal actions fit the phase (and the seat to act exists).
"""

from __future__ import annotations

from env121.engine.actions import CARD_BASE, NB_GAP_BASE, NHAT_BAN, NUM_SLOTS, PASS, THE_TRANG, U
from env121.engine.deal import HAND_SIZE, NUM_AN_SI
from env121.engine.game import legal_actions
from env121.engine.render import format_table
from env121.engine.state import MAX_CUOP, NUM_SEATS, Phase, State
from env121.rules.cards import NUM_CARDS, format_cards
from env121.rules.waits import GAP
from env121.rules.wins import the_trang_eligible


class InvariantError(AssertionError):
    """A state that breaks an invariant of the game."""


def validate(state: State) -> None:
    """Raise :class:`InvariantError` if ``state`` breaks an invariant."""
    problem = _first_problem(state)
    if problem:
        raise InvariantError(f"{problem}\n{format_table(state, omniscient=True)}")


def _first_problem(state: State) -> str:
    for check in (_cards, _seats, _scores, _nhat_ban, _legal):
        problem = check(state)
        if problem:
            return problem
    return ""


def _cards(state: State) -> str:
    places = [c for h in state.hands for c in h] + [c for lk in state.locked for c in lk]
    places += [*state.dead, *state.noc[state.noc_pos :], state.chi_diem, *state.an_si]
    if state.offer_card >= 0:
        places.append(state.offer_card)
    if sorted(places) != list(range(NUM_CARDS)):
        counts = [0] * NUM_CARDS
        for c in places:
            counts[c] += 1
        twice = [c for c in range(NUM_CARDS) if counts[c] > 1]
        missing = [c for c in range(NUM_CARDS) if counts[c] == 0]
        return (
            f"cards not conserved: {len(places)} placed, repeated [{format_cards(twice)}], "
            f"missing [{format_cards(missing)}]"
        )
    return ""


def _seats(state: State) -> str:
    steals = 0
    for s in range(NUM_SEATS):
        hand, locked = state.hands[s], state.locked[s]
        if len(hand) + len(locked) != HAND_SIZE:
            return f"seat {s} holds {len(hand)} free + {len(locked)} locked cards: expected 5"
        if len(locked) > MAX_CUOP:
            return f"seat {s} has {len(locked)} locked cards: expected at most {MAX_CUOP}"
        if list(hand) != sorted(hand):
            return f"seat {s} hand [{format_cards(hand)}] is not sorted"
        if not set(state.known[s]) <= set(hand):
            return f"seat {s} known cards [{format_cards(state.known[s])}] not all in its hand"
        steals += len(locked)
    if state.an_si_revealed != min(NUM_AN_SI, steals):
        expected = min(NUM_AN_SI, steals)
        return f"{state.an_si_revealed} Ẩn Sĩ revealed after {steals} Cướp: expected {expected}"
    return ""


def _scores(state: State) -> str:
    if sum(state.scores) != sum(state.van_start):
        return f"scores {state.scores} are not zero-sum against the ván start {state.van_start}"
    if sum(state.banked) != 0:
        return f"banked standings {state.banked} are not zero-sum"
    if state.phase != Phase.GAME_OVER and min(state.scores) <= 0:
        return f"a seat is at ≤ 0 points {state.scores} but the match goes on"
    return ""


def _nhat_ban(state: State) -> str:
    arranging = state.current_player if state.phase in (Phase.NB_GAP, Phase.NB_PLACE) else -1
    if state.phase == Phase.GAME_OVER and state.results and state.results[-1].truncated:
        # The action cap may end the last vòng between NHAT_BAN and the arrangement.
        arranging = state.offer_exposer
    for s in range(NUM_SEATS):
        arrangement = state.nb_arrangement[s]
        if not state.nhat_ban[s]:
            if arrangement:
                return f"seat {s} has an arrangement but no Nhất Bản"
            continue
        if state.locked[s]:
            return f"seat {s} is in Nhất Bản with locked cards [{format_cards(state.locked[s])}]"
        if s == arranging:
            continue
        cards = sorted(c for c in arrangement if c != GAP)
        if len(arrangement) != NUM_SLOTS or arrangement.count(GAP) != 1:
            return f"seat {s} Nhất Bản arrangement {arrangement} is not 5 cards + 1 gap"
        if cards != list(state.hands[s]):
            return (
                f"seat {s} Nhất Bản hand changed: arrangement [{format_cards(cards)}], "
                f"hand [{format_cards(state.hands[s])}]"
            )
    return ""


def _legal(state: State) -> str:
    legal = legal_actions(state)
    phase, seat = state.phase, state.current_player
    if phase == Phase.GAME_OVER:
        if legal or not state.match_end or seat != -1:
            return f"match over but legal actions {legal}, end {state.match_end}"
        return ""
    if not 0 <= seat < NUM_SEATS:
        return f"phase {phase.value} with no seat to act"
    if not legal:
        return f"phase {phase.value}: no legal action for seat {seat}"
    if legal != sorted(set(legal)):
        return f"legal actions {legal} are not sorted and distinct"
    allowed: set[int]
    if phase == Phase.OFFER:
        allowed = {U, PASS}
        if not state.nhat_ban[seat]:
            allowed |= {CARD_BASE + c for c in state.hands[seat]}
        if PASS not in legal:
            return "offer phase without PASS"
        if state.offer_card < 0 or (seat == state.offer_exposer and not state.offer_flipped):
            return f"seat {seat} asked about an offer it put out (or no offer)"
    elif phase == Phase.THE_TRANG:
        allowed = {PASS, THE_TRANG} if the_trang_eligible(state.hands[seat]) else {PASS}
    elif phase == Phase.NB_CHOICE:
        allowed = {PASS, NHAT_BAN}
    elif phase == Phase.NB_GAP:
        allowed = {NB_GAP_BASE + g for g in range(NUM_SLOTS)}
    else:
        allowed = {CARD_BASE + c for c in state.hands[seat] if c not in state.nb_placed}
    if not set(legal) <= allowed:
        return f"phase {phase.value}: legal actions {legal} outside {sorted(allowed)}"
    return ""


__all__ = ["InvariantError", "validate"]
