"""``BatchedEngine``: B matches of 121 stepped at once, the Python face of the kernels.

::

    engine = BatchedEngine(1024, config)            # config fixed per engine
    engine.reset(seeds=np.arange(1024))             # match g plays seed g
    while training:
        mask = engine.legal_mask()                  # [B, 131] uint8, the seat to act's
        seats = engine.to_act                       # [B] the seat each game waits for
        out = engine.step(choose(mask, seats))      # one action per game
        out.rewards, out.terminated                 # [B, 4] Điểm, [B]

Every game always has a seat to act: a step that ends a match (``terminated``)
deals that game its next match at once, with seed ``seed + B`` (modulo 2**64)
and the same rotation: VectorEnv's auto-reset in the same step (gymnasium's
``AutoresetMode.SAME_STEP``, SB3's ``VecEnv``), so ``to_act`` and the mask are
already the next match's. What the ended match left is kept until the game's
next step: :meth:`final_info` (seed, reason, scores, standings, ranks),
:meth:`final_record` (its JSON record), :meth:`last_result` (its last vòng)
and :meth:`events`, which lists the step's events up to MatchEnded, then the
opening events of the next match.

Rewards are the AEC env's ``"points"`` rewards (:mod:`env121.envs.aec_env`):
when a vòng ends each seat gets its score change in Điểm (points / 100);
``"rank"`` rewards come from :meth:`final_info`'s ranks at ``terminated``
(the vector env of :mod:`env121.envs` adds them). ``truncated`` is always
False, as in the AEC env: ``max_actions_per_vong`` ends a too-long vòng as a
draw instead.

Same seed, same cards: :meth:`record` is the JSON record
(:mod:`env121.engine.records`) of a game's match so far, and replays with
:mod:`env121.engine.game` to the same state. The engine keeps the actions of each
step for that (one ``int16`` per game and step, dropped once no record needs
them); :meth:`play_random` plays without recording them.

The games are spread over ``threads`` threads (default: one per core), each
running the compiled kernels on its slice of the batch with the GIL released;
a thread gets at least :data:`MIN_GAMES_PER_THREAD` games. The kernels, and so
every game's play, do not depend on the slicing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from env121.engine.actions import NUM_ACTIONS, format_action, format_actions
from env121.engine.batched.threads import SliceThreads
from env121.engine.deal import Deal
from env121.engine.game import IllegalActionError
from env121.engine.kernel.convert import (
    decode_events,
    decode_result,
    read_legal,
    write_first_deal,
)
from env121.engine.kernel.record import MATCH_ENDS, PHASES, allocate
from env121.engine.kernel.transitions import (
    SIT_OUT,
    fill_legal_mask,
    first_illegal,
    play_random,
    reset_games,
    step_games,
)
from env121.engine.records import to_record
from env121.engine.state import NUM_SEATS, Event, MatchEnd, State, VongResult
from env121.rules.compiled.config import kernel_config
from env121.rules.config import DEFAULT_CONFIG, RuleConfig

_TRIM_EVERY = 1024
"""Steps between two looks at which recorded actions no record needs any more."""
MIN_GAMES_PER_THREAD = 64
"""Fewer games than this per thread are stepped by fewer threads (waking a
thread costs more than stepping a few games)."""


class StepResult(NamedTuple):
    """What :meth:`BatchedEngine.step` returns, per game (arrays the next step overwrites)."""

    to_act: np.ndarray
    """``[B]`` the seat to act now (in the next match where ``terminated``)."""
    rewards: np.ndarray
    """``[B, 4]`` ``float32``: each seat's score change in Điểm in this step."""
    terminated: np.ndarray
    """``[B]`` this step ended the game's match."""
    truncated: np.ndarray
    """``[B]`` always False (see the module docstring)."""


class FinalInfo(NamedTuple):
    """How a game's last match ended (:meth:`BatchedEngine.final_info`)."""

    seed: int
    reason: MatchEnd
    scores: tuple[int, ...]
    standings: tuple[int, ...]
    ranks: tuple[int, ...]


