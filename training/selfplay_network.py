"""The self-play trainer's networks and the opponents they play as (:mod:`training.selfplay`).

:class:`ActorCritic` is the learner's network; :class:`FrozenActor` a copy of one in the
pool (a snapshot or an exploiter), :class:`UniformActor` the uniform random policy.
:func:`pool_actors` turns the pool's members into the actors a rollout plays, the same
way in this process and in a Ray rollout worker (:mod:`training.selfplay_ray`).
"""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from agents import make_agent
from agents.batch_agent import BatchAgent
from agents.batch_scripted import batch_agent
from agents.policy import NumpyPolicy, PolicyAgent
from agents.policy_family import FamilyAgent
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.rules import Rules
from training.config import SelfPlayConfig
from training.export import policy_from_linears
from training.league_search import rule_actor
from training.scaling import observation_scale
from training.shards import sharded_forward

BatchActor = Callable[[NDArray[np.float32], NDArray[Any]], NDArray[np.int64]]
"""An opponent at the batched tables: ``actor(observations[M, D], masks[M, A]) -> actions[M]``."""


@runtime_checkable
class TableActor(Protocol):
    """A :data:`BatchActor` that also reads the tables it plays at, for the choices its
    observation does not carry (a rule seat's selection-phase turns,
    :class:`training.league_search.RuleSeat`)."""

    def __call__(self, observations: NDArray[np.float32], masks: NDArray[Any]) -> Any: ...

    def at_tables(self, batch: Any, rows: NDArray[np.int64],
                  observations: NDArray[np.float32], masks: NDArray[Any]) -> Any: ...


def actor_actions(actor: BatchActor, batch: Any, rows: NDArray[np.int64],
                  observations: NDArray[np.float32], masks: NDArray[Any]) -> Any:
    """What a pool member plays at the tables ``rows`` of ``batch``, given their
    observations and masks: a :class:`TableActor` is handed the tables too."""
    if isinstance(actor, TableActor):
        return actor.at_tables(batch, rows, observations, masks)
    return actor(observations, masks)


ACTIVATIONS: dict[str, type[nn.Module]] = {"tanh": nn.Tanh, "relu": nn.ReLU}
EXPLOITER = "exploiter"
"""The pool name of an exploiter."""
UNIFORM = "uniform"
"""The pool name of the uniform random policy (the others are snapshots)."""


def resolve_device(name: str) -> torch.device:
    """``auto``: the first CUDA device if torch sees one, else the CPU. A CUDA device that
    is not there is a ``ValueError``."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError as error:
        raise ValueError(f"device must be auto, cpu or cuda[:N], got {name!r}") from error
    if device.type not in ("cpu", "cuda"):
        raise ValueError(f"device must be auto, cpu or cuda[:N], got {name!r}")
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {name!r}: torch sees no CUDA device here")
    return device


# ----------------------------------------------------------------------------- network


def _linear(width_in: int, width_out: int, gain: float) -> nn.Linear:
    linear = nn.Linear(width_in, width_out)
    nn.init.orthogonal_(linear.weight, gain)
    nn.init.zeros_(linear.bias)
    return linear


class ActorCritic(nn.Module):
    """An MLP body over the scaled observation with a policy head and a value head.

    One body serves both heads, so a decision costs one pass through the hidden layers
    (the first layer, 277 inputs wide, is most of the arithmetic)."""

    def __init__(self, observation_size: int, action_size: int, hidden: Sequence[int],
                 activation: str, scale: NDArray[np.float32]) -> None:
        super().__init__()
        self.activation = activation
        self.scale: torch.Tensor
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
        layers: list[nn.Module] = []
        for width_in, width_out in itertools.pairwise([observation_size, *hidden]):
            layers += [_linear(width_in, width_out, math.sqrt(2)), ACTIVATIONS[activation]()]
        self.body = nn.Sequential(*layers)
        self.policy_head = _linear(hidden[-1], action_size, 0.01)
        self.value_head = _linear(hidden[-1], 1, 1.0)

    def forward(self, observations: torch.Tensor,
                masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked action logits (illegal actions at a large negative number) and values."""
        features = self.body(observations * self.scale)
        raw = self.policy_head(features)
        logits = torch.where(masks, raw, torch.full_like(raw, -1e9))
        return logits, self.value_head(features).squeeze(-1)

    def load_policy(self, policy: NumpyPolicy) -> None:
        """Take the body and the policy head from an exported policy of the same shape
        (the value head keeps its own weights)."""
        linears = [m for m in self.body if isinstance(m, nn.Linear)] + [self.policy_head]
        shapes = [tuple(m.weight.shape[::-1]) for m in linears]
        if [w.shape for w in policy.weights] != shapes or policy.activation != self.activation:
            raise ValueError(f"the policy's layers {[w.shape for w in policy.weights]} "
                             f"({policy.activation}) do not fit this network's {shapes} "
                             f"({self.activation})")
        scale = self.scale.detach().cpu().numpy()
        with torch.no_grad():
            for k, (linear, weight, bias) in enumerate(
                    zip(linears, policy.weights, policy.biases, strict=True)):
                unscaled = weight / scale[:, None] if k == 0 else weight
                linear.weight.copy_(torch.as_tensor(unscaled.T))
                linear.bias.copy_(torch.as_tensor(bias))

    def to_numpy_policy(self, rules: Rules, action_names: Sequence[str] | None = None,
                        **extra: Any) -> NumpyPolicy:
        """The torch-free ``teenpatti-policy/1`` form of the body and the policy head (its
        actions ``action_names``, default those of ``rules``)."""
        linears = [m for m in self.body if isinstance(m, nn.Linear)] + [self.policy_head]
        return policy_from_linears(linears, self.scale, self.activation, rules, action_names,
                                   **extra)


