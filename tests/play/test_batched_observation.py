"""The compiled observation (:mod:`env121.play.batched_observation`) is the oracle's.

The batched engine and the oracle (``tests/support/oracle.py``) play the same
seeds in lock-step,
both driven by the same random legal actions, under rule variants chosen to
reach every piece: Nhất Bản without a wait (many arrangements, fixed and being
placed), Đền, Cướp and Bội ước, a cap on actions per vòng (many short vòng,
ván and matches, so scores move and matches end and are dealt again),
several ván, the other facings and Phe – Phe, Thế trắng asked of eligible
seats only. At every step the observation of every seat of every game must
equal the observation oracle's (``tests/support/observation_oracle.py``)
entry for entry, and its mask ``encode_action_mask``; so must the one-match
face (:func:`~env121.play.batched_observation.encode_observation` of the
oracle's State, its kernel record written from the fields); a counter of
what was seen makes sure the play reached each case.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from env121.engine.actions import NUM_ACTIONS
from env121.engine.batched import BatchedEngine
from env121.engine.state import Phase, State
from env121.play import batched_observation
from env121.play.batched_observation import (
    encode_action_masks,
    encode_observations,
    make_observer,
)
from env121.play.observation import OBS_SIZE, OBSERVATION_LAYOUT, encode_action_mask
from env121.rules.config import RuleConfig
from tests.support.observation_oracle import encode_observation
from tests.support.oracle import apply, legal_actions, new_game

GAMES, STEPS = 6, 160

CONFIGS = {
    "nhat_ban_anywhere_den": RuleConfig(
        nhat_ban_requires_wait=False,
        mask_invalid_win=False,
        max_actions_per_vong=45,
        num_van=2,
        starting_points=800,
    ),
    "variants": RuleConfig(
        left_figures=frozenset({1, 3, 5, 7, 9}),
        phe_phe_same_suits=True,
        the_trang_asks_every_seat=False,
        payment_rounding="hundreds",
        carry_scores=True,
        num_van=4,
        max_actions_per_vong=12,
    ),
    "default": RuleConfig(),
}
REACHES = {
    "nhat_ban_anywhere_den": {
        "locked": 20,
        "nhat_ban arranged": 50,
        "nhat_ban placing": 5,
        "vong": 20,
        "matches": 2,
    },
    "variants": {"locked": 20, "an_si turned": 20, "vong": 40, "van": 1},
    "default": {"locked": 20, "an_si turned": 20, "win_points": 20},
}
"""What the lock-step play of each variant must have shown (counts of seat
observations, and of vòng, ván and matches ended), so that no case passes empty."""


def _differing_pieces(expected: np.ndarray, got: np.ndarray) -> str:
    """The pieces where two observations differ, with their entries."""
    lines = []
    for name, where in OBSERVATION_LAYOUT.slices.items():
        diff = np.flatnonzero(expected[where] != got[where])
        if diff.size:
            lines.append(
                f"{name}[{diff[:6].tolist()}]: reference {expected[where][diff[:6]].tolist()} "
                f"compiled {got[where][diff[:6]].tolist()}"
            )
    return "; ".join(lines)


def _note(seen: Counter[str], state: State, seat: int, observation: np.ndarray) -> None:
    """Count the cases a seat's observation shows."""
    seen["locked"] += bool(state.locked[seat])
    seen["nhat_ban arranged"] += bool(state.nb_arrangement[seat])
    placing = state.phase == Phase.NB_PLACE and state.current_player == seat
    seen["nhat_ban placing"] += placing and bool(state.nb_placed)
    seen["an_si turned"] += state.an_si_revealed > 0
    seen["win_points"] += bool(observation[OBSERVATION_LAYOUT.slices["win_points"]].any())


@pytest.mark.parametrize("name", CONFIGS)
def test_every_seat_observes_what_the_reference_encodes(name: str) -> None:
    config = CONFIGS[name]
    seeds = np.arange(GAMES) + 100 * sorted(CONFIGS).index(name)
    engine = BatchedEngine(GAMES, config)
    engine.reset(seeds)
    states = [new_game(int(seed), config) for seed in seeds]
    observer = make_observer(GAMES, config)
    obs = np.zeros((GAMES, OBS_SIZE), dtype=np.float32)
    masks = np.zeros((GAMES, NUM_ACTIONS), dtype=np.int8)
    rng = np.random.default_rng(len(name))
    seen: Counter[str] = Counter()
    for step in range(STEPS):
        for shift in range(4):  # every seat of every game, the seat to act first
            seats = (engine.to_act + shift) % 4
            encode_observations(engine.games, seats, obs, observer)
            encode_action_masks(engine.games, seats, masks)
            for g, state in enumerate(states):
                seat = int(seats[g])
                expected = encode_observation(state, seat)
                assert np.array_equal(obs[g], expected), (
                    f"{name} step {step} game {g} seat {seat} ({state.phase.value}): "
                    + _differing_pieces(expected, obs[g])
                )
                one = batched_observation.encode_observation(state.clone(), seat)
                assert np.array_equal(one, expected), (
                    f"{name} step {step} game {g} seat {seat}: the one-match face: "
                    + _differing_pieces(expected, one)
                )
                assert np.array_equal(masks[g], encode_action_mask(state, seat)), (
                    f"{name} step {step} game {g} seat {seat}: masks differ"
                )
                _note(seen, state, seat, expected)
        actions = [int(rng.choice(legal_actions(state))) for state in states]
        result = engine.step(np.array(actions))
        seen["vong"] += int(np.count_nonzero(engine.games["vong_ended"]))
        for g, action in enumerate(actions):
            van = states[g].van
            apply(states[g], action)
            seen["van"] += states[g].van != van
            if result.terminated[g]:
                assert states[g].is_over, f"{name} step {step} game {g}: only one match ended"
                seen["matches"] += 1
                record = engine.games[g]
                rotation = int(record["rotation"])
                states[g] = new_game(int(record["seed"]), config, rotation=rotation)
    for case, least in REACHES[name].items():
        assert seen[case] >= least, f"{name}: the play reached {case} {seen[case]} times"


def test_bad_input_gets_one_clear_error() -> None:
    engine = BatchedEngine(2)
    observer = make_observer(2)
    obs = np.zeros((2, OBS_SIZE), dtype=np.float32)
    with pytest.raises(ValueError, match="seats must be 2 integer seats"):
        encode_observations(engine.games, [0], obs, observer)
    with pytest.raises(ValueError, match=r"seats must be in 0\.\.3"):
        encode_observations(engine.games, [0, 4], obs, observer)
    with pytest.raises(ValueError, match="out must be a writeable C-contiguous float32"):
        encode_observations(engine.games, [0, 1], obs.astype(np.float64), observer)
    with pytest.raises(ValueError, match=r"observer must be make_observer\(2, config\)"):
        encode_observations(engine.games, [0, 1], obs, make_observer(3))
    with pytest.raises(ValueError, match="games must be a 1-D array of game records"):
        encode_observations(obs, [0, 1], obs, observer)
    with pytest.raises(ValueError, match="out must be a writeable C-contiguous int8"):
        encode_action_masks(engine.games, [0, 1], np.zeros((2, NUM_ACTIONS), dtype=np.uint8))
    with pytest.raises(ValueError, match="num_games=0 is not valid"):
        make_observer(0)