class BatchedEngine:
    """``num_games`` matches under one :class:`~env121.rules.config.RuleConfig`,
    dealt at once from seeds ``0 .. num_games - 1`` (:meth:`reset` picks others),
    stepped on up to ``threads`` threads (default: one per core)."""

    def __init__(
        self, num_games: int, config: RuleConfig | None = None, *, threads: int | None = None
    ) -> None:
        config = DEFAULT_CONFIG if config is None else config
        if not isinstance(config, RuleConfig):
            raise ValueError(f"config={config!r} is not valid: expected a RuleConfig or None")
        self._threads = SliceThreads(threads, MIN_GAMES_PER_THREAD)
        self.config = config
        self.kernel_config = kernel_config(config)
        self.games = allocate(num_games)
        """The game records (:mod:`env121.engine.kernel.record`): ``games["scores"]`` ..."""
        self.final_games = allocate(num_games)
        """``final_games[g]``: game ``g``'s last finished match as it ended (phase
        GAME_OVER, no seat to act), kept until its next match ends."""
        self.num_games = num_games
        self._mask = np.zeros((num_games, NUM_ACTIONS), dtype=np.uint8)
        self._truncated = np.zeros(num_games, dtype=bool)
        self._first_deals: list[Deal | None] = [None] * num_games
        self._final_first_deals: list[Deal | None] = [None] * num_games
        self._history: list[np.ndarray] = []
        self._base = 0
        self._start = np.full(num_games, -1, dtype=np.int64)
        self._final_span = np.full((num_games, 2), -1, dtype=np.int64)
        self.reset(np.arange(num_games))

    # ------------------------------------------------------------ playing

    def reset(
        self,
        seeds: Sequence[int] | np.ndarray,
        rotations: Sequence[int] | np.ndarray | None = None,
        first_deals: Sequence[Deal | None] | None = None,
    ) -> np.ndarray:
        """Start a match in every game: game ``g`` plays ``seeds[g]`` (a
        non-negative int below 2**64), hands rotated by ``rotations[g]`` (0..3,
        default 0), its first vòng dealt from ``first_deals[g]`` when given
        (as :func:`~env121.engine.game.new_game`). Returns the seats to act."""
        b = self.num_games
        seed_array = _int_array("seeds", seeds, b, 0, 2**64 - 1, np.uint64)
        rotation_array = (
            np.zeros(b, dtype=np.int64)
            if rotations is None
            else _int_array("rotations", rotations, b, 0, NUM_SEATS - 1, np.int64)
        )
        deals: list[Deal | None] = [None] * b if first_deals is None else list(first_deals)
        if len(deals) != b or not all(d is None or isinstance(d, Deal) for d in deals):
            raise ValueError(f"first_deals must be {b} Deal objects or None, got {first_deals!r}")
        games = self.games
        games["seed"] = seed_array
        games["rotation"] = rotation_array
        for g, deal in enumerate(deals):
            write_first_deal(games[g], deal)
        self._first_deals = deals
        self._final_first_deals = [None] * b
        self._history = []
        self._base = 0
        self._start[:] = 0
        self._final_span[:] = -1
        self._each(lambda part: reset_games(games[part], self.kernel_config))
        return self.to_act

    def step(self, actions: Sequence[int] | np.ndarray) -> StepResult:
        """Apply ``actions[g]``, the action of game ``g``'s seat to act, in every game;
        a game whose action is ``SIT_OUT`` (-1) does not move, and its outputs
        are those of an empty step (no rewards, no events, not terminated).

        Raises :class:`~env121.engine.game.IllegalActionError` naming the first
        game whose action is not legal; then no game has moved.
        """
        b = self.num_games
        array = np.asarray(actions)
        if array.shape != (b,) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"actions must be {b} integer action ids (one per game), got shape "
                f"{array.shape} of {array.dtype}"
            )
        played = array.astype(np.int64)
        games = self.games
        bad = first_illegal(games, played)
        if bad >= 0:
            raise self._illegal(bad, int(played[bad]))
        finals = self.final_games
        self._each(
            lambda part: step_games(games[part], self.kernel_config, played[part], b, finals[part])
        )
        now = self._base + len(self._history)
        self._history.append(played.astype(np.int16))
        terminated = games["terminated"]
        ended = np.flatnonzero(terminated)
        for g in ended:
            self._final_span[g] = (self._start[g], now + 1)
            self._final_first_deals[g] = self._first_deals[g]
            self._first_deals[g] = None
        self._start[ended] = now + 1
        if len(self._history) % _TRIM_EVERY == 0:
            self._trim()
        return StepResult(games["to_act"], games["rewards"], terminated, self._truncated)

    def play_random(self, steps: int, rng_seed: int = 0) -> int:
        """Play ``steps`` uniformly random legal actions in every game, compiled
        end to end (the speed benchmark's loop: no Python between decisions);
        finished matches are replaced as in :meth:`step`. Returns the number of
        decisions (``steps * num_games``). The games' actions are not recorded:
        :meth:`record` and :meth:`final_record` refuse until the next
        :meth:`reset`. Game ``g``'s choices depend only on ``rng_seed``, ``g``
        and its state."""
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise ValueError(f"steps={steps!r} is not valid: expected a non-negative int")
        if isinstance(rng_seed, bool) or not isinstance(rng_seed, int) or rng_seed < 0:
            raise ValueError(f"rng_seed={rng_seed!r} is not valid: expected a non-negative int")
        games, b = self.games, self.num_games
        self._each(
            lambda part: play_random(
                games[part],
                self.kernel_config,
                steps,
                rng_seed,
                part.start,
                b,
                self.final_games[part],
            )
        )
        self._start[:] = -1
        self._final_span[:] = -1
        self._history = []
        return steps * self.num_games

    # ---------------------------------------------------------- what to do

    @property
    def to_act(self) -> np.ndarray:
        """``[B]`` the seat to act in each game."""
        return self.games["to_act"]

    def legal_mask(self) -> np.ndarray:
        """``[B, 131]`` ``uint8``: 1 for each legal action of each game's seat to
        act (an array the next call overwrites)."""
        fill_legal_mask(self.games, self._mask)
        return self._mask

    def legal_actions(self, g: int) -> list[int]:
        """Game ``g``'s legal action ids, ascending (``game.legal_actions``)."""
        return read_legal(self.games[g])

    # ---------------------------------------------------------- what it did

    def events(self, g: int) -> list[Event]:
        """The events of game ``g``'s last step (of :meth:`reset`: its opening
        events), as the engine's :class:`~env121.engine.state.Event` objects."""
        return decode_events(self.games[g])

    def last_result(self, g: int) -> VongResult | None:
        """The last finished vòng of game ``g`` (None before its first)."""
        return decode_result(self.games[g])

    def final_info(self, g: int) -> FinalInfo | None:
        """How game ``g``'s last finished match ended (None before the first)."""
        r = self.games[g]
        if r["final_match_end"] < 0:
            return None
        return FinalInfo(
            int(r["final_seed"]),
            MATCH_ENDS[r["final_match_end"]],
            tuple(r["final_scores"].tolist()),
            tuple(r["final_standings"].tolist()),
            tuple(r["final_ranks"].tolist()),
        )

    def record(self, g: int) -> dict[str, Any]:
        """The JSON record of game ``g``'s match so far (:mod:`env121.engine.records`)."""
        start = int(self._start[g])
        if start < 0:
            raise ValueError(f"game {g}: its actions were played by play_random and not recorded")
        end = self._base + len(self._history)
        seed = int(self.games[g]["seed"])
        return self._record(g, seed, self._first_deals[g], start, end)

    def final_record(self, g: int) -> dict[str, Any]:
        """The JSON record of game ``g``'s last finished match."""
        start, end = (int(x) for x in self._final_span[g])
        info = self.final_info(g)
        if start < 0 or info is None:
            raise ValueError(f"game {g}: no finished match recorded since the last reset")
        return self._record(g, info.seed, self._final_first_deals[g], start, end)

    # ------------------------------------------------------------ helpers

    def _each(self, run: Callable[[slice], None]) -> None:
        """``run`` on each slice of the batch, the slices on their own threads."""
        self._threads.run(self.num_games, run)

    def _record(
        self, g: int, seed: int, first_deal: Deal | None, start: int, end: int
    ) -> dict[str, Any]:
        steps = self._history[start - self._base : end - self._base]
        state = State(self.config, seed, int(self.games[g]["rotation"]), first_deal)
        state.actions = [int(step[g]) for step in steps if step[g] != SIT_OUT]
        return to_record(state)

    def _trim(self) -> None:
        """Drop the recorded steps no record reaches back to."""
        starts = np.concatenate([self._start, self._final_span[:, 0]])
        now = self._base + len(self._history)
        oldest = int(starts[starts >= 0].min(initial=now))
        drop = oldest - self._base
        if drop > 0:
            del self._history[:drop]
            self._base = oldest

    def _illegal(self, g: int, action: int) -> IllegalActionError:
        legal = self.legal_actions(g)
        shown = format_action(action) if 0 <= action < NUM_ACTIONS else repr(action)
        phase = PHASES[self.games[g]["phase"]].value
        return IllegalActionError(
            f"game {g}: illegal action {shown} in phase {phase}, seat "
            f"{int(self.games[g]['to_act'])} to act: legal actions are [{format_actions(legal)}]",
            action,
            legal,
        )


def _int_array(name: str, values: Any, size: int, low: int, high: int, dtype: type) -> np.ndarray:
    """``values`` as ``size`` ints in ``low..high``, or one clear error."""
    try:
        ints = [int(v) for v in values if not isinstance(v, bool) and int(v) == v]
    except (TypeError, ValueError):
        ints = []
    if len(ints) != size or not all(low <= v <= high for v in ints):
        raise ValueError(f"{name} must be {size} ints in {low}..{high}, got {values!r}")
    return np.array(ints, dtype=dtype)


__all__ = ["BatchedEngine", "FinalInfo", "StepResult"]
