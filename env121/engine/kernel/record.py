"""The batch of games: B matches of 121 as one numpy array of records.

The engine's :class:`~env121.engine.state.State` is one match as a dataclass of
tuples. Here game ``g`` is the record ``games[g]`` of a structured array whose
fields (:data:`FIELDS`, declared once as data below) mirror the ``State`` fields
of the same names: a variable-length tuple there is a fixed-size array here
with its length beside it (``hands`` + ``n_free``, ``locked`` + ``n_locked``,
``dead`` + ``n_dead`` ...), unused entries ``-1``; flags in arrays are
``uint8`` (numba's records hold no ``bool`` arrays). numba kernels
(:mod:`env121.engine.kernel.transitions`) read and write one game through its
record (``r = games[g]; r.hands[seat, i]``), and numpy code reads one field of
every game as a view (``games["scores"]`` is ``[B, 4]``).

Why records and not a named tuple of arrays: numba compiles each kernel for
the types of its arguments, and one record type costs what one argument does,
where a named tuple of ~80 arrays costs each kernel its ~80 (the compile
times are in ``docs/measurements.md``). Each game's fields also sit together
in memory.

Codes: ``phase`` indexes :data:`PHASES` (the
:class:`~env121.engine.state.Phase` in its enum order); ``match_end`` and
``final_match_end`` index :data:`MATCH_ENDS` (-1 while played);
``res_outcome`` indexes :data:`OUTCOMES`; a Swapped event's kind
:data:`SWAP_KINDS`; ``res_the`` the Thế of
:data:`env121.rules.compiled.tables.THE_IDS` (-1: none); bit ``i`` of
``res_bonus_mask`` is :data:`env121.rules.compiled.tables.BONUS_IDS` ``[i]``;
an event row's first int is the index of its class in
:data:`env121.engine.kernel.transitions.EVENT_CLASSES`.

Besides the match a record holds what the last step produced: the rewards per
seat, ``terminated``, the legal actions of the seat now to act, the result of
the last finished vòng (``res_*``), the events of the last step and, where a
match ended in that step, its final standings (``final_*``: the game itself
has then been dealt its next match).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from env121.engine.actions import NUM_SLOTS
from env121.engine.deal import HAND_SIZE, NOC_SIZE, NUM_AN_SI
from env121.engine.layout import text_table
from env121.engine.state import MAX_CUOP, NUM_SEATS, MatchEnd, Outcome, Phase, SwapKind
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.waits import NUM_ARRANGEMENTS

PHASES: tuple[Phase, ...] = tuple(Phase)
OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)
MATCH_ENDS: tuple[MatchEnd, ...] = tuple(MatchEnd)
SWAP_KINDS: tuple[SwapKind, ...] = tuple(SwapKind)

MAX_LEGAL = max(HAND_SIZE + 2, NUM_SLOTS)
"""The most legal actions a seat ever has: five swaps, Ù and PASS (or six gaps)."""
MAX_EVENTS = 12
"""Events one step can emit. The most: a swap that turns an Ẩn Sĩ and reaches
``max_actions_per_vong`` in the last vòng of a ván (Swapped, AnSiTurned,
Drawn, VanEnded or MatchEnded), then the next vòng's (or match's)
VongStarted, four Dealt and its first Flipped: 11."""
EVENT_WIDTH = 10
"""Ints per event row: the event code, then at most nine fields (MatchEnded:
reason, four standings, four ranks)."""


class Field(NamedTuple):
    """One field of a game's record."""

    name: str
    dtype: type
    shape: tuple[int, ...]
    fill: int
    """Its value in a freshly allocated batch."""
    doc: str


