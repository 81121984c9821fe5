"""Between a game's record and the engine's objects: :class:`State`, events, results.

The kernels (:mod:`env121.engine.kernel.transitions`) move games held as
records (:mod:`env121.engine.kernel.record`); the rest of env121 reads a match
as a :class:`~env121.engine.state.State` with its events and
:class:`~env121.engine.state.VongResult` objects. This module converts both
ways:

* :func:`read_state` sets a State's fields from a record (after every step of
  :func:`env121.engine.game.apply`); :func:`decode_events` and
  :func:`decode_result` turn the record's last step into events and its last
  finished vòng into a result;
* :func:`write_state` writes a State into a record, for a State that has none:
  one built by hand, by :func:`dataclasses.replace`, or a determinization
  (:func:`env121.engine.view.sample_determinization`) whose hidden cards were
  drawn again. The kernel then works out what it derives (the seat to act, its
  legal actions, the Nhất Bản waits).

A record holds a variable-length tuple as a fixed-size array and its length
(``hands`` + ``n_free`` ...), unused entries -1; ``phase``, ``match_end`` and a
result's outcome are indices into :data:`~env121.engine.kernel.record.PHASES`,
:data:`~env121.engine.kernel.record.MATCH_ENDS` and
:data:`~env121.engine.kernel.record.OUTCOMES`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from env121.engine.deal import NOC_SIZE, Deal
from env121.engine.kernel.record import GAME_DTYPE, MATCH_ENDS, OUTCOMES, PHASES, SWAP_KINDS
from env121.engine.kernel.transitions import EVENT_CLASSES, refresh_games
from env121.engine.state import (
    AnSiTurned,
    CardDead,
    Dealt,
    Den,
    Drawn,
    Event,
    Flipped,
    MatchEnded,
    NhatBanArranged,
    NhatBanDeclared,
    NhatBanDeclined,
    Paid,
    Passed,
    Phase,
    State,
    Swapped,
    TheTrangDeclared,
    TheTrangDeclined,
    VanEnded,
    VongResult,
    VongStarted,
    Won,
)
from env121.rules.compiled.config import KernelConfig
from env121.rules.compiled.tables import BONUS_IDS, THE_IDS

_GAME_OVER = PHASES.index(Phase.GAME_OVER)
_READ = (
    "phase", "van", "vong", "dealer", "scores", "van_start", "banked", "hands", "n_free",
    "locked", "n_locked", "known", "n_known", "chi_diem", "an_si", "an_si_revealed", "noc",
    "noc_pos", "dead", "n_dead", "offer_card", "offer_exposer", "offer_flipped", "ask_order",
    "ask_len", "ask_pos", "nhat_ban", "nb_arrangement", "nb_gap", "nb_placed", "n_placed",
    "vong_actions", "match_end", "ranks",
)  # fmt: skip
"""The record fields :func:`read_state` reads."""
_READ_AT = tuple((name, GAME_DTYPE.names.index(name)) for name in _READ)  # type: ignore[union-attr]


def read_state(r: np.void, state: State) -> None:
    """Set every field of ``state`` that the record ``r`` holds (the match's
    progress, the cards, the offer, Nhất Bản, the bookkeeping); the legal
    actions (:func:`read_legal`), ``events``, ``results`` and ``actions`` are
    the caller's."""
    values: tuple[Any, ...] = r.item()  # type: ignore[assignment]  # a record: a tuple
    f: dict[str, Any] = {name: values[i] for name, i in _READ_AT}
    hands, locked, known = f["hands"].tolist(), f["locked"].tolist(), f["known"].tolist()
    n_free, n_locked, n_known = f["n_free"].tolist(), f["n_locked"].tolist(), f["n_known"].tolist()
    phase = f["phase"]
    state.phase = PHASES[phase]
    state.van, state.vong, state.dealer = f["van"], f["vong"], f["dealer"]
    state.scores = tuple(f["scores"].tolist())
    state.van_start = tuple(f["van_start"].tolist())
    state.banked = tuple(f["banked"].tolist())
    state.hands = tuple(tuple(row[:n]) for row, n in zip(hands, n_free, strict=True))
    state.locked = tuple(tuple(row[:n]) for row, n in zip(locked, n_locked, strict=True))
    state.known = tuple(tuple(row[:n]) for row, n in zip(known, n_known, strict=True))
    state.chi_diem = f["chi_diem"]
    state.an_si = tuple(f["an_si"].tolist())
    state.an_si_revealed = f["an_si_revealed"]
    noc = f["noc"].tolist()
    unused = noc.count(-1)  # a Nọc written shorter than a deal's sits at the end
    state.noc = tuple(noc[unused:])
    state.noc_pos = f["noc_pos"] - unused
    state.dead = tuple(f["dead"][: f["n_dead"]].tolist())
    state.offer_card, state.offer_exposer = f["offer_card"], f["offer_exposer"]
    state.offer_flipped = bool(f["offer_flipped"])
    state.ask_order = tuple(f["ask_order"][: f["ask_len"]].tolist())
    state.ask_pos = f["ask_pos"]
    state.nhat_ban = tuple(bool(x) for x in f["nhat_ban"].tolist())
    state.nb_arrangement = tuple(
        tuple(a) if max(a) >= 0 else () for a in f["nb_arrangement"].tolist()
    )
    state.nb_gap = f["nb_gap"]
    state.nb_placed = tuple(f["nb_placed"][: f["n_placed"]].tolist())
    state.vong_actions = f["vong_actions"]
    end = f["match_end"]
    state.match_end = MATCH_ENDS[end] if end >= 0 else None
    state.ranks = tuple(f["ranks"].tolist()) if phase == _GAME_OVER else ()


