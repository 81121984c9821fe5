"""What one seat observes, declared once as data.

A network's input is a flat ``float32`` vector of named pieces
(:class:`InputPiece`: name, shape, meaning, bounds) grouped in *parts*, each a
:class:`Layout`. :data:`OBSERVATION_LAYOUT` is the ``env121_v1`` observation
of one seat, written by the compiled encoder
(:func:`env121.play.batched_observation.encode_observation`); the hint parts an
agent may add after it for its network are declared in the same way, one
layer up, in :mod:`agents.inputs`. The flat vectors, their offsets, the named
views (:meth:`Layout.views`), the bounds of the observation space and the
table in this docstring are all made from the pieces. :func:`action_mask` is
the one place the action mask is made (from the engine's legal ids;
:func:`encode_action_mask` for one seat of a state). The observation and the
mask read only what the seat may know (:mod:`env121.engine.view`), so
re-dealing everything hidden from the seat does not change them (a test
checks it with :func:`env121.engine.view.sample_determinization`).

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

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

import numpy as np

from env121.engine.actions import NUM_ACTIONS, NUM_SLOTS
from env121.engine.deal import NOC_SIZE, NUM_AN_SI
from env121.engine.game import legal_actions
from env121.engine.layout import literal_block, offsets, text_table
from env121.engine.state import MAX_CUOP, NUM_SEATS, VONG_PER_VAN, Phase, State, SwapKind
from env121.rules.cards import NUM_CARDS

MAX_VAN = 4
"""The longest match (``RuleConfig.num_van``) the ``van`` piece can show."""
POINTS_SCALE = 10.0
"""``win_points`` holds Điểm / POINTS_SCALE."""


class InputPiece(NamedTuple):
    """One named block of a network's input vector."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    low: float = 0.0
    high: float = 1.0

    @property
    def size(self) -> int:
        """Number of entries of the piece in the flat vector."""
        return int(np.prod(self.shape))


class Layout:
    """Named pieces laid end to end in one flat ``float32`` vector, and what
    is made from them: ``size``, ``offsets``, ``slices``, the bounds ``low`` /
    ``high`` (one per entry), :meth:`views` and :meth:`table`. Iterating a
    layout yields its pieces.

    A layout declared from pieces is one part; one joined from parts
    (:meth:`joined`) keeps them, in order, as its ``parts``."""

    def __init__(self, name: str, pieces: Iterable[InputPiece]) -> None:
        self.name = name
        self.pieces = tuple(pieces)
        names = [p.name for p in self.pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"layout {name!r} is not valid: its piece names repeat ({names})")
        self._index = {name: i for i, name in enumerate(names)}
        self.parts: tuple[Layout, ...] = (self,)
        self.offsets: dict[str, int] = offsets(self.pieces)
        self.size: int = sum(p.size for p in self.pieces)
        self.slices: dict[str, slice] = {
            p.name: slice(self.offsets[p.name], self.offsets[p.name] + p.size) for p in self.pieces
        }
        sizes = [p.size for p in self.pieces]
        self.low: np.ndarray = np.repeat([p.low for p in self.pieces], sizes).astype(np.float32)
        self.high: np.ndarray = np.repeat([p.high for p in self.pieces], sizes).astype(np.float32)

    @classmethod
    def joined(cls, name: str, parts: Sequence[Layout]) -> Layout:
        """The layout of ``parts`` laid end to end, named ``name``."""
        layout = cls(name, [piece for part in parts for piece in part.pieces])
        layout.parts = tuple(parts)
        return layout

    def __iter__(self) -> Iterator[InputPiece]:
        return iter(self.pieces)

    def piece(self, name: str) -> InputPiece:
        """The piece named ``name``."""
        return self.pieces[self._index[name]]

    def __repr__(self) -> str:
        return f"Layout({self.name!r}, {self.size} entries)"

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named views (no copies) of a flat vector of this layout, each in its
        piece's shape: writing to a view writes the vector."""
        if vector.shape != (self.size,):
            raise ValueError(
                f"a vector of shape {vector.shape} does not fit layout {self.name!r}: "
                f"expected shape ({self.size},)"
            )
        return {p.name: vector[self.slices[p.name]].reshape(p.shape) for p in self.pieces}

    def table(self, part: Layout | None = None) -> str:
        """The pieces of ``part`` (default: all) as a reStructuredText-style
        table, at their indices in this layout's vector."""
        rows = [("index", "name", "shape", "range", "meaning")]
        for piece in self.pieces if part is None else part.pieces:
            start = self.offsets[piece.name]
            index = str(start) if piece.size == 1 else f"{start}..{start + piece.size - 1}"
            shape = "×".join(map(str, piece.shape))
            bounds = f"[{piece.low:g}, {piece.high:g}]"
            rows.append((index, piece.name, shape, bounds, piece.meaning))
        return text_table(rows)


