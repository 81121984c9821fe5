"""The game engine: a whole match of 121, one action at a time, on the compiled kernel.

Public API::

    state = new_game(seed, config)          # deals the first vòng
    while not state.is_over:
        seat = current_player(state)
        action = choose(legal_actions(state))
        apply(state, action)                # in place; step() returns a copy

Only decisions are actions (layout: :mod:`env121.engine.actions`). Flipping the top
card of the Nọc, turning an Ẩn Sĩ, dealing, paying and starting the next vòng
happen automatically and are recorded as events (:mod:`env121.engine.state`).

One engine: every transition runs in the compiled kernel
(:mod:`env121.engine.kernel`), the same code that steps thousands of games at
once for training and tournaments (:class:`env121.engine.batched.BatchedEngine`).
A :class:`~env121.engine.state.State` carries its game's record
(``state.record``); :func:`apply` steps the record and sets the State's fields,
events and results from it. A State without a record (built by hand, by
:func:`dataclasses.replace`, or a determinization whose hidden cards were drawn
again) gets one written from its fields the first time the engine moves it.
The Python transitions in ``tests/support/oracle.py`` are the readable
definition of the same rules, which the kernel is proven equal to in lock-step.

Phases (spec §5):

* ``THE_TRANG`` (§5.3) — before the dealer's first flip, every seat in order
  from the dealer: ``THE_TRANG`` (only when eligible) or ``PASS``. The first
  declarer wins 1 Điểm flat. Every seat is asked, eligible or not, so the
  order of play tells no one who holds a Thế trắng hand (under
  ``the_trang_asks_every_seat=False``, the format-1 rule, only eligible seats
  are asked and the phase is skipped when none is).
* ``OFFER`` (§5.4) — the seat asked about the card on offer: ``U`` (only when
  the win is valid, unless ``mask_invalid_win=False``), ``CARD(c)`` for each
  free hand card c (a swap: Bốc / Lấy / Cướp by who exposed the card; no swap
  under Nhất Bản; no third Cướp), or ``PASS``.
* ``NB_CHOICE`` (§5.6) — right after every Bốc or Lấy by a seat with no
  locked card: ``PASS``, and ``NHAT_BAN`` when it may be declared (under
  [R-8]: the hand has a wait). The choice is asked even when only ``PASS`` is
  legal, so the public sequence of phases never tells the other seats
  whether a hand has a wait. After ``NHAT_BAN`` comes ``NB_GAP``:
  ``NB_GAP(slot)``; then ``NB_PLACE``: five ``CARD(c)`` filling the other
  slots left to right. Each step offers exactly the choices that lead to a
  legal arrangement (no dead ends). Then the put-out card is offered.
* ``GAME_OVER`` — no actions.

Rule points the spec leaves open, as implemented:

* A flip happens when a lượt starts; the flipper is asked first (§5.4).
* Ù's Thưởng: *Tự thân* when the winner flipped the card; *Kết chung* when the
  card was flipped and the Nọc is now empty, whoever wins on it.
* A swap's put-out card is offered to the swapper+1, +2, +3 only after the
  swapper's Nhất Bản choice (and arrangement) is done.
* The Nhất Bản choice follows every Bốc / Lấy by a seat with no locked card,
  ``NHAT_BAN`` legal only with a wait under [R-8]; never at other times.
* ``max_actions_per_vong`` counts every action of the vòng (Thế trắng and
  Nhất Bản steps included); reaching it ends the vòng as a truncated draw.
* The deal passes to the next seat after every vòng, across ván too (seat
  ``(12·ván + vòng) mod 4`` deals).
* A bust (≤ 0 points after a payment) ends the match before the next deal;
  standings then include the unfinished ván's points.
* Ranks: standing order, equal standings share the better rank ("1, 1, 3,
  4"); a Quốc Sĩ Vô Song winner is ranked 1 alone and the others 2.. by
  standing.
* Nothing is forced: a seat with a single legal action (e.g. a frozen Nhất
  Bản hand that cannot win) still acts.
"""

from __future__ import annotations

import functools
import operator
import threading
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from env121.engine.actions import NUM_ACTIONS, format_action, format_actions
from env121.engine.deal import Deal
from env121.engine.kernel.convert import (
    decode_events,
    decode_result,
    read_legal,
    read_state,
    write_first_deal,
    write_state,
)
from env121.engine.kernel.record import GAME_DTYPE, PHASES, allocate
from env121.engine.kernel.rng import MAX_KEY
from env121.engine.kernel.transitions import reset_games, step_games
from env121.engine.state import NUM_SEATS, Phase, State, SwapKind, VongStarted
from env121.rules.bonuses import WinSituation
from env121.rules.compiled.config import KernelConfig, kernel_config
from env121.rules.config import DEFAULT_CONFIG, RuleConfig
from env121.rules.scoring import HandScore, score_valid_hand
from env121.rules.thes import Table
from env121.rules.waits import fill_gap, has_nhat_ban_wait


