"""The observation of env121_v1: its layout, what it may reveal, the mask, win points."""

from __future__ import annotations

import re
import sys
import threading

import numpy as np
import pytest

from agents import inputs
from agents.inputs import (
    GREEDY_HINTS_LAYOUT,
    INPUT_LAYOUTS,
    NB_WINS_LAYOUT,
    SEARCH_HINTS_LAYOUT,
    SWAP_WINS_LAYOUT,
    inputs_table,
)
from env121.engine.actions import NUM_ACTIONS, PASS, U
from env121.engine.deal import Deal
from env121.engine.game import apply, legal_actions, new_game, win_score
from env121.engine.state import Phase, State
from env121.engine.view import sample_determinization
from env121.engine.win_table import win_points
from env121.envs import aec_env
from env121.play import observation
from env121.play.batched_observation import encode_observation
from env121.play.observation import (
    OBS_HIGH,
    OBS_LOW,
    OBS_SIZE,
    OBSERVATION_LAYOUT,
    POINTS_SCALE,
    InputPiece,
    Layout,
    action_mask,
    encode_action_mask,
    views,
)
from env121.play.turn import Turn
from env121.rules.bonuses import THUONG_BY_ID
from env121.rules.cards import NUM_CARDS, card
from env121.rules.config import RuleConfig
from env121.rules.waits import GAP, fill_gap
from tests.support.play import random_play_states
from tests.support.reference import reference_is_completed
from tests.support.scorer import nhat_ban_arrangements, score_hand

CONFIGS = {
    "default": RuleConfig(),
    "no-wait-rule": RuleConfig(nhat_ban_requires_wait=False),
    "variants": RuleConfig(
        phe_phe_same_suits=True, left_figures=frozenset({1, 3, 5, 7, 9}), mask_invalid_win=False
    ),
}


def random_states(seed: int, config: RuleConfig, every: int, limit: int) -> list[State]:
    """Copies of the states of a random match, one every ``every`` actions."""
    return random_play_states(seed, config, limit=limit, every=every)


# ------------------------------------------------------------------ layout


def _table_rows(doc: str) -> list[tuple[str, str, str]]:
    """(index, name, shape) of each row of the generated layout tables in ``doc``."""
    rows = re.findall(r"^\s+(\d+(?:\.\.\d+)?)\s+([a-z_]+)\s+(\d+(?:×\d+)?)\s+\[", doc, re.M)
    return [(i, n, s) for i, n, s in rows]


def _expected_rows(layout: Layout) -> list[tuple[str, str, str]]:
    rows = []
    for piece in layout:
        start = layout.offsets[piece.name]
        index = str(start) if piece.size == 1 else f"{start}..{start + piece.size - 1}"
        rows.append((index, piece.name, "×".join(map(str, piece.shape))))
    return rows


@pytest.mark.parametrize("module", [observation, aec_env], ids=["observation", "aec_env"])
def test_the_environments_docstrings_have_the_observations_table(module):
    assert module.__doc__ is not None
    assert _table_rows(module.__doc__) == _expected_rows(OBSERVATION_LAYOUT)
    assert f"({OBS_SIZE} entries" in module.__doc__


def test_the_inputs_docstring_has_each_hint_part_where_its_input_sets_hold_it():
    """Each hint part's table at its indices in the first input set that holds it."""
    expected = []
    hint_parts = dict.fromkeys(
        part for layout in INPUT_LAYOUTS.values() for part in layout.parts[1:]
    )
    assert [part.name for part in hint_parts] == [
        "greedy_hints",
        "search_hints",
        "swap_wins",
        "nb_wins",
    ]
    for part in hint_parts:
        holder = next(layout for layout in INPUT_LAYOUTS.values() if part in layout.parts)
        names = {piece.name for piece in part}
        expected += [row for row in _expected_rows(holder) if row[1] in names]
    assert inputs.__doc__ is not None
    assert _table_rows(inputs.__doc__) == expected
    assert all(line.strip() in inputs.__doc__ for line in inputs_table().splitlines())


