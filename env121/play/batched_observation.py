"""The observation, compiled: one seat of one match, or of B games at once.

:func:`encode_observation` writes one seat's observation of a match (a
:class:`~env121.engine.state.State`) from its kernel record. For every game
of a batch (the records of :mod:`env121.engine.kernel.record`)
:func:`encode_observations` writes the observation of one seat into a row of
a ``float32`` array, the same vector
(:data:`~env121.play.observation.OBSERVATION_LAYOUT`), and
:func:`encode_action_masks` writes the action masks, equal to
:func:`~env121.play.observation.encode_action_mask`. A differential test
(``tests/play/test_batched_observation.py``) compares every seat's
observation and mask, at every step of lock-step play, with the observation
oracle written in Python from a State (``tests/support/observation_oracle.py``). ::

    engine = BatchedEngine(1024, config)
    observer = make_observer(1024, config)          # once per batch of games
    obs = np.empty((1024, OBS_SIZE), np.float32)
    masks = np.empty((1024, NUM_ACTIONS), np.int8)
    encode_observations(engine.games, engine.to_act, obs, observer)
    encode_action_masks(engine.games, engine.to_act, masks)

Where each piece goes and how it is scaled is read from
:data:`~env121.play.observation.OBSERVATION_LAYOUT` and the scales beside it
when the observer is made, and reaches the kernels as data (:class:`Offsets`,
:class:`Scales`, tables made from the reference's functions): numba keys its
cache of a kernel on the kernel's own source file, so values compiled in
would go stale when the layout changes. Importing this module fails with a
clear error if the layout gains, loses or reorders a piece.

``win_points`` (the compiled :func:`env121.rules.compiled.win_table.win_points`,
the dearest piece) is kept in the observer per game and seat, already
divided by ``POINTS_SCALE``, beside the key of everything it depends on: the
seat's free and locked cards, its fixed Nhất Bản arrangement, the Chỉ Điểm,
the Ẩn Sĩ turned and whether it deals (:data:`WIN_KEY_SIZE` ``int8``
entries). A table is computed again only when its key changed; the table is
a function of the key and of the observer's rule variant, so the cache is
exact.

The kernels run on the calling thread (spreading one batch over the cores
measured no faster: ``docs/measurements.md``). For a
caller that spreads games over its own threads (as ``BatchedEngine`` does),
:func:`encode_batch` takes the observer's fields one by one: slices of the
games, the seats, ``out`` and the two cache arrays along the games axis, with
the indices of the slice, make a smaller batch of the same types (numba's
``prange`` could not pass a named tuple of named tuples either).
"""

from __future__ import annotations

import threading
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from env121.engine.actions import NUM_ACTIONS, NUM_SLOTS
from env121.engine.deal import HAND_SIZE, NOC_SIZE, NUM_AN_SI
from env121.engine.game import kernel_record, swap_kind_between
from env121.engine.kernel.record import GAME_DTYPE
from env121.engine.kernel.record import PHASES as GAME_PHASES
from env121.engine.state import MAX_CUOP, NUM_SEATS, Phase, State
from env121.play.observation import OBS_SIZE, OBSERVATION_LAYOUT, PHASES, POINTS_SCALE, SWAP_KINDS
from env121.rules.cards import NUM_CARDS
from env121.rules.compiled.config import KernelConfig, kernel_config
from env121.rules.compiled.public_cards import PublicCards
from env121.rules.compiled.waits import PLACEMENT_ORDER
from env121.rules.compiled.win_table import win_points
from env121.rules.config import DEFAULT_CONFIG, RuleConfig
from env121.rules.waits import GAP


class Offsets(NamedTuple):
    """Where each piece of :data:`~env121.play.observation.OBSERVATION_LAYOUT`
    starts in the vector (its ``offsets``); the fields are the pieces, in order."""

    phase: int
    to_act: int
    hand: int
    locked: int
    known: int
    nhat_ban: int
    cuop_used: int
    cuop_left: int
    offer: int
    offer_exposer: int
    offer_flipped: int
    offer_swap_kind: int
    ask_pending: int
    dead: int
    chi_diem: int
    an_si: int
    an_si_hidden: int
    noc_left: int
    dealer: int
    vong: int
    van: int
    scores: int
    standings: int
    win_points: int
    nb_slots: int
    nb_gap: int


