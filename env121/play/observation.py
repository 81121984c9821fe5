"""What one seat observes, as a flat ``float32`` vector declared once as data.

:data:`OBSERVATION_LAYOUT` is a list of ``(name, shape, meaning, low, high)``
pieces. The flat vector, its offsets, the named views (:func:`views`), the
bounds of the observation space and the table in this docstring are all made
from it. :func:`encode_observation` writes the pieces for one seat of an
engine :class:`~env121.engine.state.State`; :func:`encode_action_mask` turns the
engine's legal actions into the mask. Both read only what the seat may know
(:mod:`env121.engine.view`), so re-dealing everything hidden from the seat does not
change them (a test checks it with :func:`env121.engine.view.sample_determinization`).

Seat-relative rows: a piece of shape ``(4, …)`` or ``(4,)`` has one row per
seat, row 0 the observing seat, then the seats after it in turn order (row 1
plays next, row 2 sits opposite, row 3 played before). Card pieces have one
entry per card id (``11 * figure + suit``, :mod:`env121.rules.cards`).

``win_points`` is the derived feature that makes learning practical: for each
card, the Điểm (divided by 10) the seat would score by Ù if that card were on
offer now, 0 when it would not be a win. It counts the Thế, the Thưởng that
depend on the cards and on the seat being the dealer (Thắng cái), and the
indicators; it leaves out Tự thân and Kết chung, which depend on how the card
comes (own flip, last card of the Nọc). Under Nhất Bản it is for the fixed
arrangement. It is cached per (cards, locked, indicators, dealer, Nhất Bản
arrangement): a hand changes only when its seat swaps.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from env121.engine.actions import NUM_ACTIONS, NUM_SLOTS
from env121.engine.deal import NOC_SIZE, NUM_AN_SI
from env121.engine.game import legal_actions, swap_kind
from env121.engine.layout import offsets
from env121.engine.state import MAX_CUOP, NUM_SEATS, VONG_PER_VAN, Phase, State, SwapKind
from env121.engine.win_table import seat_win_points
from env121.rules.cards import (
    NUM_CARDS,
)
from env121.rules.waits import GAP, placement_order

MAX_VAN = 4
"""The longest match (``RuleConfig.num_van``) the ``van`` piece can show."""
POINTS_SCALE = 10.0
"""``win_points`` holds Điểm / POINTS_SCALE."""


class ObsPiece(NamedTuple):
    """One named block of the observation vector."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    low: float = 0.0
    high: float = 1.0

    @property
    def size(self) -> int:
        """Number of entries of the piece in the flat vector."""
        return int(np.prod(self.shape))


PHASES: tuple[Phase, ...] = tuple(Phase)
SWAP_KINDS: tuple[SwapKind, ...] = (SwapKind.BOC, SwapKind.LAY, SwapKind.CUOP)
_S, _C = NUM_SEATS, NUM_CARDS

