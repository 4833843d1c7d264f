"""``teenpatti serve``, ``teenpatti match`` and ``teenpatti play``: bots and people at
tables."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from agents.defaults import DEFAULT_AGENT, FALLBACK_AGENT
from interfaces.cli.common import (
    CommandError,
    add_command,
    add_table_options,
    agent_list,
    non_negative_int,
    port_number,
    positive_int,
    positive_seconds,
    rules_of,
    writable_folder,
)
from interfaces.table_defaults import MAX_BET_BOOTS, POT_CAP_BOOTS, TURN_SECONDS
from teenpatti_env.rules import MAX_PLAYERS, MIN_PLAYERS

if TYPE_CHECKING:
    from interfaces.table import PlayTable



def _command_serve(args: argparse.Namespace) -> None:
    from interfaces.server import make_server, serve_stdio
    from interfaces.service import BotService

    fallback = None if args.fallback.lower() == "none" else args.fallback
    try:
        service = BotService(args.agent, seed=args.seed, fallback=fallback)
    except ValueError as error:
        raise CommandError(str(error)) from error
    if args.stdio:
        serve_stdio(service, sys.stdin.buffer, sys.stdout)
        return
    try:
        limits = {key: value for key, value in (("max_connections", args.max_connections),
                                                ("request_seconds", args.request_timeout))
                  if value is not None}
        server = make_server(service, args.host, args.port, quiet=not args.verbose, **limits)
    except OSError as error:
        raise CommandError(f"cannot listen on {args.host}:{args.port}: "
                           f"{error.strerror or error}") from error
    print(f"teenpatti serve: {args.agent} answers POST {server.url}/v1/act; "
          f"web table at {server.url}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def _command_match(args: argparse.Namespace) -> None:
    from interfaces.match import resume_match, run_match

    players = agent_list(args.agents) + list(args.agent or [])
    if not args.resume:
        players = _with_default_seats(players, args)
    if args.resume and args.out:
        raise CommandError("--resume DIR writes to DIR; leave out --out")
    if args.out:
        if os.path.exists(os.path.join(args.out, "transcript.jsonl")):
            raise CommandError(f"--out {args.out} already holds a match; continue it with "
                               f"--resume {args.out}, or name another folder")
        writable_folder(args.out)
    try:
        if args.resume:
            result = resume_match(args.resume, players or None)
        else:
            result = run_match(players, rules_of(args), hands=args.hands, seed=args.seed,
                               time_limit=args.time_limit, hand_time=args.hand_time,
                               match_time=args.match_time, send_clock=not args.no_clock,
                               out=args.out)
    except ValueError as error:
        raise CommandError(str(error)) from error
    except OSError as error:
        raise CommandError(f"cannot write the transcript: {error.strerror or error}") from error
    print(result.table())


def _with_default_seats(players: list[str], args: argparse.Namespace) -> list[str]:
    """``players``, and the default agent in the seats they leave empty: up to
    ``--players`` seats, or the preset's seat count when fewer than three are named."""
    if args.players is not None:
        if not 3 <= args.players <= 7:
            raise CommandError(f"--players must be 3..7, got {args.players}")
        if len(players) > args.players:
            raise CommandError(f"{len(players)} players named for {args.players} seats")
        seats = args.players
    else:
        seats = len(players) if len(players) >= 3 else rules_of(args).num_players
    return players + [DEFAULT_AGENT] * (seats - len(players))


def _command_conformance(args: argparse.Namespace) -> None:
    from interfaces.conformance import report_json, run_conformance
    from interfaces.remote import REMOTE_PREFIXES

    if not args.bot.startswith(REMOTE_PREFIXES):
        raise CommandError(f"BOT is http://HOST:PORT or stdio:COMMAND, got {args.bot!r}")
    try:
        report = run_conformance(args.bot, time_limit=args.time_limit)
    except ValueError as error:
        raise CommandError(str(error)) from error
    print(report_json(report) if args.json else report.table())
    if not report.passed:
        raise SystemExit(1)


