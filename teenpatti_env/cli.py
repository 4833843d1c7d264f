"""The ``teenpatti`` command line.

* ``teenpatti replay HAND.json``: replay a hand history, print the result as JSON.
* ``teenpatti demo``: a short seeded session between the scripted agents, told hand by
  hand.
* ``teenpatti arena --agents random,equity --hands 20000 --preset classic --seed 0``:
  agents head to head with duplicate dealing; prints a table, writes JSON and a PNG.
  ``ppo:PATH`` and ``pretrained:NAME`` name trained policies; ``--table 2v2`` or
  ``--table 1vN`` plays every pair of agents at tables of just the two.
* ``teenpatti train --preset classic --timesteps 300000 --out DIR``: MaskablePPO against
  the scripted agents and snapshots of itself, then an arena evaluation (needs the
  ``train`` extra).
* ``teenpatti serve --agent pretrained:classic --port 8000``: a bot over HTTP (the
  ``teenpatti-bot/1`` protocol, and a web table at ``/``); ``--stdio``: JSON lines on
  stdin/stdout.
* ``teenpatti match --agents equity,http://host:8000,stdio:CMD --hands 100``: a session
  between local agents and remote bots, with a time limit per turn.
* ``teenpatti play --bots hard,equity,pretrained:classic``: play a session in the
  terminal.

This module is the interface layer: it may use every other layer (``agents`` included),
and nothing in the package imports it.

Bad input (a missing or malformed file, an illegal action, an unknown setting) prints
one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from teenpatti_env import __version__
from teenpatti_env.engine import Hand
from teenpatti_env.engine.history import replay
from teenpatti_env.environment.render import describe_event
from teenpatti_env.rules import Rules
from teenpatti_env.rules.variants import VARIANTS, load_variant


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
    except RecursionError:
        raise CommandError(f"{path} is nested too deeply to read") from None


def _command_replay(args: argparse.Namespace) -> None:
    history = _load_json(args.history)
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
    from teenpatti_env.environment.aec import raw_env

    try:
        preset = Rules.preset(args.preset, num_players=args.players,
                              variant=_variant(args.variant))
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
    current: Hand | None = None
    for name in env.agent_iter():
        if env.hand is not current:  # a new hand: tell the last one, then start this one
            if current is not None:
                _tell(current)
            current = env.hand
            print(f"\nHand {session.hands_played + 1}  stacks {list(session.stacks)}")
            for agent in agents.values():
                agent.reset()
        observation, _, terminated, truncated, _ = env.last()
        action = None
        if not (terminated or truncated):
            action = agents[name].act(
                observation["observation"], observation["action_mask"], env.view(name)
            )
        env.step(action)
    if current is not None:
        _tell(current)
    standings = ", ".join(f"seat {s}: {c}" for s, c in session.standings())
    print(f"\nAfter {session.hands_played} hands: {standings}")


def _writable_folder(folder: str) -> None:
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise CommandError(f"cannot write to {folder}: {error.strerror or error}") from error
    if not os.access(folder, os.W_OK):
        raise CommandError(f"cannot write to {folder}: permission denied")


def _command_arena(args: argparse.Namespace) -> None:
    from agents.arena import run_arena

    names = [name.strip() for name in args.agents.split(",") if name.strip()]
    json_path = os.path.join(args.out, "arena.json")
    plot_path = os.path.join(args.out, "arena.png")
    _writable_folder(args.out)  # find an unwritable folder before playing, not after
    try:
        rules = Rules.preset(args.preset, variant=_variant(args.variant))
        report = run_arena(
            names,
            hands=args.hands,
            rules=rules,
            seed=args.seed,
            players=args.players,
            duplicate=not args.independent,
            compare_plain=args.compare_plain,
            workers=args.workers,
            progress=not args.quiet,
            engine=args.engine.replace("-", "_"),
            ray_address=args.ray,
            table=args.table,
        )
    except ValueError as error:
        raise CommandError(str(error)) from error
    print(report.table())
    try:
        report.to_json(json_path)
        report.plot(plot_path)
    except OSError as error:
        raise CommandError(f"cannot write to {args.out}: {error.strerror or error}") from error
    print(f"\nwrote {json_path} and {plot_path}")


TRAIN_EXTRA_HINT = (
    "training needs torch and sb3-contrib: pip install torch==2.13.0 && "
    "pip install 'teenpatti-env[train]'"
)


def _command_train(args: argparse.Namespace) -> None:
    from training.config import TrainConfig

    options = {
        key: value for key, value in vars(args).items()
        if key not in ("command", "run", "quiet") and value is not None
    }
    if options.get("warm_start") == "none":
        options["warm_start"] = None
    for key in ("opponents", "net_arch", "stop_when_beating"):
        if key in options:
            options[key] = tuple(p.strip() for p in options[key].split(",") if p.strip())
    try:
        if "net_arch" in options:
            if not all(w.isdigit() for w in options["net_arch"]):
                raise ValueError(
                    f"--net-arch takes layer widths like 128,128, got {args.net_arch!r}"
                )
            options["net_arch"] = tuple(int(w) for w in options["net_arch"])
        config = TrainConfig(progress=not args.quiet, **options)
    except ValueError as error:
        raise CommandError(str(error)) from error
    try:
        from training.train import train
    except ImportError as error:
        raise CommandError(f"{TRAIN_EXTRA_HINT} ({error})") from error
    _writable_folder(config.out)
    try:
        result = train(config, announce=_announce)
    except ValueError as error:
        raise CommandError(str(error).splitlines()[0]) from error
    except OSError as error:
        where = error.filename or config.out
        raise CommandError(f"cannot write to {where}: {error.strerror or error}") from error
    print(f"trained {result.timesteps} steps in {result.seconds:.0f} s; wrote "
          f"{result.out / 'policy.npz'} (arena: ppo:{result.out / 'policy.npz'})")
    if result.evaluation is not None:
        print()
        print(result.evaluation.table())


def _announce(line: str) -> None:
    """Tell the user, beside the progress bar, that training enters a new phase."""
    print(f"teenpatti train: {line}", file=sys.stderr, flush=True)


def _rules_of(args: argparse.Namespace) -> Rules:
    try:
        return Rules.preset(args.preset, variant=_variant(args.variant))
    except ValueError as error:
        raise CommandError(str(error)) from error


def _command_serve(args: argparse.Namespace) -> None:
    from interfaces.server import make_server, serve_stdio
    from interfaces.service import BotService

    try:
        service = BotService(args.agent, seed=args.seed)
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


def _agent_list(text: str | None) -> list[str]:
    return [name.strip() for name in (text or "").split(",") if name.strip()]


def _command_match(args: argparse.Namespace) -> None:
    from interfaces.match import run_match

    players = _agent_list(args.agents) + list(args.agent or [])
    if args.out:
        if os.path.isdir(args.out):
            raise CommandError(f"--out {args.out} is a folder; name a file for the JSON")
        _writable_folder(os.path.dirname(os.path.abspath(args.out)))
    try:
        result = run_match(players, _rules_of(args), hands=args.hands, seed=args.seed,
                           time_limit=args.time_limit)
    except ValueError as error:
        raise CommandError(str(error)) from error
    print(result.table())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(result.to_dict(), handle, indent=2)
            handle.write("\n")


def _command_play(args: argparse.Namespace) -> None:
    from interfaces.play import play_session
    from interfaces.table import PlayTable, check_bot_count

    bots = _agent_list(args.bots)
    try:
        check_bot_count(len(bots))
    except ValueError as error:
        raise CommandError(f"--bots: {error}") from error
    try:
        table = PlayTable(bots, _rules_of(args), hands=args.hands, seed=args.seed)
    except ValueError as error:
        raise CommandError(str(error)) from error
    names = ", ".join(f"seat {s}: {n}" for s, n in enumerate(table.names))
    print(f"Teen Patti: {names}. Type a move's key or name (b 4, chaal 4, fold), "
          "or quit.")
    play_session(table)


def _int_at_least(low: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


_positive_int = _int_at_least(1, "a positive integer")
_seed = _int_at_least(0, "an integer >= 0")


_PRESET_HELP = "the table's settings: one of the four presets of docs/rules.md"
_VARIANT_HELP = (
    f"a variant of docs/variants.md ({', '.join(VARIANTS)}) or a family special's .json/.toml "
    "file"
)


def _variant(text: str) -> Any:
    """A variant name, or the spec in a family special's file."""
    if text.lower().endswith((".json", ".toml")):
        return load_variant(text)
    return text


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Help that ends each option's text with its default, where it has one to show
    (not for flags, nor for options whose default is decided later)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)


