"""The old path of the command line, kept so that what was written against it
still runs: ``from env121.cli import main`` and ``python -m env121.cli``.

The command line is :mod:`apps.cli` since it left the library (the
applications sit on top of every layer). This alias is the one place the
library names ``apps``: it is imported by nobody inside the project, and the
import contract lists it as its one exception. New code imports
:mod:`apps.cli`.
"""

from apps.cli import main

__all__ = ["main"]
