"""# 121 (``env121_v1``)

The four-player Vietnamese card game 121 as a PettingZoo AEC environment, on
top of the rules engine (:mod:`env121.engine.game`). One episode is one match:
``config.num_van`` ván of 12 vòng.

{properties}

``player_i`` sits in seat ``i``; seat 0 deals the first vòng and the deal
passes to the next seat every vòng. ``env121.env(**kwargs)`` is
:class:`raw_env` in PettingZoo's classic wrappers; ``env121.raw_env`` is the
bare environment; ``env121.parallel_env(**kwargs)`` is ``env()`` through
PettingZoo's parallel API (see Parallel API). The same three are the module
``env121.env121_v1``. Keyword arguments:

* ``config`` — a :class:`~env121.rules.config.RuleConfig` (every rule variant,
  ``num_van`` included); rule fields may also be given directly, e.g.
  ``env121.env(num_van=2)`` is ``config=RuleConfig(num_van=2)``. The config
  is recorded in ``env.metadata["config"]``.
* ``reward_mode`` — ``"points"`` (default) or ``"rank"`` (see Rewards).
* ``render_mode`` — ``None``, ``"ansi"`` (``render()`` returns the table as
  text, as the seat to act sees it), ``"human"`` (prints that text after
  every step) or ``"rgb_array"`` (``render()`` returns the picture of the
  table, god view, as an ``H × W × 3`` ``uint8`` array:
  :func:`env121.engine.picture.table_rgb`, for videos).
* ``illegal_reward`` (``env()`` only, default ``-2.0``) — see Action.

``reset(seed=s)`` plays the match the engine deals from seed ``s`` (the
same deals as ``env121 play --seed s``); ``reset()`` without a seed draws the
next match seed from the generator the last seeded reset started.
``reset(options={{"rotation": k}})`` rotates the hands for duplicate play and
``options={{"first_deal": Deal}}`` replaces the first vòng's deal (tests,
puzzles). ``env.unwrapped.game`` is the engine :class:`~env121.engine.state.State`
(e.g. for :func:`env121.engine.records.to_record`).

## Observation

``observe(agent)`` is a dict: ``"observation"``, a flat ``float32`` vector of
what that seat may know, and ``"action_mask"``. The layout is declared once
in :mod:`env121.play.observation` (``views(obs)`` gives its named pieces). Rows of
per-seat pieces are seat-relative: row 0 is the observing seat, rows 1, 2, 3
the seats after it in turn order. Nothing hidden from the seat (others'
unseen cards, the Nọc, face-down Ẩn Sĩ, others' Nhất Bản arrangements)
changes it: a test re-deals the hidden cards and compares.

{observation_table}

A policy network may read hint parts after the observation, computed by its
agent, not by the environment, and declared in the same layout
(:mod:`agents.inputs`).

## Action

``Discrete({num_actions})`` over the engine's single action layout
(:mod:`env121.engine.actions`); what an id means depends on the phase:

{action_table}

The engine decides what is legal. :class:`raw_env` raises the engine's
:class:`~env121.engine.game.IllegalActionError` (naming the action, the phase and
the legal actions) for anything but a legal id of the agent to act (an id not
legal now or out of range, a float, a bool, a string, ``None``) and leaves the
match unchanged. Once the match is over each agent steps ``None`` once
(PettingZoo's dead step; another action there is PettingZoo's ``ValueError``),
and a step after every agent has left raises ``RuntimeError``. ``env121.env()``
wraps it as PettingZoo's classic environments are wrapped (the three wrappers'
checks in one layer, :class:`ClassicWrapper`): an illegal action
ends the match at once (``TerminateIllegalWrapper``: every agent is marked terminated
and truncated), the offender gets ``illegal_reward`` and the others 0;
``AssertOutOfBoundsWrapper`` rejects what is outside the space with an
``AssertionError`` (ids out of range, floats, strings, ``None`` for an agent
still playing, and bools: gymnasium's ``Discrete`` would take ``True`` for 1,
but an action id is never a bool); ``OrderEnforcingWrapper`` checks the call
order (a step before ``reset()`` is an ``AssertionError``, a step once every
agent has left only warns). The default
``illegal_reward=-2.0`` is below the last place's ``"rank"`` reward, so
ending a lost match illegally never pays there; in ``"points"`` mode it is 2
Điểm, less than some vòng cost, so a learner that ignores the mask may need a
lower one.

## Action Mask

``"action_mask"`` is ``int8`` with a 1 for each legal id of the agent to act,
made in one place from the engine's ``legal_actions``; every other agent
sees all zeros. Under the default ``mask_invalid_win=True`` Ù is offered only
when the win is valid.

## Rewards

* ``reward_mode="points"`` (default): when a vòng ends each agent gets its
  score change in Điểm (points / 100): the winner +D, the others their share
  of the 3-4-3 payment; Đền: the offender −3, the others +1; a draw 0. The
  rewards of a vòng sum to 0, and over a match they sum to the standing / 100.
* ``reward_mode="rank"``: 0 until the match ends, then {placement} for the
  1st to 4th place; tied agents share the mean of the places they cover
  (e.g. two agents tied first get 1.0 each). They sum to 0.

As in every AEC environment, ``last()`` returns the reward accumulated since
the agent last acted.

## Infos

Each agent's info is ``{{}}`` until something worth logging happens; like
rewards it accumulates until the agent next acts:

* ``"vong_results"``: a list with one dict per vòng that ended: ``van``,
  ``vong`` (from 0), ``dealer``, ``outcome`` (the engine's
  :class:`~env121.engine.state.Outcome`, a ``str``: ``"u"`` a valid Ù,
  ``"den"``, ``"the_trang"``, ``"draw"`` an empty Nọc; or ``"truncated"``, a
  draw forced by ``max_actions_per_vong``), ``winner`` (the agent, or None), ``offender``
  (Đền), ``card`` (in the card notation), ``the`` (the Thế id), ``tier``,
  ``points`` (Điểm), ``bonuses``, ``indicator_points``, ``nhat_ban``,
  ``payments`` (points per agent);
* ``"match"`` once the match ends: ``reason`` (a
  :class:`~env121.engine.state.MatchEnd`: ``"completed"``, ``"bust"``,
  ``"quoc_si_vo_song"``), ``scores``, ``standings`` and ``ranks`` per agent.

Terminations come when the match ends; truncation is not used (the engine's
``max_actions_per_vong`` ends a too-long vòng as a draw instead).

## Parallel API

121 is turn-based: one agent acts at a time, and who acts next depends on
the play (a card offered is answered seat by seat, a Cướp takes the turn).
``parallel_env()`` is ``env()`` in PettingZoo's own
``turn_based_aec_to_parallel``: ``step(actions)`` plays the action of the one
agent to act, the agent whose ``"action_mask"`` has a 1 (every other mask is
all zeros), and ignores the others; after a step, every agent's info names
it as ``"active_agent"``. Rewards are those of that one action, so they
add up as in the AEC game. PettingZoo's ``aec_to_parallel`` does not
apply: it steps every agent once per cycle, in a fixed order, and refuses
environments whose ``is_parallelizable`` is False, as here. Once the match
is over the agents list is empty; do not step further (PettingZoo's wrapper
then returns four empty dicts, not five).

## Version History

* v1: every vòng opens with the Thế trắng question to all four seats, in
  order from the dealer (a seat that is not eligible may only ``PASS``), so
  the order of play (``agent_selection``) no longer tells who holds a Thế
  trắng hand (``RuleConfig.the_trang_asks_every_seat``). v0's behaviour is
  ``env(config=RuleConfig(the_trang_asks_every_seat=False))``.
* v0: first release.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger

from env121.engine import actions as action_layout
from env121.engine.actions import NUM_ACTIONS
from env121.engine.deal import Deal
from env121.engine.game import advance, legal_actions, new_game, settle
from env121.engine.layout import literal_block
from env121.engine.picture import PictureOptions, table_rgb
from env121.engine.render import format_table
from env121.engine.state import (
    NUM_SEATS,
    Outcome,
    State,
    VongResult,
)
from env121.play.batched_observation import encode_observation
from env121.play.observation import (
    OBS_HIGH,
    OBS_LOW,
    OBS_SIZE,
    OBSERVATION_LAYOUT,
    action_mask,
)
from env121.rules.cards import format_card
from env121.rules.config import RuleConfig
from env121.rules.payment import POINTS_PER_DIEM

ENV_ID = "env121_v1"
AGENTS: tuple[str, ...] = tuple(f"player_{i}" for i in range(NUM_SEATS))
REWARD_MODES: tuple[str, ...] = ("points", "rank")
RENDER_MODES: tuple[str, ...] = ("ansi", "human", "rgb_array")
PLACEMENT_REWARDS: tuple[float, ...] = (1.5, 0.5, -0.5, -1.5)
"""``"rank"`` mode: reward of the 1st … 4th place (ties share the mean)."""
DEFAULT_ILLEGAL_REWARD = -2.0

Observation = dict[str, np.ndarray]
AgentEnv = AECEnv[str, dict[str, Any], Any]
"""The AEC environment type: agents by name, dict observations (of the Dict
space), actions ids of any integer type (``None`` once an agent's match is over)."""


def env(illegal_reward: float = DEFAULT_ILLEGAL_REWARD, **kwargs: Any) -> AgentEnv:
    """The environment in PettingZoo's classic wrappers (see the module docstring)."""
    return ClassicWrapper(raw_env(**kwargs), illegal_reward=illegal_reward)


IN_SPACE = "action is not in action space"
"""The ``AssertionError`` of an action outside the action space (PettingZoo's words)."""
BEFORE_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"}
)
"""What PettingZoo's ``OrderEnforcingWrapper`` refuses to read before ``reset()``."""


