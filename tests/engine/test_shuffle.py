"""The deal's stream (:mod:`env121.engine.shuffle`) is the stream of record formats 1 and 2.

Two proofs: the frozen decks of ``golden/deal_stream.txt`` (drawn from numpy
2.4 by ``scripts/freeze_deal_stream.py``), which hold whatever numpy is
installed, and the live comparison with the installed numpy's
``default_rng(SeedSequence([seed, van, vong])).permutation(121)``, which
fails first if a numpy release changes its stream (then the frozen decks
still decide). Both the Python face and the kernel the batched engine calls
are checked.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from env121.engine.deal import Deal
from env121.engine.seeds import Stream, derive_rng
from env121.engine.shuffle import shuffled_deck, shuffled_deck_into

FROZEN = Path(__file__).parent / "golden" / "deal_stream.txt"
MAX_KEY = 2**64 - 1


def frozen_decks() -> list[tuple[tuple[int, int, int], list[int]]]:
    """``((seed, van, vong), deck)`` for each line of the frozen file."""
    decks = []
    for line in FROZEN.read_text().splitlines():
        if line.startswith("#"):
            continue
        key, deck = line.split(":")
        seed, van, vong = (int(word) for word in key.split())
        decks.append(((seed, van, vong), [int(word) for word in deck.split()]))
    return decks


def numpy_deck(seed: int, van: int, vong: int) -> list[int]:
    """The installed numpy's shuffle of that key."""
    deck: list[int] = derive_rng(seed, Stream.DEAL, van, vong).permutation(121).tolist()
    return deck


def kernel_deck(seed: int, van: int, vong: int) -> list[int]:
    deck = np.empty(121, dtype=np.int64)
    shuffled_deck_into(np.uint64(seed), np.uint64(van), np.uint64(vong), deck)
    cards: list[int] = deck.tolist()
    return cards


def test_the_frozen_file_covers_every_kind_of_key():
    keys = [key for key, _ in frozen_decks()]
    assert len(keys) == 57
    assert any(seed > MAX_KEY for seed, _, _ in keys)  # more than two words of entropy
    assert any(van > 2**32 and vong == 0 for _, van, vong in keys)


@pytest.mark.parametrize(("key", "deck"), frozen_decks(), ids=lambda v: str(v)[:30])
def test_the_stream_deals_the_frozen_decks(key, deck):
    assert shuffled_deck(*key) == deck
    if max(key) <= MAX_KEY:
        assert kernel_deck(*key) == deck


def test_the_installed_numpy_still_draws_the_frozen_decks():
    for key, deck in frozen_decks():
        assert numpy_deck(*key) == deck, key


def test_the_stream_is_numpys_on_a_run_of_seeds():
    for seed in range(500):
        key = (seed, seed % 3, seed % 12)
        assert shuffled_deck(*key) == numpy_deck(*key), key


@settings(max_examples=300, deadline=None)
@given(
    seed=st.one_of(st.integers(0, MAX_KEY), st.integers(0, 2**32 - 1), st.integers(0, 2**200)),
    van=st.one_of(st.integers(0, 40), st.integers(0, MAX_KEY)),
    vong=st.one_of(st.integers(0, 40), st.integers(0, MAX_KEY)),
)
def test_the_stream_is_numpys_on_drawn_keys(seed, van, vong):
    deck = shuffled_deck(seed, van, vong)
    assert deck == numpy_deck(seed, van, vong)
    if seed <= MAX_KEY:
        assert kernel_deck(seed, van, vong) == deck


def test_a_seeded_deal_is_the_frozen_deck_dealt():
    (seed, van, vong), deck = frozen_decks()[0]
    assert Deal.from_seed(seed, van, vong, dealer=2) == Deal.from_deck(deck, dealer=2)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ((-1, 0, 0), r"seed must be a non-negative integer, got -1"),
        ((1.0, 0, 0), r"seed must be a non-negative integer, got 1\.0"),
        ((True, 0, 0), r"seed must be a non-negative integer, got True"),
        ((3, -2, 0), r"van must be a non-negative integer, got -2"),
        ((3, 0, "1"), r"vong must be a non-negative integer, got '1'"),
    ],
    ids=["negative", "float", "bool", "van", "vong"],
)
def test_a_bad_key_is_named(key, message):
    with pytest.raises(ValueError, match=message):
        shuffled_deck(*key)
    with pytest.raises(ValueError, match=message):
        Deal.from_seed(key[0], key[1], key[2], dealer=0)


def test_numpy_integers_are_keys():
    assert shuffled_deck(np.uint64(2**40 + 5), np.int64(1), np.int8(7)) == numpy_deck(
        2**40 + 5, 1, 7
    )