class Scales(NamedTuple):
    """The divisors and clips of the scaled pieces (each piece's meaning says which)."""

    cuop: float
    """``cuop_left``: Cướp left / MAX_CUOP."""
    an_si: float
    """``an_si_hidden``: Ẩn Sĩ face down / NUM_AN_SI."""
    noc: float
    """``noc_left``: cards left in the Nọc / NOC_SIZE."""
    scores_low: float
    scores_high: float
    standings_low: float
    standings_high: float
    points: float
    """``win_points``: Điểm / POINTS_SCALE."""


class Observer(NamedTuple):
    """What the kernels read besides the games and the layout's constants: the
    rule variant and the ``win_points`` cache. Made by :func:`make_observer`,
    one per batch of games (and its RuleConfig)."""

    kc: KernelConfig
    win_points: np.ndarray
    """``float32 [B, 4, 121]``: each seat's ``win_points`` piece, as last computed."""
    win_keys: np.ndarray
    """``int8 [B, 4, WIN_KEY_SIZE]``: the key each ``win_points`` row was computed for."""


_KEY_LOCKED = HAND_SIZE
_KEY_ARRANGEMENT = _KEY_LOCKED + MAX_CUOP
_KEY_CHI_DIEM = _KEY_ARRANGEMENT + NUM_SLOTS
_KEY_AN_SI = _KEY_CHI_DIEM + 1
_KEY_DEALER = _KEY_AN_SI + NUM_AN_SI
WIN_KEY_SIZE = _KEY_DEALER + 1
"""Entries of a ``win_points`` key: the free cards, the locked cards, the six
slots of the fixed Nhất Bản arrangement (each -1 where none), the Chỉ Điểm,
the turned Ẩn Sĩ (-1 for each still face down), 1 when the seat deals."""
_NO_KEY = -2
"""In every entry of a fresh cache's keys: no seat's key, so the first look computes."""

_OFFER = GAME_PHASES.index(Phase.OFFER)
_NB_PLACE = GAME_PHASES.index(Phase.NB_PLACE)
_CARD_ROW = NUM_CARDS
"""Entries of a seat's row of ``locked`` and ``known``, and of a slot of ``nb_slots``."""
_CUOP_ROW = MAX_CUOP
"""Entries of a seat's row of ``cuop_used``."""


def _check_layout() -> None:
    """Refuse to import unless the encoder writes exactly the layout's pieces, in
    the shapes it writes them."""
    pieces = tuple(p.name for p in OBSERVATION_LAYOUT)
    if pieces != Offsets._fields:
        raise ImportError(
            f"OBSERVATION_LAYOUT has the pieces {pieces}; env121.play.batched_observation "
            f"writes {Offsets._fields}: expected the same pieces in the same order"
        )
    for name, shape in (
        ("locked", (NUM_SEATS, _CARD_ROW)),
        ("known", (NUM_SEATS, _CARD_ROW)),
        ("nb_slots", (NUM_SLOTS, _CARD_ROW)),
        ("cuop_used", (NUM_SEATS, _CUOP_ROW)),
    ):
        if OBSERVATION_LAYOUT.piece(name).shape != shape:
            raise ImportError(
                f"OBSERVATION_LAYOUT piece {name!r} has the shape "
                f"{OBSERVATION_LAYOUT.piece(name).shape}; the batched encoder writes {shape}"
            )


_check_layout()


def _scales() -> Scales:
    scores, standings = OBSERVATION_LAYOUT.piece("scores"), OBSERVATION_LAYOUT.piece("standings")
    return Scales(
        cuop=float(MAX_CUOP),
        an_si=float(NUM_AN_SI),
        noc=float(NOC_SIZE),
        scores_low=float(scores.low),
        scores_high=float(scores.high),
        standings_low=float(standings.low),
        standings_high=float(standings.high),
        points=float(POINTS_SCALE),
    )