class ClassicWrapper(wrappers.OrderEnforcingWrapper[str, dict[str, Any], Any]):
    """PettingZoo's classic chain — ``TerminateIllegalWrapper``, then
    ``AssertOutOfBoundsWrapper``, then ``OrderEnforcingWrapper`` — as one layer.

    It behaves as that chain does (``tests/env/test_classic_wrapper.py`` plays
    the two side by side, illegal and out-of-space actions included), with one
    addition: bools are outside the action space (gymnasium's ``Discrete``
    contains ``True``, the int 1, which numpy would then read as a boolean
    index of the mask), as are integers beyond 64 bits (some gymnasium
    versions' ``Discrete.contains`` raises ``OverflowError`` on them).

    Why one layer: each wrapper forwards every attribute it lacks through
    ``__getattr__``; three of them cost more than the game's own step. Here
    the attributes that ``last()`` and ``agent_iter`` read each step are
    properties reading the raw environment, and the checks of the three
    wrappers run once, in their order. It is still an ``OrderEnforcingWrapper``
    (PettingZoo's conversions and ``agent_iter`` look for one) and
    ``env.unwrapped`` is the :class:`raw_env`.
    """

    env: raw_env

    def __init__(self, env: raw_env, illegal_reward: float) -> None:
        super().__init__(env)
        self._illegal_reward = float(illegal_reward)
        self._ended_illegally = False

    def _raw(self, name: str) -> Any:
        if name in BEFORE_RESET and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    @property
    def agents(self) -> list[str]:  # type: ignore[override]
        """The raw environment's agents still in the match."""
        return self._raw("agents")  # type: ignore[no-any-return]

    @property
    def agent_selection(self) -> str:  # type: ignore[override]
        """The agent to act."""
        return self._raw("agent_selection")  # type: ignore[no-any-return]

    @property
    def rewards(self) -> dict[str, float]:  # type: ignore[override]
        """The rewards of the last step."""
        return self._raw("rewards")  # type: ignore[no-any-return]

    @property
    def terminations(self) -> dict[str, bool]:  # type: ignore[override]
        """Which agents' matches are over."""
        return self._raw("terminations")  # type: ignore[no-any-return]

    @property
    def truncations(self) -> dict[str, bool]:  # type: ignore[override]
        """Which agents were cut off (by an illegal action)."""
        return self._raw("truncations")  # type: ignore[no-any-return]

    @property
    def infos(self) -> dict[str, dict[str, Any]]:  # type: ignore[override]
        """Each agent's info."""
        return self._raw("infos")  # type: ignore[no-any-return]

    @property
    def _cumulative_rewards(self) -> dict[str, float]:  # type: ignore[override]
        return self.env._cumulative_rewards

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset the match (and the record of an illegal end)."""
        self._ended_illegally = False
        super().reset(seed=seed, options=options)

    def step(self, action: Any) -> None:
        """The three wrappers' checks in their order, then the raw step, or the
        illegal action's end of the match."""
        if not self._has_reset or not self.env.agents:
            super().step(action)  # OrderEnforcingWrapper's error or warning
            return
        self._has_updated = True
        raw = self.env
        agent = raw.agent_selection
        left = raw.terminations[agent] or raw.truncations[agent]
        assert not isinstance(action, bool), IN_SPACE
        assert not (isinstance(action, int) and not -(2**63) <= action < 2**63), IN_SPACE
        assert (action is None and left) or raw.action_space(agent).contains(action), IN_SPACE
        if self._ended_illegally and left:
            raw._was_dead_step(action)
        elif not left and not raw.observe(agent)["action_mask"][action]:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = self._illegal_reward
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._ended_illegally = True
        else:
            raw.step(action)

    def __str__(self) -> str:
        return str(self.env)