def sample_actions(logits: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One action per row, drawn with the probabilities ``softmax(logits)``.

    The Gumbel-max draw: the argmax of the logits plus independent Gumbel noise is
    distributed as the softmax, and costs one uniform draw per logit where
    ``torch.multinomial`` costs a loop per row. A masked action (logit -1e9) cannot win:
    the noise of a float32 uniform draw stays under 17."""
    uniform = torch.rand(logits.shape, generator=generator, device=logits.device)
    return (logits - torch.log(-torch.log(uniform))).argmax(dim=-1)


Exploiter = ActorCritic | NDArray[np.float64]
"""A league exploiter: a network (``ppo``) or a rule setting (``search``)."""
PoolMember = Exploiter | str
"""A member of the league's pool: a snapshot or exploiter, or a scripted agent's name
(``--scripted-opponents``)."""


class FrozenActor:
    """A copy of a policy network as a pool opponent: it samples its actions, or with
    ``greedy`` plays the most likely legal one (as an exported policy plays in the arena)."""

    def __init__(self, model: ActorCritic, device: torch.device, seed: int,
                 greedy: bool = False, shards: int = 1, workers: int = 1) -> None:
        self.model = copy.deepcopy(model).to(device).eval()
        self.shards, self.workers = shards, workers
        for parameter in self.model.parameters():
            parameter.requires_grad_(False)
        self.device = device
        self.greedy = greedy
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)

    @torch.no_grad()
    def __call__(self, observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.int64]:
        obs = torch.as_tensor(observations, device=self.device)
        legal = torch.as_tensor(masks, device=self.device).bool()
        logits = sharded_forward(self.model, obs, legal, self.shards, self.workers)[0]
        chosen = (logits.argmax(dim=-1) if self.greedy
                  else sample_actions(logits, self.generator))
        actions: NDArray[np.int64] = chosen.cpu().numpy()
        return actions


@runtime_checkable
class HandReader(Protocol):
    """A pool actor that remembers what it read during a hand: told which tables were dealt
    a new hand after each step, so that it starts those hands afresh."""

    def new_hands(self, tables: NDArray[np.int64]) -> None: ...


class ScriptedSeat:
    """A scripted agent as a pool opponent (``--scripted-opponents``): its batched form
    (:func:`agents.batch_scripted.batch_agent`, seeded by ``seed``) bound to the tables it
    first plays at. It reads the tables (:class:`TableActor`), and as a
    :class:`HandReader` forgets a hand's reads when the table deals the next."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.seed = seed
        self._agent: BatchAgent | None = None

    def __call__(self, observations: NDArray[np.float32], masks: NDArray[Any]) -> Any:
        raise TypeError(f"the scripted opponent {self.name!r} reads its tables: "
                        "play it with actor_actions")

    def at_tables(self, batch: Any, rows: NDArray[np.int64],
                  observations: NDArray[np.float32], masks: NDArray[Any]) -> Any:
        """Its actions at the tables ``rows`` of ``batch``."""
        if self._agent is None or self._agent.batch is not batch:
            self._agent = batch_agent(self.name, batch, self.seed)
        return self._agent.act(rows, observations, masks)

    def new_hands(self, tables: NDArray[np.int64]) -> None:
        """Forget the hand at ``tables`` (just dealt again)."""
        if self._agent is not None:
            fresh = np.zeros(self._agent.batch.num_tables, np.bool_)
            fresh[tables] = True
            self._agent.reset(fresh)


class UniformActor:
    """The uniform random policy over the legal actions, the first member of a PSRO
    population (it plays as the scripted ``random`` agent does)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng([seed, 2])

    def __call__(self, observations: NDArray[np.float32], masks: NDArray[Any]) -> NDArray[np.int64]:
        draws = np.where(masks.astype(np.bool_), self.rng.random(masks.shape), -1.0)
        actions: NDArray[np.int64] = draws.argmax(axis=1)
        return actions




def new_model(config: SelfPlayConfig, rules: Rules) -> ActorCritic:
    """A freshly initialised network for ``rules``."""
    scale = observation_scale(rules)
    return ActorCritic(len(scale), ActionLayout(rules).size, config.hidden, config.activation,
                       scale)


def starting_policy(name: str, rules: Rules | None = None) -> NumpyPolicy:
    """The trained policy ``name`` (``ppo:PATH``, ``pretrained:NAME``) a network starts
    from; for a policy family (``pretrained:general``), its member for ``rules``."""
    agent = make_agent(name)
    if isinstance(agent, FamilyAgent) and rules is not None:
        agent.check_rules(rules)  # picks the member, or says that none sits there
        return agent.member
    if not isinstance(agent, PolicyAgent):
        raise ValueError(f"a network starts from a trained policy (ppo:PATH or "
                         f"pretrained:NAME), got {name!r}")
    return agent.policy


def configure_torch(config: SelfPlayConfig) -> torch.device:
    """Seed torch, give it one CPU thread (``config.threads`` threads compute the row
    shards, :mod:`training.shards`) and pick the device."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(1)
    return resolve_device(config.device)



def pool_actors(members: Sequence[tuple[str, PoolMember]], rules: Rules, device: torch.device,
                seed: int, updates: int,
                rule_seat: Callable[[NDArray[np.float64]], BatchActor] | None = None,
                shards: int = 1, workers: int = 1, *,
                scripted_seat: Callable[[str], BatchActor]) -> list[BatchActor]:
    """The actors that play the pool's ``members`` (``(name, snapshot or exploiter)``):
    a searched exploiter plays its rule strategy (``rule_seat(params)`` where given, else
    at tables under ``rules``), a scripted agent's name its batched form
    (``scripted_seat(name)``: a :class:`ScriptedSeats` kept for the run, so that a seat's
    reads of the hands in play outlive the pool's changes), a network a
    :class:`FrozenActor` with a seed of its own (from ``seed``, its place in the pool and
    ``updates``, the updates made so far). Exploiters play greedily, as the best responses
    that measure a policy do. A network's forward passes are cut into ``shards`` computed
    by ``workers`` threads (:mod:`training.shards`)."""
    seat_rule = rule_seat or (lambda params: rule_actor(params, rules))
    return [seat_rule(member) if isinstance(member, np.ndarray) else
            scripted_seat(member) if isinstance(member, str) else
            FrozenActor(member, device, seed + 7919 * (k + 1) + updates,
                        greedy=name == EXPLOITER, shards=shards, workers=workers)
            for k, (name, member) in enumerate(members)]


class ScriptedSeats:
    """The scripted opponents of one rollout's tables, each made once and kept while the
    pool changes around it, so that its reads of the hands in play carry on."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._seats: dict[str, ScriptedSeat] = {}

    def __call__(self, name: str) -> ScriptedSeat:
        seat = self._seats.get(name)
        if seat is None:
            seat = self._seats[name] = ScriptedSeat(name, self.seed + 104_729 * len(self._seats))
        return seat
