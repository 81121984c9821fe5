"""Layer 2, the game engine: a whole seeded match as a mutable :class:`State`.

The action layout (:mod:`~env121.engine.actions`), seeded deals
(:mod:`~env121.engine.deal`), the state and its events
(:mod:`~env121.engine.state`), the transition function
(:mod:`~env121.engine.game`), what one seat knows
(:mod:`~env121.engine.view`), the per-hand win table
(:mod:`~env121.engine.win_table`), invariants (:mod:`~env121.engine.validate`),
game records (:mod:`~env121.engine.records`), every text view of a match
(:mod:`~env121.engine.render`: transcripts and the table), the picture of
the table (:mod:`~env121.engine.picture`: SVG, and its raster), scripted
play (:mod:`~env121.engine.scripted`) and files written whole or not at all
(:mod:`~env121.engine.files`, for every layer above). Imports only :mod:`env121.rules`.
"""
