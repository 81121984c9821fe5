"""The observation oracle: the ``env121_v1`` observation written in Python from a State.

Not part of env121: every observation env121 makes is written by the compiled
encoder (:mod:`env121.play.batched_observation`) from the kernel's record.
This is the readable definition of the same vector, piece by piece through
the named views of :data:`~env121.play.observation.OBSERVATION_LAYOUT`,
that ``tests/play/test_batched_observation.py`` proves the encoder equal to,
seat by seat and step by step.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np

from env121.engine.actions import NUM_SLOTS
from env121.engine.deal import NOC_SIZE, NUM_AN_SI
from env121.engine.game import swap_kind
from env121.engine.state import MAX_CUOP, NUM_SEATS, Phase, State
from env121.engine.win_table import seat_win_points
from env121.play.observation import (
    OBS_SIZE,
    OBSERVATION_LAYOUT,
    PHASES,
    POINTS_SCALE,
    SWAP_KINDS,
)
from env121.rules.waits import GAP, placement_order

_S = NUM_SEATS

_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_SWAP_INDEX = {kind: i for i, kind in enumerate(SWAP_KINDS)}
_SCORES, _STANDINGS = OBSERVATION_LAYOUT.piece("scores"), OBSERVATION_LAYOUT.piece("standings")


class _Canvas(threading.local):
    """Each thread's observation vector and its named views, made once and
    written over for every observation, as an OpenSpiel observer owns its
    tensor and its dict of views (making the 26 views costs about as much as
    writing an observation)."""

    def __init__(self) -> None:
        self.vector = np.zeros(OBS_SIZE, dtype=np.float32)
        self.views = OBSERVATION_LAYOUT.views(self.vector)


_CANVAS = _Canvas()


def encode_observation(state: State, seat: int) -> np.ndarray:
    """The observation vector of ``seat`` (0..3): what it knows, seat-relative,
    written through the named views of :data:`OBSERVATION_LAYOUT` (a new array)."""
    obs, o = _CANVAS.vector, _CANVAS.views
    obs.fill(0.0)
    o["phase"][_PHASE_INDEX[state.phase]] = 1.0
    acting = state.current_player
    if acting >= 0:
        o["to_act"][(acting - seat) % _S] = 1.0
    _mark(o["hand"], state.hands[seat])
    start = state.config.starting_points
    standings = state.standings()
    for r in range(_S):  # row r: the seat r places after ``seat`` in turn order
        s = (seat + r) % _S
        locked = state.locked[s]
        if locked:
            _mark(o["locked"][r], locked)
            o["cuop_used"][r, : len(locked)] = 1.0  # a Cướp per locked card
        if state.known[s]:
            _mark(o["known"][r], state.known[s])
        if state.nhat_ban[s]:
            o["nhat_ban"][r] = 1.0
        o["scores"][r] = min(max(state.scores[s] / start, _SCORES.low), _SCORES.high)
        o["standings"][r] = min(max(standings[s] / start, _STANDINGS.low), _STANDINGS.high)
    o["cuop_left"][0] = (MAX_CUOP - len(state.locked[seat])) / MAX_CUOP
    offer = state.offer_card
    if offer >= 0:
        o["offer"][offer] = 1.0
        o["offer_exposer"][(state.offer_exposer - seat) % _S] = 1.0
        if state.offer_flipped:
            o["offer_flipped"][0] = 1.0
        o["offer_swap_kind"][_SWAP_INDEX[swap_kind(state, seat)]] = 1.0
    if state.phase == Phase.OFFER:
        pending = state.ask_order[state.ask_pos + 1 :]
        _mark(o["ask_pending"], [(s - seat) % _S for s in pending])
    _mark(o["dead"], state.dead)
    o["chi_diem"][state.chi_diem] = 1.0
    revealed = state.revealed_an_si
    _mark(o["an_si"], revealed)
    o["an_si_hidden"][0] = (len(state.an_si) - len(revealed)) / NUM_AN_SI
    o["noc_left"][0] = state.noc_left / NOC_SIZE
    o["dealer"][(state.dealer - seat) % _S] = 1.0
    o["vong"][state.vong] = 1.0
    o["van"][state.van] = 1.0
    nb_slots, nb_gap = o["nb_slots"], o["nb_gap"]
    for slot, c in enumerate(_own_arrangement(state, seat)):
        if c == GAP:
            nb_gap[slot] = 1.0
        elif c >= 0:
            nb_slots[slot, c] = 1.0
    o["win_points"][:] = seat_win_points(state, seat) / POINTS_SCALE
    return np.copy(obs)


def _mark(view: np.ndarray, indices: Iterable[int]) -> None:
    """Set ``view`` to 1 at each of ``indices`` (one by one: for the few
    indices of a piece, faster than one fancy-indexed assignment)."""
    for i in indices:
        view[i] = 1.0


def _own_arrangement(state: State, seat: int) -> tuple[int, ...]:
    """The seat's Nhất Bản slots: the fixed arrangement, or the one it is
    placing (GAP in the chosen empty slot, -2 in slots not filled yet), or ()."""
    fixed = state.nb_arrangement[seat]
    if fixed:
        return fixed
    if state.current_player != seat or state.phase != Phase.NB_PLACE:
        return ()
    slots = [-2] * NUM_SLOTS
    slots[state.nb_gap] = GAP
    for slot, c in zip(placement_order(state.nb_gap), state.nb_placed, strict=False):
        slots[slot] = c
    return tuple(slots)


__all__ = ["encode_observation"]
