"""env121: the card game 121 as a reinforcement-learning environment.

The rules core (this release): cards and their notation, the rule variants
(:class:`RuleConfig`), the Thế registry and the scoring API.
"""

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
from env121.patterns import THE_BY_ID, THES, The
from env121.payment import den_payments, win_payments
from env121.scoring import HandScore, is_completed, score_hand, thes_of

__version__ = "0.1.0"

__all__ = [
    "THES",
    "THE_BY_ID",
    "CardNotationError",
    "Figure",
    "HandScore",
    "RuleConfig",
    "Suit",
    "The",
    "__version__",
    "card",
    "den_payments",
    "describe_card",
    "format_card",
    "format_cards",
    "is_completed",
    "parse_card",
    "parse_cards",
    "score_hand",
    "thes_of",
    "win_payments",
]
