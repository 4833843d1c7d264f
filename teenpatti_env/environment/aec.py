"""The PettingZoo AEC environment over the engine (``teenpatti_v0``).

``raw_env(**kwargs)`` is the bare environment; ``env(**kwargs)`` adds PettingZoo's
standard wrappers for classic games (an illegal move ends the episode with
``illegal_reward`` for the mover, out-of-range actions are caught, the call order is
enforced). As in PettingZoo's classic games, ``infos[agent]`` is an empty dict, so
every RL library can store it; ``raw_env.view(agent)`` (``env.unwrapped.view(agent)``
through the wrappers) builds the seat's JSON-able view when asked. ``docs/env.md`` has
the action table, the observation slots and the episode rules.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from teenpatti_env.cards import CardLike
from teenpatti_env.engine import TABLE_CARD_FIELDS, validate_table
from teenpatti_env.engine.session import EPISODES, Session
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.aec_flow import EpisodeFlow
from teenpatti_env.environment.aec_flow import LegalEntry as LegalEntry
from teenpatti_env.environment.aec_wrappers import (
    AssertOutOfBoundsWrapper as AssertOutOfBoundsWrapper,
)
from teenpatti_env.environment.aec_wrappers import OrderEnforcingWrapper as OrderEnforcingWrapper
from teenpatti_env.environment.aec_wrappers import (
    TerminateIllegalWrapper as TerminateIllegalWrapper,
)
from teenpatti_env.environment.observation import ObservationLayout
from teenpatti_env.environment.render import render_table
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules import Rules

RESET_OPTIONS = ("dealer", "stacks", "cards", *TABLE_CARD_FIELDS)


class ActionSpace(spaces.Discrete):  # type: ignore[type-arg, unused-ignore]  # (gymnasium 1.2)
    """``Discrete`` whose ``contains`` answers a plain ``int`` without numpy's help
    (the wrappers ask on every step); every other value is gymnasium's to judge."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._size = int(n)

    def contains(self, x: Any) -> bool:
        if type(x) is int:
            return 0 <= x < self._size
        return super().contains(x)


