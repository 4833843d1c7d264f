"""The settings of a training run (importable without torch, for the command line)."""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
from dataclasses import dataclass

from agents import SCRIPTED_AGENTS
from agents.rule_strategy import named_setting
from teenpatti_env.engine.session import EPISODES
from teenpatti_env.rules import Rules
from training.pool import OpponentPool

VEC_ENVS = ("dummy", "subproc")


@dataclass
class TrainConfig:
    """Everything a training run depends on; the same config and seed give the same run."""

    preset: str = "classic"
    players: int | None = None
    """Seats at the table (default: the preset's)."""
    timesteps: int = 300_000
    """Learner decisions to train on."""
    out: str = "training-runs/classic"
    seed: int = 0
    envs: int = 8
    """Environments stepped together (one batch through the network per step)."""
    vec: str = "dummy"
    """``dummy`` steps the environments in this process; ``subproc`` in one process each."""
    opponents: tuple[str, ...] = tuple(SCRIPTED_AGENTS)
    self_play_share: float = 0.2
    warm_start: str | None = "equity"
    """A scripted agent the policy imitates before PPO starts (``None``: start uniform);
    see :mod:`training.imitation`."""
    warm_start_decisions: int | None = None
    """Teacher decisions to imitate; ``None``: a sixth of ``timesteps``, at least 1,000
    and at most 50,000 (see :attr:`warm_start_size`)."""
    warm_start_epochs: int = 5
    snapshot_every: int = 50_000
    max_snapshots: int = 5
    eval_every: int = 100_000
    """Learner decisions between arena evaluations (0: only at the end)."""
    eval_hands: int = 2_000
    final_eval_hands: int = 4_000
    checkpoint_every: int = 100_000
    stop_when_beating: tuple[str, ...] = ()
    """Stop early at the first evaluation where the learner beats each of these agents
    with the whole 95% interval above zero (needs ``eval_every``)."""
    net_arch: tuple[int, ...] = (128, 128)
    learning_rate: float = 3e-4
    n_steps: int = 256
    """Decisions per environment in each rollout."""
    batch_size: int = 512
    n_epochs: int = 4
    gae_lambda: float = 0.95
    ent_coef: float = 0.05
    normalize_reward: bool = True
    """Scale rewards by a running estimate of the returns' spread while learning (the
    value targets; the policy's credit is unchanged)."""
    clip_range: float = 0.2
    progress: bool = True
    resume: str | None = None
    """A checkpoint (``.zip``) to continue from."""

    def __post_init__(self) -> None:
        _ = self.rules  # an unknown preset or a bad number of seats fails here
        self.opponents = tuple(self.opponents)
        self.stop_when_beating = tuple(self.stop_when_beating)
        if self.warm_start is not None and self.warm_start not in SCRIPTED_AGENTS:
            raise ValueError(f"warm_start names a scripted agent, got {self.warm_start!r}")
        for name in self.stop_when_beating:
            if name not in SCRIPTED_AGENTS:
                raise ValueError(f"stop_when_beating names scripted agents, got {name!r}")
        self.net_arch = tuple(int(w) for w in self.net_arch)
        check_ints(self, ("timesteps", "envs", "n_steps", "batch_size", "n_epochs"), 1)
        if self.warm_start_decisions is not None and (
            not isinstance(self.warm_start_decisions, int)
            or isinstance(self.warm_start_decisions, bool)
            or self.warm_start_decisions < 0
        ):
            raise ValueError(
                f"warm_start_decisions must be an int >= 0, got {self.warm_start_decisions!r}"
            )
        check_ints(self, ("warm_start_epochs", "snapshot_every", "eval_every",
                          "checkpoint_every", "eval_hands", "final_eval_hands", "seed"), 0)
        if self.vec not in VEC_ENVS:
            raise ValueError(f"vec must be one of {', '.join(VEC_ENVS)}, got {self.vec!r}")
        if not self.net_arch or min(self.net_arch) < 1:
            raise ValueError(f"net_arch needs positive layer widths, got {self.net_arch!r}")
        if self.batch_size < 2 or (self.n_steps * self.envs) % self.batch_size == 1:
            # MaskablePPO normalises each minibatch's advantages: one sample gives NaN.
            raise ValueError(
                f"batch_size must be at least 2 and leave no minibatch of one sample "
                f"(n_steps * envs = {self.n_steps * self.envs}, batch_size = {self.batch_size})"
            )
        if self.warm_start is not None and self.warm_start_size < 1:
            raise ValueError("warm_start_decisions must be at least 1 (or warm_start=None)")
        if self.warm_start is not None and self.warm_start_epochs < 1:
            raise ValueError("warm_start_epochs must be at least 1 (or warm_start=None)")
        if self.eval_every and self.eval_hands < 1:
            raise ValueError("eval_hands must be at least 1 when eval_every is set")
        if self.stop_when_beating and not (self.eval_every and self.eval_hands):
            raise ValueError("stop_when_beating needs periodic evaluations (eval_every > 0)")
        checks = {
            "learning_rate": 0 < self.learning_rate < 1,
            "clip_range": 0 < self.clip_range <= 1,
            "gae_lambda": 0 <= self.gae_lambda <= 1,
            "ent_coef": 0 <= self.ent_coef < 1,
        }
        for name, ok in checks.items():
            if not ok:  # NaN fails every comparison
                raise ValueError(f"{name} is out of range: {getattr(self, name)!r}")
        OpponentPool(self.opponents, self.self_play_share, self.max_snapshots)

    @property
    def warm_start_size(self) -> int:
        """The number of teacher decisions the warm start imitates."""
        if self.warm_start_decisions is not None:
            return self.warm_start_decisions
        return min(50_000, max(1_000, self.timesteps // 6))

    @property
    def rules(self) -> Rules:
        if self.players is None:
            return Rules.preset(self.preset)
        return Rules.preset(self.preset, num_players=self.players)

    def command(self) -> str:
        """The ``teenpatti train`` command line of this config (its non-default options)."""
        return command_line("train", self, TrainConfig(), comma_lists=True)


def check_ints(config: object, names: tuple[str, ...], minimum: int) -> None:
    """A ``ValueError`` unless each named setting is an int (not a bool) >= ``minimum``
    (0 or 1)."""
    for name in names:
        value = getattr(config, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            wanted = "a positive int" if minimum == 1 else "an int >= 0"
            raise ValueError(f"{name} must be {wanted}, got {value!r}")


def command_line(subcommand: str, config: object, defaults: object, comma_lists: bool) -> str:
    """``teenpatti SUBCOMMAND`` with ``config``'s settings that differ from ``defaults``
    (``progress`` aside): a bool as ``--flag`` or ``--no-flag``, ``None`` as ``none``, a
    tuple as one comma-joined word (``comma_lists``) or one word per item."""
    parts = ["teenpatti", subcommand]
    for option, value in dataclasses.asdict(config).items():  # type: ignore[call-overload]
        if option == "progress" or value == getattr(defaults, option):
            continue
        flag = "--" + option.replace("_", "-")
        if isinstance(value, bool):
            parts.append(flag if value else flag.replace("--", "--no-", 1))
        elif isinstance(value, (tuple, list)):
            items = [str(v) for v in value]
            parts += [flag, *([",".join(items)] if comma_lists else items)]
        else:
            parts += [flag, "none" if value is None else str(value)]
    return " ".join(shlex.quote(part) for part in parts)


TABLE_MIXES = ("single", "general")
"""What tables a self-play run trains at (``SelfPlayConfig.table_mix``)."""
EXPLOITER_KINDS = ("ppo", "search")
"""The kinds of exploiter a self-play league can train."""
LEAGUE_SEARCH_NAMES = ("short", "full")
"""The budgets of a league's searched exploiters (``SelfPlayConfig.league_search``)."""


@dataclass
class SelfPlayConfig:
    """Everything a self-play run depends on; the same config gives the same weights with
    the same torch on the same kind of CPU (docs/selfplay.md says what else varies)."""

    preset: str = "classic"
    players: int | None = None
    """Seats at the table (default: the preset's)."""
    variant: str = "classic"
    """The variant played (docs/variants.md; one the batched engine plays)."""
    episode: str = "hand"
    """``hand``: every table plays one hand an episode, every seat from the starting stack;
    ``session``: every table plays sessions (stacks carried from hand to hand, busted seats
    out, until the session's end), each hand's result the learner's reward at that hand's
    end and the session's end the episode's (docs/selfplay.md)."""
    max_hands: int | None = None
    """With ``episode="session"``: the sessions' hand limit (default: the preset's; the
    classic preset has none, a session then lasts until one seat is left)."""
    timesteps: int = 6_000_000
    """Learner decisions to train on (the exploiters' decisions not counted)."""
    tables: int = 1024
    rollout_steps: int = 64
    """Engine steps per rollout: about ``tables * rollout_steps`` learner decisions."""
    epochs: int = 2
    minibatch_size: int = 8192
    learning_rate: float = 1e-3
    anneal_lr: bool = True
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    reward_scale: float = 0.1
    """Rewards (boots) are multiplied by this for the value targets."""
    hidden: tuple[int, ...] = (128, 128)
    activation: str = "tanh"
    self_play_share: float = 0.4
    """Share of the hands where every seat is the current policy."""
    snapshot_every: int = 500_000
    max_snapshots: int = 8
    exploiter_every: int = 500_000
    """Learner decisions between exploiters (0: no exploiters)."""
    exploiter_steps: int = 150_000
    max_exploiters: int = 4
    exploiter_kinds: tuple[str, ...] = ("ppo",)
    """What each exploiter is, in turn: ``ppo`` (a copy of the policy trained against it)
    or ``search`` (the rule strategy a short search finds against it,
    :mod:`training.league_search`)."""
    league_search: str = "short"
    """The budget of each searched exploiter: ``short`` (a random round of 32 settings and
    three rounds of 16, :data:`training.league_search.LEAGUE_SEARCH`) or ``full`` (the
    search ``teenpatti exploit`` measures with). Each search also tries every setting the
    run's earlier searches found and the rule opponents first."""
    rule_opponents: tuple[str, ...] = ()
    """Rule strategies in the pool for the whole run, seated as exploiters are (greedy, at
    exploiter tables too): style names of :data:`agents.rule_strategy.STYLES`
    (``tight``, ``loose``, ``blind-heavy``, ``show-happy``, ...) or ``rule:`` specs."""
    scripted_opponents: tuple[str, ...] = ()
    """Scripted agents (:data:`agents.SCRIPTED_AGENTS`, such as ``hard`` and ``equity``) in
    the pool for the whole run, seated as the rule opponents are, each by its batched form
    (at one table kind only, one-hand episodes or sessions). A name given twice sits twice
    as often (one agent plays both places)."""
    exploiter_learning_rate: float = 1e-3
    """The exploiters' Adam step size, constant (the step size of ``teenpatti exploit``'s
    best responses)."""
    exploiter_table_share: float = 0.3
    """Share of the hands, once the pool holds exploiters, where one seat is an exploiter
    and every other seat the learner."""
    uniform_table_share: float = 0.15
    """Share of the hands where one seat is the learner and every other seat the uniform
    random policy (the first member of a PSRO population)."""
    seed: int = 0
    device: str = "auto"
    """``auto`` (CUDA where there is one), ``cpu``, ``cuda`` or ``cuda:N``."""
    shards: int = 2
    """Row shards each forward pass and PPO minibatch is computed in, their results put
    together in order (:mod:`training.shards`). The weights depend on it, not on
    ``threads``."""
    threads: int | None = 2
    """CPU threads computing the shards, each with one torch thread (``None``: one per
    core; more than ``shards`` adds nothing). Only the speed depends on it
    (``benchmarks/bench_train.py``, docs/selfplay.md#training-speed)."""
    out: str = "training-runs/selfplay"
    checkpoint_every: int = 5_000_000
    progress: bool = True
    resume: str | None = None
    """A ``checkpoint.pt`` to continue from."""
    init_from: str | None = None
    """A trained policy (``ppo:PATH``, ``pretrained:NAME``) whose weights the network starts
    from (its value head starts fresh); default: from scratch."""
    ray: str | None = None
    """Train on Ray (:mod:`training.selfplay_ray`): the cluster's address (``""``: the
    cluster ``RAY_ADDRESS`` names, else a new local instance); ``None``: in this process."""
    rollout_workers: int = 1
    """Ray rollout workers, each stepping its own ``tables`` tables (with ``ray`` only)."""
    table_mix: str = "single"
    """``single``: every table is ``preset`` at ``players`` seats; ``general``: one
    ``teenpatti-policy/2`` network for every table of its mixture (the classic family and
    the named variants, the selection phases and buying a joker among them, on the padded
    actions), each group of tables drawing its kind from a mixture
    (:mod:`training.general`)."""

    def __post_init__(self) -> None:
        if self.table_mix not in TABLE_MIXES:
            raise ValueError(f"table_mix must be one of {', '.join(TABLE_MIXES)}, "
                             f"got {self.table_mix!r}")
        if self.table_mix == "general" and self.variant != "classic":
            raise ValueError("table_mix general trains at its mixture's table kinds (the "
                             "variants among them); leave out "
                             f"variant={self.variant!r} (or use table_mix single)")
        if self.episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, "
                             f"got {self.episode!r}")
        if self.max_hands is not None:
            check_ints(self, ("max_hands",), 1)
            if self.episode != "session":
                raise ValueError("max_hands limits the sessions of episode session; "
                                 f"got it with episode {self.episode!r}")
        if self.table_mix == "general" and self.episode != "hand":
            raise ValueError("table_mix general trains on one-hand episodes (its mixture "
                             "has short-stack kinds); use episode session with table_mix "
                             "single")
        if self.table_mix == "general" and self.ray is not None:
            raise ValueError("table_mix general trains in this process only, not on Ray yet")
        self.hidden = tuple(int(width) for width in self.hidden)
        if self.league_search not in LEAGUE_SEARCH_NAMES:
            raise ValueError(f"league_search must be one of {', '.join(LEAGUE_SEARCH_NAMES)}, "
                             f"got {self.league_search!r}")
        self.rule_opponents = tuple(self.rule_opponents)
        for name in self.rule_opponents:
            named_setting(name)  # an unknown style or a bad spec fails here
        self.scripted_opponents = tuple(self.scripted_opponents)
        unknown = [name for name in self.scripted_opponents if name not in SCRIPTED_AGENTS]
        if unknown:
            raise ValueError(f"scripted_opponents names scripted agents "
                             f"({', '.join(SCRIPTED_AGENTS)}), got {unknown[0]!r}")
        if self.scripted_opponents and self.table_mix != "single":
            raise ValueError("scripted_opponents sit at tables of one kind (table_mix single)")
        self.exploiter_kinds = tuple(self.exploiter_kinds)
        if not self.exploiter_kinds or not set(self.exploiter_kinds) <= set(EXPLOITER_KINDS):
            raise ValueError(f"exploiter_kinds must list {' or '.join(EXPLOITER_KINDS)}, "
                             f"got {self.exploiter_kinds!r}")
        check_ints(self, ("timesteps", "tables", "rollout_steps", "epochs", "minibatch_size",
                          "snapshot_every", "max_snapshots", "exploiter_steps", "max_exploiters",
                          "checkpoint_every"), 1)
        check_ints(self, ("exploiter_every", "seed"), 0)
        if not self.hidden or min(self.hidden) < 1:
            raise ValueError(f"hidden needs at least one positive layer width, got {self.hidden}")
        if self.activation not in ("tanh", "relu"):
            raise ValueError(f"activation must be tanh or relu, "
                             f"got {self.activation!r}")
        shares = ("self_play_share", "exploiter_table_share", "uniform_table_share")
        for name in shares:
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)}")
        # Without exploiters (learned, searched, rule or scripted opponents) there are no
        # exploiter tables, whatever their share.
        used = [name for name in shares
                if self.exploiter_every or self.rule_opponents or self.scripted_opponents
                or name != "exploiter_table_share"]
        if sum(getattr(self, name) for name in used) > 1.0 + 1e-9:
            raise ValueError(f"{', '.join(used[:-1])} and {used[-1]} add up to more than 1")
        for name in ("learning_rate", "exploiter_learning_rate", "gae_lambda", "clip_range",
                     "reward_scale"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 < value <= (1 if name ==
                                                                         "gae_lambda" else 1e6):
                raise ValueError(f"{name} must be a positive number, got {value!r}")
        for name in ("ent_coef", "vf_coef", "max_grad_norm"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        if self.threads is not None and self.threads < 1:
            raise ValueError(f"threads must be positive, got {self.threads!r}")
        check_ints(self, ("shards",), 1)
        check_ints(self, ("rollout_workers",), 1)
        if self.rollout_workers > 1 and self.ray is None:
            raise ValueError("rollout_workers needs ray (--ray [ADDRESS]): without it the "
                             "run trains in this process")
        _ = self.rules  # an unknown preset or a bad number of seats fails here
        if not re.fullmatch(r"auto|cpu|cuda(:\d+)?", str(self.device)):
            raise ValueError(f"device must be auto, cpu or cuda[:N], got {self.device!r}")

    @property
    def rules(self) -> Rules:
        """The table the run trains for."""
        overrides: dict[str, int] = {}
        if self.players is not None:
            overrides["num_players"] = self.players
        if self.max_hands is not None:
            overrides["max_hands"] = self.max_hands
        return Rules.preset(self.preset, variant=self.variant, **overrides)

    @property
    def workers(self) -> int:
        """The threads that compute the shards (``threads``, or one per core)."""
        return self.threads or os.cpu_count() or 1

    def command(self) -> str:
        """The ``teenpatti selfplay`` command line that makes this run."""
        return command_line("selfplay", self, SelfPlayConfig(), comma_lists=False)
