"""The Python face of the batched engine: its checks, auto-reset, records, threads.

That it plays as the reference engine is ``test_batched_differential.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from env121.engine.actions import NUM_ACTIONS, PASS
from env121.engine.batched import BatchedEngine
from env121.engine.deal import Deal
from env121.engine.game import IllegalActionError, apply, new_game
from env121.engine.records import replay
from env121.engine.state import NUM_SEATS, VONG_PER_VAN, MatchEnded, VongStarted
from env121.rules.cards import NUM_CARDS
from env121.rules.config import RuleConfig


def same_games(a: np.ndarray, b: np.ndarray) -> bool:
    """Every field of every game equal (padding bytes aside)."""
    names = a.dtype.names or ()
    return all(np.array_equal(a[name], b[name]) for name in names)


def first_legal(engine: BatchedEngine) -> np.ndarray:
    return np.array([engine.legal_actions(g)[0] for g in range(engine.num_games)])


def test_a_new_engine_deals_seeds_0_to_b():
    engine = BatchedEngine(3)
    for g in range(3):
        assert engine.events(g) == new_game(g).events
        assert int(engine.games[g]["seed"]) == g


def test_an_illegal_action_names_its_game_and_moves_no_game():
    engine = BatchedEngine(4)
    actions = first_legal(engine)
    actions[2] = next(a for a in range(NUM_ACTIONS) if a not in engine.legal_actions(2))
    before = engine.games.copy()
    with pytest.raises(IllegalActionError, match="game 2: illegal action"):
        engine.step(actions)
    assert same_games(engine.games, before)


@pytest.mark.parametrize(
    "actions", [np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.float64), [[0] * 4]]
)
def test_actions_must_be_one_integer_per_game(actions):
    with pytest.raises(ValueError, match="actions must be 4 integer action ids"):
        BatchedEngine(4).step(actions)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seeds": [0, 1]}, "seeds must be 3 ints"),
        ({"seeds": [0, -1, 2]}, "seeds must be 3 ints"),
        ({"seeds": [0, 1, 2], "rotations": [0, 4, 1]}, "rotations must be 3 ints in 0..3"),
        ({"seeds": [0, 1, 2], "first_deals": [None]}, "first_deals must be 3 Deal objects"),
    ],
)
def test_reset_names_the_bad_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BatchedEngine(3).reset(**kwargs)


def test_the_mask_is_the_legal_actions():
    engine = BatchedEngine(8, RuleConfig(mask_invalid_win=False))
    for _ in range(30):
        mask = engine.legal_mask()
        for g in range(8):
            assert np.flatnonzero(mask[g]).tolist() == engine.legal_actions(g)
        engine.step(first_legal(engine))


def test_a_finished_match_is_replaced_by_the_next_seed_and_its_record_replays():
    config = RuleConfig(max_actions_per_vong=1)  # each vòng is one action: 12 to a match
    engine = BatchedEngine(2, config)
    engine.reset([5, 9], rotations=[1, 3])
    for _ in range(VONG_PER_VAN - 1):
        out = engine.step(first_legal(engine))
        assert not out.terminated.any()
    out = engine.step(first_legal(engine))
    assert out.terminated.all() and not out.truncated.any()
    for g, (seed, rotation) in enumerate([(5, 1), (9, 3)]):
        info = engine.final_info(g)
        assert info is not None and info.seed == seed and info.reason == "completed"
        finished = replay(engine.final_record(g))
        assert finished.is_over and finished.rotation == rotation
        assert (finished.ranks, finished.scores) == (info.ranks, info.scores)
        events = engine.events(g)
        opening = events[[type(e) for e in events].index(MatchEnded) + 1 :]
        assert opening == new_game(seed + 2, config, rotation=rotation).events
        assert isinstance(opening[0], VongStarted)
        assert replay(engine.record(g)).actions == []


def test_an_explicit_first_deal_is_dealt_and_recorded():
    deal = Deal.from_notation(
        [
            "CRE/KY CRE/ED GEN/KY GEN/ED INS/KY",
            "INS/ED MER/KY MER/ED GEI/KY GEI/ED",
            "DAN/KY DAN/ED MON/KY MON/ED MUS/KY",
            "MUS/ED NIN/KY NIN/ED ASA/KY ASA/ED",
        ],
        "PRI/KY",
        "PRI/ED CRE/FR CRE/FB CRE/FP",
    )
    engine = BatchedEngine(2)
    engine.reset([7, 8], first_deals=[deal, None])
    assert engine.events(0) == new_game(7, first_deal=deal).events
    assert engine.events(1) == new_game(8).events
    engine.step([PASS, PASS])
    reference = new_game(7, first_deal=deal)
    apply(reference, PASS)
    assert replay(engine.record(0)).events == reference.events


def _cards_conserved(engine: BatchedEngine, g: int) -> bool:
    r = engine.games[g]
    cards = [*r["dead"][: r["n_dead"]], *r["noc"][r["noc_pos"] :], r["chi_diem"], *r["an_si"]]
    for s in range(NUM_SEATS):
        cards += [*r["hands"][s, : r["n_free"][s]], *r["locked"][s, : r["n_locked"][s]]]
    if r["offer_card"] >= 0:
        cards.append(r["offer_card"])
    return sorted(int(c) for c in cards) == list(range(NUM_CARDS))


def test_random_play_is_the_same_on_one_thread_or_two_and_keeps_the_cards():
    one = BatchedEngine(256, threads=1)
    two = BatchedEngine(256, threads=2)
    assert one.play_random(300, rng_seed=4) == two.play_random(300, rng_seed=4) == 256 * 300
    assert same_games(one.games, two.games)
    assert all(_cards_conserved(one, g) for g in range(256))
    assert one.games["terminated"].dtype == np.bool_
    with pytest.raises(ValueError, match="played by play_random"):
        one.record(0)


def test_records_replay_after_many_steps_and_matches():
    config = RuleConfig(max_actions_per_vong=7, num_van=2)
    engine = BatchedEngine(3, config)
    references = [new_game(g, config) for g in range(3)]
    for _ in range(2500):
        actions = first_legal(engine)
        out = engine.step(actions)
        for g in range(3):
            apply(references[g], int(actions[g]))
            if out.terminated[g]:
                assert replay(engine.final_record(g)).events == references[g].events
                references[g] = new_game(int(engine.games[g]["seed"]), config)
    for g in range(3):
        assert replay(engine.record(g)).events == references[g].events
