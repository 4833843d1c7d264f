"""What every subcommand of the ``teenpatti`` command line shares: the user error, the
argument types, the help formatting and the table options."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from typing import Any, NoReturn

from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS, load_variant


class CommandError(Exception):
    """A user error: printed as one line, exit status 2."""


def load_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from error
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CommandError(f"{path} is not valid JSON: {error}") from error
    except RecursionError:
        raise CommandError(f"{path} is nested too deeply to read") from None


def writable_folder(folder: str) -> None:
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise CommandError(f"cannot write to {folder}: {error.strerror or error}") from error
    if not os.access(folder, os.W_OK):
        raise CommandError(f"cannot write to {folder}: permission denied")


TRAIN_EXTRA_HINT = (
    "training needs torch and sb3-contrib: pip install torch==2.13.0 && "
    "pip install 'teenpatti-env[train]'"
)


def rules_of(args: argparse.Namespace) -> Rules:
    try:
        return Rules.preset(args.preset, variant=variant_spec(args.variant))
    except ValueError as error:
        raise CommandError(str(error)) from error


def agent_list(text: str | None) -> list[str]:
    return [name.strip() for name in (text or "").split(",") if name.strip()]


def int_at_least(low: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


positive_int = int_at_least(1, "a positive integer")


non_negative_int = int_at_least(0, "an integer >= 0")


def port_number(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
    return int(text)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 3600:
        raise argparse.ArgumentTypeError(f"expected seconds above 0, got {text!r}")
    return value


PRESET_HELP = "the table's settings: one of the four presets of docs/rules.md"


VARIANT_HELP = (
    f"a variant of docs/variants.md ({', '.join(VARIANTS)}) or a family special's .json/.toml "
    "file"
)


def variant_spec(text: str) -> Any:
    """A variant name, or the spec in a family special's file."""
    if text.lower().endswith((".json", ".toml")):
        return load_variant(text)
    return text


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Help that ends each option's text with its default, where it has one to show
    (not for flags, nor for options whose default is decided later)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def add_command(commands: Any, name: str, summary: str) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` starts with ``summary`` and shows the defaults."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=summary, description=summary[:1].upper() + summary[1:] + ".",
        formatter_class=HelpFormatter,
    )
    return parser


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one ``teenpatti:`` line (``teenpatti: argument
    --port: ...``) and exit status 2; ``--help`` still prints the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"teenpatti: {message} (see {self.prog} --help)\n")


def add_table_options(parser: argparse.ArgumentParser, hands: int) -> None:
    """The table a session is played at: --hands, --preset, --variant, --seed."""
    parser.add_argument("--hands", type=positive_int, default=hands, help="hands at most")
    parser.add_argument("--preset", default="classic", choices=Rules.PRESET_NAMES,
                        help=PRESET_HELP)
    parser.add_argument("--variant", default="classic", help=VARIANT_HELP)
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="seeds the first dealer, the deals and the local agents: the "
                             "same seed deals the same session")
