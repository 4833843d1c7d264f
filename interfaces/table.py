"""A session where a person plays against bots: the table behind ``teenpatti play`` and
the web page.

The person sits at seat 0 (``player_0``); local agents take the other seats. The table
plays the bots' turns itself and stops whenever the person must act, so a frontend only
draws :meth:`PlayTable.state` and sends the person's actions to :meth:`PlayTable.act`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agents import Agent, make_agent
from teenpatti_env.aec import raw_env
from teenpatti_env.engine import Hand
from teenpatti_env.errors import IllegalActionError
from teenpatti_env.render import describe_event, describe_private_event
from teenpatti_env.rules import Rules

PERSON = "player_0"
KEPT_HANDS = 20
"""Finished hands whose story :meth:`PlayTable.state` still tells."""


def hand_story(hand: Hand, seat: int) -> list[str]:
    """The hand so far as ``seat`` may know it, one line per event."""
    lines = []
    for event in hand.events_for(seat):
        line = describe_private_event(event) or describe_event(event)
        if line:
            lines.append(line)
    return lines


class PlayTable:
    """One person (seat 0) against ``bots`` (agent specs, one per other seat) for a
    session of at most ``hands`` hands under ``rules`` (a ``Rules``, preset name or dict).
    """

    def __init__(
        self,
        bots: Sequence[str],
        rules: Rules | str | Mapping[str, Any] | None = None,
        hands: int | None = 10,
        seed: int = 0,
        name: str = "you",
    ) -> None:
        if not bots:
            raise ValueError("a table needs at least one bot")
        table_rules = Rules.of(dict(rules) if isinstance(rules, Mapping) else rules)
        self.rules = table_rules.replace(num_players=len(bots) + 1, max_hands=hands)
        self.names = [name, *bots]
        self.bots: dict[int, Agent] = {
            seat: make_agent(spec, seed=seed * 100 + seat) for seat, spec in enumerate(bots, 1)
        }
        for bot in self.bots.values():
            bot.check_rules(self.rules)
        self.env = raw_env(rules=self.rules, episode="session")
        self.env.reset(seed=seed)
        self.finished: list[dict[str, Any]] = []
        self._hand: Hand | None = None
        self._told: Hand | None = None  # the last hand kept in ``finished``
        self._mine: Hand | None = None  # the last hand the person was dealt into
        self.advance()

    @property
    def over(self) -> bool:
        """The session is over for the person (it ended, or the person is out)."""
        env = self.env
        return PERSON not in env.agents or env.terminations[PERSON] or env.truncations[PERSON]

    @property
    def your_turn(self) -> bool:
        return not self.over and self.env.agent_selection == PERSON

    def _note_hand(self) -> None:
        """On a new hand: keep the last one's story, and reset the bots."""
        hand = self.env.hand
        if hand is self._hand:
            return
        if self._hand is not None:
            self._finish(self._hand)
        self._hand = hand
        if hand is not None and hand.dealt_in[0]:
            self._mine = hand
        for bot in self.bots.values():
            bot.reset()

    def _finish(self, hand: Hand) -> None:
        if hand is self._told:
            return
        self._told = hand
        self.finished.append({
            "number": len(self.finished) + 1,
            "story": hand_story(hand, 0),
            "net": list(hand.net or ()),
        })
        del self.finished[:-KEPT_HANDS]

    def advance(self) -> None:
        """Play the bots' turns until the person must act or the session is over."""
        env = self.env
        while env.agents:
            self._note_hand()
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                if agent == PERSON:
                    break
                env.step(None)
                continue
            if agent == PERSON:
                break
            observation = env.observe(agent)
            seat = env.agent_name_mapping[agent]
            env.step(self.bots[seat].act(
                observation["observation"], observation["action_mask"], env.view(agent)
            ))
        if self.over and self._mine is not None and self._mine.over:
            self._finish(self._mine)

    def _shown_hand(self) -> Hand:
        """The hand to draw: the current one, or once the person is out, the last hand
        the person played (the others may already have been dealt another)."""
        hand = self.env.hand
        assert hand is not None
        if self.over and self._mine is not None:
            return self._mine
        return hand

    def act(self, action: Mapping[str, Any]) -> None:
        """The person's action (a hand-history action without its seat); an illegal one
        raises ``IllegalActionError`` and changes nothing."""
        if not self.your_turn:
            raise IllegalActionError("it is not your turn" if not self.over
                                     else "the session is over")
        self.env.step_action(action)
        self.advance()

    def state(self) -> dict[str, Any]:
        """Everything a frontend draws, as JSON-able values: the person's view (its
        ``legal`` actions when it is to act), this hand's story, the finished hands and
        the standings."""
        env = self.env
        session = env.session
        assert session is not None
        hand = self._shown_hand()
        # The environment shows only its current hand; the person's last one, once out,
        # is drawn with the same facts (its legal actions: none).
        view = env.view(PERSON) if hand is env.hand else env.obs_layout.view(
            hand, 0, env.table_facts(), [], [], env.possible_agents)
        return {
            "players": list(self.names),
            "seat": 0,
            "over": self.over,
            "your_turn": self.your_turn,
            "hands_played": session.hands_played,
            "max_hands": self.rules.max_hands,
            "stacks": list(session.stacks) if self.over else list(hand.stacks),
            "view": view,
            "story": hand_story(hand, 0),
            "finished": [dict(h) for h in self.finished],
        }
