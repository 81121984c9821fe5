"""The named seed streams: every derived number is pinned to the value it had
before the streams were gathered in one module, so deals, random players,
agents' seeds, tournaments and demonstrations stay what they were."""

from __future__ import annotations

import pytest

from agents.hints import hints_seed
from apps.cli.game import agent_seed as play_agent_seed
from arena.seeds import agent_seed, deal_seed
from env121.engine.seeds import Stream, derive_seed, seed_sequence
from env121.engine.shuffle import shuffled_deck
from env121.play.random_agent import random_players


def test_deals_shuffle_as_before():
    assert shuffled_deck(7, 0, 0)[:6] == [64, 37, 97, 89, 28, 61]
    assert shuffled_deck(7, 1, 11)[:6] == [46, 103, 119, 13, 102, 117]


def test_the_random_players_draw_as_before():
    players = random_players(1)
    assert all(player is players[0] for player in players)  # one generator for four seats
    assert players[0].rng.integers(1000, size=6).tolist() == [684, 409, 145, 485, 450, 416]


@pytest.mark.parametrize(
    ("derived", "pinned"),
    [
        ([play_agent_seed(9, seat) for seat in range(4)],
         [1951610069, 1183732402, 3823409427, 2587972695]),
        ([hints_seed(0), hints_seed(12345)], [3964924996, 671067976]),
        ([deal_seed(2027, deal) for deal in range(3)], [33346646, 3315946343, 668631349]),
        ([agent_seed(2027, 33346646, 1, 2, 3)], [4101034426]),
        ([derive_seed(600000, Stream.TEACHER, seat) for seat in range(4)],
         [2323505367, 2987235494, 47156630, 3837130055]),
        ([derive_seed(600000, Stream.TEACHER_HINTS)], [3004149474]),
    ],
    ids=["play_agent", "hints", "tournament_deal", "tournament_agent", "teacher", "teacher_hints"],
)  # fmt: skip
def test_derived_seeds_are_as_before(derived, pinned):
    assert derived == pinned


def test_a_stream_takes_exactly_its_values():
    assert seed_sequence(3, Stream.PLAY_AGENT, 2).entropy == [3, 0xA6E, 2]
    with pytest.raises(ValueError, match=r"stream DEAL takes 2 value\(s\) .*\(van, vong\), got 1"):
        seed_sequence(3, Stream.DEAL, 0)
    with pytest.raises(ValueError, match=r"stream HINTS takes 0 value\(s\) .*\(none\), got 1"):
        derive_seed(3, Stream.HINTS, 1)