_CARD, _INT, _BOOL = np.int8, np.int64, np.bool_
_SEATS = (NUM_SEATS,)
FIELDS: tuple[Field, ...] = (
    # the match
    Field("seed", np.uint64, (), 0, "the match seed: every deal comes from it"),
    Field("rotation", _INT, (), 0, "duplicate-deal rotation, 0..3"),
    Field("van", _INT, (), 0, "ván, from 0"),
    Field("vong", _INT, (), 0, "vòng within the ván, 0..11"),
    Field("dealer", _INT, (), 0, "the seat dealing this vòng"),
    Field("phase", _INT, (), 0, "index into PHASES"),
    Field("scores", _INT, _SEATS, 0, "points per seat"),
    Field("van_start", _INT, _SEATS, 0, "points at the start of the ván"),
    Field("banked", _INT, _SEATS, 0, "sum over finished ván of (final − start)"),
    Field("first_deal", _BOOL, (), 0, "the first vòng is dealt from first_* (not the seed)"),
    Field("first_hands", _CARD, (NUM_SEATS, HAND_SIZE), -1, "explicit first deal: hands"),
    Field("first_chi_diem", _CARD, (), -1, "explicit first deal: Chỉ Điểm"),
    Field("first_an_si", _CARD, (NUM_AN_SI,), -1, "explicit first deal: Ẩn Sĩ"),
    Field("first_noc", _CARD, (NOC_SIZE,), -1, "explicit first deal: Nọc, top first"),
    # the cards
    Field("hands", _CARD, (NUM_SEATS, HAND_SIZE), -1, "free cards per seat, sorted"),
    Field("n_free", _INT, _SEATS, 0, "free cards per seat"),
    Field("locked", _CARD, (NUM_SEATS, MAX_CUOP), -1, "locked cards, in the order stolen"),
    Field("n_locked", _INT, _SEATS, 0, "locked cards per seat (its Cướp this vòng)"),
    Field("known", _CARD, (NUM_SEATS, HAND_SIZE), -1, "free cards publicly known, sorted"),
    Field("n_known", _INT, _SEATS, 0, "known cards per seat"),
    Field("chi_diem", _INT, (), -1, "the face-up indicator"),
    Field("an_si", _CARD, (NUM_AN_SI,), -1, "the face-down indicators, in turning order"),
    Field("an_si_revealed", _INT, (), 0, "Ẩn Sĩ turned so far"),
    Field("noc", _CARD, (NOC_SIZE,), -1, "the Nọc, top first"),
    Field("noc_pos", _INT, (), 0, "cards flipped: noc[noc_pos] is the top"),
    Field("dead", _CARD, (NUM_CARDS,), -1, "dead cards, in order"),
    Field("n_dead", _INT, (), 0, "dead cards"),
    # the card on offer and who is asked about it
    Field("offer_card", _INT, (), -1, "the card on offer (-1: none)"),
    Field("offer_exposer", _INT, (), -1, "who exposed it"),
    Field("offer_flipped", _BOOL, (), 0, "flipped from the Nọc (not put out of a hand)"),
    Field("ask_order", _CARD, _SEATS, -1, "seats asked in order (also in THE_TRANG)"),
    Field("ask_len", _INT, (), 0, "seats in ask_order"),
    Field("ask_pos", _INT, (), 0, "index in ask_order of the seat asked now"),
    # Nhất Bản
    Field("nhat_ban", np.uint8, _SEATS, 0, "1 where Nhất Bản is declared"),
    Field("nb_arrangement", _CARD, (NUM_SEATS, NUM_SLOTS), -1, "fixed arrangements, -1 in gap"),
    Field("nb_gap", _INT, (), -1, "the gap chosen by the declarer now arranging"),
    Field("nb_placed", _CARD, (HAND_SIZE,), -1, "cards placed so far, left to right"),
    Field("n_placed", _INT, (), 0, "cards in nb_placed"),
    Field("nb_waiting", np.uint8, (NUM_ARRANGEMENTS,), 0, "waits.waiting_mask of its hand"),
    # bookkeeping
    Field("vong_actions", _INT, (), 0, "actions taken in this vòng"),
    Field("deal_pending", _BOOL, (), 0, "a vòng ended and the next is to be dealt (in-step)"),
    Field("match_end", _INT, (), -1, "index into MATCH_ENDS; -1 while played"),
    Field("ranks", _INT, _SEATS, 0, "final ranks once the match is over"),
    # the seat to act
    Field("to_act", _INT, (), -1, "the seat to act (never -1 once dealt)"),
    Field("legal", np.int16, (MAX_LEGAL,), -1, "its legal action ids, ascending"),
    Field("n_legal", _INT, (), 0, "legal actions"),
    # the last step
    Field("rewards", np.float32, _SEATS, 0, "each seat's score change in Điểm"),
    Field("terminated", _BOOL, (), 0, "the step ended the match (the next is dealt)"),
    Field("vong_ended", _BOOL, (), 0, "the step ended a vòng (its result in res_*)"),
    Field("events", np.int32, (MAX_EVENTS, EVENT_WIDTH), 0, "event rows: code, fields"),
    Field("n_events", _INT, (), 0, "events of the step"),
    # the last finished vòng (VongResult)
    Field("res_van", _INT, (), 0, "its ván"),
    Field("res_vong", _INT, (), 0, "its vòng"),
    Field("res_dealer", _INT, (), 0, "its dealer"),
    Field("res_outcome", _INT, (), -1, "index into OUTCOMES (-1: no vòng ended yet)"),
    Field("res_seat", _INT, (), -1, "the winner or the offender (-1: a draw)"),
    Field("res_card", _INT, (), -1, "the card won on or wrongly claimed"),
    Field("res_the", _INT, (), -1, "index into THE_IDS (-1: none)"),
    Field("res_tier", _INT, (), 0, "the Thế's tier"),
    Field("res_points", _INT, (), 0, "total Điểm"),
    Field("res_bonus_mask", _INT, (), 0, "bit i: BONUS_IDS[i] earned"),
    Field("res_indicator_points", _INT, (), 0, "Điểm from the indicators"),
    Field("res_arrangement", _CARD, (NUM_SLOTS,), -1, "the scored order"),
    Field("res_n_arrangement", _INT, (), 0, "cards in res_arrangement (6, 5 or 0)"),
    Field("res_nhat_ban", _BOOL, (), 0, "won under Nhất Bản"),
    Field("res_payments", _INT, _SEATS, 0, "points paid per seat"),
    Field("res_truncated", _BOOL, (), 0, "a draw forced by max_actions_per_vong"),
    # the match that ended in the last step (where terminated)
    Field("final_seed", np.uint64, (), 0, "its seed"),
    Field("final_match_end", _INT, (), -1, "index into MATCH_ENDS (-1: none ended yet)"),
    Field("final_scores", _INT, _SEATS, 0, "its final points"),
    Field("final_standings", _INT, _SEATS, 0, "its standings"),
    Field("final_ranks", _INT, _SEATS, 0, "its ranks"),
)

