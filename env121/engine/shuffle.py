"""The deal's random stream, defined here: the shuffle of each vòng's deck.

Every seeded game deals from this stream (:meth:`env121.engine.deal.Deal.from_seed`
in Python, :func:`env121.engine.kernel.rng.deal_into` inside the compiled
kernels), so one implementation decides every seeded deal, every golden
transcript and every record's replay. It is numba code because the kernels
call it; the Python side calls the same kernels through :func:`shuffled_deck`.

The stream is the one numpy 2.x gave ``numpy.random.default_rng(SeedSequence([seed,
van, vong])).permutation(121)``, the deal of record formats 1 and 2, written
out so that a numpy release cannot change it (numpy keeps its bit generators'
streams but not ``Generator.permutation``'s). Three steps:

1. **SeedSequence** (``numpy/random/bit_generator.pyx``): each of ``seed``,
   ``van``, ``vong`` becomes its 32-bit words, lowest first (zero is one word);
   the words are hash-mixed into a pool of four 32-bit words, and
   ``generate_state(4, uint64)`` hashes the pool out into eight words, read as
   four little-endian 64-bit words.
2. **PCG64** (``numpy/random/src/pcg64``), seeded as ``default_rng`` seeds it:
   the 128-bit initial state is words 0 (high) and 1 (low), the stream words 2
   and 3; the generator is the 128-bit LCG ``state * MULT + inc`` with numpy's
   multiplier and the XSL-RR output. numba has no 128-bit integer, so every
   128-bit value is a pair of uint64 halves ``(high, low)``.
3. **The shuffle** of ``arange(121)``, as numpy's ``_shuffle_raw``: for
   ``i = 120 .. 1`` swap ``i`` with ``j = random_interval(i)``, the masked
   rejection method (draw a 32-bit word, keep its bits under the smallest
   all-ones mask ``>= i``, redraw while above ``i``). The 32-bit words come
   from 64-bit outputs as numpy buffers them: the low half first, the high
   half on the next draw.

``tests/engine/test_shuffle.py`` holds the proof: frozen decks drawn from
numpy 2.4 (so the proof does not need numpy's stream to stay), and the live
comparison with the installed numpy.

Kernels (``njit(cache=True, nogil=True)``, callable from other kernels):
``shuffled_deck_into(seed, van, vong, deck)`` fills ``deck[121]`` for keys
in ``0 .. 2**64-1`` (any numba integer type, read as uint64). The Python face
:func:`shuffled_deck` takes any non-negative integers, as ``SeedSequence``
did, and checks them.
"""

from __future__ import annotations

import operator

import numpy as np
from numba import njit

from env121.rules.cards import NUM_CARDS

# SeedSequence's constants (numpy/random/bit_generator.pyx). The 32-bit
# arithmetic runs in uint64 and is masked back to 32 bits after each product.
_POOL_SIZE = 4
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

_KEY_WORDS = 6
"""Entropy words of three uint64 keys: at most two 32-bit words each."""


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
def _seed_words(entropy: np.ndarray, n: int) -> np.ndarray:
    """``SeedSequence(entropy[:n]).generate_state(4, np.uint64)``, the entropy
    given as 32-bit words (held in uint64)."""
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
def _shuffle(entropy: np.ndarray, n: int, deck: np.ndarray) -> None:
    """Fill ``deck`` (121 integers) with the shuffle seeded by the 32-bit
    words ``entropy[:n]``."""
    words = _seed_words(entropy, n)
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
def shuffled_deck_into(seed: np.uint64, van: np.uint64, vong: np.uint64, deck: np.ndarray) -> None:
    """Fill ``deck`` (121 integers) with the shuffled deck of vòng ``vong`` of
    ván ``van`` of match ``seed`` (keys in ``0 .. 2**64-1``)."""
    entropy = np.zeros(_KEY_WORDS, dtype=np.uint64)
    n = _append_words(entropy, 0, np.uint64(seed))
    n = _append_words(entropy, n, np.uint64(van))
    n = _append_words(entropy, n, np.uint64(vong))
    _shuffle(entropy, n, deck)


def _words(name: str, value: int) -> list[int]:
    """``value``'s 32-bit words, lowest first (zero is one word), as
    ``SeedSequence`` splits an entropy integer; a ValueError names a bad one."""
    try:
        number = operator.index(value)
    except TypeError:
        number = -1
    if isinstance(value, bool) or number < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    words = [number & 0xFFFFFFFF]
    number >>= 32
    while number:
        words.append(number & 0xFFFFFFFF)
        number >>= 32
    return words


def shuffled_deck(seed: int, van: int, vong: int) -> list[int]:
    """The shuffled deck (121 card ids, first dealt first) of vòng ``vong`` of
    ván ``van`` of match ``seed``: non-negative integers of any size."""
    words = _words("seed", seed) + _words("van", van) + _words("vong", vong)
    deck = np.empty(NUM_CARDS, dtype=np.int64)
    _shuffle(np.array(words, dtype=np.uint64), len(words), deck)
    return [int(c) for c in deck]


__all__ = ["shuffled_deck", "shuffled_deck_into"]