def test_layout_pieces_tile_the_vector():
    assert sum(p.size for p in OBSERVATION_LAYOUT) == OBS_SIZE == OBSERVATION_LAYOUT.size
    names = [p.name for p in OBSERVATION_LAYOUT]
    assert len(set(names)) == len(names)
    obs = np.arange(OBS_SIZE, dtype=np.float32)
    named = views(obs)
    assert [v.shape for v in named.values()] == [p.shape for p in OBSERVATION_LAYOUT]
    assert np.concatenate([v.ravel() for v in named.values()]).tolist() == obs.tolist()
    named["hand"][3] = -1.0
    assert obs[OBSERVATION_LAYOUT.offsets["hand"] + 3] == -1.0  # views, not copies


def test_input_sets_are_the_observation_then_hint_parts_each_at_one_place():
    assert list(INPUT_LAYOUTS) == [
        "observation",
        "observation+greedy_hints",
        "observation+search_hints",
        "observation+swap_wins",
        "observation+swap_wins+nb_wins",
    ]
    assert INPUT_LAYOUTS["observation"] is OBSERVATION_LAYOUT
    sizes = [layout.size for layout in INPUT_LAYOUTS.values()]
    assert sizes == [2491, 2491 + 262, 2491 + 524, 2491 + 262, 2491 + 524]
    for hints in (GREEDY_HINTS_LAYOUT, SEARCH_HINTS_LAYOUT, SWAP_WINS_LAYOUT, NB_WINS_LAYOUT):
        assert [p.shape for p in hints] == [(NUM_ACTIONS,)] * 2  # aligned with the action ids
        starts = {
            layout.offsets[hints.pieces[0].name]
            for layout in INPUT_LAYOUTS.values()
            if hints in layout.parts
        }
        assert len(starts) == 1  # one index per row in the table
    for layout in INPUT_LAYOUTS.values():
        assert layout.parts[0] is OBSERVATION_LAYOUT
        assert layout.pieces == tuple(p for part in layout.parts for p in part)
        vector = np.arange(layout.size, dtype=np.float32)
        named = layout.views(vector)
        assert np.concatenate([v.ravel() for v in named.values()]).tolist() == vector.tolist()
        assert layout.low.shape == layout.high.shape == (layout.size,)


def test_a_layout_refuses_a_vector_of_another_size_and_repeated_names():
    with pytest.raises(ValueError, match=r"does not fit layout 'greedy_hints': expected shape"):
        GREEDY_HINTS_LAYOUT.views(np.zeros(OBS_SIZE, np.float32))
    piece = InputPiece("hand", (3,), "cards")
    with pytest.raises(ValueError, match="piece names repeat"):
        Layout("twice", (piece, piece))


def test_each_observation_is_a_new_array_whichever_thread_writes_it():
    """The encoder writes on one canvas per thread and returns a copy: an
    observation kept stays as it was, and threads do not write on each
    other's (the switch interval is made tiny so that they interleave)."""
    states = random_states(0, RuleConfig(), every=3, limit=120)
    pairs = [(state, seat) for state in states for seat in range(4)]
    expected = [encode_observation(state, seat) for state, seat in pairs]
    kept = [e.copy() for e in expected]
    assert all(np.array_equal(a, b) for a, b in zip(expected, kept, strict=True))
    mismatches: list[int] = []

    def encode_all() -> None:
        for i, (state, seat) in enumerate(pairs):
            if not np.array_equal(encode_observation(state, seat), expected[i]):
                mismatches.append(i)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=encode_all) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not mismatches


# -------------------------------------------------------- mask and bounds


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_mask_is_the_legal_set_and_observations_stay_in_bounds(config):
    space = aec_env.raw_env().observation_space("player_0")
    for seed in range(2):
        for state in random_states(seed, config, every=1, limit=700):
            legal = set(legal_actions(state))
            for seat in range(4):
                mask = encode_action_mask(state, seat)
                expected = legal if seat == state.current_player else set()
                assert set(np.flatnonzero(mask).tolist()) == expected
            seat = max(state.current_player, 0)
            obs = encode_observation(state, seat)
            assert obs.dtype == np.float32
            assert ((obs >= OBS_LOW) & (obs <= OBS_HIGH)).all()
            if seed == 0 and len(state.actions) % 50 == 0:
                assert space.contains({"observation": obs, "action_mask": mask})


