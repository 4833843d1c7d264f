"""``teenpatti train`` and ``teenpatti selfplay``: the two trainers (the train extra)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from interfaces.cli.common import (
    PRESET_HELP,
    TRAIN_EXTRA_HINT,
    CommandError,
    add_command,
    non_negative_int,
    positive_int,
    writable_folder,
)
from teenpatti_env.rules import Rules


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
    writable_folder(config.out)
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


def _add_train_parser(commands: Any) -> None:
    from training.config import TrainConfig

    defaults = TrainConfig()
    train = add_command(
        commands, "train",
        "train MaskablePPO against the scripted agents and itself (needs the train extra)",
    )
    # The defaults live in TrainConfig (so that --resume and the recorded command agree);
    # argparse's stay None and the help names TrainConfig's.
    train.add_argument("--preset", choices=Rules.PRESET_NAMES,
                       help=f"{PRESET_HELP} (default: {defaults.preset})")
    train.add_argument("--players", type=int, help="seats, 3..7 (default: the preset's)")
    train.add_argument("--timesteps", type=positive_int,
                       help=f"learner decisions (default: {defaults.timesteps})")
    train.add_argument("--out", help=f"output folder (default: {defaults.out})")
    train.add_argument("--seed", type=non_negative_int,
                       help="seeds the network, the environments' deals and the opponents: "
                            f"the same seed trains the same weights (default: {defaults.seed})")
    train.add_argument("--envs", type=positive_int,
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
        train.add_argument(f"--{name}", type=non_negative_int, help=f"{what} (default: {default})")
    train.add_argument("--net-arch", help="hidden layer widths (default: "
                       f"{','.join(str(width) for width in defaults.net_arch)})")
    for name, kind, what in (
        ("learning-rate", float, "Adam's step size"),
        ("n-steps", positive_int, "decisions per environment in each rollout"),
        ("batch-size", positive_int, "decisions per gradient step"),
        ("n-epochs", positive_int, "passes over each rollout"),
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
    train.add_argument("--warm-start-decisions", type=non_negative_int,
                       help="teacher decisions to imitate "
                            "(default: a sixth of --timesteps, 1,000 to 50,000)")
    train.add_argument("--warm-start-epochs", type=non_negative_int,
                       help=f"passes over them (default: {defaults.warm_start_epochs})")
    train.add_argument("--stop-when-beating", help="comma-separated scripted agents: stop at "
                       "the first evaluation that beats them all (95%% interval above 0) (default: "
                       "none, train for --timesteps)")
    train.add_argument("--resume", help="a checkpoint .zip to continue from")
    train.add_argument("--quiet", action="store_true", help="no progress bar")
    train.set_defaults(run=_command_train)


SELFPLAY_HELP = {
    "preset": "the table (a preset name)",
    "variant": "the variant played (a name of docs/variants.md; the batched engine plays "
               "every one)",
    "players": "seats, 3..7 (default: the preset's)",
    "episode": "hand (every hand from the starting stacks) or session (stacks carried from "
               "hand to hand until the session ends, docs/selfplay.md)",
    "max_hands": "with --episode session: the sessions' hand limit (none: the preset's; "
                 "classic has none)",
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
    "exploiter_kinds": "what the exploiters are, in turn: ppo (a copy of the policy trained "
                       "against it), search (a rule strategy searched against it)",
    "league_search": "the budget of each searched exploiter: short, or full (teenpatti "
                     "exploit's search); each tries what the run's earlier searches found "
                     "first",
    "rule_opponents": "rule strategies in the pool for the whole run, seated as exploiters: "
                      "style names (tight, loose, blind-heavy, show-happy, reads-the-table, "
                      "plain) or rule: specs",
    "scripted_opponents": "scripted agents in the pool for the whole run, seated as the rule "
                          "opponents are (--table-mix single)",
    "exploiter_learning_rate": "the exploiters' constant step size",
    "exploiter_table_share": "share of hands (once exploiters exist) with one exploiter "
                             "seat and the learner in every other",
    "uniform_table_share": "share of hands with one learner seat and the uniform random "
                           "policy in every other",
    "seed": "seeds the network, the deals and the seat plans",
    "device": "auto (CUDA when torch sees one), cpu, cuda or cuda:N",
    "shards": "row shards each forward pass and minibatch is computed in; the weights "
              "depend on it (docs/selfplay.md#training-speed)",
    "threads": "CPU threads computing the shards, one torch thread each; only the speed "
               "depends on it",
    "out": "output folder",
    "checkpoint_every": "decisions between checkpoints",
    "resume": "a checkpoint.pt to continue from",
    "init_from": "a trained policy (ppo:PATH, pretrained:NAME) to start the network from",
    "ray": "train on Ray: rollout workers on the cluster at ADDRESS (no address: the one "
           "RAY_ADDRESS names, else a new local instance), the update here; needs the ray "
           "extra (docs/ray.md)",
    "rollout_workers": "Ray rollout workers, each stepping its own --tables tables (one CPU "
                       "each)",
    "table_mix": "single (the --preset table) or general (one teenpatti-policy/2 network "
                 "for 3-7 seats, every preset and the named variants but dealer's choice, "
                 "docs/selfplay.md)",
}


def _add_selfplay_parser(commands: Any) -> None:
    import dataclasses

    from agents import SCRIPTED_AGENTS
    from teenpatti_env.engine.session import EPISODES
    from training.config import EXPLOITER_KINDS, LEAGUE_SEARCH_NAMES, SelfPlayConfig

    defaults = SelfPlayConfig()
    parser = add_command(
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
        if item.name == "ray":
            parser.add_argument(flag, nargs="?", const="", metavar="ADDRESS", help=what)
        elif isinstance(default, bool):
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, help=what)
        elif item.name == "rule_opponents":
            parser.add_argument(flag, nargs="+", metavar="STRATEGY", help=what)
        elif item.name == "scripted_opponents":
            parser.add_argument(flag, nargs="+", choices=list(SCRIPTED_AGENTS), metavar="AGENT",
                                help=what)
        elif item.name == "league_search":
            parser.add_argument(flag, choices=LEAGUE_SEARCH_NAMES, help=what)
        elif isinstance(default, tuple) and isinstance(default[0], str):
            parser.add_argument(flag, nargs="+", choices=EXPLOITER_KINDS, help=what)
        elif isinstance(default, tuple):
            parser.add_argument(flag, type=positive_int, nargs="+", help=what)
        elif isinstance(default, float):
            parser.add_argument(flag, type=float, help=what)
        elif item.name == "episode":
            parser.add_argument(flag, choices=EPISODES, help=what)
        elif isinstance(default, int) or item.name in ("players", "threads", "max_hands"):
            parser.add_argument(flag, type=non_negative_int, help=what)
        else:
            parser.add_argument(flag, help=what)
    parser.add_argument("--evaluate", action="store_true",
                        help="after training: the policy against every scripted agent at 2v2 "
                             "and 1vN tables, and its approximate exploitability next to "
                             "hard's and equity's (a general run: at the --preset and "
                             "--players table)")
    parser.add_argument("--eval-hands", type=positive_int, default=2_000,
                        help="duplicate hands per pairing of --evaluate")
    parser.add_argument("--exploit-budget", type=positive_int, default=100_000,
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
    writable_folder(config.out)

    def say(line: str) -> None:
        print(f"teenpatti selfplay: {line}", file=sys.stderr, flush=True)

    try:
        result = train_selfplay(config, say=say)
        policy = result.out / "policy.npz"
        print(f"trained {result.decisions:,} decisions in {result.seconds:.0f} s "
              f"({result.steps_per_second:,.0f} learner steps/s); wrote {policy} "
              f"(arena: ppo:{policy})", flush=True)
        if args.evaluate:
            _evaluate(args, config, result.out, say)
        print("\n" + "\n".join(next_steps(policy, config.preset, config.players,
                                            config.variant)))
    except ValueError as error:
        raise CommandError(str(error).splitlines()[0]) from error
    except OSError as error:
        where = error.filename or config.out
        raise CommandError(f"cannot write to {where}: {error.strerror or error}") from error


def _evaluate(args: argparse.Namespace, config: Any, out: Any,
              say: Any) -> None:
    """``--evaluate``: print the evaluation and write it to the run folder."""
    from training.evaluation import evaluate_policy

    evaluation = evaluate_policy(
        f"ppo:{out / 'policy.npz'}", preset=config.preset, players=config.players,
        hands=args.eval_hands, exploit_budget=args.exploit_budget,
        exploit_hands=args.eval_hands, device=config.device, threads=config.threads,
        say=say, curve_path=str(out / "exploitability.png"))
    print()
    print(evaluation.text())
    markdown, report = evaluation.write(out)
    print(f"\nwrote the report to {markdown} and {report}, the best-response curves to "
          f"{out / 'exploitability.png'}")


def next_steps(policy: Any, preset: str, players: int | None,
               variant: str = "classic") -> list[str]:
    """The literal commands that evaluate, serve and play the trained ``policy`` (at the
    table it was trained for)."""
    import shlex

    agent = shlex.quote(f"ppo:{policy}")
    chosen = f" --preset {preset}" if preset != "classic" else ""
    table = chosen + (f" --players {players}" if players is not None else "")
    if variant != "classic":
        chosen += f" --variant {shlex.quote(variant)}"
        table += f" --variant {shlex.quote(variant)}"
    exploit = f"            teenpatti exploit --agent {agent} --threads 1{table}"
    seats = Rules.preset(preset, **({} if players is None else
                                    {"num_players": players})).num_players
    others = ",".join(["hard", "equity", "medium", "easy", "random", "auto"][:seats - 2])
    return [
        "next steps with this policy:",
        f"  evaluate: teenpatti arena --agents {agent},hard,equity --hands 2000{table}",
        exploit,
        f"  serve:    teenpatti serve --agent {agent}   (it answers POST "
        "http://127.0.0.1:8000/v1/act)",
        f"  play:     teenpatti play --bots {agent},{others}{chosen}",  # a seat per bot
    ]


def add_parsers(commands: Any) -> None:
    """``train`` and ``selfplay``."""
    _add_train_parser(commands)
    _add_selfplay_parser(commands)
