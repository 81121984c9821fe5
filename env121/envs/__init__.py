"""Layer 4, the RL environments over the engine.

The PettingZoo AEC environment ``env121_v1`` (:mod:`~env121.envs.aec_env`) and
the gymnasium single-seat environment (:mod:`~env121.envs.single_seat`). The
RL frameworks are imported here and above, never below.
"""
