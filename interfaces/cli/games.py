"""``teenpatti replay`` and ``teenpatti demo``: hands told from the engine."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from interfaces.cli.common import (
    PRESET_HELP,
    VARIANT_HELP,
    CommandError,
    add_command,
    load_json,
    non_negative_int,
    positive_int,
    variant_spec,
)
from teenpatti_env.engine import Hand
from teenpatti_env.engine.history import replay
from teenpatti_env.environment.render import describe_event
from teenpatti_env.rules import Rules


def _command_replay(args: argparse.Namespace) -> None:
    history = load_json(args.history)
    try:
        result = replay(history)
    except ValueError as error:
        raise CommandError(f"{args.history}: {error}") from error
    json.dump(result, sys.stdout, indent=2 if args.pretty else None)
    sys.stdout.write("\n")


def _tell(hand: Hand) -> None:
    for event in hand.public_events():
        line = describe_event(event)
        if line:
            print("  " + line)


DEMO_LINEUP = ("equity", "hard", "auto", "medium", "easy", "random", "equity")
"""The demo's agent in each seat, in seat order."""


def _command_demo(args: argparse.Namespace) -> None:
    from agents import make_agent
    from agents.loop import agent_turns, play_out
    from teenpatti_env.environment.aec import raw_env

    try:
        preset = Rules.preset(args.preset, num_players=args.players,
                              variant=variant_spec(args.variant))
        limit = args.hands if preset.max_hands is None else min(args.hands, preset.max_hands)
        rules = preset.replace(max_hands=limit)
    except ValueError as error:
        raise CommandError(str(error)) from error
    env = raw_env(rules=rules, episode="session")
    env.reset(seed=args.seed)
    lineup = DEMO_LINEUP[: rules.num_players]
    agents = {
        name: make_agent(kind, seed=args.seed * 100 + seat)
        for seat, (name, kind) in enumerate(zip(env.possible_agents, lineup, strict=True))
    }
    seats = ", ".join(f"seat {s}: {kind}" for s, kind in enumerate(lineup))
    print(f"Teen Patti demo: preset {args.preset}, seed {args.seed}; {seats}")
    session = env.session
    assert session is not None
    told: list[Hand] = []  # the hand being played, once it has started

    def new_hand() -> None:  # tell the last hand, then start this one
        if told:
            _tell(told.pop())
        assert env.hand is not None
        told.append(env.hand)
        print(f"\nHand {session.hands_played + 1}  stacks {list(session.stacks)}")
        for agent in agents.values():
            agent.reset()

    play_out(env, agent_turns(env, agents), new_hand)
    if told:
        _tell(told.pop())
    standings = ", ".join(f"seat {s}: {c}" for s, c in session.standings())
    print(f"\nAfter {session.hands_played} hands: {standings}")


def add_parsers(commands: Any) -> None:
    """``replay`` and ``demo``."""
    replay_parser = add_command(commands, "replay",
                                 "replay a hand history (JSON) and print the result as JSON")
    replay_parser.add_argument("history", help="path of a teenpatti-hand/1 JSON file")
    replay_parser.add_argument("--pretty", action="store_true", help="indent the JSON")
    replay_parser.set_defaults(run=_command_replay)

    demo = add_command(commands, "demo",
                        "a short seeded session between the scripted agents, told hand by hand")
    demo.add_argument("--preset", default="classic", choices=Rules.PRESET_NAMES,
                      help=PRESET_HELP)
    demo.add_argument("--variant", default="classic", help=VARIANT_HELP)
    demo.add_argument("--players", type=int, default=4, help="seats, 3..7")
    demo.add_argument("--hands", type=positive_int, default=5, help="hands to play at most")
    demo.add_argument("--seed", type=non_negative_int, default=0,
                      help="seeds the first dealer, the deals and the agents: the same seed "
                           "tells the same session")
    demo.set_defaults(run=_command_demo)
