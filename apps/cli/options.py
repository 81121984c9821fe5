"""The rule variants on the command line: one option per :class:`RuleConfig` field.

:func:`add_rule_options` adds them to a parser (``env121 play``,
``tournament`` and — the ones that change a hand's score — ``score``), and
:func:`rule_config` builds the :class:`RuleConfig` of the parsed arguments,
so every command spells a rule variant the same way:

======================================  =========================================
option                                  field
======================================  =========================================
``--left-figures GEN,INS,MER,GEI,DAN``  ``left_figures`` (figure codes)
``--[no-]phe-phe-same-suits``           ``phe_phe_same_suits``
``--[no-]nhat-ban-requires-wait``       ``nhat_ban_requires_wait``
``--[no-]mask-invalid-win``             ``mask_invalid_win``
``--payment-rounding exact|hundreds``   ``payment_rounding``
``--num-van 1|2|4``                     ``num_van``
``--starting-points N``                 ``starting_points``
``--[no-]carry-scores``                 ``carry_scores``
``--max-actions-per-vong N|none``       ``max_actions_per_vong``
``--[no-]the-trang-asks-every-seat``    ``the_trang_asks_every_seat``
======================================  =========================================

The defaults are the config's (the spec's). :class:`HelpFormatter` is the
help formatter of every ``env121`` command: it shows each option's default.

**One error style.** Every error a user can cause is one line on standard
error starting with :data:`ERROR_PREFIX` (``env121: error: ``), exit status 2
for bad input: :func:`error_line` for the commands' own checks,
:class:`ArgumentParser` for argparse's (a bad option or value), which prints
that same line and where the options are listed instead of a usage block.
A bug still shows its traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Collection
from typing import Any, NoReturn

from env121.rules.cards import FIGURE_CODES, REGULAR_FIGURES
from env121.rules.config import DEFAULT_CONFIG, NUM_VAN_CHOICES, PAYMENT_ROUNDINGS, RuleConfig

SCORING_FIELDS = (
    "left_figures",
    "phe_phe_same_suits",
    "nhat_ban_requires_wait",
    "payment_rounding",
)
"""The fields that change how a hand scores or is paid (``env121 score``)."""


ERROR_PREFIX = "env121: error: "
"""How every error line of the ``env121`` commands begins."""


def error_line(message: str) -> int:
    """Print ``message`` as the command's one error line; returns the exit status 2."""
    print(f"{ERROR_PREFIX}{one_line(message)}", file=sys.stderr)
    return 2