def test_u_is_legal_exactly_when_win_points_say_so():
    """The derived feature agrees with the engine: Ù on the card on offer is
    legal iff its win points are > 0, and they are the engine's points less
    the Thưởng that depend on how the card came (Tự thân, Kết chung)."""
    situational = {"tu_than", "ket_chung"}
    assert situational <= set(THUONG_BY_ID)
    checked = 0
    for seed in range(3):
        for state in random_states(seed, RuleConfig(), every=1, limit=800):
            if state.phase != Phase.OFFER:
                continue
            seat, offer = state.current_player, state.offer_card
            points = views(encode_observation(state, seat))["win_points"][offer] * POINTS_SCALE
            score = win_score(state, seat)
            assert (U in legal_actions(state)) == (score is not None) == (points > 0)
            if score is not None:
                checked += 1
                extra = len(score.bonuses & situational)
                assert points == pytest.approx(score.points - extra)
    assert checked > 5


# ------------------------------------------------------------- no leaks


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_observation_does_not_change_when_hidden_cards_are_redealt(config):
    """Re-deal everything a seat cannot see (others' unseen cards, the Nọc
    order, face-down Ẩn Sĩ, others' Nhất Bản arrangements): the seat's
    observation and mask stay the same."""
    rng = np.random.default_rng(0)
    seen = {"nhat_ban": 0, "locked": 0, "other_placing": 0, "hidden_differs": 0}
    for seed in range(3):
        for state in random_states(seed, config, every=5, limit=140):
            if state.is_over:
                continue
            for seat in range(4):
                obs = encode_observation(state, seat)
                mask = encode_action_mask(state, seat)
                for _ in range(2):
                    other = sample_determinization(state, seat, rng)
                    np.testing.assert_array_equal(encode_observation(other, seat), obs)
                    np.testing.assert_array_equal(encode_action_mask(other, seat), mask)
                    seen["hidden_differs"] += other.hands != state.hands or other.noc != state.noc
            seen["nhat_ban"] += any(state.nhat_ban)
            seen["locked"] += any(state.locked)
            seen["other_placing"] += state.phase in (Phase.NB_GAP, Phase.NB_PLACE)
    assert all(n > 0 for n in seen.values()), seen


def _order_of_play(state: State) -> tuple[object, ...]:
    """What the order of play shows everyone: the seat to act, the phase, the
    seats still to be asked."""
    return (state.current_player, state.phase, state.ask_order[state.ask_pos :])


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_the_order_of_play_does_not_change_when_hidden_cards_are_redealt(config):
    """The acting seat, the phase and the queue of seats to ask are public: a
    re-deal of what a seat cannot see keeps them."""
    rng = np.random.default_rng(1)
    questions = 0
    for seed in range(6):
        asked = random_play_states(seed, config, limit=4, keep=lambda s: s.phase == Phase.THE_TRANG)
        for state in [*asked, *random_states(seed, config, every=9, limit=10)]:
            if state.is_over:
                continue
            questions += state.phase == Phase.THE_TRANG
            for seat in range(4):
                other = sample_determinization(state, seat, rng)
                assert _order_of_play(other) == _order_of_play(state)
    assert questions > 0


@pytest.mark.parametrize("asks_every_seat", [True, False])
def test_who_is_asked_about_the_trang_does_not_depend_on_the_hands(asks_every_seat):
    """Deal the same hand to seat 0 and fresh hands to the others: with every
    seat asked, the Thế trắng question goes round the same way; under the
    format-1 rule (only eligible seats asked) the order of play gives the
    other hands' eligibility away."""
    config = RuleConfig(the_trang_asks_every_seat=asks_every_seat)
    rng = np.random.default_rng(2)
    orders = set()
    for _ in range(200):
        deck = [int(c) for c in rng.permutation(NUM_CARDS)]
        mine, rest = deck[:5], deck[5:]
        hands = [mine, *(rest[5 * i : 5 * i + 5] for i in range(3))]
        deal = Deal(tuple(tuple(sorted(h)) for h in hands), rest[15], tuple(rest[16:20]),
                    tuple(rest[20:]))  # fmt: skip
        state = new_game(0, config, first_deal=deal)
        order = []
        while state.phase == Phase.THE_TRANG:
            order.append(state.current_player)
            apply(state, PASS)
        orders.add(tuple(order))
    assert (orders == {(0, 1, 2, 3)}) == asks_every_seat, orders


