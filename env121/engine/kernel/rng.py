"""The deal of a vòng in numba, bit for bit :meth:`~env121.engine.deal.Deal.from_seed`.

The reference deal shuffles with ``numpy.random.default_rng(SeedSequence([seed,
van, vong])).permutation(121)`` (:func:`env121.engine.seeds.derive_rng`, stream
``DEAL``). The batched engine deals inside its kernels, where numpy's
generators cannot be called, so this module repeats the three steps of numpy
(2.x) exactly:

1. **SeedSequence** (``numpy/random/bit_generator.pyx``): each of ``seed``,
   ``van``, ``vong`` becomes its 32-bit words, lowest first (one word below
   2**32, two from there up to 2**64-1); the words are hash-mixed into a pool
   of four 32-bit words, and ``generate_state(4, uint64)`` hashes the pool out
   into eight words, read as four little-endian 64-bit words.
2. **PCG64** (``numpy/random/src/pcg64``), seeded as ``default_rng`` seeds it:
   the 128-bit initial state is words 0 (high) and 1 (low), the stream words 2
   and 3; the generator is the 128-bit LCG ``state * MULT + inc`` with numpy's
   multiplier and the XSL-RR output. numba has no 128-bit integer, so every
   128-bit value is a pair of uint64 halves ``(high, low)``.
3. **Generator.permutation(121)** shuffles ``arange(121)`` with numpy's
   ``_shuffle_raw``: for ``i = 120 .. 1`` it swaps ``i`` with
   ``j = random_interval(i)``, the masked rejection method (draw a 32-bit word,
   keep its bits under the smallest all-ones mask ``>= i``, redraw while above
   ``i``). The 32-bit words come from 64-bit outputs as numpy buffers them:
   the low half first, the high half on the next draw.

Then :func:`deal_into` deals the shuffled deck as
:meth:`~env121.engine.deal.Deal.from_deck` does. ``tests/engine/test_batched_rng.py``
checks the deals bit for bit against the reference.

Kernels (``njit(cache=True, nogil=True)``, callable from other kernels):

* ``shuffled_deck(seed, van, vong, deck)`` fills ``deck[121]`` with the
  permutation;
* ``deal_into(seed, van, vong, dealer, rotation, hands, an_si, noc) ->
  chi_diem`` writes ``hands[4, 5]`` (sorted), ``an_si[4]`` and ``noc[96]``.

``seed``, ``van`` and ``vong`` may be any numba integer type (they are read as
uint64), the output arrays any integer dtype that holds 0..120 (``int8`` does);
each new combination of types is one more compilation, so a caller keeps to
one. :func:`deal_from_seed` is the Python face, for tests and tools.

Range: ``seed``, ``van`` and ``vong`` are integers in ``0 .. 2**64-1`` (what a
uint64 holds; the reference also takes larger seeds, which the batched state
cannot store), ``dealer`` and ``rotation`` in ``0 .. 3``. The kernels trust
their arguments; :func:`deal_from_seed`, the Python face, checks them.
"""

from __future__ import annotations

import operator

import numpy as np
from numba import njit

from env121.engine.deal import HAND_SIZE, NOC_SIZE, NUM_AN_SI, NUM_SEATS, Deal
from env121.rules.cards import NUM_CARDS

MAX_KEY = 2**64 - 1
"""The largest ``seed``, ``van`` or ``vong`` the compiled deal takes."""

# SeedSequence's constants (numpy/random/bit_generator.pyx). The 32-bit
# arithmetic runs in uint64 and is masked back to 32 bits after each product.
_POOL_SIZE = 4
_MAX_ENTROPY_WORDS = 6  # three values of at most two 32-bit words each
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_MULT_L = np.uint64(0xCA01F9DD)
_MIX_MULT_R = np.uint64(0x4973F715)
_XSHIFT = np.uint64(16)
_MASK32 = np.uint64(0xFFFFFFFF)
_WORD_BITS = np.uint64(32)

# PCG64's 128-bit multiplier (numpy/random/src/pcg64/pcg64.h), as two halves.
_PCG_MULT_HIGH = np.uint64(2549297995355413924)
_PCG_MULT_LOW = np.uint64(4865540595714422341)
_ONE = np.uint64(1)
_ROTATE_SHIFT = np.uint64(58)  # the rotation is the state's top 6 bits: 128 - 6 = 64 + 58
_BITS_MINUS_ONE = np.uint64(63)
_BITS = np.uint64(64)

_DEALT = NUM_SEATS * HAND_SIZE
"""Cards dealt round the table before the Chỉ Điểm."""


@njit(cache=True, nogil=True)
def _hashmix(value: np.uint64, hash_const: np.uint64) -> tuple[np.uint64, np.uint64]:
    """SeedSequence's ``hashmix``: the hashed word and the next hash constant."""
    value = value ^ hash_const
    hash_const = (hash_const * _MULT_A) & _MASK32
    value = (value * hash_const) & _MASK32
    return value ^ (value >> _XSHIFT), hash_const