DEFAULT_BOTS = ("hard", "equity", DEFAULT_AGENT, "medium", "easy", "random")
"""The bots of ``teenpatti play`` without ``--bots``, as many as the seats after yours."""


def _off_or_int(text: str) -> int | None:
    if text.strip().lower() in ("off", "none", "no"):
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number or off, got {text!r}") from None


def _play_table(args: argparse.Namespace) -> PlayTable:
    """The table of ``teenpatti play``: the bots (``--bots``, else the defaults for
    ``--players``, any of which the trained bot cannot play taken by equity) and the
    table's limits and timer (the defaults of ``interfaces.table_defaults``)."""
    from interfaces.table import PlayTable, check_bot_count
    from interfaces.table_defaults import table_settings

    bots = agent_list(args.bots)
    if bots and args.players is not None and len(bots) != args.players - 1:
        raise CommandError(f"--players {args.players} seats {args.players - 1} bots, but "
                           f"--bots names {len(bots)}")
    players = args.players if args.players is not None else 4
    if not bots and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise CommandError(f"--players: a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                           f"got {players}")
    default = not bots
    bots = bots or list(DEFAULT_BOTS[:players - 1])
    try:
        check_bot_count(len(bots))
    except ValueError as error:
        raise CommandError(f"--bots: {error}") from error
    rules = rules_of(args)
    chosen = {name: getattr(args, name) for name in ("max_bet", "pot_cap", "turn_seconds")
              if hasattr(args, name)}  # an option not given: absent (its default)
    try:
        settings = table_settings(rules, chosen, seats=len(bots) + 1)
        rules = rules.replace(max_bet=settings["max_bet"], pot_cap=settings["pot_cap"])
        return PlayTable(bots, rules, hands=args.hands, seed=args.seed,
                         pause_between_hands=True, turn_seconds=settings["turn_seconds"],
                         stand_in=default)
    except ValueError as error:
        raise CommandError(str(error).replace("max_bet", "--max-bet").replace(
            "pot_cap", "--pot-cap").replace("turn_seconds", "--turn-seconds").replace(
            " or blank", " or off")) from error


def _command_play(args: argparse.Namespace) -> None:
    from interfaces.play import play_session, timed_input
    from interfaces.terminal_text import Style

    table = _play_table(args)
    names = ", ".join(f"seat {s}: {n}" for s, n in enumerate(table.names))
    rules = table.rules
    limits = ", ".join([
        f"chaal limit {rules.max_bet}" if rules.max_bet else "no chaal limit",
        f"pot limit {rules.pot_cap}" if rules.pot_cap else "no pot limit",
        f"{table.turn_seconds} s a turn" if table.turn_seconds else "no turn timer"])
    print(f"Teen Patti: {names}. Boot {rules.boot}, {limits}.")
    for notice in table.notices:
        print(notice)
    print("Type a move's key or name (b 4, chaal 4, fold), ? for help, or quit.")
    timed = sys.stdin.isatty() and sys.platform != "win32"
    play_session(table, style=Style.of(sys.stdout),
                 read_within=timed_input if timed else None)


def add_parsers(commands: Any) -> None:
    """``serve``, ``match`` and ``play``."""
    serve = add_command(
        commands, "serve", "serve a bot over HTTP (teenpatti-bot/1, plus a web table) or stdio"
    )
    serve.add_argument("--agent", default=DEFAULT_AGENT,
                       help="the agent that answers (a scripted agent, ppo:PATH, "
                            "pretrained:NAME)")
    serve.add_argument("--fallback", default=FALLBACK_AGENT, metavar="AGENT",
                       help="the agent that answers at a table --agent cannot play (a trained "
                            "policy's other seat counts, variants, dealer's choice), the "
                            "answer carrying a notice; none: refuse those requests")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=port_number, default=8000, help="port (0: any free port)")
    serve.add_argument("--stdio", action="store_true",
                       help="answer JSON lines on stdin/stdout instead of HTTP")
    serve.add_argument("--seed", type=non_negative_int, default=0,
                       help="seeds the agents' own random choices, per table and seat")
    serve.add_argument("--verbose", action="store_true", help="log every HTTP request")
    serve.add_argument("--max-connections", type=positive_int,
                       help="connections served at once; one more is answered 503 busy "
                            "(default 64)")
    serve.add_argument("--request-timeout", type=positive_seconds,
                       help="seconds a request has in all to arrive, and again to take its "
                            "answer (default 10)")
    serve.set_defaults(run=_command_serve)

    match = add_command(
        commands, "match", "a session between local agents and remote bots, with a turn timer"
    )
    match.add_argument("--agents", help="comma-separated players, one per seat: agent names, "
                       "ppo:PATH, pretrained:NAME, http://HOST:PORT, stdio:COMMAND, absent")
    match.add_argument("--agent", action="append",
                       help="one more player (for a stdio:COMMAND holding commas)")
    match.add_argument("--players", type=int, default=None,
                       help="seats, 3..7; the seats no player is named for get "
                            f"{DEFAULT_AGENT} (default: one seat per player named, or the "
                            "preset's seats when fewer than three are named). A trained "
                            f"policy that cannot play the table gives its seat to "
                            f"{FALLBACK_AGENT}, with a notice")
    add_table_options(match, hands=100)
    match.add_argument("--time-limit", type=positive_seconds, default=5.0,
                       help="seconds a remote bot has per turn")
    match.add_argument("--hand-time", type=positive_seconds, default=None,
                       help="seconds a remote bot has for all its turns in one hand "
                            "(default: no hand clock)")
    match.add_argument("--match-time", type=positive_seconds, default=None,
                       help="seconds a remote bot has for all its turns in the match, a time "
                            "bank (default: no match clock)")
    match.add_argument("--no-clock", action="store_true",
                       help="send remote bots no clock field (for bots written before it)")
    match.add_argument("--out", help="a folder for the transcript (every request and answer "
                       "with its time), every hand's history and result.json")
    match.add_argument("--resume", metavar="DIR",
                       help="continue the match cut off in DIR (its table, seed and players; "
                            "--agents replaces the players' specs)")
    match.set_defaults(run=_command_match)

    conformance = add_command(
        commands, "conformance", "check a remote bot on every kind of decision before it plays")
    conformance.add_argument("bot", help="http://HOST:PORT or stdio:COMMAND")
    conformance.add_argument("--time-limit", type=positive_seconds, default=5.0,
                             help="seconds the bot has per request")
    conformance.add_argument("--json", action="store_true", help="print one JSON object")
    conformance.set_defaults(run=_command_conformance)

    play = add_command(commands, "play", "play a session in the terminal against bots")
    play.add_argument("--bots", default=None,
                      help="comma-separated bots, 2 to 6, one per seat after yours (default: "
                           f"{', '.join(DEFAULT_BOTS[:3])}, then {', '.join(DEFAULT_BOTS[3:])} "
                           "for more seats; a default seat the trained bot cannot play, at "
                           f"another seat count or variant, goes to {FALLBACK_AGENT})")
    play.add_argument("--players", type=int, default=None,
                      help=f"players at the table with you, {MIN_PLAYERS} to {MAX_PLAYERS} "
                           "(default 4, or one more than --bots names)")
    add_table_options(play, hands=10)
    play.add_argument("--max-bet", type=_off_or_int, default=argparse.SUPPRESS, metavar="CHIPS|off",
                      help="the chaal limit: the largest seen bet, a blind bet at most half "
                           "(default: the preset's, else "
                           f"{MAX_BET_BOOTS} boots; off: no limit)")
    play.add_argument("--pot-cap", type=_off_or_int, default=argparse.SUPPRESS, metavar="CHIPS|off",
                      help="the pot limit: at this pot every hand still in is shown "
                           f"(default: the preset's, else {POT_CAP_BOOTS} boots; off: none)")
    play.add_argument("--turn-seconds", type=_off_or_int, default=argparse.SUPPRESS,
                      metavar="SECONDS|off",
                      help=f"your turn timer on a terminal; a turn not played in time packs "
                           f"(default {TURN_SECONDS}; off: none)")
    play.set_defaults(run=_command_play)