OBSERVATION_LAYOUT: tuple[ObsPiece, ...] = (
    ObsPiece("phase", (len(PHASES),), "one-hot phase: " + ", ".join(p.value for p in PHASES)),
    ObsPiece("to_act", (_S,), "the seat to act (all 0 once the match is over)"),
    ObsPiece("hand", (_C,), "my free (swappable) cards"),
    ObsPiece("locked", (_S, _C), "cards each seat locked face up by a Cướp (khóa)"),
    ObsPiece("known", (_S, _C), "free cards each seat is publicly known to hold"),
    ObsPiece("nhat_ban", (_S,), "each seat has declared Nhất Bản"),
    ObsPiece("cuop_used", (_S, MAX_CUOP), "Cướp made this vòng by each seat (≥1, ≥2)"),
    ObsPiece("cuop_left", (1,), f"my Cướp left this vòng / {MAX_CUOP}"),
    ObsPiece("offer", (_C,), "the card on offer"),
    ObsPiece("offer_exposer", (_S,), "who put the card on offer face up"),
    ObsPiece("offer_flipped", (1,), "1: flipped from the Nọc; 0: put out of a hand"),
    ObsPiece("offer_swap_kind", (len(SWAP_KINDS),), "taking it would be for me: Bốc, Lấy, Cướp"),
    ObsPiece("ask_pending", (_S,), "seats to be asked about the card on offer after the one now"),
    ObsPiece("dead", (_C,), "dead cards on the table (every seat asked passed)"),
    ObsPiece("chi_diem", (_C,), "the Chỉ Điểm (face-up indicator)"),
    ObsPiece("an_si", (_C,), "the Ẩn Sĩ turned face up"),
    ObsPiece("an_si_hidden", (1,), f"Ẩn Sĩ still face down / {NUM_AN_SI}"),
    ObsPiece("noc_left", (1,), f"cards left in the Nọc / {NOC_SIZE}"),
    ObsPiece("dealer", (_S,), "the dealer (cái) of this vòng"),
    ObsPiece("vong", (VONG_PER_VAN,), "the vòng within the ván, one-hot"),
    ObsPiece("van", (MAX_VAN,), "the ván within the match, one-hot"),
    ObsPiece("scores", (_S,), "points / starting_points, clipped", -2.0, 6.0),
    ObsPiece("standings", (_S,), "match standing / starting_points, clipped", -8.0, 24.0),
    ObsPiece("win_points", (_C,), "Điểm / 10 of Ù on each card were it on offer; 0: no win", 0, 4),
    ObsPiece("nb_slots", (NUM_SLOTS, _C), "my Nhất Bản arrangement, the card in each slot"),
    ObsPiece("nb_gap", (NUM_SLOTS,), "the empty slot of my Nhất Bản arrangement"),
)


OBS_OFFSETS: dict[str, int] = offsets(OBSERVATION_LAYOUT)
OBS_SIZE: int = sum(p.size for p in OBSERVATION_LAYOUT)
OBS_SLICES: dict[str, slice] = {
    p.name: slice(OBS_OFFSETS[p.name], OBS_OFFSETS[p.name] + p.size) for p in OBSERVATION_LAYOUT
}
OBS_LOW: np.ndarray = np.concatenate(
    [np.full(p.size, p.low, dtype=np.float32) for p in OBSERVATION_LAYOUT]
)
OBS_HIGH: np.ndarray = np.concatenate(
    [np.full(p.size, p.high, dtype=np.float32) for p in OBSERVATION_LAYOUT]
)
_PIECES = {p.name: p for p in OBSERVATION_LAYOUT}


def layout_table() -> str:
    """The observation layout as a reStructuredText-style table (made from the data)."""
    rows = [("index", "name", "shape", "range", "meaning")]
    for piece in OBSERVATION_LAYOUT:
        start = OBS_OFFSETS[piece.name]
        index = str(start) if piece.size == 1 else f"{start}..{start + piece.size - 1}"
        shape = "×".join(map(str, piece.shape))
        rows.append((index, piece.name, shape, f"[{piece.low:g}, {piece.high:g}]", piece.meaning))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    rule = " ".join("=" * w for w in widths) + " " + "=" * 20
    lines = [rule]
    for i, row in enumerate(rows):
        lines.append(
            " ".join(f"{v:<{w}}" for v, w in zip(row, widths, strict=False)) + " " + row[4]
        )
        if i == 0:
            lines.append(rule)
    lines.append(rule)
    return "\n".join(line.rstrip() for line in lines)


__doc__ = f"{__doc__}\nObservation layout ({OBS_SIZE} entries, float32)::\n\n" + "\n".join(
    "    " + line for line in layout_table().splitlines()
)


def views(observation: np.ndarray) -> dict[str, np.ndarray]:
    """Named views (no copies) of a flat observation, each in its piece's shape."""
    return {
        name: observation[OBS_SLICES[name]].reshape(_PIECES[name].shape) for name in OBS_OFFSETS
    }