def read_legal(r: np.void) -> list[int]:
    """The legal action ids of the seat to act in the record ``r``, ascending."""
    legal: list[int] = r["legal"][: r["n_legal"]].tolist()
    return legal


def write_first_deal(r: np.void, deal: Deal | None) -> None:
    """Set the record ``r`` to deal its first vòng from ``deal`` (None: from
    its seed, as every later vòng)."""
    r["first_deal"] = deal is not None
    if deal is not None:
        r["first_hands"], r["first_chi_diem"] = deal.hands, deal.chi_diem
        r["first_an_si"], r["first_noc"] = deal.an_si, deal.noc


def write_state(state: State, games: np.ndarray, kc: KernelConfig) -> None:
    """Write ``state`` into ``games``, an array of one record
    (:func:`~env121.engine.kernel.record.allocate`), and let the kernel work
    out the seat to act, its legal actions and the Nhất Bản waits; ``kc`` is
    ``state.config``'s kernel config."""
    g = games
    g["seed"], g["rotation"] = state.seed, state.rotation
    write_first_deal(g[0], state.first_deal)
    g["van"], g["vong"], g["dealer"] = state.van, state.vong, state.dealer
    g["phase"] = PHASES.index(state.phase)
    g["scores"], g["van_start"], g["banked"] = state.scores, state.van_start, state.banked
    for cards, counts, rows in (
        ("hands", "n_free", state.hands),
        ("locked", "n_locked", state.locked),
        ("known", "n_known", state.known),
        ("nb_arrangement", "", state.nb_arrangement),
    ):
        g[cards] = -1
        for seat, row in enumerate(rows):
            g[cards][0, seat, : len(row)] = row
        if counts:
            g[counts] = [len(row) for row in rows]
    for cards, counts, row in (
        ("an_si", "", state.an_si),
        ("dead", "n_dead", state.dead),
        ("ask_order", "ask_len", state.ask_order),
        ("nb_placed", "n_placed", state.nb_placed),
    ):
        g[cards] = -1
        g[cards][0, : len(row)] = row
        if counts:
            g[counts] = len(row)
    # The kernel's Nọc is empty when noc_pos reaches NOC_SIZE: a shorter one
    # (a determinization deals only the cards still in it) sits at the end.
    unused = NOC_SIZE - len(state.noc)
    g["noc"] = -1
    g["noc"][0, unused:] = state.noc
    g["noc_pos"] = unused + state.noc_pos
    g["chi_diem"], g["an_si_revealed"] = state.chi_diem, state.an_si_revealed
    g["offer_card"], g["offer_exposer"] = state.offer_card, state.offer_exposer
    g["offer_flipped"], g["ask_pos"] = state.offer_flipped, state.ask_pos
    g["nhat_ban"], g["nb_gap"] = state.nhat_ban, state.nb_gap
    g["vong_actions"] = state.vong_actions
    g["match_end"] = -1 if state.match_end is None else MATCH_ENDS.index(state.match_end)
    g["ranks"] = state.ranks or 0
    g["res_outcome"], g["final_match_end"] = -1, -1
    refresh_games(games, kc)


