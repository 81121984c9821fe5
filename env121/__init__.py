"""env121: the card game 121 as a reinforcement-learning environment.

* Rules core: cards and their notation, the rule variants (:class:`RuleConfig`),
  the Thế registry and the scoring API (:func:`score_hand`, :func:`thes_of`,
  :func:`is_completed`), payments.
* Game engine: a whole match as a :class:`State` moved by :func:`apply` /
  :func:`step` over the action layout of :mod:`env121.actions`, with what each
  seat knows (:func:`observe`), determinizations for search
  (:func:`sample_determinization`), invariants (:func:`validate`) and game
  records (:mod:`env121.records`).

The engine imports no RL framework; the PettingZoo environment sits on top.
"""

from env121.actions import NUM_ACTIONS, format_action
from env121.cards import (
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
from env121.config import RuleConfig
from env121.deal import Deal
from env121.game import (
    IllegalActionError,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    step,
)
from env121.patterns import THE_BY_ID, THES, The
from env121.payment import den_payments, win_payments
from env121.scoring import HandScore, is_completed, score_hand, thes_of
from env121.state import Phase, State
from env121.validate import InvariantError, validate
from env121.view import SeatView, observe, sample_determinization

__version__ = "0.1.0"

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
    "format_action",
    "format_card",
    "format_cards",
    "is_completed",
    "is_terminal",
    "legal_actions",
    "new_game",
    "observe",
    "parse_card",
    "parse_cards",
    "sample_determinization",
    "score_hand",
    "step",
    "thes_of",
    "validate",
    "win_payments",
]