GAME_DTYPE = np.dtype([(f.name, f.dtype, f.shape) for f in FIELDS], align=True)
"""The numpy dtype of one game's record."""


def allocate(num_games: int) -> np.ndarray:
    """``num_games`` fresh game records (deal them with
    :func:`env121.engine.kernel.transitions.reset_games`)."""
    if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
        raise ValueError(f"num_games={num_games!r} is not valid: expected a positive int")
    games = np.zeros(num_games, dtype=GAME_DTYPE)
    for f in FIELDS:
        games[f.name] = f.fill
    return games


def fields_table() -> str:
    """The record's fields as a reStructuredText table (made from :data:`FIELDS`)."""
    rows = [("field", "dtype", "shape", "meaning")]
    rows += [(f.name, np.dtype(f.dtype).name, str(f.shape or ""), f.doc) for f in FIELDS]
    return text_table(rows)


__doc__ = f"{__doc__}\nFields of a game's record::\n\n" + "\n".join(
    f"    {line}".rstrip() for line in fields_table().splitlines()
)

__all__ = [
    "EVENT_WIDTH",
    "FIELDS",
    "GAME_DTYPE",
    "MATCH_ENDS",
    "MAX_EVENTS",
    "MAX_LEGAL",
    "OUTCOMES",
    "PHASES",
    "SWAP_KINDS",
    "Field",
    "allocate",
]
