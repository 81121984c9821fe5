"""The hint parts a policy network may read after the observation, and the input sets.

The environment's observation (:data:`env121.play.observation.OBSERVATION_LAYOUT`)
is the seat's view; what an agent computes from it for its network is
declared here, in the same :class:`~env121.play.observation.Layout` of named
pieces:

* :data:`GREEDY_HINTS_LAYOUT` and :data:`SEARCH_HINTS_LAYOUT` — greedy's hints
  and the search hints (:mod:`agents.hints`);
* :data:`SWAP_WINS_LAYOUT` — per action, what the hand the seat would hold
  after it can win on: rules knowledge and public counting only, no agent's
  judgement (:func:`agents.hints.swap_wins`; for many games at once
  :mod:`agents.batched_hints`);
* :data:`NB_WINS_LAYOUT` — the same for the Nhất Bản decisions: per action,
  what the best legal arrangement it leaves open can win on
  (:func:`agents.hints.nb_wins`).

:data:`INPUT_LAYOUTS` names the input sets a network may read (a checkpoint
records its ``inputs``, :mod:`agents.ppo`): the observation alone, or followed
by hint parts. Hint pieces have one entry per action id
(:mod:`env121.engine.actions`). The tables below are made from the pieces
(:func:`inputs_table`).
"""

from __future__ import annotations

import numpy as np

from env121.engine.actions import NUM_ACTIONS
from env121.engine.deal import HAND_SIZE
from env121.engine.layout import literal_block
from env121.play.observation import OBSERVATION_LAYOUT, POINTS_SCALE, InputPiece, Layout
from env121.rules.cards import NUM_CARDS

GAIN_SCALE = 10.0
"""``greedy_gain`` holds Điểm / GAIN_SCALE (a gain of one winning card worth 5 Điểm → 0.5)."""
SEARCH_SCALE = 100.0
"""``search_gain`` holds points / SEARCH_SCALE, as rewards do (points / 100)."""
Z_CLIP = 10.0
"""``search_z`` holds standard errors clipped to ±Z_CLIP, divided by it."""
SWAP_POINTS_SCALE = POINTS_SCALE
"""``swap_points`` holds Điểm summed over the unseen cards / SWAP_POINTS_SCALE
(as ``win_points``: a hand waiting on a few cards of a few Điểm each is about 1)."""
SWAP_WAITS_SCALE = 10.0
"""``swap_waits`` holds a count of unseen cards / SWAP_WAITS_SCALE."""
MAX_UNSEEN = NUM_CARDS - HAND_SIZE - 2
"""The most cards a seat asked about an offer can have unseen: all but its
five, the card on offer and the Chỉ Điểm."""

_A = NUM_ACTIONS

GREEDY_HINTS_LAYOUT = Layout(
    "greedy_hints",
    (
        InputPiece("greedy_choice", (_A,), "1 at the action greedy plays"),
        InputPiece(
            "greedy_gain",
            (_A,),
            "greedy's value gain by each legal swap and by NHAT_BAN (its best arrangement), "
            f"Điểm / {GAIN_SCALE:g}; 0 elsewhere",
            -np.inf,
            np.inf,
        ),
    ),
)
"""Greedy's hints: what :class:`~agents.greedy.GreedyAgent` thinks of a
decision (:func:`agents.hints.greedy_hints`)."""

SEARCH_HINTS_LAYOUT = Layout(
    "search_hints",
    (
        InputPiece(
            "search_gain",
            (_A,),
            "mc's first look: mean gain in points of the action's best plan over "
            f"greedy's, / {SEARCH_SCALE:g}; 0 if not searched",
            -np.inf,
            np.inf,
        ),
        InputPiece(
            "search_z",
            (_A,),
            f"that gain in standard errors, clipped to ±{Z_CLIP:g}, / {Z_CLIP:g}",
            -1.0,
            1.0,
        ),
    ),
)
"""The search hints: what the first look of :class:`~agents.mc.MCAgent`
measures of each of its plans against greedy's (:func:`agents.hints.search_hints`)."""

_MAX_WIN = OBSERVATION_LAYOUT.piece("win_points").high * POINTS_SCALE
SWAP_WINS_LAYOUT = Layout(
    "swap_wins",
    (
        InputPiece(
            "swap_points",
            (_A,),
            "per legal swap and PASS (offer only): Điểm of the Ù the hand it leaves would "
            f"make, summed over the unseen cards, / {SWAP_POINTS_SCALE:g}; 0 elsewhere",
            0.0,
            MAX_UNSEEN * _MAX_WIN / SWAP_POINTS_SCALE,
        ),
        InputPiece(
            "swap_waits",
            (_A,),
            f"the unseen cards that hand wins on, / {SWAP_WAITS_SCALE:g}",
            0.0,
            MAX_UNSEEN / SWAP_WAITS_SCALE,
        ),
    ),
)
"""What each action leaves the seat to win on (:func:`agents.hints.swap_wins`):
for a legal swap (Đổi) the hand it makes, locked (Bội ước) when the seat has
locked cards or the swap is a Cướp; for PASS the hand kept (under Nhất Bản its
fixed arrangement). Rules knowledge (the win table,
:func:`env121.engine.win_table.win_points`) and public counting (the unseen
cards, :func:`tests.support.knowledge.unseen_cards`) only; all zeros outside OFFER."""

