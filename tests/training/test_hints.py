"""agents.hints: greedy's hints, the hinted training seat, and networks that read them."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import torch
from gymnasium import spaces

from agents.greedy import GreedyAgent
from agents.hints import (
    HINTS_SIZE,
    INPUTS,
    SEARCH_HINTS_SIZE,
    SEARCHING_INPUTS,
    Hinter,
    greedy_decides,
    greedy_hints,
    search_hints,
    swap_wins,
)
from agents.inputs import (
    GAIN_SCALE,
    GREEDY_HINTS_LAYOUT,
    INPUT_LAYOUTS,
    SEARCH_HINTS_LAYOUT,
    SEARCH_SCALE,
    SWAP_WINS_LAYOUT,
    Z_CLIP,
    inputs_table,
)
from agents.mc import FIRST_LOOK, MCAgent, Plan
from agents.ppo import PolicyNetwork, PPOAgent, load_policy, save_policy
from agents.weights import sidecar_path
from env121.engine.actions import NHAT_BAN, NUM_ACTIONS, PASS, THE_TRANG, U, is_card_action
from env121.engine.game import apply, new_game
from env121.engine.state import Phase
from env121.envs.single_seat import SingleSeat
from env121.play.match import play_agents
from env121.play.observation import OBS_SIZE
from env121.play.protocol import Agent
from env121.play.turn import DeterminizationNotGranted, Turn
from tests.support.greedy import GreedyAgent as ReferenceGreedy
from tests.support.greedy import swap_gains
from tests.support.knowledge import HandJudge
from training.hinted_seat import HintedSeat
from training.stats import LearnerStats

HINTED = "observation+greedy_hints"
SEARCHED = "observation+search_hints"


def greedy_turns(count: int, seed: int = 0, search_allowed: bool = False) -> list[Turn]:
    """Turns met in greedy self-play."""
    greedy, state, turns = GreedyAgent(), new_game(seed), list[Turn]()
    while len(turns) < count and not state.is_over:
        turn = Turn(state.clone(), state.current_player, search_allowed=search_allowed)
        turns.append(turn)
        apply(state, greedy.act(turn))
    return turns


def test_hints_mark_greedys_choice_and_its_value_gains():
    greedy, seen = GreedyAgent(), set()
    for turn in greedy_turns(400, seed=3):
        hints = greedy_hints(turn, greedy)
        named = GREEDY_HINTS_LAYOUT.views(hints)
        choice, gains = named["greedy_choice"], named["greedy_gain"]
        assert hints.shape == (HINTS_SIZE,) and choice.sum() == 1
        assert int(np.argmax(choice)) == ReferenceGreedy().act(turn)
        judge = HandJudge(turn.view, turn.config)
        phase = turn.view.phase
        if phase == Phase.OFFER and len(turn.legal_actions) > 1:
            expected = np.zeros(NUM_ACTIONS, np.float32)
            for action, gain in swap_gains(judge, turn.legal_actions).items():
                expected[action] = gain / GAIN_SCALE
            assert np.allclose(gains, expected)
            seen.add("offer")
        elif phase == Phase.NB_CHOICE and NHAT_BAN in turn.legal_actions:
            assert np.count_nonzero(gains[:NHAT_BAN]) == 0
            seen.add("nb_choice")
        else:
            assert not gains.any()
    assert seen == {"offer", "nb_choice"}


def test_the_hinted_seat_shows_the_learner_only_its_own_decisions_with_their_hints():
    env = HintedSeat(LearnerStats(SingleSeat(seat=1)))  # found under another wrapper
    plain = SingleSeat(seat=1)
    observation, _ = env.reset(seed=4)
    plain.reset(seed=4)
    assert env.observation_space.shape == (OBS_SIZE + HINTS_SIZE,)
    greedy, total, steps, done = GreedyAgent(), 0.0, 0, False
    while not done:
        game = env.seat_env.env.game
        turn = Turn(game, game.current_player)
        assert turn.seat == 1 and not greedy_decides(turn)
        assert np.array_equal(observation[:OBS_SIZE], turn.observation)
        assert np.array_equal(observation[OBS_SIZE:], greedy_hints(turn, greedy))
        observation, reward, done, _, _ = env.step(np.int64(greedy.act(turn)))
        total, steps = total + reward, steps + 1
    assert not observation[OBS_SIZE:].any()
    # greedy in seat 1 of the same match, stepped one decision at a time
    plain_total, plain_steps, plain_done = 0.0, 0, False
    while not plain_done:
        game = plain.env.game
        _, reward, plain_done, _, _ = plain.step(greedy.act(Turn(game, game.current_player)))
        plain_total, plain_steps = plain_total + reward, plain_steps + 1
    assert total == pytest.approx(plain_total) and steps < plain_steps


def test_a_hinted_agent_leaves_wins_forced_moves_and_the_layout_to_greedy(tmp_path):
    torch.manual_seed(1)
    network = PolicyNetwork([8], "tanh", HINTED)
    path = save_policy(tmp_path / "h.safetensors", network.state_dict(), [8], "tanh", {}, HINTED)
    agent, greedy, decided = PPOAgent(str(path)), GreedyAgent(), 0
    for turn in greedy_turns(600, seed=8):
        if greedy_decides(turn):
            decided += 1
            assert agent.act(turn) == greedy.act(turn)
            legal = set(turn.legal_actions)
            layout = turn.view.phase in (Phase.NB_GAP, Phase.NB_PLACE)
            assert layout or len(legal) == 1 or {U, THE_TRANG} & legal
    assert 0 < decided < 600


def test_the_hinted_seat_needs_a_single_seat():
    class Other(gymnasium.Env[np.ndarray, np.int64]):
        observation_space = spaces.Box(0, 1, (2,))
        action_space = spaces.Discrete(2)

    with pytest.raises(TypeError, match="wraps a SingleSeat"):
        HintedSeat(Other())


def test_a_hinted_checkpoint_records_its_inputs_and_its_agent_reads_them(tmp_path):
    torch.manual_seed(0)
    network = PolicyNetwork([16], "tanh", HINTED)
    assert network.layers[0].in_features == INPUTS[HINTED]
    path = save_policy(tmp_path / "h.safetensors", network.state_dict(), [16], "tanh", {}, HINTED)
    assert json.loads(sidecar_path(path).read_text())["network"]["inputs"] == HINTED
    loaded, _ = load_policy(path)
    assert loaded.inputs == HINTED
    agent = PPOAgent(str(path))
    for turn in greedy_turns(100, seed=6):
        if greedy_decides(turn):
            continue
        features = np.concatenate([turn.observation, greedy_hints(turn, GreedyAgent())])
        with torch.no_grad():
            logits = network(torch.from_numpy(features)).numpy()
        legal = list(turn.legal_actions)
        assert agent.act(turn) == legal[int(np.argmax(logits[legal]))]


def test_a_checkpoint_without_inputs_reads_the_observation(tmp_path):
    network = PolicyNetwork([8], "relu")
    path = save_policy(tmp_path / "old.safetensors", network.state_dict(), [8], "relu")
    side = sidecar_path(path)
    meta = json.loads(side.read_text())
    del meta["network"]["inputs"]  # as written before hints existed
    side.write_text(json.dumps(meta))
    assert load_policy(path)[0].inputs == "observation"


@pytest.mark.parametrize("inputs", list(INPUT_LAYOUTS))
def test_the_hinter_fills_every_part_of_its_input_set(inputs):
    """The input is the observation, then each hint part of the set in its
    place; the widths and which sets search follow from the layout."""
    layout = INPUT_LAYOUTS[inputs]
    hinter = Hinter(inputs)
    hinter.reset(3)
    assert INPUTS[inputs] == layout.size
    assert (
        hinter.uses_search == (inputs in SEARCHING_INPUTS) == (SEARCH_HINTS_LAYOUT in layout.parts)
    )
    turn = searched_offers(1, seed=4)[0]
    vector = hinter(turn)
    assert vector.dtype == np.float32 and vector.shape == (layout.size,)
    assert np.array_equal(vector[:OBS_SIZE], turn.observation)
    named = layout.views(vector)
    if GREEDY_HINTS_LAYOUT in layout.parts:
        assert np.array_equal(
            np.concatenate([named["greedy_choice"], named["greedy_gain"]]),
            greedy_hints(turn, GreedyAgent()),
        )
    if SWAP_WINS_LAYOUT in layout.parts:
        assert np.array_equal(
            np.concatenate([named["swap_points"], named["swap_waits"]]), swap_wins(turn)
        )
    if SEARCH_HINTS_LAYOUT in layout.parts:
        again = MCAgent()
        again.reset(3)
        assert np.array_equal(
            np.concatenate([named["search_gain"], named["search_z"]]), search_hints(turn, again)
        )


def test_the_training_readme_shows_the_generated_input_table():
    readme = Path(__file__).parents[2] / "training" / "README.md"
    table = inputs_table()
    assert f"```text\n{table}\n```" in readme.read_text(), (
        "training/README.md's input table is not the generated one; replace it with:\n" + table
    )


def test_unknown_inputs_are_a_clear_error():
    with pytest.raises(ValueError, match=r"inputs='hints' is not valid: expected one of"):
        PolicyNetwork([8], "relu", "hints")


# ------------------------------------------------------------------ search hints


def searched_offers(count: int, seed: int) -> list[Turn]:
    """Offers met in greedy self-play where a hinted network decides and the
    search has several actions to weigh."""
    searcher = MCAgent()
    return [
        turn
        for turn in greedy_turns(400, seed, search_allowed=True)
        if turn.view.phase == Phase.OFFER
        and not greedy_decides(turn)
        and len({action for action, _ in searcher.plans(turn)}) > 2
    ][:count]


class ScriptedSearch(MCAgent):
    """An mc whose looks return scripted rows for scripted plans."""

    def __init__(self, plans: list[Plan], rows: np.ndarray) -> None:
        super().__init__()
        self.scripted_plans, self.rows = plans, rows

    def plans(self, turn: Turn) -> list[Plan]:
        return self.scripted_plans

    def results(
        self, turn: Turn, plans: list[Plan], seed: int, first: int, count: int
    ) -> np.ndarray:
        assert plans == self.scripted_plans
        rows: np.ndarray = self.rows[first : first + count]
        return rows


def test_search_hints_give_each_planned_action_its_best_plans_gain_and_z():
    turn = searched_offers(1, seed=2)[0]
    swaps = [a for a in turn.legal_actions if is_card_action(a)]
    first, other = swaps[0], swaps[1]
    plans = [(first, False), (other, False), (other, True), (PASS, False)]
    noise = np.random.default_rng(0).normal(0, 5, (FIRST_LOOK + 4, 1))
    base = np.zeros((FIRST_LOOK + 4, 1))
    rows = np.hstack([base, base + 8 + noise, base + 30, base - 2 + noise])
    hints = search_hints(turn, ScriptedSearch(plans, rows))
    named = SEARCH_HINTS_LAYOUT.views(hints)
    gain, z = named["search_gain"], named["search_z"]
    assert hints.shape == (SEARCH_HINTS_SIZE,)
    # only the first look is read: FIRST_LOOK rows, not the spares
    look = rows[:FIRST_LOOK]
    assert gain[other] == pytest.approx(30 / SEARCH_SCALE)  # the declaring plan's, the better
    assert z[other] == 1.0  # the same gain in every sample: clipped at Z_CLIP
    passing = look[:, 3] - look[:, 0]
    expected_z = passing.mean() / (passing.std(ddof=1) / np.sqrt(FIRST_LOOK))
    assert gain[PASS] == pytest.approx(passing.mean() / SEARCH_SCALE)
    assert z[PASS] == pytest.approx(np.clip(expected_z, -Z_CLIP, Z_CLIP) / Z_CLIP)
    unplanned = np.ones(NUM_ACTIONS, bool)
    unplanned[[first, other, PASS]] = False
    assert gain[first] == z[first] == 0 and not gain[unplanned].any() and not z[unplanned].any()


def test_search_hints_read_the_seeded_first_look_of_mc():
    seen_gain = False
    for turn in searched_offers(6, seed=4):
        hinter, again = Hinter(SEARCHED), Hinter(SEARCHED)
        hinter.reset(9)
        again.reset(9)
        vector = hinter(turn)
        assert np.array_equal(vector, again(turn))  # seeded: the same determinizations
        named = hinter.layout.views(vector)
        gain, z = named["search_gain"], named["search_z"]
        greedy_choice = int(np.argmax(named["greedy_choice"]))
        assert gain[greedy_choice] == z[greedy_choice] == 0
        illegal = np.ones(NUM_ACTIONS, bool)
        illegal[list(turn.legal_actions)] = False
        assert not gain[illegal].any()
        assert np.all(np.abs(z) <= 1)
        assert np.all(np.sign(gain) == np.sign(z))
        seen_gain |= bool(gain.any())
    assert seen_gain


def test_search_hints_are_zero_where_greedy_decides_and_need_a_search_grant():
    decided = [t for t in greedy_turns(300, seed=5, search_allowed=True) if greedy_decides(t)]
    assert decided
    for turn in decided:
        assert not search_hints(turn, MCAgent()).any()
    searcher = MCAgent()
    ungranted = next(
        turn
        for turn in greedy_turns(400, seed=2)
        if turn.view.phase == Phase.OFFER
        and not greedy_decides(turn)
        and len({action for action, _ in searcher.plans(turn)}) > 1
    )
    with pytest.raises(DeterminizationNotGranted):
        Hinter(SEARCHED).hints(ungranted)


def test_the_swap_wins_seat_leaves_the_learner_every_move_and_carries_the_part():
    env = HintedSeat(SingleSeat(seat=1), "observation+swap_wins")
    observation, _ = env.reset(seed=2)
    rng, left_to_greedy, offers = np.random.default_rng(2), 0, 0
    for _ in range(40):
        game = env.seat_env.env.game
        turn = Turn(game, game.current_player)
        assert turn.seat == 1 and np.array_equal(observation[OBS_SIZE:], swap_wins(turn))
        left_to_greedy += greedy_decides(turn)
        offers += bool(observation[OBS_SIZE:].any())
        observation, _, done, _, _ = env.step(np.int64(rng.choice(turn.legal_actions)))
        assert not done
    assert left_to_greedy and offers


def test_the_search_hinted_seat_is_seeded_and_carries_both_hint_blocks():
    def episode(seed: int) -> list[np.ndarray]:
        env = HintedSeat(SingleSeat(seat=2), SEARCHED)
        observation, _ = env.reset(seed=seed)
        assert env.observation_space.shape == (INPUTS[SEARCHED],) == observation.shape
        greedy, seen, done = GreedyAgent(), [observation], False
        while not done and len(seen) < 25:
            game = env.seat_env.env.game
            turn = Turn(game, game.current_player)
            assert np.array_equal(
                observation[OBS_SIZE : OBS_SIZE + HINTS_SIZE], greedy_hints(turn, greedy)
            )
            observation, _, done, _, _ = env.step(np.int64(greedy.act(turn)))
            seen.append(observation)
        return seen

    first = episode(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, episode(6), strict=True))
    assert any(o[OBS_SIZE + HINTS_SIZE :].any() for o in first)
    with pytest.raises(ValueError, match="HintedSeat is for hinted inputs"):
        HintedSeat(SingleSeat(), "observation")


def test_a_search_hinted_agent_searches_and_plays_legal_reproducible_matches(tmp_path):
    torch.manual_seed(2)
    paths: dict[str, Path] = {}
    for inputs in (HINTED, SEARCHED):
        network = PolicyNetwork([8], "tanh", inputs)
        file = tmp_path / f"{len(paths)}.safetensors"
        paths[inputs] = save_policy(file, network.state_dict(), [8], "tanh", {}, inputs)
    assert PPOAgent(str(paths[SEARCHED])).uses_search
    assert not PPOAgent(str(paths[HINTED])).uses_search

    def played(seed: int) -> list[int]:
        searched = PPOAgent(str(paths[SEARCHED]))
        searched.reset(seed)
        agents: list[Agent] = [searched, GreedyAgent(), GreedyAgent(), GreedyAgent()]
        state = new_game(seed)
        play_agents(state, agents)  # raises on an illegal action
        assert state.is_over
        return state.actions

    assert played(3) == played(3)