OFFSETS = Offsets(**OBSERVATION_LAYOUT.offsets)
"""Where each piece starts; like the three below, a constant the kernels are
compiled with (not an argument: numba types each argument on every call)."""
SCALES = _scales()
PHASE_INDEX = np.array([PHASES.index(p) for p in GAME_PHASES], dtype=np.int64)
"""``[record phase]``: the entry of the one-hot ``phase`` piece."""
SWAP_INDEX = np.array(
    [
        [SWAP_KINDS.index(swap_kind_between(exposer, seat)) for seat in range(NUM_SEATS)]
        for exposer in range(NUM_SEATS)
    ],
    dtype=np.int64,
)
"""``[exposer, seat]``: the entry of ``offer_swap_kind``
(:func:`~env121.engine.game.swap_kind_between`)."""


def make_observer(num_games: int, config: RuleConfig | None = None) -> Observer:
    """The :class:`Observer` of ``num_games`` games under ``config`` (the
    default rules when None), its ``win_points`` cache empty."""
    config = DEFAULT_CONFIG if config is None else config
    if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
        raise ValueError(f"num_games={num_games!r} is not valid: expected a positive int")
    if not isinstance(config, RuleConfig):
        raise ValueError(f"config={config!r} is not valid: expected a RuleConfig or None")
    return Observer(
        kc=kernel_config(config),
        win_points=np.zeros((num_games, NUM_SEATS, NUM_CARDS), dtype=np.float32),
        win_keys=np.full((num_games, NUM_SEATS, WIN_KEY_SIZE), _NO_KEY, dtype=np.int8),
    )


# ---------------------------------------------------------------- kernels

Record = Any
"""One game's record (``games[g]``): :mod:`env121.engine.kernel.record`."""


@njit(cache=True, nogil=True)
def _relative(seat: int, other: int) -> int:
    """The row of ``other`` in ``seat``'s seat-relative pieces (0: itself)."""
    return (other - seat + NUM_SEATS) % NUM_SEATS


@njit(cache=True, nogil=True)
def _has_arrangement(r: Record, seat: int) -> bool:
    """Whether ``seat`` has fixed its Nhất Bản arrangement (five cards placed)."""
    fixed = False
    for i in range(NUM_SLOTS):
        fixed |= r.nb_arrangement[seat, i] >= 0
    return fixed


@njit(cache=True, nogil=True)
def _update_key(key: np.ndarray, i: int, value: int) -> bool:
    """Set ``key[i]`` to ``value``; whether it changed."""
    changed: bool = key[i] != value
    key[i] = value
    return changed


@njit(cache=True, nogil=True)
def seat_win_points(
    r: Record,
    g: int,
    seat: int,
    kc: KernelConfig,
    scale: float,
    cache: np.ndarray,
    keys: np.ndarray,
) -> np.ndarray:
    """``seat``'s ``win_points`` piece in game ``g`` (record ``r``):
    :func:`env121.engine.win_table.seat_win_points` / ``scale``, from the
    cache (an :class:`Observer`'s ``win_points`` and ``win_keys``), computed
    again only if its key changed."""
    key = keys[g, seat]
    n_free, n_locked, n_revealed = r.n_free[seat], r.n_locked[seat], r.an_si_revealed
    changed = False
    for i in range(HAND_SIZE):
        changed |= _update_key(key, i, r.hands[seat, i] if i < n_free else -1)
    for i in range(MAX_CUOP):
        changed |= _update_key(key, _KEY_LOCKED + i, r.locked[seat, i] if i < n_locked else -1)
    fixed = _has_arrangement(r, seat)
    for i in range(NUM_SLOTS):
        slot = r.nb_arrangement[seat, i] if fixed else -1
        changed |= _update_key(key, _KEY_ARRANGEMENT + i, slot)
    changed |= _update_key(key, _KEY_CHI_DIEM, r.chi_diem)
    for i in range(NUM_AN_SI):
        changed |= _update_key(key, _KEY_AN_SI + i, r.an_si[i] if i < n_revealed else -1)
    changed |= _update_key(key, _KEY_DEALER, 1 if r.dealer == seat else 0)
    row: np.ndarray = cache[g, seat]
    if not changed:
        return row
    # the argument types of the compiled win table's own tests (one specialization)
    free = np.full(HAND_SIZE, -1, dtype=np.int64)
    locked = np.full(MAX_CUOP, -1, dtype=np.int64)
    arrangement = np.full(NUM_SLOTS, GAP, dtype=np.int64)
    revealed = np.full(NUM_AN_SI, -1, dtype=np.int64)
    for i in range(n_free):
        free[i] = r.hands[seat, i]
    for i in range(n_locked):
        locked[i] = r.locked[seat, i]
    for i in range(NUM_SLOTS):
        arrangement[i] = r.nb_arrangement[seat, i]
    for i in range(n_revealed):
        revealed[i] = r.an_si[i]
    points = np.zeros(NUM_CARDS, dtype=np.int16)
    win_points(
        free,
        n_free,
        locked,
        n_locked,
        fixed,
        arrangement,
        PublicCards(r.chi_diem, revealed, n_revealed),
        r.dealer == seat,
        kc,
        points,
    )
    for c in range(NUM_CARDS):
        row[c] = points[c] / scale
    return row


