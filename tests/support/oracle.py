"""The oracle: the rules of a match as readable Python transitions on :class:`State`.

Not part of env121: the engine every player, env and tool uses is the compiled
kernel (:mod:`env121.engine.game`, :mod:`env121.engine.kernel`). This module
is the readable definition of the same rules, written from the spec
(``shared/spec/rules-121.md``), that the kernel is proven equal to: the
differential tests (``tests/engine/test_batched_differential.py``) and the
100,000-vòng script (``scripts/differential.py``) play both in lock-step and
compare every field, event and result. Same API as :mod:`env121.engine.game`
(:func:`new_game`, :func:`legal_actions`, :func:`apply`, :func:`step`); the
scorer, the Nhất Bản waits and the win checks it calls are the readable Python
ones of :mod:`tests.support.scorer`, not the compiled ones the kernel and
:mod:`env121.rules` ask, so the lock-step comparison proves those too.

The phases and the rule points the spec leaves open are documented, as both
engines implement them, in :mod:`env121.engine.game`.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TypeVar

from env121.engine.actions import (
    CARD_BASE,
    NB_GAP_BASE,
    NHAT_BAN,
    NUM_ACTIONS,
    NUM_SLOTS,
    PASS,
    THE_TRANG,
    U,
    format_action,
    format_actions,
)
from env121.engine.deal import Deal
from env121.engine.game import IllegalActionError, swap_kind
from env121.engine.state import (
    MAX_CUOP,
    NUM_SEATS,
    VONG_PER_VAN,
    AnSiTurned,
    CardDead,
    Dealt,
    Den,
    Drawn,
    Flipped,
    MatchEnd,
    MatchEnded,
    NhatBanArranged,
    NhatBanDeclared,
    NhatBanDeclined,
    Outcome,
    Paid,
    Passed,
    Phase,
    State,
    SwapKind,
    Swapped,
    TheTrangDeclared,
    TheTrangDeclined,
    VanEnded,
    VongResult,
    VongStarted,
    Won,
)
from env121.rules.bonuses import WinSituation
from env121.rules.config import DEFAULT_CONFIG, RuleConfig
from env121.rules.payment import den_payments, win_payments
from env121.rules.scoring import HandScore
from env121.rules.thes import QUOC_SI_VO_SONG, Table
from env121.rules.waits import GAP, fill_gap, placement_order
from tests.support.reference import reference_is_completed
from tests.support.scorer import (
    has_nhat_ban_wait,
    may_have_the,
    score_valid_hand,
    the_trang_eligible,
    waiting_gaps,
    waiting_next_cards,
)

T = TypeVar("T")


# -------------------------------------------------------------- new match


def new_game(
    seed: int = 0,
    config: RuleConfig | None = None,
    *,
    rotation: int = 0,
    first_deal: Deal | None = None,
) -> State:
    """A new match, its first vòng dealt (seat 0 deals first).

    ``seed`` (a non-negative int) fixes every deal of the match. ``rotation``
    (0..3) rotates the hands for duplicate play (:mod:`env121.engine.deal`).
    ``first_deal`` replaces the seeded deal of the first vòng (tests, puzzles);
    later vòng are seeded as usual.
    """
    config = DEFAULT_CONFIG if config is None else config
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed {seed!r} is not valid: expected a non-negative int")
    if rotation not in range(NUM_SEATS):
        raise ValueError(f"rotation {rotation!r} is not valid: expected 0..{NUM_SEATS - 1}")
    start = (config.starting_points,) * NUM_SEATS
    state = State(config, seed, rotation, first_deal, scores=start, van_start=start)
    _start_vong(state)
    return state


# ------------------------------------------------------------ legal actions


def legal_actions(state: State) -> list[int]:
    """The legal action ids of the seat to act, ascending ([] once over)."""
    if state.legal_cache is None:
        state.legal_cache = _compute_legal(state)
    return list(state.legal_cache)


def _compute_legal(state: State) -> tuple[int, ...]:
    phase = state.phase
    if phase == Phase.OFFER:
        seat = state.current_player
        acts: list[int] = []
        if not state.nhat_ban[seat] and (
            len(state.locked[seat]) < MAX_CUOP or swap_kind(state, seat) != SwapKind.CUOP
        ):
            acts.extend(CARD_BASE + c for c in state.hands[seat])
        if not state.config.mask_invalid_win or win_score(state, seat) is not None:
            acts.append(U)
        acts.append(PASS)
        return tuple(acts)
    if phase == Phase.THE_TRANG:
        hand = state.hands[state.current_player]
        return (PASS, THE_TRANG) if the_trang_eligible(hand) else (PASS,)
    if phase == Phase.NB_CHOICE:
        hand = state.hands[state.current_player]
        return (PASS, NHAT_BAN) if nhat_ban_allowed(state.config, hand) else (PASS,)
    if phase == Phase.NB_GAP:
        return tuple(NB_GAP_BASE + g for g in _nb_gaps(state))
    if phase == Phase.NB_PLACE:
        return tuple(CARD_BASE + c for c in _nb_next_cards(state))
    return ()


# ------------------------------------------------- the Python scorer's answers


def win_score(state: State, seat: int) -> HandScore | None:
    """The score if ``seat`` declared Ù on the card on offer now; None if invalid
    (the readable scorer of :mod:`tests.support.scorer`, not the kernel's)."""
    card = state.offer_card
    if state.nhat_ban[seat]:
        cards = fill_gap(state.nb_arrangement[seat], card)
        if not reference_is_completed(cards):
            return None
    else:
        cards = (*state.hands[seat], *state.locked[seat], card)
        if not may_have_the(cards):
            return None
    table = Table(state.config, state.chi_diem, state.revealed_an_si)
    situation = WinSituation(
        state.config,
        dealer=seat == state.dealer,
        self_drawn=state.offer_flipped and state.offer_exposer == seat,
        last_card=state.offer_flipped and state.noc_left == 0,
    )
    return score_valid_hand(
        cards, table, situation, locked=bool(state.locked[seat]), nhat_ban=state.nhat_ban[seat]
    )


def nhat_ban_allowed(config: RuleConfig, hand: Sequence[int]) -> bool:
    """Whether Nhất Bản may be declared with these five free cards ([R-8])."""
    return not config.nhat_ban_requires_wait or has_nhat_ban_wait(hand)


# ---------------------------------------------------------- Nhất Bản helpers


def _nb_gaps(state: State) -> list[int]:
    if not state.config.nhat_ban_requires_wait:
        return list(range(NUM_SLOTS))
    return waiting_gaps(state.hands[state.current_player])


def _nb_next_cards(state: State) -> list[int]:
    hand = state.hands[state.current_player]
    if not state.config.nhat_ban_requires_wait:
        return [c for c in hand if c not in state.nb_placed]
    return waiting_next_cards(hand, state.nb_gap, state.nb_placed)


# ------------------------------------------------------------- transitions


def step(state: State, action: int) -> State:
    """A copy of ``state`` with ``action`` applied (``state`` is not changed)."""
    new = state.clone()
    apply(new, action)
    return new


def apply(state: State, action: int) -> None:
    """Apply the action of the seat to act, in place.

    ``action`` is an id (any integer type, e.g. ``numpy.int64``). Raises
    :class:`IllegalActionError` (naming the action in the notation, the phase
    and the legal actions) and leaves ``state`` untouched if it is not legal.
    """
    legal = legal_actions(state)
    if isinstance(action, bool):
        raise _illegal(state, action, legal)
    try:
        action = operator.index(action)
    except TypeError:
        raise _illegal(state, action, legal) from None
    if action not in legal:
        raise _illegal(state, action, legal)
    state.forget_derived()
    state.actions.append(action)
    state.vong_actions += 1
    seat = state.current_player
    phase = state.phase
    if phase == Phase.OFFER:
        if action == U:
            _declare_u(state, seat)
        elif action == PASS:
            _pass(state, seat)
        else:
            _swap(state, seat, action - CARD_BASE)
    elif phase == Phase.THE_TRANG:
        _the_trang(state, seat, declare=action == THE_TRANG)
    elif phase == Phase.NB_CHOICE:
        _nhat_ban_choice(state, seat, declare=action == NHAT_BAN)
    elif phase == Phase.NB_GAP:
        state.nb_gap = action - NB_GAP_BASE
        state.nb_placed = ()
        state.phase = Phase.NB_PLACE
    elif phase == Phase.NB_PLACE:
        _nb_place(state, seat, action - CARD_BASE)
    cap = state.config.max_actions_per_vong
    if cap is not None and state.vong_actions >= cap and state.phase != Phase.GAME_OVER:
        state.events.append(Drawn(truncated=True))
        _end_vong(state, _result(state, Outcome.DRAW, truncated=True))


def _illegal(state: State, action: object, legal: Sequence[int]) -> IllegalActionError:
    if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < NUM_ACTIONS:
        shown = format_action(action)
    else:
        shown = f"{action!r} (not an action id 0..{NUM_ACTIONS - 1})"
    seat = state.current_player
    who = "no seat acts (the match is over)" if seat < 0 else f"seat {seat} to act"
    return IllegalActionError(
        f"illegal action {shown} in phase {state.phase.value}, {who}: "
        f"legal actions are [{format_actions(legal)}]",
        action,
        legal,
    )


def _set(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """The per-seat tuple with ``seat``'s entry replaced."""
    return (*values[:seat], value, *values[seat + 1 :])


def _start_vong(state: State) -> None:
    """Deal the current vòng (§5.2) and open it with Thế trắng or the first flip."""
    first = state.van == 0 and state.vong == 0
    deal = (
        state.first_deal
        if first and state.first_deal is not None
        else Deal.from_seed(state.seed, state.van, state.vong, state.dealer, state.rotation)
    )
    empty: tuple[tuple[int, ...], ...] = ((),) * NUM_SEATS
    state.hands = deal.hands
    state.locked = empty
    state.known = empty
    state.chi_diem = deal.chi_diem
    state.an_si = deal.an_si
    state.an_si_revealed = 0
    state.noc = deal.noc
    state.noc_pos = 0
    state.dead = ()
    state.offer_card, state.offer_exposer, state.offer_flipped = -1, -1, False
    state.nhat_ban = (False,) * NUM_SEATS
    state.nb_arrangement = empty
    state.nb_gap, state.nb_placed = -1, ()
    state.vong_actions = 0
    state.vong_event_start = len(state.events)
    state.events.append(VongStarted(state.van, state.vong, state.dealer, deal.chi_diem))
    state.events.extend(Dealt(s, deal.hands[s]) for s in range(NUM_SEATS))
    order = tuple((state.dealer + i) % NUM_SEATS for i in range(NUM_SEATS))
    if not state.config.the_trang_asks_every_seat:
        order = tuple(s for s in order if the_trang_eligible(state.hands[s]))
    if order:
        state.phase = Phase.THE_TRANG
        state.ask_order, state.ask_pos = order, 0
    else:
        _new_luot(state, state.dealer)


def _new_luot(state: State, flipper: int) -> None:
    """A new lượt: ``flipper`` flips the top of the Nọc; an empty Nọc is a draw."""
    if state.noc_left == 0:
        state.offer_card, state.offer_exposer, state.offer_flipped = -1, -1, False
        state.events.append(Drawn(truncated=False))
        _end_vong(state, _result(state, Outcome.DRAW))
        return
    card = state.noc[state.noc_pos]
    state.noc_pos += 1
    state.events.append(Flipped(flipper, card, state.noc_left))
    _offer(state, card, flipper, flipped=True)


def _offer(state: State, card: int, exposer: int, *, flipped: bool) -> None:
    """Put ``card`` on offer: a flip is asked of its flipper first, a put-out card is not."""
    state.offer_card, state.offer_exposer, state.offer_flipped = card, exposer, flipped
    first = 0 if flipped else 1
    state.ask_order = tuple((exposer + i) % NUM_SEATS for i in range(first, NUM_SEATS))
    state.ask_pos = 0
    state.phase = Phase.OFFER


def _the_trang(state: State, seat: int, *, declare: bool) -> None:
    if declare:
        hand = state.hands[seat]
        state.events.append(TheTrangDeclared(seat, hand))
        result = _result(
            state, Outcome.THE_TRANG, seat=seat, payments=win_payments(1, seat, state.config)
        )
        _end_vong(state, result)
        return
    state.events.append(TheTrangDeclined(seat))
    state.ask_pos += 1
    if state.ask_pos == len(state.ask_order):
        _new_luot(state, state.dealer)


def _pass(state: State, seat: int) -> None:
    card = state.offer_card
    state.events.append(Passed(seat, card))
    state.ask_pos += 1
    if state.ask_pos < len(state.ask_order):
        return
    exposer = state.offer_exposer
    state.dead = (*state.dead, card)
    state.events.append(CardDead(card, exposer))
    state.offer_card, state.offer_exposer, state.offer_flipped = -1, -1, False
    _new_luot(state, (exposer + 1) % NUM_SEATS)


def _swap(state: State, seat: int, put: int) -> None:
    """Đổi: take the card on offer, put ``put`` face up; Cướp locks and turns an Ẩn Sĩ."""
    taken, exposer = state.offer_card, state.offer_exposer
    kind = swap_kind(state, seat)
    hand = [c for c in state.hands[seat] if c != put]
    known = [c for c in state.known[seat] if c != put]
    if kind == SwapKind.CUOP:
        state.locked = _set(state.locked, seat, (*state.locked[seat], taken))
    else:
        hand.append(taken)
        known.append(taken)
    state.hands = _set(state.hands, seat, tuple(sorted(hand)))
    state.known = _set(state.known, seat, tuple(sorted(known)))
    state.events.append(Swapped(seat, taken, put, kind, exposer))
    if kind == SwapKind.CUOP and state.an_si_revealed < len(state.an_si):
        state.events.append(AnSiTurned(state.an_si_revealed, state.an_si[state.an_si_revealed]))
        state.an_si_revealed += 1
    _offer(state, put, seat, flipped=False)
    if kind != SwapKind.CUOP and not state.locked[seat]:
        state.phase = Phase.NB_CHOICE


def _nhat_ban_choice(state: State, seat: int, *, declare: bool) -> None:
    if declare:
        state.nhat_ban = _set(state.nhat_ban, seat, True)
        state.events.append(NhatBanDeclared(seat))
        state.phase = Phase.NB_GAP
    else:
        state.events.append(NhatBanDeclined(seat))
        state.phase = Phase.OFFER


def _nb_place(state: State, seat: int, card: int) -> None:
    state.nb_placed = (*state.nb_placed, card)
    if len(state.nb_placed) < NUM_SLOTS - 1:
        return
    arrangement = [GAP] * NUM_SLOTS
    for slot, c in zip(placement_order(state.nb_gap), state.nb_placed, strict=True):
        arrangement[slot] = c
    fixed = tuple(arrangement)
    state.nb_arrangement = _set(state.nb_arrangement, seat, fixed)
    state.nb_gap, state.nb_placed = -1, ()
    state.events.append(NhatBanArranged(seat, fixed))
    state.phase = Phase.OFFER


def _declare_u(state: State, seat: int) -> None:
    """Ù (§5.7): a valid win ends the vòng with its payment; an invalid one is Đền."""
    card = state.offer_card
    score = win_score(state, seat)
    if score is None:
        cards = (*state.hands[seat], *state.locked[seat])
        state.events.append(Den(seat, card, cards))
        payments = den_payments(seat)
        _end_vong(state, _result(state, Outcome.DEN, seat=seat, card=card, payments=payments))
        return
    payments = win_payments(score.points, seat, state.config)
    result = _result(state, Outcome.U, seat=seat, card=card, score=score, payments=payments)
    state.events.append(Won(seat, card, state.offer_exposer, state.offer_flipped, result))
    _end_vong(state, result)


def _result(
    state: State,
    outcome: Outcome,
    *,
    seat: int = -1,
    card: int = -1,
    score: HandScore | None = None,
    payments: tuple[int, ...] = (0,) * NUM_SEATS,
    truncated: bool = False,
) -> VongResult:
    """The record of the vòng now ending (a Thế trắng counts 1 Điểm, no Thế)."""
    arrangement: tuple[int, ...] = () if seat < 0 else state.hands[seat]
    if score is None:
        points = 1 if outcome == Outcome.THE_TRANG else 0
        return VongResult(
            state.van, state.vong, state.dealer, outcome, seat=seat, card=card, points=points,
            arrangement=arrangement if outcome == Outcome.THE_TRANG else (),
            payments=payments, truncated=truncated,
        )  # fmt: skip
    return VongResult(
        state.van, state.vong, state.dealer, outcome, seat=seat, card=card, the=score.the,
        tier=score.tier, points=score.points, bonuses=tuple(sorted(score.bonuses)),
        indicator_points=score.indicator_points, arrangement=score.arrangement,
        nhat_ban=state.nhat_ban[seat], payments=payments,
    )  # fmt: skip


def _end_vong(state: State, result: VongResult) -> None:
    """Pay (§7), then end the match or deal the next vòng."""
    state.legal_cache = None
    state.results.append(result)
    if any(result.payments):
        state.scores = tuple(s + d for s, d in zip(state.scores, result.payments, strict=True))
        state.events.append(Paid(result.payments, state.scores))
    if result.the == QUOC_SI_VO_SONG:
        _end_match(state, MatchEnd.QUOC_SI_VO_SONG, first=result.seat)
        return
    if min(state.scores) <= 0:
        _end_match(state, MatchEnd.BUST)
        return
    if state.vong + 1 == VONG_PER_VAN:
        if state.van + 1 == state.config.num_van:
            _end_match(state, MatchEnd.COMPLETED)
            return
        state.events.append(VanEnded(state.van, state.scores))
        state.banked = tuple(
            b + s - v for b, s, v in zip(state.banked, state.scores, state.van_start, strict=True)
        )
        if not state.config.carry_scores:
            state.scores = (state.config.starting_points,) * NUM_SEATS
        state.van_start = state.scores
        state.van += 1
        state.vong = 0
    else:
        state.vong += 1
    state.dealer = (state.dealer + 1) % NUM_SEATS
    _start_vong(state)


def ranks_of(standings: Sequence[int], first: int = -1) -> tuple[int, ...]:
    """Rank per seat (1 = best); equal standings share a rank; ``first`` ranks 1 alone."""
    ranks = []
    for seat, mine in enumerate(standings):
        if seat == first:
            ranks.append(1)
            continue
        better = sum(1 for s, theirs in enumerate(standings) if s == first or theirs > mine)
        ranks.append(1 + better)
    return tuple(ranks)


def _end_match(state: State, reason: MatchEnd, first: int = -1) -> None:
    state.match_end = reason
    standings = state.standings()
    state.ranks = ranks_of(standings, first)
    state.phase = Phase.GAME_OVER
    state.ask_order, state.ask_pos = (), 0
    state.events.append(MatchEnded(reason, standings, state.ranks))


__all__ = ["apply", "legal_actions", "new_game", "ranks_of", "step"]
