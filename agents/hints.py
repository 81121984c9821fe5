"""Greedy's hints: what :class:`~agents.greedy.GreedyAgent` (its kernel) thinks of a
decision, as extra inputs for learned agents.

A policy network that reads only the ``env121_v1`` observation must learn the
combinatorics of 121's patterns from scratch before it can tell a good swap
from a bad one; with these inputs it starts from the rule-based player's
judgement and learns where to depart from it. What the hints mean, their
names, sizes and places in the network's input are declared beside the
observation's layout (:data:`agents.inputs.INPUT_LAYOUTS`, whose module
docstring has their table); this module computes them, writing through the named views
of :data:`~agents.inputs.GREEDY_HINTS_LAYOUT` and
:data:`~agents.inputs.SEARCH_HINTS_LAYOUT`. Greedy's hints are two
pieces of ``NUM_ACTIONS`` entries each, aligned with the action ids:

* ``greedy_choice`` — 1 at the action greedy plays, 0 elsewhere;
* ``greedy_gain`` — for each legal swap (Đổi) action, the value greedy gains
  by it (:func:`agents.batched_greedy.greedy_gains`: Điểm of the wins on unseen cards of the
  hand it makes minus those of the hand kept); for ``NHAT_BAN``, the value of
  the best Nhất Bản arrangement minus that of the free hand; divided by
  :data:`~agents.inputs.GAIN_SCALE`; 0 elsewhere.

A network trained with them records ``inputs: "observation+greedy_hints"``
in its checkpoint (:mod:`agents.ppo`), and its agent computes them on every
decision, so it thinks about as long as greedy does.

``inputs: "observation+search_hints"`` adds two more pieces, the *search
hints* (:func:`search_hints`): what the first look of :class:`~agents.mc.MCAgent`
(:data:`agents.mc.FIRST_LOOK` determinizations, its leaf playout) measures of
each of its plans against greedy's —

* ``search_gain`` — the plan's mean gain in points over greedy's plan,
  divided by :data:`~agents.inputs.SEARCH_SCALE` (for a swap
  planned both with and without declaring Nhất Bản, the better of the two);
* ``search_z`` — that gain in standard errors of the paired differences,
  clipped to ±:data:`~agents.inputs.Z_CLIP` and divided by it;

0 for greedy's own plan, for actions the search does not plan (on a Cướp, the
swaps beyond its ``width``) and for decisions it does not search. Such a
network's agent draws determinizations (it declares ``uses_search``) and
thinks about as long as ``mc``'s first look, tens of milliseconds.

``inputs: "observation+swap_wins"`` is not a hint of anyone's judgement but
rules knowledge, for networks that learn from scratch (as DouZero encodes each
candidate action): :func:`swap_wins` gives, per legal swap and for PASS, what
the hand the seat would hold after it can win on — the Điểm of its wins on the
unseen cards, summed (``swap_points``), and how many unseen cards it wins on
(``swap_waits``) — from the win table and public counting alone (no
related-pairs term, no Cướp margin, no choice). Such a network decides every
move itself, Ù included; its agent thinks a little longer than greedy.

``inputs: "observation+swap_wins+nb_wins"`` adds the same knowledge for the
Nhất Bản decisions (:func:`nb_wins`): per NHAT_BAN, NB_GAP(slot) and placed
CARD(c), what the best legal arrangement that action leaves open wins on
(``nb_points``, ``nb_waits``), every legal arrangement scored (an exact max,
not greedy's sample of candidates); for PASS of the choice, the free hand's.

A policy with greedy's hints also leaves to greedy the decisions that need no
judgement of the game (:func:`greedy_decides`): a forced move, Ù and Thế
trắng (every built-in agent takes them), and laying out a declared Nhất Bản
arrangement, six placement steps in which a network trained by reward alone
only learns to spoil the arrangement it declared. Training sees the same
split: :class:`training.hinted_seat.HintedSeat` plays those decisions with greedy inside the
environment, so the learner's steps are only its swaps, passes and Nhất Bản
choices.
"""

from __future__ import annotations

import numpy as np

from agents.batched_greedy import greedy_gains
from agents.batched_hints import encode_nb_wins, encode_swap_wins, new_nb_memory
from agents.greedy import GreedyAgent
from agents.inputs import (
    GAIN_SCALE,
    GREEDY_HINTS_LAYOUT,
    INPUT_LAYOUTS,
    NB_WINS_LAYOUT,
    SEARCH_HINTS_LAYOUT,
    SEARCH_SCALE,
    SWAP_WINS_LAYOUT,
    Z_CLIP,
)
from agents.knowledge import obvious_action
from agents.mc import FIRST_LOOK, MCAgent, plan_gains
from env121.engine.actions import NHAT_BAN
from env121.engine.game import kernel_config_of
from env121.engine.seeds import Stream, derive_seed
from env121.engine.state import Phase
from env121.play.observation import Layout
from env121.play.turn import Turn

