"""Layer 3, a seat at the table: what an agent is shown and how a match is played.

The observation vector of a seat (:mod:`~env121.play.observation`), the
:class:`~env121.play.turn.Turn` an agent decides on, the agent protocol
(:mod:`~env121.play.protocol`), the random player and the match loop
(:mod:`~env121.play.match`), the legal moves named for a person
(:mod:`~env121.play.moves`) and a person in a terminal seat
(:mod:`~env121.play.human`). Imports only the engine and the rules (and rich).
"""
