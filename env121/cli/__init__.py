"""The command line, ``env121 …``: the one package that imports every layer.

``env121 score`` / ``rules`` (:mod:`env121.cli.app`), ``play`` / ``replay``
(:mod:`env121.cli.game`), ``tournament`` (:mod:`arena.cli`), ``train`` and
``imitate`` (:mod:`training`). Torch and SB3 load only for the commands that
need them.
"""

from env121.cli.app import main

__all__ = ["main"]
