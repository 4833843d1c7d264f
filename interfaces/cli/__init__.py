"""The ``teenpatti`` command line, one module per group of subcommands.

* ``teenpatti replay HAND.json``, ``teenpatti demo``: hands told from the engine
  (:mod:`interfaces.cli.games`).
* ``teenpatti arena``: agents head to head with duplicate dealing, and ``teenpatti
  leaderboard``: every agent rated on one scale (:mod:`interfaces.cli.arena`).
* ``teenpatti train``, ``teenpatti selfplay``: the trainers (:mod:`interfaces.cli.training`).
* ``teenpatti exploit``: approximate exploitability (:mod:`interfaces.cli.exploit`).
* ``teenpatti serve``, ``teenpatti match``, ``teenpatti play``: bots and people at tables
  (:mod:`interfaces.cli.bots`).

The command line is the top of the package: it may use every layer, and nothing imports
it (``python -m teenpatti_env`` runs it too). Bad input (a missing or malformed file, an
illegal action, an unknown setting) prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from interfaces.cli import arena, bots, exploit, games, training
from interfaces.cli.common import CommandError, Parser
from teenpatti_env import __version__

__all__ = ["CommandError", "build_parser", "main"]

def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``teenpatti`` command."""
    parser = Parser(
        prog="teenpatti",
        description="Teen Patti: an exact rules engine, an RL environment, agents, an arena "
                    "and bots. Run teenpatti COMMAND --help for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"teenpatti {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    for group in (games, arena, training, exploit, bots):
        group.add_parsers(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``teenpatti`` console script."""
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except CommandError as error:
        print(f"teenpatti: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `teenpatti demo | head`): stop quietly.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    return 0
