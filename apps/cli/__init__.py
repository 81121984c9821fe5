"""The command line, ``env121 …``: the one package that imports every layer.

``env121 score`` / ``rules`` (:mod:`apps.cli.app`), ``play`` / ``replay``
(:mod:`apps.cli.game`), ``tournament`` (:mod:`apps.cli.tournament`),
``benchmark`` (:mod:`apps.cli.benchmark`), ``train``, ``imitate`` and
``exploit`` (:mod:`apps.cli.train`), ``serve`` (:mod:`apps.cli.web`); the
options and the one error line they share (:mod:`apps.cli.options`). Torch
and SB3 load only for the commands that need them.
"""

from apps.cli.app import main

__all__ = ["main"]