class raw_env(EpisodeFlow):  # noqa: N801 (PettingZoo's name)
    """Teen Patti as a PettingZoo AEC environment.

    Keyword arguments: ``rules`` (a ``Rules``, preset name or dict; default classic),
    ``num_players``, ``episode`` (``"hand"``: one hand an episode; ``"session"``: hands
    until the session ends), ``render_mode`` (``"human"``/``"ansi"``), ``bet_levels``
    (bet sizes in the action space, 2..64, default ``2 * raise_multiple - 1`` up to 64),
    ``stacks`` (chips of each seat at the start of every episode, at most
    :data:`~teenpatti_env.rules.MAX_TABLE_CHIPS` in all; default the starting stack) and
    any ``Rules`` setting as an override (``boot=2``, ``max_bet=64``, ...).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "teenpatti_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] | None = None,
        num_players: int | None = None,
        episode: str = "hand",
        render_mode: str | None = None,
        bet_levels: int | None = None,
        stacks: Sequence[int] | None = None,
        **settings: Any,
    ) -> None:
        super().__init__()
        base = Rules.of(rules)
        if num_players is not None:
            settings["num_players"] = num_players
        self.rules = base.replace(**settings) if settings else base
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'hand' or 'session', got {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        n = self.rules.num_players
        if stacks is not None:
            validate_table(self.rules, stacks, 0, self.rules.num_players)
            stacks = list(stacks)
        self.episode = episode
        self.render_mode = render_mode
        self.stacks = stacks
        self.layout = ActionLayout(self.rules, bet_levels)
        self.obs_layout = ObservationLayout(self.rules)
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        self.obs_layout.low, self.obs_layout.high, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, shape=(self.layout.size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: ActionSpace(self.layout.size) for agent in self.possible_agents
        }
        self.hand = None
        self.session = None
        self.voters = []
        self._paid = False
        self.infos: dict[str, dict[str, Any]] = {}
        self._rng: np.random.Generator | None = None
        self._legal_memo = {}  # (the derived state: see EpisodeFlow)
        self._facts = None
        self._hand_facts = None

    # ----------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict(observation, action_mask)`` space object for every call."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Discrete`` space object for every call."""
        return self.action_spaces[agent]

    @property
    def action_meanings(self) -> tuple[str, ...]:
        """The name of every action index (see :mod:`teenpatti_env.environment.actions`)."""
        return self.layout.names

    # ----------------------------------------------------------------- episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode. ``options`` may fix the first deal with the hand-history
        fields ``dealer``, ``stacks`` and ``cards`` (and a variant's ``community``,
        ``indicators``, ``chosen``); other keys are ignored with a warning.
        A bad option is a ``ValueError`` and leaves the environment as it was.
        """
        if options is not None and not isinstance(options, Mapping):
            raise ValueError(f"reset options are a dict of option names, got "
                             f"{type(options).__name__}")
        options = dict(options) if options else {}
        unknown = sorted(set(options) - set(RESET_OPTIONS)) if options else []
        if unknown:
            warnings.warn(
                f"reset() ignores unknown options {unknown}; it reads {', '.join(RESET_OPTIONS)}",
                stacklevel=2,
            )
        rng = self._rng
        if seed is not None or rng is None:
            rng = np.random.default_rng(seed)
        stacks = options.get("stacks", self.stacks)
        cards: Sequence[Sequence[CardLike] | None] | None = options.get("cards")
        dealer = options.get("dealer")
        table_cards: dict[str, Any] = (
            {k: options[k] for k in TABLE_CARD_FIELDS if k in options} if options else {}
        )
        if table_cards and cards is None:
            raise ValueError(
                f"reset options {', '.join(TABLE_CARD_FIELDS)} need 'cards'"
            )
        if "stacks" in options:  # the environment's own stacks were checked when it was made
            validate_table(self.rules, stacks, 0, self.rules.num_players)
        if stacks is None:
            stacks = [self.rules.starting_stack] * self.rules.num_players
        saved = rng.bit_generator.state
        try:
            if self.episode == "session":
                session: Session | None = Session(self.rules, stacks=stacks, rng=rng)
                assert session is not None
                if session.over:
                    raise ValueError(
                        f"fewer than two seats hold the {self.rules.entry_chips} chips "
                        "needed to enter"
                    )
                hand = session.new_hand(cards=cards, dealer=dealer, **table_cards)
            else:
                session = None
                hand = self._deal_one(rng, stacks, cards, dealer, table_cards)
        except Exception:
            rng.bit_generator.state = saved  # a failed reset draws nothing
            raise
        # Nothing above changed the environment if it raised.
        self._rng = rng
        self.session = session
        self.hand = hand
        self.agents = [a for a in self.possible_agents if hand.dealt_in[self.agent_name_mapping[a]]]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]  # replaced below unless the deal ends the hand
        self._skip_agent_selection = None
        self._state_changed()
        self.voters = []
        self._paid = False
        self._settle()
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        """Apply ``action`` (an index of the action table) for the selected agent."""
        agent = self._selected_agent()
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self._running_hand()
        seat = self.agent_name_mapping[agent]
        if self.voters:
            self._vote(agent, seat, action)
            return
        layout = self.layout
        known = self._legal_memo.get(agent)
        if known is not None and type(action) is int and action in known[2]:
            # a set index of the mask built for this state: a legal action, decoded from it
            allowed = layout.decode_allowed(action, known[0], hand.seen[seat])
            hand.apply_checked({"seat": seat, **allowed})
            self._after_action(agent)
            return
        try:
            engine_action = layout.decode(hand, seat, action)
            hand.apply(engine_action)  # raises, saying why
        except ValueError as error:
            reason = hand.illegal_reason(engine_action) if "engine_action" in locals() else error
            shown = action if not isinstance(action, (int, np.integer)) else int(action)
            in_table = isinstance(shown, int) and 0 <= shown < self.layout.size
            name = f" ({self.layout.names[shown]})" if in_table else ""
            raise IllegalActionError(
                f"{agent} cannot take action {shown!r}{name}: {reason}"
            ) from None
        self._after_action(agent)

    def step_action(self, action: Mapping[str, Any]) -> None:
        """Apply an engine action for the selected agent: a hand-history action dict
        without its seat (``{"type": "bet", "amount": 3}``), so a bet may be any legal
        amount, not only the table's bet levels. Between hands under ``vote_to_end`` it
        is ``{"type": "vote_end"}`` or ``{"type": "continue"}``.

        An illegal action raises ``IllegalActionError`` (the engine's reason) and changes
        nothing. A terminated agent is moved past with ``step(None)``, not here.
        """
        agent = self._selected_agent()
        if self.terminations[agent] or self.truncations[agent]:
            raise IllegalActionError(f"{agent} has left the episode: call step(None)")
        hand = self._running_hand()
        seat = self.agent_name_mapping[agent]
        if not isinstance(action, Mapping):
            raise IllegalActionError(f"{agent}: an action is a dict, got {action!r}")
        kind = action.get("type")
        if self.voters or kind in ("vote_end", "continue"):
            if not self.voters or kind not in ("vote_end", "continue") or len(action) > 1 + (
                "timeout" in action
            ):
                between = "between hands" if self.voters else "during a hand"
                raise IllegalActionError(f"{agent} cannot take {dict(action)!r} {between}")
            self._vote(agent, seat, self.layout.index(kind))
            return
        if action.get("seat", seat) != seat:
            raise IllegalActionError(f"{agent} is seat {seat}, not seat {action.get('seat')!r}")
        hand.apply({**action, "seat": seat})
        self._after_action(agent)

    # ----------------------------------------------------------------- views

    def _legal_and_mask(self, agent: str) -> LegalEntry:
        """The engine's legal actions for ``agent`` when it is the agent to act (else
        []), their mask (shared and read-only: copy it before handing it out) and the
        mask's set indices."""
        entry = self._legal_memo.get(agent)
        if entry is None:
            hand = self._running_hand()
            live = agent in self.terminations and not (
                self.terminations[agent] or self.truncations[agent]
            )
            legal: list[dict[str, Any]]
            if live and self.voters and agent == self.possible_agents[self.voters[0]]:
                legal = [{"type": "vote_end"}, {"type": "continue"}]
            elif live and agent == self.agent_selection and hand.end is None:  # not over
                legal = hand.legal_actions(self.agent_name_mapping[agent])
            else:
                legal = []
            entry = self._legal_memo[agent] = (legal, *self.layout.shared_entry(legal))
        return entry

    def _legal(self, agent: str) -> list[dict[str, Any]]:
        """The engine's legal actions for ``agent`` when it is the agent to act, else []."""
        return self._legal_and_mask(agent)[0]

    def action_mask(self, agent: str) -> NDArray[np.int8]:
        """``agent``'s action mask: exactly the indices that decode to a legal engine
        action; all zeros unless ``agent`` is the one to act."""
        return self._legal_and_mask(agent)[1].copy()

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """``{"observation": float32 vector, "action_mask": int8 vector}`` of ``agent``."""
        hand = self._running_hand()
        seat = self.agent_name_mapping[agent]
        return {
            "observation": self.obs_layout.encode(hand, seat, self.table_facts()),
            "action_mask": self._legal_and_mask(agent)[1].copy(),
        }

    def view(self, agent: str) -> dict[str, Any]:
        """A new JSON-able view of what ``agent`` knows now (its cards, the seats, the pot,
        its legal actions by name, ...), built on this call; ``infos[agent]`` stays empty
        so that every RL library can store it."""
        legal = self._legal(agent)
        return self.obs_layout.view(
            self._running_hand(),
            self.agent_name_mapping[agent],
            self.table_facts(),
            [dict(action) for action in legal],
            self.layout.legal_names(legal),
            self.possible_agents,
        )

    def timeout_index(self) -> int:
        """The action index the agent to act takes when its turn timer runs out
        (VARIANTS.md C4: ``pack``, or ``refuse`` for a pending sideshow)."""
        if self.voters:
            return self.layout.index("continue")  # C4: a missed vote is continue
        hand = self._running_hand()
        return self.layout.encode(hand, hand.timeout_action())

    def action_to_engine(self, agent: str, action: int) -> dict[str, Any]:
        """The engine action (a hand-history action dict) ``action`` means for ``agent``."""
        return self.layout.decode(self._running_hand(), self.agent_name_mapping[agent], action)

    def events(self, agent: str) -> list[dict[str, Any]]:
        """This hand's event log as ``agent`` may know it (public plus its own events)."""
        return self._running_hand().events_for(self.agent_name_mapping[agent])

    def render(self) -> str | None:
        """``"ansi"``: the table as text; ``"human"``: print it."""
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode", stacklevel=2)
            return None
        text = render_table(self._running_hand(), self.possible_agents, self.table_facts())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(illegal_reward: float = -1.0, **kwargs: Any) -> Any:
    """``raw_env`` wrapped as PettingZoo wraps its classic games: an illegal action ends
    the episode with ``illegal_reward`` for the mover (0 for the others), an action out
    of the space is an error, and the call order is enforced."""
    environment: Any = raw_env(**kwargs)
    environment = TerminateIllegalWrapper(environment, illegal_reward=illegal_reward)
    environment = AssertOutOfBoundsWrapper(environment)
    return OrderEnforcingWrapper(environment)
