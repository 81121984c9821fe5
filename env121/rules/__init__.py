"""Layer 1, the rules of 121: what a hand is worth, with no game around it.

Cards and their notation (:mod:`~env121.rules.cards`), the rule variants
(:mod:`~env121.rules.config`), the groups of cards (:mod:`~env121.rules.groups`),
the Thế registry (:mod:`~env121.rules.thes`) and the fast search over it
(:mod:`~env121.rules.search`), Thưởng and indicator points
(:mod:`~env121.rules.bonuses`), the scoring API (:mod:`~env121.rules.scoring`),
Nhất Bản waits (:mod:`~env121.rules.waits`), the Thế filters on five known
cards (:mod:`~env121.rules.wins`) and payments (:mod:`~env121.rules.payment`).
Imports nothing from the layers above.
"""