def decode_result(r: np.void) -> VongResult | None:
    """The ``res_*`` fields of a game's record as a :class:`VongResult` (None before the first)."""
    outcome = int(r["res_outcome"])
    if outcome < 0:
        return None
    the = int(r["res_the"])
    mask = int(r["res_bonus_mask"])
    return VongResult(
        int(r["res_van"]),
        int(r["res_vong"]),
        int(r["res_dealer"]),
        OUTCOMES[outcome],
        seat=int(r["res_seat"]),
        card=int(r["res_card"]),
        the=THE_IDS[the] if the >= 0 else None,
        tier=int(r["res_tier"]),
        points=int(r["res_points"]),
        bonuses=tuple(sorted(b for i, b in enumerate(BONUS_IDS) if mask >> i & 1)),
        indicator_points=int(r["res_indicator_points"]),
        arrangement=tuple(r["res_arrangement"][: r["res_n_arrangement"]].tolist()),
        nhat_ban=bool(r["res_nhat_ban"]),
        payments=tuple(r["res_payments"].tolist()),
        truncated=bool(r["res_truncated"]),
    )


def decode_events(r: np.void) -> list[Event]:
    """The event rows of a game's last step as :class:`~env121.engine.state.Event` objects."""
    events: list[Event] = []
    for row in r["events"][: r["n_events"]].tolist():
        cls = EVENT_CLASSES[row[0]]
        f = row[1:]
        event: Event
        if cls is VongStarted:
            event = VongStarted(f[0], f[1], f[2], f[3])
        elif cls is Dealt:
            event = Dealt(f[0], tuple(f[1:6]))
        elif cls is TheTrangDeclined:
            event = TheTrangDeclined(f[0])
        elif cls is TheTrangDeclared:
            event = TheTrangDeclared(f[0], tuple(f[1:6]))
        elif cls is Flipped:
            event = Flipped(f[0], f[1], f[2])
        elif cls is Passed:
            event = Passed(f[0], f[1])
        elif cls is Swapped:
            event = Swapped(f[0], f[1], f[2], SWAP_KINDS[f[3]], f[4])
        elif cls is AnSiTurned:
            event = AnSiTurned(f[0], f[1])
        elif cls is CardDead:
            event = CardDead(f[0], f[1])
        elif cls is NhatBanDeclined:
            event = NhatBanDeclined(f[0])
        elif cls is NhatBanDeclared:
            event = NhatBanDeclared(f[0])
        elif cls is NhatBanArranged:
            event = NhatBanArranged(f[0], tuple(f[1:7]))
        elif cls is Won:
            result = decode_result(r)
            assert result is not None  # a Won row is written with its result
            event = Won(f[0], f[1], f[2], bool(f[3]), result)
        elif cls is Den:
            event = Den(f[0], f[1], tuple(f[2:7]))
        elif cls is Drawn:
            event = Drawn(bool(f[0]))
        elif cls is Paid:
            event = Paid(tuple(f[0:4]), tuple(f[4:8]))
        elif cls is VanEnded:
            event = VanEnded(f[0], tuple(f[1:5]))
        else:
            event = MatchEnded(MATCH_ENDS[f[0]], tuple(f[1:5]), tuple(f[5:9]))
        events.append(event)
    return events


__all__ = [
    "decode_events",
    "decode_result",
    "read_legal",
    "read_state",
    "write_first_deal",
    "write_state",
]