# ------------------------------------------------------------ win points


def _hands(rng: np.random.Generator, n: int) -> list[list[int]]:
    """Random hands, hands from few figures and suits, and pairwise-unrelated hands."""
    hands = []
    for i in range(n):
        if i % 3 == 0:
            hands.append([int(c) for c in rng.permutation(NUM_CARDS)[:5]])
        elif i % 3 == 1:
            figures = rng.choice(11, size=2, replace=False)
            suits = rng.choice(11, size=2, replace=False)
            pool = sorted(
                {card(int(f), s) for f in figures for s in range(11)}
                | {card(f, int(s)) for s in suits for f in range(11)}
            )
            hands.append([int(c) for c in rng.choice(pool, 5, replace=False)])
        else:
            figures, suits = rng.permutation(11)[:5], rng.permutation(11)[:5]
            hands.append([card(int(f), int(s)) for f, s in zip(figures, suits, strict=True)])
    return hands


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_win_points_equal_the_scorer_card_by_card(config):
    rng = np.random.default_rng(1)
    for hand in _hands(rng, 45):
        rest = [int(c) for c in rng.permutation(NUM_CARDS) if c not in hand]
        chi, an_si = rest[0], tuple(rest[1 : 1 + int(rng.integers(5))])
        locked, dealer = bool(rng.random() < 0.3), bool(rng.random() < 0.3)
        table = win_points(
            tuple(sorted(hand)), locked=locked, chi_diem=chi, an_si=an_si, dealer=dealer,
            nb_arrangement=(), config=config,
        )  # fmt: skip
        assert not table.flags.writeable
        for c in range(NUM_CARDS):
            if c in hand or c == chi or c in an_si:
                assert table[c] == 0
                continue
            score = score_hand(
                (*hand, c), chi_diem=chi, an_si=an_si, locked=locked, dealer=dealer, config=config
            )
            expected = 0 if score is None else score.points
            assert table[c] == expected, (hand, c, score)


@pytest.mark.parametrize("config", CONFIGS.values(), ids=CONFIGS.keys())
def test_nhat_ban_win_points_equal_the_scorer_on_the_fixed_arrangement(config):
    rng = np.random.default_rng(2)
    for hand in _hands(rng, 30):
        waiting = sorted(nhat_ban_arrangements(hand))
        if waiting and rng.random() < 0.8:
            arrangement = waiting[int(rng.integers(len(waiting)))]
        else:
            slots = [*hand, GAP]
            arrangement = tuple(slots[i] for i in rng.permutation(6))
        rest = [int(c) for c in rng.permutation(NUM_CARDS) if c not in hand]
        chi, an_si = rest[0], tuple(rest[1 : 1 + int(rng.integers(5))])
        dealer = bool(rng.random() < 0.3)
        table = win_points(
            tuple(sorted(hand)), locked=False, chi_diem=chi, an_si=an_si, dealer=dealer,
            nb_arrangement=arrangement, config=config,
        )  # fmt: skip
        for c in range(NUM_CARDS):
            if c in hand or c == chi or c in an_si:
                assert table[c] == 0
                continue
            filled = fill_gap(arrangement, c)
            expected = 0
            if reference_is_completed(filled):
                score = score_hand(
                    filled, chi_diem=chi, an_si=an_si, nhat_ban=True, dealer=dealer, config=config
                )
                assert score is not None
                expected = score.points
            assert table[c] == expected, (arrangement, c)


def test_action_mask_shape():
    state = new_game(0)
    mask = encode_action_mask(state, state.current_player)
    assert mask.shape == (NUM_ACTIONS,)
    assert mask.dtype == np.int8


def test_one_action_mask_for_the_env_and_the_turn():
    assert action_mask(()).tolist() == [0] * NUM_ACTIONS
    assert np.flatnonzero(action_mask((U, 3))).tolist() == [3, U]
    for state in random_states(1, RuleConfig(), every=7, limit=60):
        if not state.is_over:
            seat = state.current_player
            turn = Turn(state, seat)
            np.testing.assert_array_equal(turn.action_mask, encode_action_mask(state, seat))
