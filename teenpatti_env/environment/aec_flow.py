"""The episode's flow in the AEC environment: settling hands, votes, whose turn it is.

:class:`EpisodeFlow` is the base of :class:`~teenpatti_env.environment.aec.raw_env`: it
holds what happens between the agents' actions (a finished hand's rewards, the next hand
of a session, the votes between hands under ``vote_to_end``, the agent selected next,
PettingZoo's bookkeeping of agents that have left) and the session facts every view
shares. ``raw_env`` adds the spaces, ``reset``, ``step`` and the observations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pettingzoo import AECEnv

from teenpatti_env.cards import CardLike
from teenpatti_env.engine import Hand
from teenpatti_env.engine.session import Session
from teenpatti_env.environment.actions import ActionLayout
from teenpatti_env.environment.observation import TableFacts
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.rules import Rules

LegalEntry = tuple[list[dict[str, Any]], NDArray[np.int8], frozenset[int]]
"""An agent's legal engine actions, their (shared, read-only) mask and its set indices."""


class EpisodeFlow(AECEnv):  # type: ignore[misc]  # (PettingZoo's AECEnv is untyped)
    """The flow of an episode between the agents' actions (the base of ``raw_env``)."""

    rules: Rules
    layout: ActionLayout
    render_mode: str | None
    possible_agents: list[str]
    agent_name_mapping: dict[str, int]
    agent_selection: str
    _skip_agent_selection: str | None
    hand: Hand | None
    session: Session | None
    voters: list[int]
    """Seats still to vote in this break between hands (C3), the next first."""
    _paid: bool
    # Derived from the state and dropped whenever it changes: each agent's legal
    # engine actions with their (shared, read-only) mask, and the table facts.
    _legal_memo: dict[str, LegalEntry]
    _facts: TableFacts | None
    _hand_facts: tuple[Hand, TableFacts] | None

    def _deal_one(
        self,
        rng: np.random.Generator,
        stacks: Sequence[int] | None,
        cards: Sequence[Sequence[CardLike] | None] | None,
        dealer: int | None,
        table_cards: dict[str, Any],
    ) -> Hand:
        """The hand of an ``episode="hand"`` reset: a random dealer unless one is given."""
        rules = self.rules
        if stacks is None:
            stacks = [rules.starting_stack] * rules.num_players
        if cards is not None and (
            isinstance(cards, (str, bytes))
            or not isinstance(cards, Sequence)
            or len(cards) != rules.num_players
        ):
            raise ValueError(f"cards must list {rules.num_players} seats, got {cards!r}")
        if dealer is None:
            entry = rules.entry_chips
            entering = [s for s, chips in enumerate(stacks) if chips >= entry]
            if not entering:
                raise ValueError("no seat holds the chips needed to enter")
            dealer = entering[int(rng.integers(len(entering)))]
        if cards is None:
            return Hand.deal(rules, stacks, dealer, rng)
        return Hand(rules, cards, stacks, dealer, **table_cards, rng=rng)

    def _after_action(self, agent: str) -> None:
        """Rewards, the next hand and the next agent after ``agent`` acted."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self._settle():
            self._accumulate_rewards()  # (adding the cleared rewards' zeros changes nothing)
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _vote(self, agent: str, seat: int, action: Any) -> None:
        """C3: the seat asked answers ``vote_end`` or ``continue`` between hands."""
        size = self.layout.size
        index = int(action) if isinstance(action, (int, np.integer)) and not isinstance(
            action, bool) else None
        name = self.layout.names[index] if index is not None and 0 <= index < size else None
        if name not in ("vote_end", "continue"):
            raise IllegalActionError(
                f"{agent} cannot take action {action!r}: between hands only vote_end or "
                "continue"
            )
        session = self.session
        assert session is not None
        if name == "vote_end":
            session.vote_end(seat)
        self.voters.pop(0)
        self._after_action(agent)

    def _state_changed(self) -> None:
        """Drop what was derived from the state: legal actions, masks and facts."""
        self._legal_memo = {}
        self._facts = None

    # PettingZoo calls these two after every change of state or of the selected agent
    # (its TerminateIllegal wrapper too), so derived facts are dropped there.
    def _deads_step_first(self) -> str:
        """PettingZoo's: select the first agent that has left, if any (remembering the
        agent it replaces), without building the list of all of them."""
        self._state_changed()
        terminations, truncations = self.terminations, self.truncations
        if any(terminations.values()) or any(truncations.values()):
            for agent in self.agents:
                if terminations[agent] or truncations[agent]:
                    self._skip_agent_selection = self.agent_selection
                    self.agent_selection = agent
                    break
        return str(self.agent_selection)

    def _clear_rewards(self) -> None:
        """PettingZoo's: every reward back to 0, in place (without a Python loop)."""
        rewards = self.rewards
        rewards.update(dict.fromkeys(rewards, 0))

    def _was_dead_step(self, action: Any) -> None:
        super()._was_dead_step(action)
        self._state_changed()

    def _selected_agent(self) -> str:
        """The agent to step; a ``ValueError`` once every agent has left the episode."""
        self._running_hand()  # a RuntimeError before the first reset
        if not self.agents:
            raise ValueError("the episode is over (every agent has left): call reset()")
        return self.agent_selection

    def _running_hand(self) -> Hand:
        if self.hand is None:
            raise RuntimeError("call reset() before using the environment")
        return self.hand

    def _settle(self) -> bool:
        """Pay out finished hands, deal the next one in a session, pick who acts; whether
        a hand's result went into ``rewards``."""
        hand = self._running_hand()
        paid = False
        while hand.over:
            session = self.session
            if not self._paid:  # the hand's result, once
                self._paid = paid = True
                net = hand.net
                assert net is not None
                boot = self.rules.boot
                for agent in self.agents:
                    self.rewards[agent] += net[self.agent_name_mapping[agent]] / boot
                if session is None:
                    self.terminations = dict.fromkeys(self.agents, True)
                    return paid
                active = session.active
                for agent in self.agents:
                    if not active[self.agent_name_mapping[agent]]:
                        self.terminations[agent] = True
                if not session.over and self.rules.vote_to_end:
                    self.voters = self._vote_order(session)
            assert session is not None
            if self.voters:
                self.agent_selection = self.possible_agents[self.voters[0]]
                return paid
            if session.over:
                self.terminations = dict.fromkeys(self.agents, True)
                return paid
            hand = session.new_hand()
            self.hand = hand
            self._paid = False
        assert hand.to_act is not None
        self.agent_selection = self.possible_agents[hand.to_act]
        return paid

    @staticmethod
    def _vote_order(session: Session) -> list[int]:
        """C3: the seats still in the session, from the next dealer's left."""
        n = session.num_seats
        active = session.active
        dealer = session.dealer if session.dealer is not None else n - 1
        following = [(dealer + step) % n for step in range(1, n + 1)]
        next_dealer = next(s for s in following if active[s])
        return [s for s in ((next_dealer + step) % n for step in range(1, n + 1)) if active[s]]

    def table_facts(self) -> TableFacts:
        """The session facts every seat's view and observation share (seats still in,
        hands played and left, the seat asked to vote)."""
        hand = self._running_hand()
        if self.session is None:  # one hand an episode: the facts of the whole hand
            known = self._hand_facts
            if known is None or known[0] is not hand:
                in_session = tuple(hand.dealt_in)
                if known is None or known[1].in_session != in_session:
                    known = (hand, TableFacts(in_session=in_session))
                known = self._hand_facts = (hand, known[1])  # the same seats: the same facts
            return known[1]
        facts = self._facts
        if facts is None:
            session = self.session
            limit = self.rules.max_hands
            played = session.hands_played
            facts = self._facts = TableFacts(
                in_session=tuple(session.active),
                hands_played=played,
                hands_remaining=None if limit is None else max(limit - played, 0),
                voter=self.voters[0] if self.voters else None,
            )
        return facts