class IllegalActionError(ValueError):
    """An action that is not legal in the state it was applied to.

    The state is left exactly as it was. ``action`` and ``legal`` hold the ids.
    """

    def __init__(self, message: str, action: object, legal: Sequence[int]) -> None:
        super().__init__(message)
        self.action = action
        self.legal = tuple(legal)


# -------------------------------------------------------------- new match


def new_game(
    seed: int = 0,
    config: RuleConfig | None = None,
    *,
    rotation: int = 0,
    first_deal: Deal | None = None,
) -> State:
    """A new match, its first vòng dealt (seat 0 deals first).

    ``seed`` (an int in ``0 .. 2**64 - 1``) fixes every deal of the match.
    ``rotation`` (0..3) rotates the hands for duplicate play
    (:mod:`env121.engine.deal`). ``first_deal`` replaces the seeded deal of the
    first vòng (tests, puzzles); later vòng are seeded as usual.
    """
    config = DEFAULT_CONFIG if config is None else config
    if not isinstance(config, RuleConfig):
        raise ValueError(f"config {config!r} is not valid: expected a RuleConfig or None")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_KEY:
        raise ValueError(f"seed {seed!r} is not valid: expected an int in 0..2**64-1")
    if isinstance(rotation, bool) or rotation not in range(NUM_SEATS):
        raise ValueError(f"rotation {rotation!r} is not valid: expected 0..{NUM_SEATS - 1}")
    if first_deal is not None and not isinstance(first_deal, Deal):
        raise ValueError(f"first_deal {first_deal!r} is not valid: expected a Deal or None")
    games = allocate(1)
    games["seed"], games["rotation"] = seed, rotation
    write_first_deal(games[0], first_deal)
    reset_games(games, kernel_config_of(config))
    state = State(_canonical(config), seed, rotation, first_deal)
    state.record = games
    state.events.extend(decode_events(games[0]))
    read_state(games[0], state)
    state.legal_cache = tuple(read_legal(games[0]))
    return state


def current_player(state: State) -> int:
    """The seat to act, or -1 once the match is over."""
    return state.current_player


def is_terminal(state: State) -> bool:
    """Whether the match has ended."""
    return state.phase == Phase.GAME_OVER


def swap_kind(state: State, seat: int) -> SwapKind:
    """What taking the card on offer would be for ``seat``: Bốc, Lấy or Cướp."""
    return swap_kind_between(state.offer_exposer, seat)


def swap_kind_between(exposer: int, seat: int) -> SwapKind:
    """What taking a card exposed by ``exposer`` is for ``seat``: Bốc (its own
    card), Lấy (from the seat just before) or Cướp (from anyone else)."""
    if exposer == seat:
        return SwapKind.BOC
    if exposer == (seat - 1) % NUM_SEATS:
        return SwapKind.LAY
    return SwapKind.CUOP


# ------------------------------------------------------------ legal actions


def legal_actions(state: State) -> list[int]:
    """The legal action ids of the seat to act, ascending ([] once over)."""
    if state.legal_cache is None:
        kernel_record(state)
    assert state.legal_cache is not None  # kernel_record sets it
    return list(state.legal_cache)


def win_score(state: State, seat: int) -> HandScore | None:
    """The score if ``seat`` declared Ù on the card on offer now; None if invalid."""
    card = state.offer_card
    dealer = seat == state.dealer
    self_drawn = state.offer_flipped and state.offer_exposer == seat
    last_card = state.offer_flipped and state.noc_left == 0
    if state.nhat_ban[seat]:
        cards = fill_gap(state.nb_arrangement[seat], card)
    else:
        cards = (*state.hands[seat], *state.locked[seat], card)
    table = Table(state.config, state.chi_diem, state.revealed_an_si)
    situation = WinSituation(
        state.config, dealer=dealer, self_drawn=self_drawn, last_card=last_card
    )
    return score_valid_hand(
        cards, table, situation, locked=bool(state.locked[seat]), nhat_ban=state.nhat_ban[seat]
    )


def nhat_ban_allowed(config: RuleConfig, hand: Sequence[int]) -> bool:
    """Whether Nhất Bản may be declared with these five free cards: [R-8] a
    wait is needed unless ``nhat_ban_requires_wait`` is off."""
    return not config.nhat_ban_requires_wait or has_nhat_ban_wait(hand)


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
    advance(state, action)
    read_state(state.record[0], state)  # type: ignore[index]  # advance made the record