def _add_command(commands: Any, name: str, summary: str) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` starts with ``summary`` and shows the defaults."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, help=summary, description=summary[:1].upper() + summary[1:] + ".",
        formatter_class=_HelpFormatter,
    )
    return parser


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one ``teenpatti:`` line (``teenpatti: argument
    --port: ...``) and exit status 2; ``--help`` still prints the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"teenpatti: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``teenpatti`` command."""
    parser = _Parser(
        prog="teenpatti",
        description="Teen Patti: an exact rules engine, an RL environment, agents, an arena "
                    "and bots. Run teenpatti COMMAND --help for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"teenpatti {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay_parser = _add_command(commands, "replay",
                                 "replay a hand history (JSON) and print the result as JSON")
    replay_parser.add_argument("history", help="path of a teenpatti-hand/1 JSON file")
    replay_parser.add_argument("--pretty", action="store_true", help="indent the JSON")
    replay_parser.set_defaults(run=_command_replay)

    demo = _add_command(commands, "demo",
                        "a short seeded session between the scripted agents, told hand by hand")
    demo.add_argument("--preset", default="classic", choices=Rules.PRESET_NAMES,
                      help=_PRESET_HELP)
    demo.add_argument("--variant", default="classic", help=_VARIANT_HELP)
    demo.add_argument("--players", type=int, default=4, help="seats, 3..7")
    demo.add_argument("--hands", type=_positive_int, default=5, help="hands to play at most")
    demo.add_argument("--seed", type=_seed, default=0,
                      help="seeds the first dealer, the deals and the agents: the same seed "
                           "tells the same session")
    demo.set_defaults(run=_command_demo)

    arena = _add_command(
        commands, "arena",
        "play agents head to head with duplicate dealing and report their skill",
    )
    arena.add_argument(
        "--agents",
        default="random,auto,easy,medium,hard,equity",
        help="comma-separated agents: scripted agent names, ppo:PATH (an exported policy), "
             "pretrained:NAME",
    )
    arena.add_argument("--hands", type=_positive_int, default=20_000,
                       help="hands in total, rounded up to whole deals")
    arena.add_argument("--preset", default="classic", choices=Rules.PRESET_NAMES,
                       help=_PRESET_HELP)
    arena.add_argument("--variant", default="classic", help=_VARIANT_HELP)
    arena.add_argument("--players", type=int, default=None,
                       help="seats per table, 3..7 (default: the preset's)")
    arena.add_argument("--seed", type=_seed, default=0,
                       help="seeds every deal and agent: the same seed gives the same report, "
                            "whatever the number of workers")
    arena.add_argument(
        "--workers", type=_positive_int, default=None, help="processes (default: every core)"
    )
    arena.add_argument(
        "--ray", nargs="?", const="", default=None, metavar="ADDRESS",
        help="play the deals as Ray tasks on the cluster at ADDRESS (without one: the "
             "cluster Ray finds, else a new local instance); needs the ray extra",
    )
    arena.add_argument(
        "--independent", action="store_true", help="independent deals, no duplicate dealing"
    )
    arena.add_argument(
        "--compare-plain",
        action="store_true",
        help="also play as many hands on independent deals, to measure the variance saved",
    )
    arena.add_argument(
        "--engine",
        choices=("auto", "batched", "per-table"),
        default="auto",
        help="batched: every hand on the batched engine (classic-family rules, trained "
        "policies only); per-table: through the environment; auto: batched when it can. "
        "Both give the same report for the same seed",
    )
    arena.add_argument(
        "--table", default="field", metavar="COMPOSITION",
        help="who sits at each table: field (a lineup drawn from the agents for every "
             "deal); 2v2 (two seats each of two agents, four seats; every pair of agents, "
             "each pair its own arena of --hands hands); 1vN (one seat of an agent against "
             "copies of another in every other seat; every ordered pair); AvB (A seats "
             "against B, A + B = --players). Pairs are reported with a Holm-Bonferroni "
             "adjustment over their number",
    )
    arena.add_argument("--out", default="arena-results", help="folder for arena.json/png")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.set_defaults(run=_command_arena)

    _add_train_parser(commands)
    _add_selfplay_parser(commands)
    _add_exploit_parser(commands)
    _add_interface_parsers(commands)
    return parser


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
    return int(text)


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 3600:
        raise argparse.ArgumentTypeError(f"expected seconds above 0, got {text!r}")
    return value


def _add_interface_parsers(commands: Any) -> None:
    serve = _add_command(
        commands, "serve", "serve a bot over HTTP (teenpatti-bot/1, plus a web table) or stdio"
    )
    serve.add_argument("--agent", default="pretrained:classic",
                       help="the agent that answers (a scripted agent, ppo:PATH, "
                            "pretrained:NAME)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=_port, default=8000, help="port (0: any free port)")
    serve.add_argument("--stdio", action="store_true",
                       help="answer JSON lines on stdin/stdout instead of HTTP")
    serve.add_argument("--seed", type=_seed, default=0,
                       help="seeds the agents' own random choices, per table and seat")
    serve.add_argument("--verbose", action="store_true", help="log every HTTP request")
    serve.add_argument("--max-connections", type=_positive_int,
                       help="connections served at once; one more is answered 503 busy "
                            "(default 64)")
    serve.add_argument("--request-timeout", type=_positive_seconds,
                       help="seconds a request has in all to arrive, and again to take its "
                            "answer (default 10)")
    serve.set_defaults(run=_command_serve)

    match = _add_command(
        commands, "match", "a session between local agents and remote bots, with a turn timer"
    )
    match.add_argument("--agents", help="comma-separated players, one per seat: agent names, "
                       "ppo:PATH, pretrained:NAME, http://HOST:PORT, stdio:COMMAND, absent")
    match.add_argument("--agent", action="append",
                       help="one more player (for a stdio:COMMAND holding commas)")
    _add_table_options(match, hands=100)
    match.add_argument("--time-limit", type=_positive_seconds, default=5.0,
                       help="seconds a remote bot has per turn")
    match.add_argument("--out", help="also write the result as JSON to this file")
    match.set_defaults(run=_command_match)

    play = _add_command(commands, "play", "play a session in the terminal against bots")
    play.add_argument("--bots", default="hard,equity,pretrained:classic",
                      help="comma-separated bots, 2 to 6, one per seat after yours")
    _add_table_options(play, hands=10)
    play.set_defaults(run=_command_play)


def _add_table_options(parser: argparse.ArgumentParser, hands: int) -> None:
    """The table a session is played at: --hands, --preset, --variant, --seed."""
    parser.add_argument("--hands", type=_positive_int, default=hands, help="hands at most")
    parser.add_argument("--preset", default="classic", choices=Rules.PRESET_NAMES,
                        help=_PRESET_HELP)
    parser.add_argument("--variant", default="classic", help=_VARIANT_HELP)
    parser.add_argument("--seed", type=_seed, default=0,
                        help="seeds the first dealer, the deals and the local agents: the "
                             "same seed deals the same session")


def _add_train_parser(commands: Any) -> None:
    from training.config import TrainConfig

    defaults = TrainConfig()
    train = _add_command(
        commands, "train",
        "train MaskablePPO against the scripted agents and itself (needs the train extra)",
    )
    # The defaults live in TrainConfig (so that --resume and the recorded command agree);
    # argparse's stay None and the help names TrainConfig's.
    train.add_argument("--preset", choices=Rules.PRESET_NAMES,
                       help=f"{_PRESET_HELP} (default: {defaults.preset})")
    train.add_argument("--players", type=int, help="seats, 3..7 (default: the preset's)")
    train.add_argument("--timesteps", type=_positive_int,
                       help=f"learner decisions (default: {defaults.timesteps})")
    train.add_argument("--out", help=f"output folder (default: {defaults.out})")
    train.add_argument("--seed", type=_seed,
                       help="seeds the network, the environments' deals and the opponents: "
                            f"the same seed trains the same weights (default: {defaults.seed})")
    train.add_argument("--envs", type=_positive_int,
                       help=f"environments stepped together (default: {defaults.envs})")
    train.add_argument("--vec", choices=("dummy", "subproc"),
                       help="dummy: one process; subproc: a process per environment "
                            f"(default: {defaults.vec})")
    train.add_argument("--opponents", help="comma-separated scripted agents of the pool "
                       "(default: all six)")
    train.add_argument("--self-play-share", type=float,
                       help=f"share of opponents that are snapshots (default: "
                            f"{defaults.self_play_share})")
    for name, what in (
        ("snapshot-every", "steps between self-play snapshots"),
        ("max-snapshots", "snapshots kept in the pool"),
        ("eval-every", "steps between arena evaluations (0: only at the end)"),
        ("eval-hands", "hands per evaluation"),
        ("final-eval-hands", "hands of the final evaluation (0: none)"),
        ("checkpoint-every", "steps between checkpoints (0: none)"),
    ):
        default = getattr(defaults, name.replace("-", "_"))
        train.add_argument(f"--{name}", type=_seed, help=f"{what} (default: {default})")
    train.add_argument("--net-arch", help="hidden layer widths (default: "
                       f"{','.join(str(width) for width in defaults.net_arch)})")
    for name, kind, what in (
        ("learning-rate", float, "Adam's step size"),
        ("n-steps", _positive_int, "decisions per environment in each rollout"),
        ("batch-size", _positive_int, "decisions per gradient step"),
        ("n-epochs", _positive_int, "passes over each rollout"),
        ("gae-lambda", float, "GAE's lambda"),
        ("ent-coef", float, "weight of the entropy bonus"),
        ("clip-range", float, "PPO's clip range"),
    ):
        default = getattr(defaults, name.replace("-", "_"))
        train.add_argument(f"--{name}", type=kind, help=f"{what} (default: {default})")
    train.add_argument("--normalize-reward", action=argparse.BooleanOptionalAction,
                       help="scale rewards by the returns' running spread (default: on)")
    train.add_argument("--warm-start", help="scripted agent to imitate before PPO, or none "
                       f"(default: {defaults.warm_start})")
    train.add_argument("--warm-start-decisions", type=_seed,
                       help="teacher decisions to imitate "
                            "(default: a sixth of --timesteps, 1,000 to 50,000)")
    train.add_argument("--warm-start-epochs", type=_seed,
                       help=f"passes over them (default: {defaults.warm_start_epochs})")
    train.add_argument("--stop-when-beating", help="comma-separated scripted agents: stop at "
                       "the first evaluation that beats them all (95%% interval above 0) (default: "
                       "none, train for --timesteps)")
    train.add_argument("--resume", help="a checkpoint .zip to continue from")
    train.add_argument("--quiet", action="store_true", help="no progress bar")
    train.set_defaults(run=_command_train)


SELFPLAY_HELP = {
    "preset": "the table (a preset name)",
    "players": "seats, 3..7 (default: the preset's)",
    "timesteps": "learner decisions to train on",
    "tables": "tables stepped together on the batched engine",
    "rollout_steps": "engine steps per rollout",
    "epochs": "passes over each rollout",
    "minibatch_size": "decisions per gradient step",
    "learning_rate": "Adam's step size (annealed to 5%% with --anneal-lr)",
    "anneal_lr": "anneal the learning rate linearly",
    "gae_lambda": "GAE's lambda",
    "clip_range": "PPO's clip range",
    "ent_coef": "weight of the entropy bonus",
    "vf_coef": "weight of the value loss",
    "max_grad_norm": "gradient norm clip",
    "reward_scale": "factor from boots to value targets",
    "hidden": "hidden layer widths",
    "activation": "tanh or relu",
    "self_play_share": "share of hands where every seat is the current policy",
    "snapshot_every": "decisions between frozen snapshots joining the pool",
    "max_snapshots": "snapshots kept in the pool",
    "exploiter_every": "decisions between exploiters (0: none)",
    "exploiter_steps": "decisions each exploiter trains for",
    "max_exploiters": "exploiters kept in the pool",
    "exploiter_learning_rate": "the exploiters' constant step size",
    "exploiter_table_share": "share of hands (once exploiters exist) with one exploiter "
                             "seat and the learner in every other",
    "uniform_table_share": "share of hands with one learner seat and the uniform random "
                           "policy in every other",
    "seed": "seeds the network, the deals and the seat plans",
    "device": "auto (CUDA when torch sees one), cpu, cuda or cuda:N",
    "threads": "torch threads on the CPU (default: every core)",
    "out": "output folder",
    "checkpoint_every": "decisions between checkpoints",
    "resume": "a checkpoint.pt to continue from",
    "init_from": "a trained policy (ppo:PATH, pretrained:NAME) to start the network from",
}


def _add_selfplay_parser(commands: Any) -> None:
    import dataclasses

    from training.config import SelfPlayConfig

    defaults = SelfPlayConfig()
    parser = _add_command(
        commands, "selfplay",
        "train a policy from scratch by self-play PPO on the batched engine (needs the "
        "train extra)",
    )
    for item in dataclasses.fields(SelfPlayConfig):
        if item.name == "progress":
            continue
        flag = "--" + item.name.replace("_", "-")
        default = getattr(defaults, item.name)
        what = f"{SELFPLAY_HELP[item.name]} (default: {default})"
        if isinstance(default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, help=what)
        elif isinstance(default, tuple):
            parser.add_argument(flag, type=_positive_int, nargs="+", help=what)
        elif isinstance(default, float):
            parser.add_argument(flag, type=float, help=what)
        elif isinstance(default, int) or item.name in ("players", "threads"):
            parser.add_argument(flag, type=_seed, help=what)
        else:
            parser.add_argument(flag, help=what)
    parser.add_argument("--evaluate", action="store_true",
                        help="after training: the policy against every scripted agent at 2v2 "
                             "and 1vN tables, and its approximate exploitability next to "
                             "hard's and equity's")
    parser.add_argument("--eval-hands", type=_positive_int, default=2_000,
                        help="duplicate hands per pairing of --evaluate")
    parser.add_argument("--exploit-budget", type=_positive_int, default=100_000,
                        help="decisions each best response of --evaluate trains for")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=_command_selfplay)


def _command_selfplay(args: argparse.Namespace) -> None:
    from training.config import SelfPlayConfig

    options = {key: value for key, value in vars(args).items()
               if key not in ("command", "run", "quiet", "evaluate", "eval_hands",
                              "exploit_budget") and value is not None}
    if "hidden" in options:
        options["hidden"] = tuple(options["hidden"])
    try:
        config = SelfPlayConfig(progress=not args.quiet, **options)
    except ValueError as error:
        raise CommandError(str(error)) from error
    try:
        from training.selfplay import train_selfplay
    except ImportError as error:
        raise CommandError(f"{TRAIN_EXTRA_HINT} ({error})") from error
    _writable_folder(config.out)

    def say(line: str) -> None:
        print(f"teenpatti selfplay: {line}", file=sys.stderr, flush=True)

    try:
        result = train_selfplay(config, say=say)
        policy = result.out / "policy.npz"
        print(f"trained {result.decisions:,} decisions in {result.seconds:.0f} s "
              f"({result.steps_per_second:,.0f} learner steps/s); wrote {policy} "
              f"(arena: ppo:{policy})", flush=True)
        if args.evaluate:
            from training.evaluation import evaluate_policy

            evaluation = evaluate_policy(
                f"ppo:{policy}", preset=config.preset, players=config.players,
                hands=args.eval_hands, exploit_budget=args.exploit_budget,
                exploit_hands=args.eval_hands, device=config.device, threads=config.threads,
                say=say,
                curve_path=str(result.out / "exploitability.png"))
            print()
            print(evaluation.text())
            print(f"\nwrote the best-response curves to {result.out / 'exploitability.png'}")
    except ValueError as error:
        raise CommandError(str(error).splitlines()[0]) from error
    except OSError as error:
        where = error.filename or config.out
        raise CommandError(f"cannot write to {where}: {error.strerror or error}") from error


def _add_exploit_parser(commands: Any) -> None:
    parser = _add_command(
        commands, "exploit",
        "approximate exploitability: train a best response against an agent and measure "
        "what it wins (needs the train extra)",
    )
    parser.add_argument("--agent", required=True,
                        help="the target: a scripted agent name, ppo:PATH or pretrained:NAME")
    parser.add_argument("--players", type=int, default=None,
                        help="seats, 3..7 (default: the preset's)")
    parser.add_argument("--preset", default="classic", choices=Rules.PRESET_NAMES,
                        help=_PRESET_HELP)
    parser.add_argument("--budget-steps", type=_positive_int, default=2_000_000,
                        help="decisions the best response trains for")
    parser.add_argument("--hands", type=_positive_int, default=20_000,
                        help="duplicate hands of the final measurement")
    parser.add_argument("--seed", type=_seed, default=0,
                        help="seeds the best response's training; the measurement's deals "
                             "come from a seed apart from it")
    parser.add_argument("--device", default="auto",
                        help="auto (CUDA when torch sees one), cpu, cuda or cuda:N")
    parser.add_argument("--workers", type=_positive_int, default=None,
                        help="processes for the measurement (default: every core)")
    parser.add_argument("--threads", type=_positive_int, default=None,
                        help="torch threads on the CPU (default: every core; 1 is much "
                             "faster on a busy machine)")
    parser.add_argument("--out", default="exploit-results",
                        help="folder for exploit.json, the curve (exploit.png) and the best "
                             "response (best_response.npz)")
    parser.add_argument("--start-from", default=None, metavar="POLICY",
                        help="a trained policy (ppo:PATH, pretrained:NAME) the best response "
                             "starts from (default: from scratch)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (agent, mean, low, high, ...) instead "
                             "of a sentence")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=_command_exploit)


def _command_exploit(args: argparse.Namespace) -> None:
    try:
        from training.exploit import approximate_exploitability
    except ImportError as error:
        raise CommandError(f"{TRAIN_EXTRA_HINT} ({error})") from error
    _writable_folder(args.out)
    try:
        report = approximate_exploitability(
            args.agent, players=args.players, budget_steps=args.budget_steps,
            hands=args.hands, seed=args.seed, preset=args.preset, device=args.device,
            workers=args.workers, progress=not args.quiet and not args.json,
            save_policy=os.path.join(args.out, "best_response.npz"),
            start_from=args.start_from, threads=args.threads,
        )
    except ValueError as error:
        raise CommandError(str(error).splitlines()[0]) from error
    try:
        with open(os.path.join(args.out, "exploit.json"), "w") as handle:
            json.dump(report.to_dict(), handle, indent=2)
        report.plot(os.path.join(args.out, "exploit.png"))
    except OSError as error:
        raise CommandError(f"cannot write to {args.out}: {error.strerror or error}") from error
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(report.summary())
        print(f"wrote {os.path.join(args.out, 'exploit.json')} and "
              f"{os.path.join(args.out, 'exploit.png')}")


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


if __name__ == "__main__":
    sys.exit(main())
