"""The compiled batched greedy (:mod:`agents.batched_greedy`) against the agent.

Games of a :class:`~env121.engine.batched.BatchedEngine` are played in
lock-step with reference states of the same seeds
(:func:`env121.engine.game.new_game`): some seats by the batched greedy, the
others by random legal actions. At every greedy decision the batched action,
and the single-game kernel agent's (:class:`agents.greedy.GreedyAgent`, on the
turn's seat record), must be the one the readable definition
(``tests/support/greedy.py``) picks from the reference seat's
:class:`~env121.play.turn.Turn`; that action is then played in both. Each
case counts the kinds of decision it met, so a case that stops reaching
Cướp, Nhất Bản or wins fails instead of passing unchecked.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import numpy as np
import pytest

from agents import greedy as kernel_greedy
from agents.batched_greedy import BatchedGreedy, arrangement_row
from env121.engine.actions import NHAT_BAN, NUM_ACTIONS, PASS, U, format_action, format_actions
from env121.engine.batched import BatchedEngine
from env121.engine.game import apply, legal_actions, new_game, swap_kind_between
from env121.engine.state import Phase, State, SwapKind
from env121.engine.win_table import win_points
from env121.play.turn import Turn
from env121.rules.cards import NUM_CARDS, format_cards
from env121.rules.compiled.sixth import gap_cards, may_win, sixth_cards
from env121.rules.compiled.waits import INDEX_ARRANGEMENTS
from env121.rules.config import RuleConfig
from env121.rules.waits import GAP
from tests.support.compiled import SCORING_CONFIGS, seeded_hands
from tests.support.greedy import GreedyAgent
from tests.support.scorer import completing_cards

GAMES = 8
"""Games per case: even ones all greedy, odd ones greedy in seats 0 and 2 only."""
GREEDY_SEATS = np.array([[True] * 4 if g % 2 == 0 else [True, False] * 2 for g in range(GAMES)])


class Case(NamedTuple):
    config: RuleConfig
    cuop_margin: float
    nhat_ban_waits: int
    steps: int
    covers: tuple[str, ...]
    """Kinds of decision (:func:`kind_of`) the case must meet."""


CASES = {
    "default": Case(RuleConfig(), 4.0, 2, 260, ("swap", "cuop", "u", "pass", "nhat_ban")),
    "eager": Case(
        RuleConfig(left_figures=frozenset({1, 3, 5, 7, 9}), phe_phe_same_suits=True),
        0.0,
        1,
        200,
        ("cuop", "nhat_ban", "placement", "u"),
    ),
    "nb_without_wait": Case(
        RuleConfig(nhat_ban_requires_wait=False, the_trang_asks_every_seat=False),
        2.5,
        1,
        200,
        ("nhat_ban", "placement", "nb_decline", "swap"),
    ),
    "short_vong_hundreds": Case(
        RuleConfig(max_actions_per_vong=40, payment_rounding="hundreds", num_van=2),
        4.0,
        3,
        160,
        ("swap", "pass"),
    ),
    "unmasked_win": Case(RuleConfig(mask_invalid_win=False), 4.0, 2, 40, ("u",)),
}


def kind_of(state: State, seat: int, legal: list[int], action: int) -> str:
    """What kind of decision ``action`` was (for the coverage of a case)."""
    if len(legal) == 1:
        return "forced"
    if action == U:
        return "u"
    if state.phase == Phase.OFFER:
        if action == PASS:
            return "pass"
        cuop = swap_kind_between(state.offer_exposer, seat) == SwapKind.CUOP
        return "cuop" if cuop else "swap"
    if state.phase == Phase.NB_CHOICE:
        return "nhat_ban" if action == NHAT_BAN else "nb_decline"
    if state.phase in (Phase.NB_GAP, Phase.NB_PLACE):
        return "placement"
    return str(state.phase.value)


def describe(state: State, seat: int, legal: list[int]) -> str:
    """The decision, for a failure message."""
    return (
        f"seat {seat} in {state.phase.value}, hand {format_cards(state.hands[seat])} "
        f"locked {format_cards(state.locked[seat])}, offer {state.offer_card} by "
        f"{state.offer_exposer}, legal [{format_actions(legal)}]"
    )


def play_lockstep(case: Case, seeds: np.ndarray) -> Counter[str]:
    """Play the case's games in lock-step; the kinds of greedy decision made."""
    engine = BatchedEngine(GAMES, case.config)
    engine.reset(seeds)
    states = [new_game(int(s), case.config) for s in seeds]
    batched = BatchedGreedy(case.cuop_margin, case.nhat_ban_waits)
    agent = GreedyAgent(case.cuop_margin, case.nhat_ban_waits)
    single = kernel_greedy.GreedyAgent(case.cuop_margin, case.nhat_ban_waits)
    rng = np.random.default_rng(int(seeds[0]))
    kinds: Counter[str] = Counter()
    for _ in range(case.steps):
        seats = engine.to_act.copy()
        greedy_games = np.flatnonzero(GREEDY_SEATS[np.arange(GAMES), seats])
        played = batched.act(engine, greedy_games).tolist()
        chosen = dict(zip(greedy_games.tolist(), played, strict=True))
        actions = np.empty(GAMES, dtype=np.int64)
        for g, state in enumerate(states):
            seat = int(seats[g])
            legal = legal_actions(state)
            assert (state.current_player, legal) == (seat, engine.legal_actions(g))
            if g not in chosen:
                actions[g] = rng.choice(legal)
                continue
            expected = agent.act(Turn(state, seat))
            alone = single.act(Turn(state, seat))
            assert chosen[g] == expected == alone, (
                f"game {g}: batched {format_action(chosen[g])}, one game "
                f"{format_action(alone)}, definition {format_action(expected)}: "
                f"{describe(state, seat, legal)}"
            )
            kinds[kind_of(state, seat, legal, expected)] += 1
            actions[g] = expected
        result = engine.step(actions)
        for g, state in enumerate(states):
            apply(state, int(actions[g]))
            if result.terminated[g]:
                states[g] = new_game(int(engine.games["seed"][g]), case.config)
    return kinds


