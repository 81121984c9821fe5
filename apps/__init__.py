"""The applications built on the library: the ``env121`` command line
(:mod:`apps.cli`) and the web table (:mod:`apps.web`).

They sit on top of every layer — the rules, the engine and the seat
(:mod:`env121`), the agents, the arena and the trainers — and nothing below
imports them (an import contract in ``pyproject.toml``, checked by
``lint-imports``): the library works without them, and a user who only
imports ``env121`` loads neither argparse front ends nor FastAPI.
"""