HINTS_SIZE = GREEDY_HINTS_LAYOUT.size
"""Entries of :func:`greedy_hints`."""
SEARCH_HINTS_SIZE = SEARCH_HINTS_LAYOUT.size
"""Entries of :func:`search_hints`."""
SWAP_WINS_SIZE = SWAP_WINS_LAYOUT.size
"""Entries of :func:`swap_wins`."""
NB_WINS_SIZE = NB_WINS_LAYOUT.size
"""Entries of :func:`nb_wins`."""
_LAYOUT = (Phase.NB_GAP, Phase.NB_PLACE)
_FIRST = np.zeros(1, dtype=np.int64)
"""The one game of a batch of one (a turn's seat record)."""
INPUTS: dict[str, int] = {name: layout.size for name, layout in INPUT_LAYOUTS.items()}
"""The width of each input set a policy network may read
(:data:`agents.inputs.INPUT_LAYOUTS`)."""
SEARCHING_INPUTS = tuple(
    name for name, layout in INPUT_LAYOUTS.items() if SEARCH_HINTS_LAYOUT in layout.parts
)
"""The inputs whose hints draw determinizations (those with the search hints)."""


def greedy_hints(turn: Turn, greedy: GreedyAgent) -> np.ndarray:
    """The hints of ``turn`` (``float32[HINTS_SIZE]``); see the module docstring.
    Greedy's choice and gains come from its kernel
    (:func:`agents.batched_greedy.greedy_gains`) on the turn's
    :meth:`~env121.play.turn.Turn.seat_record`."""
    hints = np.zeros(HINTS_SIZE, dtype=np.float32)
    part = GREEDY_HINTS_LAYOUT.views(hints)
    legal = turn.legal_actions
    record = turn.seat_record()
    part["greedy_choice"][greedy.act_on(record, turn)] = 1.0
    phase = turn.view.phase
    if (phase == Phase.OFFER and len(legal) > 1) or (
        phase == Phase.NB_CHOICE and NHAT_BAN in legal
    ):
        gains = np.empty(len(part["greedy_gain"]))
        greedy_gains(record, kernel_config_of(turn.config), gains)
        judged = ~np.isnan(gains)
        part["greedy_gain"][judged] = gains[judged] / GAIN_SCALE
    return hints


def greedy_decides(turn: Turn) -> bool:
    """Whether a hinted policy leaves ``turn`` to greedy: a forced move, Ù or
    Thế trắng on offer, or a Nhất Bản arrangement to lay out."""
    return obvious_action(turn.legal_actions) is not None or turn.view.phase in _LAYOUT


def swap_wins(turn: Turn) -> np.ndarray:
    """What each action of ``turn`` leaves the seat to win on
    (``float32[SWAP_WINS_SIZE]``, :data:`~agents.inputs.SWAP_WINS_LAYOUT`):
    in OFFER, for each legal swap the five cards it makes — locked (Bội ước)
    when the seat has locked cards or the swap is a Cướp — and for PASS the
    five kept (under Nhất Bản, its fixed arrangement); per hand, the Điểm of Ù
    on each unseen card summed, and how many unseen cards it wins on. All
    zeros in every other phase. Computed by the kernel
    (:func:`agents.batched_hints.swap_wins`) on the turn's
    :meth:`~env121.play.turn.Turn.seat_record`; the readable definition is
    ``tests/support/hints.py``."""
    values = np.zeros((1, SWAP_WINS_SIZE), dtype=np.float32)
    encode_swap_wins(turn.seat_record(), _FIRST, kernel_config_of(turn.config), values)
    return values.reshape(-1)


def nb_wins(turn: Turn) -> np.ndarray:
    """What each Nhất Bản action of ``turn`` leaves the seat to win on
    (``float32[NB_WINS_SIZE]``, :data:`~agents.inputs.NB_WINS_LAYOUT`): the
    best ``(points, waits)`` — by points, then waits — over the legal
    arrangements the action leaves open: in NB_CHOICE all of them for
    NHAT_BAN (PASS: the free hand, as :func:`swap_wins` gives PASS in OFFER);
    in NB_GAP those with the gap in that slot; in NB_PLACE those with the gap
    chosen, the cards placed so far and that card in the next slot. All zeros
    in every other phase. Computed by the kernel
    (:func:`agents.batched_hints.nb_wins`) on the turn's
    :meth:`~env121.play.turn.Turn.seat_record`; the readable definition is
    ``tests/support/hints.py``."""
    values = np.zeros((1, NB_WINS_SIZE), dtype=np.float32)
    config = kernel_config_of(turn.config)
    encode_nb_wins(turn.seat_record(), _FIRST, config, new_nb_memory(1), values)
    return values.reshape(-1)


