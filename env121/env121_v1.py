"""``env121_v1``, the versioned environment module, as PettingZoo's classic
games are (``from pettingzoo.classic import chess_v6``)::

    from env121 import env121_v1

    env = env121_v1.env()  # AEC, in PettingZoo's classic wrappers
    parallel = env121_v1.parallel_env()  # the same game through the parallel API
    bare = env121_v1.raw_env()

The version is bumped when the environment's behaviour changes; its
documentation is :mod:`env121.envs.aec_env`.
"""

from env121.envs.aec_env import env, parallel_env, raw_env

__all__ = ["env", "parallel_env", "raw_env"]