@njit(cache=True, nogil=True)
def encode_game(
    r: Record,
    g: int,
    seat: int,
    out: np.ndarray,
    kc: KernelConfig,
    cache: np.ndarray,
    keys: np.ndarray,
) -> None:
    """``encode_observation(state, seat)`` of game ``g`` (record ``r``) into ``out``
    (``OBS_SIZE`` ``float32``), piece by piece in the reference's order; the
    other arguments are the fields of an :class:`Observer`, in order."""
    o = OFFSETS
    sc = SCALES
    out[:] = 0.0
    out[o.phase + PHASE_INDEX[r.phase]] = 1.0
    acting = r.to_act
    if acting >= 0:
        out[o.to_act + _relative(seat, acting)] = 1.0
    for i in range(r.n_free[seat]):
        out[o.hand + r.hands[seat, i]] = 1.0
    start = kc.starting_points
    for k in range(NUM_SEATS):  # row k: the seat k places after ``seat`` in turn order
        s = (seat + k) % NUM_SEATS
        for i in range(r.n_locked[s]):
            out[o.locked + k * _CARD_ROW + r.locked[s, i]] = 1.0
            out[o.cuop_used + k * _CUOP_ROW + i] = 1.0  # a Cướp per locked card
        for i in range(r.n_known[s]):
            out[o.known + k * _CARD_ROW + r.known[s, i]] = 1.0
        if r.nhat_ban[s]:
            out[o.nhat_ban + k] = 1.0
        score = r.scores[s] / start
        out[o.scores + k] = min(max(score, sc.scores_low), sc.scores_high)
        standing = (r.banked[s] + r.scores[s] - r.van_start[s]) / start
        out[o.standings + k] = min(max(standing, sc.standings_low), sc.standings_high)
    out[o.cuop_left] = (sc.cuop - r.n_locked[seat]) / sc.cuop
    offer = r.offer_card
    if offer >= 0:
        out[o.offer + offer] = 1.0
        out[o.offer_exposer + _relative(seat, r.offer_exposer)] = 1.0
        if r.offer_flipped:
            out[o.offer_flipped] = 1.0
        out[o.offer_swap_kind + SWAP_INDEX[r.offer_exposer, seat]] = 1.0
    if r.phase == _OFFER:
        for i in range(r.ask_pos + 1, r.ask_len):
            out[o.ask_pending + _relative(seat, r.ask_order[i])] = 1.0
    for i in range(r.n_dead):
        out[o.dead + r.dead[i]] = 1.0
    if r.chi_diem >= 0:
        out[o.chi_diem + r.chi_diem] = 1.0
    revealed = r.an_si_revealed
    for i in range(revealed):
        out[o.an_si + r.an_si[i]] = 1.0
    out[o.an_si_hidden] = (r.an_si.shape[0] - revealed) / sc.an_si
    out[o.noc_left] = (r.noc.shape[0] - r.noc_pos) / sc.noc
    out[o.dealer + _relative(seat, r.dealer)] = 1.0
    out[o.vong + r.vong] = 1.0
    out[o.van + r.van] = 1.0
    if _has_arrangement(r, seat):
        for slot in range(NUM_SLOTS):
            c = r.nb_arrangement[seat, slot]
            if c == GAP:
                out[o.nb_gap + slot] = 1.0
            else:
                out[o.nb_slots + slot * _CARD_ROW + c] = 1.0
    elif acting == seat and r.phase == _NB_PLACE:  # its arrangement being placed
        gap = r.nb_gap
        out[o.nb_gap + gap] = 1.0
        for i in range(r.n_placed):
            out[o.nb_slots + PLACEMENT_ORDER[gap, i] * _CARD_ROW + r.nb_placed[i]] = 1.0
    points = seat_win_points(r, g, seat, kc, sc.points, cache, keys)
    for c in range(NUM_CARDS):
        out[o.win_points + c] = points[c]


