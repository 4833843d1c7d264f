"""The ``teenpatti`` command line.

* ``teenpatti replay HAND.json``: replay a hand history, print the result as JSON.
* ``teenpatti demo``: a short seeded session between simple bots, told hand by hand.

Bad input (a missing or malformed file, an illegal action, an unknown setting) prints
one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from teenpatti_env.history import replay
from teenpatti_env.render import describe_event
from teenpatti_env.rules import Rules
from teenpatti_env.session import Session


class CommandError(Exception):
    """A user error: printed as one line, exit status 2."""


def _load_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from error
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CommandError(f"{path} is not valid JSON: {error}") from error


def _command_replay(args: argparse.Namespace) -> None:
    history = _load_json(args.history)
    try:
        result = replay(history)
    except ValueError as error:
        raise CommandError(f"{args.history}: {error}") from error
    json.dump(result, sys.stdout, indent=2 if args.pretty else None)
    sys.stdout.write("\n")


def _command_demo(args: argparse.Namespace) -> None:
    from agents.simple import SimpleBot

    try:
        rules = Rules.preset(args.preset, num_players=args.players)
    except ValueError as error:
        raise CommandError(str(error)) from error
    session = Session(rules, seed=args.seed)
    bots = [SimpleBot(seed=args.seed * 100 + seat) for seat in range(rules.num_players)]
    print(f"Teen Patti demo: preset {args.preset}, {rules.num_players} seats, seed {args.seed}")
    while not session.over and session.hands_played < args.hands:
        hand = session.new_hand()
        print(f"\nHand {session.hands_played + 1}  stacks {session.stacks}")
        while not hand.over:
            hand.apply(bots[hand.to_act].act(hand))  # type: ignore[index]
        for event in hand.public_events():
            line = describe_event(event)
            if line:
                print("  " + line)
    standings = ", ".join(f"seat {s}: {c}" for s, c in session.standings())
    print(f"\nAfter {session.hands_played} hands: {standings}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``teenpatti`` command."""
    parser = argparse.ArgumentParser(prog="teenpatti", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    replay_parser = commands.add_parser("replay", help="replay a hand history (JSON)")
    replay_parser.add_argument("history", help="path of a teenpatti-hand/1 JSON file")
    replay_parser.add_argument("--pretty", action="store_true", help="indent the JSON")
    replay_parser.set_defaults(run=_command_replay)

    demo = commands.add_parser("demo", help="a short seeded session between simple bots")
    demo.add_argument("--preset", default="classic", choices=Rules.PRESET_NAMES)
    demo.add_argument("--players", type=int, default=4, help="seats, 3..7")
    demo.add_argument("--hands", type=int, default=5, help="hands to play at most")
    demo.add_argument("--seed", type=int, default=0)
    demo.set_defaults(run=_command_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``teenpatti`` console script."""
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except CommandError as error:
        print(f"teenpatti: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `teenpatti demo | head`): stop quietly.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