NB_WINS_LAYOUT = Layout(
    "nb_wins",
    (
        InputPiece(
            "nb_points",
            (_A,),
            "per legal NHAT_BAN, NB_GAP(slot) and placed CARD(c) (Nhất Bản choice, gap and "
            "placement only): Điểm of the Ù the best legal arrangement it leaves open would "
            f"make, summed over the unseen cards, / {SWAP_POINTS_SCALE:g}; PASS of the choice: "
            "the free hand's; 0 elsewhere",
            0.0,
            MAX_UNSEEN * _MAX_WIN / SWAP_POINTS_SCALE,
        ),
        InputPiece(
            "nb_waits",
            (_A,),
            f"the unseen cards that arrangement (hand) wins on, / {SWAP_WAITS_SCALE:g}",
            0.0,
            MAX_UNSEEN / SWAP_WAITS_SCALE,
        ),
    ),
)
"""What each Nhất Bản decision leaves the seat to win on (:func:`agents.hints.nb_wins`):
in NB_CHOICE, for NHAT_BAN the best of the legal arrangements of its five
(:func:`env121.rules.waits.nhat_ban_arrangements`, or all 720 without [R-8]) and
for PASS the free hand kept; in NB_GAP, per gap slot the best arrangement with
that gap; in NB_PLACE, per card that may fill the next slot the best
arrangement with the gap chosen, the cards placed so far and that card next.
"Best" is exact (every legal arrangement is scored, none sampled), by the
summed Điểm first, then by the count of wins. The same rules knowledge and
public counting as :data:`SWAP_WINS_LAYOUT`; all zeros in every other phase."""

INPUT_LAYOUTS: dict[str, Layout] = {
    layout.name: layout
    for layout in (
        OBSERVATION_LAYOUT,
        Layout.joined("observation+greedy_hints", (OBSERVATION_LAYOUT, GREEDY_HINTS_LAYOUT)),
        Layout.joined(
            "observation+search_hints",
            (OBSERVATION_LAYOUT, GREEDY_HINTS_LAYOUT, SEARCH_HINTS_LAYOUT),
        ),
        Layout.joined("observation+swap_wins", (OBSERVATION_LAYOUT, SWAP_WINS_LAYOUT)),
        Layout.joined(
            "observation+swap_wins+nb_wins", (OBSERVATION_LAYOUT, SWAP_WINS_LAYOUT, NB_WINS_LAYOUT)
        ),
    )
}
"""The input sets a policy network may read (a checkpoint records its
``inputs``, :mod:`agents.ppo`): the observation, then hint parts."""


def inputs_table() -> str:
    """The input sets and the tables of their hint parts (made from the data),
    each hint piece at its index in the input sets that hold it."""
    width = max(len(name) for name in INPUT_LAYOUTS)
    lines = ["Input sets (what a checkpoint records as its inputs):"]
    for layout in INPUT_LAYOUTS.values():
        parts = " + ".join(part.name for part in layout.parts)
        lines.append(f"  {layout.name:<{width}} {layout.size:>5} entries: {parts}")
    hint_parts = dict.fromkeys(part for layout in INPUT_LAYOUTS.values() for part in layout.parts)
    del hint_parts[OBSERVATION_LAYOUT]
    for part in hint_parts:
        holders = [layout for layout in INPUT_LAYOUTS.values() if part in layout.parts]
        where = ", ".join(holder.name for holder in holders)
        lines += ["", f"{part.name} ({part.size} entries, in {where}):", holders[0].table(part)]
    return "\n".join(lines)


__doc__ = "\n\n".join(
    (
        __doc__ or "",
        literal_block("Hint parts, after the observation in a network's input", inputs_table()),
    )
)

__all__ = [
    "GAIN_SCALE",
    "GREEDY_HINTS_LAYOUT",
    "INPUT_LAYOUTS",
    "MAX_UNSEEN",
    "NB_WINS_LAYOUT",
    "SEARCH_HINTS_LAYOUT",
    "SEARCH_SCALE",
    "SWAP_POINTS_SCALE",
    "SWAP_WAITS_SCALE",
    "SWAP_WINS_LAYOUT",
    "Z_CLIP",
    "inputs_table",
]