def search_hints(turn: Turn, searcher: MCAgent) -> np.ndarray:
    """The search hints of ``turn`` (``float32[SEARCH_HINTS_SIZE]``): the first
    look of ``searcher`` at its plans (its own generator draws the
    determinizations; ``turn`` must grant them); see the module docstring."""
    hints = np.zeros(SEARCH_HINTS_SIZE, dtype=np.float32)
    phase = turn.view.phase
    if greedy_decides(turn) or phase not in (Phase.OFFER, Phase.NB_CHOICE):
        return hints
    plans = searcher.plans(turn)
    if len({action for action, _ in plans}) == 1:
        return hints
    gains, z = plan_gains(searcher.results(turn, plans, searcher.decision_seed(), 0, FIRST_LOOK))
    best: dict[int, int] = {}  # action -> index of its best plan
    for index, (action, _) in enumerate(plans):
        if action not in best or gains[index] > gains[best[action]]:
            best[action] = index
    part = SEARCH_HINTS_LAYOUT.views(hints)
    for action, index in best.items():
        part["search_gain"][action] = gains[index] / SEARCH_SCALE
        part["search_z"][action] = np.clip(z[index], -Z_CLIP, Z_CLIP) / Z_CLIP
    return hints


def hints_seed(seed: int) -> int:
    """The seed of the search hints' own stream, derived from the seed of the
    agent or environment that holds them (so the two streams differ): the
    stream ``HINTS`` of :mod:`env121.engine.seeds`."""
    return derive_seed(seed, Stream.HINTS)


class Hinter:
    """What a network reading ``inputs`` (a key of :data:`INPUTS`) is given,
    and greedy for the decisions such a network leaves to it. Search hints
    draw determinizations from the hinter's own generator (:meth:`reset`)."""

    def __init__(self, inputs: str) -> None:
        if inputs not in INPUT_LAYOUTS:
            raise ValueError(
                f"inputs={inputs!r} is not valid: expected one of {sorted(INPUT_LAYOUTS)}"
            )
        self.inputs = inputs
        self.layout = INPUT_LAYOUTS[inputs]
        """The layout of the network's input: the observation, then its hint parts."""
        self.greedy = GreedyAgent()
        self.searcher = MCAgent()
        self.uses_search = inputs in SEARCHING_INPUTS
        """Whether the hints need turns that grant determinizations."""
        self.with_greedy_hints = GREEDY_HINTS_LAYOUT in self.layout.parts
        """Whether the inputs hold greedy's hints (then greedy plays what
        :func:`greedy_decides`)."""

    def reset(self, seed: int) -> None:
        """Reseed the search hints' determinizations."""
        self.searcher.reset(seed)

    def leaves_to_greedy(self, turn: Turn) -> bool:
        """Whether a network reading these inputs leaves ``turn`` to greedy
        (:func:`greedy_decides`, for inputs with greedy's hints only: a network
        reading the bare observation, :func:`swap_wins` or :func:`nb_wins`
        decides every move)."""
        return self.with_greedy_hints and greedy_decides(turn)

    def hints(self, turn: Turn) -> np.ndarray:
        """What follows the observation in the network's input: its hint
        parts, one after the other (empty for the bare observation)."""
        parts = [self._hint_part(part, turn) for part in self.layout.parts[1:]]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)

    def _hint_part(self, part: Layout, turn: Turn) -> np.ndarray:
        """The values of one hint part of the input for ``turn``."""
        if part is GREEDY_HINTS_LAYOUT:
            return greedy_hints(turn, self.greedy)
        if part is SEARCH_HINTS_LAYOUT:
            return search_hints(turn, self.searcher)
        if part is SWAP_WINS_LAYOUT:
            return swap_wins(turn)
        if part is NB_WINS_LAYOUT:
            return nb_wins(turn)
        raise ValueError(f"input part {part.name!r} is not a hint part this module computes")

    def __call__(self, turn: Turn) -> np.ndarray:
        """The network's input for ``turn`` (``float32[INPUTS[inputs]]``)."""
        return np.concatenate([turn.observation, self.hints(turn)]).astype(np.float32)


__all__ = [
    "HINTS_SIZE",
    "INPUTS",
    "NB_WINS_SIZE",
    "SEARCHING_INPUTS",
    "SEARCH_HINTS_SIZE",
    "SWAP_WINS_SIZE",
    "Hinter",
    "greedy_decides",
    "greedy_hints",
    "hints_seed",
    "nb_wins",
    "search_hints",
    "swap_wins",
]