@njit(cache=True, nogil=True)
def encode_batch(
    games: np.ndarray,
    indices: np.ndarray,
    seats: np.ndarray,
    out: np.ndarray,
    kc: KernelConfig,
    cache: np.ndarray,
    keys: np.ndarray,
) -> None:
    """:func:`encode_game` of seat ``seats[k]`` in game ``indices[k]`` into
    ``out[k]``, for every ``k``; after ``out`` the fields of an
    :class:`Observer` (``*observer``) of the whole batch ``games``. No checks:
    :func:`encode_observations` and :func:`encode_seats` are the faces."""
    for k in range(indices.shape[0]):
        g = indices[k]
        encode_game(games[g], g, seats[k], out[k], kc, cache, keys)


@njit(cache=True, nogil=True)
def mask_batch(games: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
    """Game ``g``'s legal actions as a 0/1 row ``out[g]`` when ``seats[g]`` is to
    act, zeros otherwise (no checks: :func:`encode_action_masks` is the checked face)."""
    for g in range(games.shape[0]):
        r = games[g]
        out[g, :] = 0
        if r.to_act == seats[g]:
            for i in range(r.n_legal):
                out[g, r.legal[i]] = 1


# ------------------------------------------------------------ checked faces


def _checked_seats(games: np.ndarray, seats: Any) -> np.ndarray:
    """``games`` checked to be game records, ``seats`` as ``int64 [B]`` in 0..3."""
    if not isinstance(games, np.ndarray) or games.dtype != GAME_DTYPE or games.ndim != 1:
        raise ValueError(
            "games must be a 1-D array of game records (env121.engine.kernel.record.allocate, "
            f"BatchedEngine.games), got {type(games).__name__} {getattr(games, 'dtype', '')}"
        )
    array = np.asarray(seats)
    if array.shape != games.shape or not np.issubdtype(array.dtype, np.integer):
        raise ValueError(
            f"seats must be {games.shape[0]} integer seats (one per game), got shape "
            f"{array.shape} of {array.dtype}"
        )
    if array.size and (array.min() < 0 or array.max() >= NUM_SEATS):
        raise ValueError(f"seats must be in 0..{NUM_SEATS - 1}, got {array.min()}..{array.max()}")
    return np.ascontiguousarray(array, dtype=np.int64)


def _check_out(name: str, out: Any, shape: tuple[int, int], dtype: type) -> None:
    if (
        not isinstance(out, np.ndarray)
        or out.shape != shape
        or out.dtype != dtype
        or not out.flags.c_contiguous
        or not out.flags.writeable
    ):
        raise ValueError(
            f"{name} must be a writeable C-contiguous {np.dtype(dtype).name} array of shape "
            f"{shape}, got {type(out).__name__} {getattr(out, 'shape', '')} "
            f"{getattr(out, 'dtype', '')}"
        )


def encode_observations(
    games: np.ndarray, seats: Any, out: np.ndarray, observer: Observer
) -> np.ndarray:
    """Write the observation of seat ``seats[g]`` of game ``g`` into ``out[g]``,
    for every game: ``encode_observation(state_g, seats[g])`` exactly.

    ``games`` are the records of a batch (``BatchedEngine.games``), ``seats``
    one seat per game (e.g. ``BatchedEngine.to_act``), ``out`` a ``float32
    [B, OBS_SIZE]`` C-contiguous array, ``observer`` the batch's
    :func:`make_observer` (same B, same RuleConfig). Returns ``out``.
    """
    seat_array = _checked_seats(games, seats)
    _check_out("out", out, (games.shape[0], OBS_SIZE), np.float32)
    if not isinstance(observer, Observer) or observer.win_keys.shape[0] != games.shape[0]:
        raise ValueError(
            f"observer must be make_observer({games.shape[0]}, config) for these games, "
            f"got {type(observer).__name__}"
        )
    encode_batch(games, np.arange(games.shape[0]), seat_array, out, *observer)
    return out


def encode_seats(
    games: np.ndarray, indices: np.ndarray, seats: np.ndarray, observer: Observer, out: np.ndarray
) -> None:
    """``out[k]`` = the observation of seat ``seats[k]`` in game ``indices[k]``,
    for every ``k`` (``int64`` indices and seats, ``out`` ``float32 [len(indices),
    OBS_SIZE]``), with the ``observer`` of the whole batch ``games`` and its
    cache: for policies that read the observation of some games only."""
    encode_batch(games, indices, seats, out, *observer)


class _Observers(threading.local):
    """Each thread's one-game :class:`Observer` per rule variant, for
    :func:`encode_observation` (its ``win_points`` cache is keyed by all the
    table depends on, so one observer serves any match of its variant)."""

    def __init__(self) -> None:
        self.by_config: dict[RuleConfig, Observer] = {}


_OBSERVERS = _Observers()
_GAME_ZERO = np.zeros(1, dtype=np.int64)
_SEATS = tuple(np.array([seat], dtype=np.int64) for seat in range(NUM_SEATS))


def encode_observation(state: State, seat: int) -> np.ndarray:
    """``seat``'s ``env121_v1`` observation of the match ``state``: a new
    ``float32`` vector of :data:`~env121.play.observation.OBSERVATION_LAYOUT`,
    written by the compiled encoder from the State's kernel record (the one
    observation of env121: the AEC env, :class:`~env121.play.turn.Turn` and
    the batches all use this encoder)."""
    if isinstance(seat, bool) or seat not in range(NUM_SEATS):
        raise ValueError(f"seat {seat!r} is not a seat: expected 0..{NUM_SEATS - 1}")
    observers = _OBSERVERS.by_config
    observer = observers.get(state.config)
    if observer is None:
        observer = observers[state.config] = make_observer(1, state.config)
    out = np.empty((1, OBS_SIZE), dtype=np.float32)
    encode_batch(kernel_record(state), _GAME_ZERO, _SEATS[seat], out, *observer)
    observation: np.ndarray = out[0]
    return observation


def encode_action_masks(games: np.ndarray, seats: Any, out: np.ndarray) -> np.ndarray:
    """Write the action mask of seat ``seats[g]`` of game ``g`` into ``out[g]``
    (``int8 [B, NUM_ACTIONS]``): 1 at each legal action when that seat is to
    act, zeros otherwise, as ``encode_action_mask(state_g, seats[g])``. Returns ``out``."""
    seat_array = _checked_seats(games, seats)
    _check_out("out", out, (games.shape[0], NUM_ACTIONS), np.int8)
    mask_batch(games, seat_array, out)
    return out


__all__ = [
    "WIN_KEY_SIZE",
    "Observer",
    "Offsets",
    "Scales",
    "encode_action_masks",
    "encode_batch",
    "encode_game",
    "encode_observation",
    "encode_observations",
    "encode_seats",
    "make_observer",
    "mask_batch",
    "seat_win_points",
]
