"""env121: the card game 121 as a reinforcement-learning environment.

* Rules core: cards and their notation, the rule variants (:class:`RuleConfig`),
  the Thế registry and the scoring API (:func:`score_hand`, :func:`thes_of`,
  :func:`is_completed`), payments.
* Game engine: a whole match as a :class:`State` moved by :func:`apply` /
  :func:`step` over the action layout of :mod:`env121.engine.actions`, with what each
  seat knows (:func:`observe`), determinizations for search
  (:func:`sample_determinization`), invariants (:func:`validate`) and game
  records (:mod:`env121.engine.records`).

The engine imports no RL framework; the environments sit on top and load
their framework on first use, so ``import env121`` stays light:

* ``env121.env()`` / ``env121.raw_env`` / ``env121.parallel_env()``
  (PettingZoo, AEC and turn-based parallel, :mod:`env121.envs.aec_env`), also
  as the versioned module ``from env121 import env121_v1``;
* the Gymnasium id ``env121/SingleSeat-v1`` (one learning seat, opponents
  given as agents or agent specs: :class:`agents.SingleSeat`), registered as
  soon as gymnasium is imported too (:mod:`env121.registration`), without
  importing it here. (Before 0.2.0 it was also ``env121.SingleSeat``; it lives
  with the agents, whose specs it builds, and the rules package imports nothing
  from the layers above it.)

The code is in layers, each importing only the ones below it:
:mod:`env121.rules` → :mod:`env121.engine` → :mod:`env121.play` →
:mod:`env121.envs` → ``agents`` → ``arena`` → ``training``, and on top the
applications (:mod:`apps`: the web table and the ``env121`` command line),
which nothing below imports.
"""

import importlib
from typing import TYPE_CHECKING, Any

# First, before any kernel is defined: numba's CPU, the kernels' cache, the shipped kernels.
import env121.rules.compiled  # noqa: F401
from env121.engine.actions import NUM_ACTIONS, format_action
from env121.engine.deal import Deal
from env121.engine.game import (
    IllegalActionError,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    step,
)
from env121.engine.state import Phase, State
from env121.engine.validate import InvariantError, validate
from env121.engine.view import SeatView, observe, sample_determinization
from env121.registration import register_when_gymnasium_is_imported
from env121.rules.cards import (
    CardNotationError,
    Figure,
    Suit,
    card,
    describe_card,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from env121.rules.config import RuleConfig
from env121.rules.payment import den_payments, win_payments
from env121.rules.scoring import HandScore, is_completed, score_hand, thes_of
from env121.rules.thes import THE_BY_ID, THES, The

if TYPE_CHECKING:
    from env121 import env121_v1
    from env121.envs.aec_env import env, parallel_env, raw_env
else:

    def __getattr__(name: str) -> Any:
        """The environments import their framework on first use."""
        if name in ("env", "raw_env", "parallel_env"):
            from env121.envs import aec_env

            return getattr(aec_env, name)
        if name == "env121_v1":
            return importlib.import_module("env121.env121_v1")
        if name == "SingleSeat":
            raise AttributeError(
                "env121.SingleSeat moved in env121 0.2.0: use agents.SingleSeat "
                '(from agents import SingleSeat) or gym.make("env121/SingleSeat-v1")'
            )
        raise AttributeError(f"module 'env121' has no attribute {name!r}")


register_when_gymnasium_is_imported()


__version__ = "0.2.0"

__all__ = [
    "NUM_ACTIONS",
    "THES",
    "THE_BY_ID",
    "CardNotationError",
    "Deal",
    "Figure",
    "HandScore",
    "IllegalActionError",
    "InvariantError",
    "Phase",
    "RuleConfig",
    "SeatView",
    "State",
    "Suit",
    "The",
    "__version__",
    "apply",
    "card",
    "current_player",
    "den_payments",
    "describe_card",
    "env",
    "env121_v1",
    "format_action",
    "format_card",
    "format_cards",
    "is_completed",
    "is_terminal",
    "legal_actions",
    "new_game",
    "observe",
    "parallel_env",
    "parse_card",
    "parse_cards",
    "raw_env",
    "sample_determinization",
    "score_hand",
    "step",
    "thes_of",
    "validate",
    "win_payments",
]