# ------------------------------------------------------------- encoding

_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_SWAP_INDEX = {kind: i for i, kind in enumerate(SWAP_KINDS)}
_O = OBS_OFFSETS


def encode_observation(state: State, seat: int) -> np.ndarray:
    """The observation vector of ``seat`` (0..3): what it knows, seat-relative."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    ones: list[int] = [_O["phase"] + _PHASE_INDEX[state.phase]]
    acting = state.current_player
    if acting >= 0:
        ones.append(_O["to_act"] + (acting - seat) % _S)
    base = _O["hand"]
    ones.extend([base + c for c in state.hands[seat]])
    for s in range(_S):
        r = (s - seat) % _S
        base = _O["locked"] + _C * r
        locked = state.locked[s]
        ones.extend([base + c for c in locked])
        base = _O["known"] + _C * r
        ones.extend([base + c for c in state.known[s]])
        if state.nhat_ban[s]:
            ones.append(_O["nhat_ban"] + r)
        ones.extend(_O["cuop_used"] + MAX_CUOP * r + k for k in range(min(len(locked), MAX_CUOP)))
    obs[_O["cuop_left"]] = (MAX_CUOP - len(state.locked[seat])) / MAX_CUOP
    offer = state.offer_card
    if offer >= 0:
        ones.append(_O["offer"] + offer)
        ones.append(_O["offer_exposer"] + (state.offer_exposer - seat) % _S)
        if state.offer_flipped:
            ones.append(_O["offer_flipped"])
        ones.append(_O["offer_swap_kind"] + _SWAP_INDEX[swap_kind(state, seat)])
    if state.phase == Phase.OFFER:
        base = _O["ask_pending"]
        ones.extend([base + (s - seat) % _S for s in state.ask_order[state.ask_pos + 1 :]])
    base = _O["dead"]
    ones.extend([base + c for c in state.dead])
    ones.append(_O["chi_diem"] + state.chi_diem)
    revealed = state.an_si[: state.an_si_revealed]
    base = _O["an_si"]
    ones.extend([base + c for c in revealed])
    obs[_O["an_si_hidden"]] = (len(state.an_si) - len(revealed)) / NUM_AN_SI
    obs[_O["noc_left"]] = state.noc_left / NOC_SIZE
    ones.append(_O["dealer"] + (state.dealer - seat) % _S)
    ones.append(_O["vong"] + state.vong)
    ones.append(_O["van"] + state.van)
    arrangement = _own_arrangement(state, seat)
    base = _O["nb_slots"]
    for slot, c in enumerate(arrangement):
        if c == GAP:
            ones.append(_O["nb_gap"] + slot)
        elif c >= 0:
            ones.append(base + _C * slot + c)
    obs[ones] = 1.0

    start = state.config.starting_points
    standings = state.standings()
    for s in range(_S):
        r = (s - seat) % _S
        obs[_O["scores"] + r] = min(max(state.scores[s] / start, -2.0), 6.0)
        obs[_O["standings"] + r] = min(max(standings[s] / start, -8.0), 24.0)
    obs[OBS_SLICES["win_points"]] = seat_win_points(state, seat) / POINTS_SCALE
    return obs


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


def encode_action_mask(state: State, seat: int) -> np.ndarray:
    """``int8`` mask over the :data:`~env121.engine.actions.NUM_ACTIONS` ids: the engine's
    legal actions when ``seat`` is to act, all zeros otherwise."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if state.current_player == seat:
        mask[legal_actions(state)] = 1
    return mask


__all__ = [
    "MAX_VAN",
    "OBSERVATION_LAYOUT",
    "OBS_HIGH",
    "OBS_LOW",
    "OBS_OFFSETS",
    "OBS_SIZE",
    "OBS_SLICES",
    "PHASES",
    "POINTS_SCALE",
    "SWAP_KINDS",
    "ObsPiece",
    "encode_action_mask",
    "encode_observation",
    "layout_table",
    "views",
]
