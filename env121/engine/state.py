"""The match state: one dataclass of plain fields, its events and results.

:class:`State` is data. The functions of :mod:`env121.engine.game` move it (through
the compiled kernel's record it carries); nothing here knows the rules beyond
which seat is to act. Per-seat fields are tuples
indexed by seat 0..3 and every collection field is an immutable tuple, so
:meth:`State.clone` is a shallow copy plus three append-only lists (events,
results, actions): search agents copy states thousands of times.

Vocabulary: a *vòng* is one round (a deal to a win or a draw), a *ván* is 12
vòng, the *match* (trận) is ``config.num_van`` ván. *Nọc* is the draw pile,
*Chỉ Điểm* the face-up indicator, *Ẩn Sĩ* the four face-down indicators
turned one per Cướp (steal), *khóa* a card locked face up by a Cướp.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

import numpy as np

from env121.engine.deal import Deal
from env121.rules.config import RuleConfig

NUM_SEATS = 4
VONG_PER_VAN = 12
MAX_CUOP = 2
"""Cướp (steals) a player may make per vòng (spec §5.4)."""


class Phase(str, Enum):
    """What the seat to act is deciding."""

    THE_TRANG = "the_trang"
    """An eligible seat may declare Thế trắng (THE_TRANG) or decline (PASS)."""
    OFFER = "offer"
    """A seat is asked about the card on offer: U, CARD(c) (swap) or PASS."""
    NB_CHOICE = "nb_choice"
    """Right after a Bốc / Lấy: declare Nhất Bản (NHAT_BAN) or not (PASS)."""
    NB_GAP = "nb_gap"
    """The Nhất Bản declarer picks the empty slot (NB_GAP(slot))."""
    NB_PLACE = "nb_place"
    """The declarer fills the other slots left to right (CARD(c))."""
    GAME_OVER = "game_over"
    """The match has ended; no seat acts."""


class SwapKind(str, Enum):
    """How a swap took the card on offer, by who exposed it (spec §5.4)."""

    BOC = "Bốc"
    """The taker flipped it."""
    LAY = "Lấy"
    """The player just before the taker (P−1) exposed it."""
    CUOP = "Cướp"
    """P−2 or P−3 exposed it: a steal; the card is locked and an Ẩn Sĩ turned."""


# ----------------------------------------------------------------- results


class Outcome(str, Enum):
    """How a vòng ended (:attr:`VongResult.outcome`).

    A ``str`` enum: a member equals its value (``Outcome.U == "u"``), and JSON,
    ``str()`` and f-strings write the value, so infos and logs read as plain text.
    """

    U = "u"
    """A valid Ù: ``seat`` won on ``card``."""
    DEN = "den"
    """Đền, an invalid Ù: ``seat`` pays each other seat 1 Điểm."""
    THE_TRANG = "the_trang"
    """Thế trắng: ``seat`` declared it before the first flip and won 1 Điểm."""
    DRAW = "draw"
    """No winner: the Nọc ran out, or ``max_actions_per_vong`` was reached
    (:attr:`VongResult.truncated`)."""

    def __str__(self) -> str:
        return self.value

    @property
    def is_win(self) -> bool:
        """Whether the result's ``seat`` won the vòng (Ù or Thế trắng)."""
        return self in (Outcome.U, Outcome.THE_TRANG)


class MatchEnd(str, Enum):
    """How a match ended (:attr:`State.match_end`, :class:`MatchEnded`); a
    ``str`` enum like :class:`Outcome`."""

    COMPLETED = "completed"
    """Every ván was played."""
    BUST = "bust"
    """A seat had 0 points or fewer after a payment."""
    QUOC_SI_VO_SONG = "quoc_si_vo_song"
    """A seat won with Quốc Sĩ Vô Song, which wins the match [R-13]."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class VongResult:
    """How one vòng ended and what it paid."""

    van: int
    vong: int
    dealer: int
    outcome: Outcome
    seat: int = -1
    """The winner (u, the_trang) or the offender (den); -1 for a draw."""
    card: int = -1
    """The card won on (u) or wrongly claimed (den)."""
    the: str | None = None
    """The Thế id of a win (None for Thế trắng, a draw, or a Nhất Bản completed hand)."""
    tier: int = 0
    points: int = 0
    """Total Điểm paid for (Thế trắng: 1)."""
    bonuses: tuple[str, ...] = ()
    indicator_points: int = 0
    arrangement: tuple[int, ...] = ()
    """The winner's six cards in the scored order (the declarer's five for Thế trắng)."""
    nhat_ban: bool = False
    payments: tuple[int, ...] = (0, 0, 0, 0)
    truncated: bool = False
    """A draw forced by ``max_actions_per_vong`` (spec §8)."""


# ------------------------------------------------------------------ events
# One NamedTuple per kind of event. Events a seat may not see are listed in
# PRIVATE_EVENTS; their ``seat`` is the only one who sees them.


class VongStarted(NamedTuple):
    """A vòng is dealt."""

    van: int
    vong: int
    dealer: int
    chi_diem: int


class Dealt(NamedTuple):
    """A seat's five dealt cards (private)."""

    seat: int
    cards: tuple[int, ...]


