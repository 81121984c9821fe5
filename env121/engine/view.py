"""What one seat knows, and full states consistent with it.

* :func:`observe` — a :class:`SeatView`: exactly the information a seat has:
  its own hand and Nhất Bản arrangement, everything face up (locked cards,
  dead cards, the card on offer, the Chỉ Điểm, revealed Ẩn Sĩ), the public
  history of the vòng plus its own private events, the scores, and the cards
  each opponent is *known* to hold (taken face up and not put out since).
* :func:`sample_determinization` — a full :class:`State` that agrees with a
  seat's view, everything hidden re-dealt at random: the opponents' unknown
  hand cards, the Nọc order, the unturned Ẩn Sĩ, the opponents' Nhất Bản
  arrangements, and the match seed (so later vòng are re-dealt too). Its
``events`` keep only what the seat saw and its ``actions`` are cleared (they
would name other seats' hidden cards), so it is a state to search from, not
to replay.

Consistency of a determinization: the hidden cards are the same *set*, each
opponent keeps its hand size and its known cards, and — by rejection
sampling, up to :data:`MAX_TRIES` draws — an opponent in Nhất Bản gets a
hand with a wait (under [R-8]) and one of its legal arrangements, and the
opponent now asked about Thế trắng an eligible hand. If no draw satisfies the
constraints the last draw is kept and such an opponent gets a random
arrangement of its cards. Not modelled: what opponents' past passes reveal
(e.g. that a Nhất Bản seat could not win on a card it passed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from env121.engine.actions import NUM_SLOTS
from env121.engine.game import legal_actions
from env121.engine.kernel.determinize import MAX_TRIES
from env121.engine.state import (
    NUM_SEATS,
    Event,
    MatchEnd,
    Phase,
    State,
    VongResult,
    visible_to,
)
from env121.rules.waits import GAP, has_nhat_ban_wait, nhat_ban_arrangements, placement_order
from env121.rules.wins import the_trang_eligible


@dataclass(frozen=True)
class SeatView:
    """Everything seat ``seat`` knows. Per-seat tuples are indexed by seat 0..3."""

    seat: int
    phase: Phase
    current_player: int
    legal_actions: tuple[int, ...]
    """The seat's legal actions when it is to act, else ()."""
    van: int
    vong: int
    dealer: int
    scores: tuple[int, ...]
    standings: tuple[int, ...]
    hand: tuple[int, ...]
    """Own free cards, sorted."""
    nb_arrangement: tuple[int, ...]
    """Own fixed Nhất Bản arrangement (GAP = -1 in the empty slot), or ()."""
    nb_gap: int
    nb_placed: tuple[int, ...]
    """Own Nhất Bản placement in progress (NB_PLACE), else -1 and ()."""
    locked: tuple[tuple[int, ...], ...]
    known: tuple[tuple[int, ...], ...]
    """Free cards each seat is publicly known to hold (own entry: the public part)."""
    hand_sizes: tuple[int, ...]
    """Free cards per seat."""
    nhat_ban: tuple[bool, ...]
    cuop_used: tuple[int, ...]
    """Cướp made this vòng per seat (= locked cards)."""
    chi_diem: int
    an_si_revealed: tuple[int, ...]
    dead: tuple[int, ...]
    offer_card: int
    offer_exposer: int
    offer_flipped: bool
    ask_order: tuple[int, ...]
    """Who is asked about the card on offer, in order (empty outside OFFER: the
    Thế trắng order would reveal who is eligible)."""
    ask_pos: int
    noc_left: int
    history: tuple[Event, ...]
    """This vòng's events the seat saw (public ones and its own private ones)."""
    results: tuple[VongResult, ...]
    """Every finished vòng of the match (all public)."""
    match_end: MatchEnd | None
    """How the match ended; None while it is played."""
    ranks: tuple[int, ...]


def observe(state: State, seat: int) -> SeatView:
    """The :class:`SeatView` of ``seat`` (0..3)."""
    if seat not in range(NUM_SEATS):
        raise ValueError(f"seat {seat!r} is not a seat: expected 0..{NUM_SEATS - 1}")
    acting = state.current_player == seat
    arranging = acting and state.phase in (Phase.NB_GAP, Phase.NB_PLACE)
    return SeatView(
        seat=seat,
        phase=state.phase,
        current_player=state.current_player,
        legal_actions=tuple(legal_actions(state)) if acting else (),
        van=state.van,
        vong=state.vong,
        dealer=state.dealer,
        scores=state.scores,
        standings=state.standings(),
        hand=state.hands[seat],
        nb_arrangement=state.nb_arrangement[seat],
        nb_gap=state.nb_gap if arranging else -1,
        nb_placed=state.nb_placed if arranging else (),
        locked=state.locked,
        known=state.known,
        hand_sizes=tuple(len(h) for h in state.hands),
        nhat_ban=state.nhat_ban,
        cuop_used=state.cuop_used,
        chi_diem=state.chi_diem,
        an_si_revealed=state.revealed_an_si,
        dead=state.dead,
        offer_card=state.offer_card,
        offer_exposer=state.offer_exposer,
        offer_flipped=state.offer_flipped,
        ask_order=state.ask_order if state.phase == Phase.OFFER else (),
        ask_pos=state.ask_pos if state.phase == Phase.OFFER else 0,
        noc_left=state.noc_left,
        history=tuple(e for e in state.vong_events() if visible_to(e, seat)),
        results=tuple(state.results),
        match_end=state.match_end,
        ranks=state.ranks,
    )