PHASES: tuple[Phase, ...] = tuple(Phase)
SWAP_KINDS: tuple[SwapKind, ...] = (SwapKind.BOC, SwapKind.LAY, SwapKind.CUOP)
_S, _C, _A = NUM_SEATS, NUM_CARDS, NUM_ACTIONS

OBSERVATION_LAYOUT = Layout(
    "observation",
    (
        InputPiece("phase", (len(PHASES),), "one-hot phase: " + ", ".join(p.value for p in PHASES)),
        InputPiece("to_act", (_S,), "the seat to act (all 0 once the match is over)"),
        InputPiece("hand", (_C,), "my free (swappable) cards"),
        InputPiece("locked", (_S, _C), "cards each seat locked face up by a Cướp (khóa)"),
        InputPiece("known", (_S, _C), "free cards each seat is publicly known to hold"),
        InputPiece("nhat_ban", (_S,), "each seat has declared Nhất Bản"),
        InputPiece("cuop_used", (_S, MAX_CUOP), "Cướp made this vòng by each seat (≥1, ≥2)"),
        InputPiece("cuop_left", (1,), f"my Cướp left this vòng / {MAX_CUOP}"),
        InputPiece("offer", (_C,), "the card on offer"),
        InputPiece("offer_exposer", (_S,), "who put the card on offer face up"),
        InputPiece("offer_flipped", (1,), "1: flipped from the Nọc; 0: put out of a hand"),
        InputPiece(
            "offer_swap_kind", (len(SWAP_KINDS),), "taking it would be for me: Bốc, Lấy, Cướp"
        ),
        InputPiece(
            "ask_pending", (_S,), "seats to be asked about the card on offer after the one now"
        ),
        InputPiece("dead", (_C,), "dead cards on the table (every seat asked passed)"),
        InputPiece("chi_diem", (_C,), "the Chỉ Điểm (face-up indicator)"),
        InputPiece("an_si", (_C,), "the Ẩn Sĩ turned face up"),
        InputPiece("an_si_hidden", (1,), f"Ẩn Sĩ still face down / {NUM_AN_SI}"),
        InputPiece("noc_left", (1,), f"cards left in the Nọc / {NOC_SIZE}"),
        InputPiece("dealer", (_S,), "the dealer (cái) of this vòng"),
        InputPiece("vong", (VONG_PER_VAN,), "the vòng within the ván, one-hot"),
        InputPiece("van", (MAX_VAN,), "the ván within the match, one-hot"),
        InputPiece("scores", (_S,), "points / starting_points, clipped", -2.0, 6.0),
        InputPiece("standings", (_S,), "match standing / starting_points, clipped", -8.0, 24.0),
        InputPiece(
            "win_points", (_C,), "Điểm / 10 of Ù on each card were it on offer; 0: no win", 0, 4
        ),
        InputPiece("nb_slots", (NUM_SLOTS, _C), "my Nhất Bản arrangement, the card in each slot"),
        InputPiece("nb_gap", (NUM_SLOTS,), "the empty slot of my Nhất Bản arrangement"),
    ),
)
"""The ``env121_v1`` observation of one seat."""

OBS_SIZE: int = OBSERVATION_LAYOUT.size
OBS_LOW: np.ndarray = OBSERVATION_LAYOUT.low
OBS_HIGH: np.ndarray = OBSERVATION_LAYOUT.high


__doc__ = "\n\n".join(
    (
        __doc__ or "",
        literal_block(
            f"Observation layout ({OBS_SIZE} entries, float32)", OBSERVATION_LAYOUT.table()
        ),
    )
)


def views(observation: np.ndarray) -> dict[str, np.ndarray]:
    """Named views (no copies) of an ``env121_v1`` observation, each in its
    piece's shape (:meth:`Layout.views` of :data:`OBSERVATION_LAYOUT`)."""
    return OBSERVATION_LAYOUT.views(observation)


# ------------------------------------------------------------- encoding


def action_mask(legal: Sequence[int]) -> np.ndarray:
    """The action mask: ``int8`` over the :data:`~env121.engine.actions.NUM_ACTIONS`
    ids, 1 at each id of ``legal`` (the one place a mask is made)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if legal:
        mask[list(legal)] = 1
    return mask


def encode_action_mask(state: State, seat: int) -> np.ndarray:
    """The :func:`action_mask` of ``seat``: the engine's legal actions when it
    is to act, all zeros otherwise."""
    return action_mask(legal_actions(state) if state.current_player == seat else ())


__all__ = [
    "MAX_VAN",
    "OBSERVATION_LAYOUT",
    "OBS_HIGH",
    "OBS_LOW",
    "OBS_SIZE",
    "PHASES",
    "POINTS_SCALE",
    "SWAP_KINDS",
    "InputPiece",
    "Layout",
    "action_mask",
    "encode_action_mask",
    "views",
]