class TheTrangDeclined(NamedTuple):
    """An eligible seat let Thế trắng go (private: it would reveal eligibility)."""

    seat: int


class TheTrangDeclared(NamedTuple):
    """A seat declared Thế trắng with these five cards."""

    seat: int
    cards: tuple[int, ...]


class Flipped(NamedTuple):
    """A seat flipped the top card of the Nọc (a new lượt)."""

    seat: int
    card: int
    noc_left: int


class Passed(NamedTuple):
    """A seat passed (Bỏ) on the card on offer."""

    seat: int
    card: int


class Swapped(NamedTuple):
    """A seat took the card on offer (Bốc / Lấy / Cướp) and put ``put`` out."""

    seat: int
    taken: int
    put: int
    kind: SwapKind
    exposer: int


class AnSiTurned(NamedTuple):
    """The Ẩn Sĩ at ``position`` (0-based, in turning order) was turned after a Cướp."""

    position: int
    card: int


class CardDead(NamedTuple):
    """Every seat asked passed: the card stays dead on the table."""

    card: int
    exposer: int


class NhatBanDeclined(NamedTuple):
    """A seat let Nhất Bản go (private: it would reveal a wait)."""

    seat: int


class NhatBanDeclared(NamedTuple):
    """A seat declared Nhất Bản (public; the arrangement is not)."""

    seat: int


class NhatBanArranged(NamedTuple):
    """The declarer's fixed arrangement, GAP (-1) in the empty slot (private)."""

    seat: int
    arrangement: tuple[int, ...]


class Won(NamedTuple):
    """A valid Ù."""

    seat: int
    card: int
    exposer: int
    flipped: bool
    result: VongResult


class Den(NamedTuple):
    """An invalid Ù (Đền): the declarer pays each other seat 1 Điểm."""

    seat: int
    card: int
    cards: tuple[int, ...]


class Drawn(NamedTuple):
    """The vòng ended with no winner."""

    truncated: bool
    """True when ``max_actions_per_vong`` ended it, False for an empty Nọc."""


class Paid(NamedTuple):
    """Points moved after a vòng; ``scores`` are the points after it."""

    deltas: tuple[int, ...]
    scores: tuple[int, ...]


class VanEnded(NamedTuple):
    """The last vòng of a ván ended (and the match goes on)."""

    van: int
    scores: tuple[int, ...]


class MatchEnded(NamedTuple):
    """The match ended."""

    reason: MatchEnd
    standings: tuple[int, ...]
    ranks: tuple[int, ...]


Event = (
    VongStarted
    | Dealt
    | TheTrangDeclined
    | TheTrangDeclared
    | Flipped
    | Passed
    | Swapped
    | AnSiTurned
    | CardDead
    | NhatBanDeclined
    | NhatBanDeclared
    | NhatBanArranged
    | Won
    | Den
    | Drawn
    | Paid
    | VanEnded
    | MatchEnded
)
PRIVATE_EVENTS = (Dealt, TheTrangDeclined, NhatBanDeclined, NhatBanArranged)


def visible_to(event: Event, seat: int) -> bool:
    """Whether ``seat`` sees this event (public events, and its own private ones)."""
    return not isinstance(event, PRIVATE_EVENTS) or event.seat == seat


# -------------------------------------------------------------------- state


