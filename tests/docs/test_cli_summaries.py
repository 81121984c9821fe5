"""The command line's page (:mod:`apps.cli.app`'s docstring) has a line
for each subcommand, and each subcommand has a summary in ``env121 --help``.

A new subcommand without its line here, or a line for one that is gone,
fails: the page says what the parser does.
"""

from __future__ import annotations

import argparse
import re

from apps.cli import app


def subcommands() -> dict[str, str | None]:
    """Each subcommand of ``env121`` and its one-line help."""
    parser = app.build_parser()
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in action._choices_actions}
    return {name: helps.get(name) for name in action.choices}


def test_the_page_has_a_line_for_each_subcommand():
    documented = set(re.findall(r"``env121 (\w+)", app.__doc__ or ""))
    assert documented == set(subcommands())


def test_each_subcommand_has_a_summary():
    assert all(subcommands().values()), subcommands()