def one_line(message: str) -> str:
    """``message`` with its line breaks written as ``\\n`` / ``\\r``: a value the user
    typed (an argument holding a newline) must not break the one error line."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


class ArgumentParser(argparse.ArgumentParser):
    """argparse with the one error style: a bad argument is one line
    (:data:`ERROR_PREFIX`, the message, where the options are listed), exit 2."""

    def error(self, message: str) -> NoReturn:
        hint = f"(`{self.prog} --help` lists the options)"
        self.exit(2, f"{ERROR_PREFIX}{one_line(message)} {hint}\n")


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default, except where there is none to show (``None``,
    an empty list, a plain on/off flag)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        default = action.default
        plain_flag = action.nargs == 0 and not isinstance(action, argparse.BooleanOptionalAction)
        if default is None or default == [] or plain_flag:
            return action.help
        return super()._get_help_string(action)


def add_rule_options(
    parser: argparse.ArgumentParser, fields: Collection[str] | None = None
) -> None:
    """Add the options of ``fields`` (default: every field) in a group of their own."""
    chosen = set(_FIELDS) if fields is None else set(fields)
    unknown = sorted(chosen - set(_FIELDS))
    if unknown:
        raise ValueError(f"no rule option for {unknown}: expected fields of {sorted(_FIELDS)}")
    group = parser.add_argument_group(
        "rule variants",
        "RuleConfig fields (docs/api.md: Rule variants); the defaults are the spec's",
    )
    for name in _FIELDS:
        if name in chosen:
            flags, options = _OPTIONS[name]
            group.add_argument(*flags, dest=name, **options)


def rule_config(args: argparse.Namespace) -> RuleConfig:
    """The :class:`RuleConfig` of the rule options in ``args`` (the defaults for
    fields it lacks); raises ``ValueError`` naming a bad value."""
    given = {name: getattr(args, name) for name in _FIELDS if hasattr(args, name)}
    return dataclasses.replace(DEFAULT_CONFIG, **given)


def _figures(text: str) -> frozenset[int]:
    """``"GEN,INS,MER,GEI,DAN"`` → the figures of those codes."""
    codes = [code.strip().upper() for code in text.split(",") if code.strip()]
    regular = [FIGURE_CODES[f] for f in REGULAR_FIGURES]
    bad = [code for code in codes if code not in regular]
    if bad:
        raise argparse.ArgumentTypeError(
            f"{', '.join(bad)} is not a regular figure: expected codes among {','.join(regular)}"
        )
    return frozenset(FIGURE_CODES.index(code) for code in codes)


def _cap(text: str) -> int | None:
    """``"4000"`` → 4000; ``"none"`` → no cap."""
    if text.strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a cap: expected a positive integer or 'none'"
        ) from None


def _codes(figures: Collection[int]) -> str:
    return ",".join(FIGURE_CODES[f] for f in sorted(figures))


_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "left_figures": (
        ("--left-figures",),
        {
            "type": _figures,
            "default": _codes(DEFAULT_CONFIG.left_figures),
            "metavar": "FIG,…",
            "help": "[R-1] the five figures that look left (the rest look right)",
        },
    ),
    "phe_phe_same_suits": (
        ("--phe-phe-same-suits",),
        {
            "action": argparse.BooleanOptionalAction,
            "default": DEFAULT_CONFIG.phe_phe_same_suits,
            "help": "[R-2] the Phe–Phe Thế also need equal suits position by position",
        },
    ),
    "nhat_ban_requires_wait": (
        ("--nhat-ban-requires-wait",),
        {
            "action": argparse.BooleanOptionalAction,
            "default": DEFAULT_CONFIG.nhat_ban_requires_wait,
            "help": "[R-8] Nhất Bản may be declared only with a wait",
        },
    ),
    "mask_invalid_win": (
        ("--mask-invalid-win",),
        {
            "action": argparse.BooleanOptionalAction,
            "default": DEFAULT_CONFIG.mask_invalid_win,
            "help": "§5.7 Ù is offered only when valid (--no-mask-invalid-win: a wrong Ù is Đền)",
        },
    ),
    "payment_rounding": (
        ("--payment-rounding",),
        {
            "choices": PAYMENT_ROUNDINGS,
            "default": DEFAULT_CONFIG.payment_rounding,
            "help": "[R-12] exact: neighbours pay 30·D, opposite 40·D; hundreds: "
            "neighbours' share rounded down to 100s",
        },
    ),
    "num_van": (
        ("--num-van",),
        {
            "type": int,
            "choices": NUM_VAN_CHOICES,
            "default": DEFAULT_CONFIG.num_van,
            "help": "§5.1 ván per match",
        },
    ),
    "starting_points": (
        ("--starting-points",),
        {
            "type": int,
            "default": DEFAULT_CONFIG.starting_points,
            "metavar": "N",
            "help": "[R-6] points each player holds at the start of a ván",
        },
    ),
    "carry_scores": (
        ("--carry-scores",),
        {
            "action": argparse.BooleanOptionalAction,
            "default": DEFAULT_CONFIG.carry_scores,
            "help": "[R-6] carry points from one ván to the next",
        },
    ),
    "max_actions_per_vong": (
        ("--max-actions-per-vong",),
        {
            "type": _cap,
            "default": DEFAULT_CONFIG.max_actions_per_vong,
            "metavar": "N|none",
            "help": "§8 a vòng reaching this many actions ends as a truncated draw",
        },
    ),
    "the_trang_asks_every_seat": (
        ("--the-trang-asks-every-seat",),
        {
            "action": argparse.BooleanOptionalAction,
            "default": DEFAULT_CONFIG.the_trang_asks_every_seat,
            "help": "§5.3 ask every seat about Thế trắng (--no-…: only eligible seats, as "
            "format-1 records were played; the order of play then shows who is eligible)",
        },
    ),
}
_FIELDS = tuple(field.name for field in dataclasses.fields(RuleConfig))

__all__ = [
    "ERROR_PREFIX",
    "SCORING_FIELDS",
    "ArgumentParser",
    "HelpFormatter",
    "add_rule_options",
    "error_line",
    "rule_config",
]