@dataclass
class State:
    """Everything about a match in progress. Seats are 0..3; seat ``dealer`` is #1."""

    config: RuleConfig
    seed: int
    """The match seed: each vòng's deal is derived from (seed, ván, vòng)."""
    rotation: int
    """Duplicate-deal rotation of the hands (see :mod:`env121.engine.deal`)."""
    first_deal: Deal | None
    """An explicit deal used for the first vòng instead of the seeded one (tests)."""

    # match progress
    van: int = 0
    vong: int = 0
    """Index of the vòng within the ván, 0..11."""
    dealer: int = 0
    phase: Phase = Phase.OFFER
    scores: tuple[int, ...] = ()
    van_start: tuple[int, ...] = ()
    """Points at the start of the current ván (standing = banked + scores − van_start)."""
    banked: tuple[int, ...] = (0, 0, 0, 0)
    """Sum over finished ván of (final − start) [R-6]."""

    # the cards
    hands: tuple[tuple[int, ...], ...] = ()
    """Free (swappable) cards per seat, sorted."""
    locked: tuple[tuple[int, ...], ...] = ()
    """Cards locked face up (khóa) per seat, in the order stolen; one per Cướp."""
    known: tuple[tuple[int, ...], ...] = ()
    """Free cards each seat is publicly known to hold (taken face up, not put out since)."""
    chi_diem: int = -1
    an_si: tuple[int, ...] = ()
    an_si_revealed: int = 0
    noc: tuple[int, ...] = ()
    noc_pos: int = 0
    """Cards ``noc[:noc_pos]`` have been flipped; ``noc[noc_pos]`` is the top."""
    dead: tuple[int, ...] = ()
    """Cards every asked seat passed on, in order."""

    # the card on offer and who is asked about it
    offer_card: int = -1
    offer_exposer: int = -1
    offer_flipped: bool = False
    """True when the exposer flipped it from the Nọc, False when put out of a hand."""
    ask_order: tuple[int, ...] = ()
    """Seats asked, in order (also the Thế trắng order in that phase)."""
    ask_pos: int = 0

    # Nhất Bản
    nhat_ban: tuple[bool, ...] = (False, False, False, False)
    nb_arrangement: tuple[tuple[int, ...], ...] = ((), (), (), ())
    """Each declarer's hidden arrangement (GAP = -1 in the empty slot); () if none."""
    nb_gap: int = -1
    """Empty slot chosen by the declarer now arranging (NB_PLACE phase)."""
    nb_placed: tuple[int, ...] = ()
    """Cards placed so far by the declarer now arranging, left to right."""

    # bookkeeping
    vong_actions: int = 0
    """Actions taken in this vòng (for ``max_actions_per_vong``)."""
    vong_event_start: int = 0
    """Index in ``events`` of this vòng's VongStarted."""
    match_end: MatchEnd | None = None
    """How the match ended; None while it is played."""
    ranks: tuple[int, ...] = ()
    """Final ranks (1 = best; equal standings share a rank) once the match ends."""
    events: list[Event] = field(default_factory=list)
    results: list[VongResult] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    """Every action applied since :func:`env121.engine.game.new_game`."""
    legal_cache: tuple[int, ...] | None = field(default=None, compare=False, repr=False)
    """The legal actions of this exact state, set by every transition."""
    record: np.ndarray | None = field(default=None, init=False, compare=False, repr=False)
    """The kernel's record of this match (an array of one game record,
    :mod:`env121.engine.kernel.record`), which :func:`env121.engine.game.apply`
    steps; None until the engine first moves a State built without one."""

    @property
    def current_player(self) -> int:
        """The seat to act, or -1 when the match is over."""
        if self.phase in (Phase.OFFER, Phase.THE_TRANG):
            return self.ask_order[self.ask_pos]
        if self.phase == Phase.GAME_OVER:
            return -1
        return self.offer_exposer  # the Nhất Bản phases: the swapper decides

    @property
    def noc_left(self) -> int:
        """Cards left in the Nọc."""
        return len(self.noc) - self.noc_pos

    @property
    def cuop_used(self) -> tuple[int, ...]:
        """Cướp made this vòng per seat: each locks exactly one card, so this is
        the number of locked cards (at most :data:`MAX_CUOP`)."""
        return tuple(len(lk) for lk in self.locked)

    @property
    def revealed_an_si(self) -> tuple[int, ...]:
        """The Ẩn Sĩ turned face up so far."""
        return self.an_si[: self.an_si_revealed]

    @property
    def is_over(self) -> bool:
        """Whether the match has ended."""
        return self.phase == Phase.GAME_OVER

    def standings(self) -> tuple[int, ...]:
        """Each seat's match standing: sum over ván of (points − start) [R-6]."""
        return tuple(
            b + s - v for b, s, v in zip(self.banked, self.scores, self.van_start, strict=True)
        )

    def vong_events(self) -> list[Event]:
        """The events of the current (or last) vòng."""
        return self.events[self.vong_event_start :]

    def clone(self) -> State:
        """An independent copy (cheap: tuples are shared, lists copied)."""
        new = object.__new__(State)
        new.__dict__.update(self.__dict__)
        new.events = self.events.copy()
        new.results = self.results.copy()
        new.actions = self.actions.copy()
        if self.record is not None:
            new.record = self.record.copy()
        return new

    def forget_derived(self) -> None:
        """Drop what the engine derived from the fields (the legal actions and
        the kernel's record), after code other than the engine changed a field
        (a determinization drawing the hidden cards again)."""
        self.legal_cache = None
        self.record = None


__all__ = [
    "MAX_CUOP",
    "NUM_SEATS",
    "PRIVATE_EVENTS",
    "VONG_PER_VAN",
    "AnSiTurned",
    "CardDead",
    "Dealt",
    "Den",
    "Drawn",
    "Event",
    "Flipped",
    "MatchEnd",
    "MatchEnded",
    "NhatBanArranged",
    "NhatBanDeclared",
    "NhatBanDeclined",
    "Outcome",
    "Paid",
    "Passed",
    "Phase",
    "State",
    "SwapKind",
    "Swapped",
    "TheTrangDeclared",
    "TheTrangDeclined",
    "VanEnded",
    "VongResult",
    "VongStarted",
    "Won",
    "visible_to",
]