# ---------------------------------------------------------- determinization


def hidden_cards(state: State, seat: int) -> list[int]:
    """The cards ``seat`` cannot locate: others' unknown hand cards, the Nọc,
    the unturned Ẩn Sĩ (sorted)."""
    pool = [*state.noc[state.noc_pos :], *state.an_si[state.an_si_revealed :]]
    for s in range(NUM_SEATS):
        if s != seat:
            known = set(state.known[s])
            pool.extend(c for c in state.hands[s] if c not in known)
    return sorted(pool)


def sample_determinization(state: State, seat: int, rng: np.random.Generator) -> State:
    """A full state consistent with ``observe(state, seat)``, hidden parts re-drawn."""
    if seat not in range(NUM_SEATS):
        raise ValueError(f"seat {seat!r} is not a seat: expected 0..{NUM_SEATS - 1}")
    new = state.clone()
    new.forget_derived()
    new.seed = int(rng.integers(2**62))
    new.first_deal = None
    new.actions = []
    before = state.events[: state.vong_event_start]
    new.vong_event_start = sum(1 for e in before if visible_to(e, seat))
    new.events = [e for e in state.events if visible_to(e, seat)]
    if state.phase == Phase.GAME_OVER:
        return new
    pool = hidden_cards(state, seat)
    others = [s for s in range(NUM_SEATS) if s != seat]
    unknown = {s: len(state.hands[s]) - len(state.known[s]) for s in others}
    hands: dict[int, tuple[int, ...]] = {}
    rest: list[int] = []
    for _ in range(MAX_TRIES):
        shuffled = [pool[i] for i in rng.permutation(len(pool))]
        start = 0
        for s in others:
            drawn = shuffled[start : start + unknown[s]]
            start += unknown[s]
            hands[s] = tuple(sorted((*state.known[s], *drawn)))
        rest = shuffled[start:]
        if all(consistent_hand(state, s, hands[s]) for s in others):
            break
    noc_size = state.noc_left
    new.noc, new.noc_pos = tuple(rest[:noc_size]), 0
    new.an_si = (*state.revealed_an_si, *rest[noc_size:])
    new.hands = tuple(hands.get(s, state.hands[s]) for s in range(NUM_SEATS))
    arrangements = list(state.nb_arrangement)
    for s in others:
        if state.nhat_ban[s] and state.nb_arrangement[s]:
            arrangements[s] = random_arrangement(state, hands[s], rng)
    new.nb_arrangement = tuple(arrangements)
    if state.phase == Phase.THE_TRANG and not state.config.the_trang_asks_every_seat:
        new.ask_order = _the_trang_order(new)
    arranging = state.current_player
    if state.phase == Phase.NB_PLACE and arranging != seat:
        full = random_arrangement(state, hands[arranging], rng)
        new.nb_gap = full.index(GAP)
        order = placement_order(new.nb_gap)
        new.nb_placed = tuple(full[i] for i in order[: len(state.nb_placed)])
    return new


def _the_trang_order(state: State) -> tuple[int, ...]:
    """The Thế trắng queue re-derived from re-drawn hands when only eligible
    seats are asked (``the_trang_asks_every_seat=False``): the seats already
    asked (public), then the eligible seats after the one now asked."""
    asked = state.ask_order[: state.ask_pos + 1]
    later = [(state.dealer + i) % NUM_SEATS for i in range(NUM_SEATS)]
    later = later[later.index(asked[-1]) + 1 :]
    return (*asked, *(s for s in later if the_trang_eligible(state.hands[s])))


def consistent_hand(state: State, seat: int, hand: tuple[int, ...]) -> bool:
    """Whether a re-drawn hand fits what everyone saw ``seat`` do."""
    phase, acting = state.phase, state.current_player
    needs_wait = state.config.nhat_ban_requires_wait and state.nhat_ban[seat]
    if needs_wait and not has_nhat_ban_wait(hand):
        return False
    if phase == Phase.THE_TRANG and seat == acting and not state.config.the_trang_asks_every_seat:
        return the_trang_eligible(hand)  # being asked told everyone it was eligible
    return True


def random_arrangement(
    state: State, hand: tuple[int, ...], rng: np.random.Generator
) -> tuple[int, ...]:
    """A random legal Nhất Bản arrangement of ``hand`` (any order if none is legal)."""
    if state.config.nhat_ban_requires_wait:
        legal = sorted(nhat_ban_arrangements(hand))
        if legal:
            return legal[int(rng.integers(len(legal)))]
    slots = [*hand, GAP]
    return tuple(slots[i] for i in rng.permutation(NUM_SLOTS))


__all__ = [
    "MAX_TRIES",
    "SeatView",
    "consistent_hand",
    "hidden_cards",
    "observe",
    "random_arrangement",
    "sample_determinization",
]
