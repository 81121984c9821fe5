"""Layer 1, the rules of 121: what a hand is worth, with no game around it.

Cards and their notation (:mod:`~env121.rules.cards`), the rule variants
(:mod:`~env121.rules.config`), the groups of cards (:mod:`~env121.rules.groups`),
the Thế registry (:mod:`~env121.rules.thes`), Thưởng and indicator points
(:mod:`~env121.rules.bonuses`), the scoring API (:mod:`~env121.rules.scoring`),
Nhất Bản waits (:mod:`~env121.rules.waits`), Thế trắng (:mod:`~env121.rules.wins`)
and payments (:mod:`~env121.rules.payment`); the one implementation of the
search, the scorer and the waits is compiled (:mod:`~env121.rules.compiled`),
and the modules here are its faces.
Imports nothing from the layers above.
"""