@pytest.mark.parametrize("name", CASES)
def test_batched_greedy_plays_the_agents_actions(name):
    case = CASES[name]
    seeds = 1000 * (list(CASES).index(name) + 1) + np.arange(GAMES)
    kinds = play_lockstep(case, seeds)
    missing = [kind for kind in case.covers if kinds[kind] == 0]
    assert not missing, f"no {missing} decision was met: {dict(kinds)}"


@pytest.mark.parametrize("config_name", SCORING_CONFIGS)
def test_sixth_cards_keeps_every_card_that_wins(config_name):
    config = SCORING_CONFIGS[config_name]
    kept = 0
    for six in seeded_hands(15, 300):
        five, chi_diem = tuple(sorted(six[:5])), six[5]
        table = win_points(
            five, locked=False, chi_diem=chi_diem, an_si=(), dealer=False, nb_arrangement=(),
            config=config,
        )  # fmt: skip
        sixth = sixth_cards(np.array(five, dtype=np.int64))
        passing = [c for c in range(NUM_CARDS) if may_win(sixth, c)]
        missed = sorted(set(np.flatnonzero(table).tolist()) - set(passing))
        assert not missed, f"{format_cards(five)}: wins on {format_cards(missed)} filtered out"
        kept += len(passing)
    assert kept < 300 * NUM_CARDS / 2  # it filters


def test_gap_cards_keeps_every_card_that_completes_an_arrangement():
    rng = np.random.default_rng(16)
    kept = 0
    for six in seeded_hands(16, 600):
        arrangement = tuple(GAP if i == 0 else c for i, c in enumerate(six))
        arrangement = tuple(arrangement[i] for i in rng.permutation(len(arrangement)))
        completing = np.flatnonzero(completing_cards(arrangement)).tolist()
        gap = gap_cards(np.array(arrangement, dtype=np.int64))
        passing = [c for c in range(NUM_CARDS) if may_win(gap, c)]
        missed = sorted(set(completing) - set(arrangement) - set(passing))
        assert not missed, f"{arrangement}: completed by {format_cards(missed)}, filtered out"
        kept += len(passing)
    assert kept < 600 * NUM_CARDS / 2  # it filters


def test_arrangement_row_is_the_rank_among_the_index_arrangements():
    rows = [arrangement_row(a) for a in INDEX_ARRANGEMENTS]
    assert rows == list(range(len(INDEX_ARRANGEMENTS)))


def test_act_returns_one_legal_action_per_chosen_game():
    engine = BatchedEngine(4)
    actions = BatchedGreedy().act(engine, np.array([3, 1]))
    assert actions.shape == (2,)
    assert [int(a) in engine.legal_actions(g) for a, g in zip(actions, (3, 1), strict=True)] == [
        True,
        True,
    ]
    assert all(0 <= a < NUM_ACTIONS for a in BatchedGreedy().act(engine))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cuop_margin": -1.0}, "cuop_margin=-1.0 is not valid"),
        ({"nhat_ban_waits": 0}, "nhat_ban_waits=0 is not valid"),
        ({"threads": 0}, "threads=0 is not valid"),
    ],
)
def test_bad_parameters_are_refused_as_the_agent_refuses_them(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BatchedGreedy(**kwargs)


@pytest.mark.parametrize(
    "indices",
    [[4], [-1], [[0, 1]], [1, 1], [0.5]],
    ids=["past_the_end", "negative", "2d", "twice", "not_int"],
)
def test_bad_game_indices_are_refused(indices):
    with pytest.raises(ValueError, match=r"expected distinct game indices in 0\.\.3"):
        BatchedGreedy().act(BatchedEngine(4), np.array(indices))