def parallel_env(
    illegal_reward: float = DEFAULT_ILLEGAL_REWARD, **kwargs: Any
) -> ParallelEnv[str, dict[str, Any], Any]:
    """:func:`env` through PettingZoo's parallel API, turn-based (see the module
    docstring's Parallel API)."""
    return turn_based_aec_to_parallel(env(illegal_reward, **kwargs))


def placement_rewards(ranks: tuple[int, ...]) -> tuple[float, ...]:
    """``"rank"`` rewards from ranks (1 = best; equal ranks are ties): each agent
    gets the mean of :data:`PLACEMENT_REWARDS` over the places its tie covers."""
    out = []
    for rank in ranks:
        tied = ranks.count(rank)
        places = PLACEMENT_REWARDS[rank - 1 : rank - 1 + tied]
        out.append(sum(places) / len(places))
    return tuple(out)


def vong_result_info(result: VongResult) -> dict[str, Any]:
    """A finished vòng as a plain dict for ``infos`` (agents by name)."""
    outcome = "truncated" if result.truncated else result.outcome
    by = AGENTS[result.seat] if result.seat >= 0 else None
    return {
        "van": result.van,
        "vong": result.vong,
        "dealer": AGENTS[result.dealer],
        "outcome": outcome,
        "winner": by if result.outcome.is_win else None,
        "offender": by if result.outcome == Outcome.DEN else None,
        "card": format_card(result.card) if result.card >= 0 else None,
        "the": result.the,
        "tier": result.tier,
        "points": result.points,
        "bonuses": list(result.bonuses),
        "indicator_points": result.indicator_points,
        "nhat_ban": result.nhat_ban,
        "payments": dict(zip(AGENTS, result.payments, strict=True)),
    }