def advance(state: State, action: int) -> None:
    """:func:`apply` for a caller that reads the match from the kernel record
    between decisions (the AEC env): the record, the actions, events, results
    and legal actions are updated; the other fields of ``state`` are not
    until :func:`settle`. Faster by the conversion of the fields."""
    legal = legal_actions(state)
    if isinstance(action, bool):
        raise _illegal(state, action, legal)
    try:
        action = operator.index(action)
    except TypeError:
        raise _illegal(state, action, legal) from None
    if action not in legal:
        raise _illegal(state, action, legal)
    games = kernel_record(state)
    scratch = _SCRATCH.arrays
    scratch.action[0] = action
    step_games(games, kernel_config_of(state.config), scratch.action, 1, scratch.finals)
    if games["terminated"][0]:
        games[0] = scratch.finals[0]  # the match as it ended, not the next one dealt
    state.actions.append(action)
    r = games[0]
    events = decode_events(r)
    for i, event in enumerate(events):
        if isinstance(event, VongStarted):
            state.vong_event_start = len(state.events) + i
    state.events.extend(events)
    if r["vong_ended"]:
        result = decode_result(r)
        assert result is not None  # a step that ends a vòng writes its result
        state.results.append(result)
    state.legal_cache = tuple(read_legal(r))


def settle(state: State) -> None:
    """Set the fields of ``state`` from its record after :func:`advance`."""
    read_state(kernel_record(state)[0], state)


# ------------------------------------------------------------------ helpers


class _Scratch(NamedTuple):
    action: np.ndarray
    """``int64 [1]``: the action of a step."""
    finals: np.ndarray
    """One game record: where the kernel keeps a match that ended in the step."""


class _ThreadScratch(threading.local):
    """Each thread's arrays for :func:`advance`, made once (allocating a
    record costs about as much as a step)."""

    def __init__(self) -> None:
        self.arrays = _Scratch(np.zeros(1, dtype=np.int64), np.empty(1, dtype=GAME_DTYPE))


_SCRATCH = _ThreadScratch()


@functools.lru_cache(maxsize=64)
def _canonical(config: RuleConfig) -> RuleConfig:
    """The first RuleConfig equal to ``config`` that the engine met: every match
    of a rule variant holds that one object, so the per-variant caches (the
    kernel's config, the observers) find it by identity instead of comparing
    its fields on every step."""
    return config


@functools.lru_cache(maxsize=64)
def kernel_config_of(config: RuleConfig) -> KernelConfig:
    """The kernel's form of ``config``, made once per rule variant."""
    return kernel_config(config)


def kernel_record(state: State) -> np.ndarray:
    """``state``'s kernel record (an array of one game record, which the
    compiled observation and search read), written from its fields if it has none."""
    if state.record is None:
        games = allocate(1)
        write_state(state, games, kernel_config_of(state.config))
        state.record = games
        state.legal_cache = tuple(read_legal(games[0]))
    return state.record


def state_of_record(record: np.ndarray, config: RuleConfig) -> State:
    """The match held in ``record`` (an array of one game record, e.g. a row
    of :attr:`~env121.engine.batched.BatchedEngine.games`, copied) as a
    :class:`State` under the rules ``config``: every field the record holds
    (:func:`~env121.engine.kernel.convert.read_state`) and the legal actions.
    A record does not keep the match's past, so ``events``, ``results`` and
    ``actions`` are empty: a seat's view of it has no history."""
    games = record.copy()
    r = games[0]
    state = State(_canonical(config), int(r["seed"]), int(r["rotation"]), None)
    state.record = games
    read_state(r, state)
    state.legal_cache = tuple(read_legal(r))
    return state


def _illegal(state: State, action: object, legal: Sequence[int]) -> IllegalActionError:
    if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < NUM_ACTIONS:
        shown = format_action(action)
    else:
        shown = f"{action!r} (not an action id 0..{NUM_ACTIONS - 1})"
    r = kernel_record(state)[0]  # the fields may wait for settle(): the record is current
    seat, phase = int(r["to_act"]), PHASES[r["phase"]]
    who = "no seat acts (the match is over)" if seat < 0 else f"seat {seat} to act"
    return IllegalActionError(
        f"illegal action {shown} in phase {phase.value}, {who}: "
        f"legal actions are [{format_actions(legal)}]",
        action,
        legal,
    )


__all__ = [
    "IllegalActionError",
    "advance",
    "apply",
    "current_player",
    "is_terminal",
    "kernel_config_of",
    "kernel_record",
    "legal_actions",
    "new_game",
    "nhat_ban_allowed",
    "settle",
    "state_of_record",
    "step",
    "swap_kind",
    "swap_kind_between",
    "win_score",
]