@njit(cache=True, nogil=True)
def _mix(x: np.uint64, y: np.uint64) -> np.uint64:
    """SeedSequence's ``mix`` of two 32-bit words."""
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    mixed: np.uint64 = result ^ (result >> _XSHIFT)  # typed: numpy's stubs give Any for 3.10
    return mixed


@njit(cache=True, nogil=True)
def _append_words(entropy: np.ndarray, n: int, value: np.uint64) -> int:
    """Append ``value``'s 32-bit words, lowest first, as ``_int_to_uint32_array``
    splits an integer (zero is one word); return the new length."""
    entropy[n] = value & _MASK32
    n += 1
    high = value >> _WORD_BITS
    if high != 0:
        entropy[n] = high
        n += 1
    return n


@njit(cache=True, nogil=True)
def _seed_words(seed: np.uint64, van: np.uint64, vong: np.uint64) -> np.ndarray:
    """``SeedSequence([seed, van, vong]).generate_state(4, np.uint64)``."""
    entropy = np.zeros(_MAX_ENTROPY_WORDS, dtype=np.uint64)
    n = _append_words(entropy, 0, seed)
    n = _append_words(entropy, n, van)
    n = _append_words(entropy, n, vong)

    # mix_entropy: hash the entropy into the pool, zeros past its end ...
    pool = np.zeros(_POOL_SIZE, dtype=np.uint64)
    hash_const = _INIT_A
    for i in range(_POOL_SIZE):
        word = entropy[i] if i < n else np.uint64(0)
        pool[i], hash_const = _hashmix(word, hash_const)
    # ... mix every pool word into every other ...
    for i_src in range(_POOL_SIZE):
        for i_dst in range(_POOL_SIZE):
            if i_src != i_dst:
                hashed, hash_const = _hashmix(pool[i_src], hash_const)
                pool[i_dst] = _mix(pool[i_dst], hashed)
    # ... and mix in the words beyond the pool's size.
    for i_src in range(_POOL_SIZE, n):
        for i_dst in range(_POOL_SIZE):
            hashed, hash_const = _hashmix(entropy[i_src], hash_const)
            pool[i_dst] = _mix(pool[i_dst], hashed)

    # generate_state: eight 32-bit words cycling over the pool, paired into
    # little-endian 64-bit words.
    out = np.zeros(_POOL_SIZE, dtype=np.uint64)
    hash_const = _INIT_B
    for i in range(2 * _POOL_SIZE):
        word = pool[i % _POOL_SIZE] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _MASK32
        word = (word * hash_const) & _MASK32
        word ^= word >> _XSHIFT
        out[i // 2] |= word << (_WORD_BITS * np.uint64(i % 2))
    return out


@njit(cache=True, nogil=True)
def _mul_64x64(a: np.uint64, b: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The 128-bit product of two uint64, as ``(high, low)``."""
    a_lo = a & _MASK32
    a_hi = a >> _WORD_BITS
    b_lo = b & _MASK32
    b_hi = b >> _WORD_BITS
    lo_lo = a_lo * b_lo
    lo_hi = a_lo * b_hi
    hi_lo = a_hi * b_lo
    middle = (lo_lo >> _WORD_BITS) + (lo_hi & _MASK32) + hi_lo  # < 2**64: no overflow
    high = a_hi * b_hi + (lo_hi >> _WORD_BITS) + (middle >> _WORD_BITS)
    return high, a * b


@njit(cache=True, nogil=True)
def _pcg_step(
    high: np.uint64, low: np.uint64, inc_high: np.uint64, inc_low: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """One LCG step of PCG64, ``state * MULT + inc`` modulo 2**128."""
    product_high, product_low = _mul_64x64(low, _PCG_MULT_LOW)
    product_high += high * _PCG_MULT_LOW + low * _PCG_MULT_HIGH
    new_low = product_low + inc_low
    carry = _ONE if new_low < product_low else np.uint64(0)
    return product_high + inc_high + carry, new_low


@njit(cache=True, nogil=True)
def _xsl_rr(high: np.uint64, low: np.uint64) -> np.uint64:
    """PCG64's output of a state: ``high ^ low`` rotated right by the top 6 bits."""
    value = high ^ low
    rotation = high >> _ROTATE_SHIFT
    rotated: np.uint64 = (value >> rotation) | (value << ((_BITS - rotation) & _BITS_MINUS_ONE))
    return rotated


@njit(cache=True, nogil=True)
def shuffled_deck(seed: np.uint64, van: np.uint64, vong: np.uint64, deck: np.ndarray) -> None:
    """Fill ``deck`` (121 integers) with ``derive_rng(seed, Stream.DEAL, van,
    vong).permutation(121)``: the shuffled deck of that vòng."""
    words = _seed_words(np.uint64(seed), np.uint64(van), np.uint64(vong))
    # pcg64_set_seed: state = words[0:2], stream = words[2:4] (high word first).
    inc_high = (words[2] << _ONE) | (words[3] >> _BITS_MINUS_ONE)
    inc_low = (words[3] << _ONE) | _ONE
    high, low = _pcg_step(np.uint64(0), np.uint64(0), inc_high, inc_low)
    low = low + words[1]
    high = high + words[0] + (_ONE if low < words[1] else np.uint64(0))
    high, low = _pcg_step(high, low, inc_high, inc_low)

    for c in range(NUM_CARDS):
        deck[c] = c
    has_word = False  # pcg64_next32's buffered high half
    buffered = np.uint64(0)
    for i in range(NUM_CARDS - 1, 0, -1):
        bound = np.uint64(i)
        mask = bound
        for shift in (1, 2, 4, 8, 16, 32):
            mask |= mask >> np.uint64(shift)
        while True:  # random_interval: i < 2**32, so 32-bit draws
            if has_word:
                word = buffered
                has_word = False
            else:
                high, low = _pcg_step(high, low, inc_high, inc_low)
                output = _xsl_rr(high, low)
                word = output & _MASK32
                buffered = output >> _WORD_BITS
                has_word = True
            value = word & mask
            if value <= bound:
                break
        j = int(value)
        deck[i], deck[j] = deck[j], deck[i]


@njit(cache=True, nogil=True)
def deal_into(
    seed: np.uint64,
    van: np.uint64,
    vong: np.uint64,
    dealer: int,
    rotation: int,
    hands: np.ndarray,
    an_si: np.ndarray,
    noc: np.ndarray,
) -> int:
    """Deal vòng ``vong`` of ván ``van`` of match ``seed`` as
    ``Deal.from_seed(seed, van, vong, dealer, rotation)``, into arrays.

    Writes ``hands`` (``[4, 5]``, seat by seat, each hand sorted by card id),
    ``an_si`` (``[4]``, in turning order) and ``noc`` (``[96]``, top card
    first); returns the Chỉ Điểm. Arguments as the module says: ``seed``,
    ``van``, ``vong`` in ``0 .. 2**64-1``, ``dealer`` and ``rotation`` in
    ``0 .. 3``.
    """
    deck = np.empty(NUM_CARDS, dtype=np.int64)
    shuffled_deck(seed, van, vong, deck)
    for seat in range(NUM_SEATS):
        # Card i went to seat (dealer + i) % 4; seat gets the cards of seat + rotation.
        first = (seat + rotation - dealer) % NUM_SEATS
        for k in range(HAND_SIZE):
            card = deck[first + NUM_SEATS * k]
            at = k
            while at > 0 and hands[seat, at - 1] > card:  # insertion sort
                hands[seat, at] = hands[seat, at - 1]
                at -= 1
            hands[seat, at] = card
    for k in range(NUM_AN_SI):
        an_si[k] = deck[_DEALT + 1 + k]
    for k in range(NOC_SIZE):
        noc[k] = deck[_DEALT + 1 + NUM_AN_SI + k]
    return int(deck[_DEALT])


def _checked(name: str, value: int, largest: int) -> int:
    """``value`` as an int in ``0 .. largest``, or a ValueError naming it."""
    try:
        number = operator.index(value)
    except TypeError:
        number = -1
    if isinstance(value, bool) or not 0 <= number <= largest:
        shown = "2**64-1" if largest == MAX_KEY else str(largest)
        raise ValueError(f"{name} must be an integer in 0..{shown}, got {value!r}")
    return number


def deal_from_seed(seed: int, van: int, vong: int, dealer: int, rotation: int = 0) -> Deal:
    """``Deal.from_seed(seed, van, vong, dealer, rotation)``, dealt by the kernel.

    ``seed``, ``van`` and ``vong`` must be integers in ``0..2**64-1``,
    ``dealer`` and ``rotation`` in ``0..3``; anything else is a ValueError.
    """
    hands = np.empty((NUM_SEATS, HAND_SIZE), dtype=np.int64)
    an_si = np.empty(NUM_AN_SI, dtype=np.int64)
    noc = np.empty(NOC_SIZE, dtype=np.int64)
    chi_diem = deal_into(
        np.uint64(_checked("seed", seed, MAX_KEY)),
        np.uint64(_checked("van", van, MAX_KEY)),
        np.uint64(_checked("vong", vong, MAX_KEY)),
        np.int64(_checked("dealer", dealer, NUM_SEATS - 1)),
        np.int64(_checked("rotation", rotation, NUM_SEATS - 1)),
        hands,
        an_si,
        noc,
    )
    return Deal(
        tuple(tuple(int(c) for c in hand) for hand in hands),
        chi_diem,
        tuple(int(c) for c in an_si),
        tuple(int(c) for c in noc),
    )


__all__ = ["MAX_KEY", "deal_from_seed", "deal_into", "shuffled_deck"]