def match_info(state: State) -> dict[str, Any]:
    """How the match ended, for ``infos``."""
    return {
        "reason": state.match_end,
        "scores": dict(zip(AGENTS, state.scores, strict=True)),
        "standings": dict(zip(AGENTS, state.standings(), strict=True)),
        "ranks": dict(zip(AGENTS, state.ranks, strict=True)),
    }


class raw_env(AECEnv[str, dict[str, Any], Any]):
    """121 as an AEC environment (documented in :mod:`env121.envs.aec_env`).

    Picklable with its whole state (a match in progress round-trips), so
    vectorized runners can copy it.
    """

    # A class attribute, as in PettingZoo's environments; the base class declares
    # it as an instance variable, so it cannot be a ClassVar.
    metadata = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "name": ENV_ID,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        config: RuleConfig | None = None,
        reward_mode: str = "points",
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # AECEnv.__init__ is unannotated
        config = RuleConfig() if config is None else config
        if not isinstance(config, RuleConfig):
            raise ValueError(f"config={config!r} is not valid: expected a RuleConfig or None")
        if rules:
            known = {f.name for f in dataclasses.fields(RuleConfig)}
            unknown = sorted(set(rules) - known)
            if unknown:
                raise ValueError(
                    f"unknown keyword argument(s) {unknown}: expected config, reward_mode, "
                    f"render_mode or RuleConfig fields {sorted(known)}"
                )
            config = dataclasses.replace(config, **rules)
        if reward_mode not in REWARD_MODES:
            raise ValueError(
                f"reward_mode={reward_mode!r} is not valid: expected 'points' or 'rank'"
            )
        check_render_mode(render_mode)
        self.config = config
        self.reward_mode = reward_mode
        self.render_mode = render_mode
        self.metadata = {**raw_env.metadata, "config": config.to_dict()}
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._seat = {agent: seat for seat, agent in enumerate(AGENTS)}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(OBS_LOW, OBS_HIGH, (OBS_SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for a in AGENTS
        }
        self._rng = np.random.default_rng()
        self._game: State = new_game(0, config)
        self._settled = True
        self._obs_cache: dict[str, Observation] = {}
        self._reset_dicts()

    # ------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        """The same Dict space object for every call (PettingZoo requires it)."""
        space = self.observation_spaces[agent]
        assert isinstance(space, spaces.Dict)
        return space

    def action_space(self, agent: str) -> spaces.Discrete[Any]:
        """``Discrete(131)`` over :mod:`env121.engine.actions`."""
        space = self.action_spaces[agent]
        assert isinstance(space, spaces.Discrete)
        return space

    @property
    def game(self) -> State:
        """The match as the engine's :class:`~env121.engine.state.State`.
        A step moves only the kernel's record (what observations, masks and
        rewards are read from); the State's fields are set from it here, on
        first use after a step."""
        if not self._settled:
            settle(self._game)
            self._settled = True
        return self._game

    # ------------------------------------------------------------- API

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start a match: ``seed`` is the match seed; ``options`` may hold
        ``rotation`` (0..3) and ``first_deal`` (a :class:`~env121.engine.deal.Deal`)."""
        options = {} if options is None else options
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            match_seed = int(seed)
        else:
            match_seed = int(self._rng.integers(2**62))
        first_deal = options.get("first_deal")
        if first_deal is not None and not isinstance(first_deal, Deal):
            raise ValueError(f"options['first_deal']={first_deal!r} is not valid: expected a Deal")
        self._game = new_game(
            match_seed, self.config, rotation=int(options.get("rotation", 0)), first_deal=first_deal
        )
        self._settled = True
        self.agents = list(AGENTS)
        self._reset_dicts()
        self._obs_cache = {}

    def _reset_dicts(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[max(self._to_act(), 0)]

    def observe(self, agent: str) -> Observation:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` of ``agent``."""
        cached = self._obs_cache.get(agent)
        if cached is None:
            seat = self._seat[agent]
            game = self._game
            cached = {
                "observation": encode_observation(game, seat),
                "action_mask": action_mask(legal_actions(game) if self._to_act() == seat else ()),
            }
            self._obs_cache[agent] = cached
        return cached

    def step(self, action: Any) -> None:
        """Apply the action of ``agent_selection`` (raises
        :class:`~env121.engine.game.IllegalActionError` if it is not legal)."""
        if not self.agents:
            raise RuntimeError("the match is over and every agent has left: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        finished = len(game.results)
        advance(game, action)
        self._settled = False
        self._obs_cache = {}
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        rewards = dict.fromkeys(self.agents, 0.0)
        for result in game.results[finished:]:
            info = vong_result_info(result)
            for a, seat in self._seat.items():
                pending = self.infos[a].get("vong_results", [])
                self.infos[a] = {**self.infos[a], "vong_results": [*pending, info]}
                if self.reward_mode == "points":
                    rewards[a] += result.payments[seat] / POINTS_PER_DIEM
        seat = self._to_act()
        if seat < 0:
            summary = match_info(self.game)
            if self.reward_mode == "rank":
                for a, r in zip(AGENTS, placement_rewards(game.ranks), strict=True):
                    rewards[a] += r
            for a in self.agents:
                self.infos[a] = {**self.infos[a], "match": summary}
                self.terminations[a] = True
        else:
            self.agent_selection = AGENTS[seat]
        self.rewards = rewards
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _to_act(self) -> int:
        """The seat to act (-1 once the match is over), read from the record."""
        return int(self._game.record["to_act"][0])  # type: ignore[index]  # new_game made it

    def cumulative_reward(self, agent: str) -> float:
        """The reward ``agent`` has accumulated since it last acted (what
        ``last()`` reports when it is that agent's turn)."""
        return float(self._cumulative_rewards.get(agent, 0.0))

    def render(self) -> str | np.ndarray | None:
        """The table as text (``"ansi"``: returned; ``"human"``: printed) or as
        a picture of the god view (``"rgb_array"``: an ``H × W × 3`` array)."""
        return render_state(self.game, self.render_mode, viewer=None)

    def close(self) -> None:
        """Nothing to release."""


# ---------------------------------------------------------------- render


def check_render_mode(render_mode: str | None) -> None:
    """Raise ``ValueError`` unless ``render_mode`` is ``None`` or one of :data:`RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode={render_mode!r} is not valid: expected None, 'ansi', 'human' "
            "or 'rgb_array'"
        )


def render_state(
    state: State, render_mode: str | None, *, viewer: int | None
) -> str | np.ndarray | None:
    """``render()`` of the environments: the table as text (``"ansi"``:
    returned; ``"human"``: printed) or as the picture ``viewer`` sees (``None``:
    the god view) as an ``H × W × 3`` array (``"rgb_array"``); without a
    render mode a warning and ``None``."""
    if render_mode is None:
        gymnasium.logger.warn(
            "render() was called without a render_mode: make the env with "
            "render_mode='ansi', 'human' or 'rgb_array' (env121.env(render_mode='ansi'))"
        )
        return None
    if render_mode == "rgb_array":
        return table_rgb(state, viewer, PictureOptions(names=AGENTS, title=ENV_ID))
    text = render_table(state)
    if render_mode == "human":
        print(text)
        return None
    return text


def render_table(state: State) -> str:
    """The table in the card notation as the seat to act sees it (its hand
    shown, the others' hidden), with the last events it saw; every hand once
    the match is over. The engine's :func:`~env121.engine.render.format_table`
    under the agents' names."""
    return format_table(state, names=AGENTS, title=ENV_ID)


def _property_table() -> str:
    rows = [
        ("Import", "``import env121; env = env121.env()``"),
        ("Actions", "Discrete"),
        ("Parallel API", "Yes, turn-based: ``env121.parallel_env()``"),
        ("Manual Control", "Yes, in the terminal: ``env121 play --human S0``"),
        ("Agents", f"``agents = {list(AGENTS)}``"),
        ("Agents", str(len(AGENTS))),
        ("Action Shape", f"``Discrete({NUM_ACTIONS})``"),
        ("Action Values", f"[0, {NUM_ACTIONS - 1}]"),
        (
            "Observation Shape",
            f'``{{"observation": ({OBS_SIZE},), "action_mask": ({NUM_ACTIONS},)}}``',
        ),
        (
            "Observation Values",
            f"float32 in [{OBS_LOW.min():g}, {OBS_HIGH.max():g}] (per piece below); mask 0/1",
        ),
        ("Render Modes", " ".join(f"``{m!r}``" for m in RENDER_MODES)),
    ]
    width = max(len(k) for k, _ in rows)
    value_width = max(len(v) for _, v in rows)
    lines = [f"| {k:<{width}} | {v:<{value_width}} |" for k, v in rows]
    lines.insert(1, f"|{'-' * (width + 2)}|{'-' * (value_width + 2)}|")
    return "\n".join(lines)


__doc__ = (
    __doc__.format(
        properties=_property_table(),
        num_actions=NUM_ACTIONS,
        placement=", ".join(f"{r:+g}" for r in PLACEMENT_REWARDS),
        observation_table=literal_block(
            f"Observation layout ({OBS_SIZE} entries)", OBSERVATION_LAYOUT.table()
        ),
        action_table=literal_block(
            f"Action layout ({NUM_ACTIONS} ids)", action_layout.layout_table()
        ),
    )
    if __doc__
    else __doc__
)

__all__ = [
    "AGENTS",
    "ENV_ID",
    "PLACEMENT_REWARDS",
    "REWARD_MODES",
    "ClassicWrapper",
    "check_render_mode",
    "env",
    "match_info",
    "parallel_env",
    "placement_rewards",
    "raw_env",
    "render_state",
    "render_table",
    "vong_result_info",
]
